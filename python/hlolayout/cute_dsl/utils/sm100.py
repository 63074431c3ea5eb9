"""The twin of `cutlass.utils.sm100`: the shared-memory layouts of a
Blackwell GEMM's operands and epilogue, staged.

An operand's tile is the tiled MMA's partition of (MN, K) of the MMA
tiler, ((MMA_MN, MMA_K), MN_MMAs, K_MMAs); its atom is chosen by
_choice.py's rule (CUTLASS's sm100_smem_selector) on the block extents,
the MMA's extent times the count of MMAs along each mode (BlockTileA_M
and BlockTileA_K of sm100_umma_builder.inl), and tiled to the partition
and the stages with tcgen05.tile_to_mma_shape as sm100_mma_
warpspecialized.hpp tiles it. The epilogue's atom is chosen on each
epilogue mode's contiguous extent (a Layout mode counts with the first
mode of its coalesced right inverse: sm100_get_epilogue_smem_swizzle_
layout_atom, sm100_builder.inl) and tiled with tile_to_shape.
"""

from .. import _fast, _ints, _smem, _tuples
from .._algebra import Refusal
from .._objects import Layout
from ..nvgpu import tcgen05
from ..nvgpu._base import OperandMajorMode
from ._choice import major_extent, stage_order, widest_atom
from ._layout_enum import LayoutEnum

__all__ = ["get_smem_layout_atom_ab", "make_smem_layout_a",
           "make_smem_layout_b", "get_smem_layout_atom_epi",
           "make_smem_layout_epi"]


def get_smem_layout_atom_ab(major_mode, element_type, smem_shape_mn_k,
                            sparsity=1):
    """The tcgen05.SmemLayoutAtomKind of an (MN, K) tile of element_type,
    K-major or MN-major (major_mode); the K extent of a sparse operand
    counts its stored elements (divided by sparsity)."""
    fn = "sm100.get_smem_layout_atom_ab"
    _smem.need(major_mode, OperandMajorMode, fn, "an OperandMajorMode")
    _smem.need_dtype(element_type, fn)
    if not isinstance(smem_shape_mn_k, tuple) or len(smem_shape_mn_k) < 2:
        raise Refusal("%s expects the tile as a tuple (MN, K), got %r" %
                      (fn, smem_shape_mn_k))
    _smem.need_ints(smem_shape_mn_k, fn, "smem_shape_mn_k")
    if not _ints.is_static(smem_shape_mn_k):
        raise ValueError("%s takes a static tile, got %s" %
                         (fn, _tuples.text(smem_shape_mn_k)))
    k_major = major_mode is OperandMajorMode.K
    extent = major_extent(smem_shape_mn_k[1 if k_major else 0])
    return widest_atom(tcgen05.SmemLayoutAtomKind, "K" if k_major else "MN",
                       element_type.width, extent, fn, bits_floor=True,
                       divisor=sparsity, wide32=True)


def _operand(tiled_mma, tiler, dtype, stages, k_major, which):
    from .._atoms import TiledMma
    fn = "sm100.make_smem_layout_" + which.lower()
    _smem.need(tiled_mma, TiledMma, fn, "a TiledMma")
    _smem.need_dtype(dtype, fn)
    if not isinstance(tiler, tuple) or len(tiler) < 3:
        raise Refusal("%s expects the MMA tiler as a tuple (M, N, K), got %r"
                      % (fn, tiler))
    if k_major is None:
        # The op's own major mode (an op without one has none to give).
        major = getattr(tiled_mma.op, which.lower() + "_major_mode", None)
        if major is None:
            raise TypeError("%s: %s has no %s major mode; pass is_k_major" % (
                fn, type(tiled_mma.op).__name__, which))
        k_major = major is OperandMajorMode.K
    if len(tiler) != 3:
        raise Refusal("%s expects the MMA tiler as (M, N, K), got %s" %
                      (fn, _tuples.text(tiler)))
    mn = tiler[0] if which == "A" else tiler[1]
    part = getattr(tiled_mma, "partition_shape_" + which)((mn, tiler[2]))
    mma, mn_count, k_count = part[0], part[1], part[2]
    mma = _tuples.wrap(mma)
    block = (_ints.mul(major_extent(mma[0]), major_extent(mn_count)),
             _ints.mul(major_extent(mma[1]), major_extent(k_count)))
    kind = get_smem_layout_atom_ab(
        OperandMajorMode.K if k_major else OperandMajorMode.MN, dtype, block)
    atom = tcgen05.make_smem_layout_atom(kind, dtype)
    return tcgen05.tile_to_mma_shape(atom, tuple(part) + (stages,),
                                     order=stage_order(k_major, first=1))


def make_smem_layout_a(tiled_mma, mma_tiler_mnk, a_dtype, num_stages, *,
                       is_k_major=None):
    """A's staged shared-memory layout, ((MMA_M, MMA_K), M_MMAs, K_MMAs,
    stages); K-major as the MMA reads A unless is_k_major says."""
    return _operand(tiled_mma, mma_tiler_mnk, a_dtype, num_stages,
                    is_k_major, "A")


def make_smem_layout_b(tiled_mma, mma_tiler_mnk, b_dtype, num_stages, *,
                       is_k_major=None):
    """B's staged shared-memory layout, ((MMA_N, MMA_K), N_MMAs, K_MMAs,
    stages)."""
    return _operand(tiled_mma, mma_tiler_mnk, b_dtype, num_stages,
                    is_k_major, "B")


def _contiguous(mode):
    """The contiguous extent of an epilogue tile mode: an integer n (or a
    tuple: its product), or, for a Layout, the size of its right inverse,
    the longest run of indices 0, 1, ... the layout reaches in order.
    CUTLASS's sm100_get_epilogue_smem_swizzle_layout_atom takes the first
    mode of the coalesced right inverse; the DSL takes all of it
    (observed: (8,4):(4,1) counts 32, not 4)."""
    if isinstance(mode, Layout):
        from .. import _algebra
        return _algebra.size(_algebra.right_inverse(mode))
    return major_extent(mode)


def get_smem_layout_atom_epi(layout, element_type, epi_tile):
    """The tcgen05.SmemLayoutAtomKind of an epilogue tile laid out as
    `layout` (an M-major C takes an MN-major atom, an N-major one a
    K-major atom)."""
    fn = "sm100.get_smem_layout_atom_epi"
    _smem.need(layout, LayoutEnum, fn, "a utils.LayoutEnum")
    _smem.need(epi_tile, tuple, fn, "the epilogue tile as a tuple")
    extents = tuple(_contiguous(x) for x in epi_tile)
    major = OperandMajorMode.MN if layout.is_m_major_c() else \
        OperandMajorMode.K
    return get_smem_layout_atom_ab(major, element_type, extents)


def make_smem_layout_epi(epi_dtype, epi_layout, epi_tile, epi_stage):
    """The epilogue's staged shared-memory layout, (M, N, stages)."""
    fn = "sm100.make_smem_layout_epi"
    _smem.need_dtype(epi_dtype, fn)
    _smem.need(epi_layout, LayoutEnum, fn, "a utils.LayoutEnum")
    _smem.need(epi_tile, tuple, fn, "the epilogue tile as a tuple")
    if epi_dtype is _ints.Boolean:
        # The DSL stores a Boolean epilogue as bytes (observed: an 8-bit
        # atom, where get_smem_layout_atom_epi counts Boolean as 1 bit).
        epi_dtype = _ints.Int8
    kind = get_smem_layout_atom_epi(epi_layout, epi_dtype, epi_tile)
    atom = tcgen05.make_smem_layout_atom(kind, epi_dtype)
    sizes = tuple(major_extent(x.sh) if isinstance(x, Layout) else
                  major_extent(x) for x in epi_tile)
    return _fast.tile_to_shape(atom, sizes + (epi_stage,),
                               stage_order(epi_layout.is_n_major_c()))
