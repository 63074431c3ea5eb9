#!/usr/bin/env python3
"""Checks that every Bazel label the repository names in prose exists.

    .ci/check_labels.py          # exit 1 and list the stale ones

Comments, docs and scripts cite targets (`//cute/atom:NamePatternTest`,
`./bazelw test //cli:CuteReferenceTest`); a target renamed or removed
leaves them pointing at nothing. This script collects every `//pkg:name`
and `//pkg` / `//pkg/...` written in the repository's tracked text files
(CHANGELOG.md aside: it records names as they were) and asks Bazel
(`bazel query '//...:*'`, every rule and file) whether each exists.
"""

import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TEXT = re.compile(r"(\.(cc|h|py|md|bzl|sh|txt|toml|cmake|in)$|(^|/)BUILD$|"
                  r"(^|/)WORKSPACE$|^\.ci/run$|^bazelw$)")
SKIP = re.compile(r"(^CHANGELOG\.md$|/testdata/|^tests/data/|^fuzz/corpus/|"
                  r"^examples/consumer/)")
# `//pkg:name` or `//pkg/...`; a package is lowercase path components.
LABEL = re.compile(r"(?<![\w@/:.])(?:@hlolayout)?//([a-z0-9_]+(?:/[a-z0-9_]+)*)?"
                   r"(?::([A-Za-z0-9_.+=,@~-]+(?:/[A-Za-z0-9_.+=,@~-]+)*)|/\.\.\.)?")


# Labels that are not targets of this repository on purpose.
NOT_TARGETS = {
    # placeholders in prose (docs/install.md, build sync, this script)
    "//folder:name", "//pkg:name", "//pkg:target", "//pkg", "//pkg/...",
    "//bench:x",      # docs_test_self_test.py's made-up page
}
# Bazel's pseudo-targets and visibility specifications.
PSEUDO_NAMES = {"__pkg__", "__subpackages__", "all", "all-targets", "*"}


def tracked_files():
    out = subprocess.check_output(["git", "ls-files"], cwd=ROOT, text=True)
    for path in out.splitlines():
        if TEXT.search(path) and not SKIP.search(path):
            yield path


def known_targets():
    out = subprocess.check_output(
        [os.path.join(ROOT, "bazelw"), "query", "--noshow_progress", "//...:*"],
        cwd=ROOT, text=True, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    targets, packages = set(), set()
    for label in out.split():
        pkg, _, name = label[2:].partition(":")
        targets.add((pkg, name))
        packages.add(pkg)
    return targets, packages


def main():
    targets, packages = known_targets()
    stale = []
    for path in tracked_files():
        try:
            with open(os.path.join(ROOT, path), encoding="utf-8") as f:
                lines = f.read().splitlines()
        except UnicodeDecodeError:
            continue
        for number, line in enumerate(lines, 1):
            for m in LABEL.finditer(line):
                pkg, name = m.group(1) or "", m.group(2)
                text = m.group(0)
                if not pkg and name is None:
                    continue  # a bare "//" (a comment marker, a URL)
                if pkg == "visibility" or name in PSEUDO_NAMES:
                    continue
                if text in NOT_TARGETS or text.rstrip(".,") in NOT_TARGETS:
                    continue
                if path == ".ci/consumers.sh" and pkg == "":
                    continue  # the consumer workspace's own targets
                if name is None:
                    ok = pkg in packages or any(
                        p.startswith(pkg + "/") for p in packages)
                else:
                    name = name.rstrip(".,")
                    ok = (pkg, name) in targets
                if not ok:
                    stale.append(f"{path}:{number}: {text}")
    if stale:
        print("check_labels: these labels name no target or package:")
        for s in stale:
            print("  " + s)
        return 1
    print("check_labels: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
