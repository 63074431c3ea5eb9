"""The DSL's `cutlass.torch` for the twin: the PyTorch element type of a
DSL type (`dtype`), as the notebooks use it to make their inputs.

    >>> import torch
    >>> from hlolayout import cute_dsl as cute
    >>> from hlolayout.cute_dsl.torch_interop import dtype
    >>> dtype(cute.Float32), dtype(cute.TFloat32), dtype(int)
    (torch.float32, torch.float32, torch.int32)

Imports torch when called (the twin itself does not need it). A type
PyTorch has no element type for is refused as the DSL refuses it:
`TypeError: Uint16 is not supported by torch`.
"""

from . import _ints
from ._numeric_types import BFloat16, Float16, Float32, Float64, TFloat32

__all__ = ["dtype"]

# DSL type -> the name of torch's element type (TFloat32 is stored as
# float32; a Python int is an Int32).
_TORCH_NAMES = (
    (Float16, "float16"), (BFloat16, "bfloat16"), (Float32, "float32"),
    (TFloat32, "float32"), (Float64, "float64"), (_ints.Int8, "int8"),
    (_ints.Int16, "int16"), (_ints.Int32, "int32"), (_ints.Int64, "int64"),
    (_ints.Uint8, "uint8"), (_ints.Boolean, "bool"), (int, "int32"),
)


def dtype(ty):
    """The torch dtype holding values of the DSL type `ty`."""
    import torch
    for t, name in _TORCH_NAMES:
        if ty is t:
            return getattr(torch, name)
    raise TypeError("%s is not supported by torch" %
                    getattr(ty, "__name__", ty))
