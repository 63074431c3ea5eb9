"""Shared-memory layout atoms (warpgroup.make_smem_layout_atom,
tcgen05.make_smem_layout_atom) and tcgen05.tile_to_mma_shape.

The atoms. CUTLASS defines each GMMA/UMMA shared-memory atom in bits
(include/cute/atom/mma_traits_sm90_gmma.hpp, mma_traits_sm100.hpp): 8 rows
of 128, 256, 512 or 1024 bits (INTER, SW32, SW64, SW128), under the
swizzle S<0,4,3>, S<1,4,3>, S<2,4,3> or S<3,4,3>, the rows contiguous
along the major mode: K-major (8, w):(w, 1), MN-major (w, 8):(1, w), for w
elements a row. The DSL prints such an atom as `S<B,4,3> o 0 o L`, L in
elements, w the row's bits divided by the element width, rounded down
(6-bit elements: 21, 42, 85, 170), a Boolean counting 1 bit (observed
over every kind and twelve element types). MN_SW128_32B, UMMA's atom for
32-bit MN-major operands, is S<2,5,2> over 8 rows of 1024 bits in the
DSL (CuTe's C++ has 4 rows: observed).

tile_to_mma_shape (CuTe's UMMA::tile_to_mma_shape, mma_traits_sm100.hpp):
the atom is tiled to the MN shape of the MMA tile, each MMA mode zipped
with its count ((MMA_M, M_MMAs), (MMA_K, K_MMAs), stages...), in `order`,
then divided into MMA tiles by the MMA shape (tiled_divide). The DSL then
coalesces the result within the profile of the MMA tile shape (observed:
the stage mode that tiled_divide leaves as (1,4):(0,32768) prints
4:32768).
"""

from . import _tuples
from ._algebra import Refusal
from ._objects import ComposedLayout, Layout, Swizzle

__all__ = []


def need(x, kind, fn, what):
    """TypeError unless x is a `kind` (the helpers' argument checks)."""
    if not isinstance(x, kind):
        raise TypeError("%s expects %s, got %r" % (fn, what, x))


def need_dtype(t, fn):
    from ._ints import _NumericMeta
    if not isinstance(t, _NumericMeta):
        raise TypeError("%s expects a data type such as cute.Float16, got "
                        "%r" % (fn, t))


def need_ints(t, fn, what):
    for x in _tuples.leaves(t):
        if not _tuples.is_int(x):
            raise TypeError("%s expects integers in %s, got %r" %
                            (fn, what, x))


# The atoms' rows in bits and swizzles, by the part of the kind's name
# after the major mode.
_ROWS = {"INTER": (128, Swizzle(0, 4, 3)), "SW32": (256, Swizzle(1, 4, 3)),
         "SW64": (512, Swizzle(2, 4, 3)), "SW128": (1024, Swizzle(3, 4, 3)),
         "SW128_32B": (1024, Swizzle(2, 5, 2))}


def layout_atom(kind, kinds, element_type, fn):
    """The atom of `kind` (a member of the enumeration `kinds`) for
    element_type: swizzle o 0 o (rows of the major mode)."""
    if not isinstance(kind, kinds):
        raise Refusal("%s expects a %s, got %r" % (fn, kinds.__name__, kind))
    need_dtype(element_type, fn)
    major, rest = kind.name.split("_", 1)
    bits, swizzle = _ROWS[rest]
    w = bits // element_type.width
    if w == 0:
        raise Refusal("%s: a row of %d bits holds no %d-bit %s" % (
            fn, bits, element_type.width, element_type))
    rows = Layout((8, w), (w, 1)) if major == "K" else Layout((w, 8), (1, w))
    return ComposedLayout(swizzle, 0, rows)


def tile_to_mma_shape(atom, mma_tile_shape, order=None):
    """CuTe's UMMA::tile_to_mma_shape, coalesced per mode as the DSL."""
    from . import _fast, _ints
    fn = "tcgen05.tile_to_mma_shape"
    need(atom, (Layout, ComposedLayout), fn, "a layout atom")
    need_ints(mma_tile_shape, fn, "mma_tile_shape")
    if order is not None:
        need_ints(order, fn, "order")
    if not (atom.is_static() and _ints.is_static(mma_tile_shape) and
            (order is None or _ints.is_static(order))):
        raise ValueError("%s takes static layouts and shapes only" % fn)
    head = mma_tile_shape[0] if type(mma_tile_shape) is tuple else None
    modes = _tuples.rank(mma_tile_shape)
    if type(head) is not tuple or modes < 3 or len(head) != 2:
        raise Refusal("%s: the MMA tile shape must be ((MMA_M, MMA_K), "
                      "M_MMAs, K_MMAs, ...), got %s" %
                      (fn, _tuples.text(mma_tile_shape)))
    if order is None:
        order = tuple(range(modes - 1))
    if _tuples.rank(order) != modes - 1:
        raise ValueError("%s: the order has %d modes, the tile's MN shape "
                         "%d" % (fn, _tuples.rank(order), modes - 1))
    mn_shape = ((head[0], mma_tile_shape[1]), (head[1], mma_tile_shape[2])) \
        + tuple(mma_tile_shape[3:])
    tiled = _fast.tile_to_shape(atom, mn_shape, order)
    per_mma = _fast.op2("tiled_divide", tiled, _tuples.product_each(head))
    return _fast.coalesce(per_mma, mma_tile_shape)
