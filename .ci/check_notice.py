#!/usr/bin/env python3
"""Checks that NOTICE accounts for every data file and names only real files.

    .ci/check_notice.py              # the repository's NOTICE against its files
    .ci/check_notice.py --self-test  # the rules on made-up trees

NOTICE lists the files that carry another project's material (with origin
and licence) and the data files that are this project's own, one glob a line:
`- PATTERN: description` (or several, `- PATTERN, PATTERN: ...`). A data file is a file git tracks in a data folder
(a folder named testdata*, tests/data, python/tests/data, fuzz/corpus,
triton/lit, differential/xla/gpu_targets, examples) or a .proto file, other
than code and the folders' own READMEs and build files. The check fails when
a data file matches no pattern (its origin is unrecorded) or a pattern
matches no file (the record is stale). Exit 0 when both hold, else 1.
"""

import os
import re
import subprocess
import sys

DATA_FOLDERS = ("tests/data/", "python/tests/data/", "fuzz/corpus/",
                "triton/lit/", "differential/xla/gpu_targets/", "examples/")
NOT_DATA_NAMES = ("README.md", "BUILD", "CMakeLists.txt", "WORKSPACE")
CODE_SUFFIXES = (".py", ".cc", ".h", ".sh", ".bzl", ".pyi")
ENTRY = re.compile(r"^- ((?:`[^`]+`(?:, )?)+):")


def is_data(name):
  base = os.path.basename(name)
  if base in NOT_DATA_NAMES or base.endswith(CODE_SUFFIXES):
    return False
  if name.endswith(".proto"):
    return True
  if name.startswith("examples/consumer/"):
    return False
  parts = name.split("/")[:-1]
  return (any(p.startswith("testdata") for p in parts) or
          any(name.startswith(f) for f in DATA_FOLDERS))


def glob_regex(pattern):
  """`*` stays within a path component; `**` crosses them."""
  out = ""
  i = 0
  while i < len(pattern):
    if pattern.startswith("**", i):
      out += ".*"
      i += 2
    elif pattern[i] == "*":
      out += "[^/]*"
      i += 1
    else:
      out += re.escape(pattern[i])
      i += 1
  return re.compile(out + r"\Z")


def patterns(notice_text):
  out = []
  for line in notice_text.splitlines():
    m = ENTRY.match(line)
    if m:
      out += re.findall(r"`([^`]+)`", m.group(1))
  return out


def problems(notice_text, files):
  """What is wrong, one line each; empty when NOTICE is complete and true."""
  pats = patterns(notice_text)
  regexes = [(p, glob_regex(p)) for p in pats]
  out = []
  if not pats:
    out.append("NOTICE names no file")
  for p, rx in regexes:
    if not any(rx.match(f) for f in files):
      out.append(f"NOTICE: `{p}` matches no file")
  for f in files:
    if is_data(f) and not any(rx.match(f) for _, rx in regexes):
      out.append(f"{f}: a data file NOTICE does not account for "
                 "(add it under its origin, or under this project's own data)")
  return out


def tracked(root):
  out = subprocess.run(["git", "-C", root, "ls-files", "-z"], check=True,
                       capture_output=True).stdout
  return [n for n in out.decode().split("\0") if n]


def self_test():
  notice = ("## Material from other projects\n"
            "- `a/testdata/*.tsv`: answers of X\n"
            "## This project's own data\n"
            "- `fuzz/corpus/**`: seeds\n")
  ok = ["a/testdata/x.tsv", "a/testdata/README.md", "a/testdata/make.py",
        "fuzz/corpus/shape/seed_1", "src/lib.cc"]
  cases = [
      ("complete", notice, ok, 0),
      ("an unlisted data file", notice, ok + ["b/testdata/y.json"], 1),
      ("a nested file under a one-level glob", notice,
       ok + ["a/testdata/sub/z.tsv"], 1),
      ("a stale entry", notice + "- `gone/*.txt`: old\n", ok, 1),
      ("an unlisted .proto", notice, ok + ["proto/x.proto"], 1),
      ("no entries at all", "", ["src/lib.cc"], 1),
      ("two patterns on one line",
       notice + "- `b/testdata/*.json`, `c/testdata/*.json`: answers of Y\n",
       ok + ["b/testdata/y.json", "c/testdata/y.json"], 0),
  ]
  failed = 0
  for name, text, files, want in cases:
    got = len(problems(text, files))
    if (got > 0) != (want > 0) or (want and got != want):
      print(f"check_notice self-test: {name}: {got} problem(s), want {want}")
      failed += 1
  print(f"check_notice self-test: {len(cases) - failed} of {len(cases)} cases")
  return 1 if failed else 0


def main():
  if sys.argv[1:] == ["--self-test"]:
    return self_test()
  root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
  with open(os.path.join(root, "NOTICE"), encoding="utf-8") as f:
    text = f.read()
  if not os.path.isfile(os.path.join(root, "LICENSE")):
    print("check_notice: LICENSE is missing")
    return 1
  files = tracked(root)
  found = problems(text, files)
  for line in found:
    print(f"check_notice: {line}")
  data = sum(1 for f in files if is_data(f))
  print(f"check_notice: {data} data files, {len(patterns(text))} entries, "
        f"{len(found)} problem(s)")
  return 1 if found else 0


if __name__ == "__main__":
  sys.exit(main())
