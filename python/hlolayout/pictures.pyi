# Type stubs of hlolayout.pictures (pictures.py).
import os
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

from .shapes import ShapeLike

def draw(shape: Union[ShapeLike, Any], view: str = ...,
         slice: Optional[Sequence[int]] = ...,
         core: Optional[Sequence[int]] = ...) -> str: ...
