"""The CuTe DSL harness: hlolayout.cute_dsl against NVIDIA's CuTe DSL
(nvidia-cutlass-dsl, traced on this machine with CUTE_DSL_DRYRUN=1).

    python3 compare.py --dsl-python VENV/bin/python [--seed N] [--ops N]
                       [--atoms N] [--archs sm_80,sm_90a,sm_100a,sm_120a] [--by-op]

(run.sh makes the venv and the twin and passes its arguments on; ci.sh is
the bounded CI sample.)

Generates seeded cases (cases.py for layouts, atom_cases.py for atoms and
tiled atoms, one DSL process per architecture), evaluates each with the
DSL (dsl_worker.py in the venv) and with the twin (here, in-process), and
compares the DSL's printed text with the twin's str(). Prints one table and
exits 1 on any difference that is not documented (README.md): a case is

  identical   both print the same text, or both refuse;
  documented  the twin refuses with WrongLayoutError where the DSL returns a
              layout that is not the function asked for: the twin's
              unchecked result prints the DSL's text, and the harness
              checks by evaluation that it is wrong (the witness);
  different   anything else.
"""

import argparse
import contextlib
import io
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import cases as layout_cases_mod  # noqa: E402


def twin_eval(expr, namespace):
    from hlolayout import cute_dsl
    try:
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            result = eval(expr, dict(namespace))
        if result is None:
            return {"ok": True, "text": printed.getvalue()}
        return {"ok": True, "text": _twin_text(result)}
    except cute_dsl.WrongLayoutError as ex:
        return {"ok": False, "error": "WrongLayoutError: %s" % ex,
                "wrong": ex}
    except Exception as ex:  # the twin's refusal
        return {"ok": False, "error": "%s: %s" % (type(ex).__name__, ex)}


def _twin_text(x):
    from hlolayout import cute_dsl
    if isinstance(x, tuple):
        return cute_dsl.pretty_str(x)
    return str(x)


def twin_unchecked(expr, namespace):
    from hlolayout import cute_dsl
    with cute_dsl.unchecked():
        return twin_eval(expr, namespace)


def run_dsl(dsl_python, arch, cases, workdir):
    """{id: result} from the DSL worker. The DSL's native code can die on
    some inputs (a SIGFPE in a divide by zero): the case being traced is
    then a refusal ("crashed") and the worker restarts after it."""
    path = os.path.join(workdir, "cases-%s.json" % arch)
    out = os.path.join(workdir, "dsl-%s.jsonl" % arch)
    with open(path, "w") as f:
        json.dump(cases, f)
    env = dict(os.environ, CUTE_DSL_DRYRUN="1", CUTE_DSL_ARCH=arch)
    results = {}
    start = 0
    while start < len(cases):
        proc = subprocess.run(
            [dsl_python, os.path.join(HERE, "dsl_worker.py"), path, out,
             str(start)], env=env, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True)
        done = 0
        with open(out) as f:
            for line in f:
                r = json.loads(line)
                results[r["id"]] = r
                done += 1
        if proc.returncode == 0 and start + done == len(cases):
            break
        if proc.returncode >= 0 and "Traceback" in proc.stderr[-4000:]:
            sys.stderr.write(proc.stderr[-4000:])
            raise SystemExit("compare: the DSL worker for %s failed (exit "
                             "%d)" % (arch, proc.returncode))
        crashed = cases[start + done]
        results[crashed["id"]] = {
            "id": crashed["id"], "ok": False, "crashed": True,
            "error": "the DSL process died (exit %d) tracing it" %
            proc.returncode}
        start += done + 1
    return results


_SWIZZLE = re.compile(r"S<-?\d+,-?\d+,-?\d+>")


def dsl_swizzle_text(text):
    """The DSL prints a swizzle by cutting its type's text at 8 characters
    (cute/core.py, Swizzle.__str__): S<2,4,-3> prints S<2,4,-3."""
    return _SWIZZLE.sub(lambda m: m.group(0)[:8], text)


# The DSL prints `x` for an integer it could not compute.
_UNKNOWN = re.compile(r"(^|[(,:])x([,):]|$)")
_BITS = re.compile(r"num_bits_per_copy=(\d+)")

# Refusals of the twin where the DSL answers, each with the rule that shows
# the DSL's answer is not a CuTe atom (README.md, "Documented
# differences"): (rule text, the twin's message contains, check(case)).
_REFUSALS = [
    ("the DSL prints x (an integer it could not compute) where CuTe refuses",
     "", lambda case, text: bool(_UNKNOWN.search(text))),
    ("the DSL builds a copy atom of fewer bits than one value (rounding up "
     "to one value), or a cp.async of a size PTX lacks; CuTe refuses",
     "bits", lambda case, text: _bad_copy_bits(case["expr"])),
    ("the DSL builds an 8-bit wgmma atom with an MN-major operand; PTX's "
     "8-bit wgmma reads A and B K-major only",
     "8-bit operands", lambda case, text: "OperandMajorMode.MN" in
     case["expr"]),
    ("the DSL builds a copy atom whose thread-value layouts do not cover "
     "its threads (an ldmatrix/stmatrix of 16-bit rows on 32-bit values); "
     "CuTe refuses", "CopyOperation is not valid",
     lambda case, text: _thread_count_mismatch(text)),
    ("the DSL's layout is wrong: tiled MMA whose permutation does not tile "
     "the atom (CuTe's logical_divide/composition preconditions fail); the "
     "DSL's TV layout repeats an element in one thread's values, gives a C "
     "element to two threads or leaves the tile",
     "make_tiled_mma: ", lambda case, text: _bad_tiled_tv(case, text)),
]

_TILED_TV = re.compile(r"\.tv_layout_([ABC])_tiled$")


def _bad_tiled_tv(case, text):
    """True when the DSL's tiled TV layout (its own text) is no partition
    of the tile: one thread's values repeat an element, two threads hold
    the same C element, or an index leaves the tile (the permutation's
    extents)."""
    import numpy as np
    from hlolayout import cute
    from hlolayout import cute_dsl
    m = _TILED_TV.search(case["expr"])
    if not m:
        return False
    operand = m.group(1)
    try:
        tm = eval(case["expr"][:m.start()], {"cute": cute_dsl})
        vmnk = cute_dsl._tuples.wrap(tm.thr_layout_vmnk.sh)
        extents = []
        for k in range(3):
            p = tm.permutation_mnk[k]
            extents.append(tm.shape_mnk[k] * cute_dsl._tuples.product(
                vmnk[k + 1]) if p is None else cute_dsl.size(p))
        rows, cols = {"A": (0, 2), "B": (1, 2), "C": (0, 1)}[operand]
        tile = extents[rows] * extents[cols]
        layout = cute.parse(text)
        threads = cute.size(layout[0])
        values = cute.size(layout[1])
        idx = np.asarray(layout(np.arange(threads * values)))
    except Exception:  # noqa: BLE001 (not a layout this check reads)
        return False
    if idx.min() < 0 or idx.max() >= tile:
        return True
    first = idx[0::threads]  # thread 0's values (column-major (T,V))
    if len(set(first.tolist())) < values:
        return True
    return operand == "C" and len(set(idx.tolist())) < idx.size


def _thread_count_mismatch(text):
    """True when the printed copy atom's ThrID has more threads than one of
    its TV layouts' thread modes (read from the DSL's own text)."""
    from hlolayout import cute
    fields = {}
    for line in text.split("\n"):
        if ":" in line:
            key, _, value = line.partition(":")
            fields[key.strip()] = value.strip()
    try:
        threads = cute.parse(fields["ThrID"]).size()
        return any(cute.parse(fields[k])[0].size() != threads
                   for k in ("TV Layout Src", "TV Layout Dst"))
    except (KeyError, ValueError, IndexError):
        return False


def _bad_copy_bits(expr):
    m = _BITS.search(expr)
    if not m:
        return False
    bits = int(m.group(1))
    widths = {"Float16": 16, "BFloat16": 16, "Float32": 32, "Uint8": 8,
              "Int32": 32, "Float64": 64}
    for name, w in widths.items():
        if "cute.%s, num_bits_per_copy" % name in expr and bits % w:
            return True
    return "CopyG2SOp" in expr and bits not in (32, 64, 128)


def classify(case, dsl, namespace):
    """(kind, twin result, note): kind identical, documented or different;
    note names the documented rule."""
    twin = twin_eval(case["expr"], namespace)
    if dsl["ok"] and twin["ok"]:
        if dsl["text"] == twin["text"]:
            return "identical", twin, None
        if dsl["text"] == dsl_swizzle_text(twin["text"]):
            return "documented", twin, "swizzle text cut at 8 characters"
        return "different", twin, None
    if not dsl["ok"] and not twin["ok"]:
        return "identical", twin, None
    if dsl["ok"] and not twin["ok"] and "wrong" not in twin:
        for rule, needle, check in _REFUSALS:
            if needle in twin["error"] and check(case, dsl["text"]):
                return "documented", twin, rule
    if dsl["ok"] and "wrong" in twin:
        un = twin_unchecked(case["expr"], namespace)
        witness = getattr(twin["wrong"], "witness", None)
        if witness and (twin["wrong"].rule == "complement-negative" or (
                twin["wrong"].rule in ("product", "divide") and
                "shape <= 0" in witness)):
            # CuTe leaves it undefined (a complement with a negative
            # stride, or built on one whose shape is <= 0, which the DSL
            # then computes with its own integer rounding): any DSL
            # layout is documented.
            return "documented", twin, "the DSL's layout is wrong: " + \
                witness_rule(twin["wrong"])
        if un["ok"] and un["text"] == dsl["text"] and witness:
            return "documented", twin, "the DSL's layout is wrong: " + \
                witness_rule(twin["wrong"])
    return "different", twin, None


def witness_rule(err):
    """The rule of a WrongLayoutError, in words."""
    from hlolayout import cute_dsl
    return cute_dsl.WRONG_LAYOUT_RULES.get(err.rule, str(err.rule))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dsl-python", required=True)
    ap.add_argument("--seed", type=int, default=20261124)
    ap.add_argument("--ops", type=int, default=3200,
                    help="random layout-op cases (default 3200)")
    ap.add_argument("--atoms", type=int, default=-1,
                    help="atom cases per architecture (-1: all of them)")
    ap.add_argument("--archs", default="sm_80,sm_90a,sm_100a,sm_120a")
    ap.add_argument("--show", type=int, default=20,
                    help="differences to print in full")
    ap.add_argument("--keep", help="folder to keep the cases and results in")
    ap.add_argument("--by-op", action="store_true",
                    help="a table row per op or atom family, not per group")
    args = ap.parse_args()

    from hlolayout import cute_dsl
    namespace = {"cute": cute_dsl, "utils": cute_dsl.utils}
    rng = random.Random(args.seed)
    groups = []  # (arch, cases)
    if args.ops:
        groups.append(("sm_90a", layout_cases_mod.layout_cases(rng,
                                                               args.ops)))
    if args.atoms:
        import atom_cases
        for arch in args.archs.split(","):
            cs = atom_cases.atom_cases(random.Random(args.seed), arch,
                                       args.atoms)
            groups.append((arch, cs))

    workdir = args.keep or tempfile.mkdtemp(prefix="cute-dsl-harness-")
    os.makedirs(workdir, exist_ok=True)
    table = {}
    shown = 0
    failures = 0
    notes = {}
    start = time.time()
    for arch, cs in groups:
        t0 = time.time()
        dsl = run_dsl(args.dsl_python, arch, cs, workdir)
        dsl_seconds = time.time() - t0
        cute_dsl.set_arch(arch)
        for case in cs:
            kind, twin, note = classify(case, dsl[case["id"]], namespace)
            if note:
                notes[note] = notes.get(note, 0) + 1
            key = (case["group"], arch, case["op"])
            row = table.setdefault(key, {"cases": 0, "identical": 0,
                                         "refused": 0, "documented": 0,
                                         "different": 0})
            row["cases"] += 1
            row[kind] += 1
            if kind == "identical" and not twin["ok"]:
                row["refused"] += 1
            if kind == "different":
                failures += 1
                if shown < args.show:
                    shown += 1
                    d = dsl[case["id"]]
                    print("DIFFERENT %s [%s %s]\n  expr: %s\n  dsl:  %s\n"
                          "  twin: %s" % (case["id"], arch, case["op"],
                                          case["expr"],
                                          d.get("text", d.get("error")),
                                          twin.get("text",
                                                   twin.get("error"))))
        print("%s: %d cases, DSL %.1f s" % (arch, len(cs), dsl_seconds),
              file=sys.stderr)
    print_table(table, args, time.time() - start)
    if notes:
        print()
        print("Documented differences (differential/cute_dsl/README.md):")
        for note, n in sorted(notes.items()):
            print("  %5d  %s" % (n, note))
    return 1 if failures else 0


_KEYS = ("cases", "identical", "refused", "documented", "different")


def _row(label, row):
    return "| %s | %d | %d (%d) | %d | %d |" % (
        label, row["cases"], row["identical"], row["refused"],
        row["documented"], row["different"])


def print_table(table, args, seconds):
    """One table: a row per layout op (group op) or atom family (group atom)
    and architecture with --by-op, else a row per group and architecture;
    then the total."""
    print()
    print("CuTe DSL harness, seed %d (%.0f s)" % (args.seed, seconds))
    print("| group | arch | op | cases | identical (of which both refuse) "
          "| documented | different |")
    print("|---|---|---|---|---|---|---|")
    tot = dict.fromkeys(_KEYS, 0)
    groups = {}
    for (group, arch, op), row in sorted(table.items()):
        if args.by_op:
            print(_row("%s | %s | %s" % (group, arch, op), row))
        g = groups.setdefault((group, arch), dict.fromkeys(_KEYS, 0))
        for k in _KEYS:
            tot[k] += row[k]
            g[k] += row[k]
    if not args.by_op:
        for (group, arch), row in sorted(groups.items()):
            ops = sum(1 for key in table if key[:2] == (group, arch))
            print(_row("%s | %s | %d kinds" % (group, arch, ops), row))
    print(_row("all | |", tot))


if __name__ == "__main__":
    sys.exit(main())
