"""Checks by evaluation that a result the DSL's algorithm builds is the
function asked for (the twin refuses those that are not: CuTe's weak
divisibility checks let some wrong compositions through, and dynamic
integers are not checked at all while the DSL traces).

    >>> from hlolayout.cute_dsl._objects import Layout
    >>> composition_witness(Layout((4, 3), (1, 5)), Layout(4, 3),
    ...                     Layout((2, 2), (3, 5)))
    'R(2) = 5 but A(B(2)) = A(6) = 7'

Layouts are evaluated with the values of their integers (a dynamic
integer's value), as CuTe evaluates them: colexicographic, the last mode
taking the rest of the index without a modulo, a negative index i giving
-L(-i).
"""

import numpy as np

from .. import _hlolayout as _hl
from . import _ints, _tuples
from ._objects import ScaledBasis

__all__ = ["composition_witness", "evaluate"]

# Compositions whose right operand has more elements than this are not
# checked (the check is O(size) in NumPy).
MAX_CHECKED = 1 << 20


def _flat(layout):
    shape = [_ints.value(s) for s in _tuples.leaves(layout.sh)]
    stride = _tuples.leaves(layout.st)
    if any(isinstance(d, ScaledBasis) for d in stride):
        return None
    if any(s <= 0 for s in shape):
        return None  # an empty (or traced-only) shape: nothing to check
    return shape, [_ints.value(d) for d in stride]


def evaluate(layout, idx):
    """layout(i) for every i of the int64 array idx (any sign)."""
    flat = _flat(layout)
    if flat is None:
        return None
    shape, stride = flat
    sign = np.where(idx < 0, -1, 1)
    rest = np.abs(idx)
    out = np.zeros_like(idx)
    for k, (s, d) in enumerate(zip(shape, stride)):
        if k == len(shape) - 1:
            out += rest * d
        else:
            out += (rest % s) * d
            rest = rest // s
    return out * sign


def _core(layout):
    """The flattened layout with its integers' values in the C++ core (the
    same function of a 1-D index), or None."""
    flat = _flat(layout)
    if flat is None:
        return None
    shape, stride = flat
    return _hl.CuteLayout(tuple(shape), tuple(stride))


def _evaluate_fast(a, b, r, idx):
    """(b(idx), r(idx), a(b(idx))) by the C++ core's vectorized evaluation
    (the rule of evaluate() above), or None where it does not apply."""
    try:
        ca, cb, cr = _core(a), _core(b), _core(r)
        if ca is None or cb is None or cr is None:
            return None
        bi = np.asarray(cb(idx), dtype=np.int64)
        return bi, np.asarray(cr(idx), dtype=np.int64), np.asarray(
            ca(bi), dtype=np.int64)
    except (ValueError, OverflowError, TypeError):
        return None


def composition_witness(a, b, r):
    """None when r(i) == a(b(i)) for every i < size(b), else a sentence
    naming the first i where it is not."""
    n = _ints.value(_tuples.product(b.sh))
    if n > MAX_CHECKED or n <= 0:
        return None
    idx = np.arange(n, dtype=np.int64)
    fast = _evaluate_fast(a, b, r, idx)
    if fast is not None:
        bi, ri, abi = fast
    else:
        bi = evaluate(b, idx)
        ri = evaluate(r, idx)
        if bi is None or ri is None:
            return None
        abi = evaluate(a, bi)
        if abi is None:
            return None
    bad = np.nonzero(abi != ri)[0]
    if len(bad) == 0:
        return None
    i = int(bad[0])
    return "R(%d) = %d but A(B(%d)) = A(%d) = %d" % (i, int(ri[i]), i,
                                                     int(bi[i]), int(abi[i]))
