"""hlolayout.cute_dsl's two stages (jit, compile, printf) and composed
layouts with a Python function as inner: what the CuTe DSL's notebooks
print (differential/cute_dsl/notebooks.py). Every expected text is the
DSL's (nvidia-cutlass-dsl 4.8.1, run on this CPU: trace-time print first,
then the run's printf lines)."""

import typing

import pytest

from hlolayout import cute_dsl as cute


def test_jit_prints_the_trace_then_the_run(capsys):
    # cute_layout_algebra.ipynb, cell 4.
    @cute.jit
    def coalesce_example():
        layout = cute.make_layout((2, (1, 6)), stride=(1, (cute.Int32(6), 2)))
        result = cute.coalesce(layout)
        print(">>> Original:", layout)
        cute.printf(">?? Original: {}", layout)
        print(">>> Coalesced:", result)
        cute.printf(">?? Coalesced: {}", result)

    coalesce_example()
    assert capsys.readouterr().out == (
        ">>> Original: (2,(1,6)):(1,(?,2))\n"
        ">>> Coalesced: 12:1\n"
        ">?? Original: (2,(1,6)):(1,(6,2))\n"
        ">?? Coalesced: 12:1\n")


def test_printf_prints_the_values_of_a_dynamic_result(capsys):
    # cute_layout_algebra.ipynb, cell 9.
    @cute.jit
    def composition_example():
        A = cute.make_layout((6, 2), stride=(cute.Int32(8), 2))
        B = cute.make_layout((4, 3), stride=(3, 1))
        R = cute.composition(A, B)
        print(">>>", R)
        cute.printf(">?? {}", R)

    composition_example()
    assert capsys.readouterr().out == (
        ">>> ((2,2),3):((?{div=3},2),?)\n>?? ((2,2),3):((24,2),8)\n")


def test_jit_arguments_int_and_unannotated_are_dynamic(capsys):
    @cute.jit
    def foo(x: cute.Int32, y, z: cute.Constexpr[int]):
        print("x", x, "y", y, "z", z)
        layout = cute.make_layout((x, z))
        print(layout)
        cute.printf("{} {} {}", layout, y, z)

    foo(8, 9, 2)
    assert capsys.readouterr().out == (
        "x ? y ? z 2\n(?,2):(1,?)\n(8,2):(1,8) 9 2\n")


def test_compile_traces_once_and_runs_with_new_values(capsys):
    # print.ipynb, cells 7 and 9.
    @cute.jit
    def show(a: cute.Int32, b: cute.Constexpr[int]):
        print(">>>", b)
        print(">>>", a)
        cute.printf(">?? {}", a)
        layout = cute.make_layout((a, b))
        print(">>>", layout)
        cute.printf(">?? {}", layout)

    compiled = cute.compile(show, cute.Int32(8), 2)
    assert capsys.readouterr().out == ">>> 2\n>>> ?\n>>> (?,2):(1,?)\n"
    compiled(cute.Int32(5))
    assert capsys.readouterr().out == ">?? 5\n>?? (5,2):(1,5)\n"


def test_jit_takes_a_named_tuple_of_integers(capsys):
    # dsl_struct_types.rst, block 0.
    class Vec3(typing.NamedTuple):
        x: int
        y: int
        z: int

    @cute.jit
    def print_vec(v: Vec3):
        print(v.x)
        cute.printf("x=%d y=%d z=%d\n", v.x, v.y, v.z)

    v = Vec3(x=cute.Int32(1), y=cute.Int32(2), z=cute.Int32(3))
    cute.compile(print_vec, v)(v)
    assert capsys.readouterr().out == "?\nx=1 y=2 z=3\n\n"


@pytest.mark.parametrize("args, text", [
    (("a %d %d", cute.Int32(7), 3), "a 7 3"),
    (("b {}",), "b {}"),
    (("c {} {}", 1), "c 1 {}"),
    (("n {{}} {}", 1), "n {1} {}"),
    ((1, 2), "1, 2"),
    (((3, (4, 5)),), "(3,(4,5))"),
    (((None, 1),), "(_,1)"),
    (((2,),), "(2)"),
    ((True,), "1"),
    (("{}", cute.make_layout((4,), stride=(3,))), "(4):(3)"),
    (("{}", cute.make_layout(((4,), 2), stride=((-3,), cute.Int32(7)))),
     "((4),2):((-3),7)"),
    (("{}", cute.make_layout((cute.Int64(9), 2))), "(9,2):(1,9)"),
    (("{}", cute.make_identity_layout((cute.Int32(7), 3))),
     "(7,3):(1@0,1@1)"),
    (("{}", cute.make_composed_layout(cute.make_swizzle(1, 2, 3), 0,
                                      cute.make_layout((4, cute.Int32(7))))),
     "S<1,2,3> o 0 o (4,7):(1,4)"),
    (("{}", cute.make_composed_layout(cute.make_layout(8, stride=2), 1,
                                      cute.make_layout(4))),
     "8:2 o 1 o 4:1"),
])
def test_printf_formats_as_the_dsl(capsys, args, text):
    @cute.jit
    def run():
        cute.printf(*args)

    run()
    assert capsys.readouterr().out == text + "\n"


def test_printf_refuses_a_string_argument():
    with pytest.raises(TypeError, match="unsupported argument type"):
        cute.printf("f %d %s", 1, "s")


def test_range_constexpr_and_const_expr_take_static_values_only():
    assert list(cute.range_constexpr(3)) == [0, 1, 2]
    assert cute.const_expr(True) is True
    with pytest.raises(TypeError, match="static integers"):
        cute.range_constexpr(cute.Int32(3))
    with pytest.raises(TypeError, match="dynamic"):
        cute.const_expr(cute.Int32(3))


def test_composed_layout_with_a_function_inner(capsys):
    # composed_layout.ipynb, cell 2, and the DSL's answers around it.
    @cute.jit
    def customized(x: cute.Int32):
        def inner(c):
            a, b = c
            return a, b + 1

        layout = cute.make_composed_layout(
            inner, (1, 0), cute.make_identity_layout(shape=(8, 4)))
        print(layout)
        cute.printf(layout(0))
        shifted = cute.make_composed_layout(
            inner, (1, x), cute.make_identity_layout((2, 2)))
        print(shifted, shifted(1))
        cute.printf(shifted(3))

    customized(5)
    out = capsys.readouterr().out.split("\n")
    assert out[0].startswith("(<function ")
    assert out[0].endswith(" o (1, 0) o (8,4):(1@0,1@1))")
    assert out[1].endswith(" o (1, Int32(?)) o (2,2):(1@0,1@1)) (2, Int32(?))")
    assert out[2:] == ["(1,1)", "(2,7)", ""]


def test_composed_layout_with_a_function_inner_takes_no_algebra():
    def twice(i):
        return i * 2

    layout = cute.make_composed_layout(twice, 3, cute.make_layout((4, 2)))
    assert layout(3) == 12
    with pytest.raises(ValueError, match="must be a Value"):
        cute.composition(layout, cute.make_layout(2))
    with pytest.raises(TypeError, match="a Swizzle, a Layout or a function"):
        cute.make_composed_layout(3, 0, cute.make_layout(2))


def test_type_of_a_dynamic_integer_prints_as_in_the_dsl(capsys):
    # print.ipynb, cell 3: print(">>>", type(a)) of an Int32 argument.
    @cute.jit
    def show(a: cute.Int32, n: cute.Int64, b: cute.Constexpr[int]):
        print(type(a), type(b), type(n),
              type(cute.size(cute.make_layout((a, b)))), type(n * a),
              type(cute.Uint32(3)))

    show(8, 9, 2)
    assert capsys.readouterr().out == (
        "Int32 <class 'int'> Int64 Int32 Int64 Uint32\n")
    assert isinstance(cute.Int64(3), cute.DynInt)


def test_jit_and_compile_take_functions_only():
    with pytest.raises(TypeError, match="jit expects a Python function"):
        cute.jit(cute.make_layout(2))
    with pytest.raises(TypeError, match="compile expects a @cute.jit"):
        cute.compile(cute.make_layout(2), True)


def test_to_converts_between_integer_types_as_the_dsl(capsys):
    # data_types.ipynb, cell 4 (its integer conversions).
    @cute.jit
    def convert(x: cute.Int32):
        c = cute.Int32(300).to(cute.Int8)
        d = x.to(cute.Int8)
        print(c, repr(c), type(c), repr(d), type(d),
              repr(x.to(cute.Uint32)), repr(x.to(cute.Int64)))
        cute.printf("{} {} {} {}", c, d, x.to(cute.Uint32),
                    cute.Int32(127).to(cute.Int8))

    convert(-300)
    assert capsys.readouterr().out == (
        "? Int8(44) Int8 Int8(?) Int8 Uint32(?) Int64(?)\n"
        "44 -44 4294966996 127\n")
    with pytest.raises(TypeError, match="to expects a numeric type"):
        cute.Int32(42).to(3)


def test_float_scalars_print_as_the_dsl(capsys):
    # data_types.ipynb, cells 2, 4 and 6 (the DSL's own output).
    @cute.jit
    def demo():
        a = cute.Float32(3.14)
        print("a(static) =", a)
        cute.printf("a(dynamic) = {}", a)
        x = cute.Int32(42)
        cute.printf("Int32({}) => Float32({})", x, x.to(cute.Float32))
        f = cute.Float32(3.14)
        cute.printf("Float32({}) => Int32({})", f, f.to(cute.Int32))
        a, b, x = cute.Int32(10), cute.Int32(3), cute.Float32(5.5)
        cute.printf("")
        cute.printf("{} {} {} {}", x * 2, a + x, a / b,
                    x / cute.Float32(2.0))
        cute.printf("{} {} {} {}", a > b, a & b, -a, ~a)

    demo()
    assert capsys.readouterr().out == (
        "a(static) = ?\n"
        "a(dynamic) = 3.140000\n"
        "Int32(42) => Float32(42.000000)\n"
        "Float32(3.140000) => Int32(3)\n"
        "\n"
        "11.000000 15.500000 3.333333 2.750000\n"
        "1 2 -10 -11\n")


def test_float_values_constants_and_traced_as_the_dsl():
    # The DSL's repr and type of each (measured in a @cute.jit function).
    a, b, x = cute.Int32(10), cute.Int32(3), cute.Float32(5.5)
    got = [repr(v) for v in (x, a / b, x * 2, a + x, x + a, a > b, a & b,
                             ~a, -x, x.to(cute.Int32), a.to(cute.Float32),
                             x / cute.Float32(2.0), 2 * x, x - 1, 1 - x,
                             a | b, a ^ b, a < b, a <= b, a >= b)]
    assert got == [
        "Float32(5.5)", "Float32(3.3333333333333335)", "Float32(11.0)",
        "Float32(15.5)", "Float32(15.5)", "Boolean(1)", "Int32(2)",
        "Int32(?)", "Float32(-5.5)", "Int32(5)", "Float32(10.0)",
        "Float32(2.75)", "Float32(11.0)", "Float32(4.5)", "Float32(-4.5)",
        "Int32(11)", "Int32(9)", "Boolean(0)", "Boolean(0)", "Boolean(1)"]
    assert str(type(x)) == "Float32" and str(type(a > b)) == "Boolean"
    assert str(x) == "?"
    assert cute.Float32(-2.5).to(cute.Int32).value == -2
    # A comparison of constants is a constant Boolean, true as the DSL's
    # is; one of a traced value has no truth value.
    assert bool(x > 1) is True
    with pytest.raises(TypeError, match="no truth value"):
        bool(cute.assume(cute.Int32(64), divby=16) > 1)
    with pytest.raises(TypeError, match="Float16, Float32 and Float64"):
        cute.BFloat16(1.0)


def test_float_arguments_of_a_jit_function_are_dynamic(capsys):
    @cute.jit
    def g(f: cute.Float32, u, i: cute.Float32, n: cute.Int32):
        print(repr(f), repr(u), type(u), repr(i), repr(n > 3))
        cute.printf("{} {} {} {}", f, u, i, f / 3)

    g(1.5, 2.25, 3, 7)
    assert capsys.readouterr().out == (
        "Float32(?) Float32(?) Float32 Float32(?) Boolean(?)\n"
        "1.500000 2.250000 3.000000 0.500000\n")
