# Type stubs of hlolayout.arrays (arrays.py).
import os
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

from .shapes import ShapeLike

Bytes = Union[bytes, bytearray, memoryview, np.ndarray]

def to_layout(array: npt.ArrayLike, shape: ShapeLike,
              threads: Optional[int] = ..., fill: int = ...,
              packing: str = ...) -> npt.NDArray[np.uint8]: ...
def from_layout(buffer: Bytes, shape: ShapeLike, threads: Optional[int] = ...,
                packing: str = ...) -> np.ndarray: ...
def relayout(buffer: Bytes, from_shape: ShapeLike, to_shape: ShapeLike,
             threads: Optional[int] = ..., fill: int = ...,
             packing: str = ...) -> npt.NDArray[np.uint8]: ...

