# Type stubs of hlolayout.shapes (shapes.py).
import os
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

COMBINE: int
ShapeLike = Union["Shape", str]

class Layout:
    minor_to_major: Tuple[int, ...]
    tiles: Tuple[Tuple[int, ...], ...]
    memory_space: int
    element_size_in_bits: int
    tail_padding_alignment_in_elements: int
    split_configs: Tuple[Tuple[int, Tuple[int, ...]], ...]
    def __init__(self, minor_to_major: Sequence[int] = ...,
                 tiles: Sequence[Sequence[int]] = ..., memory_space: int = ...,
                 element_size_in_bits: int = ...,
                 tail_padding_alignment_in_elements: int = ...,
                 split_configs: Sequence[Tuple[int, Sequence[int]]] = ...) -> None: ...
    def __hash__(self) -> int: ...
    @classmethod
    def from_jax(cls, major_to_minor: Sequence[int],
                 tiling: Optional[Sequence[Sequence[int]]] = ...,
                 sub_byte_element_size_in_bits: int = ...) -> Layout: ...
    def to_jax(self) -> Dict[str, Any]: ...

class ArrayExplanation:
    _fields: Tuple[str, ...]
    shape: str
    kind: str
    element_type: str
    bit_width: int
    byte_width: int
    rank: int
    dimensions: Tuple[Optional[int], ...]
    dynamic_dimensions: Tuple[bool, ...]
    minor_to_major: Tuple[int, ...]
    major_to_minor: Tuple[int, ...]
    layout: str
    attributes: Tuple[LayoutAttribute, ...]
    memory_space: int
    memory_space_name: str
    elements: Optional[int]
    bytes: Optional[int]
    padding_and_size: Optional[PaddingAndSize]
    padding_and_size_error: Optional[str]
    def to_dict(self) -> Dict[str, Any]: ...
    def _repr_html_(self) -> str: ...
    def __getitem__(self, key: str) -> Any: ...  # deprecated

class BufferExplanation:
    _fields: Tuple[str, ...]
    shape: str
    kind: str
    buffer_shape: ArrayExplanation
    def to_dict(self) -> Dict[str, Any]: ...
    def _repr_html_(self) -> str: ...
    def __getitem__(self, key: str) -> Any: ...  # deprecated

class LayoutAttribute:
    _fields: Tuple[str, ...]
    key: str
    text: str
    description: str
    def to_dict(self) -> Dict[str, Any]: ...
    def _repr_html_(self) -> str: ...
    def __getitem__(self, key: str) -> Any: ...  # deprecated

class OpaqueExplanation:
    _fields: Tuple[str, ...]
    shape: str
    kind: str
    def to_dict(self) -> Dict[str, Any]: ...
    def _repr_html_(self) -> str: ...
    def __getitem__(self, key: str) -> Any: ...  # deprecated

class PaddingAndSize:
    _fields: Tuple[str, ...]
    physical_tiled: Tuple[int, ...]
    logical_elements: int
    tiled_elements: int
    padded_elements: int
    padding_elements: int
    logical_bytes: int
    padded_bytes: int
    padding_bytes: int
    expansion: str
    aligned_to_tiles: bool
    padded_dimensions: Tuple[TilePadding, ...]
    def to_dict(self) -> Dict[str, Any]: ...
    def _repr_html_(self) -> str: ...
    def __getitem__(self, key: str) -> Any: ...  # deprecated

class TilePadding:
    _fields: Tuple[str, ...]
    dimension: int
    size: int
    tile_size: int
    padded_size: int
    tile_level: int
    reason: str
    def to_dict(self) -> Dict[str, Any]: ...
    def _repr_html_(self) -> str: ...
    def __getitem__(self, key: str) -> Any: ...  # deprecated

class TupleExplanation:
    _fields: Tuple[str, ...]
    shape: str
    kind: str
    elements_shapes: Tuple[Union[ArrayExplanation, TupleExplanation, BufferExplanation, OpaqueExplanation], ...]
    def to_dict(self) -> Dict[str, Any]: ...
    def _repr_html_(self) -> str: ...
    def __getitem__(self, key: str) -> Any: ...  # deprecated

def parse_jax_layout(text: str) -> Layout: ...

class Shape:
    def __init__(self, text: Union[Shape, str]) -> None: ...
    @classmethod
    def from_proto(cls, data: bytes) -> Shape: ...
    def to_proto(self) -> bytes: ...
    def _repr_svg_(self) -> Optional[str]: ...
    def __hash__(self) -> int: ...
    @property
    def human_string(self) -> str: ...
    @property
    def element_type(self) -> str: ...
    @property
    def dimensions(self) -> Tuple[int, ...]: ...
    @property
    def dynamic_dimensions(self) -> Tuple[bool, ...]: ...
    @property
    def rank(self) -> int: ...
    @property
    def is_array(self) -> bool: ...
    @property
    def is_tuple(self) -> bool: ...
    @property
    def tuple_shapes(self) -> Tuple[Shape, ...]: ...
    @property
    def layout(self) -> Optional[Layout]: ...
    def with_layout(self, layout: Union[Layout, str]) -> Shape: ...
    def explain(self) -> Union[ArrayExplanation, TupleExplanation, BufferExplanation, OpaqueExplanation]: ...
    def sizes(self) -> Dict[str, Any]: ...

def parse_shape(text: Union[Shape, str]) -> Shape: ...

def numpy_dtype(element_type: Union[str, Shape]) -> np.dtype: ...
