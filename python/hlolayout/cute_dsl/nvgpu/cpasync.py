"""The twin of `cutlass.cute.nvgpu.cpasync`, for the one op whose atom
needs no tensor: `CopyG2SOp`, PTX's `cp.async` from global to shared
memory, CuTe's SM80_CP_ASYNC_CACHEALWAYS atoms
(include/cute/arch/copy_sm80.hpp). The TMA and bulk copies make their
atoms from a global tensor, which the twin does not have: not provided.
"""

import enum

from .._atoms import CopyOp
from ._base import Instruction, Named, copy_bits, refuse

__all__ = ["LoadCacheMode", "CopyG2SOp"]


class LoadCacheMode(Named, enum.Enum):
    """Where a load may be cached (PTX's cache operators)."""

    ALWAYS = "always"
    GLOBAL = "global"
    STREAMING = "streaming"
    LAST_USE = "last_use"
    NONE = "none"


class CopyG2SOp(Instruction, CopyOp):
    """cp.async of num_bits_per_copy bits a thread. PTX's cp.async copies
    4, 8 or 16 bytes (CuTe's SM80_CP_ASYNC_* static_assert the same); the
    cache mode does not change the atom's layouts."""

    _module = "cpasync"
    _fields = ("cache_mode",)

    def __init__(self, cache_mode=LoadCacheMode.ALWAYS):
        self._keep(cache_mode=cache_mode)

    def __str__(self):
        text = "cp.async GMEM -> SMEM copy Operation"
        if self.cache_mode is not LoadCacheMode.ALWAYS:
            text += "\n  with cache mode = %s" % self.cache_mode
        return text

    def _cpp_op(self, value_type, num_bits_per_copy=None, **kwargs):
        if not isinstance(self.cache_mode, LoadCacheMode):
            refuse(self, "cache_mode must be a cpasync.LoadCacheMode, got %r"
                   % (self.cache_mode,))
        # Other copy arguments change nothing here (observed).
        if num_bits_per_copy is None:
            raise ValueError("cpasync.CopyG2SOp needs num_bits_per_copy (a "
                             "positive int) to make an atom")
        integer = copy_bits(self, value_type, num_bits_per_copy)
        if num_bits_per_copy not in (32, 64, 128):
            refuse(self, "cp.async copies 32, 64 or 128 bits, not %d" %
                   num_bits_per_copy)
        return "SM80_CP_ASYNC_CACHEALWAYS<%s>" % integer
