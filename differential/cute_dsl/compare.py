"""The CuTe DSL harness: hlolayout.cute_dsl against NVIDIA's CuTe DSL
(nvidia-cutlass-dsl, traced on this machine with CUTE_DSL_DRYRUN=1).

    python3 compare.py --dsl-python VENV/bin/python [--seed N] [--ops N]
                       [--coords N] [--atoms N] [--domains N]
                       [--archs sm_80,sm_90a,sm_100a,sm_120a] [--by-op]

(run.sh makes the venv and the twin and passes its arguments on; ci.sh is
the bounded CI sample.)

Generates seeded cases (cases.py for layouts, coord_cases.py for crd2idx and
cosize on scaled-basis strides, atom_cases.py for atoms and
tiled atoms, domain_cases.py for every op class and smem helper over a grid
of its parameters; one DSL process per architecture), evaluates each with the
DSL (dsl_worker.py in the venv) and with the twin (here, in-process), and
compares the DSL's printed text with the twin's str(). Prints one table, the
refusal categories of both sides, the documented rules and the reasons of
the differences, and exits 1 on any difference (README.md): a case is

  identical   both print the same text;
  refused     both refuse for the same reason (refusals.py's categories);
  documented  the DSL answers and the twin refuses under a rule of
              README.md that the harness checks on the case (rules.py
              evaluates the operands and the DSL's answer);
  different   anything else, and every crash of the twin.
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
import refusals  # noqa: E402
import rules  # noqa: E402


def twin_eval(expr, namespace):
    """The twin's answer: {"ok": True, "text", "value"} or a refusal
    {"ok": False, "error", "category"} (with "wrong", the WrongLayoutError)
    or a crash {"ok": False, "error", "crash": True} (refusals.is_refusal:
    an exception the twin did not raise on purpose)."""
    from hlolayout import cute_dsl
    printed = io.StringIO()
    try:
        # Strict: a wrong answer of the DSL raises WrongLayoutError, which
        # classify() checks (the default returns it with a warning).
        with contextlib.redirect_stdout(printed), cute_dsl.strict():
            result = eval(expr, dict(namespace))
            text = (printed.getvalue() if result is None
                    else _twin_text(result))
        return {"ok": True, "text": text, "value": result}
    except Exception as ex:  # noqa: BLE001 (sorted just below)
        error = "%s: %s" % (type(ex).__name__, ex)
        if not refusals.is_refusal(ex):
            return {"ok": False, "error": error, "crash": True,
                    "category": "crash"}
        out = {"ok": False, "error": error,
               "category": refusals.twin_category(ex)}
        if isinstance(ex, cute_dsl.WrongLayoutError):
            out["wrong"] = ex
            out["category"] = "wrong-layout"
        return out


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
    tag = "%s-%s" % (cases[0]["group"], arch) if cases else arch
    path = os.path.join(workdir, "cases-%s.json" % tag)
    out = os.path.join(workdir, "dsl-%s.jsonl" % tag)
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
    """The DSL prints a swizzle's text cut at 8 characters (observed):
    S<2,4,-3> prints S<2,4,-3."""
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
     "to one value), wider than CuTe's widest integer (256 bits), or a "
     "cp.async of a size PTX lacks; CuTe refuses",
     "bits", lambda case, text: _bad_copy_bits(case["expr"])),
    ("the DSL builds an 8-bit wgmma atom with an MN-major operand; PTX's "
     "8-bit wgmma reads A and B K-major only",
     "8-bit operands", lambda case, text: "OperandMajorMode.MN" in
     case["expr"] and bool(_EIGHT_BIT.search(case["expr"]))),
    ("the DSL builds a copy atom whose thread-value layouts do not cover "
     "its threads (an ldmatrix/stmatrix of 16-bit rows on 32-bit values); "
     "CuTe refuses", "CopyOperation is not valid",
     lambda case, text: _thread_count_mismatch(text)),
    ("the DSL answers a divide or product whose tiler or block has a "
     "negative stride (over a dynamic layout it answers with unknown "
     "extents); CuTe's complement, which the op is built on, is not "
     "defined there, and the twin refuses",
     "is not defined for the negative stride",
     lambda case, text: _negative_stride_operand(case, text)),
    ("the DSL's layout is wrong: tiled MMA whose permutation does not tile "
     "the atom (CuTe's logical_divide/composition preconditions fail); the "
     "DSL's TV layout repeats an element in one thread's values, gives a C "
     "element to two threads or leaves the tile",
     "make_tiled_mma: ", lambda case, text: _bad_tiled_tv(case, text)),
]

def _viz_rank1(case, error, namespace):
    """print_latex of a rank-1 layout: the DSL fails to unpack its one
    mode (a tuple of one, or an integer shape) into rows and columns."""
    if not case["expr"].startswith("cute.viz.print_latex(") or not (
            "not enough values to unpack" in error or
            "cannot unpack non-iterable" in error):
        return False
    from hlolayout import cute_dsl
    (layout,) = rules.operands(case["expr"], namespace)[:1]
    return cute_dsl.rank(layout) == 1


def _viz_flat_tile_mode(case, error, namespace):
    """print_latex_tv over a tile with a mode of one element and stride 0
    (make_layout((8, 1)) gives it): the DSL divides indices by that
    stride."""
    if not case["expr"].startswith("cute.viz.print_latex_tv(") or \
            not error.startswith("ZeroDivisionError"):
        return False
    from hlolayout import cute_dsl
    tile = rules.operands(case["expr"], namespace)[1]
    if not isinstance(tile, cute_dsl.Layout):
        tile = cute_dsl.make_layout(tile)
    return any(e == 1 and s == 0 for e, s in zip(tile.shape, tile.stride))


# The DSL fails with a Python error of its own where the twin draws
# (README.md, "Documented differences"): (rule text, check(case, the DSL's
# error, namespace)), each check reading the case's own arguments.
_DSL_FAILS = [
    ("viz-rank1: the DSL's print_latex unpacks a rank-1 layout's shape "
     "into rows and columns and fails; the twin draws one column",
     _viz_rank1),
    ("viz-flat-tile-mode: the DSL's print_latex_tv divides by the tile's "
     "stride 0 on a mode of one element; the twin puts every index in "
     "that mode's one row or column", _viz_flat_tile_mode),
]

def _negative_stride_operand(case, text):
    """True when the case's second operand (a divide's tiler, a product's
    block) has a negative stride on a mode of more than one element: CuTe's
    complement, which the op is built on, is not defined there, whatever
    the DSL answers."""
    from hlolayout import cute_dsl
    try:
        ops = rules.operands(case["expr"], {"cute": cute_dsl})
        layouts = _layouts_in(ops[1], cute_dsl.Layout)
        modes = [(n, d) for other in layouts
                 for n, d in zip(cute_dsl._tuples.leaves(other.sh),
                                 cute_dsl._tuples.leaves(other.st))]
    except Exception:  # noqa: BLE001 (not a case this rule reads)
        return False
    return any(isinstance(d, int) and d < 0 and not (isinstance(n, int) and
                                                     n == 1)
               for n, d in modes)


def _layouts_in(x, layout_type):
    """The layouts of an operand: itself, or those of a tiler given as a
    tuple (a layout, an integer or None a mode)."""
    if isinstance(x, layout_type):
        return [x]
    if isinstance(x, tuple):
        return [y for item in x for y in _layouts_in(item, layout_type)]
    return []


_EIGHT_BIT = re.compile(r"cute\.(Float8E4M3FN|Float8E5M2|Int8|Uint8)\b")
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
    if bits > 256:
        # CuTe's copies move CuTe integers, 256 bits at most
        # (include/cute/numeric/int.hpp); the DSL builds wider ones.
        return True
    return "CopyG2SOp" in expr and bits not in (32, 64, 128)


_EIGHT_BIT_LATER = (
    "the DSL builds an 8-bit wgmma atom with an MN-major operand (the twin "
    "refuses it: PTX's 8-bit wgmma reads A and B K-major only), then "
    "refuses the op for the reason the twin gives with K-major operands")


def _eight_bit_mn_refused_later(case, dsl_category, twin, namespace):
    """True when the twin refuses an 8-bit wgmma atom with an MN-major
    operand (a documented difference where the DSL answers) and the DSL
    refuses a later step of the expression: the same expression with
    K-major operands, which the twin builds, is refused by the twin for
    the DSL's reason (refusals.agree on the two categories)."""
    expr = case["expr"]
    if "8-bit operands" not in twin["error"] or \
            "OperandMajorMode.MN" not in expr or not _EIGHT_BIT.search(expr):
        return False
    k_major = twin_eval(expr.replace("OperandMajorMode.MN",
                                     "OperandMajorMode.K"), namespace)
    return (not k_major["ok"] and not k_major.get("crash") and
            refusals.agree(dsl_category, k_major["category"]))


def classify(case, dsl, namespace):
    """(kind, twin result, note). kind: identical (the same text), refused
    (both refuse for the same reason: refusals.agree), documented (the DSL
    answers, the twin refuses under a rule of README.md, and the rule holds
    on the case), different (anything else, a crash of the twin always).
    note: the documented rule, or why the case is different."""
    twin = twin_eval(case["expr"], namespace)
    if twin.get("crash"):
        return "different", twin, "the twin crashed"
    if dsl["ok"] and twin["ok"]:
        if dsl["text"] == twin["text"]:
            return "identical", twin, None
        if dsl["text"] == dsl_swizzle_text(twin["text"]):
            return "documented", twin, "swizzle text cut at 8 characters"
        return "different", twin, "the texts differ"
    if not dsl["ok"] and not twin["ok"]:
        cat = refusals.dsl_category(dsl)
        twin["dsl_category"] = cat
        if refusals.agree(cat, twin["category"], dsl.get("error", ""),
                          twin["error"]):
            return "refused", twin, None
        if (cat, twin["category"]) == ("precondition", "wrong-layout") and \
                refusals.agree_on_complement(dsl["error"], twin["error"]):
            return "refused", twin, None
        if _eight_bit_mn_refused_later(case, cat, twin, namespace):
            return "documented", twin, _EIGHT_BIT_LATER
        return "different", twin, "both refuse, for other reasons (%s, %s)" \
            % (cat, twin["category"])
    if not dsl["ok"]:
        for rule, check in _DSL_FAILS:
            if check(case, dsl.get("error", ""), namespace):
                return "documented", twin, rule
        return "different", twin, "the DSL refuses, the twin answers"
    if "wrong" not in twin:
        for rule, needle, check in _REFUSALS:
            if needle in twin["error"] and check(case, dsl["text"]):
                return "documented", twin, rule
        return "different", twin, "the DSL answers, the twin refuses"
    return _documented_wrong(case, dsl, twin, namespace)


def _documented_wrong(case, dsl, twin, namespace):
    """A WrongLayoutError where the DSL answers: documented when the twin's
    unchecked result prints the DSL's text and the rule holds on the case
    (rules.holds: the operands and the DSL's answer evaluated)."""
    err = twin["wrong"]
    un = twin_unchecked(case["expr"], namespace)
    if not un["ok"] or dsl["text"] not in (un["text"],
                                           dsl_swizzle_text(un["text"])):
        return "different", twin, "the twin's unchecked result is not the " \
            "DSL's text"
    ok, why = rules.holds(err, case["expr"], namespace, un["value"],
                          dsl["text"])
    if not ok:
        return "different", twin, "the rule %s does not hold: %s" % (
            err.rule, why)
    return "documented", twin, "the DSL's layout is wrong: " + \
        witness_rule(err)


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
    ap.add_argument("--coords", type=int, default=800,
                    help="crd2idx/cosize cases on scaled-basis strides "
                         "(coord_cases.py; default 800)")
    ap.add_argument("--atoms", type=int, default=-1,
                    help="atom cases per architecture (-1: all of them)")
    ap.add_argument("--domains", type=int, default=0,
                    help="domain cases per architecture (domain_cases.py; "
                         "-1: all of them, about 7,700; default 0: none)")
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
    if args.coords:
        # Their own stream: the layout-op cases are those of the seed
        # without them.
        import coord_cases
        groups.append(("sm_90a", coord_cases.coord_cases(
            random.Random(args.seed), args.coords)))
    if args.atoms:
        import atom_cases
        for arch in args.archs.split(","):
            cs = atom_cases.atom_cases(random.Random(args.seed), arch,
                                       args.atoms)
            groups.append((arch, cs))
    if args.domains:
        import domain_cases
        for arch in args.archs.split(","):
            cs = domain_cases.domain_cases(arch)
            if 0 < args.domains < len(cs):
                cs = random.Random(args.seed).sample(cs, args.domains)
            groups.append((arch, cs))

    workdir = args.keep or tempfile.mkdtemp(prefix="cute-dsl-harness-")
    os.makedirs(workdir, exist_ok=True)
    tally = Tally()
    start = time.time()
    for arch, cs in groups:
        t0 = time.time()
        dsl = run_dsl(args.dsl_python, arch, cs, workdir)
        dsl_seconds = time.time() - t0
        cute_dsl.set_arch(arch)
        for case in cs:
            d = dsl[case["id"]]
            kind, twin, note = classify(case, d, namespace)
            tally.add(case, arch, kind, twin, note)
            if kind == "different" and tally.shown < args.show:
                tally.shown += 1
                print("DIFFERENT %s [%s %s]: %s\n  expr: %s\n  dsl:  %s\n"
                      "  twin: %s" % (case["id"], arch, case["op"], note,
                                      case["expr"],
                                      d.get("text", d.get("error")),
                                      twin.get("text", twin.get("error"))))
        print("%s: %d cases, DSL %.1f s" % (arch, len(cs), dsl_seconds),
              file=sys.stderr)
    tally.print(args, time.time() - start)
    return 1 if tally.failures else 0


_KEYS = ("cases", "identical", "refused", "documented", "different")


class Tally:
    """The counts the harness prints: a row per group/arch (or op), the
    refusal categories of both sides, the documented rules and the
    reasons of the differences."""

    def __init__(self):
        self.table = {}
        self.categories = {}  # (dsl category, twin category, agree) -> n
        self.notes = {}
        self.reasons = {}
        self.failures = 0
        self.shown = 0

    def add(self, case, arch, kind, twin, note):
        key = (case["group"], arch, case["op"])
        row = self.table.setdefault(key, dict.fromkeys(_KEYS, 0))
        row["cases"] += 1
        row[kind] += 1
        if "dsl_category" in twin:
            k = (twin["dsl_category"], twin["category"], kind == "refused")
            self.categories[k] = self.categories.get(k, 0) + 1
        if kind == "documented":
            self.notes[note] = self.notes.get(note, 0) + 1
        if kind == "different":
            self.failures += 1
            self.reasons[note] = self.reasons.get(note, 0) + 1

    def print(self, args, seconds):
        print_table(self.table, args, seconds)
        print()
        print("Both refuse, by category (DSL's | twin's; "
              "differential/cute_dsl/refusals.py):")
        print("| DSL refuses for | twin refuses for | cases | agree |")
        print("|---|---|---|---|")
        for (dc, tc, ok), n in sorted(self.categories.items()):
            print("| %s | %s | %d | %s |" % (dc, tc, n, "yes" if ok else
                                             "NO"))
        if self.notes:
            print()
            print("Documented differences, each rule checked on its case "
                  "(differential/cute_dsl/README.md):")
            for note, n in sorted(self.notes.items()):
                print("  %5d  %s" % (n, note))
        if self.reasons:
            print()
            print("Differences:")
            for note, n in sorted(self.reasons.items()):
                print("  %5d  %s" % (n, note))


def _row(label, row):
    return "| %s | %d | %d | %d | %d | %d |" % (
        label, row["cases"], row["identical"], row["refused"],
        row["documented"], row["different"])


def print_table(table, args, seconds):
    """One table: a row per layout op (group op) or atom family (group atom)
    and architecture with --by-op, else a row per group and architecture;
    then the total."""
    print()
    print("CuTe DSL harness, seed %d (%.0f s)" % (args.seed, seconds))
    print("| group | arch | op | cases | identical | both refuse, same "
          "category | documented | different |")
    print("|---|---|---|---|---|---|---|---|")
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
