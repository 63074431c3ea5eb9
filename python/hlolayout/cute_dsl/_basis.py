"""CuTe's scaled basis elements (include/cute/numeric/arithmetic_tuple.hpp):
a value times the unit vector of a mode, E<N...> the one of value 1; an
identity layout's strides. Printed value, then `@N` for each mode from the
innermost out. A leaf of the twin's strides, below the layouts that hold
it (_objects.py) and the coordinates it sums to (_coords.py).

    >>> print(E([1, 0]) * 4, ScaledBasis(2, 1))
    4@0@1 2@1
"""

from . import _ints
from ._ints import DynInt

__all__ = ["ScaledBasis", "E"]


def is_integer_leaf(k):
    return type(k) in (int, bool) or isinstance(k, DynInt)


class ScaledBasis:
    """`value` times the unit vector of the mode `modes` (outermost mode
    first): E([1, 0]) is 1 at mode 0 of mode 1, printed 1@0@1."""

    __slots__ = ("value", "modes")

    def __init__(self, value, modes):
        self.value = value
        self.modes = (modes,) if isinstance(modes, int) else tuple(modes)

    @property
    def mode(self):
        """The mode as the DSL hands it out: a list, outermost first."""
        return list(self.modes)

    def __str__(self):
        value = self.value
        text = str(value) if type(value) is int else value.type_text()
        for m in self.modes[::-1]:
            text += "@%d" % m
        return text

    type_text = __str__

    def __repr__(self):
        return "ScaledBasis(%s, %s)" % (self.value, self.modes)

    def scale(self, k):
        """The basis vector with its value times the integer k."""
        return ScaledBasis(_ints.mul(self.value, k), self.modes)

    def __mul__(self, k):
        # CuTe's e * b and a * e scale the value; the DSL refuses a factor
        # that is not an integer (a float, another basis vector), and takes
        # a bool as its integer (observed).
        if not is_integer_leaf(k):
            raise TypeError("scale must be an integer or a ratio, but got "
                            "%s" % type(k))
        return self.scale(int(k) if type(k) is bool else k)

    __rmul__ = __mul__

    def __eq__(self, other):
        return (isinstance(other, ScaledBasis) and self.modes == other.modes
                and self.value == other.value)

    def __hash__(self):
        return hash((str(self.value), self.modes))

    def is_static(self):
        return not isinstance(self.value, DynInt)


def E(mode):
    """The unit vector of `mode` (an int, or a list or tuple outermost
    first); E([]) is the integer 1."""
    modes = (mode,) if isinstance(mode, int) else tuple(mode)
    return ScaledBasis(1, modes) if modes else 1
