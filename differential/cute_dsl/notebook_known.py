"""The known differences of the notebook harness (notebooks.py): examples
of the DSL's notebooks and docs where the twin and the DSL print
differently, or one of them cannot run it, each with the DSL's rule that
explains it. An entry holds only while its status and evidence (a regular
expression the row's detail must match) hold: a new kind of difference in
the same cell is not hidden.

    KNOWN["notebook.ipynb:CELL"] = (status, evidence, rule)
"""

import re

# data_types.ipynb's cells 2, 4 and 6 were entries ("twin-unsupported")
# until the twin computed with Float32 values. An entry: where -> (status,
# evidence regex, reason).
KNOWN = {
    "framework_integration.rst:0": (
        "differs",
        r"^line 2: DSL \"<class 'cutlass\.cute\.tensor\._Tensor'>\", twin "
        r"\"<class 'hlolayout\.cute_dsl\.tensor\.Tensor'>\"$",
        "type-name: `print(type(src))` of a tensor argument names the "
        "implementation's class (the DSL's cutlass.cute.tensor._Tensor, the "
        "twin's hlolayout.cute_dsl.tensor.Tensor); the tensor itself prints "
        "the same (line 1)"),
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
