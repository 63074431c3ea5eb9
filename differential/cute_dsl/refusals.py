"""Refusal categories of the CuTe DSL harness: why a side refused a case.

Two refusals agree only when their categories do, or under one of the
CROSS_RULES below, which test both sides' messages: a DSL refusal for the
architecture and a twin refusal for a data type are a difference, not
"both refuse"; so are a Python error inside the DSL (which says nothing of
why) and a refusal of the twin that does not name it.

    dsl_category({"ok": False, "error": "DSLUserCodeError: error: expects "
                  "arch to be sm_90a, but got sm_80"})          -> "arch"
    twin_category(exception)                                    -> "arch"

Each side is read in its own words: the DSL's first error line (its type
and message, dsl_worker.py) and the twin's exception (its class and
message). A message neither table knows is "unclassified", which the
harness counts as a difference, so that a new kind of refusal is looked at
rather than passed.

A twin exception is a refusal only when the twin raised it on purpose: a
TypeError or ValueError (the types docs/cute-dsl.md documents: Refusal,
WrongLayoutError, DSLUserCodeError, DivisionByZero are ValueErrors) from a
`raise` statement of hlolayout's own code. Anything else (an IndexError, a
ValueError of unpacking, a TypeError of calling None) is a crash of the
twin, which the harness reports as a difference whatever the DSL did.
"""

import linecache
import os
import re

CATEGORIES = {
    "arch": "the op needs another architecture",
    "op-parameter": "an op's parameter outside its domain (shape, data "
                    "types, counts, transpose, repetition, bits per copy)",
    "argument": "an argument of the wrong kind or rank (a tuple where a "
                "layout is taken, a rank-3 layout to draw)",
    "static": "a dynamic integer where the op needs a static one",
    "precondition": "a precondition of CuTe's algebra fails (divisibility, "
                    "ranks, a tile or tiler that does not fit, a negative "
                    "stride)",
    "abort": "the computation cannot finish: a division by zero, the DSL's "
             "process dies (SIGFPE, abort) or cannot build its IR",
    "python-error": "the DSL fails with a Python error of its own "
                    "(unpacking, indexing): its message says nothing of why",
    "unclassified": "a message neither table knows",
}

# Two categories that differ agree only where one of these rules holds on
# both messages: places where the DSL's message is coarser than the
# reason, each seen on real cases and checked on a case of its own
# (python/tests/test_cute_dsl_harness.py). (name, what it says, DSL
# category, twin category, test of the DSL's error and the twin's
# "Type: message").
def _sigfpe_on_composition(dsl_error, twin_error):
    return bool(re.search(r"^the DSL process died \(exit -8\)", dsl_error) and
                re.search(r"^Refusal: composition: (Stride|Shape) Divisibility "
                          r"Condition: ", twin_error))


def _quoted_python_error(dsl_error, twin_error):
    """The twin's refusal says the DSL fails there and quotes its Python
    error: the same type and message, the name of the object's type aside
    (the DSL's Int32 is the twin's int)."""
    m = re.search(r"the DSL fails on [^(]*\((?=\w+Error: )", twin_error)
    if not m or not dsl_error.strip():
        return False

    def plain(text):
        return re.sub(r"'[\w.]+'", "'T'", text.strip())
    quoted = plain(twin_error[m.end():])
    want = plain(dsl_error)
    return quoted.startswith(want + ")")


CROSS_RULES = [
    ("sigfpe-composition",
     "the DSL's process dies of SIGFPE (exit -8) on a composition whose "
     "divisibility condition does not hold (CuTe's algorithm divides by "
     "zero there), where the twin refuses that condition first",
     "abort", "precondition", _sigfpe_on_composition),
    ("quoted-python-error",
     "a Python error inside the DSL that the twin's refusal names: it "
     "refuses because the DSL fails there, quoting that error",
     "python-error", "abort", _quoted_python_error),
]


# (category, pattern) over the DSL's "Type: message", first match wins.
_DSL = [
    ("arch", r"expects arch to be"),
    ("op-parameter", r"Op parameter|N-mode|only supports transpose|"
                     r"repetition is not supported|is not supported; "
                     r"supported|Inputs are incorrect for type"),
    ("static", r"to be static|static shape|Requires static|must be static"),
    ("abort", r"error\[INTERNAL\]|could not build valid IR|"
              r"^ZeroDivisionError|bad_variant_access"),
    ("left-inverse", r"unable to compute the left inverse of"),
    ("argument", r"must be a Value"),
    ("precondition", r"failed to perform a valid division|unable to compute "
                     r"product|unable to compute the following composition|"
                     r"unable to recast layout|"
                     r"is greater than the size of|unable to compute tile_to_shape|failed to "
                     r"partition|[Mm]ismatched|[Dd]ivisibility|must be less "
                     r"than rank|Rank of layout|invalid mode element|"
                     r"begin < end|in the range of"),
    ("argument", r"Requires rank|to be rank 2"),
    ("python-error", r"^(ValueError: (not enough|too many) values to unpack|"
                     r"TypeError: (cannot unpack|.* object is not|object of "
                     r"type .* has no)|IndexError|KeyError|AttributeError)"),
    ("argument", r"^TypeError"),
]


def dsl_category(result):
    """The category of a DSL refusal (a dsl_worker.py result)."""
    if result.get("crashed"):
        return "abort"
    error = result.get("error", "")
    for category, pattern in _DSL:
        if re.search(pattern, error):
            if category == "left-inverse":
                # The DSL names the layout, not the reason: one with a
                # dynamic integer (`?`) is refused for it, another for
                # CuTe's preconditions (a negative stride, divisibility).
                return "static" if "?" in error else "precondition"
            return category
    return "unclassified"


_TWIN = [
    ("arch", r"needs the architecture"),
    ("abort", r"aborts|SIGFPE|fails to build its IR|the DSL fails on"),
    ("argument", r"must be a Value"),
    ("static", r"static"),
    ("argument", r"Requires rank|to be rank 2|[Uu]nknown palette|"
                 r"draw takes rank 1 or 2|layout of rank 2|"
                 r"needs a rank-2 layout|no palette named"),
]


def twin_category(ex):
    """The category of a deliberate refusal of the twin (is_refusal(ex))."""
    from hlolayout import cute_dsl
    name = type(ex).__name__
    text = str(ex)
    if isinstance(ex, cute_dsl.DivisionByZero):
        return "abort"
    for category, pattern in _TWIN:
        if re.search(pattern, text):
            return category
    if isinstance(ex, cute_dsl.DSLUserCodeError):
        if re.search(r"does not divide|partition_shape|the atom moves", text):
            return "precondition"
        return "op-parameter"
    if isinstance(ex, TypeError):
        return "argument"
    if isinstance(ex, (cute_dsl.Refusal, cute_dsl.WrongLayoutError)):
        return "precondition"
    if name == "ValueError":
        return "precondition"
    return "unclassified"


_PACKAGE = os.path.dirname(os.path.realpath(
    __import__("hlolayout").__file__))


def is_refusal(ex):
    """True when the twin raised ex on purpose: a TypeError or ValueError
    from a `raise` statement in hlolayout's own code (its last frame). An
    exception the interpreter raised (unpacking, indexing, None called), or
    of another type, is a crash."""
    if not isinstance(ex, (TypeError, ValueError)):
        return False
    tb = ex.__traceback__
    if tb is None:
        return False
    while tb.tb_next is not None:
        tb = tb.tb_next
    path = os.path.realpath(tb.tb_frame.f_code.co_filename)
    if not path.startswith(_PACKAGE + os.sep):
        return False
    line = linecache.getline(tb.tb_frame.f_code.co_filename,
                             tb.tb_lineno).strip()
    return line.startswith("raise ")


def cross_rule(dsl_cat, twin_cat, dsl_error, twin_error):
    """The CROSS_RULES name that makes two refusals of different
    categories agree, or None."""
    for name, _, dcat, tcat, test in CROSS_RULES:
        if (dsl_cat, twin_cat) == (dcat, tcat) and test(dsl_error, twin_error):
            return name
    return None


def agree(dsl_cat, twin_cat, dsl_error="", twin_error=""):
    """Whether a DSL refusal and a twin refusal give the same reason: the
    same category (never "unclassified"), or a CROSS_RULES rule on the two
    messages."""
    if "unclassified" in (dsl_cat, twin_cat):
        return False
    if dsl_cat == twin_cat:
        return True
    return cross_rule(dsl_cat, twin_cat, dsl_error, twin_error) is not None


# A product or divide whose tiler's (or block's) complement is not a
# layout, or whose inner composition is not one: the DSL's algorithm cannot
# build the result and refuses it ("failed to perform a valid division",
# "unable to compute product"); the strict twin names the same cause, the
# step that is not CuTe's algebra, as a WrongLayoutError. One reason in two
# words.
_NO_COMPLEMENT_DSL = re.compile(r"failed to perform a valid division|"
                                r"unable to compute product")
_NO_COMPLEMENT_TWIN = re.compile(r"complement .* is not a layout|"
                                 r"^WrongLayoutError: composition .* is not "
                                 r"the composition")


def agree_on_complement(dsl_error, twin_error):
    """True for a DSL precondition refusal of a divide or product and a
    twin WrongLayoutError saying that op's complement is not a layout."""
    return bool(_NO_COMPLEMENT_DSL.search(dsl_error) and
                _NO_COMPLEMENT_TWIN.search(twin_error))
