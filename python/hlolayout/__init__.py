"""XLA HLO shapes and layouts from Python: where every element lives.

    >>> import numpy as np, hlolayout as hl
    >>> s = hl.parse_shape("f32[3,5]{1,0:T(2,2)}")
    >>> str(s), s.dimensions, s.layout.tiles
    ('f32[3,5]{1,0:T(2,2)}', (3, 5), ((2, 2),))
    >>> hl.Indexer(s).offset((2, 3))
    17
    >>> hl.to_layout(np.arange(15, dtype=np.float32).reshape(3, 5), s).size
    96

Everything that takes a shape accepts a `Shape` or its text. Library errors
are `ValueError` carrying the library's message (`L:C: message`, the source
line and a caret for text); dtypes that do not match are `TypeError`.
Long calls release the GIL; every object is immutable and thread-safe.
"""

import os as _os

from . import _hlolayout as _core
from ._version import __version__

__all__ = [
    "COMBINE", "ELEMENT", "TILE_PADDING", "TAIL_PADDING", "Shape", "Layout",
    "Indexer", "parse_shape", "parse_jax_layout", "to_layout", "from_layout",
    "relayout", "read_hlo", "report", "memory", "draw", "numpy_dtype", "cute",
    "grid", "triton", "__version__",
]

#: A `*` entry of a tile: combine this dimension with the next more minor one.
COMBINE = _core.COMBINE
#: Kinds returned by Indexer.element_at / elements_at.
ELEMENT, TILE_PADDING, TAIL_PADDING = 0, 1, 2
_KIND_NAMES = ("element", "tile padding", "tail padding")


def _tile_text(tile):
    return "(" + ",".join("*" if d == COMBINE else str(d) for d in tile) + ")"


class Layout:
    """The layout of an array shape, as XLA writes it after the dimensions.

        >>> l = hl.parse_shape("bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}").layout
        >>> l.minor_to_major, l.tiles, l.memory_space
        ((3, 2, 0, 1), ((8, 128), (2, 1)), 1)
        >>> str(l)
        '{3,2,0,1:T(8,128)(2,1)S(1)}'
        >>> l.to_jax()
        {'major_to_minor': (1, 0, 2, 3), 'tiling': ((8, 128), (2, 1)), 'sub_byte_element_size_in_bits': 0}
    """

    __slots__ = ("minor_to_major", "tiles", "memory_space",
                 "element_size_in_bits", "tail_padding_alignment_in_elements",
                 "split_configs", "_text")

    def __init__(self, minor_to_major=(), tiles=(), memory_space=0,
                 element_size_in_bits=0, tail_padding_alignment_in_elements=1,
                 split_configs=(), _text=None):
        self.minor_to_major = tuple(int(d) for d in minor_to_major)
        self.tiles = tuple(tuple(int(d) for d in t) for t in tiles)
        self.memory_space = int(memory_space)
        self.element_size_in_bits = int(element_size_in_bits)
        self.tail_padding_alignment_in_elements = int(
            tail_padding_alignment_in_elements)
        self.split_configs = tuple(split_configs)
        if _text is None:
            _text = self._format()
        self._text = _text

    def _format(self):
        text = "{" + ",".join(str(d) for d in self.minor_to_major)
        attrs = "T" + "".join(_tile_text(t) for t in self.tiles) if self.tiles else ""
        if self.tail_padding_alignment_in_elements != 1:
            attrs += "L(%d)" % self.tail_padding_alignment_in_elements
        if self.element_size_in_bits:
            attrs += "E(%d)" % self.element_size_in_bits
        if self.memory_space:
            attrs += "S(%d)" % self.memory_space
        for dim, indices in self.split_configs:
            attrs += "SC(%d:%s)" % (dim, ",".join(str(i) for i in indices))
        return text + (":" + attrs if attrs else "") + "}"

    def __str__(self):
        return self._text

    def __repr__(self):
        return "hlolayout.Layout(%r)" % self._text

    def __eq__(self, other):
        return isinstance(other, Layout) and self._text == other._text

    def __hash__(self):
        return hash(("Layout", self._text))

    @classmethod
    def from_jax(cls, major_to_minor, tiling=None,
                 sub_byte_element_size_in_bits=0):
        """The XLA layout of JAX's `Layout(major_to_minor=..., tiling=...)`.

        JAX lists dimensions major to minor, XLA minor to major:
            >>> str(hl.Layout.from_jax(major_to_minor=(0, 1), tiling=((8, 128),)))
            '{1,0:T(8,128)}'

        `tiling` None or () means no tiles; a tile entry may be hl.COMBINE.
        """
        return cls(minor_to_major=tuple(reversed(tuple(major_to_minor))),
                   tiles=tuple(tiling or ()),
                   element_size_in_bits=sub_byte_element_size_in_bits or 0)

    def to_jax(self):
        """The keyword arguments of JAX's Layout(...) for this layout."""
        return {
            "major_to_minor": tuple(reversed(self.minor_to_major)),
            "tiling": self.tiles,
            "sub_byte_element_size_in_bits": self.element_size_in_bits,
        }


def parse_jax_layout(text):
    """The XLA layout of a JAX layout as JAX 0.11 prints it.

        >>> str(hl.parse_jax_layout(
        ...     "Layout(major_to_minor=(0, 1), tiling=(), sub_byte_element_size_in_bits=4)"))
        '{1,0:E(4)}'

    Also inside `Format(layout=Layout(...), sharding=...)`, and the older
    `DeviceLocalLayout(major_to_minor=..., _tiling=...,
    _sub_byte_element_size_in_bits=...)`. Raises ValueError otherwise.
    """
    from ._jax import parse_jax_layout_kwargs
    return Layout.from_jax(**parse_jax_layout_kwargs(text))


class Shape:
    """An XLA shape: array, tuple, token or opaque, with its layout.

        >>> s = hl.parse_shape("bf16[8,1,1280,16384]<3,2,0,1:T(8,128)(2,1)S(1)>")
        >>> str(s)                  # XLA's text, as `hlolayout print`
        'bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}'
        >>> s.element_type, s.dimensions
        ('bf16', (8, 1, 1280, 16384))
        >>> hl.Shape.from_proto(s.to_proto()) == s
        True

    Shapes are immutable and hashable; equal when their text is equal.
    """

    __slots__ = ("_s", "_layout")

    def __init__(self, text):
        """Parses `text` (same as parse_shape)."""
        if isinstance(text, Shape):
            self._s = text._s
        elif isinstance(text, str):
            self._s = _core.parse_shape(text)
        else:
            raise TypeError("Shape() takes a shape string, got %s" %
                            type(text).__name__)
        self._layout = None

    @classmethod
    def _wrap(cls, core_shape):
        s = cls.__new__(cls)
        s._s = core_shape
        s._layout = None
        return s

    @classmethod
    def from_proto(cls, data):
        """Reads XLA's ShapeProto wire format (bytes)."""
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise TypeError("from_proto takes bytes, got %s" %
                            type(data).__name__)
        return cls._wrap(_core.shape_from_proto(bytes(data)))

    def to_proto(self):
        """XLA's ShapeProto wire format, byte-identical to Shape::ToProto."""
        return self._s.to_proto()

    def __str__(self):
        return self._s.text

    def __repr__(self):
        return "hlolayout.Shape(%r)" % self._s.text

    def _repr_svg_(self):
        """Jupyter shows an array shape as its picture (hl.draw)."""
        if self.is_tuple:
            return None
        try:
            return draw(self)
        except ValueError:
            return None

    def __eq__(self, other):
        if isinstance(other, str):
            try:
                other = Shape(other)
            except ValueError:
                return False
        return isinstance(other, Shape) and self._s.text == other._s.text

    def __hash__(self):
        return hash(self._s.text)

    @property
    def human_string(self):
        """The text without layout (XLA's HumanString): 'f32[3,5]'."""
        return self._s.human_string

    @property
    def element_type(self):
        """'f32', 'bf16', 's4', 'pred', 'tuple', 'token', ..."""
        return self._s.element_type

    @property
    def dimensions(self):
        """Dimension sizes (bounded dynamic dims at their bound)."""
        return self._s.dimensions

    @property
    def dynamic_dimensions(self):
        """One bool per dimension: True for `<=N` and `?` dims."""
        return self._s.dynamic_dimensions

    @property
    def rank(self):
        return len(self._s.dimensions)

    @property
    def is_array(self):
        return self._s.is_array

    @property
    def is_tuple(self):
        return self._s.is_tuple

    @property
    def tuple_shapes(self):
        """The element shapes of a tuple (empty for other shapes)."""
        return tuple(Shape._wrap(t) for t in self._s.tuple_shapes)

    @property
    def layout(self):
        """The Layout of an array shape, or None (tuples, tokens)."""
        if self._layout is None and self._s.is_array and self._s.has_layout:
            s = self._s
            self._layout = Layout(
                s.layout_minor_to_major, s.layout_tiles, s.layout_memory_space,
                s.layout_element_size_in_bits,
                s.layout_tail_padding_alignment_in_elements,
                s.layout_split_configs, _text=s.layout_text)
        return self._layout

    def with_layout(self, layout):
        """This array shape with another layout (a Layout or '{1,0:T(8,128)}')."""
        if not self.is_array:
            raise ValueError("only array shapes have layouts, got %s" % self)
        return Shape._wrap(_core.shape_with_layout(self._s, str(layout)))

    def explain(self):
        """The same content as `hlolayout explain --json` (a dict)."""
        return _cli_json(["explain", "--json", str(self)])

    def sizes(self):
        """Element and byte counts of an array's buffer.

            >>> hl.parse_shape("f32[3,5]{1,0:T(2,2)}").sizes()["padded_bytes"]
            96

        Keys: logical/tiled/padded/padding _elements and _bytes, expansion
        (padded bytes / logical bytes), element_bits, packed.
        """
        return self._s.sizes()


def parse_shape(text):
    """Parses a shape as XLA prints it ('{...}' or '<...>' layouts).

        >>> hl.parse_shape("f32[1024, 16]")
        hlolayout.Shape('f32[1024,16]{1,0}')

    Raises ValueError('1:9: message' + source line + caret) on bad text.
    """
    if isinstance(text, Shape):
        return text
    if not isinstance(text, str):
        raise TypeError("parse_shape takes a str, got %s" % type(text).__name__)
    return Shape._wrap(_core.parse_shape(text))


def _shape(value, what="shape"):
    if isinstance(value, Shape):
        return value
    if isinstance(value, str):
        return Shape._wrap(_core.parse_shape(value))
    raise TypeError("%s must be a hlolayout.Shape or a shape string, got %s" %
                    (what, type(value).__name__))


def _cli_json(args, input=""):
    import json
    return json.loads(_cli_text(args, input))


def _cli_folder_json(args):
    """The JSON table of a dump folder command. The command exits 1 when a
    file failed or the folder holds no module, and still prints the table
    (with "failed"): that table is returned; usage errors raise."""
    import json
    status, out, err = _core.run_cli(args, "")
    if status in (0, 1) and out:
        return json.loads(out.decode("utf-8"))
    raise ValueError(_cli_message(err))


def _cli_text(args, input=""):
    status, out, err = _core.run_cli(args, input)
    if status != 0:
        raise ValueError(_cli_message(err))
    return out.decode("utf-8")


def _cli_message(err):
    """The CLI's error text without its "hlolayout COMMAND: " prefix."""
    import re
    message = err.decode("utf-8", "replace")
    return re.sub(r"^hlolayout [a-z_ -]+: ", "", message).rstrip("\n")


def draw(shape, view="both", slice=None):
    """The SVG picture of a layout, as `hlolayout draw SHAPE --svg -` writes it.

        >>> svg = hl.draw("f32[3,5]{1,0:T(2,2)}", view="memory")
        >>> svg.startswith("<svg") or svg.startswith("<?xml")
        True

    view: "logical", "memory" or "both"; slice: the fixed outer indices
    (a tuple) when the array has more than two dimensions.
    """
    shape = _shape(shape, "shape")
    if view not in ("logical", "memory", "both"):
        raise ValueError("view must be 'logical', 'memory' or 'both', got %r" %
                         (view,))
    args = ["draw", "--svg", "-", "--view", view]
    if slice is not None:
        args += ["--slice", ",".join(str(int(i)) for i in slice)]
    return _cli_text(args + [str(shape)])


class Indexer:
    """Element offsets of an array shape, and their inverse, fast.

        >>> ix = hl.Indexer("f32[3,5]{1,0:T(2,2)}")
        >>> ix.offset((2, 3)), ix.element_at(17), ix.element_at(9)
        (17, (2, 3), None)
        >>> ix.offsets(np.array([[0, 0], [2, 3]]))
        array([ 0, 17])

    Offsets count elements from the start of the buffer (every tile level,
    `*` combined dims, L(n) tail padding); `Shape.sizes()` gives bytes. Safe
    to share between threads; batched calls release the GIL.
    """

    __slots__ = ("_ix", "shape")

    def __init__(self, shape):
        self.shape = _shape(shape)
        self._ix = _core._Indexer(self.shape._s)

    def __repr__(self):
        return "hlolayout.Indexer(%r)" % str(self.shape)

    @property
    def padded_elements(self):
        """Elements in the buffer, padding included."""
        return self._ix.padded_elements

    @property
    def logical_elements(self):
        return self._ix.logical_elements

    def offset(self, index):
        """The offset of one multi-index; ValueError when out of range."""
        return self._ix.offset(_index_tuple(index))

    def offsets(self, indices, threads=None):
        """Offsets of many indices: int array [n, rank] -> int64 array [n].

        ValueError if any index is out of range (the message names it).
        """
        import numpy as np
        a = np.asarray(indices)
        if a.dtype.kind not in "iu":
            if a.size == 0:
                a = a.astype(np.int64)
            else:
                raise TypeError("indices must be an integer array, got dtype %s"
                                % a.dtype)
        if a.dtype != np.int64 and a.dtype != np.int32:
            if a.dtype == np.uint64 and a.size and a.max() > np.iinfo(np.int64).max:
                raise ValueError("index out of range: %d" % a.max())
            a = a.astype(np.int64)
        if a.ndim == 1 and self._ix.rank == 1:
            a = a.reshape(-1, 1)
        a = np.ascontiguousarray(a)
        return self._ix.offsets(a, _threads(threads))

    def element_at(self, offset):
        """The multi-index at `offset`, or None when it is padding."""
        kind, index = self._ix.element_at(int(offset))
        return index if kind == ELEMENT else None

    def kind_at(self, offset):
        """'element', 'tile padding' or 'tail padding'."""
        return _KIND_NAMES[self._ix.element_at(int(offset))[0]]

    def elements_at(self, offsets):
        """Inverse of offsets: int array [n] -> (int64 [n, rank], uint8 [n]).

        Kinds are hl.ELEMENT, hl.TILE_PADDING, hl.TAIL_PADDING; indices of
        padding rows are -1.
        """
        import numpy as np
        a = np.asarray(offsets)
        if a.dtype.kind not in "iu" and a.size:
            raise TypeError("offsets must be an integer array, got dtype %s" %
                            a.dtype)
        a = np.ascontiguousarray(a.astype(np.int64).reshape(-1))
        return self._ix.elements_at(a)

    def all_offsets(self):
        """int64 array shaped like the array: each element's offset."""
        return self._ix.all_offsets()


def _index_tuple(index):
    try:
        return tuple(int(i) for i in index)
    except TypeError:
        raise TypeError("index must be a sequence of ints, got %r" % (index,))


def _threads(threads):
    if threads is None:
        return _core.default_threads()
    threads = int(threads)
    if threads < 1:
        raise ValueError("threads must be >= 1")
    return threads


# ---- element types and NumPy dtypes ----

_PLAIN_DTYPES = {
    "pred": "bool", "s8": "int8", "s16": "int16", "s32": "int32",
    "s64": "int64", "u8": "uint8", "u16": "uint16", "u32": "uint32",
    "u64": "uint64", "f16": "float16", "f32": "float32", "f64": "float64",
    "c64": "complex64", "c128": "complex128", "bf16": "uint16",
    "s1": "int8", "s2": "int8", "s4": "int8", "u1": "uint8", "u2": "uint8",
    "u4": "uint8",
}
# Types NumPy lacks: same-width unsigned integers, or ml_dtypes' types.
_ML_DTYPES = {
    "bf16": "bfloat16", "f8e5m2": "float8_e5m2", "f8e4m3": "float8_e4m3",
    "f8e4m3fn": "float8_e4m3fn", "f8e4m3b11fnuz": "float8_e4m3b11fnuz",
    "f8e3m4": "float8_e3m4", "f8e5m2fnuz": "float8_e5m2fnuz",
    "f8e4m3fnuz": "float8_e4m3fnuz", "f4e2m1fn": "float4_e2m1fn",
    "f8e8m0fnu": "float8_e8m0fnu", "f6e3m2fn": "float6_e3m2fn",
    "f6e2m3fn": "float6_e2m3fn", "s4": "int4", "u4": "uint4", "s2": "int2",
    "u2": "uint2",
}


def _ml_dtype(element_type):
    name = _ML_DTYPES.get(element_type)
    if name is None:
        return None
    try:
        import ml_dtypes
    except ImportError:
        return None
    t = getattr(ml_dtypes, name, None)
    return None if t is None else __import__("numpy").dtype(t)


def numpy_dtype(element_type):
    """The NumPy dtype of an XLA element type ('f32' -> float32).

    bf16 and the f8/f6/f4 types are same-width unsigned integers, or
    ml_dtypes' types when that package is importable; sub-byte integers
    hold one value per byte (int8/uint8).
    """
    import numpy as np
    if isinstance(element_type, Shape):
        element_type = element_type.element_type
    ml = _ml_dtype(element_type)
    if ml is not None:
        return ml
    plain = _PLAIN_DTYPES.get(element_type)
    if plain is None:
        if element_type.startswith(("f8", "f6", "f4")):
            return np.dtype("uint8")
        raise TypeError("element type %s has no NumPy dtype" % element_type)
    return np.dtype(plain)


def _accepted_dtypes(element_type):
    import numpy as np
    out = []
    ml = _ml_dtype(element_type)
    if ml is not None:
        out.append(ml)
    plain = _PLAIN_DTYPES.get(element_type)
    if plain is None and element_type.startswith(("f8", "f6", "f4")):
        plain = "uint8"
    if plain is not None:
        out.append(np.dtype(plain))
    return out


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


def to_layout(array, shape, threads=None, fill=0, packing="low_first"):
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
                           _BUFFER_TYPES + (np.ndarray,)))


def from_layout(buffer, shape, threads=None, packing="low_first"):
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
    plan, dims, dtype, empty, buffer_types = entry
    out = empty(dims, dtype)
    if type(buffer) in buffer_types:
        try:
            plan.run_into(buffer, out)
            return out
        except BufferError:  # not C-contiguous: copied below
            pass
    plan.run_into(_bytes_view(buffer, "buffer"), out)
    return out


def relayout(buffer, from_shape, to_shape, threads=None, fill=0,
             packing="low_first"):
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


# ---- HLO dumps ----

class Instruction:
    """One HLO instruction: name, opcode, shape (Shape or None), operands."""

    __slots__ = ("name", "opcode", "shape", "operands", "attributes",
                 "is_root", "parameter_number")

    def __init__(self, d):
        self.name = d["name"]
        self.opcode = d["opcode"]
        self.shape = None if d["shape"] is None else Shape._wrap(d["shape"])
        self.operands = tuple(n for n, _ in d["operands"])
        self.attributes = d["attributes"]
        self.is_root = d["is_root"]
        self.parameter_number = d["parameter_number"]

    def __repr__(self):
        return "<Instruction %s = %s %s>" % (self.name, self.shape, self.opcode)


class Computation:
    """A computation: name, is_entry, instructions, root."""

    __slots__ = ("name", "is_entry", "instructions")

    def __init__(self, d):
        self.name = d["name"]
        self.is_entry = d["is_entry"]
        self.instructions = tuple(Instruction(i) for i in d["instructions"])

    @property
    def root(self):
        for i in self.instructions:
            if i.is_root:
                return i
        return None

    def __repr__(self):
        return "<Computation %s: %d instructions>" % (self.name,
                                                       len(self.instructions))


class Module:
    """An HLO module: name, computations, entry."""

    __slots__ = ("name", "computations", "entry")

    def __init__(self, d):
        self.name = d["name"]
        self.computations = tuple(Computation(c) for c in d["computations"])
        i = d["entry_index"]
        self.entry = self.computations[i] if 0 <= i < len(
            self.computations) else None

    def __repr__(self):
        return "<Module %s: %d computations>" % (self.name,
                                                  len(self.computations))


def _text_and_name(path_or_text):
    if isinstance(path_or_text, _os.PathLike):
        path_or_text = _os.fspath(path_or_text)
    if isinstance(path_or_text, bytes):
        path_or_text = path_or_text.decode("utf-8")
    if not isinstance(path_or_text, str):
        raise TypeError("expected a path or HLO text, got %s" %
                        type(path_or_text).__name__)
    if path_or_text and "\n" not in path_or_text and "{" not in path_or_text:
        with open(path_or_text, encoding="utf-8") as f:
            return f.read(), path_or_text
    return path_or_text, ""


def read_hlo(path_or_text):
    """HLO module text (a file path or the text) -> list of Module.

        >>> m = hl.read_hlo("ENTRY %e (p: f32[2]) -> f32[2] {\\n"
        ...                 "  ROOT %p = f32[2]{0} parameter(0)\\n}\\n")[0]
        >>> m.entry.root.name, str(m.entry.root.shape)
        ('p', 'f32[2]{0}')

    Several modules split by '// -----' lines are read in order.
    """
    text, name = _text_and_name(path_or_text)
    return [Module(m) for m in _core.read_hlo(text, name)]


def _path_or_text(path_or_text):
    """(path, None) for an existing file or folder, else (None, HLO text).

    Paths are handed to the CLI, which maps the file: the text is not read
    into Python first.
    """
    if isinstance(path_or_text, _os.PathLike):
        return _os.fspath(path_or_text), None
    if isinstance(path_or_text, bytes):
        path_or_text = path_or_text.decode("utf-8")
    if not isinstance(path_or_text, str):
        raise TypeError("expected a path or HLO text, got %s" %
                        type(path_or_text).__name__)
    if path_or_text and "\n" not in path_or_text and "{" not in path_or_text:
        if not _os.path.exists(path_or_text):
            raise FileNotFoundError(path_or_text)
        return path_or_text, None
    return None, path_or_text


def report(path_or_text, summary=False):
    """The same content as `hlolayout report --json` (a dict).

    A dump folder (as written by --xla_dump_to) gives the folder table of
    `hlolayout report --json DIR` instead: a dict with "modules" (one row
    per module: file, module, instructions, buffer bytes, padding,
    expansion, the live-range peak of scheduled modules), "skipped" (files
    not read, with the reason) and "failed" (files that could not be read,
    with the error; the table is returned all the same).
    """
    path, text = _path_or_text(path_or_text)
    if path is not None and _os.path.isdir(path):
        return _cli_folder_json(["report", "--json", path])
    args = ["report", "--json"] + (["--summary"] if summary else [])
    if path is not None:
        return _cli_json(args + [path])
    return _cli_json(args + ["-"], text)


def memory(path_or_text, top=20, space=None, platform=None):
    """What XLA will allocate for each scheduled module, and its peak: the
    same content as `hlolayout memory --json` (a list, one dict per module).

    Each dict holds XLA's buffer assignment and `compiled.memory_analysis()`
    as XLA computes them (docs/memory.md): `memory_analysis` (argument,
    output, alias, temp and peak bytes, the keys of XLA's
    CompiledMemoryStats), `allocated_bytes` (arguments + temp + outputs -
    aliases), `allocations` (each with its kind, size and values with their
    offsets) and `platform`; and the live ranges: schedule_end, values,
    `peaks` with the values live there, e.g.
    `hl.memory(path)[0]["memory_analysis"]["temp_size_in_bytes"]`.

    `platform`: "gpu" or "cpu" (alignment, in-place rules, peak); by default
    taken from the file name or the module. `space`: only the peak of memory
    space S(space). Raises ValueError for modules without a schedule and
    for bad arguments.

    A dump folder gives the folder table of `hlolayout memory --json DIR`
    (the dict `report` gives for a folder; `top`, `space` and `platform` do
    not apply).
    """
    path, text = _path_or_text(path_or_text)
    if path is not None and _os.path.isdir(path):
        return _cli_folder_json(["memory", "--json", path])
    args = ["memory", "--json", "--top=%d" % top]
    if space is not None:
        args.append("--space=%d" % space)
    if platform is not None:
        args.append("--platform=%s" % platform)
    if path is not None:
        return _cli_json(args + [path])
    return _cli_json(args + ["-"], text)


from . import cute, grid, triton  # noqa: E402  (they use the names above)
