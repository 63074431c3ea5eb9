"""Debian's /usr/bin/python3 as Bazel's Python, with its headers.

`hlolayout_python()` (called by hlolayout_deps) declares @hlolayout_python:
  - a py_runtime for /usr/bin/python3 (whatever `python3` comes first on
    PATH, py_binary and py_test run Debian's interpreter, which is the one
    that has python3-numpy and python3-pytest);
  - :python_headers, Python.h of that interpreter (python3-dev), for the
    extension module; pybind11's headers are in /usr/include (pybind11-dev).
The WORKSPACE registers the toolchain with
  register_toolchains("@hlolayout_python//:toolchain").
"""

_BUILD = '''package(default_visibility = ["//visibility:public"])

load("@bazel_tools//tools/python:toolchain.bzl", "py_runtime_pair")

py_runtime(
    name = "python3_runtime",
    interpreter_path = "/usr/bin/python3",
    python_version = "PY3",
)

py_runtime_pair(
    name = "runtime_pair",
    py3_runtime = ":python3_runtime",
)

toolchain(
    name = "toolchain",
    toolchain = ":runtime_pair",
    toolchain_type = "@bazel_tools//tools/python:toolchain_type",
)

cc_library(
    name = "python_headers",
    hdrs = glob(["include/**/*.h"]),
    includes = ["include"],
)

# The ABI tag of the interpreter (cp311) for the wheel's file name.
exports_files(["abi_tag.txt"])
'''

def _hlolayout_python_impl(ctx):
    python = "/usr/bin/python3"
    result = ctx.execute([
        python,
        "-c",
        "import sysconfig, sys; print(sysconfig.get_paths()['include']); " +
        "print('cp%d%d' % sys.version_info[:2])",
    ])
    if result.return_code != 0:
        fail("hlolayout_python: %s does not run (install python3-dev): %s" %
             (python, result.stderr))
    include, abi = result.stdout.strip().split("\n")
    ctx.symlink(include, "include")
    ctx.file("abi_tag.txt", abi + "\n")
    ctx.file("WORKSPACE", 'workspace(name = "hlolayout_python")\n')
    ctx.file("BUILD", _BUILD)

hlolayout_python = repository_rule(
    implementation = _hlolayout_python_impl,
    local = True,
)
