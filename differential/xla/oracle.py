"""XLA as the oracle: compiles the zoo, compares every module, prints one table.

  python oracle.py --hlolayout BIN --cache DIR [--programs a,b | --sample N]
                   [--seed S] [--jobs J] [--held-out DIR] [--no-parser-cases]

Run inside the venv of requirements.txt (run.sh and ci.sh do it). Steps:

1. compile_zoo.py (a process of its own, with 8 CPU devices) compiles the
   selected programs into the cache; modules compiled before are reused;
2. compare_zoo.py checks every module: memory_analysis() field by field,
   the buffer assignment allocation by allocation, the memory-usage report
   line by line, the computation and instruction counts;
3. parser_cases.py runs XLA's HLO text parser and hlolayout's reader on
   every case of tests/data/xla_parser_cases.txt.

Prints the table (per check: modules, identical, differing, documented, the
first undocumented difference), then every undocumented difference
(--verbose: the documented ones too). Documented are: value ids (the order
XLA creates its computations in is not in the text: docs/memory.md, "Value
ids") and the usage report lines they order, on the modules listed with
their reason in value_id_modules.txt only, and only where the ids match
once hlolayout is given XLA's creation order (the created_ids check, which
has no documented exceptions); any other module whose ids differ fails the
run; the modules and checks
docs/memory.md lists in its table of known differences; the parser cases
docs/hlo-text.md lists. Exit status 1 when any difference is not
documented, 2 when the zoo did not compile.
"""

import argparse
import os
import re
import subprocess
import sys

import compare_zoo
import parser_cases

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def compile_selection(args):
  """Compiles (or reuses) the selection; returns its module directories."""
  command = [sys.executable, os.path.join(HERE, "compile_zoo.py"), "--cache", args.cache]
  if args.programs:
    command += ["--programs", args.programs]
  if args.sample:
    command += ["--sample", str(args.sample), "--seed", str(args.seed)]
  if args.zoo:
    command += ["--zoo", args.zoo]
  if subprocess.run(command, check=False).returncode != 0:
    return None
  listed = subprocess.run(command + ["--list"], capture_output=True, text=True, check=True)
  return [d for d in listed.stdout.splitlines() if d]


# The modules whose value ids (and so the order of equal-size usage lines)
# differ because XLA's computation creation order is not in the text
# (docs/memory.md, "Value ids"), each with its reason: a value-id difference
# on a module not listed is undocumented, and fails the run.
VALUE_ID_MODULES = os.path.join(HERE, "value_id_modules.txt")


def listed_value_id_modules(path):
  """{module name: reason} of VALUE_ID_MODULES (tab-separated lines; # and
  blank lines skipped)."""
  listed = {}
  with open(path) as f:
    for line in f:
      line = line.rstrip("\n")
      if not line or line.startswith("#"):
        continue
      name, _, reason = line.partition("\t")
      listed[name] = reason
  return listed


def documented_modules(doc_path):
  """(module, check) pairs docs/memory.md lists as known differences."""
  pairs = set()
  with open(doc_path) as f:
    for line in f:
      m = re.match(r"^\| `([\w.\-]+)` \| (memory_analysis|buffers|usage|counts) \|", line)
      if m:
        pairs.add((m.group(1), m.group(2)))
  return pairs


def classify(modules, documented, value_id_listed):
  """check -> (differing, documented, undocumented) lists of (name, text).
  A value-id difference, or an order of equal-size usage lines, is
  documented only on a module of value_id_listed whose ids match XLA's once
  hlolayout is given XLA's creation order (created_ids): then the order
  the text does not hold is the whole reason. A created_ids difference is
  never documented: it is a fault of the model."""
  out = {}
  for check in compare_zoo.CHECKS:
    differing, doc, undoc = [], [], []
    for m in modules:
      result = m.results.get(check)
      if not m.compiled or not result:
        continue
      differing.append((m.name, result))
      by_ids = check == "value_ids" or result == compare_zoo.TIE_ORDER
      explained = not m.results.get("created_ids")
      if ((by_ids and explained and m.name in value_id_listed)
          or (check != "created_ids" and (m.name, check) in documented)):
        doc.append((m.name, result))
      else:
        undoc.append((m.name, result))
    out[check] = (differing, doc, undoc)
  return out


def table_row(check, total, identical, differing, documented, first):
  return (f"{check:<16} {total:>7} {identical:>9} {differing:>9} {documented:>10}"
          f"  {first}")


def print_zoo_table(modules, classes):
  compiled = [m for m in modules if m.compiled]
  spmd = sum(1 for m in compiled if m.xla.get("spmd"))
  programs = len({m.xla["program"] for m in modules})
  print(f"zoo: {programs} programs, {len(compiled)} modules compiled "
        f"({spmd} SPMD on 8 CPU devices), {len(modules) - len(compiled)} failed to compile")
  for m in modules:
    if not m.compiled:
      print(f"  does not compile: {m.name}: {m.xla['error']}")
  print()
  print(table_row("check", "modules", "identical", "differing", "documented",
                  "first undocumented difference"))
  undocumented = 0
  for check in compare_zoo.CHECKS:
    differing, doc, undoc = classes[check]
    first = f"{undoc[0][0]}: {undoc[0][1]}" if undoc else ""
    print(table_row(check, len(compiled), len(compiled) - len(differing), len(differing),
                    len(doc), first[:150]))
    undocumented += len(undoc)
  same = [m for m in compiled if not any(m.results.values())]
  print(table_row("all", len(compiled), len(same), len(compiled) - len(same), "", ""))
  return undocumented


def print_parser_table(rows, unused):
  differing = [r for r in rows if r[1]]
  documented = [r for r in differing if r[2]]
  undocumented = [r for r in differing if not r[2]]
  first = f"{undocumented[0][0]}: {undocumented[0][1]}" if undocumented else ""
  print(table_row("parser cases", len(rows), len(rows) - len(differing), len(differing),
                  len(documented), first[:150]))
  for name in unused:
    print(f"  docs/hlo-text.md lists {name}, which no longer differs")
  return len(undocumented) + len(unused)


def print_differences(classes, rows, verbose):
  for check in compare_zoo.CHECKS:
    _, doc, undoc = classes[check]
    if undoc:
      print(f"\n{check}: {len(undoc)} undocumented differences")
      for name, result in undoc:
        print(f"  {name}: {result}")
    if doc and verbose:
      print(f"\n{check}: {len(doc)} documented differences")
      for name, result in doc:
        print(f"  {name}: {result}")
  undocumented = [r for r in rows if r[1] and not r[2]]
  if undocumented:
    print(f"\nparser cases: {len(undocumented)} undocumented differences")
    for name, difference, _ in undocumented:
      print(f"  {name}: {difference}")


def main():
  parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
  parser.add_argument("--hlolayout", required=True)
  parser.add_argument("--cache", required=True)
  parser.add_argument("--programs", default="")
  parser.add_argument("--sample", type=int, default=0)
  parser.add_argument("--seed", type=int, default=0)
  parser.add_argument("--jobs", type=int, default=2)
  parser.add_argument("--zoo", default="", help="another package of programs "
                      "(a held-out set: a folder with an __init__.py using zoo.program)")
  parser.add_argument("--no-parser-cases", action="store_true")
  parser.add_argument("--verbose", action="store_true",
                      help="also list every documented difference")
  args = parser.parse_args()

  import jax  # pylint: disable=import-outside-toplevel
  import jaxlib  # pylint: disable=import-outside-toplevel
  print(f"XLA oracle: jax {jax.__version__}, jaxlib {jaxlib.__version__} (XLA:CPU)")
  directories = compile_selection(args)
  if directories is None:
    print("oracle: the zoo did not compile", file=sys.stderr)
    return 2
  modules = compare_zoo.compare(args.hlolayout, compare_zoo.load_modules(directories),
                                args.jobs)
  listed = listed_value_id_modules(VALUE_ID_MODULES)
  classes = classify(modules, documented_modules(os.path.join(ROOT, "docs/memory.md")),
                     listed)
  differing = print_zoo_table(modules, classes)
  now_equal = sorted(m.name for m in modules if m.compiled and m.name in listed
                     and not m.results.get("value_ids")
                     and m.results.get("usage") != compare_zoo.TIE_ORDER)
  if now_equal:
    print(f"value ids now equal on {len(now_equal)} listed module(s) "
          f"(take them off {os.path.relpath(VALUE_ID_MODULES, ROOT)}): "
          + ", ".join(now_equal[:10]))
  rows = []
  if not args.no_parser_cases:
    rows, unused, _ = parser_cases.compare(
        args.hlolayout, os.path.join(ROOT, "tests/data/xla_parser_cases.txt"),
        os.path.join(ROOT, "docs/hlo-text.md"), args.jobs)
    differing += print_parser_table(rows, unused)
  print_differences(classes, rows, args.verbose)
  failed = sum(1 for m in modules if not m.compiled)
  return 1 if differing or failed else 0


if __name__ == "__main__":
  sys.exit(main())
