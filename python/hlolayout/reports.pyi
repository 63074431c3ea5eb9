# Type stubs of hlolayout.reports (reports.py).
import os
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

def report(path_or_text: Union[str, bytes, os.PathLike],
           summary: bool = ...) -> Dict[str, Any]: ...
