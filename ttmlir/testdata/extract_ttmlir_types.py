#!/usr/bin/env python3
"""Lists every tensor type with a tt-mlir layout in tt-mlir's lit tests.

    python3 ttmlir/testdata/extract_ttmlir_types.py TT_MLIR_CHECKOUT > types.tsv
    python3 ttmlir/testdata/extract_ttmlir_types.py --git-dir REPO.git \
        --commit 19c86fca45ae > types.tsv

Reads test/**/*.mlir of a tt-mlir checkout (or of one commit of a bare git
repository) and prints one line per distinct tensor type whose encoding is a
`#ttnn.ttnn_layout<...>` or a `#ttcore.metal_layout<...>`:

    SOURCE<TAB>TENSOR

SOURCE is `path:line` of the first occurrence, TENSOR the type on one line
with every attribute alias (`#ttnn_layout = ...`, `#dram = ...`) replaced by
its definition, as `hlolayout grid explain` reads it. Aliases are resolved per
`// -----` section (tt-mlir runs those files with --split-input-file). Types
are taken from IR lines and from FileCheck lines that name a type literally;
lines with FileCheck patterns (`{{...}}`, `[[...]]`) are skipped.
"""
import argparse
import os
import re
import subprocess
import sys

LAYOUT_MARKERS = ("#ttnn.ttnn_layout<", "#ttcore.metal_layout<")
ALIAS_DEF = re.compile(r"^\s*([#!][A-Za-z_][\w$.]*)\s*=\s*(.*?)\s*$")
ALIAS_REF = re.compile(r"[#!][A-Za-z_][\w$.]*")


def balanced(text, start):
    """End (exclusive) of the <...> group opening at text[start] == '<'."""
    depth = 0
    i = start
    while i < len(text):
        c = text[i]
        if c == "<":
            depth += 1
        elif c == ">":
            # '->' is an arrow, not a closing bracket.
            if i > 0 and text[i - 1] == "-":
                i += 1
                continue
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return -1


def inline(text, aliases, depth=0):
    """Replaces alias references by their definitions (recursively)."""
    if depth > 16:
        return text

    def repl(m):
        name = m.group(0)
        if name in aliases:
            return inline(aliases[name], aliases, depth + 1)
        return name

    return ALIAS_REF.sub(repl, text)


def tensor_types(line):
    """The `tensor<...>` groups of one line."""
    for m in re.finditer(r"\btensor<", line):
        end = balanced(line, m.end() - 1)
        if end > 0:
            yield line[m.start():end]


def depth(text):
    """Open '<' minus '>' (arrows '->' excluded)."""
    return text.count("<") - (text.count(">") - text.count("->"))


def scan(path, text, seen, out):
    aliases = {}
    lines = text.split("\n")
    number = 0
    while number < len(lines):
        line = lines[number]
        number += 1
        if re.match(r"^\s*//\s*-----", line):
            aliases = {}
            continue
        stripped = line.strip()
        if not stripped.startswith("//"):
            d = ALIAS_DEF.match(line)
            if d:
                # A definition may span lines until its brackets close.
                value = d.group(2)
                while depth(value) > 0 and number < len(lines):
                    value += " " + lines[number].strip()
                    number += 1
                aliases[d.group(1)] = value
                continue
        if "{{" in line or "[[" in line:
            continue
        for t in tensor_types(line):
            full = " ".join(inline(t, aliases).split())
            if not any(marker in full for marker in LAYOUT_MARKERS):
                continue
            # Types that differ only in whitespace are the same type.
            key = "".join(full.split())
            if key in seen:
                continue
            seen.add(key)
            out.append("%s:%d\t%s" % (path, number, full))


def files_from_checkout(root):
    for base, _, names in os.walk(os.path.join(root, "test")):
        for name in sorted(names):
            if name.endswith(".mlir"):
                full = os.path.join(base, name)
                with open(full, encoding="utf-8", errors="replace") as f:
                    yield os.path.relpath(full, root), f.read()


def files_from_git(git_dir, commit):
    names = subprocess.run(
        ["git", "--git-dir", git_dir, "ls-tree", "-r", "--name-only", commit,
         "test"], check=True, capture_output=True, text=True).stdout.split()
    for name in names:
        if name.endswith(".mlir"):
            blob = subprocess.run(
                ["git", "--git-dir", git_dir, "show", "%s:%s" % (commit, name)],
                check=True, capture_output=True).stdout
            yield name, blob.decode("utf-8", errors="replace")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("checkout", nargs="?", help="a tt-mlir checkout")
    p.add_argument("--git-dir", help="a tt-mlir git directory instead")
    p.add_argument("--commit", default="HEAD")
    args = p.parse_args()
    if bool(args.checkout) == bool(args.git_dir):
        p.error("give a checkout or --git-dir")
    files = (files_from_git(args.git_dir, args.commit) if args.git_dir
             else files_from_checkout(args.checkout))
    seen, out = set(), []
    for path, text in sorted(files):
        scan(path, text, seen, out)
    sys.stdout.write("".join(line + "\n" for line in out))


if __name__ == "__main__":
    main()
