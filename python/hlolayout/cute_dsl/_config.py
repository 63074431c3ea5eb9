"""The twin's settings: the target architecture (the DSL's CUTE_DSL_ARCH)
and what the twin does where the DSL returns a layout that is not CuTe's
algebra (a weak composition, the complement of a non-injective layout):

  by default     it returns the DSL's answer (users' kernels run with it)
                 and warns (WrongLayoutWarning, naming the rule it breaks);
  strict         it raises WrongLayoutError (`set_strict(True)`,
                 `with strict():`, or HLOLAYOUT_CUTE_DSL_STRICT=1);
  unchecked()    it returns the DSL's answer silently (for comparing
                 texts)."""

import contextlib
import os

__all__ = ["set_arch", "get_arch", "unchecked", "checked", "strict",
           "set_strict", "is_strict"]

ARCHS = ("sm_70", "sm_75", "sm_80", "sm_86", "sm_87", "sm_89", "sm_90",
         "sm_90a", "sm_100", "sm_100a", "sm_100f", "sm_101", "sm_101a",
         "sm_101f", "sm_103", "sm_103a", "sm_103f", "sm_107", "sm_107a",
         "sm_107f", "sm_110", "sm_110a", "sm_110f", "sm_120", "sm_120a",
         "sm_120f", "sm_121", "sm_121a", "sm_121f")

_state = {"arch": os.environ.get("CUTE_DSL_ARCH") or "sm_100a",
          "checked": True,
          "strict": os.environ.get("HLOLAYOUT_CUTE_DSL_STRICT", "") not in
          ("", "0")}


def set_arch(arch):
    """Sets the architecture the atoms are checked against (the DSL reads
    CUTE_DSL_ARCH; the twin reads it at import and here). A name the DSL
    does not know is refused with the nearest ones; a base name that has an
    `a` variant (sm_90, sm_100, ...) is taken, as the DSL takes it, with a
    warning: the architecture-specific ops (wgmma, tcgen05, the block-scaled
    MMAs) need the `a` (or `f`) name."""
    if arch not in ARCHS:
        import difflib
        near = difflib.get_close_matches(str(arch), ARCHS, n=3, cutoff=0.5)
        raise ValueError("unknown architecture %r%s (one of %s)" % (
            arch, "; did you mean %s?" % " or ".join(near) if near else "",
            ", ".join(ARCHS)))
    if arch + "a" in ARCHS:
        import warnings
        warnings.warn("architecture %s: the ops specific to it (wgmma on "
                      "sm_90, tcgen05 on sm_100 ...) need %sa, which the DSL "
                      "calls it; did you mean %sa?" % (arch, arch, arch),
                      stacklevel=2)
    _state["arch"] = arch


def get_arch():
    return _state["arch"]


def checked():
    """Whether the twin checks the DSL's answers (warning or raising)."""
    return _state["checked"]


def is_strict():
    """Whether a wrong answer of the DSL raises WrongLayoutError (strict)
    rather than being returned with a WrongLayoutWarning (the default)."""
    return _state["strict"]


def set_strict(on=True):
    """Strict mode on or off for the process; returns the previous
    setting (HLOLAYOUT_CUTE_DSL_STRICT=1 turns it on at import)."""
    old = _state["strict"]
    _state["strict"] = bool(on)
    return old


@contextlib.contextmanager
def strict(on=True):
    """Within it, a wrong answer of the DSL raises WrongLayoutError."""
    old = set_strict(on)
    try:
        yield
    finally:
        _state["strict"] = old


@contextlib.contextmanager
def unchecked():
    """Within it, the twin returns what the DSL returns where the DSL's
    layout is not the function asked for, silently (neither
    WrongLayoutWarning nor WrongLayoutError)."""
    old = _state["checked"]
    _state["checked"] = False
    try:
        yield
    finally:
        _state["checked"] = old
