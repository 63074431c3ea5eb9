"""The twin's layout values, printed as the CuTe DSL prints them.

    >>> L = Layout((4, (2, 3)), (1, (4, 8)))
    >>> print(L, L[1])
    (4,(2,3)):(1,(4,8)) (2,3):(4,8)
    >>> print(ComposedLayout(Swizzle(3, 4, 3), 0, Layout((8, 64), (64, 1))))
    S<3,4,3> o 0 o (8,64):(64,1)
    >>> print(E([1, 0]) * 4)
    4@0@1

Each value is CuTe's C++ one (CUTLASS, include/cute/):

- ScaledBasis and E (numeric/arithmetic_tuple.hpp): a value times the unit
  vector of a mode, E<N...> the one of value 1; multiplying it by an
  integer scales the value; printed value, then `@N` for each mode from the
  innermost out. An identity layout's strides.
- Layout (layout.hpp): a shape and a stride, IntTuples of the same profile
  (_tuples: Python ints static, DynInt the DSL's `?`, ScaledBasis for an
  identity layout's strides); calling it with a coordinate is crd2idx, and
  `layout[i]` its mode i (CuTe's get<i>/layout<i>).
- Swizzle (swizzle.hpp, as this project's cute/swizzle.h): Swizzle<B,M,S>,
  offset x to x ^ ((x & yyy_msk) >> S).
- ComposedLayout (layout_composed.hpp): inner o offset o outer, the
  function c -> inner(offset + outer(c)); its shape and modes are the outer
  layout's.

Where the DSL does otherwise than CuTe's C++ or Python's defaults, its
behaviour is the rule, each observed on the DSL (the wheel run on the CPU):
a layout has no len() and cannot be iterated, takes one coordinate, and
refuses a negative mode index unless it is integral; a swizzle is not
callable; a composed layout takes a mode index as its outer layout does.

A layout the C++ core made keeps the core's layout (hlolayout.cute's
CuteLayout, `_c`) and reads its shape and stride from it only when asked;
a layout whose integers are all static gets one when the core is first
asked about it (_fast).
"""

from . import _coords, _core_calls, _ints, _pictures, _tuples
from ._basis import E, ScaledBasis, is_integer_leaf
from ._core_calls import Refusal
from ._ints import DynInt

__all__ = ["Layout", "Swizzle", "ComposedLayout", "ScaledBasis", "E"]


# ---------------------------------------------------------------------------
# Printing: a static integer bare, a `?` as the DSL writes it (its own
# type_text: `?`, `?{div=8}`, `?{i64}`), a scaled basis `v@m...`, a tuple
# in parentheses without spaces, None (CuTe's `_`) as `_`.

def tuple_text(t):
    """The DSL's print of an IntTuple."""
    kind = type(t)
    if kind is int:
        return str(t)
    if kind is tuple:
        return "(%s)" % ",".join([tuple_text(e) for e in t])
    if t is None:
        return "_"
    return t.type_text()


def _pretty(x):
    """A layout's part (inner function, offset, outer layout) as printed
    inside a composed layout."""
    return tuple_text(x) if type(x) is tuple else str(x)


# ---------------------------------------------------------------------------
# Mode indices, as the DSL takes them (observed): an integer (a bool, a
# constant `?`); modes 0 .. rank-1 of a tuple shape; any index up to 0 of
# an integral layout (every such index is the layout itself).

def _mode_index(i, rank, integral, whole):
    """i as a mode index of a layout of that rank, or the DSL's refusal;
    None for an integral layout's own mode. `whole` names the layout."""
    if not is_integer_leaf(i):
        raise TypeError("a layout's mode index is an integer, got %s" %
                        type(i).__name__)
    i = int(i) if type(i) in (int, bool) else _ints.value(i)
    if i >= rank:
        raise ValueError("elements in mode must be less than rank(%s), got "
                         "[%d]" % (whole, i))
    if integral:
        return None
    if i < 0:
        raise ValueError("invalid mode specified for get!")
    return i


# ---------------------------------------------------------------------------
# Layout

class Layout:
    """shape:stride, printed as the DSL prints it."""

    # `sh` and `st` hold the shape and stride as the algebra reads them
    # (every integer as it is). A layout the core made has `_c` only until
    # they are read (__getattr__ fills them).
    __slots__ = ("sh", "st", "_c")

    def __init__(self, shape, stride, _c=None):
        self.sh = shape
        self.st = stride
        self._c = _c

    @classmethod
    def _from_core(cls, c):
        layout = cls.__new__(cls)
        layout._c = c
        return layout

    def __getattr__(self, name):
        # Called only for a slot not yet set: sh or st of the core's layout.
        if name == "sh":
            self.sh = self._c.shape
            return self.sh
        if name == "st":
            self.st = self._c.stride
            return self.st
        raise AttributeError(name)

    def _slots_read(self):
        try:
            _SHAPE_SLOT.__get__(self, Layout)
        except AttributeError:
            return False
        return True

    @property
    def shape(self):
        """The shape as `layout.shape` hands it out: a 64-bit `?` comes back
        as a plain 32-bit `?` (observed; the strides keep theirs)."""
        return _narrowed(self.sh)

    @property
    def stride(self):
        """The stride as `layout.stride` hands it out (traced values)."""
        return _ints.traced(self.st)

    @property
    def max_alignment(self):
        """The largest N for which each run of N indices is N consecutive
        offsets from a multiple of N, by what is static (the C++ core's
        DslMaxAlignment: a `?` size counts as its divisibility, a `?`
        stride as 0; observed: (4,?{div=8}):(1,4) is 32,
        (?{div=8},4):(1,?{div=8}) 8, (4,2,3):(1,8,2) 2)."""
        if _has_basis(self.st):
            raise Refusal("max_alignment of a layout with basis strides is "
                          "not modelled (the C++ core holds integer strides "
                          "only)")
        return _core_calls.max_alignment(self.sh, self.st)

    def __str__(self):
        if self._c is not None and not self._slots_read():
            # The core's print (cute/print.h ToString), a static integer's
            # `_N` bare as the DSL prints it; route 2 makes static layouts
            # only. Faster than the core's DslText through the generic
            # conversion (cute_dsl_text), 5-9 us against 16-17 at load 15.
            return self._c.cute.replace("_", "")
        return "%s:%s" % (tuple_text(self.sh), tuple_text(self.st))

    __repr__ = __str__

    def __eq__(self, other):
        return isinstance(other, Layout) and str(self) == str(other)

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash(str(self))

    def is_static(self):
        if self._c is not None:
            return True
        return _ints.is_static(self.sh) and _static_strides(self.st)

    def __call__(self, coord):
        return _coords.crd2idx(coord, self)

    def __getitem__(self, i):
        shape = self.sh
        if type(shape) is tuple and type(i) is int and 0 <= i < len(shape):
            return Layout(shape[i], self.st[i])
        integral = type(shape) is not tuple
        k = _mode_index(i, 1 if integral else len(shape), integral, self)
        if k is None:
            return self
        return Layout(shape[k], self.st[k])

    # No __len__ and no __iter__, as in the DSL: len() is a TypeError, and
    # iterating ends in the ValueError of the index past the last mode.

    def _cpp(self):
        """The layout in C++'s text, as the pictures read it; refused
        (ValueError) for an identity layout, whose strides are basis
        elements: it has coordinates, not indices."""
        if _has_basis(self.st):
            raise ValueError("%s maps to coordinates (its strides are basis "
                             "elements), not to indices: nothing to draw" %
                             self)
        return "%s:%s" % (_cpp_ints(self.sh), _cpp_ints(self.st))

    def _repr_svg_(self):
        return _pictures.svg(self)

    def _repr_html_(self):
        return _pictures.html(self)


_SHAPE_SLOT = Layout.sh


def _has_basis(stride):
    return any(isinstance(d, ScaledBasis) for d in _tuples.leaves(stride))


def _cpp_ints(t):
    """An IntTuple in C++'s text, every integer static: `(_4,(_2,_8))` (a
    `?` as the value the twin holds)."""
    if type(t) is tuple:
        return "(%s)" % ",".join([_cpp_ints(e) for e in t])
    return "_%d" % _ints.value(t)


def _narrowed(t):
    if type(t) is tuple:
        return tuple([_narrowed(e) for e in t])
    if isinstance(t, DynInt) and t.width == 64:
        return _ints.PlainDyn(t.value, 1, 32)
    return _ints.traced(t)


def _static_strides(t):
    if type(t) is tuple:
        for e in t:
            if not _static_strides(e):
                return False
        return True
    if isinstance(t, ScaledBasis):
        return t.is_static()
    return not isinstance(t, DynInt)


# ---------------------------------------------------------------------------
# Swizzle

class Swizzle:
    """CuTe's Swizzle<B,M,S>, printed `S<B,M,S>`: of an offset, the B bits
    from bit M + max(0,S) (yyy_msk) XORed into the B bits from bit
    M - min(0,S) (zzz_msk). Not callable, as in the DSL: the twin applies
    it with `apply`."""

    __slots__ = ("num_bits", "num_base", "num_shift")

    def __init__(self, num_bits, num_base, num_shift):
        for value, name in ((num_bits, "bits"), (num_base, "base"),
                            (num_shift, "shift")):
            if type(value) is not int:
                raise TypeError("make_swizzle expects static ints, got %r "
                                "for %s" % (value, name))
        # CuTe's static_asserts (swizzle.hpp).
        if num_bits < 0:
            raise ValueError("expects BBits >= 0, got %d" % num_bits)
        if num_base < 0:
            raise ValueError("expects MBase >= 0, got %d" % num_base)
        if abs(num_shift) < num_bits:
            raise ValueError("expects abs(SShift) >= BBits, got S=%d, B=%d"
                             % (num_shift, num_bits))
        self.num_bits = num_bits
        self.num_base = num_base
        self.num_shift = num_shift

    def _field(self, lowest_bit):
        return ((1 << self.num_bits) - 1) << lowest_bit

    @property
    def yyy_msk(self):
        """The bits read."""
        return self._field(self.num_base + max(0, self.num_shift))

    @property
    def zzz_msk(self):
        """The bits written."""
        return self._field(self.num_base - min(0, self.num_shift))

    def apply(self, offset):
        """The swizzled offset (an integer or a `?`'s value)."""
        x = _ints.value(offset)
        read = x & self.yyy_msk
        s = self.num_shift
        return x ^ (read >> s if s >= 0 else read << -s)

    def _key(self):
        return (self.num_bits, self.num_base, self.num_shift)

    def __str__(self):
        return "S<%d,%d,%d>" % self._key()

    __repr__ = __str__

    def __eq__(self, other):
        return isinstance(other, Swizzle) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def is_static(self):
        return True

    def _cpp(self):
        """The swizzle in C++'s text, drawn over its chunks: 2^B rows of
        2^|S| chunks of 2^M elements, a cell at its chunk's first element
        (row r at r 2^(M+|S|), chunk c at c 2^M), so each cell shows where
        the swizzle sends that chunk; one cell for a swizzle of no bits
        (the identity)."""
        if self.num_bits == 0:
            chunks = Layout(1, 0)
        else:
            chunk, per_row = 1 << self.num_base, 1 << abs(self.num_shift)
            chunks = Layout((1 << self.num_bits, per_row),
                            (chunk * per_row, chunk))
        return ComposedLayout(self, 0, chunks)._cpp()

    def _repr_svg_(self):
        return _pictures.svg(self)

    def _repr_html_(self):
        return _pictures.html(self)


# ---------------------------------------------------------------------------
# ComposedLayout

class ComposedLayout:
    """inner o offset o outer: coordinate c of `outer` goes to
    inner(offset + outer(c)); `inner` a Swizzle or a Layout (the DSL's
    make_composed_layout(inner, offset, outer))."""

    __slots__ = ("inner", "offset", "outer")

    def __init__(self, inner, offset, outer):
        self.inner = inner
        self.offset = offset
        self.outer = outer

    @property
    def shape(self):
        return self.outer.shape

    @property
    def sh(self):
        return self.outer.sh

    def __str__(self):
        return " o ".join([_pretty(self.inner), _pretty(self.offset),
                           _pretty(self.outer)])

    __repr__ = __str__

    def __eq__(self, other):
        return isinstance(other, ComposedLayout) and str(self) == str(other)

    def __hash__(self):
        return hash(str(self))

    def is_static(self):
        inner = self.inner
        return (_ints.is_static(self.offset) and self.outer.is_static() and
                (not isinstance(inner, Layout) or inner.is_static()))

    def __call__(self, coord):
        """inner(offset + outer(coord)), with integer values."""
        at = _ints.add(self.offset, self.outer(coord))
        f = self.inner
        if isinstance(f, Swizzle):
            return f.apply(at)
        if isinstance(f, (Layout, ComposedLayout)):
            return f(at)
        raise Refusal("cannot evaluate a composed layout whose inner "
                      "function is %s" % type(f).__name__)

    def __getitem__(self, i):
        # Mode i of the outer layout under the same inner function and
        # offset (observed: mode 1 of S<3,4,3> o 5 o (8,(4,16)):(64,(1,4))
        # is S<3,4,3> o 5 o (4,16):(1,4)), with the outer layout's refusals
        # naming the composed layout.
        shape = self.outer.sh
        integral = type(shape) is not tuple
        k = _mode_index(i, 1 if integral else len(shape), integral, self)
        if k is None:
            return self
        return ComposedLayout(self.inner, self.offset,
                              Layout(shape[k], self.outer.st[k]))

    def _cpp(self):
        """inner o _offset o outer in C++'s text, as the pictures read it
        (a swizzle inner `Sw<B,M,S>`)."""
        f = self.inner
        if isinstance(f, Swizzle):
            inner = "Sw<%d,%d,%d>" % f._key()
        elif isinstance(f, Layout):
            inner = f._cpp()
        else:
            raise TypeError("nothing to draw for an inner function %s" %
                            type(f).__name__)
        return "%s o _%d o %s" % (inner, _ints.value(self.offset),
                                  self.outer._cpp())

    def _repr_svg_(self):
        return _pictures.svg(self)

    def _repr_html_(self):
        return _pictures.html(self)
