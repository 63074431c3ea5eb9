"""hlolayout.cute as a drop-in for pycute: pycute's own answers
(data/pycute_reference.tsv), CuTe's post-conditions where pycute departs
from CuTe's C++, swizzles and composed layouts, NumPy evaluation, errors."""

import ast
import itertools
import os

import numpy as np
import pytest

from hlolayout import cute

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data",
                    "pycute_reference.tsv")


def _operand(text):
    text = text.strip()
    if text.startswith("<"):
        return tuple(_operand(t) for t in text[1:-1].split(";") if t.strip())
    if "|" in text:
        shape, stride = text.split("|")
        return cute.Layout(ast.literal_eval(shape), ast.literal_eval(stride))
    return ast.literal_eval(text)


def _rows():
    with open(DATA, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            op, args, want, kind = line.rstrip("\n").split("\t")
            # Operands are separated by " ; " (tuples use ';' without spaces
            # inside <...>, which never holds " ; ").
            yield op, [_operand(a) for a in args.split(" ; ")], want, kind


def _values(layout, n=None):
    n = cute.size(layout) if n is None else n
    return [layout(i) for i in range(n)]


def _check_cute_postconditions(op, args, got):
    """CuTe's post-condition for each op (test/unit/cute/core/*.cpp)."""
    if op == "composition":
        a, b = args
        if isinstance(b, tuple):
            for i, bi in enumerate(b):
                if bi is None:
                    continue
                assert _values(got[i]) == [a[i](bi(j)) for j in range(cute.size(bi))]
        else:
            assert _values(got) == [a(b(j)) for j in range(cute.size(b))]
    elif op == "left_inverse":
        (a,) = args
        assert all(a(got(a(i))) == a(i) for i in range(cute.size(a)))
    elif op == "right_inverse":
        (a,) = args
        assert all(a(got(i)) == i for i in range(cute.size(got)))
    elif op in ("logical_product", "zipped_product", "tiled_product"):
        a, b = args
        bsize = b if isinstance(b, int) else cute.size(b)
        assert cute.size(got) == cute.size(a) * bsize
    elif op in ("logical_divide", "zipped_divide", "tiled_divide"):
        a, _ = args
        assert cute.size(got) >= cute.size(a)


def test_pycute_answers():
    same = differs = refused = 0
    for op, args, want, kind in _rows():
        f = getattr(cute, op)
        if kind == "same":
            assert str(f(*args)) == want, (op, args)
            same += 1
            continue
        try:
            got = f(*args)
        except ValueError as e:
            # pycute returned a layout where CuTe refuses (a composition
            # whose divisibility fails): pycute's answer is not A o B.
            assert op in e.args[0] or "composition" in e.args[0], e
            refused += 1
            continue
        _check_cute_postconditions(op, args, got)
        differs += 1
    assert same >= 900 and differs + refused > 300, (same, differs, refused)


def test_pycute_api_and_printing():
    L = cute.Layout(((2, 2), 3), ((24, 2), 8))
    assert str(L) == "((2, 2), 3):((24, 2), 8)"
    assert repr(L) == "Layout(((2, 2), 3),((24, 2), 8))"
    assert (L.shape, L.stride, L.size(), L.cosize(), len(L)) == (
        ((2, 2), 3), ((24, 2), 8), 12, 43, 2)
    assert L.cute == "((_2,_2),_3):((_24,_2),_8)"
    assert [L(i) for i in range(4)] == [0, 24, 2, 26]
    assert L(1, 2) == L((1, 2)) == 40 and L(((1, 0), 1)) == 32
    assert str(L[1]) == "3:8" and str(L[-1]) == "3:8"
    assert str(L(None, 1)) == "((2, 2),):((24, 2),)"
    assert str(cute.Layout((4,))) == "(4,):(1,)"
    assert str(cute.Layout(())) == "():()"
    # CuTe's compact strides: a size-1 mode gets stride 0 (pycute: 2).
    assert str(cute.Layout((2, 1, 3))) == "(2, 1, 3):(1, 0, 2)"
    assert cute.Layout("(6,2):(8,2)") == cute.Layout((6, 2), (8, 2))
    assert cute.is_layout(L) and isinstance(L, cute.LayoutBase)
    assert str(cute.make_layout(cute.Layout(4, 1), cute.Layout((2, 3), (4, 8)))) == \
        "(4, (2, 3)):(1, (4, 8))"
    assert cute.size(((2, 3), 4)) == 24 and cute.size(L) == 12
    assert cute.slice_and_offset((None, 1), L)[1] == 8
    assert cute.idx2crd(5, (3, (2, 3))) == (2, (1, 0))
    assert cute.idx2crd((1, 5), (3, (2, 3))) == (1, (1, 2))  # pycute: (1, (1, 0))
    assert cute.crd2idx((1, (1, 2)), (3, (2, 3))) == 16
    assert cute.slice_((None, (1, None)), (3, (2, 4))) == (3, 4)
    assert cute.has_none((1, (None,))) and not cute.has_none((1, 2))
    assert cute.shape_div((3, 6, 2, 8), 72) == (1, 1, 1, 4)
    assert cute.prefix_product(((2, 3), 4)) == ((1, 2), 6)


def _small_shapes():
    for a in range(1, 4):
        yield a
        for b in range(1, 4):
            yield (a, b)
            for c in range(1, 4):
                yield ((a, b), c)
                yield (a, (b, c))
                yield (a, b, c)


def test_int_tuple_functions_against_their_definitions():
    for shape in _small_shapes():
        leaves = cute.flatten(shape)
        assert cute.product(shape) == int(np.prod(leaves))
        assert cute.tuple_max(shape) == max(leaves)
        stride = cute.prefix_product(shape)
        assert cute.flatten(stride) == tuple(
            int(np.prod(leaves[:k])) for k in range(len(leaves)))
        for i in range(cute.product(shape)):
            crd = cute.idx2crd(i, shape)
            assert cute.idx2crd(i, shape, stride) == crd
            assert cute.crd2idx(crd, shape) == i
            assert cute.inner_product(crd, stride) == i
            assert cute.crd2crd(crd, cute.product(shape), shape) == i
        # Every divisor of the size that the fold accepts leaves size / d.
        for d in range(1, cute.product(shape) + 1):
            try:
                q = cute.shape_div(shape, d)
            except ValueError:
                continue
            if cute.product(shape) % d == 0:
                assert cute.product(q) == cute.product(shape) // d
    assert cute.elem_scale((2, 3), (4, (2, 5))) == (8, 30)
    assert cute.slice_(None, (3, 4)) == ((3, 4),)        # pycute's
    assert cute.slice_(1, (3, 4)) == ()
    assert cute.crd2idx((None, 2), (3, 4), (1, 3)) == 6
    assert cute.flatten(np.int64(5)) == (5,)


def test_int_tuple_errors_are_exceptions_not_crashes():
    with pytest.raises(ValueError, match="do not divide"):
        cute.shape_div(6, 4)
    with pytest.raises(ValueError, match="not congruent"):
        cute.inner_product((2, 3), (2, (3, 4)))
    with pytest.raises(ValueError, match="not congruent"):
        cute.crd2idx(1, (2, 2), 3)
    with pytest.raises(ValueError, match="not congruent"):
        cute.idx2crd(1, (2, 2), (1, 2, 4))
    with pytest.raises(ValueError, match="overflow"):
        cute.product((2**40, 2**40))
    with pytest.raises(ValueError, match="overflow"):
        cute.prefix_product((2**40, 2**40, 2))
    with pytest.raises(ValueError):
        cute.elem_scale((2, 3), 4)
    with pytest.raises(TypeError):
        cute.flatten((1, 2.5))
    with pytest.raises(TypeError):
        cute.product("(2,3)")
    # A shape leaf of 0 divided the index by zero (the interpreter died of
    # SIGFPE); a tuple where an int belongs aborted on a failed CHECK.
    with pytest.raises(ValueError, match="not positive"):
        cute.idx2crd(5, (2, 0))
    with pytest.raises(ValueError, match="not positive"):
        cute.idx2crd(5, 0)
    with pytest.raises(ValueError, match="not positive"):
        cute.crd2crd(5, (3, -2))
    # A NumPy array of several elements has __index__, which raises: that
    # was a SystemError ("bad argument to internal function").
    np = pytest.importorskip("numpy")
    with pytest.raises(TypeError, match="expected an int or a tuple of ints"):
        cute.idx2crd(np.zeros((3, 5)), (3, 5))
    assert cute.idx2crd(np.int64(7), (3, 5)) == (1, 2)
    # shiftl multiplied: a str was repeated 2**s times (out of memory).
    with pytest.raises(TypeError):
        cute.shiftl("DRAM", 32)
    assert (cute.shiftl(3, 2), cute.shiftr(13, 2), cute.shiftl(-5, -1),
            cute.shiftr(1, -3)) == (12, 3, -3, 8)
    layout = cute.make_layout((4, 8))
    for call in (lambda: cute.upcast(layout, (2, 2)),
                 lambda: cute.downcast(layout, (2,)),
                 lambda: cute.recast_layout(layout, (8, 8), 16)):
        with pytest.raises(TypeError, match="must be an int"):
            call()


def test_where_pycute_is_wrong_cute_is_followed():
    # Composition past a mode A cannot hold: pycute truncates to 4:3.
    with pytest.raises(ValueError, match="composition"):
        cute.composition(cute.Layout((4, 3), (3, 1)), cute.Layout(6, 1))
    # pycute's strict rule rejects this; CuTe's tests expect 3:24.
    assert str(cute.composition(cute.Layout((8, 8), (8, 1)), cute.Layout(3, 3))) == "3:24"
    # coalesce_x keeps the trailing size-1 mode's stride (pycute: 8:1).
    assert str(cute.composition(cute.Layout((4, 1), (1, 0)), cute.Layout(8, 1))) == \
        "(4, 2):(1, 0)"
    # right_inverse skips stride 0 and goes on (pycute: 1:0).
    assert str(cute.right_inverse(cute.Layout((3, 4), (0, 1)))) == "4:3"
    assert str(cute.left_inverse(cute.Layout((3, 4), (0, 1)))) == "4:3"
    # logical_product with an int means n:1 (pycute divides).
    assert str(cute.logical_product(cute.Layout(4, 1), 2)) == "(4, 2):(1, 4)"
    # cosize with negative strides.
    assert cute.cosize(cute.Layout(4, -1)) == 4
    # tiled_product keeps CuTe's rank-1 mode.
    assert str(cute.tiled_product(cute.Layout((2, 2), (1, 2)), cute.Layout((3,), (1,)))) == \
        "((2, 2), (3,)):((1, 2), (4,))"
    # Composition with a tuple drops A's modes past it (pycute keeps them).
    assert str(cute.composition(cute.Layout((4, 5, 6), (1, 4, 20)), (cute.Layout(2, 1),))) == \
        "(2,):(1,)"


def test_swizzles_and_composed_layouts():
    sw = cute.Swizzle(3, 4, 3)
    assert (sw.bits, sw.base, sw.shift, sw.yyy_msk, sw.zzz_msk) == (3, 4, 3, 896, 112)
    assert str(sw) == "SW_3_4_3" and repr(sw) == "Swizzle(3,4,3)" and sw.cute == "Sw<3,4,3>"
    assert sw(128) == 144 and sw.size() == 1024
    with pytest.raises(ValueError, match="less than B"):
        cute.Swizzle(3, 4, 2)
    c = cute.ComposedLayout(sw, 0, cute.Layout((8, 64), (64, 1)))
    assert str(c) == "SW_3_4_3 o 0 o (8, 64):(64, 1)"
    assert c.cute == "Sw<3,4,3> o _0 o (_8,_64):(_64,_1)"
    assert c.size() == 512 and c.cosize() == 512 and len(c) == 2
    assert all(c(i) == sw(cute.Layout((8, 64), (64, 1))(i)) for i in range(512))
    assert c == cute.parse("Sw<3,4,3> o _0 o (_8,_64):(_64,_1)")
    assert cute.composition(sw, cute.Layout((8, 64), (64, 1))).cute == c.cute
    assert cute.tile_to_shape(c, (64, 64)).cute == \
        "Sw<3,4,3> o _0 o ((_8,_8),(_64,_1)):((_64,_512),(_1,_0))"
    assert cute.logical_product(cute.Layout((2, 2), (1, 2)),
                                cute.parse("Sw<3,3,3> o _0 o (_8,_64):(_64,_1)")).cute == \
        "Sw<3,2,-6> o _0 o ((_2,_2),(_8,_64)):((_1,_2),(_256,_4))"
    assert cute.upcast(c, 2).cute == "Sw<3,3,3> o _0 o (_8,_32):(_32,_1)"
    assert cute.recast_layout(sw, "uint8_t", "half_t").cute == "Sw<3,3,3>"
    decayed, offset = cute.slice_and_offset((None, 5), cute.parse("Sw<3,0,3> o _0 o (_8,_8):(_8,_1)"))
    assert (decayed.cute, offset) == ("((_2,_2,_2)):((_7,_18,_28))", 5)


def test_numpy_evaluation():
    L = cute.Layout(((4, (3, 2)), ((2, (3, 4)), (2, 8))),
                    ((1, (4, 400)), ((12, (24, 72)), (800, 1600))))
    idx = np.arange(L.size())
    assert L(idx).tolist() == [L(int(i)) for i in idx]
    assert L(idx.reshape(8, -1)).shape == (8, L.size() // 8)
    assert L(np.array([L.size() + 3])).tolist() == [L(L.size() + 3)]  # past the end
    c = cute.parse("Sw<3,4,3> o _0 o ((_8,_16),(_64,_4)):((_64,_512),(_1,_8192))")
    j = np.arange(c.size(), dtype=np.int32)
    assert c(j).tolist() == [c(int(i)) for i in j]
    assert cute.Swizzle(2, 1, 3)(np.arange(64)).tolist() == [cute.Swizzle(2, 1, 3)(i) for i in range(64)]


def test_exhaustive_small_layouts_against_brute_force():
    # Every layout of shapes up to (2,3,2) with strides in {0,1,2,3,5}: the
    # algebra's post-conditions, checked by evaluation.
    for shape in [(2, 3), (3, 2), (2, 2, 2), (4, 2), (2, (2, 2))]:
        flat = cute.flatten(shape)
        for strides in itertools.product([0, 1, 2, 3, 5], repeat=len(flat)):
            it = iter(strides)
            stride = tuple((next(it), next(it)) if isinstance(e, tuple) else next(it)
                           for e in shape)
            L = cute.Layout(shape, stride)
            n = cute.size(L)
            assert _values(cute.coalesce(L)) == _values(L)
            R = cute.right_inverse(L)
            assert all(L(R(i)) == i for i in range(cute.size(R)))
            try:
                Q = cute.left_inverse(L)
            except ValueError:
                Q = None
            if Q is not None:
                assert all(L(Q(L(i))) == L(i) for i in range(n))
            for B in [cute.Layout(2, 1), cute.Layout(3, 2), cute.Layout((2, 2), (1, 3))]:
                try:
                    R = cute.composition(L, B)
                except ValueError:
                    continue
                assert _values(R) == [L(B(i)) for i in range(cute.size(B))]


def test_errors_are_value_errors():
    with pytest.raises(ValueError, match="composition"):
        cute.composition("(4,3):(1,5)", "4:3")
    with pytest.raises(ValueError):
        cute.Layout("(2,3")
    with pytest.raises(TypeError):
        cute.Layout(3.5)
    with pytest.raises(ValueError, match="congruent"):
        cute.Layout((2, 3), (1,))
    with pytest.raises(ValueError, match="make_swizzle"):
        cute.composition(cute.Layout((16, 4), (4, 1)), cute.Swizzle(3, 0, 3))


def test_objects_behave_as_python_classes():
    L = cute.Layout(shape=(4, 2), stride=(2, 1))
    assert str(L) == "(4, 2):(2, 1)"
    assert [str(m) for m in L] == ["4:2", "2:1"]
    assert str(cute.Layout((4, 2, 3), (1, 4, 8))[0:2]) == "(4, 2):(1, 4)"
    assert str(cute.complement(layout=cute.Layout(4, 2), max_idx=24)) == "(2, 3):(1, 8)"
    with pytest.raises(TypeError, match="missing required argument 'layoutB'"):
        cute.composition(L)
    with pytest.raises(TypeError, match="unexpected keyword argument 'x'"):
        cute.coalesce(L, x=1)
    with pytest.raises(TypeError, match="cannot create"):
        cute.LayoutBase()
    with pytest.raises(IndexError):
        L[2]

    class Named(cute.Layout):
        pass

    n = Named((2, 2), (1, 2))
    n.note = "kept"
    assert isinstance(n, cute.Layout) and n.note == "kept" and n(3) == 3
    assert str(cute.composition(n, cute.Layout(2, 2))) == "2:2"
    assert {cute.Layout(4, 1): 1}[cute.Layout("4:1")] == 1
    assert cute.Swizzle(3, 4, 3) == cute.Swizzle(3, 4, 3) != cute.Swizzle(2, 4, 3)


def test_int_tuple_helpers_follow_cute_cpp():
    # issue 46 item 2: crd2crd is the C++ core's, mode by mode with the
    # source shape's modes (the pycute-shaped version dropped them).
    from hlolayout import _cute_int_tuple as it
    assert it.crd2crd((1, (1, 2)), (3, 6), (3, (2, 3))) == (1, 5)
    assert it.crd2crd((1, 2), 6, (2, 3)) == 5
    assert it.crd2crd(5, (2, 3)) == (1, 2)
    with pytest.raises(ValueError, match="needs the source shape"):
        it.crd2crd((1, 2), 6)
    with pytest.raises(ValueError, match="out of range"):
        it.crd2crd(6, 6)
    np = pytest.importorskip("numpy")
    assert isinstance(np.int64(3), it.Integer) and isinstance(3, it.Integer)
    assert not isinstance(True, it.Integer)
    assert not isinstance(3.0, it.Integer) and not isinstance((3,), it.Integer)
    assert [it.signum(x) for x in (-5, 0, 7)] == [-1, 0, 1]
    for a in (-9, -1, 0, 5, 12):
        for s in (-3, -1, 0, 2):
            assert it.shiftl(a, s) == (a << s if s >= 0 else a >> -s)
            assert it.shiftr(a, s) == (a >> s if s >= 0 else a << -s)


def test_offsets_are_a_list_of_ints():
    """cute.offsets gives the numbers `hlolayout cute offsets` prints (a
    list, no JSON in between), and its errors."""
    from hlolayout import cute
    assert cute.offsets("(2,3):(3,1)") == [0, 3, 1, 4, 2, 5]
    assert cute.offsets(cute.Layout((2, 2), (2, 1))) == [0, 2, 1, 3]
    with pytest.raises(ValueError, match="1049600 elements"):
        cute.offsets("(1024,1025)")
    with pytest.raises(ValueError, match="takes 1 operand"):
        cute.offsets("4:1", "2")
