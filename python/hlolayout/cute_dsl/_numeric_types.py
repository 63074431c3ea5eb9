"""The DSL's floating-point data types (`cute.Float16`, ...), from NVIDIA's
"Basic Data Types" page (docs.nvidia.com/cutlass, pythonDSL: Float, the
standard and the narrow floating-point types) with each type's width and
MLIR element type as the DSL prints them in an atom's card or a tensor's
type. The integer types are _ints' (their classes are also the classes of
their values); Int4, Int128 and Uint128 are re-exported from there."""

from ._ints import Int4, Int128, Integer, Numeric, Uint128, _NumericMeta

__all__ = ["Float", "Float16", "BFloat16", "Float32", "TFloat32", "Float64",
           "Float8E4M3FN", "Float8E4M3", "Float8E5M2", "Float8E8M0FNU",
           "Float6E2M3FN", "Float6E3M2FN", "Float4E2M1FN", "Int4", "Int128",
           "Uint128", "dtype_by_name"]


class Float(Numeric):
    """The DSL's base of the floating-point types. Float16(v), Float32(v)
    and Float64(v) make a float value (_floats); the other float types are
    data types only here."""

    name = "Float"
    width = 32
    is_float = True

    def __new__(cls, *args):
        from . import _floats
        if cls.name not in _floats._PACK:
            raise TypeError("%s is a data type here; the twin computes with "
                            "Float16, Float32 and Float64 values only" %
                            cls.name)
        if len(args) != 1:
            raise TypeError("%s takes one value" % cls.name)
        return _floats.make(cls.name, args[0])


# name, width in bits; the MLIR type is the name's, lower case, with f for
# Float (f16, bf16, tf32, f8E4M3FN, ...).
_FLOAT_TYPES = [
    ("Float16", 16), ("BFloat16", 16), ("Float32", 32), ("TFloat32", 32),
    ("Float64", 64), ("Float8E4M3FN", 8), ("Float8E4M3", 8),
    ("Float8E5M2", 8), ("Float8E8M0FNU", 8), ("Float6E2M3FN", 6),
    ("Float6E3M2FN", 6), ("Float4E2M1FN", 4)]


def _mlir_name(name, width):
    """The MLIR element type of a float type: f16, bf16, tf32, f8E4M3FN."""
    if name.startswith("Float") and name[5:].isdigit():
        return "f%d" % width
    if name in ("BFloat16", "TFloat32"):
        return name[0].lower() + "f%d" % width
    return "f" + name[len("Float"):]


_TYPES = {}
for _name, _width in _FLOAT_TYPES:
    _TYPES[_name] = _NumericMeta(_name, (Float,), {
        "__module__": __name__, "name": _name, "width": _width,
        "mlir": _mlir_name(_name, _width)})
(Float16, BFloat16, Float32, TFloat32, Float64, Float8E4M3FN, Float8E4M3,
 Float8E5M2, Float8E8M0FNU, Float6E2M3FN, Float6E3M2FN, Float4E2M1FN) = (
     _TYPES[n] for n, _ in _FLOAT_TYPES)
del _name, _width


def dtype_by_name(name):
    """The DSL type named `name` ("Float16", "Uint8") or None."""
    from . import _ints
    t = _TYPES.get(name) or _ints._BY_NAME.get(name)
    return t if isinstance(t, _NumericMeta) else None
