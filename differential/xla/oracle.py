"""XLA as the oracle: compiles the zoo, compares every module, prints one table.

  python oracle.py --hlolayout BIN --cache DIR [--programs a,b | --sample N]
                   [--seed S] [--jobs J] [--zoo DIR] [--no-parser-cases]
                   [--target cpu|h100|a100|b200|gpu|v4|v5e|v5p|v6e|tpu]

Run inside the venv of requirements.txt (run.sh and ci.sh do it). Steps:

1. compile_zoo.py (a process of its own, with 8 CPU devices, or with XLA:GPU
   for the --target GPU: gpu_target.py, or with XLA:TPU for the --target
   generation: tpu_target.py) compiles the selected programs into the
   cache; modules compiled before are reused; `--target gpu` does it for
   the H100, the A100 and the B200 in turn, one table each, `--target tpu`
   for v4, v5e, v5p and v6e;
2. compare_zoo.py checks every module: memory_analysis() field by field,
   the buffer assignment allocation by allocation, the memory-usage report
   and the live ranges line by line, the computation and instruction counts;
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
run; an XLA:GPU difference known_gpu_differences.txt lists for its module
and check with the class this run computes for it, exactly (another class
on a listed pair fails: a listing names a cause, not a module); the parser
cases docs/hlo-text.md lists. A module name there may carry its target
(`h100:mlp_sgd.s.loss`, or `gpu:` for the three GPUs): a bare name is the
module on every target. Exit status 1 when any difference is not
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


def compile_selection(args, target):
  """Compiles (or reuses) the selection; returns its module directories."""
  command = [sys.executable, os.path.join(HERE, "compile_zoo.py"), "--cache", args.cache]
  if args.programs:
    command += ["--programs", args.programs]
  if args.sample:
    command += ["--sample", str(args.sample), "--seed", str(args.seed)]
  if args.zoo:
    command += ["--zoo", args.zoo]
  command += ["--target", target]
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


# The open differences of XLA:GPU (one line per target:module, check and
# the class of the difference, tab-separated), listed by the last full run
# so that CI's sample fails on a new difference only; a difference is
# documented by its line only when this run computes the same class for it
# (difference_class): a wrong total on a module listed for the order of its
# usage lines is another class, and fails. docs/memory-xla-checks.md,
# "Checked against XLA:GPU", names each class.
KNOWN_GPU_DIFFERENCES = os.path.join(HERE, "known_gpu_differences.txt")
# XLA:TPU's, the same way (docs/xla-tpu.md).
KNOWN_TPU_DIFFERENCES = os.path.join(HERE, "known_tpu_differences.txt")


def listed_known_differences(path):
  """{(module, check): class} of KNOWN_GPU_DIFFERENCES (absent file: none).
  A line without its three tab-separated columns is an error."""
  known = {}
  if not os.path.exists(path):
    return known
  with open(path) as f:
    for number, line in enumerate(f, start=1):
      line = line.rstrip("\n")
      if not line or line.startswith("#"):
        continue
      parts = line.split("\t")
      if len(parts) != 3 or not all(parts):
        raise ValueError(f"{path}:{number}: expected module, check and class, "
                         f"tab-separated")
      known[(parts[0], parts[1])] = parts[2]
  return known


def names_of(name, target):
  """The names a module goes by in the lists of known differences: bare,
  with its target, and with `gpu:` on the GPUs."""
  names = {name, f"{target}:{name}"}
  if target != "cpu":
    names.add(f"{'tpu' if target in TPU_TARGETS else 'gpu'}:{name}")
  return names


def value_id_names(name, target):
  """The names a module goes by in value_id_modules.txt: bare names are
  XLA:CPU's; a GPU's need their target (`h100:`) or `gpu:`."""
  if target == "cpu":
    return {name, f"cpu:{name}"}
  return {f"{target}:{name}", f"{'tpu' if target in TPU_TARGETS else 'gpu'}:{name}"}


def listed_classes(known, name, check, target):
  """The classes `known` lists for the module's check under its names
  (names_of): usually one, none when it is not listed."""
  return sorted(known[(n, check)] for n in names_of(name, target) if (n, check) in known)


def classify(modules, known, value_id_listed, target="cpu"):
  """check -> (differing, documented, undocumented) lists of (name, text).
  A value-id difference, or an order of equal-size usage lines, is
  documented only on a module of value_id_listed whose ids match XLA's once
  hlolayout is given XLA's creation order (created_ids): then the order
  the text does not hold is the whole reason. Another difference is
  documented only where `known` ({(module, check): class}) lists the
  module's check with the class computed for it (module_class). A
  created_ids difference is never documented: it is a fault of the
  model."""
  out = {}
  for check in compare_zoo.CHECKS:
    differing, doc, undoc = [], [], []
    for m in modules:
      result = m.results.get(check)
      if not m.compiled or not result:
        continue
      differing.append((m.name, result))
      by_ids = check == "value_ids" or result in (
          compare_zoo.TIE_ORDER, compare_zoo.RANGE_ORDER, compare_zoo.BUFFER_TIES)
      listed = value_id_names(m.name, target) & set(value_id_listed)
      # A listed module's value ids are documented only when XLA's creation
      # order explains them (created_ids, never documented itself but where
      # the allocations already differ).
      explained = not m.results.get("created_ids")
      expected = listed_classes(known, m.name, check, target)
      if by_ids and explained and listed:
        doc.append((m.name, result))
      elif ((check != "created_ids" or result.startswith("not compared"))
            and module_class(m, check) in expected):
        doc.append((m.name, result))
      elif expected:
        undoc.append((m.name, f"{result} (listed as another class: {expected[0]})"))
      else:
        undoc.append((m.name, result))
    out[check] = (differing, doc, undoc)
  return out


def table_row(check, total, identical, differing, documented, first):
  return (f"{check:<16} {total:>7} {identical:>9} {differing:>9} {documented:>10}"
          f"  {first}")


TARGET_NAMES = {"cpu": "XLA:CPU", "h100": "XLA:GPU H100 (sm_90a)",
                "a100": "XLA:GPU A100 (sm_80)", "b200": "XLA:GPU B200 (sm_100a)",
                "v4": "XLA:TPU v4", "v5e": "XLA:TPU v5e", "v5p": "XLA:TPU v5p",
                "v6e": "XLA:TPU v6e"}
GPU_TARGETS = ("h100", "a100", "b200")
TPU_TARGETS = ("v4", "v5e", "v5p", "v6e")


def known_file(target):
  """The list of open differences a target's lines are written to."""
  return KNOWN_TPU_DIFFERENCES if target in TPU_TARGETS else KNOWN_GPU_DIFFERENCES


def print_zoo_table(modules, classes, target="cpu"):
  compiled = [m for m in modules if m.compiled]
  spmd = sum(1 for m in compiled if m.xla.get("spmd"))
  programs = len({m.xla["program"] for m in modules})
  devices = ("8 CPU devices" if target == "cpu" else
             "8, 64 or 256 chips" if target in TPU_TARGETS else "8 GPUs")
  print(f"{TARGET_NAMES[target]}: {programs} programs, {len(compiled)} modules compiled "
        f"({spmd} SPMD on {devices}), {len(modules) - len(compiled)} failed to compile")
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


def difference_class(check, result, created_ids=None):
  """The class of a difference, as known_gpu_differences.txt names it
  (`created_ids`: the module's created_ids result, None when the ids match
  given XLA's creation order). An open difference is its whole text, so
  that its listing documents that difference and no other."""
  if check in ("value_ids", "created_ids") and result.startswith("not compared"):
    return "follows from the buffers"
  if check == "value_ids" or result in (compare_zoo.TIE_ORDER, compare_zoo.RANGE_ORDER,
                                       compare_zoo.BUFFER_TIES):
    if created_ids is None:
      return "value ids: the creation order guessed; XLA's gives XLA's (docs/memory.md)"
    return "value ids (docs/memory.md)"
  return "open: " + result


def module_class(m, check):
  """The class of module m's difference on `check` (m.results[check] set):
  known_gpu_differences.txt's third column."""
  return difference_class(check, m.results[check], m.results.get("created_ids"))


def compile_class(m):
  """The class of a module XLA did not compile: its error, numbers made N
  (the instruction numbers of one size are not another's)."""
  return "does not compile: " + re.sub(r"\d+", "N", m.xla.get("error", ""))[:100]


def undocumented_compile_failures(modules, known, target):
  """The modules XLA did not compile that `known` does not list with their
  error's class (a module XLA:GPU cannot compile, listed as such by the
  last full run, is not a failure of the harness)."""
  return [m for m in modules if not m.compiled
          and compile_class(m) not in listed_classes(known, m.name, "compile", target)]


def known_lines(modules, target):
  """known_gpu_differences.txt's lines for every difference of `modules`."""
  lines = []
  for m in modules:
    if not m.compiled:
      lines.append(f"{target}:{m.name}\tcompile\t{compile_class(m)}")
      continue
    for check in compare_zoo.CHECKS:
      if m.results.get(check):
        lines.append(f"{target}:{m.name}\t{check}\t{module_class(m, check)}")
  return lines


def run_target(args, target, listed, known):
  """Compiles and compares the selection for one target; prints its table;
  returns (undocumented differences, modules that did not compile), or
  None when the zoo did not compile."""
  directories = compile_selection(args, target)
  if directories is None:
    return None
  modules = compare_zoo.compare(args.hlolayout, compare_zoo.load_modules(directories),
                                args.jobs)
  classes = classify(modules, known, listed, target)
  differing = print_zoo_table(modules, classes, target)
  now_equal = sorted(m.name for m in modules if m.compiled
                     and value_id_names(m.name, target) & set(listed)
                     and not m.results.get("value_ids")
                     and m.results.get("usage") != compare_zoo.TIE_ORDER
                     and m.results.get("live_ranges") != compare_zoo.RANGE_ORDER)
  if now_equal:
    print(f"value ids now equal on {len(now_equal)} listed module(s) "
          f"(take them off {os.path.relpath(VALUE_ID_MODULES, ROOT)}): "
          + ", ".join(now_equal[:10]))
  stale = [f"{m.name} {check}" for m in modules if m.compiled for check in compare_zoo.CHECKS
           if not m.results.get(check) and listed_classes(known, m.name, check, target)]
  stale += [f"{m.name} compile" for m in modules if m.compiled
            and listed_classes(known, m.name, "compile", target)]
  if stale:
    print(f"{len(stale)} listed difference(s) no longer differ (take them off "
          f"{os.path.relpath(known_file(target), ROOT)}): " + ", ".join(stale[:10]))
  print_differences(classes, [], args.verbose)
  print()
  if args.write_known_gpu and target != "cpu":
    args.known.setdefault(known_file(target), []).extend(known_lines(modules, target))
    args.checked.extend(f"{target}:{m.name}" for m in modules)
  return differing, len(undocumented_compile_failures(modules, known, target))


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
  parser.add_argument("--target", default="cpu",
                      choices=("cpu", "gpu", "tpu") + GPU_TARGETS + TPU_TARGETS,
                      help="XLA:CPU, XLA:GPU for one GPU, gpu: the three GPUs in turn, "
                      "XLA:TPU for one generation, tpu: the four in turn")
  parser.add_argument("--no-parser-cases", action="store_true")
  parser.add_argument("--write-known-gpu", "--write-known", dest="write_known_gpu",
                      action="store_true",
                      help="write every XLA:GPU (XLA:TPU) difference of this run, with its "
                      "class, to known_gpu_differences.txt (known_tpu_differences.txt) "
                      "after a full run")
  parser.add_argument("--verbose", action="store_true",
                      help="also list every documented difference")
  args = parser.parse_args()

  import jax  # pylint: disable=import-outside-toplevel
  import jaxlib  # pylint: disable=import-outside-toplevel
  targets = {"gpu": GPU_TARGETS, "tpu": TPU_TARGETS}.get(args.target, (args.target,))
  versions = f"jax {jax.__version__}, jaxlib {jaxlib.__version__}"
  if set(targets) & set(TPU_TARGETS):
    import tpu_target  # pylint: disable=import-outside-toplevel
    versions += f", libtpu {tpu_target.libtpu_version()}"
  print(f"XLA oracle: {versions} ({', '.join(TARGET_NAMES[t] for t in targets)})")
  listed = listed_value_id_modules(VALUE_ID_MODULES)
  known = listed_known_differences(KNOWN_GPU_DIFFERENCES)
  known.update(listed_known_differences(KNOWN_TPU_DIFFERENCES))
  differing = failed = 0
  args.known, args.checked = {}, []
  for target in targets:
    outcome = run_target(args, target, listed, known)
    if outcome is None:
      print(f"oracle: the zoo did not compile for {target}", file=sys.stderr)
      return 2
    differing += outcome[0]
    failed += outcome[1]
  for path, lines in args.known.items():
    # Lines of modules this run did not check are kept (the zoo and the
    # held-out set are two runs).
    checked = set(args.checked)
    kept = []
    if os.path.exists(path):
      with open(path) as f:
        kept = [l.rstrip("\n") for l in f
                if l.strip() and not l.startswith("#") and l.split("\t")[0] not in checked]
    lines.extend(kept)
    tpu = path == KNOWN_TPU_DIFFERENCES
    with open(path, "w") as f:
      f.write(f"# XLA:{'TPU' if tpu else 'GPU'}'s open differences (oracle.py --write-known "
              "after a full run):\n# target:module, check, class ("
              + ("docs/xla-tpu.md" if tpu else
                 "docs/memory-xla-checks.md, \"Checked against XLA:GPU\"") + ").\n")
      f.write("".join(line + "\n" for line in sorted(set(lines))))
  if not args.no_parser_cases:
    rows, unused, _ = parser_cases.compare(
        args.hlolayout, os.path.join(ROOT, "tests/data/xla_parser_cases.txt"),
        os.path.join(ROOT, "docs/hlo-text.md"), args.jobs)
    differing += print_parser_table(rows, unused)
    print_differences({c: ([], [], []) for c in compare_zoo.CHECKS}, rows, args.verbose)
  return 1 if differing or failed else 0


if __name__ == "__main__":
  sys.exit(main())
