"""The twin of `cutlass.cute.nvgpu.warp`: the warp-level MMAs (PTX's
`mma.sync`) and the shared-memory matrix loads and stores (`ldmatrix`,
`stmatrix`).

Each class is a row of a table: its parameters, the values each may take
(the DSL's documentation lists the data types and shapes; the refusals
were checked on every point of a grid, differential/cute_dsl/
domain_cases.py), its printed title, and the CuTe C++ atom that holds its
layouts (named as in include/cute/arch/mma_sm80.hpp, mma_sm89.hpp,
mma_sm120.hpp, copy_sm75.hpp, copy_sm90.hpp, copy_sm100.hpp).

    >>> from hlolayout import cute_dsl as cute
    >>> op = cute.nvgpu.warp.MmaF16BF16Op(cute.Float16, cute.Float32, (16, 8, 8))
    >>> op._cpp_name()
    'SM80_16x8x8_F32F16F16F32_TN'
"""

import enum

from .. import _numeric_types as _nt
from .._atoms import CopyOp, MmaOp
from ._base import (SM120_FAMILY, Instruction, Named, card, need,
                    need_arch, python_text, refuse)

__all__ = ["Field", "MmaF16BF16Op", "MmaTF32Op", "MmaFP8Op", "MmaMXF4Op",
           "MmaMXF4NVF4Op", "MmaMXF8Op", "MmaMXF8F6F4Op",
           "MXF8F6F4_SUPPORTED_PAIRS", "LdMatrix8x8x16bOp",
           "LdMatrix8x16x8bOp", "LdMatrix16x8x8bOp", "LdMatrix16x16x8bOp",
           "StMatrix8x8x16bOp", "StMatrix16x8x8bOp"]


class Field(Named, enum.Enum):
    """The fields of a warp MMA atom a kernel may set (documented)."""

    ACCUMULATE = "accum_c"
    SFA = "sf_a"
    SFB = "sf_b"


# The letters of CuTe's MMA names (SM80_16x8x8_F32F16F16F32_TN: D, A, B, C).
_LETTERS = {"Float16": "F16", "BFloat16": "BF16", "Float32": "F32",
            "Float8E4M3FN": "E4M3", "Float8E5M2": "E5M2"}
# CuTe's C++ element types (include/cutlass/float8.h, float_subbyte.h).
_CPP = {"Float4E2M1FN": "float_e2m1_t", "Float8E4M3FN": "float_e4m3_t",
        "Float8E5M2": "float_e5m2_t", "Float8E8M0FNU": "float_ue8m0_t"}
_FP8 = (_nt.Float8E4M3FN, _nt.Float8E5M2)


class _WarpMma(Instruction, MmaOp):
    """A warp MMA: a title, card rows, and its CuTe atom's name."""

    _module = "warp"
    _title = ""

    def _rows(self):
        return [("A/B data type", self.ab_dtype),
                ("Accumulator data type", self.acc_dtype),
                ("Instruction shape MNK", python_text(self.shape_mnk))]

    def __str__(self):
        return card(self._title, self._rows(), 22)

    def _sm8x_name(self, prefix):
        """SM80/SM89 names: <prefix>_16x8x<K>_<D><A><B><C>_TN."""
        a, c = _LETTERS[self.ab_dtype.name], _LETTERS[self.acc_dtype.name]
        return "%s_16x8x%d_%s%s%s%s_TN" % (prefix, self.shape_mnk[2], c, a,
                                           a, c)


class MmaF16BF16Op(_WarpMma):
    """mma.sync with F16 operands (F16 or F32 accumulators) or BF16
    operands (F32 accumulators), M16N8K8 or M16N8K16."""

    _fields = ("ab_dtype", "acc_dtype", "shape_mnk")
    _title = "warp-level F16/BF16 MMA Operation"

    def __init__(self, ab_dtype, acc_dtype, shape_mnk):
        self._keep(ab_dtype=ab_dtype, acc_dtype=acc_dtype,
                   shape_mnk=shape_mnk)
        need(self, "ab_dtype", ab_dtype, (_nt.Float16, _nt.BFloat16))
        need(self, "acc_dtype", acc_dtype, (_nt.Float16, _nt.Float32))
        if ab_dtype is _nt.BFloat16:
            need(self, "acc_dtype with BFloat16 operands", acc_dtype,
                 (_nt.Float32,))
        need(self, "shape_mnk", shape_mnk, ((16, 8, 8), (16, 8, 16)))

    def _cpp_name(self):
        return self._sm8x_name("SM80")


class MmaTF32Op(_WarpMma):
    """mma.sync with TF32 operands and F32 accumulators, M16N8K4 or
    M16N8K8."""

    _fields = ("shape_mnk",)
    _title = "warp-level TF32 MMA Operation"

    def __init__(self, shape_mnk):
        self._keep(shape_mnk=shape_mnk, ab_dtype=_nt.TFloat32,
                   acc_dtype=_nt.Float32)
        need(self, "shape_mnk", shape_mnk, ((16, 8, 4), (16, 8, 8)))

    def _cpp_name(self):
        return "SM80_16x8x%d_F32TF32TF32F32_TN" % self.shape_mnk[2]


class MmaFP8Op(_WarpMma):
    """SM89's mma.sync with E4M3 or E5M2 operands and F32 or F16
    accumulators, M16N8K32 or M16N8K16 (CuTe's C++ has only K32; the K16
    atoms are hlolayout's, from PTX's m16n8k16 fragments)."""

    _fields = ("ab_dtype", "acc_dtype", "shape_mnk")
    _title = "warp-level FP8 MMA Operation (SM89)"

    def __init__(self, ab_dtype, acc_dtype, shape_mnk):
        self._keep(ab_dtype=ab_dtype, acc_dtype=acc_dtype,
                   shape_mnk=shape_mnk)
        need(self, "ab_dtype", ab_dtype, _FP8)
        need(self, "acc_dtype", acc_dtype, (_nt.Float32, _nt.Float16))
        need(self, "shape_mnk", shape_mnk, ((16, 8, 32), (16, 8, 16)))

    def _cpp_name(self):
        return self._sm8x_name("SM89")


class _ScaledMma(_WarpMma):
    """SM120's block-scaled mma.sync: a scale factor of sf_type for every
    sf_vec_size values along K; the K extent follows the operand type
    (64 for E2M1, 32 for the FP8 types)."""

    _fields = ("ab_dtype", "acc_dtype", "sf_type")
    _title = "warp-level MXF4/MXF4NVF4/MXF8 MMA Operation"
    _vector = 32
    _scale = _nt.Float8E8M0FNU

    def __init__(self, ab_dtype, acc_dtype, sf_type):
        self._keep(ab_dtype=ab_dtype, acc_dtype=acc_dtype, sf_type=sf_type,
                   shape_mnk=self._shape, sf_vec_size=self._vector,
                   use_sf_layout_TV=False)
        need_arch(self._label(), SM120_FAMILY)
        need(self, "ab_dtype", ab_dtype, (_nt.Float4E2M1FN,) + _FP8)
        k = 64 if ab_dtype is _nt.Float4E2M1FN else 32
        if self._shape[2] != k:
            refuse(self, "%s operands take shape_mnk (16, 8, %d), not %s" %
                   (ab_dtype, k, python_text(self._shape)))
        need(self, "acc_dtype", acc_dtype, (_nt.Float32,))
        need(self, "sf_type", sf_type, (self._scale,))

    def _rows(self):
        return _WarpMma._rows(self) + [("Vector size", self.sf_vec_size),
                                       ("SF data type", self.sf_type)]

    def _cpp_name(self):
        a = _CPP[self.ab_dtype.name]
        return "SM120_16x8x%d_TN_VS<%s,%s,float,%s,%d>" % (
            self._shape[2], a, a, "float_ue4m3_t" if self._scale is
            _nt.Float8E4M3FN else "float_ue8m0_t", self._vector)


class MmaMXF4Op(_ScaledMma):
    """MXF4: E2M1 operands, M16N8K64, E8M0 scales for every 32 values."""

    _shape = (16, 8, 64)


class MmaMXF4NVF4Op(_ScaledMma):
    """NVF4: E2M1 operands, M16N8K64, E4M3 scales for every 16 values."""

    _shape = (16, 8, 64)
    _vector = 16
    _scale = _nt.Float8E4M3FN


class MmaMXF8Op(_ScaledMma):
    """MXF8: E4M3 or E5M2 operands, M16N8K32, E8M0 scales for every 32
    values."""

    _shape = (16, 8, 32)


# The operand pairs of the mixed MX MMA: one E2M1 operand with one FP8
# operand (same types are MmaMXF4Op's and MmaMXF8Op's; the 6-bit types and
# E4M3 with E5M2 are refused).
MXF8F6F4_SUPPORTED_PAIRS = frozenset(
    pair for f8 in _FP8 for pair in ((_nt.Float4E2M1FN, f8),
                                     (f8, _nt.Float4E2M1FN)))


class MmaMXF8F6F4Op(_WarpMma):
    """SM120's mixed block-scaled mma.sync: an E2M1 operand with an E4M3 or
    E5M2 one, M16N8K32, E8M0 scales for every 32 values."""

    _fields = ("a_dtype", "b_dtype", "acc_dtype", "sf_type")
    _title = "warp-level MXF8F6F4 mixed-precision MMA Operation"

    def __init__(self, a_dtype, b_dtype, acc_dtype, sf_type):
        self._keep(a_dtype=a_dtype, b_dtype=b_dtype, acc_dtype=acc_dtype,
                   sf_type=sf_type, shape_mnk=(16, 8, 32), sf_vec_size=32,
                   use_sf_layout_TV=False)
        need_arch(self._label(), SM120_FAMILY)
        need(self, "acc_dtype", acc_dtype, (_nt.Float32,))
        need(self, "sf_type", sf_type, (_nt.Float8E8M0FNU,))
        if (a_dtype, b_dtype) not in MXF8F6F4_SUPPORTED_PAIRS:
            refuse(self, "(a_dtype, b_dtype) = (%s, %s) is not a supported "
                         "pair: one Float4E2M1FN operand and one Float8E4M3FN "
                         "or Float8E5M2 operand" % (a_dtype, b_dtype))

    def _rows(self):
        return [("A data type", self.a_dtype), ("B data type", self.b_dtype),
                ("Accumulator data type", self.acc_dtype),
                ("Instruction shape MNK", python_text(self.shape_mnk)),
                ("Vector size", self.sf_vec_size),
                ("SF data type", self.sf_type)]

    def _cpp_name(self):
        return "SM120_16x8x32_TN_VS<%s,%s,float,float_ue8m0_t,32>" % (
            _CPP[self.a_dtype.name], _CPP[self.b_dtype.name])


class _MatrixCopy(Instruction, CopyOp):
    """An ldmatrix or stmatrix: num_matrices matrices a warp, transposed or
    not, 8-bit rows optionally unpacked from 4 or 6 bits.

    Each class says which counts it takes, whether it must, may or may not
    transpose, whether it may unpack, and its CuTe atom for (transpose,
    count). An unpacking load has the layouts of the plain one (observed:
    the DSL prints the same atom with and without unpack_bits)."""

    _module = "warp"
    _fields = ("transpose", "num_matrices", "unpack_bits")
    _counts = (1, 2, 4)
    _transposes = (False, True)
    _unpacks = False

    def __init__(self, transpose=False, num_matrices=1, unpack_bits=None):
        self._keep(transpose=transpose, num_matrices=num_matrices,
                   unpack_bits=unpack_bits)
        if not isinstance(transpose, bool):
            refuse(self, "transpose must be a bool, got %r" % (transpose,))
        if transpose not in self._transposes:
            refuse(self, "transpose must be %s" % self._transposes[0])
        if unpack_bits is not None and not self._unpacks:
            refuse(self, "takes no unpack_bits (it does not unpack)")
        need(self, "unpack_bits", unpack_bits, (None, 4, 6))
        need(self, "num_matrices", num_matrices, self._counts,
             " or ".join(str(n) for n in self._counts))

    def __str__(self):
        lines = ["%s Copy Operation" % type(self).__name__[:-2],
                 "  number of matrices = %d" % self.num_matrices]
        if self.transpose:
            lines.append("  transposed")
        if self.unpack_bits is not None:
            lines.append("  unpack %db to 8b" % self.unpack_bits)
        return "\n".join(lines)

    def _cpp_op(self, value_type, **kwargs):
        # Other copy arguments (num_bits_per_copy, ...) change nothing
        # here (observed: the DSL makes the same atom).
        return self._atom(self.transpose, self.num_matrices)


class LdMatrix8x8x16bOp(_MatrixCopy):
    """ldmatrix .m8n8 .b16: SM75_U32xN_LDSM_N, transposed SM75_U16x2N_LDSM_T
    (include/cute/arch/copy_sm75.hpp)."""

    @staticmethod
    def _atom(t, n):
        return "SM75_U16x%d_LDSM_T" % (2 * n) if t else \
            "SM75_U32x%d_LDSM_N" % n


class LdMatrix8x16x8bOp(_MatrixCopy):
    """ldmatrix .m8n16 of 8-bit rows (unpacked from 4 or 6 bits), never
    transposed; it moves what SM75_U32xN_LDSM_N moves."""

    _transposes = (False,)
    _unpacks = True

    @staticmethod
    def _atom(t, n):
        return "SM75_U32x%d_LDSM_N" % n


class LdMatrix16x8x8bOp(_MatrixCopy):
    """ldmatrix .m16n8 .trans .b8, 2 or 4 matrices: SM100_U8x(4N)_LDSM_T
    (include/cute/arch/copy_sm100.hpp)."""

    _counts = (2, 4)
    _transposes = (True,)
    _unpacks = True

    @staticmethod
    def _atom(t, n):
        return "SM100_U8x%d_LDSM_T" % (4 * n)


class LdMatrix16x16x8bOp(_MatrixCopy):
    """ldmatrix .m16n16 .trans .b8, 1 or 2 matrices (hlolayout's
    SM100_U8x(8N)_LDSM_T_M16N16 atoms: PTX's m16n16 fragments)."""

    _counts = (1, 2)
    _transposes = (True,)
    _unpacks = True

    @staticmethod
    def _atom(t, n):
        return "SM100_U8x%d_LDSM_T_M16N16" % (8 * n)


class StMatrix8x8x16bOp(_MatrixCopy):
    """stmatrix .m8n8 .b16: SM90_U32xN_STSM_N, transposed SM90_U16x2N_STSM_T
    (include/cute/arch/copy_sm90.hpp)."""

    @staticmethod
    def _atom(t, n):
        return "SM90_U16x%d_STSM_T" % (2 * n) if t else \
            "SM90_U32x%d_STSM_N" % n


class StMatrix16x8x8bOp(_MatrixCopy):
    """stmatrix .m16n8 .trans .b8: SM100_U8x(4N)_STSM_T
    (include/cute/arch/copy_sm100.hpp)."""

    _transposes = (True,)

    @staticmethod
    def _atom(t, n):
        return "SM100_U8x%d_STSM_T" % (4 * n)
