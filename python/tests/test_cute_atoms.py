"""hlolayout.cute's atoms: MMA_Atom, Copy_Atom, make_tiled_mma and
make_tiled_copy_*, slices, conflicts and pictures, against answers CuTe gave
(cute/atom/testdata) and the CLI."""

import doctest
import os

import pytest

from hlolayout import cute, cute_atoms

DATA = os.path.join(os.path.dirname(__file__), "..", "..", "cute", "atom",
                    "testdata")


def _rows(name, limit=None):
    path = os.path.join(DATA, name)
    if not os.path.exists(path):  # runfiles: the repository's top folder
        path = os.path.join("cute", "atom", "testdata", name)
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            out.append(line.rstrip("\n").split("\t"))
    return out[:limit]


def test_docstring_examples():
    result = doctest.testmod(cute_atoms, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0


def test_mma_atoms_match_cute():
    for name, thr, shape, a, b, c in _rows("mma_atoms_reference.tsv"):
        atom = cute.MMA_Atom(name)
        assert atom.ThrID.cute == thr
        assert "(_%d,_%d,_%d)" % atom.Shape_MNK == shape
        assert (atom.LayoutA_TV.cute, atom.LayoutB_TV.cute,
                atom.LayoutC_TV.cute) == (a, b, c), name


def test_tiled_mma_matches_cute():
    for row in _rows("tiled_mma_reference.tsv"):
        name, layout, perm, vmnk, pmnk, tile, a, b, c = row
        tm = cute.make_tiled_mma(name, None if layout == "-" else layout,
                                 None if perm == "-" else perm)
        assert tm.ThrLayoutVMNK.cute == vmnk
        assert tm.PermutationMNK == pmnk
        assert "(_%d,_%d,_%d)" % tm.tile_shape == tile
        assert (tm.get_layoutA_TV().cute, tm.get_layoutB_TV().cute,
                tm.get_layoutC_TV().cute) == (a, b, c), row


def test_copy_atoms_and_tiled_copies_match_cute():
    for row in _rows("copy_atoms_reference.tsv"):
        atom = cute.Copy_Atom(row[0])
        assert [x.cute for x in (atom.ThrID, atom.ValLayoutSrc, atom.ValLayoutDst,
                                 atom.ValLayoutRef, atom.SrcLayout,
                                 atom.DstLayout, atom.RefLayout)] == row[1:]
    for row in _rows("tiled_copy_reference.tsv"):
        atom, kind, thr, val, mma, layout, perm, tiler, tv, s, d = row
        if kind == "thr-val":
            tc = cute.make_tiled_copy(atom, thr, val)
        else:
            tm = cute.make_tiled_mma(mma, None if layout == "-" else layout,
                                     None if perm == "-" else perm)
            tc = getattr(cute, "make_tiled_copy_" + kind)(atom, tm)
        assert (tc.Tiler_MN, tc.TiledLayout_TV.cute, tc.get_layoutS_TV().cute,
                tc.get_layoutD_TV().cute) == (tiler, tv, s, d), row


def test_arguments_as_tuples():
    a = cute.make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN", (2, 2, 1),
                            (32, None, 16))
    b = cute.make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN", "(2,2,1)",
                            "<_32,_,_16>")
    assert a.get_layoutC_TV().cute == b.get_layoutC_TV().cute
    assert a.PermutationMNK == "(_32,_,_16)"
    tc = cute.make_tiled_copy(cute.Copy_Atom("UniversalCopy<uint128_t>", "half_t"),
                              cute.Layout("(32,4):(4,1)"), (1, 8))
    assert tc.Tiler_MN == "(_32,_32)"


def test_thread_slices():
    tm = cute.make_tiled_mma("SM80_16x8x8_F16F16F16F16_TN")
    s = tm.thread_slice(5)
    assert s["A"] == ((1, 2), (1, 3), (9, 2), (9, 3))
    assert s["B"] == ((1, 2), (1, 3))
    # Every C element is held by exactly one (thread, value).
    seen = set()
    for t in range(tm.size()):
        seen.update(tm.thread_slice(t)["C"])
    assert len(seen) == 16 * 8


def test_conflicts_and_pictures():
    tm = cute.make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN", (2, 1, 1))
    tc = cute.make_tiled_copy_A(cute.Copy_Atom("SM75_U32x4_LDSM_N", "half_t"), tm)
    r = tc.bank_conflicts("(32,16):(16,1)")
    assert (r["wavefronts"], r["ideal"]) == (16, 8)
    assert tc.bank_conflicts("Sw<1,3,3> o _0 o (32,16):(16,1)")["wavefronts"] == 8
    r = cute.bank_conflicts("(32,32):(32,1)", "(32,1):(1,0)", (32, 32), 32)
    assert r["wavefronts"] == 32
    assert tm.svg().startswith("<svg") and 'data-thread="0"' in tm.svg()
    assert tm._repr_svg_() == tm.svg()
    assert "T0 V0" in tc.picture()
    assert cute.banks_picture("Sw<3,3,3> o _0 o (8,64):(64,1)").startswith("<svg")
    assert cute.MMA_Atom("SM61_DP4A")._repr_svg_().startswith("<svg")


def test_bank_conflicts_summary():
    """A summary object with the detail behind it; dict-style access as
    before."""
    tm = cute.make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN", (2, 1, 1))
    tc = cute.make_tiled_copy_A(cute.Copy_Atom("SM75_U32x4_LDSM_N", "half_t"), tm)
    r = tc.bank_conflicts("(32,16):(16,1)")
    assert isinstance(r, cute.BankConflicts)
    assert (r.factor, r.transactions, r.wavefronts, r.ideal, r.conflicts) == (
        2.0, 16, 16, 8, 8)
    assert (r.worst_bank, r.worst_bank_words, r.worst_bank_threads) == (
        0, 2, (0, 4))
    assert (r.value_bits, r.threads_per_phase) == (16, 8)
    assert len(r.instructions) == 2 and r.instructions[0]["phases"][0][
        "collisions"][0] == {"bank": 0, "words": [0, 32], "threads": [0, 4]}
    # The dict of earlier versions, key for key.
    d = dict(r)
    assert list(d) == ["wavefronts", "ideal", "threads_per_phase",
                       "value_bits", "instructions"]
    assert d["wavefronts"] == 16 and r.get("ideal") == 8 and "instructions" in r
    assert repr(r) == ("BankConflicts(factor=2.0, transactions=16, ideal=8, "
                       "worst_bank=0, worst_bank_words=2)")
    ok = tc.bank_conflicts("Sw<1,3,3> o _0 o (32,16):(16,1)")
    assert (ok.factor, ok.worst_bank, ok.worst_bank_words,
            ok.worst_bank_threads) == (1.0, None, 1, ())


def test_bank_conflicts_of_named_shared_memory():
    """A GMMA atom tiled to the copy's tile and Triton's nvmma_shared on its
    shape count alike; a named layout gives --tv its width."""
    tm = cute.make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN", (2, 1, 1),
                             "<_32,_32,_64>")
    tc = cute.make_tiled_copy_A(cute.Copy_Atom("SM75_U32x4_LDSM_N", "half_t"), tm)
    atom = tc.bank_conflicts("GMMA::Layout_K_SW128_Atom<half_t>")
    nvmma = tc.bank_conflicts("#ttg.nvmma_shared<{swizzlingByteWidth = 128, "
                              "transposed = false, elementBitWidth = 16}>")
    plain = tc.bank_conflicts("(32,64):(64,1)")
    assert dict(atom) == dict(nvmma)
    assert (atom.factor, plain.factor) == (1.0, 8.0)
    with pytest.raises(ValueError, match="SMEM holds 32-bit elements"):
        tc.bank_conflicts("GMMA::Layout_K_SW128_Atom<float>")
    r = cute.bank_conflicts("GMMA::Layout_K_SW128_Atom<float>", "(32,1):(1,0)",
                            (32, 32))
    assert (r.value_bits, r.factor) == (32, 4.0)
    with pytest.raises(ValueError, match="names no element width"):
        cute.bank_conflicts("(32,32):(32,1)", "(32,1):(1,0)", (32, 32))


def test_errors():
    with pytest.raises(ValueError, match="nearest"):
        cute.MMA_Atom("SM80_16x8x16_F16F16F16F16_NT")
    with pytest.raises(ValueError, match="not valid for Dst"):
        cute.Copy_Atom("SM75_U32x4_LDSM_N", "double")
    with pytest.raises(ValueError, match="1:5"):
        cute.make_tiled_mma("SM61_DP4A", "(2,2")
    with pytest.raises(ValueError, match="outside"):
        cute.make_tiled_mma("SM61_DP4A").thread_slice(1)
    with pytest.raises(TypeError):
        cute.MMA_Atom(3)
    with pytest.raises(TypeError):
        cute.make_tiled_copy_A("Copy_Atom<DefaultCopy, float>", "not a tiled mma")
    # The wrappers took anything and failed later, in str() (AttributeError).
    for bad in (5, "SM61_DP4A", None, cute.MMA_Atom("SM61_DP4A")):
        with pytest.raises(TypeError, match="is made by make_tiled_mma"):
            cute.TiledMMA(bad)
        with pytest.raises(TypeError, match="is made by make_tiled_copy"):
            cute.TiledCopy(bad)


def test_names_cover_the_families():
    names = cute.mma_atom_names(200000)
    assert "SM80_16x8x16_F16F16F16F16_TN" in names
    assert any(n.startswith("SM100_MMA_F16BF16_2x1SM_SS<") for n in names)
