"""The DSL's algebra on composed layouts (inner o offset o outer, the inner
function a Swizzle or a Layout): an op on the layout acts on the outer
layout and keeps the inner function and the offset, as the DSL does; a
swizzle alone, or a composed layout as the right operand, the DSL refuses.

    >>> from hlolayout import cute_dsl as cute
    >>> sw = cute.make_composed_layout(cute.make_swizzle(3, 4, 3), 0,
    ...                                cute.make_layout((8, 64), stride=(64, 1)))
    >>> print(cute.composition(sw, cute.make_layout(8, stride=64)))
    S<3,4,3> o 0 o 8:8
"""

from . import _algebra, _ints, _slices
from ._algebra import Refusal
from ._objects import ComposedLayout, Layout, Swizzle

__all__ = []

_OUTER_OPS = {
    "composition", "logical_divide", "zipped_divide", "tiled_divide",
    "flat_divide", "logical_product", "zipped_product", "tiled_product",
    "flat_product", "raked_product", "blocked_product",
}


def _with_outer(c, outer):
    return ComposedLayout(c.inner, c.offset, outer)


def op2(name, a, b):
    if isinstance(a, Swizzle):
        raise Refusal("%s: invalid type for the LHS, a swizzle alone (make "
                      "a composed layout with make_composed_layout)" % name)
    if isinstance(b, (ComposedLayout, Swizzle)):
        raise Refusal("%s: the right operand must be a layout or a tiler, "
                      "not %s" % (name, type(b).__name__))
    if name == "complement":
        return _algebra.complement(a.outer, b)
    if name not in _OUTER_OPS:
        raise Refusal("%s of a composed layout is not supported" % name)
    from . import _fast
    return _with_outer(a, _fast.op2(name, a.outer, b))


def op1(name, a):
    if name in ("right_inverse", "left_inverse"):
        raise Refusal("%s of a composed layout: the DSL has no inverse of a "
                      "swizzled layout" % name)
    from . import _fast
    return _with_outer(a, _fast.op1(name, a.outer))


def coalesce(a, profile):
    return _with_outer(a, _algebra.coalesce(a.outer, profile))


def tile_to_shape(atom, shape, order):
    from . import _fast
    return _with_outer(atom, _fast.tile_to_shape(atom.outer, shape, order))


def recast_layout(new_bits, old_bits, c):
    """Each part recast: the inner function (a swizzle's base moves by the
    factor's log2, a layout is recast as a layout), the offset (divided by
    the number of old elements a new one holds, or multiplied by the number
    of new elements an old one holds) and the outer layout."""
    import math
    g = math.gcd(new_bits, old_bits)
    up, down = new_bits // g, old_bits // g
    return _downcast(_upcast(c, up), down)


def _upcast(c, n):
    if n == 1:
        return c
    if not _ints.is_static(c.offset):
        raise Refusal("recast_layout: unable to recast %s: the offset %s is "
                      "dynamic (it must be a multiple of the %d old elements "
                      "a new one holds)" % (c, c.offset, n))
    if c.offset % n:
        raise Refusal("recast_layout: unable to recast %s: the offset %d is "
                      "not a multiple of the %d old elements a new one "
                      "holds" % (c, c.offset, n))
    return ComposedLayout(_recast_inner(c, n, up=True), c.offset // n,
                          _algebra.upcast(c.outer, n))


def _downcast(c, n):
    if n == 1:
        return c
    return ComposedLayout(_recast_inner(c, n, up=False),
                          _ints.mul(c.offset, n),
                          _algebra.downcast(c.outer, n))


def _recast_inner(c, n, up):
    """A swizzle's base M counts bits of the element offset: n new elements
    an old one (a downcast) add log2(n) to it, n old elements a new one (an
    upcast) take log2(n) from it. Where that goes below 0, CuTe's C++ keeps
    the bits that remain (Swizzle<max(B + M - log2 n, 0), 0, S>); the DSL
    computes the base in an unsigned 32-bit integer, which wraps."""
    inner = c.inner
    if isinstance(inner, Layout):
        return _algebra.upcast(inner, n) if up else _algebra.downcast(inner,
                                                                       n)
    if not isinstance(inner, Swizzle):
        raise Refusal("recast_layout of a composed layout whose inner "
                      "function is %s" % type(inner).__name__)
    if n & (n - 1):
        raise Refusal("recast_layout: unable to recast the swizzle %s by a "
                      "factor of %d (a power of two is needed)" % (inner, n))
    log2 = n.bit_length() - 1
    b, m, s = inner.num_bits, inner.num_base, inner.num_shift
    if not up:
        return Swizzle(b, m + log2, s)
    if m >= log2:
        return Swizzle(b, m - log2, s)
    cute_cpp = Swizzle(max(b + m - log2, 0), 0, s)
    dsl = Swizzle(b, (m - log2) % (1 << 32), s)
    from ._algebra import _wrong
    return _wrong("recast-swizzle", "recast_layout: the swizzle %s upcast "
                  "by %d has a base below 0" % (inner, n), dsl,
                  "CuTe's C++ gives %s, the DSL's base wraps to %d" % (
                      cute_cpp, dsl.num_base), (inner, n))


def slice_(c, coord):
    return _with_outer(c, _slices.slice_layout(c.outer, coord))


def dice(c, coord):
    """The outer layout diced, the inner function and offset kept
    (observed)."""
    return _with_outer(c, _slices.dice_layout(c.outer, coord))


def slice_and_offset(coord, c):
    sliced, offset = _slices.slice_and_offset(coord, c.outer)
    return _with_outer(c, sliced), offset


def evaluate(c, coord):
    """inner(offset + outer(coord)), with integer values."""
    off = _ints.add(c.offset, _algebra.crd2idx(coord, c.outer))
    inner = c.inner
    if isinstance(inner, Swizzle):
        return inner(off)
    if isinstance(inner, (Layout, ComposedLayout)):
        return _algebra.crd2idx(off, inner)
    raise Refusal("cannot evaluate a composed layout whose inner function "
                  "is %s" % type(inner).__name__)
