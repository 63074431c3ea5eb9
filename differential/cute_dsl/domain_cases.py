"""Domain cases for the CuTe DSL harness: every op class of `nvgpu`
(`warp`, `warpgroup`, `tcgen05`, `cpasync`, the universal ops) built over a
grid of its parameters, inside and around its domain (data types, shapes,
CTA groups, operand sources and majors, counts, transposes, repetitions,
bits per copy), each accepted op made into its atom; the shared-memory
atoms over every kind and many element types; `tile_to_mma_shape`; and the
`cutlass.utils` smem helpers over grids of tiles, types and majors.

    domain_cases("sm_100a") -> [{"id", "group": "domain", "op", "expr"}]

atom_cases.py samples the same classes at random with their tiled forms;
these grids ask the question the op classes' rules answer (which parameters
does the DSL take, and what does it build from them) on every point, so
that a rule written from CUTLASS's headers or the DSL's documentation is
checked against the DSL on its whole domain (docs/cute-dsl.md, "Sources").
The list is the same for every architecture: the DSL refuses what the
architecture lacks, and those refusals are compared too. Grids too large
to walk whole (tcgen05's) are sampled with a fixed seed.
"""

import itertools
import random

NV = "cute.nvgpu"
WG = NV + ".warpgroup"
T5 = NV + ".tcgen05"
K, MN = NV + ".OperandMajorMode.K", NV + ".OperandMajorMode.MN"
F16, BF16, F32, F64 = ("cute.Float16", "cute.BFloat16", "cute.Float32",
                       "cute.Float64")
TF32 = "cute.TFloat32"
E4M3, E5M2, E8M0 = ("cute.Float8E4M3FN", "cute.Float8E5M2",
                    "cute.Float8E8M0FNU")
F6A, F6B, F4 = "cute.Float6E2M3FN", "cute.Float6E3M2FN", "cute.Float4E2M1FN"
I8, U8, I32 = "cute.Int8", "cute.Uint8", "cute.Int32"


class _Out:
    """The cases, each expression once (a sampled grid may draw a point
    twice)."""

    def __init__(self, arch):
        self.arch = arch
        self.cases = []
        self.seen = set()

    def add(self, op, expr):
        if expr in self.seen:
            return
        self.seen.add(expr)
        self.cases.append({"id": "%s-d%05d" % (self.arch, len(self.cases)),
                           "group": "domain", "op": op, "expr": expr})

    def op_and_atom(self, op, expr, make="cute.make_mma_atom(%s)"):
        """The op printed, and its atom (refused with it when the op is)."""
        self.add(op, expr)
        self.add(op + "/atom", make % expr)


_WARP_SHAPES = ("(16, 8, 8)", "(16, 8, 16)", "(16, 8, 4)", "(16, 8, 32)",
                "(16, 8, 64)", "(16, 8)", "[16, 8, 16]", "(8, 8, 4)")


def warp_cases(out):
    for ab, acc, shape in itertools.product(
            (F16, BF16, F32, TF32, E4M3, I8), (F16, BF16, F32),
            _WARP_SHAPES):
        out.op_and_atom("warp.MmaF16BF16Op", "%s.warp.MmaF16BF16Op(%s, %s, %s)"
                        % (NV, ab, acc, shape))
    for shape in _WARP_SHAPES:
        out.op_and_atom("warp.MmaTF32Op", "%s.warp.MmaTF32Op(%s)" %
                        (NV, shape))
    for ab, acc, shape in itertools.product((E4M3, E5M2, F16, I8),
                                            (F16, BF16, F32), _WARP_SHAPES):
        out.op_and_atom("warp.MmaFP8Op", "%s.warp.MmaFP8Op(%s, %s, %s)" %
                        (NV, ab, acc, shape))
    for cls in ("MmaMXF4Op", "MmaMXF4NVF4Op", "MmaMXF8Op"):
        for ab, acc, sf in itertools.product((F4, E4M3, E5M2, F6A, F16),
                                             (F32, F16), (E8M0, E4M3, F16)):
            out.op_and_atom("warp." + cls, "%s.warp.%s(%s, %s, %s)" %
                            (NV, cls, ab, acc, sf))
    for a, b, acc, sf in itertools.product((F4, E4M3, E5M2, F6A, F6B),
                                           (F4, E4M3, E5M2, F6A, F6B),
                                           (F32, F16), (E8M0, E4M3)):
        out.op_and_atom("warp.MmaMXF8F6F4Op",
                        "%s.warp.MmaMXF8F6F4Op(%s, %s, %s, %s)" %
                        (NV, a, b, acc, sf))


_MATRIX_OPS = ("LdMatrix8x8x16bOp", "LdMatrix8x16x8bOp", "LdMatrix16x8x8bOp",
               "LdMatrix16x16x8bOp", "StMatrix8x8x16bOp", "StMatrix16x8x8bOp")


def matrix_cases(out):
    for cls in _MATRIX_OPS:
        name = "warp." + cls
        for t, n in itertools.product(("False", "True", "1"), (1, 2, 3, 4, 8)):
            op = "%s.warp.%s(%s, %d)" % (NV, cls, t, n)
            out.add(name, op)
            for dt in (F16, U8, F32):
                out.add(name + "/atom", "cute.make_copy_atom(%s, %s)" %
                        (op, dt))
        out.add(name, "%s.warp.%s()" % (NV, cls))
        for t, bits in itertools.product(("True", "False"), (4, 6, 8)):
            op = "%s.warp.%s(%s, 2, unpack_bits=%d)" % (NV, cls, t, bits)
            out.add(name, op)
            for dt in (U8, F16):
                out.add(name + "/atom", "cute.make_copy_atom(%s, %s)" %
                        (op, dt))


def universal_cases(out):
    for dt in (F16, BF16, F32, F64, TF32, I8, I32, E4M3):
        out.op_and_atom("MmaUniversalOp", "%s.MmaUniversalOp(%s)" % (NV, dt))
    out.add("CopyUniversalOp", "%s.CopyUniversalOp()" % NV)
    for dt, bits in itertools.product(
            (F16, F32, U8, F64, I32, "cute.Boolean"),
            (None, 0, 8, 16, 24, 32, 64, 128, 256, 512)):
        kw = "" if bits is None else ", num_bits_per_copy=%d" % bits
        out.add("CopyUniversalOp/atom", "cute.make_copy_atom(%s.CopyUniversalOp(),"
                " %s%s)" % (NV, dt, kw))
    for mode in ("ALWAYS", "GLOBAL", "STREAMING", "LAST_USE", "NONE"):
        op = "%s.cpasync.CopyG2SOp(cache_mode=%s.cpasync.LoadCacheMode.%s)" % (
            NV, NV, mode)
        out.add("cpasync.CopyG2SOp", op)
        for dt, bits in itertools.product((F16, F32, U8, F64),
                                          (None, 8, 16, 32, 64, 128, 256)):
            kw = "" if bits is None else ", num_bits_per_copy=%d" % bits
            out.add("cpasync.CopyG2SOp/atom", "cute.make_copy_atom(%s, %s%s)"
                    % (op, dt, kw))
    out.add("cpasync.CopyG2SOp", "%s.cpasync.CopyG2SOp()" % NV)
    # Copy arguments an op takes, ignores or refuses.
    for op, kw in (("%s.CopyUniversalOp()" % NV, "invariant=True"),
                   ("%s.CopyUniversalOp()" % NV, "num_bits_per_copy=32, "
                    "invariant=True"),
                   ("%s.CopyUniversalOp()" % NV, "num_bits_per_copy=32, foo=1"),
                   ("%s.CopyUniversalOp()" % NV, "num_bits_per_copy=-8"),
                   ("%s.CopyUniversalOp()" % NV, "num_bits_per_copy=12"),
                   ("%s.cpasync.CopyG2SOp()" % NV, "num_bits_per_copy=32, "
                    "foo=1"),
                   ("%s.cpasync.CopyG2SOp(cache_mode=3)" % NV,
                    "num_bits_per_copy=32"),
                   ("%s.warp.LdMatrix8x8x16bOp(False, 4)" % NV, "foo=1"),
                   ("%s.warp.StMatrix8x8x16bOp(False, 4)" % NV,
                    "num_bits_per_copy=32"),
                   ("%s.tcgen05.Ld32x32bOp(%s.tcgen05.Repetition.x1)" % (NV, NV),
                    "foo=1")):
        out.add("copy arguments", "cute.make_copy_atom(%s, %s, %s)" % (
            op, F16 if "Ld32" not in op else F32, kw))


def warpgroup_cases(out, rng):
    srcs = ("SMEM", "RMEM")
    majors = ((K, K), (K, MN), (MN, K), (MN, MN))
    for n in (8, 16, 24, 32, 40, 136, 248, 256, 264, 12, 0):
        for ab, acc in ((F16, F16), (F16, F32), (BF16, F32), (BF16, F16),
                        (F32, F32), (E4M3, F32)):
            src = rng.choice(srcs)
            ma, mb = rng.choice(majors)
            out.op_and_atom("warpgroup.MmaF16BF16Op", "%s.MmaF16BF16Op(%s, %s,"
                            " (64, %d, 16), %s.OperandSource.%s, %s, %s)" % (
                                WG, ab, acc, n, WG, src, ma, mb))
    for m, k in ((64, 16), (64, 32), (128, 16), (64, 8), (64, None)):
        shape = "(%d, 64)" % m if k is None else "(%d, 64, %d)" % (m, k)
        for src, (ma, mb) in itertools.product(srcs, majors):
            out.op_and_atom("warpgroup.MmaF16BF16Op", "%s.MmaF16BF16Op(%s, %s,"
                            " %s, %s.OperandSource.%s, %s, %s)" % (
                                WG, BF16, F32, shape, WG, src, ma, mb))
    for cls, types, accs in (("MmaF8Op", (E4M3, E5M2, F16, I8), (F16, F32,
                                                                 I32)),
                             ("MmaI8Op", (I8, U8, E4M3), (I32, F32))):
        for a, b, acc in itertools.product(types, types, accs):
            n = rng.choice((8, 16, 24, 32, 40, 48, 56, 136, 256, 264))
            k = rng.choice((32, 32, 32, 16, 64))
            src = rng.choice(srcs)
            ma, mb = rng.choice(majors)
            out.op_and_atom("warpgroup." + cls, "%s.%s(%s, %s, %s, (64, %d, "
                            "%d), %s.OperandSource.%s, %s, %s)" % (
                                WG, cls, a, b, acc, n, k, WG, src, ma, mb))
        for n in range(8, 257, 8):
            out.op_and_atom("warpgroup." + cls, "%s.%s(%s, %s, %s, (64, %d, "
                            "32), %s.OperandSource.SMEM, %s, %s)" % (
                                WG, cls, types[0], types[1], accs[0], n, WG,
                                K, K))


def _umma_tail(cta, src, ma, mb):
    return "%s.CtaGroup.%s, %s.OperandSource.%s, %s, %s" % (T5, cta, T5, src,
                                                            ma, mb)


# (class, the arguments before the shape, K values, whether the class
# takes a_src and majors, trailing arguments)
_UMMA = [
    ("MmaTF32Op", ("",), (8, 16), True, ""),
    ("MmaF16BF16Op", ("%s, %s, " % (F16, F32), "%s, %s, " % (BF16, F32),
                      "%s, %s, " % (F16, F16), "%s, %s, " % (BF16, F16),
                      "%s, %s, " % (F32, F32)), (16, 32), True, ""),
    ("MmaI8Op", ("%s, " % I8, "%s, " % U8, "%s, " % E4M3), (32, 16), True,
     ""),
    ("MmaFP8Op", ("%s, %s, " % (E4M3, F32), "%s, %s, " % (E5M2, F16),
                  "%s, %s, " % (F16, F32), "%s, %s, " % (E4M3, BF16)),
     (32, 64), True, ""),
    ("MmaF8F6F4Op", tuple("%s, %s, %s, " % (a, b, c) for a, b, c in (
        (E4M3, F4, F32), (F6A, F6B, F16), (E5M2, E5M2, F32), (F16, E4M3, F32),
        (F4, F4, BF16))), (32, 64), True, ""),
    ("MmaMXF8Op", ("%s, " % E4M3, "%s, " % E5M2, "%s, " % F16), (32, 64),
     True, ""),
    ("MmaMXF8F6F4Op", ("%s, %s, " % (E4M3, F4), "%s, %s, " % (F6A, F6B),
                       "%s, %s, " % (F16, F4)), (32, 64), True, ""),
    ("MmaMXF4Op", ("",), (64, 32, 96), False, ""),
    ("MmaMXF4NVF4Op", ("%s, " % E8M0, "%s, " % E4M3, "%s, " % F16),
     (64, 96), False, ""),
    ("SM103MmaMXF4Op", ("",), (96, 64), False, ""),
    ("SM103MmaMXF4NVF4Op", ("%s, " % E8M0, "%s, " % E4M3), (96, 64), False,
     ""),
    ("MmaF16BF16SparseOp", ("%s, %s, " % (F16, F32), "%s, %s, " % (BF16, F16),
                            "%s, %s, " % (E4M3, F32)), (32, 16), True,
     ", %s.SparseMetadataFormat.TID" % T5),
    ("MmaFP8SparseOp", ("%s, %s, " % (E4M3, F32), "%s, %s, " % (E5M2, F16),
                        "%s, %s, " % (F16, F32)), (64, 32), True,
     ", %s.SparseMetadataFormat.TID" % T5),
]


def tcgen05_mma_cases(out, rng, per_class=150):
    for cls, heads, ks, full, tail in _UMMA:
        seen = set()
        for _ in range(per_class):
            cta = rng.choice(("ONE", "TWO"))
            m = rng.choice((64, 128, 256, 32))
            n = rng.choice((8, 16, 24, 32, 48, 64, 112, 128, 136, 248, 256,
                            264, 12))
            k = rng.choice(ks)
            shape = "(%d, %d, %d)" % (m, n, k) if rng.random() < 0.9 else \
                "(%d, %d)" % (m, n)
            if full:
                src = rng.choice(("SMEM", "SMEM", "TMEM"))
                ma, mb = rng.choice(((K, K), (K, MN), (MN, K), (MN, MN)))
                rest = _umma_tail(cta, src, ma, mb)
            else:
                rest = "%s.CtaGroup.%s, %s.OperandSource.%s" % (
                    T5, cta, T5, rng.choice(("SMEM", "SMEM", "TMEM")))
            expr = "%s.%s(%s%s, %s%s)" % (T5, cls, rng.choice(heads), shape,
                                          rest, tail)
            if expr not in seen:
                seen.add(expr)
                out.op_and_atom("tcgen05." + cls, expr)


def tcgen05_copy_cases(out):
    for cls in ("Ld16x64bOp", "Ld16x128bOp", "Ld16x256bOp", "Ld16x32bx2Op",
                "Ld32x32bOp", "St16x64bOp", "St16x128bOp", "St16x256bOp",
                "St16x32bx2Op", "St32x32bOp"):
        flag = ("%s.Pack.PACK_16b_IN_32b" % T5 if cls.startswith("Ld") else
                "%s.Unpack.UNPACK_32b_IN_16b" % T5)
        for rep in ("x1", "x2", "x4", "x8", "x16", "x32", "x64", "x128"):
            for f in ("", ", " + flag):
                op = "%s.%s(%s.Repetition.%s%s)" % (T5, cls, T5, rep, f)
                out.add("tcgen05." + cls, op)
                for dt in (F32, F16, I32):
                    out.add("tcgen05.%s/atom" % cls,
                            "cute.make_copy_atom(%s, %s)" % (op, dt))
        if cls.startswith("Ld"):
            out.add("tcgen05." + cls, "%s.%s()" % (T5, cls))


_ELEMENT_TYPES = (F16, BF16, F32, TF32, E4M3, I8, U8, F64, F6A, F4, I32,
                  "cute.Boolean")


def smem_atom_cases(out):
    for module, kinds in ((WG, ("MN_INTER", "MN_SW32", "MN_SW64", "MN_SW128",
                                "K_INTER", "K_SW32", "K_SW64", "K_SW128")),
                          (T5, ("MN_INTER", "MN_SW32", "MN_SW64", "MN_SW128",
                                "MN_SW128_32B", "K_INTER", "K_SW32", "K_SW64",
                                "K_SW128"))):
        name = module.split(".")[-1] + ".make_smem_layout_atom"
        for kind, dt in itertools.product(kinds, _ELEMENT_TYPES):
            out.add(name, "%s.make_smem_layout_atom(%s.SmemLayoutAtomKind.%s,"
                    " %s)" % (module, module, kind, dt))


def tile_to_mma_shape_cases(out, rng):
    kinds = ("MN_INTER", "MN_SW32", "MN_SW64", "MN_SW128", "MN_SW128_32B",
             "K_INTER", "K_SW32", "K_SW64", "K_SW128")
    for kind in kinds:
        for dt in (F16, F32, E4M3):
            atom = "%s.make_smem_layout_atom(%s.SmemLayoutAtomKind.%s, %s)" % (
                T5, T5, kind, dt)
            for _ in range(5):
                shape = "((%d, %d), %d, %d%s)" % (
                    rng.choice((64, 128, 256, 96)),
                    rng.choice((8, 16, 32, 64, 128)), rng.choice((1, 2, 3)),
                    rng.choice((1, 2, 4)),
                    rng.choice(("", ", 2", ", 3", ", 4")))
                order = rng.choice(("", ", order=(1, 2, 3)",
                                    ", order=(2, 1, 3)", ", order=(0, 1)",
                                    ", order=(1, 0)"))
                out.add("tcgen05.tile_to_mma_shape",
                        "%s.tile_to_mma_shape(%s, %s%s)" % (T5, atom, shape,
                                                            order))


def sm90_helper_cases(out, rng):
    lays = ("utils.LayoutEnum.ROW_MAJOR", "utils.LayoutEnum.COL_MAJOR")
    types = (F16, BF16, F32, E4M3, I8, F64, TF32)
    for lay, dt, size in itertools.product(lays, types,
                                           (4, 8, 12, 16, 24, 32, 40, 48, 64,
                                            96, 128, 256)):
        out.add("utils.sm90.get_smem_layout_atom",
                "utils.sm90.get_smem_layout_atom(%s, %s, %d)" % (lay, dt,
                                                                  size))
    for _ in range(120):
        lay, dt = rng.choice(lays), rng.choice(types)
        tiler = "(%d, %d, %d)" % (rng.choice((64, 128, 256, 192, 8, 24)),
                                  rng.choice((64, 128, 256, 8, 24, 40)),
                                  rng.choice((16, 32, 64, 128, 8, 24)))
        fn = rng.choice("ab")
        out.add("utils.sm90.make_smem_layout_" + fn,
                "utils.sm90.make_smem_layout_%s(%s, %s, %s, %d)" % (
                    fn, lay, tiler, dt, rng.choice((1, 2, 4, 7))))
    for lay, tiler in itertools.product(lays, (
            "((64, 2), 128, (32, 2))", "(128, (64, 2), 64)", "(128, 128)",
            "(128, 128, 64, 2)", "128")):
        out.add("utils.sm90.make_smem_layout_a",
                "utils.sm90.make_smem_layout_a(%s, %s, %s, 2)" % (lay, tiler,
                                                                  F16))
    for _ in range(60):
        lay, dt = rng.choice(lays), rng.choice(types)
        epi = "(%d, %d)" % (rng.choice((64, 128, 8, 24, 32)),
                            rng.choice((16, 32, 64, 8, 24)))
        out.add("utils.sm90.make_smem_layout_epi",
                "utils.sm90.make_smem_layout_epi(%s, %s, %s, %d)" % (
                    dt, lay, epi, rng.choice((1, 2, 4))))


def _tiled_mma(rng):
    cta = rng.choice(("ONE", "TWO"))
    m = rng.choice((64, 128)) if cta == "ONE" else rng.choice((128, 256))
    n = rng.choice((64, 128, 256, 32))
    ma, mb = rng.choice(((K, K), (K, MN), (MN, K), (MN, MN)))
    tail = _umma_tail(cta, "SMEM", ma, mb)
    kind = rng.choice(("F16", "TF32", "FP8", "I8"))
    if kind == "F16":
        return F16, "%s.MmaF16BF16Op(%s, %s, (%d, %d, 16), %s)" % (
            T5, F16, F32, m, n, tail)
    if kind == "TF32":
        return F32, "%s.MmaTF32Op((%d, %d, 8), %s)" % (T5, m, n, tail)
    if kind == "FP8":
        return E4M3, "%s.MmaFP8Op(%s, %s, (%d, %d, 32), %s)" % (
            T5, E4M3, F32, m, n, tail)
    return I8, "%s.MmaI8Op(%s, (%d, %d, 32), %s)" % (T5, I8, m, n, tail)


def sm100_helper_cases(out, rng):
    majors = (K, MN)
    types = (F16, BF16, F32, E4M3, I8, F64, TF32, F4)
    for major, dt, mn, k in itertools.product(majors, types, (64, 128, 24),
                                              (4, 8, 16, 24, 32, 48, 64,
                                               128)):
        out.add("utils.sm100.get_smem_layout_atom_ab",
                "utils.sm100.get_smem_layout_atom_ab(%s, %s, (%d, %d))" % (
                    major, dt, mn, k))
    for _ in range(40):
        major, dt = rng.choice(majors), rng.choice(types)
        sp = rng.choice((1, 2, 4))
        out.add("utils.sm100.get_smem_layout_atom_ab",
                "utils.sm100.get_smem_layout_atom_ab(%s, %s, (%d, %d), %d)" % (
                    major, dt, rng.choice((64, 128)),
                    rng.choice((16, 32, 64, 128)), sp))
    for _ in range(100):
        dt, op = _tiled_mma(rng)
        tiler = "(%d, %d, %d)" % (rng.choice((128, 256, 64)),
                                  rng.choice((64, 128, 256)),
                                  rng.choice((32, 64, 128, 16)))
        fn = rng.choice("ab")
        major = rng.choice(("", ", is_k_major=True", ", is_k_major=False"))
        out.add("utils.sm100.make_smem_layout_" + fn,
                "utils.sm100.make_smem_layout_%s(cute.make_tiled_mma(%s), %s,"
                " %s, %d%s)" % (fn, op, tiler, dt, rng.choice((1, 2, 4)),
                                major))
    lays = ("utils.LayoutEnum.ROW_MAJOR", "utils.LayoutEnum.COL_MAJOR")
    # Epilogue modes given as layouts: the contiguous extent is the size of
    # the layout's right inverse.
    for lay, mode, dt in itertools.product(lays, (
            "cute.make_layout((8, 4), stride=(4, 1))",
            "cute.make_layout((4, 8), stride=(1, 8))",
            "cute.make_layout((8, 8), stride=(1, 16))",
            "cute.make_layout(64, stride=2)", "(32, 2)"), (F16, I8)):
        tile = "(%s, 64)" % mode if "COL" in lay else "(64, %s)" % mode
        out.add("utils.sm100.get_smem_layout_atom_epi",
                "utils.sm100.get_smem_layout_atom_epi(%s, %s, %s)" % (
                    lay, dt, tile))
        out.add("utils.sm100.make_smem_layout_epi",
                "utils.sm100.make_smem_layout_epi(%s, %s, %s, 2)" % (
                    dt, lay, tile))
    for lay, dt in itertools.product(lays, (F4, F6A, "cute.Boolean", F64)):
        out.add("utils.sm100.make_smem_layout_epi",
                "utils.sm100.make_smem_layout_epi(%s, %s, (64, 64), 2)" % (
                    dt, lay))
    for _ in range(80):
        lay, dt = rng.choice(lays), rng.choice(types + ("cute.Boolean",))
        epi = rng.choice(("(%d, %d)" % (rng.choice((64, 128, 8, 24, 32)),
                                        rng.choice((16, 32, 64, 8, 24))),
                          "(cute.make_layout(%d), cute.make_layout(%d))" % (
                              rng.choice((64, 128)), rng.choice((16, 32))),
                          "(cute.make_layout((2, 32), stride=(32, 1)), 32)"))
        fn = rng.choice(("get_smem_layout_atom_epi(%s, %s, %s)" % (lay, dt,
                                                                   epi),
                         "make_smem_layout_epi(%s, %s, %s, %d)" % (
                             dt, lay, epi, rng.choice((1, 2, 4)))))
        out.add("utils.sm100." + fn.split("(")[0], "utils.sm100." + fn)


def domain_cases(arch, seed=20261126):
    """The domain cases for one architecture (the same list for every
    architecture and seed: the grids are fixed, the sampled parts drawn
    from their own seed)."""
    rng = random.Random(seed)
    out = _Out(arch)
    warp_cases(out)
    matrix_cases(out)
    universal_cases(out)
    warpgroup_cases(out, rng)
    tcgen05_mma_cases(out, rng)
    tcgen05_copy_cases(out)
    smem_atom_cases(out)
    tile_to_mma_shape_cases(out, rng)
    sm90_helper_cases(out, rng)
    sm100_helper_cases(out, rng)
    return out.cases
