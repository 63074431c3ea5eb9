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

Two arithmetics live here, both the DSL's (each rule observed on it; see
docs/cute-dsl.md "Dynamic integers" and "_ints.py written anew"): the
layout algebra's on leaves (mul, add, sub, div, mod, ceil_div, signum:
CuTe's static shortcuts, a constant the user made counting as a `?`), and
Python's operators on DSL integers (_py_op: no static shortcut, a constant
counting as its value). In both a result is static only when both
operands are, and its divisibility follows from the operands': products
multiply, sums take the gcd, a division by a static divisor of the
divisibility divides it, anything else is 1.
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

    # Python's operators, as the DSL answers them (_py_op below); with a
    # float, or divided, a float (_floats).
    def __mul__(self, other):
        if isinstance(other, _REAL):
            return _floats.arith("mul", self, other)
        return _py_op(pymul, self, _operand(other))

    def __rmul__(self, other):
        if isinstance(other, _REAL):
            return _floats.arith("mul", other, self)
        return _py_op(pymul, _operand(other), self)

    def __add__(self, other):
        if isinstance(other, _REAL):
            return _floats.arith("add", self, other)
        return _py_op(add, self, _operand(other))

    def __radd__(self, other):
        if isinstance(other, _REAL):
            return _floats.arith("add", other, self)
        return _py_op(add, _operand(other), self)

    def __sub__(self, other):
        if isinstance(other, _REAL):
            return _floats.arith("sub", self, other)
        return _py_op(sub, self, _operand(other))

    def __rsub__(self, other):
        if isinstance(other, _REAL):
            return _floats.arith("sub", other, self)
        return _py_op(sub, _operand(other), self)

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
        return _py_op(_py_floordiv, self, _operand(other))

    def __rfloordiv__(self, other):
        return _py_op(_py_floordiv, _operand(other), self)

    def __mod__(self, other):
        return _py_op(_py_mod, self, _operand(other))

    def __rmod__(self, other):
        return _py_op(_py_mod, _operand(other), self)

    def __neg__(self):
        return _py_op(_py_neg, self, 0)


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


# ---------------------------------------------------------------------------
# The algebra's arithmetic on leaves (an int, static; a DynInt, the DSL's
# `?`), written from the rule list of docs/cute-dsl.md "Dynamic integers"
# (each rule observed on the DSL; cute/integer.h holds the C++ core's). What the algebra may know of a leaf is its pair of facts:
# a static int knows its value and divides |value|; a `?` knows only its
# divisibility (`div`: 1 for nothing, 0 for "known to be 0") and width.
# Every operation below is static when both operands are; otherwise its
# result is a `?` made by _unknown, whose divisibility the operation's rule
# gives and whose value (the value it stands for, never decided on) is the
# C++ integer arithmetic's.

def divisibility(x):
    """What the DSL knows x is a multiple of: |x| for a static int (0
    divides only 0), a `?`'s own."""
    if isinstance(x, int):
        return x if x >= 0 else -x
    return x.div


def value(x):
    """The value x stands for (an int either way)."""
    return x if isinstance(x, int) else x.value


def is_constant(v, x):
    """x is static and equals v (CuTe's is_constant<v, X>)."""
    return isinstance(x, int) and x == v


_new = object.__new__


def _unknown(v, div, a, b):
    """The `?` of value v and divisibility div computed from a and b: as
    wide as the wider (an int counting 32 bits); a plain `?` (PlainDyn: no
    divisibility kept) when either is one."""
    if type(a) is PlainDyn or type(b) is PlainDyn:
        return PlainDyn(v, 1, 32)
    wa = 32 if isinstance(a, int) else a.width
    wb = 32 if isinstance(b, int) else b.width
    out = _new(DynInt)  # the slots set directly: the algebra's hot path
    out.value = int(v)
    out.div = int(div)
    out.width = wa if wa >= wb else wb
    out.known = False
    out.tname = None
    if out.width != 32:  # the class named for the type, as DynInt() does
        out.__class__ = (_VALUE_CLASSES.get(out.width) or
                         _value_class(out.width))
    return out


def _quotient(p, q):
    """p / q truncated toward zero, as C++ divides (0 for q == 0: the
    value of a `?` the DSL never evaluates)."""
    if q == 0:
        return 0
    n = abs(p) // abs(q)
    return n if (p < 0) == (q < 0) else -n


def _remainder(p, q):
    """p % q with C++'s sign (that of p); 0 for q == 0."""
    return p - q * _quotient(p, q) if q else 0


# Products. The algebra's product (CuTe's operator*) makes a static 0 of a
# static 0 times anything; Python's `*` on a DSL value does not (x * 0 is a
# `?` known to be 0, ?{div=0}). Both keep the other operand for a static 1.
# Divisibility: the product of the two.

def mul(a, b):
    """a * b in the layout algebra."""
    a_int, b_int = isinstance(a, int), isinstance(b, int)
    if a_int and b_int:
        return a * b
    if (a_int and a == 0) or (b_int and b == 0):
        return 0
    return _product(a, b, a_int, b_int)


def pymul(a, b):
    """a * b as Python's `*` on DSL integers computes it."""
    a_int, b_int = isinstance(a, int), isinstance(b, int)
    if a_int and b_int:
        return a * b
    return _product(a, b, a_int, b_int)


def _product(a, b, a_int, b_int):
    if a_int:
        if a == 1:
            return b
        return _unknown(a * b.value, abs(a) * b.div, a, b)
    if b_int:
        if b == 1:
            return a
        return _unknown(a.value * b, a.div * abs(b), a, b)
    return _unknown(a.value * b.value, a.div * b.div, a, b)


# Sums and differences: a static 0 added keeps the other operand; the
# divisibility is the gcd of the two (gcd(0, d) = d).

def add(a, b):
    if isinstance(a, int):
        if isinstance(b, int):
            return a + b
        if a == 0:
            return b
    elif isinstance(b, int) and b == 0:
        return a
    return _unknown(value(a) + value(b),
                    math.gcd(divisibility(a), divisibility(b)), a, b)


def sub(a, b):
    if isinstance(b, int):
        if isinstance(a, int):
            return a - b
        if b == 0:
            return a
    return _unknown(value(a) - value(b),
                    math.gcd(divisibility(a), divisibility(b)), a, b)


def signum(a):
    """-1, 0 or 1; a `?`'s sign is a `?` of divisibility 1."""
    if isinstance(a, int):
        return (a > 0) - (a < 0)
    return DynInt((a.value > 0) - (a.value < 0), 1, a.width)


# Quotients and remainders (C++'s truncation). A static 0 divided is a
# static 0 and a division by a static 1 keeps the operand; a static
# division by a static 0 raises.

def div(a, b):
    """a / b in the layout algebra: a `?` quotient knows nothing (1)."""
    if isinstance(a, int):
        if isinstance(b, int):
            if b == 0:
                raise ZeroDivisionError("division by zero")
            return _quotient(a, b)
        if a == 0:
            return 0
    elif isinstance(b, int) and b == 1:
        return a
    return _unknown(_quotient(value(a), value(b)), 1, a, b)


def mod(a, b):
    """a % b: a static 0 for a static 0 and for a modulus of +-1; a `?`
    modulo a static divisor of its divisibility is known to be 0
    (?{div=0}), modulo another static int has the gcd of the two; modulo
    a `?`, 1."""
    if isinstance(a, int):
        if isinstance(b, int):
            if b == 0:
                raise ZeroDivisionError("modulo by zero")
            return _remainder(a, b)
        if a == 0:
            return 0
    if isinstance(b, int):
        if b == 1 or b == -1:
            return 0
        da = divisibility(a)
        d = 0 if da % b == 0 else math.gcd(da, b)
    else:
        d = 1
    return _unknown(_remainder(value(a), value(b)), d, a, b)


def ceil_div(a, b):
    """The ceiling of a / b: the true one for static ints (the DSL's, also
    for negative operands); CuTe's (a + b - 1) / b for a `?`, whose
    divisibility is 1. A division by a static 1 keeps a."""
    if isinstance(b, int):
        if isinstance(a, int):
            return -((-a) // b)
        if b == 1:
            return a
    vb = value(b)
    return _unknown(_quotient(value(a) + vb - 1, vb), 1, a, b)


# ---------------------------------------------------------------------------
# Python's operators on DSL integers (`n * 4`, `n // cute.Int32(4)`), as the
# DSL answers them (observed, docs/cute-dsl.md "_ints.py written anew"):
#
# - an operand the DSL knows the value of is a Python int or a constant the
#   user made (cute.Int32(5), or operators on constants); a traced value
#   (cute.assume, what an op hands back) is a `?`;
# - two known operands give a constant (its repr shows the value, it
#   prints `?`): the C integer arithmetic of the two;
# - otherwise a known operand counts as its value (cute.Int32(6) * n is
#   6 * n), and the result is a traced `?` by the rules below, without the
#   algebra's static shortcuts (n * 0 is ?{div=0}, n % 1 is ?{div=0}).

def _py_op(rule, a, b):
    """a op b (`rule` the op on a `?` and an int or two `?`s; a and b
    ints or DynInts, one a DynInt)."""
    ka = isinstance(a, int) or a.known
    kb = isinstance(b, int) or b.known
    if ka and kb:
        wa = 32 if isinstance(a, int) else a.width
        wb = 32 if isinstance(b, int) else b.width
        w = wa if wa >= wb else wb
        return DynInt(rule(value(a), value(b)), 1, w, True,
                      "Int64" if w == 64 else "Int32")
    wa = 32 if isinstance(a, int) else a.width
    wb = 32 if isinstance(b, int) else b.width
    if {wa, wb} == {32, 64}:
        a, ka = _widened(a, ka, wa)
        b, kb = _widened(b, kb, wb)
    x = a.value if ka and not isinstance(a, int) else a
    y = b.value if kb and not isinstance(b, int) else b
    r = rule(x, y)
    if r is x or r is y or r.known:  # an operand handed back: traced
        return traced(r)
    return r


def _widened(x, known, width):
    """An operand of a 32-bit and 64-bit pair, one of them traced: the
    traced 32-bit `?` is cast to 64 bits, knowing nothing (?{div=16} *
    ?{i64 div=8} is ?{i64 div=8}), and a 64-bit constant against it counts
    as a `?` knowing nothing too (?{div=16} * cute.Int64(2) is ?{i64});
    a Python int or a 32-bit constant counts as its value."""
    if isinstance(x, int):
        return x, known
    if (width == 32 and not known) or (width == 64 and known):
        return DynInt(x.value, 1, 64), False
    return x, known


def _py_floordiv(a, b):
    """a // b: C's truncation for two ints; a `?` quotient by a static b
    that divides the numerator's divisibility has the quotient of the two
    as its (sign kept: n // -4 of ?{div=16} is ?{div=-4}), a numerator
    known to be 0 keeps 0 (0 // n is ?{div=0}), any other 1; // 1 keeps
    the numerator."""
    if isinstance(b, int):
        if b == 0:
            raise ZeroDivisionError("division by zero")
        if isinstance(a, int):
            return _quotient(a, b)
        if b == 1:
            return a
        da = a.div
        d = da // b if da % b == 0 else 1
        return _unknown(_quotient(a.value, b), d, a, b)
    da = divisibility(a)
    return _unknown(_quotient(value(a), b.value), 0 if da == 0 else 1, a, b)


def _py_mod(a, b):
    """a % b: C's remainder for two ints; a `?` modulo a static m is known
    to be 0 (?{div=0}) where m divides its divisibility d, has d where d
    divides m, else 1 (?{div=16} % 12 is ?); modulo a `?`, 0 for a
    numerator known to be 0, else 1."""
    da = divisibility(a)
    if isinstance(b, int):
        if b == 0:
            raise ZeroDivisionError("modulo by zero")
        if isinstance(a, int):
            return _remainder(a, b)
        if da % b == 0:
            d = 0
        elif da != 0 and b % da == 0:
            d = da
        else:
            d = 1
        return _unknown(_remainder(a.value, b), d, a, b)
    return _unknown(_remainder(value(a), b.value), 0 if da == 0 else 1,
                    a, b)


def _py_neg(a, _):
    """-a: a `?` of divisibility 1 (-?{div=16} is ?), its width kept."""
    if isinstance(a, int):
        return -a
    return DynInt(-a.value, 1, a.width)


# The C++ core reads a DynInt as its `?` (cute/integer.h) and hands one
# back through this factory (python/hlolayout/_cute_dsl.h).
def _from_core(value, div, width):
    return DynInt(value, div, width)


def _register_with_core():
    from .. import _hlolayout
    _hlolayout.cute_dsl_register_int(DynInt, _from_core)


_register_with_core()
