"""The CuTe DSL side of the harness: runs inside the venv of
requirements.txt, one process per architecture.

    CUTE_DSL_DRYRUN=1 CUTE_DSL_ARCH=sm_90a venv/bin/python dsl_worker.py \
        cases.json results.jsonl 0

Each case's expression is evaluated inside its own `@cute.jit` function
(traced, not compiled: CUTE_DSL_DRYRUN=1 stops once the IR is built), and
what the DSL prints for the result is captured: `cute.pretty_str(x)` for
tuples, `print(x)` for the rest, and for an expression that prints and
returns None (cute.viz.print_latex) what it printed. A case whose evaluation
raises, or whose trace fails afterwards (the IR verifier), is a refusal
with the first line of the DSL's message. Writes one JSON line per case:
{"id", "ok": true, "text"} or {"id", "ok": false, "error"}.
"""

import contextlib
import io
import json
import os
import re
import sys

import cutlass
import cutlass.cute as cute
import cutlass.utils as utils

_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_NAMESPACE = {"cute": cute, "utils": utils, "cutlass": cutlass}
_current = {}


def _first_error_line(ex):
    text = _ANSI.sub("", str(ex)).strip()
    lines = [l.strip() for l in text.split("\n") if l.strip()]
    for l in lines:
        if l.startswith("error"):
            return l[:300]
    return (lines[0] if lines else type(ex).__name__)[:300]


def _text(x):
    """What `print(x)` shows inside the trace; for a tuple (whose print
    would show its elements' repr), the DSL's own cute.pretty_str."""
    if isinstance(x, tuple):
        return cute.pretty_str(x)
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        print(x)
    return buf.getvalue()[:-1]


def evaluate(expr):
    """Runs inside the traced function (a plain Python helper, so the DSL's
    AST rewriting does not touch it)."""
    try:
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            result = eval(expr, dict(_NAMESPACE))
        # A call that prints (cute.viz.print_latex) and returns None: what
        # it printed.
        text = printed.getvalue() if result is None else _text(result)
        _current["result"] = {"ok": True, "text": text}
    except Exception as ex:  # the DSL's refusal, whatever its type
        _current["result"] = {"ok": False, "error": "%s: %s" % (
            type(ex).__name__, _first_error_line(ex))}


@cute.jit
def traced(expr: cutlass.Constexpr):
    evaluate(expr)


def run_case(expr):
    _current.clear()
    try:
        traced(expr)
    except Exception as ex:
        # The trace failed after the expression ran (the IR verifier).
        res = _current.get("result")
        if res is None or res.get("ok"):
            return {"ok": False, "error": "%s: %s" % (
                type(ex).__name__, _first_error_line(ex))}
    return _current.get("result") or {"ok": False, "error": "no result"}


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: dsl_worker.py CASES.json RESULTS.jsonl START")
    with open(sys.argv[1]) as f:
        cases = json.load(f)[int(sys.argv[3]):]
    import warnings
    warnings.simplefilter("ignore")
    with open(sys.argv[2], "w") as out:
        for case in cases:
            res = run_case(case["expr"])
            res["id"] = case["id"]
            out.write(json.dumps(res) + "\n")
            out.flush()


if __name__ == "__main__":
    if os.environ.get("CUTE_DSL_DRYRUN") != "1":
        sys.exit("dsl_worker.py: set CUTE_DSL_DRYRUN=1 (trace only)")
    main()
