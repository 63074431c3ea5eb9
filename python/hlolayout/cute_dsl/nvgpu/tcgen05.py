"""The twin of `cutlass.cute.nvgpu.tcgen05`: SM100's tensor-core MMAs
(PTX's `tcgen05.mma`, on one CTA or a pair), the tensor-memory loads and
stores (`tcgen05.ld` / `tcgen05.st`), the UMMA shared-memory layout atoms
and `tile_to_mma_shape`.

An MMA class is a kind of `tcgen05.mma` (`.kind::tf32`, `::f16`, `::i8`,
`::f8f6f4`, the block-scaled `::mxf8f6f4` and `::mxf4(nvf4)`, and the
sparse forms) with its operand types and its K: 32 bytes of operand (64
for the sparse kinds, whose A is 2:4 sparse; 96 for SM103's MXF4). Its
M and N follow one of three rules (PTX ISA, tcgen05.mma shapes; the
DSL's refusals checked on the grid of differential/cute_dsl/
domain_cases.py):

  dense    one CTA: M 64 or 128; a pair: M 128 or 256. N a multiple of 8
           from 8 (one CTA) or of 16 from 16 (a pair), doubled (16, 32)
           when B is 8-bit and MN-major;
  sparse   one CTA: M 64 with N a multiple of 8, M 128 with N a multiple
           of 16; a pair: M 128 or 256 with N a multiple of 32;
  scaled   one CTA: M 128 with N a multiple of 8; a pair: M 128 or 256
           with N a multiple of 16;

N at most 256. The atom's layouts are CuTe's UMMA form (_shapes.py,
from include/cute/atom/mma_traits_sm100.hpp), named as CuTe's SM100/SM103
MMA operations are (include/cute/arch/mma_sm100_umma.hpp, SM103's
included).

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

from .. import _ints
from .. import _numeric_types as _nt
from .._atoms import CopyOp, MmaOp
from ._base import (SM100_FAMILY, SM100_SCALED, Instruction, Named,
                    OperandMajorMode, card, need, need_arch, python_text,
                    refuse)
from ._shapes import (atom_from_layouts, instruction_shape, umma_layouts,
                      umma_thread_stride)

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


class OperandSource(Named, enum.Enum):
    """Where operand A is read from: tensor memory or shared memory."""

    TMEM = "tmem"
    SMEM = "smem"


class CtaGroup(Named, enum.Enum):
    """One CTA issues the MMA, or a pair of CTAs (PTX's .cta_group)."""

    ONE = 1
    TWO = 2


class Field(Named, enum.Enum):
    """The fields of a tcgen05 MMA atom a kernel may set (documented)."""

    NEGATE_A = "neg_a"
    NEGATE_B = "neg_b"
    ACCUMULATE = "accum_c"
    SFA = "sf_a"
    SFB = "sf_b"
    METADATA = "e"
    DISABLE_OUTPUT_LANE = "disable_output_lane"


class CollectorOp(Named, enum.Enum):
    """PTX's collector usage of an operand buffer (documented)."""

    DISCARD = 0
    LASTUSE = 1
    FILL = 2
    USE = 3


class SparseMetadataFormat(Named, enum.Enum):
    """How the sparse kinds' metadata is laid out."""

    TID = "tid"


# CuTe's C++ element types (cutlass/numeric_types.h, float8.h,
# float_subbyte.h), for the atoms' names.
_CPP = {"Float16": "half_t", "BFloat16": "bfloat16_t", "Float32": "float",
        "TFloat32": "tfloat32_t", "Int8": "int8_t", "Uint8": "uint8_t",
        "Float8E4M3FN": "float_e4m3_t", "Float8E5M2": "float_e5m2_t",
        "Float6E2M3FN": "float_e2m3_t", "Float6E3M2FN": "float_e3m2_t",
        "Float4E2M1FN": "float_e2m1_t", "Int32": "int32_t"}

_FP8 = (_nt.Float8E5M2, _nt.Float8E4M3FN)
_F8F6F4 = _FP8 + (_nt.Float6E3M2FN, _nt.Float6E2M3FN, _nt.Float4E2M1FN)
_HALF = (_nt.Float16, _nt.BFloat16)
_ACC = (_nt.Float16, _nt.Float32)


def _n_rule(op, n, step):
    if not (step <= n <= 256 and n % step == 0):
        refuse(op, "N must be a multiple of %d from %d to 256, got %s" %
               (step, step, n))


class _Umma(Instruction, MmaOp):
    """A tcgen05.mma. Subclasses set the title, K, the architectures, the
    M/N rule (`_mn`), the data type rule (`_types`) and CuTe's name."""

    _module = "tcgen05"
    _fields = ("a_dtype", "b_dtype", "acc_dtype", "shape_mnk", "cta_group",
               "a_src", "a_major_mode", "b_major_mode")
    _title = ""
    _k = 16
    _archs = SM100_FAMILY
    _width = 22
    _cpp_kind = ""

    def _make(self, shape, cta_group, a_src, a_major, b_major, **types):
        self._keep(shape_mnk=shape, cta_group=cta_group, a_src=a_src,
                   a_major_mode=a_major, b_major_mode=b_major, **types)
        need_arch(self._label(), self._archs)
        for name, kind in (("cta_group", CtaGroup), ("a_src", OperandSource),
                           ("a_major_mode", OperandMajorMode),
                           ("b_major_mode", OperandMajorMode)):
            if not isinstance(getattr(self, name), kind):
                refuse(self, "%s must be a %s, got %r" % (
                    name, kind.__name__, getattr(self, name)))
        m, n, k = instruction_shape(self, shape, self._k)
        self._types()
        self._mn(m, n, self.cta_group is CtaGroup.TWO)
        if k != self._k:
            refuse(self, "K must be %d, got %s" % (self._k, k))
        self._keep(shape_mnk=(m, n, k))

    def _types(self):
        need(self, "ab_dtype", self.a_dtype, _HALF)
        need(self, "acc_dtype", self.acc_dtype, _ACC)

    def _mn(self, m, n, pair):
        need(self, "M on %s" % ("a pair of CTAs" if pair else "one CTA"), m,
             (128, 256) if pair else (64, 128))
        step = 16 if pair else 8
        if self.b_dtype.width == 8 and \
                self.b_major_mode is OperandMajorMode.MN:
            step *= 2
        _n_rule(self, n, step)

    def _rows(self):
        return [("A data type", self.a_dtype), ("B data type", self.b_dtype),
                ("Accumulator data type", self.acc_dtype),
                ("CTA group", self.cta_group),
                ("A source location", self.a_src),
                ("A major mode", self.a_major_mode),
                ("B major mode", self.b_major_mode),
                ("Instruction shape MNK", python_text(self.shape_mnk))]

    def __str__(self):
        return card(self._title, self._rows(), self._width)

    def _dsl_tv(self, layout):
        return umma_thread_stride(layout)

    def _operation(self):
        """The parts of CuTe's name: _2x1SM for a pair, SS or TS by where A
        is read (an A in tensor memory is K-major: PTX reads it so)."""
        if self.a_src is OperandSource.TMEM and \
                self.a_major_mode is not OperandMajorMode.K:
            refuse(self, "an A operand in tensor memory is K-major, got %s" %
                   self.a_major_mode.name)
        return ("_2x1SM" if self.cta_group is CtaGroup.TWO else "",
                "TS" if self.a_src is OperandSource.TMEM else "SS")

    def _majors(self):
        return "UMMA::Major::%s,UMMA::Major::%s" % (self.a_major_mode.name,
                                                     self.b_major_mode.name)

    def _cpp_name(self):
        pair, src = self._operation()
        m, n, _ = self.shape_mnk
        return "SM100_MMA_%s%s_%s<%s,%s,%s,%d,%d,%s>" % (
            self._cpp_kind, pair, src, _CPP[self.a_dtype.name],
            _CPP[self.b_dtype.name], _CPP[self.acc_dtype.name], m, n,
            self._majors())

    def _core_atom(self):
        """The UMMA layouts of M, N, K and the CTA group, under CuTe's
        name for the operation."""
        m, n, k = self.shape_mnk
        thr, a, b, c = umma_layouts(m, n, k, self.cta_group is CtaGroup.TWO)
        return atom_from_layouts(self._cpp_name(), "sm100_umma", thr,
                                 self.shape_mnk, a, b, c)


class MmaTF32Op(_Umma):
    _title = "tcgen05 TF32 MMA Operation"
    _k = 8
    _cpp_kind = "TF32"

    def __init__(self, instruction_shape, cta_group, a_src, a_major_mode,
                 b_major_mode):
        self._make(instruction_shape, cta_group, a_src, a_major_mode,
                   b_major_mode, a_dtype=_nt.TFloat32, b_dtype=_nt.TFloat32,
                   acc_dtype=_nt.Float32)

    def _types(self):
        pass


class MmaF16BF16Op(_Umma):
    _title = "tcgen05 F16/BF16 MMA Operation"
    _cpp_kind = "F16BF16"

    def __init__(self, ab_dtype, acc_dtype, instruction_shape, cta_group,
                 a_src, a_major_mode, b_major_mode):
        self._make(instruction_shape, cta_group, a_src, a_major_mode,
                   b_major_mode, a_dtype=ab_dtype, b_dtype=ab_dtype,
                   acc_dtype=acc_dtype)


class MmaI8Op(_Umma):
    _title = "tcgen05 I8 MMA Operation"
    _k = 32
    _cpp_kind = "S8"

    def __init__(self, ab_dtype, instruction_shape, cta_group, a_src,
                 a_major_mode, b_major_mode):
        self._make(instruction_shape, cta_group, a_src, a_major_mode,
                   b_major_mode, a_dtype=ab_dtype, b_dtype=ab_dtype,
                   acc_dtype=_ints.Int32)

    def _types(self):
        need(self, "ab_dtype", self.a_dtype, (_ints.Int8, _ints.Uint8))


class MmaFP8Op(_Umma):
    _title = "tcgen05 F8 MMA Operation"
    _k = 32
    _cpp_kind = "F8F6F4"

    def __init__(self, ab_dtype, acc_dtype, instruction_shape, cta_group,
                 a_src, a_major_mode, b_major_mode):
        self._make(instruction_shape, cta_group, a_src, a_major_mode,
                   b_major_mode, a_dtype=ab_dtype, b_dtype=ab_dtype,
                   acc_dtype=acc_dtype)

    def _types(self):
        need(self, "ab_dtype", self.a_dtype, _FP8)
        need(self, "acc_dtype", self.acc_dtype, _ACC)


class MmaF8F6F4Op(_Umma):
    _title = "tcgen05 F8F6F4 MMA Operation"
    _k = 32
    _cpp_kind = "F8F6F4"

    def __init__(self, a_dtype, b_dtype, acc_dtype, instruction_shape,
                 cta_group, a_src, a_major_mode, b_major_mode):
        self._make(instruction_shape, cta_group, a_src, a_major_mode,
                   b_major_mode, a_dtype=a_dtype, b_dtype=b_dtype,
                   acc_dtype=acc_dtype)

    def _types(self):
        need(self, "a_dtype", self.a_dtype, _F8F6F4)
        need(self, "b_dtype", self.b_dtype, _F8F6F4)
        need(self, "acc_dtype", self.acc_dtype, _ACC)


class _Sparse(_Umma):
    """A sparse kind: A is 2:4 structured-sparse, K twice the dense K."""

    _fields = _Umma._fields + ("sparse_metadata_format",)
    _width = 26

    def __init__(self, ab_dtype, acc_dtype, instruction_shape, cta_group,
                 a_src, a_major_mode, b_major_mode, sparse_metadata_format):
        self._keep(sparse_metadata_format=sparse_metadata_format)
        if not isinstance(sparse_metadata_format, SparseMetadataFormat):
            refuse(self, "sparse_metadata_format must be a "
                         "SparseMetadataFormat, got %r" %
                   (sparse_metadata_format,))
        self._make(instruction_shape, cta_group, a_src, a_major_mode,
                   b_major_mode, a_dtype=ab_dtype, b_dtype=ab_dtype,
                   acc_dtype=acc_dtype)

    def _mn(self, m, n, pair):
        need(self, "M on %s" % ("a pair of CTAs" if pair else "one CTA"), m,
             (128, 256) if pair else (64, 128))
        _n_rule(self, n, 32 if pair else 8 if m == 64 else 16)

    def _rows(self):
        return _Umma._rows(self) + [("Sparse metadata format",
                                     self.sparse_metadata_format)]

    def _cpp_name(self):
        return _Umma._cpp_name(self).replace("_SS<", "_SS_SPARSE<").replace(
            "_TS<", "_TS_SPARSE<")


class MmaF16BF16SparseOp(_Sparse):
    _title = "tcgen05 F16/BF16 Sparse MMA Operation"
    _k = 32
    _cpp_kind = "F16BF16"


class MmaFP8SparseOp(_Sparse):
    _title = "tcgen05 FP8 Sparse MMA Operation"
    _k = 64
    _cpp_kind = "F8F6F4"

    def _types(self):
        need(self, "ab_dtype", self.a_dtype, _FP8)
        need(self, "acc_dtype", self.acc_dtype, _ACC)


class _Scaled(_Umma):
    """A block-scaled kind: F32 accumulators and a scale factor of
    sf_dtype for every sf_vec_size values along K."""

    _fields = ("a_dtype", "b_dtype", "acc_dtype", "sf_dtype", "sf_vec_size",
               "shape_mnk", "cta_group", "a_src", "a_major_mode",
               "b_major_mode")
    _archs = SM100_SCALED
    _width = 26
    _vector = 32

    def _scaled(self, a, b, sf_dtype, shape, cta_group, a_src, a_major,
                b_major):
        self._keep(sf_dtype=sf_dtype, sf_vec_size=self._vector)
        self._make(shape, cta_group, a_src, a_major, b_major, a_dtype=a,
                   b_dtype=b, acc_dtype=_nt.Float32)

    def _mn(self, m, n, pair):
        need(self, "M on %s" % ("a pair of CTAs" if pair else "one CTA"), m,
             (128, 256) if pair else (128,))
        _n_rule(self, n, 16 if pair else 8)

    def _rows(self):
        rows = _Umma._rows(self)
        return rows[:3] + [("Scale factor data type", self.sf_dtype),
                           ("Scale factor vector size", self.sf_vec_size)] + \
            rows[3:]

    def _scale_type(self):
        return ("float_ue4m3_t" if self.sf_dtype is _nt.Float8E4M3FN
                else "float_ue8m0_t")

    def _cpp_name(self):
        pair, src = self._operation()
        return "SM100_MMA_MXF8F6F4%s_%s<%s,%s,float,%s,%d,%d,%s>" % (
            pair, src, _CPP[self.a_dtype.name], _CPP[self.b_dtype.name],
            self._scale_type(), self.shape_mnk[0], self.shape_mnk[1],
            self._majors())


class MmaMXF8Op(_Scaled):
    _title = "tcgen05 MXF8 BlockScaled MMA Operation"
    _k = 32

    def __init__(self, ab_dtype, instruction_shape, cta_group, a_src,
                 a_major_mode, b_major_mode):
        self._scaled(ab_dtype, ab_dtype, _nt.Float8E8M0FNU,
                     instruction_shape, cta_group, a_src, a_major_mode,
                     b_major_mode)

    def _types(self):
        need(self, "ab_dtype", self.a_dtype, _FP8)


class MmaMXF8F6F4Op(_Scaled):
    _title = "tcgen05 MXF8F6F4 BlockScaled MMA Operation"
    _k = 32

    def __init__(self, a_dtype, b_dtype, instruction_shape, cta_group,
                 a_src, a_major_mode, b_major_mode):
        self._scaled(a_dtype, b_dtype, _nt.Float8E8M0FNU, instruction_shape,
                     cta_group, a_src, a_major_mode, b_major_mode)

    def _types(self):
        need(self, "a_dtype", self.a_dtype, _F8F6F4)
        need(self, "b_dtype", self.b_dtype, _F8F6F4)


class _Fp4(_Scaled):
    """The E2M1 kinds: both operands K-major, K = 64 (96 on SM103)."""

    _k = 64
    _scales = (_nt.Float8E8M0FNU,)

    def _fp4(self, sf_dtype, shape, cta_group, a_src):
        self._scaled(_nt.Float4E2M1FN, _nt.Float4E2M1FN, sf_dtype, shape,
                     cta_group, a_src, OperandMajorMode.K, OperandMajorMode.K)

    def _types(self):
        need(self, "sf_dtype", self.sf_dtype, self._scales)

    def _cpp_name(self):
        pair, src = self._operation()
        return "%s%s_%s<float_e2m1_t,float_e2m1_t,float,%s,%d,%d,%d,%s>" % (
            self._cpp_prefix, pair, src, self._scale_type(),
            self.shape_mnk[0], self.shape_mnk[1], self._vector,
            self._majors())

    _cpp_prefix = "SM100_MMA_MXF4"


class MmaMXF4Op(_Fp4):
    _title = "tcgen05 MXF4 BlockScaled MMA Operation"

    def __init__(self, instruction_shape, cta_group, a_src):
        self._fp4(_nt.Float8E8M0FNU, instruction_shape, cta_group, a_src)


class MmaMXF4NVF4Op(_Fp4):
    _title = "tcgen05 MXF4NVF4 BlockScaled MMA Operation"
    _vector = 16
    _scales = (_nt.Float8E8M0FNU, _nt.Float8E4M3FN)

    def __init__(self, sf_dtype, instruction_shape, cta_group, a_src):
        self._fp4(sf_dtype, instruction_shape, cta_group, a_src)


class SM103MmaMXF4Op(_Fp4):
    _title = "tcgen05 SM103 MXF4 BlockScaled MMA Operation"
    _k = 96
    _cpp_prefix = "SM103_MXF4_ULTRA"

    def __init__(self, instruction_shape, cta_group, a_src):
        self._fp4(_nt.Float8E8M0FNU, instruction_shape, cta_group, a_src)

    def _cpp_name(self):
        return _Fp4._cpp_name(self).replace("<", "_VS<", 1)


class SM103MmaMXF4NVF4Op(SM103MmaMXF4Op):
    _title = "tcgen05 SM103 MXF4NVF4 BlockScaled MMA Operation"
    _vector = 16
    _scales = (_nt.Float8E8M0FNU, _nt.Float8E4M3FN)

    def __init__(self, sf_dtype, instruction_shape, cta_group, a_src):
        self._fp4(sf_dtype, instruction_shape, cta_group, a_src)


class SmemLayoutAtomKind(Named, enum.Enum):
    """The UMMA shared-memory layout atoms: warpgroup's and MN_SW128_32B."""

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
    return _smem.layout_atom(kind, SmemLayoutAtomKind, element_type,
                             "tcgen05.make_smem_layout_atom")


def tile_to_mma_shape(atom, mma_tile_shape, order=None):
    """The atom tiled to an MMA tile shape ((MMA_M, MMA_K), M_MMAs, K_MMAs,
    ...), as CuTe's UMMA::tile_to_mma_shape (_smem.py)."""
    from .. import _smem
    return _smem.tile_to_mma_shape(atom, mma_tile_shape, order)


# ---------------------------------------------------------------------------
# Tensor-memory loads and stores

class Repetition(Named, enum.Enum):
    """How many times a TMEM load or store repeats its shape."""

    x1 = 1
    x2 = 2
    x4 = 4
    x8 = 8
    x16 = 16
    x32 = 32
    x64 = 64
    x128 = 128


class Pack(Named, enum.Enum):
    """A TMEM load may pack two 16-bit values into each 32-bit register."""

    NONE = 1
    PACK_16b_IN_32b = 2


class Unpack(Named, enum.Enum):
    """A TMEM store may unpack each 32-bit register into two 16-bit
    values."""

    NONE = 1
    UNPACK_32b_IN_16b = 2


class _TmemCopy(Instruction, CopyOp):
    """tcgen05.ld / tcgen05.st of one data-path shape, `repeat` times; with
    (un)packing, CuTe's atom of 16-bit values (include/cute/arch/
    copy_sm100.hpp: SM100_TMEM_LOAD_16dp64b1x, ..._16b). The widest shapes
    repeat at most 64 (16x128b) and 32 times (16x256b): copy_sm100.hpp
    defines no more, and the DSL refuses more (observed)."""

    _module = "tcgen05"
    _most = Repetition.x128
    _shape = ""
    _verb = "LOAD"
    _flag_name = "pack"
    _flag_type = Pack
    _flag_words = "with 2x 16-bit to 32b packing"

    def __init__(self, repeat=Repetition.x1, flag=None):
        flag = self._flag_type.NONE if flag is None else flag
        self._keep(**{"repeat": repeat, self._flag_name: flag,
                      "_fields": ("repeat", self._flag_name)})
        need_arch(self._label(), SM100_FAMILY)
        if not isinstance(repeat, Repetition):
            refuse(self, "repeat must be a tcgen05.Repetition, got %r" %
                   (repeat,))
        if not isinstance(flag, self._flag_type):
            refuse(self, "%s must be a tcgen05.%s, got %r" % (
                self._flag_name, self._flag_type.__name__, flag))
        if repeat.value > self._most.value:
            refuse(self, "repetition %s is not supported: at most %s" % (
                repeat.name, self._most.name))

    def _flag(self):
        return getattr(self, self._flag_name)

    def __str__(self):
        text = "tcgen05 %s Copy Operation\n  number of repetitions = %d" % (
            type(self).__name__[:-2], self.repeat.value)
        if self._flag() is not self._flag_type.NONE:
            text += "\n  " + self._flag_words
        return text

    def _cpp_op(self, value_type, **kwargs):
        # Other copy arguments change nothing here (observed).
        return "SM100_TMEM_%s_%s%dx%s" % (
            self._verb, self._shape, self.repeat.value,
            "" if self._flag() is self._flag_type.NONE else "_16b")


class _Load(_TmemCopy):
    def __init__(self, repeat=Repetition.x1, pack=Pack.NONE):
        _TmemCopy.__init__(self, repeat, pack)


class _Store(_TmemCopy):
    _verb = "STORE"
    _flag_name = "unpack"
    _flag_type = Unpack
    _flag_words = "with 32-bit to 2x 16b unpacking"

    def __init__(self, repeat, unpack=Unpack.NONE):
        _TmemCopy.__init__(self, repeat, unpack)


class Ld16x64bOp(_Load):
    _shape = "16dp64b"


class Ld16x128bOp(_Load):
    _shape = "16dp128b"
    _most = Repetition.x64


class Ld16x256bOp(_Load):
    _shape = "16dp256b"
    _most = Repetition.x32


class Ld16x32bx2Op(_Load):
    _shape = "16dp32b"


class Ld32x32bOp(_Load):
    _shape = "32dp32b"


class St16x64bOp(_Store):
    _shape = "16dp64b"


class St16x128bOp(_Store):
    _shape = "16dp128b"
    _most = Repetition.x64


class St16x256bOp(_Store):
    _shape = "16dp256b"
    _most = Repetition.x32


class St16x32bx2Op(_Store):
    _shape = "16dp32b"


class St32x32bOp(_Store):
    _shape = "32dp32b"
