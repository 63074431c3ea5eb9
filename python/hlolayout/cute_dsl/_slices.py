"""Slices of the DSL twin: a coordinate whose leaves are integers or None
(CuTe's `_`) picks modes of a tuple or layout. slice_ keeps the modes under
a None, dice the modes under an integer; the kept modes of a tuple
coordinate come out as one flat tuple of modes, however deep the
coordinate; a coordinate that is a leaf keeps the whole target or nothing.

    >>> slice_tuple((None, (1, None)), (3, (4, 5)))
    (3, 5)
    >>> dice_tuple((None, (1, None)), (3, (4, 5)))
    (4,)

Written from CuTe's definitions (slice and dice of include/cute/
int_tuple.hpp: a filter over the coordinate's modes) and what the DSL
prints for them (docs/cute-dsl.md "Sources", "Slices written anew"). The
walk is Python: it moves tuples, computes nothing, and a call into the C++
core (cute/slice.h holds the same two) costs more than the walk.
"""

from . import _tuples
from ._core_calls import Refusal
from ._objects import Layout

__all__ = []


def _gather(coord, sh, st, want_none, out_sh, out_st):
    """Appends to out_sh and out_st the modes of sh and of st (congruent
    trees: a shape and its stride) that coord keeps: those under a None
    when want_none, else those under an integer. False where coord does not
    fit sh's profile."""
    if type(coord) is not tuple:
        if (coord is None) is want_none:
            out_sh.append(sh)
            out_st.append(st)
        return True
    if type(sh) is not tuple or len(sh) != len(coord):
        return False
    for c, a, b in zip(coord, sh, st):
        if not _gather(c, a, b, want_none, out_sh, out_st):
            return False
    return True


def _cut(coord, sh, st, want_none):
    """The kept parts of sh and st."""
    if type(coord) is not tuple:
        if (coord is None) is want_none:
            return sh, st
        return (), ()
    out_sh, out_st = [], []
    if not _gather(coord, sh, st, want_none, out_sh, out_st):
        raise Refusal("%s: the coordinate %s does not fit the profile of "
                      "%s" % ("slice" if want_none else "dice",
                              _tuples.text(coord, str),
                              _tuples.text(sh, str)))
    return tuple(out_sh), tuple(out_st)


def slice_tuple(coord, t):
    """The modes of t under a None of coord (CuTe's slice)."""
    return _cut(coord, t, t, True)[0]


def dice_tuple(coord, t):
    """The modes of t under an integer of coord (CuTe's dice)."""
    return _cut(coord, t, t, False)[0]


def slice_layout(layout, coord):
    """The layout of the modes under a None of coord."""
    return Layout(*_cut(coord, layout.sh, layout.st, True))


def dice_layout(layout, coord):
    """The layout of the modes under an integer of coord."""
    return Layout(*_cut(coord, layout.sh, layout.st, False))


def slice_and_offset(coord, layout):
    """(slice_layout(layout, coord), the offset of coord with each None
    read as 0: the C++ core's crd2idx, _algebra.crd2idx)."""
    from . import _algebra
    return slice_layout(layout, coord), _algebra.crd2idx(coord, layout)
