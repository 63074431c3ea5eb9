"""The CLI's invocation corpus: every documented command and every CLI test's
invocation, run on a build of `hlolayout`, outputs kept for a byte-for-byte
comparison with another build (a refactor keeps every output the same).

    # 1. the CLI tests' invocations (testing/run_cli.h records them):
    ./bazelw test --nocache_test_results --strategy=TestRunner=standalone \
        --test_env=HLOLAYOUT_RECORD_CLI=/tmp/corpus/inv.jsonl \
        $(./bazelw query 'kind(cc_test, rdeps(//..., //testing:run_cli))')
    # 2. the outputs of two builds, then the comparison:
    python3 bench/cli_corpus.py run --hlolayout OLD_BINARY \
        --invocations /tmp/corpus/inv.jsonl --out /tmp/corpus/old
    python3 bench/cli_corpus.py run --hlolayout .build/bin/cli/hlolayout \
        --invocations /tmp/corpus/inv.jsonl --out /tmp/corpus/new
    python3 bench/cli_corpus.py compare /tmp/corpus/old /tmp/corpus/new

`run` copies the repository's tracked files into a scratch folder and runs
there, from its top: each recorded invocation (arguments and standard input,
duplicates once) and each runnable shell block of README.md and docs/*.md
(what //docs:DocsTest runs, with the same markers; one bash per block, each
command's output and exit status apart). Each output file holds the
command, its exit status, standard output and standard error; files a
page's commands write are kept too (the scratch folder's name written
<work>). `compare` prints the invocations whose outputs differ and exits 1
when one does; the two files docs/relayout.md makes from /dev/urandom are
left out.
"""

import argparse
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(TOP, "docs"))
import docs_test  # noqa: E402  (the docs' block reader, shared)

TIMEOUT_S = 300

# Outputs that differ on every run: docs/relayout.md's example input is
# read from /dev/urandom.
RANDOM_OUTPUTS = {"docs/docs_relayout.md/files/in.bin",
                  "docs/docs_relayout.md/files/out.bin"}


def tracked_copy(dest):
    """The repository's tracked files, copied into `dest`."""
    files = subprocess.run(["git", "-C", TOP, "ls-files", "-z"], check=True,
                           stdout=subprocess.PIPE).stdout.split(b"\0")
    for f in files:
        if not f:
            continue
        name = f.decode()
        src = os.path.join(TOP, name)
        if not os.path.isfile(src):
            continue
        os.makedirs(os.path.join(dest, os.path.dirname(name)), exist_ok=True)
        shutil.copy2(src, os.path.join(dest, name))


def read_invocations(path):
    """The recorded invocations, each once, in their first order."""
    seen, out = set(), []
    with open(path) as f:
        for line in f:
            if line in seen:
                continue
            seen.add(line)
            r = json.loads(line)
            out.append(([bytes.fromhex(a) for a in r["args_hex"]],
                        bytes.fromhex(r["stdin_hex"])))
    return out


def result_bytes(command, status, out, err):
    return b"".join([b"$ ", command, b"\n--- exit ", str(status).encode(),
                     b"\n--- stdout\n", out, b"\n--- stderr\n", err])


def run_invocation(binary, cwd, args, stdin):
    try:
        r = subprocess.run([binary] + args, input=stdin, cwd=cwd,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=TIMEOUT_S)
        status, out, err = r.returncode, r.stdout, r.stderr
    except subprocess.TimeoutExpired:
        status, out, err = "timeout", b"", b""
    shown = b" ".join(a if len(a) < 200 else a[:200] + b"..." for a in args)
    return result_bytes(shown, status, out, err)


def run_invocations(binary, work, invocations, out_dir, jobs):
    os.makedirs(out_dir, exist_ok=True)
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        futures = {pool.submit(run_invocation, binary.encode(), work, args,
                               stdin): i
                   for i, (args, stdin) in enumerate(invocations)}
        for future in concurrent.futures.as_completed(futures):
            with open(os.path.join(out_dir, "%05d" % futures[future]),
                      "wb") as f:
                f.write(future.result())


def page_program(block, out_dir, n):
    """A bash program running a sh block's commands, each one's output
    into out_dir."""
    commands = docs_test.shell_commands(block)
    parts = ["set -o pipefail"]
    for i, c in enumerate(commands):
        text = docs_test.BAZEL_RUN_CLI.sub("hlolayout", c.text)
        name = "%03d_%02d" % (n, i)
        with open(os.path.join(out_dir, name + ".cmd"), "w") as f:
            f.write(text + "\n")
        parts.append("{\n%s\n} > '%s/%s.out' 2>&1\necho $? > '%s/%s.rc'" %
                     (text, out_dir, name, out_dir, name))
    return "\n".join(parts) + "\n"


def run_page(binary, page, out_root):
    """Every runnable shell block of `page`, in a fresh copy."""
    out_dir = os.path.join(out_root, page.replace("/", "_"))
    os.makedirs(out_dir)
    work = tempfile.mkdtemp(prefix="cli-corpus-page-")
    tracked_copy(work)
    marker = os.path.join(work, ".cli-corpus-start")
    with open(marker, "w"):
        pass
    bin_dir = tempfile.mkdtemp(prefix="cli-corpus-bin-")
    os.symlink(binary, os.path.join(bin_dir, "hlolayout"))
    # Debian's python3 first (it has NumPy), as //docs:DocsTest runs.
    env = dict(os.environ, PATH=os.pathsep.join(
        [bin_dir, "/usr/bin", os.environ["PATH"]]), LC_ALL="C.UTF-8")
    with open(os.path.join(TOP, page)) as f:
        blocks = docs_test.read_blocks(page, f.read())
    for n, block in enumerate(blocks):
        kind, argument = docs_test.marker_kind(block.marker)
        if kind in ("build", "placeholder"):
            continue
        if kind == "output":
            program = docs_test.BAZEL_RUN_CLI.sub("hlolayout", argument)
            with open(os.path.join(out_dir, "%03d.cmd" % n), "w") as f:
                f.write(program + "\n")
            program = "{\n%s\n} > '%s/%03d.out' 2>&1\n" % (program, out_dir, n)
        elif block.language in docs_test.SHELL_LANGUAGES:
            program = page_program(block, out_dir, n)
        else:
            continue
        try:
            subprocess.run(["bash", "-c", program], cwd=work, env=env,
                           stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, timeout=TIMEOUT_S)
        except subprocess.TimeoutExpired:
            with open(os.path.join(out_dir, "%03d.timeout" % n), "w") as f:
                f.write("timeout\n")
    # The scratch folder's name is the run's own: outputs say <work>.
    for name in os.listdir(out_dir):
        path = os.path.join(out_dir, name)
        with open(path, "rb") as f:
            data = f.read()
        if work.encode() in data:
            with open(path, "wb") as f:
                f.write(data.replace(work.encode(), b"<work>"))
    # Files the page's commands wrote.
    written = subprocess.run(
        ["find", ".", "-type", "f", "-newer", marker],
        cwd=work, stdout=subprocess.PIPE, check=True).stdout.decode().split()
    for name in sorted(written):
        dest = os.path.join(out_dir, "files", name)
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        shutil.copy2(os.path.join(work, name), dest)
    shutil.rmtree(work)
    shutil.rmtree(bin_dir)
    return page


def docs_pages():
    return ["README.md"] + sorted(
        os.path.join("docs", p) for p in os.listdir(os.path.join(TOP, "docs"))
        if p.endswith(".md"))


def run(args):
    binary = os.path.abspath(args.hlolayout)
    if os.path.exists(args.out):
        sys.exit("%s exists" % args.out)
    os.makedirs(args.out)
    jobs = args.jobs
    if args.invocations:
        invocations = read_invocations(args.invocations)
        work = tempfile.mkdtemp(prefix="cli-corpus-")
        tracked_copy(work)
        run_invocations(binary, work, invocations,
                        os.path.join(args.out, "cli"), jobs)
        shutil.rmtree(work)
        print("%d recorded invocations" % len(invocations))
    if not args.no_docs:
        with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
            for page in pool.map(lambda p: run_page(binary, p,
                                                    os.path.join(args.out,
                                                                 "docs")),
                                 docs_pages()):
                pass
        n = sum(len([f for f in files if f.endswith(".cmd")])
                for _, _, files in os.walk(os.path.join(args.out, "docs")))
        print("%d documented commands" % n)


def compare(args):
    differ, files = [], 0
    for root, _, names in os.walk(args.old):
        for name in names:
            old = os.path.join(root, name)
            new = os.path.join(args.new, os.path.relpath(old, args.old))
            if os.path.relpath(old, args.old) in RANDOM_OUTPUTS:
                continue
            files += 1
            with open(old, "rb") as f:
                a = f.read()
            try:
                with open(new, "rb") as f:
                    b = f.read()
            except OSError:
                b = None
            if a != b:
                differ.append(os.path.relpath(old, args.old))
    for root, _, names in os.walk(args.new):
        for name in names:
            rel = os.path.relpath(os.path.join(root, name), args.new)
            if not os.path.exists(os.path.join(args.old, rel)):
                differ.append(rel + " (only in the new outputs)")
    for d in sorted(differ):
        print("differs:", d)
    print("%d files compared, %d differ" % (files, len(differ)))
    return 1 if differ else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="mode", required=True)
    r = sub.add_parser("run")
    r.add_argument("--hlolayout", required=True)
    r.add_argument("--invocations", help="the tests' recorded invocations")
    r.add_argument("--no-docs", action="store_true")
    r.add_argument("--out", required=True)
    r.add_argument("--jobs", type=int, default=2)
    c = sub.add_parser("compare")
    c.add_argument("old")
    c.add_argument("new")
    args = parser.parse_args()
    if args.mode == "run":
        run(args)
        return 0
    return compare(args)


if __name__ == "__main__":
    sys.exit(main())
