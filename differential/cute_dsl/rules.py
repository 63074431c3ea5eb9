"""The harness's own checks of the twin's WrongLayoutError rules: where the
DSL answers and the twin says the answer breaks a rule, the harness checks
on the case that the rule holds, by evaluating the operands and the DSL's
answer itself (NumPy, CuTe's colexicographic rule), not by trusting the
twin's witness sentence; and where the twin gives a witness that names an
element, the harness evaluates that element too.

    holds("composition", operands, dsl_result, witness) -> (True, why)

`operands` are the case's arguments evaluated by the twin (make_layout and
friends, whose text the harness compares elsewhere); `dsl_result` the
twin's unchecked result, whose text is the DSL's (compare.py checks that
first); a check answers (holds, a sentence).
"""

import ast
import re

import numpy as np


def _values(t):
    from hlolayout.cute_dsl import _ints, _tuples
    return [_ints.value(x) for x in _tuples.leaves(t)]


def flat(layout):
    """(shapes, strides) of a Layout's leaves with their values, or None (a
    ScaledBasis stride, a composed layout)."""
    from hlolayout.cute_dsl import Layout, ScaledBasis, _tuples
    if not isinstance(layout, Layout):
        return None
    if any(isinstance(d, ScaledBasis) for d in _tuples.leaves(layout.st)):
        return None
    return _values(layout.sh), _values(layout.st)


def evaluate(layout, idx):
    """layout(i) for the int64 array idx: colexicographic, the last mode
    taking the rest without a modulo; a negative i gives -layout(-i), as
    CuTe evaluates an offset of a negative stride."""
    shapes, strides = flat(layout)
    sign = np.where(idx < 0, -1, 1)
    out = np.zeros_like(idx)
    rest = np.abs(idx)
    for k, (s, d) in enumerate(zip(shapes, strides)):
        if k == len(shapes) - 1:
            out += rest * d
        else:
            out += (rest % s) * d
            rest //= s
    return out * sign


def size(layout):
    return int(np.prod(flat(layout)[0], dtype=np.int64))


def injective_and_nonnegative(layout):
    """(injective, every offset >= 0) over the modes whose stride is not 0
    (a zero stride repeats on purpose: complement filters it out)."""
    shapes, strides = flat(layout)
    kept = [(s, d) for s, d in zip(shapes, strides) if d != 0 and s != 1]
    if any(s <= 0 for s, _ in kept):
        return False, False
    if not kept:
        return True, True
    from hlolayout.cute_dsl import Layout
    sub = Layout(tuple(s for s, _ in kept), tuple(d for _, d in kept))
    n = int(np.prod([s for s, _ in kept], dtype=np.int64))
    if n > 1 << 20:
        return True, all(d >= 0 for _, d in kept)
    offsets = evaluate(sub, np.arange(n, dtype=np.int64))
    return (len(np.unique(offsets)) == n,
            all(d >= 0 for _, d in kept))


def complement_defined(layout):
    """(defined, why) for CuTe's complement of a layout: ignoring modes of
    stride 0 or shape 1, the strides are >= 0 and, sorted, each is a
    multiple of the previous one times its shape (the modes then tile the
    codomain without interleaving, and every shape CuTe's algorithm
    computes is >= 1)."""
    from hlolayout.cute_dsl import _tuples
    shapes, strides = flat(layout)
    # A dynamic shape may be any size (the DSL does not know its value):
    # checked as at least 2.
    dynamic = [type(s) is not int for s in _tuples.leaves(layout.sh)]
    shapes = [max(s, 2) if dyn else s for s, dyn in zip(shapes, dynamic)]
    kept = sorted((d, s) for s, d in zip(shapes, strides)
                  if d != 0 and s != 1)
    if any(d < 0 for d, _ in kept):
        return False, "a stride is negative"
    for (d0, s0), (d1, _) in zip(kept, kept[1:]):
        if d1 % (d0 * s0):
            return False, "the stride %d is not a multiple of %d x %d " \
                          "(the modes interleave or overlap)" % (d1, d0, s0)
    return True, "the sorted strides tile the codomain"


def _layouts_in(x):
    """The Layouts of a tiler (a Layout, or a tuple holding some)."""
    from hlolayout.cute_dsl import ComposedLayout, Layout
    if isinstance(x, ComposedLayout):
        return [x.outer]
    if isinstance(x, Layout):
        return [x]
    if type(x) is tuple:
        out = []
        for e in x:
            out += _layouts_in(e)
        return out
    return []


def _modes(lhs, rhs, result):
    """Mode pairs (A_k, B_k, R_k) of a composition by a tiler tuple (the
    whole layouts for a Layout or int rhs)."""
    from hlolayout.cute_dsl import ComposedLayout, Layout, make_layout
    if isinstance(lhs, ComposedLayout):
        lhs, result = lhs.outer, result.outer
    if type(rhs) is int:
        rhs = make_layout(rhs)
    if isinstance(rhs, Layout):
        return [(lhs, rhs, result)]
    out = []
    for k, r in enumerate(rhs):
        if r is None:
            continue
        out += _modes(lhs[k], r, result[k])
    return out


_WITNESS = re.compile(r"R\((\d+)\) = (-?\d+) but A\(B\(\d+\)\) = "
                      r"A\((-?\d+)\) = (-?\d+)")


def composition(operands, result, witness):
    lhs, rhs = operands[0], operands[1]
    bad = []
    for a, b, r in _modes(lhs, rhs, result):
        if flat(a) is None or flat(b) is None or flat(r) is None:
            continue
        n = size(b)
        if n <= 0 or n > 1 << 20:
            continue
        idx = np.arange(n, dtype=np.int64)
        bi = evaluate(b, idx)
        ri, abi = evaluate(r, idx), evaluate(a, bi)
        wrong = np.nonzero(ri != abi)[0]
        if len(wrong):
            bad.append((a, b, r, ri, bi, abi, int(wrong[0])))
    if not bad:
        return False, "R(i) == A(B(i)) for every i: the DSL's composition " \
                      "is right"
    m = _WITNESS.search(witness or "")
    if m:
        i, ri_w, bi_w, abi_w = (int(g) for g in m.groups())
        if not any(i < len(x[3]) and (x[3][i], x[4][i], x[5][i]) ==
                   (ri_w, bi_w, abi_w) for x in bad):
            return False, "the witness %r does not hold" % witness
    _, _, _, ri, bi, abi, i = bad[0]
    return True, "R(%d) = %d, A(B(%d)) = A(%d) = %d" % (
        i, ri[i], i, bi[i], abi[i])


def _shape_leq0(text):
    """Whether a layout's text has a shape leaf <= 0."""
    shape = text.split(" o ")[-1].split(":")[0]
    return any(int(v) <= 0 for v in re.findall(r"-?\d+", shape))


def complement(operands, result, witness, dsl_text):
    defined, why = complement_defined(operands[0])
    if defined:
        return False, "the complement is defined: " + why
    if not _shape_leq0(str(result)):
        return False, "the DSL's complement has no shape <= 0"
    return True, why + "; the DSL's complement has a shape <= 0"


def complement_negative(operands, result, witness, dsl_text):
    from hlolayout.cute_dsl import _tuples
    shapes, strides = flat(operands[0])
    ones = [type(s) is int and s == 1 for s in _tuples.leaves(
        operands[0].sh)]  # a dynamic 1 is a mode the DSL cannot drop
    neg = [d for one, d in zip(ones, strides) if d < 0 and not one]
    if not neg:
        return False, "no stride of the layout is negative"
    return True, "the stride %d is negative" % neg[0]


def _not_a_complement(layouts, what):
    for layout in layouts:
        if flat(layout) is None:
            continue
        defined, why = complement_defined(layout)
        if not defined:
            return True, "the %s %s has no complement: %s" % (what, layout,
                                                              why)
    return False, "every %s has a complement" % what


def product(operands, result, witness, dsl_text):
    return _not_a_complement(_layouts_in(operands[0]), "block")


def tile_to_shape(operands, result, witness, dsl_text):
    block, target = operands[0], operands[1]
    from hlolayout.cute_dsl import _tuples
    target = _tuples.wrap(target)
    top = _tuples.wrap(block.sh)
    sizes = [int(np.prod(_values(m))) for m in top]
    for k, mode in enumerate(target):
        t = int(np.prod(_values(mode)))
        b = sizes[k] if k < len(sizes) else 1
        if t % b:
            return True, "mode %d: the block's %d does not divide %d" % (
                k, b, t)
    return False, "the block divides the target shape"


def recast(operands, result, witness, dsl_text):
    layout, n = operands  # the layout upcast by n old elements a new one
    src = layout.outer if hasattr(layout, "outer") else layout
    shapes, strides = flat(src)
    for s, d in zip(shapes, strides):
        if s != 1 and d and d % n and n % d:
            return True, "the stride %d is not a whole number of %d-element " \
                         "groups" % (d, n)
    return False, "every stride is a whole number of the new elements"


def tiled_copy(operands, result, witness, dsl_text):
    """Threads and values per thread of the tiled copy, or of one it is
    built from (make_tiled_copy_S(atom, tiled_copy) takes the latter's
    layout), against its atom's (the objects print the DSL's text)."""
    from hlolayout.cute_dsl import TiledCopy, _tuples
    copies = [x for x in [result] + list(operands)
              if isinstance(x, TiledCopy)]
    if not copies:
        return False, "not a tiled copy"
    for tc in copies:
        tv = tc.layout_tv_tiled
        thr = int(np.prod(_values(_tuples.wrap(tv.sh)[0])))
        val = int(np.prod(_values(_tuples.wrap(tv.sh)[1])))
        atom_thr = size(tc.thr_id)
        atom_val = int(np.prod(_values(_tuples.wrap(
            tc.layout_src_tv.sh)[1])))
        if thr % atom_thr or val % atom_val:
            return True, "%d threads of %d values over an atom of %d " \
                         "threads of %d values" % (thr, val, atom_thr,
                                                   atom_val)
    return False, "the threads and values are multiples of the atom's"


def recast_swizzle(operands, result, witness, dsl_text):
    swizzle, n = operands  # the swizzle upcast by n old elements a new one
    log2 = n.bit_length() - 1
    if swizzle.num_base >= log2:
        return False, "the base %d holds the factor's %d bits" % (
            swizzle.num_base, log2)
    return True, "the base %d is below the factor's %d bits" % (
        swizzle.num_base, log2)


def divide(operands, result, witness, dsl_text):
    return _not_a_complement(_layouts_in(operands[1]), "tiler")


CHECKS = {
    "composition": lambda o, r, w, t: composition(o, r, w),
    "complement": complement,
    "complement-negative": complement_negative,
    "product": product,
    "divide": divide,
    "tile_to_shape": tile_to_shape,
    "recast": recast,
    "recast-swizzle": recast_swizzle,
    "tiled_copy": tiled_copy,
}


def operands(expr, namespace):
    """The arguments of the expression's outermost call, evaluated by the
    twin (the call `cute.f(a, b)` or a method `x.f(a)`; an attribute access
    `x.attr` gives [x])."""
    node = ast.parse(expr, mode="eval").body
    if isinstance(node, ast.Attribute):
        return [eval(compile(ast.Expression(node.value), "<case>", "eval"),
                     dict(namespace))]
    if not isinstance(node, ast.Call):
        return []
    return [eval(compile(ast.Expression(a), "<case>", "eval"),
                 dict(namespace)) for a in node.args]


def holds(err, expr, namespace, result, dsl_text):
    """(holds, why) for a WrongLayoutError on a case: the rule checked on
    the operands of the op that breaks it (err.operands, an inner op's for
    a product or divide built on it; the case's own call's when it names
    none) and on err.dsl_result, the layout that op returns (the case's
    result, or the intermediate the DSL builds it from)."""
    check = CHECKS.get(err.rule)
    if check is None:
        return False, "no check for the rule %r" % err.rule
    from hlolayout import cute_dsl
    try:
        with cute_dsl.unchecked():
            ops = err.operands or operands(expr, namespace)
            inner = err.dsl_result if err.operands else result
            if err.rule == "tiled_copy":
                inner = result
            return check(ops, inner, err.witness, dsl_text)
    except Exception as ex:  # noqa: BLE001 (a check that cannot run fails)
        return False, "the check failed: %s: %s" % (type(ex).__name__, ex)
