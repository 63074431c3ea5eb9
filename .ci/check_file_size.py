#!/usr/bin/env python3
"""Checks that no source file of the repository is larger than a limit.

    .ci/check_file_size.py [--max-kib=60] [--top=N]

The project's rule (docs/hardening.md, the CI steps): no file grows past about
60 KB; a file that does is split along its sections. Every file git tracks
(outside a clone: every file of the tree but hidden folders and bazel-*)
with a source suffix (.cc, .h, .py, .js, .sh, .bzl) is read. Documents
(.md) and test data are not source and are left out. Prints the largest
files and exits 1 when one is over the limit.
"""

import argparse
import os
import subprocess
import sys

SUFFIXES = (".cc", ".h", ".py", ".js", ".sh", ".bzl")


def source_names(root):
  """The files git tracks, or, outside a clone, the tree's own files."""
  try:
    out = subprocess.run(["git", "-C", root, "ls-files", "-z"], check=True,
                         capture_output=True).stdout
    return [name for name in out.decode().split("\0") if name]
  except (OSError, subprocess.CalledProcessError):
    names = []
    for folder, dirs, files in os.walk(root):
      dirs[:] = [d for d in dirs
                 if not d.startswith(".") and not d.startswith("bazel-")]
      rel = os.path.relpath(folder, root)
      names += [os.path.normpath(os.path.join(rel, f)) for f in files]
    return names


def tracked_sources(root):
  for name in source_names(root):
    if name.endswith(SUFFIXES) and "/testdata" not in "/" + name:
      path = os.path.join(root, name)
      if os.path.isfile(path):
        yield name, os.path.getsize(path)


def main():
  parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
  parser.add_argument("--max-kib", type=int, default=60)
  parser.add_argument("--top", type=int, default=5)
  args = parser.parse_args()
  root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
  limit = args.max_kib * 1024
  files = sorted(tracked_sources(root), key=lambda f: -f[1])
  for name, size in files[:args.top]:
    print(f"  {size:8,d} bytes  {name}")
  over = [name for name, size in files if size > limit]
  if over:
    for name in over:
      print(f"check_file_size: {name} is over {args.max_kib} KiB: split it",
            file=sys.stderr)
    return 1
  print(f"check_file_size: ok, {len(files)} files, none over "
        f"{args.max_kib} KiB")
  return 0


if __name__ == "__main__":
  sys.exit(main())
