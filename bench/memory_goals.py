#!/usr/bin/env python3
"""Issue 45's goals for `hlolayout memory`, measured on generated dumps.

For each dump: `memory` and `report --summary` wall time (medians of
alternating runs, timed around the process), their ratio (goal: memory
within 2x), the peak resident memory of `memory` (`/usr/bin/time -f %M`)
over the input's size (goal: within 2x), and `wc -l`'s speed over
`report --summary`'s (goal: report --summary at least 0.1x wc -l). Several
binaries (an old build and a new one, say) run in turn in every round, so
that they meet the same machine load.

  ./bazelw build -c opt //cli:hlolayout //bench:hlo_dump_gen
  cp -L .build/bin/cli/hlolayout /tmp/hl_new
  python3 bench/memory_goals.py --rounds 9 --threads 2 /tmp/hl_old /tmp/hl_new

Dumps are written with bench/hlo_dump_gen into --dumps (default
/tmp/hlolayout_dumps) when absent: classic75, tpu75, small75, small40.
Single runs on a shared VM swing by 20% and more (the kernel zeroing fresh
pages): compare medians of one run of this script only. The host's cost
for fresh memory also drifts within minutes, so each round runs `memory`
and `report --summary` back to back (in alternating order) and the table
gives, beside the ratio of the medians, the median of the rounds' own
ratios; and beside the median peak, the largest. --thread-rounds N adds
a table of `memory` on one thread against two (goal: two 1.3x faster on
every dump of 40 MB or more).

Back to back, each run finds the memory the previous one freed still
backed by the host. On a virtual machine whose balloon reports free pages
to its host (virtio-balloon's free page reporting, seconds after they are
freed), a command run once after a pause pays for every page it writes
first, 2 MiB pages 20 times more than back to back (bench/page_touch):
--pause S sleeps S seconds before every timed run of `memory` and
`report`, the state of a user who runs one command.
"""

import argparse
import os
import statistics
import subprocess
import sys
import time

DUMPS = [("classic75", 75, "classic"), ("tpu75", 75, "xla-tpu"),
         ("small75", 75, "xla-tpu-small"), ("small40", 40, "xla-tpu-small")]


PAUSE = 0.0  # seconds slept before each timed run (--pause)


def timed(cmd, rss=True, pause=True):
  """(wall ms, peak RSS MiB or 0) of one run of `cmd`, its output
  discarded; the peak through /usr/bin/time (which the time includes, for
  every command measured so); after --pause unless `pause` is False."""
  if pause and PAUSE > 0:
    time.sleep(PAUSE)
  start = time.perf_counter()
  p = subprocess.run((["/usr/bin/time", "-f", "%M"] if rss else []) + cmd,
                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                     text=True, check=False)
  wall = (time.perf_counter() - start) * 1000
  if p.returncode != 0:
    sys.exit("failed (%d): %s\n%s" % (p.returncode, " ".join(cmd),
                                      p.stderr[-2000:]))
  return wall, int(p.stderr.strip().splitlines()[-1]) / 1024 if rss else 0


def dumps(args, only):
  """(name, path) of each dump asked for (all when `only` is empty),
  written with --generator first when absent."""
  for name, mb, style in DUMPS:
    if only and name not in only:
      continue
    path = os.path.join(args.dumps, name + ".hlo")
    if not os.path.exists(path):
      subprocess.run([args.generator, path, str(mb), style], check=True,
                     stdout=subprocess.DEVNULL)
    yield name, path


def main():
  parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
  parser.add_argument("binaries", nargs="+", help="hlolayout binaries")
  parser.add_argument("--rounds", type=int, default=9)
  parser.add_argument("--threads", default="",
                      help="--threads=N for memory and report (default: "
                      "theirs, one per idle core)")
  parser.add_argument("--dumps", default="/tmp/hlolayout_dumps")
  parser.add_argument("--only", default="",
                      help="comma-separated dump names (default: all)")
  parser.add_argument("--generator", default=".build/bin/bench/hlo_dump_gen")
  parser.add_argument("--thread-rounds", type=int, default=0,
                      help="then this many rounds of `memory --threads=1` "
                      "against `--threads=2` per dump, every binary and both "
                      "counts in turn (goal: two threads 1.3x faster)")
  parser.add_argument("--pause", type=float, default=0.0,
                      help="seconds to sleep before each timed run of "
                      "memory and report (default 0: back to back)")
  args = parser.parse_args()
  global PAUSE
  PAUSE = args.pause
  os.makedirs(args.dumps, exist_ok=True)
  only = set(filter(None, args.only.split(",")))
  threads = ["--threads=" + args.threads] if args.threads else []
  print("| dump | binary | memory ms | report --summary ms | ratio (goal <= 2)"
        " | rounds' ratios, median (q1-q3) | memory peak MiB, median (max)"
        " | / input (goal <= 2), median (max) | wc -l ms |"
        " wc -l speed ratio (goal >= 0.1) |")
  print("|---|---|---|---|---|---|---|---|---|---|")
  for name, path in dumps(args, only):
    size_mib = os.path.getsize(path) / 2**20
    runs = {}
    for r in range(args.rounds):
      # `wc -l` reads a file the page cache holds and writes no fresh
      # memory to speak of: no pause.
      runs.setdefault("wc", []).append(
          timed(["wc", "-l", path], rss=False, pause=False))
      for b in args.binaries:
        pair = [("memory", [b, "memory"] + threads + [path]),
                ("report", [b, "report", "--summary"] + threads + [path])]
        for what, cmd in (pair if r % 2 == 0 else pair[::-1]):
          runs.setdefault((b, what), []).append(timed(cmd))
    wc = statistics.median(w for w, _ in runs["wc"])
    for b in args.binaries:
      mem = statistics.median(w for w, _ in runs[(b, "memory")])
      rep = statistics.median(w for w, _ in runs[(b, "report")])
      ratios = sorted(m / q for (m, _), (q, _) in zip(runs[(b, "memory")],
                                                       runs[(b, "report")]))
      quarter = len(ratios) // 4
      peaks = [p for _, p in runs[(b, "memory")]]
      peak, top = statistics.median(peaks), max(peaks)
      print("| %s | %s | %.1f | %.1f | %.2f | %.2f (%.2f-%.2f) | %.1f (%.1f)"
            " | %.2f (%.2f) | %.1f | %.3f |" %
            (name, os.path.basename(b), mem, rep, mem / rep,
             statistics.median(ratios), ratios[quarter],
             ratios[len(ratios) - 1 - quarter], peak, top, peak / size_mib,
             top / size_mib, wc, wc / rep))
  if args.thread_rounds > 0:
    compare_threads(args, only)


def compare_threads(args, only):
  """Medians of `memory --threads=1` and `--threads=2`, alternating (the
  order reversed every other round), and their ratio."""
  print("\n| dump | binary | --threads=1 ms | --threads=2 ms |"
        " two threads faster (goal >= 1.3) |")
  print("|---|---|---|---|---|")
  for name, path in dumps(args, only):
    runs = {}
    for r in range(args.thread_rounds):
      order = [(b, t) for b in args.binaries for t in (1, 2)]
      for b, t in (order if r % 2 == 0 else order[::-1]):
        cmd = [b, "memory", "--threads=%d" % t, path]
        runs.setdefault((b, t), []).append(timed(cmd, rss=False)[0])
    for b in args.binaries:
      one = statistics.median(runs[(b, 1)])
      two = statistics.median(runs[(b, 2)])
      print("| %s | %s | %.1f | %.1f | %.2f |" %
            (name, os.path.basename(b), one, two, one / two))


if __name__ == "__main__":
  main()
