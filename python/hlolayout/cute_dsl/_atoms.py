"""The DSL's atoms and tiled atoms (cute.make_mma_atom, make_tiled_mma,
make_copy_atom, make_tiled_copy_tv, make_tiled_copy_A/B/C/S/D/C_atom), on
hlolayout's C++ atom tables (cute/atom/): each DSL operation names the CuTe
atom that has its thread-value layouts, and the layouts print as the DSL
prints them.

    >>> from hlolayout import cute_dsl as cute
    >>> op = cute.nvgpu.warp.MmaF16BF16Op(cute.Float16, cute.Float32, (16, 8, 16))
    >>> print(cute.make_mma_atom(op).tv_layout_A)
    ((4,8),(2,2,2)):((32,1),(16,8,128))
    >>> tm = cute.make_tiled_mma(op, (2, 2, 1))
    >>> print(tm.thr_layout_vmnk, tm.size)
    (32,2,2,1):(1,32,64,0) 128
"""


from .. import _hlolayout as _core
from . import _config, _ints, _tuples
from ._algebra import Refusal
from ._objects import Layout

__all__ = ["Op", "MmaOp", "CopyOp", "Atom", "MmaAtom", "TiledMma",
           "CopyAtom", "TiledCopy", "make_mma_atom", "make_tiled_mma",
           "make_copy_atom", "make_tiled_copy_tv", "make_tiled_copy",
           "make_tiled_copy_A", "make_tiled_copy_B", "make_tiled_copy_C",
           "make_tiled_copy_S", "make_tiled_copy_D",
           "make_tiled_copy_C_atom"]


class DSLUserCodeError(Refusal):
    """An operation or atom the DSL refuses (its rule in the message)."""


def _layout(text):
    """A twin Layout from the C++ tables' static text (`(_32,_8):(_8,_1)`)."""
    return Layout._from_core(_core.cute_parse(text))


def _dsl_text(text):
    """The C++ tables' static text as the DSL prints it (no `_`)."""
    return text.replace("_", "")


def _core_call(fn, *args):
    try:
        return fn(*args)
    except ValueError as ex:
        raise DSLUserCodeError(str(ex)) from None


# The C++ tables' MMA atoms looked up so far, by name (issue 47 item 15: a
# lookup matches the name against the tables' patterns and parses the
# atom's layouts, 3-4 us). The tables are compiled in and an atom is
# read-only from Python, so a name always gives the same atom; names the
# tables refuse are not kept (their error comes at every call).
_MMA_ATOMS = {}
_MMA_ATOMS_KEPT = 1024


def find_mma_atom(name):
    """The C++ MMA atom named `name` (cute/atom's tables), looked up once."""
    atom = _MMA_ATOMS.get(name)
    if atom is None:
        atom = _core_call(_core.cute_find_mma_atom, name)
        if len(_MMA_ATOMS) >= _MMA_ATOMS_KEPT:
            _MMA_ATOMS.clear()
        _MMA_ATOMS[name] = atom
    return atom


class Op:
    """A DSL operation: a Python value naming one instruction."""

    def _check(self):
        pass


class MmaOp(Op):
    """An MMA operation; `_cpp_name()` names its CuTe atom."""

    def _cpp_name(self):
        raise TypeError("%s is the DSL's abstract MMA op class: build a "
                        "concrete op (MmaF16BF16Op, ...)" %
                        type(self).__name__)

    def _core_atom(self):
        """The C++ atom (cute/atom's tables) of this operation."""
        return find_mma_atom(self._cpp_name())

    # Jupyter shows the atom's picture under the op's text.
    def _repr_svg_(self):
        from . import _pictures
        return _pictures.svg(self)

    def _repr_html_(self):
        from . import _pictures
        return _pictures.html(self)


class CopyOp(Op):
    """A copy operation; `_cpp_op(value_type, **kwargs)` names its CuTe
    Copy_Atom operation."""

    def _cpp_op(self, value_type, **kwargs):
        raise TypeError("%s is the DSL's abstract copy op class: build a "
                        "concrete op (CopyUniversalOp, ...)" %
                        type(self).__name__)


def require_arch(admissible, what):
    """Refuses unless the current architecture (set_arch, CUTE_DSL_ARCH) is
    one of `admissible`."""
    arch = _config.get_arch()
    if arch not in admissible:
        hint = ""
        for suffix in ("a", "f"):
            if arch + suffix in admissible:
                hint = "; did you mean %s%s?" % (arch, suffix)
                break
        raise DSLUserCodeError(
            "%s needs the architecture to be one of %s, but it is %s (set "
            "it with cute_dsl.set_arch or CUTE_DSL_ARCH)%s" %
            (what, ", ".join(admissible), arch, hint))


class Atom:
    """An operation with its CuTe traits."""

    # Jupyter shows the picture under the printed text (_pictures).
    def _repr_svg_(self):
        from . import _pictures
        return _pictures.svg(self)

    def _repr_html_(self):
        from . import _pictures
        return _pictures.html(self)

    def __init__(self, op):
        self._op = op

    @property
    def op(self):
        return self._op


class MmaAtom(Atom):
    """make_mma_atom(op): ThrID, MNK shape and the A/B/C thread-value
    layouts ((thread, value) -> column-major index of the operand tile)."""

    def __init__(self, op, core_atom):
        Atom.__init__(self, op)
        self._atom = core_atom

    @property
    def thr_id(self):
        return _layout(self._atom.thr_id)

    @property
    def shape_mnk(self):
        return tuple(self._atom.shape_mnk)

    def _tv(self, text):
        tv = getattr(self._op, "_dsl_tv", None)
        layout = _layout(text)
        return tv(layout) if tv else layout

    @property
    def tv_layout_A(self):  # noqa: N802 (the DSL's name)
        return self._tv(self._atom.a)

    @property
    def tv_layout_B(self):  # noqa: N802
        return self._tv(self._atom.b)

    @property
    def tv_layout_C(self):  # noqa: N802
        return self._tv(self._atom.c)

    def _atom_lines(self, width):
        pad = " " * (width - 12)
        return ["MMA Atom",
                "  ThrID:       " + pad + str(self.thr_id),
                "  Shape MNK:   " + pad + _pretty(self.shape_mnk),
                "  TV Layout A: " + pad + str(self.tv_layout_A),
                "  TV Layout B: " + pad + str(self.tv_layout_B),
                "  TV Layout C: " + pad + str(self.tv_layout_C)]

    def __str__(self):
        return "\n".join(self._atom_lines(12))


def _pretty(t):
    if type(t) is tuple:
        return "(" + ",".join(_pretty(e) for e in t) + ")"
    if t is None:
        return "_"
    return str(t)


def make_mma_atom(op, **kwargs):
    """The MMA atom of a DSL MMA operation."""
    if not isinstance(op, MmaOp):
        raise TypeError("make_mma_atom expects an MMA Op, got %s" %
                        type(op).__name__)
    op._check()
    return MmaAtom(op, op._core_atom())


class TiledMma(MmaAtom):
    """make_tiled_mma(op, atom_layout_mnk, permutation_mnk).

    The C++ tiled MMA is a shell (thread layout, tile, thread index map)
    whose operand layouts are built one at a time when read (a kernel
    author reads one or two of the three): an operand whose permutation
    modes do not tile the atom fails when read, with the first failing
    operand's message (C, A, B: what CuTe's make_tiled_mma meets first),
    while the others still have their layouts (CuTe's thrfrg_A reads the M
    and K permutations only)."""

    def __init__(self, op, core_atom, shell, permutation, layout_text,
                 permutation_text):
        MmaAtom.__init__(self, op, core_atom)
        # The shell and its operand layouts read so far (C++ layouts, kept
        # with the shell, _kept_tiled_mma).
        self._shell, self._tvs = shell
        self._perm = permutation
        self._args = (layout_text, permutation_text)
        self._full = None

    def _core(self):
        """The whole C++ tiled MMA (its three TV layouts: pictures, tiled
        copies), built on first use; DSLUserCodeError with the first
        failing operand's message where one fails."""
        if self._full is None:
            try:
                self._full = _core_tiled_mma(self._atom, *self._args)
            except ValueError as ex:
                raise DSLUserCodeError(str(ex)) from None
        return self._full

    def _tv_tiled(self, operand):
        c = self._tvs.get(operand)
        if c is None:
            try:
                c = _core.cute_tiled_mma_layout_tv(self._shell, operand)
            except ValueError as ex:
                self._core()  # raises the first failing operand's message
                raise DSLUserCodeError(str(ex)) from None
            self._tvs[operand] = c
        return Layout._from_core(c)

    @property
    def thr_layout_vmnk(self):
        return _layout(self._shell.thr_layout_vmnk)

    @property
    def permutation_mnk(self):
        return self._perm

    @property
    def tv_layout_A_tiled(self):  # noqa: N802
        return self._tv_tiled("A")

    @property
    def tv_layout_B_tiled(self):  # noqa: N802
        return self._tv_tiled("B")

    @property
    def tv_layout_C_tiled(self):  # noqa: N802
        return self._tv_tiled("C")

    @property
    def size(self):
        return self._shell.num_threads

    def _dsl_size(self):
        return self.size

    def _thrfrg(self, shape, tv, modes):
        """CuTe's TiledMMA::thrfrg_A/B/C of the compact layout of `shape`:
        ((ThrV,(ThrM,ThrK)),(FrgV,RestM,RestK))."""
        from . import _algebra
        dummy = _algebra.make_layout(shape)
        t_tile = tuple(self._perm[m] for m in modes)
        t_tensor = _algebra.logical_divide(dummy, t_tile)
        atom_shape = self.shape_mnk
        a_tile = tuple(_algebra.make_layout(atom_shape[m]) for m in modes)
        a_tensor = _algebra.zipped_divide(t_tensor, a_tile)
        tv_tensor = _algebra.composition(a_tensor, (_layout(tv), None))
        vmnk = _tuples.wrap(self.thr_layout_vmnk.sh)
        thr = tuple(_algebra.make_layout(_tuples.product(vmnk[m + 1]))
                    for m in modes)
        return _algebra.zipped_divide(tv_tensor, (None, thr))

    def _partition_shape(self, shape, tv, modes):
        """The DSL's partition_shape: the atom's values, then each of the
        first two modes' size divided by the tile the atoms cover along it
        (the atom's extent times the atom layout's; a permutation does not
        count), then any further modes unchanged. A size and a tile where
        neither divides the other are refused."""
        if not isinstance(shape, tuple) or _tuples.rank(shape) < 2:
            raise ValueError("expects a rank >= 2 shape, got %s" %
                             _tuples.text(shape))
        vmnk = _tuples.wrap(self.thr_layout_vmnk.sh)
        rest = []
        for mode, m in zip(shape[:2], modes):
            size = _tuples.product(mode)
            tile = self.shape_mnk[m] * _tuples.product(vmnk[m + 1])
            if isinstance(size, int):
                if size % tile and tile % size:
                    raise DSLUserCodeError(
                        "partition_shape: the tile %s does not divide the "
                        "shape %s (nor it the tile)" % (tile,
                                                        _tuples.text(shape)))
                rest.append(size // tile if size % tile == 0 else 1)
            else:
                rest.append(_ints.div(size, tile))
        return _ints.traced((_layout(tv).sh[1],) + tuple(rest) +
                            tuple(shape[2:]))

    def partition_shape_A(self, shape_mk):  # noqa: N802 (the DSL's name)
        """The shape of one thread's A fragment of an (M,K) tile."""
        return self._partition_shape(shape_mk, self._atom.a, (0, 2))

    def partition_shape_B(self, shape_nk):  # noqa: N802
        return self._partition_shape(shape_nk, self._atom.b, (1, 2))

    def partition_shape_C(self, shape_mn):  # noqa: N802
        return self._partition_shape(shape_mn, self._atom.c, (0, 1))

    def get_tile_size(self, mode_idx):
        """The tile's extent along M (0), N (1) or K (2)."""
        if mode_idx not in (0, 1, 2):
            raise ValueError("expects mode_idx to be 0, 1 or 2, got %r" %
                             (mode_idx,))
        return self._core().tile_mnk[mode_idx]

    def __str__(self):
        lines = ["Tiled MMA",
                 "  Thr Layout VMNK: " + str(self.thr_layout_vmnk),
                 "  Permutation MNK: " + _pretty(self.permutation_mnk)]
        return "\n".join(lines + self._atom_lines(16))


def _atom_layout_text(atom_layout_mnk):
    """The text of the atom layout make_tiled_mma builds on: for the usual
    (m, n, k) of positive Python ints, written at once (the compact layout:
    a size 1 has the stride 0), else that of _atom_layout's layout."""
    if type(atom_layout_mnk) is tuple and len(atom_layout_mnk) == 3 and all(
            type(x) is int and x > 0 for x in atom_layout_mnk):
        strides, current = [], 1
        for x in atom_layout_mnk:
            strides.append(0 if x == 1 else current)
            current *= x
        return "(%d,%d,%d):(%d,%d,%d)" % (atom_layout_mnk + tuple(strides))
    return str(_atom_layout(atom_layout_mnk))


def _atom_layout(atom_layout_mnk):
    if isinstance(atom_layout_mnk, tuple):
        from . import _algebra
        atom_layout_mnk = _algebra.make_layout(atom_layout_mnk)
    if not isinstance(atom_layout_mnk, Layout):
        raise TypeError("make_tiled_mma expects a Layout or a tuple as "
                        "atom_layout_mnk, got %s" %
                        type(atom_layout_mnk).__name__)
    if _tuples.rank(atom_layout_mnk.sh) != 3:
        raise ValueError("expects rank-3 MNK atom layout, but got %s" %
                         atom_layout_mnk)
    if not atom_layout_mnk.is_static():
        raise DSLUserCodeError("make_tiled_mma: the atom layout %s must be "
                               "static" % atom_layout_mnk)
    return atom_layout_mnk


def _permutation(permutation_mnk):
    """(the DSL's printed permutation, the C++ tile's three modes)."""
    if permutation_mnk is None:
        return (None, None, None), ["_", "_", "_"]
    perm = permutation_mnk
    if not isinstance(perm, tuple):
        perm = (perm,)
    shown, parts = [], []
    for p in perm:
        if p is None:
            shown.append(None)
            parts.append("_")
        elif isinstance(p, Layout):
            if not p.is_static():
                raise DSLUserCodeError("make_tiled_mma: the permutation %s "
                                       "must be static" % p)
            shown.append(p)
            parts.append(str(p))
        elif isinstance(p, int) and not isinstance(p, bool):
            from . import _algebra
            shown.append(_algebra.make_layout(p))
            parts.append(str(p))
        else:
            raise DSLUserCodeError("make_tiled_mma: a permutation mode must "
                                   "be None, a static int or a Layout, got "
                                   "%r" % (p,))
    while len(shown) < 3:
        shown.append(None)
    while len(parts) < 3:
        parts.append("_")
    return tuple(shown), parts


# The C++ tiled MMAs and shells made so far (issue 47 item 15: building
# one is most of a make_tiled_mma call). A C++ tiled MMA is immutable
# (read-only from Python) and a function of its atom's definition, the atom
# layout and the permutation, which make the key; failures are not kept.
_TILED_MMAS = {}
_TILED_MMAS_KEPT = 512


# The definition of each C++ atom met so far (its name, family and layouts'
# text: reading them prints four layouts in C++), by id; the atom is kept
# with it, so the id is not reused while the entry stands.
_ATOM_DEFINITIONS = {}


def _atom_definition(a):
    entry = _ATOM_DEFINITIONS.get(id(a))
    if entry is None or entry[0] is not a:
        entry = (a, (a.name, a.family, a.thr_id, tuple(a.shape_mnk), a.a,
                     a.b, a.c))
        if len(_ATOM_DEFINITIONS) >= _TILED_MMAS_KEPT:
            _ATOM_DEFINITIONS.clear()
        _ATOM_DEFINITIONS[id(a)] = entry
    return entry[1]


def _kept_tiled_mma(make, kind, core_atom, layout_text, permutation_text):
    key = (kind, _atom_definition(core_atom), layout_text, permutation_text)
    tm = _TILED_MMAS.get(key)
    if tm is None:
        tm = make(core_atom, layout_text, permutation_text)
        if len(_TILED_MMAS) >= _TILED_MMAS_KEPT:
            _TILED_MMAS.clear()
        _TILED_MMAS[key] = tm
    return tm


def _core_tiled_mma(core_atom, layout_text, permutation_text):
    """The whole C++ tiled MMA (its three TV layouts)."""
    return _kept_tiled_mma(_core.cute_make_tiled_mma, "full", core_atom,
                           layout_text, permutation_text)


def _make_shell(core_atom, layout_text, permutation_text):
    """The C++ shell and a dict for its operand layouts."""
    return (_core.cute_make_tiled_mma_shell(core_atom, layout_text,
                                            permutation_text), {})


def make_tiled_mma(op_or_atom, atom_layout_mnk=(1, 1, 1),
                   permutation_mnk=None, **kwargs):
    """The tiled MMA of an operation or atom over atom_layout_mnk (a rank-3
    layout or shape) with an optional permutation of M, N and K."""
    if isinstance(op_or_atom, MmaAtom):
        atom = op_or_atom
    elif isinstance(op_or_atom, MmaOp):
        atom = make_mma_atom(op_or_atom)
    else:
        raise TypeError("expected an MMA Op or Atom, but got an instance of "
                        "%s" % type(op_or_atom).__name__)
    layout_text = _atom_layout_text(atom_layout_mnk)
    shown, parts = _permutation(permutation_mnk)
    permutation_text = "<" + ",".join(parts) + ">"
    try:
        shell = _kept_tiled_mma(_make_shell, "shell", atom._atom,
                                layout_text, permutation_text)
    except ValueError as ex:
        raise DSLUserCodeError(str(ex)) from None
    # A permutation that does not tile the atom (CuTe's logical_divide or
    # composition precondition fails for one operand) fails that operand's
    # layout only, when it is read: the DSL makes the tiled MMA all the
    # same; the operand's tiled layout is the one CuTe cannot compute (the
    # DSL prints x, or a layout that is no thread-value partition of the
    # tile).
    return TiledMma(atom.op, atom._atom, shell, shown, layout_text,
                    permutation_text)


class CopyAtom(Atom):
    """make_copy_atom(op, value_type): ThrID and the source and destination
    thread-value layouts in values of the value type."""

    def __init__(self, op, core_atom, value_type):
        Atom.__init__(self, op)
        self._atom = core_atom
        self._value_type = value_type

    @property
    def value_type(self):
        return self._value_type

    @property
    def thr_id(self):
        return _layout(self._atom.thr_id)

    @property
    def layout_src_tv(self):
        return _layout(self._atom.val_src)

    @property
    def layout_dst_tv(self):
        return _layout(self._atom.val_dst)

    def _atom_lines(self, width):
        pad = " " * (width - 14)
        return ["Copy Atom",
                "  ThrID:         " + pad + str(self.thr_id),
                "  TV Layout Src: " + pad + str(self.layout_src_tv),
                "  TV Layout Dst: " + pad + str(self.layout_dst_tv),
                "  Value type:    " + pad + self._value_type.mlir]

    def __str__(self):
        return "\n".join(self._atom_lines(14))


def make_copy_atom(op, copy_internal_type, **kwargs):
    """The copy atom of a DSL copy operation moving values of
    copy_internal_type (a DSL data type)."""
    if not isinstance(op, CopyOp):
        raise TypeError("make_copy_atom expects a Copy Op, got %s" %
                        type(op).__name__)
    from . import _numeric_types
    if not isinstance(copy_internal_type, _numeric_types._NumericMeta):
        raise TypeError("make_copy_atom expects a DSL data type, got %r" %
                        (copy_internal_type,))
    op._check()
    cpp_op = op._cpp_op(copy_internal_type, **kwargs)
    core_atom = _core_call(_core.cute_make_copy_atom, cpp_op,
                           _cpp_type(copy_internal_type))
    return CopyAtom(op, core_atom, copy_internal_type)


# CuTe's C++ element type of a DSL data type (for Copy_Atom<OP, T>).
_CPP_TYPES = {
    "Float16": "half_t", "BFloat16": "bfloat16_t", "Float32": "float",
    "TFloat32": "tfloat32_t", "Float64": "double", "Int8": "int8_t",
    "Uint8": "uint8_t", "Int16": "int16_t", "Uint16": "uint16_t",
    "Int32": "int32_t", "Uint32": "uint32_t", "Int64": "int64_t",
    "Uint64": "uint64_t", "Float8E4M3FN": "float_e4m3_t",
    "Float8E5M2": "float_e5m2_t", "Float8E8M0FNU": "float_ue8m0_t",
    "Float6E2M3FN": "float_e2m3_t", "Float6E3M2FN": "float_e3m2_t",
    "Float4E2M1FN": "float_e2m1_t", "Int4": "int4b_t",
    # The DSL's Boolean is one bit (i1): a copy of 8 bits moves 8 of them
    # (observed, differential/cute_dsl/domain_cases.py), as CuTe's uint1_t.
    "Boolean": "uint1_t",
}


def _cpp_type(dtype):
    try:
        return _CPP_TYPES[dtype.name]
    except KeyError:
        raise DSLUserCodeError("the twin has no CuTe element type for %s" %
                               dtype.name) from None


class TiledCopy(CopyAtom):
    """A copy atom tiled over threads and values (make_tiled_copy_*)."""

    def __init__(self, op, core_atom, value_type, core_tiled):
        CopyAtom.__init__(self, op, core_atom, value_type)
        self._tc = core_tiled

    @property
    def tiler_mn(self):
        return _tiler(self._tc.tiler)

    @property
    def layout_tv_tiled(self):
        return _layout(self._tc.tiled_layout_tv)

    @property
    def layout_src_tv_tiled(self):
        return _layout(self._tc.layout_s_tv)

    @property
    def layout_dst_tv_tiled(self):
        return _layout(self._tc.layout_d_tv)

    @property
    def size(self):
        return self._tc.num_threads

    def _dsl_size(self):
        return self.size

    def __str__(self):
        lines = ["Tiled Copy",
                 "  Tiler MN:        " + _pretty(self.tiler_mn),
                 "  TV Layout tiled: " + str(self.layout_tv_tiled)]
        return "\n".join(lines + self._atom_lines(16))


def _tiler(text):
    """The C++ tiler text as the DSL's tuple of layouts (an integer n is the
    layout n:1)."""
    inner = text.strip()
    if inner.startswith("<") or inner.startswith("("):
        inner = inner[1:-1]
    parts, depth, cur = [], 0, ""
    for ch in inner:
        if ch in "([<":
            depth += 1
        elif ch in ")]>":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        parts.append(cur.strip())
    out = []
    for p in parts:
        if ":" in p:
            out.append(_layout(p))
        else:
            from . import _algebra
            out.append(_algebra.make_layout(int(p.replace("_", ""))))
    return tuple(out)


def _tiled(atom, core_tiled):
    return TiledCopy(atom.op, atom._atom, atom.value_type, core_tiled)


def _tiled_copy(atom, fn, *args):
    """A tiled copy from the C++ core. Where the threads or values per
    thread are not a multiple of the atom's (CuTe's static_assert "TiledCopy
    uses too few thrs/vals"), the DSL builds it anyway: the twin refuses
    (WrongLayoutError) or, unchecked, returns what the DSL prints."""
    try:
        return _tiled(atom, fn(*args))
    except ValueError as ex:
        if "too few" not in str(ex):
            raise DSLUserCodeError(str(ex)) from None
        from ._algebra import _wrong
        result = _tiled(atom, _core_call(fn, *(args + (False,))))
        return _wrong("tiled_copy", str(ex), result,
                      "a thread holds %s values, the atom moves %s" % (
                          _tuples.product(result.layout_tv_tiled.sh[1]),
                          _tuples.product(atom.layout_src_tv.sh[1])))


def _need_copy_atom(atom, fn):
    if not isinstance(atom, CopyAtom):
        raise TypeError("%s expects a CopyAtom, got %s" %
                        (fn, type(atom).__name__))


def make_tiled_copy_tv(atom, thr_layout, val_layout):
    """make_tiled_copy(atom, thr_layout, val_layout): val_layout repeated
    over thr_layout ((m,n) -> thread and (m,n) -> value)."""
    _need_copy_atom(atom, "make_tiled_copy_tv")
    for l in (thr_layout, val_layout):
        if not isinstance(l, Layout) or not l.is_static():
            raise DSLUserCodeError("make_tiled_copy_tv expects static "
                                   "layouts, got %s" % (l,))
    return _tiled_copy(atom, _core.cute_make_tiled_copy, atom._atom,
                       str(thr_layout), str(val_layout))


def make_tiled_copy(atom, layout_tv, tiler_mn):
    """The tiled copy of a (thread, value) -> tile layout over tiler_mn."""
    _need_copy_atom(atom, "make_tiled_copy")
    return _tiled_copy(atom, _core.cute_make_tiled_copy_tv, atom._atom,
                       str(layout_tv), _tile_text(tiler_mn))


def _tile_text(tiler):
    if isinstance(tiler, Layout):
        return "<" + str(tiler) + ">"
    if not isinstance(tiler, tuple):
        tiler = (tiler,)
    return "<" + ",".join("_" if t is None else str(t) for t in tiler) + ">"


def _from_mma(atom, tiled_mma, operand, fn):
    _need_copy_atom(atom, fn)
    if not isinstance(tiled_mma, TiledMma):
        raise TypeError("%s expects a TiledMma, got %s" %
                        (fn, type(tiled_mma).__name__))
    return _tiled_copy(atom, _core.cute_make_tiled_copy_from_mma, atom._atom,
                       tiled_mma._core(), operand)


def make_tiled_copy_A(atom, tiled_mma):  # noqa: N802 (the DSL's name)
    return _from_mma(atom, tiled_mma, "A", "make_tiled_copy_A")


def make_tiled_copy_B(atom, tiled_mma):  # noqa: N802
    return _from_mma(atom, tiled_mma, "B", "make_tiled_copy_B")


def make_tiled_copy_C(atom, tiled_mma):  # noqa: N802
    return _from_mma(atom, tiled_mma, "C", "make_tiled_copy_C")


def make_tiled_copy_C_atom(atom, mma):  # noqa: N802
    return _from_mma(atom, mma, "C_atom", "make_tiled_copy_C_atom")


def make_tiled_copy_S(atom, tiled_copy):  # noqa: N802
    """A tiled copy of `atom` with tiled_copy's source TV layout and tile."""
    _need_copy_atom(atom, "make_tiled_copy_S")
    return _tiled_copy(atom, _core.cute_make_tiled_copy_tv, atom._atom,
                       tiled_copy._tc.layout_s_tv, tiled_copy._tc.tiler)


def make_tiled_copy_D(atom, tiled_copy):  # noqa: N802
    """A tiled copy of `atom` with tiled_copy's destination TV layout."""
    _need_copy_atom(atom, "make_tiled_copy_D")
    return _tiled_copy(atom, _core.cute_make_tiled_copy_tv, atom._atom,
                       tiled_copy._tc.layout_d_tv, tiled_copy._tc.tiler)
