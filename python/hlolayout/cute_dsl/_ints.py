"""The CuTe DSL's integers: static (a Python int) or dynamic (a value of
one of the DSL's integer types, known only at run time, printed `?`).

    >>> from hlolayout import cute_dsl as cute
    >>> n = cute.assume(cute.Int32(64), divby=16)
    >>> print(n, n * 4, n + 4, n // 4, cute.Int32(7))
    ?{div=16} ?{div=64} ?{div=4} ?{div=4} ?
    >>> n.value, type(n) is cute.Int32, repr(cute.Int8(300))
    (64, True, 'Int8(44)')

Three parts, each the DSL's behaviour as printed by the wheel run on the
CPU and as NVIDIA's pages document it (docs.nvidia.com/cutlass,
pythonDSL "Basic Data Types": the classes Numeric, Integer, Int8 ...
Uint128, Boolean; "Types": an integer value's `?` and `?{div=4}`,
its divisibility); docs/cute-dsl.md "The numeric types written anew":

1. The types and their values. A DSL type is a class and a value is an
   instance of its type (`type(cute.Int32(5)) is cute.Int32`), so one
   class plays both parts here: `Int32` is a data type (`width`, `signed`,
   `mlir`) and the class of the Int32 values. A value made from a Python
   number is a constant (its repr shows the value, `Int32(5)`); one an op
   hands back, or `assume`, is traced (`Int32(?)`). Both print `?`, and
   the algebra reads both as a `?` (the C++ core's unknown integer,
   cute/integer.h), deciding only on the width and the divisibility.
2. The algebra's arithmetic on leaves (mul, add, sub, div, mod, ceil_div,
   signum): CuTe's static shortcuts, a constant counting as a `?`.
3. Python's operators on values (_py_op): no static shortcut, a constant
   counting as its value; constants fold as Python does and wrap to the
   result's type.

In 2 and 3 a result is static only when both operands are, and its
divisibility follows from the operands': products multiply, sums take the
gcd, a division by a static divisor of the divisibility divides it,
anything else is 1.
"""

import math
import operator

__all__ = ["Numeric", "Integer", "Int8", "Int16", "Int32", "Int64",
           "Uint8", "Uint16", "Uint32", "Uint64", "Boolean", "DynInt",
           "assume", "is_static", "is_integer"]


# ---------------------------------------------------------------------------
# 1. The types and their values.

class _NumericMeta(type):
    """The class of every DSL type. `str(cute.Int32)` and `print(type(x))`
    give the type's name, its repr is the DSL's (`<class
    'cutlass.base_dsl.typing.Int32'>`). A class made only to hold values
    (the twin's float values, PlainDyn) names its type in `type_name`."""

    def __str__(cls):
        own = cls.__dict__
        return own.get("type_name") or own.get("name") or type.__repr__(cls)

    def __repr__(cls):
        if cls.__dict__.get("name"):
            return "<class 'cutlass.base_dsl.typing.%s'>" % cls.name
        return type.__repr__(cls)

    @property
    def mlir_type(cls):
        return cls.mlir


# The float values of _floats name their classes with it.
_ValueType = _NumericMeta


class Numeric(metaclass=_NumericMeta):
    """The DSL's base of every numeric type (`cutlass.Numeric`). Its own
    fields are those of a type: name, width in bits, MLIR element type,
    whether signed, float or integer."""

    __slots__ = ()
    name = "Numeric"
    width = 0
    mlir = ""
    signed = True
    is_float = False
    is_integer = False

    def __new__(cls, *args):
        raise TypeError("%s is an abstract type here: make a value of one "
                        "of its types (Int32, Float32, ...)" % cls.__name__)


class DynInt(Numeric):
    """An integer value of a DSL type: its value, its divisibility `div`
    (what the DSL knows it is a multiple of: 1 for nothing, 0 for known to
    be 0), whether it is a constant (`known`) and the name of the type the
    program chose (`tname`; None for a value the algebra made, whose repr
    names it by its width). Its class is its type: DynInt(v, div, width,
    known, tname) gives an instance of Int32, Int64, Uint32, ... (the twin
    calls it so; the program calls the types)."""

    __slots__ = ("value", "div", "known", "tname")
    is_integer = True

    def __new__(cls, value, div=1, width=32, known=False, tname=None):
        if cls is DynInt:  # the class of the type: _class_of, inlined
            cls = _BY_NAME[tname] if tname else _BY_WIDTH.get(width, Int32)
        out = _new(cls)
        out.value = int(value)
        out.div = int(div)
        out.known = bool(known)
        out.tname = tname
        return out

    # What print shows (str), and a leaf of a layout's or tuple's text:
    # `?`, `?{div=16}`, the width beside it when it is not 32 bits.
    def __str__(self):
        if self.width == 32:  # the common case, at once
            return "?" if self.div == 1 else "?{div=%d}" % self.div
        return _question(self, False)

    def type_text(self):
        return _question(self, True)

    def __repr__(self):
        """The type and the value of a constant (`Int32(5)`), `?` for a
        traced value (`Int32(?)`): what a printed tuple shows."""
        name = self.tname or "Int%d" % max(self.width, 32)
        return "%s(%s)" % (name, self.value if self.known else "?")

    @property
    def dtype(self):
        return type(self)

    def __int__(self):
        return self.value

    __index__ = __int__

    def __bool__(self):
        """A constant's truth is its value's; a traced value has none
        while the DSL traces (the DSL refuses it in Python's `if`)."""
        if self.known:
            return self.value != 0
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
        """The value as another type: an integer type wraps it to its
        width (Int32(300).to(Int8) is Int8(44)), a constant staying one and
        a traced value knowing nothing (divisibility 1); a float type makes
        a float value (_floats)."""
        if getattr(dtype, "is_float", False):
            return _floats.make(dtype.name, self)
        if not (isinstance(dtype, type) and issubclass(dtype, Integer)):
            raise TypeError("to expects a numeric type, got %r" % (dtype,))
        return DynInt(_wrapped(self.value, dtype), 1, dtype.width,
                      self.known, dtype.name)

    def get_divisibility(self):
        return self.div

    @property
    def divisibility(self):
        return self.div

    # Python's operators: part 3 below; with a float, or `/`, a float
    # value (_floats).
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

    def __floordiv__(self, other):
        return _py_op(_py_floordiv, self, _operand(other))

    def __rfloordiv__(self, other):
        return _py_op(_py_floordiv, _operand(other), self)

    def __mod__(self, other):
        return _py_op(_py_mod, self, _operand(other))

    def __rmod__(self, other):
        return _py_op(_py_mod, _operand(other), self)

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

    def __lshift__(self, other):
        return _bitwise(operator.lshift, self, other)

    def __rlshift__(self, other):
        return _bitwise(operator.lshift, other, self)

    def __rshift__(self, other):
        return _bitwise(operator.rshift, self, other)

    def __rrshift__(self, other):
        return _bitwise(operator.rshift, other, self)

    def __invert__(self):
        """~x: a traced value even for a constant, as in the DSL."""
        return DynInt(~self.value, 1, self.width)

    def __neg__(self):
        """-x: of x's type, a constant wrapped to it (-Int8(-128) is
        Int8(-128)), a traced value knowing nothing; a Boolean has none."""
        return _unary(operator.neg, self)

    def __abs__(self):
        return _unary(abs, self)


_new = object.__new__


def _question(x, in_type):
    """The DSL's `?` of x: `?{div=N}` when N is not 1, `?{i8 ...}` for a
    width other than 32; in a layout's text (`in_type`) a 64-bit `?` of
    divisibility 1 shows its width (`?{i64}`), alone it prints `?`."""
    d, w = x.div, x.width
    if w == 32:
        return "?" if d == 1 else "?{div=%d}" % d
    if d == 1:
        return "?{i%d}" % w if in_type else "?"
    return "?{i%d div=%d}" % (w, d)


class Integer(DynInt):
    """The DSL's integer types (`cutlass.Integer`); calling one converts a
    number to it: an int (a bool as 0 or 1) wrapped to the type's width
    as two's complement (`Int8(300)` is `Int8(44)`, `Uint8(-1)`
    `Uint8(255)`), a float truncated toward zero first (`Int32(2.7)` is
    `Int32(2)`), a Boolean any nonzero as 1. A constant stays a constant;
    a traced value stays traced, keeping its divisibility only at the
    same width (`Uint32(?{div=16})` is `?{div=16}`, `Int64(?{div=16})`
    `?`)."""

    __slots__ = ()
    name = "Integer"
    makes_values = False

    def __new__(cls, x):
        if not cls.makes_values:
            if cls is Integer:
                Numeric.__new__(cls)
            raise TypeError("%s: the DSL makes no values of this type (it "
                            "has no exactly representable range)" % cls.name)
        if isinstance(x, DynInt):
            div = x.div if not x.known and x.width == cls.width else 1
            return DynInt(_wrapped(x.value, cls), div, cls.width, x.known,
                          cls.name)
        if isinstance(x, float):
            x = int(x)
        elif isinstance(x, _REAL):
            return x.to(cls)
        if not isinstance(x, int):
            raise TypeError("%s expects a number, got %s" %
                            (cls.name, type(x).__name__))
        return DynInt(_wrapped(x, cls), 1, cls.width, True, cls.name)


def _wrapped(v, t):
    """v as the integer type t holds it: any nonzero 1 for a Boolean, else
    the low `width` bits, signed or not."""
    if t.width == 1:
        return int(v != 0)
    v &= (1 << t.width) - 1
    if t.signed and v >> (t.width - 1):
        v -= 1 << t.width
    return v


# The DSL's integer types ("Basic Data Types"): name, width, signedness;
# the MLIR element type is the signless iN. Int4, Int128 and Uint128 are
# data types only (the DSL refuses to make a value of them, observed).
_INTEGER_TYPES = [
    ("Int8", 8, True), ("Int16", 16, True), ("Int32", 32, True),
    ("Int64", 64, True), ("Uint8", 8, False), ("Uint16", 16, False),
    ("Uint32", 32, False), ("Uint64", 64, False), ("Boolean", 1, True),
    ("Int4", 4, True), ("Int128", 128, True), ("Uint128", 128, False)]

_BY_NAME = {}
_BY_WIDTH = {}
for _name, _width, _signed in _INTEGER_TYPES:
    _t = _NumericMeta(_name, (Integer,), {
        "__slots__": (), "__module__": __name__, "name": _name,
        "width": _width, "signed": _signed, "mlir": "i%d" % _width,
        "makes_values": _width not in (4, 128)})
    _BY_NAME[_name] = _t
    if _signed:
        _BY_WIDTH[_width] = _t
Int8, Int16, Int32, Int64 = (_BY_NAME[n] for n in
                             ("Int8", "Int16", "Int32", "Int64"))
Uint8, Uint16, Uint32, Uint64 = (_BY_NAME[n] for n in
                                 ("Uint8", "Uint16", "Uint32", "Uint64"))
Boolean, Int4, Int128, Uint128 = (_BY_NAME[n] for n in
                                  ("Boolean", "Int4", "Int128", "Uint128"))
del _name, _width, _signed, _t


def _class_of(tname, width):
    """The class of a value of the type named tname, or (None) of the
    signed integer type of that width (Int32 for a width the DSL has no
    type of)."""
    if tname is not None:
        return _BY_NAME[tname]
    return _BY_WIDTH.get(width, Int32)


class PlainDyn(Int32):
    """A traced Int32 the DSL keeps no divisibility for: what
    `layout.shape` gives for a dynamic Int64 (observed). Arithmetic with it
    gives plain values (divisibility 1)."""

    __slots__ = ()
    type_name = "Int32"
    __new__ = DynInt.__new__


def _type_of(x):
    """The DSL type an operand of Python's operators counts as: a Python
    int an Int32, a bool a Boolean (Int8(5) + True is Int8(6), observed)."""
    if isinstance(x, DynInt):
        return _class_of(x.tname, x.width)
    return Boolean if isinstance(x, bool) else Int32


def _promoted(a, b):
    """The type of a op b, observed on constants: the wider type, and of
    two as wide the unsigned one (Int8 + Uint16 is Uint16, Uint32 + Int32
    Uint32, Int64 + Uint32 Int64, Int8 + 1 Int32)."""
    ta, tb = _type_of(a), _type_of(b)
    if ta.width != tb.width:
        return ta if ta.width > tb.width else tb
    return tb if ta.signed and not tb.signed else ta


# The float hook, set by _floats: an integer with one of these, or divided,
# gives a float.
_REAL = (float,)
_floats = None


def _operand(x):
    if isinstance(x, (int, DynInt)):
        return x
    raise TypeError("expected an integer, got %s" % type(x).__name__)


def _bitwise(op, a, b):
    """a & b, a | b, a ^ b, a << b, a >> b: a constant of the promoted type
    when both are constants (Int32(7) >> 1 is Int32(3)), else a traced
    value of the DSL operand's width knowing nothing."""
    a, b = _operand(a), _operand(b)
    v = op(value(a), value(b))
    if (isinstance(a, int) or a.known) and (isinstance(b, int) or b.known):
        t = _promoted(a, b)
        return DynInt(_wrapped(v, t), 1, t.width, True, t.name)
    return DynInt(v, 1, (a if isinstance(a, DynInt) else b).width)


def _unary(op, a):
    """-a or abs(a): of a's type; a constant wrapped to it, a traced value
    of divisibility 1 (cute/integer.h's rule for -a and abs)."""
    if a.width == 1:
        raise TypeError("the operator is not supported for the boolean type")
    t = _class_of(a.tname, a.width)
    if a.known:
        return DynInt(_wrapped(op(a.value), t), 1, t.width, True, t.name)
    return DynInt(op(a.value), 1, t.width, False, a.tname)


def traced(x):
    """x as an op of the DSL hands it back (every leaf of a tuple): a
    constant, or a value of a type the program chose, becomes a traced
    value of its width with its divisibility; a plain one stays plain."""
    if type(x) is tuple:
        return tuple(traced(e) for e in x)
    if isinstance(x, DynInt) and (x.known or x.tname):
        out = _new(PlainDyn if type(x) is PlainDyn else
                   _BY_WIDTH.get(x.width, Int32))
        out.value, out.div, out.known, out.tname = x.value, x.div, False, None
        return out
    return x


def is_integer(x):
    """The DSL's cute.is_integer: a Python int or bool, or an integer
    value (constant or traced)."""
    return isinstance(x, (int, DynInt))


def is_static(x):
    """The DSL's cute.is_static: True for None, Python numbers and tuples
    of them, and for a layout, swizzle or composed layout without a
    dynamic integer (its own is_static); False for a value of a DSL type,
    constants too. A str, list, dict or set is refused, as the DSL refuses
    them ("unsupported type")."""
    if isinstance(x, tuple):
        return all(is_static(e) for e in x)
    if x is None or isinstance(x, (int, float)):
        return True
    if isinstance(x, (DynInt,) + _REAL):
        return False
    if isinstance(x, (str, bytes, list, dict, set)):
        raise TypeError("unsupported type %r" % (x,))
    method = getattr(x, "is_static", None)
    if method is not None and not isinstance(x, type):
        return method()
    return True


def assume(src, divby=None):
    """The DSL's cute.assume: src known to be a multiple of divby.

    No divby: src itself. A static int (or bool) stays static, refused
    when divby does not divide it; an integer value becomes a traced value
    of its type with divisibility divby, which the DSL takes on trust and
    holds as a 32-bit integer (2**32 + 4 gives 4, 2**32 gives 0)."""
    if divby is None:
        return src
    if not isinstance(divby, int) or divby <= 0:
        raise ValueError("Expected `divby` to be a positive integer, got %s" %
                         (divby,))
    if isinstance(src, int):
        if src % divby:
            raise ValueError("assume: %r is not divisible by %d" %
                             (src, divby))
        return src
    if not isinstance(src, DynInt):
        raise TypeError("assume expects an integer, got %s" %
                        type(src).__name__)
    return DynInt(src.value, _wrapped(divby, Int32), src.width, False,
                  src.tname)


# ---------------------------------------------------------------------------
# 2. The algebra's arithmetic on leaves (an int, static; a DynInt, the DSL's
# `?`), written from the rule list of docs/cute-dsl.md "Dynamic integers"
# (each rule observed on the DSL; cute/integer.h holds the C++ core's).
# What the algebra may know of a leaf is its pair of facts:
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


def _unknown(v, div, a, b):
    """The `?` of value v and divisibility div computed from a and b: as
    wide as the wider (an int counting 32 bits); a plain `?` (PlainDyn: no
    divisibility kept) when either is one."""
    if type(a) is PlainDyn or type(b) is PlainDyn:
        return PlainDyn(v, 1, 32)
    wa = 32 if isinstance(a, int) else a.width
    wb = 32 if isinstance(b, int) else b.width
    # The slots set directly: the algebra's hot path.
    out = _new(Int32 if wa == 32 and wb == 32 else
               _BY_WIDTH.get(wa if wa >= wb else wb, Int32))
    out.value = int(v)
    out.div = int(div)
    out.known = False
    out.tname = None
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
# 3. Python's operators on DSL integers (`n * 4`, `n // cute.Int32(4)`), as
# the DSL answers them (observed, docs/cute-dsl.md "_ints.py written anew"
# and "The numeric types written anew"):
#
# - an operand the DSL knows the value of is a Python int or a constant the
#   user made (cute.Int32(5), or operators on constants); a traced value
#   (cute.assume, what an op hands back) is a `?`;
# - two known operands give a constant (its repr shows the value, it
#   prints `?`): Python's arithmetic of the two (`//` and `%` floor:
#   Int32(-7) // 2 is Int32(-4)), wrapped to the promoted type
#   (Int8(100) + Int8(100) is Int8(-56));
# - otherwise a known operand counts as its value (cute.Int32(6) * n is
#   6 * n), and the result is a traced `?` by the rules below, without the
#   algebra's static shortcuts (n * 0 is ?{div=0}, n % 1 is ?{div=0}), of
#   the promoted type (Uint32(?) * 2 is Uint32(?), ?{i8} * ?{i8} Int8(?));
#   a traced operand cast to a wider type, or a constant of an 8- or
#   16-bit type, knows nothing (_seen, _knowing_nothing).

def _py_op(rule, a, b):
    """a op b (`rule` the op on a `?` and an int or two `?`s; a and b
    ints or DynInts, one a DynInt), of the promoted type."""
    ka = isinstance(a, int) or a.known
    kb = isinstance(b, int) or b.known
    ta, tb = type(a), type(b)
    if (ta is Int32 or ta is int) and (tb is Int32 or tb is int):
        t = Int32  # the common case, at once
    else:
        t = _promoted(a, b)
    if ka and kb:
        v = _FOLDED[rule](value(a), value(b))
        return DynInt(_wrapped(v, t), 1, t.width, True, t.name)
    x, y = _seen(a, ka, t), _seen(b, kb, t)
    if x is _CAST or y is _CAST or x is _OPAQUE or y is _OPAQUE:
        r = _knowing_nothing(rule, a, b, x, y, t)
    else:
        r = rule(x, y)
        if r is x or r is y or r.known:  # an operand handed back: traced
            r = traced(r)
    if t.width < 32 or not t.signed:  # a type the width does not name
        return DynInt(r.value, r.div, t.width, False, t.name)
    return r


# What an operand of Python's operators is to the result's type t
# (observed): a Python int, or a constant when t is 32 or 64 bits wide,
# counts as its value; a traced value of t's width is itself; a traced
# value cast to the wider t is _CAST, and a constant of an 8- or 16-bit t
# _OPAQUE (both below).
_CAST, _OPAQUE = object(), object()


def _seen(x, known, t):
    if isinstance(x, int):
        return x
    if known:
        return x.value if t.width >= 32 else _OPAQUE
    return _CAST if x.width < t.width else x


def _knowing_nothing(rule, a, b, x, y, t):
    """a op b where an operand was cast or is opaque: it counts as a `?`
    knowing nothing of t's width. Against a traced operand a cast one
    keeps the rule's divisibility (?{div=16} * ?{i64 div=8} is
    ?{i64 div=8}, ?{i16 div=16} * ?{div=8} ?{div=8}); anything else knows
    nothing (?{i16 div=16} * 2, ?{div=16} * Int64(2) and
    ?{i8 div=4} * Int8(2) are `?`), an Int32 one a plain `?` that stays
    so ((?{i16 div=16} * 2) * 4 is `?`: PlainDyn)."""
    xa = DynInt(value(a), 1, t.width) if x is _CAST or x is _OPAQUE else x
    yb = DynInt(value(b), 1, t.width) if y is _CAST or y is _OPAQUE else y
    r = rule(xa, yb)
    if ((x is _CAST and isinstance(y, DynInt)) or
            (y is _CAST and isinstance(x, DynInt))):
        return DynInt(r.value, r.div, t.width)
    if t is Int32:
        return PlainDyn(r.value, 1, 32)
    return DynInt(r.value, 1, t.width)


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


# Constants fold with Python's own operators (observed).
_FOLDED = {pymul: operator.mul, add: operator.add, sub: operator.sub,
           _py_floordiv: operator.floordiv, _py_mod: operator.mod}


def _register_with_core():
    """The C++ core reads an instance of DynInt as its `?` (cute/integer.h)
    and hands one back as DynInt(value, div, width) (_cute_dsl.h)."""
    from .. import _hlolayout
    _hlolayout.cute_dsl_register_int(DynInt, DynInt)


_register_with_core()
