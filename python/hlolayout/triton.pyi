# Type stubs of hlolayout.triton (Triton 3.6.0's triton.tools.LinearLayout
# API, plus what Triton does not bind).
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

Bases = Union[Sequence[Tuple[str, Sequence[Sequence[int]]]],
              Dict[str, Sequence[Sequence[int]]]]
# Python ints (Triton's scalar form), or NumPy arrays / lists of integers
# (the vectorised form: arrays of int32 out, of the inputs' broadcast shape),
# or one 2-D (n, in-dims) array (an (n, out-dims) array out).
Inputs = Union[Dict[str, Any], Sequence[Tuple[str, Any]], Any]

class LinearLayout:
    def __init__(self) -> None: ...
    @staticmethod
    def identity_1d(size: int, inDim: str, outDim: str) -> "LinearLayout": ...
    @staticmethod
    def strided_1d(size: int, stride: int, inDim: str,
                   outDim: str) -> "LinearLayout": ...
    @staticmethod
    def zeros_1d(size: int, inDim: str, outDim: str,
                 outDimSize: int = ...) -> "LinearLayout": ...
    @staticmethod
    def from_bases(bases: Bases, out_dim_names: Sequence[str],
                   out_dim_sizes: Optional[Sequence[int]] = ...,
                   require_surjective: bool = ...) -> "LinearLayout": ...
    def compose(self, outer: "LinearLayout") -> "LinearLayout": ...
    def invert_and_compose(self, outer: "LinearLayout") -> "LinearLayout": ...
    def invert(self) -> "LinearLayout": ...
    def pseudoinvert(self) -> "LinearLayout": ...
    def is_surjective(self) -> bool: ...
    def is_injective(self) -> bool: ...
    def is_invertible(self) -> bool: ...
    def get_in_dim_names(self) -> List[str]: ...
    def get_out_dim_names(self) -> List[str]: ...
    @property
    def bases(self) -> List[Tuple[str, List[List[int]]]]: ...
    @property
    def out_dims(self) -> List[Tuple[str, int]]: ...
    @property
    def num_in_dims(self) -> int: ...
    @property
    def num_out_dims(self) -> int: ...
    def __mul__(self, other: "LinearLayout") -> "LinearLayout": ...
    def __imul__(self, other: "LinearLayout") -> "LinearLayout": ...
    def get_shared_view(self, use_hw_point_of_view: bool) -> str: ...
    def get_distributed_view(self, use_hw_point_of_view: bool) -> str: ...
    def apply(self, inputs: Inputs) -> Any: ...
    def get_matrix_view(self) -> List[List[int]]: ...
    def get_in_dim_size(self, dim: str) -> int: ...
    def get_out_dim_size(self, dim: str) -> int: ...
    def reshape_ins(self, dims: Sequence[Tuple[str, int]]) -> "LinearLayout": ...
    def reshape_outs(self, dims: Sequence[Tuple[str, int]]) -> "LinearLayout": ...
    def flatten_ins(self) -> "LinearLayout": ...
    def flatten_outs(self) -> "LinearLayout": ...
    def transpose_ins(self, order: Sequence[str]) -> "LinearLayout": ...
    def transpose_outs(self, order: Sequence[str]) -> "LinearLayout": ...
    def sublayout(self, ins: Sequence[str],
                  outs: Sequence[str]) -> "LinearLayout": ...
    def sublayout_is_zero(self, ins: Sequence[str], outs: Sequence[str]) -> bool: ...
    def concat_ins(self, other: "LinearLayout") -> "LinearLayout": ...
    def concat_outs(self, other: "LinearLayout") -> "LinearLayout": ...
    def divide_left(self, other: "LinearLayout") -> Optional["LinearLayout"]: ...
    def divide_right(self, other: "LinearLayout") -> Optional["LinearLayout"]: ...
    def is_trivial_over(self, dims: Sequence[str]) -> bool: ...
    def quotient(self, dims: Sequence[str]) -> Optional["LinearLayout"]: ...
    def get_free_variable_masks(self) -> Dict[str, int]: ...
    def get_num_consecutive_in_out(self) -> int: ...
    def to_json(self) -> str: ...
    def to_ttgir(self, alignment: int = ...) -> str: ...

class Drawing:
    svg: str
    text: str
    def _repr_svg_(self) -> str: ...

Shape = Union[str, Sequence[int]]

class ConvertCost:
    _fields: Tuple[str, ...]
    bits: int
    bits_assumed: bool
    target_assumed: bool
    not_modelled: Optional[str]
    kind: Optional[str]
    map_str: Optional[str]
    target: str
    scratch_bytes: Optional[int]
    reps: Optional[int]
    stores: Optional[Tuple[SmemInstr, ...]]
    loads: Optional[Tuple[SmemInstr, ...]]
    store_ways: Optional[int]
    load_ways: Optional[int]
    empirical: Optional[str]
    error: Optional[str]
    def to_dict(self) -> Dict[str, Any]: ...
    def _repr_html_(self) -> str: ...
    def __getitem__(self, key: str) -> Any: ...  # deprecated

class ConvertLayout:
    _fields: Tuple[str, ...]
    line: int
    column: int
    result: str
    src: str
    dst: str
    type: str
    bits: int
    bits_assumed: bool
    target_assumed: bool
    not_modelled: Optional[str]
    kind: Optional[str]
    map_str: Optional[str]
    target: str
    scratch_bytes: Optional[int]
    reps: Optional[int]
    stores: Optional[Tuple[SmemInstr, ...]]
    loads: Optional[Tuple[SmemInstr, ...]]
    store_ways: Optional[int]
    load_ways: Optional[int]
    empirical: Optional[str]
    error: Optional[str]
    on_targets: Optional[Tuple[ConvertCost, ...]]
    def to_dict(self) -> Dict[str, Any]: ...
    def _repr_html_(self) -> str: ...
    def __getitem__(self, key: str) -> Any: ...  # deprecated

class KernelReport:
    _fields: Tuple[str, ...]
    kernel: str
    num_warps: int
    threads_per_warp: int
    num_ctas: int
    target: str
    triton: str
    triton_rules: str
    dump_triton_version: Optional[str]
    metadata: Optional[str]
    implicit_module: bool
    defaults: Tuple[str, ...]
    cost_target: Optional[str]
    warnings: Tuple[str, ...]
    aliases: Tuple[LayoutAlias, ...]
    types: Tuple[LayoutTypes, ...]
    converts: Tuple[ConvertLayout, ...]
    smem_ops: Tuple[SmemOp, ...]
    def to_dict(self) -> Dict[str, Any]: ...
    def _repr_html_(self) -> str: ...
    def __getitem__(self, key: str) -> Any: ...  # deprecated

class LayoutAlias:
    _fields: Tuple[str, ...]
    name: str
    layout: str
    kind: str
    converted: bool
    unsupported: Optional[str]
    fields: Tuple[Tuple[str, str], ...]
    def to_dict(self) -> Dict[str, Any]: ...
    def _repr_html_(self) -> str: ...
    def __getitem__(self, key: str) -> Any: ...  # deprecated

class LayoutTypes:
    _fields: Tuple[str, ...]
    encoding: str
    count: int
    types: Tuple[str, ...]
    def to_dict(self) -> Dict[str, Any]: ...
    def _repr_html_(self) -> str: ...
    def __getitem__(self, key: str) -> Any: ...  # deprecated

class SmemInstr:
    _fields: Tuple[str, ...]
    instr: str
    bits: int
    count: int
    def to_dict(self) -> Dict[str, Any]: ...
    def _repr_html_(self) -> str: ...
    def __getitem__(self, key: str) -> Any: ...  # deprecated

class SmemOp:
    _fields: Tuple[str, ...]
    line: int
    column: int
    op: str
    result: str
    store: bool
    tensor: str
    memdesc: str
    type: str
    target_assumed: bool
    costs: Tuple[SmemOpCost, ...]
    def to_dict(self) -> Dict[str, Any]: ...
    def _repr_html_(self) -> str: ...
    def __getitem__(self, key: str) -> Any: ...  # deprecated

class SmemOpCost:
    _fields: Tuple[str, ...]
    target: str
    instr: Optional[str]
    bits: Optional[int]
    count: Optional[int]
    element_bits: Optional[int]
    ways: Optional[int]
    wavefronts: Optional[int]
    ideal_wavefronts: Optional[int]
    note: Optional[str]
    error: Optional[str]
    def to_dict(self) -> Dict[str, Any]: ...
    def _repr_html_(self) -> str: ...
    def __getitem__(self, key: str) -> Any: ...  # deprecated

def to_ttgir(layout: Any) -> str: ...
def to_linear_layout(layout: Any, shape: Optional[Shape] = ...,
                     bits: int = ...) -> LinearLayout: ...
def cvt_cost(src: Any, dst: Any, shape: Shape, bits: int = ...,
             target: str = ..., triton: str = ...) -> Dict[str, Any]: ...
def draw(layout: Any, shape: Optional[Shape] = ..., bits: int = ...,
         instruction: bool = ..., k_width: Optional[int] = ...) -> Drawing: ...
def report(ttgir: str, triton: Optional[str] = ...,
           target: Optional[str] = ...) -> KernelReport: ...
