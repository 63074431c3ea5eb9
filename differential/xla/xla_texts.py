"""Readers of the texts XLA dumps, for comparing them item by item.

`-buffer-assignment.txt` becomes a list of allocations (index, size, kind
flags, parameter and output facts, values with id, name, index, size,
offset and shape); `-memory-usage-report.txt` is compared line by line.
Formatting that changed between XLA versions without changing the facts
(", page 0" on every allocation, which newer XLA prints) is read, not
compared.
"""

import re

_ALLOCATION = re.compile(r"^allocation (\d+): size (\d+)(.*):$")
_VALUE = re.compile(
    r"^ value: <(\d+) (\S+?)(\{[0-9,]*\})?( \(phi\))? @(\d+)> "
    r"\(size=(\d+),offset=(\d+)\): (.*)$")
_PARAMETER = re.compile(r", parameter (\d+), shape \|(.*?)\| at ShapeIndex (\{[0-9,]*\})")
_OUTPUT = re.compile(r", output shape is \|(.*?)\|")
_COLOR = re.compile(r", color (\d+)")
_FLAGS = ("constant", "thread-local", "maybe-live-out", "preallocated-temp")


class TextError(ValueError):
  pass


def read_buffer_assignment(text):
  """Allocations of a -buffer-assignment.txt text (or hlolayout's)."""
  allocations = []
  lines = text.splitlines()
  if not lines or lines[0] != "BufferAssignment:":
    raise TextError("no 'BufferAssignment:' line")
  for number, line in enumerate(lines[1:], start=2):
    if not line.strip():
      continue
    m = _ALLOCATION.match(line)
    if m:
      rest = m.group(3)
      alloc = {"index": int(m.group(1)), "size": int(m.group(2)), "values": []}
      p = _PARAMETER.search(rest)
      if p:
        alloc["parameter"] = (int(p.group(1)), p.group(2), p.group(3))
        rest = rest.replace(p.group(0), "")
      o = _OUTPUT.search(rest)
      if o:
        alloc["output_shape"] = o.group(1)
        rest = rest.replace(o.group(0), "")
      c = _COLOR.search(rest)
      alloc["color"] = int(c.group(1)) if c else 0
      if c:
        rest = rest.replace(c.group(0), "")
      rest = rest.replace(", page 0", "")
      words = [w for w in rest.split(", ") if w]
      alloc["flags"] = tuple(sorted(w for w in words if w in _FLAGS))
      unknown = [w for w in words if w not in _FLAGS]
      if unknown:
        alloc["unknown"] = tuple(unknown)
      allocations.append(alloc)
      continue
    m = _VALUE.match(line)
    if m and allocations:
      allocations[-1]["values"].append({
          "id": int(m.group(1)), "name": m.group(2), "index": m.group(3) or "",
          "phi": bool(m.group(4)), "color": int(m.group(5)),
          "size": int(m.group(6)), "offset": int(m.group(7)), "shape": m.group(8)})
      continue
    raise TextError(f"line {number} not understood: {line[:120]}")
  return allocations


def _value_key(v):
  return (v["name"], v["index"])


def _describe(v):
  return (f"<{v['id']} {v['name']}{v['index']}{' (phi)' if v['phi'] else ''}> "
          f"size={v['size']} offset={v['offset']} {v['shape']}")


def compare_buffer_assignments(ours, xla):
  """The first difference (a short text), or None when they agree.

  Allocation by allocation: size, kind (parameter number, shape and index,
  output shape, color, constant/thread-local/maybe-live-out/temp), then every
  value: which values (by instruction and index), each one's size, offset,
  shape and phi mark. Value ids are compared apart (compare_value_ids).
  """
  if len(ours) != len(xla):
    return f"{len(ours)} allocations, XLA {len(xla)}"
  for a, b in zip(ours, xla):
    where = f"allocation {b['index']}"
    if a["index"] != b["index"]:
      return f"{where}: numbered {a['index']}"
    for field in ("size", "color", "flags", "parameter", "output_shape", "unknown"):
      if a.get(field) != b.get(field):
        return f"{where}: {field} {a.get(field)!r}, XLA {b.get(field)!r}"
    av = {_value_key(v): v for v in a["values"]}
    bv = {_value_key(v): v for v in b["values"]}
    missing = [k for k in bv if k not in av]
    extra = [k for k in av if k not in bv]
    if missing or extra:
      parts = []
      if missing:
        parts.append("lacks " + ", ".join(f"{n}{i}" for n, i in missing[:3]))
      if extra:
        parts.append("has " + ", ".join(f"{n}{i}" for n, i in extra[:3]) + " too")
      return f"{where}: " + "; ".join(parts)
    for key, v in bv.items():
      u = av[key]
      for field in ("size", "offset", "shape", "phi"):
        if u[field] != v[field]:
          return f"{where}: {_describe(u)}, XLA {_describe(v)}"
  return None


def _allocation_key(a):
  return repr((a["color"], a["size"], a["flags"], a.get("parameter"), a.get("output_shape"),
               sorted((v["name"], v["index"], v["size"], v["offset"], v["shape"], v["phi"])
                      for v in a["values"])))


def same_allocations_in_another_order(ours, xla):
  """Whether the two assignments have the same allocations (size, kind,
  color, every value's place), numbered in another order."""
  return sorted(map(_allocation_key, ours)) == sorted(map(_allocation_key, xla))


# The memory spaces of memory-space assignment's preset allocation: VMEM
# (color 1), and S(3) on v4, where XLA:TPU puts those values (docs/xla-tpu.md).
MSA_COLORS = (1, 3)


def without_vmem_offsets(allocations):
  """The allocations with XLA:TPU's VMEM (color 1; S(3) on v4) offsets and
  sizes left out: memory-space assignment chooses them, and the dump does
  not hold them (docs/xla-tpu.md)."""
  out = []
  for a in allocations:
    if a["color"] in MSA_COLORS:
      a = dict(a, size=None, values=[dict(v, offset=None) for v in a["values"]])
    out.append(a)
  return out


def without_vmem_report(text):
  """The usage report without its `Memory Space: vmem (color=1)` section
  (and v4's `hbm (color=3)`, memory-space assignment's there)."""
  out, skipping = [], False
  for line in text.splitlines():
    if line.startswith("Memory Space: "):
      skipping = line.startswith(("Memory Space: vmem (color=1)",
                                  "Memory Space: hbm (color=3)"))
    if not skipping:
      out.append(line)
  return "\n".join(out)


def compare_value_sizes(ours, xla):
  """The first value (by instruction and index) whose size differs, or
  that one side lacks, whatever allocation holds it; None when every
  value's size is XLA's."""
  mine = {_value_key(v): v for a in ours for v in a["values"]}
  for a in xla:
    for v in a["values"]:
      u = mine.get(_value_key(v))
      if u is None:
        return f"{v['name']}{v['index']} ({v['shape']}, {v['size']} B) is not placed"
      if u["size"] != v["size"]:
        return f"{v['name']}{v['index']} {v['shape']}: size {u['size']}, XLA {v['size']}"
  return None


def compare_value_ids(ours, xla):
  """The first value whose id differs, or None (call when the allocations
  agree otherwise)."""
  for a, b in zip(ours, xla):
    av = {_value_key(v): v["id"] for v in a["values"]}
    for v in b["values"]:
      if av.get(_value_key(v)) != v["id"]:
        return (f"allocation {b['index']}: {v['name']}{v['index']} is "
                f"{av.get(_value_key(v))}, XLA {v['id']}")
  return None


def compare_lines(ours, xla, what):
  """The first differing line of two texts, or None."""
  a = [l.rstrip() for l in ours.rstrip("\n").splitlines()]
  b = [l.rstrip() for l in xla.rstrip("\n").splitlines()]
  for i, (x, y) in enumerate(zip(a, b), start=1):
    if x != y:
      return f"{what} line {i}: {x.strip()!r}, XLA {y.strip()!r}"
  if len(a) != len(b):
    return f"{what}: {len(a)} lines, XLA {len(b)}"
  return None


def without_tie_order(text):
  """The usage report with the order of equal-size groups left out.

  XLA orders an allocation's groups by size, then by the id of each
  group's last value; within a run of lines of one size the cumulative
  column does not depend on that order, so the rest of each line is sorted.
  """
  out, heads, tails, run = [], [], [], None

  def flush():
    for head, tail in zip(heads, sorted(tails)):
      out.append(head + tail)
    heads.clear()
    tails.clear()

  for line in text.splitlines():
    parts = line.split(";")
    if len(parts) < 3 or "cumulative_size" in line:
      flush()
      run = None
      out.append(line)
      continue
    if parts[1] != run:
      flush()
    run = parts[1]
    heads.append(";".join(parts[:2]))
    tails.append(";" + ";".join(parts[2:]))
  flush()
  return "\n".join(out)


def without_range_order(text):
  """The live-range text with its BufferLiveRange lines sorted: XLA lists
  them by value id, so a difference only in their order follows from the
  value ids."""
  out, section = [], []
  inside = False
  for line in text.splitlines():
    if line.strip() == "BufferLiveRange:":
      inside = True
      out.append(line)
      continue
    if inside and not line.startswith("    "):
      out.extend(sorted(section))
      section.clear()
      inside = False
    if inside:
      section.append(line)
    else:
      out.append(line)
  out.extend(sorted(section))
  return "\n".join(out)
