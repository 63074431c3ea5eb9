"""IntTuples of the DSL twin: an integer leaf (a Python int, static, or a
DynInt, dynamic), or a tuple of IntTuples. CuTe's tuple algorithms
(int_tuple.hpp, stride.hpp) with CuTe's static/dynamic decisions; the
arithmetic is _ints'.

    >>> compact_col((2, 1, 3))
    (1, 0, 2)
"""

from . import _ints
from ._ints import DynInt

__all__ = []


def is_tuple(x):
    return type(x) is tuple


def is_int(x):
    return (type(x) is int) or isinstance(x, DynInt)


def rank(t):
    return len(t) if type(t) is tuple else 1


def depth(t):
    if type(t) is not tuple:
        return 0
    return 1 + max((depth(e) for e in t), default=0)


def leaves(t, out=None):
    """The leaves of t, left to right, as a list."""
    if out is None:
        out = []
    if type(t) is tuple:
        for e in t:
            leaves(e, out)
    else:
        out.append(t)
    return out


def flatten(t):
    """CuTe's flatten: a tuple of the leaves, an integer unchanged."""
    if type(t) is not tuple:
        return t
    return tuple(leaves(t))


def product(t):
    if type(t) is not tuple:
        return t
    r = 1
    for e in t:
        r = _ints.mul(r, product(e))
    return r


def product_each(t):
    return tuple(product(e) for e in wrap(t))


def wrap(t):
    return t if type(t) is tuple else (t,)


def unwrap(t):
    while type(t) is tuple and len(t) == 1:
        t = t[0]
    return t


def congruent(a, b):
    if type(a) is tuple and type(b) is tuple:
        return len(a) == len(b) and all(congruent(x, y) for x, y in zip(a, b))
    return type(a) is not tuple and type(b) is not tuple


def weakly_congruent(a, b):
    """a's profile is a prefix of b's: an integer in a may stand for a tuple
    of b."""
    if type(a) is not tuple:
        return True
    if type(b) is not tuple:
        return False
    return len(a) == len(b) and all(
        weakly_congruent(x, y) for x, y in zip(a, b))


def repeat_like(t, v):
    if type(t) is tuple:
        return tuple(repeat_like(e, v) for e in t)
    return v


def transform_leaf(t, f):
    if type(t) is tuple:
        return tuple(transform_leaf(e, f) for e in t)
    return f(t)


def compact_col(shape, current=1):
    """CuTe's compact_major<LayoutLeft>: the exclusive prefix product of the
    leaves, a static 1 getting the static stride 0."""
    stride, _ = _compact(shape, current)
    return stride


def _compact(shape, current):
    if type(shape) is tuple:
        out = []
        for s in shape:
            d, current = _compact(s, current)
            out.append(d)
        return tuple(out), current
    if _ints.is_constant(1, shape):
        return 0, current
    return current, _ints.mul(current, shape)


def compact_row(shape, current=1):
    """CuTe's compact_major<LayoutRight>."""
    stride, _ = _compact_row(shape, current)
    return stride


def _compact_row(shape, current):
    if type(shape) is tuple:
        out = []
        for s in reversed(shape):
            d, current = _compact_row(s, current)
            out.append(d)
        return tuple(reversed(out)), current
    if _ints.is_constant(1, shape):
        return 0, current
    return current, _ints.mul(current, shape)


def _less(a, b):
    """`a < b` as CuTe's conditional_return sees it: a dynamic order entry
    is large and ordered after every static one, left to right."""
    return a < b


def compact_order(shape, order):
    """CuTe's compact_order: compact strides in the order `order` (each
    terminal's rank among the flattened orders)."""
    if type(order) is not tuple:
        return compact_col(shape)
    ref_shape = flatten(product_like(shape, order))
    ref_order = flatten(order)
    ref_shape = wrap(ref_shape)
    ref_order = wrap(ref_order)
    if any(isinstance(o, DynInt) for o in ref_order):
        ref_order = _dynamic_order(ref_order)
        order = _rebuild(order, list(ref_order))
    return _compact_order(shape, order, ref_shape, ref_order)


def _dynamic_order(orders):
    """CuTe's rule: dynamic order entries are large and come after the
    static ones, left to right."""
    big = max([o for o in orders if isinstance(o, int)] + [0]) + 1
    out = []
    for o in orders:
        if isinstance(o, DynInt):
            out.append(big)
            big += 1
        else:
            out.append(o)
    return tuple(out)


def _rebuild(t, flat):
    if type(t) is tuple:
        return tuple(_rebuild(e, flat) for e in t)
    return flat.pop(0)


def _compact_order(shape, order, ref_shape, ref_order):
    if type(order) is tuple:
        if type(shape) is not tuple or len(shape) != len(order):
            raise ValueError("make_ordered_layout: the order %s does not have "
                             "the shape's profile" % (order,))
        return tuple(_compact_order(s, o, ref_shape, ref_order)
                     for s, o in zip(shape, order))
    start = 1
    for s, o in zip(ref_shape, ref_order):
        if o < order:
            start = _ints.mul(start, s)
    return compact_col(shape, start)


def product_like(t, guide):
    """The product of t at the leaves of guide (CuTe's product_like)."""
    if type(guide) is tuple:
        if type(t) is not tuple or len(t) != len(guide):
            raise ValueError("the order %s does not have the profile of the "
                             "shape" % (guide,))
        return tuple(product_like(x, g) for x, g in zip(t, guide))
    return product(t)


def ceil_div(a, b):
    """CuTe's ceil_div on IntTuples."""
    if type(a) is tuple:
        if type(b) is tuple:
            if len(a) < len(b):
                raise ValueError("ceil_div: mismatched ranks")
            b = b + (1,) * (len(a) - len(b))
            return tuple(ceil_div(x, y) for x, y in zip(a, b))
        out = []
        for ai in a:
            out.append(ceil_div(ai, b))
            b = ceil_div(b, ai)
        return tuple(out)
    if type(b) is tuple:
        return ceil_div(a, product(b))
    return _ints.ceil_div(a, b)


def elem_scale(a, b):
    if type(a) is tuple:
        return tuple(elem_scale(x, y) for x, y in zip(a, b))
    return _ints.mul(a, product(b))


def inner_product(a, b):
    if type(a) is tuple and type(b) is tuple:
        if len(a) != len(b):
            raise ValueError("mismatched ranks")
        r = 0
        for x, y in zip(a, b):
            r = _ints.add(r, inner_product(x, y))
        return r
    return _ints.mul(a, b)


def text(t, leaf=None):
    """The DSL's type text of an IntTuple: `(4,(?,2))`."""
    if type(t) is tuple:
        return "(" + ",".join(text(e, leaf) for e in t) + ")"
    if t is None:
        return "_"
    if type(t) is int:
        return str(t)
    if leaf is not None:
        return leaf(t)
    return t.type_text()
