"""Where the twin's layout operations are answered.

The C++ core holds every integer of the twin, `?`s included, so the split
here is no longer static C++ against a Python engine. What is left to
decide, operation by operation, is which of the core's algorithms answers:

1. A composed layout or a swizzle on either side: `_composed`, which
   states the DSL's rules for them (their outer layout comes back here).
2. Layouts whose integers are all Python ints (_static_route.py): CuTe's
   exact algorithms, the checked ones of `hlolayout.cute`, in one call of
   the core (`cute_dsl_static_op`: composition, the divides and the
   products, the zipped, tiled, flat, blocked and raked forms regrouped as
   the DSL regroups them). They refuse every result that is not the composition,
   so their answer is the DSL's and needs no check. Not taken for a
   tiler with a size-1 mode whose stride is not 0 or +-1: the DSL checks
   that stride's divisibility where CuTe's C++ does not look.
3. Everything else, and whatever route 2 refuses: the DSL's rules of
   `_algebra` (on the core's unchecked `Dsl*` algorithms): a `?`'s
   divisibility, the DSL's refusals, the wrong results CuTe's weak checks
   let through (`WrongLayoutError`). Route 3 costs several times route 2
   (the rules around the core's calls, the check of a composition), so its
   answers are kept (`_ANSWERS` below).

`use_core(False)` turns route 2 off: the tests compare the two routes.
"""

from .. import _hlolayout as _core
from . import _algebra, _composed, _config, _core_calls, _ints, _tuples
from ._objects import ComposedLayout, Layout, Swizzle
from ._static_route import (ROUTE2, ints_only, odd_unit_stride, route2,
                            static_core)
from ._static_route import use_core  # noqa: F401 (the tests' switch)

__all__ = []


# ---------------------------------------------------------------------------
# Route 3's kept answers. An answer of `_algebra` depends on the operation
# and on what the rules read of the operands: the trees, each Python int,
# and of each `?` its type, value, divisibility, width, whether it is a
# constant and its type's name. Layouts and `?`s never change once made,
# so an answer can be handed out again. Not kept: an answer computed with
# the checks off, one that met a wrong result of the DSL (its warning, or
# strict mode's error, comes at every call), and anything with a basis
# stride (not a key).

_MEMO = {}
_MEMO_KEPT = 4096


class _NoKey(Exception):
    pass


def _key(x):
    """What route 3 reads of x, as a dictionary key."""
    t = type(x)
    if t is int or x is None:
        return x
    if t is tuple:
        return tuple([_key(e) for e in x])
    if t is Layout:
        return (Layout, _key(x.sh), _key(x.st))
    if isinstance(x, _ints.DynInt):
        return (t, x.value, x.div, x.width, x.known, x.tname)
    raise _NoKey


def memo_clear():
    """Forgets route 3's kept answers (to time a first call)."""
    _MEMO.clear()


def _route3(name, a, b):
    rule = _BINARY[name]
    try:
        key = (name, _key(a), _key(b))
    except _NoKey:
        return rule(a, b)
    kept = _MEMO.get(key)
    if kept is not None:
        return kept
    wrong_before = _algebra.WRONG_ANSWERS[0]
    answer = rule(a, b)
    if (isinstance(answer, Layout) and _config.checked() and
            _algebra.WRONG_ANSWERS[0] == wrong_before):
        if len(_MEMO) >= _MEMO_KEPT:
            _MEMO.clear()
        _MEMO[key] = answer
    return answer


# ---------------------------------------------------------------------------
# The operations.

_UNARY = {"right_inverse": _algebra.right_inverse,
          "left_inverse": _algebra.left_inverse,
          "filter": _algebra.filter}

_BINARY = {name: getattr(_algebra, name) for name in (
    "composition", "complement", "logical_divide", "zipped_divide",
    "tiled_divide", "flat_divide", "logical_product", "zipped_product",
    "tiled_product", "flat_product", "blocked_product", "raked_product")}


def _need_layout(name, a):
    if not isinstance(a, Layout):
        raise TypeError("%s expects a Layout, got %s" % (name,
                                                         type(a).__name__))


def op1(name, a):
    if isinstance(a, ComposedLayout):
        _composed.refuse1(name)
        return _composed.recomposed(a, op1(name, a.outer))
    _need_layout(name, a)
    return _UNARY[name](a)


def op2(name, a, b):
    if isinstance(a, (ComposedLayout, Swizzle)) or isinstance(
            b, (ComposedLayout, Swizzle)):
        _composed.refuse2(name, a, b)
        if name == "complement":
            return _algebra.complement(a.outer, b)
        return _composed.recomposed(a, op2(name, a.outer, b))
    _need_layout(name, a)
    if type(b) is tuple and (name == "composition" or
                             name.endswith("_divide")):
        b, broken = _algebra.pack_tile(b)
        if broken is not None:
            # The DSL computes (and prints) the answer, then fails to
            # build its IR: a refusal of the answer computed first comes
            # first.
            answer = _route3(name, a, b)
            raise _algebra.Refusal(
                "%s: the DSL computes %s and then fails to build its IR "
                "(error[INTERNAL]) for a tuple tiler holding %s (an Int64 "
                "the DSL does not hold as an assumed value, or a layout "
                "with an Int64 size); use Int32 or cute.assume there" %
                (name, answer, broken))
    if ROUTE2[0]:
        answer = route2(name, a, b)
        if answer is not None:
            return answer
    return _route3(name, a, b)


def coalesce(a, profile):
    if isinstance(a, ComposedLayout):
        return _composed.coalesce(a, profile)
    return _algebra.coalesce(a, profile)


def tile_to_shape(atom, shape, order):
    # The DSL makes the target shape first: each static size must be
    # positive (an smem helper's num_stages of 0 is such a size).
    for x in _tuples.leaves(shape):
        if type(x) is int and x <= 0:
            raise _algebra.Refusal(
                "tile_to_shape: expects every size of the target shape %s "
                "to be strictly positive, got %d" % (_tuples.text(shape), x))
    # Then the order: the DSL takes only static integers there (observed:
    # order (Int32(0),1,0) refused with these words, before the ranks are
    # compared).
    if order is not None and not all(
            type(o) is int for o in _tuples.leaves(order)):
        raise _algebra.Refusal(
            "tile_to_shape: expects only static order modes, but got %s" %
            _tuples.text(order))
    if isinstance(atom, ComposedLayout):
        return _composed.recomposed(atom, tile_to_shape(atom.outer, shape,
                                                        order))
    if ROUTE2[0] and isinstance(atom, Layout) and ints_only(shape) and \
            ints_only(order):
        # CuTe's checked tile_to_shape; where the block does not divide
        # the target, the DSL's answer with its warning (route 3).
        c = static_core(atom)
        if c is not None and not odd_unit_stride(atom.sh, atom.st):
            try:
                return Layout._from_core(_core.cute_tile_to_shape(c, shape,
                                                                  order))
            except (ValueError, TypeError):
                pass
    return _algebra.tile_to_shape(atom, shape, order)


def recast_layout(new_bits, old_bits, layout):
    if isinstance(layout, ComposedLayout):
        return _composed.recast_layout(new_bits, old_bits, layout)
    return _algebra.recast_layout(new_bits, old_bits, layout)


def size(a):
    if isinstance(a, ComposedLayout):
        a = a.outer
    return _core_calls.product(a.sh)
