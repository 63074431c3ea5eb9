"""The CuTe DSL's integers: static (a Python int) or dynamic (an Int32 or
Int64 value known only at run time, printed `?`).

A dynamic integer keeps the value it was made with, so that the twin can
still evaluate a layout, but every decision of the algebra looks only at
what the DSL knows while it traces: that the integer is dynamic, its width,
and its divisibility (the largest number it is known to be a multiple of,
`cute.assume(x, divby=16)`), printed as the DSL prints it:

    >>> from hlolayout import cute_dsl as cute
    >>> n = cute.assume(cute.Int32(64), divby=16)
    >>> print(n, n * 4, n + 4, n // 4, cute.Int32(7))
    ?{div=16} ?{div=64} ?{div=4} ?{div=4} ?
    >>> n.value
    64

The arithmetic of this module is the DSL's (measured against it, see
docs/cute-dsl.md "Dynamic integers"): a result is static when both operands
are, with CuTe's shortcut (a static 0 times anything is a static 0), and
its divisibility is derived from the operands': products multiply, sums
take the gcd, a division by a static divisor of the divisibility divides it,
min and max take the gcd, anything else is 1.
"""

import math
import operator

__all__ = ["Numeric", "Integer", "Int8", "Int16", "Int32", "Int64",
           "Uint8", "Uint16", "Uint32", "Uint64", "Boolean", "DynInt",
           "assume", "is_static", "is_dynamic", "is_integer"]


class _ValueType(type):
    """The class of a dynamic integer prints as the DSL prints the type of
    a traced value, `Int32` (`print(type(x))` inside a @cute.jit function);
    a class without a type name prints as Python prints classes."""

    def __str__(cls):
        return cls.__dict__.get("type_name") or type.__repr__(cls)


class DynInt(metaclass=_ValueType):
    """A dynamic integer: its value, divisibility and width (bits).

    `div` is the divisibility the DSL tracks: 1 when nothing is known, 0
    when the value is known to be 0 without being static. The class prints
    as the DSL prints the type of a traced Int32 value, `Int32`; an
    instance of another type (Int64, Uint32, ...) becomes a subclass named
    for it, so that `type(x)` prints as in the DSL.
    """

    type_name = "Int32"

    __slots__ = ("value", "div", "width", "known", "tname")

    def __init__(self, value, div=1, width=32, known=False, tname=None):
        self.value = int(value)
        self.div = int(div)
        self.width = int(width)
        # A constant the user made (cute.Int32(5), or Python arithmetic of
        # such constants), whose value the DSL still knows: its repr shows
        # the value (Int32(5)); any other is a traced value (Int32(?)).
        self.known = bool(known)
        self.tname = tname
        if (self.width != 32 or (tname and tname != "Int32")) and type(
                self) is DynInt:
            key = tname or self.width
            self.__class__ = _VALUE_CLASSES.get(key) or _value_class(key)

    # Printing: as the DSL's IntValue prints itself (str) and as a leaf of a
    # layout or tuple type (type_text).
    def __str__(self):
        if self.div == 1:
            return "?"
        if self.width == 32:
            return "?{div=%d}" % self.div
        return "?{i%d div=%d}" % (self.width, self.div)

    def type_text(self):
        if self.div == 1:
            return "?" if self.width == 32 else "?{i%d}" % self.width
        if self.width == 32:
            return "?{div=%d}" % self.div
        return "?{i%d div=%d}" % (self.width, self.div)

    def __repr__(self):
        """As the DSL's repr of a value: its type and value for a constant
        (Int32(5)), `?` for a traced one (Int32(?)); what a Python tuple
        of them prints, `(Int32(?), 4)`."""
        name = self.tname or "Int%d" % max(self.width, 32)
        return "%s(%s)" % (name, self.value if self.known else "?")

    def __int__(self):
        return self.value

    __index__ = __int__

    def __bool__(self):
        raise TypeError("a dynamic integer has no truth value while the DSL "
                        "traces; use .value for the value it was made with")

    def __hash__(self):
        return hash((self.value, self.div, self.width))

    def __eq__(self, other):
        return (isinstance(other, DynInt) and self.value == other.value and
                self.div == other.div and self.width == other.width)

    def __ne__(self, other):
        return not self.__eq__(other)

    def to(self, dtype):
        """The DSL's conversion to another integer type: the value wrapped
        to its width (Int32(300).to(Int8) is Int8(44)), a constant when
        self is one. To a float type: a float value (_floats)."""
        if getattr(dtype, "is_float", False):
            return _floats.make(dtype.name, self)
        if not (isinstance(dtype, type) and issubclass(dtype, Integer)):
            raise TypeError("to expects a numeric type, got %r" % (dtype,))
        bits = dtype.width
        v = self.value & ((1 << bits) - 1)
        if dtype.signed and bits > 1 and v >= 1 << (bits - 1):
            v -= 1 << bits
        return DynInt(v, 1, bits, self.known, dtype.name)

    def get_divisibility(self):
        return self.div

    @property
    def divisibility(self):
        return self.div

    # Python arithmetic, with the DSL's divisibility (IntValue: x * 0 is
    # dynamic, known to be 0); with a float, or divided, a float (_floats).
    def __mul__(self, other):
        if isinstance(other, _REAL):
            return _floats.arith("mul", self, other)
        return _constant(pymul(self, _operand(other)), self, other)

    def __rmul__(self, other):
        if isinstance(other, _REAL):
            return _floats.arith("mul", other, self)
        return _constant(pymul(_operand(other), self), self, other)

    def __add__(self, other):
        if isinstance(other, _REAL):
            return _floats.arith("add", self, other)
        return _constant(add(self, _operand(other)), self, other)

    def __radd__(self, other):
        if isinstance(other, _REAL):
            return _floats.arith("add", other, self)
        return _constant(add(_operand(other), self), self, other)

    def __sub__(self, other):
        if isinstance(other, _REAL):
            return _floats.arith("sub", self, other)
        return _constant(sub(self, _operand(other)), self, other)

    def __rsub__(self, other):
        if isinstance(other, _REAL):
            return _floats.arith("sub", other, self)
        return _constant(sub(_operand(other), self), self, other)

    def __truediv__(self, other):
        return _floats.arith("truediv", self, other)

    def __rtruediv__(self, other):
        return _floats.arith("truediv", other, self)

    def __lt__(self, other):
        return _floats.compare("lt", self, other)

    def __le__(self, other):
        return _floats.compare("le", self, other)

    def __gt__(self, other):
        return _floats.compare("gt", self, other)

    def __ge__(self, other):
        return _floats.compare("ge", self, other)

    def __and__(self, other):
        return _bitwise(operator.and_, self, other)

    __rand__ = __and__

    def __or__(self, other):
        return _bitwise(operator.or_, self, other)

    __ror__ = __or__

    def __xor__(self, other):
        return _bitwise(operator.xor, self, other)

    __rxor__ = __xor__

    def __invert__(self):
        """~x: a traced value even for a constant, as in the DSL."""
        return DynInt(~self.value, 1, self.width)

    def __floordiv__(self, other):
        return _constant(floordiv(self, _operand(other)), self, other)

    def __rfloordiv__(self, other):
        return _constant(floordiv(_operand(other), self), self, other)

    def __mod__(self, other):
        return _constant(mod(self, _operand(other)), self, other)

    def __neg__(self):
        return _constant(neg(self), self, 0)


_VALUE_CLASSES = {}


def _value_class(key):
    """The subclass of DynInt whose instances are dynamic values of a type:
    `key` its name ("Uint32") or, for IntN, its width."""
    name = key if isinstance(key, str) else "Int%d" % key
    cls = _VALUE_CLASSES.get(name)
    if cls is None:
        cls = _ValueType(name, (DynInt,), {"__slots__": (),
                                           "type_name": name})
        _VALUE_CLASSES[name] = cls
    _VALUE_CLASSES[key] = cls
    return cls


# The float hook, set by _floats: an integer with one of these, or divided,
# gives a float.
_REAL = (float,)
_floats = None


def _bitwise(op, a, b):
    """a & b, a | b, a ^ b of integers: a constant when both are."""
    b = _operand(b)
    known = a.known and (type(b) is int or b.known)
    v = op(a.value, value(b))
    return DynInt(v, 1, a.width, known, a.tname if known else None)


def _constant(result, a, b):
    """Python arithmetic of constants is a constant (the DSL folds it: the
    type widens to Int32 or Int64); anything with a traced value is
    traced."""
    if not isinstance(result, DynInt):
        return result
    operands = [x for x in (a, b) if isinstance(x, DynInt)]
    if not all(x.known for x in operands):
        if result.known or result is a or result is b:
            return traced(result)
        return result
    out = DynInt(result.value, result.div, result.width, True,
                 "Int64" if result.width == 64 else "Int32")
    return out


def traced(x):
    """x as a traced value (what an op of the DSL hands back): a dynamic
    integer that is no constant, for every leaf of a tuple."""
    if type(x) is tuple:
        return tuple(traced(e) for e in x)
    if isinstance(x, DynInt) and (x.known or x.tname):
        out = DynInt.__new__(type(x) if type(x) is PlainDyn else DynInt)
        DynInt.__init__(out, x.value, x.div, x.width)
        return out
    return x


class PlainDyn(DynInt):
    """A dynamic integer the DSL no longer tracks divisibility for: what
    `layout.shape` gives for a dynamic Int64 (an Int32 value). Arithmetic
    with it gives plain dynamic integers (divisibility 1)."""

    __slots__ = ()
    type_name = "Int32"


def _operand(x):
    if isinstance(x, bool):
        return int(x)
    if isinstance(x, (int, DynInt)):
        return x
    raise TypeError("expected an integer, got %s" % type(x).__name__)


class Numeric:
    """A DSL numeric type used as a data type (`cute.Float16`) or, for the
    integer types, called to make a dynamic integer (`cute.Int32(5)`)."""

    width = 0
    name = ""
    mlir = ""
    signed = True
    is_float = False
    is_integer = False

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)

    def __str__(self):
        return self.name


class _NumericMeta(type):
    def __str__(cls):
        return cls.name

    def __repr__(cls):
        return "<class 'cutlass.%s'>" % cls.name

    @property
    def mlir_type(cls):
        return cls.mlir


def _numeric(name, width, mlir, base, **fields):
    ns = dict(name=name, width=width, mlir=mlir, **fields)
    return _NumericMeta(name, (base,), ns)


class Integer(Numeric, metaclass=_NumericMeta):
    """A DSL integer type: `Int32(5)` is a dynamic Int32 of value 5."""

    is_integer = True

    def __new__(cls, value=0):
        if cls.width not in (32, 64):
            return _SmallInt(cls, value)
        if isinstance(value, DynInt):
            return DynInt(value.value, value.div, cls.width, value.known,
                          cls.name)
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError("%s expects an int, got %s" %
                            (cls.name, type(value).__name__))
        _check_range(cls, value)
        return DynInt(value, 1, cls.width, True, cls.name)


def _check_range(cls, value):
    lo = -(1 << (cls.width - 1)) if cls.signed else 0
    hi = (1 << (cls.width - 1)) - 1 if cls.signed else (1 << cls.width) - 1
    if not lo <= value <= hi:
        raise ValueError("%d does not fit in %s" % (value, cls.name))


class _SmallInt(DynInt):
    """A dynamic integer narrower than 32 bits: the DSL prints it, but its
    layouts cannot be built (CuTe's integers are 32 or 64 bits)."""

    __slots__ = ()

    def __init__(self, cls, value):
        _check_range(cls, int(value))
        DynInt.__init__(self, int(value), 1, cls.width, True, cls.name)


Int8 = _numeric("Int8", 8, "i8", Integer)
Int16 = _numeric("Int16", 16, "i16", Integer)
Int32 = _numeric("Int32", 32, "i32", Integer)
Int64 = _numeric("Int64", 64, "i64", Integer)
Uint8 = _numeric("Uint8", 8, "i8", Integer, signed=False)
Uint16 = _numeric("Uint16", 16, "i16", Integer, signed=False)
Uint32 = _numeric("Uint32", 32, "i32", Integer, signed=False)
Uint64 = _numeric("Uint64", 64, "i64", Integer, signed=False)
Boolean = _numeric("Boolean", 1, "i1", Integer, signed=False)


def is_integer(x):
    return isinstance(x, (int, DynInt)) and not isinstance(x, bool)


def is_static(x):
    """True for Python ints and tuples of them (None, a slice's `_`, too),
    and for layouts, swizzles and composed layouts without a dynamic
    integer."""
    if isinstance(x, tuple):
        return all(is_static(e) for e in x)
    method = getattr(x, "is_static", None)
    if method is not None and not isinstance(x, type):
        return method()
    return not isinstance(x, DynInt)


def is_dynamic(x):
    return isinstance(x, DynInt)


def assume(x, divby=1):
    """The DSL's cute.assume: x with the divisibility `divby`.

    The twin checks what the DSL takes on trust: the value must be a
    multiple of divby (ValueError otherwise)."""
    if isinstance(divby, bool) or not isinstance(divby, int) or divby <= 0:
        raise ValueError("Expected `divby` to be a positive integer, got %r" %
                         (divby,))
    if isinstance(x, int) and not isinstance(x, bool):
        x = Int32(x)
    if not isinstance(x, DynInt):
        raise TypeError("assume expects an integer, got %s" %
                        type(x).__name__)
    if x.value % divby:
        raise ValueError("assume: %d is not a multiple of %d" %
                         (x.value, divby))
    return DynInt(x.value, divby, x.width)


# Divisibility of a leaf: a static value divides itself (0 stands for "any
# multiple"), a dynamic one carries its own.
def divisibility(x):
    return abs(x) if isinstance(x, int) else x.div


def _gcd(a, b):
    return math.gcd(a, b)


def _width(a, b):
    wa = a.width if isinstance(a, DynInt) else 32
    wb = b.width if isinstance(b, DynInt) else 32
    return max(wa, wb)


_new = object.__new__


def _dyn(value, div, a, b=None):
    """The dynamic result of an op on a and b: a plain dynamic integer if
    either is one, else of the wider width. (Built without DynInt's
    conversions: the algebra's values and divisibilities are ints.)"""
    if b is None:
        b = a
    ta, tb = type(a), type(b)
    if ta is PlainDyn or tb is PlainDyn:
        return PlainDyn(value, 1, 32)
    wa = 32 if ta is int or not isinstance(a, DynInt) else a.width
    wb = 32 if tb is int or not isinstance(b, DynInt) else b.width
    out = _new(DynInt)
    out.value = int(value)
    out.div = int(div)
    out.width = wa if wa >= wb else wb
    out.known = False
    out.tname = None
    if out.width != 32:  # as DynInt.__init__: the class named for the type
        out.__class__ = (_VALUE_CLASSES.get(out.width) or
                         _value_class(out.width))
    return out


def _val(x):
    return x if isinstance(x, int) else x.value


def _tdiv(a, b):
    """C++'s truncating division (0 for a zero divisor: a dynamic value
    the DSL never evaluates, see _dyn_value)."""
    if b == 0:
        return 0
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def _tmod(a, b):
    if b == 0:
        return 0
    return a - b * _tdiv(a, b)


def mul(a, b):
    """a * b, with CuTe's shortcut: a static 0 times anything is a static 0.
    (Python's `*` on a DSL integer has no such shortcut, DynInt.__mul__.)"""
    if isinstance(a, int) and isinstance(b, int):
        return a * b
    if (isinstance(a, int) and a == 0) or (isinstance(b, int) and b == 0):
        return 0
    if isinstance(a, int) and a == 1:
        return b
    if isinstance(b, int) and b == 1:
        return a
    # (_val and divisibility written out: the algebra's hottest call.)
    if isinstance(a, int):
        va, da = a, abs(a)
    else:
        va, da = a.value, a.div
    if isinstance(b, int):
        vb, db = b, abs(b)
    else:
        vb, db = b.value, b.div
    return _dyn(va * vb, da * db, a, b)


def pymul(a, b):
    if isinstance(a, int) and isinstance(b, int):
        return a * b
    if isinstance(a, int) and a == 1:
        return b
    if isinstance(b, int) and b == 1:
        return a
    return _dyn(_val(a) * _val(b), divisibility(a) * divisibility(b), a, b)


def add(a, b):
    if isinstance(a, int) and isinstance(b, int):
        return a + b
    if isinstance(a, int) and a == 0:
        return b
    if isinstance(b, int) and b == 0:
        return a
    return _dyn(_val(a) + _val(b), _gcd(divisibility(a), divisibility(b)),
                a, b)


def sub(a, b):
    if isinstance(a, int) and isinstance(b, int):
        return a - b
    if isinstance(b, int) and b == 0:
        return a
    return _dyn(_val(a) - _val(b), _gcd(divisibility(a), divisibility(b)),
                a, b)


def neg(a):
    if isinstance(a, int):
        return -a
    return DynInt(-a.value, a.div, a.width)


def div(a, b):
    """CuTe's `/` on integers inside the DSL's layout algebra (C++
    truncation): a dynamic quotient has divisibility 1. A dynamic division by
    a value 0 is not an error while tracing (the DSL never evaluates it);
    its value is then 0."""
    if isinstance(a, int) and isinstance(b, int):
        if b == 0:
            raise ZeroDivisionError("division by zero")
        return _tdiv(a, b)
    if isinstance(a, int) and a == 0:
        return 0
    if isinstance(b, int) and b == 1:
        return a
    return _dyn(_tdiv(a if isinstance(a, int) else a.value,
                      b if isinstance(b, int) else b.value), 1, a, b)


def floordiv(a, b):
    """Python's `//` on a DSL integer (the DSL's IntValue): a division by a
    static divisor of the divisibility divides it."""
    if isinstance(a, int) and isinstance(b, int):
        if b == 0:
            raise ZeroDivisionError("division by zero")
        return _tdiv(a, b)
    if isinstance(a, int) and a == 0:
        return 0
    if isinstance(b, int) and b == 1:
        return a
    da = divisibility(a)
    if isinstance(b, int) and da % b == 0:
        d = abs(da // b)
    else:
        d = 1
    return _dyn(_tdiv(_val(a), _val(b)), d, a, b)


def mod(a, b):
    if isinstance(a, int) and isinstance(b, int):
        if b == 0:
            raise ZeroDivisionError("modulo by zero")
        return _tmod(a, b)
    if isinstance(a, int) and a == 0:
        return 0
    if isinstance(b, int) and abs(b) == 1:
        return 0
    da = divisibility(a)
    if isinstance(b, int):
        d = 0 if da % b == 0 else _gcd(da, abs(b))
    else:
        d = 1
    return _dyn(_tmod(_val(a), _val(b)), d, a, b)


def ceil_div(a, b):
    """ceil(a / b) ((a + b - 1) / b for positive operands, as CuTe writes
    it; the DSL's static ceil_div is the true ceiling for negative ones)."""
    if isinstance(a, int) and isinstance(b, int):
        return -((-a) // b)
    if isinstance(b, int) and b == 1:
        return a
    vb = b if isinstance(b, int) else b.value
    va = a if isinstance(a, int) else a.value
    return _dyn(_tdiv(va + vb - 1, vb), 1, a, b)


def minimum(a, b):
    if isinstance(a, int):
        if isinstance(b, int):
            return min(a, b)
        va, da = a, abs(a)
    else:
        va, da = a.value, a.div
    if isinstance(b, int):
        vb, db = b, abs(b)
    else:
        vb, db = b.value, b.div
    return _dyn(va if va < vb else vb, math.gcd(da, db), a, b)


def maximum(a, b):
    if isinstance(a, int) and isinstance(b, int):
        return max(a, b)
    return _dyn(max(_val(a), _val(b)),
                _gcd(divisibility(a), divisibility(b)), a, b)


def absolute(a):
    if isinstance(a, int):
        return abs(a)
    return DynInt(abs(a.value), a.div, a.width)


def signum(a):
    if isinstance(a, int):
        return (a > 0) - (a < 0)
    return DynInt((a.value > 0) - (a.value < 0), 1, a.width)


def gcd(a, b):
    if isinstance(a, int) and isinstance(b, int):
        return math.gcd(a, b)
    return _dyn(math.gcd(_val(a), _val(b)),
                _gcd(divisibility(a), divisibility(b)), a, b)


def value(x):
    """The value of a leaf: an int for ints and dynamic integers."""
    return x if isinstance(x, int) else x.value


def is_constant(v, x):
    """CuTe's is_constant<v, X>: x is static and equals v."""
    return isinstance(x, int) and x == v


# The C++ core reads a DynInt as its `?` (cute/integer.h) and hands one
# back through this factory (python/hlolayout/_cute_dsl.h).
def _from_core(value, div, width):
    return DynInt(value, div, width)


def _register_with_core():
    from .. import _hlolayout
    _hlolayout.cute_dsl_register_int(DynInt, _from_core)


_register_with_core()
