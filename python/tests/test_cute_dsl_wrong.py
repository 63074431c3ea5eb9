"""The twin's mechanism for an answer of the DSL that breaks CuTe's rules
(docs/cute-dsl.md, "Where the DSL returns what CuTe's algebra does not"):
every rule of cute.WRONG_LAYOUT_RULES met on a case, strict mode raising,
the default warning at the line of the user's call, unchecked() silent."""

import sys
import warnings

import pytest

from hlolayout import cute_dsl as cute
from hlolayout.cute_dsl import _algebra

COPY = ("cute.make_copy_atom(cute.nvgpu.CopyUniversalOp(), cute.Float16, "
        "num_bits_per_copy=128)")

# One case a rule: the expression, the DSL's answer as the twin returns it
# (unchecked), and a piece of the witness. Each was printed by the DSL
# (the harness's cases) or is documented where the rule is.
CASES = {
    "composition": (
        "cute.composition(cute.make_layout((4, 3), stride=(1, 5)), "
        "cute.make_layout(4, stride=3))", "(2,2):(3,5)", "A(B(2))"),
    "complement": (
        "cute.complement(cute.make_layout((2, 2), stride=(1, 1)), 8)",
        None, "shape 0"),
    "complement-negative": (
        "cute.complement(cute.make_layout((4, 2), stride=(-1, 4)), 16)",
        "(-1,-1,2):(1,-4,8)", "-1 is negative"),
    "product": (
        "cute.logical_product(cute.make_layout((16, 4), stride=(-2, 4)), "
        "(1,))", "((16,1),4):((-2,0),4)", None),
    "divide": (
        "cute.logical_divide(cute.make_layout(64), cute.make_layout("
        "(2, cute.Int32(2)), stride=(1, 1)))", None, "shape <= 0"),
    "tile_to_shape": (
        "cute.tile_to_shape(cute.make_layout((8, 8)), (12, 8), (0, 1))",
        None, "(16,8), not (12,8)"),
    "recast": (
        "cute.recast_layout(32, 16, cute.make_layout((2, 4), "
        "stride=(3, 8)))", None, "offset 3"),
    "recast-swizzle": (
        "cute.recast_layout(64, 8, cute.make_composed_layout("
        "cute.make_swizzle(3, 2, 3), 0, cute.make_layout((8, 64), "
        "stride=(64, 1))))", "S<3,4294967295,3> o 0 o (8,8):(8,1)",
        "S<2,0,3>"),
    "tiled_copy": (
        "cute.make_tiled_copy_tv(%s, cute.make_layout((32, 1)), "
        "cute.make_layout((1, 4)))" % COPY, None, "the atom moves 8"),
}


@pytest.fixture(autouse=True)
def _settings():
    old = cute.get_arch()
    was_strict = cute.set_strict(False)
    yield
    cute.set_strict(was_strict)
    cute.set_arch(old)


def _run(expr):
    return eval(expr, {"cute": cute})


def test_every_rule_has_a_case():
    assert sorted(CASES) == sorted(cute.WRONG_LAYOUT_RULES)
    assert cute.WRONG_LAYOUT_RULES is _algebra.RULES


@pytest.mark.parametrize("rule", sorted(CASES))
def test_each_rule_strict_default_and_unchecked(rule):
    expr, answer, witness = CASES[rule]
    # unchecked(): the DSL's answer, silently.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with cute.unchecked():
            silent = str(_run(expr))
    if answer is not None:
        assert silent == answer
    # Strict: refused, naming the rule, with the DSL's answer and a witness.
    with cute.strict():
        with pytest.raises(cute.WrongLayoutError) as e:
            _run(expr)
    err = e.value
    assert isinstance(err, ValueError)
    # dsl_result: the answer of the op that breaks the rule (an inner op's
    # for a product built on a complement, the swizzle of a recast).
    assert err.rule == rule and err.dsl_result is not None
    assert err.witness and str(err).endswith("(%s)" % err.witness)
    if witness is not None:
        assert witness in err.witness
    # Default: the same answer, with the warning naming the rule and its
    # sentence, counted (_fast keeps no answer built with one).
    before = _algebra.WRONG_ANSWERS[0]
    with pytest.warns(cute.WrongLayoutWarning) as w:
        assert str(_run(expr)) == silent
    assert _algebra.WRONG_ANSWERS[0] == before + 1
    (got,) = [x.message for x in w
              if isinstance(x.message, cute.WrongLayoutWarning)]
    assert isinstance(got, UserWarning) and got.rule == rule
    assert got.witness == err.witness
    assert str(got.dsl_result) == str(err.dsl_result)
    assert str(got) == ("%s; the DSL's answer is returned, breaking the rule "
                        "%s: %s (cute_dsl.set_strict(True) raises instead)"
                        % (err, rule, cute.WRONG_LAYOUT_RULES[rule]))


def test_strict_by_call_context_and_filter():
    expr = CASES["composition"][0]
    assert cute.set_strict(True) is False and cute.is_strict()
    with pytest.raises(cute.WrongLayoutError):
        _run(expr)
    assert cute.set_strict(False) is True and not cute.is_strict()
    with cute.strict():
        assert cute.is_strict()
        with cute.strict(False):
            assert not cute.is_strict()
            with pytest.warns(cute.WrongLayoutWarning):
                _run(expr)
        assert cute.is_strict()
    assert not cute.is_strict()
    # A strict block left by an exception restores the setting.
    with pytest.raises(cute.WrongLayoutError):
        with cute.strict():
            _run(expr)
    assert not cute.is_strict()
    # The warnings filter stops at the first one.
    with warnings.catch_warnings():
        warnings.simplefilter("error", cute.WrongLayoutWarning)
        with pytest.raises(cute.WrongLayoutWarning):
            _run(expr)
    # unchecked() wins over strict, and is left as it was.
    with cute.strict(), cute.unchecked():
        assert str(_run(expr)) == "(2,2):(3,5)"
    with pytest.warns(cute.WrongLayoutWarning):
        _run(expr)


def _user_module(source, name="user_kernel.py"):
    """A module of the user's, compiled under its own file name."""
    namespace = {"cute": cute, "__name__": "user_kernel"}
    exec(compile(source, name, "exec"), namespace)
    return namespace


@pytest.mark.parametrize("rule", ["composition", "divide", "tile_to_shape",
                                  "recast-swizzle", "tiled_copy"])
def test_the_warning_names_the_users_line(rule):
    # Each rule reaches _wrong through another depth of the twin's modules
    # (_fast, _composed, _atoms, nvgpu): the warning names the user's line.
    user = _user_module("def kernel():\n"
                        "    x = 1\n"
                        "    return %s\n" % CASES[rule][0])
    with pytest.warns(cute.WrongLayoutWarning) as w:
        user["kernel"]()
    (got,) = [x for x in w if issubclass(x.category, cute.WrongLayoutWarning)]
    assert (got.filename, got.lineno) == ("user_kernel.py", 3)
    # Called here: this line.
    with pytest.warns(cute.WrongLayoutWarning) as w:
        line = sys._getframe().f_lineno + 1
        _run_here = cute.composition(cute.make_layout((4, 3), stride=(1, 5)), cute.make_layout(4, stride=3))  # noqa: E501
    assert str(_run_here) == "(2,2):(3,5)"
    assert (w[0].filename, w[0].lineno) == (__file__, line)


def test_a_module_named_like_the_twin_but_outside_it_is_the_users():
    # The rule is by module name: hlolayout.cute_dsl and modules under it.
    user = _user_module("def kernel():\n"
                        "    return %s\n" % CASES["composition"][0],
                        name="cute_dsl_user.py")
    user["__name__"] = "hlolayout.cute_dsl_user"
    with pytest.warns(cute.WrongLayoutWarning) as w:
        user["kernel"]()
    assert (w[0].filename, w[0].lineno) == ("cute_dsl_user.py", 2)


def test_an_unknown_rule_is_the_twins_bug():
    with pytest.raises(KeyError):
        _algebra._wrong("no-such-rule", "m", None, "w")
