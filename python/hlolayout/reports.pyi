# Type stubs of hlolayout.reports (reports.py).
import os
from typing import Any, Dict, Optional, Tuple, Union

from .memory_usage import CompiledMemoryStats

PADDED: str

class ModuleTotals:
    _fields: Tuple[str, ...]
    computations: int
    instructions: int
    instructions_without_shape: int
    buffer_values: int
    buffer_logical_bytes: int
    buffer_padded_bytes: int
    buffer_padding_bytes: int
    buffer_overflow: bool
    array_leaves: int
    unsized_array_leaves: int
    array_leaf_logical_bytes: int
    array_leaf_padded_bytes: int
    padding_bytes: int
    expansion: float
    overflow: bool
    def to_dict(self) -> Dict[str, Any]: ...
    def _repr_html_(self) -> str: ...
    def __getitem__(self, key: str) -> Any: ...  # deprecated

class MemorySpaceTotals:
    _fields: Tuple[str, ...]
    memory_space: int
    key: str
    name: str
    buffer_values: int
    buffer_logical_bytes: int
    buffer_padded_bytes: int
    buffer_padding_bytes: int
    buffer_overflow: bool
    instructions: int
    array_leaves: int
    array_leaf_logical_bytes: int
    array_leaf_padded_bytes: int
    padding_bytes: int
    expansion: float
    overflow: bool
    def to_dict(self) -> Dict[str, Any]: ...
    def _repr_html_(self) -> str: ...
    def __getitem__(self, key: str) -> Any: ...  # deprecated

class PaddingWaster:
    _fields: Tuple[str, ...]
    computation: str
    instruction: str
    index: Tuple[int, ...]
    shape: str
    memory_space: str
    array_leaf_logical_bytes: int
    array_leaf_padded_bytes: int
    padding_bytes: int
    expansion: float
    overflow: bool
    reasons: Tuple[str, ...]
    also_defined_by: Tuple[str, ...]
    aliases: Tuple[str, ...]
    def to_dict(self) -> Dict[str, Any]: ...
    def _repr_html_(self) -> str: ...
    def __getitem__(self, key: str) -> Any: ...  # deprecated

class ReportRow:
    _fields: Tuple[str, ...]
    computation: str
    instruction: str
    opcode: str
    root: bool
    shape: Optional[str]
    memory_space: Optional[str]
    array_leaves: int
    unsized_array_leaves: int
    array_leaf_logical_bytes: int
    array_leaf_padded_bytes: int
    padding_bytes: int
    expansion: float
    overflow: bool
    buffer: str
    buffer_logical_bytes: int
    buffer_padded_bytes: int
    buffer_padding_bytes: int
    buffer_overflow: bool
    def to_dict(self) -> Dict[str, Any]: ...
    def _repr_html_(self) -> str: ...
    def __getitem__(self, key: str) -> Any: ...  # deprecated

class ModuleReport:
    _fields: Tuple[str, ...]
    name: str
    entry_computation: str
    totals: ModuleTotals
    memory_spaces: Tuple[MemorySpaceTotals, ...]
    padding_wasters_note: Optional[str]
    top_padding_wasters: Optional[Tuple[PaddingWaster, ...]]
    instructions: Optional[Tuple[ReportRow, ...]]
    def to_dict(self) -> Dict[str, Any]: ...
    def _repr_html_(self) -> str: ...
    def __getitem__(self, key: str) -> Any: ...  # deprecated

class Report:
    _fields: Tuple[str, ...]
    modules: Tuple[ModuleReport, ...]
    errors: Tuple[str, ...]
    def to_dict(self) -> Dict[str, Any]: ...
    def _repr_html_(self) -> str: ...
    def __getitem__(self, key: str) -> Any: ...  # deprecated

class DumpFolderRow:
    _fields: Tuple[str, ...]
    file: str
    module: str
    computations: int
    instructions: int
    buffer_values: int
    buffer_logical_bytes: int
    buffer_padded_bytes: int
    padding_bytes: int
    expansion: float
    buffer_overflow: bool
    scheduled: bool
    platform: Optional[str]
    allocated_bytes: Optional[int]
    memory_analysis: Optional[CompiledMemoryStats]
    peak_bytes: Optional[int]
    peak_error: Optional[str]
    def to_dict(self) -> Dict[str, Any]: ...
    def _repr_html_(self) -> str: ...
    def __getitem__(self, key: str) -> Any: ...  # deprecated

class SkippedFile:
    _fields: Tuple[str, ...]
    file: str
    reason: str
    def to_dict(self) -> Dict[str, Any]: ...
    def _repr_html_(self) -> str: ...
    def __getitem__(self, key: str) -> Any: ...  # deprecated

class FailedFile:
    _fields: Tuple[str, ...]
    file: str
    error: str
    def to_dict(self) -> Dict[str, Any]: ...
    def _repr_html_(self) -> str: ...
    def __getitem__(self, key: str) -> Any: ...  # deprecated

class DumpFolderTable:
    _fields: Tuple[str, ...]
    folder: str
    files_read: int
    max_bytes_in_flight: int
    modules: Tuple[DumpFolderRow, ...]
    skipped: Tuple[SkippedFile, ...]
    failed: Tuple[FailedFile, ...]
    errors: Tuple[str, ...]
    def to_dict(self) -> Dict[str, Any]: ...
    def _repr_html_(self) -> str: ...
    def __getitem__(self, key: str) -> Any: ...  # deprecated

def report(path_or_text: Union[str, bytes, os.PathLike], summary: bool = ...,
           top: int = ..., threads: Optional[int] = ...,
           sort: Optional[str] = ...) -> Union[Report, DumpFolderTable]: ...
