"""Seeded atom and tiled-atom cases for the CuTe DSL harness, the same list
for every architecture (the DSL refuses what the architecture lacks, and
the refusals are compared too).

    atom_cases(random.Random(1), "sm_90a", -1) -> [{"id", "group", "op",
                                                  "expr"}]

Every operation class of the DSL the twin models is made with parameters
drawn from its whole domain (and a few outside it): printed as an op, made
into an atom (make_mma_atom / make_copy_atom, printed), tiled (make_tiled_mma
with random atom layouts and permutations; make_tiled_copy_tv with random
thread and value layouts; make_tiled_copy_A/B/C/C_atom/S/D), and the tiled
accessors (tv_layout_*_tiled, thr_layout_vmnk, permutation_mnk, size,
layout_*_tv_tiled, tiler_mn); the shared-memory atoms of warpgroup and
tcgen05, tile_to_mma_shape, and the smem helpers of cutlass.utils.
"""


NV = "cute.nvgpu"
MAJ = {"K": "cute.nvgpu.OperandMajorMode.K",
       "MN": "cute.nvgpu.OperandMajorMode.MN"}
F16, BF16, F32 = "cute.Float16", "cute.BFloat16", "cute.Float32"
E4M3, E5M2 = "cute.Float8E4M3FN", "cute.Float8E5M2"


class Out:
    def __init__(self, arch):
        self.cases = []
        self.arch = arch

    def add(self, op, expr):
        self.cases.append({"id": "%s-%05d" % (self.arch, len(self.cases)),
                           "group": "atom", "op": op, "expr": expr})


def _tiled_mma_args(rng, threads=1):
    k = rng.random()
    if k < 0.3:
        layout = "(1, 1, 1)"
    elif k < 0.7:
        layout = "(%d, %d, 1)" % (rng.choice([1, 2, 4]), rng.choice([1, 2]))
    else:
        layout = "cute.make_layout((2, 2, 1), stride=(%s))" % rng.choice(
            ["2, 1, 0", "1, 2, 0"])
    perm = rng.random()
    if perm < 0.5:
        return layout, None
    if perm < 0.75:
        return layout, "(%d, %d, %d)" % (rng.choice([16, 32, 64]),
                                         rng.choice([8, 16, 32]),
                                         rng.choice([8, 16, 32]))
    return layout, ("(None, cute.make_layout((8, 2, 2), stride=(1, 16, 8)), "
                    "None)")


def _mma_family(out, rng, op_text, name, tiled=2, threads=32):
    """An op, its atom and a few tiled MMAs with their accessors."""
    out.add(name, op_text)
    atom = "cute.make_mma_atom(%s)" % op_text
    out.add(name, atom)
    for acc in ("tv_layout_A", "tv_layout_B", "tv_layout_C", "shape_mnk",
                "thr_id"):
        if rng.random() < 0.3:
            out.add(name, "%s.%s" % (atom, acc))
    for _ in range(tiled):
        layout, perm = _tiled_mma_args(rng, threads)
        tm = "cute.make_tiled_mma(%s, %s%s)" % (
            op_text, layout, "" if perm is None else ", " + perm)
        out.add(name + "/tiled", tm)
        acc = rng.choice(["tv_layout_A_tiled", "tv_layout_B_tiled",
                          "tv_layout_C_tiled", "thr_layout_vmnk",
                          "permutation_mnk", "size", "partition_shape"])
        if acc == "partition_shape":
            acc = "partition_shape_%s(%s)" % (
                rng.choice("ABC"), rng.choice(_PARTITION_SHAPES))
        out.add(name + "/tiled", "%s.%s" % (tm, acc))


# Tiles handed to partition_shape_A/B/C: most divide by the tiled MMA's tile.
_PARTITION_SHAPES = ("(128, 128)", "(256, 64)", "(64, 32)", "(128, 256)",
                     "(512, 256)", "((64, 2), (32, 4))", "(256, 128, 2)",
                     "(cute.Int32(256), 128)")


def warp_cases(out, rng):
    for ab in (F16, BF16, F32):
        for acc in (F16, F32):
            for shape in ("(16, 8, 8)", "(16, 8, 16)", "(16, 8, 4)"):
                if ab == F32 and shape != "(16, 8, 8)":
                    continue
                op = "%s.warp.MmaF16BF16Op(%s, %s, %s)" % (NV, ab, acc, shape)
                _mma_family(out, rng, op, "warp.MmaF16BF16Op",
                            tiled=2 if shape != "(16, 8, 4)" else 0)
    for shape in ("(16, 8, 4)", "(16, 8, 8)", "(16, 8, 16)"):
        _mma_family(out, rng, "%s.warp.MmaTF32Op(%s)" % (NV, shape),
                    "warp.MmaTF32Op")
    for ab in (E4M3, E5M2):
        for acc in (F16, F32):
            for shape in ("(16, 8, 16)", "(16, 8, 32)"):
                _mma_family(out, rng, "%s.warp.MmaFP8Op(%s, %s, %s)" % (
                    NV, ab, acc, shape), "warp.MmaFP8Op", tiled=1)
    mx = [("MmaMXF4Op", "cute.Float4E2M1FN", "cute.Float8E8M0FNU"),
          ("MmaMXF4NVF4Op", "cute.Float4E2M1FN", "cute.Float8E4M3FN"),
          ("MmaMXF8Op", E4M3, "cute.Float8E8M0FNU"),
          ("MmaMXF8Op", E5M2, "cute.Float8E8M0FNU")]
    for cls, ab, sf in mx:
        _mma_family(out, rng, "%s.warp.%s(%s, %s, %s)" % (NV, cls, ab, F32,
                                                         sf),
                    "warp." + cls, tiled=1)
    for a, b in (("cute.Float4E2M1FN", E4M3), (E5M2, "cute.Float4E2M1FN"),
                 (E4M3, E5M2)):
        _mma_family(out, rng, "%s.warp.MmaMXF8F6F4Op(%s, %s, %s, %s)" % (
            NV, a, b, F32, "cute.Float8E8M0FNU"), "warp.MmaMXF8F6F4Op",
            tiled=1)
    for abacc in (F16, F32, "cute.Float64", BF16):
        _mma_family(out, rng, "%s.MmaUniversalOp(%s)" % (NV, abacc),
                    "MmaUniversalOp", tiled=2, threads=1)


def _copy_atom(op, dtype, kwargs=""):
    return "cute.make_copy_atom(%s, %s%s)" % (op, dtype, kwargs)


def copy_cases(out, rng):
    ldsm = []
    for cls in ("LdMatrix8x8x16bOp", "StMatrix8x8x16bOp"):
        for t in ("False", "True"):
            for n in (1, 2, 4, 3):
                op = "%s.warp.%s(%s, %d)" % (NV, cls, t, n)
                out.add("warp." + cls, op)
                for dt in (F16, BF16, F32, "cute.Uint8"):
                    if rng.random() < 0.5 or dt == F16:
                        out.add("warp." + cls, _copy_atom(op, dt))
                if n in (1, 2, 4):
                    ldsm.append(_copy_atom(op, F16))
    for cls, ns in (("LdMatrix16x8x8bOp", (2, 4, 1)),
                    ("LdMatrix16x16x8bOp", (1, 2, 4)),
                    ("StMatrix16x8x8bOp", (1, 2, 4))):
        for n in ns:
            for t in ("True", "False"):
                op = "%s.warp.%s(%s, %d)" % (NV, cls, t, n)
                out.add("warp." + cls, op)
                out.add("warp." + cls, _copy_atom(op, "cute.Uint8"))
    univ = []
    for bits in (0, 8, 16, 32, 64, 128, 24):
        for dt in (F16, F32, "cute.Uint8", BF16):
            if rng.random() < 0.6:
                kw = "" if bits == 0 else ", num_bits_per_copy=%d" % bits
                a = _copy_atom("%s.CopyUniversalOp()" % NV, dt, kw)
                out.add("CopyUniversalOp", a)
                univ.append(a)
    out.add("CopyUniversalOp", "%s.CopyUniversalOp()" % NV)
    for mode in ("ALWAYS", "GLOBAL", "STREAMING"):
        op = "%s.cpasync.CopyG2SOp(cache_mode=%s.cpasync.LoadCacheMode.%s)" % (
            NV, NV, mode)
        out.add("cpasync.CopyG2SOp", op)
        for bits in (32, 64, 128, 16):
            for dt in (F16, F32, "cute.Uint8"):
                if rng.random() < 0.5:
                    a = _copy_atom(op, dt, ", num_bits_per_copy=%d" % bits)
                    out.add("cpasync.CopyG2SOp", a)
                    univ.append(a)
    return ldsm, univ


def tiled_copy_cases(out, rng, ldsm, univ, mma_ops):
    for a in univ:
        for _ in range(2):
            thr = rng.choice(["(32, 4), stride=(4, 1)", "(32, 4)",
                              "(8, 16), stride=(16, 1)", "(16, 8)", "(4, 32)"])
            val = rng.choice(["(1, 8)", "(8, 1)", "(2, 4)", "(1, 1)",
                              "(4, 2), stride=(2, 1)"])
            tc = "cute.make_tiled_copy_tv(%s, cute.make_layout(%s), " \
                 "cute.make_layout(%s))" % (a, thr, val)
            out.add("make_tiled_copy_tv", tc)
            acc = rng.choice(["layout_tv_tiled", "layout_src_tv_tiled",
                              "layout_dst_tv_tiled", "tiler_mn", "size"])
            out.add("make_tiled_copy_tv", "%s.%s" % (tc, acc))
            if rng.random() < 0.3:
                small = _copy_atom("%s.CopyUniversalOp()" % NV, F16)
                out.add("make_tiled_copy_S", "cute.make_tiled_copy_%s(%s, %s)" %
                        (rng.choice("SD"), small, tc))
    for op in mma_ops:
        for _ in range(3):
            layout, perm = _tiled_mma_args(rng)
            tm = "cute.make_tiled_mma(%s, %s%s)" % (
                op, layout, "" if perm is None else ", " + perm)
            # A 32-thread ldmatrix only with a warp MMA (the DSL builds
            # meaningless copies of 32-thread atoms over one-thread MMAs).
            warp = "warp." in op
            atom = rng.choice((ldsm if warp else []) + univ[:4])
            which = rng.choice(["A", "B", "C", "C_atom"])
            tc = "cute.make_tiled_copy_%s(%s, %s)" % (which, atom, tm)
            out.add("make_tiled_copy_" + which, tc)
            if rng.random() < 0.5:
                out.add("make_tiled_copy_" + which, "%s.%s" % (
                    tc, rng.choice(["layout_src_tv_tiled",
                                    "layout_dst_tv_tiled", "tiler_mn"])))


def _wg_n(rng):
    return rng.choice([8, 16, 24, 32, 40, 48, 64, 96, 128, 136, 192, 256,
                       264, 12])


def warpgroup_cases(out, rng):
    wg = NV + ".warpgroup"
    for _ in range(24):
        ab = rng.choice([F16, BF16])
        acc = rng.choice([F16, F32])
        src = rng.choice(["SMEM", "RMEM"])
        op = "%s.MmaF16BF16Op(%s, %s, (64, %d, 16), %s.OperandSource.%s, " \
             "%s, %s)" % (wg, ab, acc, _wg_n(rng), wg, src,
                          MAJ[rng.choice(["K", "MN"])],
                          MAJ[rng.choice(["K", "MN"])])
        _mma_family(out, rng, op, "warpgroup.MmaF16BF16Op", tiled=1)
    for _ in range(14):
        op = "%s.MmaF8Op(%s, %s, %s, (64, %d, 32), %s.OperandSource.%s, " \
             "%s, %s)" % (wg, rng.choice([E4M3, E5M2]),
                          rng.choice([E4M3, E5M2]), rng.choice([F16, F32]),
                          _wg_n(rng), wg, rng.choice(["SMEM", "RMEM"]),
                          MAJ["K"], MAJ[rng.choice(["K", "K", "MN"])])
        _mma_family(out, rng, op, "warpgroup.MmaF8Op", tiled=1)
    for _ in range(8):
        op = "%s.MmaI8Op(%s, %s, cute.Int32, (64, %d, 32), " \
             "%s.OperandSource.SMEM, %s, %s)" % (
                 wg, rng.choice(["cute.Int8", "cute.Uint8"]),
                 rng.choice(["cute.Int8", "cute.Uint8"]), _wg_n(rng), wg,
                 MAJ["K"], MAJ["K"])
        _mma_family(out, rng, op, "warpgroup.MmaI8Op", tiled=1)
    for kind in ("MN_INTER", "MN_SW32", "MN_SW64", "MN_SW128", "K_INTER",
                 "K_SW32", "K_SW64", "K_SW128"):
        for dt in (F16, F32, E4M3, BF16):
            if rng.random() < 0.5 or dt == F16:
                out.add("warpgroup.make_smem_layout_atom",
                        "%s.make_smem_layout_atom(%s.SmemLayoutAtomKind.%s, "
                        "%s)" % (wg, wg, kind, dt))


def _umma_op(rng):
    t = NV + ".tcgen05"
    cta = rng.choice(["ONE", "TWO"])
    m = rng.choice([64, 128] if cta == "ONE" else [128, 256])
    n = rng.choice([8, 16, 32, 48, 64, 128, 192, 256, 24])
    src = rng.choice(["SMEM", "SMEM", "TMEM"])
    ma = MAJ["K"] if src == "TMEM" else MAJ[rng.choice(["K", "MN"])]
    mb = MAJ[rng.choice(["K", "MN"])]
    tail = "%s.CtaGroup.%s, %s.OperandSource.%s, %s, %s" % (t, cta, t, src,
                                                            ma, mb)
    kind = rng.choice(["F16", "TF32", "I8", "FP8", "F8F6F4", "MXF8",
                       "MXF8F6F4", "MXF4", "MXF4NVF4", "SM103", "SPARSE",
                       "SPARSE8"])
    if kind == "F16":
        return "MmaF16BF16Op", "%s.MmaF16BF16Op(%s, %s, (%d, %d, 16), %s)" % (
            t, rng.choice([F16, BF16]), rng.choice([F16, F32]), m, n, tail)
    if kind == "TF32":
        return "MmaTF32Op", "%s.MmaTF32Op((%d, %d, 8), %s)" % (t, m, n, tail)
    if kind == "I8":
        return "MmaI8Op", "%s.MmaI8Op(%s, (%d, %d, 32), %s)" % (
            t, rng.choice(["cute.Int8", "cute.Uint8"]), m, n, tail)
    if kind == "FP8":
        return "MmaFP8Op", "%s.MmaFP8Op(%s, %s, (%d, %d, 32), %s)" % (
            t, rng.choice([E4M3, E5M2]), rng.choice([F16, F32]), m, n, tail)
    f8f6f4 = [E4M3, E5M2, "cute.Float6E2M3FN", "cute.Float6E3M2FN",
              "cute.Float4E2M1FN"]
    if kind == "F8F6F4":
        return "MmaF8F6F4Op", "%s.MmaF8F6F4Op(%s, %s, %s, (%d, %d, 32), %s)" % (
            t, rng.choice(f8f6f4), rng.choice(f8f6f4), rng.choice([F16, F32]),
            m, n, tail)
    bs_m = 128 if cta == "ONE" else rng.choice([128, 256])
    if kind == "MXF8":
        return "MmaMXF8Op", "%s.MmaMXF8Op(%s, (%d, %d, 32), %s)" % (
            t, rng.choice([E4M3, E5M2]), bs_m, n, tail)
    if kind == "MXF8F6F4":
        return "MmaMXF8F6F4Op", "%s.MmaMXF8F6F4Op(%s, %s, (%d, %d, 32), " \
            "%s)" % (t, rng.choice(f8f6f4), rng.choice(f8f6f4), bs_m, n, tail)
    short = "%s.CtaGroup.%s, %s.OperandSource.SMEM" % (t, cta, t)
    if kind == "MXF4":
        return "MmaMXF4Op", "%s.MmaMXF4Op((%d, %d, 64), %s)" % (t, bs_m, n,
                                                                short)
    if kind == "MXF4NVF4":
        return "MmaMXF4NVF4Op", "%s.MmaMXF4NVF4Op(%s, (%d, %d, 64), %s)" % (
            t, rng.choice(["cute.Float8E8M0FNU", E4M3]), bs_m, n, short)
    if kind == "SM103":
        cls = rng.choice(["SM103MmaMXF4Op", "SM103MmaMXF4NVF4Op"])
        sf = "" if cls == "SM103MmaMXF4Op" else rng.choice(
            ["cute.Float8E8M0FNU", E4M3]) + ", "
        return cls, "%s.%s(%s(%d, %d, 96), %s)" % (t, cls, sf, bs_m,
                                                   rng.choice([16, 32, 128,
                                                               256]), short)
    fmt = "%s.SparseMetadataFormat.TID" % t
    if kind == "SPARSE":
        return "MmaF16BF16SparseOp", "%s.MmaF16BF16SparseOp(%s, %s, (%d, %d, " \
            "32), %s, %s)" % (t, rng.choice([F16, BF16]), rng.choice([F16,
                                                                      F32]),
                              m, n, tail, fmt)
    return "MmaFP8SparseOp", "%s.MmaFP8SparseOp(%s, %s, (%d, %d, 64), %s, " \
        "%s)" % (t, rng.choice([E4M3, E5M2]), rng.choice([F16, F32]), m, n,
                 tail, fmt)


def tcgen05_cases(out, rng):
    t = NV + ".tcgen05"
    for _ in range(70):
        name, op = _umma_op(rng)
        _mma_family(out, rng, op, "tcgen05." + name, tiled=1, threads=1)
    for ld in ("Ld16x64bOp", "Ld16x128bOp", "Ld16x256bOp", "Ld16x32bx2Op",
               "Ld32x32bOp", "St16x64bOp", "St16x128bOp", "St16x256bOp",
               "St16x32bx2Op", "St32x32bOp"):
        for rep in ("x1", "x2", "x4", "x8", "x16", "x32", "x64", "x128"):
            if rng.random() < 0.5:
                continue
            flag = ""
            if rng.random() < 0.4:
                flag = (", %s.Pack.PACK_16b_IN_32b" % t if ld.startswith("Ld")
                        else ", %s.Unpack.UNPACK_32b_IN_16b" % t)
            op = "%s.%s(%s.Repetition.%s%s)" % (t, ld, t, rep, flag)
            out.add("tcgen05." + ld, op)
            dt = rng.choice([F32, F16, "cute.Int32"])
            out.add("tcgen05." + ld, _copy_atom(op, dt))
    kinds = ("MN_INTER", "MN_SW32", "MN_SW64", "MN_SW128", "MN_SW128_32B",
             "K_INTER", "K_SW32", "K_SW64", "K_SW128")
    for kind in kinds:
        for dt in (F16, F32, E4M3, BF16):
            if rng.random() < 0.5 or dt == F16:
                out.add("tcgen05.make_smem_layout_atom",
                        "%s.make_smem_layout_atom(%s.SmemLayoutAtomKind.%s, "
                        "%s)" % (t, t, kind, dt))
    for _ in range(16):
        kind = rng.choice(kinds)
        dt = rng.choice([F16, F32, E4M3])
        atom = "%s.make_smem_layout_atom(%s.SmemLayoutAtomKind.%s, %s)" % (
            t, t, kind, dt)
        shape = "((%d, %d), %d, %d, %d)" % (rng.choice([64, 128]),
                                            rng.choice([16, 32, 64]),
                                            rng.choice([1, 2]),
                                            rng.choice([1, 2, 4]),
                                            rng.choice([2, 3, 4]))
        order = rng.choice(["", ", order=(1, 2, 3)", ", order=(2, 1, 3)"])
        out.add("tcgen05.tile_to_mma_shape",
                "%s.tile_to_mma_shape(%s, %s%s)" % (t, atom, shape, order))


def utils_cases(out, rng):
    for _ in range(16):
        lay = "utils.LayoutEnum.%s" % rng.choice(["ROW_MAJOR", "COL_MAJOR"])
        tiler = "(%d, %d, %d)" % (rng.choice([64, 128, 256]),
                                  rng.choice([64, 128, 256]),
                                  rng.choice([16, 32, 64, 128]))
        dt = rng.choice([F16, F32, E4M3, BF16])
        stages = rng.choice([2, 3, 4, 7])
        fn = rng.choice(["a", "b"])
        out.add("utils.sm90.make_smem_layout_" + fn,
                "utils.sm90.make_smem_layout_%s(%s, %s, %s, %d)" % (
                    fn, lay, tiler, dt, stages))
        epi = "(%d, %d)" % (rng.choice([64, 128]), rng.choice([16, 32, 64]))
        out.add("utils.sm90.make_smem_layout_epi",
                "utils.sm90.make_smem_layout_epi(%s, %s, %s, %d)" % (
                    dt, lay, epi, rng.choice([2, 4])))
        out.add("utils.sm100.make_smem_layout_epi",
                "utils.sm100.make_smem_layout_epi(%s, %s, %s, %d)" % (
                    dt, lay, epi, rng.choice([2, 4])))
    for _ in range(14):
        name, op = _umma_op(rng)
        if name not in ("MmaF16BF16Op", "MmaTF32Op", "MmaFP8Op", "MmaI8Op"):
            continue
        tm = "cute.make_tiled_mma(%s)" % op
        tiler = "(%d, %d, %d)" % (rng.choice([128, 256]),
                                  rng.choice([64, 128, 256]),
                                  rng.choice([32, 64, 128]))
        dt = {"MmaF16BF16Op": F16, "MmaTF32Op": F32, "MmaFP8Op": E4M3,
              "MmaI8Op": "cute.Int8"}[name]
        for fn in ("a", "b"):
            out.add("utils.sm100.make_smem_layout_" + fn,
                    "utils.sm100.make_smem_layout_%s(%s, %s, %s, %d)" % (
                        fn, tm, tiler, dt, rng.choice([2, 3, 4])))


def atom_cases(rng, arch, limit=-1):
    """The atom cases for one architecture (limit > 0: a random sample)."""
    out = Out(arch)
    warp_cases(out, rng)
    ldsm, univ = copy_cases(out, rng)
    mma_ops = ["%s.warp.MmaF16BF16Op(%s, %s, (16, 8, 16))" % (NV, F16, F32),
               "%s.warp.MmaF16BF16Op(%s, %s, (16, 8, 8))" % (NV, BF16, F32),
               "%s.MmaUniversalOp(%s)" % (NV, F32)]
    tiled_copy_cases(out, rng, ldsm, univ, mma_ops)
    warpgroup_cases(out, rng)
    tcgen05_cases(out, rng)
    utils_cases(out, rng)
    cases = out.cases
    if 0 < limit < len(cases):
        cases = rng.sample(cases, limit)
    return cases
