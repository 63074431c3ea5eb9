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
    "coordinate": "crd2idx of a coordinate whose tuples do not follow the "
                  "shape's",
    "basis-overlap": "crd2idx or cosize of scaled-basis strides naming a "
                     "position both as a mode and inside it",
    "basis-integer": "crd2idx or cosize adding integer strides that are not "
                     "a static 0 to scaled bases",
    "unclassified": "a message neither table knows",
}

# Two categories that differ agree only where one of these rules holds on
# both messages: places where the DSL's message is coarser than the
# reason, each seen on real cases and checked on a case of its own
# (python/tests/test_cute_dsl_harness.py). (name, what it says, DSL
# category, twin category, test of the DSL's error and the twin's
# "Type: message").
def _sigfpe_on_composition(dsl_error, twin_error):
    """The DSL died of SIGFPE, and the twin refused a product (a
    tile_to_shape's too) whose block's complement is not a layout and
    whose composition fails: the DSL refuses those or dies, by what the
    twin does not know (docs/cute-dsl.md "The algebra's entry points
    written anew"). A product whose complement is a layout the DSL always
    refuses: no agreement with a death there."""
    return bool(re.search(r"^the DSL process died \(exit -8\)", dsl_error) and
                re.search(r"^Refusal: logical_product: unable to compute "
                          r"product with .* the block's complement \S+ is not "
                          r"a layout .* the composition with the tiler fails "
                          r"\(composition: (Stride|Shape) Divisibility "
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
     "the DSL's process dies of SIGFPE (exit -8) on a product whose "
     "block's complement is not a layout (a size <= 0) and whose "
     "composition's divisibility condition does not hold; the twin "
     "refuses that product (the DSL refuses some such products, dies on "
     "others)",
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


# The DSL's crd2idx and cosize refusals name their operands, not the
# cause ("unable to compute crd2idx with '!cute.layout<"(4,8):(1@0,1@1)">'
# and '!cute.coord<"(1,2,3)">'", "unable to compute cosize for input
# !cute.layout<"(4,2):(1@1,1)"> and mode []"): the category is the cause
# that holds on those operands, read from the DSL's own text (_coord_causes).
_CRD2IDX = re.compile(r"unable to compute crd2idx with '!cute\.layout<\"(.*)"
                      r"\">' and '!cute\.coord<\"(.*)\">'")
_COSIZE = re.compile(r"unable to compute cosize for input !cute\.layout<\"(.*)"
                     r"\"> and mode \[([\d, ]*)\]")


def _parse(text):
    """A printed IntTuple, `(4,(?{div=8},1@0@1))`, as nested tuples of its
    leaves' texts; ValueError when it is not one."""
    pos = 0

    def node():
        nonlocal pos
        if text.startswith("(", pos):
            pos += 1
            items = [node()]
            while text.startswith(",", pos):
                pos += 1
                items.append(node())
            if not text.startswith(")", pos):
                raise ValueError(text)
            pos += 1
            return tuple(items)
        m = re.compile(r"[^(),]+").match(text, pos)
        if not m:
            raise ValueError(text)
        pos = m.end()
        return m.group(0).strip()

    out = node()
    if pos != len(text):
        raise ValueError(text)
    return out


def _split_layout(text):
    """`shape:stride` at the colon outside the tuples."""
    depth = 0
    for i, ch in enumerate(text):
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if ch == ":" and depth == 0:
            return _parse(text[:i]), _parse(text[i + 1:])
    raise ValueError(text)


def _leaves(t):
    return [x for e in t for x in _leaves(e)] if isinstance(t, tuple) else [t]


def _fits(coord, shape):
    """A leaf coordinate fits any shape (an index); a tuple one the shape's
    tuple of the same rank, mode by mode (CuTe's crd2idx)."""
    if not isinstance(coord, tuple):
        return True
    return isinstance(shape, tuple) and len(coord) == len(shape) and all(
        _fits(c, s) for c, s in zip(coord, shape))


def _coord_causes(layout, coord=None, mode=()):
    """The causes of a crd2idx (coord given) or cosize refusal that hold on
    the operands as the DSL printed them: `coordinate` (its tuples do not
    follow the shape's), `basis-overlap` (a basis position, `v@inner@outer`,
    named both as a mode and inside it), `basis-integer` (scaled bases
    beside an integer stride that is not a static 0: whether its term is
    0 depends on the coordinate, even on a mode of one element, whose
    coordinate may be a `?` or, in the last mode, an index's quotient).
    [] where none does, or the text is not read."""
    try:
        shape, stride = _split_layout(layout)
        for m in mode:
            shape, stride = shape[m], stride[m]
        crd = None if coord is None else _parse(coord)
    except (ValueError, IndexError, TypeError):
        return []
    pairs = list(zip(_leaves(shape), _leaves(stride)))
    paths = [tuple(reversed(d.split("@")[1:])) for _, d in pairs if "@" in d]
    causes = []
    if crd is not None and not _fits(crd, shape):
        causes.append("coordinate")
    if any(p != q and q[:len(p)] == p for p in paths for q in paths):
        causes.append("basis-overlap")
    if paths and any("@" not in d and d != "0" for _, d in pairs):
        causes.append("basis-integer")
    return causes


def dsl_category(result):
    """The category of a DSL refusal (a dsl_worker.py result); for crd2idx
    and cosize, the causes that hold on the operands it quotes, joined by
    `|` when several do (agree() takes any of them)."""
    if result.get("crashed"):
        return "abort"
    error = result.get("error", "")
    m = _CRD2IDX.search(error)
    c = _COSIZE.search(error)
    if m or c:
        causes = (_coord_causes(m.group(1), m.group(2)) if m else
                  _coord_causes(c.group(1), mode=[
                      int(x) for x in c.group(2).replace(",", " ").split()]))
        return "|".join(causes) or "unclassified"
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
    ("coordinate", r"^crd2idx: unable to compute crd2idx .*: the coordinate "
                   r"does not fit the shape"),
    ("basis-overlap", r"^(crd2idx|cosize): unable to compute .*: a basis "
                      r"position is named both as a mode and inside it"),
    ("basis-integer", r"^(crd2idx|cosize): unable to compute .*: the integer "
                      r"strides (add|give) "),
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
    if dsl_cat == twin_cat or twin_cat in dsl_cat.split("|"):
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
