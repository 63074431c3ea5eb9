"""Shapes, layouts and element types (the library's shape/, layout/ and
parser/shape_parser.h).

    >>> s = hl.parse_shape("f32[3,5]{1,0:T(2,2)}")
    >>> str(s), s.dimensions, s.layout.tiles
    ('f32[3,5]{1,0:T(2,2)}', (3, 5), ((2, 2),))
    >>> hl.numpy_dtype(s)
    dtype('float32')

Everything that takes a shape accepts a `Shape` or its text. Shapes and
layouts are immutable and hashable.
"""

from __future__ import annotations

from operator import index as _index
from typing import (TYPE_CHECKING, Any, Dict, Optional, Sequence, Tuple,
                    Union)

from . import _hlolayout as _core

if TYPE_CHECKING:
    import numpy as np

__all__ = ["COMBINE", "Layout", "Shape", "parse_shape", "parse_jax_layout",
           "numpy_dtype", "ArrayExplanation", "TupleExplanation",
           "BufferExplanation", "OpaqueExplanation", "LayoutAttribute",
           "PaddingAndSize", "TilePadding"]

# Shape.explain()'s answers: read-only records written from the library's
# field lists (layout/explain_record.h), their to_dict() the document of
# `hlolayout explain --json`.
ArrayExplanation = _core.ArrayExplanation
TupleExplanation = _core.TupleExplanation
BufferExplanation = _core.BufferExplanation
OpaqueExplanation = _core.OpaqueExplanation
LayoutAttribute = _core.LayoutAttribute
PaddingAndSize = _core.PaddingAndSize
TilePadding = _core.TilePadding

#: What takes a shape takes a Shape or its text.
ShapeLike = Union["Shape", str]

#: A `*` entry of a tile: combine this dimension with the next more minor one.
COMBINE = _core.COMBINE

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
    minor_to_major: Tuple[int, ...]
    tiles: Tuple[Tuple[int, ...], ...]
    memory_space: int
    element_size_in_bits: int
    tail_padding_alignment_in_elements: int
    split_configs: Tuple[Tuple[int, Tuple[int, ...]], ...]

    def __init__(self, minor_to_major: Sequence[int] = (),
                 tiles: Sequence[Sequence[int]] = (), memory_space: int = 0,
                 element_size_in_bits: int = 0,
                 tail_padding_alignment_in_elements: int = 1,
                 split_configs: Sequence[Tuple[int, Sequence[int]]] = (),
                 _text=None):
        # Ints as ints (operator.index): int() would make 1.5 the 1.
        self.minor_to_major = tuple(_index(d) for d in minor_to_major)
        self.tiles = tuple(tuple(_index(d) for d in t) for t in tiles)
        self.memory_space = _index(memory_space)
        self.element_size_in_bits = _index(element_size_in_bits)
        self.tail_padding_alignment_in_elements = _index(
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

    def __hash__(self) -> int:
        return hash(("Layout", self._text))

    @classmethod
    def from_jax(cls, major_to_minor: Sequence[int],
                 tiling: Optional[Sequence[Sequence[int]]] = None,
                 sub_byte_element_size_in_bits: int = 0) -> Layout:
        """The XLA layout of JAX's `Layout(major_to_minor=..., tiling=...)`.

        JAX lists dimensions major to minor, XLA minor to major:
            >>> str(hl.Layout.from_jax(major_to_minor=(0, 1), tiling=((8, 128),)))
            '{1,0:T(8,128)}'

        `tiling` None or () means no tiles; a tile entry may be hl.COMBINE.
        """
        return cls(minor_to_major=tuple(reversed(tuple(major_to_minor))),
                   tiles=tuple(tiling or ()),
                   element_size_in_bits=sub_byte_element_size_in_bits or 0)

    def to_jax(self) -> Dict[str, Any]:
        """The keyword arguments of JAX's Layout(...) for this layout."""
        return {
            "major_to_minor": tuple(reversed(self.minor_to_major)),
            "tiling": self.tiles,
            "sub_byte_element_size_in_bits": self.element_size_in_bits,
        }


def parse_jax_layout(text: str) -> Layout:
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

    def __init__(self, text: Union[Shape, str]):
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
    def from_proto(cls, data: bytes) -> Shape:
        """Reads XLA's ShapeProto wire format (bytes)."""
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise TypeError("from_proto takes bytes, got %s" %
                            type(data).__name__)
        return cls._wrap(_core.shape_from_proto(bytes(data)))

    def to_proto(self) -> bytes:
        """XLA's ShapeProto wire format, byte-identical to Shape::ToProto."""
        return self._s.to_proto()

    def __str__(self):
        return self._s.text

    def __repr__(self):
        return "hlolayout.Shape(%r)" % self._s.text

    def _repr_svg_(self) -> Optional[str]:
        """Jupyter shows an array shape as its picture (hl.draw)."""
        if self.is_tuple:
            return None
        try:
            from .pictures import draw
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

    def __hash__(self) -> int:
        return hash(self._s.text)

    @property
    def human_string(self) -> str:
        """The text without layout (XLA's HumanString): 'f32[3,5]'."""
        return self._s.human_string

    @property
    def element_type(self) -> str:
        """'f32', 'bf16', 's4', 'pred', 'tuple', 'token', ..."""
        return self._s.element_type

    @property
    def dimensions(self) -> Tuple[int, ...]:
        """Dimension sizes (bounded dynamic dims at their bound)."""
        return self._s.dimensions

    @property
    def dynamic_dimensions(self) -> Tuple[bool, ...]:
        """One bool per dimension: True for `<=N` and `?` dims."""
        return self._s.dynamic_dimensions

    @property
    def rank(self) -> int:
        return len(self._s.dimensions)

    @property
    def is_array(self) -> bool:
        return self._s.is_array

    @property
    def is_tuple(self) -> bool:
        return self._s.is_tuple

    @property
    def tuple_shapes(self) -> Tuple[Shape, ...]:
        """The element shapes of a tuple (empty for other shapes)."""
        return tuple(Shape._wrap(t) for t in self._s.tuple_shapes)

    @property
    def layout(self) -> Optional[Layout]:
        """The Layout of an array shape, or None (tuples, tokens)."""
        if self._layout is None and self._s.is_array and self._s.has_layout:
            s = self._s
            self._layout = Layout(
                s.layout_minor_to_major, s.layout_tiles, s.layout_memory_space,
                s.layout_element_size_in_bits,
                s.layout_tail_padding_alignment_in_elements,
                s.layout_split_configs, _text=s.layout_text)
        return self._layout

    def with_layout(self, layout: Union[Layout, str]) -> Shape:
        """This array shape with another layout (a Layout or '{1,0:T(8,128)}')."""
        if not self.is_array:
            raise ValueError("only array shapes have layouts, got %s" % self)
        return Shape._wrap(_core.shape_with_layout(self._s, str(layout)))

    def explain(self) -> Union[ArrayExplanation, TupleExplanation,
                               BufferExplanation, OpaqueExplanation]:
        """The shape and its layout explained (the library's ExplainShape):
        an ArrayExplanation, TupleExplanation (its elements_shapes),
        BufferExplanation or OpaqueExplanation (tokens), whose to_dict() is
        the document of `hlolayout explain --json`.

            >>> e = hl.parse_shape("f32[3,5]{1,0:T(2,2)}").explain()
            >>> e.elements, e.padding_and_size.padded_bytes
            (15, 96)
            >>> [p.reason for p in e.padding_and_size.padded_dimensions][0]
            'dim 0 (size 3) is not a multiple of tile 2 of T(2,2): padded to 4'
            >>> e.to_dict()["padding_and_size"]["expansion"]
            '1.6x'

        `e["key"]` still answers as the dict of earlier releases did, with a
        DeprecationWarning.
        """
        return self._s.explain()

    def sizes(self) -> Dict[str, Any]:
        """Element and byte counts of an array's buffer.

            >>> hl.parse_shape("f32[3,5]{1,0:T(2,2)}").sizes()["padded_bytes"]
            96

        Keys: logical/tiled/padded/padding _elements and _bytes, expansion
        (padded bytes / logical bytes), element_bits, packed.
        """
        return self._s.sizes()


def parse_shape(text: Union[Shape, str]) -> Shape:
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


def numpy_dtype(element_type: Union[str, Shape]) -> np.dtype:
    """The NumPy dtype of an XLA element type ('f32' -> float32).

    bf16 and the f8/f6/f4 types are same-width unsigned integers, or
    ml_dtypes' types when that package is importable; sub-byte integers
    hold one value per byte (int8/uint8).
    """
    import numpy as np
    if isinstance(element_type, Shape):
        element_type = element_type.element_type
    if not isinstance(element_type, str):
        raise TypeError("an element type is a str ('f32') or a Shape, not %s"
                        % type(element_type).__name__)
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
