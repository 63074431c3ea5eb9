"""pycute's IntTuple functions (ints and nested tuples of ints), for
hlolayout.cute. Written for hlolayout from CuTe's definitions; where pycute
differs from CuTe's C++ these follow the C++ (docs/cute.md, "Python").

    >>> from hlolayout import cute
    >>> cute.flatten(((2, 3), 4)), cute.product(((2, 3), 4))
    ((2, 3, 4), 24)
    >>> cute.prefix_product((2, (3, 4)))
    (1, (2, 6))
    >>> cute.idx2crd((1, 5), (3, (2, 3)))      # CuTe's (pycute says (1, (1, 0)))
    (1, (1, 2))
    >>> cute.crd2idx((1, (1, 2)), (3, (2, 3)))
    16
"""

from abc import ABC
from functools import reduce
from itertools import chain

__all__ = ["Integer", "is_int", "is_tuple", "flatten", "signum", "product",
           "inner_product", "tuple_max", "elem_scale", "shape_div",
           "prefix_product", "idx2crd", "crd2idx", "crd2crd", "slice_",
           "has_none", "shiftl", "shiftr"]


class Integer(ABC):
    """Any integer type: isinstance(x, Integer) for int and numpy ints."""

    @classmethod
    def __subclasshook__(cls, c):
        if c in (bool, float):
            return False
        return hasattr(c, "__index__")


def is_int(x):
    """True for an integer (not a tuple, not None)."""
    return isinstance(x, Integer)


def is_tuple(x):
    """True for a tuple."""
    return isinstance(x, tuple)


def flatten(t):
    """The leaves of an IntTuple as a flat tuple: ((2, 3), 4) -> (2, 3, 4)."""
    if not is_tuple(t):
        return (t,)
    return tuple(leaf for e in t for leaf in flatten(e))


def signum(a):
    """-1, 0 or 1."""
    return (a > 0) - (a < 0)


def product(a):
    """The product of the leaves (1 for ())."""
    if is_tuple(a):
        return reduce(lambda acc, e: acc * product(e), a, 1)
    return a


def inner_product(a, b):
    """The sum of the products of congruent leaves."""
    if is_tuple(a):
        if not is_tuple(b) or len(a) != len(b):
            raise ValueError("inner_product: %r and %r are not congruent" % (a, b))
        return sum(inner_product(x, y) for x, y in zip(a, b))
    if is_tuple(b):
        raise ValueError("inner_product: %r and %r are not congruent" % (a, b))
    return a * b


def tuple_max(a):
    """The largest leaf."""
    if is_tuple(a):
        return max(tuple_max(e) for e in a)
    return a


def elem_scale(a, b):
    """a scaled leaf by leaf by b (a leaf of a meeting a tuple of b takes
    its product)."""
    if is_tuple(a):
        if not is_tuple(b) or len(a) != len(b):
            raise ValueError("elem_scale: %r cannot scale by %r" % (a, b))
        return tuple(elem_scale(x, y) for x, y in zip(a, b))
    return a * product(b)


def shape_div(a, b):
    """CuTe's shape_div: a tuple divided by an integer folds left to right,
    (3, 6, 2, 8) / 72 == (1, 1, 1, 4); integers need a % b == 0 or
    b % a == 0 and give ceil(a / b)."""
    if is_tuple(a):
        if is_tuple(b):
            if len(a) != len(b):
                raise ValueError("shape_div: ranks of %r and %r differ" % (a, b))
            return tuple(shape_div(x, y) for x, y in zip(a, b))
        out = []
        for e in a:
            out.append(shape_div(e, b))
            b = shape_div(b, product(e))
        return tuple(out)
    if is_tuple(b):
        return shape_div(a, product(b))
    if a % b != 0 and b % a != 0:
        raise ValueError("shape_div: %d and %d do not divide each other" % (a, b))
    return -(-a // b)


def prefix_product(a, init=1):
    """The exclusive prefix product, congruent to a: (2, (3, 4)) ->
    (1, (2, 6))."""
    if is_tuple(a):
        if is_tuple(init):
            if len(a) != len(init):
                raise ValueError("prefix_product: ranks of %r and %r differ"
                                 % (a, init))
            return tuple(prefix_product(x, i) for x, i in zip(a, init))
        out = []
        for e in a:
            out.append(prefix_product(e, init))
            init = init * product(e)
        return tuple(out)
    if is_tuple(init):
        raise ValueError("prefix_product: an integer with a tuple init")
    return init


def idx2crd(idx, shape, stride=None):
    """The natural coordinate of idx in shape. A tuple idx is converted mode
    by mode, each mode restarting its strides (CuTe's idx2crd; pycute uses
    the whole shape's strides there)."""
    if stride is None:
        if is_tuple(idx):
            if not is_tuple(shape) or len(idx) != len(shape):
                raise ValueError("idx2crd: %r does not fit shape %r" % (idx, shape))
            return tuple(idx2crd(i, s) for i, s in zip(idx, shape))
        stride = prefix_product(shape)
    if is_tuple(idx):
        if not is_tuple(shape) or len(idx) != len(shape):
            raise ValueError("idx2crd: %r does not fit shape %r" % (idx, shape))
        return tuple(idx2crd(i, s, d) for i, s, d in zip(idx, shape, stride))
    if is_tuple(shape):
        return tuple(idx2crd(idx, s, d) for s, d in zip(shape, stride))
    return (idx // stride) % shape


def crd2idx(crd, shape, stride=None):
    """The index of a coordinate: the inner product with the strides (by
    default the compact column-major ones); an integer meeting a tuple shape
    is split mode by mode, the last mode taking the quotient; None counts 0."""
    if stride is None:
        stride = prefix_product(shape)
    if is_tuple(crd):
        if not is_tuple(shape) or len(crd) != len(shape):
            raise ValueError("crd2idx: %r does not fit shape %r" % (crd, shape))
        return sum(crd2idx(c, s, d) for c, s, d in zip(crd, shape, stride))
    if crd is None:
        crd = 0
    if is_tuple(shape):
        total = 0
        for s, d in zip(shape[:-1], stride[:-1]):
            n = product(s)
            total += crd2idx(crd % n, s, d)
            crd //= n
        return total + crd2idx(crd, shape[-1], stride[-1])
    return crd * stride


def crd2crd(crd, dst_shape, src_shape=None):
    """A coordinate in dst_shape's terms (a tuple against an integer needs
    src_shape)."""
    if is_tuple(crd):
        if is_tuple(dst_shape):
            if len(crd) != len(dst_shape):
                raise ValueError("crd2crd: %r does not fit %r" % (crd, dst_shape))
            return tuple(crd2crd(x, y) for x, y in zip(crd, dst_shape))
        if src_shape is None:
            raise ValueError("crd2crd: a tuple coordinate into an integer "
                             "shape needs src_shape")
        return crd2idx(crd, src_shape)
    if is_tuple(dst_shape):
        return idx2crd(crd, dst_shape)
    if not crd < dst_shape:
        raise ValueError("crd2crd: %r is out of range for %r" % (crd, dst_shape))
    return crd


def slice_(crd, trg):
    """The leaves of trg paired with None in crd, as CuTe's slice: nested
    kept modes are concatenated into one tuple; slice_(None, t) is (t,)."""
    if is_tuple(crd):
        if not is_tuple(trg) or len(crd) != len(trg):
            raise ValueError("slice_: %r does not fit %r" % (crd, trg))
        return tuple(chain(*(slice_(c, t) for c, t in zip(crd, trg))))
    if crd is None:
        return (trg,)
    return ()


def has_none(a):
    """True when None (CuTe's `_`) appears in a."""
    if is_tuple(a):
        return any(has_none(e) for e in a)
    return a is None


def shiftr(a, s):
    """a >> s, or a << -s for a negative s."""
    return a >> s if s > 0 else a << -s


def shiftl(a, s):
    """a << s, or a >> -s for a negative s."""
    return a << s if s > 0 else a >> -s
