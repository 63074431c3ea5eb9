"""A composed layout whose inner function is a Python function: the DSL's
`make_composed_layout(fn, offset, outer)`, which maps coordinate c of
`outer` to fn(offset + outer(c)) and does nothing else (the DSL's algebra,
size and printf do not take it; neither do the twin's).

    >>> from hlolayout import cute_dsl as cute
    >>> def shift(c):
    ...     x, y = c
    ...     return x, y + 1
    >>> L = cute.make_composed_layout(shift, (1, 0),
    ...                               cute.make_identity_layout((8, 4)))
    >>> L(0)
    (1, 1)

It prints as the DSL prints it, in parentheses with Python's repr of the
function and of the offset: `(<function shift at 0x...> o (1, 0) o
(8,4):(1@0,1@1))`.
"""

from . import _algebra, _ints

__all__ = []


def _add(a, b):
    """offset + outer(c): elementwise for congruent tuples (a coordinate of
    an identity layout), an integer sum otherwise."""
    if type(a) is tuple and type(b) is tuple:
        if len(a) != len(b):
            raise _algebra.Refusal(
                "make_composed_layout: the offset %r and the coordinate %r "
                "are not congruent" % (a, b))
        return tuple(_add(x, y) for x, y in zip(a, b))
    if type(a) is tuple or type(b) is tuple:
        raise _algebra.Refusal(
            "make_composed_layout: cannot add the offset %r to %r" % (a, b))
    return _ints.add(a, b)


class FunctionComposedLayout:
    """inner o offset o outer, `inner` a Python function of an index or
    coordinate."""

    __slots__ = ("inner", "offset", "outer")

    def __init__(self, inner, offset, outer):
        self.inner = inner
        self.offset = offset
        self.outer = outer

    def __str__(self):
        return "(%r o %r o %s)" % (self.inner, self.offset, self.outer)

    __repr__ = __str__

    def __call__(self, *coord):
        if len(coord) == 1:
            coord = coord[0]
        return self.inner(_add(self.offset,
                               _algebra.crd2idx(coord, self.outer)))
