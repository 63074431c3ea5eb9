"""The DSL twin's values: Layout, Swizzle, ComposedLayout and ScaledBasis,
printing exactly as the CuTe DSL prints them.

    >>> L = Layout((4, (2, 3)), (1, (4, 8)))
    >>> print(L)
    (4,(2,3)):(1,(4,8))
    >>> print(ComposedLayout(Swizzle(3, 4, 3), 0, Layout((8, 64), (64, 1))))
    S<3,4,3> o 0 o (8,64):(64,1)

A layout's shape and stride are IntTuples of _tuples (Python ints static,
DynInt dynamic, ScaledBasis strides for coordinate layouts). A static
layout also carries, lazily, the C++ core's layout (hlolayout.cute's
CuteLayout), which computes the algebra where every integer is static.
"""

from . import _ints, _tuples
from ._ints import DynInt

__all__ = ["Layout", "Swizzle", "ComposedLayout", "ScaledBasis", "E"]


class ScaledBasis:
    """CuTe's ScaledBasis: `value` times the unit vector of mode `modes`
    (outermost first). The DSL prints `1@0`, and a nested mode innermost
    first: E((1, 0)) prints `1@0@1`."""

    __slots__ = ("value", "modes")

    def __init__(self, value, modes):
        if isinstance(modes, int):
            modes = (modes,)
        self.value = value
        self.modes = tuple(modes)

    def __str__(self):
        return "@".join([_leaf_text(self.value)] +
                        [str(m) for m in reversed(self.modes)])

    type_text = __str__

    def __repr__(self):
        return "ScaledBasis(%s, %s)" % (self.value, self.modes)

    def __eq__(self, other):
        return (isinstance(other, ScaledBasis) and self.modes == other.modes
                and _same(self.value, other.value))

    def __hash__(self):
        return hash((str(self.value), self.modes))

    def scale(self, k):
        return ScaledBasis(_ints.mul(self.value, k), self.modes)

    def is_static(self):
        return not isinstance(self.value, DynInt)


def _same(a, b):
    if isinstance(a, DynInt) or isinstance(b, DynInt):
        return a == b
    return a == b


def E(mode):
    """The unit basis vector of `mode` (an int or a list, outermost first)."""
    if isinstance(mode, int):
        return ScaledBasis(1, (mode,))
    mode = tuple(mode)
    if not mode:
        return 1
    return ScaledBasis(1, mode)


def _leaf_text(x):
    if type(x) is int:
        return str(x)
    if x is None:
        return "_"
    return x.type_text()


def tuple_text(t):
    """_tuples.text(t, _leaf_text), in one function (every printed layout
    goes through it)."""
    if type(t) is tuple:
        return "(" + ",".join([tuple_text(e) for e in t]) + ")"
    if type(t) is int:
        return str(t)
    if t is None:
        return "_"
    return t.type_text()


class Layout:
    """A CuTe layout shape:stride, printed as the DSL prints it."""

    # `sh` and `st` are the shape and stride as the algebra sees them (every
    # integer as it is). A layout the C++ core made fills them from its C++
    # layout when first read (__getattr__); the algebra reads them as plain
    # slots.
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
        # Only for a slot not set yet: `sh` or `st` of a C++ layout.
        if name == "sh":
            value = self.sh = self._c.shape
            return value
        if name == "st":
            value = self.st = self._c.stride
            return value
        raise AttributeError(name)

    @property
    def shape(self):
        """The shape as the DSL hands it out (layout.shape): a dynamic Int64
        taken out of a layout's shape comes back as an Int32 without
        divisibility, as in the DSL (its strides keep theirs)."""
        return _unpacked(self.sh)

    @property
    def stride(self):
        """The stride as the DSL hands it out (every integer as it is, a
        traced value)."""
        return _ints.traced(self.st)

    @property
    def max_alignment(self):
        from . import _algebra
        return _algebra.max_alignment(self)

    def __str__(self):
        if self._c is not None:
            try:
                _SH.__get__(self, Layout)
            except AttributeError:  # sh not read yet: the C++ text
                return self._c.cute.replace("_", "")
        return tuple_text(self.sh) + ":" + tuple_text(self.st)

    __repr__ = __str__

    def __eq__(self, other):
        return (isinstance(other, Layout) and str(self) == str(other))

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash(str(self))

    def is_static(self):
        if self._c is not None:
            return True
        return _ints.is_static(self.sh) and _stride_static(self.st)

    def __call__(self, *coord):
        from . import _algebra
        if len(coord) == 1:
            coord = coord[0]
        return _algebra.crd2idx(coord, self)

    def __getitem__(self, i):
        shape, stride = self.sh, self.st
        if type(shape) is not tuple:
            if i in (0, -1):
                return self
            raise IndexError("layout mode %d out of range" % i)
        return Layout(shape[i], stride[i])

    def __len__(self):
        return _tuples.rank(self.sh)

    def __iter__(self):
        for i in range(len(self)):
            yield self[i]

    # Jupyter and terminal pictures (_pictures).
    def _repr_svg_(self):
        from . import _pictures
        return _pictures.svg(self)

    def _repr_html_(self):
        from . import _pictures
        return _pictures.html(self)


_SH = Layout.sh  # the slot's descriptor (reads without __getattr__)


def _unpacked(t):
    if type(t) is tuple:
        return tuple(_unpacked(e) for e in t)
    if isinstance(t, DynInt) and t.width == 64:
        return _ints.PlainDyn(t.value, 1, 32)
    return _ints.traced(t)


def _stride_static(t):
    if type(t) is tuple:
        return all(_stride_static(e) for e in t)
    if isinstance(t, ScaledBasis):
        return t.is_static()
    return not isinstance(t, DynInt)


class Swizzle:
    """CuTe's Swizzle<B,M,S>, printed `S<B,M,S>`:
    x ^ ((x & yyy_msk) >> S) with yyy the B bits at M + max(0,S)."""

    __slots__ = ("num_bits", "num_base", "num_shift")

    def __init__(self, num_bits, num_base, num_shift):
        for v, n in ((num_bits, "bits"), (num_base, "base"),
                     (num_shift, "shift")):
            if isinstance(v, bool) or not isinstance(v, int):
                raise TypeError("make_swizzle expects static ints, got %r "
                                "for %s" % (v, n))
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

    @property
    def yyy_msk(self):
        return ((1 << self.num_bits) - 1) << (self.num_base +
                                               max(0, self.num_shift))

    @property
    def zzz_msk(self):
        return ((1 << self.num_bits) - 1) << (self.num_base -
                                               min(0, self.num_shift))

    def __call__(self, offset):
        x = _ints.value(offset)
        s = self.num_shift
        y = x & self.yyy_msk
        return x ^ (y >> s if s >= 0 else y << -s)

    def __str__(self):
        return "S<%d,%d,%d>" % (self.num_bits, self.num_base, self.num_shift)

    __repr__ = __str__

    def __eq__(self, other):
        return (isinstance(other, Swizzle) and
                (self.num_bits, self.num_base, self.num_shift) ==
                (other.num_bits, other.num_base, other.num_shift))

    def __hash__(self):
        return hash((self.num_bits, self.num_base, self.num_shift))

    def is_static(self):
        return True

    def _repr_svg_(self):
        from . import _pictures
        return _pictures.svg(self)

    def _repr_html_(self):
        from . import _pictures
        return _pictures.html(self)


class ComposedLayout:
    """inner o offset o outer: coordinate c of `outer` maps to
    inner(offset + outer(c)). The DSL's make_composed_layout(inner, offset,
    outer); `inner` is a Swizzle or a Layout."""

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

    @property
    def is_normal(self):
        return isinstance(self.inner, Layout)

    def __str__(self):
        return "%s o %s o %s" % (_pretty(self.inner), _pretty(self.offset),
                                 _pretty(self.outer))

    __repr__ = __str__

    def __eq__(self, other):
        return isinstance(other, ComposedLayout) and str(self) == str(other)

    def __hash__(self):
        return hash(str(self))

    def is_static(self):
        return (_ints.is_static(self.offset) and
                (not isinstance(self.inner, Layout) or
                 self.inner.is_static()) and self.outer.is_static())

    def __call__(self, *coord):
        from . import _algebra
        if len(coord) == 1:
            coord = coord[0]
        return _algebra.crd2idx(coord, self)

    def _repr_svg_(self):
        from . import _pictures
        return _pictures.svg(self)

    def _repr_html_(self):
        from . import _pictures
        return _pictures.html(self)


def _pretty(x):
    if type(x) is tuple:
        return tuple_text(x)
    return str(x)
