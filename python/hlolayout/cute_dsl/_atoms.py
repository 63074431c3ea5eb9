"""Atoms and tiled atoms of the CuTe DSL (`make_mma_atom`, `make_tiled_mma`,
`make_copy_atom`, `make_tiled_copy_*`), as views of CuTe's C++ atoms
(cute/atom/: MmaAtom, TiledMma, CopyAtom, TiledCopy) that print as the DSL
prints them.

    >>> from hlolayout import cute_dsl as cute
    >>> op = cute.nvgpu.warp.MmaF16BF16Op(cute.Float16, cute.Float32, (16, 8, 16))
    >>> print(cute.make_mma_atom(op).tv_layout_A)
    ((4,8),(2,2,2)):((32,1),(16,8,128))
    >>> tm = cute.make_tiled_mma(op, (2, 2, 1))
    >>> print(tm.thr_layout_vmnk, tm.size, tm.partition_shape_C((128, 64)))
    (32,2,2,1):(1,32,64,0) 128 ((2,2),4,4)

How the pieces fit:

- An op class of `nvgpu` names its C++ atom: an MMA op by `_cpp_name()`
  (or builds it, `_core_atom()`), a copy op by `_cpp_op(value_type,
  **kwargs)`, the operation of CuTe's `Copy_Atom<OP, T>`. The atoms here
  hold the C++ object and read their layouts from it.
- What the DSL does that CuTe's C++ does not (each observed: the DSL run on
  the CPU, differential/cute_dsl/) is written where it happens, marked
  "observed": the printed cards, the arguments' forms, `partition_shape_*`,
  tiled copies whose counts CuTe's `static_assert` refuses.

The cards: a title, then a `label:` a line, every value in one column two
spaces after the widest label of the whole card (a tiled atom's card ends
with its atom's, in the same column). Integers print bare, as the DSL
prints static ones (C++'s `_8` is `8`).
"""

from .. import _hlolayout as _core
from . import _ints, _tuples
from ._algebra import Refusal
from ._objects import Layout

__all__ = ["Op", "MmaOp", "CopyOp", "Atom", "MmaAtom", "TiledMma",
           "CopyAtom", "TiledCopy", "DSLUserCodeError", "make_mma_atom",
           "make_tiled_mma", "make_copy_atom", "make_tiled_copy_tv",
           "make_tiled_copy", "make_tiled_copy_A", "make_tiled_copy_B",
           "make_tiled_copy_C", "make_tiled_copy_S", "make_tiled_copy_D",
           "make_tiled_copy_C_atom", "static_layout", "atom_by_name"]


class DSLUserCodeError(Refusal):
    """An op, atom or tiled atom the DSL refuses (the rule in the
    message)."""


def _refused(call, *args, **kwargs):
    """call(*args): a C++ refusal (ValueError) becomes a DSLUserCodeError
    with the same words."""
    try:
        return call(*args, **kwargs)
    except ValueError as ex:
        raise DSLUserCodeError(str(ex)) from None


def static_layout(cpp):
    """A layout of the C++ atoms (a CuteLayout, or CuTe's text such as
    `(_32,_8):(_8,_1)`) as a twin Layout."""
    if isinstance(cpp, str):
        cpp = _core.cute_parse(cpp)
    return Layout._from_core(cpp)


def _cpp_text(layout):
    """A static twin Layout in C++'s text (`_` before every integer)."""
    def text(t):
        if type(t) is tuple:
            return "(" + ",".join(text(e) for e in t) + ")"
        return "_%d" % t
    return "%s:%s" % (text(layout.sh), text(layout.st))


def _bare(t):
    """A tuple of integers, Layouts and None as the DSL's cards print it:
    `(16,8,16)`, `(_,8:1,_)`."""
    if type(t) is tuple:
        return "(" + ",".join(_bare(e) for e in t) + ")"
    return "_" if t is None else str(t)


def _card(title, rows, column):
    """`title` and one `  label: value` line per row, values at `column`."""
    return "\n".join([title] + ["  " + (label + ":").ljust(column - 2) +
                                value for label, value in rows])


def _cards(*sections):
    """Cards of (title, rows) sections with one value column for all: two
    spaces, the widest label and its colon, a space (observed)."""
    column = 2 + max(len(label) for _, rows in sections
                     for label, _ in rows) + 2
    return "\n".join(_card(title, rows, column) for title, rows in sections)


# ---------------------------------------------------------------------------
# The ops' bases (the op classes are in nvgpu/).

class Op:
    """A DSL operation: one instruction with its parameters."""


class MmaOp(Op):
    """An MMA operation. A concrete op names its CuTe atom (`_cpp_name`) or
    builds it (`_core_atom`); `_dsl_tv(layout)`, where an op has it, is an
    atom layout as the DSL prints it."""

    def _picture(self, svg, colour):
        return make_mma_atom(self)._picture(svg, colour)

    def _repr_svg_(self):
        from . import _pictures
        return _pictures.svg(self)

    def _repr_html_(self):
        from . import _pictures
        return _pictures.html(self)

    def _cpp_name(self):
        raise TypeError("%s is the DSL's abstract MMA op class: make a "
                        "concrete op (MmaF16BF16Op, ...)" %
                        type(self).__name__)

    def _core_atom(self):
        return atom_by_name(self._cpp_name())


class CopyOp(Op):
    """A copy operation: `_cpp_op(value_type, **kwargs)` is the operation
    of CuTe's Copy_Atom<OP, T> for the copy's arguments."""

    def _cpp_op(self, value_type, **kwargs):
        raise TypeError("%s is the DSL's abstract copy op class: make a "
                        "concrete op (CopyUniversalOp, ...)" %
                        type(self).__name__)


# The C++ MMA atoms by name: finding one matches the name against the
# tables' patterns and parses its layouts; a name always gives the same
# (read-only) atom, so each is looked up once. Refused names are not kept.
_BY_NAME = {}


def atom_by_name(name):
    """CuTe's MMA atom `name` from cute/atom's tables."""
    atom = _BY_NAME.get(name)
    if atom is None:
        atom = _refused(_core.cute_find_mma_atom, name)
        if len(_BY_NAME) > 2048:
            _BY_NAME.clear()
        _BY_NAME[name] = atom
    return atom


# ---------------------------------------------------------------------------
# Atoms

class Atom:
    """An op with CuTe's traits; Jupyter shows its picture (cute.draw)."""

    def __init__(self, op, cpp):
        self._op = op
        self._cpp = cpp

    @property
    def op(self):
        return self._op

    @property
    def thr_id(self):
        return static_layout(self._cpp.thr_id)

    def _repr_svg_(self):
        from . import _pictures
        return _pictures.svg(self)

    def _repr_html_(self):
        from . import _pictures
        return _pictures.html(self)


class MmaAtom(Atom):
    """An MMA atom: its threads (`thr_id`), M x N x K (`shape_mnk`) and the
    (thread, value) -> column-major index layouts of the A (M x K), B
    (N x K) and C (M x N) tiles."""

    @property
    def shape_mnk(self):
        return tuple(self._cpp.shape_mnk)

    def _operand(self, text):
        layout = static_layout(text)
        shown = getattr(self._op, "_dsl_tv", None)
        return shown(layout) if shown else layout

    @property
    def tv_layout_A(self):  # noqa: N802 (the DSL's names)
        return self._operand(self._cpp.a)

    @property
    def tv_layout_B(self):  # noqa: N802
        return self._operand(self._cpp.b)

    @property
    def tv_layout_C(self):  # noqa: N802
        return self._operand(self._cpp.c)

    def _rows(self):
        return [("ThrID", str(self.thr_id)),
                ("Shape MNK", _bare(self.shape_mnk)),
                ("TV Layout A", str(self.tv_layout_A)),
                ("TV Layout B", str(self.tv_layout_B)),
                ("TV Layout C", str(self.tv_layout_C))]

    def __str__(self):
        return _cards(("MMA Atom", self._rows()))

    def _picture(self, svg, colour):
        # One atom: a tiled MMA of one.
        return _core.cute_make_tiled_mma(self._cpp, "", "").picture(svg,
                                                                   colour)


def make_mma_atom(op, **kwargs):
    """The MMA atom of an MMA op."""
    if not isinstance(op, MmaOp):
        raise TypeError("make_mma_atom expects an MMA Op, got %s" %
                        type(op).__name__)
    return MmaAtom(op, op._core_atom())


class CopyAtom(Atom):
    """A copy atom: its threads and the (thread, value) -> value index
    layouts of the source and destination, in values of its value type."""

    def __init__(self, op, cpp, value_type):
        Atom.__init__(self, op, cpp)
        self._value_type = value_type

    @property
    def value_type(self):
        return self._value_type

    @property
    def layout_src_tv(self):
        return static_layout(self._cpp.val_src)

    @property
    def layout_dst_tv(self):
        return static_layout(self._cpp.val_dst)

    def _rows(self):
        return [("ThrID", str(self.thr_id)),
                ("TV Layout Src", str(self.layout_src_tv)),
                ("TV Layout Dst", str(self.layout_dst_tv)),
                ("Value type", self._value_type.mlir)]

    def __str__(self):
        return _cards(("Copy Atom", self._rows()))

    def _picture(self, svg, colour):
        # One atom: its threads down, each thread's values across.
        threads = _tuples.product(self.thr_id.sh)
        tc = _core.cute_make_tiled_copy(
            self._cpp, "(%d,1):(1,0)" % threads,
            "(1,%d):(0,1)" % self._cpp.num_val_src, check=False)
        return tc.picture(svg, colour)


# CuTe's C++ element type of each DSL data type (Copy_Atom<OP, T>); the
# DSL's Boolean is one bit (i1): a copy of 8 bits moves 8 of them
# (observed), CuTe's uint1_t.
_ELEMENT = {
    "Float16": "half_t", "BFloat16": "bfloat16_t", "Float32": "float",
    "TFloat32": "tfloat32_t", "Float64": "double",
    "Float8E4M3FN": "float_e4m3_t", "Float8E5M2": "float_e5m2_t",
    "Float8E8M0FNU": "float_ue8m0_t", "Float6E2M3FN": "float_e2m3_t",
    "Float6E3M2FN": "float_e3m2_t", "Float4E2M1FN": "float_e2m1_t",
    "Int4": "int4b_t", "Boolean": "uint1_t",
}
for _bits in (8, 16, 32, 64):
    _ELEMENT["Int%d" % _bits] = "int%d_t" % _bits
    _ELEMENT["Uint%d" % _bits] = "uint%d_t" % _bits
del _bits


def make_copy_atom(op, copy_internal_type, **kwargs):
    """The copy atom of a copy op moving values of a DSL data type."""
    if not isinstance(op, CopyOp):
        raise TypeError("make_copy_atom expects a Copy Op, got %s" %
                        type(op).__name__)
    if not isinstance(copy_internal_type, _ints._NumericMeta):
        raise TypeError("make_copy_atom expects a DSL data type, got %r" %
                        (copy_internal_type,))
    element = _ELEMENT.get(copy_internal_type.name)
    if element is None:
        raise DSLUserCodeError("the twin has no CuTe element type for %s" %
                               copy_internal_type.name)
    operation = op._cpp_op(copy_internal_type, **kwargs)
    cpp = _refused(_core.cute_make_copy_atom, operation, element)
    return CopyAtom(op, cpp, copy_internal_type)


# ---------------------------------------------------------------------------
# Tiled MMAs

def _compact(shape):
    """The Layout make_layout gives a shape of static ints: CuTe's compact
    column-major strides, a mode of size 1 stride 0 (CuTe's compact_major,
    include/cute/stride.hpp; the DSL prints the same)."""
    running = [1]

    def strides(t):
        if type(t) is tuple:
            return tuple(strides(e) for e in t)
        if t == 1:
            return 0
        d = running[0]
        running[0] *= t
        return d
    return Layout(shape, strides(shape))


def _atom_layout(arg):
    """make_tiled_mma's atom layout: a Layout, or a tuple made into one as
    make_layout makes it; rank 3 and static (the DSL's words, observed)."""
    layout = arg
    if type(arg) is tuple:
        leaves = _tuples.leaves(arg)
        if not all(type(x) is int and x > 0 for x in leaves):
            raise DSLUserCodeError("make_tiled_mma: the atom layout %s must "
                                   "be a static shape of positive ints" %
                                   _tuples.text(arg))
        layout = _compact(arg)
    if not isinstance(layout, Layout) or _tuples.rank(layout.sh) != 3:
        raise ValueError("expects rank-3 MNK atom layout, but got %s" %
                         (layout if isinstance(layout, Layout) else arg,))
    if not layout.is_static():
        raise DSLUserCodeError("make_tiled_mma: the atom layout %s must be "
                               "static" % layout)
    return layout


def _permutation(arg):
    """make_tiled_mma's permutation: None, or three modes each None (the
    atom's extent), a static int n (the layout n:1), a static Layout or a
    tuple of those (observed: any other number of modes is refused, a
    dynamic integer too). Returns (the modes as the DSL prints them, the C++
    Tile's text)."""
    if arg is None:
        return (None, None, None), "<_,_,_>"
    if type(arg) is not tuple or len(arg) != 3:
        raise DSLUserCodeError("make_tiled_mma: the permutation must be a "
                               "tuple of 3 modes (M, N, K), got %s" %
                               (arg,))

    def mode(p):
        if p is None:
            return None, "_"
        if type(p) is int and p > 0:
            # make_layout(n): n:1, or 1:0 for n = 1.
            return (static_layout("_%d:_%d" % (p, 0 if p == 1 else 1)),
                    "_%d" % p)
        if isinstance(p, Layout) and p.is_static():
            return p, _cpp_text(p)
        raise DSLUserCodeError("make_tiled_mma: a permutation mode must be "
                               "None, a static int or a static Layout, got "
                               "%s" % (p,))
    modes = [mode(p) for p in arg]
    return (tuple(shown for shown, _ in modes),
            "<" + ",".join(text for _, text in modes) + ">")


# C++ tiled MMAs by (atom, atom layout, permutation): a make_tiled_mma's
# work is mostly here and a kernel makes the same one often. The atom is
# keyed by its definition (name, family, layouts), read once per atom.
_TILED = {}
_DEFINITIONS = {}


def _definition(cpp):
    kept = _DEFINITIONS.get(id(cpp))
    if kept is None or kept[0] is not cpp:
        kept = (cpp, (cpp.name, cpp.family, cpp.thr_id,
                      tuple(cpp.shape_mnk), cpp.a, cpp.b, cpp.c))
        if len(_DEFINITIONS) > 1024:
            _DEFINITIONS.clear()
        _DEFINITIONS[id(cpp)] = kept
    return kept[1]


def _kept(what, make, cpp, layout, permutation):
    key = (what, _definition(cpp), layout, permutation)
    made = _TILED.get(key)
    if made is None:
        made = make(cpp, layout, permutation)
        if len(_TILED) > 1024:
            _TILED.clear()
        _TILED[key] = made
    return made


class TiledMma(MmaAtom):
    """An MMA atom repeated over an atom layout after a permutation of M, N
    and K. Its C++ object is a shell (threads, tile, thread index map)
    whose three operand layouts are each built when first read: an operand
    whose permutation modes do not tile the atom fails then, as in CuTe,
    while the others are still there (the DSL makes such a tiled MMA)."""

    def __init__(self, op, cpp, layout, permutation):
        MmaAtom.__init__(self, op, cpp)
        self._layout = _cpp_text(layout)
        self._permutation, self._tile = _permutation(permutation)
        self._shell = _kept("shell", _core.cute_make_tiled_mma_shell, cpp,
                            self._layout, self._tile)
        self._operands = {}

    def _whole(self):
        """The C++ tiled MMA with its three layouts (pictures, tiled
        copies): the first failing operand's error where one fails (C, A,
        B, the order of CuTe's make_tiled_mma)."""
        return _refused(_kept, "whole", _core.cute_make_tiled_mma, self._cpp,
                        self._layout, self._tile)

    def _tiled(self, operand):
        cpp = self._operands.get(operand)
        if cpp is None:
            try:
                cpp = _core.cute_tiled_mma_layout_tv(self._shell, operand)
            except ValueError as ex:
                self._whole()
                raise DSLUserCodeError(str(ex)) from None
            self._operands[operand] = cpp
        return static_layout(cpp)

    @property
    def thr_layout_vmnk(self):
        return static_layout(self._shell.thr_layout_vmnk)

    @property
    def permutation_mnk(self):
        return self._permutation

    @property
    def tv_layout_A_tiled(self):  # noqa: N802
        return self._tiled("A")

    @property
    def tv_layout_B_tiled(self):  # noqa: N802
        return self._tiled("B")

    @property
    def tv_layout_C_tiled(self):  # noqa: N802
        return self._tiled("C")

    @property
    def size(self):
        return self._shell.num_threads

    def _dsl_size(self):
        return self.size

    def get_tile_size(self, mode_idx):
        """The tile's extent along M (0), N (1) or K (2), the permutation
        included."""
        if type(mode_idx) is not int or not 0 <= mode_idx <= 2:
            raise ValueError("expects mode_idx to be 0, 1 or 2, got %r" %
                             (mode_idx,))
        return self._whole().tile_mnk[mode_idx]

    def _partition_shape(self, shape, modes, operand):
        """The DSL's partition_shape_A/B/C (observed; CuTe's counts the
        permutation's tile, the DSL does not): the atom's value modes, then
        for the shape's first two modes size / (the atom's extent times the
        atom layout's along that mode), 1 where the size divides that tile
        and is smaller, refused where neither divides the other (a dynamic
        size: a dynamic quotient), then the shape's further modes as they
        are."""
        if type(shape) is not tuple or len(shape) < 2:
            # The DSL's process aborts (std::out_of_range, observed).
            raise ValueError("partition_shape of %s, a shape of rank below "
                             "2: the DSL's process aborts there" % (shape,))
        threads = self.thr_layout_vmnk.sh
        counts = []
        for size_of, m in zip(shape[:2], modes):
            tile = self.shape_mnk[m] * _tuples.product(threads[m + 1])
            size = _tuples.product(size_of)
            if not isinstance(size, int):
                counts.append(_ints.div(size, tile))
            elif size <= 0:
                raise ValueError("partition_shape: Expected size in shape "
                                 "to be strictly positive, but got %d" %
                                 size)
            elif size % tile == 0:
                counts.append(size // tile)
            elif tile % size == 0:
                counts.append(1)
            else:
                raise DSLUserCodeError(
                    "partition_shape: the tile %d does not divide the mode "
                    "%s of %s, nor it the tile" % (
                        tile, _tuples.text(size_of), _tuples.text(shape)))
        values = static_layout(getattr(self._cpp, operand)).sh[1]
        return _ints.traced((values,) + tuple(counts) + tuple(shape[2:]))

    def partition_shape_A(self, shape_mk):  # noqa: N802
        """The shape of a thread's A fragment of an (M, K) tile."""
        return self._partition_shape(shape_mk, (0, 2), "a")

    def partition_shape_B(self, shape_nk):  # noqa: N802
        return self._partition_shape(shape_nk, (1, 2), "b")

    def partition_shape_C(self, shape_mn):  # noqa: N802
        return self._partition_shape(shape_mn, (0, 1), "c")

    def __str__(self):
        return _cards(("Tiled MMA",
                       [("Thr Layout VMNK", str(self.thr_layout_vmnk)),
                        ("Permutation MNK", _bare(self._permutation))]),
                      ("MMA Atom", self._rows()))

    def _picture(self, svg, colour):
        return self._whole().picture(svg, colour)


def make_tiled_mma(op_or_atom, atom_layout_mnk=(1, 1, 1),
                   permutation_mnk=None, **kwargs):
    """An MMA op or atom tiled over a rank-3 atom layout (a Layout or a
    shape), its M, N and K permuted by `permutation_mnk`."""
    if isinstance(op_or_atom, MmaAtom):
        op, cpp = op_or_atom.op, op_or_atom._cpp
    elif isinstance(op_or_atom, MmaOp):
        op, cpp = op_or_atom, op_or_atom._core_atom()
    else:
        raise TypeError("make_tiled_mma expects an MMA Op or Atom, got %s" %
                        type(op_or_atom).__name__)
    return _refused(TiledMma, op, cpp, _atom_layout(atom_layout_mnk),
                    permutation_mnk)


# ---------------------------------------------------------------------------
# Tiled copies

class TiledCopy(CopyAtom):
    """A copy atom tiled over threads and values: the tile (`tiler_mn`)
    and the (thread, value) -> tile index layouts."""

    def __init__(self, atom, cpp_tiled):
        CopyAtom.__init__(self, atom.op, atom._cpp, atom.value_type)
        self._tiled = cpp_tiled

    @property
    def tiler_mn(self):
        """The tile, a Layout a mode (an integer n is n:1)."""
        return tuple(None if m == "_" else static_layout(m)
                     for m in _tile_modes(self._tiled.tiler))

    @property
    def layout_tv_tiled(self):
        return static_layout(self._tiled.tiled_layout_tv)

    @property
    def layout_src_tv_tiled(self):
        return static_layout(self._tiled.layout_s_tv)

    @property
    def layout_dst_tv_tiled(self):
        return static_layout(self._tiled.layout_d_tv)

    @property
    def size(self):
        return self._tiled.num_threads

    def _dsl_size(self):
        return self.size

    def __str__(self):
        return _cards(("Tiled Copy",
                       [("Tiler MN", _bare(self.tiler_mn)),
                        ("TV Layout tiled", str(self.layout_tv_tiled))]),
                      ("Copy Atom", self._rows()))

    def _picture(self, svg, colour):
        return self._tiled.picture(svg, colour)


def _tile_modes(text):
    """The modes of a C++ Tile's text `(_32,(_8,_2):(_1,_16))` as layouts'
    C++ text (an integer n as `_n:_1`)."""
    modes, depth, start = [], 0, 1
    for i, ch in enumerate(text):
        if ch in "([<":
            depth += 1
        elif ch in ")]>":
            depth -= 1
        if (ch == "," and depth == 1) or depth == 0:
            modes.append(text[start:i])
            start = i + 1
    out = []
    for m in modes:
        if m == "_" or ":" in m:
            out.append(m)
        else:  # make_layout(n): n:1, or 1:0 for n = 1
            out.append("%s:_%d" % (m, 0 if m == "_1" else 1))
    return out


def _copy(atom, make, *args):
    """The TiledCopy C++ `make(atom, *args)` builds. Where the threads or
    the values per thread are not a multiple of the atom's (CuTe's
    static_assert "TiledCopy uses too few thrs/vals") the DSL makes the
    copy anyway (observed): the twin's answer is then the DSL's with a
    WrongLayoutWarning (WrongLayoutError in strict mode)."""
    try:
        return TiledCopy(atom, make(atom._cpp, *args))
    except ValueError as ex:
        if "too few" not in str(ex):
            raise DSLUserCodeError(str(ex)) from None
        reason = str(ex)
    made = TiledCopy(atom, _refused(make, atom._cpp, *args, check=False))
    from ._algebra import _wrong
    return _wrong("tiled_copy", reason, made,
                  "a thread holds %s values, the atom moves %s" % (
                      _tuples.product(made.layout_tv_tiled.sh[1]),
                      _tuples.product(atom.layout_src_tv.sh[1])))


def _need(x, kind, fn, what):
    if not isinstance(x, kind):
        raise TypeError("%s expects %s, got %s" % (fn, what,
                                                   type(x).__name__))


def make_tiled_copy_tv(atom, thr_layout, val_layout):
    """The atom over a thread layout and a value layout ((m, n) -> thread,
    (m, n) -> value), both static."""
    _need(atom, CopyAtom, "make_tiled_copy_tv", "a CopyAtom")
    for name, layout in (("thr_layout", thr_layout),
                         ("val_layout", val_layout)):
        _need(layout, Layout, "make_tiled_copy_tv", "a Layout for " + name)
        if not layout.is_static():
            raise DSLUserCodeError("make_tiled_copy_tv expects static "
                                   "layouts, got %s" % layout)
    return _copy(atom, _core.cute_make_tiled_copy, _cpp_text(thr_layout),
                 _cpp_text(val_layout))


def _tiler_text(tiler_mn):
    """make_tiled_copy's tile as C++ Tile text: a tuple of static ints and
    Layouts (observed: a Layout or an int alone is refused)."""
    if type(tiler_mn) is not tuple:
        raise TypeError("make_tiled_copy: tiler_mn must be a Tile (a tuple "
                        "of ints and Layouts), got %s" %
                        type(tiler_mn).__name__)
    parts = []
    for m in tiler_mn:
        if type(m) is int and m > 0:
            parts.append("_%d" % m)
        elif isinstance(m, Layout) and m.is_static():
            parts.append(_cpp_text(m))
        elif m is None:
            raise DSLUserCodeError("make_tiled_copy: the twin takes no `_` "
                                   "(None) mode in tiler_mn")
        else:
            raise DSLUserCodeError("make_tiled_copy: layout tv and tiler mn "
                                   "must be static, got %s" % (m,))
    return "<" + ",".join(parts) + ">"


def make_tiled_copy(atom, layout_tv, tiler_mn):
    """The atom over a (thread, value) -> tile index layout and its tile."""
    _need(atom, CopyAtom, "make_tiled_copy", "a CopyAtom")
    _need(layout_tv, Layout, "make_tiled_copy", "a Layout")
    text = _tiler_text(tiler_mn)
    if not layout_tv.is_static():
        raise DSLUserCodeError("make_tiled_copy: layout tv and tiler mn "
                               "must be static")
    return _copy(atom, _core.cute_make_tiled_copy_tv, _cpp_text(layout_tv),
                 text)


def _from_mma(atom, tiled_mma, operand, fn):
    _need(atom, CopyAtom, fn, "a CopyAtom")
    _need(tiled_mma, TiledMma, fn, "a TiledMma")
    return _copy(atom, _core.cute_make_tiled_copy_from_mma,
                 tiled_mma._whole(), operand)


def make_tiled_copy_A(atom, tiled_mma):  # noqa: N802 (the DSL's names)
    """The atom over the tiled MMA's A layout and tile."""
    return _from_mma(atom, tiled_mma, "A", "make_tiled_copy_A")


def make_tiled_copy_B(atom, tiled_mma):  # noqa: N802
    return _from_mma(atom, tiled_mma, "B", "make_tiled_copy_B")


def make_tiled_copy_C(atom, tiled_mma):  # noqa: N802
    return _from_mma(atom, tiled_mma, "C", "make_tiled_copy_C")


def make_tiled_copy_C_atom(atom, mma):  # noqa: N802
    """The smallest tiled copy of the atom over the first values of each
    thread of the tiled MMA's C layout."""
    return _from_mma(atom, mma, "C_atom", "make_tiled_copy_C_atom")


def _like(atom, tiled_copy, side, fn):
    _need(atom, CopyAtom, fn, "a CopyAtom")
    _need(tiled_copy, TiledCopy, fn, "a TiledCopy")
    tiled = tiled_copy._tiled
    return _copy(atom, _core.cute_make_tiled_copy_tv,
                 getattr(tiled, side), tiled.tiler)


def make_tiled_copy_S(atom, tiled_copy):  # noqa: N802
    """The atom over another tiled copy's source layout and tile."""
    return _like(atom, tiled_copy, "layout_s_tv", "make_tiled_copy_S")


def make_tiled_copy_D(atom, tiled_copy):  # noqa: N802
    """The atom over another tiled copy's destination layout and tile."""
    return _like(atom, tiled_copy, "layout_d_tv", "make_tiled_copy_D")
