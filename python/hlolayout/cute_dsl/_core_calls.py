"""The twin's queries of tuples and layouts, answered by the C++ core.

The C++ core (cute/) holds the DSL's dynamic integer as its `?`
(cute/integer.h; the extension reads a DynInt as one and hands a `?` back
as a DynInt, python/hlolayout/_cute_dsl.h), so these are CuTe's C++
algorithms with the DSL's integer rules, not a second algebra in Python:

    >>> from hlolayout import cute_dsl as cute
    >>> n = cute.assume(cute.Int32(8), divby=8)
    >>> idx2crd(n, (4, 2))
    (0, ?{div=2})

size and product_each (cute/int_tuple.h Product), shape_div (ShapeDiv),
cosize (cute/layout.h cosize_int), crd2idx and idx2crd (cute/dsl_index.h);
coalesce, filter and filter_zeros (cute/coalesce.h) and complement
(cute/complement.h) on flat leaves; right_inverse and left_inverse
(cute/inverse.h); composition (cute/composition.h), logical_divide
(cute/divide.h), logical_product's second mode (cute/product.h), the
regroupings (cute/internal/regroup.h), recast_layout (cute/recast.h),
tile_to_shape's repetitions (cute/tile_to_shape.h), and max_common_layout,
max_common_vector, nullspace and max_alignment (cute/common_layout.h).
A refusal of the core is the twin's Refusal (a ValueError, defined here
so that the twin's other modules take it from the lowest one) with the
core's message; where CuTe's algorithm divides by zero, ZeroDivisionError,
which the public functions turn into the twin's DivisionByZero.
"""

from .. import _hlolayout as _core
from . import _ints

__all__ = []


class Refusal(ValueError):
    """The DSL refuses this too (CuTe's static assertion or a verifier)."""


def _call(fn, *args):
    try:
        return fn(*args)
    except ValueError as ex:  # the core's refusal, raised here
        raise Refusal(str(ex)) from None


def product(t):
    """The product of an IntTuple's leaves (an integer is itself)."""
    if type(t) is not tuple:
        return t
    return _plain_like(_call(_core.cute_product, t), t)


def shape_div(a, b):
    """CuTe's shape_div: a `?` on either side gives an unchecked `?`. Every
    static size of both must be positive (observed: the DSL refuses
    shape_div(4, -2), shape_div((4,0), 2), "Expected size in shape to be
    strictly positive")."""
    for x in _static_leaves((a, b)):
        if x <= 0:
            raise Refusal("shape_div: expects every static size to be "
                          "strictly positive, got %d" % x)
    return _plain_like(_call(_core.cute_shape_div, a, b), (a, b))


def _static_leaves(t):
    if type(t) is tuple:
        for e in t:
            yield from _static_leaves(e)
    elif type(t) is int:
        yield t


def cosize(shape, stride):
    """The DSL's cosize of shape:stride (integer strides)."""
    return _call(_core.cute_dsl_cosize, shape, stride)


def crd2idx(coord, shape, stride):
    """The offset of `coord` (None for a mode's 0) in shape:stride."""
    return _call(_core.cute_dsl_crd2idx, _none_as_zero(coord), shape, stride)


def idx2crd(index, shape):
    """The natural coordinate of `index` in `shape`. The coordinates of a
    64-bit dynamic index are plain 32-bit `?`s, as the DSL prints them
    (observed: idx2crd of `?{i64 div=8}` in (4,2,2) is (0,0,?))."""
    crd = _call(_core.cute_dsl_idx2crd, index, shape)
    return _narrow_wide(index, crd)


def complement_leaves(shapes, strides, cotarget):
    """CuTe's complement, as the DSL runs it, of filter(A)'s flat leaves
    shapes:strides (none for 1:0) up to cotarget, as (shape, stride)
    (cute/complement.h DslComplementModes: unchecked, sizes of 0 or below
    where A is not injective or has a negative stride)."""
    r = _call(_core.cute_dsl_complement_leaves, shapes, strides, cotarget)
    return _plain_like(r, (shapes, strides, cotarget))


def composition(a_shapes, a_strides, b_shape, b_stride):
    """A o B as the DSL computes it, A given by its flat leaves
    a_shapes:a_strides (integer strides), as (shape, stride)
    (cute/composition.h DslComposition: CuTe's weak checks on static
    integers only)."""
    r = _call(_core.cute_dsl_composition, a_shapes, a_strides, b_shape,
              b_stride)
    return _plain_like(r, (a_shapes, a_strides, b_shape, b_stride))


def composition_leaf(a_shapes, s, d):
    """The modes of coalesce_x(A) o s:d as the DSL computes them, from the
    flat shapes of coalesce_x(A): [(shape, factor, source)], the stride
    being factor times A's stride `source` (-1: factor itself)
    (cute/composition.h DslCompositionLeaf)."""
    r = _call(_core.cute_dsl_composition_leaf, a_shapes, s, d)
    if _has_plain((a_shapes, s, d)):
        r = [(_plain(sh), _plain(f), k) for sh, f, k in r]
    return r


def logical_divide(a_shapes, a_strides, t_shape, t_stride):
    """logical_divide(A, T) as the DSL computes it, A given by its flat
    leaves (integer strides): (shape, stride, rest, several), rest the
    tiler's complement as (shape, stride), several whether coalesce_x(A)
    has several modes (cute/divide.h DslLogicalDivide)."""
    operands = (a_shapes, a_strides, t_shape, t_stride)
    sh, st, rest, several = _call(_core.cute_dsl_logical_divide, *operands)
    return (_plain_like(sh, operands), _plain_like(st, operands),
            _plain_like(rest, operands), several)


def logical_product_rest(a_shapes, a_strides, t_shape, t_stride, cotarget):
    """Mode 1 of logical_product(A, T) as the DSL computes it, A given by
    its flat leaves: (complement, shape, stride, several), complement A's
    up to cotarget as (shape, stride), several whether
    coalesce_x(complement) has several modes (cute/product.h
    DslLogicalProduct)."""
    operands = (a_shapes, a_strides, t_shape, t_stride, cotarget)
    comp, sh, st, several = _call(_core.cute_dsl_logical_product_rest,
                                  *operands)
    return (_plain_like(comp, operands), _plain_like(sh, operands),
            _plain_like(st, operands), several)


def regroup(places, tiler, grouping):
    """The tree of leaf places `places` (a logical divide's or product's
    result) regrouped by the tiler's profile (tuples; anything else is a
    mode), grouping 0 zipped, 1 tiled, 2 flat, as the DSL does it
    (cute/internal/regroup.h DslRegroup)."""
    return _call(_core.cute_dsl_regroup, places, tiler, grouping)


def pad_rank(places, rank):
    """The tree of leaf places padded with 1:0 modes (place 0) up to
    `rank` (cute/product.h PadRank, CuTe's append)."""
    return _call(_core.cute_dsl_pad_rank, places, rank)


def zip_modes(first, second):
    """Two trees of leaf places paired mode by mode as the DSL's
    blocked_product and raked_product pair them (cute/product.h
    DslZipModes)."""
    return _call(_core.cute_dsl_zip_modes, first, second)


def recast(shape, stride, old_bits, new_bits):
    """shape:stride in elements of new_bits instead of old_bits as the DSL
    computes it, as (shape, stride) (cute/recast.h DslRecastLayout)."""
    operands = (shape, stride)
    sh, st = _call(_core.cute_dsl_recast, shape, stride, old_bits, new_bits)
    return _plain_like(sh, operands), _plain_like(st, operands)


def tile_repetitions(block_shape, target_shape, order):
    """The ordered layout of tile_to_shape's repetitions for a block padded
    to the target's rank, as (shape, stride), and whether every block mode
    divides the target's (cute/tile_to_shape.h DslTileRepetitions)."""
    operands = (block_shape, target_shape)
    sh, st, divides = _call(_core.cute_dsl_tile_repetitions, block_shape,
                            target_shape, order)
    return (_plain_like(sh, operands), _plain_like(st, operands)), divides


def max_common(a, b, vector):
    """The longest run of indices layouts a and b (shape, stride pairs)
    send to the same offsets: its length when `vector`, else the layout
    into b's domain as (shape, stride) (cute/common_layout.h
    DslMaxCommonVector, DslMaxCommonLayout)."""
    if vector:
        return _call(_core.cute_dsl_max_common_vector, *a, *b)
    return _plain_like(_call(_core.cute_dsl_max_common_layout, *a, *b),
                       (a, b))


def nullspace(shape, stride):
    """The flat modes of a static stride 0 at their compact column-major
    strides, as (shape, stride) (cute/common_layout.h DslNullspace)."""
    return _call(_core.cute_dsl_nullspace, shape, stride)


def max_alignment(shape, stride):
    """The DSL's max_alignment of shape:stride, an int (cute/common_layout.h
    DslMaxAlignment)."""
    return _call(_core.cute_dsl_max_alignment, shape, stride)


def right_inverse(shape, stride):
    """The core's right_inverse of shape:stride (static shapes: the result
    holds no `?`), as a core layout."""
    return _call(_core.cute_right_inverse, _call(_core.CuteLayout, shape,
                                                  stride))


def left_inverse(shape, stride):
    """The DSL's left_inverse of a static shape:stride, as a core layout."""
    return _call(_core.cute_dsl_left_inverse, _call(_core.CuteLayout, shape,
                                                    stride))


def filter_zeros(shape, stride):
    """CuTe's filter_zeros: a static 1 where a stride is a static 0
    (cute/coalesce.h FilterZeros). The `?`s are the operands' objects."""
    r = _call(_core.cute_dsl_filter_zeros, _call(_core.CuteLayout, shape,
                                                 stride))
    return _same_objects(shape, r.shape), _same_objects(stride, r.stride)


def _same_objects(given, result):
    """`result` with each `?` the operand's object it stands for: the
    result's `?`s are the operand's, in order, some left out (the core
    computes none here). Their Python types and constant flags, which the
    core does not hold, stay."""
    given = [x for x in _leaves(given) if isinstance(x, _ints.DynInt)]
    if not given:
        return result
    pos = [0]

    def pick(x):
        if type(x) is tuple:
            return tuple([pick(e) for e in x])
        if isinstance(x, _ints.DynInt):
            while not (given[pos[0]] == x):
                pos[0] += 1
            x = given[pos[0]]
            pos[0] += 1
        return x
    return pick(result)


def _leaves(t):
    if type(t) is tuple:
        for e in t:
            yield from _leaves(e)
    else:
        yield t


def coalesce_leaves(shapes, strides, filter_=False):
    """CuTe's coalesce of the flat leaves shapes:strides (tuples), as
    (shape, stride): merges and drops decided on static integers only, as
    the DSL does (cute/coalesce.h); filter_ drops static-0 strides too. On
    leaves, not a layout, so that the DSL's answers with a size of 0 or
    below (WrongLayoutWarning) coalesce as they do in the DSL."""
    r = _call(_core.cute_dsl_coalesce_leaves, shapes, strides, filter_)
    # No `?` is computed (a merge needs static integers): the result's are
    # the operands', in order, mode by mode.
    given = tuple(zip(shapes, strides))
    sh, st = r
    if type(sh) is not tuple:
        (pair,) = _same_objects(given, ((sh, st),))
        return pair
    pairs = _same_objects(given, tuple(zip(sh, st)))
    return tuple([p[0] for p in pairs]), tuple([p[1] for p in pairs])


def _none_as_zero(c):
    if type(c) is tuple:
        return tuple([_none_as_zero(e) for e in c])
    return 0 if c is None else c


def _narrow_wide(index, crd):
    if type(index) is tuple:
        return tuple([_narrow_wide(i, c) for i, c in zip(index, crd)])
    if isinstance(index, _ints.DynInt) and index.width == 64:
        return _plain(crd)
    return crd


def _plain(t):
    if type(t) is tuple:
        return tuple([_plain(e) for e in t])
    if isinstance(t, _ints.DynInt):
        return _ints.PlainDyn(t.value, 1, 32)
    return t


def _has_plain(t):
    if type(t) is tuple:
        return any(_has_plain(e) for e in t)
    return type(t) is _ints.PlainDyn


def _plain_like(result, operands):
    """The twin's plain dynamic integers (_ints.PlainDyn: no divisibility
    tracked) stay plain: when an operand holds one, every `?` of the
    result is one."""
    return _plain(result) if _has_plain(operands) else result
