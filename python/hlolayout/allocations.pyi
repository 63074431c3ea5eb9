# Type stubs of hlolayout.allocations (allocations.py).
import os
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

def memory(path_or_text: Union[str, bytes, os.PathLike], top: int = ...,
           space: Optional[int] = ...,
           platform: Optional[str] = ...) -> Union[List[Dict[str, Any]], Dict[str, Any]]: ...

