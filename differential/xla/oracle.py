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

Prints the table (per check: modules, identical, differing, the first
difference), then every differing module or case with its first
difference. Exit status 1 when any difference is not documented
(docs/hlo-text.md lists the parser cases that differ on purpose), 2 when the
zoo did not compile.
"""

import argparse
import collections
import os
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


def table_row(check, total, identical, differing, first):
  return f"{check:<17} {total:>7} {identical:>9} {differing:>9}  {first}"


def print_zoo_table(modules):
  compiled = [m for m in modules if m.compiled]
  spmd = sum(1 for m in compiled if m.xla.get("spmd"))
  programs = len({m.xla["program"] for m in modules})
  print(f"zoo: {programs} programs, {len(compiled)} modules compiled "
        f"({spmd} SPMD on 8 CPU devices), {len(modules) - len(compiled)} failed to compile")
  for m in modules:
    if not m.compiled:
      print(f"  does not compile: {m.name}: {m.xla['error']}")
  print()
  print(table_row("check", "modules", "identical", "differing", "first difference"))
  for check in compare_zoo.CHECKS:
    differing = [m for m in compiled if m.results.get(check)]
    first = f"{differing[0].name}: {differing[0].results[check]}" if differing else ""
    print(table_row(check, len(compiled), len(compiled) - len(differing),
                    len(differing), first[:150]))
  all_same = [m for m in compiled if not any(m.results.values())]
  print(table_row("all four", len(compiled), len(all_same),
                  len(compiled) - len(all_same), ""))
  return len(compiled) - len(all_same)


def print_parser_table(rows, unused):
  differing = [r for r in rows if r[1]]
  documented = [r for r in differing if r[2]]
  undocumented = [r for r in differing if not r[2]]
  first = f"{undocumented[0][0]}: {undocumented[0][1]}" if undocumented else ""
  print(table_row("parser cases", len(rows), len(rows) - len(differing),
                  len(differing), f"{len(documented)} documented in docs/hlo-text.md"
                  + (f"; {first}" if first else "")[:150]))
  for name in unused:
    print(f"  docs/hlo-text.md lists {name}, which no longer differs")
  return len(undocumented) + len(unused)


def print_differences(modules, rows):
  by_check = collections.defaultdict(list)
  for m in modules:
    for check, result in m.results.items():
      if result:
        by_check[check].append((m.name, result))
  for check in compare_zoo.CHECKS:
    if by_check[check]:
      print(f"\n{check}: {len(by_check[check])} differing")
      for name, result in by_check[check]:
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
  differing = print_zoo_table(modules)
  rows = []
  if not args.no_parser_cases:
    rows, unused = parser_cases.compare(
        args.hlolayout, os.path.join(ROOT, "tests/data/xla_parser_cases.txt"),
        os.path.join(ROOT, "docs/hlo-text.md"), args.jobs)
    differing += print_parser_table(rows, unused)
  print_differences(modules, rows)
  failed = sum(1 for m in modules if not m.compiled)
  return 1 if differing or failed else 0


if __name__ == "__main__":
  sys.exit(main())
