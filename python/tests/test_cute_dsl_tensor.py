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
    assert str(from_dlpack(np.array(1.0, dtype=np.float32))) == (
        "tensor<ptr<f32, generic> o ():()>")


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
    from hlolayout.cute_dsl import math, runtime, tensor, tensor_ssa
    for module in (tensor, tensor_ssa, runtime, math):
        result = doctest.testmod(module, optionflags=(
            doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS))
        assert result.attempted > 0 and result.failed == 0, module.__name__
