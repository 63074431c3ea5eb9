"""The DSL's floating-point scalars, host-side: `cute.Float32(3.14)` and
its arithmetic with integers, as `cute.printf` prints them when a jit
function runs (data_types.ipynb).

    >>> from hlolayout import cute_dsl as cute
    >>> a, b, x = cute.Int32(10), cute.Int32(3), cute.Float32(5.5)
    >>> print(x, repr(x), repr(a / b), repr(a + x), repr(a > b))
    ? Float32(5.5) Float32(3.3333333333333335) Float32(15.5) Boolean(1)
    >>> cute.printf("{} {}", a / b, x.to(cute.Int32))
    3.333333 5

As in the DSL, arithmetic of constants (values the program wrote) is
Python's, in double precision, and stays a constant (its repr shows the
value); anything with a traced value is a traced value, computed as the
run would, rounded to the type after each operation. An integer divided by
an integer, or combined with a float, is a Float32; a comparison is a
Boolean. `print` shows `?`; printf shows the value rounded to the type
with six decimals. Float16, Float32 and Float64 make values; the other
float types stay data types.
"""

import math
import operator
import struct

from . import _ints
from ._ints import DynInt

__all__ = []

_PACK = {"Float16": "e", "Float32": "f", "Float64": "d"}


def rounded(name, v):
    """v rounded to the float type `name` (IEEE round to nearest)."""
    code = _PACK[name]
    try:
        return struct.unpack(code, struct.pack(code, v))[0]
    except OverflowError:
        return math.copysign(math.inf, v)


class FloatValue(metaclass=_ints._ValueType):
    """A floating-point value of type `tname`: its value, and whether the
    program wrote it (a constant) or the run computes it (traced)."""

    __slots__ = ("value", "known", "tname")

    def __init__(self, value, known, tname="Float32"):
        self.value = float(value) if known else rounded(tname, value)
        self.known = bool(known)
        self.tname = tname
        if type(self) is FloatValue:
            self.__class__ = _float_class(tname)

    def __str__(self):
        return "?"

    def __repr__(self):
        return "%s(%s)" % (self.tname, repr(self.value) if self.known
                           else "?")

    def __bool__(self):
        raise TypeError("a dynamic float has no truth value while the DSL "
                        "traces")

    def run_value(self):
        """What the run computes: the value rounded to the type."""
        return rounded(self.tname, self.value)

    def to(self, dtype):
        """To an integer type: truncated toward zero and wrapped to its
        width; to a float type: that type."""
        if getattr(dtype, "is_float", False):
            return make(dtype.name, self.value, self.known)
        if not (isinstance(dtype, type) and issubclass(dtype,
                                                       _ints.Integer)):
            raise TypeError("to expects a numeric type, got %r" % (dtype,))
        v = int(self.run_value()) if math.isfinite(self.value) else 0
        return DynInt(v, 1, 64 if dtype.width == 64 else 32, self.known,
                      None).to(dtype)

    def __neg__(self):
        return FloatValue(-self.value, self.known, self.tname)


_FLOAT_CLASSES = {}


def _float_class(name):
    cls = _FLOAT_CLASSES.get(name)
    if cls is None:
        cls = _ints._ValueType(name, (FloatValue,), {"__slots__": (),
                                                     "type_name": name})
        _FLOAT_CLASSES[name] = cls
    return cls


def make(name, value, known=True):
    """A value of the float type `name` (Float32(3.14) is a constant)."""
    if name not in _PACK:
        raise TypeError("%s is a data type here; the twin computes with "
                        "Float16, Float32 and Float64 values only" % name)
    if isinstance(value, FloatValue):
        return FloatValue(value.value, value.known and known, name)
    if isinstance(value, DynInt):
        return FloatValue(float(value.value), value.known and known, name)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError("%s expects a number, got %s" %
                        (name, type(value).__name__))
    return FloatValue(value, known, name)


def _parts(x):
    """(value, known, float type or None) of an operand."""
    if isinstance(x, FloatValue):
        return x.value, x.known, x.tname
    if isinstance(x, DynInt):
        return x.value, x.known, None
    if isinstance(x, bool):
        return int(x), True, None
    if isinstance(x, int):
        return x, True, None
    if isinstance(x, float):
        return x, True, "Float32"
    raise TypeError("expected a number, got %s" % type(x).__name__)


_WIDER = ["Float16", "Float32", "Float64"]
_OPS = {"add": operator.add, "sub": operator.sub, "mul": operator.mul,
        "truediv": operator.truediv}


def arith(op, a, b):
    """a op b where one side is a float or both are integers divided: a
    float of the wider float type (Float32 when neither is one)."""
    va, ka, ta = _parts(a)
    vb, kb, tb = _parts(b)
    kinds = [t for t in (ta, tb) if t]
    name = max(kinds, key=_WIDER.index) if kinds else "Float32"
    known = ka and kb
    if not known:
        va, vb = rounded(name, va), rounded(name, vb)
    try:
        v = _OPS[op](va, vb)
    except ZeroDivisionError:
        v = (math.nan if va == 0 else math.copysign(math.inf, va) *
             math.copysign(1, vb))
    return FloatValue(v, known, name)


_CMP = {"lt": operator.lt, "le": operator.le, "gt": operator.gt,
        "ge": operator.ge}


def compare(op, a, b):
    """A comparison of numbers: a Boolean, a constant when both are."""
    va, ka, _ = _parts(a)
    vb, kb, _ = _parts(b)
    return DynInt(int(_CMP[op](va, vb)), 1, 1, ka and kb, "Boolean")


def _install():
    """The operators of FloatValue, and the float hook of _ints (an
    integer combined with a float, or divided, gives a float)."""
    for op in _OPS:
        setattr(FloatValue, "__%s__" % op,
                lambda a, b, op=op: arith(op, a, b))
        setattr(FloatValue, "__r%s__" % op,
                lambda a, b, op=op: arith(op, b, a))
    for op in _CMP:
        setattr(FloatValue, "__%s__" % op,
                lambda a, b, op=op: compare(op, a, b))
    _ints._REAL = (float, FloatValue)
    _ints._floats = __import__(__name__, fromlist=["arith"])


_install()
