# Type stubs of hlolayout.hlo (hlo.py).
import os
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

from .shapes import Shape

class Instruction:
    name: str
    opcode: str
    shape: Optional[Shape]
    operands: Tuple[str, ...]
    attributes: Dict[str, str]
    is_root: bool
    parameter_number: Optional[int]
    def __init__(self, d: Dict[str, Any]) -> None: ...

class Computation:
    name: str
    is_entry: bool
    instructions: Tuple[Instruction, ...]
    def __init__(self, d: Dict[str, Any]) -> None: ...
    @property
    def root(self) -> Optional[Instruction]: ...

class Module:
    name: str
    computations: Tuple[Computation, ...]
    entry: Optional[Computation]
    def __init__(self, d: Dict[str, Any]) -> None: ...

def read_hlo(path_or_text: Union[str, bytes, os.PathLike]) -> List[Module]: ...
