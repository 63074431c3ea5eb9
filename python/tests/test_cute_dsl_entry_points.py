"""The algebra's entry points against what NVIDIA's CuTe DSL
(nvidia-cutlass-dsl 4.8.1, traced with CUTE_DSL_DRYRUN=1 on the CPU) did
with each call, one process per call (docs/cute-dsl.md "The algebra's
entry points written anew"): the tiler forms each op takes, and the
refusal of a product that cannot be built."""

import pytest

from hlolayout import cute_dsl as cute


def run(expr):
    r = eval(expr, {"cute": cute})
    return cute.pretty_str(r) if isinstance(r, tuple) else str(r)


L84 = "cute.make_layout((8, 4))"
NOT_A_VALUE = 'Operand 1 of operation "cute.%s" must be a Value (is not a Value)'
NONE_ITEM = ('Operand 1 of operation "cute.%s" must be a Value (contained a '
             'None item)')

# (op, tiler, what the DSL printed: a layout, or NOT_A_VALUE/NONE_ITEM).
# Before this change the twin answered every integer and tuple here.
TILERS = [
    ("composition", "4", "4:1"),
    ("composition", "cute.Int64(4)", NOT_A_VALUE),
    ("composition", "cute.Int32(4)", NOT_A_VALUE),
    ("composition", "(cute.Int32(4),)", "(?):(1)"),
    ("logical_divide", "4", "(4,8):(1,4)"),
    ("logical_divide", "True", "(1,32):(0,1)"),
    ("logical_divide", "cute.Int64(4)", NOT_A_VALUE),
    ("logical_divide", "cute.assume(cute.Int64(4), divby=4)", NOT_A_VALUE),
    ("logical_divide", "(2, 2)", "((2,4),(2,2)):((1,2),(8,16))"),
    ("zipped_divide", "4", NOT_A_VALUE),
    ("zipped_divide", "True", NOT_A_VALUE),
    ("zipped_divide", "cute.Int64(4)", NOT_A_VALUE),
    ("zipped_divide", "(2, 2)", "((2,2),(4,2)):((1,8),(2,16))"),
    ("tiled_divide", "4", NOT_A_VALUE),
    ("tiled_divide", "(2, 2)", "((2,2),4,2):((1,8),2,16)"),
    ("flat_divide", "cute.Int32(4)", NOT_A_VALUE),
    ("flat_divide", "(2, 2)", "(2,2,4,2):(1,8,2,16)"),
    ("logical_product", "4", "((8,4),4):((1,8),32)"),
    ("logical_product", "cute.Int64(4)", "((8,4),?{i64}):((1,8),32)"),
    ("logical_product", "(2, 2)", "((8,2),(4,2)):((1,8),(8,1))"),
    ("logical_product", "None", "(8,4):(1,8)"),
    ("zipped_product", "4", NOT_A_VALUE),
    ("zipped_product", "cute.Int64(4)", NOT_A_VALUE),
    ("zipped_product", "(2, 2)", NOT_A_VALUE),
    ("zipped_product", "(cute.make_layout(2), cute.make_layout(2))",
     NOT_A_VALUE),
    ("zipped_product", "None", NONE_ITEM),
    ("zipped_product", "cute.make_layout(2)", "((8,4),2):((1,8),32)"),
    ("tiled_product", "cute.Int32(4)", NOT_A_VALUE),
    ("tiled_product", "(2, 2)", NOT_A_VALUE),
    ("flat_product", "(cute.make_layout(2), 2)", NOT_A_VALUE),
    ("flat_product", "cute.make_layout(2)", "(8,4,2):(1,8,32)"),
    ("blocked_product", "None", NONE_ITEM),
    ("raked_product", "None", NONE_ITEM),
]


@pytest.mark.parametrize("op,tiler,dsl", TILERS)
def test_the_tiler_forms_each_op_takes_as_the_dsl(op, tiler, dsl):
    expr = "cute.%s(%s, %s)" % (op, L84, tiler)
    if dsl in (NOT_A_VALUE, NONE_ITEM):
        with pytest.raises(cute.Refusal) as e:
            run(expr)
        assert str(e.value) == dsl % op
    else:
        assert run(expr) == dsl


# A product whose composition's divisibility fails (the C++ core's words
# in parentheses). The DSL: "unable to compute product with ..." where the
# block's complement is a layout; where it is not, it refuses so or dies of
# SIGFPE, by the operands (the harness's rule sigfpe-composition).
PRODUCTS = [
    # (expression, what the DSL did, the start of the twin's refusal)
    ("cute.logical_product(cute.make_layout((2, 2), stride=(4, 1)), "
     "cute.make_layout(3))", "unable to compute product",
     "logical_product: unable to compute product with (2,2):(4,1) and 3:1 "
     "(composition: Shape Divisibility Condition: 2 does not divide 3)"),
    ("cute.blocked_product(cute.make_layout((2, 2), stride=(4, 1)), "
     "cute.make_layout(3))", "unable to compute product",
     "logical_product: unable to compute product with (2,2):(4,1) and "
     "(3,1):(1,0) (composition: "),
    ("cute.tiled_product(cute.make_layout(((8, 8), (6,)), stride=((-2, -1), "
     "(0,))), cute.make_layout((8, 4, 4)))", "SIGFPE",
     "logical_product: unable to compute product with ((8,8),(6)):((-2,-1),"
     "(0)) and (8,4,4):(1,8,32): the block's complement "
     "(-2,0,-6144):(1,-16,-8) is not a layout"),
    ("cute.zipped_product(cute.make_layout((3, 8), stride=(64, 32)), "
     "cute.make_layout(6, stride=8))", "unable to compute product",
     "logical_product: unable to compute product with (3,8):(64,32) and 6:8: "
     "the block's complement (32,0,6):(1,256,192) is not a layout"),
]


@pytest.mark.parametrize("expr,dsl,words", PRODUCTS)
def test_a_product_that_cannot_be_built_is_refused_in_the_dsls_words(
        expr, dsl, words):
    with pytest.raises(cute.Refusal) as e:
        run(expr)
    assert str(e.value).startswith(words), str(e.value)
