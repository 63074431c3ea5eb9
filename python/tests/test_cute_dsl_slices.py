"""hlolayout.cute_dsl's slices (cute_dsl/_slices.py, written anew for issue
89 item 1) against what NVIDIA's CuTe DSL (nvidia-cutlass-dsl 4.8.1, traced
with CUTE_DSL_DRYRUN=1) printed for each expression."""

import pytest

from hlolayout import cute_dsl as cute

_L34 = "cute.make_layout((3, 4), stride=(4, 1))"
_L234 = "cute.make_layout(((2, 3), 4), stride=((1, 2), 6))"
_SW = ("cute.make_composed_layout(cute.make_swizzle(1, 2, 3), 0,"
       " cute.make_layout((8, 4)))")


def run(expr):
    r = eval(expr, {"cute": cute, "d": cute.Int32(3)})
    return cute.pretty_str(r) if isinstance(r, tuple) else str(r)


# dice keeps the modes under an integer (the twin had no dice before: every
# case fails on the old code).
@pytest.mark.parametrize("expr, dsl", [
    ("cute.dice(%s, (None, 1))" % _L34, "(4):(1)"),
    ("cute.dice((3, 4), (None, 1))", "(4)"),
    ("cute.dice((3, (4, 5)), (None, (1, None)))", "(4)"),
    ("cute.dice((3, (4, 5)), (None, 1))", "((4,5))"),
    ("cute.dice((3, (4, 5)), 1)", "(3,(4,5))"),
    ("cute.dice((3, (4, 5)), None)", "()"),
    ("cute.dice(%s, ((None, 1), None))" % _L234, "(3):(2)"),
    ("cute.dice((3, 4), (1, 2))", "(3,4)"),
    ("cute.dice((3, 4), (None, None))", "()"),
    ("cute.dice(cute.make_identity_layout((3, 4)), (None, 1))", "(4):(1@1)"),
    ("cute.dice((None, 1), (3, 4))", "(_,1)"),
    ("cute.dice((3, d), (None, 1))", "(?)"),
    ("cute.dice(12, 1)", "12"),
    ("cute.dice(12, None)", "()"),
    ("cute.dice(cute.make_layout(12), 1)", "12:1"),
    ("cute.dice(%s, (None, 1))" % _SW, "S<1,2,3> o 0 o (4):(8)"),
])
def test_dice_as_the_dsl(expr, dsl):
    assert run(expr) == dsl


@pytest.mark.parametrize("expr", [
    "cute.dice(cute.make_layout((3, 4)), (None, 1, 2))",
    "cute.dice(12, (1,))",
    "cute.dice(cute.make_layout((d, 4)), (d, None))",  # a dynamic dicer
])
def test_dice_refuses_as_the_dsl(expr):
    with pytest.raises(cute.Refusal):
        run(expr)


# slice_ keeps the modes under a None (answers unchanged by the rewrite).
@pytest.mark.parametrize("expr, dsl", [
    ("cute.slice_(%s, (None, 1))" % _L34, "(3):(4)"),
    ("cute.slice_(%s, None)" % _L34, "(3,4):(4,1)"),
    ("cute.slice_(%s, 2)" % _L34, "():()"),
    ("cute.slice_(%s, ((None, 1), None))" % _L234, "(2,4):(1,6)"),
    ("cute.slice_(%s, (1, None))" % _L234, "(4):(6)"),
    ("cute.slice_(cute.make_layout((d, 4)), (None, d))", "(?):(1)"),
    ("cute.slice_((3, (4, 5)), (None, (1, None)))", "(3,5)"),
    ("cute.slice_((3, (4, 5)), (1, None))", "((4,5))"),
    ("cute.slice_((3, (4, 5)), 1)", "()"),
    ("cute.slice_(cute.make_identity_layout((3, 4)), (None, 1))",
     "(3):(1@0)"),
    ("cute.slice_and_offset(((None, 1), 3), %s)" % _L234, "((2):(1),20)"),
    ("cute.slice_and_offset((2, None), cute.make_layout((3, d)))",
     "((?):(3),2)"),
])
def test_slice_as_the_dsl(expr, dsl):
    assert run(expr) == dsl


@pytest.mark.parametrize("expr", [
    "cute.slice_(cute.make_layout((3, 4)), (None, 1, 2))",
    "cute.slice_(cute.make_layout((3, 4)), ((None, 1), 2))",
    "cute.slice_(cute.make_layout(12), (None,))",
    "cute.slice_(%s, ())" % _L34,
])
def test_slice_refuses_as_the_dsl(expr):
    with pytest.raises(cute.Refusal, match="does not fit the profile"):
        run(expr)
