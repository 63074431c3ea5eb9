#!/usr/bin/env python3
"""Keeps the CMake build in step with the Bazel BUILD files.

    .ci/check_build_sync.py                 # check: exit 1 on any difference
    .ci/check_build_sync.py --write relayout memory
                                            # regenerate those folders' blocks

Bazel BUILD files are the source of truth. Each folder's CMakeLists.txt holds
a block between "# BEGIN generated from BUILD" and "# END generated from
BUILD" that this script writes from the folder's BUILD file (for the top
folder the block is in the top CMakeLists.txt); lines outside the block are
hand-written and kept. The top CMakeLists.txt lists the folders between
"# BEGIN folders" and "# END folders"; --write adds a missing one.

It also checks that python/hlolayout/_version.py says version.h's version.

The check fails when a library, test or binary source listed in a BUILD file
is missing from the CMake build, or the reverse, or when a block differs in
any other way from what --write would produce (dependencies included).

Folders without a CMake build (BAZEL_ONLY below): bench/ (Google Benchmark
binaries), python/ (the Python module), docs/ (the pages and their docs
test), differential/ (the harnesses' shell pieces and their test), headers/
(one generated test per installed header, headers/list_headers.py), and the
build machinery and data folders bazel/, third_party/, examples/ and fuzz/
(fuzz/run.sh builds itself).

Rules that stay Bazel-only inside a translated folder: sh_test, sh_binary
and py_* (for example report's HtmlBrowserTest, which drives a browser), and
testonly cc_binary (test-dump generators).

BUILD files are evaluated as Python with stand-ins for the rules they use;
a rule this script cannot translate is an error that names it.
"""

import argparse
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

BAZEL_ONLY = {"bench", "python", "bazel", "third_party", "examples", "fuzz",
              "docs", "differential", "headers"}

# @hlolayout_system//:X -> the CMake target standing for it (top CMakeLists).
SYSTEM = {
    "absl": "hlolayout_system_absl",
    # The CLI's static Abseil (third_party/system.BUILD): CMake links Abseil
    # as its package provides it.
    "absl_static": "hlolayout_system_absl",
    "protobuf": "hlolayout_system_protobuf",
    "gtest": "hlolayout_system_gtest",
    "gtest_main": "hlolayout_system_gtest_main",
    "benchmark": "hlolayout_system_benchmark",
    "benchmark_main": "hlolayout_system_benchmark_main",
}

BEGIN = "# BEGIN generated from BUILD"
END = "# END generated from BUILD"
BEGIN_FOLDERS = "# BEGIN folders"
END_FOLDERS = "# END folders"


class BuildError(Exception):
    pass


def read_build(folder):
    """The rules of folder/BUILD as a list of (kind, attrs), in order."""
    path = os.path.join(ROOT, folder, "BUILD")
    rules = []

    def rule(kind):
        def add(**attrs):
            rules.append((kind, attrs))

        return add

    def ignored(*args, **kwargs):
        pass

    def unsupported(kind):
        def fail(**attrs):
            raise BuildError(f"{folder}/BUILD: {kind}({attrs.get('name')!r}) "
                             "has no CMake translation")

        return fail

    def glob(patterns, exclude=()):
        import glob as g

        out = []
        for p in patterns:
            for f in sorted(g.glob(os.path.join(ROOT, folder, p))):
                rel = os.path.relpath(f, os.path.join(ROOT, folder))
                if rel not in exclude:
                    out.append(rel)
        return out

    env = {
        "load": ignored,
        "package": ignored,
        "exports_files": ignored,
        "filegroup": ignored,
        "alias": ignored,
        # Shell tests (the headless-browser test) run under Bazel only.
        "sh_test": ignored,
        "sh_binary": ignored,
        "glob": glob,
        "True": True,
        "False": False,
        "hlolayout_cc_library": rule("library"),
        "hlolayout_cc_test": rule("test"),
        "hlolayout_cc_binary": rule("binary"),
        "genrule": rule("genrule"),
        "cc_library": unsupported("cc_library"),
        "cc_test": unsupported("cc_test"),
        "cc_binary": unsupported("cc_binary"),
        # Bazel-only rules (shell and Python tests and tools): no CMake part.
        "sh_test": ignored,
        "sh_binary": ignored,
        "py_library": ignored,
        "py_binary": ignored,
        "py_test": ignored,
    }
    with open(path) as f:
        code = compile(f.read(), path, "exec")
    exec(code, env)
    return rules


def export_name(folder, name):
    """hlolayout::<this> for //folder:name."""
    if folder == "" and name == "hlolayout_lib":
        return "hlolayout"
    if folder == "":
        return name
    base = folder.replace("/", "_")
    return base if name == os.path.basename(folder) else f"{base}_{name}"


def target_name(folder, name, kind="library"):
    if kind == "library":
        if folder == "" and name == "hlolayout_lib":
            return "hlolayout_lib"
        return "hlolayout_" + export_name(folder, name)
    base = folder.replace("/", "_")
    if kind == "binary" and name == "hlolayout":
        return "hlolayout_cli"
    return f"{base}_{name}" if base else name


def dep_target(folder, label):
    if label.startswith("@hlolayout_system//:"):
        name = label.split(":", 1)[1]
        if name not in SYSTEM:
            raise BuildError(f"{folder}/BUILD: no CMake target for {label}")
        return SYSTEM[name]
    if label.startswith(":"):
        return target_name(folder, label[1:])
    if label.startswith("//"):
        body = label[2:]
        if ":" in body:
            pkg, name = body.split(":", 1)
        else:
            pkg, name = body, os.path.basename(body)
        return target_name(pkg, name)
    raise BuildError(f"{folder}/BUILD: dependency {label} has no CMake name")


def fmt_call(func, head, lists, flags=()):
    lines = [f"{func}({head}"]
    for flag in flags:
        lines.append(f"  {flag}")
    for key, values in lists:
        if not values:
            continue
        if len(values) == 1:
            lines.append(f"  {key} {values[0]}")
        else:
            lines.append(f"  {key}")
            lines.extend(f"    {v}" for v in values)
    lines[-1] += ")"
    return "\n".join(lines)


def generate(folder):
    """The generated block of `folder` ("" is the top folder)."""
    shown = folder or "."
    calls = []
    for kind, a in read_build(folder):
        name = a["name"]
        srcs = list(a.get("srcs", []))
        hdrs = list(a.get("hdrs", []))
        deps = [dep_target(folder, d) for d in a.get("deps", [])]
        flags = ["TESTONLY"] if a.get("testonly") and kind == "library" else []
        if kind == "genrule":
            protos = [s for s in a.get("srcs", []) if s.endswith(".proto")]
            outs = a.get("outs", [])
            if len(protos) != 1 or sorted(outs) != sorted(
                    [protos[0][:-6] + ".pb.cc", protos[0][:-6] + ".pb.h"]):
                raise BuildError(f"{folder}/BUILD: genrule({name!r}) is not "
                                 "a protoc run; no CMake translation")
            calls.append(f"hlolayout_protoc({protos[0]})")
            continue
        if kind == "library":
            head = f"NAME {target_name(folder, name)} EXPORT {export_name(folder, name)}"
            calls.append(fmt_call("hlolayout_cc_library", head,
                                  [("SRCS", srcs), ("HDRS", hdrs),
                                   ("DEPS", deps),
                                   ("LINKOPTS", list(a.get("linkopts", [])))],
                                  flags))
        elif kind == "test":
            head = f"NAME {target_name(folder, name, 'test')} TEST {folder + ':' if folder else ''}{name}"
            calls.append(fmt_call("hlolayout_cc_test", head,
                                  [("SRCS", srcs), ("DEPS", deps)]))
        elif kind == "binary":
            if a.get("testonly"):
                continue  # test helpers (dump generators) stay Bazel-only
            head = f"NAME {target_name(folder, name, 'binary')} OUTPUT {name}"
            calls.append(fmt_call("hlolayout_cc_binary", head,
                                  [("SRCS", srcs), ("DEPS", deps)]))
    header = [
        BEGIN,
        f"# From {shown}/BUILD by `.ci/check_build_sync.py --write {shown}`:",
        "# edit the BUILD file, then run that command. Lines outside this block",
        "# are kept.",
    ]
    return "\n".join(header + calls + [END]) + "\n"


def cmake_path(folder):
    return os.path.join(ROOT, folder, "CMakeLists.txt")


def split_block(text, begin, end):
    """(before, block, after) or None when the markers are missing."""
    i = text.find(begin)
    j = text.find(end)
    if i < 0 or j < i:
        return None
    j = text.index("\n", j) + 1 if "\n" in text[j:] else len(text)
    return text[:i], text[i:j], text[j:]


def block_sources(block):
    """{(target, file)} for SRCS/HDRS of a block (test SRCS too)."""
    out = set()
    for m in re.finditer(r"hlolayout_cc_\w+\(NAME (\S+)(.*?)\)", block, re.S):
        target, body = m.group(1), m.group(2)
        section = None
        for tok in body.split():
            if tok in ("SRCS", "HDRS", "DEPS", "EXPORT", "TEST", "OUTPUT",
                       "TESTONLY", "LINKOPTS"):
                section = tok
            elif section in ("SRCS", "HDRS"):
                out.add((target, tok))
    for m in re.finditer(r"hlolayout_protoc\((\S+)\)", block):
        out.add(("protoc", m.group(1)))
    return out


def bazel_folders():
    out = []
    for dirpath, dirnames, filenames in os.walk(ROOT):
        rel = os.path.relpath(dirpath, ROOT)
        rel = "" if rel == "." else rel
        top = rel.split(os.sep)[0]
        if top.startswith(".") or top in BAZEL_ONLY:
            dirnames[:] = []
            continue
        dirnames[:] = [d for d in dirnames if not d.startswith((".", "bazel-"))]
        if "BUILD" in filenames:
            out.append(rel)
    return sorted(out)


def listed_folders(top_text):
    parts = split_block(top_text, BEGIN_FOLDERS, END_FOLDERS)
    if parts is None:
        return None
    return re.findall(r"add_subdirectory\((\S+)\)", parts[1])


def write(folders):
    top = cmake_path("")
    with open(top) as f:
        top_text = f.read()
    for folder in folders:
        folder = folder.strip("/")
        folder = "" if folder == "." else folder
        if folder.split("/")[0] in BAZEL_ONLY:
            print(f"{folder}: Bazel-only (see BAZEL_ONLY), skipped")
            continue
        block = generate(folder)
        path = cmake_path(folder)
        text = top_text if folder == "" else (
            open(path).read() if os.path.exists(path) else "")
        parts = split_block(text, BEGIN, END)
        if parts is None:
            text = text + ("\n" if text and not text.endswith("\n") else "") + block
        else:
            text = parts[0] + block + parts[2]
        if folder == "":
            top_text = text
        else:
            with open(path, "w") as f:
                f.write(text)
            listed = listed_folders(top_text)
            if listed is not None and folder not in listed:
                before, blk, after = split_block(top_text, BEGIN_FOLDERS,
                                                 END_FOLDERS)
                lines = blk.rstrip("\n").split("\n")
                names = sorted(listed + [folder])
                body = [f"add_subdirectory({n})" for n in names]
                top_text = before + "\n".join([lines[0]] + body + [lines[-1]]) + "\n" + after
        print(f"wrote {os.path.relpath(path, ROOT)}")
    with open(top, "w") as f:
        f.write(top_text)


def version_problems():
    """The Python module's __version__ must be version.h's (until the wheel
    build writes it from there)."""
    with open(os.path.join(ROOT, "version.h")) as f:
        m = re.search(r'#define HLOLAYOUT_VERSION_STRING "([^"]+)"', f.read())
    if not m:
        return ["version.h: no HLOLAYOUT_VERSION_STRING"]
    path = os.path.join(ROOT, "python", "hlolayout", "_version.py")
    if not os.path.exists(path):
        return []
    with open(path) as f:
        p = re.search(r'__version__ = "([^"]+)"', f.read())
    if not p or p.group(1) != m.group(1):
        have = p.group(1) if p else "none"
        return [f"python/hlolayout/_version.py: __version__ {have}, "
                f"version.h says {m.group(1)}"]
    return []


def _deps_of(build_text, name):
    i = build_text.index(f'name = "{name}"')
    i = build_text.index("deps = [", i)
    return set(re.findall(r'"(//[^"]+)"', build_text[i:build_text.index("]", i)]))


def binding_problems():
    """The Python extension's CMake build links hlolayout_lib alone (pip
    install .), so the root BUILD's hlolayout_lib must list every library
    the Bazel extension depends on."""
    # The root BUILD builds its lists in Starlark (_CORE_DEPS + [...]): read
    # the evaluated rule, not the text.
    umbrella = {d for kind, a in read_build("")
                if a["name"] == "hlolayout_lib" for d in a.get("deps", [])}
    path = os.path.join(ROOT, "python", "hlolayout", "BUILD")
    if not os.path.exists(path):
        return []
    with open(path) as f:
        binding = _deps_of(f.read(), "_hlolayout.so")
    return [f"BUILD: hlolayout_lib lacks {d}, which the Python extension "
            f"uses (its CMake build links hlolayout_lib alone)"
            for d in sorted(binding - umbrella) if not d.startswith("//cli")]


def check():
    problems = version_problems() + binding_problems()
    top = cmake_path("")
    top_text = open(top).read() if os.path.exists(top) else ""
    folders = bazel_folders()
    listed = listed_folders(top_text) or []
    for folder in folders:
        shown = folder or "."
        hint = f"run .ci/check_build_sync.py --write {shown}"
        try:
            want = generate(folder)
        except BuildError as e:
            problems.append(str(e))
            continue
        path = cmake_path(folder)
        if folder and folder not in listed:
            problems.append(f"{shown}: not listed in CMakeLists.txt's folders ({hint})")
        if not os.path.exists(path):
            problems.append(f"{shown}: BUILD has no CMakeLists.txt ({hint})")
            continue
        parts = split_block(open(path).read(), BEGIN, END)
        if parts is None:
            problems.append(f"{shown}/CMakeLists.txt: no generated block ({hint})")
            continue
        have = parts[1]
        if have == want:
            continue
        want_src, have_src = block_sources(want), block_sources(have)
        for t, f in sorted(want_src - have_src):
            problems.append(f"{shown}: {f} ({t}) is in BUILD, missing from CMake ({hint})")
        for t, f in sorted(have_src - want_src):
            problems.append(f"{shown}: {f} ({t}) is in CMake, not in BUILD ({hint})")
        if want_src == have_src:
            problems.append(f"{shown}/CMakeLists.txt: generated block differs from "
                            f"BUILD (dependencies or names) ({hint})")
    for folder in listed:
        if folder not in folders:
            problems.append(f"{folder}: in CMakeLists.txt's folders but has no BUILD")
    for p in problems:
        print(p)
    print(f"build sync: {len(folders)} folders, "
          f"{'ok' if not problems else str(len(problems)) + ' problems'}")
    return 1 if problems else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", nargs="+", metavar="FOLDER",
                        help="regenerate these folders' blocks ('.' is the top)")
    args = parser.parse_args()
    if args.write:
        write(args.write)
        return 0
    return check()


if __name__ == "__main__":
    sys.exit(main())
