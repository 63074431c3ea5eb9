"""The CuTe DSL twin's values (_objects.py): scaled bases, layouts,
swizzles and composed layouts, each case what the DSL prints or refuses
(the wheel run on the CPU, CUTE_DSL_DRYRUN=1, one expression at a time)."""

import pytest

from hlolayout import cute_dsl as cute

SW = cute.make_composed_layout(cute.make_swizzle(3, 4, 3), 5,
                               cute.make_layout((8, (4, 16)),
                                                stride=(64, (1, 4))))


@pytest.mark.parametrize("expr, text", [
    ("cute.E(0) * 4", "4@0"),
    ("4 * cute.E([1, 0])", "4@0@1"),
    ("cute.E(0) * 2 * 3", "6@0"),
    ("cute.E(0) * 0", "0@0"),
    ("cute.E(0) * -2", "-2@0"),
    ("cute.E(0) * True", "1@0"),
    ("cute.E(1) * cute.Int32(8)", "?@1"),
    ("cute.E(0) * cute.assume(cute.Int32(8), divby=8)", "?{div=8}@0"),
    ("cute.make_layout((4, 8), stride=(2 * cute.E(1), 3 * cute.E(0)))",
     "(4,8):(2@1,3@0)"),
    ("cute.make_layout(4, stride=cute.E(0) * cute.Int32(3))", "4:?@0"),
    ("cute.E([0, 1, 2])", "1@2@1@0"),
    ("cute.E([])", "1"),
])
def test_a_scaled_basis_scales_by_an_integer(expr, text):
    assert str(eval(expr)) == text


def test_a_scaled_basis_as_the_dsl_hands_it_out():
    assert cute.E(0) * 2 == 2 * cute.E(0)
    assert cute.E(0) * 2 != cute.E(1) * 2
    assert cute.E(0).mode == [0]
    assert cute.E([1, 0]).mode == [1, 0]
    assert (cute.E([1, 0]) * 3).value == 3
    for bad in (1.5, cute.E(1)):
        with pytest.raises(TypeError, match="scale must be an integer"):
            cute.E(0) * bad
    with pytest.raises(TypeError):
        cute.E(0) + cute.E(1)


@pytest.mark.parametrize("expr, text", [
    ("cute.make_layout((4, 8))[1]", "8:4"),
    ("cute.make_layout((4, (8, 2)))[1]", "(8,2):(4,32)"),
    ("cute.make_layout((4, 8))[True]", "8:4"),
    ("cute.make_layout((4, 8))[cute.Int32(1)]", "8:4"),
    ("cute.make_layout(8)[0]", "8:1"),
    ("cute.make_layout(8)[-1]", "8:1"),
    ("cute.make_layout(8)[-2]", "8:1"),
    ("cute.make_layout((4,))[0]", "4:1"),
    ("cute.make_layout(((4,), 8))[0]", "(4):(1)"),
    ("SW[1]", "S<3,4,3> o 5 o (4,16):(1,4)"),
    ("SW[0]", "S<3,4,3> o 5 o 8:64"),
])
def test_a_mode_of_a_layout_as_the_dsl_takes_it(expr, text):
    assert str(eval(expr)) == text


@pytest.mark.parametrize("expr, error, words", [
    ("cute.make_layout((4, 8))[2]", ValueError,
     r"less than rank\(\(4,8\):\(1,4\)\), got \[2\]"),
    ("cute.make_layout(8)[1]", ValueError, r"less than rank\(8:1\)"),
    ("cute.make_layout((4, 8))[-1]", ValueError, "invalid mode"),
    ("cute.make_layout((4,))[-1]", ValueError, "invalid mode"),
    ("cute.make_layout((4, 8))[(0,)]", TypeError, ""),
    ("cute.make_layout((4, 8))[0:1]", TypeError, ""),
    ("SW[2]", ValueError, r"rank\(S<3,4,3> o 5 o "),
    ("SW[-1]", ValueError, "invalid mode"),
    ("len(cute.make_layout((4, 8)))", TypeError, "len"),
    ("list(cute.make_layout((4, 8)))", ValueError, "less than rank"),
    ("cute.make_layout((4, 8))(1, 2)", TypeError, ""),
    ("cute.make_swizzle(3, 4, 3)(144)", TypeError, "callable"),
])
def test_what_the_dsl_refuses_of_a_layout(expr, error, words):
    with pytest.raises(error, match=words):
        eval(expr)


def test_a_layout_maps_one_coordinate_and_a_swizzle_is_applied_inside():
    L = cute.make_layout((4, 8))
    assert L((1, 2)) == 9 and L(5) == 5
    c = cute.make_composed_layout(cute.make_swizzle(3, 4, 3), 0,
                                  cute.make_layout((8, 64), stride=(64, 1)))
    assert c((1, 2)) == 66 and c(9) == 65
    assert cute.make_swizzle(3, 4, 3).apply(144) == 128
