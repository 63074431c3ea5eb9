"""Indexer: offsets and their inverse, against the CLI and a NumPy model."""

import threading

import numpy as np
import pytest

import hlolayout as hl

SHAPES = [
    "f32[3,5]{1,0:T(2,2)}", "f32[8,8]{1,0:T(2,4)(2,1,1,1)}",
    "bf16[8,1,1280,256]{3,2,0,1:T(8,128)(2,1)}", "s4[9]{0:T(4)L(16)E(4)}",
    "f32[5,7,3]{0,2,1:T(2,*,2)}", "f32[2]{0:T(4)L(8)}", "u8[6,10]{0,1}",
]


def test_offset_matches_cli(cli):
    assert hl.Indexer("f32[3,5]{1,0:T(2,2)}").offset((2, 3)) == 17
    for text in SHAPES:
        ix = hl.Indexer(text)
        rng = np.random.default_rng(1)
        dims = hl.parse_shape(text).dimensions
        for _ in range(3):
            index = tuple(int(rng.integers(0, d)) for d in dims)
            want = cli.json("index", "--json", text, ",".join(map(str, index)))
            assert ix.offset(index) == want["offset"]


def test_element_at_matches_cli(cli):
    ix = hl.Indexer("f32[3,5]{1,0:T(2,2)}")
    assert ix.element_at(17) == (2, 3)
    assert ix.element_at(9) is None and ix.kind_at(9) == "tile padding"
    assert hl.Indexer("f32[2]{0:T(4)L(8)}").kind_at(5) == "tail padding"
    for text in SHAPES:
        ix = hl.Indexer(text)
        for off in range(0, ix.padded_elements, max(1, ix.padded_elements // 5)):
            want = cli.json("element", "--json", text, str(off))
            got = ix.element_at(off)
            if want["kind"] == "element":
                assert list(got) == want["index"]
            else:
                assert got is None and ix.kind_at(off) == want["kind"]


@pytest.mark.parametrize("text", SHAPES)
def test_batched_forms_agree_with_scalar(text):
    ix = hl.Indexer(text)
    dims = hl.parse_shape(text).dimensions
    all_offsets = ix.all_offsets()
    assert all_offsets.shape == dims and all_offsets.dtype == np.int64
    idx = np.argwhere(np.ones(dims, bool))
    offsets = ix.offsets(idx)
    assert (offsets == all_offsets.reshape(-1)).all()
    for row, off in zip(idx[:50], offsets[:50]):
        assert ix.offset(tuple(row)) == off
    assert len(set(offsets.tolist())) == len(offsets)  # injective
    indices, kinds = ix.elements_at(np.arange(ix.padded_elements))
    elem = kinds == hl.ELEMENT
    assert elem.sum() == len(offsets)
    assert (indices[offsets] == idx).all()
    assert (indices[~elem] == -1).all()
    for off in range(ix.padded_elements):
        got = ix.element_at(off)
        assert (got is None) == (not elem[off])


def test_offsets_accepts_int_dtypes_and_lists():
    ix = hl.Indexer("f32[3,5]{1,0:T(2,2)}")
    for dtype in (np.int8, np.int32, np.uint16, np.int64):
        assert ix.offsets(np.array([[2, 3], [0, 1]], dtype)).tolist() == [17, 1]
    assert ix.offsets([[2, 3]]).tolist() == [17]
    assert ix.offsets(np.zeros((0, 2), np.int64)).shape == (0,)
    assert hl.Indexer("f32[7]{0:T(4)}").offsets(np.array([6])).tolist() == [6]


def test_bad_indices():
    ix = hl.Indexer("f32[3,5]{1,0:T(2,2)}")
    with pytest.raises(ValueError):
        ix.offset((3, 0))
    with pytest.raises(ValueError):
        ix.offset((0, -1))
    with pytest.raises(ValueError):
        ix.offset((0,))
    with pytest.raises(TypeError):
        ix.offset(5)
    with pytest.raises(ValueError, match="out of range|out of bounds"):
        ix.offsets(np.array([[0, 0], [2, 5]]))
    with pytest.raises(ValueError, match="shape"):
        ix.offsets(np.zeros((4, 3), np.int64))
    with pytest.raises(TypeError):
        ix.offsets(np.zeros((4, 2), np.float32))
    with pytest.raises(ValueError):
        ix.element_at(24)
    with pytest.raises(ValueError):
        ix.element_at(-1)
    with pytest.raises(ValueError):
        ix.elements_at(np.array([0, 24]))
    with pytest.raises(ValueError):
        hl.Indexer("(f32[2], s32[])")
    with pytest.raises(ValueError):
        hl.Indexer("f32[?]{0}")
    with pytest.raises(TypeError):
        hl.Indexer(42)


def test_threads_share_one_indexer():
    ix = hl.Indexer("bf16[8,1,1280,256]{3,2,0,1:T(8,128)(2,1)}")
    rng = np.random.default_rng(7)
    idx = np.stack([rng.integers(0, d, 200_000) for d in (8, 1, 1280, 256)], 1)
    want = ix.offsets(idx, threads=1)
    errors = []

    def work():
        try:
            for _ in range(5):
                if not (ix.offsets(idx) == want).all():
                    errors.append("offsets differ")
                ind, kinds = ix.elements_at(want[:1000])
                if not (ind == idx[:1000]).all():
                    errors.append("elements_at differs")
        except Exception as e:  # pragma: no cover - reported below
            errors.append(repr(e))

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


def test_numpy_seed_formula_agrees():
    import benchmark_formulas
    dims = (4, 3, 40, 300)
    rng = np.random.default_rng(3)
    idx = np.stack([rng.integers(0, d, 5000) for d in dims], 1)
    ix = hl.Indexer("bf16[4,3,40,300]{3,2,1,0:T(8,128)(2,1)}")
    assert (benchmark_formulas.tiled_offsets_numpy(idx, dims) == ix.offsets(idx)).all()
