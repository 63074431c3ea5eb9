"""The operations every architecture has, and the enumerations the
nvgpu submodules share: their names and printed forms are the DSL's."""

import enum

from .._atoms import CopyOp, DSLUserCodeError, MmaOp
from .. import _numeric_types as _nt

__all__ = ["OperandMajorMode", "OutputMajorMode", "MmaUniversalOp",
           "CopyUniversalOp", "DSLUserCodeError", "EnumText", "frozen",
           "shape_text", "dtype_text"]


class EnumText:
    """Enumerations print `Class.NAME` and repr `<Class.NAME>`, as the
    DSL's."""

    def __str__(self):
        return "%s.%s" % (type(self).__name__, self.name)

    def __repr__(self):
        return "<%s.%s>" % (type(self).__name__, self.name)


class OperandMajorMode(EnumText, enum.Enum):
    """The major mode of an MMA operand: MN or K."""

    MN = "mn"
    K = "k"

    @classmethod
    def _missing_(cls, value):
        if isinstance(value, str):
            value = value.upper()
            if value in ("MN", "K"):
                return cls[value]
        return None


class OutputMajorMode(EnumText, enum.Enum):
    M = "m"
    N = "n"


def shape_text(t):
    """A shape as the DSL's operations print it: Python's tuple text."""
    return str(tuple(t)) if isinstance(t, (tuple, list)) else str(t)


def dtype_text(t):
    return str(t)


class frozen:
    """Operations are frozen values (the DSL's are frozen dataclasses)."""

    _fields = ()

    def __setattr__(self, name, value):
        raise AttributeError("cannot assign to field %r: operations are "
                             "frozen" % name)

    def _set(self, **kwargs):
        for k, v in kwargs.items():
            object.__setattr__(self, k, v)

    def __eq__(self, other):
        return type(self) is type(other) and all(
            getattr(self, f) == getattr(other, f) for f in self._fields)

    def __hash__(self):
        return hash((type(self).__name__,) + tuple(
            str(getattr(self, f)) for f in self._fields))

    def __repr__(self):
        return "%s(%s)" % (type(self).__name__, ", ".join(
            "%s=%s" % (f, getattr(self, f)) for f in self._fields))


_CPP_SCALAR = {"Float16": "half_t", "Float32": "float", "Float64": "double"}


class MmaUniversalOp(frozen, MmaOp):
    """A scalar FMA on any architecture (CuTe's UniversalFMA<T,T,T,T>)."""

    _fields = ("abacc_dtype",)

    def __init__(self, abacc_dtype):
        self._set(abacc_dtype=abacc_dtype)
        if abacc_dtype not in (_nt.Float16, _nt.Float32, _nt.Float64):
            raise DSLUserCodeError("MmaUniversalOp: the A/B/accumulator type "
                                   "must be Float16, Float32 or Float64, not "
                                   "%s" % abacc_dtype)

    def __str__(self):
        return ("universal MMA Operation using FMA\n"
                "  A/B/Accumulator data type = %s" % self.abacc_dtype)

    def _cpp_name(self):
        t = _CPP_SCALAR[self.abacc_dtype.name]
        return "UniversalFMA<%s,%s,%s,%s>" % (t, t, t, t)


def uint_type(bits):
    """CuTe's unsigned integer type of `bits` bits."""
    names = {8: "uint8_t", 16: "uint16_t", 32: "uint32_t", 64: "uint64_t",
             128: "uint128_t", 256: "uint256_t"}
    if bits not in names:
        raise DSLUserCodeError("a copy of %d bits per thread has no CuTe "
                               "integer type (8 to 256, a power of 2)" % bits)
    return names[bits]


def bits_per_copy(op_name, value_type, num_bits_per_copy, allow_zero):
    """The bits one thread moves: num_bits_per_copy (0: one value)."""
    n = num_bits_per_copy
    if isinstance(n, bool) or not isinstance(n, int) or n < 0 or (
            n == 0 and not allow_zero):
        raise ValueError("%s expects a positive int num_bits_per_copy, got "
                         "%r" % (op_name, n))
    if n == 0:
        return value_type.width
    if n % value_type.width:
        raise DSLUserCodeError("%s: %d bits per copy is not a whole number "
                               "of %s values (the DSL rounds it up to one "
                               "value; CuTe refuses)" %
                               (op_name, n, value_type))
    return n


class CopyUniversalOp(frozen, CopyOp):
    """A plain copy of num_bits_per_copy bits per thread (default: one
    value), CuTe's UniversalCopy<uintN_t>."""

    def __init__(self):
        pass

    def __str__(self):
        return "universal Copy Operation"

    def _cpp_op(self, value_type, num_bits_per_copy=0, **kwargs):
        ignored = ("l1c_evict_priority", "invariant")
        rejected = sorted(k for k in kwargs if k not in ignored)
        if rejected:
            raise DSLUserCodeError("CopyUniversalOp does not take %s" %
                                   ", ".join(rejected))
        if num_bits_per_copy == 0:
            # No width given: one value at a time (CuTe's DefaultCopy,
            # (1,1):(0,0)).
            return "DefaultCopy"
        bits = bits_per_copy("CopyUniversalOp", value_type,
                             num_bits_per_copy, False)
        return "UniversalCopy<%s>" % uint_type(bits)
