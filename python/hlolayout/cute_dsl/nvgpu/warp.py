"""The twin of `cutlass.cute.nvgpu.warp`: warp-level MMAs (mma.sync: SM80
F16/BF16 and TF32, SM89 FP8, SM120 block-scaled MX) and the ldmatrix /
stmatrix copies, by the DSL's classes, each naming the CuTe atom with its
layouts.

    >>> from hlolayout import cute_dsl as cute
    >>> op = cute.nvgpu.warp.MmaF16BF16Op(cute.Float16, cute.Float32, (16, 8, 8))
    >>> op._cpp_name()
    'SM80_16x8x8_F32F16F16F32_TN'
"""

from .. import _numeric_types as _nt
from .._atoms import CopyOp, MmaOp, require_arch
from ._common import DSLUserCodeError, frozen, shape_text

__all__ = ["MmaF16BF16Op", "MmaTF32Op", "MmaFP8Op", "MmaMXF4Op",
           "MmaMXF4NVF4Op", "MmaMXF8Op", "MmaMXF8F6F4Op",
           "MXF8F6F4_SUPPORTED_PAIRS", "LdMatrix8x8x16bOp",
           "LdMatrix8x16x8bOp", "LdMatrix16x8x8bOp", "LdMatrix16x16x8bOp",
           "StMatrix8x8x16bOp", "StMatrix16x8x8bOp"]

_SM120 = ("sm_120a", "sm_120f", "sm_121a", "sm_121f")

_SHORT = {"Float16": "F16", "BFloat16": "BF16", "Float32": "F32",
          "Float8E4M3FN": "E4M3", "Float8E5M2": "E5M2"}


def _shape(t):
    return tuple(t) if isinstance(t, (tuple, list)) else t


class MmaF16BF16Op(frozen, MmaOp):
    """mma.sync with F16 or BF16 operands: shape (16,8,8) or (16,8,16), F16
    or F32 accumulators (F32 for BF16)."""

    _fields = ("ab_dtype", "acc_dtype", "shape_mnk")

    def __init__(self, ab_dtype, acc_dtype, shape_mnk):
        self._set(ab_dtype=ab_dtype, acc_dtype=acc_dtype,
                  shape_mnk=_shape(shape_mnk))
        if ab_dtype not in (_nt.Float16, _nt.BFloat16):
            raise DSLUserCodeError("warp.MmaF16BF16Op: ab_dtype must be "
                                   "Float16 or BFloat16")
        if acc_dtype not in (_nt.Float16, _nt.Float32):
            raise DSLUserCodeError("warp.MmaF16BF16Op: acc_dtype must be "
                                   "Float16 or Float32")
        if ab_dtype is _nt.BFloat16 and acc_dtype is not _nt.Float32:
            raise DSLUserCodeError("warp.MmaF16BF16Op: BFloat16 operands "
                                   "accumulate in Float32")
        if self.shape_mnk not in ((16, 8, 8), (16, 8, 16)):
            raise DSLUserCodeError("warp.MmaF16BF16Op: shape_mnk must be "
                                   "(16,8,8) or (16,8,16)")

    def __str__(self):
        return ("warp-level F16/BF16 MMA Operation"
                "\n  A/B data type         = %s"
                "\n  Accumulator data type = %s"
                "\n  Instruction shape MNK = %s" %
                (self.ab_dtype, self.acc_dtype, shape_text(self.shape_mnk)))

    def _cpp_name(self):
        a = _SHORT[self.ab_dtype.name]
        c = _SHORT[self.acc_dtype.name]
        return "SM80_16x8x%d_%s%s%s%s_TN" % (self.shape_mnk[2], c, a, a, c)


class MmaTF32Op(frozen, MmaOp):
    """mma.sync with TF32 operands and F32 accumulators, (16,8,4) or
    (16,8,8)."""

    _fields = ("shape_mnk",)

    def __init__(self, shape_mnk):
        self._set(shape_mnk=_shape(shape_mnk))
        if self.shape_mnk not in ((16, 8, 4), (16, 8, 8)):
            raise DSLUserCodeError("warp.MmaTF32Op: shape_mnk must be "
                                   "(16,8,4) or (16,8,8)")

    def __str__(self):
        return ("warp-level TF32 MMA Operation"
                "\n  A/B data type         = TFloat32"
                "\n  Accumulator data type = Float32"
                "\n  Instruction shape MNK = %s" %
                shape_text(self.shape_mnk))

    def _cpp_name(self):
        return "SM80_16x8x%d_F32TF32TF32F32_TN" % self.shape_mnk[2]


class MmaFP8Op(frozen, MmaOp):
    """SM89 mma.sync with FP8 operands (E4M3 or E5M2), F16 or F32
    accumulators, (16,8,16) or (16,8,32)."""

    _fields = ("ab_dtype", "acc_dtype", "shape_mnk")

    def __init__(self, ab_dtype, acc_dtype, shape_mnk):
        self._set(ab_dtype=ab_dtype, acc_dtype=acc_dtype,
                  shape_mnk=_shape(shape_mnk))
        if ab_dtype not in (_nt.Float8E4M3FN, _nt.Float8E5M2):
            raise DSLUserCodeError("warp.MmaFP8Op: ab_dtype must be "
                                   "Float8E4M3FN or Float8E5M2")
        if acc_dtype not in (_nt.Float16, _nt.Float32):
            raise DSLUserCodeError("warp.MmaFP8Op: acc_dtype must be Float32 "
                                   "or Float16")
        if self.shape_mnk not in ((16, 8, 32), (16, 8, 16)):
            raise DSLUserCodeError("warp.MmaFP8Op: shape_mnk must be "
                                   "(16,8,32) or (16,8,16)")

    def __str__(self):
        return ("warp-level FP8 MMA Operation (SM89)"
                "\n  A/B data type         = %s"
                "\n  Accumulator data type = %s"
                "\n  Instruction shape MNK = %s" %
                (self.ab_dtype, self.acc_dtype, shape_text(self.shape_mnk)))

    def _cpp_name(self):
        a = _SHORT[self.ab_dtype.name]
        c = _SHORT[self.acc_dtype.name]
        return "SM89_16x8x%d_%s%s%s%s_TN" % (self.shape_mnk[2], c, a, a, c)


_CPP = {"Float4E2M1FN": "float_e2m1_t", "Float8E4M3FN": "float_e4m3_t",
        "Float8E5M2": "float_e5m2_t", "Float6E2M3FN": "float_e2m3_t",
        "Float6E3M2FN": "float_e3m2_t", "Float8E8M0FNU": "float_ue8m0_t"}


class _BlockScaled(frozen, MmaOp):
    """SM120 block-scaled mma.sync (MX formats): a scale factor of sf_type
    for every sf_vec_size values along K."""

    _fields = ("ab_dtype", "acc_dtype", "shape_mnk", "sf_type", "sf_vec_size")

    def _init(self, ab_dtype, acc_dtype, shape_mnk, sf_type, sf_vec_size):
        self._set(ab_dtype=ab_dtype, acc_dtype=acc_dtype, shape_mnk=shape_mnk,
                  sf_type=sf_type, sf_vec_size=sf_vec_size,
                  use_sf_layout_TV=False)
        require_arch(_SM120, type(self).__name__)
        if ab_dtype is _nt.Float4E2M1FN:
            if shape_mnk != (16, 8, 64):
                raise DSLUserCodeError("%s: Float4E2M1FN needs shape_mnk "
                                       "(16,8,64)" % type(self).__name__)
        elif ab_dtype in (_nt.Float8E4M3FN, _nt.Float8E5M2):
            if shape_mnk != (16, 8, 32):
                raise DSLUserCodeError("%s: FP8 needs shape_mnk (16,8,32)" %
                                       type(self).__name__)
        else:
            raise DSLUserCodeError("%s: ab_dtype must be Float4E2M1FN, "
                                   "Float8E4M3FN or Float8E5M2" %
                                   type(self).__name__)
        if acc_dtype is not _nt.Float32:
            raise DSLUserCodeError("%s: acc_dtype must be Float32" %
                                   type(self).__name__)
        if sf_vec_size == 16:
            if ab_dtype is not _nt.Float4E2M1FN:
                raise DSLUserCodeError("%s: FP8 operands need a scale "
                                       "vector of 32" % type(self).__name__)
            if sf_type is not _nt.Float8E4M3FN:
                raise DSLUserCodeError("%s: a scale vector of 16 needs "
                                       "Float8E4M3FN scale factors" %
                                       type(self).__name__)
        elif sf_vec_size == 32:
            if sf_type is not _nt.Float8E8M0FNU:
                raise DSLUserCodeError("%s: a scale vector of 32 needs "
                                       "Float8E8M0FNU scale factors" %
                                       type(self).__name__)

    def __str__(self):
        return ("warp-level MXF4/MXF4NVF4/MXF8 MMA Operation"
                "\n  A/B data type         = %s"
                "\n  Accumulator data type = %s"
                "\n  Instruction shape MNK = %s"
                "\n  Vector size           = %d"
                "\n  SF data type          = %s" %
                (self.ab_dtype, self.acc_dtype, shape_text(self.shape_mnk),
                 self.sf_vec_size, self.sf_type))

    def _cpp_name(self):
        a = _CPP[self.ab_dtype.name]
        sf = ("float_ue4m3_t" if self.sf_type is _nt.Float8E4M3FN
              else "float_ue8m0_t")
        return "SM120_16x8x%d_TN_VS<%s,%s,float,%s,%d>" % (
            self.shape_mnk[2], a, a, sf, self.sf_vec_size)


class MmaMXF4Op(_BlockScaled):
    """MXF4: Float4E2M1FN operands, (16,8,64), Float8E8M0FNU scales per 32."""

    def __init__(self, ab_dtype, acc_dtype, sf_type):
        self._init(ab_dtype, acc_dtype, (16, 8, 64), sf_type, 32)


class MmaMXF4NVF4Op(_BlockScaled):
    """NVF4: Float4E2M1FN operands, (16,8,64), Float8E4M3FN scales per 16."""

    def __init__(self, ab_dtype, acc_dtype, sf_type):
        self._init(ab_dtype, acc_dtype, (16, 8, 64), sf_type, 16)


class MmaMXF8Op(_BlockScaled):
    """MXF8: FP8 operands, (16,8,32), Float8E8M0FNU scales per 32."""

    def __init__(self, ab_dtype, acc_dtype, sf_type):
        self._init(ab_dtype, acc_dtype, (16, 8, 32), sf_type, 32)


MXF8F6F4_SUPPORTED_PAIRS = frozenset({
    (_nt.Float4E2M1FN, _nt.Float8E4M3FN), (_nt.Float4E2M1FN, _nt.Float8E5M2),
    (_nt.Float8E4M3FN, _nt.Float4E2M1FN), (_nt.Float8E5M2, _nt.Float4E2M1FN),
})


class MmaMXF8F6F4Op(frozen, MmaOp):
    """Mixed-precision MX mma.sync: a Float4E2M1FN operand with an FP8 one,
    (16,8,32), Float8E8M0FNU scales per 32."""

    _fields = ("a_dtype", "b_dtype", "acc_dtype", "sf_type")

    def __init__(self, a_dtype, b_dtype, acc_dtype, sf_type):
        self._set(a_dtype=a_dtype, b_dtype=b_dtype, acc_dtype=acc_dtype,
                  sf_type=sf_type, shape_mnk=(16, 8, 32), sf_vec_size=32,
                  use_sf_layout_TV=False)
        require_arch(_SM120, "MmaMXF8F6F4Op")
        if acc_dtype is not _nt.Float32:
            raise DSLUserCodeError("MmaMXF8F6F4Op: acc_dtype must be Float32")
        if sf_type is not _nt.Float8E8M0FNU:
            raise DSLUserCodeError("MmaMXF8F6F4Op: sf_type must be "
                                   "Float8E8M0FNU")
        if (a_dtype, b_dtype) not in MXF8F6F4_SUPPORTED_PAIRS:
            raise DSLUserCodeError(
                "MmaMXF8F6F4Op: (%s, %s) is not a supported pair: one "
                "operand Float4E2M1FN, the other Float8E4M3FN or Float8E5M2 "
                "(same types go to MmaMXF4Op or MmaMXF8Op)" %
                (a_dtype, b_dtype))

    def __str__(self):
        return ("warp-level MXF8F6F4 mixed-precision MMA Operation"
                "\n  A data type           = %s"
                "\n  B data type           = %s"
                "\n  Accumulator data type = %s"
                "\n  Instruction shape MNK = %s"
                "\n  Vector size           = %d"
                "\n  SF data type          = %s" %
                (self.a_dtype, self.b_dtype, self.acc_dtype,
                 shape_text(self.shape_mnk), self.sf_vec_size, self.sf_type))

    def _cpp_name(self):
        return "SM120_16x8x32_TN_VS<%s,%s,float,float_ue8m0_t,32>" % (
            _CPP[self.a_dtype.name], _CPP[self.b_dtype.name])


class _Matrix(frozen, CopyOp):
    """ldmatrix / stmatrix: num_matrices 8x8 (or 16x8, 16x16) matrices per
    warp, optionally transposed."""

    _fields = ("transpose", "num_matrices", "unpack_bits")
    _allowed = (1, 2, 4)
    _transpose = None   # True: only transposed, False: never, None: either
    _unpack = False

    def __init__(self, transpose=False, num_matrices=1, unpack_bits=None):
        self._set(transpose=transpose, num_matrices=num_matrices,
                  unpack_bits=unpack_bits)
        name = type(self).__name__
        if not isinstance(transpose, bool):
            raise DSLUserCodeError("%s: transpose must be a bool" % name)
        if self._transpose is True and not transpose:
            raise DSLUserCodeError("%s: only the transposed form exists" %
                                   name)
        if self._transpose is False and transpose:
            raise DSLUserCodeError("%s: no transposed form" % name)
        if num_matrices not in self._allowed:
            raise DSLUserCodeError("%s: num_matrices must be one of %s" %
                                   (name, list(self._allowed)))
        if unpack_bits is not None and (not self._unpack or
                                        unpack_bits not in (4, 6)):
            raise DSLUserCodeError("%s: unpack_bits must be %s" % (
                name, "4, 6 or None" if self._unpack else "None"))

    def __str__(self):
        s = "%s Copy Operation\n  number of matrices = %d" % (
            type(self).__name__[:-2], self.num_matrices)
        if self.transpose:
            s += "\n  transposed"
        if self.unpack_bits is not None:
            s += "\n  unpack %db to 8b" % self.unpack_bits
        return s

    def _cpp_op(self, value_type, **kwargs):
        if kwargs:
            raise DSLUserCodeError("%s takes no copy arguments (%s)" %
                                   (type(self).__name__, ", ".join(kwargs)))
        if self.unpack_bits is not None:
            raise DSLUserCodeError("%s with unpack_bits: the twin's CuTe "
                                   "tables have no unpacking ldmatrix" %
                                   type(self).__name__)
        return self._name()


class LdMatrix8x8x16bOp(_Matrix):
    """ldmatrix.m8n8.b16: SM75_U32xN_LDSM_N, or SM75_U16x2N_LDSM_T
    transposed."""

    def _name(self):
        if self.transpose:
            return "SM75_U16x%d_LDSM_T" % (2 * self.num_matrices)
        return "SM75_U32x%d_LDSM_N" % self.num_matrices


class LdMatrix8x16x8bOp(_Matrix):
    """ldmatrix.m8n16 (8-bit elements, optional 4/6-bit unpacking)."""

    _transpose = False
    _unpack = True

    def _name(self):
        return "SM75_U32x%d_LDSM_N" % self.num_matrices


class LdMatrix16x8x8bOp(_Matrix):
    """ldmatrix.m16n8.trans.b8 (SM100): 2 or 4 matrices."""

    _allowed = (2, 4)
    _transpose = True
    _unpack = True

    def _name(self):
        return "SM100_U8x%d_LDSM_T" % (4 * self.num_matrices)


class LdMatrix16x16x8bOp(_Matrix):
    """ldmatrix.m16n16.trans.b8 (SM100): 1 or 2 matrices."""

    _allowed = (1, 2)
    _transpose = True
    _unpack = True

    def _name(self):
        return "SM100_U8x%d_LDSM_T_M16N16" % (8 * self.num_matrices)


class StMatrix8x8x16bOp(_Matrix):
    """stmatrix.m8n8.b16: SM90_U32xN_STSM_N, or SM90_U16x2N_STSM_T
    transposed."""

    def _name(self):
        if self.transpose:
            return "SM90_U16x%d_STSM_T" % (2 * self.num_matrices)
        return "SM90_U32x%d_STSM_N" % self.num_matrices


class StMatrix16x8x8bOp(_Matrix):
    """stmatrix.m16n8.trans.b8 (SM100)."""

    _transpose = True

    def _name(self):
        return "SM100_U8x%d_STSM_T" % (4 * self.num_matrices)
