"""crd2idx and cosize of the twin's layouts, strides with scaled bases
included, on the C++ core: a layout's own evaluation (`layout(c)`,
_objects.py) and the algebra's (_algebra.py) both come here.

    >>> from hlolayout.cute_dsl._objects import Layout, E
    >>> crd2idx((1, 2), Layout((4, 8), (E(1), E(0))))
    (2, 1)
    >>> cosize(Layout((4, 2), (3 * E(1), 2 * E(0))))
    30
"""

from . import _core_calls, _ints, _tuples
from ._basis import ScaledBasis
from ._core_calls import Refusal
from ._ints import DynInt, is_constant

__all__ = []


# crd2idx and cosize. With integer strides both are the C++ core's
# (cute/dsl_index.h CrdToIdxInt, Layout::cosize_int, through _core_calls).
# A stride holding scaled bases (an identity layout, a coordinate layout)
# sends a coordinate to a coordinate: CuTe sums the scaled bases into an
# ArithmeticTuple (include/cute/numeric/arithmetic_tuple.hpp: n * E<i> is
# n at position i, tuples add position by position). Position by position
# that sum is an integer layout: the entry at position p of L(c) is
# crd2idx(c) in the layout whose strides are the bases' values at p and 0
# elsewhere, and the core computes it with the DSL's integer rules. The
# positions every basis of the stride names make the result's tree, a
# position no basis names being 0; the DSL prints even one position as a
# tuple, `(3)`. What the DSL refuses (observed, "unable to compute crd2idx
# with ..." and "unable to compute cosize for input ..."): a position
# named both as a leaf and as a mode above another (1@1 with 1@0@1), and
# an integer stride that adds anything but a static 0 to the bases' sum.

def _basis_positions(stride):
    """The positions (mode paths, outermost first) the scaled bases of
    `stride` name, in order of first appearance; [] for integer strides."""
    found = []
    for d in _tuples.leaves(stride):
        if isinstance(d, ScaledBasis) and d.modes not in found:
            found.append(d.modes)
    return found


def _stride_at(stride, position):
    """The integer stride of the sum's entry at `position`: each basis
    naming it gives its value, every other leaf 0; position None keeps
    the integer leaves instead (the part added outside the bases)."""
    if type(stride) is tuple:
        return tuple([_stride_at(d, position) for d in stride])
    if isinstance(stride, ScaledBasis):
        return stride.value if stride.modes == position else 0
    return stride if position is None else 0


def _tree_of(positions, fill, hole, prefix=()):
    """The result tree over `positions`: fill(p) at each named position
    that no other is named inside (a scalar meeting a deeper position is a
    static 0 there, _fold), `hole` where none is named, tuples as wide as
    the largest mode named."""
    depth = len(prefix)
    below = [p for p in positions if len(p) > depth and p[:depth] == prefix]
    if not below:
        return fill(prefix)
    width = 1 + max(p[depth] for p in below)
    return tuple([_tree_of(below, fill, hole, prefix + (m,))
                  if any(p[depth] == m for p in below) else hole
                  for m in range(width)])


def _scalars(stride, kept):
    """stride with each leaf at the flat indices `kept` as its integer (a
    basis's value), every other leaf 0."""
    leaves = iter(enumerate(_tuples.leaves(stride)))

    def build(t):
        if type(t) is tuple:
            return tuple([build(e) for e in t])
        i, d = next(leaves)
        if i not in kept:
            return 0
        return d.value if isinstance(d, ScaledBasis) else d
    return build(stride)


def _fold(stride, nonzero):
    """Where the DSL's sum of the terms refuses, as (position, what
    nonzero(leaves) says), or None. The sum is CuTe's ArithmeticTuple
    (include/cute/numeric/arithmetic_tuple.hpp): n * E<i...> is n at that
    position, tuples add position by position, and a scalar added to a
    tuple must be a static 0 (`static_assert(t == 0)`); an integer stride
    is a scalar at the top. Observed: each mode is summed before the mode
    above, left to right (`(1,1,0)` in `(2,2,4):(1,-1,1@1)` is `(0,0)`,
    `(1,0,1)` in `(2,4,2):(1,1@1,-1)` refused, `(1,(1,1))` in
    `(4,(2,2)):(1@1,(1,-1))` `(0,1)`; `(0,1)` in `(4,2):(1@1,1@0@1)` is
    `(0,(1))`, `(1,0)` refused). nonzero(leaves): None when the terms of
    those leaves (flat indices) sum to a static 0, else their sum."""
    leaves = _tuples.leaves(stride)
    bad = []

    def add(a, b, position):
        if a is None:
            return b
        if a[0] == b[0] == "s":
            return ("s", a[1] + b[1])
        if a[0] == b[0] == "t":
            merged = dict(a[1])
            for k, v in b[1].items():
                merged[k] = add(merged.get(k), v, position + (k,))
            return ("t", merged)
        scalar, tup = (a, b) if a[0] == "s" else (b, a)
        if not bad:
            value = nonzero(scalar[1])
            if value is not None:
                bad.append((position, value))
        return tup

    def walk(node, start):
        if type(node) is tuple:
            acc = None
            for child in node:
                v, start = walk(child, start)
                acc = v if acc is None else add(acc, v, ())
            return acc, start
        v = ("s", [start])
        if isinstance(leaves[start], ScaledBasis):
            for k in reversed(leaves[start].modes):
                v = ("t", {k: v})
        return v, start + 1

    walk(stride, 0)
    return bad[0] if bad else None


def _by_position(layout, op, what, entry, nonzero, hole):
    """entry(integer stride) at each position the layout's bases name, as
    the result's tree (`hole` where none is named); the DSL's refusal of op
    ('crd2idx with `what`', 'cosize for input `what`') where its sum adds a
    scalar that is not a static 0 to a tuple (_fold)."""
    positions = _basis_positions(layout.st)
    bad = _fold(layout.st, nonzero)
    if bad:
        position, value = bad
        raise Refusal("%s: unable to compute %s %s: %s" % (
            op, op, what, "the integer strides %s, not the %d the scaled "
            "bases can take" % (value, hole) if not position else
            "a basis position is named both as a mode and inside it, and "
            "the scalars at %s %s, not the %d a tuple can take" % (
                "@".join(str(k) for k in reversed(position)), value, hole)))
    return _tree_of(positions, lambda p: entry(_stride_at(layout.st, p)),
                    hole)


def cosize(layout):
    """The DSL's cosize: the core's; with scaled bases, the product over
    the positions of each position's cosize (observed: (4,2):(3@1,2@0) is
    30, (4,2):(1@2,1@0) 8, a position no basis names counting 1), refused
    as the sum of the absolute strides at the last coordinate is
    (observed: `(2,2,4):(2,-2,1@1)` refused, `(1,2):(1@1,1@0@1)` is 2,
    `(2,1):(1@1,1@0@1)` refused)."""
    if not _basis_positions(layout.st):
        return _core_calls.cosize(layout.sh, layout.st)

    def nonzero(kept):
        c = _core_calls.cosize(layout.sh, _scalars(layout.st, kept))
        return None if is_constant(1, c) else "give %s" % _tuples.text(c)
    tree = _by_position(layout, "cosize", "for input %s" % layout,
                        lambda d: _wide_cosize(layout.sh, d), nonzero, 1)
    return _core_calls.product(tuple(_tuples.leaves(tree)))


def _wide_cosize(shape, stride):
    """One position's cosize, 64-bit where a basis at it is scaled by a
    64-bit `?` (observed: cosize of `(2,16):(1@0,?{i64}@1)` is
    `?{i64 div=2}`, of `(1,16):(1@0,?{i64}@1)` `?`; the core's is 32-bit)."""
    c = _core_calls.cosize(shape, stride)
    if not isinstance(c, DynInt) or isinstance(c, _ints.PlainDyn):
        return c
    if any(isinstance(d, DynInt) and d.width == 64
           for d in _tuples.leaves(stride)):
        return DynInt(c.value, c.div, 64)
    return c


def crd2idx(coord, layout):
    """The offset of coord (an index, a coordinate, `None` for 0) in a
    Layout; with scaled-basis strides, the coordinate it sends it to."""
    shape = layout.sh

    def what():
        return "with %s and %s" % (layout, _tuples.text(coord))
    try:
        if not _basis_positions(layout.st):
            return _core_calls.crd2idx(coord, shape, layout.st)

        def nonzero(kept):
            c = _core_calls.crd2idx(coord, shape, _scalars(layout.st, kept))
            return None if is_constant(0, c) else "add %s" % _tuples.text(c)
        return _by_position(layout, "crd2idx", what(),
                            lambda d: _core_calls.crd2idx(coord, shape, d),
                            nonzero, 0)
    except Refusal as ex:
        if "Mismatched Ranks" not in str(ex):
            raise
    # The DSL's words (observed: "unable to compute crd2idx with
    # '!cute.layout<"(4,8):(1,4)">' and '!cute.coord<"(1,2,3)">'"), for a
    # coordinate whose tuples do not follow the shape's.
    raise Refusal("crd2idx: unable to compute crd2idx %s: the coordinate "
                  "does not fit the shape (Mismatched Ranks)" % what())


