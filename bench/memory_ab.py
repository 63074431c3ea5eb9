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

--pipe runs each command as a user does in a shell pipeline, its output
read by `tail -1` started at the same moment (docs/threads-default.md);
--threads 0 leaves the threads to the command's default.

It prints each build's median wall time and quartiles, in how many of its
runs the CPU time was over 1.15x the wall time (more than one thread ran), the median of the
pairs' differences (NEW - OLD) with its quartiles, in how many pairs NEW was
faster, and the two-sided sign test's p-value of that count (below 0.05:
the builds differ; above: this run cannot say).
"""

import argparse
import math
import resource
import statistics
import subprocess
import sys
import time


def run_ms(binary, args, pause, pipe):
  """(wall ms, CPU ms of the command and its pipe) of one run of `binary
  args...`, after `pause` seconds; the output discarded, or read by `tail
  -1` when `pipe`. Exits with the command's message when it fails."""
  time.sleep(pause)
  before = resource.getrusage(resource.RUSAGE_CHILDREN)
  start = time.perf_counter()
  try:
    if pipe:
      tail = subprocess.Popen(["tail", "-1"], stdin=subprocess.PIPE,
                              stdout=subprocess.DEVNULL)
      p = subprocess.run([binary] + args, stdout=tail.stdin,
                         stderr=subprocess.PIPE, text=True, check=False)
      tail.stdin.close()
      tail.wait()
    else:
      p = subprocess.run([binary] + args, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True, check=False)
  except OSError as e:
    sys.exit(f"memory_ab: cannot run {binary}: {e.strerror}")
  wall = (time.perf_counter() - start) * 1000
  after = resource.getrusage(resource.RUSAGE_CHILDREN)
  cpu = ((after.ru_utime - before.ru_utime) +
         (after.ru_stime - before.ru_stime)) * 1000
  if p.returncode != 0:
    sys.exit(f"memory_ab: {binary} {' '.join(args)} failed "
             f"(exit {p.returncode}): {p.stderr.strip()[-300:]}")
  return wall, cpu


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
                      help="--threads=N of the command (default 2; 0: the "
                           "command's default, one per idle core)")
  parser.add_argument("--pipe", action="store_true",
                      help="pipe each command's output into `tail -1`")
  parser.add_argument("--command", default="memory",
                      help="the hlolayout command (default memory)")
  a = parser.parse_args()
  if a.rounds < 2 or a.rounds > 1000:
    parser.error("--rounds must be 2 to 1000")
  if a.pause < 0 or a.pause > 600:
    parser.error("--pause must be 0 to 600 s")
  args = a.command.split() + [f"--threads={a.threads}", a.dump]
  old, new, diff = [], [], []
  threaded = [0, 0]  # old's and new's runs on more than one thread

  def run(which):
    wall, cpu = run_ms((a.old, a.new)[which], args, a.pause, a.pipe)
    if cpu > 1.15 * wall:
      threaded[which] += 1
    return wall

  for r in range(a.rounds):
    if r % 2 == 0:
      o = run(0)
      n = run(1)
    else:
      n = run(1)
      o = run(0)
    old.append(o)
    new.append(n)
    diff.append(n - o)
  faster = sum(1 for d in diff if d < 0)
  for name, times, many in ((a.old, old, threaded[0]),
                            (a.new, new, threaded[1])):
    lo, hi = quartiles(times)
    print(f"{name}: median {statistics.median(times):.1f} ms "
          f"(quartiles {lo:.1f}-{hi:.1f}); CPU over 1.15x wall in "
          f"{many} of {a.rounds} runs")
  lo, hi = quartiles(diff)
  print(f"new - old, pair by pair: median {statistics.median(diff):+.1f} ms "
        f"(quartiles {lo:+.1f} to {hi:+.1f}); new faster in {faster} of "
        f"{a.rounds}, sign test p = {sign_test(faster, a.rounds):.3f}")


if __name__ == "__main__":
  main()
