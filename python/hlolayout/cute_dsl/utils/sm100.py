"""The twin of `cutlass.utils.sm100` (blackwell_helpers): the swizzle a
Blackwell GEMM picks for its shared-memory tiles and the staged layouts,
tiled to the MMA's shape (tcgen05.tile_to_mma_shape).

The swizzle choice (get_smem_layout_atom_ab): the widest of 128, 64 and 32
bytes that divides the major extent in bits (for 32-bit MN-major operands
the 128-byte atom of 32-byte rows, MN_SW128_32B), else the interleaved
atom.
"""

from .. import _fast, _ints, _smem, _tuples
from .._algebra import Refusal
from ..nvgpu import tcgen05
from ..nvgpu._common import OperandMajorMode

__all__ = ["get_smem_layout_atom_ab", "make_smem_layout_a",
           "make_smem_layout_b", "get_smem_layout_atom_epi",
           "make_smem_layout_epi"]

_WIDTHS = ((1024, "SW128"), (512, "SW64"), (256, "SW32"))


def get_smem_layout_atom_ab(major_mode, element_type, smem_shape_mn_k,
                            sparsity=1):
    """The tcgen05.SmemLayoutAtomKind for an (MN, K) tile."""
    fn = "sm100.get_smem_layout_atom_ab"
    _smem.need(major_mode, OperandMajorMode, fn, "an OperandMajorMode")
    _smem.need_dtype(element_type, fn)
    _smem.need_ints(smem_shape_mn_k, fn, "smem_shape_mn_k")
    k_major = major_mode is OperandMajorMode.K
    shape = _tuples.wrap(smem_shape_mn_k)
    size = _tuples.product(shape[1] if k_major else shape[0])
    size = _ints.value(size)
    if size % 8:
        raise Refusal("sm100.get_smem_layout_atom_ab: the major mode size "
                      "%d is not a multiple of 8" % size)
    bits = size * element_type.width
    if k_major:
        bits //= sparsity
    if bits % 128:
        raise Refusal("sm100.get_smem_layout_atom_ab: the major mode is %d "
                      "bits, not a multiple of 128" % bits)
    if not k_major and element_type.width == 32 and bits % 1024 == 0:
        return tcgen05.SmemLayoutAtomKind.MN_SW128_32B
    major = "K" if k_major else "MN"
    for width, name in _WIDTHS:
        if bits % width == 0:
            return tcgen05.SmemLayoutAtomKind["%s_%s" % (major, name)]
    return tcgen05.SmemLayoutAtomKind[major + "_INTER"]


def _dice(t, coord):
    """CuTe's dice: the modes of t where coord is an integer."""
    return tuple(x for x, c in zip(t, coord) if c is not None)


def _operand(tiled_mma, mma_tiler_mnk, dtype, num_stages, k_major, which):
    from .._atoms import TiledMma
    fn = "sm100.make_smem_layout_" + which.lower()
    _smem.need(tiled_mma, TiledMma, fn, "a TiledMma")
    _smem.need_dtype(dtype, fn)
    if not isinstance(mma_tiler_mnk, tuple):
        raise Refusal("sm100.make_smem_layout_%s expects the MMA tiler as a "
                      "tuple, got %r" % (which.lower(), mma_tiler_mnk))
    coords = {"A": (1, None, 1), "B": (None, 1, 1)}[which]
    kept = _dice(mma_tiler_mnk, tuple(None if c is None else 1
                                      for c in coords))
    kept = tuple(x for x, c in zip(mma_tiler_mnk, coords) if c == 1)
    part = getattr(tiled_mma, "partition_shape_" + which)(kept)
    frg = _tuples.wrap(part[0])
    mn_k = (_ints.mul(_tuples.product(frg[0]), _tuples.product(part[1])),
            _ints.mul(_tuples.product(frg[1]), _tuples.product(part[2])))
    major = OperandMajorMode.K if k_major else OperandMajorMode.MN
    atom = tcgen05.make_smem_layout_atom(
        get_smem_layout_atom_ab(major, dtype, mn_k), dtype)
    shape = tuple(part) + (num_stages,)
    order = (1, 2, 3) if k_major else (2, 1, 3)
    return tcgen05.tile_to_mma_shape(atom, shape, order=order)


def make_smem_layout_a(tiled_mma, mma_tiler_mnk, a_dtype, num_stages,
                       is_k_major=None):
    """The staged shared-memory layout of A, ((MMA_M,MMA_K),M_MMAs,K_MMAs,
    stages)."""
    if is_k_major is None:
        is_k_major = getattr(getattr(tiled_mma, "op", None), "a_major_mode",
                             None) is OperandMajorMode.K
    return _operand(tiled_mma, mma_tiler_mnk, a_dtype, num_stages,
                    is_k_major, "A")


def make_smem_layout_b(tiled_mma, mma_tiler_mnk, b_dtype, num_stages,
                       is_k_major=None):
    """The staged shared-memory layout of B, ((MMA_N,MMA_K),N_MMAs,K_MMAs,
    stages)."""
    if is_k_major is None:
        is_k_major = getattr(getattr(tiled_mma, "op", None), "b_major_mode",
                             None) is OperandMajorMode.K
    return _operand(tiled_mma, mma_tiler_mnk, b_dtype, num_stages,
                    is_k_major, "B")


def get_smem_layout_atom_epi(layout, element_type, epi_tile):
    """The atom kind for an epilogue tile (its modes' extents; a layout
    mode counts with the shape of its coalesced right inverse)."""
    from .. import _algebra
    from .._objects import Layout
    from . import LayoutEnum
    fn = "sm100.get_smem_layout_atom_epi"
    _smem.need(layout, LayoutEnum, fn, "a utils.LayoutEnum")
    _smem.need(epi_tile, tuple, fn, "the epilogue tile as a tuple")
    shape = tuple(_algebra.coalesce(_algebra.right_inverse(x)).shape
                  if isinstance(x, Layout) else x for x in epi_tile)
    major = (OperandMajorMode.MN if layout.is_m_major_c()
             else OperandMajorMode.K)
    return get_smem_layout_atom_ab(major, element_type, shape)


def make_smem_layout_epi(epi_dtype, epi_layout, epi_tile, epi_stage):
    """The staged (M, N, stages) shared-memory layout of the epilogue."""
    from .. import _ints as ints
    from . import LayoutEnum
    fn = "sm100.make_smem_layout_epi"
    _smem.need_dtype(epi_dtype, fn)
    _smem.need(epi_layout, LayoutEnum, fn, "a utils.LayoutEnum")
    _smem.need(epi_tile, tuple, fn, "the epilogue tile as a tuple")
    if epi_dtype is ints.Boolean:
        epi_dtype = ints.Int8
    from .._objects import Layout
    shape = tuple(_tuples.product(x.sh) if isinstance(x, Layout)
                  else _tuples.product(x) for x in epi_tile)
    atom = tcgen05.make_smem_layout_atom(
        get_smem_layout_atom_epi(epi_layout, epi_dtype, epi_tile), epi_dtype)
    order = (1, 0, 2) if not epi_layout.is_n_major_c() else (0, 1, 2)
    return _fast.tile_to_shape(atom, shape + (epi_stage,), order)
