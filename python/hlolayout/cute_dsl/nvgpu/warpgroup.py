"""The twin of `cutlass.cute.nvgpu.warpgroup`: SM90's warpgroup MMAs (PTX's
`wgmma.mma_async`, CuTe's GMMA atoms) and the GMMA shared-memory layout
atoms.

A wgmma is M = 64 by N by K, where N is a multiple of 8 up to 256 (for the
8-bit integer kind: 8, 16, 24, 32, then multiples of 16; PTX ISA, wgmma
shapes) and K is 32 bytes of operand (16 for F16/BF16, 32 for the 8-bit
kinds). A may come from registers (RMEM) or shared memory (SMEM); the
8-bit kinds read both operands K-major (PTX: no transpose for them). The
atom is CuTe's (include/cute/arch/mma_sm90_gmma.hpp names, held by
hlolayout's tables); an A in registers is K-major there (the RS atoms
static_assert it), whatever a_major_mode says.

    >>> from hlolayout import cute_dsl as cute
    >>> wg = cute.nvgpu.warpgroup
    >>> cute.set_arch("sm_90a")
    >>> op = wg.MmaF16BF16Op(cute.Float16, cute.Float32, (64, 128, 16),
    ...                      wg.OperandSource.SMEM, cute.nvgpu.OperandMajorMode.K,
    ...                      cute.nvgpu.OperandMajorMode.K)
    >>> op._cpp_name()
    'SM90_64x128x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>'
"""

import enum

from .. import _ints
from .. import _numeric_types as _nt
from .._atoms import MmaOp
from ._base import (SM90A, Instruction, Named, OperandMajorMode, card, need,
                    need_arch, python_text, refuse)
from ._shapes import instruction_shape, drop_unit_value_mode

__all__ = ["OperandSource", "OperandMajorMode", "Field", "MmaF16BF16Op",
           "MmaF8Op", "MmaI8Op", "SmemLayoutAtomKind", "make_smem_layout_atom"]


class OperandSource(Named, enum.Enum):
    """Where operand A is read from: registers or shared memory."""

    RMEM = "rmem"
    SMEM = "smem"


class Field(Named, enum.Enum):
    """The field of a wgmma atom a kernel may set (documented)."""

    ACCUMULATE = "accum_c"


# The letters of CuTe's GMMA names (SM90_64x8x16_F32F16F16_SS: D, A, B).
_LETTERS = {"Float16": "F16", "BFloat16": "BF16", "Float32": "F32",
            "Float8E4M3FN": "E4M3", "Float8E5M2": "E5M2", "Int8": "S8",
            "Uint8": "U8", "Int32": "S32"}
_FP8 = (_nt.Float8E5M2, _nt.Float8E4M3FN)


class _Wgmma(Instruction, MmaOp):
    """A wgmma: two operand types, an accumulator type, M x N x K, where A
    is read from and how each operand is laid out."""

    _module = "warpgroup"
    _fields = ("a_dtype", "b_dtype", "acc_dtype", "shape_mnk", "a_src",
               "a_major_mode", "b_major_mode")
    _title = ""
    _k = 16

    def _make(self, a_dtype, b_dtype, acc_dtype, shape, a_src, a_major,
              b_major):
        self._keep(a_dtype=a_dtype, b_dtype=b_dtype, acc_dtype=acc_dtype,
                   shape_mnk=shape, a_src=a_src, a_major_mode=a_major,
                   b_major_mode=b_major)
        need_arch(self._label(), SM90A)
        for name in ("a_src", "a_major_mode", "b_major_mode"):
            kind = OperandSource if name == "a_src" else OperandMajorMode
            if not isinstance(getattr(self, name), kind):
                refuse(self, "%s must be a %s, got %r" % (
                    name, kind.__name__, getattr(self, name)))
        m, n, k = instruction_shape(self, shape, self._k)
        self._check_types()
        if m != 64:
            refuse(self, "M must be 64, got %s" % m)
        self._check_n(n)
        if k != self._k:
            refuse(self, "K must be %d, got %s" % (self._k, k))
        self._keep(shape_mnk=(m, n, k))

    def _check_n(self, n):
        if not (8 <= n <= 256 and n % 8 == 0):
            refuse(self, "N must be a multiple of 8 from 8 to 256, got %s" % n)

    def __str__(self):
        return card(self._title, [
            ("A data type", self.a_dtype), ("B data type", self.b_dtype),
            ("Accumulator data type", self.acc_dtype),
            ("A source location", self.a_src),
            ("A major mode", self.a_major_mode),
            ("B major mode", self.b_major_mode),
            ("Instruction shape MNK", python_text(self.shape_mnk))], 22)

    def _source(self):
        return "SS" if self.a_src is OperandSource.SMEM else "RS"

    def _dsl_tv(self, layout):
        """The DSL's GMMA atom with N = 8 drops the one-element repeat of
        its C layout (observed; CuTe's CLayout_64xN keeps N/8 = 1)."""
        return drop_unit_value_mode(layout)

    def _core_atom(self):
        from . import _shapes
        return _shapes.atom_as_printed(self, MmaOp._core_atom(self))

    def _eight_bit_k_major(self):
        if (self.a_major_mode is not OperandMajorMode.K or
                self.b_major_mode is not OperandMajorMode.K):
            refuse(self, "8-bit operands are read K-major only (PTX's wgmma "
                         "has no transpose for them), got A %s, B %s; the DSL "
                         "builds the atom all the same" % (
                             self.a_major_mode.name, self.b_major_mode.name))


class MmaF16BF16Op(_Wgmma):
    """wgmma with F16 operands (F16 or F32 accumulators) or BF16 operands
    (F32 accumulators), K = 16."""

    _title = "warpgroup F16/BF16 MMA Operation"

    def __init__(self, ab_dtype, acc_dtype, instruction_shape, a_src,
                 a_major_mode, b_major_mode):
        self._make(ab_dtype, ab_dtype, acc_dtype, instruction_shape, a_src,
                   a_major_mode, b_major_mode)

    def _check_types(self):
        need(self, "ab_dtype", self.a_dtype, (_nt.Float16, _nt.BFloat16))
        need(self, "acc_dtype", self.acc_dtype, (_nt.Float16, _nt.Float32))
        if self.a_dtype is _nt.BFloat16:
            need(self, "acc_dtype with BFloat16 operands", self.acc_dtype,
                 (_nt.Float32,))

    def _cpp_name(self):
        # CuTe's RS atoms read A K-major (static_assert in
        # mma_sm90_gmma.hpp); the DSL takes any a_major_mode there.
        a_major = ("K" if self.a_src is OperandSource.RMEM
                   else self.a_major_mode.name)
        ab, c = _LETTERS[self.a_dtype.name], _LETTERS[self.acc_dtype.name]
        return "SM90_64x%dx16_%s%s%s_%s<GMMA::Major::%s,GMMA::Major::%s>" % (
            self.shape_mnk[1], c, ab, ab, self._source(), a_major,
            self.b_major_mode.name)


class MmaF8Op(_Wgmma):
    """wgmma with E4M3/E5M2 operands (any pair) and F16 or F32
    accumulators, K = 32."""

    _title = "warpgroup F8 MMA Operation"
    _k = 32

    def __init__(self, a_dtype, b_dtype, acc_dtype, instruction_shape,
                 a_src, a_major_mode, b_major_mode):
        self._make(a_dtype, b_dtype, acc_dtype, instruction_shape, a_src,
                   a_major_mode, b_major_mode)

    def _check_types(self):
        need(self, "a_dtype", self.a_dtype, _FP8)
        need(self, "b_dtype", self.b_dtype, _FP8)
        need(self, "acc_dtype", self.acc_dtype, (_nt.Float16, _nt.Float32))

    def _cpp_name(self):
        self._eight_bit_k_major()
        return "SM90_64x%dx32_%s%s%s_%s_TN<>" % (
            self.shape_mnk[1], _LETTERS[self.acc_dtype.name],
            _LETTERS[self.a_dtype.name], _LETTERS[self.b_dtype.name],
            self._source())


class MmaI8Op(_Wgmma):
    """wgmma with Int8/Uint8 operands (any pair) and Int32 accumulators,
    K = 32; N is 8, 16, 24, 32 or a multiple of 16 up to 256."""

    _title = "warpgroup I8 MMA Operation"
    _k = 32

    def __init__(self, a_dtype, b_dtype, acc_dtype, instruction_shape,
                 a_src, a_major_mode, b_major_mode):
        self._make(a_dtype, b_dtype, acc_dtype, instruction_shape, a_src,
                   a_major_mode, b_major_mode)

    def _check_types(self):
        need(self, "a_dtype", self.a_dtype, (_ints.Int8, _ints.Uint8))
        need(self, "b_dtype", self.b_dtype, (_ints.Int8, _ints.Uint8))
        need(self, "acc_dtype", self.acc_dtype, (_ints.Int32,))

    def _check_n(self, n):
        _Wgmma._check_n(self, n)
        if n > 32 and n % 16:
            refuse(self, "N above 32 must be a multiple of 16 for 8-bit "
                         "integers, got %s" % n)

    def _cpp_name(self):
        self._eight_bit_k_major()
        return "SM90_64x%dx32_S32%s%s_%s_TN" % (
            self.shape_mnk[1], _LETTERS[self.a_dtype.name],
            _LETTERS[self.b_dtype.name], self._source())


class SmemLayoutAtomKind(Named, enum.Enum):
    """The GMMA shared-memory layout atoms: major mode and swizzle."""

    MN_INTER = 1
    MN_SW32 = 2
    MN_SW64 = 3
    MN_SW128 = 4
    K_INTER = 5
    K_SW32 = 6
    K_SW64 = 7
    K_SW128 = 8


def make_smem_layout_atom(kind, element_type):
    """The GMMA shared-memory layout atom of `kind` for `element_type`
    (_smem.py: the rule of mma_traits_sm90_gmma.hpp's atoms in bits)."""
    from .. import _smem
    return _smem.layout_atom(kind, SmemLayoutAtomKind, element_type,
                             "warpgroup.make_smem_layout_atom")
