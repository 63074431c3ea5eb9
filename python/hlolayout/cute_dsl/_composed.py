"""Composed layouts (inner o offset o outer: coordinate c maps to
inner(offset + outer(c)), the inner function a Swizzle or a Layout) under
the twin's operations, as the DSL treats them. The rules, each observed on
the DSL (docs/cute-dsl.md "Sources", "_composed.py written anew"):

1. An operation with a composed layout on the left acts on its outer
   layout; the result is composed again, with the same inner function and
   offset: composition, the divides and products, coalesce, filter,
   tile_to_shape, slice_ and dice.
2. complement acts on the outer layout and gives a plain layout.
3. Refused: a swizzle alone on the left, a composed layout or swizzle on
   the right, the inverses, any other operation.
4. recast_layout recasts the three parts by the ratio of the bit widths
   (below); slice_and_offset keeps the inner function and offset and
   hands the outer layout's offset back.

This module states the rules; _fast, which dispatches every operation,
runs rule 1's operation on the outer layout and recomposes it here
(`recomposed`), so that the dependency goes one way. A composed layout
evaluates itself (ComposedLayout.__call__, _objects.py).

    >>> from hlolayout import cute_dsl as cute
    >>> sw = cute.make_composed_layout(cute.make_swizzle(3, 4, 3), 0,
    ...                                cute.make_layout((8, 64), stride=(64, 1)))
    >>> print(cute.composition(sw, cute.make_layout(8, stride=64)))
    S<3,4,3> o 0 o 8:8
"""

import math

from . import _algebra, _ints, _slices
from ._algebra import Refusal
from ._objects import ComposedLayout, Layout, Swizzle

__all__ = []

# Rule 1's binary operations (the unary ones: refuse1).
_ON_OUTER = frozenset([
    "composition", "logical_divide", "zipped_divide", "tiled_divide",
    "flat_divide", "logical_product", "zipped_product", "tiled_product",
    "flat_product", "raked_product", "blocked_product"])


def recomposed(c, outer):
    """c's inner function and offset over a new outer layout (rule 1: an
    operation on a composed layout acts on its outer layout, which the
    caller computes)."""
    return ComposedLayout(c.inner, c.offset, outer)


def refuse2(name, a, b):
    """What a binary operation with a composed layout or swizzle as an
    operand refuses (rule 3); what it does not, the caller runs on a's
    outer layout: complement alone (rule 2), every other operation of
    _ON_OUTER recomposed (rule 1)."""
    if isinstance(a, Swizzle):
        raise Refusal("%s: invalid type for the LHS, a swizzle alone (make "
                      "a composed layout with make_composed_layout)" % name)
    if isinstance(b, (ComposedLayout, Swizzle)):
        raise Refusal("%s: the right operand must be a layout or a tiler, "
                      "not %s" % (name, type(b).__name__))
    if name != "complement" and name not in _ON_OUTER:
        raise Refusal("%s of a composed layout is not supported" % name)


def refuse1(name):
    """What a unary operation of a composed layout refuses: the inverses
    (rule 3); filter acts on the outer layout (rule 1)."""
    if name in ("right_inverse", "left_inverse"):
        raise Refusal("%s of a composed layout: the DSL has no inverse of a "
                      "swizzled layout" % name)


def coalesce(a, profile):
    return recomposed(a, _algebra.coalesce(a.outer, profile))


def slice_(c, coord):
    return recomposed(c, _slices.slice_layout(c.outer, coord))


def dice(c, coord):
    return recomposed(c, _slices.dice_layout(c.outer, coord))


def slice_and_offset(coord, c):
    sliced, offset = _slices.slice_and_offset(coord, c.outer)
    return recomposed(c, sliced), offset


# ---------------------------------------------------------------------------
# recast_layout (rule 4). From old_bits to new_bits the ratio is up:down in
# lowest terms: the layout is first upcast by `up` (up old elements make a
# new one), then downcast by `down` (an old element makes `down` new ones).
# Each cast acts on the three parts:
# - the outer layout and a Layout inner function: _algebra's upcast and
#   downcast;
# - the offset, counted in elements: divided by `up` (a static multiple of
#   it only), multiplied by `down`;
# - a swizzle, whose base M counts bits of the element offset: M + log2 n
#   for a downcast, M - log2 n for an upcast, n a power of two. Below 0,
#   CuTe's C++ keeps the bits that remain (Swizzle<max(B + M - log2 n, 0),
#   0, S>) while the DSL's base, an unsigned 32-bit integer, wraps: the
#   DSL's answer with a WrongLayoutWarning.

def recast_layout(new_bits, old_bits, c):
    g = math.gcd(new_bits, old_bits)
    up, down = new_bits // g, old_bits // g
    if up != 1:
        offset = _offset_up(c, up)
        c = ComposedLayout(_recast_inner(c, up, True), offset,
                           _algebra.upcast(c.outer, up))
    if down != 1:
        c = ComposedLayout(_recast_inner(c, down, False),
                           _ints.mul(c.offset, down),
                           _algebra.downcast(c.outer, down))
    return c


def _offset_up(c, n):
    offset = c.offset
    if not _ints.is_static(offset):
        raise Refusal("recast_layout: unable to recast %s: the offset %s is "
                      "dynamic (it must be a multiple of the %d old elements "
                      "a new one holds)" % (c, offset, n))
    if offset % n:
        raise Refusal("recast_layout: unable to recast %s: the offset %d is "
                      "not a multiple of the %d old elements a new one "
                      "holds" % (c, offset, n))
    return offset // n


def _recast_inner(c, n, up):
    f = c.inner
    if isinstance(f, Layout):
        return _algebra.upcast(f, n) if up else _algebra.downcast(f, n)
    if not isinstance(f, Swizzle):
        raise Refusal("recast_layout of a composed layout whose inner "
                      "function is %s" % type(f).__name__)
    if n & (n - 1):
        raise Refusal("recast_layout: unable to recast the swizzle %s by a "
                      "factor of %d (a power of two is needed)" % (f, n))
    shift = n.bit_length() - 1
    bits, base, s = f.num_bits, f.num_base, f.num_shift
    if not up:
        return Swizzle(bits, base + shift, s)
    if base >= shift:
        return Swizzle(bits, base - shift, s)
    wrapped = Swizzle(bits, (base - shift) % (1 << 32), s)
    kept = Swizzle(max(bits + base - shift, 0), 0, s)
    return _algebra._wrong(
        "recast-swizzle", "recast_layout: the swizzle %s upcast by %d has a "
        "base below 0" % (f, n), wrapped, "CuTe's C++ gives %s, the DSL's "
        "base wraps to %d" % (kept, wrapped.num_base), (f, n))
