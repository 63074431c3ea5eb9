"""The DSL's `cutlass.cute.runtime` for host memory: `from_dlpack` makes a
tensor over a DLPack array's memory (a NumPy array; any object with
`__dlpack__` NumPy can read), shared: what the jit function stores, the
array holds.

    >>> import numpy as np
    >>> from hlolayout.cute_dsl.runtime import from_dlpack
    >>> print(from_dlpack(np.zeros((2, 3), dtype=np.float32)))
    tensor<ptr<f32, generic> o (2,3):(3,1)>

The layout is the array's shape and strides (in elements), static; the
pointer's alignment the element's size unless `assumed_align` says more.
The array is exported through DLPack as the DSL does, so what NumPy
refuses to export (a bool array: BufferError) the twin refuses the same.
"""

import numpy as np

from . import tensor as _tensor
from ._objects import Layout

__all__ = ["from_dlpack", "make_ptr"]


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


def _memory(array, owner):
    """(a writable 1-D view of the elements the array spans, the index of
    its first element in it): NumPy's DLPack import is read-only, the
    memory is not. A negative stride reaches below the first element."""
    item = array.itemsize
    if any(s % item for s in array.strides):
        raise ValueError("from_dlpack: the twin takes arrays of whole-element "
                         "strides, got strides %s" % (array.strides,))
    reach = [(n - 1) * s // item for n, s in zip(array.shape,
                                                 array.strides)] \
        if array.size else []
    low = sum(r for r in reach if r < 0)
    high = sum(r for r in reach if r > 0)
    return memory_at(array.ctypes.data + low * item, high - low + 1,
                     array.dtype, owner), -low


def make_ptr(dtype, value, mem_space=None, assumed_align=None):
    """A pointer of element type `dtype` at the address `value` (an int,
    or a ctypes pointer): the DSL's runtime.make_ptr. Its memory is read
    when a tensor is made over it (make_tensor), as far as the layout
    reaches."""
    import ctypes
    from . import _ints
    if isinstance(value, ctypes._Pointer) or isinstance(value,
                                                        ctypes.c_void_p):
        value = ctypes.cast(value, ctypes.c_void_p).value or 0
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise TypeError("make_ptr expects a non-null address, got %r" %
                        (value,))
    space = "generic" if mem_space is None else str(
        getattr(mem_space, "name", mem_space))
    np_type = _tensor.numpy_type(dtype)
    align = assumed_align or (1 if dtype is _ints.Boolean
                              else dtype.width // 8)
    return _tensor.Pointer(None, 0, dtype, space, align, address=value,
                           np_type=np_type)


def from_dlpack(tensor, assumed_align=None, **kwargs):
    """A Tensor over the memory of `tensor` (an object with __dlpack__)."""
    if not hasattr(tensor, "__dlpack__"):
        raise TypeError("from_dlpack expects an object with __dlpack__, got "
                        "%s" % type(tensor).__name__)
    array = np.from_dlpack(tensor)
    dtype = _tensor.dsl_type(array.dtype)
    if assumed_align is None:
        assumed_align = array.itemsize
    if not isinstance(assumed_align, int) or assumed_align <= 0 or (
            assumed_align & (assumed_align - 1)):
        raise ValueError("from_dlpack: assumed_align must be a power of two, "
                         "got %r" % (assumed_align,))
    item = array.itemsize
    shape = tuple(int(n) for n in array.shape)
    stride = tuple(int(s) // item for s in array.strides)
    layout = Layout(shape, stride)
    memory, first = _memory(array, tensor)
    pointer = _tensor.Pointer(memory, first, dtype, "generic", assumed_align)
    return _tensor.Tensor(pointer, layout)
