"""Tensors of the twin, host-side: a pointer into host memory and a layout,
as the CuTe DSL's `cute.Tensor` runs on the CPU (a `@cute.jit` host
function; only kernel launches need a GPU).

    >>> import numpy as np
    >>> from hlolayout import cute_dsl as cute
    >>> from hlolayout.cute_dsl.runtime import from_dlpack
    >>> @cute.jit
    ... def show(x: cute.Tensor):
    ...     print(x)
    ...     cute.print_tensor(x[None, 0])
    >>> show(from_dlpack(np.arange(6, dtype=np.float32).reshape(2, 3)))
    tensor<ptr<f32, generic> o (2,3):(3,1)>
    tensor(raw_ptr(0x...: f32, generic, align<4>) o (2):(3), data=
           [ 0.000000, ],
           [ 3.000000, ])

A tensor's element at coordinate c is `memory[offset + layout(c)]`; the
memory is a NumPy array's (from_dlpack shares it: a store is seen by the
array) or the twin's own (make_rmem_tensor, "rmem"). `load()` gives a
TensorSSA (tensor_ssa.py), a value the program computes with. `print`
shows what the DSL's trace prints; `print_tensor` what its run prints
(held, as `cute.printf`, until the jit function returns).
"""

import functools

import numpy as np

from . import _algebra, _ints, _makers, _printf, _slices, _tuples
from ._atoms import DSLUserCodeError
from ._elements import (element_bytes, flat_sizes, memory_at, numpy_type,
                        run_value, scalar, storage_text)
from ._elements import int_value as _int
from ._objects import Layout
from .tensor_ssa import TensorSSA

__all__ = ["Pointer", "Tensor", "IdentityTensor", "make_tensor",
           "make_identity_tensor", "make_rmem_tensor", "print_tensor"]

class Pointer:
    """A typed pointer into host memory: `memory` (a 1-D NumPy array),
    the element `offset` in it, the address space ("generic" for memory
    from the host program, "rmem" for the jit function's own) and the
    alignment in bytes."""

    def __init__(self, memory, offset, dtype, memspace, align, address=None,
                 np_type=None):
        self.memory = memory  # None: a raw address (runtime.make_ptr)
        self.offset = int(offset)
        self.dtype = dtype
        self.memspace = memspace
        self.alignment = int(align)
        self._address = address
        self._np_type = np_type

    def reach(self, count):
        """The pointer over memory of at least `count` elements (a raw
        address gets a view of that many)."""
        if self.memory is not None:
            return self
        return Pointer(memory_at(self._address, count, self._np_type), 0,
                       self.dtype, self.memspace, self.alignment)

    @property
    def value_type(self):
        return self.dtype

    def __add__(self, n):
        if self.memory is None:
            return Pointer(None, 0, self.dtype, self.memspace,
                           self.alignment, self._address + _int(n) *
                           self._np_type.itemsize, self._np_type)
        return Pointer(self.memory, self.offset + _int(n), self.dtype,
                       self.memspace, self.alignment)

    def address(self):
        if self.memory is None:
            return self._address
        return self.memory.ctypes.data + self.offset * self.memory.itemsize

    def __str__(self):
        # The DSL shows the alignment where it exceeds the element's.
        align = (", align<%d>" % self.alignment
                 if self.alignment > element_bytes(self.dtype) else "")
        return "ptr<%s, %s%s>" % (storage_text(self.dtype), self.memspace,
                                  align)

    def raw_text(self):
        """The pointer as the run prints it, with its address."""
        return "raw_ptr(0x%016x: %s, %s, align<%d>)" % (
            self.address(), storage_text(self.dtype), self.memspace,
            self.alignment)


def _static(t):
    """An integer tuple with dynamic leaves replaced by their values."""
    if isinstance(t, tuple):
        return tuple(_static(e) for e in t)
    return t if t is None else _int(t)


def _offsets(layout):
    """layout(i) for every i of its domain, colexicographic (NumPy)."""
    n = _int(_algebra.size(layout))
    return np.array([_int(_algebra.crd2idx(i, layout)) for i in range(n)],
                    dtype=np.int64)


def mode_sizes(layout):
    """The size of each top-level mode (one for a rank-1 layout)."""
    sh = layout.sh if isinstance(layout.sh, tuple) else (layout.sh,)
    return tuple(_int(_algebra.size(Layout(s, 0))) for s in sh)


class Tensor:
    """`iterator` (a Pointer) and `layout`: the DSL's cute.Tensor."""

    def __init__(self, iterator, layout):
        if not isinstance(iterator, Pointer):
            raise TypeError("make_tensor expects a pointer, got %s" %
                            type(iterator).__name__)
        if not isinstance(layout, Layout):
            raise TypeError("make_tensor expects a Layout, got %s" %
                            type(layout).__name__)
        if iterator.memory is None:
            n = _int(_algebra.cosize(layout)) if _int(
                _algebra.size(layout)) else 0
            iterator = iterator.reach(iterator.offset + n)
        self.iterator = iterator
        self.layout = layout
        _check_bounds(self)

    element_type = property(lambda self: self.iterator.dtype)
    memspace = property(lambda self: self.iterator.memspace)
    shape = property(lambda self: self.layout.shape)
    stride = property(lambda self: self.layout.stride)

    def __str__(self):
        return "tensor<%s o %s>" % (self.iterator, self.layout)

    __repr__ = __str__

    def _index(self, coord):
        """The memory index of a full coordinate (an integer is a
        colexicographic index into the whole tensor)."""
        coord = _static(coord)
        if not _in_shape(coord, _static(self.layout.sh)):
            raise ValueError("coordinate %s is outside the tensor's shape %s"
                             % (coord, _static(self.layout.sh)))
        return self.iterator.offset + _int(_algebra.crd2idx(coord,
                                                            self.layout))

    def __getitem__(self, coord):
        if _has_none(coord):
            sliced, offset = _slices.slice_and_offset(_static(coord),
                                                      self.layout)
            return Tensor(self.iterator + offset, sliced)
        return scalar(self.iterator.memory[self._index(coord)],
                      self.element_type)

    def __setitem__(self, coord, value):
        if _has_none(coord):
            raise TypeError("assigning to a slice: store a TensorSSA into "
                            "it (tensor[...].store(v))")
        memory = self.iterator.memory
        memory[self._index(coord)] = run_value(value, memory.dtype)

    def _indices(self):
        return self.iterator.offset + _offsets(self.layout)

    def fill(self, value):
        """Every element := value."""
        memory = self.iterator.memory
        memory[self._indices()] = run_value(value, memory.dtype)

    def load(self):
        """The elements as a TensorSSA of the tensor's shape."""
        values = self.iterator.memory[self._indices()]
        return TensorSSA(values.reshape(mode_sizes(self.layout), order="F"),
                         _tuples_python(self.layout.sh), self.element_type)

    def store(self, value):
        """The elements := a TensorSSA's of the same shape."""
        if not isinstance(value, TensorSSA):
            raise TypeError("store expects a TensorSSA, got %s" %
                            type(value).__name__)
        mine = _tuples_python(self.layout.sh)
        if flat_sizes(value.shape) != flat_sizes(mine):
            raise ValueError("lhs and rhs must have the same shape, but got "
                             "%s and %s" % (mine, value.shape))
        memory = self.iterator.memory
        flat = value.values.reshape(-1, order="F")
        memory[self._indices()] = flat.astype(memory.dtype)


def _in_shape(coord, shape):
    """Whether coord (an integer: an index into the whole of a mode) lies
    in shape."""
    if not isinstance(coord, tuple):
        return 0 <= coord < _int(_algebra.size(Layout(shape, 0)))
    if not isinstance(shape, tuple) or len(coord) != len(shape):
        return False
    return all(_in_shape(c, s) for c, s in zip(coord, shape))


def _has_none(coord):
    if coord is None:
        return True
    if isinstance(coord, tuple):
        return any(_has_none(c) for c in coord)
    return False


def _tuples_python(sh):
    """A layout's shape as a Python tuple of ints (a rank-1 one too)."""
    s = _static(sh)
    return s if isinstance(s, tuple) else (s,)


def _check_bounds(t):
    """A tensor never reaches outside its memory."""
    if _int(_algebra.size(t.layout)) == 0:
        return
    idx = t._indices()
    n = t.iterator.memory.shape[0]
    if idx.min() < 0 or idx.max() >= n:
        raise ValueError("make_tensor: the layout %s reaches element %d of "
                         "a memory of %d elements" % (t.layout, idx.max()
                                                      if idx.max() >= n
                                                      else idx.min(), n))


def make_tensor(iterator, layout):
    """A tensor of `layout` (a shape: column-major) over `iterator`."""
    if not isinstance(layout, Layout):
        layout = _makers.make_layout(layout)
    return Tensor(iterator, layout)


class IdentityTensor:
    """The DSL's identity tensor (make_identity_tensor): its element at a
    coordinate is that coordinate; it starts at the origin `(0,0)` and its
    layout is the identity layout of the shape, `(8,4):(1@0,1@1)`."""

    def __init__(self, shape):
        self.layout = _makers.make_identity_layout(shape)
        rank = len(shape) if isinstance(shape, tuple) else 1
        self.origin = (0,) * rank if rank > 1 else 0

    shape = property(lambda self: self.layout.shape)

    def __str__(self):
        return "tensor<%s o %s>" % (_tuples.text(self.origin, str),
                                    self.layout)

    __repr__ = __str__

    def __getitem__(self, coord):
        """The coordinate at `coord` (a full coordinate, or an integer:
        a colexicographic index into the whole shape)."""
        if _has_none(coord):
            raise TypeError("the twin slices no identity tensor: index it "
                            "with a full coordinate")
        static = _static(coord)
        if not _in_shape(static, _static(self.layout.sh)):
            raise ValueError("coordinate %s is outside the tensor's shape %s"
                             % (static, _static(self.layout.sh)))
        return _algebra.crd2idx(coord, self.layout)

    def texts(self):
        """Every element's text as print_tensor shows it, colexicographic."""
        n = _int(_algebra.size(self.layout))
        return [" " + _tuples.text(_static(_algebra.crd2idx(i, self.layout)),
                                   str) for i in range(n)]


def make_identity_tensor(shape):
    """The identity tensor of `shape` (IdentityTensor)."""
    return IdentityTensor(shape)


def make_rmem_tensor(layout_or_shape, dtype):
    """A tensor in the function's own memory ("rmem", 32-byte aligned):
    a layout kept as given, a shape made column-major."""
    layout = layout_or_shape
    if not isinstance(layout, Layout):
        layout = _makers.make_layout(layout_or_shape)
    np_dtype = numpy_type(dtype)
    n = _int(_algebra.cosize(layout)) if _int(_algebra.size(layout)) else 0
    memory = np.zeros(max(n, 1), dtype=np_dtype)
    return Tensor(Pointer(memory, 0, dtype, "rmem", 32), layout)


def check_argument(position, name, value):
    """A jit function's `cute.Tensor` parameter takes a Tensor only (the
    DSL refuses a NumPy array there: ARG_ANNOTATION_MISMATCH)."""
    if not isinstance(value, Tensor):
        raise DSLUserCodeError(
            "error[ARG_ANNOTATION_MISMATCH]: expects argument #%d (%s) to be "
            "<class 'cutlass.cute.typing.Tensor'>, but got %r" %
            (position, name, type(value)))


def on_layout(fn):
    """`fn` of a layout, for a tensor too: the tensor of fn(its layout)
    over the same memory (zipped_divide(tensor, tiler), ...)."""
    @functools.wraps(fn)
    def wrapper(target, *args, **kwargs):
        if isinstance(target, Tensor):
            return Tensor(target.iterator, fn(target.layout, *args,
                                              **kwargs))
        return fn(target, *args, **kwargs)
    return wrapper


def of_layout(fn):
    """`fn` of a layout, for a tensor too: fn(its layout) (size, rank)."""
    @functools.wraps(fn)
    def wrapper(target, *args, **kwargs):
        if isinstance(target, Tensor):
            target = target.layout
        return fn(target, *args, **kwargs)
    return wrapper


def slice_(fn):
    """cute.slice_ for a tensor too: its slice (tensor[coord])."""
    @functools.wraps(fn)
    def wrapper(src, coord):
        if isinstance(src, Tensor):
            return src[coord]
        return fn(src, coord)
    return wrapper


# print_tensor ---------------------------------------------------------------

_INDENT = " " * 7
_SHOWN = 6  # a mode of more elements shows its first and last 3


def _element_text(v, dtype):
    if dtype is _ints.Boolean:
        return "% d" % (-1 if v else 0)  # i1 printed as a sign-extended i8
    if dtype.is_float:
        # A blank before a value >= 0 (-0.0 too: " -0.000000"), then C's %f
        # (a NaN prints its sign: "nan", "-nan").
        v = float(v)
        if v != v:
            return "-nan" if np.signbit(v) else "nan"
        return (" " if v >= 0 else "") + "%f" % v
    return "% d" % int(v)


def _picks(n):
    """The indices a mode of n elements shows, None for `...`."""
    if n <= _SHOWN:
        return list(range(n))
    return [0, 1, 2, None, n - 3, n - 2, n - 1]


def _joined(items, indent):
    """Items one a line: `,` after each but `...`."""
    out = items[0]
    for prev, item in zip(items, items[1:]):
        out += ("\n" if prev == "..." else ",\n") + indent + item
    return out


def _matrix(texts, rows, cols, base, indent):
    lines = []
    for i in _picks(rows):
        if i is None:
            lines.append("...")
            continue
        cells = ["...," if j is None else texts[base + i + rows * j] + ","
                 for j in _picks(cols)]
        lines.append("[" + " ".join(cells) + " ]")
    return "[" + _joined(lines, indent) + "]"


def _body(texts, sizes):
    if len(sizes) == 1:
        lines = ["..." if i is None else "[%s, ]" % texts[i]
                 for i in _picks(sizes[0])]
        return _joined(lines, _INDENT)
    rows, cols = sizes[0], sizes[1]
    if len(sizes) == 2:
        return _matrix(texts, rows, cols, 0, _INDENT + " ")
    pages = int(np.prod(sizes[2:]))
    return "[" + (",\n\n" + _INDENT + " ").join(
        _matrix(texts, rows, cols, p * rows * cols, _INDENT + "  ")
        for p in range(pages)) + "]"


def tensor_text(t, verbose=False):
    """What the DSL's run prints for print_tensor(t)."""
    if _int(_algebra.size(t.layout)) == 0:
        raise ValueError("print_tensor of an empty tensor (%s): the DSL "
                         "aborts on it" % t.layout)
    if isinstance(t, IdentityTensor):
        texts = t.texts()
        start = _tuples.text(t.origin, str)
    else:
        values = t.iterator.memory[t._indices()]
        texts = [_element_text(v, t.element_type) for v in values]
        start = t.iterator.raw_text()
    head = "tensor(%s o %s, data=" % (start, _printf.run_text(t.layout))
    if verbose:
        shape = _tuples_python(t.layout.sh)
        lines = ["\t%s=%s" % (_tuples.text(_static(_algebra.idx2crd(
            i, shape)) if len(shape) > 1 else (i,), str), s)
            for i, s in enumerate(texts)]
        return head + " (\n" + "".join(l + "\n" for l in lines) + ")\n"
    return head + "\n" + _INDENT + _body(texts, mode_sizes(t.layout)) + ")\n"


def _in_rmem(value):
    """A TensorSSA as a column-major tensor of the function's memory
    holding it."""
    t = make_rmem_tensor(value.shape, value.dtype)
    t.store(value)
    return t


def print_tensor(tensor, *, verbose=False):
    """Prints the tensor's elements when the function runs (a TensorSSA:
    as a column-major tensor of the function's memory holding it)."""
    if isinstance(tensor, TensorSSA):
        tensor = _in_rmem(tensor)
    if not isinstance(tensor, (Tensor, IdentityTensor)):
        raise TypeError("print_tensor expects a Tensor or TensorSSA, got %s"
                        % type(tensor).__name__)
    _printf.emit(tensor_text(tensor, verbose))
