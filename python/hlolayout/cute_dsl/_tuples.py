"""The twin's IntTuples: a leaf (a Python int, static; a DynInt, the DSL's
`?`) or a Python tuple of IntTuples. Three kinds of helper live here:

- walking the tree (rank, depth, leaves, flatten, wrap, unwrap, the two
  congruences, text): the vocabulary of CuTe's int_tuple.hpp, no
  arithmetic;
- products, answered by the C++ core where a leaf is a `?`
  (cute/int_tuple.h Product, through _core_calls, with the DSL's rules of
  cute/integer.h);
- the two makers of strides and the DSL's ceil_div, written from CuTe's
  stride.hpp (compact_major, compact_order) and from what the DSL prints
  (docs/cute-dsl.md "Sources", "_tuples.py written anew").

    >>> compact_col((2, 1, (1, 3)))
    (1, 0, (0, 2))
    >>> ceil_div((8, (6, 4)), (3, 4))
    (3, 6)
"""

from . import _core_calls, _ints
from ._ints import DynInt

__all__ = []


# ---------------------------------------------------------------------------
# The tree.

def is_int(x):
    """A leaf the algebra takes: an int (not a bool) or a DynInt."""
    return type(x) is int or isinstance(x, DynInt)


def rank(t):
    """Top-level modes: a leaf is one mode."""
    if type(t) is tuple:
        return len(t)
    return 1


def depth(t):
    """0 for a leaf, one more than the deepest mode for a tuple (1 for
    `()`)."""
    if type(t) is not tuple:
        return 0
    return 1 + max([depth(e) for e in t], default=0)


def leaves(t, out=None):
    """Every leaf, left to right, appended to `out` (a new list by
    default)."""
    acc = [] if out is None else out
    _collect(t, acc)
    return acc


def _collect(t, acc):
    for x in t if type(t) is tuple else (t,):
        if type(x) is tuple:
            _collect(x, acc)
        else:
            acc.append(x)


def flatten(t):
    """A tuple of the leaves; a leaf stays itself."""
    if type(t) is tuple:
        return tuple(leaves(t))
    return t


def wrap(t):
    """A tuple: a leaf becomes the rank-1 tuple `(t,)`."""
    if type(t) is tuple:
        return t
    return (t,)


def unwrap(t):
    """The reverse of wrap, repeated: `((4,),)` is 4."""
    while type(t) is tuple and len(t) == 1:
        (t,) = t
    return t


def congruent(a, b):
    """The same tree (leaves aside)."""
    ta, tb = type(a) is tuple, type(b) is tuple
    if ta != tb:
        return False
    if not ta:
        return True
    if len(a) != len(b):
        return False
    for x, y in zip(a, b):
        if not congruent(x, y):
            return False
    return True


def weakly_congruent(a, b):
    """a's tree is b's cut short: a leaf of a may stand where b has a
    tuple, not the reverse."""
    if type(a) is not tuple:
        return True
    if type(b) is not tuple or len(a) != len(b):
        return False
    for x, y in zip(a, b):
        if not weakly_congruent(x, y):
            return False
    return True


def text(t, leaf=None):
    """The DSL's type text of an IntTuple, `(4,(?,2))`: `_` for None, each
    other leaf as `leaf(x)` when given, else an int as itself and a DynInt
    as its type text."""
    if type(t) is tuple:
        return "(%s)" % ",".join([text(e, leaf) for e in t])
    if t is None:
        return "_"
    if type(t) is int:
        return "%d" % t
    return leaf(t) if leaf is not None else t.type_text()


# ---------------------------------------------------------------------------
# Products (the C++ core's).

def product(t):
    """The product of the leaves (a leaf is itself): cute/int_tuple.h
    Product where a leaf is a `?` (the DSL's rules); a tuple of Python
    ints is their product, computed here (the same number, and a call
    into the core costs more than the multiplications)."""
    if type(t) is not tuple:
        return t
    acc = []
    _collect(t, acc)
    p = 1
    for x in acc:
        if type(x) is not int:
            return _core_calls.product(t)
        p *= x
    return p


def product_each(t):
    """product() of each top-level mode, as a tuple."""
    return tuple([product(m) for m in wrap(t)])


# ---------------------------------------------------------------------------
# Strides.

def compact_col(shape, start=1):
    """Column-major compact strides of `shape` from `start` (CuTe's
    compact_major<LayoutLeft>, include/cute/stride.hpp): a running
    product of the leaves, left to right, each leaf's stride the product
    before it; a static 1 takes a static 0 (observed: make_layout of
    (2,1,(1,3)) is (2,1,(1,3)):(1,0,(0,2))). A `?` is a leaf like any
    other (CuTe's `is_constant<1>` is false for it)."""
    running = [start]

    def walk(s):
        if type(s) is tuple:
            return tuple([walk(e) for e in s])
        if type(s) is int and s == 1:
            return 0
        here = running[0]
        running[0] = _ints.mul(here, s)
        return here

    return walk(shape)


def compact_order(shape, order):
    """Compact strides that grow in the order `order` (CuTe's
    compact_order, include/cute/stride.hpp: a group of `shape` starts at
    the product of the sizes of every group whose order is smaller, and is
    column-major inside; equal orders start at the same product). Observed
    on the DSL: `order` need only be weakly congruent to `shape`, each of
    its leaves naming the subtree of `shape` it stands on (order (1,0) on
    (2,(3,4)) gives (12,(1,3))); a DynInt order counts as larger than
    every static order, the leftmost such the smallest (order
    (Int32(0),1,0) on (2,3,4) gives (12,4,1)). None (no order) is
    column-major."""
    if type(order) is not tuple:
        return compact_col(shape)
    if not weakly_congruent(order, shape):
        raise ValueError("make_ordered_layout: expects the order %s to be "
                         "weakly congruent to the shape %s" %
                         (text(order, str), text(shape, str)))
    groups = []  # (order, shape of the group), left to right
    _groups(order, shape, groups)
    ranks = _static_ranks([o for o, _ in groups])
    sizes = [product(s) for _, s in groups]
    starts = []
    for mine in ranks:
        start = 1
        for other, size in zip(ranks, sizes):
            if other < mine:
                start = _ints.mul(start, size)
        starts.append(start)
    it = iter(zip(starts, [s for _, s in groups]))
    return _place(order, it)


def _groups(order, shape, out):
    if type(order) is tuple:
        for o, s in zip(order, shape):
            _groups(o, s, out)
    else:
        out.append((order, shape))


def _static_ranks(orders):
    """The orders as ints: a DynInt takes the next int past every static
    order, in its left-to-right place."""
    top = max([o for o in orders if type(o) is int], default=-1)
    out = []
    for o in orders:
        if type(o) is int:
            out.append(o)
        else:
            top += 1
            out.append(top)
    return out


def _place(order, groups):
    """The strides of each group (compact from its start), in the tree of
    `order`."""
    if type(order) is tuple:
        return tuple([_place(o, groups) for o in order])
    start, shape = next(groups)
    return compact_col(shape, start)


# ---------------------------------------------------------------------------
# ceil_div, as the DSL computes it.

class RankError(ValueError):
    """ceil_div's divisor has more modes than the dividend."""


def ceil_div(a, b, top=True):
    """The DSL's ceil_div(a, b): how many tiles of b cover a (observed, it
    is not CuTe's fold):

    - b a leaf: ceil(product(a) / b), a leaf whatever a is
      ((8,6) by 5 is 10; (?{div=8},6) by 4 is ?);
    - b a tuple against a tuple a: mode by mode, each mode of a by the
      same rules, the modes of a past rank(b) unchanged
      ((8,(6,2),5) by (3,) is (3,(6,2),5); (8,(6,4)) by (3,4) is (3,6));
      b of more modes than a is refused;
    - b a tuple against a leaf a: refused at the top ((12 by (2,3)), by
      product(b) inside a mode ((8,6) by ((2,2),3) is (2,2)); a rank-1
      b against a leaf at the top is b's one mode (12 by (5,) is 3).

    Leaves divide with _ints.ceil_div (the true ceiling: 8 by -3 is -2);
    a static 0 divisor is refused (ZeroDivisionError)."""
    if type(b) is not tuple:
        return _ints.ceil_div(product(a), _nonzero(b))
    if type(a) is not tuple:
        if not top:
            return _ints.ceil_div(a, _nonzero(product(b)))
        if len(b) > 1:
            raise RankError("ceil_div: expects the divisor %s to have no "
                            "more modes than %s" % (text(b, str), a))
        return ceil_div(a, b[0], False) if b else a
    if len(b) > len(a):
        raise RankError("ceil_div: expects the divisor %s to have no more "
                        "modes than %s" % (text(b, str), text(a, str)))
    head = tuple([ceil_div(x, y, False) for x, y in zip(a, b)])
    return head + a[len(b):]


def _nonzero(d):
    if type(d) is int and d == 0:
        raise ZeroDivisionError("ceil_div: division by zero")
    return d
