"""Dispatch of the DSL twin's algebra.

Static layouts (every integer a Python int) go to the C++ core (cute/, the
same engine as `hlolayout.cute`): CuTe's algorithms, about a microsecond an
operation. Where the C++ core refuses (CuTe's static_asserts and
divisibility checks), and for layouts with a dynamic integer, a composed
layout or a swizzle, the Python engine (_algebra) answers with the DSL's own
rules: its refusals, its dynamic divisibility, and the DSL's result where
CuTe's weak checks let a wrong layout through (WrongLayoutError).
The property tests (python/tests/test_cute_dsl.py) and the differential
harness check that both paths print the same text.

`use_core(False)` sends everything to the engine (for those tests).
"""

from .. import _hlolayout as _core
from . import _algebra, _config, _core_calls, _ints
from ._objects import ComposedLayout, Layout, Swizzle

_CORE = {"on": True}


def use_core(on):
    """Turns the C++ fast path on or off (the engine answers everything
    when off); returns the previous setting."""
    old = _CORE["on"]
    _CORE["on"] = bool(on)
    return old


def _static_tuple(t):
    if type(t) is tuple:
        for e in t:
            if not _static_tuple(e):
                return False
        return True
    return type(t) is int


def _core_layout(x):
    """The C++ layout of a static Layout, else None."""
    c = x._c
    if c is not None:
        return c
    sh, st = x.sh, x.st
    if not (_static_tuple(sh) and _static_tuple(st)):
        return None
    c = _core.CuteLayout(sh, st)
    x._c = c
    return c


def _unit_mode_strided(sh, st):
    """A size-1 mode with a stride other than 0 or 1: the DSL checks the
    stride's divisibility there (and may refuse), CuTe's C++ skips it."""
    if type(sh) is tuple:
        return any(_unit_mode_strided(a, b) for a, b in zip(sh, st))
    return sh == 1 and st not in (0, 1, -1)


def _core_tiler(t):
    """A tiler for the C++ core (the DSL's: an int n is n:1 and 1 is 1:0),
    or None when it is not static or the engine must decide."""
    if type(t) is int:
        return _ONE if t == 1 else _core.CuteLayout(t, 1)
    if isinstance(t, Layout):
        c = _core_layout(t)
        if c is not None and _unit_mode_strided(t.sh, t.st):
            return None
        return c
    if type(t) is tuple:
        out = []
        for e in t:
            if e is None:
                out.append(None)
                continue
            c = _core_tiler(e)
            if c is None:
                return None
            out.append(c)
        return tuple(out)
    return None


_ONE = _core.CuteLayout(1, 0)

_CORE2 = {
    "composition": _core.cute_composition,
    "logical_divide": _core.cute_logical_divide,
    "zipped_divide": _core.cute_zipped_divide,
    "logical_product": _core.cute_logical_product,
    "zipped_product": _core.cute_zipped_product,
}


def _core_op2(name, a, b):
    fn = _CORE2.get(name)
    if fn is None:
        return None
    ca = _core_layout(a)
    if ca is None:
        return None
    cb = _core_tiler(b)
    if cb is None:
        return None
    try:
        c = fn(ca, cb)
    except ValueError:
        return None
    return Layout._from_core(c)


def _core_composite(name, a, b):
    """The flat, tiled, blocked and raked forms from the C++ zipped or
    logical form, rearranged as the engine (and the DSL) does."""
    A = _algebra
    if name in _ZIPPED:
        z = _core_op2(_ZIPPED[name], a, b)
        if z is None:
            return None
        return A._unpack(z, first=name.startswith("flat"))
    if not (isinstance(b, Layout) and isinstance(a, Layout)):
        return None
    r = max(A._rank(a), A._rank(b))
    res = _core_op2("logical_product", A.append_rank(a, r),
                    A.append_rank(b, r))
    if res is None:
        return None
    m0, m1 = A._mode(res, 0), A._mode(res, 1)
    if name == "blocked_product":
        return Layout(A._zip(m0.sh, m1.sh), A._zip(m0.st, m1.st))
    zipped = Layout(A._zip(m1.sh, m0.sh), A._zip(m1.st, m0.st))
    return A.coalesce(zipped, (1,) * A._rank(zipped))


_ZIPPED = {"flat_divide": "zipped_divide", "tiled_divide": "zipped_divide",
           "flat_product": "zipped_product",
           "tiled_product": "zipped_product"}
_COMPOSITE = set(_ZIPPED) | {"blocked_product", "raked_product"}

__all__ = []

_OPS1 = {
    "right_inverse": _algebra.right_inverse,
    "left_inverse": _algebra.left_inverse,
    "filter": _algebra.filter,
}

_OPS2 = {
    "composition": _algebra.composition,
    "complement": _algebra.complement,
    "logical_divide": _algebra.logical_divide,
    "zipped_divide": _algebra.zipped_divide,
    "tiled_divide": _algebra.tiled_divide,
    "flat_divide": _algebra.flat_divide,
    "logical_product": _algebra.logical_product,
    "zipped_product": _algebra.zipped_product,
    "tiled_product": _algebra.tiled_product,
    "flat_product": _algebra.flat_product,
    "raked_product": _algebra.raked_product,
    "blocked_product": _algebra.blocked_product,
}


def static_op(name, a, b):
    """The C++ core's answer to the engine's divide of a static layout by a
    static layout (a mode of a layout with a dynamic integer elsewhere), or
    None: the core is off, an operand is not static, or the core refuses
    (the engine decides)."""
    if not _CORE["on"] or type(a) is not Layout:
        return None
    return _core_op2(name, a, b)


_algebra.STATIC_OP[0] = static_op


def make_layout(shape, stride):
    return _algebra.make_layout(shape, stride)


def op1(name, a):
    if isinstance(a, ComposedLayout):
        from . import _composed
        return _composed.op1(name, a)
    if not isinstance(a, Layout):
        raise TypeError("%s expects a Layout, got %s" % (name,
                                                         type(a).__name__))
    return _OPS1[name](a)


def op2(name, a, b):
    if isinstance(a, (ComposedLayout, Swizzle)) or isinstance(
            b, (ComposedLayout, Swizzle)):
        from . import _composed
        return _composed.op2(name, a, b)
    if not isinstance(a, Layout):
        raise TypeError("%s expects a Layout, got %s" % (name,
                                                         type(a).__name__))
    if type(b) is tuple and (name == "composition" or
                             name.endswith("_divide")):
        b = _algebra.pack_tile(b, name)
    if _CORE["on"]:
        if name in _COMPOSITE:
            r = _core_composite(name, a, b)
        else:
            r = _core_op2(name, a, b)
        if r is not None:
            return r
    return _engine_op2(name, a, b)


# The Python engine's answers (issue 47 item 15: a composition or divide of
# a dynamic layout is 30-90 us of Python there, the C++ core's static answer
# about 1 us). Kept: answers computed with the checks on that met no wrong
# answer of the DSL (no warning to repeat, nothing that depends on strict
# mode), keyed by the op and everything the engine reads of its operands:
# the tuples, each static integer, each dynamic integer's type, value,
# divisibility, width and printed form. Layouts and dynamic integers are
# never changed once made, so an answer can be handed out again.
_MEMO = {}
_MEMO_KEPT = 4096


class _NoKey(Exception):
    pass


def _key(x):
    t = type(x)
    if t is int or x is None:
        return x
    if t is tuple:
        return tuple([_key(e) for e in x])
    if t is Layout:
        return (Layout, _key(x.sh), _key(x.st))
    if isinstance(x, _ints.DynInt):
        return (t, x.value, x.div, x.width, x.known, x.tname)
    raise _NoKey  # a scaled basis, a bool: not kept


def memo_clear():
    """Forgets the engine's kept answers (for timing a first call)."""
    _MEMO.clear()


def _engine_op2(name, a, b):
    try:
        key = (name, _key(a), _key(b))
    except _NoKey:
        return _OPS2[name](a, b)
    r = _MEMO.get(key)
    if r is not None:
        return r
    wrong = _algebra.WRONG_ANSWERS[0]
    r = _OPS2[name](a, b)
    if (_config.checked() and wrong == _algebra.WRONG_ANSWERS[0] and
            isinstance(r, Layout)):
        if len(_MEMO) >= _MEMO_KEPT:
            _MEMO.clear()
        _MEMO[key] = r
    return r


def coalesce(a, profile):
    if isinstance(a, ComposedLayout):
        from . import _composed
        return _composed.coalesce(a, profile)
    return _algebra.coalesce(a, profile)


def tile_to_shape(atom, shape, order):
    # The DSL builds the target shape first: every static size must be
    # positive (an smem helper's num_stages of 0 is such a size).
    from . import _tuples
    bad = [x for x in _tuples.leaves(shape) if type(x) is int and x <= 0]
    if bad:
        raise _algebra.Refusal("tile_to_shape: expects every size of the "
                               "target shape %s to be strictly positive, got "
                               "%d" % (_tuples.text(shape), bad[0]))
    if isinstance(atom, ComposedLayout):
        from . import _composed
        return _composed.tile_to_shape(atom, shape, order)
    if _CORE["on"]:
        r = _core_tile_to_shape(atom, shape, order)
        if r is not None:
            return r
    return _algebra.tile_to_shape(atom, shape, order)


def _core_tile_to_shape(atom, shape, order):
    """The C++ core's tile_to_shape for a static block, target and order
    where the block divides the target (else the engine decides: its
    refusals, the DSL's result where it does not divide)."""
    if not (isinstance(atom, Layout) and _static_tuple(shape) and
            _static_tuple(order)):
        return None
    ca = _core_layout(atom)
    if ca is None or _unit_mode_strided(atom.sh, atom.st):
        return None
    try:
        return Layout._from_core(_core.cute_tile_to_shape(ca, shape, order))
    except (ValueError, TypeError):
        return None


def recast_layout(new_bits, old_bits, layout):
    if isinstance(layout, ComposedLayout):
        from . import _composed
        return _composed.recast_layout(new_bits, old_bits, layout)
    return _algebra.recast_layout(new_bits, old_bits, layout)


def size(a):
    if isinstance(a, ComposedLayout):
        a = a.outer
    return _core_calls.product(a.sh)
