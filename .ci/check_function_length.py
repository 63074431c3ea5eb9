#!/usr/bin/env python3
"""Checks that no C++ function in the given folders is longer than a limit.

    .ci/check_function_length.py [--max=99] [--top=N] FOLDER...
    .ci/check_function_length.py [--max=99] [--top=N] --rooms
    .ci/check_function_length.py --self-test

`--rooms` checks every library room the rule covers (ROOMS below) and
prints, for each room not covered yet (NOT_YET), how many of its functions
are over the limit: the rule's remaining debt (issue 45, item 4). Only the
covered rooms decide the exit status.

A function's length is the number of lines from the line of its body's
opening brace to the line of its closing brace, both counted (clang-tidy's
readability-function-size counts the same way). Lambdas and local classes
count as part of the function that holds them. Every `.cc` and `.h` file
directly in each folder is read; tests (`*_test.cc`) are left out, since the
rule is about the library's code.

The reading is lexical, for the Google style the repository is formatted in
(clang-format): comments, string and character literals (raw strings too)
and preprocessor lines are blanked, then braces are matched. A brace opens a
function body when the statement before it, at namespace or class scope,
has a parenthesis (a parameter list) and does not begin with `class`,
`struct`, `union`, `enum` or `namespace`, and does not end with `=`
(an initializer). Prints the longest functions and exits 1 when one is
over the limit; `--self-test` checks the reading on small examples.
"""

import argparse
import os
import re
import sys

# The library rooms the rule covers, folders relative to the repository's
# root (each folder's files directly in it; a nested package is listed on
# its own).
ROOMS = [
    "answers",
    "cli",
    "cute",
    "cute/atom",
    "cute/atom/internal",
    "cute/internal",
    "draw",
    "hlo",
    "index_util",
    "layout",
    "memory",
    "parser",
    "proto",
    "python/hlolayout",
    "relayout",
    "report",
    "shape",
    "tenstorrent",
    "triton",
    "ttmlir",
    "ttnn",
    "util",
    "views",
]

# Not yet: library rooms still holding functions of 100 lines or more,
# each listed until its long functions are split (`--rooms` prints their
# counts). Every room is covered now.
NOT_YET = []

# Folders with C++ that are not library rooms: test tooling, tests,
# benchmarks, fuzzers, examples. Any other folder holding `.cc` or `.h`
# files must be in ROOMS or NOT_YET (`--rooms` fails otherwise), so a new
# room is under the rule from its first commit.
TOOLING = [
    ".",
    "bench",
    "examples",
    "fuzz",
    "testing",
    "tests",
]

_KEYWORD_SCOPES = re.compile(
    r"^\s*(template\s*<.*>\s*)?(class|struct|union|enum|namespace)\b", re.S)


def blank_non_code(text):
    """Returns `text` with comments, literals and preprocessor lines blanked.

    Newlines are kept, so offsets map to the same lines.
    """
    out = []
    i = 0
    n = len(text)
    at_line_start = True
    while i < n:
        c = text[i]
        if at_line_start and c in " \t":
            out.append(c)
            i += 1
            continue
        if at_line_start and c == "#":
            # A preprocessor line, with its continuations.
            while i < n and text[i] != "\n":
                if text[i] == "\\" and i + 1 < n and text[i + 1] == "\n":
                    out.append(" \n")
                    i += 2
                    continue
                out.append(" ")
                i += 1
            continue
        at_line_start = False
        if c == "\n":
            at_line_start = True
            out.append(c)
            i += 1
        elif text.startswith("//", i):
            while i < n and text[i] != "\n":
                out.append(" ")
                i += 1
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append(re.sub(r"[^\n]", " ", text[i:end]))
            i = end
        elif c == "R" and i + 1 < n and text[i + 1] == '"' and (
                i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            open_paren = text.find("(", i + 2)
            delimiter = text[i + 2:open_paren]
            end = text.find(")" + delimiter + '"', open_paren)
            end = n if end < 0 else end + len(delimiter) + 2
            out.append('""' + re.sub(r"[^\n]", " ", text[i + 2:end]))
            i = end
        elif c == '"' or (c == "'" and not (i > 0 and text[i - 1].isalnum())):
            # A string or character literal (a digit separator, 1'000, is
            # neither: it follows a digit).
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(c + " " * (j - i - 2) + c if j - i >= 2 else c)
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def _opens_function(statement):
    """True when a '{' after `statement` (namespace or class scope) opens a
    function body."""
    s = statement.strip()
    if not s or s.endswith("="):
        return False
    if "(" not in s:
        return False
    if _KEYWORD_SCOPES.match(s):
        return False
    return True


def _function_name(statement):
    """The name before the parameter list of `statement`."""
    depth = 0
    # The first '(' at top level after the name: scan for `name(`.
    for match in re.finditer(r"([A-Za-z_~][\w:~<>,\s]*?)\s*\(", statement):
        prefix = statement[:match.start(1)]
        if prefix.count("(") == prefix.count(")"):
            words = re.findall(r"[A-Za-z_~][\w:~]*", match.group(1))
            if words:
                return words[-1]
    del depth
    return "?"


def functions(text):
    """Yields (first line, last line, name) of every function in `text`."""
    code = blank_non_code(text)
    # Each scope: ("ns", statement start) outside functions, ("fn", line,
    # name) for a function body; braces inside a function are counted.
    stack = []
    inner_depth = 0  # braces open inside the current function body
    statement_start = 0
    line = 1
    for i, c in enumerate(code):
        if c == "\n":
            line += 1
            continue
        if c not in "{};":
            continue
        in_function = bool(stack) and stack[-1][0] == "fn"
        if in_function:
            if c == "{":
                inner_depth += 1
            elif c == "}":
                if inner_depth == 0:
                    _, first, name = stack.pop()
                    yield first, line, name
                    statement_start = i + 1
                else:
                    inner_depth -= 1
            continue
        if c == "{":
            statement = code[statement_start:i]
            if _opens_function(statement):
                stack.append(("fn", line, _function_name(statement)))
                inner_depth = 0
            else:
                stack.append(("ns",))
            statement_start = i + 1
        elif c == "}":
            if stack:
                stack.pop()
            statement_start = i + 1
        else:  # ';'
            statement_start = i + 1


def _self_test():
    example = '''
namespace a {
// a comment with { and (
struct S final {
  int x = 0;
  int Get() const { return x; }
  S() : x(1) {
    auto f = [](int y) {
      return y;
    };
  }
};
const char* k = "}{(";
char c = '{';
int Long(int a,
         int b) {
  if (a) {
    return b;
  }
  return R"x(})x"[0];
}
int v[] = {1, 2};
enum class E : int { kA, kB };
}  // namespace a
'''
    got = list(functions(example))
    want = [(6, 6, "Get"), (7, 11, "S"), (16, 21, "Long")]
    if got != want:
        print("check_function_length: self-test failed: got %s, want %s" %
              (got, want))
        return 1
    print("check_function_length: self-test ok")
    return 0


def _measure(folders):
    """Returns (length, path, first line, name) of every function in the
    `.cc` and `.h` files directly in `folders`, tests left out."""
    found = []
    for folder in folders:
        for name in sorted(os.listdir(folder)):
            if not (name.endswith(".cc") or name.endswith(".h")):
                continue
            if name.endswith("_test.cc"):
                continue
            path = os.path.join(folder, name)
            with open(path, encoding="utf-8") as f:
                text = f.read()
            for first, last, function in functions(text):
                found.append((last - first + 1, path, first, function))
    found.sort(key=lambda f: (-f[0], f[1], f[2]))
    return found


def _unlisted_rooms(root):
    """Folders under `root` with library C++ files (tests aside) that are in
    none of ROOMS, NOT_YET and TOOLING."""
    listed = set(ROOMS) | set(NOT_YET) | set(TOOLING)
    unlisted = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs
                         if not d.startswith(".") and not d.startswith("bazel-")
                         and d != "third_party")
        rel = os.path.relpath(folder, root)
        if any(rel == t or rel.startswith(t + "/") for t in TOOLING if t != "."):
            continue
        code = [f for f in files
                if (f.endswith(".cc") or f.endswith(".h"))
                and not f.endswith("_test.cc")]
        if code and rel not in listed:
            unlisted.append(rel)
    return unlisted


def _print_debt(limit):
    """Prints how many functions over `limit` each NOT_YET room holds."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    total = 0
    for room in NOT_YET:
        over = [f for f in _measure([os.path.join(root, room)])
                if f[0] > limit]
        total += len(over)
        print("  not yet  %-18s %3d function(s) over %d lines" %
              (room + "/", len(over), limit))
    print("check_function_length: %d room(s) not yet covered, %d function(s)"
          " over %d lines there" % (len(NOT_YET), total, limit))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="*")
    parser.add_argument("--max", type=int, default=99,
                        help="longest allowed function, in lines (99)")
    parser.add_argument("--top", type=int, default=5,
                        help="how many of the longest to print (5)")
    parser.add_argument("--rooms", action="store_true",
                        help="check ROOMS and print the NOT_YET rooms' debt")
    parser.add_argument("--self-test", action="store_true")
    args = parser.parse_args()
    if args.self_test:
        return _self_test()
    folders = args.folders
    if args.rooms:
        if folders:
            parser.error("give folders or --rooms, not both")
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        os.chdir(root)
        folders = ROOMS
        _print_debt(args.max)
        unlisted = _unlisted_rooms(root)
        if unlisted:
            print("check_function_length: folders with C++ in none of ROOMS, "
                  "NOT_YET, TOOLING: %s" % ", ".join(unlisted))
            return 1
    if not folders:
        parser.error("give at least one folder, or --rooms")
    found = _measure(folders)
    for length, path, first, function in found[:args.top]:
        print("%5d lines  %s:%d  %s" % (length, path, first, function))
    over = [f for f in found if f[0] > args.max]
    if over:
        print("check_function_length: %d function(s) over %d lines" %
              (len(over), args.max))
        return 1
    print("check_function_length: ok, %d functions, none over %d lines" %
          (len(found), args.max))
    return 0


if __name__ == "__main__":
    sys.exit(main())
