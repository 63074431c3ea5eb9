"""The twin's settings (_config): the architecture names set_arch takes,
as the DSL takes them (each probed: docs/cute-dsl.md, "`_config.py`
written anew"), and the blocks that set a setting and restore it."""

import warnings

import pytest

from hlolayout import cute_dsl as cute
from hlolayout.cute_dsl import _config

# Taken by the DSL (CUTE_DSL_ARCH set, then an op that reads it built).
KNOWN = ["sm_80", "sm_86", "sm_87", "sm_89", "sm_90", "sm_90a"] + [
    base + v for base in ("sm_100", "sm_101", "sm_103", "sm_107", "sm_110",
                          "sm_120", "sm_121") for v in ("", "a", "f")]
# Names the DSL fails on (a KeyError naming them).
UNKNOWN = ["sm_50", "sm_60", "sm_70", "sm_72", "sm_75", "sm_88", "sm_90f",
           "sm_80a", "sm_89a", "sm_100b", "sm_122", "sm_130", "SM_90A",
           " sm_90a", "sm90a", 90, None]


@pytest.fixture(autouse=True)
def _restore():
    old = cute.get_arch()
    yield
    cute.set_arch(old)


def test_set_arch_takes_the_names_the_dsl_knows():
    assert sorted(_config.ARCHS) == sorted(KNOWN)
    for arch in KNOWN:
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            cute.set_arch(arch)
        assert cute.get_arch() == arch
        # A base name with an `a` variant: taken, with a warning naming it.
        if arch + "a" in KNOWN:
            assert len(w) == 1 and "did you mean %sa?" % arch in str(
                w[0].message)
            assert w[0].filename == __file__
        else:
            assert not w
    cute.set_arch("sm_90a")
    for arch in UNKNOWN:
        with pytest.raises(ValueError, match="unknown architecture"):
            cute.set_arch(arch)
        assert cute.get_arch() == "sm_90a"
    with pytest.raises(ValueError, match="did you mean sm_90a"):
        cute.set_arch("sm90a")
    with pytest.raises(ValueError, match=r"\(one of sm_80, sm_86,"):
        cute.set_arch("sm_75")


def test_settings_blocks_restore_what_was_there():
    was = cute.is_strict()
    for on in (True, False):
        with cute.strict(on):
            assert cute.is_strict() is on
            with cute.strict(not on):
                assert cute.is_strict() is (not on)
            assert cute.is_strict() is on
        assert cute.is_strict() is was
    with pytest.raises(KeyError):
        with cute.unchecked():
            assert _config.checked() is False
            with cute.unchecked():
                assert _config.checked() is False
            assert _config.checked() is False
            raise KeyError("left by an exception")
    assert _config.checked() is True
    assert cute.set_strict(1) is was and cute.is_strict() is True
    assert cute.set_strict(0) is True and cute.is_strict() is False
    cute.set_strict(was)
