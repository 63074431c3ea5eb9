"""The twin of `cutlass.cute.nvgpu.cpasync`: the SM80 asynchronous copy
from global to shared memory (cp.async), CuTe's SM80_CP_ASYNC atoms. (The
TMA operations need a global tensor to make an atom; the twin has none.)"""

import enum

from .._atoms import CopyOp
from ._common import DSLUserCodeError, EnumText, bits_per_copy, frozen

__all__ = ["LoadCacheMode", "CopyG2SOp"]


class LoadCacheMode(EnumText, enum.Enum):
    ALWAYS = "always"
    GLOBAL = "global"
    STREAMING = "streaming"
    LAST_USE = "last_use"
    NONE = "none"


class CopyG2SOp(frozen, CopyOp):
    """cp.async of num_bits_per_copy bits (32, 64 or 128) per thread."""

    _fields = ("cache_mode",)

    def __init__(self, cache_mode=LoadCacheMode.ALWAYS):
        self._set(cache_mode=cache_mode)

    def __str__(self):
        s = "cp.async GMEM -> SMEM copy Operation"
        if self.cache_mode is not LoadCacheMode.ALWAYS:
            s += "\n  with cache mode = %s" % self.cache_mode
        return s

    def _cpp_op(self, value_type, num_bits_per_copy=None, **kwargs):
        if not isinstance(self.cache_mode, LoadCacheMode):
            raise DSLUserCodeError("CopyG2SOp: cache_mode must be a "
                                   "cpasync.LoadCacheMode")
        if num_bits_per_copy is None:
            raise ValueError("CopyG2SOp needs a positive int "
                             "num_bits_per_copy")
        bits = bits_per_copy("CopyG2SOp", value_type, num_bits_per_copy,
                             False)
        if bits not in (32, 64, 128):
            raise DSLUserCodeError("CopyG2SOp: cp.async moves 32, 64 or 128 "
                                   "bits, not %d" % bits)
        # The thread-value layouts of cp.async do not depend on the cache
        # mode: CACHEALWAYS stands for every mode (CACHEGLOBAL is 128-bit).
        return "SM80_CP_ASYNC_CACHEALWAYS<uint%d_t>" % bits
