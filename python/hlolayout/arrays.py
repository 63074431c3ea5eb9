"""NumPy arrays to and from the bytes of a layout (the library's
relayout/): to_layout, from_layout and relayout.

    >>> s = hl.parse_shape("f32[3,5]{1,0:T(2,2)}")
    >>> a = np.arange(15, dtype=np.float32).reshape(3, 5)
    >>> b = hl.to_layout(a, s)
    >>> b.size, (hl.from_layout(b, s) == a).all()
    (96, True)

The relayout engine does every copy, on several threads for large ones,
without the GIL.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional, Union

from . import _hlolayout as _core
from ._common import _threads
from .shapes import Shape, _accepted_dtypes, _shape, numpy_dtype

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from .shapes import ShapeLike

    Bytes = Union[bytes, bytearray, memoryview, np.ndarray]

__all__ = ["to_layout", "from_layout", "relayout"]


def _array_shape(shape, what):
    s = _shape(shape, what)
    if not s.is_array:
        raise ValueError("%s must be an array shape, got %s" % (what, s))
    return s


# Compiled relayouts (_core._RelayoutPlan) by call: ("to" | "from" |
# "re", shape text(s), threads, fill, packing). A call with the same shapes
# and options as an earlier one reuses its plan: the copy then costs about
# what NumPy's copy costs, plus under 2 us (python/bench/relayout_bench.py).
# The oldest entry goes when the cache is full.
_PLANS = {}
_PLAN_CACHE_SIZE = 256
_BUFFER_TYPES = (bytes, bytearray, memoryview)


def _shape_key(shape, what):
    if type(shape) is str:
        return shape
    if isinstance(shape, Shape):
        return shape._s.text
    return _shape(shape, what)  # raises TypeError


def _remember(key, entry):
    if len(_PLANS) >= _PLAN_CACHE_SIZE:
        try:
            del _PLANS[next(iter(_PLANS))]
        except (RuntimeError, KeyError, StopIteration):
            pass  # another thread changed the cache meanwhile
    _PLANS[key] = entry
    return entry


def _to_entry(key, shape, threads, fill, packing):
    import numpy as np
    s = _array_shape(shape, "shape")
    accepted = _accepted_dtypes(s.element_type)
    if not accepted:
        raise TypeError("element type %s has no NumPy dtype" % s.element_type)
    plan = _core._RelayoutPlan(_core.logical_shape(s._s), s._s,
                               _threads(threads), fill, packing, "array",
                               "buffer")
    return _remember(key, (plan, s.dimensions, tuple(accepted), np.ndarray,
                           s))


def to_layout(array: npt.ArrayLike, shape: ShapeLike,
              threads: Optional[int] = None, fill: int = 0,
              packing: str = "low_first") -> npt.NDArray[np.uint8]:
    """A logical NumPy array -> its physical bytes in `shape`'s layout.

        >>> s = hl.parse_shape("s4[8]{0:E(4)}")
        >>> hl.to_layout(np.array([1, 2, 3, 4, 5, 6, 7, -8], np.int8), s).tobytes().hex()
        '21436587'

    `array` must have the shape's dimensions and its dtype (numpy_dtype;
    TypeError otherwise). Returns a uint8 array of exactly
    shape.sizes()['padded_bytes'] bytes, padding zero. Sub-byte types are
    packed by E(n) (element k at bits k*n.. from the low end of byte 0;
    packing="high_first" for the mirror order), one byte per element
    without E(n). Padding bytes get `fill`. The relayout engine does the
    copy, on `threads` threads (default: one per core). The compiled copy
    is kept for the next call with the same shape and options.
    """
    key = ("to", _shape_key(shape, "shape"), threads, fill, packing)
    entry = _PLANS.get(key)
    if entry is None:
        entry = _to_entry(key, shape, threads, fill, packing)
    plan, dims, accepted, ndarray, s = entry
    if (type(array) is ndarray and array.shape == dims and
            array.dtype in accepted):
        try:
            return plan.run(array)
        except BufferError:  # not C-contiguous: copied below
            pass
    import numpy as np
    a = np.asarray(array)
    if a.dtype not in accepted:
        raise TypeError("%s needs a %s array, got dtype %s" % (
            s.element_type, " or ".join(str(d) for d in accepted), a.dtype))
    if tuple(a.shape) != dims:
        raise ValueError("array has shape %s, %s needs %s" % (
            tuple(a.shape), s, dims))
    return plan.run(np.ascontiguousarray(a))


def _bytes_view(buf, what):
    import numpy as np
    if isinstance(buf, (bytes, bytearray, memoryview)):
        return np.frombuffer(buf, dtype=np.uint8)
    if isinstance(buf, np.ndarray):
        return np.ascontiguousarray(buf).reshape(-1).view(np.uint8)
    raise TypeError("%s must be bytes or a NumPy array, got %s" %
                    (what, type(buf).__name__))


def _from_entry(key, shape, threads, packing):
    import numpy as np
    s = _array_shape(shape, "shape")
    dtype = numpy_dtype(s.element_type)
    plan = _core._RelayoutPlan(s._s, _core.logical_shape(s._s),
                               _threads(threads), 0, packing, "buffer",
                               "array")
    return _remember(key, (plan, s.dimensions, dtype, np.empty,
                           _BUFFER_TYPES + (np.ndarray,), plan.src_bytes,
                           str(s)))


def from_layout(buffer: Bytes, shape: ShapeLike, threads: Optional[int] = None,
                packing: str = "low_first") -> np.ndarray:
    """Physical bytes in `shape`'s layout -> the logical NumPy array.

        >>> s = hl.parse_shape("f32[3,5]{1,0:T(2,2)}")
        >>> a = np.arange(15, dtype=np.float32).reshape(3, 5)
        >>> (hl.from_layout(hl.to_layout(a, s), s) == a).all()
        True

    `buffer` is bytes or a NumPy array of exactly padded_bytes bytes
    (ValueError otherwise). The dtype is numpy_dtype(shape.element_type);
    signed sub-byte values are sign-extended. The compiled copy is kept
    for the next call with the same shape and options.
    """
    key = ("from", _shape_key(shape, "shape"), threads, packing)
    entry = _PLANS.get(key)
    if entry is None:
        entry = _from_entry(key, shape, threads, packing)
    plan, dims, dtype, empty, buffer_types, src_bytes, text = entry
    if type(buffer) not in buffer_types:
        buffer = _bytes_view(buffer, "buffer")
    # Checked before the result is allocated: a buffer of the wrong size must
    # not cost an array of the right one (8 EiB for s4[2^63-1]).
    size = len(buffer) if type(buffer) in (bytes, bytearray) else buffer.nbytes
    if size != src_bytes:
        raise ValueError("buffer has %d bytes, %s needs %d" % (size, text, src_bytes))
    out = empty(dims, dtype)
    try:
        plan.run_into(buffer, out)
    except BufferError:  # not C-contiguous: copied
        plan.run_into(_bytes_view(buffer, "buffer"), out)
    return out


def relayout(buffer: Bytes, from_shape: ShapeLike, to_shape: ShapeLike,
             threads: Optional[int] = None, fill: int = 0,
             packing: str = "low_first") -> npt.NDArray[np.uint8]:
    """Bytes in one layout -> bytes in another of the same array.

        >>> a = hl.to_layout(np.arange(6, dtype=np.int32).reshape(2, 3), "s32[2,3]{1,0}")
        >>> hl.relayout(a, "s32[2,3]{1,0}", "s32[2,3]{0,1}").view(np.int32)
        array([0, 3, 1, 4, 2, 5], dtype=int32)

    The shapes must have the same element type and dimensions; their
    layouts may differ in anything (order, tiles, E(n), L(n)). Padding
    bytes of the result get `fill`; `packing` as in to_layout. The
    compiled copy is kept for the next call with the same shapes and
    options.
    """
    key = ("re", _shape_key(from_shape, "from_shape"),
           _shape_key(to_shape, "to_shape"), threads, fill, packing)
    entry = _PLANS.get(key)
    if entry is None:
        import numpy as np
        f = _array_shape(from_shape, "from_shape")
        t = _array_shape(to_shape, "to_shape")
        plan = _core._RelayoutPlan(f._s, t._s, _threads(threads), fill,
                                   packing, "buffer", "output")
        entry = _remember(key, (plan, _BUFFER_TYPES + (np.ndarray,)))
    plan, buffer_types = entry
    if type(buffer) in buffer_types:
        try:
            return plan.run(buffer)
        except BufferError:  # not C-contiguous: copied below
            pass
    return plan.run(_bytes_view(buffer, "buffer"))
