"""The DSL's layout makers: `make_layout`, `make_ordered_layout`,
`make_identity_layout`, `make_swizzle`, `make_composed_layout` (the
package exports them; tensors make their layouts with them too, so they
live below both).

    >>> print(make_layout((4, 8)), make_identity_layout((2, 3)))
    (4,8):(1,4) (2,3):(1@0,1@1)
"""

from . import _algebra, _arguments, _tuples
from ._arguments import INT_TUPLE, SHAPE, STRIDE, takes
from ._core_calls import Refusal
from ._func_composed import FunctionComposedLayout
from ._objects import ComposedLayout, Layout, ScaledBasis, Swizzle

__all__ = ["make_layout", "make_ordered_layout", "make_identity_layout",
           "make_swizzle", "make_composed_layout"]

_IDENTITY_SHAPE = SHAPE.but(error=TypeError, shows="type",
                            words="expects a shape input, got %s")


def make_layout(shape, *, stride=None):
    """shape:stride, or shape with CuTe's compact column-major strides (a
    static size 1 taking stride 0); a list or tuple of Layouts makes each a
    mode. The DSL checks the congruence of shape and stride first, then the
    shape, then the stride."""
    if type(shape) in (list, tuple) and shape and all(
            isinstance(x, Layout) for x in shape):
        return _algebra.make_layout_of(list(shape))
    if stride is not None and not _tuples.congruent(shape, stride):
        raise Refusal("shape and stride must be congruent")
    shape = SHAPE.read(shape, "make_layout", "shape")
    if stride is None:
        return Layout(shape, _tuples.compact_col(shape))
    return Layout(shape, STRIDE.read(stride, "make_layout", "stride"))


@takes(shape=SHAPE, order=INT_TUPLE)
def make_ordered_layout(shape, order):
    """The compact layout whose modes take strides in the order `order`
    (weakly congruent to shape)."""
    return Layout(shape, _tuples.compact_order(shape, order))


def _unit_strides(shape, where=()):
    """1@i for each mode i of shape (1@i@j ... in nested modes), 1 for an
    integral shape: the identity's strides."""
    if type(shape) is not tuple:
        return ScaledBasis(1, where) if where else 1
    return tuple(_unit_strides(mode, where + (i,))
                 for i, mode in enumerate(shape))


@takes(shape=_IDENTITY_SHAPE)
def make_identity_layout(shape):
    """shape:(1@0,1@1,...): each coordinate maps to itself."""
    return Layout(shape, _unit_strides(shape))


def make_swizzle(b, m, s):
    """CuTe's Swizzle<b,m,s> (S<b,m,s>); one that moves no bit or breaks
    CuTe's rules (b <= 0, m < 0, |s| < b) is the identity S<0,4,3>, as the
    DSL makes it."""
    if not all(type(v) is int for v in (b, m, s)):
        raise Refusal("b, m, and s must be int")
    if b > 0 and m >= 0 and abs(s) >= b:
        return Swizzle(b, m, s)
    return Swizzle(0, 4, 3)


@takes(outer=_arguments.Typed(
    Layout, "expects the outer (or right-most or effectively visible) "
    "layout to be an affine layout, but got %(arg)s"), offset=INT_TUPLE)
def make_composed_layout(inner, offset, outer):
    """inner o offset o outer: inner a Swizzle, a Layout, a ComposedLayout
    or a Python function (a FunctionComposedLayout, which maps coordinates
    and prints, nothing more)."""
    if isinstance(inner, Swizzle):
        # A swizzle acts on one offset: the DSL refuses a tuple offset and
        # an identity layout's strides under it.
        if type(offset) is tuple:
            raise Refusal("make_composed_layout: swizzle layout expects "
                          "scalar `offset` and `outer` without scaled "
                          "basis, but got %s and %s" % (
                              _tuples.text(offset, str), outer))
        if any(isinstance(d, ScaledBasis) for d in _tuples.leaves(outer.st)):
            raise TypeError("invalid composition %s o %s o %s" %
                            (inner, _tuples.text(offset, str), outer))
        return ComposedLayout(inner, offset, outer)
    if isinstance(inner, (Layout, ComposedLayout)):
        return ComposedLayout(inner, offset, outer)
    if callable(inner):
        return FunctionComposedLayout(inner, offset, outer)
    raise TypeError("make_composed_layout expects a Swizzle, a Layout or a "
                    "function as inner, got %s (the DSL prints other objects "
                    "as they are: not modelled)" % type(inner).__name__)
