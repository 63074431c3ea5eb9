#!/usr/bin/env python3
"""Two hlolayout builds against each other on one command, run in pairs.

bench/memory_goals.py gives each build's ratios to `report --summary`; on
this project's shared virtual machines single runs of `memory` move by tens
of ms from one to the next (the two reading threads finish up to 40 ms
apart, in either order), and five or seven rounds of it do not tell apart
two builds 10 ms apart (docs/memory-speed-pages.md, "The join's link beside
its copy"). This script runs the two builds in pairs, in alternating order,
each run after a pause, and compares them pair by pair:

  ./bazelw build -c opt //cli:hlolayout
  cp -L .build/bin/cli/hlolayout /tmp/hl_new
  python3 bench/memory_ab.py --rounds 25 /tmp/hl_old /tmp/hl_new DUMP

It prints each build's median wall time and quartiles, the median of the
pairs' differences (NEW - OLD) with its quartiles, in how many pairs NEW was
faster, and the two-sided sign test's p-value of that count (below 0.05:
the builds differ; above: this run cannot say).
"""

import argparse
import math
import statistics
import subprocess
import sys
import time


def run_ms(binary, args, pause):
  """Wall ms of one run of `binary args...`, after `pause` seconds; the
  output discarded. Exits with the command's message when it fails."""
  time.sleep(pause)
  start = time.perf_counter()
  try:
    p = subprocess.run([binary] + args, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True, check=False)
  except OSError as e:
    sys.exit(f"memory_ab: cannot run {binary}: {e.strerror}")
  wall = (time.perf_counter() - start) * 1000
  if p.returncode != 0:
    sys.exit(f"memory_ab: {binary} {' '.join(args)} failed "
             f"(exit {p.returncode}): {p.stderr.strip()[-300:]}")
  return wall


def sign_test(faster, n):
  """Two-sided p-value of `faster` of `n` pairs under no difference."""
  k = min(faster, n - faster)
  tail = sum(math.comb(n, i) for i in range(k + 1)) / 2**n
  return min(1.0, 2 * tail)


def quartiles(values):
  q = statistics.quantiles(values, n=4)
  return q[0], q[2]


def main():
  parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
  parser.add_argument("old")
  parser.add_argument("new")
  parser.add_argument("dump")
  parser.add_argument("--rounds", type=int, default=25,
                      help="pairs of runs (default 25)")
  parser.add_argument("--pause", type=float, default=2.5,
                      help="seconds slept before each run (default 2.5)")
  parser.add_argument("--threads", type=int, default=2,
                      help="--threads=N of the command (default 2)")
  parser.add_argument("--command", default="memory",
                      help="the hlolayout command (default memory)")
  a = parser.parse_args()
  if a.rounds < 2 or a.rounds > 1000:
    parser.error("--rounds must be 2 to 1000")
  if a.pause < 0 or a.pause > 600:
    parser.error("--pause must be 0 to 600 s")
  args = a.command.split() + [f"--threads={a.threads}", a.dump]
  old, new, diff = [], [], []
  for r in range(a.rounds):
    if r % 2 == 0:
      o = run_ms(a.old, args, a.pause)
      n = run_ms(a.new, args, a.pause)
    else:
      n = run_ms(a.new, args, a.pause)
      o = run_ms(a.old, args, a.pause)
    old.append(o)
    new.append(n)
    diff.append(n - o)
  faster = sum(1 for d in diff if d < 0)
  for name, times in ((a.old, old), (a.new, new)):
    lo, hi = quartiles(times)
    print(f"{name}: median {statistics.median(times):.1f} ms "
          f"(quartiles {lo:.1f}-{hi:.1f})")
  lo, hi = quartiles(diff)
  print(f"new - old, pair by pair: median {statistics.median(diff):+.1f} ms "
        f"(quartiles {lo:+.1f} to {hi:+.1f}); new faster in {faster} of "
        f"{a.rounds}, sign test p = {sign_test(faster, a.rounds):.3f}")


if __name__ == "__main__":
  main()
