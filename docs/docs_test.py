"""The docs test: every fenced command of README.md and docs/*.md, run.

    ./bazelw test //docs:DocsTest
    ./bazelw run //docs:DocsTest -- docs/report.md       # one page

Each page runs in its own copy of the repository's data (the runfiles: the
pages, examples/, memory/testdata/, triton/testdata/), its blocks in order,
each block in a fresh shell or Python process. What runs, and how a page
says what a command prints, is written down for contributors in
docs/README.md ("Docs that run"); in short:

- ```sh blocks run in bash (pipefail, standard input /dev/null);
  `./bazelw run //:hlolayout --` and `hlolayout` are the built CLI. A block
  that still calls ./bazelw, sudo, pip, cmake or a compiler must be marked.
- ```python blocks run in Debian's python3 with the built package on the
  path, after `import numpy as np, hlolayout as hl`, statement by
  statement.
- `# -> TEXT` after a command or a Python statement (trailing, or on the
  lines right after it) is a line the command prints (the value's repr for
  Python): the `# ->` lines must appear in the output in that order.
  `...` stands for any text within a line, a line `...` for any lines;
  runs of blanks compare as one blank. ` # ` ends the expected text (what
  follows is a remark).
- Lines `$ COMMAND` in a sh block make it a transcript: the lines under a
  command are all it prints.
- An HTML comment on the line before the fence:
    <!-- docs-test: build -->       not run (Bazel, installs, benchmarks, timings)
    <!-- docs-test: placeholder --> not run (names the reader replaces)
    <!-- docs-test: output of COMMAND -->
                                     this (untagged) block is all COMMAND prints
- A command that exits non-zero fails the test unless the doc shows what
  it prints (its error message).
"""

import argparse
import ast
import concurrent.futures
import contextlib
import difflib
import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import tokenize
import traceback

# Fence languages that run, and how.
SHELL_LANGUAGES = {"sh", "bash", "shell", "console"}
PYTHON_LANGUAGES = {"python", "py", "python3"}

MARKER = re.compile(r"^\s*<!--\s*docs-test:\s*(.*?)\s*-->\s*$")
FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*([\w+-]*)")

# What a command of a runnable block may not do (it needs a marker).
NEEDS_MARKER = re.compile(
    r"(^|[\s;|&(])(\./bazelw|bazel|sudo|apt-get|pip3?|cmake|ctest|g\+\+|"
    r"clang\+\+|v/bin/\w+|perf|valgrind|/usr/bin/time|[\w./-]+\.sh)(\s|$)")
BAZEL_RUN_CLI = re.compile(r"\./bazelw\s+run\s+(-c\s+\w+\s+)?//:hlolayout\s+--")

BLOCK_TIMEOUT_S = 120
PYTHON_PREAMBLE = "import numpy as np, hlolayout as hl\n"


class Block:
    """A fenced block of a page."""

    def __init__(self, page, line, language, text, marker):
        self.page = page          # "docs/report.md"
        self.line = line          # 1-based line of the opening fence
        self.language = language  # "sh", "python", "" ...
        self.text = text          # the lines between the fences, unindented
        self.marker = marker      # the docs-test comment's text, or ""

    def where(self, offset=None):
        """"docs/report.md:13" (the fence) or the line `offset` inside."""
        line = self.line if offset is None else self.line + 1 + offset
        return "%s:%d" % (self.page, line)


def read_blocks(page, text):
    """Every fenced block of `text` (the page `page`), in order."""
    lines = text.split("\n")
    blocks = []
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, fence, language = m.group(1), m.group(2), m.group(3)
        j = i + 1
        close = re.compile(r"^\s*" + re.escape(fence[0]) + "{%d,}\\s*$" %
                           len(fence))
        while j < len(lines) and not close.match(lines[j]):
            j += 1
        body = [l[len(indent):] if l.startswith(indent) else l.lstrip()
                for l in lines[i + 1:j]]
        k = i - 1
        while k >= 0 and not lines[k].strip():
            k -= 1
        marker = ""
        if k >= 0:
            mm = MARKER.match(lines[k])
            if mm:
                marker = mm.group(1)
        blocks.append(Block(page, i + 1, language.lower(), "\n".join(body),
                            marker))
        i = j + 1
    return blocks


def marker_kind(marker):
    """("build" | "placeholder" | "output" | "", argument)."""
    if not marker:
        return "", ""
    if marker.startswith("output of "):
        return "output", marker[len("output of "):].strip()
    word = marker.split()[0]
    if word in ("build", "placeholder"):
        return word, marker[len(word):].strip()
    raise ValueError("unknown docs-test marker '%s' (build, placeholder or "
                     "'output of COMMAND')" % marker)


# ---------------------------------------------------------------- shell


def split_comment(line):
    """(code, comment) of one shell line: the comment starts at a `#` that
    begins a word outside quotes; comment is None when there is none."""
    quote = None
    i = 0
    while i < len(line):
        c = line[i]
        if quote == "'":
            if c == "'":
                quote = None
        elif quote == '"':
            if c == "\\":
                i += 1
            elif c == '"':
                quote = None
        elif c == "\\":
            i += 1
        elif c in "'\"":
            quote = c
        elif c == "#" and (i == 0 or line[i - 1] in " \t;|&("):
            return line[:i].rstrip(), line[i + 1:]
        i += 1
    return line, None


def expectation(comment):
    """The expected output line of a comment `-> TEXT  # remark`, or None."""
    if comment is None:
        return None
    c = comment.strip()
    if not c.startswith("->"):
        return None
    c = c[2:].strip()
    remark = c.find(" # ")
    if remark >= 0:
        c = c[:remark].rstrip()
    return c


class Command:
    def __init__(self, offset, text):
        self.offset = offset      # line inside the block
        self.text = text          # the shell text, comments removed
        self.expected = []        # expected lines ("# ->" or a transcript)
        self.transcript = False   # `expected` is all the output


def shell_commands(block):
    """The commands of a sh block, with what the block says they print."""
    lines = block.text.split("\n")
    transcript = any(l.startswith("$ ") for l in lines)
    commands = []
    current = None   # the command being continued, if any
    for n, line in enumerate(lines):
        if transcript and not line.startswith("$ ") and current is None:
            if commands:
                commands[-1].expected.append(line)
            elif line.strip():
                raise ValueError("%s: output before the first '$ ' line" %
                                 block.where(n))
            continue
        if transcript and line.startswith("$ "):
            line = line[2:]
        code, comment = split_comment(line)
        if current is None and not code.strip():
            want = expectation(comment)
            if want is not None:
                if not commands:
                    raise ValueError("%s: '# ->' before any command" %
                                     block.where(n))
                commands[-1].expected.append(want)
            continue
        if current is None:
            current = Command(n, code)
            commands.append(current)
        else:
            current.text += "\n" + code
        stripped = code.rstrip()
        if stripped.endswith("\\") or stripped.endswith("|") or \
                stripped.endswith("&&") or stripped.endswith("||"):
            continue
        want = expectation(comment)
        if want is not None:
            current.expected.append(want)
        current.transcript = transcript
        current = None
    if current is not None:
        raise ValueError("%s: the block ends inside a command" % block.where())
    for c in commands:
        if c.transcript:
            while c.expected and not c.expected[-1].strip():
                c.expected.pop()
    return commands


def shell_program(commands, out_dir):
    """A bash program that runs `commands`, each one's output and exit
    status into out_dir/N and out_dir/N.rc."""
    parts = ["set -o pipefail"]
    for i, c in enumerate(commands):
        parts.append("{\n%s\n} > '%s/%d' 2>&1\necho $? > '%s/%d.rc'" %
                     (c.text, out_dir, i, out_dir, i))
    return "\n".join(parts) + "\n"


# ---------------------------------------------------------------- matching


def normalize(line, indent=True):
    """`line` with runs of blanks as one blank and no trailing blanks; the
    leading blanks are kept when `indent`."""
    lead = line[:len(line) - len(line.lstrip())] if indent else ""
    return lead + " ".join(line.split())


def line_pattern(line, indent=True):
    """A regular expression for one expected line: `...` (and the blank on
    either side of it) matches any text."""
    pieces = re.split(r" ?\.\.\. ?", normalize(line, indent))
    return ".*".join(re.escape(p) for p in pieces)


def full_match(expected, actual):
    """All of `actual` (lines) is `expected`, with `...` wildcards."""
    pattern = []
    for line in expected:
        if line.strip() == "...":
            pattern.append("(?:[^\n]*\n)*?")
        else:
            pattern.append(line_pattern(line) + "\n")
    text = "".join(normalize(l) + "\n" for l in actual)
    return re.fullmatch("".join(pattern), text, re.S) is not None


def in_order(expected, actual):
    """Each expected line is a whole line of `actual`, in that order."""
    k = 0
    for want in expected:
        pattern = re.compile(line_pattern(want, False))
        while k < len(actual) and \
                not pattern.fullmatch(normalize(actual[k], False)):
            k += 1
        if k == len(actual):
            return False
        k += 1
    return True


def output_lines(text):
    lines = text.split("\n")
    while lines and not lines[-1].strip():
        lines.pop()
    return lines


def diff(expected, actual):
    return "\n".join(difflib.unified_diff(
        [normalize(l) for l in expected], [normalize(l) for l in actual],
        "the doc shows", "the command printed", lineterm="", n=2))


# ---------------------------------------------------------------- running


def run_in_group(argv, timeout, **kwargs):
    """subprocess.run in a process group of its own, the whole group killed
    when it runs past `timeout` seconds (raises TimeoutExpired then)."""
    data = kwargs.pop("input", None)
    if data is not None:
        kwargs["stdin"] = subprocess.PIPE
    with subprocess.Popen(argv, start_new_session=True, **kwargs) as p:
        try:
            out, err = p.communicate(data, timeout=timeout)
        except subprocess.TimeoutExpired:
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            p.communicate()
            raise
        return subprocess.CompletedProcess(argv, p.returncode, out, err)


class Runner:
    """Runs blocks with the CLI in `bin_dir` and the Python package in
    `pythonpath`."""

    def __init__(self, bin_dir, pythonpath, python, preamble=PYTHON_PREAMBLE):
        self.bin_dir = bin_dir
        self.pythonpath = pythonpath
        self.python = python
        self.preamble = preamble

    def env(self):
        env = dict(os.environ)
        env["PATH"] = self.bin_dir + os.pathsep + env.get("PATH", "/usr/bin:/bin")
        env["PYTHONPATH"] = self.pythonpath
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        env["LC_ALL"] = "C.UTF-8"
        env.pop("BUILD_WORKING_DIRECTORY", None)
        return env

    def run_shell(self, block, cwd):
        """Failure messages of one sh block (empty when it passes)."""
        commands = shell_commands(block)
        for c in commands:
            mapped = BAZEL_RUN_CLI.sub("hlolayout", c.text)
            if NEEDS_MARKER.search(mapped):
                return ["%s: `%s` needs Bazel, an install or a measurement: "
                        "mark the block <!-- docs-test: build --> (docs/"
                        "README.md)" % (block.where(c.offset),
                                        c.text.strip())]
            c.text = mapped
        with tempfile.TemporaryDirectory(dir=cwd, prefix=".docs-test-") as out:
            program = shell_program(commands, out)
            try:
                run_in_group(["bash", "-c", program], BLOCK_TIMEOUT_S, cwd=cwd,
                             env=self.env(), stdin=subprocess.DEVNULL,
                             stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
            except subprocess.TimeoutExpired:
                return ["%s: the block ran longer than %d s" %
                        (block.where(), BLOCK_TIMEOUT_S)]
            failures = []
            for i, c in enumerate(commands):
                try:
                    with open(os.path.join(out, str(i)), errors="replace") as f:
                        printed = f.read()
                    with open(os.path.join(out, "%d.rc" % i)) as f:
                        status = int(f.read())
                except (OSError, ValueError):
                    failures.append("%s: `%s` did not run (an earlier command "
                                    "ended the shell)" %
                                    (block.where(c.offset), c.text.strip()))
                    break
                failures += check_output(block, c.offset, c.text, c.expected,
                                         c.transcript, status, printed)
            return failures

    def run_output_block(self, block, command, cwd):
        """An untagged block marked `output of COMMAND`."""
        command = BAZEL_RUN_CLI.sub("hlolayout", command)
        try:
            r = run_in_group(["bash", "-c", "set -o pipefail\n" + command],
                             BLOCK_TIMEOUT_S, cwd=cwd, env=self.env(),
                             stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT)
        except subprocess.TimeoutExpired:
            return ["%s: `%s` ran longer than %d s" %
                    (block.where(), command, BLOCK_TIMEOUT_S)]
        return check_output(block, None, command, output_lines(block.text),
                            True, r.returncode,
                            r.stdout.decode("utf-8", "replace"))

    def run_python(self, block, cwd):
        statements, expected = python_expectations(block)
        try:
            r = run_in_group(
                [self.python, os.path.abspath(__file__), "--python-block"],
                BLOCK_TIMEOUT_S,
                input=json.dumps({"source": block.text,
                                  "preamble": self.preamble}).encode(),
                cwd=cwd, env=self.env(), stdout=subprocess.PIPE,
                stderr=subprocess.PIPE)
        except subprocess.TimeoutExpired:
            return ["%s: the block ran longer than %d s" %
                    (block.where(), BLOCK_TIMEOUT_S)]
        try:
            result = json.loads(r.stdout.decode())
        except ValueError:
            return ["%s: the Python block did not run:\n%s" %
                    (block.where(), r.stderr.decode("utf-8", "replace"))]
        failures = []
        printed = {s["end"]: s["output"] for s in result["statements"]}
        for (start, end), want in zip(statements, expected):
            if not want:
                continue
            if end not in printed:
                break
            got = output_lines(printed[end])
            if not in_order(want, got):
                failures.append(
                    "%s: the statement prints what the doc does not show:\n%s"
                    % (block.where(end - 1), diff(want, got)))
        if result.get("error"):
            line = result["error"]["line"]
            failures.append("%s: %s" % (block.where(line - 1),
                                        result["error"]["text"]))
        return failures


def check_output(block, offset, command, expected, transcript, status,
                 printed):
    actual = output_lines(printed)
    where = block.where(offset)
    cmd = " ".join(command.split())
    if transcript or expected:
        ok = full_match(expected, actual) if transcript else \
            in_order(expected, actual)
        if not ok:
            return ["%s: `%s` (exit status %d) prints what the doc does not "
                    "show:\n%s" % (where, cmd, status, diff(expected, actual))]
        return []
    if status != 0:
        shown = "\n".join("  " + l for l in actual[:20])
        return ["%s: `%s` exited %d (a failing command needs its error shown "
                "with '# ->', or a docs-test marker):\n%s" %
                (where, cmd, status, shown)]
    return []


def python_expectations(block):
    """([(first line, last line)] of the top-level statements, 1-based in
    the block, [expected lines of each])."""
    tree = ast.parse(block.text)
    statements = [(s.lineno, s.end_lineno) for s in tree.body]
    comments = {}
    for tok in tokenize.generate_tokens(io.StringIO(block.text).readline):
        if tok.type == tokenize.COMMENT:
            comments[tok.start[0]] = tok.string[1:]
    expected = []
    lines = block.text.split("\n")
    for k, (start, end) in enumerate(statements):
        want = []
        for line in range(start, end + 1):
            e = expectation(comments.get(line))
            if e is not None:
                want.append(e)
        # Comment lines right after the statement.
        nxt = statements[k + 1][0] if k + 1 < len(statements) else len(lines) + 1
        line = end + 1
        while line < nxt and lines[line - 1].strip().startswith("#"):
            e = expectation(comments.get(line))
            if e is not None:
                want.append(e)
            line += 1
        expected.append(want)
    return statements, expected


def python_block_main():
    """In the child: runs a block statement by statement, as a REPL would."""
    request = json.loads(sys.stdin.read())
    scope = {"__name__": "__main__"}
    exec(request["preamble"], scope)
    tree = ast.parse(request["source"])
    result = {"statements": []}
    for stmt in tree.body:
        out = io.StringIO()
        try:
            with contextlib.redirect_stdout(out):
                if isinstance(stmt, ast.Expr):
                    code = compile(ast.Expression(stmt.value), "<doc>", "eval")
                    value = eval(code, scope)
                    if value is not None:
                        print(repr(value))
                else:
                    module = ast.Module(body=[stmt], type_ignores=[])
                    exec(compile(module, "<doc>", "exec"), scope)
        except BaseException as e:  # noqa: B902 - reported, with the line
            text = "".join(traceback.format_exception_only(type(e), e)).strip()
            result["error"] = {"line": stmt.lineno, "text": text}
            break
        result["statements"].append({"end": stmt.end_lineno,
                                     "output": out.getvalue()})
    sys.stdout.write(json.dumps(result))


def run_page(runner, root, page, work):
    """Failure messages and the number of blocks run, for one page."""
    copy = os.path.join(work, page.replace("/", "_"))
    shutil.copytree(root, copy, symlinks=False,
                    ignore=shutil.ignore_patterns(".docs-test-*"))
    with open(os.path.join(root, page)) as f:
        blocks = read_blocks(page, f.read())
    failures, ran = [], 0
    for block in blocks:
        try:
            kind, argument = marker_kind(block.marker)
            if kind in ("build", "placeholder"):
                continue
            if kind == "output":
                failures += runner.run_output_block(block, argument, copy)
            elif block.language in SHELL_LANGUAGES:
                failures += runner.run_shell(block, copy)
            elif block.language in PYTHON_LANGUAGES:
                failures += runner.run_python(block, copy)
            else:
                continue
            ran += 1
        except (ValueError, SyntaxError) as e:
            failures.append("%s: %s" % (block.where(), e))
    return failures, ran


def main(argv):
    if argv[1:2] == ["--python-block"]:
        python_block_main()
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", help="the repository (or runfiles) root")
    parser.add_argument("--hlolayout", help="the CLI binary")
    parser.add_argument("--pythonpath", help="folder holding hlolayout/")
    parser.add_argument("--python", default="/usr/bin/python3")
    parser.add_argument("--jobs", type=int, default=4)
    parser.add_argument("pages", nargs="*")
    args = parser.parse_args(argv[1:])
    # In Bazel (test or run) this file is in the runfiles tree, beside the
    # data, the CLI and the Python package.
    root = args.root or os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))
    binary = os.path.abspath(args.hlolayout or os.path.join(root, "cli",
                                                            "hlolayout"))
    pythonpath = os.path.abspath(args.pythonpath or os.path.join(root,
                                                                 "python"))
    python = args.python if os.path.exists(args.python) else sys.executable
    pages = args.pages or (["README.md"] + sorted(
        os.path.join("docs", p) for p in os.listdir(os.path.join(root, "docs"))
        if p.endswith(".md")))
    work = tempfile.mkdtemp(prefix="docs-test-",
                            dir=os.environ.get("TEST_TMPDIR"))
    # The data the pages use, without the binaries and the Python package.
    data = os.path.join(work, "repository")
    skip = {"cli", "python", "bazel-bin", "bazel-out", ".git", "external"}
    os.makedirs(data)
    for name in os.listdir(root):
        if name in skip or name.startswith(("_", "bazel-", ".")):
            continue
        src = os.path.join(root, name)
        if os.path.isdir(src):
            shutil.copytree(src, os.path.join(data, name), symlinks=False)
        elif name.endswith(".md"):
            shutil.copy(src, data)
    bin_dir = os.path.join(work, "bin")
    os.makedirs(bin_dir)
    os.symlink(binary, os.path.join(bin_dir, "hlolayout"))
    os.symlink(python, os.path.join(bin_dir, "python3"))
    runner = Runner(bin_dir, pythonpath, python)
    failures, ran = [], 0
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        results = pool.map(lambda p: run_page(runner, data, p, work), pages)
        for page, (page_failures, page_ran) in zip(pages, results):
            failures += page_failures
            ran += page_ran
    shutil.rmtree(work, ignore_errors=True)
    print("docs test: %d blocks of %d pages run, %d failures" %
          (ran, len(pages), len(failures)))
    for f in failures:
        print("\nFAIL " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
