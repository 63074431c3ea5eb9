"""CuTe's layout algebra as the DSL computes it, on layouts with static and
dynamic integers (the twin's engine for every layout with a dynamic
integer, and the reference the C++ core is checked against for static
ones).

Each function follows CuTe's own algorithm (include/cute/layout.hpp) with
its static/dynamic decisions: a size-1 mode is dropped only when the 1 is
static, modes merge only when the merge is provable from static values,
divisibility is checked only between static values, right_inverse skips
dynamic strides and left_inverse refuses them. Where CuTe's weak checks let
through a result that is not the function asked for, the checked functions
return CuTe's text with a WrongLayoutWarning (WrongLayoutError in strict
mode; silently inside `unchecked`); docs/cute-dsl.md lists them.

    >>> from hlolayout.cute_dsl._objects import Layout
    >>> print(composition(Layout((6, 2), (8, 2)), Layout((4, 3), (3, 1))))
    ((2,2),3):((24,2),8)
"""

import sys
import warnings

from . import _config, _coords, _core_calls, _ints, _static_route, _tuples
from ._coords import cosize
from ._ints import DynInt, is_constant
from ._objects import ComposedLayout, Layout, ScaledBasis
from ._tuples import flatten, product, wrap, unwrap

__all__ = []


# ---------------------------------------------------------------------------
# Answers of the DSL that break CuTe's rules.
#
# Where CuTe's checks are weak, the DSL returns a layout that is not the
# function asked for, and users' kernels run with it: the twin returns the
# same layout and names the rule it breaks. Three outcomes, chosen by the
# settings of _config in one place (_wrong): a WrongLayoutWarning (the
# default), a WrongLayoutError (strict mode), nothing (inside unchecked()).
# The table below is what a user sees of each rule; docs/cute-dsl.md ("Where
# the DSL returns what CuTe's algebra does not") explains them.

_RULE_TABLE = (
    ("complement",
     "complement of a layout that is not injective or whose modes "
     "interleave (CuTe's algorithm gives a shape <= 0)"),
    ("complement-negative",
     "complement of a layout with a negative stride (not defined by CuTe; "
     "the DSL prints a layout with shapes <= 0 or 1:0)"),
    ("composition",
     "composition that CuTe's weak divisibility check lets through although "
     "the result is not A o B"),
    ("product", "product built from a complement that is not a layout"),
    ("divide", "divide by a dynamic tiler whose complement is not a layout"),
    ("tile_to_shape",
     "tile_to_shape of a block that does not divide the target shape"),
    ("recast",
     "recast_layout of a stride that is not a whole number of the new "
     "elements"),
    ("recast-swizzle",
     "recast_layout of a swizzled layout to elements wider than the "
     "swizzle's base: CuTe keeps the bits that remain, the DSL's base wraps "
     "below 0"),
    ("tiled_copy",
     "tiled copy whose threads or values per thread are not a multiple of "
     "the atom's (CuTe's static_assert \"TiledCopy uses too few "
     "thrs/vals\")"),
)

# rule name -> its sentence (cute_dsl.WRONG_LAYOUT_RULES).
RULES = dict(_RULE_TABLE)

# Answers met that break a rule, reported or not (_fast's memo keeps no
# answer whose computation moved it).
WRONG_ANSWERS = [0]


class _BrokenRule:
    """What the warning and the error both carry: `rule` (a RULES name),
    `dsl_result` (the layout the DSL returns), `witness` (a sentence that
    shows it wrong) and `operands` (the operands of the op that breaks the
    rule, an inner op's for a product or divide built on it: the harness
    checks the rule on them)."""

    def __init__(self, message, *, rule=None, dsl_result=None, witness=None,
                 operands=()):
        super().__init__(message)
        self.rule, self.witness = rule, witness
        self.dsl_result, self.operands = dsl_result, tuple(operands)


class WrongLayoutError(_BrokenRule, ValueError):
    """Strict mode: the twin refuses the DSL's answer, which breaks `rule`
    (its attributes: _BrokenRule's)."""


class WrongLayoutWarning(_BrokenRule, UserWarning):
    """The default: the twin returns the DSL's answer, which breaks `rule`
    (its attributes: _BrokenRule's); strict mode raises WrongLayoutError
    instead."""


def _wrong(rule, message, result, witness, operands=()):
    """`result`, the DSL's answer to what `message` names, which breaks
    `rule` (a row of the table: another name is the twin's own bug, a
    KeyError) as `witness` shows: returned with a WrongLayoutWarning,
    refused with a WrongLayoutError in strict mode, returned silently
    inside unchecked()."""
    sentence = RULES[rule]
    WRONG_ANSWERS[0] += 1
    if not _config.checked():
        return result
    said = "%s (%s)" % (message, witness)
    about = dict(rule=rule, dsl_result=result, witness=witness,
                 operands=operands)
    if _config.is_strict():
        raise WrongLayoutError(said, **about)
    warnings.warn(WrongLayoutWarning(
        "%s; the DSL's answer is returned, breaking the rule %s: %s "
        "(cute_dsl.set_strict(True) raises instead)" % (said, rule, sentence),
        **about), stacklevel=_outside_the_twin())
    return result


# The twin's modules: this package and every module under it.
_TWIN = __name__.rpartition(".")[0]


def _outside_the_twin():
    """The `stacklevel` for warnings.warn in _wrong that names the first
    frame whose module is not the twin's (by module name, so it holds
    wherever the files lie): the line of the user's call."""
    level, frame = 1, sys._getframe(2)  # 1 is _wrong, 2 its caller
    while frame is not None:
        module = frame.f_globals.get("__name__", "")
        level += 1
        if module != _TWIN and not module.startswith(_TWIN + "."):
            return level
        frame = frame.f_back
    return level


Refusal = _core_calls.Refusal


def _static(x):
    """x is a static integer (a Python int; a bool, a `?` or a scaled basis
    is not)."""
    return type(x) is int


_VERIFY = []


def _verify():
    """The _verify module (imported on first use: it imports NumPy)."""
    if not _VERIFY:
        from . import _verify as module
        _VERIFY.append(module)
    return _VERIFY[0]


def _mul(a, b):
    """a * b in the algebra, either a stride that may be a scaled basis:
    CuTe's `n * E<i>` and `E<i> * n` are E<i> with its value times n
    (include/cute/numeric/arithmetic_tuple.hpp, operator*)."""
    for basis, n in ((a, b), (b, a)):
        if isinstance(basis, ScaledBasis):
            return basis.scale(n)
    return _ints.mul(a, b)


def _mode(layout, i):
    """CuTe's layout<i>(L): the layout's own indexing (an integral layout
    is its own mode 0)."""
    return layout[i]


def _rank(layout):
    """CuTe's rank(L): the number of top modes, 1 for an integral shape."""
    return _tuples.rank(layout.sh)


def make_layout_of(layouts):
    """CuTe's make_layout(l0, l1, ...) (include/cute/layout.hpp): a layout
    whose mode k is layouts[k]."""
    shapes = tuple([l.sh for l in layouts])
    return Layout(shapes, tuple([l.st for l in layouts]))


# ---------------------------------------------------------------------------
# Coalesce and filter: the C++ core's (cute/coalesce.h, through
# _core_calls), which decides merges and drops on static integers only, as
# the DSL does. The core holds no basis strides: for those, _basis_coalesce
# states CuTe's rule on the flat modes (see its docstring).

def _has_basis_strides(layout):
    return any(isinstance(d, ScaledBasis) for d in _tuples.leaves(layout.st))


def coalesce(layout, profile=None):
    if type(profile) is tuple and profile:
        if type(layout.sh) is not tuple:
            # CuTe's transform_layout: an integral layout is its own mode 0,
            # and the result a layout of modes (observed: coalesce(8:1,
            # target_profile=(1,)) is (8):(1)).
            layout = Layout((layout.sh,), (layout.st,))
        return _transform_layout(layout, profile, coalesce, keep_rest=True)
    # An empty profile coalesces the whole layout (observed: 24:1 for
    # ((2,4),3):((1,2),8)), as an integer does.
    if _has_basis_strides(layout):
        return _basis_coalesce(layout)
    return Layout(*_core_calls.coalesce_leaves(wrap(flatten(layout.sh)),
                                               wrap(flatten(layout.st))))


def coalesce_x(layout):
    """CuTe's coalesce_x (composition reads past the end of its left
    operand): coalesce, with a trailing static size-1 leaf taken as a size
    2, so that its stride stays."""
    fshape = wrap(flatten(layout.sh))
    if not is_constant(1, fshape[-1]):
        return coalesce(layout)
    return coalesce(Layout(fshape[:-1] + (2,), wrap(flatten(layout.st))))


def _basis_coalesce(layout, drop_zero_strides=False):
    """coalesce for basis strides (an identity layout's, which the core does
    not hold), from CuTe's rule (include/cute/layout.hpp coalesce): on the
    flat modes, a static size 1 goes, and a mode s:d joins the mode before
    it, s0:d0, when both sizes and strides are static and d == s0 * d0
    (observed: (2,2):(1@0,2@0) is 4:1@0); no mode left is 1:0, one mode
    an integral layout. filter drops static 0 strides too."""
    modes = []
    for s, d in zip(wrap(flatten(layout.sh)), wrap(flatten(layout.st))):
        if is_constant(1, s) or (drop_zero_strides and is_constant(0, d)):
            continue
        if modes and _joins(modes[-1], s, d):
            modes[-1] = (modes[-1][0] * s, modes[-1][1])
        else:
            modes.append((s, d))
    if not modes:
        return Layout(1, 0)
    return Layout(unwrap(tuple([m[0] for m in modes])),
                  unwrap(tuple([m[1] for m in modes])))


def _joins(prev, s, d):
    s0, d0 = prev
    if not (_static(s0) and _static(s) and _static_stride(d0) and
            _static_stride(d)):
        return False
    return _mul(d0, s0) == d


def _static_stride(d):
    if isinstance(d, ScaledBasis):
        return d.is_static()
    return _static(d)


def filter_zeros(layout):
    if _has_basis_strides(layout):
        raise Refusal("filter_zeros of a layout with basis strides is not "
                      "modelled (the C++ core holds integer strides only)")
    return Layout(*_core_calls.filter_zeros(layout.sh, layout.st))


def filter(layout):
    if _has_basis_strides(layout):
        return _basis_coalesce(layout, drop_zero_strides=True)
    return Layout(*_core_calls.coalesce_leaves(
        wrap(flatten(layout.sh)), wrap(flatten(layout.st)), True))


# ---------------------------------------------------------------------------
# Composition

def _transform_layout(layout, tiler, f, keep_rest, op=None):
    """CuTe's transform_layout (include/cute/layout.hpp) as the DSL runs
    a tuple tiler or profile: mode i of the layout through f(mode,
    tiler[i]); the modes past the tiler kept (divides, products, coalesce)
    or dropped (composition). A tiler of more modes than the layout is
    refused, each op in the DSL's words (_TOO_MANY_MODES)."""
    modes = _rank(layout)
    if len(tiler) > modes:
        raise Refusal(_TOO_MANY_MODES[op or f.__name__](layout, tiler))
    out = [f(_mode(layout, i), t) for i, t in enumerate(tiler)]
    if keep_rest:
        out += [_mode(layout, i) for i in range(len(tiler), modes)]
    return make_layout_of(out)


def _tiler_text(t):
    if type(t) is tuple:
        return "(%s)" % ",".join([_tiler_text(e) for e in t])
    return "_" if t is None else str(t)


# What the DSL says of a tuple tiler with more modes than the layout
# (observed on (2,2):(1,2) by (2,2,2) and 4:1 by (2,2)).
_TOO_MANY_MODES = {
    "logical_product": lambda l, t: "logical_product: Too many modes in "
                                    "tiler.",
    "logical_divide": lambda l, t: "expects rank(tiler) <= rank(input), "
                                   "but got input=%s and tiler=%s" %
                                   (l, _tiler_text(t)),
    "composition": lambda l, t: "unable to compute the following "
                                "composition: %s o %s" % (l, _tiler_text(t)),
    "coalesce": lambda l, t: "unable to coalesce `input` of type %s" % l,
}


def _by_tiler(op, layout, tiler):
    """The forms of tiler the binary ops (`op`: composition,
    logical_divide, logical_product) take alike, in one place: None leaves
    the layout as it is; a tuple runs op mode by mode (_transform_layout:
    composition drops the modes past the tiler, the divides and products
    keep them); an integer n stands for the compact make_layout(n) (1 is
    1:0 as the DSL makes it, where CuTe's C++ takes n:1). Returns
    (answer, None) for the first two, else (None, the tiler's Layout)."""
    if tiler is None:
        return layout, None
    if type(tiler) is tuple:
        return _transform_layout(layout, tiler, op,
                                 keep_rest=op is not composition), None
    if _tuples.is_int(tiler):
        tiler = make_layout(tiler)
    if not isinstance(tiler, Layout):
        raise TypeError("%s: unsupported tiler %r" % (op.__name__, tiler))
    return None, tiler


def composition(lhs, rhs):
    """lhs o rhs. A tuple tiler composes lhs's modes one by one, the modes
    past it dropped; None is the identity; a Layout or integer goes to the
    C++ core, whose answer is then checked (the DSL takes CuTe's weak
    divisibility checks, `_checked_composition`)."""
    answer, rhs = _by_tiler(composition, lhs, rhs)
    if rhs is None:
        return answer
    answer = _compose(lhs, rhs)
    if not _config.checked():
        return answer
    one_mode = type(coalesce_x(lhs).sh) is not tuple
    return _checked_composition(lhs, rhs, answer, not one_mode)


def _checked_composition(lhs, rhs, result, several_modes):
    """The DSL's lhs o rhs, `result`, with the WrongLayoutWarning where it
    is not the composition. A left operand of one mode s:d (once coalesced,
    `several_modes` false) maps x to x * d for every x (the last mode takes
    the whole index), and the result is rhs with its strides times d: it is
    the composition, there is nothing to check (a divide's mode composes
    so)."""
    if _config.checked() and several_modes:
        witness = _verify().composition_witness(lhs, rhs, result)
        if witness:
            return _wrong("composition", "composition %s o %s: CuTe's "
                          "weak divisibility check lets it through, but "
                          "%s is not the composition" % (lhs, rhs, result),
                          result, witness, (lhs, rhs))
    return result


def _compose(lhs, rhs):
    """CuTe's composition as the DSL runs it, on the C++ core
    (cute/composition.h DslComposition: CuTe's weak checks on static
    integers only, each leaf's modes coalesced). A left operand with basis
    strides goes leaf by leaf (DslCompositionLeaf), its strides scaling
    the core's factors here."""
    if any(isinstance(d, ScaledBasis) for d in _tuples.leaves(rhs.st)):
        raise Refusal("composition with a ScaledBasis stride on the right "
                      "is not supported by the twin")
    if not _has_basis_strides(lhs):
        return Layout(*_core_calls.composition(
            wrap(flatten(lhs.sh)), wrap(flatten(lhs.st)), rhs.sh, rhs.st))
    flat = coalesce_x(lhs)
    shapes, strides = wrap(flat.sh), wrap(flat.st)

    def leaf(s, d):
        if type(s) is tuple:
            return make_layout_of([leaf(a, b) for a, b in zip(s, d)])
        modes = [(sh, f if k < 0 else _mul(f, strides[k]))
                 for sh, f, k in _core_calls.composition_leaf(shapes, s, d)]
        result = Layout(unwrap(tuple([m[0] for m in modes])),
                        unwrap(tuple([m[1] for m in modes])))
        return coalesce(result) if len(modes) > 1 else result
    return leaf(rhs.sh, rhs.st)


# ---------------------------------------------------------------------------
# What the entry points refuse before they compute, in one table: per op,
# rows of (test of the operands, words of the Refusal), in the order the
# DSL checks them. `_refuse(op, *operands)` runs an op's rows; each entry
# point calls it where the DSL would stop. The words are the DSL's where
# the DSL was asked (the wheel run on the CPU, docs/cute-dsl.md "The
# algebra's entry points written anew"), else they say what the twin does
# not model.

def _dynamic_strides(layout):
    return not all(_static(d) for d in _tuples.leaves(layout.st))


def _kernel_refused(layout):
    """nullspace's refusals: a basis stride of 0 (the core holds no basis
    strides; with none 0 the kernel is empty and answered), or a rank-1
    layout of stride 0, which the DSL fails on."""
    if _has_basis_strides(layout):
        return any(is_constant(0, d) for d in _tuples.leaves(layout.st))
    return type(layout.sh) is not tuple and is_constant(0, layout.st)


def _basis_words(op):
    return lambda layout, *rest: (
        "%s of a layout with basis strides is not modelled (the C++ core "
        "holds integer strides only)" % op)


def _kernel_words(layout):
    if _has_basis_strides(layout):
        return _basis_words("nullspace")(layout)
    return ("nullspace: the DSL fails on a rank-1 layout with a zero stride "
            "(TypeError: object of type 'int' has no len()); write it as a "
            "rank-1 tuple, (%s,):(%s,)" % (_tuples.text(layout.sh),
                                           _tuples.text(layout.st)))


_REFUSED = {
    "complement": [
        (lambda l: _rank(l) > 1 and _dynamic_strides(l),
         lambda l: "complement: dynamic-stride complement only for rank-1 "
                   "layouts (the DSL prints the layout x:x)"),
        (_has_basis_strides, _basis_words("complement")),
    ],
    "right_inverse": [
        (lambda l: not _ints.is_static(l.sh),
         lambda l: "right_inverse: expects an input with static shape, but "
                   "got %s" % l),
        (_has_basis_strides, _basis_words("right_inverse")),
    ],
    "left_inverse": [
        (lambda l: not l.is_static(),
         lambda l: "left_inverse: unable to compute the left inverse of %s: "
                   "the layout is not static" % l),
        (_has_basis_strides, _basis_words("left_inverse")),
        (lambda l: min(_tuples.leaves(coalesce(l).st)) < 0,
         lambda l: "left_inverse: unable to compute the left inverse of %s: "
                   "a stride is negative" % l),
    ],
    # A static tiler's complement with a negative stride: the DSL refuses
    # ("failed to perform a valid division"), dies or answers, depending on
    # the operands (a divide of 2:1 by (2:-1,) is ((2),1):((-1),0), seed
    # 8123 of the harness); the twin refuses every one.
    "logical_divide": [
        (lambda l, t: t.is_static() and _negative_filtered_strides(t),
         lambda l, t: "logical_divide: CuTe's complement, which the "
                      "division is built on, is not defined for the negative "
                      "stride %d of %s (the DSL refuses, its process dies or "
                      "it answers, depending on the operands)" %
                      (_negative_filtered_strides(t)[0], t)),
    ],
    "logical_product": [
        (lambda b, t: not b.is_static(),
         lambda b, t: "logical_product: expects `input` to be static, but "
                      "got %s" % b),
    ],
    "tile_to_shape": [
        (lambda b, shape: _rank(b) > _tuples.rank(shape),
         lambda b, shape: "tile_to_shape: Rank of layout must be <= rank of "
                          "target shape."),
    ],
    "nullspace": [(_kernel_refused, _kernel_words)],
}


def _refuse(op, *operands):
    """Raises the first of op's refusals (_REFUSED) that holds."""
    for holds, words in _REFUSED[op]:
        if holds(*operands):
            raise Refusal(words(*operands))


# ---------------------------------------------------------------------------
# Complement and the inverses: the C++ core's (cute/complement.h
# DslComplementModes on filter(layout); cute/inverse.h RightInverse, which
# skips a `?` stride as the DSL does, and DslLeftInverse, which checks no
# injectivity and maps every stride 0 to 1:0).

def complement(layout, cotarget):
    """The DSL's complement, and where it is not a layout (a negative
    stride, or a layout that is not injective, gives CuTe's algorithm a
    size of 0 or below) the WrongLayoutWarning naming why."""
    answer = complement_raw(layout, cotarget)
    negative = _negative_filtered_strides(filter(layout))
    if negative:
        return _wrong("complement-negative", "complement of %s: CuTe's "
                      "complement is not defined for a negative stride" %
                      layout, answer, "the stride %d is negative" %
                      negative[0], (layout, cotarget))
    sizes = [s for s in _tuples.leaves(answer.sh) if _static(s) and s <= 0]
    if sizes:
        return _wrong("complement", "complement of %s is not a layout: it "
                      "is not injective or has a negative stride" % layout,
                      answer, "the result has the shape %d" % sizes[0],
                      (layout, cotarget))
    return answer


def complement_raw(layout, cotarget):
    """CuTe's complement as the DSL runs it, unchecked: a layout that is
    not injective or has a negative stride gives sizes of 0 or below."""
    _refuse("complement", layout)
    kept = filter(layout)
    if isinstance(cotarget, Layout):
        cotarget = cotarget.sh
    # filter's 1:0 (nothing left) has no modes.
    modes = ((), ()) if kept.st == 0 else (wrap(kept.sh), wrap(kept.st))
    return Layout(*_core_calls.complement_leaves(modes[0], modes[1],
                                                 cotarget))


def right_inverse(layout):
    """R with layout(R(i)) == i over layout's image (None for None)."""
    return _inverse("right_inverse", _core_calls.right_inverse, layout)


def left_inverse(layout):
    """L with L(layout(i)) == i (None for None)."""
    return _inverse("left_inverse", _core_calls.left_inverse, layout)


def _inverse(op, core_call, layout):
    if layout is not None:
        _refuse(op, layout)
        return Layout._from_core(core_call(layout.sh, layout.st))
    return None


# ---------------------------------------------------------------------------
# Divides and products

def logical_divide(layout, tiler):
    """The tiles of `tiler` in layout, and the rest: layout composed with
    (tiler, the tiler's complement in layout's size). A tuple tiler
    divides mode by mode, None keeps the layout; a static operand pair is
    the core's exact divide (_static_route), one dynamic mode by a static
    tiler `_leaf_divide`; else the tiler's complement is refused as the
    complement is, and the complement and composition run on the core."""
    answer, tiler = _by_tiler(logical_divide, layout, tiler)
    if tiler is None:
        return answer
    answer = _static_route.static_op("logical_divide", layout, tiler)
    if answer is None and LEAF_DIVIDE[0]:
        answer = _leaf_divide(layout, tiler)
    if answer is not None:
        return answer
    _refuse("complement", tiler)
    _refuse("logical_divide", layout, tiler)
    rest, answer = _divided(layout, tiler)
    if _positive_shapes(rest.sh):
        return answer
    if tiler.is_static():
        # Refused, in the DSL's first words.
        raise Refusal("logical_divide: failed to perform a valid division "
                      "of %s by %s (the complement %s of the tiler is not a "
                      "layout: the tiler is not injective, or its modes "
                      "interleave)" % (layout, tiler, rest))
    # A dynamic tiler: the DSL answers.
    return _wrong("divide", "logical_divide of %s by %s: the tiler's "
                  "complement %s is not a layout" % (layout, tiler, rest),
                  answer, "the complement has a shape <= 0", (layout, tiler))


def _divided(layout, tiler):
    """The tiler's complement in layout, and layout o (tiler, complement):
    one core call (cute/divide.h DslLogicalDivide), its composition
    checked as `composition` checks one; for basis strides (which the core
    does not hold) the complement, then `composition` leaf by leaf."""
    if _has_basis_strides(layout):
        rest = complement_raw(tiler, coalesce(layout).sh)
        return rest, composition(layout, make_layout_of([tiler, rest]))
    shape, stride, rest, several = _core_calls.logical_divide(
        wrap(flatten(layout.sh)), wrap(flatten(layout.st)), tiler.sh,
        tiler.st)
    rest = Layout(*rest)
    return rest, _checked_composition(layout, make_layout_of([tiler, rest]),
                                      Layout(shape, stride), several)


# The divide of one dynamic mode by a static one written out (issue 47 item
# 15): on by default; the property test turns it off to compare.
LEAF_DIVIDE = [True]


def _leaf_divide(layout, tiler):
    """logical_divide of s:d (s a dynamic integer, d a static one) by t:u
    (static, t > 1, u > 0), or None for any other operands. It is what the
    general path below computes there, step by step: the tiler's complement
    in s is c:t (u = 1) or (u,c):(1,u*t), with c = ceil_div(s, u*t) (the
    filter keeps t:u, the complement's loop has no step, and the coalesce
    merges nothing with the dynamic c); s:d coalesces to itself, so the
    composition is each leaf's stride times d, and there is nothing to
    check (a left operand of one mode) nor to refuse."""
    s, d = layout.sh, layout.st
    t, u = tiler.sh, tiler.st
    if not (isinstance(s, DynInt) and type(d) is int and type(t) is int and
            type(u) is int and t > 1 and u > 0):
        return None
    ut = u * t
    c = _ints.ceil_div(s, ut)
    if u == 1:
        return Layout((t, c), (d, ut * d))
    return Layout((t, (u, c)), (u * d, (d, ut * d)))


def _negative_filtered_strides(layout):
    """The static negative strides of filter(layout), in order, without
    filtering: filter drops the modes of a static size 1 or stride 0, and
    coalescing a mode into the next keeps the first's stride, of the sign
    of the second's."""
    return [d for s, d in zip(_tuples.leaves(layout.sh),
                              _tuples.leaves(layout.st))
            if type(d) is int and d < 0 and not (type(s) is int and s == 1)]


def _positive_shapes(t):
    return all(not _static(s) or s > 0 for s in _tuples.leaves(t))


def zipped_divide(layout, tiler):
    return _regroup(logical_divide(layout, tiler), tiler, _ZIPPED)


def tiled_divide(layout, tiler):
    return _regroup(logical_divide(layout, tiler), tiler, _TILED)


def flat_divide(layout, tiler):
    return _regroup(logical_divide(layout, tiler), tiler, _FLAT)


def logical_product(block, tiler):
    """The block as mode 0, and as mode 1 where its repetitions go: the
    block's complement up to size(block) * cosize(tiler) composed with
    the tiler (CuTe's logical_product, include/cute/layout.hpp). A tuple
    tiler multiplies mode by mode (None keeps a mode, the modes past it are
    kept), an integer n is make_layout(n). The refusals: the block must be
    static (_REFUSED), and a product that cannot be built is refused as
    the DSL's outcome shows (_product_refusal)."""
    by_mode, tiler = _by_tiler(logical_product, block, tiler)
    if tiler is None:
        # The DSL makes a product by a tuple again from its shape and
        # stride (observed: an Int64 size of the tiler's comes back a plain
        # `?`).
        return by_mode if by_mode is block else Layout(by_mode.shape,
                                                       by_mode.stride)
    _refuse("logical_product", block, tiler)
    try:
        complement_, repeated = _repetitions(block, tiler)
    except (Refusal, WrongLayoutError) as failed:
        raise _product_refusal(block, tiler, failed)
    negative = _sign_checked(block, tiler)
    if negative is not None:
        raise negative
    answer = make_layout_of([block, repeated])
    if not _positive_shapes(complement_.sh):
        return _wrong("product", "logical_product of %s by %s: the DSL "
                      "builds it from the block's complement %s, which is "
                      "not a layout (a stride is negative or the block is "
                      "not injective)" % (block, tiler, complement_),
                      answer, "the complement has a shape <= 0",
                      (block, tiler))
    return answer


def _sign_checked(block, tiler):
    """The refusal of a block with a negative stride, or None: the DSL
    refuses it ("unable to compute product", observed for 4:-1 by 3:1)
    where it checks the composition statically, so not by a tiler with a
    `?` nor by one of a single element (4:-1 by 1:1 is (4,1):(-1,0))."""
    if not tiler.is_static() or is_constant(1, product(tiler.sh)):
        return None
    negative = _negative_filtered_strides(block)
    if not negative:
        return None
    return Refusal("logical_product: unable to compute product with %s and "
                   "%s: CuTe's complement, which the product is built on, "
                   "is not defined for the negative stride %d" %
                   (block, tiler, negative[0]))


def _product_refusal(block, tiler, failed):
    """What the product of block by tiler raises when the core cannot
    build its second mode: `failed`, the composition's divisibility
    refused, or in strict mode its wrong answer. Observed on 678 products
    and tile_to_shapes the twin refused so (the harness's cases of seeds 1
    to 39, docs/cute-dsl.md "The algebra's entry points written anew"):
    where the block's complement is a layout, the DSL refuses, "unable to
    compute product with ..." (263 of 263); where it is not (a size of 0
    or below: the block is not injective or has a negative stride), the
    DSL refuses so (259) or its process dies of SIGFPE (156), by what the
    twin does not know; its refusal then names that complement, which the
    harness's rule `sigfpe-composition` reads. A refusal of another kind
    (the complement's own) goes out as it is."""
    if isinstance(failed, WrongLayoutError):
        return _sign_checked(block, tiler) or failed
    if "Divisibility Condition" not in str(failed):
        return failed
    cotarget = _ints.mul(product(block.sh), cosize(tiler))
    complement_ = complement_raw(block, cotarget)
    if _positive_shapes(complement_.sh):
        return Refusal("logical_product: unable to compute product with %s "
                       "and %s (%s)" % (block, tiler, failed))
    return Refusal("logical_product: unable to compute product with %s and "
                   "%s: the block's complement %s is not a layout (the "
                   "block is not injective or has a negative stride) and "
                   "the composition with the tiler fails (%s); the DSL "
                   "refuses or its process dies, depending on the operands"
                   % (block, tiler, complement_, failed))


def _repetitions(block, tiler):
    """Mode 1 of logical_product and the complement it is built on.
    Integer strides: one call of the C++ core (cute/product.h
    DslLogicalProduct), its composition checked as `composition` checks
    one; an identity layout's basis strides (which the core does not hold):
    the complement, then `composition`."""
    cotarget = _ints.mul(product(block.sh), cosize(tiler))
    if _has_basis_strides(tiler):
        complement_ = complement_raw(block, cotarget)
        return complement_, composition(complement_, tiler)
    _refuse("complement", block)
    comp, sh, st, several = _core_calls.logical_product_rest(
        wrap(flatten(block.sh)), wrap(flatten(block.st)), tiler.sh,
        tiler.st, cotarget)
    complement_ = Layout(*comp)
    return complement_, _checked_composition(complement_, tiler,
                                             Layout(sh, st), several)


def zipped_product(block, tiler):
    return _regroup(logical_product(block, tiler), tiler, _ZIPPED)


def tiled_product(block, tiler):
    return _regroup(logical_product(block, tiler), tiler, _TILED)


def flat_product(block, tiler):
    return _regroup(logical_product(block, tiler), tiler, _FLAT)


def blocked_product(block, tiler):
    """CuTe's blocked_product: each mode of the block beside the same
    mode of its repetitions."""
    block_modes, repeated = _product_of_ranks(block, tiler)
    return _paired(block_modes, repeated)


def raked_product(block, tiler):
    """CuTe's raked_product: each mode of the repetitions beside the same
    mode of the block, each pair coalesced."""
    block_modes, repeated = _product_of_ranks(block, tiler)
    pairs = _paired(repeated, block_modes)
    return coalesce(pairs, (1,) * _rank(pairs))


def _product_of_ranks(block, tiler):
    """CuTe's first step of blocked_ and raked_product (layout.hpp): both
    operands padded with 1:0 modes (append<R>) to the larger rank R, and
    the two modes of their logical_product."""
    rank = max(_rank(block), _rank(tiler))
    both = logical_product(append_rank(block, rank),
                           append_rank(tiler, rank))
    return _mode(both, 0), _mode(both, 1)


# ---------------------------------------------------------------------------
# Regroupings: the C++ core's trees of modes (cute/internal/regroup.h
# DslRegroup, cute/product.h PadRank and DslZipModes: CuTe's zip2_by,
# append and zip, with the DSL's departures), run on the positions of the
# twin's leaves. A layout goes in as the tree of its leaves' places (1, 2,
# ... in order) and comes back as the regrouped tree of places (0 where the
# core adds a 1:0 mode), which the twin fills with its own leaves: a `?`
# keeps its Python type, a basis stride (which the core does not hold) its
# place.

_ZIPPED, _TILED, _FLAT = 0, 1, 2


def _numbered(*trees):
    """The core's trees of places for `trees`: every leaf numbered 1, 2,
    ... in order across the trees (the core's leaf k is its mode 1:k), one
    tree of places per tree."""
    count = [0]

    def number(t):
        if type(t) is tuple:
            return tuple([number(e) for e in t])
        count[0] += 1
        return count[0]

    return [number(t) for t in trees]


def _put(places, leaves, pad):
    """The tree of places with place k the leaf leaves[k - 1], place 0
    (a mode the core added) `pad`."""
    if type(places) is tuple:
        return tuple([_put(p, leaves, pad) for p in places])
    return leaves[places - 1] if places else pad


def _relaid(places, *layouts):
    """The layout at `places` of the leaves of `layouts`, in order: an
    added mode is 1:0."""
    shapes, strides = [], []
    for layout in layouts:
        shapes += _tuples.leaves(layout.sh)
        strides += _tuples.leaves(layout.st)
    return Layout(_put(places, shapes, 1), _put(places, strides, 0))


def _regroup(layout, tiler, grouping):
    """A logical divide's or product's result regrouped by the tiler's
    profile: zipped ((tiles),(rests)), tiled ((tiles),rests...) or flat
    (tiles...,rests...); a tiler that is not a tuple splits the layout's
    two modes."""
    places, = _numbered(layout.sh)
    return _relaid(_core_calls.regroup(places, tiler, grouping), layout)


def tile_unzip(layout, tiler):
    return _regroup(layout, tiler, _ZIPPED)


def append_rank(layout, n):
    """CuTe's append<n>(layout): padded with 1:0 modes up to rank n."""
    places, = _numbered(layout.sh)
    return _relaid(_core_calls.pad_rank(places, n), layout)


def _paired(first, second):
    """first's and second's modes paired as blocked_product and
    raked_product pair them (the DSL's zip)."""
    p1, p2 = _numbered(first.sh, second.sh)
    return _relaid(_core_calls.zip_modes(p1, p2), first, second)


def tile_to_shape(block, trg_shape, order):
    """The block repeated to fill trg_shape, the repetitions laid out in
    `order` (CuTe's tile_to_shape, include/cute/layout.hpp): the block
    padded to the target's rank, its repetitions counted and ordered by the
    C++ core (cute/tile_to_shape.h DslTileRepetitions, the counts rounded
    up and unchecked, as the DSL does), then blocked_product. A block that
    does not divide the target gives the DSL's answer with a
    WrongLayoutWarning."""
    _refuse("tile_to_shape", block, trg_shape)
    padded = append_rank(block, _tuples.rank(trg_shape))
    counts, divides = _core_calls.tile_repetitions(padded.sh, trg_shape,
                                                   order)
    answer = blocked_product(padded, Layout(*counts))
    if divides:
        return answer
    text = _tuples.text
    return _wrong("tile_to_shape", "tile_to_shape: the block %s does not "
                  "divide the target shape %s" % (block, text(trg_shape)),
                  answer, "the result's shape is %s, not %s" % (
                      text(_tuples.product_each(answer.sh)),
                      text(_tuples.product_each(trg_shape))),
                  (block, trg_shape))


# ---------------------------------------------------------------------------
# The compact layout the algebra makes of an integer tiler or of a shape
# (crd2idx in a shape). The public makers are __init__.py's.

def make_layout(shape):
    """CuTe's make_layout(shape) (include/cute/layout.hpp): compact
    column-major strides (_tuples.compact_col), a static 1 at stride 0, so
    an integer tiler n is n:1 and 1 is 1:0 as the DSL makes them; a static
    size below 1 refused (the DSL: "Expected size in shape to be strictly
    positive")."""
    for s in _tuples.leaves(shape):
        if type(s) is int and s <= 0:
            raise ValueError("expects positive shape values, got %d" % s)
    return Layout(shape, _tuples.compact_col(shape))


# ---------------------------------------------------------------------------
# Queries

def size(layout):
    return product(layout.sh)


def crd2idx(coord, layout):
    """The offset of coord (an index, a coordinate, `None` for 0); with
    scaled-basis strides, the coordinate the layout sends it to; a
    composed layout's value there."""
    if isinstance(layout, ComposedLayout):
        return layout(coord)
    if not isinstance(layout, Layout):
        # The DSL evaluates a coordinate in a shape as in its compact
        # layout (a dynamic shape makes the index dynamic); a shape that is
        # one dynamic integer it refuses.
        if isinstance(layout, DynInt):
            raise Refusal("crd2idx: the shape %s must be static or a tuple "
                          "(the DSL: Operand 1 must be a Value)" % layout)
        layout = make_layout(layout)
    return _coords.crd2idx(coord, layout)


def idx2crd(idx, shape):
    return _core_calls.idx2crd(idx, shape)


# ---------------------------------------------------------------------------
# Recast

def upcast(layout, n):
    """Every n elements one (CuTe's upcast<n>): the recast of 1-bit
    elements to n-bit ones."""
    return recast_layout(new_bits=n, old_bits=1, layout=layout)


def downcast(layout, n):
    """Every element n (CuTe's downcast<n>): the recast of n-bit elements
    to 1-bit ones."""
    return recast_layout(new_bits=1, old_bits=n, layout=layout)


def recast_layout(new_bits, old_bits, layout):
    """The layout in elements of new_bits instead of old_bits: the C++
    core's (cute/recast.h DslRecastLayout: upcast by the reduced ratio, then
    downcast, deciding on static integers only and checking nothing). A
    static stride of the upcast that is not a whole number of the new
    elements (nor a divisor of one) gives the DSL's answer with a
    WrongLayoutWarning."""
    if _has_basis_strides(layout):
        raise Refusal("recast_layout of a layout with basis strides is not "
                      "modelled (the C++ core holds integer strides only)")
    result = Layout(*_core_calls.recast(layout.sh, layout.st, old_bits,
                                        new_bits))
    import math
    up = new_bits // math.gcd(new_bits, old_bits)
    # A mode of one element moves nothing: its stride does not matter.
    bad = [d for s, d in zip(_tuples.leaves(layout.sh),
                             _tuples.leaves(layout.st))
           if not (_static(s) and s == 1)
           and _static(d) and d and d % up and up % d]
    if bad:
        return _wrong("recast", "recast_layout: the stride %d is not a whole "
                      "number of the new elements (%d old ones each)" %
                      (bad[0], up), result, "an element at offset %d does "
                      "not start a new element" % bad[0], (layout, up))
    return result


# ---------------------------------------------------------------------------
# What two layouts share, the kernel, the alignment: the C++ core's
# cute/common_layout.h (CuTe's max_common_layout, max_common_vector and
# nullspace on the core's integers; max_alignment is the Layout's own
# property, _objects.py), around the DSL's refusals and the plain `?`s of a
# dynamic Int64.

def _shared_run(a, b, vector):
    """max_common_vector (vector) or max_common_layout of a and b."""
    if _has_basis_strides(a) or _has_basis_strides(b):
        raise Refusal("%s of a layout with basis strides is not modelled "
                      "(the C++ core holds integer strides only)" % (
                          "max_common_vector" if vector else
                          "max_common_layout"))
    # b's right inverse is taken first; the DSL refuses it for a dynamic
    # shape (observed: max_common_layout((4,8):(1,4), (4,m):(1,4)) fails).
    if not _ints.is_static(b.sh):
        raise Refusal("right_inverse: expects an input with static shape, "
                      "but got %s" % b)
    return _core_calls.max_common((a.sh, a.st), (b.sh, b.st), vector)


def max_common_layout(a, b):
    """The longest run of indices 0, 1, ... that a and b send to the same
    offsets, as a layout into b's domain (1:0 for none)."""
    return Layout(*_shared_run(a, b, False))


def max_common_vector(a, b):
    """The length of max_common_layout(a, b), a static integer."""
    return _shared_run(a, b, True)


def nullspace(layout):
    """The flat modes of a static stride 0, each at its compact
    column-major stride (the C++ core's DslNullspace). The DSL reads the
    shape as layout.shape hands it out (a dynamic Int64 a plain `?`), and
    a stride is a plain `?` when every dynamic size before it is (observed:
    nullspace((Int64,2,3):(1,0,0)) is (2,3):(?,?), and with a
    ?{div=2} before the Int64, its product ?{div=16} keeps the divisibility);
    a rank-1 layout with a zero stride it fails on."""
    _refuse("nullspace", layout)
    if _has_basis_strides(layout):
        return Layout(1, 0)  # a basis stride is never 0: an empty kernel
    shape = layout.shape  # as the DSL reads it: an Int64 a plain `?`
    kernel_shape, kernel_stride = _core_calls.nullspace(shape, layout.st)
    return Layout(_core_calls._same_objects(shape, kernel_shape),
                  _plain_strides(shape, layout.st, kernel_stride))


def _plain_strides(shape, stride, result):
    """The kernel's strides `result` with each one plain whose compact
    stride is a product of plain `?`s and static sizes only."""
    plain, tracked, flags = False, False, []
    for s, d in zip(wrap(flatten(shape)), wrap(flatten(stride))):
        if is_constant(0, d):
            flags.append(plain and not tracked)
        if isinstance(s, _ints.PlainDyn):
            plain = True
        elif isinstance(s, DynInt):
            tracked = True
    if not any(flags):
        return result
    out = [_core_calls._plain(x) if f else x
           for x, f in zip(wrap(result), flags)]
    return unwrap(tuple(out))


def pack_tile(tiler):
    """A tuple tiler of composition or a divide as the DSL takes it, and
    whether its IR then fails to build (None, or the leaf that makes it
    fail). Written from the DSL's prints (the wheel traced on the CPU,
    docs/cute-dsl.md "`pack_tile` written anew"): an Int64 integer the
    program made (`Int64(4)`, `Int64(4) * 2`; a traced argument too) is
    printed as a plain Int32 `?` in the answer, and then the DSL fails to
    build its IR (error[INTERNAL]); an Int64 the DSL holds as an assumed
    value (`cute.assume`, or made from one) keeps its type and
    divisibility and builds; a layout with an Int64 size (assumed or not)
    prints its answer and fails too; an Int64 stride builds."""
    broken = []

    def leaf(t):
        if type(t) is tuple:
            return tuple([leaf(e) for e in t])
        if isinstance(t, Layout):
            if any(_is_int64(v) for v in _tuples.leaves(t.sh)):
                broken.append(str(t))
            return t
        if _is_int64(t) and t.known:
            broken.append(repr(t))
            return _ints.PlainDyn(t.value, 1, 32)
        return t

    packed = leaf(tiler)
    return packed, (broken[0] if broken else None)


def _is_int64(v):
    return isinstance(v, DynInt) and v.width == 64
