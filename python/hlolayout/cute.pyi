# Type stubs of hlolayout.cute; every name in OPS is a function
# (operands: Layout, str, int or nested tuples of ints).
from typing import Any, Tuple, Union

IntTuple = Union[int, Tuple[Any, ...]]
Operand = Union["Layout", str, int, Tuple[Any, ...]]

OPS: Tuple[str, ...]

class Layout:
    shape: IntTuple
    stride: IntTuple
    size: int
    cosize: int
    rank: int
    depth: int
    def __init__(self, text: Union["Layout", str]) -> None: ...
    def __call__(self, coord: IntTuple) -> int: ...
    def __getitem__(self, i: int) -> "Layout": ...
    def idx2crd(self, index: int) -> IntTuple: ...
    def table(self) -> str: ...

def __getattr__(name: str) -> Any: ...

from .cute_atoms import (
    Copy_Atom as Copy_Atom,
    MMA_Atom as MMA_Atom,
    TiledCopy as TiledCopy,
    TiledMMA as TiledMMA,
    bank_conflicts as bank_conflicts,
    banks_picture as banks_picture,
    make_tiled_copy as make_tiled_copy,
    make_tiled_copy_A as make_tiled_copy_A,
    make_tiled_copy_B as make_tiled_copy_B,
    make_tiled_copy_C as make_tiled_copy_C,
    make_tiled_copy_C_atom as make_tiled_copy_C_atom,
    make_tiled_mma as make_tiled_mma,
    mma_atom_names as mma_atom_names,
)
