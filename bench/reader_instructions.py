#!/usr/bin/env python3
"""Instructions a byte of `report --summary` and `memory`, counted by callgrind.

Issue 86 counts the reader's cost in instructions (valgrind's callgrind,
the whole process, `Ir`): unlike wall time on a shared virtual machine,
the count does not swing from one hour to the next.

  ./bazelw build -c opt //cli:hlolayout //bench:hlo_dump_gen
  python3 bench/reader_instructions.py                 # the table
  python3 bench/reader_instructions.py --mb 2 --only classic \\
      --check bench/reader_instructions_baseline.txt    # CI's check

The table, one row per input: its size, `report --summary --threads=1`'s
and `memory --threads=1`'s instructions a byte, their ratio (issue 86's
goal: at most 1.5), `memory`'s peak resident memory over the input's size
(`/usr/bin/time -f %M`, a native run; goal at most 1.5), and the wall-clock
ratio of `report --summary` to `wc -l` (median of --wc-rounds alternated
native runs; printed beside, not a goal). The goal for `report --summary`
is at most 5 instructions a byte.

Inputs: the classic and XLA:TPU styles of bench/hlo_dump_gen (--mb MB,
default 20, written to --dumps when absent) and any --file NAME=PATH; by
default also the largest XLA:TPU and XLA:GPU modules the XLA harness has
compiled into its cache (differential/xla/run.sh, ~/.cache/hlolayout/
xla-oracle), said so where there are none.

--check FILE compares the counts with a committed baseline (lines
`NAME COMMAND INSTRUCTIONS`) and exits 1 when any count rose by more than
--tolerance (default 10%); --write FILE writes one. Instruction counts of
one binary on one input are deterministic; a new compiler, C library or
CPU family (the C library picks its string functions by the CPU) moves
them a little, which the tolerance absorbs.
"""

import argparse
import glob
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CACHE = os.path.expanduser("~/.cache/hlolayout/xla-oracle")
STYLES = {"classic": "classic", "tpu": "xla-tpu"}
COMMANDS = {
    "report": ["report", "--summary", "--threads=1"],
    "memory": ["memory", "--threads=1"],
}


def instructions(cmd):
  """The instructions callgrind counts for the whole process of `cmd`."""
  with tempfile.TemporaryDirectory() as tmp:
    out = os.path.join(tmp, "cg.out")
    p = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out] + cmd,
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        check=False)
    if p.returncode != 0:
      sys.exit("failed (%d): %s\n%s" % (p.returncode, " ".join(cmd),
                                        p.stderr[-2000:]))
    m = re.search(r"Collected\s*:\s*(\d+)", p.stderr)
    if not m:
      sys.exit("callgrind printed no count for: %s\n%s" %
               (" ".join(cmd), p.stderr[-2000:]))
    return int(m.group(1))


def wall(cmd):
  """Seconds of one native run of `cmd`, its output discarded."""
  start = time.perf_counter()
  subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                 check=True)
  return time.perf_counter() - start


def peak_rss_bytes(cmd):
  """Peak resident memory of one native run of `cmd` (/usr/bin/time)."""
  p = subprocess.run(["/usr/bin/time", "-f", "%M"] + cmd,
                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                     text=True, check=True)
  return int(p.stderr.strip().splitlines()[-1]) * 1024


def largest_cached(tpu):
  """The largest module after optimizations the XLA harness compiled for
  XLA:TPU (`tpu`) or for XLA:GPU and CPU, or None."""
  files = [
      f for f in glob.glob(os.path.join(CACHE, "*", "**",
                                        "*after_optimizations.txt"),
                           recursive=True)
      if ("libtpu" in os.path.relpath(f, CACHE).split(os.sep)[0]) == tpu
  ]
  return max(files, key=os.path.getsize) if files else None


def inputs(args):
  """(name, path) of every input, generated ones written first."""
  os.makedirs(args.dumps, exist_ok=True)
  out = []
  for name, style in STYLES.items():
    if args.only and name not in args.only:
      continue
    name = "%s-%dmb" % (name, args.mb)
    path = os.path.join(args.dumps, name + ".hlo")
    if not os.path.exists(path):
      subprocess.run([args.generator, path, str(args.mb), style], check=True,
                     stdout=subprocess.DEVNULL)
    out.append((name, path))
  for spec in args.file:
    name, _, path = spec.partition("=")
    if not path:
      sys.exit("--file takes NAME=PATH, not %r" % spec)
    out.append((name, path))
  if not args.only and not args.no_cache:
    for name, tpu in (("xla-tpu", True), ("xla-gpu-cpu", False)):
      path = largest_cached(tpu)
      if path is None:
        print("%s: no module in %s (differential/xla/run.sh compiles them)" %
              (name, CACHE))
        continue
      out.append((name, path))
  return out


def measure(args, name, path):
  size = os.path.getsize(path)
  row = {"name": name, "path": path, "bytes": size}
  for key, command in COMMANDS.items():
    row[key] = instructions([args.hlolayout] + command + [path])
  if args.check or args.write:
    return row
  row["rss"] = peak_rss_bytes([args.hlolayout] + COMMANDS["memory"] + [path])
  ours, wc = [], []
  for i in range(args.wc_rounds):
    pair = [(ours, [args.hlolayout] + COMMANDS["report"] + [path]),
            (wc, ["wc", "-l", path])]
    for times, cmd in (pair if i % 2 == 0 else pair[::-1]):
      times.append(wall(cmd))
  row["wc_ratio"] = statistics.median(ours) / statistics.median(wc)
  return row


def table(rows):
  print("| input | MB | report --summary instr/byte (goal <= 5) | "
        "memory instr/byte | memory / report (goal <= 1.5) | "
        "memory peak RSS / input (goal <= 1.5) | "
        "report --summary time / wc -l time |")
  print("|---|---:|---:|---:|---:|---:|---:|")
  for r in rows:
    print("| %s | %.1f | %.2f | %.2f | %.2f | %.2f | %.1fx |" %
          (r["name"], r["bytes"] / 1e6, r["report"] / r["bytes"],
           r["memory"] / r["bytes"], r["memory"] / r["report"],
           r["rss"] / r["bytes"], r["wc_ratio"]))


def read_baseline(path):
  base = {}
  with open(path) as f:
    for line in f:
      line = line.split("#", 1)[0].split()
      if not line:
        continue
      if len(line) != 3 or not line[2].isdigit():
        sys.exit("%s: expected NAME COMMAND INSTRUCTIONS, got %r" %
                 (path, " ".join(line)))
      base[(line[0], line[1])] = int(line[2])
  return base


def check(rows, path, tolerance):
  base = read_baseline(path)
  failed = False
  print("| input | command | baseline | now | change |")
  print("|---|---|---:|---:|---:|")
  for r in rows:
    for key in COMMANDS:
      was = base.get((r["name"], key))
      if was is None:
        print("| %s | %s | (none) | %d | |" % (r["name"], key, r[key]))
        failed = True
        continue
      change = r[key] / was - 1
      verdict = ""
      if r[key] - was > round(was * tolerance):
        verdict = " ROSE more than %d%%" % round(tolerance * 100)
        failed = True
      print("| %s | %s | %d | %d | %+.1f%%%s |" %
            (r["name"], key, was, r[key], change * 100, verdict))
  if failed:
    print("instruction counts: FAILED (a count rose or has no baseline; "
          "if the rise is meant, rewrite the baseline with --write %s)" % path)
    return 1
  print("instruction counts: within %d%% of %s" %
        (round(tolerance * 100), path))
  return 0


def self_test():
  """check() on made-up counts: a rise past the tolerance fails, a count
  without a baseline fails, a fall and a small rise pass."""
  with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "baseline.txt")
    with open(path, "w") as f:
      f.write("# comment\na report 1000\na memory 1000\n")
    cases = [((1100, 500), 0), ((1101, 1000), 1), ((900, 1099), 0),
             ((1000, 1200), 1)]
    for (report, memory), want in cases:
      rows = [{"name": "a", "report": report, "memory": memory}]
      if check(rows, path, 0.10) != want:
        sys.exit("self-test: %r should exit %d" % ((report, memory), want))
    rows = [{"name": "b", "report": 1, "memory": 1}]
    if check(rows, path, 0.10) != 1:
      sys.exit("self-test: an input without a baseline should fail")
  print("self-test: passed")
  return 0


def main():
  bin_dir = os.path.join(ROOT, ".build", "bin")
  parser = argparse.ArgumentParser(
      description=__doc__.split("\n\n")[0],
      formatter_class=argparse.RawDescriptionHelpFormatter,
      epilog="\n\n".join(__doc__.split("\n\n")[1:]))
  parser.add_argument("--hlolayout",
                      default=os.path.join(bin_dir, "cli", "hlolayout"))
  parser.add_argument("--generator",
                      default=os.path.join(bin_dir, "bench", "hlo_dump_gen"))
  parser.add_argument("--dumps", default="/tmp/hlolayout_dumps")
  parser.add_argument("--mb", type=int, default=20,
                      help="size of the generated dumps (default 20)")
  parser.add_argument("--only", action="append", default=[],
                      choices=sorted(STYLES),
                      help="only this generated style (repeatable; leaves "
                      "out the harness's cached modules)")
  parser.add_argument("--file", action="append", default=[],
                      metavar="NAME=PATH", help="another input")
  parser.add_argument("--no-cache", action="store_true",
                      help="leave out the XLA harness's cached modules")
  parser.add_argument("--wc-rounds", type=int, default=9)
  parser.add_argument("--check", metavar="FILE",
                      help="compare with a baseline; exit 1 on a rise")
  parser.add_argument("--write", metavar="FILE", help="write a baseline")
  parser.add_argument("--tolerance", type=float, default=0.10)
  parser.add_argument("--self-test", action="store_true",
                      help="check the --check verdicts on made-up counts")
  args = parser.parse_args()
  if args.self_test:
    return self_test()
  for tool in ("valgrind", args.hlolayout, args.generator):
    if os.sep in tool and not os.path.exists(tool):
      sys.exit("%s not found (./bazelw build -c opt //cli:hlolayout "
               "//bench:hlo_dump_gen)" % tool)
  rows = [measure(args, n, p) for n, p in inputs(args)]
  if args.write:
    with open(args.write, "w") as f:
      f.write("# bench/reader_instructions.py --write: callgrind's Ir of the "
              "whole process\n# NAME COMMAND INSTRUCTIONS\n")
      for r in rows:
        for key in COMMANDS:
          f.write("%s %s %d\n" % (r["name"], key, r[key]))
    print("wrote %s" % args.write)
    return 0
  if args.check:
    return check(rows, args.check, args.tolerance)
  table(rows)
  return 0


if __name__ == "__main__":
  sys.exit(main())
