# Type stubs of hlolayout.memory_usage (memory_usage.py).
import os
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

from .reports import DumpFolderTable

TWO_TEMPS: str

class CompiledMemoryStats:
    _fields: Tuple[str, ...]
    argument_size_in_bytes: int
    output_size_in_bytes: int
    alias_size_in_bytes: int
    temp_size_in_bytes: int
    peak_memory_in_bytes: int
    host_argument_size_in_bytes: int
    host_output_size_in_bytes: int
    host_alias_size_in_bytes: int
    host_temp_size_in_bytes: int
    generated_code_size_in_bytes: None
    host_generated_code_size_in_bytes: None
    def to_dict(self) -> Dict[str, Any]: ...
    def _repr_html_(self) -> str: ...
    def __getitem__(self, key: str) -> Any: ...  # deprecated

class SizingValue:
    _fields: Tuple[str, ...]
    name: str
    shape: str
    bytes: int
    offset: int
    start: Optional[int]
    end: Optional[int]
    def to_dict(self) -> Dict[str, Any]: ...
    def _repr_html_(self) -> str: ...
    def __getitem__(self, key: str) -> Any: ...  # deprecated

class HeapInfo:
    _fields: Tuple[str, ...]
    size: int
    offset: int
    peak: int
    alignment: int
    peak_time: int
    peak_instruction: str
    peak_value_count: int
    peak_values: Tuple[SizingValue, ...]
    peak_alignment_bytes: int
    def to_dict(self) -> Dict[str, Any]: ...
    def _repr_html_(self) -> str: ...
    def __getitem__(self, key: str) -> Any: ...  # deprecated

class AssignedValue:
    _fields: Tuple[str, ...]
    id: int
    instruction: str
    index: Tuple[int, ...]
    shape: str
    offset: int
    size: int
    start: Optional[int]
    end: Optional[int]
    name: str  # deprecated: instruction
    def to_dict(self) -> Dict[str, Any]: ...
    def _repr_html_(self) -> str: ...
    def __getitem__(self, key: str) -> Any: ...  # deprecated

class Allocation:
    _fields: Tuple[str, ...]
    index: int
    size: int
    color: int
    kind: str
    parameter_number: Optional[int]
    parameter_index: Optional[Tuple[int, ...]]
    parameter_aliased: Optional[bool]
    maybe_live_out: bool
    size_set_by: Tuple[str, ...]
    values: Tuple[AssignedValue, ...]
    def to_dict(self) -> Dict[str, Any]: ...
    def _repr_html_(self) -> str: ...
    def __getitem__(self, key: str) -> Any: ...  # deprecated

class LiveValue:
    _fields: Tuple[str, ...]
    instruction: str
    index: Tuple[int, ...]
    bytes: int
    logical_bytes: int
    start: int
    end: int
    shape: str
    def to_dict(self) -> Dict[str, Any]: ...
    def _repr_html_(self) -> str: ...
    def __getitem__(self, key: str) -> Any: ...  # deprecated

class MemoryPeak:
    _fields: Tuple[str, ...]
    memory_space: Optional[int]
    bytes: int
    time: int
    instruction: Optional[str]
    op_name: Optional[str]
    live: Tuple[LiveValue, ...]
    computation: Optional[str]
    live_count: int
    by_op_name_prefix: Tuple[Tuple[str, int], ...]
    def to_dict(self) -> Dict[str, Any]: ...
    def _repr_html_(self) -> str: ...
    def __getitem__(self, key: str) -> Any: ...  # deprecated

class ModuleMemory:
    _fields: Tuple[str, ...]
    module: str
    schedule_end: int
    value_count: int
    replayed_scheduler: Optional[str]
    peaks: Tuple[MemoryPeak, ...]
    platform: str
    memory_analysis: Optional[CompiledMemoryStats]
    allocated_bytes: Optional[int]
    heap: Optional[HeapInfo]
    rounding_bytes: Optional[int]
    allocations: Optional[Tuple[Allocation, ...]]
    tpu: Optional[TpuMemory]
    def to_dict(self) -> Dict[str, Any]: ...
    def _repr_html_(self) -> str: ...
    def __getitem__(self, key: str) -> Any: ...  # deprecated

class TpuHeapPeak:
    _fields: Tuple[str, ...]
    allocation: int
    bytes: int
    heap_bytes: int
    time: int
    instruction: str
    value_count: int
    values: Tuple[TpuHeapValue, ...]
    def to_dict(self) -> Dict[str, Any]: ...
    def _repr_html_(self) -> str: ...
    def __getitem__(self, key: str) -> Any: ...  # deprecated

class TpuHeapValue:
    _fields: Tuple[str, ...]
    name: str
    shape: str
    bytes: int
    offset: int
    start: int
    end: int
    op_name: str
    source: str
    def to_dict(self) -> Dict[str, Any]: ...
    def _repr_html_(self) -> str: ...
    def __getitem__(self, key: str) -> Any: ...  # deprecated

class TpuMemory:
    _fields: Tuple[str, ...]
    chip: Optional[str]
    chip_from: str
    devices: int
    figures_from: str
    checked: bool
    spaces: Tuple[TpuMemorySpace, ...]
    hbm_bytes: int
    hbm_limit_bytes: Optional[int]
    fits: Optional[bool]
    hbm_left_bytes: Optional[int]
    fits_on: Tuple[str, ...]
    heap_peak: Optional[TpuHeapPeak]
    padding: TpuPadding
    def to_dict(self) -> Dict[str, Any]: ...
    def _repr_html_(self) -> str: ...
    def __getitem__(self, key: str) -> Any: ...  # deprecated

class TpuMemorySpace:
    _fields: Tuple[str, ...]
    memory_space: int
    xla_name: str
    title: str
    allocated_bytes: int
    allocations: int
    parameter_bytes: int
    output_bytes: int
    temp_bytes: int
    other_bytes: int
    live_range_peak_bytes: Optional[int]
    live_range_peak_time: Optional[int]
    capacity_bytes: Optional[int]
    left_bytes: Optional[int]
    def to_dict(self) -> Dict[str, Any]: ...
    def _repr_html_(self) -> str: ...
    def __getitem__(self, key: str) -> Any: ...  # deprecated

class TpuPaddedArray:
    _fields: Tuple[str, ...]
    allocation: int
    kind: str
    name: str
    values: int
    shape: str
    bytes: int
    logical_bytes: int
    padding_bytes: int
    ratio: float
    op_name: str
    source: str
    cheaper_layout: Optional[str]
    cheaper_bytes: Optional[int]
    def to_dict(self) -> Dict[str, Any]: ...
    def _repr_html_(self) -> str: ...
    def __getitem__(self, key: str) -> Any: ...  # deprecated

class TpuPadding:
    _fields: Tuple[str, ...]
    bytes: int
    own_bytes: int
    heap_bytes: Optional[int]
    arrays: int
    ratio_floor_bytes: int
    by_bytes: Tuple[TpuPaddedArray, ...]
    by_ratio: Tuple[TpuPaddedArray, ...]
    def to_dict(self) -> Dict[str, Any]: ...
    def _repr_html_(self) -> str: ...
    def __getitem__(self, key: str) -> Any: ...  # deprecated

def memory(path_or_text: Union[str, bytes, os.PathLike, Sequence[Union[str, os.PathLike]]],
           top: Optional[int] = ..., space: Optional[int] = ...,
           platform: Optional[str] = ..., threads: Optional[int] = ...,
           sort: Optional[str] = ...,
           tpu: Optional[str] = ...) -> Union[List[ModuleMemory], DumpFolderTable]: ...
