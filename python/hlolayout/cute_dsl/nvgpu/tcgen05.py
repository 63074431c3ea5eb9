"""The twin of `cutlass.cute.nvgpu.tcgen05`: the SM100 (and SM103)
tensor-core MMAs (CuTe's UMMA atoms) on one CTA or a pair, the tensor-memory
loads and stores, the UMMA shared-memory layout atoms and tile_to_mma_shape.

    >>> from hlolayout import cute_dsl as cute
    >>> t = cute.nvgpu.tcgen05
    >>> cute.set_arch("sm_100a")
    >>> op = t.MmaF16BF16Op(cute.Float16, cute.Float32, (128, 256, 16),
    ...                     t.CtaGroup.ONE, t.OperandSource.SMEM,
    ...                     cute.nvgpu.OperandMajorMode.K,
    ...                     cute.nvgpu.OperandMajorMode.K)
    >>> print(cute.make_mma_atom(op).tv_layout_C)
    (1,(128,256)):(128,(1,128))
"""

import enum

from .. import _numeric_types as _nt
from .. import _atoms
from .. import _ints
from .._atoms import CopyOp, MmaOp, require_arch
from ._common import (DSLUserCodeError, EnumText, OperandMajorMode, frozen,
                      shape_text)

__all__ = ["OperandSource", "OperandMajorMode", "CtaGroup", "Field",
           "CollectorOp", "SparseMetadataFormat", "MmaTF32Op",
           "MmaF16BF16Op", "MmaF16BF16SparseOp", "MmaFP8SparseOp", "MmaI8Op",
           "MmaFP8Op", "MmaF8F6F4Op", "MmaMXF8Op", "MmaMXF8F6F4Op",
           "MmaMXF4Op", "MmaMXF4NVF4Op", "SM103MmaMXF4Op",
           "SM103MmaMXF4NVF4Op", "SmemLayoutAtomKind", "Repetition", "Pack",
           "Unpack", "Ld16x64bOp", "Ld16x128bOp", "Ld16x256bOp",
           "Ld16x32bx2Op", "Ld32x32bOp", "St16x64bOp", "St16x128bOp",
           "St16x256bOp", "St16x32bx2Op", "St32x32bOp",
           "make_smem_layout_atom", "tile_to_mma_shape"]

# The DSL's sm_100f and sm_110f families.
_SM10X = ("sm_100", "sm_100a", "sm_100f", "sm_101", "sm_101a", "sm_101f",
          "sm_103", "sm_103a", "sm_103f", "sm_107", "sm_107a", "sm_107f",
          "sm_110", "sm_110a", "sm_110f")
_BLOCK_SCALED = ("sm_100a", "sm_100f", "sm_103a", "sm_107a", "sm_110a")
_SM103 = ("sm_103a", "sm_103f")


class OperandSource(EnumText, enum.Enum):
    """Where operand A comes from: tensor memory or a shared-memory
    descriptor."""

    TMEM = "tmem"
    SMEM = "smem_desc"


class CtaGroup(EnumText, enum.Enum):
    """One CTA (1SM) or a pair of CTAs (2x1SM) issue the MMA."""

    ONE = 1
    TWO = 2


class Field(EnumText, enum.Enum):
    NEGATE_A = "neg_a"
    NEGATE_B = "neg_b"
    ACCUMULATE = "accum_c"
    SFA = "sf_a"
    SFB = "sf_b"
    METADATA = "e"
    DISABLE_OUTPUT_LANE = "disable_output_lane"


class CollectorOp(EnumText, enum.Enum):
    DISCARD = 0
    LASTUSE = 1
    FILL = 2
    USE = 3


class SparseMetadataFormat(EnumText, enum.Enum):
    TID = "tid"


_CPP = {"Float16": "half_t", "BFloat16": "bfloat16_t", "Float32": "float",
        "TFloat32": "tfloat32_t", "Int8": "int8_t", "Uint8": "uint8_t",
        "Float8E4M3FN": "float_e4m3_t", "Float8E5M2": "float_e5m2_t",
        "Float6E2M3FN": "float_e2m3_t", "Float6E3M2FN": "float_e3m2_t",
        "Float4E2M1FN": "float_e2m1_t", "Float8E8M0FNU": "float_ue8m0_t",
        "Int32": "int32_t"}

_F8F6F4 = ("Float8E5M2", "Float8E4M3FN", "Float6E3M2FN", "Float6E2M3FN",
           "Float4E2M1FN")


def _err(op, text):
    raise DSLUserCodeError("tcgen05.%s: %s" % (type(op).__name__, text))


def _check_enums(op):
    if not isinstance(op.cta_group, CtaGroup):
        _err(op, "cta_group must be a tcgen05.CtaGroup")
    if not isinstance(op.a_src, OperandSource):
        _err(op, "a_src must be a tcgen05.OperandSource")
    for m, n in ((op.a_major_mode, "a_major_mode"),
                 (op.b_major_mode, "b_major_mode")):
        if not isinstance(m, OperandMajorMode):
            _err(op, "%s must be a cute.nvgpu.OperandMajorMode" % n)


def _flat_shape(op):
    s = op.shape_mnk
    if (not isinstance(s, tuple) or len(s) not in (2, 3) or
            any(isinstance(x, tuple) for x in s)):
        _err(op, "shape_mnk must be a flat (M, N) or (M, N, K) tuple, got "
                 "%s" % (s,))
    return s[0], s[1]


def _check_n(op, n, lo, step):
    if n < lo or n > 256 or n % step:
        _err(op, "N must satisfy %d <= N <= 256 and N %% %d == 0, got %s" %
             (lo, step, n))


class _Umma(frozen, MmaOp):
    """A tcgen05.mma: M x N x K on one CTA or two, A from shared or tensor
    memory, each operand K- or MN-major."""

    _fields = ("a_dtype", "b_dtype", "acc_dtype", "shape_mnk", "cta_group",
               "a_src", "a_major_mode", "b_major_mode")
    descriptive_name = ""
    _k = 16
    _archs = _SM10X
    _pad = 22  # the width of the printed field names

    def _init(self, **fields):
        shape = fields["shape_mnk"]
        if isinstance(shape, list):
            fields["shape_mnk"] = tuple(shape)
        self._set(**fields)
        require_arch(self._archs, "tcgen05.%s" % type(self).__name__)
        _check_enums(self)
        m, n = _flat_shape(self)
        self._check_mn(m, n)
        self._verify()
        if len(self.shape_mnk) == 2:
            self._set(shape_mnk=(m, n, self._k))
        k = self.shape_mnk[2]
        if k not in self._ks():
            _err(self, "K must be %s, got %s" % (
                " or ".join(str(x) for x in self._ks()), k))

    def _ks(self):
        return (self._k,)

    def _check_mn(self, m, n):
        one = self.cta_group is CtaGroup.ONE
        if one and m not in (64, 128):
            _err(self, "M must be 64 or 128 on one CTA, got %s" % m)
        if not one and m not in (128, 256):
            _err(self, "M must be 128 or 256 on two CTAs, got %s" % m)
        narrow_mn = (self.b_dtype.width == 8 and
                     self.b_major_mode is OperandMajorMode.MN)
        if one:
            _check_n(self, n, 16 if narrow_mn else 8, 16 if narrow_mn else 8)
        else:
            _check_n(self, n, 32 if narrow_mn else 16,
                     32 if narrow_mn else 16)

    def _verify(self):
        pass

    def _rows(self):
        return [("A data type", self.a_dtype), ("B data type", self.b_dtype),
                ("Accumulator data type", self.acc_dtype),
                ("CTA group", self.cta_group),
                ("A source location", self.a_src),
                ("A major mode", self.a_major_mode),
                ("B major mode", self.b_major_mode),
                ("Instruction shape MNK", shape_text(self.shape_mnk))]

    def __str__(self):
        return self.descriptive_name + "".join(
            "\n  %s= %s" % (k.ljust(self._pad), v) for k, v in self._rows())

    def _majors(self):
        return "UMMA::Major::%s,UMMA::Major::%s" % (self.a_major_mode.name,
                                                     self.b_major_mode.name)

    def _kind(self):
        """CuTe's operation name: _SS or _TS, 1SM or 2x1SM."""
        two = "_2x1SM" if self.cta_group is CtaGroup.TWO else ""
        src = "TS" if self.a_src is OperandSource.TMEM else "SS"
        if src == "TS" and self.a_major_mode is not OperandMajorMode.K:
            _err(self, "an A operand in tensor memory is K-major")
        return two, src

    def _dsl_tv(self, layout):
        """The DSL gives the size-1 thread mode of a one-CTA atom the stride
        M (or N; CuTe's C++ gives it 0): the same function."""
        return _umma_tv(layout)

    def _core_atom(self):
        """CuTe's atom when its C++ tables have the operation; otherwise (A
        in tensor memory for a sparse or block-scaled kind, or an M/N the
        DSL's checks allow and CuTe's static_asserts do not) the UMMA
        layouts, which depend only on M, N, K and the CTA group."""
        name = self._cpp_name()  # the DSL's refusals (A in TMEM is K-major)
        try:
            return _atoms._core.cute_find_mma_atom(name)
        except ValueError:
            return _umma_atom(self)

    def _cpp_name(self):
        two, src = self._kind()
        m, n = self.shape_mnk[0], self.shape_mnk[1]
        return "SM100_MMA_%s%s_%s<%s,%s,%s,%d,%d,%s>" % (
            self._cpp_kind, two, src, _CPP[self.a_dtype.name],
            _CPP[self.b_dtype.name], _CPP[self.acc_dtype.name], m, n,
            self._majors())


class MmaTF32Op(_Umma):
    descriptive_name = "tcgen05 TF32 MMA Operation"
    _k = 8
    _cpp_kind = "TF32"

    def __init__(self, instruction_shape, cta_group, a_src, a_major_mode,
                 b_major_mode):
        self._init(a_dtype=_nt.TFloat32, b_dtype=_nt.TFloat32,
                   acc_dtype=_nt.Float32, shape_mnk=instruction_shape,
                   cta_group=cta_group, a_src=a_src,
                   a_major_mode=a_major_mode, b_major_mode=b_major_mode)


def umma_layouts(m, n, k, two):
    """CuTe's UMMA atom layouts (mma_traits_sm100.hpp): thread ids, A, B and
    C as text, for one CTA or a pair (two)."""
    if two:
        return ("_2:_1", "(_2,(_%d,_%d)):(_%d,(_1,_%d))" % (m // 2, k, m // 2, m),
                "(_2,(_%d,_%d)):(_%d,(_1,_%d))" % (n // 2, k, n // 2, n),
                "(_2,(_%d,_%d)):(_%d,(_1,_%d))" % (m // 2, n, m // 2, m))
    return ("_1:_0", "(_1,(_%d,_%d)):(_0,(_1,_%d))" % (m, k, m),
            "(_1,(_%d,_%d)):(_0,(_1,_%d))" % (n, k, n),
            "(_1,(_%d,_%d)):(_0,(_1,_%d))" % (m, n, m))


def _umma_atom(op):
    m, n, k = op.shape_mnk
    two = op.cta_group is CtaGroup.TWO
    thr, a, b, c = umma_layouts(m, n, k, two)
    return _atoms._core.cute_mma_atom_from_layouts(
        "tcgen05.%s" % type(op).__name__, "sm100_umma", thr,
        "(_%d,_%d,_%d)" % (m, n, k), a, b, c)


def _umma_tv(layout):
    from .._objects import Layout
    shape, stride = layout.sh, layout.st
    if (type(shape) is tuple and shape[0] == 1 and stride[0] == 0 and
            type(shape[1]) is tuple):
        return Layout(shape, (shape[1][0],) + stride[1:])
    return layout


def _same_ab(op, allowed, names):
    if op.a_dtype.name not in allowed:
        _err(op, "ab_dtype must be one of %s" % names)


def _acc16_32(op):
    if op.acc_dtype not in (_nt.Float16, _nt.Float32):
        _err(op, "acc_dtype must be Float16 or Float32")


class MmaF16BF16Op(_Umma):
    descriptive_name = "tcgen05 F16/BF16 MMA Operation"
    _cpp_kind = "F16BF16"

    def __init__(self, ab_dtype, acc_dtype, instruction_shape, cta_group,
                 a_src, a_major_mode, b_major_mode):
        self._init(a_dtype=ab_dtype, b_dtype=ab_dtype, acc_dtype=acc_dtype,
                   shape_mnk=instruction_shape, cta_group=cta_group,
                   a_src=a_src, a_major_mode=a_major_mode,
                   b_major_mode=b_major_mode)

    def _verify(self):
        _same_ab(self, ("Float16", "BFloat16"), "Float16, BFloat16")
        _acc16_32(self)


class MmaI8Op(_Umma):
    descriptive_name = "tcgen05 I8 MMA Operation"
    _k = 32
    _cpp_kind = "S8"

    def __init__(self, ab_dtype, instruction_shape, cta_group, a_src,
                 a_major_mode, b_major_mode):
        self._init(a_dtype=ab_dtype, b_dtype=ab_dtype, acc_dtype=_ints.Int32,
                   shape_mnk=instruction_shape, cta_group=cta_group,
                   a_src=a_src, a_major_mode=a_major_mode,
                   b_major_mode=b_major_mode)

    def _verify(self):
        _same_ab(self, ("Int8", "Uint8"), "Int8, Uint8")


class MmaFP8Op(_Umma):
    descriptive_name = "tcgen05 F8 MMA Operation"
    _k = 32
    _cpp_kind = "F8F6F4"

    def __init__(self, ab_dtype, acc_dtype, instruction_shape, cta_group,
                 a_src, a_major_mode, b_major_mode):
        self._init(a_dtype=ab_dtype, b_dtype=ab_dtype, acc_dtype=acc_dtype,
                   shape_mnk=instruction_shape, cta_group=cta_group,
                   a_src=a_src, a_major_mode=a_major_mode,
                   b_major_mode=b_major_mode)

    def _verify(self):
        _same_ab(self, ("Float8E5M2", "Float8E4M3FN"),
                 "Float8E5M2, Float8E4M3FN")
        _acc16_32(self)


class MmaF8F6F4Op(_Umma):
    descriptive_name = "tcgen05 F8F6F4 MMA Operation"
    _k = 32
    _cpp_kind = "F8F6F4"

    def __init__(self, a_dtype, b_dtype, acc_dtype, instruction_shape,
                 cta_group, a_src, a_major_mode, b_major_mode):
        self._init(a_dtype=a_dtype, b_dtype=b_dtype, acc_dtype=acc_dtype,
                   shape_mnk=instruction_shape, cta_group=cta_group,
                   a_src=a_src, a_major_mode=a_major_mode,
                   b_major_mode=b_major_mode)

    def _verify(self):
        for t, n in ((self.a_dtype, "a_dtype"), (self.b_dtype, "b_dtype")):
            if t.name not in _F8F6F4:
                _err(self, "%s must be one of %s" % (n, ", ".join(_F8F6F4)))
        _acc16_32(self)


class _Sparse(_Umma):
    """A structured-sparse tcgen05.mma (2:4 on A): K is twice the dense
    one."""

    _fields = _Umma._fields + ("sparse_metadata_format",)
    _pad = 26

    def _sparse_init(self, ab_dtype, acc_dtype, instruction_shape, cta_group,
                     a_src, a_major_mode, b_major_mode,
                     sparse_metadata_format):
        self._set(sparse_metadata_format=sparse_metadata_format)
        if not isinstance(sparse_metadata_format, SparseMetadataFormat):
            _err(self, "sparse_metadata_format must be a "
                       "tcgen05.SparseMetadataFormat")
        self._init(a_dtype=ab_dtype, b_dtype=ab_dtype, acc_dtype=acc_dtype,
                   shape_mnk=instruction_shape, cta_group=cta_group,
                   a_src=a_src, a_major_mode=a_major_mode,
                   b_major_mode=b_major_mode)

    def _check_mn(self, m, n):
        if self.cta_group is CtaGroup.ONE:
            if m not in (64, 128):
                _err(self, "M must be 64 or 128 on one CTA, got %s" % m)
            if m == 64:
                _check_n(self, n, 8, 8)
            else:
                _check_n(self, n, 16, 16)
        else:
            if m not in (128, 256):
                _err(self, "M must be 128 or 256 on two CTAs, got %s" % m)
            _check_n(self, n, 32, 32)

    def _rows(self):
        return _Umma._rows(self) + [("Sparse metadata format",
                                     self.sparse_metadata_format)]

    def _cpp_name(self):
        two, src = self._kind()
        return "SM100_MMA_%s%s_%s_SPARSE<%s,%s,%s,%d,%d,%s>" % (
            self._cpp_kind, two, src, _CPP[self.a_dtype.name],
            _CPP[self.b_dtype.name], _CPP[self.acc_dtype.name],
            self.shape_mnk[0], self.shape_mnk[1], self._majors())


class MmaF16BF16SparseOp(_Sparse):
    descriptive_name = "tcgen05 F16/BF16 Sparse MMA Operation"
    _k = 32
    _cpp_kind = "F16BF16"

    def __init__(self, ab_dtype, acc_dtype, instruction_shape, cta_group,
                 a_src, a_major_mode, b_major_mode, sparse_metadata_format):
        self._sparse_init(ab_dtype, acc_dtype, instruction_shape, cta_group,
                          a_src, a_major_mode, b_major_mode,
                          sparse_metadata_format)

    def _verify(self):
        _same_ab(self, ("Float16", "BFloat16"), "Float16, BFloat16")
        _acc16_32(self)


class MmaFP8SparseOp(_Sparse):
    descriptive_name = "tcgen05 FP8 Sparse MMA Operation"
    _k = 64
    _cpp_kind = "F8F6F4"

    def __init__(self, ab_dtype, acc_dtype, instruction_shape, cta_group,
                 a_src, a_major_mode, b_major_mode, sparse_metadata_format):
        self._sparse_init(ab_dtype, acc_dtype, instruction_shape, cta_group,
                          a_src, a_major_mode, b_major_mode,
                          sparse_metadata_format)

    def _verify(self):
        _same_ab(self, ("Float8E5M2", "Float8E4M3FN"),
                 "Float8E5M2, Float8E4M3FN")
        _acc16_32(self)


class _BlockScaledUmma(_Umma):
    """A block-scaled tcgen05.mma: a scale factor of sf_dtype for every
    sf_vec_size values along K (M is 128 on one CTA)."""

    _fields = ("a_dtype", "b_dtype", "acc_dtype", "sf_dtype", "sf_vec_size",
               "shape_mnk", "cta_group", "a_src", "a_major_mode",
               "b_major_mode")
    _archs = _BLOCK_SCALED
    _pad = 26

    def _bs_init(self, a_dtype, b_dtype, sf_dtype, sf_vec_size, shape,
                 cta_group, a_src, a_major, b_major):
        self._set(sf_dtype=sf_dtype, sf_vec_size=sf_vec_size)
        self._init(a_dtype=a_dtype, b_dtype=b_dtype, acc_dtype=_nt.Float32,
                   shape_mnk=shape, cta_group=cta_group, a_src=a_src,
                   a_major_mode=a_major, b_major_mode=b_major)
        if sf_vec_size not in (16, 32):
            _err(self, "the scale vector size must be 16 or 32, got %s" %
                 sf_vec_size)

    def _check_mn(self, m, n):
        if self.cta_group is CtaGroup.ONE:
            if m != 128:
                _err(self, "M must be 128 on one CTA, got %s" % m)
            _check_n(self, n, 8, 8)
        else:
            if m not in (128, 256):
                _err(self, "M must be 128 or 256 on two CTAs, got %s" % m)
            _check_n(self, n, 16, 16)

    def _rows(self):
        r = _Umma._rows(self)
        return r[:3] + [("Scale factor data type", self.sf_dtype),
                        ("Scale factor vector size", self.sf_vec_size)] + r[3:]

    def _sf(self):
        return ("float_ue4m3_t" if self.sf_dtype is _nt.Float8E4M3FN
                else "float_ue8m0_t")


class MmaMXF8Op(_BlockScaledUmma):
    descriptive_name = "tcgen05 MXF8 BlockScaled MMA Operation"
    _k = 32

    def __init__(self, ab_dtype, instruction_shape, cta_group, a_src,
                 a_major_mode, b_major_mode):
        self._bs_init(ab_dtype, ab_dtype, _nt.Float8E8M0FNU, 32,
                      instruction_shape, cta_group, a_src, a_major_mode,
                      b_major_mode)

    def _verify(self):
        _same_ab(self, ("Float8E5M2", "Float8E4M3FN"),
                 "Float8E5M2, Float8E4M3FN")

    def _cpp_name(self):
        return _mxf8f6f4_name(self)


def _mxf8f6f4_name(op):
    two, src = op._kind()
    return "SM100_MMA_MXF8F6F4%s_%s<%s,%s,float,%s,%d,%d,%s>" % (
        two, src, _CPP[op.a_dtype.name], _CPP[op.b_dtype.name], op._sf(),
        op.shape_mnk[0], op.shape_mnk[1], op._majors())


class MmaMXF8F6F4Op(_BlockScaledUmma):
    descriptive_name = "tcgen05 MXF8F6F4 BlockScaled MMA Operation"
    _k = 32

    def __init__(self, a_dtype, b_dtype, instruction_shape, cta_group,
                 a_src, a_major_mode, b_major_mode):
        self._bs_init(a_dtype, b_dtype, _nt.Float8E8M0FNU, 32,
                      instruction_shape, cta_group, a_src, a_major_mode,
                      b_major_mode)

    def _verify(self):
        for t, n in ((self.a_dtype, "a_dtype"), (self.b_dtype, "b_dtype")):
            if t.name not in _F8F6F4:
                _err(self, "%s must be one of %s" % (n, ", ".join(_F8F6F4)))

    def _cpp_name(self):
        return _mxf8f6f4_name(self)


class _MXF4(_BlockScaledUmma):
    _k = 64
    _cpp_op = "SM100_MMA_MXF4"

    def _fp4_init(self, sf_dtype, sf_vec_size, shape, cta_group, a_src):
        self._bs_init(_nt.Float4E2M1FN, _nt.Float4E2M1FN, sf_dtype,
                      sf_vec_size, shape, cta_group, a_src,
                      OperandMajorMode.K, OperandMajorMode.K)

    def _cpp_name(self):
        two, src = self._kind()
        return "%s%s_%s<float_e2m1_t,float_e2m1_t,float,%s,%d,%d,%d,%s>" % (
            self._cpp_op, two, src, self._sf(), self.shape_mnk[0],
            self.shape_mnk[1], self.sf_vec_size, self._majors())


class MmaMXF4Op(_MXF4):
    descriptive_name = "tcgen05 MXF4 BlockScaled MMA Operation"

    def __init__(self, instruction_shape, cta_group, a_src):
        self._fp4_init(_nt.Float8E8M0FNU, 32, instruction_shape, cta_group,
                       a_src)


class MmaMXF4NVF4Op(_MXF4):
    descriptive_name = "tcgen05 MXF4NVF4 BlockScaled MMA Operation"

    def __init__(self, sf_dtype, instruction_shape, cta_group, a_src):
        self._fp4_init(sf_dtype, 16, instruction_shape, cta_group, a_src)

    def _verify(self):
        if self.sf_dtype not in (_nt.Float8E8M0FNU, _nt.Float8E4M3FN):
            _err(self, "sf_dtype must be Float8E8M0FNU or Float8E4M3FN")


class _SM103(_MXF4):
    """SM103's MXF4 with K = 96 (CuTe's SM103_MXF4_ULTRA atoms)."""

    _k = 96
    _archs = _BLOCK_SCALED

    def _cpp_name(self):
        two, src = self._kind()
        return ("SM103_MXF4_ULTRA%s_%s_VS<float_e2m1_t,float_e2m1_t,float,%s,"
                "%d,%d,%d,%s>" % (two, src, self._sf(), self.shape_mnk[0],
                                  self.shape_mnk[1], self.sf_vec_size,
                                  self._majors()))


class SM103MmaMXF4Op(_SM103):
    descriptive_name = "tcgen05 SM103 MXF4 BlockScaled MMA Operation"

    def __init__(self, instruction_shape, cta_group, a_src):
        self._fp4_init(_nt.Float8E8M0FNU, 32, instruction_shape, cta_group,
                       a_src)


class SM103MmaMXF4NVF4Op(_SM103):
    descriptive_name = "tcgen05 SM103 MXF4NVF4 BlockScaled MMA Operation"

    def __init__(self, sf_dtype, instruction_shape, cta_group, a_src):
        self._fp4_init(sf_dtype, 16, instruction_shape, cta_group, a_src)

    def _verify(self):
        if self.sf_dtype not in (_nt.Float8E8M0FNU, _nt.Float8E4M3FN):
            _err(self, "sf_dtype must be Float8E8M0FNU or Float8E4M3FN")


class SmemLayoutAtomKind(EnumText, enum.Enum):
    """The UMMA shared-memory layout atoms (warpgroup's and MN_SW128_32B)."""

    MN_INTER = 1
    MN_SW32 = 2
    MN_SW64 = 3
    MN_SW128 = 4
    MN_SW128_32B = 5
    K_INTER = 6
    K_SW32 = 7
    K_SW64 = 8
    K_SW128 = 9


def make_smem_layout_atom(kind, element_type):
    """The UMMA shared-memory layout atom of `kind` for `element_type`."""
    from .. import _smem
    return _smem.umma_atom(kind, element_type)


def tile_to_mma_shape(atom, mma_tile_shape, order=None):
    """The atom tiled to an MMA tile shape ((MMA_M, MMA_K), M_MMAs, K_MMAs,
    ...), CuTe's UMMA::tile_to_mma_shape, coalesced per mode as the DSL."""
    from .. import _smem
    return _smem.tile_to_mma_shape(atom, mma_tile_shape, order)


# ---------------------------------------------------------------------------
# Tensor-memory loads and stores

class Repetition(EnumText, enum.Enum):
    x1 = 1
    x2 = 2
    x4 = 4
    x8 = 8
    x16 = 16
    x32 = 32
    x64 = 64
    x128 = 128


class Pack(EnumText, enum.Enum):
    NONE = 1
    PACK_16b_IN_32b = 2


class Unpack(EnumText, enum.Enum):
    NONE = 1
    UNPACK_32b_IN_16b = 2


class _Tmem(frozen, CopyOp):
    """tcgen05.ld / tcgen05.st of a datapath shape, `repeat` times."""

    _max = Repetition.x128
    _shape = ""
    _load = True

    def _tmem_init(self, repeat, flag, flag_type, flag_name):
        self._set(**{"repeat": repeat, flag_name: flag,
                     "_fields": ("repeat", flag_name)})
        require_arch(_SM10X, "tcgen05.%s" % type(self).__name__)
        if not isinstance(repeat, Repetition):
            raise DSLUserCodeError("tcgen05.%s: repeat must be a "
                                   "tcgen05.Repetition" % type(self).__name__)
        if not isinstance(flag, flag_type):
            raise DSLUserCodeError("tcgen05.%s: %s must be a tcgen05.%s" % (
                type(self).__name__, flag_name, flag_type.__name__))
        if repeat.value > self._max.value:
            raise DSLUserCodeError("tcgen05.%s: %s repetition is not "
                                   "supported (at most %s)" % (
                                       type(self).__name__, repeat.name,
                                       self._max.name))

    def _cpp_op(self, value_type, **kwargs):
        if kwargs:
            raise DSLUserCodeError("tcgen05 copies take no copy arguments")
        packed = (getattr(self, "pack", None) is Pack.PACK_16b_IN_32b or
                  getattr(self, "unpack", None) is Unpack.UNPACK_32b_IN_16b)
        return "SM100_TMEM_%s_%s%dx%s" % (
            "LOAD" if self._load else "STORE", self._shape, self.repeat.value,
            "_16b" if packed else "")


class _Ld(_Tmem):
    def __init__(self, repeat=Repetition.x1, pack=Pack.NONE):
        self._tmem_init(repeat, pack, Pack, "pack")

    def __str__(self):
        s = "tcgen05 %s Copy Operation\n  number of repetitions = %d" % (
            type(self).__name__[:-2], self.repeat.value)
        if self.pack is Pack.PACK_16b_IN_32b:
            s += "\n  with 2x 16-bit to 32b packing"
        return s


class _St(_Tmem):
    _load = False

    def __init__(self, repeat, unpack=Unpack.NONE):
        self._tmem_init(repeat, unpack, Unpack, "unpack")

    def __str__(self):
        s = "tcgen05 %s Copy Operation\n  number of repetitions = %d" % (
            type(self).__name__[:-2], self.repeat.value)
        if self.unpack is Unpack.UNPACK_32b_IN_16b:
            s += "\n  with 32-bit to 2x 16b unpacking"
        return s


class Ld16x64bOp(_Ld):
    _shape = "16dp64b"


class Ld16x128bOp(_Ld):
    _shape = "16dp128b"
    _max = Repetition.x64


class Ld16x256bOp(_Ld):
    _shape = "16dp256b"
    _max = Repetition.x32


class Ld16x32bx2Op(_Ld):
    _shape = "16dp32b"


class Ld32x32bOp(_Ld):
    _shape = "32dp32b"


class St16x64bOp(_St):
    _shape = "16dp64b"


class St16x128bOp(_St):
    _shape = "16dp128b"
    _max = Repetition.x64


class St16x256bOp(_St):
    _shape = "16dp256b"
    _max = Repetition.x32


class St16x32bx2Op(_St):
    _shape = "16dp32b"


class St32x32bOp(_St):
    _shape = "32dp32b"
