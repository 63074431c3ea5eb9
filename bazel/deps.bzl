"""Every external repository hlolayout needs, all local (Debian's packages).

In a consumer's WORKSPACE, after its local_repository or http_archive of
hlolayout (named "hlolayout"):

    load("@hlolayout//bazel:deps.bzl", "hlolayout_deps")
    hlolayout_deps()

A consumer that already links an Abseil or a protobuf of its own (XLA's
pinned ones, say) gives them, and hlolayout builds and links against those
instead of Debian's, so that one copy of each is linked:

    hlolayout_deps(
        absl = "@com_google_absl",
        protobuf = "@com_google_protobuf//:protobuf",
        protoc = "@com_google_protobuf//:protoc",
    )

@hlolayout//:core is the library without protobuf (no //proto, no
//shape:shape_proto), for those who need only shapes, layouts and offsets.

Repositories whose names Bazel itself fixes (rules_cc, rules_java,
platforms, remote_coverage_tools) are declared only when the workspace does
not have them yet; the system libraries get a name of their own,
hlolayout_system, that cannot clash with a consumer's repositories.
"""

load(":python.bzl", "hlolayout_python")

# Bazel 4's @bazel_tools//tools/cpp loads @rules_cc//cc:defs.bzl; Debian's
# bazel-rules-cc is too new for Bazel 4, so this forwards to the native rules.
# Newer BUILD files (Abseil's, when a consumer brings its own) load one rule
# per file (cc:cc_library.bzl, ...) and select on cc/compiler:<name>: those
# are forwarded too.
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

# One file per rule, as rules_cc 0.1 lays them out.
_RULES_CC_ONE_RULE = ["cc_binary", "cc_import", "cc_library", "cc_test"]

# The compiler names of rules_cc's cc/compiler package, read from the flag
# that Bazel 4's C++ toolchain sets (gcc for Debian's g++).
_RULES_CC_COMPILERS = '''package(default_visibility = ["//visibility:public"])

[config_setting(
    name = name,
    flag_values = {"@bazel_tools//tools/cpp:compiler": name},
) for name in ["clang", "clang-cl", "emscripten", "gcc", "mingw-gcc", "msvc-cl"]]
'''

def _forwarding_rules_cc_impl(ctx):
    ctx.file("WORKSPACE", 'workspace(name = "rules_cc")\n')
    ctx.file("BUILD", "")
    ctx.file("cc/BUILD", "")
    ctx.file("cc/defs.bzl", _RULES_CC_DEFS)
    for rule in _RULES_CC_ONE_RULE:
        ctx.file(
            "cc/%s.bzl" % rule,
            'load(":defs.bzl", _%s = "%s")\n\n%s = _%s\n' % (rule, rule, rule, rule),
        )
    ctx.file("cc/compiler/BUILD", _RULES_CC_COMPILERS)

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

# What hlolayout includes from Abseil, as the targets of Abseil's own Bazel
# build (the layout of @com_google_absl in XLA, TensorFlow and others),
# relative to that repository's root.
ABSL_TARGETS = [
    "absl/base:core_headers",
    "absl/container:flat_hash_map",
    "absl/container:flat_hash_set",
    "absl/container:inlined_vector",
    "absl/container:node_hash_map",
    "absl/container:node_hash_set",
    "absl/functional:function_ref",
    "absl/hash",
    "absl/memory",
    "absl/status",
    "absl/status:statusor",
    "absl/strings",
    "absl/strings:cord",
    "absl/strings:str_format",
    "absl/synchronization",
    "absl/types:optional",
    "absl/types:span",
]

def _consumer_absl(absl):
    """The BUILD text of :absl and :absl_static for the consumer's Abseil."""
    if "//" in absl:
        deps = [absl]
    else:
        deps = [absl + "//" + target for target in ABSL_TARGETS]
    return """
# The consumer's Abseil (hlolayout_deps(absl = "{absl}")).
cc_library(
    name = "absl",
    deps = [
{deps}    ],
)

# Linked as the consumer builds it (the static archives of Debian's copy are
# a start-up optimisation of the hlolayout program only).
cc_library(name = "absl_static")
""".format(absl = absl, deps = "".join(['        "%s",\n' % d for d in deps]))

def _consumer_protobuf(protobuf, protoc):
    return """
# The consumer's Protocol Buffers (hlolayout_deps(protobuf = ..., protoc = ...)).
alias(
    name = "protobuf",
    actual = "{protobuf}",
)

alias(
    name = "protoc",
    actual = "{protoc}",
)
""".format(protobuf = protobuf, protoc = protoc)

def _hlolayout_system_impl(ctx):
    text = ctx.read(ctx.path(ctx.attr._system))
    if ctx.attr.absl:
        text += _consumer_absl(ctx.attr.absl)
    else:
        text += "\n" + ctx.read(ctx.path(ctx.attr._debian_absl))
    if ctx.attr.protobuf:
        text += _consumer_protobuf(ctx.attr.protobuf, ctx.attr.protoc)
    else:
        text += "\n" + ctx.read(ctx.path(ctx.attr._debian_protobuf))
        ctx.symlink("/usr/bin/protoc", "bin/protoc")
    ctx.file("WORKSPACE", 'workspace(name = "%s")\n' % ctx.name)
    ctx.file("BUILD", text)

_hlolayout_system = repository_rule(
    implementation = _hlolayout_system_impl,
    attrs = {
        "absl": attr.string(),
        "protobuf": attr.string(),
        "protoc": attr.string(),
        "_system": attr.label(default = Label("//third_party:system.BUILD")),
        "_debian_absl": attr.label(default = Label("//third_party:debian_absl.BUILD")),
        "_debian_protobuf": attr.label(default = Label("//third_party:debian_protobuf.BUILD")),
    },
)

def hlolayout_deps(absl = None, protobuf = None, protoc = None):
    """Declares the repositories above (skipping those already declared).

    Args:
      absl: the consumer's Abseil, instead of Debian's: a repository laid out
        as Abseil's own Bazel build ("@com_google_absl"; hlolayout depends on
        the ABSL_TARGETS of it), or one cc_library label that provides them
        all ("@my_absl//:absl").
      protobuf: the consumer's protobuf C++ runtime, a cc_library label
        ("@com_google_protobuf//:protobuf"), instead of Debian's.
      protoc: the protoc that generates code for that runtime
        ("@com_google_protobuf//:protoc"); given with protobuf, and only then.
    """
    if bool(protobuf) != bool(protoc):
        fail("hlolayout_deps: give protobuf and protoc together (the runtime and the compiler that generates code for it)")
    if absl != None and not absl.startswith("@"):
        fail("hlolayout_deps: absl must be a repository (\"@com_google_absl\") or a label (\"@my_absl//:absl\"), not \"%s\"" % absl)
    _maybe(_forwarding_rules_cc, "rules_cc")

    # Toolchain resolution loads rules_java even for C++-only builds.
    _maybe(native.local_repository, "rules_java", path = "/usr/share/bazel/rules/java")
    _maybe(native.local_repository, "platforms", path = "/usr/share/bazel/platforms")
    _maybe(_empty_coverage_tools, "remote_coverage_tools")

    # GoogleTest and Google Benchmark from Debian's -dev packages, and Abseil
    # and Protocol Buffers from them unless the consumer brings its own:
    # Debian's headers come from /usr/include, libraries by linkopts.
    _maybe(
        _hlolayout_system,
        "hlolayout_system",
        absl = absl or "",
        protobuf = protobuf or "",
        protoc = protoc or "",
    )

    # Debian's /usr/bin/python3 and Python.h, for python/ (bazel/python.bzl).
    _maybe(hlolayout_python, "hlolayout_python")
