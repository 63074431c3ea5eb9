#!/usr/bin/env python3
"""Mutates the repository's real XLA dumps and shapes and runs hlolayout on
them (issue 87): what is accepted that should not be, and refusals that are
badly shaped.

    fuzz/mutate_dumps.py BIN                 # 300 mutants, a new seed
    fuzz/mutate_dumps.py BIN --seed=7 --count=2000

Sources: every optimized module in memory/testdata*/ and examples/ (XLA:GPU,
XLA:CPU and XLA:TPU-shaped dumps XLA wrote) and the shapes of
tests/data/*.tsv (their input column). Each mutant gets 1-4 edits: a cut (at a line or a byte),
deleted or duplicated lines, two instruction lines swapped, a number made
huge or negative, deep nesting, a bad layout, bad bytes. Each runs through
`report`, `report --json`, `memory` (text, --json, --format=xla), `batch`,
`explain` and `draw` (shapes), each under a 20 s limit.

Flagged (exit status 1, each with the mutant's file kept under --keep):
  crash     a signal or an exit status other than 0, 1 and 2
  hang      past the time limit
  silent    a refusal with nothing on stderr, or `memory --json` output on
            a refusal
  unlocated a reader's refusal (report) without `line:column:`, the source
            line and a caret
  disagree  `report` answers (exit 0) where `memory` refuses the same text
            with a located error: one reader, one set of checks
Printed: the seed (to run the same mutants again), a table of outcomes per
command and the flagged cases.
"""

import argparse
import glob
import os
import random
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LOCATED = re.compile(r":\d+:\d+: .*\n.*\n *\^", re.S)


def sources():
    dumps = []
    for pattern in ("memory/testdata*/*.txt", "examples/*.txt"):
        for path in sorted(glob.glob(os.path.join(ROOT, pattern))):
            name = os.path.basename(path)
            if name.endswith(("-buffer-assignment.txt", "-live-range.txt",
                              "-memory-usage-report.txt")):
                continue
            with open(path, "rb") as f:
                text = f.read()
            if text.startswith(b"HloModule") and len(text) < 4 << 20:
                dumps.append(text)
    shapes = []
    for path in sorted(glob.glob(os.path.join(ROOT, "tests/data/*.tsv"))):
        with open(path, "rb") as f:
            for line in f:
                cells = line.split(b"\t")
                cell = cells[1].strip() if len(cells) > 1 else b""
                if b"[" in cell and len(cell) < 400:
                    shapes.append(cell)
    return dumps, shapes


def instruction_lines(lines):
    return [i for i, l in enumerate(lines) if b" = " in l and l.startswith(b"  ")]


def mutate(rng, text):
    lines = text.split(b"\n")
    kind = rng.choice(["cut_line", "cut_byte", "delete", "duplicate", "swap",
                       "number", "nesting", "layout", "bytes"])
    if kind == "cut_line" and len(lines) > 2:
        return kind, b"\n".join(lines[:rng.randrange(1, len(lines))]) + b"\n"
    if kind == "cut_byte" and len(text) > 2:
        return kind, text[:rng.randrange(1, len(text))]
    body = instruction_lines(lines)
    if kind == "delete" and body:
        del lines[rng.choice(body)]
    elif kind == "duplicate" and body:
        i = rng.choice(body)
        lines.insert(i + rng.randrange(0, 3), lines[i])
    elif kind == "swap" and len(body) > 1:
        i, j = rng.sample(body, 2)
        lines[i], lines[j] = lines[j], lines[i]
    elif kind == "number":
        numbers = [m for m in re.finditer(rb"\d+", text)]
        if numbers:
            m = rng.choice(numbers)
            new = rng.choice([b"-1", b"-" + m.group(), b"99", b"2147483648",
                              b"9223372036854775807", b"99999999999999999999",
                              b"0"])
            return kind, text[:m.start()] + new + text[m.end():]
    elif kind == "nesting":
        at = rng.randrange(len(text))
        depth = rng.choice([50, 300, 5000])
        return kind, text[:at] + b"(" * depth + b"{" * depth + text[at:]
    elif kind == "layout":
        layouts = [m for m in re.finditer(rb"\{[0-9,]*\}", text)]
        if layouts:
            m = rng.choice(layouts)
            new = rng.choice([b"{0,0}", b"{5,1,0}", b"{1,0:T(8,128)(0,1)}",
                              b"{0:T(9999999999)}", b"{:E(0)}", b"{1,0:S(-1)}",
                              b"{1,0:T(8,128)E(4)L(3)}", b"{"])
            return kind, text[:m.start()] + new + text[m.end():]
    elif kind == "bytes":
        data = bytearray(text)
        for _ in range(rng.randrange(1, 8)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        return kind, bytes(data)
    return kind, b"\n".join(lines)


def run(args, timeout):
    try:
        p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           stdin=subprocess.DEVNULL, timeout=timeout)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return "hang", b"", b""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--timeout", type=float, default=20)
    ap.add_argument("--keep", default=None, help="folder for flagged mutants")
    a = ap.parse_args()
    seed = a.seed if a.seed is not None else random.SystemRandom().randrange(1 << 31)
    print(f"mutate_dumps: seed {seed} (--seed={seed} runs the same mutants)")
    sys.stdout.flush()
    rng = random.Random(seed)
    dumps, shapes = sources()
    if not dumps:
        print("mutate_dumps: no dumps found")
        return 1
    tmp = tempfile.mkdtemp(prefix="mutate_dumps")
    keep = a.keep or tmp
    os.makedirs(keep, exist_ok=True)
    counts = {}
    flagged = []
    for n in range(a.count):
        is_shape = rng.random() < 0.2 and shapes
        text = rng.choice(shapes) if is_shape else rng.choice(dumps)
        kinds = []
        for _ in range(rng.randrange(1, 5)):
            kind, text = mutate(rng, text)
            kinds.append(kind)
        path = os.path.join(tmp, f"m{n}.txt")
        with open(path, "wb") as f:
            f.write(text)
        if is_shape:
            commands = {"explain": ["explain", f"--file={path}"],
                        "draw": ["draw", text.split(b"\n")[0].decode("latin-1")],
                        "batch": ["batch", f"--file={path}"]}
        else:
            commands = {"report": ["report", path],
                        "report --json": ["report", "--json", path],
                        "memory": ["memory", path],
                        "memory --json": ["memory", "--json", path],
                        "memory --format=xla": ["memory", "--format=xla", path]}
        results = {}
        for name, args in commands.items():
            code, out, err = run([a.binary] + args, a.timeout)
            results[name] = (code, out, err)
            outcome = ("hang" if code == "hang" else "answer" if code == 0
                       else "refuse" if code in (1, 2) else "crash")
            counts.setdefault(name, {}).setdefault(outcome, 0)
            counts[name][outcome] += 1
            why = None
            if outcome in ("hang", "crash"):
                why = f"{outcome} ({code})"
            elif outcome == "refuse" and not err.strip():
                why = "silent: refused with nothing on stderr"
            elif outcome == "refuse" and name == "memory --json" and out:
                why = "silent: output on stdout when refusing"
            elif (outcome == "refuse" and name == "report" and
                  b"no HLO module" not in err and not LOCATED.search(
                      err.decode("utf-8", "replace"))):
                why = "unlocated: " + err.decode("utf-8", "replace")[:200]
            if why:
                flagged.append((n, "+".join(kinds), name, why))
        if not is_shape:
            rc, _, _ = results["report"]
            mc, _, merr = results["memory"]
            if rc == 0 and mc == 1 and LOCATED.search(
                    merr.decode("utf-8", "replace")):
                flagged.append((n, "+".join(kinds), "report/memory",
                                "disagree: report answered, memory refused: " +
                                merr.decode("utf-8", "replace")[:200]))
        if any(f[0] == n for f in flagged):
            os.replace(path, os.path.join(keep, f"m{n}.txt"))
        else:
            os.remove(path)
    print(f"{a.count} mutants of {len(dumps)} dumps and {len(shapes)} shapes")
    print("| command | answered | refused | crashed | hung |")
    print("|---|---|---|---|---|")
    for name, c in counts.items():
        print(f"| {name} | {c.get('answer', 0)} | {c.get('refuse', 0)} | "
              f"{c.get('crash', 0)} | {c.get('hang', 0)} |")
    for n, kinds, name, why in flagged:
        print(f"flagged: mutant {n} ({kinds}) {name}: {why.splitlines()[0]}")
    print(f"mutate_dumps: {len(flagged)} flagged (seed {seed}; kept in {keep})")
    return 1 if flagged else 0


if __name__ == "__main__":
    sys.exit(main())
