"""The pieces every op class of `nvgpu` is made of.

An op is an immutable record of its parameters (`Instruction`): it checks
them once, when made, against its family's rules, and prints as a card, a
title line and one `label = value` row per parameter, the labels padded to
a fixed column (the DSL prints them so: observed, docs/cute-dsl.md,
"Sources"). The enumerations print `Class.NAME` and repr `<Class.NAME>`
(observed). A parameter outside the op's domain is a DSLUserCodeError
naming the op, the parameter and what it may be.

The architecture families are the lists the DSL names when it refuses an
op for the architecture (observed on every architecture of the harness);
sm_101 is the DSL's earlier name of sm_110 (it reports sm_101a as sm_110a).
"""

import enum

from .. import _config
from .. import _numeric_types as _nt
from .._atoms import CopyOp, DSLUserCodeError, MmaOp

__all__ = ["Named", "OperandMajorMode", "OutputMajorMode", "Instruction",
           "MmaUniversalOp", "CopyUniversalOp", "DSLUserCodeError",
           "is_dtype", "refuse", "need", "need_arch", "card", "python_text"]


class Named:
    """An enumeration member that prints `Class.NAME` (repr
    `<Class.NAME>`)."""

    def __str__(self):
        return "%s.%s" % (type(self).__name__, self.name)

    def __repr__(self):
        return "<%s.%s>" % (type(self).__name__, self.name)


class OperandMajorMode(Named, enum.Enum):
    """Which mode of an MMA operand is contiguous: M or N (MN), or K."""

    MN = "mn"
    K = "k"


class OutputMajorMode(Named, enum.Enum):
    """Which mode of an MMA result is contiguous."""

    M = "m"
    N = "n"


# Architecture families (the DSL's refusals list them).
SM90A = ("sm_90a",)
SM100_FAMILY = ("sm_100a", "sm_100f", "sm_110a", "sm_110f", "sm_103a",
                "sm_103f", "sm_107a", "sm_107f")
SM100_SCALED = ("sm_100a", "sm_100f", "sm_103a", "sm_107a", "sm_110a")
SM120_FAMILY = ("sm_120a", "sm_120f", "sm_121a", "sm_121f")


def current_arch():
    """The architecture as the DSL names it (sm_101* is sm_110*)."""
    arch = _config.get_arch()
    if arch.startswith("sm_101"):
        return "sm_110" + arch[6:]
    return arch


def need_arch(what, family):
    """DSLUserCodeError unless the architecture is one of `family`."""
    arch = current_arch()
    if arch not in family:
        # A base name (sm_90) whose architecture-specific variant the op
        # takes: say which.
        near = [arch + v for v in ("a", "f") if arch + v in family]
        raise DSLUserCodeError(
            "%s needs the architecture to be one of %s, but it is %s (set it "
            "with cute_dsl.set_arch or CUTE_DSL_ARCH)%s" %
            (what, ", ".join(family), arch,
             "; did you mean %s?" % near[0] if near else ""))


def is_dtype(x):
    """Whether x is a DSL data type (cute.Float16, cute.Int8, ...)."""
    return isinstance(x, _nt._NumericMeta)


def refuse(op, text):
    """A DSLUserCodeError about the op being made."""
    raise DSLUserCodeError("%s: %s" % (op._label(), text))


def need(op, name, value, allowed, words=None):
    """Refuses unless value is one of allowed (compared by identity for
    data types and enumeration members, by equality for the rest)."""
    for a in allowed:
        if value is a or (type(value) is type(a) and value == a):
            return
    refuse(op, "%s must be %s, got %s" % (
        name, words or " or ".join(python_text(a) for a in allowed),
        python_text(value)))


def python_text(x):
    """A value as the DSL's op cards print it: tuples as Python prints
    them, data types and enumeration members by name."""
    if isinstance(x, (tuple, list)):
        return str(type(x)(python_text(e) for e in x)).replace("'", "")
    return str(x)


def card(title, rows, width):
    """The printed op: its title, then `  label = value` rows with the
    labels padded to `width` columns."""
    return title + "".join("\n  %s= %s" % (label.ljust(width), value)
                           for label, value in rows)


class Instruction:
    """An op: an immutable record of its parameters (`_fields`), equal to
    another of its class with the same parameters."""

    _fields = ()
    _module = ""

    def __setattr__(self, name, value):
        raise AttributeError("%s is immutable: cannot set %r" %
                             (type(self).__name__, name))

    def _keep(self, **values):
        for name, value in values.items():
            object.__setattr__(self, name, value)

    def _label(self):
        return (self._module + "." if self._module else "") + \
            type(self).__name__

    def __eq__(self, other):
        return type(self) is type(other) and all(
            getattr(self, f) == getattr(other, f) for f in self._fields)

    def __hash__(self):
        return hash((type(self).__name__,) +
                    tuple(str(getattr(self, f)) for f in self._fields))

    def __repr__(self):
        return "%s(%s)" % (type(self).__name__, ", ".join(
            "%s=%s" % (f, python_text(getattr(self, f)))
            for f in self._fields))


# CuTe's C++ scalar types of the universal FMA (include/cute/arch/mma.hpp:
# UniversalFMA<D,A,B,C>).
_FMA_TYPES = {"Float16": "half_t", "Float32": "float", "Float64": "double"}


class MmaUniversalOp(Instruction, MmaOp):
    """One thread's scalar multiply-add, CuTe's UniversalFMA of one type
    (include/cute/arch/mma.hpp; the DSL takes Float16, Float32 and
    Float64: observed)."""

    _fields = ("abacc_dtype",)

    def __init__(self, abacc_dtype):
        self._keep(abacc_dtype=abacc_dtype)
        need(self, "abacc_dtype", abacc_dtype,
             (_nt.Float16, _nt.Float32, _nt.Float64))

    def __str__(self):
        return card("universal MMA Operation using FMA",
                    [("A/B/Accumulator data type", self.abacc_dtype)], 26)

    def _cpp_name(self):
        t = _FMA_TYPES[self.abacc_dtype.name]
        return "UniversalFMA<%s,%s,%s,%s>" % (t, t, t, t)


# CuTe's unsigned integers by width (include/cute/numeric/int.hpp,
# uint_bit: 8 to 256 bits for a copy).
_UINT = {8: "uint8_t", 16: "uint16_t", 32: "uint32_t", 64: "uint64_t",
         128: "uint128_t", 256: "uint256_t"}


def copy_bits(op, value_type, bits):
    """The CuTe integer a thread moves for `bits` bits of value_type: a
    whole number of values (CuTe's Copy_Atom divides the bits by the value
    width) in one of CuTe's unsigned integers."""
    if isinstance(bits, bool) or not isinstance(bits, int) or bits <= 0:
        raise ValueError("%s takes a positive int num_bits_per_copy, got %r" %
                         (op._label(), bits))
    if bits % value_type.width:
        refuse(op, "%d bits per copy is not a whole number of %s values "
                   "(CuTe refuses; the DSL copies one value)" %
               (bits, value_type))
    if bits not in _UINT:
        refuse(op, "CuTe has no %d-bit integer to copy with (its copies "
                   "move 8 to 256 bits, a power of 2)" % bits)
    return _UINT[bits]


class CopyUniversalOp(Instruction, CopyOp):
    """A plain copy: one value per thread (CuTe's DefaultCopy), or
    num_bits_per_copy bits (CuTe's UniversalCopy of that integer;
    include/cute/arch/copy.hpp)."""

    def __str__(self):
        return "universal Copy Operation"

    def _cpp_op(self, value_type, num_bits_per_copy=0, **kwargs):
        # The DSL takes the load's cache hints and changes nothing for them;
        # any other argument it refuses (observed).
        other = sorted(set(kwargs) - {"l1c_evict_priority", "invariant"})
        if other:
            refuse(self, "takes no %s" % ", ".join(other))
        if num_bits_per_copy == 0:
            return "DefaultCopy"
        return "UniversalCopy<%s>" % copy_bits(self, value_type,
                                               num_bits_per_copy)
