"""hlolayout.cute_dsl against what NVIDIA's CuTe DSL (nvidia-cutlass-dsl
4.8.1, traced with CUTE_DSL_DRYRUN=1) printed for each expression: the
fixes of issues 46 and 47 in the twin's algebra, each a case the twin got
wrong before."""

import warnings

import pytest

from hlolayout import cute_dsl as cute


def run(expr):
    r = eval(expr, {"cute": cute, "utils": cute.utils})
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


# cosize: the DSL evaluates the layout at its last coordinate; a static 1
# before the last mode gives a static 0, the last mode's coordinate is
# dynamic when any shape is.
COSIZE = [
    ("cute.cosize(cute.make_layout((1, cute.Int64(3), 1), "
     "stride=(0, 0, -1)))", "?"),
    ("cute.cosize(cute.make_layout((1, cute.Int32(3)), stride=(5, 0)))", "1"),
    ("cute.cosize(cute.make_layout((cute.Int32(3), 1), stride=(0, 7)))", "?"),
    ("cute.cosize(cute.make_layout((cute.Int32(3), 4), stride=(0, 0)))", "1"),
    ("cute.cosize(cute.make_layout((3, 4, 1), stride=(1, 3, "
     "cute.Int32(5))))", "12"),
    ("cute.cosize(cute.make_layout((3, 1, 4), stride=(1, cute.Int32(5), "
     "3)))", "12"),
]


@pytest.mark.parametrize("expr,dsl", COSIZE)
def test_cosize_as_the_dsl(expr, dsl):
    assert run(expr) == dsl


def test_product_and_divide_of_a_negative_stride():
    # The DSL refuses ("unable to compute tile_to_shape", "failed to perform
    # a valid division"): the twin used to claim it returns a layout.
    for expr in ("cute.tile_to_shape(cute.make_layout(8, stride=-1), (32,), "
                 "(0,))",
                 "cute.logical_divide(cute.make_layout(64), cute.make_layout("
                 "(2, 4), stride=(-1, 2)))"):
        with pytest.raises(cute.Refusal, match="negative stride|valid "
                           "division"):
            run(expr)
    # A divide by a tiler without a complement: the DSL refuses ("failed to
    # perform a valid division"); the twin used to say it answers.
    with pytest.raises(cute.Refusal, match="valid division"):
        run("cute.logical_divide(cute.make_layout(64), cute.make_layout("
            "(2, 2), stride=(1, 1)))")
    # A dynamic tiler: the DSL does not check, and answers.
    with cute.unchecked():
        assert run("cute.flat_product(cute.make_layout((6,), stride=(-1,)), "
                   "cute.make_layout(((4, cute.Int32(8)), 1), stride=(("
                   "cute.Int32(1), 4), 32)))") == \
            "(6,((?,?),(?,?)),1):(-1,((?,?{div=6}),(4,24)),192)"
    # A tiler of one element: the DSL answers (a layout built on a
    # complement that is not one: WrongLayoutError's rule "product").
    with cute.unchecked():
        assert run("cute.logical_product(cute.make_layout((16, 4), "
                   "stride=(-2, 4)), (1,))") == "((16,1),4):((-2,0),4)"


# recast_layout of a swizzled layout recasts the swizzle (its base moves by
# the factor's log2), the offset and the layout (issue 47 item 11).
SW = "cute.make_composed_layout(cute.make_swizzle(%s), %s, " \
     "cute.make_layout((8, 64), stride=(64, 1)))"
RECAST = [
    ("cute.recast_layout(8, 16, %s)" % (SW % ("3, 4, 3", 0)),
     "S<3,5,3> o 0 o (8,128):(128,1)"),
    ("cute.recast_layout(16, 32, %s)" % (SW % ("3, 4, 3", 0)),
     "S<3,5,3> o 0 o (8,128):(128,1)"),
    ("cute.recast_layout(32, 16, %s)" % (SW % ("3, 4, 3", 0)),
     "S<3,3,3> o 0 o (8,32):(32,1)"),
    ("cute.recast_layout(16, 8, %s)" % (SW % ("3, 4, 3", 8)),
     "S<3,3,3> o 4 o (8,32):(32,1)"),
    ("cute.recast_layout(8, 16, %s)" % (SW % ("3, 4, 3", 8)),
     "S<3,5,3> o 16 o (8,128):(128,1)"),
    ("cute.recast_layout(8, 16, %s)" % (SW % ("2, 4, -3", 0)),
     "S<2,5,-3> o 0 o (8,128):(128,1)"),
    ("cute.recast_layout(64, 4, %s)" % (SW % ("3, 4, 3", 0)),
     "S<3,0,3> o 0 o (8,4):(4,1)"),
    ("cute.recast_layout(8, 16, cute.make_composed_layout(cute.make_layout("
     "4, stride=2), 0, cute.make_layout((8, 64), stride=(64, 1))))",
     "4:4 o 0 o (8,128):(128,1)"),
    ("cute.recast_layout(8, 16, utils.sm90.make_smem_layout_a("
     "utils.LayoutEnum.ROW_MAJOR, (128, 128, 64), cute.Float16, 4))",
     "S<3,5,3> o 0 o ((8,16),(128,1),(1,4)):((128,1024),(1,0),(0,16384))"),
    ("cute.recast_layout(32, 16, utils.sm90.make_smem_layout_a("
     "utils.LayoutEnum.COL_MAJOR, (128, 128, 64), cute.Float16, 2))",
     "S<3,3,3> o 0 o ((32,2),(8,8),(1,2)):((1,2048),(32,256),(0,4096))"),
]


@pytest.mark.parametrize("expr,dsl", RECAST)
def test_recast_of_a_swizzled_layout(expr, dsl):
    assert run(expr) == dsl


def test_recast_of_a_swizzled_layout_refusals():
    # An offset that is not a whole number of new elements, or dynamic: the
    # DSL refuses ("unable to recast layout").
    for off in ("3", "cute.Int32(8)"):
        with pytest.raises(cute.Refusal, match="offset"):
            run("cute.recast_layout(16, 8, %s)" % (SW % ("3, 4, 3", off)))
    # A base below the factor's bits: CuTe's C++ gives S<2,0,3>; the DSL's
    # base wraps (it prints S<3,4294967295,3>, cut to S<3,4294).
    expr = "cute.recast_layout(64, 8, %s)" % (SW % ("3, 2, 3", 0))
    with pytest.raises(cute.WrongLayoutError) as e:
        run(expr)
    assert e.value.rule == "recast-swizzle" and "S<2,0,3>" in str(e.value)
    with cute.unchecked():
        assert run(expr) == "S<3,4294967295,3> o 0 o (8,8):(8,1)"


# Modes of a swizzled layout are its outer layout's, the swizzle and offset
# kept (issue 47 item 12); group_modes checks begin < end and end's range.
A = ("cute.make_composed_layout(cute.make_swizzle(3, 4, 3), 0, "
     "cute.make_layout((8, 8, 4), stride=(64, 512, 1)))")
MODES = [
    ("cute.select(%s, mode=[0, 1])" % A, "S<3,4,3> o 0 o (8,8):(64,512)"),
    ("cute.select(%s, mode=[2, 0])" % A, "S<3,4,3> o 0 o (4,8):(1,64)"),
    ("cute.get(%s, mode=[0])" % A, "S<3,4,3> o 0 o 8:64"),
    ("cute.get(%s, mode=[1])" % A, "S<3,4,3> o 0 o 8:512"),
    ("cute.get(%s, mode=[])" % A, "S<3,4,3> o 0 o (8,8,4):(64,512,1)"),
    ("cute.group_modes(%s, 1, 3)" % A,
     "S<3,4,3> o 0 o (8,(8,4)):(64,(512,1))"),
    ("cute.group_modes(%s, 0, 2)" % A,
     "S<3,4,3> o 0 o ((8,8),4):((64,512),1)"),
    ("cute.append(%s, cute.make_layout(2))" % A,
     "S<3,4,3> o 0 o (8,8,4,2):(64,512,1,1)"),
    ("cute.prepend(%s, cute.make_layout(2))" % A,
     "S<3,4,3> o 0 o (2,8,8,4):(1,64,512,1)"),
    ("cute.get(cute.make_composed_layout(cute.make_swizzle(3, 4, 3), 8, "
     "cute.make_layout(((8, 2), 8), stride=((64, 1), 512))), mode=[0, 1])",
     "S<3,4,3> o 8 o 2:1"),
    ("cute.select(cute.make_composed_layout(cute.make_layout(4, stride=2), "
     "3, cute.make_layout((8, 8), stride=(8, 1))), mode=[1])",
     "4:2 o 3 o (8):(1)"),
    ("cute.group_modes(cute.make_layout((8, 8, 4), stride=(64, 512, 1)), "
     "-1, 3)", "(8,8,(4)):(64,512,(1))"),
]


@pytest.mark.parametrize("expr,dsl", MODES)
def test_modes_of_a_swizzled_layout(expr, dsl):
    assert run(expr) == dsl


@pytest.mark.parametrize("expr,words", [
    ("cute.select(%s, mode=[3])" % A, "invalid mode element"),
    ("cute.get(%s, mode=[5])" % A, "must be less than rank"),
    ("cute.group_modes(%s, 1, 1)" % A, "begin < end"),
    ("cute.group_modes(cute.make_layout((8, 8, 4)), 2, 1)", "begin < end"),
    ("cute.group_modes(cute.make_layout((8, 8, 4)), 0, 5)", "range"),
    ("cute.group_modes((8, 8, 4), 1, 1)", "begin < end"),
])
def test_modes_refusals(expr, words):
    with pytest.raises(cute.Refusal, match=words):
        run(expr)


# What Python prints for the DSL's integers (repr, and so a tuple holding
# them): a constant the user made shows its value, a traced value `?`
# (issue 47 item 13).
D = "cute.make_layout((cute.assume(cute.Int32(96), divby=32), 4))"
REPRS = [
    ("str(%s.shape)" % D, "(Int32(?), 4)"),
    ("str(%s.stride)" % D, "(1, Int32(?))"),
    ("repr(cute.size(%s))" % D, "Int32(?)"),
    ("str(cute.size(%s))" % D, "?{div=128}"),
    ("str(cute.shape(%s))" % D, "(Int32(?), 4)"),
    ("str(cute.product_each((%s.shape, 2)))" % D, "(Int32(?), 2)"),
    ("str(cute.ceil_div(%s.shape, (8, 2)))" % D, "(Int32(?), 2)"),
    ("str(cute.idx2crd(5, %s.shape))" % D, "(Int32(?), Int32(?))"),
    ("str(cute.make_tiled_mma(cute.nvgpu.warp.MmaF16BF16Op(cute.Float16, "
     "cute.Float32, (16, 8, 16)), (2, 2, 1)).partition_shape_C(("
     "cute.Int32(128), 64)))", "((2, 2), Int32(?), 4)"),
    ("repr(cute.make_layout((cute.Int64(64), 2)).shape)", "(Int32(?), 2)"),
    ("str(cute.make_layout((cute.Int64(64), 2)).stride)", "(1, Int64(?))"),
    ("repr(cute.Int64(5))", "Int64(5)"),
    ("repr(cute.Uint32(5))", "Uint32(5)"),
    ("repr(cute.Int32(3) + 1)", "Int32(4)"),
    ("repr(cute.Uint8(3) + 1)", "Int32(4)"),
    ("repr(cute.Int64(7) + cute.Int32(1))", "Int64(8)"),
    ("repr(-cute.Int32(3))", "Int32(-3)"),
    ("str((cute.Int32(3), cute.Uint8(2), cute.Int16(1)))",
     "(Int32(3), Uint8(2), Int16(1))"),
    ("str((cute.Boolean(True),))", "(Boolean(1),)"),
    ("repr(cute.assume(cute.Int32(96), divby=32))", "Int32(?)"),
    ("str(cute.product_each((cute.Int32(96), 2)))", "(Int32(?), 2)"),
    ("str(cute.Int32(3) + 1)", "?"),
]


@pytest.mark.parametrize("expr,dsl", REPRS)
def test_python_prints_the_dsl_integers_as_the_dsl(expr, dsl):
    assert eval(expr, {"cute": cute}) == dsl


def test_zero_stages_and_arch_names():
    u = cute.utils
    for helper in ("u.sm90.make_smem_layout_a(u.LayoutEnum.ROW_MAJOR, "
                   "(128, 128, 64), cute.Float16, 0)",
                   "u.sm90.make_smem_layout_epi(cute.Float16, "
                   "u.LayoutEnum.ROW_MAJOR, (64, 32), 0)",
                   "cute.tile_to_shape(cute.make_layout((8, 8)), (16, -8), "
                   "(0, 1))"):
        with pytest.raises(cute.Refusal, match="strictly positive"):
            eval(helper, {"cute": cute, "u": u})
    with pytest.raises(ValueError, match="did you mean sm_90a"):
        cute.set_arch("sm90a")
    # sm_90 is a name the DSL takes (its wgmma then refuses): taken, with
    # a warning, and the refusal names sm_90a.
    with pytest.warns(UserWarning, match="did you mean sm_90a"):
        cute.set_arch("sm_90")
    with pytest.raises(cute.DSLUserCodeError, match="did you mean sm_90a"):
        cute.nvgpu.warpgroup.MmaF16BF16Op(
            cute.Float16, cute.Float32, (64, 64, 16),
            cute.nvgpu.warpgroup.OperandSource.SMEM,
            cute.nvgpu.OperandMajorMode.K, cute.nvgpu.OperandMajorMode.K)


def test_nullspace_through_a_dynamic_int64():
    # The Int32 layout.shape gives for a dynamic Int64 has divisibility 1
    # but multiplies as any dynamic integer (the DSL: ?{div=16}, ?{div=4}).
    assert run("cute.nullspace(cute.make_layout(((cute.assume(cute.Int32(4),"
               " divby=2), cute.Int64(4)), (8, 1))))") == "1:?{div=16}"
    assert run("cute.nullspace(cute.make_layout((1, (cute.assume(cute.Int64("
               "8), divby=4), (cute.Int32(16), 4, cute.Int32(1)), 16)), "
               "stride=(5, (-1, (-2, 3, 0), 3))))") == "?:?{div=4}"


def test_the_dsls_answer_by_default_with_a_warning():
    # Issue 47 item 14: users' kernels run with the DSL's answer.
    A, B = cute.make_layout((4, 3), stride=(1, 5)), cute.make_layout(4,
                                                                     stride=3)
    with cute.strict(False):
        with pytest.warns(cute.WrongLayoutWarning,
                          match="rule composition") as w:
            assert str(cute.composition(A, B)) == "(2,2):(3,5)"
        assert w[0].message.rule == "composition"
        assert "A(B(2))" in w[0].message.witness
        with pytest.warns(cute.WrongLayoutWarning, match="complement"):
            assert str(cute.complement(cute.make_layout(
                (4, 2), stride=(-1, 4)), 16)) == "(-1,-1,2):(1,-4,8)"
        # Strict mode raises, by call or by context.
        old = cute.set_strict(True)
        try:
            with pytest.raises(cute.WrongLayoutError):
                cute.composition(A, B)
        finally:
            cute.set_strict(old)
        with cute.strict():
            with pytest.raises(cute.WrongLayoutError) as e:
                cute.composition(A, B)
            assert str(e.value.dsl_result) == "(2,2):(3,5)"
        # unchecked(): the answer, silently.
        import warnings
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            with cute.unchecked():
                assert str(cute.composition(A, B)) == "(2,2):(3,5)"


def test_strict_from_the_environment():
    import subprocess
    import sys
    code = ("from hlolayout import cute_dsl as cute; "
            "print(cute.is_strict())")
    import os
    env = dict(os.environ, HLOLAYOUT_CUTE_DSL_STRICT="1")
    out = subprocess.run([sys.executable, "-c", code], env=env,
                         capture_output=True, text=True)
    assert out.stdout.strip() == "True", out.stderr
    env["HLOLAYOUT_CUTE_DSL_STRICT"] = "0"
    out = subprocess.run([sys.executable, "-c", code], env=env,
                         capture_output=True, text=True)
    assert out.stdout.strip() == "False", out.stderr


def test_tile_to_shape_core_path_is_the_engine():
    # Issue 47 item 15: static tile_to_shape (the smem helpers' path) runs
    # in the C++ core; it prints what the Python engine prints, refusals
    # and WrongLayoutError included.
    import random
    from hlolayout.cute_dsl import _fast
    rng = random.Random(3)

    def random_layout():
        r = rng.choice([1, 2, 2, 3])
        sh = tuple(rng.choice([1, 2, 4, 8, 3]) for _ in range(r))
        if rng.random() < 0.5:
            return cute.make_layout(sh)
        return cute.make_layout(sh, stride=tuple(
            rng.choice([0, 1, 2, 4, 8, 16, 64, -1]) for _ in range(r)))

    def text(a, tgt, order):
        try:
            return str(cute.tile_to_shape(a, tgt, order))
        except Exception as ex:  # noqa: BLE001 (the kind is compared)
            return type(ex).__name__ + str(getattr(ex, "rule", ""))

    for _ in range(1500):
        a = random_layout()
        top = a.shape if isinstance(a.shape, tuple) else (a.shape,)
        n = len(top) + rng.choice([0, 0, 1])
        tgt = tuple((cute.size(top[k]) if k < len(top) else 1) *
                    rng.choice([1, 2, 3, 4]) + (rng.random() < 0.05)
                    for k in range(n))
        order = list(range(n))
        rng.shuffle(order)
        old = _fast.use_core(True)
        try:
            fast = text(a, tgt, tuple(order))
            _fast.use_core(False)
            slow = text(a, tgt, tuple(order))
        finally:
            _fast.use_core(old)
        assert fast == slow, (str(a), tgt, order)


def test_a_layout_coalesced_to_one_mode_is_that_mode_everywhere():
    # issue 47 item 15: composition does not check its result when the left
    # operand coalesces (coalesce_x) to one mode s:d, because the layout then
    # maps every x, inside its domain or past it, negative or not, to x * d.
    import random

    import numpy as np

    from hlolayout.cute_dsl import _algebra, _verify
    from hlolayout.cute_dsl._objects import Layout

    rng = random.Random(47)
    idx = np.arange(-200, 200, dtype=np.int64)
    single = 0
    for _ in range(4000):
        r = rng.randint(1, 4)
        sh = [rng.choice([1, 1, 2, 3, 4, 8]) for _ in range(r)]
        st = tuple(rng.choice([0, 1, 2, 4, 8, 16, -1, -2, 3])
                   for _ in range(r))
        if rng.random() < 0.3:
            i = rng.randrange(r)
            sh[i] = cute.Int32(sh[i] * 4)
        layout = Layout(tuple(sh), st) if r > 1 else Layout(sh[0], st[0])
        flat = _algebra.coalesce_x(layout)
        if type(flat.sh) is tuple:
            continue
        single += 1
        d = flat.st if type(flat.st) is int else flat.st.value
        assert np.array_equal(_verify.evaluate(layout, idx), idx * d), \
            str(layout)
    assert single > 500


def test_make_layout_checks_in_order():
    # The DSL's order, each observed: the congruence of shape and stride
    # first, then the shape leaf by leaf (a non-integer, a size <= 0), then
    # the stride (the old twin checked every shape leaf's type, then the
    # stride's, then the sizes, then the congruence).
    with pytest.raises(ValueError, match="strictly positive, but got 0"):
        cute.make_layout((0, "a"), stride=(1, "b"))
    with pytest.raises(ValueError, match="strictly positive, but got 0"):
        cute.make_layout((0, 2), stride=(1, "b"))
    with pytest.raises(ValueError, match="congruent"):
        cute.make_layout((2, -1, 0), stride=(1, 2))
    with pytest.raises(ValueError, match="congruent"):
        cute.make_layout((2, "a"), stride=(1,))
    with pytest.raises(ValueError, match="strictly positive, but got -1"):
        cute.make_layout((2, -1), stride=(1, "b"))
    with pytest.raises(ValueError, match=r"Expected Stride, whose leaves are "
                       r"integers or ScaledBasis, but got \(1, 'b'\)"):
        cute.make_layout((2, 2), stride=(1, "b"))
    with pytest.raises(ValueError, match="congruent"):
        cute.make_layout((2, 3), stride=(1, 2, 3))
    assert str(cute.make_layout((cute.Int32(4), 1, 3))) == \
        "(?,1,3):(1,0,?)"


def _dynamic_leaf(rng):
    """A random dynamic integer: Int32 or Int64, maybe with a divisibility,
    a value of any sign (a traced value the DSL never evaluates)."""
    v = rng.choice([1, 2, 3, 4, 6, 8, 16, 24, 96, 128, 1000, 0, -8])
    x = rng.choice([cute.Int32, cute.Int64])(v)
    if v > 0 and rng.random() < 0.4:
        x = cute.assume(x, divby=rng.choice([d for d in (1, 2, 4, 8)
                                             if v % d == 0]))
    return x


def test_the_written_out_divide_of_a_dynamic_mode_is_the_general_one(
        monkeypatch):
    # issue 47 item 15: logical_divide of s:d (s dynamic) by a static t:u
    # is written out (_algebra._leaf_divide); over random operands it gives
    # the general path's layout, every dynamic integer's value, divisibility
    # and width included, and its refusals.
    import random

    from hlolayout.cute_dsl import _algebra, _fast

    def answer(layout, tiler):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                r = cute.logical_divide(layout, tiler)
            return str(r), _fast._key(r)
        except (TypeError, ValueError, ZeroDivisionError) as ex:
            return type(ex).__name__, str(ex)

    written = []
    leaf_divide = _algebra._leaf_divide

    def counted(layout, tiler):
        r = leaf_divide(layout, tiler)
        written.append(r is not None)
        return r

    monkeypatch.setattr(_algebra, "_leaf_divide", counted)
    rng = random.Random(1547)
    for _ in range(3000):
        modes = rng.randint(1, 3)
        sh = tuple(_dynamic_leaf(rng) if rng.random() < 0.6 else
                   rng.choice([1, 2, 4, 8]) for _ in range(modes))
        st = tuple(rng.choice([0, 1, 2, 8, 64, -1, 3]) for _ in range(modes))
        layout = cute.make_layout(sh if modes > 1 else sh[0],
                                  stride=st if modes > 1 else st[0])
        tiler = tuple(cute.make_layout(rng.choice([1, 2, 3, 4, 16]),
                                       stride=rng.choice([1, 1, 2, 3, 0, -1]))
                      for _ in range(rng.randint(1, modes)))
        if modes == 1 and rng.random() < 0.5:
            tiler = tiler[0]
        _fast.memo_clear()
        fast = answer(layout, tiler)
        _algebra.LEAF_DIVIDE[0] = False
        try:
            _fast.memo_clear()
            slow = answer(layout, tiler)
        finally:
            _algebra.LEAF_DIVIDE[0] = True
        assert fast == slow, (str(layout), str(tiler))
    assert sum(written) > 1000


def test_a_composed_leaf_is_returned_as_coalesce_returns_it():
    # issue 47 item 15: a leaf's result whose shape is a flat tuple of
    # dynamic integers coalesces to itself (the C++ core's DslComposition
    # coalesces every leaf's modes). Over random dynamic left operands and static right leaves,
    # a result of several modes is what coalescing it again gives, integer
    # by integer.
    import random

    from hlolayout.cute_dsl import _algebra, _fast

    rng = random.Random(4715)
    skipped = 0
    for _ in range(3000):
        modes = rng.randint(1, 3)
        sh = tuple(_dynamic_leaf(rng) if rng.random() < 0.7 else
                   rng.choice([1, 2, 4, 8]) for _ in range(modes))
        st = tuple(rng.choice([0, 1, 2, 8, 32, -1, 3, _dynamic_leaf(rng)])
                   for _ in range(modes))
        lhs = _algebra.coalesce_x(_algebra.Layout(sh, st) if modes > 1 else
                                  _algebra.Layout(sh[0], st[0]))
        n = rng.choice([1, 2, 3, 4, 8, 16])
        d = rng.choice([0, 1, 2, 4, 3, -1])
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                r = _algebra._compose(lhs, _algebra.Layout(n, d))
                again = _algebra.coalesce(r)
        except (ValueError, ZeroDivisionError):
            continue
        if type(r.sh) is not tuple:
            continue  # a leaf result is not coalesced (as before)
        assert _fast._key(r) == _fast._key(again), (str(lhs), n, d)
        skipped += all(type(x) is not int for x in r.sh)
    assert skipped > 300


# The complement of a layout with a negative stride is not a layout; unchecked,
# the twin gives the DSL's answer (nvidia-cutlass-dsl 4.8.1's print on the
# CPU). The DSL gives 1:0 for a result of size 1, whose modes are -1 here.
@pytest.mark.parametrize("shape,stride,cotarget,dsl", [
    ((6,), (-1,), 6, "1:0"),
    ((6,), (-1,), 7, "1:0"),
    ((4,), (-1,), 4, "1:0"),
    ((6,), (-1,), 12, "(-1,-2):(1,-6)"),
    ((4,), (-2,), 8, "(-2,-1):(1,-8)"),
    ((3,), (-3,), 9, "(-3,-1):(1,-9)"),
    ((4,), (-1,), 1, "(-1,0):(1,-4)"),
    ((2, 3), (-1, 2), 12, "(-1,-1,2):(1,-2,6)"),
    ((2, 3), (1, -2), 12, "(-2,0,6):(1,-6,2)"),
    ((2, 2), (-1, -2), 8, "(-1,-2):(1,-4)"),
])
def test_complement_of_a_negative_stride_unchecked(shape, stride, cotarget,
                                                    dsl):
    with cute.unchecked():
        layout = cute.make_layout(shape, stride=stride)
        assert str(cute.complement(layout, cotarget)) == dsl
    with cute.strict(), pytest.raises(cute.WrongLayoutError):
        cute.complement(cute.make_layout(shape, stride=stride), cotarget)
    with cute.strict(False), pytest.warns(cute.WrongLayoutWarning):
        assert str(cute.complement(cute.make_layout(shape, stride=stride),
                                   cotarget)) == dsl


def test_the_cpp_core_holds_the_dsls_unknown_integers():
    # issue 85 item 5 step 2: the twin's dynamic integers are the C++
    # core's `?` (cute/integer.h), read and handed back through the class
    # the twin registers (python/hlolayout/_cute_dsl.h). The texts are the
    # DSL's for the same computations.
    from hlolayout import _hlolayout as core
    n = cute.assume(cute.Int32(96), divby=32)
    p = core.cute_product((n, 4))
    assert isinstance(p, cute.DynInt)
    assert (str(p), p.value) == ("?{div=128}", 384)
    layout = core.CuteLayout((cute.Int64(8), cute.assume(cute.Int32(4),
                                                         divby=4), 2))
    assert core.cute_dsl_text(layout) == \
        "(?{i64},?{div=4},2):(1,?{i64},?{i64 div=4})"
    assert layout.size() == 64
    assert core.cute_dsl_text(core.cute_shape_div((n, 8), 16)) == "(?,?)"
    assert core.cute_dsl_text(core.cute_shape_div((6, n), 12)) == "(1,?)"
    # A static 0 times a `?` is a static 0 (CuTe's shortcut).
    assert core.cute_product((0, n)) == 0
    assert core.cute_dsl_text((n, 8, cute.Int64(3))) == "(?{div=32},8,?{i64})"


# issue 89 item 1: size, product_each, shape_div, cosize, crd2idx and
# idx2crd are the C++ core's (cute_dsl/_core_calls.py). Each text is what
# the DSL printed for the same call (nvidia-cutlass-dsl 4.8.1, traced on
# the CPU); the old Python answers are in the comments.
def _q(v, d=1, t=None):
    return cute.assume((t or cute.Int32)(v), divby=d)


@pytest.mark.parametrize("expr, dsl", [
    # old: (?{div=0},?)
    ("cute.idx2crd(_q(8, 8), (4, 2))", "(0,?{div=2})"),
    # old: (?{div=2},?)
    ("cute.idx2crd(_q(12, 6), (4, 2))", "(?,?)"),
    ("cute.idx2crd(_q(8, 2), (4, 2))", "(?{div=2},?)"),
    ("cute.idx2crd(_q(48, 16), ((2, 4), 3))", "((0,0),?{div=2})"),
    ("cute.idx2crd((_q(8, 8), 3), ((4, 2), 4))", "((0,?{div=2}),3)"),
    ("cute.idx2crd(7, (2, _q(16, 8)))", "(1,3)"),
    ("cute.idx2crd(3, ())", "()"),
    # A 64-bit index's coordinates are plain `?`s.
    ("cute.idx2crd(_q(16, 8, cute.Int64), (4, 2, 2))", "(0,0,?)"),
    ("cute.idx2crd(_q(16, 2, cute.Int64), (4, 2))", "(?,?)"),
    ("cute.idx2crd(cute.Int64(16), 8)", "?"),
    # old: ?{div=4}
    ("cute.crd2idx(_q(8, 8), cute.make_layout((4, 8), stride=(1, 4)))",
     "?{div=8}"),
    ("cute.crd2idx(_q(12, 4), cute.make_layout((4, 8), stride=(3, 16)))",
     "?{div=16}"),
    ("cute.crd2idx((_q(2, 2), 3), cute.make_layout((4, 8), stride=(3, 16)))",
     "?{div=6}"),
    ("cute.crd2idx(5, cute.make_layout((4, _q(16, 8))))", "5"),
    ("cute.crd2idx(_q(16, 8, cute.Int64), cute.make_layout(8, stride=2))",
     "?{i64 div=16}"),
    ("cute.crd2idx(3, cute.make_layout(()))", "0"),
    ("cute.size(cute.make_layout((_q(32, 32), 4)))", "?{div=128}"),
    ("cute.size(cute.make_layout((_q(16, 8, cute.Int64), 4)))",
     "?{i64 div=32}"),
    ("cute.product_each(((2, _q(16, 8)), _q(16, 8, cute.Int64)))",
     "(?{div=16},?{i64 div=8})"),
    ("cute.cosize(cute.make_layout((3, 1, 4), stride=(1, _q(16, 8), 3)))",
     "12"),
    ("cute.cosize(cute.make_layout((3, _q(16, 8), 1), stride=(1, 0, 3)))",
     "?"),
    ("cute.cosize(cute.make_layout((_q(16, 8), 4), stride=(0, 0)))", "1"),
    ("cute.shape_div((6, _q(32, 8)), 12)", "(1,?)"),
    ("cute.shape_div((4, _q(16, 8)), _q(16, 8))", "(?,?)"),
    ("cute.shape_div(_q(16, 8), (2, 2))", "?"),
])
def test_index_queries_on_the_cpp_core(expr, dsl):
    assert cute.pretty_str(eval(expr, {"cute": cute, "_q": _q})) == dsl


# The DSL refuses a static size that is not positive in either operand of
# shape_div ("Expected size in shape to be strictly positive"); the old
# twin answered (shape_div(-2, 4) was 0).
@pytest.mark.parametrize("a, b", [
    (-2, 4), (4, -2), (4, 0), ((4, 0), 2), (0, 4), ((4, 2), (2, -1)),
    (_q(16, 8), -2),
])
def test_shape_div_refuses_sizes_that_are_not_positive(a, b):
    with pytest.raises(cute.Refusal, match="strictly positive"):
        cute.shape_div(a, b)


# coalesce, filter and filter_zeros are the C++ core's (cute/coalesce.h:
# merges and drops decided on static integers only); each answer is what
# the DSL printed for the same call (m a `?{div=8}`). The old twin kept
# ((2,4),3):((1,2),8) whole under an empty profile, and left basis
# strides unmerged.
@pytest.mark.parametrize("expr, dsl", [
    ("cute.coalesce(cute.make_layout((2, m, 1, 4), stride=(1, 2, m, m * 2)))",
     "(2,?{div=8},4):(1,2,?{div=16})"),
    ("cute.coalesce(cute.make_layout((m, 4), stride=(1, m)))",
     "(?{div=8},4):(1,?{div=8})"),
    ("cute.coalesce(cute.make_layout((1, m), stride=(5, 1)))", "?{div=8}:1"),
    ("cute.coalesce(cute.make_layout(8, stride=1), target_profile=(1,))",
     "(8):(1)"),
    ("cute.coalesce(cute.make_layout((2, 4), stride=(1, 2)),"
     " target_profile=((1,),))", "((2),4):((1),2)"),
    ("cute.coalesce(cute.make_layout(((2, m), 3), stride=((1, 2), m)),"
     " target_profile=(1,))", "((2,?{div=8}),3):((1,2),?{div=8})"),
    ("cute.coalesce(cute.make_layout(((2, 4), 3), stride=((1, 2), 8)),"
     " target_profile=())", "24:1"),
    ("cute.coalesce(cute.make_layout(((1, 1), 1), stride=((1, 2), 8)),"
     " target_profile=(1, 1))", "(1,1):(0,0)"),
    ("cute.coalesce(cute.make_identity_layout((1, 8, 1)))", "8:1@1"),
    ("cute.coalesce(cute.composition(cute.make_identity_layout((4, 8)),"
     " cute.make_layout((2, 2), stride=(1, 2))))", "4:1@0"),
    ("cute.filter(cute.make_layout((2, m, 3), stride=(0, 1, m)))",
     "(?{div=8},3):(1,?{div=8})"),
    ("cute.filter(cute.make_layout((1, 1), stride=(0, 2)))", "1:0"),
    ("cute.filter(cute.make_layout((m, 4), stride=(0, m)))", "4:?{div=8}"),
    ("cute.filter_zeros(cute.make_layout((2, m, 3), stride=(0, 1, m)))",
     "(1,?{div=8},3):(0,1,?{div=8})"),
    ("cute.filter_zeros(cute.make_layout((m, (4, 2)), stride=(0, (0, m))))",
     "(1,(1,2)):(0,(0,?{div=8}))"),
])
def test_coalesce_and_filter_on_the_cpp_core(expr, dsl):
    m = _q(16, 8)
    assert cute.pretty_str(eval(expr, {"cute": cute, "m": m})) == dsl


# composition is the C++ core's (cute/composition.h DslComposition: CuTe's
# weak checks on static integers only, each leaf's modes coalesced); each
# answer is what the DSL printed for the same call (nvidia-cutlass-dsl
# 4.8.1 on the CPU, m a `?{div=8}`, k a `?{div=32}`).
@pytest.mark.parametrize("expr, dsl", [
    ("cute.composition(cute.make_layout((m, 4)), cute.make_layout(16))",
     "(?{div=8},?):(1,?{div=8})"),
    ("cute.composition(cute.make_layout((4, m)), cute.make_layout(k))",
     "(?{div=4},?):(1,4)"),
    ("cute.composition(cute.make_layout((4, m, 2)),"
     " cute.make_layout(k, stride=2))", "(?{div=2},?,?):(2,4,?{div=32})"),
    ("cute.composition(cute.make_layout((8, 4)), cute.make_layout((k,)))",
     "(?{div=32}):(1)"),
    ("cute.composition(cute.make_layout((4, cute.Int32(4))),"
     " cute.make_layout((2, 2), stride=(-1, 4)))", "(2,2):(-1,4)"),
    ("cute.composition(cute.make_layout((3, cute.Int32(4))),"
     " cute.make_layout(4, stride=2))", "(2,2):(2,3)"),
    ("cute.composition(cute.make_layout((cute.Int32(3), 4)),"
     " cute.make_layout(4, stride=2))", "(?,?):(2,?)"),
    ("cute.composition(cute.make_identity_layout((4, 8)),"
     " cute.make_layout((2, 4), stride=(4, 1)))", "(2,4):(1@1,1@0)"),
    ("cute.composition(cute.make_layout((4, 3), stride=(1, 5)),"
     " cute.make_layout(4, stride=3))", "(2,2):(3,5)"),
    ("cute.composition(cute.make_layout((4, cute.Int32(4))),"
     " cute.make_layout(6, stride=3))", "(2,3):(3,4)"),
])
def test_composition_on_the_cpp_core(expr, dsl):
    # Unchecked: the last three are the DSL's wrong answers (the checked
    # twin raises WrongLayoutError in the tests' strict mode).
    env = {"cute": cute, "m": _q(16, 8), "k": _q(64, 32)}
    with cute.unchecked():
        assert cute.pretty_str(eval(expr, env)) == dsl


def _counted_core_calls(monkeypatch, names):
    """The names of the C++ core's DSL calls among `names` as they are made
    (a list that grows while the test runs)."""
    from hlolayout.cute_dsl import _core_calls
    core = _core_calls._core
    calls = []
    for name in names:
        def counted(*args, _fn=getattr(core, name), _name=name):
            calls.append(_name)
            return _fn(*args)
        monkeypatch.setattr(core, name, counted)
    return calls


# logical_divide of integer strides is one call of the C++ core
# (cute/divide.h DslLogicalDivide: the tiler's complement, then the
# composition); each answer is what the DSL printed (m a `?{div=8}`, n a
# `?{div=16}`), the last through zipped_divide's regrouping.
@pytest.mark.parametrize("expr, dsl", [
    ("cute.logical_divide(cute.make_layout((m, 4)),"
     " cute.make_layout(4, stride=2))",
     "((?,?),((?{div=2},?),(?,?))):((2,?{div=8}),((1,?{div=8}),"
     "(8,?{div=8})))"),
    ("cute.logical_divide(cute.make_layout((8, m)),"
     " cute.make_layout((2, 2), stride=(1, 4)))",
     "((2,2),(2,?{div=8})):((1,4),(2,8))"),
    ("cute.logical_divide(cute.make_layout((4, 3), stride=(1, 5)),"
     " cute.make_layout(4, stride=3))", "((2,2),3):((3,5),1)"),
    ("cute.logical_divide(cute.make_layout((m, 4)), cute.make_layout(n))",
     "((?{div=8},?),(?,?)):((1,?{div=8}),(?{div=16},?{div=8}))"),
    ("cute.zipped_divide(cute.make_layout((m, 8)), (4, 2))",
     "((4,2),(?,4)):((1,?{div=8}),(4,?{div=16}))"),
])
def test_logical_divide_is_one_call_of_the_cpp_core(expr, dsl, monkeypatch):
    from hlolayout.cute_dsl import _algebra, _fast
    calls = _counted_core_calls(monkeypatch, (
        "cute_dsl_logical_divide", "cute_dsl_complement_leaves",
        "cute_dsl_composition"))
    # The general path (the shortcut for one dynamic mode off), every call
    # computed anew.
    monkeypatch.setattr(_algebra, "LEAF_DIVIDE", [False])
    _fast.memo_clear()
    env = {"cute": cute, "m": _q(16, 8), "n": _q(16, 16)}
    with cute.unchecked():
        assert cute.pretty_str(eval(expr, env)) == dsl
    assert calls and set(calls) == {"cute_dsl_logical_divide"}, calls


# logical_product's second mode (the block's complement composed with the
# tiler) is one call of the C++ core (cute/product.h DslLogicalProduct);
# each answer is what the DSL printed (m a `?{div=2}` for 6, k a `?{div=4}`
# for 8), the last through blocked_product's zip.
@pytest.mark.parametrize("expr, dsl", [
    ("cute.logical_product(cute.make_layout((2, 2), stride=(4, 1)),"
     " cute.make_layout(m))", "((2,2),(?{div=2},?)):((4,1),(2,8))"),
    ("cute.logical_product(cute.make_layout((2, 2), stride=(1, 2)),"
     " cute.make_layout((k, 3), stride=(1, k)))",
     "((2,2),(?{div=4},3)):((1,2),(4,?{div=16}))"),
    ("cute.blocked_product(cute.make_layout((2, 2), stride=(1, 2)),"
     " cute.make_layout((k, 3)))",
     "((2,?{div=4}),(2,3)):((1,4),(2,?{div=16}))"),
])
def test_logical_product_is_one_call_of_the_cpp_core(expr, dsl, monkeypatch):
    from hlolayout.cute_dsl import _fast
    calls = _counted_core_calls(monkeypatch, (
        "cute_dsl_logical_product_rest", "cute_dsl_complement_leaves",
        "cute_dsl_composition"))
    _fast.memo_clear()
    env = {"cute": cute, "m": _q(6, 2), "k": _q(8, 4)}
    with cute.unchecked():
        assert cute.pretty_str(eval(expr, env)) == dsl
    assert calls and set(calls) == {"cute_dsl_logical_product_rest"}, calls


# The regroupings of the divides and products (zip2_by, the DSL's zip and
# append) are the C++ core's trees of modes run on the places of the twin's
# leaves (cute/internal/regroup.h DslRegroup, cute/product.h DslZipModes
# and PadRank); each answer is what the DSL printed (m a `?{div=8}`), a
# basis stride and a `?` keeping their places.
@pytest.mark.parametrize("expr, dsl, core_call", [
    ("cute.zipped_divide(cute.make_layout((m, 4)), (2, 2))",
     "((2,2),(?,2)):((1,?{div=8}),(2,?{div=16}))", "cute_dsl_regroup"),
    ("cute.flat_divide(cute.make_identity_layout((m, 4)), (2, 2))",
     "(2,2,?,2):(1@0,1@1,2@0,2@1)", "cute_dsl_regroup"),
    ("cute.tiled_divide(cute.make_layout((m,), stride=(1,)), (2,))",
     "((2),?):((1),2)", "cute_dsl_regroup"),
    ("cute.raked_product(cute.make_layout((2,), stride=(1,)),"
     " cute.make_layout(m))", "((?{div=8},2)):((2,1))",
     "cute_dsl_zip_modes"),
    ("cute.blocked_product(cute.make_layout((2, 2)),"
     " cute.make_layout((m, 3)))",
     "((2,?{div=8}),(2,3)):((1,4),(2,?{div=32}))", "cute_dsl_pad_rank"),
])
def test_regroupings_are_the_cpp_cores(monkeypatch, expr, dsl, core_call):
    from hlolayout.cute_dsl import _fast
    calls = _counted_core_calls(monkeypatch, (
        "cute_dsl_regroup", "cute_dsl_zip_modes", "cute_dsl_pad_rank"))
    _fast.memo_clear()
    env = {"cute": cute, "m": _q(16, 8)}
    assert cute.pretty_str(eval(expr, env)) == dsl
    assert core_call in calls, calls


# The DSL pairs a tuple of one mode with no integral layout (cute/product.h
# DslZipModes): blocked_product((4):(1), 3:1) is refused ("unable to
# compute product"), raked_product of the same pairs (3:4 first).
def test_blocked_product_pairs_as_the_dsl():
    with pytest.raises(cute.Refusal, match="does not pair"):
        cute.blocked_product(cute.make_layout((4,), stride=(1,)),
                             cute.make_layout(3))
    assert cute.pretty_str(cute.raked_product(
        cute.make_layout((4,), stride=(1,)), cute.make_layout(3))) == \
        "((3,4)):((4,1))"


# recast_layout is one call of the C++ core (cute/recast.h DslRecastLayout);
# each answer is what the DSL printed (m a `?{div=32}` for 32, k a
# `?{div=8}` for 16): a `?` divided by anything but 1 loses its
# divisibility, an indivisible static stride gives the DSL's answer.
@pytest.mark.parametrize("expr, dsl", [
    ("cute.recast_layout(16, 8, cute.make_layout((4, 2), stride=(1, m)))",
     "(2,2):(1,?)"),
    ("cute.recast_layout(16, 8, cute.make_layout((k, 2), stride=(1, 64)))",
     "(?,2):(1,32)"),
    ("cute.recast_layout(8, 16, cute.make_layout((4, 2), stride=(m, 1)))",
     "(4,4):(?{div=64},1)"),
    ("cute.recast_layout(32, 8, cute.make_layout((k, 2), stride=(2, 64)))",
     "(?,2):(1,16)"),
    ("cute.recast_layout(16, 8, cute.make_layout((4, 2), stride=(3, 8)))",
     "(4,2):(2,4)"),
    ("cute.recast_layout(8, 16, cute.make_layout((4, 2), stride=(2, 8)))",
     "(4,2):(4,16)"),
])
def test_recast_layout_is_one_call_of_the_cpp_core(monkeypatch, expr, dsl):
    from hlolayout.cute_dsl import _fast
    calls = _counted_core_calls(monkeypatch, ("cute_dsl_recast",))
    _fast.memo_clear()
    env = {"cute": cute, "m": _q(32, 32), "k": _q(16, 8)}
    with cute.unchecked():
        assert cute.pretty_str(eval(expr, env)) == dsl
    assert calls == ["cute_dsl_recast"], calls


# The DSL refuses a recast whose strides or sizes pass int64 and one of an
# identity layout ("unable to recast layout"); the old Python engine
# answered with Python's big integers, `?` strides or an AttributeError.
@pytest.mark.parametrize("layout", [
    "cute.make_layout((2, 2), stride=(1, 2**60))",
    "cute.make_layout((2**61, 2), stride=(1, 2**61))",
    "cute.make_identity_layout((4, 2))",
])
def test_recast_layout_refuses_as_the_dsl(layout):
    with pytest.raises(cute.Refusal):
        cute.recast_layout(8, 64, eval(layout, {"cute": cute}))
    if "identity" in layout:
        with pytest.raises(cute.Refusal):
            cute.recast_layout(16, 8, eval(layout, {"cute": cute}))


# tile_to_shape's repetitions are one call of the C++ core
# (cute/tile_to_shape.h DslTileRepetitions); each answer is what the DSL
# printed (m a `?{div=8}` for 16).
@pytest.mark.parametrize("expr, dsl", [
    ("cute.tile_to_shape(cute.make_layout((2, 2)), (m, 4), (0, 1))",
     "((2,?),(2,2)):((1,4),(2,?{div=4}))"),
    ("cute.tile_to_shape(cute.make_layout((4, 2), stride=(2, 1)),"
     " (m, 8, 2), (2, 0, 1))", "((4,?),(2,4),(1,2)):((2,64),(1,8),(0,32))"),
    ("cute.tile_to_shape(cute.make_layout(2), (m,), (0,))",
     "((2,(?))):((1,(2)))"),
])
def test_tile_to_shape_repetitions_on_the_cpp_core(monkeypatch, expr, dsl):
    from hlolayout.cute_dsl import _fast
    calls = _counted_core_calls(monkeypatch, ("cute_dsl_tile_repetitions",))
    _fast.memo_clear()
    env = {"cute": cute, "m": _q(16, 8)}
    assert cute.pretty_str(eval(expr, env)) == dsl
    assert calls == ["cute_dsl_tile_repetitions"], calls


# A stride past int64 is refused, as the DSL refuses it ("unable to compute
# the following composition"); the old Python engine's big integers
# crashed in NumPy (UFuncTypeError) instead.
@pytest.mark.parametrize("a_shape", [(2, 2), (2, "dyn")])
def test_composition_refuses_a_stride_past_int64(a_shape):
    shape = tuple(cute.Int32(4) if x == "dyn" else x for x in a_shape)
    with pytest.raises(cute.Refusal, match="overflows int64"):
        cute.composition(cute.make_layout(shape, stride=(1, 2**40)),
                         cute.make_layout(2, stride=2**30))


# max_alignment as the DSL judges it (cute/common_layout.h DslMaxAlignment):
# a `?` size counts as its divisibility, a `?` stride as 0, and what is left
# after the stride-1 run counts with every stride. The old Python engine
# took a `?` size as 1 (4, 1, 4, 1, 3 in the first five) and failed on a
# remainder of several strides (TypeError).
@pytest.mark.parametrize("shape, stride, dsl", [
    ("(4, _q(8, 8))", None, 32),
    ("(_q(8, 8), 4)", "(1, _q(8, 8))", 8),
    ("(4, _q(8, 8, cute.Int64))", None, 32),
    ("_q(8, 8)", None, 8),
    ("(3, _q(8, 8))", "(1, 3)", 24),
    ("(4, 2, 3)", "(1, 8, 2)", 2),
    ("(2, 4, 3)", "(8, 1, 2)", 2),
    ("(4, 2)", "(2, 0)", 1),
    ("(4, _q(8))", None, 4),
    ("(4, 2)", "(1, _q(4, 4))", 4),
    ("(4, 3)", "(1, -6)", 2),
])
def test_max_alignment_as_the_dsl(shape, stride, dsl):
    env = {"cute": cute, "_q": _q}
    layout = cute.make_layout(eval(shape, env),
                              stride=None if stride is None else
                              eval(stride, env))
    assert layout.max_alignment == dsl


# nullspace's strides: plain `?`s where every dynamic size before them is a
# dynamic Int64's plain `?` (the DSL: (2,3):(?,?), (?,2):(2,?)); the old
# Python engine gave them divisibilities (?{div=2}).
@pytest.mark.parametrize("layout, dsl", [
    ("cute.make_layout((cute.Int64(8), 2, 3), stride=(1, 0, 0))",
     "(2,3):(?,?)"),
    ("cute.make_layout((2, _q(8, 8, cute.Int64), 2), stride=(1, 0, 0))",
     "(?,2):(2,?)"),
    ("cute.make_layout((2, _q(8, 8), 2), stride=(1, 0, 0))",
     "(?{div=8},2):(2,?{div=16})"),
    ("cute.make_layout((1, 2, 3), stride=(0, 1, 0))", "(1,3):(1,2)"),
])
def test_nullspace_as_the_dsl(layout, dsl):
    assert str(cute.nullspace(eval(layout, {"cute": cute, "_q": _q}))) == dsl


# max_common_layout, max_common_vector, nullspace and max_alignment are one
# call of the C++ core each (cute/common_layout.h); the answers are the
# DSL's printed ones.
@pytest.mark.parametrize("expr, name, dsl", [
    ("cute.max_common_layout(cute.make_layout((4, 2), stride=(2, 1)), "
     "cute.make_layout((4, 2), stride=(2, 1)))", "cute_dsl_max_common_layout",
     "(2,4):(4,1)"),
    ("cute.max_common_layout(cute.make_layout((4, 8), stride=(1, m)), "
     "cute.make_layout((4, 8)))", "cute_dsl_max_common_layout", "4:1"),
    ("cute.max_common_vector(cute.make_layout((4, 8), stride=(8, 1)), "
     "cute.make_layout((4, 8), stride=(8, 1)))", "cute_dsl_max_common_vector",
     "32"),
    ("cute.nullspace(cute.make_layout((4, (2, 3)), stride=(0, (0, 4))))",
     "cute_dsl_nullspace", "(4,2):(1,4)"),
    ("cute.make_layout((4, m)).max_alignment", "cute_dsl_max_alignment",
     "32"),
])
def test_common_layouts_on_the_cpp_core(monkeypatch, expr, name, dsl):
    calls = _counted_core_calls(monkeypatch, (name,))
    assert str(eval(expr, {"cute": cute, "m": _q(8, 8)})) == dsl
    assert calls == [name], calls


# A tuple tiler of composition and the divides holding a dynamic Int64, as
# the DSL printed each (traced on the CPU): an Int64 the program made (a
# constant, or arithmetic on constants) is printed as a plain `?` and then
# the DSL fails to build its IR; an assumed Int64 keeps its type and
# divisibility; a layout with an Int64 size fails, an Int64 stride builds.
_L88 = "cute.make_layout((8,8),stride=(1,8))"


@pytest.mark.parametrize("tiler,dsl", [
    ("(cute.assume(cute.Int64(4),divby=4),2)", "(?{i64 div=4},2):(1,8)"),
    ("(cute.assume(cute.Int64(4),divby=1),2)", "(?{i64},2):(1,8)"),
    ("(cute.assume(cute.Int64(4),divby=4)*2,2)", "(?{i64 div=8},2):(1,8)"),
    ("(cute.assume(cute.Int64(4),divby=4)+cute.Int64(4),2)",
     "(?{i64 div=4},2):(1,8)"),
    ("(cute.make_layout(4,stride=cute.Int64(2)),2)", "(4,2):(?{i64},8)"),
    ("(cute.Int32(4),2)", "(?,2):(1,8)"),
])
def test_tuple_tiler_with_an_assumed_int64_as_the_dsl(tiler, dsl):
    assert run("cute.composition(%s, %s)" % (_L88, tiler)) == dsl


def test_logical_divide_by_an_assumed_int64_as_the_dsl():
    assert run("cute.logical_divide(%s, (cute.assume(cute.Int64(4),divby=4),"
               "2))" % _L88) == (
        "((?{i64 div=4},?{i64}),(2,4)):((1,?{i64 div=4}),(8,16))")


@pytest.mark.parametrize("expr,printed", [
    ("cute.composition(%s, (cute.Int64(4),2))", "(?,2):(1,8)"),
    ("cute.composition(%s, (cute.Int64(4),))", "(?):(1)"),
    ("cute.composition(%s, (cute.Int64(4)*2,2))", "(?,2):(1,8)"),
    ("cute.composition(%s, (None,cute.Int64(4)))", "(8,?):(1,8)"),
    ("cute.tiled_divide(%s, (cute.Int64(4),2))", "((?,2),?,4):((1,8),?,16)"),
    ("cute.flat_divide(%s, (cute.Int64(4),2))", "(?,2,?,4):(1,8,?,16)"),
    ("cute.zipped_divide(%s, (cute.Int64(4),2))",
     "((?,2),(?,4)):((1,8),(?,16))"),
    ("cute.composition(%s, (cute.make_layout(cute.assume(cute.Int64(4),"
     "divby=4),stride=1),2))", "(?{i64 div=4},2):(1,8)"),
])
def test_tuple_tiler_with_an_int64_fails_as_the_dsl(expr, printed):
    with pytest.raises(cute.Refusal) as e:
        run(expr % _L88)
    words = str(e.value)
    assert "fails to build its IR" in words
    assert "computes %s and then" % printed in words


# logical_product and the blocked and raked products, as the DSL printed
# each (the prints logical_product was written anew from; they hold on the
# code before it too: the rewrite changed no answer).
_M = "cute.make_layout"


@pytest.mark.parametrize("expr,dsl", [
    ("cute.logical_product(%s((2,2),stride=(1,2)), %s(3,stride=1))",
     "((2,2),3):((1,2),4)"),
    ("cute.logical_product(%s((2,2),stride=(2,1)), %s((3,2),stride=(2,1)))",
     "((2,2),(3,2)):((2,1),(8,4))"),
    ("cute.logical_product(%s(4,stride=-1), %s(1,stride=1))", "(4,1):(-1,0)"),
    ("cute.logical_product(%s((2,2),stride=(1,0)), %s(3,stride=1))",
     "((2,2),3):((1,0),2)"),
    ("cute.logical_product(%s((2,2),stride=(1,2)), %s(cute.Int64(3),"
     "stride=1))", "((2,2),?{i64}):((1,2),4)"),
    ("cute.logical_product(%s((2,2),stride=(1,2)), (%s(cute.Int64(3),"
     "stride=1),2))", "((2,?),(2,2)):((1,2),(2,1))"),
    ("cute.logical_product(%s((2,2),stride=(4,1)), (%s(3,stride=1),2))",
     "((2,3),(2,2)):((4,1),(1,2))"),
    ("cute.blocked_product(%s((2,3),stride=(3,1)), %s((2,2),stride=(1,2)))",
     "((2,2),(3,2)):((3,6),(1,12))"),
    ("cute.raked_product(%s((2,3),stride=(3,1)), %s((2,2),stride=(1,2)))",
     "((2,2),(2,3)):((6,3),(12,1))"),
    ("cute.blocked_product(%s((2,3),stride=(1,2)), %s(4,stride=1))",
     "((2,4),(3,1)):((1,6),(2,0))"),
    ("cute.blocked_product(%s(4,stride=1), %s((2,3),stride=(1,2)))",
     "((4,2),(1,3)):((1,4),(0,8))"),
    ("cute.raked_product(%s(4,stride=1), %s((2,3),stride=(1,2)))",
     "((2,4),3):((4,1),8)"),
    ("cute.blocked_product(%s((2,(2,2)),stride=(1,(2,4))), %s((3,),"
     "stride=(1,)))", "((2,3),((2,2),1)):((1,8),((2,4),0))"),
])
def test_logical_product_as_the_dsl(expr, dsl):
    assert run(expr % (_M, _M)) == dsl


@pytest.mark.parametrize("expr,words", [
    ("cute.logical_product(%s((2,cute.Int32(4)),stride=(1,2)), %s(3,"
     "stride=1))", "expects `input` to be static"),
    ("cute.logical_product(%s(4,stride=-1), %s(3,stride=1))",
     "negative stride"),
    ("cute.logical_product(%s((2,2),stride=(4,1)), %s(3,stride=1))",
     "Divisibility"),
])
def test_logical_product_refuses_as_the_dsl(expr, words):
    with pytest.raises(cute.Refusal, match=words):
        run(expr % (_M, _M))


# tile_to_shape takes only static integers in its order, as the DSL printed
# (after the target's sizes are checked, before the ranks are compared).
@pytest.mark.parametrize("block,target,order,words", [
    ("(2,2),stride=(1,2)", "(4,8,6)", "(cute.Int32(0),1,0)", "(?,1,0)"),
    ("(2,2),stride=(1,2)", "(4,8,6)", "(cute.Int32(0),cute.Int32(1),0)",
     "(?,?,0)"),
    ("(2,2),stride=(1,2)", "(4,8,6)", "(cute.Int32(0),5,cute.Int32(1))",
     "(?,5,?)"),
    ("(2,2),stride=(1,2)", "(4,8,6)", "(2,(cute.Int32(0),1))", "(2,(?,1))"),
    ("(2,2),stride=(1,2)", "(4,8,cute.Int32(6))", "(cute.Int32(0),1,0)",
     "(?,1,0)"),
    ("(2,2,2,2),stride=(1,2,4,8)", "(4,8,6)", "(cute.Int32(0),1,0)",
     "(?,1,0)"),
])
def test_tile_to_shape_refuses_a_dynamic_order_as_the_dsl(block, target,
                                                          order, words):
    with pytest.raises(cute.Refusal) as e:
        run("cute.tile_to_shape(cute.make_layout(%s), %s, %s)" %
            (block, target, order))
    assert str(e.value) == ("tile_to_shape: expects only static order "
                            "modes, but got %s" % words)


def test_tile_to_shape_checks_the_sizes_before_the_order():
    with pytest.raises(ValueError, match="strictly positive"):
        run("cute.tile_to_shape(cute.make_layout((2,2),stride=(1,2)), "
            "(4,0,6), (cute.Int32(0),1,0))")


# A tuple tiler of more modes than the layout, refused in the DSL's words
# for each op (as it printed them).
@pytest.mark.parametrize("expr,words", [
    ("cute.logical_product(cute.make_layout((2,2),stride=(1,2)), (2,2,2))",
     "logical_product: Too many modes in tiler."),
    ("cute.logical_product(cute.make_layout(4,stride=1), (2,2))",
     "logical_product: Too many modes in tiler."),
    ("cute.composition(cute.make_layout((2,2),stride=(1,2)), (2,2,2))",
     "unable to compute the following composition: (2,2):(1,2) o (2,2,2)"),
    ("cute.logical_divide(cute.make_layout((2,2),stride=(1,2)), (2,2,2))",
     "expects rank(tiler) <= rank(input), but got input=(2,2):(1,2) and "
     "tiler=(2,2,2)"),
    ("cute.logical_divide(cute.make_layout(4,stride=1), (2,2))",
     "expects rank(tiler) <= rank(input), but got input=4:1 and "
     "tiler=(2,2)"),
    ("cute.coalesce(cute.make_layout((2,2),stride=(1,2)), "
     "target_profile=(1,1,1))",
     "unable to coalesce `input` of type (2,2):(1,2)"),
])
def test_too_many_tiler_modes_in_the_dsls_words(expr, words):
    with pytest.raises(cute.Refusal) as e:
        run(expr)
    assert str(e.value) == words
