"""TensorSSA, the value a tensor's `load()` gives: its elements, a shape
and an element type, computed with element by element (tensorssa.ipynb).

    >>> import numpy as np
    >>> from hlolayout import cute_dsl as cute
    >>> from hlolayout.cute_dsl.runtime import from_dlpack
    >>> @cute.jit
    ... def add(a: cute.Tensor):
    ...     v = a.load()
    ...     print(v)
    ...     cute.print_tensor(v + 1.0)
    >>> add(from_dlpack(np.zeros(2, dtype=np.float32)))
    tensor_value<vector<2xf32> o (2,)>
    tensor(raw_ptr(0x...: f32, rmem, align<32>) o (2):(1), data=
           [ 1.000000, ],
           [ 1.000000, ])

The rules, learned from what the DSL prints: arithmetic keeps the tensor's
type (a Python number adapts to it; an integer tensor with a float gives
Float32, as does `/` of integers); `//` is floor division, `%` the
remainder with the dividend's sign (C's fmod and srem); a comparison gives
Boolean elements (i1); shapes broadcast as NumPy's do ((1,3) + (4,1) is
(4,3)). Values are the element type's: NumPy computes in that type. A
TensorSSA prints as the DSL's trace shows it; `cute.print_tensor` shows it
as a column-major tensor of the function's memory.
"""

import enum

import numpy as np

from . import _algebra, _elements, _ints, _makers
from ._floats import FloatValue
from ._ints import DynInt
from ._numeric_types import Float16, Float32, Float64

__all__ = ["TensorSSA", "ReductionOp"]

_FLOATS = [Float16, Float32, Float64]


class ReductionOp(enum.Enum):
    """The reductions of TensorSSA.reduce."""
    ADD = "add"
    MUL = "mul"
    MAX = "max"
    MIN = "min"


_REDUCE = {ReductionOp.ADD: np.add, ReductionOp.MUL: np.multiply,
           ReductionOp.MAX: np.maximum, ReductionOp.MIN: np.minimum}


class TensorSSA:
    """Elements (`values`, a NumPy array over the top-level modes, read
    column-major), the `shape` (a tuple of the modes' shapes) and the
    element type `dtype`."""

    def __init__(self, values, shape, dtype):
        self.values = np.asarray(values, dtype=_elements.numpy_type(dtype))
        self.shape = tuple(shape)
        self.dtype = dtype

    element_type = property(lambda self: self.dtype)

    def __str__(self):
        return "tensor_value<vector<%dx%s> o %s>" % (
            self.values.size, self.dtype.mlir, self.shape)

    __repr__ = __str__

    def to(self, dtype):
        """The elements converted to `dtype`."""
        return TensorSSA(self.values.astype(_elements.numpy_type(dtype)),
                         self.shape, dtype)

    def __getitem__(self, index):
        if not isinstance(index, tuple):
            flat = self.values.reshape(-1, order="F")
            return _elements.scalar(flat[_elements.int_value(index)],
                                    self.dtype)
        if len(index) != len(self.shape):
            raise ValueError("a TensorSSA of shape %s indexed by %s" %
                             (self.shape, index))
        picks, kept = [], []
        for c, s in zip(index, self.shape):
            if c is None:
                picks.append(slice(None))
                kept.append(s)
            else:
                picks.append(_mode_index(c, s))
        picked = self.values[tuple(picks)]
        if not kept:
            return _elements.scalar(picked, self.dtype)
        return TensorSSA(picked, tuple(kept), self.dtype)

    def broadcast_to(self, shape):
        """The elements repeated along the modes of extent 1 to `shape`."""
        shape = tuple(shape)
        return TensorSSA(np.broadcast_to(self.values, _sizes(shape)).copy(),
                         shape, self.dtype)

    def reduce(self, op, init_val, reduction_profile=0):
        """`op` over the modes the profile marks 1 (0: every element, a
        scalar), from `init_val`, one element after the other."""
        if op not in _REDUCE:
            raise TypeError("reduce expects a cute.ReductionOp, got %r" %
                            (op,))
        ufunc = _REDUCE[op]
        np_type = self.values.dtype
        if reduction_profile == 0:
            flat = self.values.reshape(-1, order="F")
            acc = np.array(_elements.run_value(init_val, np_type))
            for v in flat:
                acc = ufunc(acc, v).astype(np_type)
            return _elements.scalar(acc, self.dtype)
        profile = tuple(reduction_profile)
        if len(profile) != len(self.shape):
            raise ValueError("reduction_profile %s does not match the shape "
                             "%s" % (profile, self.shape))
        axes = [i for i, p in enumerate(profile) if p is not None]
        kept = [i for i, p in enumerate(profile) if p is None]
        moved = np.transpose(self.values, axes + kept)
        rest = moved.shape[len(axes):]
        acc = np.full(rest, _elements.run_value(init_val, np_type), np_type)
        for v in moved.reshape((-1,) + rest, order="F"):
            acc = ufunc(acc, v).astype(np_type)
        return TensorSSA(acc, tuple(self.shape[i] for i in kept), self.dtype)

    def __neg__(self):
        return TensorSSA(-self.values, self.shape, self.dtype)


def _sizes(shape):
    return _elements.flat_sizes(shape)


def _mode_index(c, s):
    """The column-major index within a mode of shape s of coordinate c."""
    if isinstance(c, tuple):
        return _elements.int_value(_algebra.crd2idx(c,
                                                    _makers.make_layout(s)))
    return _elements.int_value(c)


def _operand(x):
    """(NumPy values or a number, DSL type or None for a Python number,
    shape or None)."""
    if isinstance(x, TensorSSA):
        return x.values, x.dtype, x.shape
    if isinstance(x, FloatValue):
        return x.run_value(), type(x).type_name, None
    if isinstance(x, DynInt):
        return x.value, None, None
    if isinstance(x, (int, float)) and not isinstance(x, bool):
        return x, None, None
    raise TypeError("a TensorSSA combines with a TensorSSA or a number, not "
                    "%s" % type(x).__name__)


def _result_type(op, types, numbers):
    """The element type of a op b (the operands' DSL types, and whether a
    Python float takes part)."""
    names = [t if isinstance(t, str) else t.name for t in types if t]
    floats = [t for t in _FLOATS if t.name in names]
    if floats:
        return max(floats, key=_FLOATS.index)
    if op == "truediv" or any(isinstance(n, float) for n in numbers):
        return Float32
    ints = [t for t in types if t and not isinstance(t, str)]
    return max(ints, key=lambda t: t.width) if ints else _ints.Int32


_ARITH = {"add": np.add, "sub": np.subtract, "mul": np.multiply,
          "truediv": np.true_divide, "floordiv": np.floor_divide,
          "mod": np.fmod, "xor": np.bitwise_xor, "or": np.bitwise_or,
          "and": np.bitwise_and}
_COMPARE = {"gt": np.greater, "ge": np.greater_equal, "lt": np.less,
            "le": np.less_equal, "eq": np.equal, "ne": np.not_equal}


def _binary(op, a, b):
    va, ta, sa = _operand(a)
    vb, tb, sb = _operand(b)
    result = _result_type(op, (ta, tb), [v for v, t in ((va, ta), (vb, tb))
                                         if t is None])
    np_type = _elements.numpy_type(result)
    xa = np.asarray(va).astype(np_type)
    xb = np.asarray(vb).astype(np_type)
    if sa is not None and sb is not None and sa != sb:
        shape = tuple(int(n) for n in np.broadcast_shapes(xa.shape,
                                                          xb.shape))
    else:
        shape = sa if sa is not None else sb
    with np.errstate(all="ignore"):
        if op in _COMPARE:
            return TensorSSA(_COMPARE[op](xa, xb), shape, _ints.Boolean)
        if op in ("xor", "or", "and") and result.is_float:
            raise TypeError("%s of float elements" % op)
        out = _ARITH[op](xa, xb).astype(np_type)
    return TensorSSA(out, shape, result)


def _install():
    for op in list(_ARITH) + list(_COMPARE):
        setattr(TensorSSA, "__%s__" % op,
                lambda a, b, op=op: _binary(op, a, b))
        if op in _ARITH:
            setattr(TensorSSA, "__r%s__" % op,
                    lambda a, b, op=op: _binary(op, b, a))
    TensorSSA.__hash__ = None


_install()
