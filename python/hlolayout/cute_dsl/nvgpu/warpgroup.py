"""The twin of `cutlass.cute.nvgpu.warpgroup`: the SM90 warpgroup MMAs
(wgmma, CuTe's GMMA atoms) and the GMMA shared-memory layout atoms.

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

from .. import _numeric_types as _nt
from .. import _ints
from .._atoms import MmaOp, require_arch
from ._common import (DSLUserCodeError, EnumText, OperandMajorMode, frozen,
                      shape_text)

__all__ = ["OperandSource", "OperandMajorMode", "Field", "MmaF16BF16Op",
           "MmaF8Op", "MmaI8Op", "SmemLayoutAtomKind", "make_smem_layout_atom"]


class OperandSource(EnumText, enum.Enum):
    """Where operand A comes from: registers or a shared-memory
    descriptor."""

    RMEM = "rmem"
    SMEM = "smem_desc"


class Field(EnumText, enum.Enum):
    ACCUMULATE = "accum_c"


_TYPES = {"Float16": "F16", "BFloat16": "BF16", "Float32": "F32",
          "Float8E4M3FN": "E4M3", "Float8E5M2": "E5M2", "Int8": "S8",
          "Uint8": "U8", "Int32": "S32"}


class _WgMma(frozen, MmaOp):
    """wgmma: M = 64, 8 <= N <= 256 with N % 8 == 0, K by the types."""

    _fields = ("a_dtype", "b_dtype", "acc_dtype", "shape_mnk", "a_src",
               "a_major_mode", "b_major_mode")
    descriptive_name = ""
    _k = 16

    def _init(self, a_dtype, b_dtype, acc_dtype, shape, a_src, a_major,
              b_major):
        shape = tuple(shape) if isinstance(shape, (tuple, list)) else shape
        self._set(a_dtype=a_dtype, b_dtype=b_dtype, acc_dtype=acc_dtype,
                  shape_mnk=shape, a_src=a_src, a_major_mode=a_major,
                  b_major_mode=b_major)
        require_arch(("sm_90a",), "warpgroup MMAs (wgmma)")
        if not isinstance(a_src, OperandSource):
            raise DSLUserCodeError("a_src must be a warpgroup.OperandSource")
        for m, n in ((a_major, "a_major_mode"), (b_major, "b_major_mode")):
            if not isinstance(m, OperandMajorMode):
                raise DSLUserCodeError("%s must be a "
                                       "cute.nvgpu.OperandMajorMode" % n)
        if (not isinstance(shape, tuple) or len(shape) not in (2, 3) or
                any(isinstance(x, tuple) for x in shape)):
            raise DSLUserCodeError("shape_mnk must be a flat (M, N) or "
                                   "(M, N, K) tuple, got %s" % (shape,))
        m, n = shape[0], shape[1]
        if m != 64:
            raise DSLUserCodeError("wgmma: M must be 64, got %s" % m)
        if n < 8 or n > 256 or n % 8:
            raise DSLUserCodeError("wgmma: N must satisfy 8 <= N <= 256 and "
                                   "N %% 8 == 0, got %s" % n)
        self._verify()
        if len(shape) == 2:
            self._set(shape_mnk=(m, n, self._k))
        if self.shape_mnk[2] != self._k:
            raise DSLUserCodeError("%s: K must be %d, got %s" % (
                type(self).__name__, self._k, self.shape_mnk[2]))

    def _verify(self):
        pass

    def __str__(self):
        return (self.descriptive_name +
                "\n  A data type           = %s"
                "\n  B data type           = %s"
                "\n  Accumulator data type = %s"
                "\n  A source location     = %s"
                "\n  A major mode          = %s"
                "\n  B major mode          = %s"
                "\n  Instruction shape MNK = %s" %
                (self.a_dtype, self.b_dtype, self.acc_dtype, self.a_src,
                 self.a_major_mode, self.b_major_mode,
                 shape_text(self.shape_mnk)))

    def _core_atom(self):
        """CuTe's atom, with the C layout as the DSL has it (below), so that
        tiled MMAs are built from the DSL's atom."""
        from .. import _atoms
        atom = _atoms.MmaOp._core_atom(self)
        c = self._dsl_tv(_atoms._layout(atom.c))
        if str(c) == str(_atoms._layout(atom.c)):
            return atom
        cpp = c.sh, c.st
        text = "%s:%s" % (_static(cpp[0]), _static(cpp[1]))
        return _atoms._core.cute_mma_atom_from_layouts(
            atom.name, atom.family, atom.thr_id,
            "(_%d,_%d,_%d)" % tuple(atom.shape_mnk), atom.a, atom.b, text)

    def _dsl_tv(self, layout):
        """The DSL drops the size-1 repeat of N = 8 from the C layout
        ((_2,_2,_1) in CuTe's C++ is (2,2) in the DSL): the same
        function."""
        from .._objects import Layout
        shape, stride = layout.sh, layout.st
        if (type(shape) is tuple and len(shape) == 2 and
                type(shape[1]) is tuple and len(shape[1]) == 3 and
                shape[1][2] == 1):
            return Layout((shape[0], shape[1][:2]),
                          (stride[0], stride[1][:2]))
        return layout

    def _src(self):
        return "SS" if self.a_src is OperandSource.SMEM else "RS"

    def _majors_tn(self):
        if (self.a_major_mode is not OperandMajorMode.K or
                self.b_major_mode is not OperandMajorMode.K):
            raise DSLUserCodeError(
                "%s: wgmma with 8-bit operands reads A and B K-major only "
                "(PTX: no transpose for .e4m3/.e5m2/.s8/.u8; the DSL builds "
                "the atom anyway)" % type(self).__name__)


class MmaF16BF16Op(_WgMma):
    descriptive_name = "warpgroup F16/BF16 MMA Operation"

    def __init__(self, ab_dtype, acc_dtype, instruction_shape, a_src,
                 a_major_mode, b_major_mode):
        self._init(ab_dtype, ab_dtype, acc_dtype, instruction_shape, a_src,
                   a_major_mode, b_major_mode)

    def _verify(self):
        if self.a_dtype not in (_nt.Float16, _nt.BFloat16):
            raise DSLUserCodeError("warpgroup.MmaF16BF16Op: ab_dtype must be "
                                   "Float16 or BFloat16")
        if self.acc_dtype not in (_nt.Float16, _nt.Float32):
            raise DSLUserCodeError("warpgroup.MmaF16BF16Op: acc_dtype must be "
                                   "Float16 or Float32")
        if self.a_dtype is _nt.BFloat16 and self.acc_dtype is not _nt.Float32:
            raise DSLUserCodeError("warpgroup.MmaF16BF16Op: BFloat16 "
                                   "operands accumulate in Float32")

    def _cpp_name(self):
        a = _TYPES[self.a_dtype.name]
        c = _TYPES[self.acc_dtype.name]
        # An A operand in registers has no major mode: CuTe's RS atoms
        # take GMMA::Major::K (the DSL ignores a_major_mode there).
        a_major = ("K" if self.a_src is OperandSource.RMEM
                   else self.a_major_mode.name)
        return "SM90_64x%dx16_%s%s%s_%s<GMMA::Major::%s,GMMA::Major::%s>" % (
            self.shape_mnk[1], c, a, a, self._src(), a_major,
            self.b_major_mode.name)


class MmaF8Op(_WgMma):
    descriptive_name = "warpgroup F8 MMA Operation"
    _k = 32

    def __init__(self, a_dtype, b_dtype, acc_dtype, instruction_shape,
                 a_src, a_major_mode, b_major_mode):
        self._init(a_dtype, b_dtype, acc_dtype, instruction_shape, a_src,
                   a_major_mode, b_major_mode)

    def _verify(self):
        for t, n in ((self.a_dtype, "a_dtype"), (self.b_dtype, "b_dtype")):
            if t not in (_nt.Float8E5M2, _nt.Float8E4M3FN):
                raise DSLUserCodeError("warpgroup.MmaF8Op: %s must be "
                                       "Float8E5M2 or Float8E4M3FN" % n)
        if self.acc_dtype not in (_nt.Float16, _nt.Float32):
            raise DSLUserCodeError("warpgroup.MmaF8Op: acc_dtype must be "
                                   "Float16 or Float32")

    def _cpp_name(self):
        self._majors_tn()
        return "SM90_64x%dx32_%s%s%s_%s_TN<>" % (
            self.shape_mnk[1], _TYPES[self.acc_dtype.name],
            _TYPES[self.a_dtype.name], _TYPES[self.b_dtype.name], self._src())


class MmaI8Op(_WgMma):
    descriptive_name = "warpgroup I8 MMA Operation"
    _k = 32

    def __init__(self, a_dtype, b_dtype, acc_dtype, instruction_shape,
                 a_src, a_major_mode, b_major_mode):
        self._init(a_dtype, b_dtype, acc_dtype, instruction_shape, a_src,
                   a_major_mode, b_major_mode)

    def _verify(self):
        for t, n in ((self.a_dtype, "a_dtype"), (self.b_dtype, "b_dtype")):
            if t not in (_ints.Int8, _ints.Uint8):
                raise DSLUserCodeError("warpgroup.MmaI8Op: %s must be Int8 or "
                                       "Uint8" % n)
        if self.acc_dtype is not _ints.Int32:
            raise DSLUserCodeError("warpgroup.MmaI8Op: acc_dtype must be "
                                   "Int32")
        n = self.shape_mnk[1]
        if not (n in (8, 16, 24, 32) or n % 16 == 0):
            raise DSLUserCodeError("warpgroup.MmaI8Op: N must be 8, 16, 24, "
                                   "32 or a multiple of 16, got %d" % n)

    def _cpp_name(self):
        self._majors_tn()
        return "SM90_64x%dx32_S32%s%s_%s_TN" % (
            self.shape_mnk[1], _TYPES[self.a_dtype.name],
            _TYPES[self.b_dtype.name], self._src())


class SmemLayoutAtomKind(EnumText, enum.Enum):
    """The GMMA shared-memory layout atoms: major mode and swizzle width."""

    MN_INTER = 1
    MN_SW32 = 2
    MN_SW64 = 3
    MN_SW128 = 4
    K_INTER = 5
    K_SW32 = 6
    K_SW64 = 7
    K_SW128 = 8


def make_smem_layout_atom(kind, element_type):
    """The GMMA shared-memory layout atom of `kind` for `element_type`, a
    composed layout (swizzle o 0 o layout, in elements) or, for the INTER
    atoms, a plain layout, as the DSL makes it."""
    from .. import _smem
    return _smem.gmma_atom(kind, element_type)


def _static(t):
    if type(t) is tuple:
        return "(" + ",".join(_static(e) for e in t) + ")"
    return "_%d" % t
