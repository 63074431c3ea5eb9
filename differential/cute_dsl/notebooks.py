"""The CuTe DSL's own notebooks and docs, run with the DSL and with the
twin: every example whose body runs on the CPU (layout algebra, numbers,
tensors in host memory, PyTorch CPU tensors; no kernel) printed by both,
compared line for line.

    python3 notebooks.py --dsl-python VENV/bin/python [--cutlass-git DIR]
                         [--sample N --seed S] [--list]
                         [--torch-missing REASON]

(run.sh --notebooks makes the venv and the twin, gives both PyTorch
(torch.sh; --torch-missing with the reason where it cannot) and passes its
arguments on; ci.sh runs a bounded sample.) notebook_sources.py reads the
notebooks (examples/python/CuTeDSL/cute/notebooks/*.ipynb) and doc pages
(media/docs/pythonDSL/**.rst) of a pinned CUTLASS commit and classifies
every code cell; notebook_worker.py runs a source's setup cells and
examples in order, once in the DSL's venv (not a dry run: `print` shows
what the trace sees, and the JIT-compiled host code runs on this CPU, so
`cute.printf` prints its run-time values) and once with hlolayout.cute_dsl
as `cutlass.cute`. Prints a row per example:

  same                     both print the same text (memory addresses,
                           0x..., masked);
  differs                  both run, the texts differ (the first line
                           that differs is shown);
  dsl-cannot-run-on-cpu    the DSL fails for want of a GPU (its reason);
  same-error               both fail the same way: the same exception
                           and first error line, after the same output
                           (the DSL refuses and so does the twin);
  dsl-fails                the DSL fails otherwise (its reason);
  twin-unsupported         the twin fails (what it lacks).

Exit status 1 when a row is differs, dsl-fails or twin-unsupported and
not listed in notebook_known.py with the DSL's rule that explains it; 0
otherwise; 77 when the notebooks cannot be read (no clone, no network).
"""

import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import notebook_known  # noqa: E402
import notebook_sources  # noqa: E402

_ADDRESS = re.compile(r"0x[0-9a-fA-F]+")
# A failure for want of a GPU: the driver's, or PyTorch's CPU build asked
# for CUDA tensors, streams or graphs ("Torch not compiled with CUDA
# enabled", "dummy base class CUDAGraph").
_GPU = re.compile(r"CUDA_ERROR|cuInit|no CUDA-capable|libcuda|GPU|NVIDIA "
                  r"(display )?driver|not compiled with CUDA|dummy base "
                  r"class CUDA", re.I)
FAILING = ("differs", "dsl-fails", "twin-unsupported")
# --gpu-cells rows, never compared: dsl-runs-on-cpu, dsl-cannot-run-on-cpu
# (a GPU is needed: its reason), dsl-cannot-run-here (another reason: a
# module the venv lacks, a page's missing names).


def run_worker(python, source, cells, workdir, twin, env=None):
    """[{"id", "out", "error"}] for `cells` run in order in one process;
    cells after a crash of the process get the crash as their error."""
    job = os.path.join(workdir, "%s-%s.json" % (source, "twin" if twin
                                                else "dsl"))
    out = job + "l"
    cell_dir = os.path.join(workdir, "twin" if twin else "dsl")
    os.makedirs(cell_dir, exist_ok=True)
    with open(job, "w") as f:
        json.dump({"source": source, "workdir": cell_dir, "cells": cells}, f)
    cmd = [python, os.path.join(HERE, "notebook_worker.py")]
    cmd += ["--twin"] if twin else []
    proc = subprocess.run(cmd + [job, out], env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True)
    results = {}
    if os.path.exists(out):
        with open(out) as f:
            for line in f:
                r = json.loads(line)
                results[r["id"]] = r
    died = "the process died (exit %d): %s" % (
        proc.returncode, proc.stderr.strip().split("\n")[-1][:200])
    return [results.get(c["id"]) or {"id": c["id"], "out": "",
                                     "error": died} for c in cells]


def _same_failure(dsl, twin):
    """Both sides printed the same and failed with the same exception and
    first error line (memory addresses masked)."""
    return all(_ADDRESS.sub("0x?", dsl[k]) == _ADDRESS.sub("0x?", twin[k])
               for k in ("out", "error"))


def verdict(dsl, twin):
    """(status, detail) of one example from both sides' results."""
    if dsl["error"]:
        if _GPU.search(dsl["error"]):
            return "dsl-cannot-run-on-cpu", dsl["error"]
        if twin["error"] and _same_failure(dsl, twin):
            return "same-error", dsl["error"]
        return "dsl-fails", dsl["error"]
    if twin["error"]:
        return "twin-unsupported", twin["error"]
    a = _ADDRESS.sub("0x?", dsl["out"]).split("\n")
    b = _ADDRESS.sub("0x?", twin["out"]).split("\n")
    if a == b:
        return "same", "%d lines" % (len(a) - 1)
    for i, (x, y) in enumerate(zip(a + [""] * len(b), b + [""] * len(a))):
        if x != y:
            return "differs", "line %d: DSL %r, twin %r" % (i + 1, x, y)
    raise AssertionError("unreachable")


def _role(cell, gpu_cells):
    """The role a cell runs in: example, setup, gpu (a cell that needs a
    GPU and calls something, run with the DSL alone), gpu-setup (one that
    defines kernels, run with the DSL alone) or None."""
    if cell.role in ("example", "setup"):
        return cell.role
    if gpu_cells and cell.gpu:
        return "gpu" if cell.calls else "gpu-setup"
    return None


def gpu_verdict(dsl):
    """(status, detail) of a cell that needs a GPU, run with the DSL
    alone: never compared, never failing."""
    if not dsl["error"]:
        return "dsl-runs-on-cpu", "not layout algebra; not compared"
    if _GPU.search(dsl["error"]):
        return "dsl-cannot-run-on-cpu", dsl["error"]
    return "dsl-cannot-run-here", dsl["error"]


def _with_prerequisites(by_path, chosen, gpu_cells):
    """`chosen` and the earlier examples whose names a chosen one reads
    (print.ipynb:9 calls what print.ipynb:7 compiled)."""
    out = set(chosen)
    for cs in by_path.values():
        needed = set()
        for c in reversed(cs):
            role = _role(c, gpu_cells)
            if role not in ("example", "gpu"):
                continue
            tree = notebook_sources._parse(c.code)
            if c.where not in out and needed & notebook_sources._bound(tree):
                out.add(c.where)
            if c.where in out:
                needed |= notebook_sources._used_now(tree)
    return out


def plan(by_path, sample, seed, gpu_cells=False):
    """{source: [cell dicts]} to run: each source that has an example (or
    with gpu_cells, a cell that needs a GPU), its imports first, then its
    setup cells and examples in order; with `sample`, that many examples
    drawn with `seed` (their setup kept)."""
    examples = [c for cs in by_path.values() for c in cs
                if _role(c, gpu_cells) in ("example", "gpu")]
    if sample is not None and sample < len(examples):
        examples = random.Random(seed).sample(examples, sample)
    chosen = _with_prerequisites(by_path, {c.where for c in examples},
                                 gpu_cells)
    jobs = {}
    for path, cs in by_path.items():
        mine = [c for c in cs if c.where in chosen]
        if not mine:
            continue
        last = max(c.index for c in mine)
        run = [{"id": "imports", "role": "setup",
                "code": notebook_sources.source_imports(cs)}]
        run += [{"id": c.where, "role": _role(c, gpu_cells), "code": c.code}
                for c in cs if c.index <= last and (
                    _role(c, gpu_cells) in ("setup", "gpu-setup") or
                    c.where in chosen)]
        jobs[os.path.basename(path)] = run
    return jobs


def _with_setup(result, setup_error):
    """An example's result, its error followed by that of the setup cell
    that failed before it (the cause of a NameError)."""
    if result["error"] and setup_error:
        return dict(result, error="%s (after setup %s)" % (result["error"],
                                                          setup_error))
    return result


def compare(dsl_python, jobs, workdir):
    """[(where, status, detail)] of every example in `jobs`."""
    rows = []
    env = dict(os.environ)
    env.pop("CUTE_DSL_DRYRUN", None)  # run the host code, printf included
    for source, cells in jobs.items():
        dsl = run_worker(dsl_python, source, cells, workdir, False, env)
        mine = [c for c in cells if c["role"] in ("setup", "example")]
        twin = {r["id"]: r for r in run_worker(sys.executable, source, mine,
                                               workdir, True)}
        failed = {"dsl": None, "twin": None}
        for cell, d in zip(cells, dsl):
            if cell["role"].startswith("gpu"):
                if cell["role"] == "gpu":
                    rows.append((cell["id"],) + gpu_verdict(d))
                continue
            t = twin[cell["id"]]
            if cell["role"] == "example":
                rows.append((cell["id"],) + verdict(
                    _with_setup(d, failed["dsl"]),
                    _with_setup(t, failed["twin"])))
                continue
            for side, r in (("dsl", d), ("twin", t)):
                if r["error"]:
                    failed[side] = "%s: %s" % (cell["id"], r["error"])
    return rows


def judge(rows):
    """[(where, status, detail, known-rule or None, failing)]."""
    out = []
    for where, status, detail in rows:
        rule = notebook_known.explains(where, status, detail)
        out.append((where, status, detail, rule,
                    status in FAILING and rule is None))
    return out


def print_table(judged, skipped):
    print("| notebook | cell | status | detail |")
    print("|---|---|---|---|")
    for where, status, detail, rule, failing in judged:
        source, cell = where.rsplit(":", 1)
        note = " (known: %s)" % rule.split(":")[0] if rule else ""
        mark = " **undocumented**" if failing else ""
        print("| %s | %s | %s%s | %s%s |" % (source, cell, status, mark,
                                             detail.replace("|", "\\|"),
                                             note))
    totals = {}
    for row in judged:
        totals[row[1]] = totals.get(row[1], 0) + 1
    print()
    print("rows: %d (%s); undocumented: %d" % (
        len(judged), ", ".join("%s %d" % kv for kv in sorted(totals.items())),
        sum(1 for r in judged if r[4])))
    rules = sorted({r[3] for r in judged if r[3]})
    for rule in rules:
        print("known: %s" % rule)
    reasons = {}
    for c in skipped:
        kind = ("needs a skipped cell's values" if c.reason.startswith(
            "needs ") and c.reason.endswith("of a skipped cell")
            else c.reason.split(":")[0])
        reasons[kind] = reasons.get(kind, 0) + 1
    print("cells not run: %d (%s)" % (len(skipped), "; ".join(
        "%s: %d" % kv for kv in sorted(reasons.items(), key=lambda x: -x[1]))))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dsl-python", required=False)
    ap.add_argument("--cutlass-git", help="a clone of NVIDIA/cutlass with "
                    "commit %s" % notebook_sources.COMMIT)
    ap.add_argument("--sample", type=int, help="run this many examples")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--gpu-cells", action="store_true",
                    help="also run the cells that need a GPU, with the DSL "
                    "alone, to record why they cannot run here")
    ap.add_argument("--torch-missing", metavar="REASON",
                    help="PyTorch cannot be had (run.sh: torch.sh's "
                    "reason): its cells are skipped with the reason")
    ap.add_argument("--list", action="store_true",
                    help="print every cell's classification and stop")
    args = ap.parse_args(argv)
    try:
        sources = notebook_sources.load(git_dir=args.cutlass_git)
    except notebook_sources.SourceError as ex:
        print("notebooks: %s" % ex, file=sys.stderr)
        return 77
    by_path = notebook_sources.cells(sources, args.torch_missing)
    if args.list:
        for cs in by_path.values():
            for c in cs:
                print("%s\t%s\t%s" % (c.where, c.role, c.reason))
        return 0
    if not args.dsl_python:
        ap.error("--dsl-python is required")
    skipped = [c for cs in by_path.values() for c in cs if c.role == "skip"
               and not (args.gpu_cells and c.gpu)]
    with tempfile.TemporaryDirectory() as workdir:
        rows = compare(args.dsl_python, plan(by_path, args.sample,
                                             args.seed, args.gpu_cells),
                       workdir)
    judged = judge(rows)
    print("CuTe DSL notebooks and docs at NVIDIA/cutlass@%s" %
          notebook_sources.COMMIT[:12])
    print_table(judged, skipped)
    return 1 if any(r[4] for r in judged) else 0


if __name__ == "__main__":
    sys.exit(main())
