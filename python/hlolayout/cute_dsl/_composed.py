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

from . import _algebra, _ints
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
    """The outer layout recast; a swizzle stays as it is (the DSL's composed
    layouts carry byte-address swizzles)."""
    return _with_outer(c, _algebra.recast_layout(new_bits, old_bits, c.outer))


def slice_(c, coord):
    return _with_outer(c, _algebra.slice_(c.outer, coord))


def slice_and_offset(coord, c):
    sliced, offset = _algebra.slice_and_offset(coord, c.outer)
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
