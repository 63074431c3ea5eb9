"""hlolayout.cute_dsl's integers (cute_dsl/_ints.py, its arithmetic written
anew for issue 89 item 1) against what NVIDIA's CuTe DSL (nvidia-cutlass-dsl
4.8.1, traced with CUTE_DSL_DRYRUN=1) printed for each expression: n is
cute.assume(cute.Int32(64), divby=16), w the same as an Int64."""

import pytest

from hlolayout import cute_dsl as cute


def run(expr):
    env = {"cute": cute, "n": cute.assume(cute.Int32(64), divby=16),
           "w": cute.assume(cute.Int64(64), divby=16),
           "k": cute.assume(cute.Int32(64), divby=8)}
    r = eval(expr, env)
    return cute.pretty_str(r) if isinstance(r, tuple) else str(r)


# Python's operators: a constant the user made counts as its value against
# a traced one, no static shortcut, a 32-bit traced value cast to 64 bits
# knows nothing. Each of these answered otherwise before.
@pytest.mark.parametrize("expr, dsl", [
    ("n * cute.Int32(4)", "?{div=64}"),
    ("cute.Int32(6) * n", "?{div=96}"),
    ("cute.Int32(0) * n", "?{div=0}"),
    ("-cute.Int32(4) * n", "?{div=64}"),
    ("(cute.Int32(12) + 1) * n", "?{div=208}"),
    ("n + cute.Int32(4)", "?{div=4}"),
    ("n - cute.Int32(4)", "?{div=4}"),
    ("n - cute.Int32(0)", "?{div=16}"),
    ("n // cute.Int32(4)", "?{div=4}"),
    ("n // -4", "?{div=-4}"),
    ("w // cute.Int32(4)", "?{i64 div=4}"),
    ("w * cute.Int64(2)", "?{i64 div=32}"),
    ("w * cute.Int32(2)", "?{i64 div=32}"),
    ("0 // n", "?{div=0}"),
    ("cute.Int32(0) // n", "?{div=0}"),
    ("n % 12", "?"),
    ("cute.assume(cute.Int32(60), divby=6) % 4", "?"),
    ("n % 1", "?{div=0}"),
    ("n % -1", "?{div=0}"),
    ("n % cute.Int32(8)", "?{div=0}"),
    ("n % cute.Int32(1)", "?{div=0}"),
    ("0 % n", "?{div=0}"),
    ("-n", "?"),
    ("-w", "?"),
    ("repr(cute.Int32(5) % 1)", "Int32(0)"),
    ("n * cute.Int64(2)", "?"),
    ("cute.Int64(2) * n", "?"),
    ("n * cute.assume(cute.Int64(8), divby=8)", "?{i64 div=8}"),
    ("cute.make_layout(n * cute.Int64(2))", "?{i64}:1"),
    ("cute.make_layout(n * cute.Int32(4))", "?{div=64}:1"),
])
def test_python_operators_as_the_dsl(expr, dsl):
    assert run(expr) == dsl


# Unchanged answers, each the DSL's.
@pytest.mark.parametrize("expr, dsl", [
    ("n * 4", "?{div=64}"),
    ("n * 0", "?{div=0}"),
    ("n + 4", "?{div=4}"),
    ("n - cute.assume(cute.Int32(48), divby=24)", "?{div=8}"),
    ("4 - n", "?{div=4}"),
    ("0 + n", "?{div=16}"),
    ("n // 4", "?{div=4}"),
    ("n // 32", "?"),
    ("n // 1", "?{div=16}"),
    ("n % 8", "?{div=0}"),
    ("n % -8", "?{div=0}"),
    ("k % 24", "?{div=8}"),
    ("w * 2", "?{i64 div=32}"),
    ("n * cute.assume(cute.Int32(6), divby=6)", "?{div=96}"),
    ("n * cute.assume(cute.Int32(4), divby=4)", "?{div=64}"),
    ("n // cute.assume(cute.Int32(4), divby=4)", "?"),
    ("n // cute.Int32(32)", "?"),
    ("cute.Int32(1) * n", "?{div=16}"),
    ("cute.Int32(4) * cute.Int32(3)", "?"),
    ("repr(cute.Int32(12) // cute.Int32(4))", "Int32(3)"),
    ("repr(cute.Int64(2) + cute.Int32(3))", "Int64(5)"),
    ("repr(-cute.Int32(4))", "Int32(-4)"),
    ("repr(cute.Int32(6) * n)", "Int32(?)"),
    ("cute.size((n, 3))", "?{div=48}"),
    ("cute.ceil_div(n, 2)", "?"),
    ("cute.make_layout((cute.Int32(4), 2))", "(?,2):(1,?)"),
    ("n + cute.Int64(4)", "?"),
    ("repr(n * cute.Int64(2))", "Int64(?)"),
])
def test_integers_as_the_dsl(expr, dsl):
    assert run(expr) == dsl


def test_static_division_by_zero_raises():
    with pytest.raises(ZeroDivisionError):
        cute.Int32(5) // 0
    with pytest.raises(ZeroDivisionError):
        cute.assume(cute.Int32(64), divby=16) % 0
