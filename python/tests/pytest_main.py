"""Runs this folder's pytest files as one Bazel test.

Bazel's py_test runs it with Debian's /usr/bin/python3 (the Python
toolchain of bazel/python.bzl), whatever `python3` comes first on PATH; if
started by another interpreter it re-executes itself under /usr/bin/python3.
The JUnit XML goes to Bazel's XML_OUTPUT_FILE with one <testcase> per line,
so test.xml lists every pytest case (.ci/run counts them).
"""

import os
import sys

DEBIAN_PYTHON = "/usr/bin/python3"


def main():
    if (os.path.realpath(sys.executable) != os.path.realpath(DEBIAN_PYTHON)
            and os.path.exists(DEBIAN_PYTHON)
            and not os.environ.get("HLOLAYOUT_PYTEST_REEXEC")):
        os.environ["HLOLAYOUT_PYTEST_REEXEC"] = "1"
        os.execv(DEBIAN_PYTHON, [DEBIAN_PYTHON] + sys.argv)

    import pytest

    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, here)
    xml = os.environ.get("XML_OUTPUT_FILE")
    raw = None
    args = ["-q", "-p", "no:cacheprovider", "--rootdir", here, here]
    if xml:
        raw = xml + ".pytest.xml"
        args += ["--junitxml", raw, "-o", "junit_family=xunit2"]
    args += sys.argv[1:]
    status = pytest.main(args)
    if raw and os.path.exists(raw):
        import xml.etree.ElementTree as ET
        tree = ET.parse(raw)
        ET.indent(tree)  # one element per line
        tree.write(xml, encoding="utf-8", xml_declaration=True)
        os.remove(raw)
    return int(status)


if __name__ == "__main__":
    sys.exit(main())
