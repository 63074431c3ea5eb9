"""The twin's settings: the target architecture (the DSL's CUTE_DSL_ARCH)
and what the twin does where the DSL returns a layout that is not CuTe's
algebra (a weak composition, the complement of a non-injective layout):

  by default     it returns the DSL's answer (users' kernels run with it)
                 and warns (WrongLayoutWarning, naming the rule it breaks);
  strict         it raises WrongLayoutError (`set_strict(True)`,
                 `with strict():`, or HLOLAYOUT_CUTE_DSL_STRICT=1);
  unchecked()    it returns the DSL's answer silently (for comparing
                 texts).

_algebra._wrong reads the last two (checked(), is_strict()); the ops of
nvgpu/ read the first (get_arch())."""

import contextlib
import difflib
import os
import warnings

__all__ = ["set_arch", "get_arch", "unchecked", "checked", "strict",
           "set_strict", "is_strict"]

# The architectures the DSL knows, each base name with its variants (`a`:
# the architecture's own instructions, `f`: the family's). Probed on the
# DSL (CUTE_DSL_ARCH set, then an op that checks it built): these are
# taken; any other name (sm_70, sm_75, sm_88, sm_90f, sm_80a, sm_100b,
# sm_122, SM_90A) fails with a KeyError naming it.
_BASES_AND_VARIANTS = (
    ("sm_80", ""), ("sm_86", ""), ("sm_87", ""), ("sm_89", ""),
    ("sm_90", "a"),
    ("sm_100", "af"), ("sm_101", "af"), ("sm_103", "af"), ("sm_107", "af"),
    ("sm_110", "af"), ("sm_120", "af"), ("sm_121", "af"),
)
ARCHS = tuple(base + variant for base, variants in _BASES_AND_VARIANTS
              for variant in ("",) + tuple(variants))


class _Settings:
    """The process's settings, first from its environment."""

    def __init__(self, environ):
        self.arch = environ.get("CUTE_DSL_ARCH") or "sm_100a"
        self.checked = True
        self.strict = environ.get("HLOLAYOUT_CUTE_DSL_STRICT", "") not in (
            "", "0")


_now = _Settings(os.environ)


@contextlib.contextmanager
def _within(name, value):
    """The setting `name` is `value` inside the block, as it was after."""
    before = getattr(_now, name)
    setattr(_now, name, value)
    try:
        yield
    finally:
        setattr(_now, name, before)


def set_arch(arch):
    """Sets the architecture the ops are checked against (what the DSL
    reads from CUTE_DSL_ARCH; the twin reads that at import, then this). A
    name the DSL does not know is refused (ValueError) with the nearest
    ones. A base name that has an `a` variant (sm_90, sm_100, ...) is taken
    with a warning: the DSL takes it too, but its architecture-specific
    ops (wgmma, tcgen05, the block-scaled MMAs) refuse it."""
    if arch not in ARCHS:
        near = difflib.get_close_matches(str(arch), ARCHS, n=3, cutoff=0.5)
        hint = "; did you mean %s?" % " or ".join(near) if near else ""
        raise ValueError("unknown architecture %r%s (one of %s)" % (
            arch, hint, ", ".join(ARCHS)))
    specific = arch + "a"
    if specific in ARCHS:
        warnings.warn("architecture %s: the ops specific to it (wgmma on "
                      "sm_90, tcgen05 on sm_100 ...) need %s, which the DSL "
                      "calls it; did you mean %s?" % (arch, specific,
                                                      specific),
                      stacklevel=2)
    _now.arch = arch


def get_arch():
    """The architecture set (default sm_100a)."""
    return _now.arch


def checked():
    """False inside unchecked(): the DSL's wrong answers then come back
    silently."""
    return _now.checked


def is_strict():
    """True in strict mode: a wrong answer of the DSL raises
    WrongLayoutError instead of coming back with a WrongLayoutWarning."""
    return _now.strict


def set_strict(on=True):
    """Turns strict mode on or off for the process and returns what it was
    (HLOLAYOUT_CUTE_DSL_STRICT=1 turns it on at import)."""
    before, _now.strict = _now.strict, bool(on)
    return before


def strict(on=True):
    """A block in strict mode (or out of it, `strict(False)`)."""
    return _within("strict", bool(on))


def unchecked():
    """A block in which the DSL's wrong answers come back silently
    (neither WrongLayoutWarning nor WrongLayoutError)."""
    return _within("checked", False)
