# Type stubs of hlolayout.ttnn.
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

__all__ = [
    "TensorSpec", "MemoryConfig", "ShardSpec", "NdShardSpec", "CoreRangeSet",
    "CoreRange", "CoreCoord", "Tile", "TtnnRefusal", "TensorMemoryLayout",
    "BufferType", "ShardOrientation", "ShardDistributionStrategy", "Layout",
    "DataType", "TILE_LAYOUT", "ROW_MAJOR_LAYOUT", "bfloat16", "float32",
    "uint32", "bfloat8_b", "bfloat4_b", "uint8", "uint16", "int32", "int8",
    "fp8_e4m3", "PlacementShard", "PlacementReplicate", "MeshMapperConfig",
    "MeshSlice", "distribute", "DeviceParams", "TtnnDeviceWarning", "device_info",
    "CoreGrid", "ShardStrategy", "create_sharded_memory_config",
]

class TtnnRefusal(ValueError):
    rule: Optional[str]
    def __init__(self, message: str, rule: Optional[str]) -> None: ...

class TtnnDeviceWarning(UserWarning): ...

class BankBytes:
    _fields: Tuple[str, ...]
    bytes: int
    num_banks: int
    page_alignment: int
    def to_dict(self) -> Dict[str, Any]: ...
    def _repr_html_(self) -> str: ...
    def __getitem__(self, key: str) -> Any: ...  # deprecated

class CorePages:
    _fields: Tuple[str, ...]
    core: Tuple[int, int]
    first_host_pages: Tuple[int, ...]
    num_dev_pages: int
    num_shards: int
    def to_dict(self) -> Dict[str, Any]: ...
    def _repr_html_(self) -> str: ...
    def __getitem__(self, key: str) -> Any: ...  # deprecated

class ResolvedNdShardSpec:
    _fields: Tuple[str, ...]
    distribution: str
    grid: Tuple[Tuple[Tuple[int, int], Tuple[int, int]], ...]
    orientation: str
    shard_shape: Tuple[int, ...]
    def to_dict(self) -> Dict[str, Any]: ...
    def _repr_html_(self) -> str: ...
    def __getitem__(self, key: str) -> Any: ...  # deprecated

class ResolvedShardSpec:
    _fields: Tuple[str, ...]
    grid: Tuple[Tuple[Tuple[int, int], Tuple[int, int]], ...]
    orientation: str
    shape: Tuple[int, int]
    def to_dict(self) -> Dict[str, Any]: ...
    def _repr_html_(self) -> str: ...
    def __getitem__(self, key: str) -> Any: ...  # deprecated

class ShardSpecBuffer:
    _fields: Tuple[str, ...]
    num_pages_per_shard: int
    page_shape: Tuple[int, int]
    shard_shape_in_pages: Tuple[int, int]
    tensor2d_shape_in_pages: Tuple[int, int]
    def to_dict(self) -> Dict[str, Any]: ...
    def _repr_html_(self) -> str: ...
    def __getitem__(self, key: str) -> Any: ...  # deprecated

class SpecAnswer:
    _fields: Tuple[str, ...]
    alignment: Tuple[int, ...]
    consumed_bytes_per_bank: BankBytes
    device: Optional[str]
    distribution: Optional[SpecDistribution]
    logical_2d_shape: Tuple[int, int]
    memory_layout: str
    num_pages: int
    packed_buffer_size_bytes: int
    padded_shape: Tuple[int, ...]
    page_shape: Tuple[int, int]
    page_size_bytes: int
    physical_shape: Tuple[int, int]
    resolved_nd_shard_spec: Optional[ResolvedNdShardSpec]
    resolved_shard_spec: Optional[ResolvedShardSpec]
    shard_shape_derived: Optional[bool]
    shard_spec_buffer: Optional[ShardSpecBuffer]
    strides: Tuple[int, ...]
    warnings: Optional[Tuple[str, ...]]
    def to_dict(self) -> Dict[str, Any]: ...
    def _repr_html_(self) -> str: ...
    def __getitem__(self, key: str) -> Any: ...  # deprecated

class SpecDistribution:
    _fields: Tuple[str, ...]
    cores: Tuple[Tuple[int, int], ...]
    max_num_dev_pages_per_core: int
    max_num_shards_per_core: int
    num_cores: int
    num_cores_with_data: int
    num_shards: int
    page_mapping: Tuple[CorePages, ...]
    shard_shape_in_pages: Tuple[int, ...]
    tensor_shape_in_pages: Tuple[int, ...]
    def to_dict(self) -> Dict[str, Any]: ...
    def _repr_html_(self) -> str: ...
    def __getitem__(self, key: str) -> Any: ...  # deprecated

def device_info(name: str = ...) -> Dict[str, Any]: ...

class ShardStrategy:
    HEIGHT: str
    WIDTH: str
    BLOCK: str

class CoreGrid:
    x: int
    y: int
    def __init__(self, *, x: int, y: int) -> None: ...
    def num_cores(self) -> int: ...

def create_sharded_memory_config(
    shape: Sequence[int], core_grid: Union[CoreGrid, CoreRangeSet], strategy: Any,
    orientation: Any = ...,
    use_height_and_width_as_shard_shape: bool = ...) -> MemoryConfig: ...

class TensorMemoryLayout:
    INTERLEAVED: str
    HEIGHT_SHARDED: str
    WIDTH_SHARDED: str
    BLOCK_SHARDED: str
    ND_SHARDED: str

class BufferType:
    DRAM: str
    L1: str

class ShardOrientation:
    ROW_MAJOR: str
    COL_MAJOR: str

class ShardDistributionStrategy:
    ROUND_ROBIN_1D: str
    GRID_2D: str

class Layout:
    ROW_MAJOR: str
    TILE: str

class DataType:
    BFLOAT16: str
    FLOAT32: str
    UINT32: str
    BFLOAT8_B: str
    BFLOAT4_B: str
    UINT8: str
    UINT16: str
    INT32: str
    FP8_E4M3: str
    INT8: str

TILE_LAYOUT: str
ROW_MAJOR_LAYOUT: str
bfloat16: str
float32: str
uint32: str
bfloat8_b: str
bfloat4_b: str
uint8: str
uint16: str
int32: str
int8: str
fp8_e4m3: str

class CoreCoord:
    x: int
    y: int
    def __init__(self, x: int, y: int) -> None: ...

class CoreRange:
    start: CoreCoord
    end: CoreCoord
    def __init__(self, start: Union[CoreCoord, Sequence[int]],
                 end: Optional[Union[CoreCoord, Sequence[int]]] = ...) -> None: ...

class CoreRangeSet:
    ranges: Tuple[CoreRange, ...]
    def __init__(self, ranges: Union[CoreRange, Sequence[Any]]) -> None: ...
    def num_cores(self) -> int: ...

class ShardSpec:
    grid: CoreRangeSet
    shape: Optional[Tuple[int, ...]]
    orientation: str
    def __init__(self, grid: Any, shard_shape: Optional[Sequence[int]] = ...,
                 shard_orientation: Any = ...) -> None: ...

class NdShardSpec:
    shard_shape: Tuple[int, ...]
    grid: CoreRangeSet
    orientation: str
    shard_distribution_strategy: str
    def __init__(self, shard_shape: Sequence[int], grid: Any,
                 orientation: Any = ...,
                 shard_distribution_strategy: Any = ...) -> None: ...

class MemoryConfig:
    memory_layout: str
    buffer_type: str
    shard_spec: Optional[ShardSpec]
    nd_shard_spec: Optional[NdShardSpec]
    def __init__(self, memory_layout: Any = ..., buffer_type: Any = ...,
                 shard_spec: Optional[ShardSpec] = ...,
                 nd_shard_spec: Optional[NdShardSpec] = ...) -> None: ...
    def is_sharded(self) -> bool: ...

class Tile:
    tile_shape: Tuple[int, ...]
    def __init__(self, tile_shape: Sequence[int] = ...) -> None: ...

class DeviceParams:
    l1_alignment: int
    dram_alignment: int
    l1_banks: int
    dram_banks: int
    name: str
    def __init__(self, l1_alignment: Optional[int] = ...,
                 dram_alignment: Optional[int] = ...,
                 l1_banks: Optional[int] = ..., dram_banks: Optional[int] = ...,
                 name: str = ...) -> None: ...

class TensorSpec:
    shape: Tuple[int, ...]
    dtype: str
    layout: str
    tile: Tile
    input_memory_config: MemoryConfig
    memory_config: MemoryConfig
    device: DeviceParams
    def __init__(self, shape: Sequence[int], dtype: Any, layout: Any,
                 memory_config: Optional[MemoryConfig] = ...,
                 tile: Optional[Union[Tile, Sequence[int]]] = ...,
                 device: Optional[Union[DeviceParams, str]] = ...) -> None: ...
    warnings: List[str]
    device_name: str
    shard_shape_derived: bool
    def draw(self, core: Optional[Union[CoreCoord, Sequence[int]]] = ...) -> str: ...
    def _repr_svg_(self) -> str: ...
    def text(self, full: bool = ...) -> str: ...
    def _repr_html_(self) -> str: ...
    padded_shape: Tuple[int, ...]
    logical_2d_shape: Tuple[int, int]
    physical_shape: Tuple[int, int]
    alignment: Tuple[int, ...]
    page_shape: Tuple[int, int]
    page_size_bytes: int
    packed_buffer_size_bytes: int
    num_pages: int
    strides: Tuple[int, ...]
    num_cores: int
    num_shards: int
    num_cores_with_data: int
    max_num_shards_per_core: int
    max_num_dev_pages_per_core: int
    shard_shape_in_pages: Tuple[int, ...]
    tensor_shape_in_pages: Tuple[int, ...]
    @property
    def cores(self) -> List[CoreCoord]: ...
    def consumed_bytes_per_bank(self, page_alignment: Optional[int] = ...,
                                num_banks: Optional[int] = ...) -> int: ...
    def aligned_page_size(self, page_alignment: Optional[int] = ...) -> int: ...
    def shards_on_core(self, core: int) -> int: ...
    def host_pages(self, core: int) -> np.ndarray: ...
    def place(self, host_page: int) -> Tuple[CoreCoord, int, int]: ...
    def locate(self, index: Sequence[int]) -> Dict[str, Any]: ...
    def to_dict(self, full: bool = ...) -> Dict[str, Any]: ...
    def answer(self, full: bool = ...) -> SpecAnswer: ...

class PlacementShard:
    dim: int
    def __init__(self, dim: int) -> None: ...

class PlacementReplicate: ...

class MeshMapperConfig:
    placements: Tuple[Union[PlacementShard, PlacementReplicate], ...]
    mesh_shape_override: Optional[Tuple[int, ...]]
    def __init__(self,
                 placements: Sequence[Union[PlacementShard, PlacementReplicate]],
                 mesh_shape_override: Optional[Sequence[int]] = ...) -> None: ...

class MeshSlice:
    device: Tuple[int, ...]
    holds_data: bool
    begin: Optional[Tuple[int, ...]]
    end: Optional[Tuple[int, ...]]
    spec: Optional[TensorSpec]
    def __init__(self, device: Tuple[int, ...], holds_data: bool,
                 begin: Optional[Tuple[int, ...]],
                 end: Optional[Tuple[int, ...]],
                 spec: Optional[TensorSpec]) -> None: ...

def distribute(tensor: Union[TensorSpec, Sequence[int]], mesh_shape: Sequence[int],
               config: MeshMapperConfig) -> List[MeshSlice]: ...
