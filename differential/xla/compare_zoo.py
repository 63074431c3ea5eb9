"""Compares hlolayout with what XLA wrote for every compiled module.

For each module directory of the cache (compile_zoo.py), these checks:

  memory_analysis  `hlolayout memory --json`'s memory_analysis against
                   compiled.memory_analysis(), field by field (the
                   generated-code sizes are not in a dump: not compared)
  sizes            every value's size in `--format=xla-buffers` against
                   -buffer-assignment.txt's, by instruction and index,
                   whatever allocation holds it
  buffers          `--format=xla-buffers` against -buffer-assignment.txt,
                   allocation by allocation (xla_texts.py): sizes, kinds,
                   which values, their sizes, offsets and shapes (where
                   they differ but match given XLA's creation order, the
                   ids broke a tie of the heap: reported as such)
  value_ids        the ids of those values (XLA's HloValue ids)
  created_ids      the same ids when hlolayout is told the order XLA
                   created the computations in (--xla-creation-order, from
                   xla.json): the order the text does not hold; with it the
                   ids must match on every module whose allocations do
                   (XLA:CPU and XLA:GPU alike: the order replayed is the
                   module's)
  usage            `--format=xla-usage` against -memory-usage-report.txt,
                   line by line (a difference that given XLA's creation
                   order is none follows from the value ids: reported as
                   such; one only in the order of groups of equal size that
                   XLA's order does not remove is reported apart)
  live_ranges      `--format=xla` against -live-range.txt, line by line
                   (the same for the order of BufferLiveRange lines)
  counts           `hlolayout report --json --summary`'s computations and
                   instructions against XLA's own module

Needs no jax: it reads the cache only.
"""

import concurrent.futures
import json
import os
import subprocess
import tempfile

import xla_texts

CHECKS = ("memory_analysis", "sizes", "buffers", "value_ids", "created_ids", "usage",
          "live_ranges", "counts")

# Fields of compiled.memory_analysis() that a dump cannot give: the size of
# the code XLA generated (docs/memory-xla-checks.md, "Checked against XLA").
NOT_IN_THE_DUMP = ("generated_code_size_in_bytes", "host_generated_code_size_in_bytes")


class Module:
  """One compiled module of the cache and the outcome of each check."""

  def __init__(self, directory):
    self.directory = directory
    with open(os.path.join(directory, "xla.json")) as f:
      self.xla = json.load(f)
    self.name = f"{self.xla['program']}.{self.xla['size']}.{self.xla['variant']}"
    self.results = {}  # check -> None (identical) or the first difference

  @property
  def compiled(self):
    return "error" not in self.xla

  def chip_args(self):
    """`--tpu=GENERATION` for a module XLA:TPU compiled (the generation the
    harness compiled for, as XLA:TPU's target_arguments file says it; the
    cache does not keep that file)."""
    target = self.xla.get("target", "")
    return [f"--tpu={target}"] if "libtpu" in self.xla and target else []

  def path(self, suffix=""):
    dump = self.xla["dump"]
    return os.path.join(self.directory, dump[:-len(".txt")] + suffix + ".txt")


def _run(hlolayout, args):
  p = subprocess.run([hlolayout] + args, capture_output=True, text=True, check=False)
  if p.returncode != 0:
    return None, (p.stderr.strip().splitlines() or ["exit %d" % p.returncode])[0][:200]
  return p.stdout, None


def _read(path):
  with open(path) as f:
    return f.read()


def check_memory_analysis(hlolayout, m):
  out, err = _run(hlolayout, ["memory", "--json", *m.chip_args(), m.path()])
  if err:
    return f"hlolayout memory failed: {err}"
  (ours,) = json.loads(out)
  mine = ours.get("memory_analysis") or {}
  for field, value in m.xla["memory_analysis"].items():
    if field in NOT_IN_THE_DUMP:
      continue
    if mine.get(field) != value:
      return f"{field} {mine.get(field)}, XLA {value}"
  return None


def ids_from_creation_order(hlolayout, m, xla, vmem_offsets=False):
  """The first value-id difference when hlolayout is given XLA's creation
  order of the computations (None when the ids match); `vmem_offsets`:
  XLA:TPU's VMEM offsets left out of the comparison."""
  created = m.xla.get("computation_creation_order")
  if not created:
    return "not compared: xla.json has no creation order"
  with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
    f.write("\n".join(created) + "\n")
    path = f.name
  try:
    out, err = _run(hlolayout, ["memory", "--format=xla-buffers",
                                f"--xla-creation-order={path}", *m.chip_args(), m.path()])
  finally:
    os.unlink(path)
  if err:
    return f"hlolayout memory --xla-creation-order failed: {err}"
  try:
    ours = xla_texts.read_buffer_assignment(out)
  except xla_texts.TextError as e:
    return f"unreadable text: {e}"
  if vmem_offsets:
    ours, xla = xla_texts.without_vmem_offsets(ours), xla_texts.without_vmem_offsets(xla)
  return (xla_texts.compare_buffer_assignments(ours, xla)
          or xla_texts.compare_value_ids(ours, xla))


def check_buffers(hlolayout, m):
  """The buffers check; sets the sizes, value_ids and created_ids ones on
  the way."""
  m.results["value_ids"] = "not compared: the allocations differ"
  m.results["created_ids"] = "not compared: the allocations differ"
  out, err = _run(hlolayout, ["memory", "--format=xla-buffers", *m.chip_args(), m.path()])
  if err:
    m.results["sizes"] = f"hlolayout memory failed: {err}"
    return f"hlolayout memory failed: {err}"
  try:
    ours = xla_texts.read_buffer_assignment(out)
    xla = xla_texts.read_buffer_assignment(_read(m.path("-buffer-assignment")))
  except xla_texts.TextError as e:
    m.results["sizes"] = f"unreadable text: {e}"
    return f"unreadable text: {e}"
  m.results["sizes"] = xla_texts.compare_value_sizes(ours, xla)
  difference = xla_texts.compare_buffer_assignments(ours, xla)
  if difference is not None and xla_texts.compare_buffer_assignments(
      xla_texts.without_vmem_offsets(ours), xla_texts.without_vmem_offsets(xla)) is None:
    # Only XLA:TPU's VMEM offsets differ: memory-space assignment's, not in
    # the dump. The ids are compared all the same.
    m.results["value_ids"] = xla_texts.compare_value_ids(ours, xla)
    m.results["created_ids"] = ids_from_creation_order(hlolayout, m, xla, vmem_offsets=True)
    return VMEM_OFFSETS
  if difference is not None and xla_texts.same_allocations_in_another_order(ours, xla):
    return ALLOCATION_ORDER
  if difference is None:
    m.results["value_ids"] = xla_texts.compare_value_ids(ours, xla)
    m.results["created_ids"] = ids_from_creation_order(hlolayout, m, xla)
  elif ids_from_creation_order(hlolayout, m, xla) is None:
    # Given XLA's creation order every allocation and id is XLA's: the ids
    # guessed broke a tie of the heap another way.
    m.results["created_ids"] = None
    return BUFFER_TIES
  return difference


BUFFER_TIES = "the allocations the value ids break ties of (value ids)"

# Every allocation and value is XLA:TPU's but for the offsets of VMEM
# (color 1) values and the VMEM allocation's size: memory-space
# assignment's choice, which the dump does not hold (docs/xla-tpu.md).
VMEM_OFFSETS = "VMEM offsets only (memory-space assignment's, not in the dump)"

# Every allocation (size, kind, color, each value's place) is XLA's, but
# XLA numbers them in another order (XLA:TPU: docs/xla-tpu.md, open).
ALLOCATION_ORDER = "the same allocations numbered in another order"


TIE_ORDER = "the order of equal-size groups (value ids)"


def same_given_creation_order(hlolayout, m, fmt, xla, what):
  """Whether `hlolayout memory --format=FMT`, given XLA's creation order of
  the computations, writes exactly XLA's text: then a difference without
  it follows from the value ids alone."""
  created = m.xla.get("computation_creation_order")
  if not created:
    return False
  with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
    f.write("\n".join(created) + "\n")
    path = f.name
  try:
    out, err = _run(hlolayout, ["memory", f"--format={fmt}",
                                f"--xla-creation-order={path}", *m.chip_args(), m.path()])
  finally:
    os.unlink(path)
  return not err and not xla_texts.compare_lines(out, xla, what)


# An order the value ids give is reported as such (TIE_ORDER, RANGE_ORDER,
# which value_id_modules.txt and the known XLA:GPU classes document) only
# where hlolayout given XLA's creation order writes XLA's text exactly: the
# ids are then the whole reason. An order that differs without that proof
# is a difference of its own (TIE_ORDER_UNEXPLAINED, RANGE_ORDER_UNEXPLAINED).
TIE_ORDER_UNEXPLAINED = ("the order of equal-size groups, not XLA's given XLA's "
                         "creation order")


def check_usage(hlolayout, m):
  out, err = _run(hlolayout, ["memory", "--format=xla-usage", *m.chip_args(), m.path()])
  if err:
    return f"hlolayout memory failed: {err}"
  xla = _read(m.path("-memory-usage-report"))
  difference = xla_texts.compare_lines(out, xla, "report")
  if difference and not xla_texts.compare_lines(xla_texts.without_vmem_report(out),
                                                xla_texts.without_vmem_report(xla), "report"):
    return VMEM_OFFSETS
  if difference and same_given_creation_order(hlolayout, m, "xla-usage", xla, "report"):
    return TIE_ORDER
  if difference and not xla_texts.compare_lines(xla_texts.without_tie_order(out),
                                                xla_texts.without_tie_order(xla), "report"):
    return TIE_ORDER_UNEXPLAINED
  return difference


RANGE_ORDER = "the order of BufferLiveRange lines (value ids)"
RANGE_ORDER_UNEXPLAINED = ("the order of BufferLiveRange lines, not XLA's given XLA's "
                           "creation order")


def check_live_ranges(hlolayout, m):
  if not os.path.exists(m.path("-live-range")):
    return None  # an older dump without one: nothing to compare
  out, err = _run(hlolayout, ["memory", "--format=xla", *m.chip_args(), m.path()])
  if err:
    return f"hlolayout memory failed: {err}"
  xla = _read(m.path("-live-range"))
  difference = xla_texts.compare_lines(out, xla, "live ranges")
  if difference and same_given_creation_order(hlolayout, m, "xla", xla, "live ranges"):
    return RANGE_ORDER
  if difference and not xla_texts.compare_lines(xla_texts.without_range_order(out),
                                                xla_texts.without_range_order(xla),
                                                "live ranges"):
    return RANGE_ORDER_UNEXPLAINED
  return difference


def check_counts(hlolayout, m):
  out, err = _run(hlolayout, ["report", "--json", "--summary", m.path()])
  if err:
    return f"hlolayout report failed: {err}"
  (module,) = json.loads(out)["modules"]
  totals = module["totals"]
  for field in ("computations", "instructions"):
    if totals[field] != m.xla[field]:
      return f"{field} {totals[field]}, XLA {m.xla[field]}"
  return None


_CHECK_FUNCTIONS = {
    "memory_analysis": check_memory_analysis,
    "sizes": None,  # set by check_buffers
    "buffers": check_buffers,
    "value_ids": None,  # set by check_buffers
    "created_ids": None,  # set by check_buffers
    "usage": check_usage,
    "live_ranges": check_live_ranges,
    "counts": check_counts,
}


def check_module(hlolayout, m):
  for check in CHECKS:
    if _CHECK_FUNCTIONS[check] is not None:
      m.results[check] = _CHECK_FUNCTIONS[check](hlolayout, m)
  return m


def load_modules(directories):
  return [Module(d) for d in directories]


def compare(hlolayout, modules, jobs=2):
  """Runs every check on every compiled module (in place); returns them."""
  todo = [m for m in modules if m.compiled]
  with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
    list(pool.map(lambda m: check_module(hlolayout, m), todo))
  return modules
