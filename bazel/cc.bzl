"""C++ rules for hlolayout's targets.

Every target compiles as C++17 by itself (a consumer's .bazelrc is not
needed), and every library's headers are reached as "hlolayout/<folder>/<file>.h",
inside this repository and from any workspace that depends on it:

    load("//bazel:cc.bzl", "hlolayout_cc_library")
    hlolayout_cc_library(name = "shape", hdrs = ["shape.h"], ...)
    // in C++: #include "hlolayout/shape/shape.h"
"""

# Code that includes hlolayout's headers needs C++17 as well: consumers add
# this to their own targets' copts.
HLOLAYOUT_COPTS = ["-std=c++17"]

def hlolayout_cc_library(name, copts = [], **kwargs):
    native.cc_library(
        name = name,
        copts = HLOLAYOUT_COPTS + copts,
        include_prefix = "hlolayout/" + native.package_name(),
        **kwargs
    )

def hlolayout_cc_test(name, copts = [], **kwargs):
    native.cc_test(name = name, copts = HLOLAYOUT_COPTS + copts, **kwargs)

def hlolayout_cc_binary(name, copts = [], **kwargs):
    native.cc_binary(name = name, copts = HLOLAYOUT_COPTS + copts, **kwargs)
