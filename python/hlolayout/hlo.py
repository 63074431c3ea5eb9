"""HLO module text as modules, computations and instructions (the
library's hlo/reader.h).

    >>> (m,) = hl.read_hlo("HloModule m\\n\\nENTRY %e (p: f32[2]) -> f32[2] {\\n"
    ...                    "  ROOT %p = f32[2]{0} parameter(0)\\n}\\n")
    >>> m.name, m.entry.name, [i.opcode for i in m.entry.instructions]
    ('m', 'e', ['parameter'])
"""

from __future__ import annotations

import os
from typing import Any, Dict, List, Optional, Tuple, Union

from . import _hlolayout as _core
from ._common import _text_and_name
from .shapes import Shape

__all__ = ["Instruction", "Computation", "Module", "read_hlo"]


class Instruction:
    """One HLO instruction: name, opcode, shape (Shape or None), operands."""

    __slots__ = ("name", "opcode", "shape", "operands", "attributes",
                 "is_root", "parameter_number")
    name: str
    opcode: str
    shape: Optional[Shape]
    operands: Tuple[str, ...]
    attributes: Dict[str, str]
    is_root: bool
    parameter_number: Optional[int]

    def __init__(self, d: Dict[str, Any]):
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
    name: str
    is_entry: bool
    instructions: Tuple[Instruction, ...]

    def __init__(self, d: Dict[str, Any]):
        self.name = d["name"]
        self.is_entry = d["is_entry"]
        self.instructions = tuple(Instruction(i) for i in d["instructions"])

    @property
    def root(self) -> Optional[Instruction]:
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
    name: str
    computations: Tuple[Computation, ...]
    entry: Optional[Computation]

    def __init__(self, d: Dict[str, Any]):
        self.name = d["name"]
        self.computations = tuple(Computation(c) for c in d["computations"])
        i = d["entry_index"]
        self.entry = self.computations[i] if 0 <= i < len(
            self.computations) else None

    def __repr__(self):
        return "<Module %s: %d computations>" % (self.name,
                                                  len(self.computations))



def read_hlo(path_or_text: Union[str, bytes, os.PathLike]) -> List[Module]:
    """HLO module text (a file path or the text) -> list of Module.

        >>> m = hl.read_hlo("ENTRY %e (p: f32[2]) -> f32[2] {\\n"
        ...                 "  ROOT %p = f32[2]{0} parameter(0)\\n}\\n")[0]
        >>> m.entry.root.name, str(m.entry.root.shape)
        ('p', 'f32[2]{0}')

    Several modules split by '// -----' lines are read in order.
    """
    text, name = _text_and_name(path_or_text)
    return [Module(m) for m in _core.read_hlo(text, name)]
