"""Checks of the docs test itself (docs/docs_test.py): each rule of
docs/README.md ("Docs that run") once where a page passes and once where it
fails, on small pages with a stand-in `hlolayout`.

    ./bazelw test //docs:DocsTestSelfTest
"""

import os
import stat
import sys
import tempfile
import textwrap
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import docs_test  # noqa: E402

# A stand-in CLI: `hlolayout index ...` prints 17, `hlolayout fail` prints
# an error and exits 1, anything else echoes its arguments.
FAKE_CLI = """#!/bin/sh
case "$1" in
  index) echo 17 ;;
  fail) echo "hlolayout fail: no such thing" >&2; exit 1 ;;
  table) printf 'head\\n  row 1\\n  row 2\\n  row 3\\nend\\n' ;;
  *) echo "$@" ;;
esac
"""


class Page:
    """A repository with one page, a stand-in CLI and a stand-in package."""

    def __init__(self, text):
        self.dir = tempfile.mkdtemp(dir=os.environ.get("TEST_TMPDIR"))
        self.root = os.path.join(self.dir, "root")
        os.makedirs(os.path.join(self.root, "docs"))
        with open(os.path.join(self.root, "docs", "page.md"), "w") as f:
            f.write(textwrap.dedent(text))
        bin_dir = os.path.join(self.dir, "bin")
        os.makedirs(bin_dir)
        cli = os.path.join(bin_dir, "hlolayout")
        with open(cli, "w") as f:
            f.write(FAKE_CLI)
        os.chmod(cli, os.stat(cli).st_mode | stat.S_IEXEC)
        package = os.path.join(self.dir, "py", "hlolayout")
        os.makedirs(package)
        with open(os.path.join(package, "__init__.py"), "w") as f:
            f.write("def answer():\n    return 42\n")
        self.runner = docs_test.Runner(bin_dir, os.path.join(self.dir, "py"),
                                       sys.executable,
                                       preamble="import hlolayout as hl\n")

    def run(self):
        failures, ran = docs_test.run_page(self.runner, self.root,
                                           "docs/page.md", self.dir)
        return failures, ran


def run(text):
    return Page(text).run()


class Matching(unittest.TestCase):

    def test_wildcards_within_a_line(self):
        self.assertTrue(docs_test.in_order(["core: 1,1"], ["core:   1,1"]))
        self.assertTrue(docs_test.in_order(["a ... c"], ["x", "a b c"]))
        self.assertFalse(docs_test.in_order(["a ... c"], ["a b d"]))
        self.assertFalse(docs_test.in_order(["17"], ["170"]))

    def test_order_counts(self):
        self.assertTrue(docs_test.in_order(["1", "3"], ["1", "2", "3"]))
        self.assertFalse(docs_test.in_order(["3", "1"], ["1", "2", "3"]))

    def test_a_line_of_dots_is_any_lines(self):
        self.assertTrue(docs_test.full_match(["a", "...", "d"],
                                             ["a", "b", "c", "d"]))
        self.assertTrue(docs_test.full_match(["a", "  ...", "d"], ["a", "d"]))
        self.assertFalse(docs_test.full_match(["a", "d"], ["a", "b", "d"]))
        self.assertFalse(docs_test.full_match(["a", "..."], ["b"]))

    def test_indentation_counts_in_blocks(self):
        self.assertTrue(docs_test.full_match(["  a  b"], ["  a b"]))
        self.assertFalse(docs_test.full_match(["a"], ["  a"]))


class Parsing(unittest.TestCase):

    def test_comments_outside_quotes_only(self):
        self.assertEqual(docs_test.split_comment("x '#a' # -> 1"),
                         ("x '#a'", " -> 1"))
        self.assertEqual(docs_test.split_comment('x "#a"#b'), ('x "#a"#b', None))
        self.assertEqual(docs_test.expectation(" -> 17  # remark"), "17")
        self.assertIsNone(docs_test.expectation(" a remark"))

    def test_commands_continuations_and_expectations(self):
        block = docs_test.read_blocks("p.md", textwrap.dedent("""\
            ```sh
            printf 'x' |
              hlolayout index a 1 \\
                2                 # -> 17
            # -> more
            # a remark
            hlolayout other
            ```
            """))[0]
        commands = docs_test.shell_commands(block)
        self.assertEqual(len(commands), 2)
        self.assertEqual(commands[0].expected, ["17", "more"])
        self.assertEqual(commands[1].expected, [])
        self.assertEqual(commands[1].offset, 5)

    def test_markers(self):
        blocks = docs_test.read_blocks("p.md", textwrap.dedent("""\
            <!-- docs-test: build -->
            ```sh
            ./bazelw test //...
            ```
            <!-- docs-test: output of hlolayout table -->

            ```
            x
            ```
            """))
        self.assertEqual([b.marker for b in blocks],
                         ["build", "output of hlolayout table"])
        self.assertEqual(docs_test.marker_kind(blocks[1].marker),
                         ("output", "hlolayout table"))
        with self.assertRaises(ValueError):
            docs_test.marker_kind("skip")


class Pages(unittest.TestCase):

    def test_a_page_that_runs(self):
        failures, ran = run("""\
            Text.

            ```sh
            hlolayout index x 1,2          # -> 17
            D=some/file
            hlolayout print "$D" '#x'      # -> print some/file #x
            ```

            <!-- docs-test: build -->
            ```sh
            ./bazelw run -c opt //bench:x
            ```

            <!-- docs-test: output of hlolayout table -->
            ```
            head
            ...
              row 3
            end
            ```

            ```sh
            $ hlolayout fail
            hlolayout fail: no such thing
            $ hlolayout a   b
            a b
            ```

            ```python
            hl.answer()        # -> 42
            x = [1, 2]
            print(x)
            # -> [1, 2]
            ```
            """)
        self.assertEqual(failures, [])
        self.assertEqual(ran, 4)

    def test_a_wrong_output_names_the_line_and_shows_the_diff(self):
        failures, _ = run("""\
            Text.

            ```sh
            hlolayout print a
            hlolayout index x 1,2          # -> 18
            ```
            """)
        self.assertEqual(len(failures), 1)
        self.assertIn("docs/page.md:5: `hlolayout index x 1,2`", failures[0])
        self.assertIn("-18", failures[0])
        self.assertIn("+17", failures[0])

    def test_a_wrong_output_block(self):
        failures, _ = run("""\
            <!-- docs-test: output of hlolayout table -->
            ```
            head
              row 1
            end
            ```
            """)
        self.assertEqual(len(failures), 1)
        self.assertIn("docs/page.md:2:", failures[0])
        self.assertIn("+  row 2", failures[0])

    def test_a_failing_command_must_show_its_error(self):
        failures, _ = run("""\
            ```sh
            hlolayout fail
            ```

            ```sh
            hlolayout fail      # -> hlolayout fail: no such thing
            ```
            """)
        self.assertEqual(len(failures), 1)
        self.assertIn("docs/page.md:2: `hlolayout fail` exited 1", failures[0])

    def test_bazel_needs_a_marker(self):
        failures, _ = run("""\
            ```sh
            ./bazelw run //:hlolayout -- index x 1      # -> 17
            ./bazelw test //...
            ```
            """)
        self.assertEqual(len(failures), 1)
        self.assertIn("docs/page.md:3: `./bazelw test //...`", failures[0])
        self.assertIn("<!-- docs-test: build -->", failures[0])

    def test_python_errors_and_values(self):
        failures, _ = run("""\
            ```python
            hl.answer()     # -> 41
            ```

            ```python
            y = 1
            hl.missing()
            ```
            """)
        self.assertEqual(len(failures), 2)
        self.assertIn("docs/page.md:2:", failures[0])
        self.assertIn("-41", failures[0])
        self.assertIn("docs/page.md:7: AttributeError", failures[1])

    def test_a_hanging_block_is_stopped(self):
        docs_test.BLOCK_TIMEOUT_S, saved = 2, docs_test.BLOCK_TIMEOUT_S
        try:
            failures, _ = run("""\
                ```sh
                sleep 60 | cat
                ```
                """)
        finally:
            docs_test.BLOCK_TIMEOUT_S = saved
        self.assertEqual(len(failures), 1)
        self.assertIn("longer than 2 s", failures[0])


if __name__ == "__main__":
    unittest.main()
