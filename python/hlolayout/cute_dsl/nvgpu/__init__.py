"""The twin of `cutlass.cute.nvgpu`: the DSL's operations by their classes
(warp, warpgroup, tcgen05, cpasync) and the common ones (MmaUniversalOp,
CopyUniversalOp, OperandMajorMode)."""

from ._common import (CopyUniversalOp, MmaUniversalOp, OperandMajorMode,
                      OutputMajorMode)
from . import cpasync, tcgen05, warp, warpgroup

__all__ = ["CopyUniversalOp", "MmaUniversalOp", "OperandMajorMode",
           "OutputMajorMode", "warp", "warpgroup", "tcgen05", "cpasync"]
