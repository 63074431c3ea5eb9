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
