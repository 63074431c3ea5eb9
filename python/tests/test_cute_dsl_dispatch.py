"""Where the CuTe DSL twin's layout operations are answered (_fast.py):
static layouts by one call of the C++ core's exact algorithms, the rest by
the DSL's rules of _algebra."""

import pytest

from hlolayout import _hlolayout as core
from hlolayout import cute_dsl as cute
from hlolayout.cute_dsl import _core_calls, _fast, _static_route

OPS2 = ["composition", "logical_divide", "zipped_divide", "tiled_divide",
        "flat_divide", "logical_product", "zipped_product", "tiled_product",
        "flat_product", "blocked_product", "raked_product"]


@pytest.fixture
def core_calls(monkeypatch):
    """Counts the calls of the core's exact algorithms (cute_dsl_static_op,
    and the fast-call bindings route 2, _static_route, uses for a plain
    layout tiler) as "static_op", and those of _core_calls (the DSL's
    rules' calls into the core) by name."""
    counts = {}

    def counting(name, fn):
        def call(*args):
            counts[name] = counts.get(name, 0) + 1
            return fn(*args)
        return call

    monkeypatch.setattr(core, "cute_dsl_static_op",
                        counting("static_op", core.cute_dsl_static_op))
    exact = _static_route._EXACT
    for name, fn in list(exact.items()):
        monkeypatch.setitem(exact, name, counting("static_op", fn))
    for name in ("regroup", "pad_rank", "zip_modes", "coalesce_leaves",
                 "composition", "logical_divide", "logical_product_rest"):
        monkeypatch.setattr(_core_calls, name,
                            counting(name, getattr(_core_calls, name)))
    return counts


@pytest.mark.parametrize("op", OPS2)
def test_a_static_op_is_one_call_of_the_cpp_core(op, core_calls):
    # The regrouped forms too: no regrouping in Python around the call.
    a = cute.make_layout((8, (4, 6)), stride=(24, (1, 4)))
    if op.endswith("_product"):
        a, b = cute.make_layout((2, 3)), cute.make_layout((4, 2),
                                                          stride=(1, 8))
    else:
        b = (cute.make_layout(4), cute.make_layout(2))
    _fast.memo_clear()
    answer = getattr(cute, op)(a, b)
    assert core_calls == {"static_op": 1}, (op, core_calls)
    old = _fast.use_core(False)
    try:
        assert str(getattr(cute, op)(a, b)) == str(answer)
    finally:
        _fast.use_core(old)


@pytest.mark.parametrize("op, a, b, text", [
    # The DSL's prints (docs/cute-dsl.md and the harness).
    ("raked_product", ((2, 2), (1, 2)), ((3, 4), (1, 3)),
     "((3,2),(4,2)):((4,1),(12,2))"),
    ("blocked_product", ((2, 2), (1, 2)), ((3, 4), (1, 3)),
     "((2,3),(2,4)):((1,4),(2,12))"),
    # A tuple of one mode is unpacked (CuTe's C++ keeps ((2),(4))).
    ("tiled_divide", ((8,), (1,)), ((2, 1),), "((2),4):((1),2)"),
    ("flat_divide", ((8,), (3,)), ((2, 1),), "(2,4):(3,6)"),
    ("flat_product", (((1, 2), (1, 3), 3), ((8, 16), (4, 4), 32)),
     ((6,), (8,)), "((1,2),(1,3),3,6):((8,16),(4,4),32,192)"),
])
def test_the_static_op_regroups_as_the_dsl(op, a, b, text):
    la = core.CuteLayout(*a)
    if len(b) == 1:
        lb = (core.CuteLayout(*b[0]),)
    else:
        lb = core.CuteLayout(*b)
    assert core.cute_dsl_text(core.cute_dsl_static_op(op, la, lb)) == text


def test_the_static_op_is_none_where_cute_refuses():
    # (4,3):(1,5) o 4:3 is not a composition: CuTe's weak check lets the DSL
    # answer (2,2):(3,5); the exact algorithm refuses, and the DSL's rules
    # decide (with the twin's WrongLayoutWarning).
    a = core.CuteLayout((4, 3), (1, 5))
    assert core.cute_dsl_static_op("composition", a,
                                   core.CuteLayout(4, 3)) is None
    with pytest.warns(cute.WrongLayoutWarning):
        r = cute.composition(cute.make_layout((4, 3), stride=(1, 5)),
                             cute.make_layout(4, stride=3))
    assert str(r) == "(2,2):(3,5)"
    with pytest.raises(ValueError, match="unknown op"):
        core.cute_dsl_static_op("complement", a, a)
