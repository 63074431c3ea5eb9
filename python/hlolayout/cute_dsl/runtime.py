"""The DSL's `cutlass.cute.runtime` for host memory: `from_dlpack` makes a
tensor over a DLPack array's memory (a NumPy array, a PyTorch CPU tensor:
any object with `__dlpack__` NumPy can read), shared: what the jit
function stores, the array holds.

    >>> import numpy as np
    >>> from hlolayout.cute_dsl.runtime import from_dlpack
    >>> t = from_dlpack(np.zeros((2, 3), dtype=np.float32))
    >>> print(t)  # doctest: +ELLIPSIS
    Tensor<0x...@generic o (2,3):(3,1)>
    >>> print(t.mark_layout_dynamic())  # doctest: +ELLIPSIS
    Tensor<0x...@generic o (?,?):(?{i64},1)>

The layout is the array's shape and strides (in elements), static until
marked dynamic (RuntimeTensor); the pointer's alignment the element's size
unless `assumed_align` says more. A jit function receives the Tensor of
that layout (`tensor<ptr<f32, generic> o (2,3):(3,1)>`). The array is
exported through DLPack as the DSL does, so what NumPy refuses to export
(a bool array: BufferError) the twin refuses the same.
"""

import enum

import numpy as np

from . import _elements
from . import tensor as _tensor
from ._objects import Layout

__all__ = ["from_dlpack", "make_ptr", "RuntimeTensor", "AddressSpace"]


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
    return _elements.memory_at(array.ctypes.data + low * item,
                               high - low + 1, array.dtype, owner), -low


class AddressSpace(enum.Enum):
    """Where a pointer points (cute.AddressSpace): make_ptr's mem_space,
    printed by its name (`ptr<f32, generic>`)."""
    generic = "generic"
    gmem = "gmem"
    smem = "smem"
    rmem = "rmem"
    tmem = "tmem"


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
    np_type = _elements.numpy_type(dtype)
    align = assumed_align or (1 if dtype is _ints.Boolean
                              else dtype.width // 8)
    return _tensor.Pointer(None, 0, dtype, space, align, address=value,
                           np_type=np_type)


def from_dlpack(tensor, assumed_align=None, use_32bit_stride=False,
                **kwargs):
    """A RuntimeTensor over the memory of `tensor` (an object with
    __dlpack__: a NumPy array, a PyTorch CPU tensor), static layout."""
    if not hasattr(tensor, "__dlpack__"):
        raise TypeError("from_dlpack expects an object with __dlpack__, got "
                        "%s" % type(tensor).__name__)
    array = np.from_dlpack(tensor)
    dtype = _elements.dsl_type(array.dtype)
    if assumed_align is None:
        assumed_align = array.itemsize
    if not isinstance(assumed_align, int) or assumed_align <= 0 or (
            assumed_align & (assumed_align - 1)):
        raise ValueError("from_dlpack: assumed_align must be a power of two, "
                         "got %r" % (assumed_align,))
    item = array.itemsize
    shape = tuple(int(n) for n in array.shape)
    stride = tuple(int(s) // item for s in array.strides)
    memory, first = _memory(array, tensor)
    pointer = _tensor.Pointer(memory, first, dtype, "generic", assumed_align)
    return RuntimeTensor(pointer, shape, stride, bool(use_32bit_stride))


class RuntimeTensor(_tensor.Tensor):
    """What from_dlpack returns: a tensor the host program holds, of the
    array's shape and strides. It prints with its address,
    `Tensor<0x...@generic o (30,20):(20,1)>`; `shape` and `stride` are the
    array's (Python integers, whatever is marked dynamic). Passed to a jit
    function it is the Tensor of its layout, static or as marked:

    - mark_layout_dynamic(leading_dim=None): every shape dynamic, every
      stride too but the leading dimension's 1 and the 0 strides;
    - mark_compact_shape_dynamic(mode, stride_order=None, divisibility=1):
      the shape of `mode` dynamic (of that divisibility), the strides
      those of a compact layout in `stride_order`.

    Dynamic strides are Int64 (`?{i64}`) unless use_32bit_stride. Both
    return the tensor, marked."""

    def __init__(self, pointer, shape, stride, use_32bit_stride):
        super().__init__(pointer, Layout(shape, stride))
        self._dims = (shape, stride)
        self._stride_bits = 32 if use_32bit_stride else 64
        self._order = None  # the stride order of the last compact mark
        self._dynamic = {}  # {mode: divisibility} of compact marks
        self._all_dynamic = False

    shape = property(lambda self: self._dims[0])
    stride = property(lambda self: self._dims[1])

    def __str__(self):
        return "Tensor<0x%016x@%s o %s>" % (self.iterator.address(),
                                           self.memspace, self.layout)

    __repr__ = __str__

    def traced(self):
        """The tensor a jit function receives."""
        return _tensor.Tensor(self.iterator, self.layout)

    def mark_layout_dynamic(self, leading_dim=None):
        shape, stride = self._dims
        n = len(shape)
        if leading_dim is None:
            leading_dim = _leading_dim(shape, stride)
        elif not -n <= leading_dim < n:
            raise RuntimeError("Expected leading_dim to be in range [0, %d) "
                               "or [-%d, -1], but got %d." % (n, n,
                                                              leading_dim))
        elif stride[leading_dim % n] != 1:
            raise RuntimeError("Expected strides[leading_dim] == 1, but got "
                               "%d." % stride[leading_dim % n])
        lead = None if leading_dim is None else leading_dim % n
        new_stride = tuple(
            s if i == lead or s == 0 else _dyn_value(s, 1, self._stride_bits)
            for i, s in enumerate(stride))
        new_shape = tuple(_dyn_value(e, 1, 32) for e in shape)
        self._all_dynamic = True
        self.layout = Layout(new_shape, new_stride)
        return self

    def mark_compact_shape_dynamic(self, mode, stride_order=None,
                                   divisibility=1):
        shape, stride = self._dims
        n = len(shape)
        if not 0 <= mode < n:
            raise RuntimeError("Expected mode value to be in range [0, %d), "
                               "but got %d." % (n, mode))
        order = _stride_order(shape, stride, stride_order, self._order)
        if shape[mode] % divisibility:
            raise RuntimeError("The shape(%d) of mode(%d) is not divisible "
                               "by the divisibility(%d)." % (
                                   shape[mode], mode, divisibility))
        self._order = order
        self._dynamic[mode] = divisibility
        if not self._all_dynamic:
            self.layout = _compact(shape, order, self._dynamic,
                                   self._stride_bits)
        return self


def _dyn_value(value, div, width):
    """A dynamic integer of `value`, divisibility and width."""
    from ._ints import DynInt
    return DynInt(value, div, width)


def _leading_dim(shape, stride):
    """The dimension of stride 1 (of the ones of stride 1, the one of
    size > 1); None when no stride is 1."""
    ones = [i for i, s in enumerate(stride) if s == 1]
    if len(ones) == 1:
        return ones[0]
    if not ones:
        return None
    big = [i for i in ones if shape[i] > 1]
    if len(big) != 1:
        raise RuntimeError(
            "Can't deduce the leading dimension from layout (multiple "
            "dimensions have stride 1 but none has size > 1), please specify "
            "leading_dim explicitly." if not big else
            "Can't deduce the leading dimension from layout (multiple "
            "dimensions have stride 1 and size > 1), please specify "
            "leading_dim explicitly.")
    return big[0]


def _stride_order(shape, stride, given, last):
    """The dimensions from the outermost to the innermost: `given`,
    checked, or deduced (descending strides; more than one stride 1
    cannot be ordered)."""
    n = len(shape)
    deduced = None
    if sum(1 for s in stride if s == 1) <= 1:
        deduced = tuple(sorted(range(n), key=lambda i: -stride[i]))
    if given is None:
        if last is not None:
            return last
        if deduced is None:
            raise RuntimeError("The layout could not be deduced, please "
                               "specify the stride_order explicitly.")
        return deduced
    given = tuple(given)
    for d in range(n):
        if d not in given:
            raise RuntimeError("Expected stride_order to contain all the "
                               "dimensions of the tensor, but it doesn't "
                               "contain %d." % d)
    if len(given) != n:
        raise RuntimeError("Expected stride_order to have %d elements, but "
                           "got %d." % (n, len(given)))
    if last is not None and given != last:
        raise RuntimeError("The stride_order is not consistent with the "
                           "last stride_order.")
    if deduced is not None and given != deduced:
        raise RuntimeError("The stride_order is not consistent with the "
                           "deduced stride_order.")
    expected = 1
    for d in reversed(given):
        if shape[d] > 1:
            if stride[d] != expected:
                raise RuntimeError("The stride_order is not consistent with "
                                   "the layout")
            expected *= shape[d]
    return given


def _compact(shape, order, dynamic, stride_bits):
    """The compact layout of `shape` in `order` (outermost first), the
    modes of `dynamic` ({mode: divisibility}) dynamic: a stride is
    dynamic when a dimension inside it is, of the product of their sizes
    and divisibilities; a dimension of size 1 has stride 0."""
    new_shape = tuple(_dyn_value(e, dynamic[i], 32) if i in dynamic else e
                      for i, e in enumerate(shape))
    new_stride = [0] * len(shape)
    value, div, static = 1, 1, True
    for d in reversed(order):
        if shape[d] != 1 or d in dynamic:
            new_stride[d] = value if static else _dyn_value(
                value, div, stride_bits)
        value *= shape[d]
        div *= dynamic.get(d, shape[d])
        static = static and d not in dynamic
    return Layout(new_shape, tuple(new_stride))
