"""Every external repository hlolayout needs, all local (Debian's packages).

In a consumer's WORKSPACE, after its local_repository or http_archive of
hlolayout (named "hlolayout"):

    load("@hlolayout//bazel:deps.bzl", "hlolayout_deps")
    hlolayout_deps()

Repositories whose names Bazel itself fixes (rules_cc, rules_java,
platforms, remote_coverage_tools) are declared only when the workspace does
not have them yet; the system libraries get a name of their own,
hlolayout_system, that cannot clash with a consumer's repositories.
"""

load(":python.bzl", "hlolayout_python")

# Bazel 4's @bazel_tools//tools/cpp loads @rules_cc//cc:defs.bzl; Debian's
# bazel-rules-cc is too new for Bazel 4, so this forwards to the native rules.
_RULES_CC_DEFS = '''"""Forwards rules_cc's public macros to Bazel 4's native C++ rules."""

def cc_library(**attrs):
    native.cc_library(**attrs)

def cc_binary(**attrs):
    native.cc_binary(**attrs)

def cc_test(**attrs):
    native.cc_test(**attrs)

def cc_import(**attrs):
    native.cc_import(**attrs)

def cc_toolchain(**attrs):
    native.cc_toolchain(**attrs)

def cc_toolchain_suite(**attrs):
    native.cc_toolchain_suite(**attrs)

def objc_library(**attrs):
    native.objc_library(**attrs)
'''

def _forwarding_rules_cc_impl(ctx):
    ctx.file("WORKSPACE", 'workspace(name = "rules_cc")\n')
    ctx.file("BUILD", "")
    ctx.file("cc/BUILD", "")
    ctx.file("cc/defs.bzl", _RULES_CC_DEFS)

_forwarding_rules_cc = repository_rule(implementation = _forwarding_rules_cc_impl)

# Every cc_test depends on it implicitly; two empty filegroups satisfy it.
def _empty_coverage_tools_impl(ctx):
    ctx.file("WORKSPACE", 'workspace(name = "remote_coverage_tools")\n')
    ctx.file("BUILD", """package(default_visibility = ["//visibility:public"])

filegroup(name = "coverage_report_generator")

filegroup(name = "lcov_merger")
""")

_empty_coverage_tools = repository_rule(implementation = _empty_coverage_tools_impl)

def _maybe(rule, name, **kwargs):
    if not native.existing_rule(name):
        rule(name = name, **kwargs)

def hlolayout_deps():
    """Declares the repositories above (skipping those already declared)."""
    _maybe(_forwarding_rules_cc, "rules_cc")

    # Toolchain resolution loads rules_java even for C++-only builds.
    _maybe(native.local_repository, "rules_java", path = "/usr/share/bazel/rules/java")
    _maybe(native.local_repository, "platforms", path = "/usr/share/bazel/platforms")
    _maybe(_empty_coverage_tools, "remote_coverage_tools")

    # Abseil, Protocol Buffers, GoogleTest and Google Benchmark from Debian's
    # -dev packages: headers come from /usr/include, libraries by linkopts.
    _maybe(
        native.new_local_repository,
        "hlolayout_system",
        build_file = str(Label("//third_party:system.BUILD")),
        path = "/usr",
    )

    # Debian's /usr/bin/python3 and Python.h, for python/ (bazel/python.bzl).
    _maybe(hlolayout_python, "hlolayout_python")
