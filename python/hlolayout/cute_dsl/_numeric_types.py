"""The DSL's floating-point data types (`cute.Float16`, ...): names,
widths and MLIR element types as the DSL prints them. The integer types are
in _ints (they also make dynamic integers)."""

from ._ints import Numeric, _NumericMeta, _numeric

__all__ = ["Float", "Float16", "BFloat16", "Float32", "TFloat32", "Float64",
           "Float8E4M3FN", "Float8E4M3", "Float8E5M2", "Float8E8M0FNU",
           "Float6E2M3FN", "Float6E3M2FN", "Float4E2M1FN", "Int4", "Int128",
           "Uint128", "dtype_by_name"]


class Float(Numeric, metaclass=_NumericMeta):
    """A DSL floating-point data type (a class used as a value)."""

    name = "Float"
    width = 32
    is_float = True

    def __new__(cls, *args):
        """Float16/Float32/Float64(v): a float value (_floats); the other
        float types are data types only."""
        from . import _floats
        if cls.name not in _floats._PACK:
            raise TypeError("%s is a data type here; the twin computes with "
                            "Float16, Float32 and Float64 values only" %
                            cls.name)
        if len(args) != 1:
            raise TypeError("%s takes one value" % cls.name)
        return _floats.make(cls.name, args[0])


Float16 = _numeric("Float16", 16, "f16", Float)
BFloat16 = _numeric("BFloat16", 16, "bf16", Float)
Float32 = _numeric("Float32", 32, "f32", Float)
TFloat32 = _numeric("TFloat32", 32, "tf32", Float)
Float64 = _numeric("Float64", 64, "f64", Float)
Float8E4M3FN = _numeric("Float8E4M3FN", 8, "f8E4M3FN", Float)
Float8E4M3 = _numeric("Float8E4M3", 8, "f8E4M3", Float)
Float8E5M2 = _numeric("Float8E5M2", 8, "f8E5M2", Float)
Float8E8M0FNU = _numeric("Float8E8M0FNU", 8, "f8E8M0FNU", Float)
Float6E2M3FN = _numeric("Float6E2M3FN", 6, "f6E2M3FN", Float)
Float6E3M2FN = _numeric("Float6E3M2FN", 6, "f6E3M2FN", Float)
Float4E2M1FN = _numeric("Float4E2M1FN", 4, "f4E2M1FN", Float)

from ._ints import Integer  # noqa: E402

Int4 = _numeric("Int4", 4, "i4", Integer)
Int128 = _numeric("Int128", 128, "i128", Integer)
Uint128 = _numeric("Uint128", 128, "i128", Integer, signed=False)


def dtype_by_name(name):
    """The data type class of a DSL name ("Float16") or None."""
    from . import _ints
    t = globals().get(name) or getattr(_ints, name, None)
    return t if isinstance(t, _NumericMeta) else None
