"""Route 2 of the twin's layout operations (_fast.py): layouts whose
integers are all Python ints answered by CuTe's exact algorithms in one
call of the C++ core (`cute_dsl_static_op`, the checked ones of
`hlolayout.cute`). Below both the dispatch (_fast.py) and the DSL's rules
(_algebra.py), which divides a layout with a `?` mode by mode, its static
modes here.

`use_core(False)` turns route 2 off: the tests compare the two routes.

    >>> from hlolayout.cute_dsl._objects import Layout
    >>> print(static_op("logical_divide", Layout((8, 8), (1, 8)),
    ...                 Layout(2, 1)))
    (2,32):(1,2)
"""

from .. import _hlolayout as _core
from ._objects import Layout

__all__ = []

ROUTE2 = [True]


def use_core(on):
    """Turns route 2 on or off; returns the previous setting."""
    was = ROUTE2[0]
    ROUTE2[0] = bool(on)
    return was


# ---------------------------------------------------------------------------
# Route 2: the operands as the core's layouts.

def ints_only(t):
    """Whether every leaf of the tuple tree t is a Python int."""
    if type(t) is int:
        return True
    if type(t) is not tuple:
        return False
    for e in t:
        if not ints_only(e):
            return False
    return True


def static_core(x):
    """The core's layout of a Layout whose integers are all Python ints
    (made once, kept on the Layout), else None."""
    c = x._c
    if c is None and ints_only(x.sh) and ints_only(x.st):
        c = x._c = _core.CuteLayout(x.sh, x.st)
    return c


def odd_unit_stride(shape, stride):
    """A size-1 mode with a stride other than 0 and +-1 (the DSL checks its
    divisibility; CuTe's C++ skips the mode)."""
    if type(shape) is tuple:
        for s, d in zip(shape, stride):
            if odd_unit_stride(s, d):
                return True
        return False
    return shape == 1 and stride not in (0, 1, -1)


_UNIT = _core.CuteLayout(1, 0)


def static_tiler(t):
    """The tiler as route 2 takes it (a plain layout, None, a tuple of
    those; the DSL's integer n is n:1, and 1 is 1:0), or None when route 2
    cannot take it."""
    if type(t) is int:
        return _UNIT if t == 1 else _core.CuteLayout(t, 1)
    if type(t) is Layout:
        c = static_core(t)
        if c is None or odd_unit_stride(t.sh, t.st):
            return None
        return c
    if type(t) is tuple:
        modes = []
        for e in t:
            if e is None:
                modes.append(None)
                continue
            c = static_tiler(e)
            if c is None:
                return None
            modes.append(c)
        return tuple(modes)
    return None


_PAIRED = ("blocked_product", "raked_product")


def route2(name, a, b):
    """The core's exact answer to `name` of a Layout by b, or None."""
    if name == "complement" or (name in _PAIRED and type(b) is not Layout):
        return None
    ca = static_core(a)
    if ca is None:
        return None
    cb = static_tiler(b)
    if cb is None:
        return None
    fast = _EXACT.get(name) if type(cb) is _CORE_LAYOUT else None
    if fast is None:
        c = _core.cute_dsl_static_op(name, ca, cb)
    else:
        # The same exact algorithm through the extension's fast-call
        # binding (a plain layout tiler: nothing to regroup).
        try:
            c = fast(ca, cb)
        except ValueError:
            c = None
    return None if c is None else Layout._from_core(c)


_CORE_LAYOUT = _core.CuteLayout
_EXACT = {"composition": _core.cute_composition,
          "logical_divide": _core.cute_logical_divide,
          "logical_product": _core.cute_logical_product}


def static_op(name, a, b):
    """Route 2 for `_algebra`, which divides a layout with a `?` mode by
    mode: a static mode's divide is the core's exact one (None where route
    2 is off or cannot take the operands)."""
    if not ROUTE2[0] or type(a) is not Layout:
        return None
    return route2(name, a, b)
