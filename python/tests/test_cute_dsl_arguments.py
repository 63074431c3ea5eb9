"""The arguments the CuTe DSL's layout functions take and refuse, and the
words they refuse with (cute_dsl/_arguments.py, __init__.py): every case
was printed by the DSL (the nvidia-cutlass-dsl wheel run on the CPU,
CUTE_DSL_DRYRUN=1, dsl_worker.py's way), one call at a time. Each fails on
the twin written before (docs/cute-dsl.md, "`__init__.py` written anew")."""

import re

import pytest

from hlolayout import cute_dsl as cute

L = "cute.make_layout((2, 3, 4))"
S = "cute.make_swizzle(1, 2, 3)"


def run(expr):
    x = eval(expr, {"cute": cute})
    return cute.pretty_str(x) if isinstance(x, tuple) else str(x)


# What the DSL answers where the old twin refused or answered otherwise.
TAKEN = [
    # A bool is an integer to the DSL (True is 1).
    ("cute.make_layout((2, True))", "(2,1):(1,0)"),
    ("cute.make_layout((2, 3), stride=(True, 2))", "(2,3):(1,2)"),
    ("cute.make_identity_layout((2, True))", "(2,1):(1@0,1@1)"),
    ("cute.size(True)", "1"),
    ("cute.product_each((2, True))", "(2,1)"),
    ("cute.recast_layout(True, 8, cute.make_layout(4))", "32:1"),
    # product_each of no modes is 1.
    ("cute.product_each(())", "1"),
    # mode: an integer, or a list whose bools are ints; a tuple's negative
    # indices count from its end.
    ("cute.size((2, 3), mode=1)", "3"),
    ("cute.size(cute.make_layout((2, 3)), mode=1)", "3"),
    ("cute.size(cute.make_layout((2, 3)), mode=[True])", "3"),
    ("cute.get((2, 3), mode=[True])", "3"),
    ("cute.get((2, 3), mode=[-1])", "3"),
    ("cute.select((2, 3, 4), mode=2)", "(4)"),
    ("cute.select((2, 3, 4), mode=[-1])", "(4)"),
    ("cute.select(%s, mode=2)" % L, "(4):(6)"),
    # None appended is the mode 1 (1:0 in a layout).
    ("cute.append((2, 3), None)", "(2,3,1)"),
    ("cute.append(cute.make_layout((2, 3)), None)", "(2,3,1):(1,2,0)"),
    ("cute.prepend((2, 3), None)", "(1,2,3)"),
    ("cute.append(4, None)", "(4,1)"),
    # group_modes: end defaults to the rank; a tuple is cut as Python
    # slices it; a layout's begin below -rank is 0; an integer's one mode
    # is itself.
    ("cute.group_modes((2, 3, 4), 1)", "(2,(3,4))"),
    ("cute.group_modes(%s, 1)" % L, "(2,(3,4)):(1,(2,6))"),
    ("cute.group_modes(%s, 0, None)" % L, "((2,3,4)):((1,2,6))"),
    ("cute.group_modes((2, 3, 4), 0, 4)", "((2,3,4))"),
    ("cute.group_modes((2, 3, 4), -4, 1)", "((2),3,4)"),
    ("cute.group_modes((2, 3, 4), 5, 6)", "(2,3,4,())"),
    ("cute.group_modes(4, 0, 1)", "(4)"),
    ("cute.group_modes(%s, -4, 1)" % L, "((2),3,4):((1),2,6)"),
    ("cute.group_modes(%s, -4, 2)" % L, "((2,3),4):((1,2),6)"),
    # shape of a tuple reads a Layout in it as its shape.
    ("cute.shape((2, cute.make_layout(2)))", "(2,2)"),
    # slice_and_offset of a shape: its slice and the compact offset.
    ("cute.slice_and_offset((1, None), (2, 3))", "((3),1)"),
    # dice takes anything in the diced tuple.
    ("cute.dice((1, 'a'), (2, 3))", "(1,a)"),
    # tile_to_shape reads a Layout in the target as its shape.
    ("cute.tile_to_shape(cute.make_layout(2), (4, cute.make_layout(2)), "
     "(0, 1))", "((2,2),(1,2)):((1,2),(0,4))"),
    ("cute.tile_to_shape(cute.make_layout(2), (4, cute.make_layout((2, "
     "2))), (0, 1))", "((2,2),(1,4)):((1,2),(0,4))"),
    ("cute.tile_to_shape(cute.make_layout(2), (4, cute.make_layout(4, "
     "stride=2)), (0, 1))", "((2,2),(1,4)):((1,2),(0,4))"),
    # logical_product keeps a mode under a None of the tiler, the block
    # under a None alone.
    ("cute.logical_product(cute.make_layout((4, 8)), (None, 2))",
     "(4,(8,2)):(1,(4,1))"),
    ("cute.logical_product(cute.make_layout((4, 8)), (2, None))",
     "((4,2),8):((1,4),4)"),
    ("cute.logical_product(cute.make_layout((4, 8)), None)", "(4,8):(1,4)"),
    ("cute.logical_product(cute.make_layout(8), (None,))", "(8):(1)"),
    ("cute.logical_product(cute.make_layout(((4, 4), (8, 2))), "
     "(None, (cute.make_layout(2), None)))",
     "((4,4),((8,2),2)):((1,4),((16,1),128))"),
]


@pytest.mark.parametrize("expr,dsl", TAKEN)
def test_what_the_dsl_takes(expr, dsl):
    assert run(expr) == dsl


def _type(name):
    return "<class '%s'>" % name


# (expression, exception, the DSL's message). A ValueError of the DSL is the
# twin's Refusal (a ValueError); where the DSL names a class, the twin names
# its own (shown here by `type` of the same object).
REFUSED = [
    # The tree kinds: Shape names the leaf, the others the argument.
    ("cute.make_layout('a')", ValueError, "Expected Shape, which is a "
     "positive integer or tuple of Shapes, but got a"),
    ("cute.make_layout([2, 3])", ValueError, "Expected Shape, which is a "
     "positive integer or tuple of Shapes, but got [2, 3]"),
    ("cute.make_layout((2, 3.0))", ValueError, "Expected Shape, which is a "
     "positive integer or tuple of Shapes, but got 3.0"),
    ("cute.make_layout((cute.make_layout(2), 3))", ValueError, "Expected "
     "Shape, which is a positive integer or tuple of Shapes, but got 2:1"),
    ("cute.make_layout((2, 3), stride=(1, None))", ValueError, "Expected "
     "Stride, whose leaves are integers or ScaledBasis, but got (1, None)"),
    ("cute.make_layout((2, 3), stride=[1, 2])", ValueError,
     "shape and stride must be congruent"),
    ("cute.make_layout((2, 3), stride='x')", ValueError,
     "shape and stride must be congruent"),
    ("cute.make_ordered_layout((2, 3), 'a')", ValueError, "Expected "
     "IntTuple, whose leaves are integers, but got a"),
    ("cute.make_ordered_layout((2, 3), (0, 1.0))", ValueError, "Expected "
     "IntTuple, whose leaves are integers, but got (0, 1.0)"),
    ("cute.make_ordered_layout((2, 3), None)", ValueError, "Expected "
     "IntTuple, whose leaves are integers, but got None"),
    ("cute.make_ordered_layout((2, 0), (0, 1))", ValueError,
     "Expected size in shape to be strictly positive, but got 0"),
    ("cute.make_identity_layout((2, 0))", ValueError,
     "Expected size in shape to be strictly positive, but got 0"),
    ("cute.make_identity_layout((2, 3.0))", TypeError,
     "expects a shape input, got " + _type("tuple")),
    ("cute.idx2crd(3, (4, 0))", ValueError,
     "Expected size in shape to be strictly positive, but got 0"),
    ("cute.idx2crd(3, cute.make_layout((4, 2)))", ValueError, "Expected "
     "Shape, which is a positive integer or tuple of Shapes, but got "
     "(4,2):(1,4)"),
    ("cute.complement(cute.make_layout(4), (8, -1))", ValueError,
     "Expected size in shape to be strictly positive, but got -1"),
    ("cute.complement(cute.make_layout(4), 0)", ValueError,
     "Expected size in shape to be strictly positive, but got 0"),
    ("cute.coalesce(cute.make_layout(4), target_profile='a')", ValueError,
     "Expected Coord, whose leaves are integers or None, but got a"),
    ("cute.coalesce(cute.make_layout((4, 2)), target_profile=[1, 1])",
     ValueError, "Expected Coord, whose leaves are integers or None, but "
     "got [1, 1]"),
    ("cute.logical_divide(cute.make_layout((8, 8)), (2, 'a'))", ValueError,
     "Expected Tile, whose leaves are integers or Layout or None, but got "
     "(2, 'a')"),
    ("cute.tile_to_shape(cute.make_layout(2), [4], [0])", ValueError,
     "Expected Tile, whose leaves are integers or Layout or None, but got "
     "[4]"),
    ("cute.tile_to_shape(cute.make_layout(2), (4,), (0.0,))", ValueError,
     "Expected IntTuple, whose leaves are integers, but got (0.0,)"),
    ("cute.shape('a')", ValueError, "Expected Tile, whose leaves are "
     "integers or Layout or None, but got a"),
    ("cute.size((2, 'a'))", ValueError, "Expected IntTuple, whose leaves are "
     "integers, but got (2, 'a')"),
    ("cute.ceil_div(8, 2.0)", ValueError, "Expected Tile, whose leaves are "
     "integers or Layout or None, but got 2.0"),
    ("cute.ceil_div((8, 'a'), 2)", ValueError, "Expected IntTuple, whose "
     "leaves are integers, but got (8, 'a')"),
    ("cute.crd2idx((1, 'a'), cute.make_layout((4, 2)))", ValueError,
     "Expected Coord, whose leaves are integers or None, but got (1, 'a')"),
    ("cute.product_each(((2, 'a'), 4))", ValueError, "Expected IntTuple, "
     "whose leaves are integers, but got ((2, 'a'), 4)"),
    # Operands of the DSL's operations.
    ("cute.composition(3, cute.make_layout(4))", ValueError, 'Operand 0 of '
     'operation "cute.composition" must be a Value (is not a Value)'),
    ("cute.composition(cute.make_layout(8), None)", ValueError, 'Operand 1 '
     'of operation "cute.composition" must be a Value (contained a None '
     'item)'),
    ("cute.logical_divide(cute.make_layout(8), None)", ValueError, 'Operand '
     '1 of operation "cute.logical_divide" must be a Value (contained a '
     'None item)'),
    ("cute.logical_divide(cute.make_layout(8), [2])", ValueError, 'Operand 1 '
     'of operation "cute.logical_divide" must be a Value (is not a Value)'),
    ("cute.logical_divide(cute.make_layout(8), cute.make_composed_layout(%s, "
     "0, cute.make_layout(4)))" % S, ValueError, 'Operand 1 of operation '
     '"cute.logical_divide" must be a Value (is not a Value)'),
    ("cute.complement(cute.make_composed_layout(%s, 0, cute.make_layout(4)), "
     "8)" % S, ValueError, 'Operand 0 of operation "cute.complement" must be '
     'a Value (is not a Value)'),
    ("cute.cosize((2, 3))", ValueError, 'Operand 0 of operation "cute.cosize" '
     'must be a Value (is not a Value)'),
    ("cute.crd2idx(1, 'a')", ValueError, 'Operand 1 of operation '
     '"cute.crd2idx" must be a Value (is not a Value)'),
    ("cute.slice_('a', 1)", ValueError, 'Operand 0 of operation "cute.slice" '
     'must be a Value (is not a Value)'),
    ("cute.group_modes('abc', 0, 2)", ValueError, 'Operand 0 of operation '
     '"cute.group_modes" must be a Value (is not a Value)'),
    ("cute.max_common_vector((2, 2), cute.make_layout(4))", ValueError,
     'Operand 0 of operation "cute.composition" must be a Value (is not a '
     'Value)'),
    ("cute.zipped_product(cute.make_layout((4, 8)), (None, 2))", ValueError,
     'Operand 1 of operation "cute.zipped_product" must be a Value (is not '
     'a Value)'),
    ("cute.flat_product(cute.make_layout((4, 8)), None)", ValueError,
     'Operand 1 of operation "cute.flat_product" must be a Value (contained '
     'a None item)'),
    ("cute.filter_zeros(cute.make_layout(4), target_profile=(1,))",
     ValueError, 'Operand 1 of operation "cute.filter_zeros" must be a Value '
     '(is not a Value)'),
    # The functions the DSL checks in Python, with their words.
    ("cute.right_inverse(4)", TypeError, "Expected input of type Layout, but "
     "got " + _type("int")),
    ("cute.max_common_layout(cute.make_layout(4), (2, 2))", TypeError,
     "Expected input of type Layout, but got " + _type("tuple")),
    ("cute.filter((4, 2))", TypeError, "Expected layout or tensor as input, "
     "but got type(input)=" + _type("tuple")),
    ("cute.nullspace(4)", TypeError, "expects a Layout, but got " +
     _type("int")),
    ("cute.make_layout_tv(cute.make_layout(2), (2, 2))", TypeError,
     "expected a Layout for val_layout, but got " + _type("tuple")),
    ("cute.make_layout_tv(3, 3)", TypeError,
     "expected a Layout for thr_layout, but got " + _type("int")),
    ("cute.make_swizzle(2.0, 1, 3)", ValueError, "b, m, and s must be int"),
    ("cute.make_swizzle(cute.Int32(2), 1, 3)", ValueError,
     "b, m, and s must be int"),
    ("cute.make_composed_layout(%s, 'a', (2, 2))" % S, TypeError,
     "expects the outer (or right-most or effectively visible) layout to be "
     "an affine layout, but got (2, 2)"),
    ("cute.make_composed_layout(%s, None, cute.make_layout(4))" % S,
     ValueError, "Expected IntTuple, whose leaves are integers, but got "
     "None"),
    ("cute.make_composed_layout(%s, (1, 2), cute.make_layout((4, 4)))" % S,
     ValueError, "swizzle layout expects scalar `offset` and `outer` without "
     "scaled basis, but got (1,2) and (4,4):(1,4)"),
    ("cute.make_composed_layout(%s, 0, cute.make_identity_layout((4, 4)))"
     % S, TypeError, "invalid composition S<1,2,3> o 0 o (4,4):(1@0,1@1)"),
    ("cute.recast_layout(16.0, 8, (2, 2))", TypeError,
     "new_type_bits must be an integer instead got " + _type("float")),
    ("cute.recast_layout(16, 8.0, cute.make_layout(4))", TypeError,
     "old_type_bits must be an integer instead got " + _type("float")),
    ("cute.product_each('a')", TypeError,
     "expects IntTuple or Shape, but got " + _type("str")),
    ("cute.round_up((7, 5), 4)", TypeError, "Expected both inputs to be "
     "tuple, but got %s and %s" % (_type("tuple"), _type("int"))),
    ("cute.round_up((7, (5, 3)), (4, 2))", TypeError, "Expected both inputs "
     "to be tuple, but got %s and %s" % (_type("tuple"), _type("int"))),
    ("cute.select(4, mode=[0])", TypeError,
     "unsupported type of input, got " + _type("int")),
    ("cute.append((2, 3), 'a')", TypeError,
     "Input type of elem (%s) is not accepted!" % _type("str")),
    ("cute.append((2, 3), 2.5)", TypeError,
     "Input type of elem (%s) is not accepted!" % _type("float")),
    ("cute.append('a', 4)", TypeError,
     "invalid type for input, got " + _type("str")),
    ("cute.dice((1, None), 'a')", TypeError, "unsupported type a"),
    ("cute.size((2, 3), mode=[1.0])", ValueError,
     "Expected integer elements in mode, but got [1.0]"),
    ("cute.get((2, 3), mode=[1.0])", TypeError,
     "invalid element in mode, expects int, got " + _type("float")),
    # Refusals that depend on the values.
    ("cute.get((2, (3, 4)), mode=[2])", ValueError,
     "elements in mode must be less than rank((2, (3, 4))), got [2]"),
    ("cute.get(%s, mode=[3])" % L, ValueError,
     "elements in mode must be less than rank((2,3,4):(1,2,6)), got [3]"),
    ("cute.shape((2, 3), mode=[3])", ValueError,
     "elements in mode must be less than rank((2, 3)), got [3]"),
    ("cute.size((2, 3), mode=[2])", ValueError,
     "mode [2] has invalid values for input type (2,3)"),
    ("cute.size(cute.make_layout((2, 3)), mode=[-1])", ValueError,
     "mode [-1] has invalid values for input type (2,3):(1,2)"),
    ("cute.cosize(cute.make_layout((2, (3, 4))), mode=[2])", ValueError,
     "mode [2] is invalid for input type (2,(3,4)):(1,(2,6))"),
    ("cute.select(%s, mode=[-1])" % L, ValueError, "The mode [-1] contains "
     "values that are out of range for the input type (2,3,4):(1,2,6)"),
    ("cute.group_modes((2, 3, 4), 2, 1)", ValueError,
     "Expected begin < end, but got 2 >= 1"),
    ("cute.group_modes(%s, 1, -3)" % L, ValueError,
     "Expected begin < end, but got 1 >= 0"),
    ("cute.ceil_div((8, 6), (2, None))", ValueError,
     "unable to perform ceil_div on input (8,6) and tiler (2,_)"),
]


def _class(name):
    return {"int": int, "tuple": tuple, "float": float, "str": str}[name]


@pytest.mark.parametrize("expr,exc,dsl", REFUSED)
def test_refused_with_the_dsls_words(expr, exc, dsl):
    with pytest.raises(exc) as e:
        run(expr)
    assert dsl in str(e.value)
    if exc is ValueError:
        assert isinstance(e.value, cute.Refusal)


def test_identity_layout_of_nested_modes():
    # Found by the harness on the first draft of this rewrite (a crash): a
    # nested mode's unit stride names its whole path (the DSL's prints).
    assert run("cute.make_identity_layout((16, (1, 8)))") == \
        "(16,(1,8)):(1@0,(1@0@1,1@1@1))"
    assert run("cute.make_identity_layout((6, cute.Int32(8), (8,)))") == \
        "(6,?,(8)):(1@0,1@1,(1@0@2))"


def test_a_refusal_names_the_twins_own_class():
    # Where the DSL names its class (<class 'cutlass.cute.core._Layout'>),
    # the twin names its own.
    with pytest.raises(TypeError, match=re.escape(str(cute.Layout))):
        cute.product_each(cute.make_layout(4))
