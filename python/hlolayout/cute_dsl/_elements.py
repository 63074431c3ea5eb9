"""The elements of the twin's tensors in host memory, as tensors
(tensor.py), TensorSSA values (tensor_ssa.py) and the runtime's pointers
(runtime.py) all hold them: the NumPy type of each DSL type, an integer's
value, the value a run stores, the scalar a read gives, host memory at an
address. A module below the three, so that each imports it and none
imports another back.
"""

import numpy as np

from . import _algebra, _floats, _ints
from ._floats import FloatValue
from ._ints import DynInt
from ._numeric_types import Float16, Float32, Float64
from ._objects import Layout

__all__ = []

_FROM_NUMPY = {
    "float16": Float16, "float32": Float32, "float64": Float64,
    "int8": _ints.Int8, "int16": _ints.Int16, "int32": _ints.Int32,
    "int64": _ints.Int64, "uint8": _ints.Uint8, "uint16": _ints.Uint16,
    "uint32": _ints.Uint32, "uint64": _ints.Uint64, "bool": _ints.Boolean,
}


def numpy_type(dtype):
    """The NumPy element type that holds values of the DSL type `dtype`
    (Boolean: NumPy's bool)."""
    for name, t in _FROM_NUMPY.items():
        if t is dtype:
            return np.dtype(name)
    raise TypeError("the twin's tensors hold Float16/32/64 and integer "
                    "elements, not %s" % getattr(dtype, "name", dtype))


def dsl_type(np_dtype):
    """The DSL type of a NumPy element type."""
    t = _FROM_NUMPY.get(np.dtype(np_dtype).name)
    if t is None:
        raise TypeError("from_dlpack: no DSL type for NumPy's %s" %
                        np.dtype(np_dtype).name)
    return t


def storage_text(dtype):
    """The element type a pointer prints: a Boolean is stored as i8."""
    return "i8" if dtype is _ints.Boolean else dtype.mlir


def element_bytes(dtype):
    return 1 if dtype is _ints.Boolean else dtype.width // 8


def int_value(x):
    """A static or dynamic integer's value."""
    if isinstance(x, DynInt):
        return x.value
    if isinstance(x, (bool, np.bool_)) or not isinstance(
            x, (int, np.integer)):
        raise TypeError("expected an integer coordinate, got %s" %
                        type(x).__name__)
    return int(x)


def flat_sizes(shape):
    return tuple(int_value(_algebra.size(Layout(s, 0))) for s in shape)


def run_value(value, np_dtype):
    """The value a run stores: a number, or a DSL scalar's run value."""
    if isinstance(value, FloatValue):
        value = value.run_value()
    elif isinstance(value, DynInt):
        value = value.value
    if not isinstance(value, (int, float, bool, np.number, np.bool_)):
        raise TypeError("expected a number, got %s" % type(value).__name__)
    if np_dtype.kind == "b":
        return bool(value)
    if np_dtype.kind in "iu":
        return np.array(int(value)).astype(np_dtype)
    return np_dtype.type(value)


def scalar(value, dtype):
    """A value read at run time, as the trace holds it: a dynamic
    integer or float of the element type (`print` shows `?`)."""
    if dtype is _ints.Boolean:
        return DynInt(int(bool(value)), 1, 1, False, "Boolean")
    if dtype.is_float:
        return _floats.make(dtype.name, float(value), known=False)
    if dtype.width in (32, 64):
        return DynInt(int(value), 1, dtype.width, False,
                      None if dtype.name == "Int32" else dtype.name)
    return DynInt(int(value), 1, 32, False, None)


def memory_at(address, count, np_dtype, owner=None):
    """A writable 1-D NumPy array of `count` elements at `address` (memory
    the caller vouches for, as the DSL trusts a pointer); `owner` is kept
    alive with it."""
    import ctypes
    nbytes = max(int(count), 1) * np.dtype(np_dtype).itemsize
    raw = (ctypes.c_byte * nbytes).from_address(int(address))
    out = np.frombuffer(raw, dtype=np_dtype)
    out_owner = [raw, owner]
    return _Kept(out, out_owner)


class _Kept(np.ndarray):
    """A NumPy array that keeps the objects its memory belongs to."""

    def __new__(cls, array, owners):
        obj = array.view(cls)
        obj._owners = owners
        return obj

    def __array_finalize__(self, obj):
        self._owners = getattr(obj, "_owners", None)
