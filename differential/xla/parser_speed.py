"""XLA's own HLO text parser against hlolayout's reader, on the same dumps.

    python parser_speed.py --hlolayout BIN --package DIR --pairs 5 DUMP...

Run in the venv of requirements.txt (parser_speed.sh makes everything). For
each dump, --pairs rounds; each round runs, in an order that alternates
from round to round, three fresh processes:

  xla   Python: the file read, then jaxlib's hlo_module_from_text (XLA's
        HloParser: parse only, no verifier, no compile); the time of the
        read and the parse
  cli   `hlolayout report --summary DUMP`: the whole process, wall time
  lib   Python: hl.report(DUMP, summary=True), the library's reader and
        totals (what `import hlolayout` users call); its time

and each one's peak RSS. Prints per dump the medians and the median over
rounds of the ratios xla / cli and xla / lib (how many times faster).
"""

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time

XLA_CHILD = r"""
import resource, sys, time
from jaxlib import _hlo
start = time.perf_counter()
with open(sys.argv[1]) as f:
    text = f.read()
module = _hlo.hlo_module_from_text(text)
seconds = time.perf_counter() - start
print(seconds, len(module.computations()),
      resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""

LIB_CHILD = r"""
import resource, sys, time
sys.path.insert(0, sys.argv[2])
import hlolayout as hl
start = time.perf_counter()
report = hl.report(sys.argv[1], summary=True)
seconds = time.perf_counter() - start
print(seconds, sum(m.totals.computations for m in report.modules),
      resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def child_rss_kb():
  return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss


def run_python(code, args):
  p = subprocess.run([sys.executable, "-c", code] + args, capture_output=True, text=True,
                     check=True)
  seconds, computations, rss = p.stdout.split()
  return float(seconds), int(computations), int(rss)


def run_cli(hlolayout, dump):
  start = time.perf_counter()
  p = subprocess.Popen([hlolayout, "report", "--summary", dump], stdout=subprocess.DEVNULL)
  _, status, usage = os.wait4(p.pid, 0)
  seconds = time.perf_counter() - start
  if status != 0:
    raise SystemExit(f"hlolayout report --summary {dump} failed")
  return seconds, usage.ru_maxrss


def measure(args, dump):
  rows = []
  for k in range(args.pairs):
    steps = ["xla", "cli", "lib"] if k % 2 == 0 else ["lib", "cli", "xla"]
    got = {}
    for step in steps:
      if step == "xla":
        got["xla"] = run_python(XLA_CHILD, [dump])
      elif step == "lib":
        got["lib"] = run_python(LIB_CHILD, [dump, args.package])
      else:
        got["cli"] = run_cli(args.hlolayout, dump)
    rows.append(got)
    print(f"  {os.path.basename(dump)} round {k + 1}: xla {got['xla'][0]:.2f} s, "
          f"cli {got['cli'][0]:.3f} s, lib {got['lib'][0]:.3f} s", file=sys.stderr)
  return rows


def main():
  parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
  parser.add_argument("--hlolayout", required=True)
  parser.add_argument("--package", required=True,
                      help="a folder holding the hlolayout Python package")
  parser.add_argument("--pairs", type=int, default=5)
  parser.add_argument("dumps", nargs="+")
  args = parser.parse_args()
  import jaxlib  # pylint: disable=import-outside-toplevel
  print(f"XLA's HLO parser (jaxlib {jaxlib.__version__}, hlo_module_from_text) against "
        f"hlolayout, medians of {args.pairs} rounds, load average "
        f"{os.getloadavg()[0]:.1f} at the start")
  print()
  print("| dump | size | XLA parse | `report --summary` | `hl.report` | XLA / report | "
        "XLA / hl.report | peak RSS: XLA, report, hl.report |")
  print("|---|---|---|---|---|---|---|---|")
  for dump in args.dumps:
    rows = measure(args, dump)
    xla = statistics.median(r["xla"][0] for r in rows)
    cli = statistics.median(r["cli"][0] for r in rows)
    lib = statistics.median(r["lib"][0] for r in rows)
    over_cli = statistics.median(r["xla"][0] / r["cli"][0] for r in rows)
    over_lib = statistics.median(r["xla"][0] / r["lib"][0] for r in rows)
    rss = [max(r[key][-1] for r in rows) // 1024 for key in ("xla", "cli", "lib")]
    if rows[0]["xla"][1] != rows[0]["lib"][1]:
      print(f"  note: XLA read {rows[0]['xla'][1]} computations, hlolayout "
            f"{rows[0]['lib'][1]}", file=sys.stderr)
    size = os.path.getsize(dump) / 1e6
    print(f"| {os.path.basename(dump)} | {size:.0f} MB | {xla:.2f} s | {cli * 1000:.0f} ms | "
          f"{lib * 1000:.0f} ms | {over_cli:.0f}x | {over_lib:.0f}x | "
          f"{rss[0]} / {rss[1]} / {rss[2]} MB |")
  print(f"\nload average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
  main()
