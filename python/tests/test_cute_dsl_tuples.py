"""hlolayout.cute_dsl's IntTuple helpers (cute_dsl/_tuples.py, written anew
for issue 89 item 1) against what NVIDIA's CuTe DSL (nvidia-cutlass-dsl
4.8.1, traced with CUTE_DSL_DRYRUN=1) printed for each expression."""

import pytest

from hlolayout import cute_dsl as cute
from hlolayout.cute_dsl import _tuples


def _q(value, div=1):
    return cute.assume(cute.Int32(value), divby=div)


def run(expr):
    env = {"cute": cute, "m": _q(32, 8), "d": cute.Int32(3)}
    r = eval(expr, env)
    return cute.pretty_str(r) if isinstance(r, tuple) else str(r)


# ceil_div counts the tiles of the divisor that cover the dividend: a leaf
# divisor divides the whole product, a tuple divides mode by mode (modes past
# its rank unchanged), inside a mode a tuple divisor against a leaf counts by
# its product. The first six answered otherwise before (CuTe's fold: (2,6),
# (3), (3,(2,4)), ((?,?),3), (?,?), (3,(2,?))).
@pytest.mark.parametrize("expr, dsl", [
    ("cute.ceil_div((8, 6), 5)", "10"),
    ("cute.ceil_div((12,), 5)", "3"),
    ("cute.ceil_div((8, (6, 4)), (3, 4))", "(3,6)"),
    ("cute.ceil_div(((8, 2), 6), (d, 2))", "(?,3)"),
    ("cute.ceil_div((m, 6), 4)", "?"),
    ("cute.ceil_div((8, (6, d)), (3, 4))", "(3,?)"),
    ("cute.ceil_div((8, 6), ((2, 2), 3))", "(2,2)"),
    ("cute.ceil_div((8, (6, 2), 5), (3,))", "(3,(6,2),5)"),
    ("cute.ceil_div(((8, 4), 6), ((2,), 3))", "((4,4),2)"),
    ("cute.ceil_div((8, (6, 2)), (3, (4, 1)))", "(3,(2,2))"),
    ("cute.ceil_div((12,), (5,))", "(3)"),
    ("cute.ceil_div(12, (5,))", "3"),
    ("cute.ceil_div((8, -6), (3, 2))", "(3,-3)"),
    ("cute.ceil_div((8, 6), (-3, 2))", "(-2,3)"),
    ("cute.ceil_div((m, 6), (4, 4))", "(?,2)"),
    ("cute.ceil_div((8, 6), ())", "(8,6)"),
    ("cute.ceil_div(7, d)", "?"),
])
def test_ceil_div_counts_tiles_as_the_dsl(expr, dsl):
    assert run(expr) == dsl


# Refused by the DSL ("expects rank(tiler) <= rank(input)", "unable to
# perform ceil_div"); the first was 2 before.
@pytest.mark.parametrize("expr", [
    "cute.ceil_div(12, (2, 3))",
    "cute.ceil_div((8, 6), (3, 4, 5))",
    "cute.ceil_div(((8, 4), 6), ((2, 3, 5), 3))",
    "cute.ceil_div((8, 6), (0, 2))",
    "cute.ceil_div((8, 6), 0)",
])
def test_ceil_div_refuses_as_the_dsl(expr):
    with pytest.raises(ValueError):
        run(expr)


# The strides makers (unchanged answers, each the DSL's).
@pytest.mark.parametrize("expr, dsl", [
    ("cute.make_layout((2, 1, (1, 3)))", "(2,1,(1,3)):(1,0,(0,2))"),
    ("cute.make_layout((d, 1, 4))", "(?,1,4):(1,0,?)"),
    ("cute.make_ordered_layout((2, 3, 4), order=(2, 0, 1))",
     "(2,3,4):(12,1,3)"),
    ("cute.make_ordered_layout((2, (3, 4)), order=(1, (0, 2)))",
     "(2,(3,4)):(3,(1,6))"),
    ("cute.make_ordered_layout((2, 3, 4), order=(1, 1, 0))",
     "(2,3,4):(4,4,1)"),
    ("cute.make_ordered_layout((2, 3, 4), order=(cute.Int32(0), 1, 0))",
     "(2,3,4):(12,4,1)"),
    ("cute.make_ordered_layout((2, (3, 4)), order=(1, 0))",
     "(2,(3,4)):(12,(1,3))"),
    ("cute.make_ordered_layout((2, d, 4), order=(2, 0, 1))",
     "(2,?,4):(?{div=4},1,?)"),
    ("cute.product_each((2, (3, d)))", "(2,?{div=3})"),
    ("cute.flatten((2, (3, (4,))))", "(2,3,4)"),
    ("cute.depth((2, (3, (4,))))", "3"),
])
def test_strides_and_trees_as_the_dsl(expr, dsl):
    assert run(expr) == dsl


def test_an_order_not_weakly_congruent_is_refused():
    with pytest.raises(ValueError):
        cute.make_ordered_layout((2, 3), order=(1, (0, 2)))


def test_products_with_a_dynamic_leaf_are_the_cpp_cores(monkeypatch):
    from hlolayout.cute_dsl import _core_calls
    calls = []
    real = _core_calls._core.cute_product

    def counted(t):
        calls.append(t)
        return real(t)
    monkeypatch.setattr(_core_calls._core, "cute_product", counted)
    q = _q(32, 8)
    assert str(_tuples.product((4, (q, 2)))) == "?{div=64}"
    assert str(_tuples.product((0, q))) == "0"  # CuTe's static-0 shortcut
    assert len(calls) == 2
    # Python ints multiply here.
    assert _tuples.product_each((4, (3, 2), ())) == (4, 6, 1)
    assert len(calls) == 2


def test_tree_helpers():
    t = (1, (2, (3, 4)), 5)
    assert _tuples.leaves(t) == [1, 2, 3, 4, 5]
    assert _tuples.flatten(t) == (1, 2, 3, 4, 5) and _tuples.flatten(7) == 7
    assert _tuples.rank(t) == 3 and _tuples.rank(7) == 1
    assert _tuples.depth(t) == 3 and _tuples.depth(()) == 1
    assert _tuples.unwrap(((4,),)) == 4 and _tuples.wrap(4) == (4,)
    assert _tuples.congruent((1, (2, 3)), (4, (5, 6)))
    assert not _tuples.congruent((1, (2, 3)), (4, 5))
    assert _tuples.weakly_congruent((1, 2), (4, (5, 6)))
    assert not _tuples.weakly_congruent((1, (2, 3)), (4, 5))
    assert _tuples.text((4, (None, _q(8, 8)))) == "(4,(_,?{div=8}))"
