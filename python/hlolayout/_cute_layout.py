"""CuTe layouts, swizzles and composed layouts and their algebra, for
hlolayout.cute: pycute's classes and functions, bound to the C++ library
(cute/) without text round trips.

    >>> from hlolayout import cute
    >>> L = cute.Layout(((2, 2), 3), ((24, 2), 8))
    >>> print(L)
    ((2, 2), 3):((24, 2), 8)
    >>> L(5), L(((1, 0), 1)), L.size(), L.cosize(), len(L)
    (32, 32, 12, 43, 2)
    >>> print(cute.composition(cute.Layout((6, 2), (8, 2)), cute.Layout((4, 3), (3, 1))))
    ((2, 2), 3):((24, 2), 8)
    >>> print(cute.complement(cute.Layout(4, 2), 24))
    (2, 3):(1, 8)
    >>> cute.composition(cute.Layout((8, 8), (8, 1)), cute.Layout(3, 3)).cute
    '_3:_24'
    >>> sw = cute.ComposedLayout(cute.Swizzle(3, 3, 3), 0, cute.Layout((8, 64), (64, 1)))
    >>> print(sw)
    SW_3_3_3 o 0 o (8, 64):(64, 1)
    >>> sw(1), sw(64), sw.cute
    (72, 8, 'Sw<3,3,3> o _0 o (_8,_64):(_64,_1)')
    >>> L(np.arange(4))
    array([ 0, 24,  2, 26])

Python ints are CuTe's static integers (`L.cute` is CuTe's print, with
`_`); a layout may also be written as CuTe text, `Layout("(_8,_8):(_8,_1)")`.
Failed preconditions raise ValueError (pycute asserts). Where pycute differs
from CuTe's C++ these follow the C++; docs/cute.md ("Python") lists each
difference.
"""

from __future__ import annotations

from typing import Any, Optional

from . import _hlolayout as _core

__all__ = ["LayoutBase", "Layout", "Swizzle", "ComposedLayout", "is_layout",
           "make_layout", "size", "cosize", "coalesce", "filter",
           "composition", "complement", "right_inverse", "left_inverse",
           "logical_divide", "zipped_divide", "tiled_divide", "flat_divide",
           "logical_product", "zipped_product", "tiled_product",
           "flat_product", "blocked_product", "raked_product", "hier_unzip",
           "tile_to_shape", "slice_and_offset", "upcast", "downcast",
           "recast_layout", "parse"]

LayoutBase = _core.CuteLayoutBase
Layout = _core.CuteLayout
Swizzle = _core.CuteSwizzle
ComposedLayout = _core.CuteComposedLayout
for _cls, _name in ((LayoutBase, "LayoutBase"), (Layout, "Layout"),
                    (Swizzle, "Swizzle"), (ComposedLayout, "ComposedLayout")):
    _cls.__name__ = _cls.__qualname__ = _name
    _cls.__module__ = "hlolayout.cute"
del _cls, _name

Layout.__doc__ = """A CuTe layout shape:stride, a function from coordinates to offsets.

Layout(shape, stride=None) from ints and nested tuples (stride defaults to
CuTe's compact column-major strides, a size-1 mode getting stride 0), or
Layout(text) from CuTe's notation. L(i), L(i, j), L((i, (j, k))) evaluate;
None in a coordinate slices (CuTe's `_`); an integer NumPy array evaluates
elementwise. str() prints as pycute, `cute` as CuTe.
"""
Swizzle.__doc__ = """CuTe's Swizzle<B,M,S> (pycute's Swizzle(bits, base, shift)):
x ^ ((x & yyy_msk) >> shift)."""
ComposedLayout.__doc__ = """pycute's ComposedLayout(layoutB, offset, layoutA): the function
layoutB(offset + layoutA(c)), CuTe's `A o O o B` (pycute's layoutB is the
outer function, CuTe's A). Its shape, size and cosize are layoutA's (CuTe's;
pycute's cosize is layoutB's)."""


def _repr_svg_(self) -> Optional[str]:
    """Jupyter shows a layout as `hlolayout cute draw --svg -` draws it."""
    try:
        return _core.cute_draw(self.cute, True)
    except ValueError:
        return None


Layout._repr_svg_ = _repr_svg_

# The signatures of the slots the types define in C (_cute.cc), whose docs
# are CPython's: the stubs' (_stubgen.py); the methods' and getters' are the
# first lines of their docs.
Layout._slot_signatures = {
    "__init__": "(self, shape: Union[IntTuple, str, Layout], "
                "stride: Optional[IntTuple] = ...) -> None",
    "__hash__": "(self) -> int",
    "__call__": "(self, *coord: Any) -> Any",
    "__len__": "(self) -> int",
    "__getitem__": "(self, i: int) -> Layout",
}
Swizzle._slot_signatures = {
    "__init__": "(self, bits: int, base: int, shift: int) -> None",
    "__hash__": "(self) -> int",
    "__call__": "(self, offset: Union[int, np.ndarray]) -> Any",
}
ComposedLayout._slot_signatures = {
    "__init__": "(self, layoutB: Any, offset: Union[int, str], "
                "layoutA: Any) -> None",
    "__hash__": "(self) -> int",
    "__call__": "(self, *coord: Any) -> Any",
    "__len__": "(self) -> int",
    "__getitem__": "(self, i: int) -> Any",
}


def is_layout(x: Any) -> bool:
    """True for a Layout or a ComposedLayout."""
    return isinstance(x, LayoutBase)


make_layout = _core.cute_make_layout


size = _core.cute_size


cosize = _core.cute_cosize


coalesce = _core.cute_coalesce


filter = _core.cute_filter


composition = _core.cute_composition


complement = _core.cute_complement


right_inverse = _core.cute_right_inverse


left_inverse = _core.cute_left_inverse


logical_divide = _core.cute_logical_divide


zipped_divide = _core.cute_zipped_divide


tiled_divide = _core.cute_tiled_divide


flat_divide = _core.cute_flat_divide


logical_product = _core.cute_logical_product


zipped_product = _core.cute_zipped_product


tiled_product = _core.cute_tiled_product


flat_product = _core.cute_flat_product


blocked_product = _core.cute_blocked_product


raked_product = _core.cute_raked_product


def hier_unzip(splitter: Any, layoutA: Layout, layoutB: Any) -> Layout:
    """pycute's helper: the by-mode results of splitter gathered into
    ((firsts...), (seconds..., rest of layoutA))."""
    if layoutB is None:
        return make_layout(Layout(1, 0), layoutA)
    if isinstance(layoutB, tuple):
        if len(layoutA) < len(layoutB):
            raise ValueError("hier_unzip: the tiler has more modes than the layout")
        split = [hier_unzip(splitter, layoutA[i], layoutB[i])
                 for i in range(len(layoutB))]
        return make_layout(make_layout(s[0] for s in split),
                           make_layout([s[1] for s in split] +
                                       [layoutA[i] for i in
                                        range(len(layoutB), len(layoutA))]))
    return splitter(layoutA, layoutB)


tile_to_shape = _core.cute_tile_to_shape


slice_and_offset = _core.cute_slice_and_offset


upcast = _core.cute_upcast


downcast = _core.cute_downcast


recast_layout = _core.cute_recast_layout


parse = _core.cute_parse
