"""`cute.printf` and what a jit function's run prints: each text is held
until the jit function running returns (its trace's prints come first),
as the DSL prints a run's output after its trace; outside one it is
printed at once. Tensors' `print_tensor` (tensor.py) prints through
`emit` too; the jit functions themselves (_jit.py) hold the texts of
their run (`held`).

    >>> from hlolayout.cute_dsl import _printf
    >>> _printf.printf("{} and {}", (4, 8))
    (4,8) and {}
    >>> with _printf.held() as texts:
    ...     _printf.printf("%d", 7)
    >>> texts
    ['7\\n']
"""

import contextlib
import sys

from . import _tuples
from ._floats import FloatValue
from ._ints import DynInt
from ._objects import ComposedLayout, Layout, ScaledBasis, Swizzle

__all__ = ["printf"]

# The printf texts of the jit functions running, innermost last: a jit
# function called from another is part of the same trace and run.
_runs = []


def running():
    """Whether a jit function is running (its texts are held)."""
    return bool(_runs)


@contextlib.contextmanager
def held():
    """The texts printed inside, held in the list it yields."""
    _runs.append([])
    try:
        yield _runs[-1]
    finally:
        _runs.pop()


def run_text(x):
    """What printf prints for x: the values a run computes."""
    if isinstance(x, bool):
        return "1" if x else "0"
    if isinstance(x, DynInt):
        return str(x.value)
    if type(x) is int:
        return str(x)
    if isinstance(x, float):
        return "%f" % x
    if isinstance(x, FloatValue):
        return "%f" % x.run_value()
    if isinstance(x, ScaledBasis):
        return "@".join([run_text(x.value)] +
                        [str(m) for m in reversed(x.modes)])
    if isinstance(x, tuple) or x is None:
        return _tuples.text(tuple(x) if x is not None else x, run_text)
    if isinstance(x, Layout):
        return run_text(x.sh) + ":" + run_text(x.st)
    if isinstance(x, ComposedLayout):
        return " o ".join(run_text(p) if not isinstance(p, Swizzle)
                          else str(p) for p in (x.inner, x.offset, x.outer))
    raise TypeError("printf cannot print %s (the DSL prints integers, "
                    "tuples of them and layouts)" % type(x).__name__)


def _c_value(x):
    if isinstance(x, bool):
        return int(x)
    if isinstance(x, DynInt):
        return x.value
    if isinstance(x, (int, float)):
        return x
    if isinstance(x, FloatValue):
        return x.run_value()
    raise TypeError("unsupported argument type in printf, got %s" %
                    type(x).__name__)


def printf(*args):
    """The DSL's cute.printf: prints when the function runs, with the
    values (a line each call). A format string with `{}` takes the
    arguments' texts in order (a `{}` without one stays); one with C
    conversions (`%d`) takes their values; without a format string the
    arguments are printed separated by ", "."""
    if args and isinstance(args[0], str):
        fmt, rest = args[0], list(args[1:])
        if "{}" in fmt:
            parts = fmt.split("{}")
            text = parts[0]
            for i, part in enumerate(parts[1:]):
                text += (run_text(rest[i]) if i < len(rest) else "{}") + \
                    part
        elif rest:
            text = fmt % tuple(_c_value(x) for x in rest)
        else:
            text = fmt
    else:
        text = ", ".join(run_text(x) for x in args)
    emit(text + "\n")


def emit(text):
    """Prints what the run prints: held until the jit function running
    returns (its trace's prints come first), at once outside one."""
    if _runs:
        _runs[-1].append(text)
    else:
        sys.stdout.write(text)
