"""The op classes of hlolayout.cute_dsl.nvgpu and the smem helpers of
cute_dsl.utils, as rewritten from the DSL's observed outputs, its
documentation and CUTLASS's C++ headers (docs/cute-dsl.md, "Sources").

Each expected text below is what nvidia-cutlass-dsl 4.8.1 printed or
refused for the same call (differential/cute_dsl/domain_cases.py runs the
whole grids against the DSL); the rules stated in the modules are checked
against CuTe's own tables where those have the same atom."""

import itertools
import warnings

import pytest

from hlolayout import _hlolayout as core
from hlolayout import cute_dsl as cute
from hlolayout.cute_dsl import utils

NV = cute.nvgpu
T5, WG = NV.tcgen05, NV.warpgroup
K, MN = NV.OperandMajorMode.K, NV.OperandMajorMode.MN


@pytest.fixture(autouse=True)
def _arch():
    old = cute.get_arch()
    yield
    cute.set_arch(old)


def run(expr, arch="sm_100a"):
    cute.set_arch(arch)
    r = eval(expr, {"cute": cute, "utils": utils, "NV": NV, "T5": T5,
                    "WG": WG, "K": K, "MN": MN})
    return cute.pretty_str(r) if isinstance(r, tuple) else str(r)


# ---------------------------------------------------------------------------
# Shared-memory atoms: CUTLASS's atoms in bits over the element width.

_ELEMENTS = [cute.Float16, cute.BFloat16, cute.Float32, cute.TFloat32,
             cute.Float8E4M3FN, cute.Int8, cute.Float64, cute.Int32]
_CPP = {"Float16": "half_t", "BFloat16": "bfloat16_t", "Float32": "float",
        "TFloat32": "tfloat32_t", "Float8E4M3FN": "float_e4m3_t",
        "Int8": "int8_t", "Float64": "double", "Int32": "int32_t"}


@pytest.mark.parametrize("family,kinds", [("GMMA", WG.SmemLayoutAtomKind),
                                          ("UMMA", T5.SmemLayoutAtomKind)])
def test_smem_atoms_are_cutlass_atoms_in_elements(family, kinds):
    """The rule (8 rows of 128-1024 bits under S<0..3,4,3>) against the C++
    core's tables of CUTLASS's atoms, for every kind but MN_SW128_32B (the
    DSL's has 8 rows, CUTLASS's 4) and every element type they have."""
    make = (WG if family == "GMMA" else T5).make_smem_layout_atom
    checked = 0
    for kind, dtype in itertools.product(kinds, _ELEMENTS):
        if kind.name == "MN_SW128_32B":
            continue
        major, rest = kind.name.split("_", 1)
        name = "%s::Layout_%s_%s_Atom<%s>" % (family, major, rest,
                                              _CPP[dtype.name])
        cpp = core.cute_smem_atom_layout(name)
        swizzle, _, outer = cpp.split(" o ")
        want = "S<%s> o 0 o %s" % (swizzle.strip()[3:-1],
                                   outer.replace("_", ""))
        assert str(make(kind, dtype)) == want, (kind, dtype)
        checked += 1
    assert checked == 8 * len(_ELEMENTS)


# What the DSL printed where CUTLASS's tables have no atom, or another one.
SMEM_ATOMS = [
    ("T5.make_smem_layout_atom(T5.SmemLayoutAtomKind.MN_INTER, "
     "cute.Float6E2M3FN)", "S<0,4,3> o 0 o (21,8):(1,21)"),
    ("T5.make_smem_layout_atom(T5.SmemLayoutAtomKind.K_SW128, "
     "cute.Float6E2M3FN)", "S<3,4,3> o 0 o (8,170):(170,1)"),
    ("WG.make_smem_layout_atom(WG.SmemLayoutAtomKind.MN_SW64, cute.Boolean)",
     "S<2,4,3> o 0 o (512,8):(1,512)"),
    ("T5.make_smem_layout_atom(T5.SmemLayoutAtomKind.K_SW32, "
     "cute.Float4E2M1FN)", "S<1,4,3> o 0 o (8,64):(64,1)"),
    ("T5.make_smem_layout_atom(T5.SmemLayoutAtomKind.MN_SW128_32B, "
     "cute.Float32)", "S<2,5,2> o 0 o (32,8):(1,32)"),
    ("T5.make_smem_layout_atom(T5.SmemLayoutAtomKind.MN_SW128_32B, "
     "cute.Float16)", "S<2,5,2> o 0 o (64,8):(1,64)"),
]


@pytest.mark.parametrize("expr,text", SMEM_ATOMS)
def test_smem_atoms_the_dsl_prints(expr, text):
    assert run(expr) == text


# ---------------------------------------------------------------------------
# The atom choice of the smem helpers.

ATOM_CHOICE = [
    # sm90: the widest swizzle whose row divides the major extent; else
    # INTER, whatever its bits.
    ("utils.sm90.get_smem_layout_atom(utils.LayoutEnum.ROW_MAJOR, "
     "cute.Float16, 48)", "SmemLayoutAtomKind.K_SW32"),
    ("utils.sm90.get_smem_layout_atom(utils.LayoutEnum.COL_MAJOR, "
     "cute.Float64, 24)", "SmemLayoutAtomKind.MN_SW64"),
    ("utils.sm90.get_smem_layout_atom(utils.LayoutEnum.ROW_MAJOR, "
     "cute.Float4E2M1FN, 8)", "SmemLayoutAtomKind.K_INTER"),
    ("utils.sm90.get_smem_layout_atom(utils.LayoutEnum.ROW_MAJOR, "
     "cute.Float8E4M3FN, 40)", "SmemLayoutAtomKind.K_INTER"),
    # sm100: a multiple of 128 bits, the K extent over the sparsity; a
    # 32-bit MN-major operand's own 128-byte atom, else the next widest.
    ("utils.sm100.get_smem_layout_atom_ab(MN, cute.Float16, (24, 4))",
     "SmemLayoutAtomKind.MN_INTER"),
    ("utils.sm100.get_smem_layout_atom_ab(MN, cute.Int32, (64, 12))",
     "SmemLayoutAtomKind.MN_SW128_32B"),
    ("utils.sm100.get_smem_layout_atom_ab(MN, cute.Int32, (24, 12))",
     "SmemLayoutAtomKind.MN_SW32"),
    ("utils.sm100.get_smem_layout_atom_ab(K, cute.Float4E2M1FN, (128, 64), "
     "2)", "SmemLayoutAtomKind.K_INTER"),
    ("utils.sm100.get_smem_layout_atom_ab(K, cute.Int8, (128, 128), 4)",
     "SmemLayoutAtomKind.K_SW32"),
    ("utils.sm100.get_smem_layout_atom_ab(K, cute.Float16, (64, 32, 2))",
     "SmemLayoutAtomKind.K_SW64"),
    ("utils.sm100.get_smem_layout_atom_ab(K, cute.Float16, ((64, 2), "
     "(32, 2)))", "SmemLayoutAtomKind.K_SW128"),
    ("utils.sm100.get_smem_layout_atom_ab(K, cute.Float6E2M3FN, (64, 64))",
     "SmemLayoutAtomKind.K_INTER"),
    # An epilogue mode given as a layout counts the size of its right
    # inverse (CUTLASS: its first mode).
    ("utils.sm100.get_smem_layout_atom_epi(utils.LayoutEnum.COL_MAJOR, "
     "cute.Float16, (cute.make_layout((8, 4), stride=(4, 1)), 32))",
     "SmemLayoutAtomKind.MN_SW64"),
    ("utils.sm100.get_smem_layout_atom_epi(utils.LayoutEnum.COL_MAJOR, "
     "cute.Float16, (cute.make_layout((8, 8), stride=(1, 16)), 32))",
     "SmemLayoutAtomKind.MN_INTER"),
    ("utils.sm100.get_smem_layout_atom_epi(utils.LayoutEnum.ROW_MAJOR, "
     "cute.Float16, (64, (32, 2)))", "SmemLayoutAtomKind.K_SW128"),
]


@pytest.mark.parametrize("expr,text", ATOM_CHOICE)
def test_the_atom_choice_the_dsl_makes(expr, text):
    assert run(expr) == text


@pytest.mark.parametrize("expr", [
    # not a multiple of 8 elements (the DSL's AssertionError)
    "utils.sm90.get_smem_layout_atom(utils.LayoutEnum.ROW_MAJOR, "
    "cute.Float16, 12)",
    # not a multiple of 128 bits on sm100
    "utils.sm100.get_smem_layout_atom_ab(K, cute.Float8E4M3FN, (64, 8))",
    "utils.sm100.get_smem_layout_atom_ab(K, cute.Float16, (64, 64), 3)",
    "utils.sm100.get_smem_layout_atom_ab(K, cute.Boolean, (64, 64))",
    "utils.sm100.get_smem_layout_atom_epi(utils.LayoutEnum.COL_MAJOR, "
    "cute.Float16, (cute.make_layout((4, 8), stride=(1, 8)), 32))",
    # a tiler that is not (M, N, K)
    "utils.sm90.make_smem_layout_a(utils.LayoutEnum.ROW_MAJOR, "
    "(128, 128, 64, 2), cute.Float16, 2)",
])
def test_the_atom_choice_refuses_what_the_dsl_refuses(expr):
    with pytest.raises(cute.Refusal):
        run(expr)


STAGED = [
    ("utils.sm90.make_smem_layout_a(utils.LayoutEnum.COL_MAJOR, "
     "((64, 2), 128, (32, 2)), cute.Float16, 2)",
     "S<3,4,3> o 0 o ((64,2),(8,8),(1,2)):((1,4096),(64,512),(0,8192))"),
    ("utils.sm90.make_smem_layout_epi(cute.Float16, utils.LayoutEnum.ROW_MAJOR,"
     " (64, 32), 2, smem_trg_shape=(64, 64, 2), smem_order=(1, 0, 2))",
     "S<2,4,3> o 0 o ((8,8),(32,2),(1,2)):((32,512),(1,256),(0,4096))"),
    # A Boolean epilogue is stored as bytes on sm100, as bits on sm90.
    ("utils.sm100.make_smem_layout_epi(cute.Boolean, "
     "utils.LayoutEnum.ROW_MAJOR, (64, 64), 2)",
     "S<2,4,3> o 0 o ((8,8),(64,1),(1,2)):((64,512),(1,0),(0,4096))"),
    ("utils.sm100.make_smem_layout_epi(cute.Float16, "
     "utils.LayoutEnum.COL_MAJOR, (cute.make_layout((8, 8), stride=(1, 16)), "
     "32), 2)",
     "S<0,4,3> o 0 o ((8,8),(8,4),(1,2)):((1,256),(8,64),(0,2048))"),
    # tile_to_mma_shape coalesces the stage mode tiled_divide leaves.
    ("T5.tile_to_mma_shape(T5.make_smem_layout_atom("
     "T5.SmemLayoutAtomKind.MN_INTER, cute.Float16), ((256, 32), 1, 4, 4))",
     "S<0,4,3> o 0 o (((8,32),(8,4)),1,4,4):(((1,64),(8,2048)),0,8192,"
     "32768)"),
]


@pytest.mark.parametrize("expr,text", STAGED)
def test_staged_layouts_the_dsl_prints(expr, text):
    assert run(expr) == text


@pytest.mark.parametrize("expr,text", [
    # 64 one-bit elements: the interleaved atom's row of 128 does not
    # divide the tile; the DSL tiles it all the same.
    ("utils.sm90.make_smem_layout_epi(cute.Boolean, utils.LayoutEnum.ROW_MAJOR,"
     " (64, 64), 2)",
     "S<0,4,3> o 0 o ((8,8),(128,1),(1,2)):((128,1024),(1,0),(0,8192))"),
    # 21 six-bit elements a row of 128 bits.
    ("utils.sm100.make_smem_layout_epi(cute.Float6E2M3FN, "
     "utils.LayoutEnum.ROW_MAJOR, (64, 64), 2)",
     "S<0,4,3> o 0 o ((8,8),(21,4),(1,2)):((21,168),(1,1344),(0,5376))"),
])
def test_atoms_that_do_not_divide_the_tile(expr, text):
    # The DSL's answer, with the twin's WrongLayoutWarning.
    with pytest.warns(cute.WrongLayoutWarning, match="tile_to_shape"):
        assert run(expr) == text


# ---------------------------------------------------------------------------
# Op classes

CARDS = [
    ("T5.MmaMXF4NVF4Op(cute.Float8E4M3FN, (128, 112, 64), T5.CtaGroup.ONE, "
     "T5.OperandSource.SMEM)",
     "tcgen05 MXF4NVF4 BlockScaled MMA Operation\n"
     "  A data type               = Float4E2M1FN\n"
     "  B data type               = Float4E2M1FN\n"
     "  Accumulator data type     = Float32\n"
     "  Scale factor data type    = Float8E4M3FN\n"
     "  Scale factor vector size  = 16\n"
     "  CTA group                 = CtaGroup.ONE\n"
     "  A source location         = OperandSource.SMEM\n"
     "  A major mode              = OperandMajorMode.K\n"
     "  B major mode              = OperandMajorMode.K\n"
     "  Instruction shape MNK     = (128, 112, 64)"),
    ("T5.MmaFP8SparseOp(cute.Float8E4M3FN, cute.Float32, (128, 32, 64), "
     "T5.CtaGroup.TWO, T5.OperandSource.SMEM, K, K, "
     "T5.SparseMetadataFormat.TID)",
     "tcgen05 FP8 Sparse MMA Operation\n"
     "  A data type               = Float8E4M3FN\n"
     "  B data type               = Float8E4M3FN\n"
     "  Accumulator data type     = Float32\n"
     "  CTA group                 = CtaGroup.TWO\n"
     "  A source location         = OperandSource.SMEM\n"
     "  A major mode              = OperandMajorMode.K\n"
     "  B major mode              = OperandMajorMode.K\n"
     "  Instruction shape MNK     = (128, 32, 64)\n"
     "  Sparse metadata format    = SparseMetadataFormat.TID"),
    ("NV.MmaUniversalOp(cute.Float32)",
     "universal MMA Operation using FMA\n"
     "  A/B/Accumulator data type = Float32"),
    ("NV.warp.LdMatrix8x16x8bOp(False, 2, unpack_bits=4)",
     "LdMatrix8x16x8b Copy Operation\n  number of matrices = 2\n"
     "  unpack 4b to 8b"),
    ("NV.cpasync.CopyG2SOp(cache_mode=3)",
     "cp.async GMEM -> SMEM copy Operation\n  with cache mode = 3"),
]


@pytest.mark.parametrize("expr,text", CARDS)
def test_op_cards_the_dsl_prints(expr, text):
    assert run(expr) == text


def test_enumerations_print_as_the_dsl():
    assert str(MN) == "OperandMajorMode.MN" and repr(K) == \
        "<OperandMajorMode.K>"
    assert [(f.name, f.value) for f in NV.warp.Field] == [
        ("ACCUMULATE", "accum_c"), ("SFA", "sf_a"), ("SFB", "sf_b")]
    assert NV.warp.MXF8F6F4_SUPPORTED_PAIRS == {
        (cute.Float4E2M1FN, cute.Float8E4M3FN),
        (cute.Float4E2M1FN, cute.Float8E5M2),
        (cute.Float8E4M3FN, cute.Float4E2M1FN),
        (cute.Float8E5M2, cute.Float4E2M1FN)}


@pytest.mark.parametrize("expr", [
    # A list is no instruction shape (the DSL compares with tuples).
    "NV.warp.MmaF16BF16Op(cute.Float16, cute.Float32, [16, 8, 16])",
    "WG.MmaF16BF16Op(cute.Float16, cute.Float32, [64, 128, 16], "
    "WG.OperandSource.SMEM, K, K)",
    "T5.MmaF16BF16Op(cute.Float16, cute.Float32, [128, 64, 16], "
    "T5.CtaGroup.ONE, T5.OperandSource.SMEM, K, K)",
    # 8-bit integer wgmma: N above 32 a multiple of 16
    "WG.MmaI8Op(cute.Int8, cute.Int8, cute.Int32, (64, 40, 32), "
    "WG.OperandSource.SMEM, K, K)",
    # sparse kinds: one CTA, M = 128: N a multiple of 16
    "T5.MmaF16BF16SparseOp(cute.Float16, cute.Float32, (128, 24, 32), "
    "T5.CtaGroup.ONE, T5.OperandSource.SMEM, K, K, "
    "T5.SparseMetadataFormat.TID)",
    # block-scaled kinds: one CTA, M = 128 only
    "T5.MmaMXF8Op(cute.Float8E4M3FN, (64, 64, 32), T5.CtaGroup.ONE, "
    "T5.OperandSource.SMEM, K, K)",
])
def test_op_parameters_the_dsl_refuses(expr):
    with pytest.raises(cute.DSLUserCodeError):
        run(expr, "sm_100a" if "T5" in expr else "sm_90a")


def test_architecture_families():
    dense = ("T5.MmaF16BF16Op(cute.Float16, cute.Float32, (128, 64, 16), "
             "T5.CtaGroup.ONE, T5.OperandSource.SMEM, K, K)")
    scaled = ("T5.SM103MmaMXF4Op((128, 64, 96), T5.CtaGroup.ONE, "
              "T5.OperandSource.SMEM)")
    # sm_101 is the DSL's earlier name of sm_110: taken as it.
    assert run(dense, "sm_101a").startswith("tcgen05 F16/BF16")
    assert run(scaled, "sm_100f").startswith("tcgen05 SM103 MXF4")
    # A base name is refused (the DSL names the a and f variants only).
    for expr, arch in ((dense, "sm_100"), (scaled, "sm_103f"),
                       (dense, "sm_121a")):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with pytest.raises(cute.DSLUserCodeError,
                               match="needs the architecture"):
                run(expr, arch)


COPY_ATOMS = [
    # An unpacking ldmatrix has the layouts of the plain one.
    ("cute.make_copy_atom(NV.warp.LdMatrix16x16x8bOp(True, 2, "
     "unpack_bits=4), cute.Uint8)",
     "Copy Atom\n  ThrID:         32:1\n"
     "  TV Layout Src: (32,16):(16,1)\n"
     "  TV Layout Dst: ((4,8),(1,4,2,2)):((64,1),(1,16,8,256))\n"
     "  Value type:    i8"),
    # A Boolean is one bit.
    ("cute.make_copy_atom(NV.CopyUniversalOp(), cute.Boolean, "
     "num_bits_per_copy=32)",
     "Copy Atom\n  ThrID:         1:0\n  TV Layout Src: (1,32):(0,1)\n"
     "  TV Layout Dst: (1,32):(0,1)\n  Value type:    i1"),
    # Copy arguments these ops do not use change nothing.
    ("cute.make_copy_atom(NV.tcgen05.Ld32x32bOp(T5.Repetition.x1), "
     "cute.Float32, foo=1)",
     "Copy Atom\n  ThrID:         32:1\n  TV Layout Src: (32,32):(0,1)\n"
     "  TV Layout Dst: (32,1):(1,1)\n  Value type:    f32"),
    ("cute.make_copy_atom(NV.warp.StMatrix8x8x16bOp(False, 4), cute.Float16, "
     "num_bits_per_copy=32)",
     "Copy Atom\n  ThrID:         32:1\n"
     "  TV Layout Src: (32,(2,4)):(2,(1,64))\n"
     "  TV Layout Dst: (32,8):(8,1)\n  Value type:    f16"),
]


@pytest.mark.parametrize("expr,text", COPY_ATOMS)
def test_copy_atoms_the_dsl_prints(expr, text):
    assert run(expr) == text


def test_umma_form_is_cutlass_table_form():
    """The UMMA layouts of M, N, K and the CTA group against every 97th
    SM100/SM103 atom of the C++ core's tables (CUTLASS's MMA_Traits)."""
    from hlolayout.cute_dsl.nvgpu import _shapes
    names = [n for n in core.cute_mma_atom_names(100000)
             if n.startswith(("SM100_MMA", "SM103_"))]
    assert len(names) > 1000
    for name in names[::97]:
        atom = core.cute_find_mma_atom(name)
        m, n, k = atom.shape_mnk
        assert _shapes.umma_layouts(m, n, k, atom.thr_id == "_2:_1") == (
            atom.thr_id, atom.a, atom.b, atom.c), name


def test_tcgen05_atoms_print_the_thread_mode_as_the_dsl():
    atom = run("cute.make_mma_atom(T5.MmaI8Op(cute.Int8, (64, 32, 32), "
               "T5.CtaGroup.ONE, T5.OperandSource.TMEM, K, MN))")
    assert "TV Layout A: (1,(64,32)):(64,(1,64))" in atom
    assert "TV Layout C: (1,(64,32)):(64,(1,64))" in atom
    pair = run("cute.make_mma_atom(T5.MmaTF32Op((256, 64, 8), T5.CtaGroup.TWO,"
               " T5.OperandSource.SMEM, K, K))")
    assert "ThrID:       2:1" in pair
    assert "TV Layout B: (2,(32,8)):(32,(1,64))" in pair
