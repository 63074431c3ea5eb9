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
# checked (the check is O(size)).
MAX_CHECKED = 1 << 20


def _values(t, out):
    """Appends the values of t's leaves to out; False at a scaled basis."""
    if type(t) is tuple:
        for e in t:
            if not _values(e, out):
                return False
    elif type(t) is int:
        out.append(t)
    elif isinstance(t, ScaledBasis):
        return False
    else:
        out.append(_ints.value(t))
    return True


def _flat(layout):
    shape, stride = [], []
    if not (_values(layout.sh, shape) and _values(layout.st, stride)):
        return None
    for s in shape:
        if s <= 0:
            return None  # an empty (or traced-only) shape: nothing to check
    return shape, stride


def evaluate(layout, idx):
    """layout(i) for every i of the int64 array idx (any sign); None for a
    layout it cannot evaluate (_flat).

    Mode k's coordinate is |i| divided by the number of elements of the
    modes before it, modulo its size except in the last mode; the offset
    is the coordinates' dot product with the strides, negated for i < 0
    (C's truncating `/` and `%`, as the DSL's crd2idx(-1, (4,8)) gives
    (-1,0)). Sums wrap in int64, as NumPy's do."""
    flat = _flat(layout)
    if flat is None:
        return None
    shape, stride = flat
    magnitude = np.abs(idx)
    offset = np.zeros_like(idx)
    before = 1  # elements of the modes before mode k (a Python int)
    last = len(shape) - 1
    for k, (s, d) in enumerate(zip(shape, stride)):
        # Past int64 the quotient is 0 for every index: so is the clamp's.
        coordinate = magnitude // min(before, _INT64_MAX)
        if k < last:
            coordinate %= s
        offset += coordinate * d
        before *= s
    return np.where(idx < 0, -offset, offset)


_INT64_MAX = np.iinfo(np.int64).max


_NOT_CHECKED = object()


def _mismatch_in_core(a, b, r, n):
    """The first (i, r(i), b(i), a(b(i))) with r(i) != a(b(i)) for i < n, or
    None, by the C++ core (the rule of evaluate() above, in integers);
    _NOT_CHECKED where it does not apply (a scaled basis, an empty shape,
    int64 overflow)."""
    try:
        # The leaves read in C++ (ints and dynamic integers); False where
        # one is anything else, read below.
        found = _hl.cute_composition_mismatch_of(a.sh, a.st, b.sh, b.st,
                                                 r.sh, r.st, n, _ints.DynInt)
    except (ValueError, OverflowError, TypeError):
        return _NOT_CHECKED
    if found is not False:
        return found
    return _mismatch_of_flat(a, b, r, n)


def _mismatch_of_flat(a, b, r, n):
    """_mismatch_in_core with the leaves read in Python (_flat)."""
    fa, fb, fr = _flat(a), _flat(b), _flat(r)
    if fa is None or fb is None or fr is None:
        return _NOT_CHECKED
    try:
        return _hl.cute_composition_mismatch(fa[0], fa[1], fb[0], fb[1],
                                             fr[0], fr[1], n)
    except (ValueError, OverflowError, TypeError):
        return _NOT_CHECKED


def composition_witness(a, b, r):
    """None when r(i) == a(b(i)) for every i < size(b), else a sentence
    naming the first i where it is not."""
    n = _ints.value(_tuples.product(b.sh))
    if n > MAX_CHECKED or n <= 0:
        return None
    found = _mismatch_in_core(a, b, r, n)
    if found is _NOT_CHECKED:
        found = _mismatch_in_numpy(a, b, r, n)
    if found is None:
        return None
    i, ri, bi, abi = found
    return "R(%d) = %d but A(B(%d)) = A(%d) = %d" % (i, ri, i, bi, abi)


def _mismatch_in_numpy(a, b, r, n):
    """_mismatch_in_core's answer by evaluate() (NumPy; int64 overflow
    wraps there), or None where a layout cannot be evaluated."""
    idx = np.arange(n, dtype=np.int64)
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
    return (i, int(ri[i]), int(bi[i]), int(abi[i]))
