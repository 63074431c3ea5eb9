"""The twin of `cutlass.utils.sm90` (hopper_helpers): the swizzle a
Hopper GEMM picks for its shared-memory tiles and the staged layouts.

The swizzle choice (get_smem_layout_atom): the widest of 128, 64 and 32
bytes that divides the contiguous (major) extent of the tile in bits, else
the interleaved atom; K-major for ROW_MAJOR A and B (and N-major C), MN-
major otherwise. The staged layout tiles that atom over (tile, stages) with
tile_to_shape, the major mode first.
"""

from .. import _fast, _smem, _tuples
from .._algebra import Refusal
from ..nvgpu import warpgroup
from ..nvgpu._common import OperandMajorMode

__all__ = ["get_smem_layout_atom", "make_smem_layout_a",
           "make_smem_layout_b", "make_smem_layout_epi"]

_WIDTHS = ((1024, "SW128"), (512, "SW64"), (256, "SW32"))


def get_smem_layout_atom(layout, element_type, major_mode_size):
    """The warpgroup.SmemLayoutAtomKind for a tile whose major mode has
    major_mode_size elements of element_type."""
    from . import LayoutEnum
    fn = "sm90.get_smem_layout_atom"
    _smem.need(layout, LayoutEnum, fn, "a utils.LayoutEnum")
    _smem.need_dtype(element_type, fn)
    _smem.need_ints(major_mode_size, fn, "major_mode_size")
    if major_mode_size % 8:
        raise Refusal("sm90.get_smem_layout_atom: the major mode size %d is "
                      "not a multiple of 8" % major_mode_size)
    bits = major_mode_size * element_type.width
    major = ("MN" if layout.sm90_mma_major_mode() is OperandMajorMode.MN
             else "K")
    for width, name in _WIDTHS:
        if bits % width == 0:
            return warpgroup.SmemLayoutAtomKind["%s_%s" % (major, name)]
    return warpgroup.SmemLayoutAtomKind[major + "_INTER"]


def _staged(atom, shape, stages, order):
    return _fast.tile_to_shape(atom, _tuples.wrap(shape) + (stages,), order)


def _check_tiler(t, fn):
    if not isinstance(t, tuple):
        raise Refusal("%s expects the tile as a tuple, got %r" % (fn, t))
    _smem.need_ints(t, fn, "the tile")


def _check_operand(layout, dtype, fn):
    from . import LayoutEnum
    _smem.need(layout, LayoutEnum, fn, "a utils.LayoutEnum")
    _smem.need_dtype(dtype, fn)


def make_smem_layout_a(a_layout, mma_tiler_mnk, a_dtype, num_stages):
    """The staged (M, K, stages) shared-memory layout of operand A."""
    _check_tiler(mma_tiler_mnk, "sm90.make_smem_layout_a")
    _check_operand(a_layout, a_dtype, "sm90.make_smem_layout_a")
    from .. import _algebra
    shape = _algebra.slice_tuple((None, 0, None), mma_tiler_mnk)
    k_major = a_layout.is_k_major_a()
    size = _tuples.product(mma_tiler_mnk[2] if k_major else mma_tiler_mnk[0])
    atom = warpgroup.make_smem_layout_atom(
        get_smem_layout_atom(a_layout, a_dtype, size), a_dtype)
    return _staged(atom, shape, num_stages,
                   (0, 1, 2) if k_major else (1, 0, 2))


def make_smem_layout_b(b_layout, mma_tiler_mnk, b_dtype, num_stages):
    """The staged (N, K, stages) shared-memory layout of operand B."""
    _check_tiler(mma_tiler_mnk, "sm90.make_smem_layout_b")
    _check_operand(b_layout, b_dtype, "sm90.make_smem_layout_b")
    from .. import _algebra
    shape = _algebra.slice_tuple((0, None, None), mma_tiler_mnk)
    k_major = b_layout.is_k_major_b()
    size = _tuples.product(mma_tiler_mnk[2] if k_major else mma_tiler_mnk[1])
    atom = warpgroup.make_smem_layout_atom(
        get_smem_layout_atom(b_layout, b_dtype, size), b_dtype)
    return _staged(atom, shape, num_stages,
                   (0, 1, 2) if k_major else (1, 0, 2))


def make_smem_layout_epi(epi_dtype, epi_layout, epi_tile, epi_stage,
                         smem_trg_shape=None, smem_order=None):
    """The staged (M, N, stages) shared-memory layout of the epilogue."""
    _check_tiler(epi_tile, "sm90.make_smem_layout_epi")
    _check_operand(epi_layout, epi_dtype, "sm90.make_smem_layout_epi")
    size = epi_tile[1] if epi_layout.is_n_major_c() else epi_tile[0]
    atom = warpgroup.make_smem_layout_atom(
        get_smem_layout_atom(epi_layout, epi_dtype, size), epi_dtype)
    target = (smem_trg_shape if smem_trg_shape is not None
              else _tuples.wrap(epi_tile) + (epi_stage,))
    order = (smem_order if smem_order is not None
             else (1, 0, 2) if epi_layout.is_m_major_c() else (0, 1, 2))
    return _fast.tile_to_shape(atom, target, order)
