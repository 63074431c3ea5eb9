"""CuTe's atoms as kernel authors use them, under CuTe's names (re-exported
by `hlolayout.cute`): MMA and copy atoms, make_tiled_mma, make_tiled_copy
and make_tiled_copy_A/B/C, their thread-value layouts, thread slices,
shared-memory bank conflicts, and pictures (Jupyter shows them).

    >>> from hlolayout import cute
    >>> atom = cute.MMA_Atom("SM80_16x8x16_F16F16F16F16_TN")
    >>> atom.Shape_MNK, atom.LayoutB_TV.cute
    ((16, 8, 16), '((_4,_8),(_2,_2)):((_16,_1),(_8,_64))')
    >>> tm = cute.make_tiled_mma(atom, (2, 2, 1), "<_32,(_8,_2,_2):(_1,_16,_8),_16>")
    >>> tm.tile_shape, tm.get_layoutC_TV().cute
    ((32, 32, 16), '((_4,_8,_2,_2),((_2,_2),(_1,_2))):((_64,_1,_16,_512),((_32,_8),(_0,_256)))')
    >>> tm.thread_slice(5)["C"][:2]
    ((1, 2), (1, 3))
    >>> ldsm = cute.Copy_Atom("SM75_U32x4_LDSM_N", "half_t")
    >>> tc = cute.make_tiled_copy_A(ldsm, tm)
    >>> tc.Tiler_MN, tc.get_layoutS_TV().cute
    ('(_32,_16)', '((_16,_2,_2,_2),(_8,_1)):((_1,_256,_16,_0),(_32,_0))')
    >>> r = tc.bank_conflicts("(32,16):(16,1)")
    >>> r.factor, r.transactions, r.ideal, r.worst_bank
    (2.0, 32, 16, 0)
    >>> tc.bank_conflicts("GMMA::Layout_K_SW128_Atom<half_t>")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: SMEM: GMMA::Layout_K_SW128_Atom<half_t> tiled to the 32x16 tile: ...

Every layout comes back as a `cute.Layout`: `.cute` is CuTe's static text
(`_N`), str() prints as pycute prints. Bad names and options raise ValueError with the CLI's message
(unknown names list the nearest known ones).
"""

from __future__ import annotations

from typing import (TYPE_CHECKING, Any, Dict, Iterator, List, Mapping,
                    Optional, Sequence, Tuple, Union)

from . import _hlolayout as _core

if TYPE_CHECKING:
    from .cute import Layout

    LayoutArg = Union[Layout, str, Tuple[Any, ...]]
    Coords = Tuple[Tuple[int, int], ...]

__all__ = [
    "MMA_Atom", "Copy_Atom", "TiledMMA", "TiledCopy", "make_tiled_mma",
    "make_tiled_copy", "make_tiled_copy_A", "make_tiled_copy_B",
    "make_tiled_copy_C", "make_tiled_copy_C_atom", "bank_conflicts",
    "BankConflicts", "banks_picture", "mma_atom_names",
]


def _layout(text):
    from .cute import Layout
    return Layout(text)


def _text(value):
    """A layout argument as CuTe text: a Layout, a str, or a shape tuple."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, tuple):
        return _tuple_text(value)
    if hasattr(value, "cute"):
        return value.cute
    return str(value)


def _tuple_text(t):
    if isinstance(t, int) and not isinstance(t, bool):
        return str(t)
    if isinstance(t, tuple):
        return "(" + ",".join(_tuple_text(x) for x in t) + ")"
    raise TypeError("expected ints and tuples of ints, got %s" %
                    type(t).__name__)


def _permutation_text(value):
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, (tuple, list)):
        parts = []
        for m in value:
            if m is None or m == "_":
                parts.append("_")
            elif isinstance(m, int) and not isinstance(m, bool):
                parts.append("_%d" % m)
            else:
                parts.append(_text(m))
        return "<" + ",".join(parts) + ">"
    raise TypeError("a permutation is text ('<_32,_32,_16>') or a tuple of "
                    "ints, layouts and None, got %s" % type(value).__name__)


class MMA_Atom:  # noqa: N801 (CuTe's name)
    """An MMA atom by its CuTe C++ name: ThrID, Shape_MNK, LayoutA/B/C_TV.

    MMA_Atom("SM90_64x128x16_F16F16F16_SS<GMMA::Major::K,GMMA::Major::MN>")
    """

    __slots__ = ("_atom",)

    def __init__(self, name: Union[MMA_Atom, str]):
        if isinstance(name, MMA_Atom):
            self._atom = name._atom
            return
        if not isinstance(name, str):
            raise TypeError("MMA_Atom takes the atom's C++ name, got %s" %
                            type(name).__name__)
        self._atom = _core.cute_find_mma_atom(name)

    @property
    def name(self) -> str:
        return self._atom.name

    @property
    def family(self) -> str:
        return self._atom.family

    @property
    def ThrID(self) -> Layout:  # noqa: N802
        return _layout(self._atom.thr_id)

    @property
    def Shape_MNK(self) -> Tuple[int, int, int]:  # noqa: N802
        return self._atom.shape_mnk

    @property
    def LayoutA_TV(self) -> Layout:  # noqa: N802
        return _layout(self._atom.a)

    @property
    def LayoutB_TV(self) -> Layout:  # noqa: N802
        return _layout(self._atom.b)

    @property
    def LayoutC_TV(self) -> Layout:  # noqa: N802
        return _layout(self._atom.c)

    def __str__(self):
        return str(self._atom)  # CuTe's print(), answers/cute.h

    def __repr__(self):
        return "cute.MMA_Atom(%r)" % self._atom.name

    def _repr_svg_(self) -> str:
        return make_tiled_mma(self).svg()


class Copy_Atom:  # noqa: N801 (CuTe's name)
    """A copy atom Copy_Atom<OP, T>: Copy_Atom("SM75_U32x4_LDSM_N", "half_t")
    or Copy_Atom("Copy_Atom<SM75_U32x4_LDSM_N, half_t>").

    ThrID, ValLayoutSrc/Dst/Ref (in values of T) and SrcLayout/DstLayout/
    RefLayout (in bits).
    """

    __slots__ = ("_atom",)

    def __init__(self, op: Union[Copy_Atom, str],
                 value_type: Optional[str] = None):
        if isinstance(op, Copy_Atom):
            self._atom = op._atom
            return
        if not isinstance(op, str):
            raise TypeError("Copy_Atom takes names, got %s" % type(op).__name__)
        if value_type is None:
            self._atom = _core.cute_find_copy_atom(op)
        else:
            self._atom = _core.cute_make_copy_atom(op, value_type)

    @property
    def name(self) -> str:
        return self._atom.name

    @property
    def ValType(self) -> str:  # noqa: N802
        return self._atom.value_type

    @property
    def ThrID(self) -> Layout:  # noqa: N802
        return _layout(self._atom.thr_id)

    @property
    def ValLayoutSrc(self) -> Layout:  # noqa: N802
        return _layout(self._atom.val_src)

    @property
    def ValLayoutDst(self) -> Layout:  # noqa: N802
        return _layout(self._atom.val_dst)

    @property
    def ValLayoutRef(self) -> Layout:  # noqa: N802
        return _layout(self._atom.val_ref)

    @property
    def SrcLayout(self) -> Layout:  # noqa: N802
        return _layout(self._atom.src)

    @property
    def DstLayout(self) -> Layout:  # noqa: N802
        return _layout(self._atom.dst)

    @property
    def RefLayout(self) -> Layout:  # noqa: N802
        return _layout(self._atom.ref)

    @property
    def NumValSrc(self) -> int:  # noqa: N802
        return self._atom.num_val_src

    @property
    def NumValDst(self) -> int:  # noqa: N802
        return self._atom.num_val_dst

    def __str__(self):
        return str(self._atom)  # CuTe's print(), answers/cute.h

    def __repr__(self):
        return "cute.Copy_Atom(%r)" % self._atom.name


class TiledMMA:
    """make_tiled_mma(atom, atom_layout, permutation)."""

    __slots__ = ("_tm",)

    def __init__(self, tm: Any):
        if not isinstance(tm, _core._TiledMma):
            raise TypeError("a TiledMMA is made by make_tiled_mma(atom, ...), "
                            "not from a %s" % type(tm).__name__)
        self._tm = tm

    @property
    def atom(self) -> MMA_Atom:
        a = MMA_Atom.__new__(MMA_Atom)
        a._atom = self._tm.atom
        return a

    @property
    def ThrLayoutVMNK(self) -> Layout:  # noqa: N802
        return _layout(self._tm.thr_layout_vmnk)

    def get_thr_layout_vmnk(self) -> Layout:
        return self.ThrLayoutVMNK

    @property
    def PermutationMNK(self) -> str:  # noqa: N802
        """The permutation as CuTe prints it, '(_32,_32,_16)' (a Tile: text)."""
        return self._tm.permutation

    @property
    def tile_shape(self) -> Tuple[int, int, int]:
        """(M, N, K) of the tile (CuTe's tile_shape(tiled_mma))."""
        return self._tm.tile_mnk

    TileShape_MNK = tile_shape

    def size(self) -> int:
        """The number of threads."""
        return self._tm.num_threads

    def get_layoutA_TV(self) -> Layout:  # noqa: N802
        return _layout(self._tm.layout_tv("A"))

    def get_layoutB_TV(self) -> Layout:  # noqa: N802
        return _layout(self._tm.layout_tv("B"))

    def get_layoutC_TV(self) -> Layout:  # noqa: N802
        return _layout(self._tm.layout_tv("C"))

    def thread_slice(self, thread: int) -> Dict[str, Coords]:
        """The tile coordinates thread `thread` holds, in value order:
        {"A": ((m,k), ...), "B": ((n,k), ...), "C": ((m,n), ...)}."""
        return {op: self._tm.slice(op, thread) for op in ("A", "B", "C")}

    def svg(self) -> str:
        """The A, B and C panels as `hlolayout cute draw-mma --svg` draws them."""
        return self._tm.picture(True, False)

    def picture(self, colour: bool = False) -> str:
        """The panels as terminal text."""
        return self._tm.picture(False, colour)

    def _repr_svg_(self) -> str:
        return self.svg()

    def __str__(self):
        return str(self._tm)  # CuTe's print(), answers/cute.h

    def __repr__(self):
        return "<cute.TiledMMA %s tile %s>" % (self._tm.atom.name,
                                                self._tm.tile_mnk)


class TiledCopy:
    """make_tiled_copy(...) and make_tiled_copy_A/B/C/C_atom(...)."""

    __slots__ = ("_tc",)

    def __init__(self, tc: Any):
        if not isinstance(tc, _core._TiledCopy):
            raise TypeError("a TiledCopy is made by make_tiled_copy(...) or "
                            "make_tiled_copy_A/B/C(...), not from a %s"
                            % type(tc).__name__)
        self._tc = tc

    @property
    def atom(self) -> Copy_Atom:
        a = Copy_Atom.__new__(Copy_Atom)
        a._atom = self._tc.atom
        return a

    @property
    def Tiler_MN(self) -> str:  # noqa: N802
        """The tile as CuTe prints it: a shape '(_32,_16)' or layouts."""
        return self._tc.tiler

    @property
    def TiledLayout_TV(self) -> Layout:  # noqa: N802
        return _layout(self._tc.tiled_layout_tv)

    def get_layoutS_TV(self) -> Layout:  # noqa: N802
        return _layout(self._tc.layout_s_tv)

    def get_layoutD_TV(self) -> Layout:  # noqa: N802
        return _layout(self._tc.layout_d_tv)

    def size(self) -> int:
        """The number of threads."""
        return self._tc.num_threads

    def thread_slice(self, thread: int) -> Dict[str, Coords]:
        """{"S": ((m,n), ...), "D": ((m,n), ...)}: what thread `thread`
        reads and writes, in value order."""
        return {"S": self._tc.slice(False, thread),
                "D": self._tc.slice(True, thread)}

    def bank_conflicts(self, smem: LayoutArg,
                       side: Optional[str] = None) -> BankConflicts:
        """The shared-memory bank conflicts of this copy on `smem`, as
        `hlolayout cute conflicts` counts them: a BankConflicts (its factor,
        transactions, worst bank, and every instruction's phases behind
        them).

        `smem`: a Layout or its text (swizzled and composed layouts too), a
        GMMA/UMMA shared-memory atom's name ("GMMA::Layout_K_SW128_Atom<
        half_t>", tiled to the copy's tile) or a Triton shared layout
        ("#ttg.nvmma_shared<{...}>" on the tile's shape); a named one must
        hold elements of the copy's value width. `side` is "S" or "D";
        default "D" for stmatrix and cp.async atoms, else "S"."""
        if side is None:
            op = self._tc.atom.op
            side = "D" if ("STSM" in op or "CP_ASYNC" in op) else "S"
        if side not in ("S", "D"):
            raise ValueError("side is 'S' or 'D', got %r" % (side,))
        return BankConflicts(self._tc.conflicts(_text(smem), side == "D"))

    def svg(self) -> str:
        return self._tc.picture(True, False)

    def picture(self, colour: bool = False) -> str:
        return self._tc.picture(False, colour)

    def _repr_svg_(self) -> str:
        return self.svg()

    def __str__(self):
        return str(self._tc)  # CuTe's print(), answers/cute.h

    def __repr__(self):
        return "<cute.TiledCopy %s tile %s>" % (self._tc.atom.name,
                                                self._tc.tiler)


class BankConflicts(Mapping[str, Any]):
    """Shared-memory bank conflicts of an access pattern, as `hlolayout cute
    conflicts` counts them (docs/cute.md, "Bank conflicts").

    The summary, as attributes:

    - `factor`: transactions / ideal (1.0: no conflict);
    - `transactions`: the shared-memory wavefronts every instruction of
      every warp takes (`wavefronts`, Nsight's name, is the same number),
      `ideal` the fewest they could take, `conflicts` the difference;
    - `worst_bank`: the bank holding the most distinct 4-byte words in one
      phase (None when no bank holds two), `worst_bank_words` that count
      (1 without conflicts) and `worst_bank_threads` the threads touching it;
    - `value_bits`, `threads_per_phase`.

    The detail behind it is `instructions` (each warp's instructions, their
    phases and the colliding banks, as `--json --all` prints them). A
    BankConflicts is also a read-only mapping with the keys of the dict
    earlier versions returned (`r["wavefronts"]`, `r["instructions"]`,
    `dict(r)`), so code written for the dict keeps working.

        >>> from hlolayout import cute
        >>> tm = cute.make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN", (2, 1, 1))
        >>> tc = cute.make_tiled_copy_A(
        ...     cute.Copy_Atom("SM75_U32x4_LDSM_N", "half_t"), tm)
        >>> r = tc.bank_conflicts("(32,16):(16,1)")
        >>> r
        BankConflicts(factor=2.0, transactions=16, ideal=8, worst_bank=0, worst_bank_words=2)
        >>> r.worst_bank_threads, r["wavefronts"]
        ((0, 4), 16)
        >>> tc.bank_conflicts("Sw<1,3,3> o _0 o (32,16):(16,1)").factor
        1.0
    """

    _KEYS = ("wavefronts", "ideal", "threads_per_phase", "value_bits",
             "instructions")
    factor: float
    transactions: int
    wavefronts: int
    ideal: int
    conflicts: int
    worst_bank: Optional[int]
    worst_bank_words: int
    worst_bank_threads: Tuple[int, ...]
    value_bits: int
    threads_per_phase: int
    instructions: List[Dict[str, Any]]

    def __init__(self, detail: Dict[str, Any]):
        self._d = detail
        self.transactions = self.wavefronts = detail["wavefronts"]
        self.ideal = detail["ideal"]
        self.conflicts = self.transactions - self.ideal
        self.factor = self.transactions / self.ideal if self.ideal else 1.0
        self.value_bits = detail["value_bits"]
        self.threads_per_phase = detail["threads_per_phase"]
        self.instructions = detail["instructions"]
        worst = None
        for ins in self.instructions:
            for phase in ins["phases"]:
                for c in phase["collisions"]:
                    if worst is None or len(c["words"]) > len(worst["words"]):
                        worst = c
        self.worst_bank = None if worst is None else worst["bank"]
        self.worst_bank_words = 1 if worst is None else len(worst["words"])
        self.worst_bank_threads = () if worst is None else tuple(
            worst["threads"])

    def __getitem__(self, key: str) -> Any:
        return self._d[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._KEYS)

    def __len__(self) -> int:
        return len(self._KEYS)

    def __repr__(self):
        return ("BankConflicts(factor=%r, transactions=%d, ideal=%d, "
                "worst_bank=%r, worst_bank_words=%d)" %
                (round(self.factor, 4), self.transactions, self.ideal,
                 self.worst_bank, self.worst_bank_words))


def make_tiled_mma(atom: Union[MMA_Atom, str],
                   atom_layout: Optional[LayoutArg] = None,
                   permutation: Optional[Union[str, Sequence[Any]]] = None
                   ) -> TiledMMA:
    """CuTe's make_tiled_mma: `atom` an MMA_Atom or its name, `atom_layout`
    a Layout, its text or a shape tuple ((2,2,1)), `permutation` text
    ('<_32,(_8,_2,_2):(_1,_16,_8),_>') or a tuple of ints, layouts and None.
    Every integer is static, as CuTe requires."""
    atom = MMA_Atom(atom)
    return TiledMMA(_core.cute_make_tiled_mma(atom._atom, _text(atom_layout),
                                              _permutation_text(permutation)))


def _copy_atom(atom):
    return atom if isinstance(atom, Copy_Atom) else Copy_Atom(atom)


def make_tiled_copy(copy_atom: Union[Copy_Atom, str], thr_layout: LayoutArg,
                    val_layout: LayoutArg) -> TiledCopy:
    """make_tiled_copy(copy_atom, thr_layout, val_layout): (m,n) -> thread and
    (m,n) -> value layouts (text, Layout or shape tuples)."""
    a = _copy_atom(copy_atom)
    return TiledCopy(_core.cute_make_tiled_copy(a._atom, _text(thr_layout),
                                                _text(val_layout)))


def _from_mma(copy_atom, tiled_mma, operand):
    if not isinstance(tiled_mma, TiledMMA):
        raise TypeError("expected a TiledMMA (make_tiled_mma), got %s" %
                        type(tiled_mma).__name__)
    a = _copy_atom(copy_atom)
    return TiledCopy(_core.cute_make_tiled_copy_from_mma(a._atom, tiled_mma._tm,
                                                         operand))


def make_tiled_copy_A(copy_atom: Union[Copy_Atom, str],  # noqa: N802
                      tiled_mma: TiledMMA) -> TiledCopy:
    return _from_mma(copy_atom, tiled_mma, "A")


def make_tiled_copy_B(copy_atom: Union[Copy_Atom, str],  # noqa: N802
                      tiled_mma: TiledMMA) -> TiledCopy:
    return _from_mma(copy_atom, tiled_mma, "B")


def make_tiled_copy_C(copy_atom: Union[Copy_Atom, str],  # noqa: N802
                      tiled_mma: TiledMMA) -> TiledCopy:
    return _from_mma(copy_atom, tiled_mma, "C")


def make_tiled_copy_C_atom(copy_atom: Union[Copy_Atom, str],  # noqa: N802
                           tiled_mma: TiledMMA) -> TiledCopy:
    return _from_mma(copy_atom, tiled_mma, "C_atom")


def bank_conflicts(smem: LayoutArg, tv: LayoutArg, tile: Tuple[int, int],
                   bits: Optional[int] = None, vector: int = 1) -> BankConflicts:
    """Bank conflicts of a bare TV layout ((thread, value) -> column-major
    index of the `tile` (M, N)) on shared memory `smem` (as for
    TiledCopy.bank_conflicts), `bits` per value (default: the element width
    a named `smem` gives), `vector` values per thread per instruction. A
    BankConflicts.

        >>> r = bank_conflicts("(32,32):(32,1)", "(32,1):(1,0)", (32, 32), 32)
        >>> r.factor, r.worst_bank, r.worst_bank_words
        (32.0, 0, 32)
    """
    rows, cols = tile
    return BankConflicts(_core.cute_tv_conflicts(
        _text(smem), _text(tv), int(rows), int(cols),
        0 if bits is None else int(bits), int(vector)))


def banks_picture(smem: LayoutArg, bits: int = 16, svg: bool = True) -> str:
    """A shared-memory layout coloured by bank, as SVG (or terminal text)."""
    return _core.cute_banks_picture(_text(smem), int(bits), bool(svg), False)


def mma_atom_names(limit: int = 100000) -> List[str]:
    """The MMA atom names the tables know, each family's first 4096
    (optional arguments in their shortest form), at most `limit` in all."""
    return _core.cute_mma_atom_names(int(limit))
