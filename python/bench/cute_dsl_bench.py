"""hlolayout.cute_dsl against the CuTe DSL itself on the same layouts, in one
run.

    ./bazelw run -c opt //python/bench:cute_dsl_bench
    ./bazelw run -c opt //python/bench:cute_dsl_bench -- --dsl-python VENV/bin/python

The DSL (nvidia-cutlass-dsl, pinned in differential/cute_dsl/requirements.txt)
runs in its own venv (differential/venv.sh makes it; --dsl-python names its
python); without it the DSL half is skipped with the reason.

Each case is one expression a kernel author writes (a layout op on layouts
built in the expression, as in the DSL; a tiled MMA's layout; an smem
helper), turned into text as the DSL prints it:

  twin          the expression evaluated by hlolayout.cute_dsl and str()'d:
                median over --reps calls (after a warm-up; the twin keeps
                the Python engine's answers and C++ tiled MMAs, so the
                same call again is mostly a look-up)
  cold          the same with every kept answer forgotten before each call
                (a first call)
  DSL trace     the DSL's host path to the same text: a @cute.jit function
                evaluating the expression and str()'ing it, traced with
                CUTE_DSL_DRYRUN=1 (no compilation, no GPU): median over
                --traces calls (each call traces again)
  DSL marginal  what one more evaluation costs inside a trace that is
                already running: (trace with --inner evaluations - trace
                with one) / (--inner - 1), median over --traces

The ratios DSL trace / twin (what a user waits for one answer) and DSL
marginal / twin (the DSL's op alone, with tracing paid for) are per case,
then their medians over the cases. Both sides are checked to print the same
text first.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

from hlolayout import cute_dsl

NV = "cute.nvgpu"
CASES = [
    ("make_layout", "cute.make_layout(((4, 8), (2, 4)), stride=((1, 64), (8, 16)))"),
    ("composition", "cute.composition(cute.make_layout(((4, 8), (2, 4)), stride=((1, 64), (8, 16))), cute.make_layout((8, 4), stride=(2, 16)))"),
    ("logical_divide", "cute.logical_divide(cute.make_layout((128, 64), stride=(64, 1)), (cute.make_layout(16), cute.make_layout(8)))"),
    ("zipped_divide", "cute.zipped_divide(cute.make_layout(((16, 8), (4, 32)), stride=((1, 512), (16, 4096))), (cute.make_layout((4, 2), stride=(1, 8)), cute.make_layout(8)))"),
    ("tiled_product", "cute.tiled_product(cute.make_layout((2, 4), stride=(4, 1)), cute.make_layout((8, 4)))"),
    ("raked_product", "cute.raked_product(cute.make_layout((4, 8), stride=(8, 1)), cute.make_layout((2, 2)))"),
    ("complement", "cute.complement(cute.make_layout(((2, 4), (3, 2)), stride=((1, 48), (8, 384))), 4096)"),
    ("right_inverse", "cute.right_inverse(cute.make_layout(((4, 8), (2, 4)), stride=((2, 64), (1, 16))))"),
    ("coalesce", "cute.coalesce(cute.make_layout((2, (1, 6), (4, (1, 2))), stride=(1, (6, 2), (12, (7, 48)))))"),
    ("dynamic composition", "cute.composition(cute.make_layout((cute.Int32(64), 32), stride=(32, 1)), cute.make_layout((4, 8)))"),
    ("swizzled tile_to_shape", "cute.tile_to_shape(cute.make_composed_layout(cute.make_swizzle(3, 4, 3), 0, cute.make_layout((8, 64), stride=(64, 1))), (128, 64), (0, 1))"),
    ("tiled MMA C layout", "cute.make_tiled_mma(%s.warp.MmaF16BF16Op(cute.Float16, cute.Float32, (16, 8, 16)), (2, 2, 1)).tv_layout_C_tiled" % NV),
    ("dynamic divide", "cute.logical_divide(cute.make_layout((cute.Int32(128), 64), stride=(64, 1)), (cute.make_layout(16), cute.make_layout(8)))"),
    ("sm90.make_smem_layout_a", "utils.sm90.make_smem_layout_a(utils.LayoutEnum.ROW_MAJOR, (128, 128, 64), cute.Float16, 4)"),
]

# The DSL side, run by the venv's python: reads the cases on stdin, prints
# JSON timings. Each trace evaluates the compiled expression in a plain
# helper (the DSL's AST rewriting leaves it alone).
_DSL_SIDE = r'''
import json, statistics, sys, time, warnings
warnings.simplefilter("ignore")
import cutlass
import cutlass.cute as cute
import cutlass.utils as utils
cfg = json.load(sys.stdin)
out = {}
state = {}
def run(code, n):
    for _ in range(n):
        r = eval(code, {"cute": cute, "utils": utils})
        state["text"] = str(r)
@cute.jit
def traced(key: cutlass.Constexpr, n: cutlass.Constexpr):
    run(state["codes"][key], n)
state["codes"] = {name: compile(expr, name, "eval") for name, expr in cfg["cases"]}
for name, expr in cfg["cases"]:
    traced(name, 1)
    text = state["text"]
    one, many = [], []
    for _ in range(cfg["traces"]):
        t = time.perf_counter(); traced(name, 1); one.append(time.perf_counter() - t)
        t = time.perf_counter(); traced(name, cfg["inner"]); many.append(time.perf_counter() - t)
    marginal = [(b - a) / (cfg["inner"] - 1) for a, b in zip(one, many)]
    out[name] = {"text": text, "trace": statistics.median(one),
                 "marginal": statistics.median(marginal)}
json.dump(out, sys.stdout)
'''


def _forget():
    """Empties the twin's kept answers: the Python engine's (_fast) and the
    C++ tiled MMAs, their shells and the operand layouts read from them
    (_atoms). The MMA atoms looked up by name (_atoms.find_mma_atom) stay:
    they are the compiled-in tables' entries, not answers, read once per
    name and process as the tables are loaded once."""
    from hlolayout.cute_dsl import _atoms, _fast
    _fast.memo_clear()
    _atoms._TILED_MMAS.clear()


def twin_times(reps):
    """Per case: the median call with the twin's kept answers (the same
    expression again, as the DSL's trace is run again) and cold (every
    kept answer forgotten before each call, not timed)."""
    out = {}
    ns = {"cute": cute_dsl, "utils": cute_dsl.utils}
    for name, expr in CASES:
        code = compile(expr, name, "eval")
        text = str(eval(code, ns))
        ts, cold = [], []
        for _ in range(reps):
            t = time.perf_counter()
            str(eval(code, ns))
            ts.append(time.perf_counter() - t)
            _forget()
            t = time.perf_counter()
            str(eval(code, ns))
            cold.append(time.perf_counter() - t)
        out[name] = {"text": text, "time": statistics.median(ts),
                     "cold": statistics.median(cold)}
    return out


def find_dsl_python(given):
    if given:
        return given, None
    repo = os.environ.get("BUILD_WORKSPACE_DIRECTORY") or os.getcwd()
    script = ("source differential/venv.sh && "
              "hlolayout_venv cute_dsl differential/cute_dsl/requirements.txt")
    if not os.path.exists(os.path.join(repo, "differential", "venv.sh")):
        return None, "no differential/venv.sh under %s (give --dsl-python)" % repo
    r = subprocess.run(["bash", "-c", script], cwd=repo, capture_output=True,
                       text=True)
    if r.returncode != 0:
        return None, "the DSL's venv cannot be made: " + r.stderr.strip()
    return os.path.join(r.stdout.strip(), "bin", "python"), None


def dsl_times(python, arch, traces, inner):
    env = dict(os.environ, CUTE_DSL_DRYRUN="1", CUTE_DSL_ARCH=arch)
    cfg = {"cases": CASES, "traces": traces, "inner": inner}
    # The DSL reads a jit function's source: the side runs from a file.
    with tempfile.TemporaryDirectory() as tmp:
        script = os.path.join(tmp, "dsl_side.py")
        with open(script, "w") as f:
            f.write(_DSL_SIDE)
        r = subprocess.run([python, script], input=json.dumps(cfg),
                           capture_output=True, text=True, env=env)
    if r.returncode != 0:
        raise RuntimeError("the DSL side failed:\n" + r.stderr[-2000:])
    return json.loads(r.stdout)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--dsl-python", default=os.environ.get(
        "HLOLAYOUT_CUTE_DSL_PYTHON", ""))
    p.add_argument("--arch", default="sm_90a")
    p.add_argument("--reps", type=int, default=2000)
    p.add_argument("--traces", type=int, default=21)
    p.add_argument("--inner", type=int, default=51)
    args = p.parse_args()
    cute_dsl.set_arch(args.arch)
    twin = twin_times(args.reps)
    python, why = find_dsl_python(args.dsl_python)
    dsl = None
    if python is None:
        print("DSL half skipped: %s" % why)
    else:
        dsl = dsl_times(python, args.arch, args.traces, args.inner)
    print("hlolayout.cute_dsl against the CuTe DSL (%s, CUTE_DSL_DRYRUN=1); "
          "medians; load average %.1f" % (args.arch, os.getloadavg()[0]))
    print("%-24s %8s %8s %12s %14s %8s %9s %8s" % (
        "case", "twin us", "cold us", "DSL trace ms", "DSL marginal us",
        "trace/x", "trace/cold", "marg/x"))
    trace_ratios, marginal_ratios, cold_ratios = [], [], []
    for name, _ in CASES:
        t = twin[name]
        row = "%-24s %8.2f %8.2f" % (name, t["time"] * 1e6, t["cold"] * 1e6)
        if dsl is not None:
            d = dsl[name]
            if d["text"] != t["text"]:
                sys.exit("%s: the DSL prints %s, the twin %s" % (
                    name, d["text"], t["text"]))
            tr = d["trace"] / t["time"]
            cr = d["trace"] / t["cold"]
            mr = d["marginal"] / t["time"]
            trace_ratios.append(tr)
            cold_ratios.append(cr)
            marginal_ratios.append(mr)
            row += " %12.3f %14.1f %8.0f %9.0f %8.1f" % (
                d["trace"] * 1e3, d["marginal"] * 1e6, tr, cr, mr)
        print(row)
    if dsl is not None:
        print("median over %d cases: the twin is %.0fx faster than a DSL "
              "trace (%.0fx cold), %.1fx faster than the DSL's op inside a "
              "trace" % (len(CASES), statistics.median(trace_ratios),
                         statistics.median(cold_ratios),
                         statistics.median(marginal_ratios)))
        print("lowest: %.0fx (%s), cold %.0fx (%s)" % (
            min(trace_ratios), CASES[trace_ratios.index(
                min(trace_ratios))][0],
            min(cold_ratios), CASES[cold_ratios.index(min(cold_ratios))][0]))


if __name__ == "__main__":
    main()
