"""Instruction shapes and the atoms built from them, shared by the
warpgroup and tcgen05 op classes.

- `instruction_shape`: an op's M x N x K, given as a flat tuple of two
  (K then follows from the kind) or three integers; a list or a nested
  tuple is refused, as the DSL refuses it (observed).
- `umma_layouts`: the thread-value layouts of a tcgen05.mma atom, which
  depend only on M, N, K and the CTA group. CuTe's MMA_Traits of the
  SM100 MMAs (include/cute/atom/mma_traits_sm100.hpp) give every kind the
  same form: one CTA has thread layout 1 and A (1,(M,K)):(0,(1,M)), B
  (1,(N,K)):(0,(1,N)), C (1,(M,N)):(0,(1,M)); a pair of CTAs has thread
  layout 2 and splits M (and N for B) between the two, A
  (2,(M/2,K)):(M/2,(1,M)). The DSL prints a one-CTA atom's thread mode
  with the stride M (or N) where CuTe has 0 (observed): the same
  function, since the mode has one element.
- `drop_unit_value_mode`: the DSL's GMMA atom with N = 8 has C
  ((4,8,4),(2,2)) where CuTe's CLayout_64xN<8> is ((4,8,4),(2,2,1))
  (observed): the same function without its one-element mode.
- `atom_as_printed`: the C++ atom with the layouts the DSL prints, so
  that tiled MMAs are built on the DSL's atom.
"""

from .. import _atoms
from ... import _hlolayout as _core
from ._base import python_text, refuse

__all__ = ["instruction_shape", "umma_layouts", "umma_thread_stride",
           "drop_unit_value_mode", "atom_as_printed", "atom_from_layouts"]


def instruction_shape(op, shape, k):
    """(M, N, K) of a flat tuple (M, N) or (M, N, K); K defaults to k."""
    if (type(shape) is not tuple or len(shape) not in (2, 3) or
            not all(isinstance(x, int) and not isinstance(x, bool)
                    for x in shape)):
        refuse(op, "the instruction shape must be a flat tuple (M, N) or "
                   "(M, N, K) of integers, got %s" % python_text(shape))
    return shape + (k,) if len(shape) == 2 else shape


def umma_layouts(m, n, k, pair):
    """CuTe's tcgen05.mma atom layouts as C++ text: (thread layout, A, B,
    C) for one CTA or a pair of CTAs."""
    if pair:
        return ("_2:_1",
                "(_2,(_%d,_%d)):(_%d,(_1,_%d))" % (m // 2, k, m // 2, m),
                "(_2,(_%d,_%d)):(_%d,(_1,_%d))" % (n // 2, k, n // 2, n),
                "(_2,(_%d,_%d)):(_%d,(_1,_%d))" % (m // 2, n, m // 2, m))
    return ("_1:_0", "(_1,(_%d,_%d)):(_0,(_1,_%d))" % (m, k, m),
            "(_1,(_%d,_%d)):(_0,(_1,_%d))" % (n, k, n),
            "(_1,(_%d,_%d)):(_0,(_1,_%d))" % (m, n, m))


def umma_thread_stride(layout):
    """A one-CTA UMMA layout (1,(X,Y)):(0,(1,X)) as the DSL prints it,
    (1,(X,Y)):(X,(1,X)); other layouts as they are."""
    from .._objects import Layout
    shape, stride = layout.sh, layout.st
    if (type(shape) is tuple and len(shape) == 2 and shape[0] == 1 and
            stride[0] == 0 and type(shape[1]) is tuple):
        return Layout(shape, (shape[1][0],) + tuple(stride[1:]))
    return layout


def drop_unit_value_mode(layout):
    """A (threads, (v0, v1, 1)) layout without its last one-element value
    mode; other layouts as they are."""
    from .._objects import Layout
    shape, stride = layout.sh, layout.st
    if (type(shape) is tuple and len(shape) == 2 and
            type(shape[1]) is tuple and len(shape[1]) == 3 and
            shape[1][2] == 1):
        return Layout((shape[0], shape[1][:2]), (stride[0], stride[1][:2]))
    return layout


def _cpp_text(layout):
    """A static twin layout as the C++ core's text (`_` before each
    integer)."""
    def static(t):
        if type(t) is tuple:
            return "(" + ",".join(static(e) for e in t) + ")"
        return "_%d" % t
    return "%s:%s" % (static(layout.sh), static(layout.st))


def atom_from_layouts(name, family, thr, shape_mnk, a, b, c):
    """A C++ MMA atom made of the given layouts (C++ text)."""
    return _core.cute_mma_atom_from_layouts(
        name, family, thr, "(_%d,_%d,_%d)" % tuple(shape_mnk), a, b, c)


def atom_as_printed(op, core):
    """The C++ atom `core` with its A, B and C layouts as op._dsl_tv shows
    them (the same atom when nothing changes)."""
    texts = []
    changed = False
    for text in (core.a, core.b, core.c):
        layout = _atoms.static_layout(text)
        shown = op._dsl_tv(layout)
        changed = changed or str(shown) != str(layout)
        texts.append(_cpp_text(shown))
    if not changed:
        return core
    return atom_from_layouts(core.name, core.family, core.thr_id,
                             core.shape_mnk, *texts)
