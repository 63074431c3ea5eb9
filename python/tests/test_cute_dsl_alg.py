"""hlolayout.cute_dsl against what NVIDIA's CuTe DSL (nvidia-cutlass-dsl
4.8.1, traced with CUTE_DSL_DRYRUN=1) printed for each expression: the
fixes of issues 46 and 47 in the twin's algebra, each a case the twin got
wrong before."""

import pytest

from hlolayout import cute_dsl as cute


def run(expr):
    r = eval(expr, {"cute": cute, "utils": cute.utils})
    return cute.pretty_str(r) if isinstance(r, tuple) else str(r)


@pytest.fixture(autouse=True)
def _arch():
    old = cute.get_arch()
    cute.set_arch("sm_90a")
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
