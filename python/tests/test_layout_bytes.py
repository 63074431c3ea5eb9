"""to_layout / from_layout / relayout: round trips, packing, errors."""

import numpy as np
import pytest

import hlolayout as hl

ALL_TYPES = ["pred", "s1", "s2", "s4", "s8", "s16", "s32", "s64", "u1", "u2",
             "u4", "u8", "u16", "u32", "u64", "f16", "f32", "f64", "bf16",
             "f8e5m2", "f8e4m3", "f8e4m3fn", "f8e4m3b11fnuz", "f8e3m4",
             "f8e5m2fnuz", "f8e4m3fnuz", "f4e2m1fn", "f8e8m0fnu", "c64",
             "c128"]
SUB_BYTE_BITS = {"s1": 1, "u1": 1, "s2": 2, "u2": 2, "s4": 4, "u4": 4,
                 "f4e2m1fn": 4}


def random_array(element_type, dims, rng):
    dtype = hl.numpy_dtype(element_type)
    bits = SUB_BYTE_BITS.get(element_type)
    if dtype == np.bool_:
        return rng.integers(0, 2, dims).astype(bool)
    if bits is not None:
        if element_type.startswith("s"):
            lo, hi = -(1 << (bits - 1)), 1 << (bits - 1)
        else:
            lo, hi = 0, 1 << bits
        return rng.integers(lo, hi, dims).astype(dtype)
    if dtype.kind == "c":
        return (rng.standard_normal(dims) + 1j * rng.standard_normal(dims)).astype(dtype)
    if dtype.kind == "f":
        return rng.standard_normal(dims).astype(dtype)
    raw = rng.integers(0, 256, int(np.prod(dims)) * dtype.itemsize, dtype=np.uint8)
    return raw.view(dtype).reshape(dims)


@pytest.mark.parametrize("element_type", ALL_TYPES)
@pytest.mark.parametrize("layout", ["{1,0}", "{0,1:T(2,2)}", "{1,0:T(4,8)(2,1)L(64)}"])
def test_round_trip_every_type(element_type, layout):
    rng = np.random.default_rng(abs(hash((element_type, layout))) % 1000)
    dims = (5, 11)
    a = random_array(element_type, dims, rng)
    s = hl.parse_shape("%s[5,11]%s" % (element_type, layout))
    buf = hl.to_layout(a, s)
    assert buf.dtype == np.uint8 and buf.size == s.sizes()["padded_bytes"]
    back = hl.from_layout(buf, s)
    assert back.dtype == hl.numpy_dtype(element_type) and back.shape == dims
    assert np.array_equal(back.view(np.uint8), a.view(np.uint8))
    # Every element lands where the Indexer says.
    width = a.dtype.itemsize
    offsets = hl.Indexer(s).all_offsets()
    for i, j in [(0, 0), (4, 10), (2, 7)]:
        o = offsets[i, j] * width
        assert buf[o:o + width].tobytes() == a[i, j].tobytes()


@pytest.mark.parametrize("element_type", sorted(SUB_BYTE_BITS))
def test_sub_byte_packed_round_trip(element_type):
    bits = SUB_BYTE_BITS[element_type]
    rng = np.random.default_rng(bits)
    a = random_array(element_type, (7, 9), rng)
    s = hl.parse_shape("%s[7,9]{1,0:T(2,4)E(%d)}" % (element_type, bits))
    buf = hl.to_layout(a, s)
    assert buf.size == s.sizes()["padded_bytes"]
    assert (hl.from_layout(buf, s) == a).all()


def test_numpy_dtype_of_what_is_not_an_element_type():
    # A non-str failed inside with AttributeError ('int' ... 'startswith').
    for bad in (5, None, ("f32",), 1.5):
        with pytest.raises(TypeError, match="an element type is a str"):
            hl.numpy_dtype(bad)
    with pytest.raises(TypeError, match="has no NumPy dtype"):
        hl.numpy_dtype("token")


def test_s4_packing_order_is_xla_s():
    buf = hl.to_layout(np.array([1, 2, 3, 4, 5, 6, 7, -8], np.int8), "s4[8]{0:E(4)}")
    assert buf.tobytes() == bytes([0x21, 0x43, 0x65, 0x87])
    back = hl.from_layout(bytes([0x21, 0x43, 0x65, 0x87]), "s4[8]{0:E(4)}")
    assert back.tolist() == [1, 2, 3, 4, 5, 6, 7, -8]
    assert hl.from_layout(b"\xf1", "u4[2]{0:E(4)}").tolist() == [1, 15]


def test_padding_is_zero_and_matches_numpy_idiom():
    from benchmark_formulas import pad_reshape_transpose
    rng = np.random.default_rng(5)
    x = rng.integers(1, 1 << 16, (20, 300), dtype=np.uint16)
    buf = hl.to_layout(x, "bf16[20,300]{1,0:T(8,128)(2,1)}")
    assert (buf == pad_reshape_transpose(x)).all()
    assert (buf.view(np.uint16) == 0).sum() == 24 * 384 - 20 * 300


def test_relayout():
    a = np.arange(6, dtype=np.int32).reshape(2, 3)
    row = hl.to_layout(a, "s32[2,3]{1,0}")
    col = hl.relayout(row, "s32[2,3]{1,0}", "s32[2,3]{0,1}")
    assert col.view(np.int32).tolist() == [0, 3, 1, 4, 2, 5]
    rng = np.random.default_rng(2)
    x = rng.integers(0, 1 << 16, (37, 300), dtype=np.uint16)
    f = hl.parse_shape("bf16[37,300]{1,0:T(8,128)(2,1)}")
    t = hl.parse_shape("bf16[37,300]{0,1:T(4,128)}")
    out = hl.relayout(hl.to_layout(x, f), f, t)
    assert (out == hl.to_layout(x, t)).all()
    assert (hl.from_layout(out, t) == x).all()


def test_fill_and_packing_options():
    s = "s4[3]{0:E(4)}"
    a = np.array([1, 2, -1], np.int8)
    assert hl.to_layout(a, s).tobytes() == bytes([0x21, 0x0F])
    assert hl.to_layout(a, s, packing="high_first").tobytes() == bytes([0x12, 0xF0])
    assert (hl.from_layout(bytes([0x12, 0xF0]), s, packing="high_first") == a).all()
    assert hl.to_layout(a, s, packing="high-first").tobytes() == bytes([0x12, 0xF0])
    buf = hl.to_layout(np.ones(3, np.float32), "f32[3]{0:T(4)}", fill=0xAB)
    assert buf[12:].tobytes() == b"\xab" * 4
    out = hl.relayout(hl.to_layout(np.ones(3, np.float32), "f32[3]"), "f32[3]",
                      "f32[3]{0:T(8)}", fill=7)
    assert out[12:].tobytes() == b"\x07" * 20
    with pytest.raises(ValueError, match="packing"):
        hl.to_layout(a, s, packing="middle")
    with pytest.raises(ValueError, match="fill"):
        hl.to_layout(a, s, fill=256)
    with pytest.raises(ValueError, match="threads"):
        hl.to_layout(a, s, threads=0)


def test_scalars_and_empty():
    assert hl.from_layout(hl.to_layout(np.float32(2.5), "f32[]"), "f32[]") == 2.5
    e = hl.to_layout(np.zeros((0, 3), np.float32), "f32[0,3]{1,0}")
    assert e.size == 0
    assert hl.from_layout(e, "f32[0,3]{1,0}").shape == (0, 3)


def test_errors():
    s = "f32[3,5]{1,0:T(2,2)}"
    with pytest.raises(TypeError, match="float32"):
        hl.to_layout(np.zeros((3, 5), np.float64), s)
    with pytest.raises(TypeError, match="uint16"):
        hl.to_layout(np.zeros((3, 5), np.float32), "bf16[3,5]")
    with pytest.raises(ValueError, match="shape"):
        hl.to_layout(np.zeros((5, 3), np.float32), s)
    with pytest.raises(ValueError, match="96"):
        hl.from_layout(np.zeros(95, np.uint8), s)
    with pytest.raises(ValueError, match="96"):
        hl.from_layout(b"\0" * 97, s)
    with pytest.raises(TypeError):
        hl.from_layout([0] * 96, s)
    with pytest.raises(ValueError):
        hl.to_layout(np.zeros(2, np.float32), "(f32[2], s32[])")
    with pytest.raises(ValueError):
        hl.relayout(b"\0" * 60, "f32[3,5]", "f32[5,3]")
    with pytest.raises(ValueError):
        hl.relayout(b"\0" * 60, "f32[3,5]", "s32[3,5]")
    with pytest.raises(ValueError):
        hl.to_layout(np.zeros(4, np.float32), "f32[<=4]{0}")
    with pytest.raises(TypeError):
        hl.to_layout(np.zeros(2, np.float32), 7)
    # A buffer of the wrong size is refused before the result is allocated:
    # 8 EiB for the first (it was numpy's MemoryError), 16 GiB for the second.
    with pytest.raises(ValueError, match="has 3 bytes"):
        hl.from_layout(b"abc", "s4[9223372036854775807]{0:E(4)}")
    with pytest.raises(TypeError, match="bytes or a NumPy array"):
        hl.from_layout(9223372036854775807, "s4[9223372036854775807]{0:E(4)}")
    with pytest.raises(ValueError, match="has 3 bytes"):
        hl.relayout(b"abc", "u8[4294967296,4]{1,0}", "u8[4294967296,4]{0,1}")
    t = np.zeros((4, 48), np.uint8)[:, ::2]  # 96 bytes, not C-contiguous
    assert hl.from_layout(t, s).shape == (3, 5)


def test_plans_are_kept_and_every_call_is_checked():
    s = "f32[16,200]{1,0:T(8,128)}"
    rng = np.random.default_rng(3)
    a = rng.standard_normal((16, 200)).astype(np.float32)
    first = hl.to_layout(a, s, threads=1)
    assert ("to", s, 1, 0, "low_first") in hl.arrays._PLANS
    assert (hl.to_layout(a, s, threads=1) == first).all()
    assert (hl.to_layout(a, hl.parse_shape(s), threads=1) == first).all()
    # Options are part of the key: another fill is another plan.
    filled = hl.to_layout(a, s, threads=1, fill=9)
    assert (filled != first).any() and (filled[first != 0] != 0).all()
    # A kept plan still checks what it is given.
    with pytest.raises(TypeError, match="float32"):
        hl.to_layout(a.astype(np.float64), s, threads=1)
    with pytest.raises(ValueError, match="shape"):
        hl.to_layout(a[:8], s, threads=1)
    # Not C-contiguous: copied first, same bytes.
    wide = np.zeros((16, 400), np.float32)
    wide[:, ::2] = a
    assert (hl.to_layout(wide[:, ::2], s, threads=1) == first).all()
    assert (hl.to_layout(np.asfortranarray(a), s, threads=1) == first).all()
    # from_layout and relayout from every kind of buffer.
    for buf in (first, first.tobytes(), bytearray(first.tobytes()),
                memoryview(first.tobytes()), first.view(np.float32)):
        assert (hl.from_layout(buf, s, threads=1) == a).all()
    gappy = np.zeros(2 * first.size, np.uint8)
    gappy[::2] = first
    assert (hl.from_layout(gappy[::2], s, threads=1) == a).all()
    rm = "f32[16,200]{1,0}"
    assert (hl.relayout(first, s, rm) == hl.to_layout(a, rm)).all()
    assert (hl.relayout(gappy[::2], s, rm) == hl.to_layout(a, rm)).all()
    with pytest.raises(ValueError, match="16384"):
        hl.from_layout(first[1:], s, threads=1)
    with pytest.raises(ValueError, match="16384"):
        hl.relayout(first[1:], s, rm)


def test_plan_cache_is_bounded():
    for n in range(1, hl.arrays._PLAN_CACHE_SIZE + 20):
        x = np.arange(n, dtype=np.int8)
        assert (hl.from_layout(hl.to_layout(x, "s8[%d]{0:T(4)}" % n),
                               "s8[%d]{0:T(4)}" % n) == x).all()
    assert len(hl.arrays._PLANS) <= hl.arrays._PLAN_CACHE_SIZE
