"""Tensors of hlolayout.cute_dsl (tensor.py, tensor_ssa.py, runtime.py,
math.py): the texts are what nvidia-cutlass-dsl 4.8.1 printed for the same
programs on this CPU (memory addresses masked)."""

import re

import numpy as np
import pytest

from hlolayout import cute_dsl as cute
from hlolayout.cute_dsl.runtime import from_dlpack, make_ptr

_ADDRESS = re.compile(r"0x[0-9a-f]{16}")


def run_text(capsys, fn, *args):
    fn(*args)
    return _ADDRESS.sub("0x?", capsys.readouterr().out)


@cute.jit
def show(x: cute.Tensor):
    print(x)
    cute.print_tensor(x)


def test_a_rank1_tensor_prints_a_line_an_element_the_middle_cut(capsys):
    out = run_text(capsys, show, from_dlpack(np.arange(7, dtype=np.float32)))
    assert out == (
        "tensor<ptr<f32, generic> o (7):(1)>\n"
        "tensor(raw_ptr(0x?: f32, generic, align<4>) o (7):(1), data=\n"
        "       [ 0.000000, ],\n       [ 1.000000, ],\n"
        "       [ 2.000000, ],\n       ...\n       [ 4.000000, ],\n"
        "       [ 5.000000, ],\n       [ 6.000000, ])\n")


def test_a_matrix_prints_rows_of_mode0_and_cuts_modes_over_6(capsys):
    a = np.arange(6 * 7, dtype=np.float32).reshape(6, 7) - 20
    out = run_text(capsys, show, from_dlpack(a)).split("\n")
    assert out[1] == ("tensor(raw_ptr(0x?: f32, generic, align<4>) o "
                      "(6,7):(7,1), data=")
    assert out[2] == ("       [[-20.000000, -19.000000, -18.000000, ..., "
                      "-16.000000, -15.000000, -14.000000, ],")
    assert out[4] == ("        [-6.000000, -5.000000, -4.000000, ..., "
                      "-2.000000, -1.000000,  0.000000, ],")
    assert out[7].endswith("21.000000, ]])")


def test_higher_ranks_print_pages_of_modes_2_and_up(capsys):
    a = np.arange(16, dtype=np.int32).reshape(2, 2, 2, 2)
    out = run_text(capsys, show, from_dlpack(a))
    assert out.split("\n", 2)[2] == (
        "       [[[ 0,  4, ],\n         [ 8,  12, ]],\n\n"
        "        [[ 2,  6, ],\n         [ 10,  14, ]],\n\n"
        "        [[ 1,  5, ],\n         [ 9,  13, ]],\n\n"
        "        [[ 3,  7, ],\n         [ 11,  15, ]]])\n")


def test_verbose_prints_each_coordinate(capsys):
    @cute.jit
    def verbose(x: cute.Tensor):
        cute.print_tensor(x, verbose=True)

    a = np.arange(4, dtype=np.int32).reshape(2, 2) - 2
    assert run_text(capsys, verbose, from_dlpack(a)) == (
        "tensor(raw_ptr(0x?: i32, generic, align<4>) o (2,2):(2,1), data= "
        "(\n\t(0,0)=-2\n\t(1,0)= 0\n\t(0,1)=-1\n\t(1,1)= 1\n)\n")


def test_signs_zero_nan_and_nested_coordinates(capsys):
    @cute.jit
    def values(x: cute.Tensor, y: cute.Tensor):
        cute.print_tensor(x)
        cute.print_tensor(cute.logical_divide(y, (2, 2)), verbose=True)

    x = np.array([-0.0, np.nan, -np.nan, -np.inf], dtype=np.float32)
    y = np.arange(16, dtype=np.int32).reshape(4, 4)
    out = run_text(capsys, values, from_dlpack(x), from_dlpack(y))
    lines = out.split("\n")
    assert lines[1:5] == ["       [ -0.000000, ],", "       [nan, ],",
                          "       [-nan, ],", "       [-inf, ])"]
    assert lines[5] == ("tensor(raw_ptr(0x?: i32, generic, align<4>) o "
                        "((2,2),(2,2)):((4,8),(1,2)), data= (")
    assert lines[6:9] == ["\t((0,0),(0,0))= 0", "\t((1,0),(0,0))= 4",
                          "\t((0,1),(0,0))= 8"]


def test_slices_tiles_and_divides_of_a_tensor(capsys):
    @cute.jit
    def ops(x: cute.Tensor):
        print(x[None, 0])
        print(x[(1, None)])
        print(x[1, 2])
        print(cute.zipped_divide(x, (2, 2)))
        tile = cute.local_tile(x, (2, 2), (1, 0))
        print(tile)
        cute.print_tensor(tile)
        cute.printf("v={}", x[1, 1])

    out = run_text(capsys, ops, from_dlpack(
        np.arange(24, dtype=np.float32).reshape(4, 6)))
    assert out == (
        "tensor<ptr<f32, generic> o (4):(6)>\n"
        "tensor<ptr<f32, generic> o (6):(1)>\n?\n"
        "tensor<ptr<f32, generic> o ((2,2),(2,3)):((6,1),(12,2))>\n"
        "tensor<ptr<f32, generic> o (2,2):(6,1)>\n"
        "tensor(raw_ptr(0x?: f32, generic, align<4>) o (2,2):(6,1), data=\n"
        "       [[ 12.000000,  13.000000, ],\n"
        "        [ 18.000000,  19.000000, ]])\nv=7.000000\n")


def test_rmem_tensors_and_booleans_printed_as_i8(capsys):
    @cute.jit
    def rmem():
        r = cute.make_rmem_tensor((2, 3), cute.Int32)
        print(r)
        r.fill(7)
        cute.print_tensor(r)
        b = cute.make_rmem_tensor((3,), cute.Boolean)
        b.fill(True)
        print(b)
        cute.print_tensor(b)

    assert run_text(capsys, rmem) == (
        "tensor<ptr<i32, rmem, align<32>> o (2,3):(1,2)>\n"
        "tensor<ptr<i8, rmem, align<32>> o (3):(1)>\n"
        "tensor(raw_ptr(0x?: i32, rmem, align<32>) o (2,3):(1,2), data=\n"
        "       [[ 7,  7,  7, ],\n        [ 7,  7,  7, ]])\n"
        "tensor(raw_ptr(0x?: i8, rmem, align<32>) o (3):(1), data=\n"
        "       [-1, ],\n       [-1, ],\n       [-1, ])\n")


def test_store_writes_the_numpy_array_and_load_reads_it():
    @cute.jit
    def add(res: cute.Tensor, a: cute.Tensor, b: cute.Tensor):
        res.store(a.load() + b.load())

    a = np.array([1, 2, 3], dtype=np.int32)
    b = np.array([2, 2, 4], dtype=np.int32)
    res = np.zeros(3, dtype=np.int32)
    add(from_dlpack(res), from_dlpack(a), from_dlpack(b))
    assert res.tolist() == [3, 4, 7]


def test_tensor_ssa_rules(capsys):
    @cute.jit
    def rules(x: cute.Tensor, y: cute.Tensor):
        v, w = x.load(), y.load()
        print(v > 0.0, w * 3, w / 2)
        cute.printf("{} {} {}", (v % 2.0)[0], (v // 2.0)[0], (w % 2)[0])
        cute.printf("{} {}", v.reduce(cute.ReductionOp.MAX, -100.0,
                                      reduction_profile=0),
                    w.reduce(cute.ReductionOp.ADD, 0, reduction_profile=0))

    out = run_text(capsys, rules, from_dlpack(np.array(
        [-3.0, 1.5, 4.0], dtype=np.float32)), from_dlpack(np.array(
            [-3, 1, 4], dtype=np.int32)))
    assert out == (
        "tensor_value<vector<3xi1> o (3,)> tensor_value<vector<3xi32> o "
        "(3,)> tensor_value<vector<3xf32> o (3,)>\n"
        "-1.000000 -2.000000 -1\n4.000000 2\n")


def test_reduce_by_profile_and_broadcast(capsys):
    @cute.jit
    def red(a: cute.Tensor):
        v = a.load()
        cute.print_tensor(v.reduce(cute.ReductionOp.ADD, 1.0,
                                   reduction_profile=(1, None)))
        r = cute.make_rmem_tensor((1, 3), cute.Float32)
        r.fill(0.0)  # the DSL's rmem is not initialised
        r[1] = 1.0
        cute.print_tensor(r.load().broadcast_to((2, 3)))

    out = run_text(capsys, red, from_dlpack(np.array(
        [[1, 2, 3], [4, 5, 6]], dtype=np.float32)))
    assert out == (
        "tensor(raw_ptr(0x?: f32, rmem, align<32>) o (3):(1), data=\n"
        "       [ 6.000000, ],\n       [ 8.000000, ],\n"
        "       [ 10.000000, ])\n"
        "tensor(raw_ptr(0x?: f32, rmem, align<32>) o (2,3):(1,2), data=\n"
        "       [[ 0.000000,  1.000000,  0.000000, ],\n"
        "        [ 0.000000,  1.000000,  0.000000, ]])\n")


def test_negative_strides_and_a_scalar_array(capsys):
    out = run_text(capsys, show, from_dlpack(
        np.arange(4, dtype=np.float32)[::-1]))
    assert out.split("\n")[:3] == [
        "tensor<ptr<f32, generic> o (4):(-1)>",
        "tensor(raw_ptr(0x?: f32, generic, align<4>) o (4):(-1), data=",
        "       [ 3.000000, ],"]
    # Outside a jit function the DSL prints the runtime tensor, with its
    # address (`print(from_dlpack(torch.tensor(3.0)))`).
    assert _ADDRESS.sub("0x?", str(from_dlpack(np.array(
        1.0, dtype=np.float32)))) == "Tensor<0x?@generic o ():()>"


def test_make_ptr_and_make_tensor_share_the_memory():
    a = np.arange(6, dtype=np.float32)
    p = make_ptr(cute.Float32, a.ctypes.data)
    assert str(p) == "ptr<f32, generic>"
    t = cute.make_tensor(p, cute.make_layout((2, 3)))
    t.fill(1)
    assert a.tolist() == [1.0] * 6


def test_bad_inputs_raise_the_documented_exceptions():
    with pytest.raises(BufferError):  # NumPy's DLPack export, as the DSL
        from_dlpack(np.zeros(3, dtype=np.bool_))
    with pytest.raises(TypeError, match="__dlpack__"):
        from_dlpack([1, 2])
    with pytest.raises(TypeError, match="expects a pointer"):
        cute.make_tensor(np.zeros(3), cute.make_layout(3))
    small = from_dlpack(np.zeros(4, dtype=np.float32)).iterator
    with pytest.raises(ValueError, match="reaches element 5"):
        cute.make_tensor(small, cute.make_layout((2, 3)))

    @cute.jit
    def g(x: cute.Tensor):
        x.store(cute.make_rmem_tensor((2,), cute.Float32).load())

    with pytest.raises(ValueError, match=re.escape(
            "lhs and rhs must have the same shape, but got (3,) and (2,)")):
        g(from_dlpack(np.zeros(3, dtype=np.float32)))
    with pytest.raises(cute.DSLUserCodeError, match="ARG_ANNOTATION_MISMATCH"):
        g(np.zeros(3, dtype=np.float32))
    t = from_dlpack(np.zeros((2, 2), dtype=np.float32))
    with pytest.raises(ValueError, match="outside the tensor's shape"):
        t[4]
    with pytest.raises(ValueError, match="outside the tensor's shape"):
        t[0, 2] = 1.0
    with pytest.raises(ValueError, match="empty tensor"):
        cute.print_tensor(from_dlpack(np.zeros(0, dtype=np.float32)))
    with pytest.raises(TypeError, match="float elements"):
        cute.math.sqrt(from_dlpack(np.zeros(2, dtype=np.int32)).load())


def test_docstring_examples():
    import doctest
    from hlolayout.cute_dsl import (math, runtime, tensor, tensor_ssa,
                                    torch_interop)
    modules = [tensor, tensor_ssa, runtime, math]
    try:
        import torch  # noqa: F401
        modules.append(torch_interop)
    except ImportError:
        pass
    for module in modules:
        result = doctest.testmod(module, optionflags=(
            doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS))
        assert result.attempted > 0 and result.failed == 0, module.__name__


# PyTorch CPU tensors (Debian's python3-torch 1.13; skipped without it).
# The texts are the DSL's for the same tensors (framework_integration.rst's
# and more), addresses masked.

def _torch():
    return pytest.importorskip("torch")


def _masked(x):
    return _ADDRESS.sub("0x?", str(x))


def test_from_dlpack_of_a_torch_tensor_shares_its_memory(capsys):
    torch = _torch()
    x = torch.arange(6, dtype=torch.float32).reshape(2, 3)
    y = from_dlpack(x)
    assert (y.shape, y.stride, y.memspace, y.element_type) == (
        (2, 3), (3, 1), "generic", cute.Float32)
    assert _masked(y) == "Tensor<0x?@generic o (2,3):(3,1)>"
    assert y.iterator.address() == x.data_ptr()

    @cute.jit
    def put(t: cute.Tensor):
        print(t)
        t[1, 2] = 100.0

    put(y)
    assert capsys.readouterr().out == (
        "tensor<ptr<f32, generic> o (2,3):(3,1)>\n")
    assert x[1, 2].item() == 100.0
    assert _masked(from_dlpack(x, assumed_align=16)) == (
        "Tensor<0x?@generic o (2,3):(3,1)>")
    assert _masked(from_dlpack(torch.zeros(4, dtype=torch.float16)[1:])) == (
        "Tensor<0x?@generic o (3):(1)>")


def test_a_framework_tensor_passed_to_a_jit_function(capsys):
    # Not annotated: the DSL converts it, from_dlpack(x).mark_layout_dynamic()
    # (framework_integration.rst, "Implicit Conversion"); annotated
    # cute.Tensor: refused.
    torch = _torch()

    @cute.jit
    def show_any(src):
        print(src)

    for x in (torch.randn(30, 20, 32), torch.arange(4, dtype=torch.int32),
              torch.ones(1, 5), np.zeros(3, dtype=np.float32)):
        show_any(x)
    assert capsys.readouterr().out == (
        "tensor<ptr<f32, generic> o (?,?,?):(?{i64},?{i64},1)>\n"
        "tensor<ptr<i32, generic> o (?):(1)>\n"
        "tensor<ptr<f32, generic> o (?,?):(?{i64},1)>\n"
        "tensor<ptr<f32, generic> o (?):(1)>\n")
    with pytest.raises(cute.DSLUserCodeError, match=re.escape(
            "expects argument #1 (x) to be <class 'cutlass.cute.typing."
            "Tensor'>, but got <class 'torch.Tensor'>")):
        show(torch.zeros(2))

    @cute.jit
    def run(src: cute.Tensor):
        cute.print_tensor(src)

    run(from_dlpack(torch.zeros(2, 3)).mark_layout_dynamic())
    assert _ADDRESS.sub("0x?", capsys.readouterr().out) == (
        "tensor(raw_ptr(0x?: f32, generic, align<4>) o (2,3):(3,1), data=\n"
        "       [[ 0.000000,  0.000000,  0.000000, ],\n"
        "        [ 0.000000,  0.000000,  0.000000, ]])\n")


def _docs_tensors(torch):
    """framework_integration.rst's tensors: a (8,4,16,2):(2,16,64,1),
    b (1,4,1,32,1):(1,1,1,4,1) (DLPack's strides of size-1 dimensions are
    1), c (2,2):(8,2), d (3,4,2,5):(5,0,0,1)."""
    return {"a": torch.empty(16, 4, 8, 2).permute(2, 1, 0, 3),
            "b": torch.empty(32, 1, 1, 1, 4).permute(3, 4, 1, 0, 2),
            "c": torch.empty(3, 4)[::2, ::2],
            "d": torch.empty(3, 1, 1, 5).expand(3, 4, 2, 5),
            "ones": torch.ones(1, 1, 1)}


# (tensor, kwargs, the DSL's layout text or RuntimeError message)
MARK_LAYOUT_DYNAMIC = [
    ("a", {}, "(?,?,?,?):(?{i64},?{i64},?{i64},1)"),
    ("b", {"leading_dim": 0}, "(?,?,?,?,?):(1,?{i64},?{i64},?{i64},?{i64})"),
    ("b", {"leading_dim": 2}, "(?,?,?,?,?):(?{i64},?{i64},1,?{i64},?{i64})"),
    ("c", {}, "(?,?):(?{i64},?{i64})"),
    ("d", {}, "(?,?,?,?):(?{i64},0,0,1)"),
    ("b", {}, "(?,?,?,?,?):(?{i64},1,?{i64},?{i64},?{i64})"),
    ("a", {"leading_dim": -1}, "(?,?,?,?):(?{i64},?{i64},?{i64},1)"),
    ("ones", {}, "Can't deduce the leading dimension from layout (multiple "
     "dimensions have stride 1 but none has size > 1), please specify "
     "leading_dim explicitly."),
    ("a", {"leading_dim": 1}, "Expected strides[leading_dim] == 1, but got "
     "16."),
    ("b", {"leading_dim": 3}, "Expected strides[leading_dim] == 1, but got "
     "4."),
    ("a", {"leading_dim": 4}, "Expected leading_dim to be in range [0, 4) or "
     "[-4, -1], but got 4."),
]


@pytest.mark.parametrize("name,kwargs,want", MARK_LAYOUT_DYNAMIC)
def test_mark_layout_dynamic_as_the_dsl(name, kwargs, want):
    x = _docs_tensors(_torch())[name]
    if want.startswith("("):
        assert _masked(from_dlpack(x).mark_layout_dynamic(**kwargs)) == (
            "Tensor<0x?@generic o %s>" % want)
    else:
        with pytest.raises(RuntimeError, match="^%s$" % re.escape(want)):
            from_dlpack(x).mark_layout_dynamic(**kwargs)


def test_marks_combine_as_in_the_dsl():
    t = _docs_tensors(_torch())
    a = t["a"]
    assert _masked(from_dlpack(a, use_32bit_stride=True)
                   .mark_layout_dynamic()) == (
        "Tensor<0x?@generic o (?,?,?,?):(?,?,?,1)>")
    full = "Tensor<0x?@generic o (?,?,?,?):(?{i64},?{i64},?{i64},1)>"
    assert _masked(from_dlpack(a).mark_layout_dynamic()
                   .mark_layout_dynamic()) == full
    assert _masked(from_dlpack(a).mark_layout_dynamic()
                   .mark_compact_shape_dynamic(mode=0)) == full
    assert _masked(from_dlpack(a).mark_compact_shape_dynamic(mode=0)
                   .mark_layout_dynamic()) == full
    assert _masked(from_dlpack(a, use_32bit_stride=True)
                   .mark_compact_shape_dynamic(mode=0, divisibility=2)) == (
        "Tensor<0x?@generic o (?{div=2},4,16,2):(2,?{div=4},?{div=16},1)>")
    assert _masked(from_dlpack(a).mark_compact_shape_dynamic(
        mode=0, divisibility=2).mark_compact_shape_dynamic(
            mode=0, divisibility=4)) == (
        "Tensor<0x?@generic o (?{div=4},4,16,2):(2,?{i64 div=8},"
        "?{i64 div=32},1)>")
    y = from_dlpack(a).mark_layout_dynamic()
    assert (y.shape, y.stride) == ((8, 4, 16, 2), (2, 16, 64, 1))


# (tensor, marks [(kwargs), ...], the DSL's layout text or error)
MARK_COMPACT = [
    ("a", [{"mode": 0, "divisibility": 2}],
     "(?{div=2},4,16,2):(2,?{i64 div=4},?{i64 div=16},1)"),
    ("a", [{"mode": 1, "divisibility": 2}],
     "(8,?{div=2},16,2):(2,16,?{i64 div=32},1)"),
    ("a", [{"mode": 1, "divisibility": 2}, {"mode": 3, "divisibility": 2}],
     "(8,?{div=2},16,?{div=2}):(?{i64 div=2},?{i64 div=16},?{i64 div=32},1)"),
    ("b", [{"mode": 2, "stride_order": (3, 0, 2, 4, 1)}],
     "(1,4,?,32,1):(0,1,4,?{i64 div=4},0)"),
    ("b", [{"mode": 2, "stride_order": (2, 3, 4, 0, 1)}],
     "(1,4,?,32,1):(0,1,128,4,0)"),
    ("a", [{"mode": 0, "stride_order": (2, 1, 0, 3)}],
     "(?,4,16,2):(2,?{i64 div=2},?{i64 div=8},1)"),
    ("c", [{"mode": 0}], "(?,2):(2,1)"),
    ("d", [{"mode": 0}], "(?,4,2,5):(40,2,1,8)"),
    ("a", [{"mode": 1, "divisibility": 2}, {"mode": 3, "divisibility": 2},
           {"mode": 3, "divisibility": 5, "stride_order": (0, 1, 2, 3)}],
     "The stride_order is not consistent with the last stride_order."),
    ("a", [{"mode": 3, "divisibility": 5, "stride_order": (0, 1, 2, 3)}],
     "The stride_order is not consistent with the deduced stride_order."),
    ("b", [{"mode": 0, "divisibility": 4}], "The layout could not be "
     "deduced, please specify the stride_order explicitly."),
    ("b", [{"mode": 30, "divisibility": 5}],
     "Expected mode value to be in range [0, 5), but got 30."),
    ("a", [{"mode": -1}], "Expected mode value to be in range [0, 4), but "
     "got -1."),
    ("b", [{"mode": 3, "stride_order": (2, 1, 2, 3, 4)}], "Expected "
     "stride_order to contain all the dimensions of the tensor, but it "
     "doesn't contain 0."),
    ("b", [{"mode": 3, "stride_order": (0, 1, 2, 3, 4, 5)}],
     "Expected stride_order to have 5 elements, but got 6."),
    ("b", [{"mode": 0, "divisibility": 4, "stride_order": (3, 2, 4, 0, 1)}],
     "The shape(1) of mode(0) is not divisible by the divisibility(4)."),
    ("a", [{"mode": 0, "divisibility": 3}],
     "The shape(8) of mode(0) is not divisible by the divisibility(3)."),
    ("b", [{"mode": 0, "stride_order": (2, 1, 3, 0, 4)}],
     "The stride_order is not consistent with the layout"),
]


@pytest.mark.parametrize("name,marks,want", MARK_COMPACT)
def test_mark_compact_shape_dynamic_as_the_dsl(name, marks, want):
    t = from_dlpack(_docs_tensors(_torch())[name])
    if not want.startswith("("):
        for kwargs in marks[:-1]:
            t = t.mark_compact_shape_dynamic(**kwargs)
        with pytest.raises(RuntimeError, match="^%s$" % re.escape(want)):
            t.mark_compact_shape_dynamic(**marks[-1])
        return
    for kwargs in marks:
        t = t.mark_compact_shape_dynamic(**kwargs)
    assert _masked(t) == "Tensor<0x?@generic o %s>" % want


def test_a_marked_tensor_in_a_jit_function_computes_with_its_values(capsys):
    torch = _torch()
    x = torch.arange(8, dtype=torch.float32).reshape(4, 2)

    @cute.jit
    def f(t: cute.Tensor):
        print(t)
        cute.printf("{} {}", t[3, 1], cute.size(t))

    f(from_dlpack(x).mark_compact_shape_dynamic(mode=0, divisibility=2))
    assert capsys.readouterr().out == (
        "tensor<ptr<f32, generic> o (?{div=2},2):(2,1)>\n7.000000 8\n")


def test_cutlass_torch_dtype():
    torch = _torch()
    from hlolayout.cute_dsl.torch_interop import dtype
    assert [dtype(t) for t in (cute.Float16, cute.BFloat16, cute.Float32,
                               cute.TFloat32, cute.Float64, cute.Int8,
                               cute.Int16, cute.Int32, cute.Int64,
                               cute.Uint8, cute.Boolean, int)] == [
        torch.float16, torch.bfloat16, torch.float32, torch.float32,
        torch.float64, torch.int8, torch.int16, torch.int32, torch.int64,
        torch.uint8, torch.bool, torch.int32]
    for t in (cute.Uint16, cute.Uint32, cute.Uint64):
        with pytest.raises(TypeError, match="^%s is not supported by torch$"
                           % t.__name__):
            dtype(t)


def test_a_gather_through_a_composed_layout_of_a_tensor(capsys):
    # composed_layout.ipynb's gather: a Python function reading a tensor as
    # the inner layout; a pointer made from torch's data_ptr(); a
    # cute.Shape parameter stays static (range_constexpr over its size).
    torch = _torch()

    @cute.jit
    def gather(offsets: cute.Tensor, data: cute.Pointer, shape: cute.Shape):
        def inner(c):
            return offsets[c]

        g = cute.make_composed_layout(inner, 0, cute.make_layout(shape))
        for i in cute.range_constexpr(cute.size(shape)):
            cute.printf("%d -> %d", i, g(i))

    offsets = torch.tensor([5, 3, 9], dtype=torch.int32)
    data = torch.arange(16, dtype=torch.int32)
    gather(from_dlpack(offsets), make_ptr(cute.Int32, data.data_ptr(),
                                          cute.AddressSpace.generic), (3,))
    assert capsys.readouterr().out == "0 -> 5\n1 -> 3\n2 -> 9\n"


def test_an_identity_tensor(capsys):
    # tensor.ipynb's print_tensor_coord and tensor_access_item.
    @cute.jit
    def coords(a: cute.Tensor):
        c = cute.make_identity_tensor(a.layout.shape)
        print(c)
        cute.print_tensor(c)
        cute.printf("a[9] is a[{}]", c[9])

    coords(from_dlpack(np.zeros((8, 4), dtype=np.float32)))
    assert capsys.readouterr().out == (
        "tensor<(0,0) o (8,4):(1@0,1@1)>\n"
        "tensor((0,0) o (8,4):(1@0,1@1), data=\n"
        "       [[ (0,0),  (0,1),  (0,2),  (0,3), ],\n"
        "        [ (1,0),  (1,1),  (1,2),  (1,3), ],\n"
        "        [ (2,0),  (2,1),  (2,2),  (2,3), ],\n"
        "        ...\n"
        "        [ (5,0),  (5,1),  (5,2),  (5,3), ],\n"
        "        [ (6,0),  (6,1),  (6,2),  (6,3), ],\n"
        "        [ (7,0),  (7,1),  (7,2),  (7,3), ]])\n"
        "a[9] is a[(1,1)]\n")
    c = cute.make_identity_tensor((8, 4))
    assert c[(2, 3)] == (2, 3)
    with pytest.raises(ValueError, match="outside the tensor's shape"):
        c[32]
