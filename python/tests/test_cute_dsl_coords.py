"""crd2idx and cosize of layouts with scaled-basis strides (identity and
coordinate layouts) as NVIDIA's CuTe DSL (nvidia-cutlass-dsl 4.8.1, traced
on the CPU with CUTE_DSL_DRYRUN=1) printed them, one call at a time (issue
89 item 1: `_algebra.py`'s basis sum written anew on the C++ core), and
`_verify.evaluate`, the NumPy evaluation of a layout."""

import re

import numpy as np
import pytest

from hlolayout import cute_dsl as cute
from hlolayout.cute_dsl import _verify


def run(expr):
    r = eval(expr, {"cute": cute})
    return cute.pretty_str(r) if isinstance(r, tuple) else str(r)


# Each text is the DSL's print of the same expression.
BASIS = [
    ('cute.crd2idx((1,2), cute.make_identity_layout((4,8)))',
     '(1,2)'),
    ('cute.crd2idx(5, cute.make_identity_layout((4,8)))',
     '(1,1)'),
    ('cute.crd2idx(0, cute.make_identity_layout((4,8)))',
     '(0,0)'),
    ('cute.crd2idx(None, cute.make_identity_layout((4,8)))',
     '(0,0)'),
    ('cute.crd2idx(3, cute.make_identity_layout(8))',
     '3'),
    ('cute.crd2idx(3, cute.make_layout(4, stride=cute.E(1)))',
     '(0,3)'),
    ('cute.crd2idx(3, cute.make_layout((4,2), stride=(cute.E(1), cute.E(0))))',
     '(0,3)'),
    ('cute.crd2idx(5, cute.make_layout((4,2), stride=(cute.E(1), cute.E(0))))',
     '(1,1)'),
    ('cute.crd2idx(5, cute.make_layout((4,2), stride=(cute.E(2), cute.E(0))))',
     '(1,0,1)'),
    ('cute.crd2idx(5, cute.make_layout((4,2), stride=(cute.E(1), 0)))',
     '(0,1)'),
    ('cute.crd2idx(5, cute.make_layout((4,2), stride=(3*cute.E(1), 2*cute.E(0))))',
     '(2,3)'),
    ('cute.crd2idx(5, cute.make_layout((4,(2,3)), stride=(cute.E(0), (cute.E([1,0]), cute.E([1,1])))))',
     '(1,(1,0))'),
    ('cute.crd2idx((1,(1,2)), cute.make_identity_layout((4,(2,3))))',
     '(1,(1,2))'),
    ('cute.crd2idx(cute.Int32(5), cute.make_identity_layout((4,8)))',
     '(?,?)'),
    ('cute.crd2idx(cute.assume(cute.Int32(8), divby=8), cute.make_identity_layout((4,8)))',
     '(0,?{div=2})'),
    ('cute.crd2idx(cute.assume(cute.Int32(8), divby=4), cute.make_identity_layout((4,8)))',
     '(0,?)'),
    ('cute.crd2idx(3, cute.make_identity_layout((cute.Int32(4),8)))',
     '(?,?)'),
    ('cute.crd2idx(5, cute.make_identity_layout((cute.Int32(4),8)))',
     '(?,?)'),
    ('cute.crd2idx(0, cute.make_identity_layout((cute.Int32(4),8)))',
     '(0,0)'),
    ('cute.crd2idx((cute.Int32(1),2), cute.make_identity_layout((4,8)))',
     '(?,2)'),
    ('cute.crd2idx(3, cute.make_layout(4, stride=cute.E(0)))',
     '(3)'),
    ('cute.crd2idx(3, cute.make_layout(4, stride=cute.E([1,0])))',
     '(0,(3))'),
    ('cute.crd2idx(5, cute.make_layout((4,2), stride=(cute.E([0,1]), cute.E(1))))',
     '((0,1),1)'),
    ('cute.crd2idx(5, cute.make_layout((4,2), stride=(cute.E(0)*cute.Int32(3), cute.E(1))))',
     '(?,1)'),
    ('cute.crd2idx(5, cute.make_layout((4,2), stride=(cute.E(0)*cute.assume(cute.Int32(8), divby=4), cute.E(1))))',
     '(?{div=4},1)'),
    ('cute.crd2idx(40, cute.make_identity_layout((4,8)))',
     '(0,10)'),
    ('cute.crd2idx(-1, cute.make_identity_layout((4,8)))',
     '(-1,0)'),
    ('cute.crd2idx(5, cute.make_layout((4,2), stride=(0, 0)))',
     '0'),
    ('cute.crd2idx(5, cute.make_layout((1,4,2), stride=(1, cute.E(1), cute.E(0))))',
     '(1,1)'),
    ('cute.crd2idx(5, cute.make_layout((1,4,2), stride=(0, cute.E(1), cute.E(0))))',
     '(1,1)'),
    ('cute.crd2idx(5, cute.make_layout((4,2), stride=(cute.E(0), cute.E(0))))',
     '(2)'),
    ('cute.crd2idx(5, cute.make_layout((4,2), stride=(cute.E(0)*0, cute.E(1))))',
     '(0,1)'),
    ('cute.crd2idx(5, cute.make_layout((4,(2,1)), stride=(cute.E(0), (cute.E(1), cute.E(3)))))',
     '(1,1,0,0)'),
    ('cute.crd2idx(cute.Int64(5), cute.make_identity_layout((4,8)))',
     '(?,?)'),
    ('cute.crd2idx(cute.assume(cute.Int64(8), divby=8), cute.make_identity_layout((4,8)))',
     '(0,?{i64 div=2})'),
    ('cute.crd2idx(cute.assume(cute.Int32(16), divby=16), cute.make_identity_layout((4,2,2)))',
     '(0,0,?{div=2})'),
    ('cute.crd2idx(cute.assume(cute.Int32(16), divby=16), cute.make_layout((4,2,2), stride=(cute.E(0), cute.E(2), cute.E(1))))',
     '(0,?{div=2},0)'),
    ('cute.cosize(cute.make_identity_layout((4,8)))',
     '32'),
    ('cute.cosize(cute.make_layout(4, stride=cute.E(1)))',
     '4'),
    ('cute.cosize(cute.make_layout((4,2), stride=(cute.E(2), cute.E(0))))',
     '8'),
    ('cute.cosize(cute.make_layout((4,2), stride=(3*cute.E(1), 2*cute.E(0))))',
     '30'),
    ('cute.cosize(cute.make_identity_layout((4,(2,3))))',
     '24'),
    ('cute.cosize(cute.make_identity_layout((cute.Int32(4),8)))',
     '?'),
    ('cute.crd2idx(3, cute.make_layout((4,2), stride=(cute.E(1), 1)))',
     '(0,3)'),
    ('cute.crd2idx(3, cute.make_layout((4,2), stride=(cute.E(1), 0)))',
     '(0,3)'),
    ('cute.crd2idx((3,0), cute.make_layout((4,2), stride=(cute.E(1), 1)))',
     '(0,3)'),
    ('cute.crd2idx(5, cute.make_layout((1,4,2), stride=(5, cute.E(1), cute.E(0))))',
     '(1,1)'),
    ('cute.crd2idx(5, cute.make_layout((4,2), stride=(cute.E(2)*0, cute.E(1))))',
     '(0,1,0)'),
    ('cute.crd2idx(5, cute.make_layout((4,2), stride=(cute.E(0)*-1, cute.E(1))))',
     '(-1,1)'),
    ('cute.cosize(cute.make_layout((4,2), stride=(cute.E(0)*-1, cute.E(1))))',
     '8'),
    ('cute.cosize(cute.make_layout((4,2), stride=(cute.E(1), 0)))',
     '4'),
    ('cute.cosize(cute.make_layout((4,2), stride=(cute.E(0)*cute.assume(cute.Int32(8), divby=4), cute.E(1))))',
     '?{div=2}'),
    ('cute.cosize(cute.make_layout((4,cute.Int32(2)), stride=(cute.E(0), 0)))',
     '?'),
    ('cute.cosize(cute.make_layout((4,(2,1)), stride=(cute.E(0), (cute.E(1), cute.E(3)))))',
     '8'),
    ('cute.cosize(cute.make_layout((1,4,2), stride=(1, cute.E(1), cute.E(0))))',
     '8'),
    ('cute.crd2idx(5, cute.make_layout((4,2), stride=(cute.E(0), cute.E([1,0,0]))))',
     '(1,((1)))'),
    ('cute.crd2idx(cute.assume(cute.Int32(8), divby=8), cute.make_layout((4,8), stride=(cute.E(0)*2, cute.E(0))))',
     '(?{div=2})'),
    ('cute.crd2idx(cute.assume(cute.Int32(8), divby=2), cute.make_layout((4,8), stride=(cute.E(0)*2, cute.E(1)*4)))',
     '(?{div=4},?{div=4})'),
    ('cute.crd2idx(1, cute.make_layout(1, stride=cute.E(0)))',
     '(1)'),
    ('cute.crd2idx(2, cute.make_layout((4,2), stride=(cute.E(1), cute.Int32(0))))',
     '(0,2)'),
]


@pytest.mark.parametrize("expr, dsl", BASIS)
def test_basis_strides_as_the_dsl(expr, dsl):
    assert run(expr) == dsl


# The DSL refuses these ("unable to compute crd2idx with ...", "unable to
# compute cosize for input ..."): a position named both as a mode and
# inside it, an integer stride adding anything but a static 0 to the
# bases' sum, a coordinate that does not fit the shape.
# The DSL's left fold (printed one call at a time, then the harness's
# coord cases, crd-* of differential/cute_dsl/coord_cases.py): each mode's
# terms are summed before the mode above, left to right, and an integer sum
# that meets a basis must be a static 0, so integer terms that cancel
# after a basis are refused and before it are not.
FOLD = [
    ('cute.crd2idx((1,1,0), cute.make_layout((2,2,4), stride=(1,-1,cute.E(1))))',
     '(0,0)'),
    ('cute.crd2idx((1,1,1), cute.make_layout((2,2,4), stride=(1,-1,cute.E(1))))',
     '(0,1)'),
    ('cute.crd2idx((1,(1,1)), cute.make_layout((4,(2,2)), stride=(cute.E(1),(1,-1))))',
     '(0,1)'),
    ('cute.crd2idx(((1,1),0,1), cute.make_layout(((2,2),4,2), stride=((1,-1),cute.E(1),0)))',
     '(0,0)'),
    # A position named both as a mode and inside it: the scalar at it
    # meets the tuple, and is a static 0 here.
    ('cute.crd2idx((0,1), cute.make_layout((4,2), stride=(cute.E(1), cute.E([1,0]))))',
     '(0,(1))'),
    ('cute.crd2idx((1,0), cute.make_layout((4,2), stride=(cute.E([1,0]), cute.E(1))))',
     '(0,(1))'),
    ('cute.crd2idx((1,1), cute.make_layout((4,2), stride=(cute.E([1,0]), cute.E(1)*0)))',
     '(0,(1))'),
    ('cute.crd2idx((1,1,1), cute.make_layout((2,2,2), stride=(cute.E(1), cute.E(1)*-1, cute.E([1,0]))))',
     '(0,(1))'),
    ('cute.crd2idx((0,1,1), cute.make_layout((2,2,2), stride=(cute.E(1), cute.E([1,0]), cute.E([1,1]))))',
     '(0,(1,1))'),
    ('cute.crd2idx((0,cute.Int32(1)), cute.make_layout((4,2), stride=(cute.E(1), cute.E([1,0]))))',
     '(0,(?))'),
    ('cute.crd2idx((1,0), cute.make_layout((4,2), stride=(cute.E([1,0,1]), cute.E([1,0]))))',
     '(0,((0,1)))'),
    ('cute.crd2idx((0,1), cute.make_layout((2,2), stride=(cute.E(0), cute.E([0,0]))))',
     '((1))'),
    ('cute.cosize(cute.make_layout((1,2), stride=(cute.E(1), cute.E([1,0]))))',
     '2'),
    ('cute.cosize(cute.make_layout((2,2), stride=(cute.E(1)*0, cute.E([1,0]))))',
     '2'),
    # A basis scaled by a 64-bit `?`: that position's cosize is 64-bit.
    ('cute.cosize(cute.make_layout((2,16), stride=(cute.E(0), cute.E(1)*cute.Int64(4))))',
     '?{i64 div=2}'),
    ('cute.cosize(cute.make_layout((4, 3, 4), stride=(cute.E(0), cute.E(1), cute.E(2)*cute.assume(cute.Int64(8), divby=4))))',
     '?{i64 div=12}'),
    ('cute.cosize(cute.make_layout((1,16), stride=(cute.E(0), cute.E(1)*cute.Int64(4))))',
     '?'),
    ('cute.cosize(cute.make_layout((2,16), stride=(cute.E(0)*cute.Int64(2), cute.E(1)*cute.Int64(4))))',
     '?'),
]


@pytest.mark.parametrize("expr, dsl", FOLD)
def test_integer_terms_fold_as_the_dsl(expr, dsl):
    assert run(expr) == dsl


@pytest.mark.parametrize("expr, added", [
    ('cute.crd2idx((1,0,1), cute.make_layout((2,4,2), stride=(1,cute.E(1),-1)))', '1'),
    ('cute.crd2idx((0,1,1), cute.make_layout((4,2,2), stride=(cute.E(1),1,-1)))', '1'),
    ('cute.crd2idx((1,1,0), cute.make_layout((2,2,4), stride=(cute.Int32(1),-1,cute.E(1))))', '?'),
])

def test_integer_terms_met_by_a_basis_refused_as_the_dsl(expr, added):
    with pytest.raises(cute.Refusal, match=r"unable to compute crd2idx with "
                       r".*: the integer strides add %s, not the 0"
                       % re.escape(added)):
        run(expr)


@pytest.mark.parametrize("expr, scalar", [
    ('cute.crd2idx((0,1), cute.make_layout((4,2), stride=(cute.E([1,0]), cute.E(1))))',
     'at 1 add 1'),
    ('cute.crd2idx((1,1,1), cute.make_layout((2,2,2), stride=(cute.E(1), cute.E([1,0]), cute.E(1)*-1)))',
     'at 1 add 1'),
    ('cute.crd2idx((1,(1,0)), cute.make_layout((2,(2,2)), stride=(cute.E([1,0]), (cute.E(1),cute.E(1)*-1))))',
     'at 1 add 1'),
    ('cute.crd2idx((0,1,1), cute.make_layout((2,2,2), stride=(cute.E([1,1]), cute.E([1,0]), cute.E(1))))',
     'at 1 add 1'),
    ('cute.cosize(cute.make_layout((2,1), stride=(cute.E(1), cute.E([1,0]))))',
     'at 1 give 2'),
])
def test_a_scalar_met_by_a_deeper_basis_refused_as_the_dsl(expr, scalar):
    with pytest.raises(cute.Refusal, match="named both as a mode and inside "
                       "it, and the scalars %s, not the" % scalar):
        run(expr)


# The DSL's words for a coordinate that does not fit the shape, on basis
# and integer strides alike: "unable to compute crd2idx with
# '!cute.layout<"(4,8):(1@0,1@1)">' and '!cute.coord<"(1,2,3)">'".
@pytest.mark.parametrize("expr, operands", [
    ('cute.crd2idx((1,2,3), cute.make_identity_layout((4,8)))',
     'with (4,8):(1@0,1@1) and (1,2,3)'),
    ('cute.crd2idx((1,), cute.make_identity_layout(8))', 'with 8:1 and (1)'),
    ('cute.crd2idx((1,(2,3,1)), cute.make_identity_layout((4,(2,4))))',
     'with (4,(2,4)):(1@0,(1@0@1,1@1@1)) and (1,(2,3,1))'),
    ('cute.crd2idx((1,2,3), (4,8))', 'with (4,8):(1,4) and (1,2,3)'),
    ('cute.crd2idx((1,2,1), cute.make_layout((4,2), stride=(cute.E(1), 1)))',
     'with (4,2):(1@1,1) and (1,2,1)'),
])
def test_a_coordinate_that_does_not_fit_in_the_dsls_words(expr, operands):
    with pytest.raises(cute.Refusal, match="^crd2idx: unable to compute "
                       "crd2idx %s: the coordinate does not fit the shape"
                       % re.escape(operands)):
        run(expr)


@pytest.mark.parametrize("expr", [
    'cute.crd2idx(5, cute.make_layout((4,2), stride=(cute.E(1), 1)))',
    'cute.crd2idx(3, cute.make_layout((4,2), stride=(cute.E(1), cute.E([1,0]))))',
    'cute.crd2idx(5, cute.make_layout((4,2), stride=(cute.E(1), cute.E([1,0]))))',
    'cute.crd2idx((1,2,3), cute.make_identity_layout((4,8)))',
    'cute.crd2idx((1,(2,1)), cute.make_identity_layout((4,8)))',
    'cute.crd2idx(5, cute.make_layout((4,2), stride=(cute.E(1), cute.Int32(0))))',
    'cute.cosize(cute.make_layout((4,2), stride=(cute.E(1), cute.E([1,0]))))',
    'cute.cosize(cute.make_layout((4,2), stride=(cute.E(1), 1)))',
])
def test_basis_strides_refused_as_the_dsl(expr):
    with pytest.raises(cute.Refusal, match="unable to compute|Mismatched"):
        run(expr)


# _verify.evaluate against the DSL's crd2idx of the same indices (printed
# one call at a time): the last mode takes the rest of the index without a
# modulo (37 in (4,8):(8,1) is 17), a negative index is C's truncating
# `/` and `%`, i.e. -L(-i) (-6 in (2,(3,4)):(12,(1,3)) is -3).
EVALUATED = [
    (((4, 8), (1, 4)), [-1, -5, -37], [-1, -5, -37]),
    (((4, 8), (8, 1)), [37], [17]),
    (((2, (3, 4)), (12, (1, 3))), [-6, 100, -100], [-3, 50, -50]),
    (((2, (3, 4)), (12, (1, -3))), [29], [2]),
    (((1, 4, 1, 2), (9, 2, 9, 1)), [7], [7]),
]


@pytest.mark.parametrize("layout, idx, dsl", EVALUATED)
def test_evaluate_as_the_dsls_crd2idx(layout, idx, dsl):
    L = cute.make_layout(layout[0], stride=layout[1])
    got = _verify.evaluate(L, np.array(idx, dtype=np.int64))
    assert got.tolist() == dsl
    # The same as the twin's crd2idx (the C++ core's) index by index.
    assert [cute.crd2idx(i, L) for i in idx] == dsl


@pytest.mark.parametrize("shape, stride", [
    ((3, (2, 5), 4), (40, (1, 8), -2)),
    (((2, 2), (3, 1, 2)), ((1, 12), (2, 0, 24))),
    (7, 3),
])
def test_evaluate_is_crd2idx_on_every_index(shape, stride):
    L = cute.make_layout(shape, stride=stride)
    n = cute.size(L)
    idx = np.arange(-2 * n, 2 * n, dtype=np.int64)
    want = [cute.crd2idx(int(i), L) for i in idx]
    assert _verify.evaluate(L, idx).tolist() == want


def test_evaluate_refuses_what_it_cannot_evaluate():
    # A scaled basis or an empty shape: None (the checks then skip).
    idx = np.arange(4, dtype=np.int64)
    assert _verify.evaluate(cute.make_identity_layout((2, 2)), idx) is None
    assert _verify.evaluate(cute.make_layout((4, 2), stride=(1, 4)),
                            np.array([], dtype=np.int64)).tolist() == []


def test_cosize_refused_in_the_dsls_words():
    # The DSL: "unable to compute cosize for input
    # !cute.layout<"(4,2):(1@1,1)"> and mode []".
    with pytest.raises(cute.Refusal, match=re.escape(
            "cosize: unable to compute cosize for input (4,2):(1@1,1): ")):
        run('cute.cosize(cute.make_layout((4,2), stride=(cute.E(1), 1)))')
