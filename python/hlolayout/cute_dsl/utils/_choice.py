"""Which shared-memory atom a GEMM tile gets, and the staged layout built
from it: what utils.sm90 and utils.sm100 share.

The choice (CUTLASS's ss_smem_selector, include/cutlass/gemm/collective/
builders/sm90_common.inl, and sm100_smem_selector, sm100_common.inl): the
widest of the 128-, 64- and 32-byte swizzled atoms whose row, along the
tile's contiguous (major) mode, divides that mode's extent; else the
interleaved atom. A row of w bits holds w / width elements, so the test
is on the extent in bits: 1024, 512, 256, then 128 for the interleaved
atom. How the DSL departs from CUTLASS's static_asserts, observed on the
grids of differential/cute_dsl/domain_cases.py:

- the major extent must be a multiple of 8 elements (CUTLASS asserts this
  of both extents; the DSL of the major one, with an AssertionError);
- sm90 takes the interleaved atom whatever the bits (CUTLASS asserts they
  are a multiple of 128); sm100 asserts they are (a multiple of 128 bits,
  the K-major extent counted in stored elements: divided by the
  sparsity);
- sm100's 32-bit MN-major operand takes MN_SW128_32B where the extent is a
  multiple of 1024 bits, else the widest of the rest (CUTLASS asserts the
  32B atom fits).

The staged layout (CUTLASS's collectives: sm90_mma_tma_gmma_ss_
warpspecialized.hpp and sm90_epilogue_tma_warpspecialized.hpp tile the
atom with tile_to_shape to (MN, K, stages); sm100_mma_warpspecialized.hpp
with UMMA::tile_to_mma_shape to the MMA's partition shape and the stages):
a K-major tile repeats its atom along MN first (order 1, 2, 3), an
MN-major tile along K first (2, 1, 3).
"""

from .. import _tuples
from .._algebra import Refusal

__all__ = ["widest_atom", "major_extent", "stage_order"]

# (bits a row, the kind's name after the major mode), widest first.
_SWIZZLED = ((1024, "SW128"), (512, "SW64"), (256, "SW32"))


def major_extent(x):
    """The number of elements of a tile mode (an int or a tuple of
    ints)."""
    return _tuples.product(x)


def widest_atom(kinds, major, width, extent, fn, bits_floor=False,
                divisor=1, wide32=False):
    """The member of `kinds` (a SmemLayoutAtomKind) for a tile whose major
    mode (`major`: "K" or "MN") has `extent` elements of `width` bits.
    bits_floor: refuse extents not a multiple of 128 bits (sm100);
    divisor: the K-major extent's sparsity; wide32: sm100's MN_SW128_32B
    for 32-bit MN-major operands."""
    from .. import _ints
    extent = _ints.value(extent)
    if extent % 8:
        raise Refusal("%s: the major mode has %d elements, not a multiple of "
                      "8" % (fn, extent))
    bits = extent * width
    if major == "K":
        bits //= divisor
    if bits_floor and bits % 128:
        raise Refusal("%s: the major mode is %d bits, not a multiple of 128" %
                      (fn, bits))
    if wide32 and major == "MN" and width == 32 and bits % 1024 == 0:
        return kinds.MN_SW128_32B
    for row, name in _SWIZZLED:
        if bits % row == 0:
            return kinds["%s_%s" % (major, name)]
    return kinds[major + "_INTER"]


def stage_order(k_major, first=0):
    """The order tile_to_shape repeats an atom over (MN, K, stages) in:
    MN first for a K-major tile, K first for an MN-major one; numbered
    from `first` (0 for tile_to_shape, 1 as CUTLASS's Step<_1,_2,_3>)."""
    if k_major:
        return (first, first + 1, first + 2)
    return (first + 1, first, first + 2)
