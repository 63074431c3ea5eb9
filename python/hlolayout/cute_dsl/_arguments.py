"""The kinds of argument the CuTe DSL's layout functions take, and the words
it refuses each with: one table, read by `takes`, which every public
function of the package's algebra declares its arguments with.

Learnt from the DSL's refusals (the wheel run on the CPU, each call printed
one at a time) and the argument names of NVIDIA's `cute_dsl_api` pages; the
sizes' positivity is CuTe's (`include/cute/layout.hpp` takes shapes of
positive sizes). A tree kind tests its leaves in order; the DSL's message
names either the first leaf it refuses or the whole argument:

| kind     | leaves taken                            | the DSL's refusal (a ValueError: the twin's Refusal)              |
|----------|-----------------------------------------|--------------------------------------------------------------------|
| Shape    | integers; a static one above 0          | "Expected Shape, which is a positive integer or tuple of Shapes, but got LEAF"; "Expected size in shape to be strictly positive, but got N" |
| IntTuple | integers                                | "Expected IntTuple, whose leaves are integers, but got ARG"          |
| Stride   | integers, ScaledBasis                   | "Expected Stride, whose leaves are integers or ScaledBasis, but got ARG" |
| Coord    | integers, None                          | "Expected Coord, whose leaves are integers or None, but got ARG"     |
| Tile     | integers, Layouts, None                 | "Expected Tile, whose leaves are integers or Layout or None, but got ARG" |

An integer is a Python int (a bool too: the DSL takes True as 1, and the
reader hands it on as 1) or one of the DSL's integers; a list is a leaf, so
never one of these. Operands of the DSL's MLIR operations are refused with
`Operand N of operation "cute.OP" must be a Value (is not a Value)`; the
functions the DSL checks in Python refuse with their own words, given
where they are declared (`Typed`).
"""

import functools

from ._core_calls import Refusal
from ._ints import is_integer  # the DSL's: an int, a bool, a DSL integer
from ._objects import ComposedLayout, Layout, ScaledBasis


def plain(x):
    """x with its bools as the ints they stand for (the DSL's 1 and 0)."""
    if type(x) is bool:
        return int(x)
    if type(x) is tuple:
        return tuple(plain(e) for e in x)
    return x


def _leaves(x):
    if type(x) is tuple:
        for e in x:
            yield from _leaves(e)
    else:
        yield x


class Tree:
    """A tree kind of the table above."""

    def __init__(self, name, leaf, taken, shows="argument", positive=False,
                 error=Refusal, words=None):
        self.name, self.leaf, self.positive = name, leaf, positive
        self.shows, self.error = shows, error
        self.words = words or ("Expected %s, %s, but got %%s" % (name, taken))

    def read(self, x, op, position):
        has_bool = False
        for leaf in _leaves(x):
            if not self.leaf(leaf):
                shown = {"leaf": leaf, "argument": x, "type": type(x)}
                raise self.error(self.words % (_shown(shown[self.shows]),))
            if type(leaf) is bool:
                has_bool = True
            elif self.positive and type(leaf) is int and leaf <= 0:
                raise Refusal("Expected size in shape to be strictly "
                              "positive, but got %d" % leaf)
        return plain(x) if has_bool else x

    def but(self, **changes):
        """This kind with other words or error (the same leaves)."""
        kind = Tree.__new__(Tree)
        kind.__dict__.update(self.__dict__, **changes)
        return kind


def _shown(x):
    """An argument as the DSL's messages show it: Python's str."""
    if type(x) is str:
        return x
    return str(x)


SHAPE = Tree("Shape", is_integer, "which is a positive integer or tuple of "
             "Shapes", shows="leaf", positive=True)
INT_TUPLE = Tree("IntTuple", is_integer, "whose leaves are integers")
STRIDE = Tree("Stride", lambda x: is_integer(x) or isinstance(x, ScaledBasis),
              "whose leaves are integers or ScaledBasis")
COORD = Tree("Coord", lambda x: x is None or is_integer(x),
             "whose leaves are integers or None")
TILE = Tree("Tile", lambda x: x is None or is_integer(x) or
            isinstance(x, Layout), "whose leaves are integers or Layout or "
            "None")


class Operand:
    """An operand of one of the DSL's MLIR operations: a Layout, and a
    ComposedLayout where the operation takes one."""

    def __init__(self, index, composed=True, op=None):
        self.index, self.op = index, op
        self.classes = (Layout, ComposedLayout) if composed else (Layout,)

    def read(self, x, op, position):
        if isinstance(x, self.classes):
            return x
        raise refused_operand(self.index, self.op or op)


def refused_operand(index, op, x=0):
    """The DSL's refusal of operand `index` of its operation `op` (x, the
    argument, only to word a None)."""
    return Refusal('Operand %d of operation "cute.%s" must be a Value (%s)'
                      % (index, op, "contained a None item" if x is None else
                         "is not a Value"))


class LayoutOr:
    """A Layout (or ComposedLayout), else `other`'s kind; with `index`, an
    argument that is neither a tuple nor an integer is the operation's
    operand that is not a Value (crd2idx's layout; complement's cotarget
    takes a Shape's words instead)."""

    def __init__(self, other, index=None):
        self.other, self.index = other, index

    def read(self, x, op, position):
        if isinstance(x, (Layout, ComposedLayout)):
            return x
        if self.index is not None and not (type(x) is tuple or
                                           is_integer(x)):
            raise refused_operand(self.index, op)
        return self.other.read(x, op, position)


class Typed:
    """An argument the DSL checks in Python: one of `classes`, else
    `error(words % type)` (`%(name)s` in words is the parameter's name)."""

    def __init__(self, classes, words, error=TypeError, convert=None):
        self.classes, self.words, self.error = classes, words, error
        self.convert = convert

    def read(self, x, op, position):
        if isinstance(x, self.classes):
            return self.convert(x) if self.convert else x
        raise self.error(self.words % {"name": position, "type": type(x),
                                       "arg": _shown(x)})


class Tiler:
    """The right operand of composition, the divides and the products: a
    Layout, an integer or a tuple of a Tile's leaves (a tuple of anything
    else refused with the Tile's words); `more` the other objects the op
    takes, for the op to answer (composition's ComposedLayout, Swizzle).
    What each op takes of the rest, observed one call at a time:

    | op                                    | an integer   | a tuple | None        |
    |---------------------------------------|--------------|---------|-------------|
    | composition, logical_divide           | static only  | yes     | refused     |
    | zipped_, tiled_, flat_divide          | refused      | yes     | refused     |
    | logical_product                       | yes, dynamic | yes     | kept        |
    | zipped_, tiled_, flat_, blocked_, raked_product | refused | refused | refused |

    (`ints`: "any", "static" or None; `tuples`; `none`: "keeps" where the
    op keeps the block under a None (logical_product), else refused.) A
    refused tiler is the operand that is not a Value ("contained a None
    item" for a None alone): e.g. logical_divide by Int64(4) or Int32(4),
    zipped_divide by 4, zipped_product by (2, 2)."""

    def __init__(self, index, more=(), none=None, ints="any", tuples=True):
        self.index, self.more = index, (Layout,) + tuple(more)
        self.none, self.ints, self.tuples = none, ints, tuples

    def read(self, x, op, position):
        if x is None and self.none == "keeps":
            return x
        if type(x) is tuple:
            if not self.tuples:
                raise refused_operand(self.index, op)
            return TILE.read(x, op, position)
        if isinstance(x, self.more):
            return x
        if is_integer(x) and (self.ints == "any" or self.ints == "static"
                              and type(x) in (int, bool)):
            return plain(x)
        raise refused_operand(self.index, op, x)


class DivisionByZero(Refusal, ZeroDivisionError):
    """CuTe's algorithm divides by zero on these operands: the DSL raises
    ZeroDivisionError or aborts its process (SIGFPE)."""


def takes(**kinds):
    """The decorated function's arguments read by their kinds (by parameter
    name, in the order given), each replaced by what the kind hands back; a ZeroDivisionError of the algebra becomes the twin's
    DivisionByZero (the DSL dies of SIGFPE or raises ZeroDivisionError
    there)."""
    def decorate(fn):
        code = fn.__code__
        names = code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]
        # In the order the kinds are given: the order the DSL checks in.
        read = [(names.index(name), name, kind)
                for name, kind in kinds.items()]
        npos = code.co_argcount

        @functools.wraps(fn)
        def run(*args, **kwargs):
            if len(args) > npos:
                return fn(*args, **kwargs)  # Python's own TypeError
            args = list(args)
            for i, name, kind in read:
                if i < len(args):
                    args[i] = kind.read(args[i], fn.__name__, name)
                elif name in kwargs:
                    kwargs[name] = kind.read(kwargs[name], fn.__name__, name)
            try:
                return fn(*args, **kwargs)
            except ZeroDivisionError as ex:
                if isinstance(ex, Refusal):
                    raise
                raise DivisionByZero(
                    "%s: CuTe's algorithm divides by zero on these operands "
                    "(a zero size, or a layout that is not injective or has "
                    "a negative stride); the DSL raises ZeroDivisionError or "
                    "its process aborts (SIGFPE)" % fn.__name__) from None
        return run
    return decorate


def read_modes(mode, op, out_of_range):
    """A `mode` argument: an integer or a list (tuple) of integers, bools as
    ints. `out_of_range(list)` words the refusal of a bad element."""
    if isinstance(mode, int):
        return [int(mode)]
    if not isinstance(mode, (list, tuple)):
        raise TypeError("%s: expects an integer or a list of integers as "
                        "mode, got %r" % (op, mode))
    for m in mode:
        if not isinstance(m, int):
            raise out_of_range(list(mode))
    return [int(m) for m in mode]
