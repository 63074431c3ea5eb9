#!/usr/bin/env python3
"""Runs `hlolayout triton report` on every part of Triton's lit tests.

Triton's lit tests (test/TritonGPU, test/TritonNvidiaGPU, test/Analysis and
test/Conversion of a Triton checkout) are `.mlir` files of modules separated
by `// -----` lines. This script splits each file the way `mlir-opt
--split-input-file` does, feeds each part to `hlolayout triton report --json -`
and counts:

  read      the report succeeded
  refused   the report exited 1 with a located error
  crashed   any other exit (a signal, exit 2, ...) or a time-out (a hang)

For parts that read, it counts the layout aliases the report lists as not
converted (by kind: only other dialects' attributes should remain) and
checks the convert_layout count: the number of
`ttg.convert_layout` (or `triton_gpu.convert_layout`) operations in the
part's text against the report's `converts`. Parts with `expected-error`
lines (what Triton's verifiers reject) are counted apart.

usage: count_parts.py HLOLAYOUT_BINARY TRITON_TEST_DIR [--list-refused]
       [--list-invalid-read] [--jobs N]

Prints one summary line per folder and a total; exits 0.
"""

import concurrent.futures
import json
import os
import re
import subprocess
import sys

FOLDERS = ("TritonGPU", "TritonNvidiaGPU", "Analysis", "Conversion")
SPLIT = re.compile(r"^// -----.*$", re.M)
CONVERT = re.compile(r"\b(?:ttg|triton_gpu)\.convert_layout\b")
COMMENT = re.compile(r"//.*$", re.M)


def parts_of(path):
  with open(path, encoding="utf-8") as f:
    text = f.read()
  # Keep line numbers: each part starts with as many newlines as lines
  # before it, so a report's line:column is the file's.
  out = []
  start = 0
  line = 1
  for m in SPLIT.finditer(text):
    out.append((line, text[start:m.start()]))
    line += text[start:m.end()].count("\n")
    start = m.end()
  out.append((line, text[start:]))
  return out


EXPECTED = re.compile(r"expected-error *@?(below|above|[+-]\d+)?")
ALIAS_LINE = re.compile(r"^\s*#[\w.$-]+\s*=")
SPLIT_FILE = re.compile(r"^//--- .*$", re.M)


def attribute_error(body):
  """Whether an expected-error of the part points at an alias definition."""
  lines = body.split("\n")
  for i, line in enumerate(lines):
    m = EXPECTED.search(line)
    if not m:
      continue
    where = m.group(1) or "+0"
    if where == "below":
      targets = [i + 1]
    elif where == "above":
      targets = [i - 1]
    else:
      targets = [i + int(where)]
    for t in targets:
      if 0 <= t < len(lines) and ALIAS_LINE.match(lines[t]):
        return True
  return False


# (kind, why) of every alias a report read but did not convert, and why a
# convert_layout's cost is unknown.
NOT_CONVERTED = []
COST_ERRORS = []


def run(binary, part):
  """Reports one part; a part of `split-file` sections (`//--- name`) is
  read section by section, as the test feeds them to triton-opt."""
  first_line, body = part
  sections = []
  start = 0
  line = first_line
  for m in SPLIT_FILE.finditer(body):
    sections.append((line, body[start:m.start()]))
    line += body[start:m.end()].count("\n")
    start = m.end()
  sections.append((line, body[start:]))
  total = 0
  for section in sections:
    status, why, n = run_one(binary, section)
    if status != "read":
      return status, why, n
    total += n
  return "read", "", total


def run_one(binary, part):
  first_line, body = part
  padded = "\n" * (first_line - 1) + body
  try:
    r = subprocess.run([binary, "triton", "report", "--json", "-"],
                       input=padded.encode(), capture_output=True, timeout=20)
  except subprocess.TimeoutExpired:
    return ("crashed", "time-out", None)
  if r.returncode == 0:
    try:
      report = json.loads(r.stdout)
      n = len(report["converts"])
      NOT_CONVERTED.extend((a["kind"], a["unsupported"])
                           for a in report["aliases"] if not a["converted"])
      COST_ERRORS.extend(c["error"] for c in report["converts"]
                         if c.get("error"))
    except (ValueError, KeyError):
      return ("crashed", "bad json", None)
    return ("read", "", n)
  if r.returncode == 1:
    return ("refused", r.stderr.decode(errors="replace").strip(), None)
  return ("crashed", "exit %d: %s" % (r.returncode,
                                      r.stderr.decode(errors="replace")), None)


def main(argv):
  args = [a for a in argv[1:] if not a.startswith("--")]
  flags = [a for a in argv[1:] if a.startswith("--")]
  jobs = 2
  for f in flags:
    if f.startswith("--jobs="):
      jobs = int(f.split("=", 1)[1])
  if len(args) != 2:
    print(__doc__, file=sys.stderr)
    return 2
  binary, root = args
  work = []
  for folder in FOLDERS:
    for dirpath, _, names in sorted(os.walk(os.path.join(root, folder))):
      for name in sorted(names):
        if not name.endswith(".mlir"):
          continue
        path = os.path.join(dirpath, name)
        for part in parts_of(path):
          work.append((folder, os.path.relpath(path, root), part))
  with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
    results = list(pool.map(lambda w: run(binary, w[2]), work))
  totals = {}
  bad_counts = []
  attr = {"parts": 0, "read": []}
  for (folder, path, part), (status, why, converts) in zip(work, results):
    invalid = "expected-error" in part[1]
    if invalid and attribute_error(part[1]):
      attr["parts"] += 1
      if status == "read":
        attr["read"].append("%s:%d" % (path, part[0]))
    key = (folder, invalid)
    t = totals.setdefault(key, {"parts": 0, "read": 0, "refused": 0,
                                 "crashed": 0})
    t["parts"] += 1
    t[status] += 1
    where = "%s:%d" % (path, part[0])
    if status == "read":
      expected = len(CONVERT.findall(COMMENT.sub("", part[1])))
      if expected != converts:
        bad_counts.append("%s: %d convert_layout in the text, %d reported" %
                          (where, expected, converts))
      if invalid and "--list-invalid-read" in flags:
        print("invalid part read: " + where)
    elif status == "crashed":
      print("CRASH %s: %s" % (where, why))
    elif "--list-refused" in flags and not invalid:
      print("refused %s: %s" % (where, why.splitlines()[0] if why else ""))
  grand = {"parts": 0, "read": 0, "refused": 0, "crashed": 0}
  for (folder, invalid), t in sorted(totals.items()):
    print("%-16s %-26s %5d parts: %5d read, %4d refused, %d crashed" %
          (folder, "(with expected-error)" if invalid else "", t["parts"],
           t["read"], t["refused"], t["crashed"]))
    for k in grand:
      grand[k] += t[k]
  print("total %d parts: %d read, %d refused, %d crashed" %
        (grand["parts"], grand["read"], grand["refused"], grand["crashed"]))
  print("parts whose expected-error is on an attribute alias: %d, %d refused" %
        (attr["parts"], attr["parts"] - len(attr["read"])))
  if "--list-invalid-read" in flags:
    for w in attr["read"]:
      print("  invalid attribute read: " + w)
  kinds = {}
  for kind, _ in NOT_CONVERTED:
    kinds[kind] = kinds.get(kind, 0) + 1
  print("layout aliases not converted: %d%s" % (
      len(NOT_CONVERTED), "".join(" %s=%d" % kv for kv in sorted(kinds.items()))))
  reasons = {}
  for why in COST_ERRORS:
    key = re.sub(r"#[\w.]+<.*", "<layout>", why)[:80]
    reasons[key] = reasons.get(key, 0) + 1
  print("convert_layout costs unknown: %d" % len(COST_ERRORS))
  for why, n in sorted(reasons.items(), key=lambda kv: -kv[1]):
    print("  %5d %s" % (n, why))
  print("convert_layout counts wrong in %d parts read" % len(bad_counts))
  for b in bad_counts:
    print("  " + b)
  return 0


if __name__ == "__main__":
  sys.exit(main(sys.argv))
