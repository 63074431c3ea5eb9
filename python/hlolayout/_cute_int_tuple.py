"""CuTe's integer-tuple functions for hlolayout.cute, under pycute's names.

An IntTuple is an int or a tuple of IntTuples; in a coordinate, None stands
for CuTe's `_` (a mode kept whole). Each function is the C++ core's (the
definitions are in docs/cute.md and cute/int_tuple.h); this module only
gives them pycute's names and signatures, so that code written for pycute
keeps its results. Where pycute departs from CuTe's C++ these follow the C++
(docs/cute.md, "Python").

    >>> from hlolayout import cute
    >>> cute.flatten(((2, 3), 4)), cute.product(((2, 3), 4))
    ((2, 3, 4), 24)
    >>> cute.prefix_product((2, (3, 4)))
    (1, (2, 6))
    >>> cute.shape_div((3, 6, 2, 8), 72)
    (1, 1, 1, 4)
    >>> cute.idx2crd((1, 5), (3, (2, 3)))      # CuTe's (pycute says (1, (1, 0)))
    (1, (1, 2))
    >>> cute.crd2idx((1, (1, 2)), (3, (2, 3)))
    16
    >>> cute.slice_((None, (1, None)), (3, (2, 4)))
    (3, 4)

Errors (operands that are not congruent, a shape_div whose operands do not
divide each other, overflow past int64) raise ValueError with the core's
message; a value that is not an int, a tuple or None raises TypeError.
"""

from __future__ import annotations

import operator as _operator
from typing import TYPE_CHECKING, Any, Optional, Tuple

if TYPE_CHECKING:
    from typing import Union

    IntTuple = Union[int, Tuple[Any, ...]]
    Coord = Union[int, None, Tuple[Any, ...]]

from . import _hlolayout as _core

__all__ = ["Integer", "is_int", "is_tuple", "flatten", "signum", "product",
           "inner_product", "tuple_max", "elem_scale", "shape_div",
           "prefix_product", "idx2crd", "crd2idx", "crd2crd", "slice_",
           "has_none", "shiftl", "shiftr"]


class _IntegerKind(type):
    """isinstance(x, Integer): x converts to an index losslessly
    (operator.index: int, NumPy's integer scalars) and is not a bool."""

    def __instancecheck__(cls, x):
        if isinstance(x, bool):
            return False
        try:
            _operator.index(x)
        except TypeError:
            return False
        return True


class Integer(metaclass=_IntegerKind):
    """The integers of an IntTuple, for isinstance() checks:
    isinstance(3, Integer) and isinstance(numpy.int64(3), Integer) hold,
    isinstance(True, Integer) and isinstance(3.0, Integer) do not."""


def is_int(x: Any) -> bool:
    """True for an integer (not a tuple, not None)."""
    return isinstance(x, Integer)


def is_tuple(x: Any) -> bool:
    """True for a tuple."""
    return isinstance(x, tuple)


def flatten(t: IntTuple) -> Tuple[Any, ...]:
    """The leaves, left to right, as a tuple: ((2, 3), 4) -> (2, 3, 4);
    an int gives a 1-tuple."""
    return _core.cute_flatten(t)


def product(a: IntTuple) -> int:
    """The product of the leaves; () gives 1."""
    return _core.cute_product(a)


def inner_product(a: IntTuple, b: IntTuple) -> int:
    """The sum of the products of the leaves of congruent a and b."""
    return _core.cute_inner_product(a, b)


def tuple_max(a: IntTuple) -> int:
    """The largest leaf."""
    return max(flatten(a))


def elem_scale(a: IntTuple, b: IntTuple) -> IntTuple:
    """a scaled leaf by leaf by b; a leaf of a meeting a tuple of b is
    multiplied by that tuple's product: elem_scale((2, 3), (4, (2, 5))) ==
    (8, 30)."""
    return _core.cute_elem_scale(a, b)


def shape_div(a: IntTuple, b: IntTuple) -> IntTuple:
    """CuTe's shape_div: a tuple divided by an int folds left to right
    ((3, 6, 2, 8) / 72 == (1, 1, 1, 4)); tuples go mode by mode; two ints
    must divide one another and give a // b, or 1 for the smaller over the
    larger."""
    return _core.cute_shape_div(a, b)


def prefix_product(a: IntTuple, init: IntTuple = 1) -> IntTuple:
    """The exclusive prefix product congruent to a, starting at init: the
    compact column-major strides of shape a. (2, (3, 4)) -> (1, (2, 6))."""
    return _core.cute_prefix_product(a, init)


def idx2crd(idx: IntTuple, shape: IntTuple,
            stride: Optional[IntTuple] = None) -> IntTuple:
    """The natural coordinate of index idx in shape: leaf k is
    (idx // stride_k) % shape_k, the strides by default the compact ones.
    A tuple idx goes mode by mode, each mode restarting its strides
    (CuTe's idx2crd; pycute uses the whole shape's strides there)."""
    return _core.cute_idx2crd(idx, shape, stride)


def crd2idx(crd: Coord, shape: IntTuple,
            stride: Optional[IntTuple] = None) -> int:
    """The index of a coordinate: the inner product with the strides (by
    default the compact column-major ones). An int meeting a tuple shape is
    split mode by mode, the last mode taking the quotient; None counts 0."""
    return _core.cute_crd2idx(crd, shape, stride)


def crd2crd(crd: IntTuple, dst_shape: IntTuple,
            src_shape: Optional[IntTuple] = None) -> IntTuple:
    """A coordinate of src_shape as a coordinate of dst_shape (the C++
    core's CrdToCrd, CuTe's crd2crd): mode by mode where both are tuples
    (src_shape's modes alongside), a tuple into an integer through its
    index in src_shape, an integer into a tuple through idx2crd, an integer
    into an integer as itself when in range."""
    return _core.cute_crd2crd(crd, dst_shape, src_shape)


def slice_(crd: Coord, trg: IntTuple) -> Tuple[Any, ...]:
    """The parts of trg that crd pairs with None (CuTe's slice): kept modes
    of a nested coordinate are concatenated into one tuple;
    slice_(None, t) is (t,) (pycute's; CuTe's C++ gives t)."""
    if crd is None:
        return (trg,)
    return _core.cute_slice(crd, trg)


def has_none(a: Coord) -> bool:
    """True when None (CuTe's `_`) appears in a."""
    return _core.cute_has_none(a)


def signum(a: int) -> int:
    """The sign of a: 1, 0 or -1."""
    if a == 0:
        return 0
    return 1 if a > 0 else -1


def shiftr(a: int, s: int) -> int:
    """a divided by 2**s, rounding down (a shift right; s < 0 shifts
    left)."""
    return shiftl(a, -_operator.index(s))


def shiftl(a: int, s: int) -> int:
    """a times 2**s (a shift left); s < 0 divides by 2**-s, rounding down
    as a shift right does. Both are ints (TypeError otherwise: a str times
    2**s would repeat it)."""
    a, s = _operator.index(a), _operator.index(s)
    return a << s if s >= 0 else a >> -s
