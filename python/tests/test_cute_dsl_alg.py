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
                 "cute.logical_divide(cute.make_layout((cute.Int32(8),), "
                 "stride=(1,)), (cute.make_layout((cute.assume(cute.Int32(2),"
                 " divby=2), 2), stride=(-1, 3)),))"):
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
