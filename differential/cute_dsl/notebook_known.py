"""The known differences of the notebook harness (notebooks.py): examples
of the DSL's notebooks and docs where the twin and the DSL print
differently, or one of them cannot run it, each with the DSL's rule that
explains it. An entry holds only while its status and evidence (a regular
expression the row's detail must match) hold: a new kind of difference in
the same cell is not hidden.

    KNOWN["notebook.ipynb:CELL"] = (status, evidence, rule)
"""

import re

_FLOATS = (
    "floating-point scalars: the example computes with Float32 values "
    "(cutlass.Float32(3.14), Int32 / Int32, x.to(Float32)) and prints them "
    "with printf; in the twin the float types are data types only (it "
    "models integers and layouts, the algebra of the notebooks on layouts), "
    "so it refuses with a TypeError rather than guess float32 rounding")

KNOWN = {
    "data_types.ipynb:2": ("twin-unsupported",
                           r"Float32 is a data type here", _FLOATS),
    "data_types.ipynb:4": ("twin-unsupported",
                           r"Float32 is a data type here", _FLOATS),
    "data_types.ipynb:6": ("twin-unsupported",
                           r"Float32 is a data type here", _FLOATS),
}


def explains(where, status, detail):
    """The rule of a known difference that matches the row, or None."""
    entry = KNOWN.get(where)
    if entry is None:
        return None
    want, evidence, rule = entry
    if want != status or not re.search(evidence, detail):
        return None
    return rule
