"""hlolayout.cute_dsl, the host-side twin of NVIDIA's CuTe DSL: worked
examples (each checked against nvidia-cutlass-dsl 4.8.1's own printing by the
differential harness, differential/cute_dsl), property tests over many small
cases (the C++ fast path against the Python engine, compositions evaluated
as functions, CuTe's UMMA layout formula against the C++ tables, the DSL's
partition_shape rule against its definition), pictures and refusals. No
network and no DSL needed.
"""

import contextlib
import doctest
import io
import itertools
import random
import re
import warnings

import numpy as np
import pytest

from hlolayout import _hlolayout as core
from hlolayout import cute_dsl as cute
from hlolayout.cute_dsl import _fast, _pictures, _verify, utils, viz
from hlolayout.cute_dsl.nvgpu import tcgen05

NV = cute.nvgpu


def run(expr):
    """The twin's text for an expression, as the harness prints it."""
    r = eval(expr, {"cute": cute, "utils": utils})
    return cute.pretty_str(r) if isinstance(r, tuple) else str(r)


@pytest.fixture(autouse=True)
def _arch():
    # Strict mode: a wrong answer of the DSL raises WrongLayoutError (the
    # default returns it with a WrongLayoutWarning; test_cute_dsl_alg.py
    # checks that).
    old = cute.get_arch()
    cute.set_arch("sm_90a")
    with cute.strict():
        yield
    cute.set_arch(old)


# What the DSL (4.8.1, CUTE_DSL_ARCH=sm_90a) prints for each expression.
EXAMPLES = [
    ('cute.make_layout((4, 8), stride=(8, 1))',
     '(4,8):(8,1)'),
    ('cute.make_layout(((2, 4), 8))',
     '((2,4),8):((1,2),8)'),
    ('cute.make_layout((cute.Int32(128), 4))',
     '(?,4):(1,?)'),
    ('cute.size(cute.make_layout((cute.Int32(128), 4)))',
     '?{div=4}'),
    ('cute.make_layout((cute.assume(cute.Int32(128), divby=16), 4))',
     '(?{div=16},4):(1,?{div=16})'),
    ('cute.make_layout((cute.Int64(64), 2))',
     '(?{i64},2):(1,?{i64})'),
    ('cute.make_layout((cute.Int64(64), 2)).shape',
     '(?,2)'),
    ('cute.composition(cute.make_layout((6, 2), stride=(8, 2)), cute.make_layout((4, 3), stride=(3, 1)))',
     '((2,2),3):((24,2),8)'),
    ('cute.composition(cute.make_layout((cute.Int32(8), 4), stride=(4, 1)), cute.make_layout((4, 2)))',
     '((?,?),(?,?)):((4,?),(16,?))'),
    ('cute.complement(cute.make_layout(4, stride=2), 24)',
     '(2,3):(1,8)'),
    ('cute.complement(cute.make_layout((2, 2), stride=(1, 6)), 24)',
     '(3,2):(2,12)'),
    ('cute.right_inverse(cute.make_layout((4, 8), stride=(8, 1)))',
     '(8,4):(4,1)'),
    ('cute.left_inverse(cute.make_layout((4, 2), stride=(2, 1)))',
     '(2,4):(4,1)'),
    ('cute.coalesce(cute.make_layout((2, (1, 6)), stride=(1, (6, 2))))',
     '12:1'),
    ('cute.coalesce(cute.make_layout(((2, 2), (2, 2)), stride=((1, 2), (4, 8))), target_profile=(1, 1))',
     '(4,4):(1,4)'),
    ('cute.filter(cute.make_layout((4, 2, 3), stride=(1, 0, 4)))',
     '12:1'),
    ('cute.filter_zeros(cute.make_layout((4, 2, 3), stride=(1, 0, 4)))',
     '(4,1,3):(1,0,4)'),
    ('cute.logical_divide(cute.make_layout((8, 8)), (2, 4))',
     '((2,4),(4,2)):((1,2),(8,32))'),
    ('cute.zipped_divide(cute.make_layout((8, 8)), (2, 4))',
     '((2,4),(4,2)):((1,8),(2,32))'),
    ('cute.tiled_divide(cute.make_layout((8, 8)), (2, 4))',
     '((2,4),4,2):((1,8),2,32)'),
    ('cute.flat_divide(cute.make_layout((8, 8)), (2, 4))',
     '(2,4,4,2):(1,8,2,32)'),
    ('cute.logical_divide(cute.make_layout(24), cute.make_layout(4, stride=2))',
     '(4,(2,3)):(2,(1,8))'),
    ('cute.logical_product(cute.make_layout((2, 2), stride=(4, 1)), cute.make_layout(6))',
     '((2,2),(2,3)):((4,1),(2,8))'),
    ('cute.zipped_product(cute.make_layout((2, 2)), cute.make_layout((3, 4)))',
     '((2,2),(3,4)):((1,2),(4,12))'),
    ('cute.tiled_product(cute.make_layout((2, 2)), cute.make_layout((3, 4)))',
     '((2,2),3,4):((1,2),4,12)'),
    ('cute.flat_product(cute.make_layout((2, 2)), cute.make_layout((3, 4)))',
     '(2,2,3,4):(1,2,4,12)'),
    ('cute.raked_product(cute.make_layout((2, 2)), cute.make_layout((3, 4)))',
     '((3,2),(4,2)):((4,1),(12,2))'),
    ('cute.blocked_product(cute.make_layout((2, 2)), cute.make_layout((3, 4)))',
     '((2,3),(2,4)):((1,4),(2,12))'),
    ('cute.tile_to_shape(cute.make_layout((2, 4), stride=(4, 1)), (8, 16), (0, 1))',
     '((2,4),(4,4)):((4,8),(1,32))'),
    ('cute.recast_layout(16, 8, cute.make_layout((4, 8), stride=(8, 1)))',
     '(4,4):(4,1)'),
    ('cute.make_swizzle(3, 4, 3)',
     'S<3,4,3>'),
    ('cute.make_composed_layout(cute.make_swizzle(3, 4, 3), 0, cute.make_layout((8, 64), stride=(64, 1)))',
     'S<3,4,3> o 0 o (8,64):(64,1)'),
    ('cute.cosize(cute.make_layout((4, 8), stride=(8, 1)))',
     '32'),
    ('cute.rank(cute.make_layout((4, (2, 2))))',
     '2'),
    ('cute.depth(cute.make_layout((4, (2, 2))))',
     '2'),
    ('cute.crd2idx((1, 2), cute.make_layout((4, 8), stride=(8, 1)))',
     '10'),
    ('cute.idx2crd(13, (4, 8))',
     '(1,3)'),
    ('cute.slice_(cute.make_layout((4, 8), stride=(8, 1)), (None, 2))',
     '(4):(8)'),
    ('cute.slice_and_offset((None, 2), cute.make_layout((4, 8), stride=(8, 1)))',
     '((4):(8),2)'),
    ('cute.make_identity_layout((4, 8))',
     '(4,8):(1@0,1@1)'),
    ('cute.make_ordered_layout((4, 8, 2), order=(2, 0, 1))',
     '(4,8,2):(16,1,8)'),
    ('cute.make_layout_tv(cute.make_layout((4, 8), stride=(8, 1)), cute.make_layout((2, 2)))',
     '((8,16),((8,4),(2,2)):((16,2),(1,8)))'),
    ('cute.max_common_vector(cute.make_layout((4, 8)), cute.make_layout((4, 8)))',
     '32'),
    ('cute.max_common_layout(cute.make_layout((4, 8)), cute.make_layout((4, 8), stride=(8, 1)))',
     '1:0'),
    ('cute.nullspace(cute.make_layout((4, 2, 3), stride=(1, 0, 4)))',
     '2:4'),
    ('cute.get_swizzle_portion(cute.make_composed_layout(cute.make_swizzle(3, 4, 3), 0, cute.make_layout((8, 64), stride=(64, 1))))',
     'S<3,4,3>'),
    ('cute.get_nonswizzle_portion(cute.make_composed_layout(cute.make_swizzle(3, 4, 3), 0, cute.make_layout((8, 64), stride=(64, 1))))',
     '(8,64):(64,1)'),
    ('cute.make_tiled_mma(cute.nvgpu.warp.MmaF16BF16Op(cute.Float16, cute.Float32, (16, 8, 16)), (2, 2, 1)).tv_layout_C_tiled',
     '((4,8,2,2),((2,2),(1,1))):((64,1,16,256),((32,8),(0,0)))'),
    ('cute.make_tiled_mma(cute.nvgpu.warp.MmaF16BF16Op(cute.Float16, cute.Float32, (16, 8, 16)), (2, 2, 1), (32, 32, 16)).partition_shape_A((128, 64))',
     '((2,2,2),4,4)'),
    ('cute.nvgpu.warpgroup.make_smem_layout_atom(cute.nvgpu.warpgroup.SmemLayoutAtomKind.K_SW128, cute.Float16)',
     'S<3,4,3> o 0 o (8,64):(64,1)'),
    ('utils.sm90.make_smem_layout_a(utils.LayoutEnum.ROW_MAJOR, (128, 128, 64), cute.Float16, 4)',
     'S<3,4,3> o 0 o ((8,16),(64,1),(1,4)):((64,512),(1,0),(0,8192))'),
]

# The same on sm_100a.
EXAMPLES_SM100 = [
    ('utils.sm100.make_smem_layout_a(cute.make_tiled_mma(cute.nvgpu.tcgen05.MmaF16BF16Op(cute.Float16, cute.Float32, (128, 64, 16), cute.nvgpu.tcgen05.CtaGroup.TWO, cute.nvgpu.tcgen05.OperandSource.SMEM, cute.nvgpu.OperandMajorMode.K, cute.nvgpu.OperandMajorMode.K)), (128, 256, 128), cute.Float16, 4)',
     'S<3,4,3> o 0 o ((64,16),1,(4,2),4):((64,1),0,(16,4096),8192)'),
]


@pytest.mark.parametrize("expr,text", EXAMPLES)
def test_prints_what_the_dsl_prints(expr, text):
    assert run(expr) == text


@pytest.mark.parametrize("expr,text", EXAMPLES_SM100)
def test_prints_what_the_dsl_prints_on_sm100(expr, text):
    cute.set_arch("sm_100a")
    assert run(expr) == text


def test_atoms_print_as_the_dsl():
    atom = cute.make_mma_atom(NV.warp.MmaF16BF16Op(cute.Float16, cute.Float32,
                                                   (16, 8, 16)))
    assert str(atom) == (
        "MMA Atom\n"
        "  ThrID:       32:1\n"
        "  Shape MNK:   (16,8,16)\n"
        "  TV Layout A: ((4,8),(2,2,2)):((32,1),(16,8,128))\n"
        "  TV Layout B: ((4,8),(2,2)):((16,1),(8,64))\n"
        "  TV Layout C: ((4,8),(2,2)):((32,1),(16,8))")
    copy = cute.make_copy_atom(NV.warp.LdMatrix8x8x16bOp(False, 4),
                               cute.Float16)
    assert str(copy) == (
        "Copy Atom\n"
        "  ThrID:         32:1\n"
        "  TV Layout Src: (32,8):(8,1)\n"
        "  TV Layout Dst: (32,(2,4)):(2,(1,64))\n"
        "  Value type:    f16")


# ---------------------------------------------------------------------------
# Static and dynamic integers


def test_dynamic_integers_keep_value_and_divisibility():
    n = cute.assume(cute.Int32(96), divby=32)
    assert str(n) == "?{div=32}" and n.value == 96
    assert str(cute.Int32(7)) == "?"
    layout = cute.make_layout((n, 4))
    assert str(layout) == "(?{div=32},4):(1,?{div=32})"
    assert str(cute.size(layout)) == "?{div=128}"
    assert cute.size(layout).value == 384
    assert cute.is_static(cute.make_layout((8, 4)))
    assert not cute.is_static(layout)


def test_dynamic_divisibility_over_small_cases():
    # The DSL's rules: a product's divisibility is the product of the
    # divisibilities; a sum's their gcd; // by a static divisor of it
    # divides it; the value is always the exact one.
    from hlolayout.cute_dsl import _ints
    for v, d, b in itertools.product(range(1, 33), (1, 2, 4, 8), (1, 2, 3, 4)):
        if v % d:
            continue
        a = cute.assume(cute.Int32(v), divby=d) if d > 1 else cute.Int32(v)
        p = _ints.mul(a, b)
        assert p.value == v * b and _ints.divisibility(p) == d * b
        s = _ints.add(a, b)
        assert s.value == v + b
        assert _ints.divisibility(s) == np.gcd(d, b)
        q = a // b
        assert q.value == v // b
        want = d // b if d % b == 0 else 1
        assert _ints.divisibility(q) == want


# ---------------------------------------------------------------------------
# The C++ fast path against the Python engine, and compositions as functions


def _random_layout(rng, max_rank=3):
    rank = rng.choice(range(1, max_rank + 1))
    shape, stride = [], []
    for _ in range(rank):
        if rng.random() < 0.3:
            s = tuple(rng.choice((1, 2, 3, 4)) for _ in range(2))
            d = tuple(rng.choice((0, 1, 2, 3, 4, 8, 16)) for _ in range(2))
        else:
            s = rng.choice((1, 2, 3, 4, 6, 8))
            d = rng.choice((0, 1, 2, 3, 4, 8, 16, 32))
        shape.append(s)
        stride.append(d)
    if rank == 1 and rng.random() < 0.5:
        return cute.make_layout(shape[0], stride=stride[0])
    return cute.make_layout(tuple(shape), stride=tuple(stride))


def _compact(rng, n):
    """A compact layout of size n in a random mode order."""
    factors = [f for f in (2, 3, 4) if n % f == 0]
    if n == 1 or not factors or rng.random() < 0.4:
        return cute.make_layout(n)
    f = rng.choice(factors)
    return cute.make_layout((f, n // f), stride=rng.choice([(1, f),
                                                             (n // f, 1)]))


def _text(f, *args):
    try:
        return str(f(*args))
    except cute.WrongLayoutError as ex:
        return "wrong " + str(ex.rule)
    except Exception as ex:  # noqa: BLE001 (the refusal's kind is compared)
        return "refused " + type(ex).__name__


OPS2 = ["composition", "logical_divide", "zipped_divide", "tiled_divide",
        "flat_divide", "logical_product", "zipped_product", "tiled_product",
        "flat_product", "blocked_product", "raked_product"]


def test_fast_path_and_engine_agree():
    rng = random.Random(37)
    checked = 0
    for i in range(3000):
        op = OPS2[i % len(OPS2)]
        a = _random_layout(rng)
        if op == "composition" or op.endswith("divide"):
            size = cute.size(a)
            divs = [d for d in range(1, size + 1) if size % d == 0]
            b = _compact(rng, rng.choice(divs))
            if op != "composition" and rng.random() < 0.4:
                b = tuple(cute.make_layout(rng.choice((1, 2, 4)))
                          for _ in range(cute.rank(a)))
        else:
            b = _random_layout(rng, 2)
        fn = getattr(cute, op)
        old = _fast.use_core(True)
        try:
            fast = _text(fn, a, b)
            _fast.use_core(False)
            slow = _text(fn, a, b)
        finally:
            _fast.use_core(old)
        assert fast == slow, (op, str(a), str(b))
        checked += not fast.startswith(("wrong", "refused"))
    assert checked > 1500


def test_compositions_are_the_composed_function():
    rng = random.Random(5)
    composed = wrong = 0
    for _ in range(2000):
        a = _random_layout(rng)
        size = cute.size(a)
        b = _compact(rng, rng.choice([d for d in range(1, size + 1)
                                      if size % d == 0]))
        if rng.random() < 0.5:
            b = _random_layout(rng, 2)
        try:
            r = cute.composition(a, b)
        except cute.WrongLayoutError as ex:
            # The DSL's answer, and the element where it is not A o B.
            assert ex.dsl_result is not None and "A(B(" in ex.witness
            with cute.unchecked():
                assert str(cute.composition(a, b)) == str(ex.dsl_result)
            wrong += 1
            continue
        except Exception:  # noqa: BLE001 (CuTe's precondition refusals)
            continue
        n = cute.size(b)
        idx = np.arange(n, dtype=np.int64)
        want = _verify.evaluate(a, _verify.evaluate(b, idx))
        assert (_verify.evaluate(r, idx) == want).all(), (str(a), str(b))
        composed += 1
    assert composed > 1000 and wrong > 0


def test_the_core_composition_check_is_numpys():
    # issue 47 item 15: the check that r is a o b runs in the C++ core;
    # over random flat layouts (negative strides and indices included) it
    # finds the first mismatch NumPy's evaluation finds, or none.
    rng = random.Random(47)
    agree = differ = 0
    for _ in range(3000):
        a, b, r = (_random_layout(rng) for _ in range(3))
        if rng.random() < 0.3:
            b = cute.make_layout(cute.size(b), stride=rng.choice((-3, -1, 2)))
        n = cute.size(b)
        core = _verify._mismatch_in_core(a, b, r, n)
        assert core is not _verify._NOT_CHECKED
        assert core == _verify._mismatch_in_numpy(a, b, r, n), (
            str(a), str(b), str(r))
        if core is None:
            agree += 1
        else:
            differ += 1
    assert agree > 100 and differ > 1000
    # A value past int64 is not checked in the core (NumPy decides).
    big = cute.make_layout(4, stride=1 << 62)
    assert _verify._mismatch_in_core(big, big, big, 4) is \
        _verify._NOT_CHECKED


def test_the_check_reads_dynamic_leaves_in_cpp_as_in_python():
    # issue 47 item 15: the composition check reads the layouts' leaves in
    # C++ (cute_composition_mismatch_of); over random layouts with dynamic
    # integers (negative, zero and past-int64 values included) it answers
    # as reading them in Python (_flat), and leaves what it cannot read (a
    # scaled basis, a bool) to Python.
    from hlolayout.cute_dsl import _ints
    from hlolayout.cute_dsl._objects import Layout
    rng = random.Random(1547)

    def leaf(x):
        r = rng.random()
        if r < 0.3:
            return cute.Int32(x)
        if r < 0.4:
            # (a value past int64, as arithmetic could make one)
            return _ints._unknown(rng.choice((x, -x, 0, 1 << 70)), 1, x, x)
        if r < 0.42:
            return rng.choice((True, cute.E(0).scale(2)))
        return x

    agree = differ = skipped = 0
    for _ in range(3000):
        a, b, r = (_random_layout(rng) for _ in range(3))
        a, b, r = (Layout(_map_leaves(x.sh, leaf), _map_leaves(x.st, leaf))
                   for x in (a, b, r))
        n = rng.choice((1, 4, 16, 64))
        core = _verify._mismatch_in_core(a, b, r, n)
        assert core == _verify._mismatch_of_flat(a, b, r, n), (
            str(a), str(b), str(r))
        if core is _verify._NOT_CHECKED:
            skipped += 1
        elif core is None:
            agree += 1
        else:
            differ += 1
    assert agree > 100 and differ > 500 and skipped > 100, (agree, differ,
                                                           skipped)


def _map_leaves(t, f):
    if isinstance(t, tuple):
        return tuple(_map_leaves(e, f) for e in t)
    return f(t)


def test_a_tiled_mma_of_another_atom_is_not_reused():
    # issue 47 item 15: C++ tiled MMAs are kept by the atom's whole
    # definition; the DSL's sm90 atom has CuTe's name with another C layout.
    from hlolayout.cute_dsl import _atoms
    op = cute.nvgpu.warp.MmaF16BF16Op(cute.Float16, cute.Float32, (16, 8, 16))
    first = str(cute.make_tiled_mma(op, (2, 2, 1)).tv_layout_C_tiled)
    atom = cute.make_mma_atom(op)._cpp
    other = core.cute_mma_atom_from_layouts(
        atom.name, atom.family, atom.thr_id, "(_16,_8,_16)", atom.a, atom.b,
        "((_4,_8),(_2,_2)):((_16,_1),(_8,_64))")
    def _whole(atom, layout, permutation):
        return _atoms._kept("whole", core.cute_make_tiled_mma, atom, layout,
                            permutation)
    tm = _whole(other, "(2,2,1):(1,2,0)", "<_,_,_>")
    assert _whole(atom, "(2,2,1):(1,2,0)", "<_,_,_>") is \
        _whole(atom, "(2,2,1):(1,2,0)", "<_,_,_>")
    assert tm.layout_tv("C") != _whole(
        atom, "(2,2,1):(1,2,0)", "<_,_,_>").layout_tv("C")
    assert str(cute.make_tiled_mma(op, (2, 2, 1)).tv_layout_C_tiled) == first


def test_the_engines_kept_answers_are_its_answers():
    # issue 47 item 15: _fast keeps the Python engine's answers. Over random
    # dynamic operands, the answer given again equals the one computed
    # afresh (and the refusals stay refusals).
    rng = random.Random(15)
    ops = [cute.composition, cute.logical_divide, cute.zipped_divide,
           cute.logical_product, cute.tiled_divide]
    kept = 0
    for _ in range(600):
        a = _random_layout(rng)
        shape = tuple(cute.assume(cute.Int32(s), divby=rng.choice((1, 2)))
                      if isinstance(s, int) and s % 2 == 0 and
                      rng.random() < 0.5 else s
                      for s in _tuples_of(a.shape))
        a = cute.make_layout(shape, stride=_tuples_of(a.stride))
        b = _random_layout(rng, 2)
        op = rng.choice(ops)
        answers = []
        for fresh in (True, False, True):
            if fresh:
                _fast.memo_clear()
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    answers.append(str(op(a, b)))
            except (TypeError, ValueError) as ex:
                answers.append(type(ex).__name__)
        assert answers[0] == answers[1] == answers[2], (str(a), str(b), op)
        kept += len(_fast._MEMO) > 0
    assert kept > 100


def _tuples_of(x):
    return x if isinstance(x, tuple) else (x,)


def test_a_wrong_answer_is_not_kept():
    # A wrong answer of the DSL warns (or raises) at every call: the engine
    # does not keep it.
    a = cute.make_layout((cute.Int32(4), 3), stride=(1, 5))
    b = cute.make_layout(4, stride=3)
    with cute.strict(False):
        for _ in range(2):
            with pytest.warns(cute.WrongLayoutWarning):
                cute.composition(a, b)
    with pytest.raises(cute.WrongLayoutError):
        cute.composition(a, b)
    # Another divisibility is another key.
    c = cute.make_layout((cute.Int32(64), 32), stride=(32, 1))
    d = cute.make_layout((cute.assume(cute.Int32(64), divby=32), 32),
                         stride=(32, 1))
    tile = cute.make_layout((4, 8))
    assert str(cute.composition(c, tile)) == "((?,?),(?,?)):((32,?),(128,?))"
    assert str(cute.composition(d, tile)) == \
        "((?{div=4},?),(?,?)):((32,?),(128,?))"
    assert str(cute.composition(c, tile)) == "((?,?),(?,?)):((32,?),(128,?))"
    e = cute.make_layout((cute.assume(cute.Int32(64), divby=2), 32),
                         stride=(32, 1))
    assert str(cute.composition(e, tile)) == \
        "((?{div=2},?),(?,?)):((32,?),(128,?))"


def test_divides_and_products_keep_the_function():
    rng = random.Random(11)
    for _ in range(500):
        a = _random_layout(rng)
        size = cute.size(a)
        t = _compact(rng, rng.choice([d for d in range(1, size + 1)
                                      if size % d == 0]))
        try:
            d = cute.logical_divide(a, t)
        except Exception:  # noqa: BLE001
            continue
        # Mode 0 of the divide is A o T: the tile's elements.
        idx = np.arange(cute.size(t), dtype=np.int64)
        tile = cute.composition(a, t)
        assert (_verify.evaluate(d[0], idx) ==
                _verify.evaluate(tile, idx)).all()
        # The divide holds every element of A once.
        full = _verify.evaluate(d, np.arange(size, dtype=np.int64))
        mine = _verify.evaluate(a, np.arange(size, dtype=np.int64))
        assert sorted(full.tolist()) == sorted(mine.tolist())


# ---------------------------------------------------------------------------
# Atoms


def test_umma_formula_matches_the_cpp_tables():
    names = [n for n in core.cute_mma_atom_names(100000)
             if n.startswith(("SM100_MMA", "SM103_"))]
    assert len(names) > 1000
    for name in names[::53]:
        atom = core.cute_find_mma_atom(name)
        m, n, k = atom.shape_mnk
        two = atom.thr_id == "_2:_1"
        assert tcgen05.umma_layouts(m, n, k, two) == (
            atom.thr_id, atom.a, atom.b, atom.c), name


def test_tcgen05_atoms_cpp_lacks_follow_the_formula():
    cute.set_arch("sm_100a")
    t = NV.tcgen05
    # A in tensor memory for a sparse kind: CuTe's C++ has only _SS_SPARSE.
    op = t.MmaF16BF16SparseOp(cute.Float16, cute.Float32, (128, 64, 32),
                              t.CtaGroup.ONE, t.OperandSource.TMEM,
                              NV.OperandMajorMode.K, NV.OperandMajorMode.K,
                              t.SparseMetadataFormat.TID)
    atom = cute.make_mma_atom(op)
    assert str(atom.tv_layout_A) == "(1,(128,32)):(128,(1,128))"
    assert str(atom.tv_layout_C) == "(1,(128,64)):(128,(1,128))"
    # A tensor-memory A operand is K-major (the DSL's MLIR refuses MN).
    with pytest.raises(Exception, match="K-major"):
        cute.make_mma_atom(t.MmaF16BF16Op(
            cute.Float16, cute.Float32, (128, 64, 16), t.CtaGroup.ONE,
            t.OperandSource.TMEM, NV.OperandMajorMode.MN,
            NV.OperandMajorMode.K))


@pytest.mark.parametrize("tile", [(128, 128), (256, 64), (64, 32),
                                  ((64, 2), (32, 4)), (256, 128, 2)])
def test_partition_shape_holds_each_element_once_per_broadcast(tile):
    tm = cute.make_tiled_mma(NV.warp.MmaF16BF16Op(cute.Float16, cute.Float32,
                                                  (16, 8, 16)), (2, 2, 1))
    threads = cute.size(tm.thr_layout_vmnk)
    for operand, spread in (("A", 2), ("B", 2), ("C", 1)):
        shape = getattr(tm, "partition_shape_" + operand)(tile)
        # Every thread holds its fragment; the elements of the tile are held
        # by as many threads as the operand is broadcast over (A over the N
        # threads, B over the M threads).
        held = np.prod([cute.size(x) for x in shape]) * threads
        assert held == cute.size(tile) * spread, (operand, shape)


def test_tiled_mma_with_a_permutation_that_does_not_tile_the_atom():
    cute.set_arch("sm_100a")
    t = NV.tcgen05
    op = t.MmaTF32Op((128, 48, 8), t.CtaGroup.TWO, t.OperandSource.SMEM,
                     NV.OperandMajorMode.K, NV.OperandMajorMode.K)
    tm = cute.make_tiled_mma(op, (1, 1, 1), (16, 16, 16))
    # The DSL builds it; B's layout is the one CuTe cannot compute.
    assert "Permutation MNK: (16:1,16:1,16:1)" in str(tm)
    assert str(tm.tv_layout_A_tiled).startswith("(2,")
    with pytest.raises(Exception, match="make_tiled_mma"):
        tm.tv_layout_B_tiled


def test_architecture_checks_say_the_rule():
    cute.set_arch("sm_80")
    with pytest.raises(Exception, match="sm_90a"):
        NV.warpgroup.MmaF16BF16Op(cute.Float16, cute.Float32, (64, 64, 16),
                                  NV.warpgroup.OperandSource.SMEM,
                                  NV.OperandMajorMode.K,
                                  NV.OperandMajorMode.K)
    cute.set_arch("sm_90a")
    with pytest.raises(Exception, match="sm_100a"):
        NV.tcgen05.MmaF16BF16Op(cute.Float16, cute.Float32, (128, 64, 16),
                                NV.tcgen05.CtaGroup.ONE,
                                NV.tcgen05.OperandSource.SMEM,
                                NV.OperandMajorMode.K, NV.OperandMajorMode.K)


def test_smem_helpers_pick_the_widest_swizzle():
    kinds = NV.tcgen05.SmemLayoutAtomKind
    get = utils.sm100.get_smem_layout_atom_ab
    k, mn = NV.OperandMajorMode.K, NV.OperandMajorMode.MN
    assert get(k, cute.Float16, (128, 64)) is kinds.K_SW128
    assert get(k, cute.Float16, (128, 32)) is kinds.K_SW64
    assert get(k, cute.Float16, (128, 16)) is kinds.K_SW32
    assert get(k, cute.Float16, (128, 8)) is kinds.K_INTER
    assert get(mn, cute.Float32, (64, 8)) is kinds.MN_SW128_32B
    assert get(mn, cute.Float16, (64, 8)) is kinds.MN_SW128


# ---------------------------------------------------------------------------
# Pictures


def test_layout_pictures_show_every_index():
    layout = cute.make_layout((4, (2, 2)), stride=(2, (1, 8)))
    svg = layout._repr_svg_()
    found = {tuple(map(int, m.group(1).split(","))): int(m.group(2))
             for m in re.finditer(r'data-coord="([0-9,]+)" '
                                  r'data-index="(\d+)"', svg)}
    assert len(found) == 16
    for (i, j), k in found.items():
        assert k == cute.crd2idx((i, j), layout)
    html = layout._repr_html_()
    assert "<pre>(4,(2,2)):(2,(1,8))</pre>" in html and "<svg" in html
    text = cute.draw(layout)
    # The title in the DSL's notation, not C++'s (issue 47 item 13).
    assert text.startswith("CuTe layout (4,(2,2)):(2,(1,8))\n")


def test_swizzled_and_dynamic_layouts_draw():
    sw = cute.make_composed_layout(cute.make_swizzle(1, 1, 1), 0,
                                   cute.make_layout((4, 4), stride=(4, 1)))
    svg = sw._repr_svg_()
    cells = re.findall(r'data-coord="(\d+),(\d+)" data-index="(\d+)"', svg)
    assert len(cells) == 16
    for i, j, k in cells:
        x = 4 * int(i) + int(j)
        assert int(k) == x ^ ((x & 4) >> 1)
    assert "S&lt;3,4,3&gt;" in cute.make_swizzle(3, 4, 3)._repr_svg_()
    assert "Sw&lt;" not in sw._repr_svg_() and "_0 o" not in sw._repr_svg_()
    assert cute.draw(sw).startswith("CuTe layout S<1,1,1> o 0 o (4,4):(4,1)")
    dyn = cute.make_layout((cute.Int32(4), 2))
    assert dyn._repr_svg_().count("data-index=") == 8
    assert "(?,2):(1,?)" in dyn._repr_html_()
    assert cute.make_identity_layout((2, 2))._repr_svg_() is None


def test_atom_pictures():
    tm = cute.make_tiled_mma(NV.warp.MmaF16BF16Op(cute.Float16, cute.Float32,
                                                  (16, 8, 16)), (2, 1, 1))
    svg = tm._repr_svg_()
    assert svg.count('data-thread="63"') >= 1
    assert tm.op._repr_svg_() is not None
    copy = cute.make_copy_atom(NV.warp.LdMatrix8x8x16bOp(False, 4),
                               cute.Float16)
    assert "<svg" in copy._repr_svg_()
    tc = cute.make_tiled_copy_tv(copy, cute.make_layout((32, 1)),
                                 cute.make_layout((1, 8)))
    assert "T31" in cute.draw(tc)


def _latex(fn, *args, **kwargs):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        fn(*args, **kwargs)
    return out.getvalue()


def test_print_latex_cells_are_the_layout():
    layout = cute.make_layout((2, 3), stride=(3, 1))
    text = _latex(viz.print_latex, layout)
    assert text.startswith("%% Layout: {} (2,3):(3,1)\n\\documentclass")
    nodes = re.findall(r"\] at \((\d+),(\d+)\) \{(\d+)\};", text)
    assert len(nodes) == 6
    for m, n, k in nodes:
        assert int(k) == 3 * int(m) + int(n)
    assert "black!40" in text  # index 1's grey
    pieces = []
    viz.print_latex(layout, render_func=pieces.append)
    assert len(pieces) == 1 and "\\documentclass" not in pieces[0]
    with pytest.raises(ValueError, match="static"):
        viz.print_latex(cute.make_layout((cute.Int32(2), 3)))


def test_print_latex_tv_owners():
    tiler, tv = cute.make_layout_tv(cute.make_layout((2, 2), stride=(2, 1)),
                                    cute.make_layout((1, 2), stride=(2, 1)))
    text = _latex(viz.print_latex_tv, tv, (2, 4), palette="rainbow",
                  title="x_y", axis_labels=True)
    labels = re.findall(r"\\node at \((\d+),(\d+)\) \{\\shortstack\{T(\d+) "
                        r"\\\\ V(\d+)\}\};", text)
    assert len(labels) == 8
    for m, n, t, v in labels:
        k = cute.crd2idx((int(t), int(v)), tv)
        assert (k % 2, k // 2) == (int(m), int(n))
    assert "x\\_y" in text and "M (row)" in text
    assert viz.tikz_color_rainbow(0, 4) == "{rgb,255:red,255;green,0;blue,0}"


def test_docstring_examples():
    from hlolayout.cute_dsl import (_basis, _coords, _makers, _pictures,
                                    _printf, _static_route, nvgpu)
    for module in (cute, _pictures, viz, nvgpu.tcgen05, utils, _basis,
                   _coords, _makers, _printf, _static_route):
        result = doctest.testmod(module, optionflags=(
            doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS))
        assert result.failed == 0, module.__name__


# ---------------------------------------------------------------------------
# Edge cases and bad inputs: each is what the DSL (4.8.1) does, or its
# refusal with the DSL's rule in words (checked against it by
# differential/cute_dsl); never a crash of another type.

EDGE_CASES = [
    ('cute.make_layout(())', '():()'),
    ('cute.make_layout(1)', '1:0'),
    ('cute.make_identity_layout(())', '():()'),
    ('cute.size(cute.make_layout((2**31, 2**31)))', '4611686018427387904'),
    ('cute.make_swizzle(-1, 4, 3)', 'S<0,4,3>'),
    ('cute.make_ordered_layout((4, 8), order=(0, 0))', '(4,8):(1,1)'),
    ('cute.idx2crd(100, (4, 8))', '(0,25)'),
    ('cute.complement(cute.make_layout(2, stride=1), ())', '1:0'),
    ('cute.complement(cute.make_layout((2, 8), stride=(0, 2)), ((),))', '2:1'),
    ('cute.complement(cute.make_layout(2, stride=2), (4, ()))', '2:1'),
    ('cute.logical_product(cute.make_layout((2, 2)), (2, 2))',
     '((2,2),(2,2)):((1,2),(2,1))'),
]


@pytest.mark.parametrize("expr,text", EDGE_CASES)
def test_edge_cases_print_what_the_dsl_prints(expr, text):
    assert run(expr) == text


L48 = 'cute.make_layout((4, 8))'
BAD_INPUTS = [
    # (expression, exception, words of the rule)
    ('cute.make_layout((4, 0))', ValueError, 'strictly positive, but got 0'),
    ('cute.make_layout((4, 8), stride=(1,))', ValueError, 'congruent'),
    ('cute.make_layout((4, 8), stride=(1, 2.5))', ValueError,
     'Expected Stride, whose leaves are integers or ScaledBasis'),
    ("cute.make_layout('abc')", ValueError, 'Expected Shape, which is a '
     'positive integer or tuple of Shapes, but got abc'),
    ('cute.recast_layout(0, 8, cute.make_layout(4))', cute.Refusal,
     'from 8 bits to 0 bits'),
    ('cute.recast_layout(6, 4, 6)', TypeError, 'src_layout must be a layout'),
    ('cute.coalesce("x")', ValueError,
     'Operand 0 of operation "cute.coalesce" must be a Value'),
    ('cute.coalesce(cute.make_layout((2, 2)), target_profile=(1, 1, 1))',
     cute.Refusal, 'unable to coalesce `input` of type'),
    ('cute.raked_product(cute.make_layout((2, 2)), 4)', ValueError,
     'Operand 1 of operation "cute.raked_product" must be a Value'),
    ('cute.blocked_product(cute.make_layout((2, 2)), (2, 2))', ValueError,
     'Operand 1 of operation "cute.blocked_product" must be a Value'),
    ('cute.logical_divide(cute.make_layout(8), "x")', ValueError,
     'Operand 1 of operation "cute.logical_divide" must be a Value'),
    ('cute.crd2idx(1.5, cute.make_layout(3))', ValueError,
     'Expected Coord, whose leaves are integers or None'),
    ('cute.crd2idx((1, 2, 3), ' + L48 + ')', cute.Refusal,
     'Mismatched Ranks'),
    ('cute.slice_and_offset((None, 1.5), ' + L48 + ')', ValueError,
     'integers or None'),
    ('cute.size(' + L48 + ', mode=[4])', cute.Refusal,
     r'mode \[4\] has invalid values'),
    ('cute.rank(' + L48 + ', mode=[5])', cute.Refusal, 'less than rank'),
    ('cute.cosize(' + L48 + ', mode=[5])', cute.Refusal,
     r'mode \[5\] is invalid'),
    ('cute.get(' + L48 + ', mode=[3])', cute.Refusal, 'less than rank'),
    ('cute.select((4, 8), mode=[3])', cute.Refusal, 'invalid mode element'),
    ('cute.append(cute.make_layout((4, 2)), cute.Int32(3))', TypeError,
     'Input type of elem'),
    ('cute.product_each(((None, 4),))', ValueError,
     'Expected IntTuple, whose leaves are integers'),
    ('cute.round_up(12, (2, 3))', TypeError, 'single integer'),
    ('cute.tile_to_shape(cute.make_layout((2, 4)), (8,), (0, 1))',
     cute.Refusal, 'Rank of layout must be <= rank of target shape'),
    ('cute.make_tiled_mma(cute.nvgpu.warp.MmaF16BF16Op(cute.Float16, '
     'cute.Float32, (16, 8, 16)), (2, 2))', ValueError, 'rank-3 MNK'),
    ('cute.nvgpu.warp.MmaF16BF16Op(cute.Float16, cute.Float32, (16, 8, 17))',
     cute.DSLUserCodeError,
     r'shape_mnk must be \(16, 8, 8\) or \(16, 8, 16\), got \(16, 8, 17\)'),
    ('cute.nvgpu.warp.MmaF16BF16Op(cute.Int8, cute.Float32, (16, 8, 16))',
     cute.DSLUserCodeError, 'ab_dtype must be Float16 or BFloat16'),
]


@pytest.mark.parametrize("expr,exc,words", BAD_INPUTS)
def test_bad_inputs_are_refused_with_the_rule(expr, exc, words):
    with pytest.raises(exc, match=words):
        run(expr)


# Operands where CuTe's algorithm divides by zero: the DSL's process dies
# of SIGFPE (or Python raises ZeroDivisionError); the twin refuses.
DIVIDES_BY_ZERO = [
    'cute.raked_product(cute.make_layout((8, 4), stride=(8, 8)), '
    'cute.make_layout(4, stride=4))',
    'cute.logical_divide(cute.make_layout((8, 8), stride=(2, -1)), '
    'cute.make_layout((4, 4), stride=(1, 2)))',
    'cute.blocked_product(cute.make_layout((4, 4, 2), stride=(2, 8, 2)), '
    'cute.make_layout(8))',
    'cute.logical_product(cute.make_layout((4, 3), stride=(1, -1)), 8)',
    'cute.ceil_div(12, 0)',
]


@pytest.mark.parametrize("expr", DIVIDES_BY_ZERO)
def test_division_by_zero_is_a_refusal(expr):
    with pytest.raises(cute.DivisionByZero, match="divides by zero") as e:
        run(expr)
    assert isinstance(e.value, ValueError)
    assert isinstance(e.value, ZeroDivisionError)


def test_random_bad_arguments_raise_only_the_documented_errors():
    """Every public function over random garbage and random layouts
    (negative and zero strides, swizzles, huge and dynamic integers):
    an answer, TypeError or ValueError (Refusal, WrongLayoutError), never
    another exception."""
    rng = random.Random(20261124)

    def layout():
        s = tuple(rng.choice([1, 2, 3, 4, 8]) for _ in range(rng.randrange(1, 4)))
        d = tuple(rng.choice([0, 1, 2, -1, 4, 8, 16]) for _ in s)
        L = cute.make_layout(s, stride=d)
        if rng.random() < .2:
            return cute.make_composed_layout(
                cute.make_swizzle(rng.randrange(4), rng.randrange(5),
                                  rng.randrange(5)), 0, L)
        return L

    def value(depth=0):
        k = rng.randrange(12)
        if k < 4 or depth > 2:
            return rng.choice([0, 1, 2, 3, 4, 8, -1, -4, 2**31, 2**70, 6])
        if k == 4:
            return cute.Int32(rng.choice([0, 1, 4, 8, -3, 16]))
        if k == 5:
            return None
        if k == 6:
            return rng.choice(["x", 1.5, [], {}, (), True])
        if k == 7:
            return layout()
        return tuple(value(depth + 1) for _ in range(rng.randrange(4)))

    names = [n for n in cute.__all__ if n.islower() and callable(
        getattr(cute, n)) and n not in ("set_arch", "unchecked", "draw")]
    for _ in range(4000):
        fn = getattr(cute, rng.choice(names))
        args = [rng.choice([layout, value, value])()
                for _ in range(rng.randrange(4))]
        kwargs = {}
        if rng.random() < .2:
            kwargs[rng.choice(["stride", "order", "target_profile",
                               "mode"])] = value()
        try:
            r = fn(*args, **kwargs)
            cute.pretty_str(r)
        except (TypeError, ValueError):
            pass


HELPER_BAD_INPUTS = [
    ('utils.sm90.make_smem_layout_a(cute.nvgpu.OperandMajorMode.K, '
     '(128, 128, 64), cute.Float16, 4)', TypeError, 'utils.LayoutEnum'),
    ('utils.sm90.make_smem_layout_a(utils.LayoutEnum.ROW_MAJOR, '
     '(128, 128, 64), 16, 4)', TypeError, 'data type'),
    ('utils.sm90.make_smem_layout_b(utils.LayoutEnum.ROW_MAJOR, 128, '
     'cute.Float16, 4)', cute.Refusal, 'MMA tiler as a tuple'),
    ('utils.sm100.make_smem_layout_a(None, (128, 256, 64), cute.Float16, 4)',
     TypeError, 'TiledMma'),
    ('utils.sm100.make_smem_layout_epi(cute.Float16, "row", (128, 64), 2)',
     TypeError, 'utils.LayoutEnum'),
    ('cute.nvgpu.tcgen05.tile_to_mma_shape(cute.Float16, (128, 64, 2))',
     TypeError, 'layout atom'),
    ('cute.nvgpu.warpgroup.make_smem_layout_atom('
     'cute.nvgpu.warpgroup.SmemLayoutAtomKind.K_SW128, (16,))', TypeError,
     'data type'),
    ('cute.make_mma_atom(cute.nvgpu.warp.MmaOp())', TypeError,
     'abstract MMA op'),
]


@pytest.mark.parametrize("expr,exc,words", HELPER_BAD_INPUTS)
def test_helpers_refuse_bad_arguments(expr, exc, words):
    with pytest.raises(exc, match=words):
        run(expr)


def test_random_bad_atom_arguments_raise_only_the_documented_errors():
    """Every op class of nvgpu, its atom, tiled MMA or tiled copy, and the
    smem helpers over random arguments on three architectures: an answer,
    TypeError or ValueError, never another exception."""
    import inspect
    rng = random.Random(37)
    dtypes = [cute.Float16, cute.BFloat16, cute.Float32, cute.Int8,
              cute.Float8E4M3FN, cute.TFloat32, cute.Float64]
    enums = (list(NV.OperandMajorMode) + list(NV.tcgen05.CtaGroup) +
             list(NV.tcgen05.OperandSource) +
             list(NV.warpgroup.OperandSource) +
             list(NV.warpgroup.SmemLayoutAtomKind) +
             list(NV.tcgen05.SmemLayoutAtomKind))

    def value(depth=0):
        k = rng.randrange(12)
        if k < 3:
            return rng.choice(dtypes)
        if k < 5:
            return rng.choice([0, 1, 8, 16, 64, 128, 256, -1, 3])
        if k == 5:
            return None
        if k == 6:
            return rng.choice(["x", 1.5, [], True])
        if k == 7 and depth < 2:
            return tuple(value(depth + 1) for _ in range(rng.randrange(4)))
        if k == 8:
            return rng.choice(enums)
        if k == 9:
            return cute.make_layout(rng.choice([(2, 2, 1), (4, 8), 32]))
        return rng.choice([(16, 8, 16), (64, 64, 16), (128, 128, 16)])

    classes = [getattr(m, n) for m in (NV.warp, NV.warpgroup, NV.tcgen05,
                                       NV.cpasync, NV)
               for n in dir(m) if n.endswith("Op") and
               inspect.isclass(getattr(m, n))]
    helpers = [NV.warpgroup.make_smem_layout_atom,
               NV.tcgen05.make_smem_layout_atom, NV.tcgen05.tile_to_mma_shape,
               utils.sm90.make_smem_layout_a, utils.sm100.make_smem_layout_a,
               utils.sm90.make_smem_layout_epi,
               utils.sm100.make_smem_layout_epi]
    for _ in range(3000):
        cute.set_arch(rng.choice(["sm_80", "sm_90a", "sm_100a"]))
        try:
            if rng.random() < .7:
                cls = rng.choice(classes)
                op = cls(*[value() for _ in range(rng.randrange(6))])
                if "Mma" in cls.__name__:
                    tm = cute.make_tiled_mma(op, value())
                    str(tm.tv_layout_C_tiled)
                    str(tm.partition_shape_A(value()))
                else:
                    atom = cute.make_copy_atom(op, rng.choice(dtypes))
                    str(cute.make_tiled_copy_tv(atom, value(), value())
                        .layout_src_tv_tiled)
            else:
                str(rng.choice(helpers)(*[value()
                                          for _ in range(rng.randrange(5))]))
        except (TypeError, ValueError):
            pass


def test_tikz_pictures_of_rank_1_and_flat_tiles():
    # issue 46 item 1: the DSL's print_latex fails on a rank-1 layout and
    # print_latex_tv on a tile mode of one element with stride 0; the twin
    # draws both: a rank-1 layout as one column (the mode 1:0 the DSL's
    # comment line shows), the flat mode as its one column.
    text = _latex(viz.print_latex, cute.make_layout((4,), stride=(2,)))
    assert text.startswith("%% Layout: {} (4,1):(2,0)\n")
    cells = re.findall(r"\] at \((\d+),(\d+)\) \{(\d+)\};", text)
    assert cells == [("0", "0", "0"), ("1", "0", "2"), ("2", "0", "4"),
                     ("3", "0", "6")]
    assert "grid (4,1);" in text
    text = _latex(viz.print_latex, cute.make_layout(3))
    assert "(3,1):(1,0)" in text and "grid (3,1);" in text
    swizzled = cute.make_composed_layout(cute.make_swizzle(1, 1, 1), 0,
                                         cute.make_layout((8,), stride=(1,)))
    text = _latex(viz.print_latex, swizzled)
    assert re.findall(r"\{(\d+)\};", text)[:8] == \
        ["0", "1", "2", "3", "6", "7", "4", "5"]
    tiler, tv = cute.make_layout_tv(cute.make_layout((4, 1)),
                                    cute.make_layout((2, 1)))
    text = _latex(viz.print_latex_tv, tv, cute.make_layout((8, 1)))
    labels = re.findall(r"\\node at \((\d+),(\d+)\) \{\\shortstack\{T(\d+) "
                        r"\\\\ V(\d+)\}\};", text)
    assert len(labels) == 8 and {n for _, n, _, _ in labels} == {"0"}
    # The refusals say what is wrong in the project's words, layouts in the
    # DSL's notation.
    with pytest.raises(ValueError, match=r"cannot draw \(2,2,2\):\(1,2,4\): "
                       "rank 3"):
        viz.print_latex(cute.make_layout((2, 2, 2)))
    with pytest.raises(ValueError, match="no palette named 'nope'"):
        viz.print_latex_tv(tv, (8, 1), palette="nope")
    with pytest.raises(TypeError, match="layout or composed layout, not "
                       "Swizzle"):
        viz.print_latex(cute.make_swizzle(1, 1, 1))
    with pytest.raises(ValueError, match="stride 0"):
        viz.print_latex_tv(tv, cute.make_layout((4, 2), stride=(0, 1)))
    with pytest.raises(TypeError, match="title must be a string"):
        viz.print_latex_tv(tv, (8, 1), title=5)
    assert [viz.tikz_color_bwx8(k) for k in range(8)] == [
        "black!00", "black!40", "black!20", "black!60", "black!10",
        "black!50", "black!30", "black!70"]
    assert viz.tikz_escape("a_b#c\\") == "a\\_b\\#c\\textbackslash{}"


def test_tikz_cells_are_the_pictures_of_draw():
    # print_latex's cells are cute.draw's (the same draw/ code), and
    # print_latex_tv keeps the first owner, threads outer, in the order the
    # owners come, wrapping indices past the tile.
    layout = cute.make_layout(((2, 2), 3), stride=((1, 6), 2))
    text = _latex(viz.print_latex, layout, render_func=print)
    tikz = {(int(m), int(n)): int(k) for m, n, k in
            re.findall(r"\] at \((\d+),(\d+)\) \{(\d+)\};", text)}
    rows = [line.split() for line in cute.draw(layout).splitlines()
            if re.match(r"\d+ ", line)]
    drawn = {(int(row[0]), j): int(k) for row in rows
             for j, k in enumerate(row[1:])}
    assert len(drawn) == 12
    assert tikz == drawn
    tv = cute.make_layout((2, 4), stride=(1, 2))
    pieces = []
    viz.print_latex_tv(tv, cute.make_layout((2, 2), stride=(2, 1)),
                       render_func=pieces.append, palette="bw_dual")
    labels = re.findall(r"\\node at \((\d),(\d)\) \{\\shortstack\{T(\d) "
                        r"\\\\ V(\d)\}\};", pieces[0])
    assert labels == [("0", "0", "0", "0"), ("1", "0", "0", "1"),
                      ("0", "1", "1", "0"), ("1", "1", "1", "1")]
    assert "\\path[fill=black!18] (1,-0.5) rectangle (1.5,0.5);" in pieces[0]

def test_seeds_330_to_335_edge_cases():
    # group_modes of an integral layout gives its one mode as a tuple, and a
    # recast ignores the stride of a mode of one element, as the DSL.
    sw = cute.make_composed_layout(cute.make_swizzle(3, 4, 3), 8,
                                   cute.make_layout(6))
    assert str(cute.group_modes(sw, 0, 1)) == "S<3,4,3> o 8 o (6):(1)"
    one = cute.make_composed_layout(cute.make_swizzle(3, 4, 3), 0,
                                    cute.make_layout((1,), stride=(3,)))
    with cute.strict():
        assert str(cute.recast_layout(64, 32, one)) == "S<3,3,3> o 0 o (1):(2)"


def test_draw_names_layouts_in_the_dsls_notation():
    # issue 47 item 13: the panels of an atom's picture named their TV
    # layouts in C++'s notation ((_4,_8),...); the DSL prints (4,8).
    from hlolayout.cute_dsl import nvgpu
    op = nvgpu.warp.MmaF16BF16Op(cute.Float16, cute.Float32, (16, 8, 16))
    tm = cute.make_tiled_mma(cute.make_mma_atom(op),
                             cute.make_layout((2, 2, 1)))
    for text in (cute.draw(tm), cute.draw(tm, svg=True)):
        assert "TV layout ((4,8,2,2),((2,2,2),(1,1))):((64,1,16,0)," \
               "((32,8,256),(0,0)))" in text
        assert "(_" not in text and ",_" not in text
    assert "SM80_16x8x16_F32F16F16F32_TN" in cute.draw(tm)  # op names kept
    swizzled = cute.make_composed_layout(
        cute.make_swizzle(3, 4, 3), 0, cute.make_layout((8, 8, 2)))
    with pytest.raises(ValueError) as ex:
        cute.draw(swizzled)
    assert "S<3,4,3> o 0 o (8,8,2):(1,8,64)" in str(ex.value)
    assert "_" not in str(ex.value) and "Sw<" not in str(ex.value)
    assert _pictures.dsl_notation("Sw<3,4,3> o _0 o (_8,_-2):(_1,_0)") == \
        "S<3,4,3> o 0 o (8,-2):(1,0)"


def test_a_tiled_mma_builds_the_operand_layout_it_is_asked_for():
    # issue 47 item 15: the C++ tiled MMA is a shell whose operand layouts
    # are built when read. A permutation that does not tile the atom along M
    # fails A and C (with CuTe's first failure, C's), not B; the layouts
    # read are those of the whole tiled MMA.
    from hlolayout.cute_dsl import _atoms
    op = cute.nvgpu.warp.MmaF16BF16Op(cute.Float16, cute.Float32, (16, 8, 16))
    tm = cute.make_tiled_mma(op, (1, 1, 1), (12, None, None))
    assert str(tm.tv_layout_B_tiled) == \
        "((4,8),((2,2),(1,1))):((16,1),((8,64),(0,0)))"
    for read in (lambda: tm.tv_layout_A_tiled, lambda: tm.tv_layout_C_tiled,
                 lambda: tm.get_tile_size(0)):
        with pytest.raises(_atoms.DSLUserCodeError,
                           match="^make_tiled_mma: C: "):
            read()
    tm = cute.make_tiled_mma(op, (2, 2, 1))
    full = core.cute_make_tiled_mma(tm._cpp, "(2,2,1):(1,2,0)", "<_,_,_>")
    for x in "ABC":
        assert str(getattr(tm, "tv_layout_%s_tiled" % x)) == \
            full.layout_tv(x).replace("_", "")


def test_tiled_atom_arguments_as_the_dsl_takes_them():
    # issue 89 item 1 (_atoms.py rewritten): the forms the DSL takes and
    # refuses, observed with the DSL run on the CPU.
    op = cute.nvgpu.warp.MmaF16BF16Op(cute.Float16, cute.Float32, (16, 8, 16))
    # A permutation has three modes: (64, 32) and (64,) are refused
    # ("Inputs are incorrect for type: cute.nvgpu.TiledMmaType").
    for perm in ((64, 32), (64,), (64, 32, 16, 2), 64):
        with pytest.raises(cute.DSLUserCodeError, match="3 modes"):
            cute.make_tiled_mma(op, (2, 2, 1), perm)
    assert cute.pretty_str(cute.make_tiled_mma(
        op, (2, 2, 1), (64, 1, 16)).permutation_mnk) == "(64:1,1:0,16:1)"
    # A tiled copy's tile is a tuple; `_` modes are not modelled (CuTe's
    # C++ has no shape for them; the old twin's C++ core aborted the
    # process there).
    atom = cute.make_copy_atom(cute.nvgpu.CopyUniversalOp(), cute.Float32)
    tv = cute.make_layout(((4, 8), 2), stride=((16, 1), 8))
    assert str(cute.make_tiled_copy(atom, tv, (8, 8)).tiler_mn[1]) == "8:1"
    for tiler in (cute.make_layout((8, 8)), 64):
        with pytest.raises(TypeError, match="tiler_mn must be a Tile"):
            cute.make_tiled_copy(atom, tv, tiler)
    with pytest.raises(cute.DSLUserCodeError, match="None"):
        cute.make_tiled_copy(atom, tv, (8, None))
    # partition_shape of a rank-1 shape: the DSL's process aborts.
    tm = cute.make_tiled_mma(op, (2, 2, 1))
    with pytest.raises(ValueError, match="aborts"):
        tm.partition_shape_A((128,))
    assert cute.pretty_str(tm.partition_shape_C((8, 64))) == "((2,2),1,4)"


def test_atom_cards_share_one_value_column():
    # The value column is two spaces after the widest label of the whole
    # card, a tiled atom's included (the DSL's prints, observed).
    op = cute.nvgpu.warp.MmaF16BF16Op(cute.Float16, cute.Float32, (16, 8, 16))
    lines = str(cute.make_tiled_mma(op, (2, 2, 1))).split("\n")
    assert lines[1] == "  Thr Layout VMNK: (32,2,2,1):(1,32,64,0)"
    assert lines[4] == "  ThrID:           32:1"
    atom = cute.make_copy_atom(cute.nvgpu.warp.LdMatrix8x8x16bOp(False, 4),
                               cute.Float16)
    assert str(atom).split("\n")[1:] == [
        "  ThrID:         32:1", "  TV Layout Src: (32,8):(8,1)",
        "  TV Layout Dst: (32,(2,4)):(2,(1,64))", "  Value type:    f16"]
