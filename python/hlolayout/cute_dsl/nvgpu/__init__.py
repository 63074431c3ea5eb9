"""The twin of `cutlass.cute.nvgpu`: the DSL's operations by their
submodules (warp, warpgroup, tcgen05, cpasync) and the ones every
architecture has (MmaUniversalOp, CopyUniversalOp), with OperandMajorMode
and OutputMajorMode. What each was written from: docs/cute-dsl.md,
"Sources"."""

from ._base import (CopyUniversalOp, MmaUniversalOp, OperandMajorMode,
                    OutputMajorMode)
from . import cpasync, tcgen05, warp, warpgroup

__all__ = ["CopyUniversalOp", "MmaUniversalOp", "OperandMajorMode",
           "OutputMajorMode", "warp", "warpgroup", "tcgen05", "cpasync"]
