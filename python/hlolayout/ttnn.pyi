# Type stubs of hlolayout.ttnn.
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

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

def create_sharded_memory_config(shape: Sequence[int],
                                 core_grid: Union[CoreGrid, CoreRangeSet],
                                 strategy: Any, orientation: Any = ...,
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
    def __init__(self, x: int, y: int) -> None: ...
    @property
    def x(self) -> int: ...
    @property
    def y(self) -> int: ...
    def __hash__(self) -> int: ...

class CoreRange:
    def __init__(self, start: Union[CoreCoord, Sequence[int]],
                 end: Optional[Union[CoreCoord, Sequence[int]]] = ...) -> None: ...
    @property
    def start(self) -> CoreCoord: ...
    @property
    def end(self) -> CoreCoord: ...

class CoreRangeSet:
    def __init__(self, ranges: Union[CoreRange, Sequence[Any]]) -> None: ...
    @property
    def ranges(self) -> Tuple[CoreRange, ...]: ...
    def num_cores(self) -> int: ...

class ShardSpec:
    def __init__(self, grid: Any, shard_shape: Optional[Sequence[int]] = ...,
                 shard_orientation: Any = ...) -> None: ...
    @property
    def grid(self) -> CoreRangeSet: ...
    @property
    def shape(self) -> Optional[Tuple[int, ...]]: ...
    @property
    def orientation(self) -> str: ...

class NdShardSpec:
    def __init__(self, shard_shape: Sequence[int], grid: Any,
                 orientation: Any = ...,
                 shard_distribution_strategy: Any = ...) -> None: ...
    @property
    def shard_shape(self) -> Tuple[int, ...]: ...
    @property
    def grid(self) -> CoreRangeSet: ...
    @property
    def orientation(self) -> str: ...
    @property
    def shard_distribution_strategy(self) -> str: ...

class MemoryConfig:
    def __init__(self, memory_layout: Any = ..., buffer_type: Any = ...,
                 shard_spec: Optional[ShardSpec] = ...,
                 nd_shard_spec: Optional[NdShardSpec] = ...) -> None: ...
    @property
    def memory_layout(self) -> str: ...
    @property
    def buffer_type(self) -> str: ...
    @property
    def shard_spec(self) -> Optional[ShardSpec]: ...
    @property
    def nd_shard_spec(self) -> Optional[NdShardSpec]: ...
    def is_sharded(self) -> bool: ...

class Tile:
    def __init__(self, tile_shape: Sequence[int] = ...) -> None: ...
    @property
    def tile_shape(self) -> Tuple[int, ...]: ...

class DeviceParams:
    def __init__(self, l1_alignment: Optional[int] = ...,
                 dram_alignment: Optional[int] = ...,
                 l1_banks: Optional[int] = ...,
                 dram_banks: Optional[int] = ..., name: str = ...) -> None: ...
    @property
    def name(self) -> str: ...
    l1_alignment: int
    dram_alignment: int
    l1_banks: int
    dram_banks: int

class TensorSpec:
    def __init__(self, shape: Sequence[int], dtype: Any, layout: Any,
                 memory_config: Optional[MemoryConfig] = ...,
                 tile: Optional[Union[Tile, Sequence[int]]] = ...,
                 device: Optional[Union[DeviceParams, str]] = ...) -> None: ...
    @property
    def shape(self) -> Tuple[int, ...]: ...
    @property
    def dtype(self) -> str: ...
    @property
    def layout(self) -> str: ...
    @property
    def tile(self) -> Tile: ...
    @property
    def input_memory_config(self) -> MemoryConfig: ...
    @property
    def device(self) -> DeviceParams: ...
    @property
    def memory_config(self) -> MemoryConfig: ...
    @property
    def warnings(self) -> List[str]: ...
    @property
    def device_name(self) -> str: ...
    @property
    def shard_shape_derived(self) -> bool: ...
    @property
    def logical_2d_shape(self) -> Tuple[int, int]: ...
    @property
    def physical_shape(self) -> Tuple[int, int]: ...
    @property
    def page_shape(self) -> Tuple[int, int]: ...
    @property
    def alignment(self) -> Tuple[int, ...]: ...
    @property
    def padded_shape(self) -> Tuple[int, ...]: ...
    @property
    def strides(self) -> Tuple[int, ...]: ...
    @property
    def page_size_bytes(self) -> int: ...
    @property
    def packed_buffer_size_bytes(self) -> int: ...
    @property
    def num_pages(self) -> int: ...
    def consumed_bytes_per_bank(self, page_alignment: Optional[int] = ...,
                                num_banks: Optional[int] = ...) -> int: ...
    def aligned_page_size(self,
                          page_alignment: Optional[int] = ...) -> int: ...
    def answer(self, full: bool = ...) -> SpecAnswer: ...
    def to_dict(self, full: bool = ...) -> Dict[str, Any]: ...
    def text(self, full: bool = ...) -> str: ...
    def draw(self,
             core: Optional[Union[CoreCoord, Sequence[int]]] = ...) -> str: ...
    def _repr_svg_(self) -> str: ...
    def _repr_html_(self) -> str: ...
    @property
    def num_cores(self) -> int: ...
    @property
    def num_shards(self) -> int: ...
    @property
    def num_cores_with_data(self) -> int: ...
    @property
    def max_num_shards_per_core(self) -> int: ...
    @property
    def max_num_dev_pages_per_core(self) -> int: ...
    @property
    def shard_shape_in_pages(self) -> Tuple[int, ...]: ...
    @property
    def tensor_shape_in_pages(self) -> Tuple[int, ...]: ...
    @property
    def cores(self) -> List[CoreCoord]: ...
    def shards_on_core(self, core: int) -> int: ...
    def host_pages(self, core: int) -> npt.NDArray[np.int64]: ...
    def place(self, host_page: int) -> Tuple[CoreCoord, int, int]: ...
    def locate(self, index: Sequence[int]) -> Dict[str, Any]: ...

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

def distribute(tensor: Union[TensorSpec, Sequence[int]],
               mesh_shape: Sequence[int],
               config: MeshMapperConfig) -> List[MeshSlice]: ...
