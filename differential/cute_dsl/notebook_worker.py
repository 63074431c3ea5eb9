"""Runs the cells of one notebook (or the examples of one doc page) in
order, in one process, as Jupyter would, and records what each printed.

    notebook_worker.py [--twin] JOB.json RESULTS.jsonl

JOB.json: {"source": name, "workdir": dir, "cells": [{"id", "role",
"code"}]}, role "setup" (imports and definitions) or "example". Each cell's
code is written to its own file under workdir (the DSL reads a @cute.jit
function's source back from its file) and executed in the notebook's one
namespace; everything written to file descriptor 1 while it runs is its
output: Python's print (the DSL's trace time) and C's printf (the DSL's
`cute.printf`, run by the JIT-compiled host code), flushed after the cell.
Writes one JSON line per cell: {"id", "out", "error"} (error None, or the
exception's type and first line).

With --twin, `cutlass.cute` is hlolayout.cute_dsl, and `cutlass` a module
whose names are the twin's (cutlass.Int32 is cute_dsl.Int32, ...); a name
the twin lacks raises AttributeError naming it. Without --twin this runs in
the DSL's venv with the real `cutlass`.

In a cell an `import` of a module this interpreter lacks is skipped and
recorded: an example that needs it fails with a NameError naming it.
NumPy's and PyTorch's generators are seeded, so both sides draw alike.
"""

import ast
import ctypes
import io
import json
import os
import re
import sys
import tempfile
import types

_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_LIBC = ctypes.CDLL(None)


def first_error_line(ex):
    """The exception's type and the line of its message that says what
    went wrong (the DSL's messages open with banners: its `error` line)."""
    text = _ANSI.sub("", str(ex)).strip()
    lines = [l.strip() for l in text.split("\n") if l.strip()]
    pick = next((l for l in lines if l.lower().startswith("error")),
                lines[0] if lines else "")
    return ("%s: %s" % (type(ex).__name__, pick))[:300]


def install_twin():
    """`import cutlass` and `import cutlass.cute as cute` give the twin."""
    from hlolayout import cute_dsl

    cutlass = types.ModuleType("cutlass")
    cutlass.__path__ = []  # a package, so that `import cutlass.cute` works
    cutlass.cute = cute_dsl

    def missing(name):
        if name.startswith("__"):
            raise AttributeError(name)
        if hasattr(cute_dsl, name):
            return getattr(cute_dsl, name)
        raise AttributeError("the twin has no cutlass.%s" % name)

    cutlass.__getattr__ = missing
    sys.modules["cutlass"] = cutlass
    sys.modules["cutlass.cute"] = cute_dsl
    sys.modules["cutlass.utils"] = cute_dsl.utils
    cutlass.utils = cute_dsl.utils
    from hlolayout.cute_dsl import torch_interop
    sys.modules["cutlass.torch"] = torch_interop
    cutlass.torch = torch_interop
    for name, module in list(sys.modules.items()):
        if name.startswith("hlolayout.cute_dsl."):
            sys.modules["cutlass.cute." + name[len("hlolayout.cute_dsl."):]] \
                = module


def _run_statements(code, path, namespace):
    """A cell statement by statement: an import of a missing module is
    skipped (and returned), anything else raises."""
    skipped = []
    for node in ast.parse(code, path).body:
        one = compile(ast.Module(body=[node], type_ignores=[]), path, "exec")
        try:
            exec(one, namespace)
        except ModuleNotFoundError as ex:
            if not isinstance(node, (ast.Import, ast.ImportFrom)):
                raise
            skipped.append(ex.name)
    return skipped


def run_cell(cell, workdir, namespace):
    """{"out", "error"} of one cell, its output read from fd 1."""
    path = os.path.join(workdir, "cell_%s.py" % cell["id"])
    with open(path, "w") as f:
        f.write(cell["code"])
    capture = tempfile.TemporaryFile()
    sys.stdout.flush()
    _LIBC.fflush(None)
    saved = os.dup(1)
    os.dup2(capture.fileno(), 1)
    # Python's prints go to fd 1 too, whatever sys.stdout was (pytest's).
    old_stdout = sys.stdout
    sys.stdout = io.TextIOWrapper(io.FileIO(1, "w", closefd=False),
                                  encoding="utf-8", write_through=True)
    error = None
    skipped = []
    try:
        skipped = _run_statements(cell["code"], path, namespace)
    except Exception as ex:  # noqa: BLE001 (the cell's failure is data)
        error = first_error_line(ex)
    finally:
        sys.stdout.flush()
        sys.stdout = old_stdout
        _LIBC.fflush(None)
        os.dup2(saved, 1)
        os.close(saved)
    capture.seek(0)
    out = capture.read().decode("utf-8", errors="replace")
    return {"id": cell["id"], "out": _ANSI.sub("", out), "error": error,
            "skipped_imports": skipped}


def _seed():
    """Seeds NumPy's global generator (where NumPy is there), so that an
    example drawing random inputs (np.random.randn) draws the same values
    in both processes: both interpreters have NumPy 1.24.2
    (requirements.txt pins Debian's)."""
    try:
        import numpy
    except ModuleNotFoundError:
        return
    numpy.random.seed(0)


def _seed_torch():
    """Once a cell has imported PyTorch (a source's imports run first),
    seeds its generator, so that torch.randn draws alike on both sides
    (the same library: Debian's torch, torch.sh). Not imported otherwise:
    importing torch takes seconds."""
    torch = sys.modules.get("torch")
    if torch is None or getattr(torch, "_hlolayout_seeded", False):
        return
    torch.manual_seed(0)
    torch._hlolayout_seeded = True
    # Debian's torch 1.13 predates the float8 and float4 types, which the
    # DSL's cutlass.torch tables name (its dtype() reads them all): a
    # placeholder for each, no dtype (a cell that uses one fails).
    for name in MISSING_TORCH_DTYPES:
        if not hasattr(torch, name):
            setattr(torch, name, _NoDtype(name))


# The torch dtypes the DSL's cutlass.torch reads that torch 1.13 lacks.
MISSING_TORCH_DTYPES = ("float8_e5m2", "float8_e4m3fn", "float8_e4m3fnuz",
                        "float4_e2m1fn_x2")


class _NoDtype:
    """A placeholder for a torch dtype this torch lacks."""

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return "<torch.%s: not in this torch>" % self.name


def main(argv):
    twin = "--twin" in argv
    argv = [a for a in argv if a != "--twin"]
    if len(argv) != 2:
        sys.exit("usage: notebook_worker.py [--twin] JOB.json RESULTS.jsonl")
    with open(argv[0]) as f:
        job = json.load(f)
    if twin:
        install_twin()
    import warnings
    warnings.simplefilter("ignore")
    _seed()
    namespace = {"__name__": "__main__"}
    with open(argv[1], "w") as out:
        for cell in job["cells"]:
            out.write(json.dumps(run_cell(cell, job["workdir"], namespace)) +
                      "\n")
            _seed_torch()
            out.flush()


if __name__ == "__main__":
    main(sys.argv[1:])
