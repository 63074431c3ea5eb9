"""The twin of `cutlass.utils.sm90`: the shared-memory layouts of a Hopper
GEMM's operands and epilogue, staged. The atom is chosen by _choice.py's
rule (CUTLASS's ss_smem_selector) and tiled to (MN, K, stages) as
CUTLASS's SM90 collectives tile it (tile_to_shape,
sm90_mma_tma_gmma_ss_warpspecialized.hpp and
sm90_epilogue_tma_warpspecialized.hpp); the DSL's documentation of
make_smem_layout_a lists the same steps.
"""

from .. import _fast, _smem
from .._algebra import Refusal
from ..nvgpu import warpgroup
from ._choice import major_extent, stage_order, widest_atom
from ._layout_enum import LayoutEnum

__all__ = ["get_smem_layout_atom", "make_smem_layout_a",
           "make_smem_layout_b", "make_smem_layout_epi"]


def _check(layout, dtype, fn):
    _smem.need(layout, LayoutEnum, fn, "a utils.LayoutEnum")
    _smem.need_dtype(dtype, fn)


def get_smem_layout_atom(layout, element_type, major_mode_size):
    """The warpgroup.SmemLayoutAtomKind of a tile laid out as `layout`
    whose major mode has major_mode_size elements of element_type."""
    fn = "sm90.get_smem_layout_atom"
    _check(layout, element_type, fn)
    _smem.need_ints(major_mode_size, fn, "major_mode_size")
    major = "K" if layout.is_k_major_a() else "MN"
    return widest_atom(warpgroup.SmemLayoutAtomKind, major,
                       element_type.width, major_mode_size, fn)


def _tile_modes(tiler, fn, picks):
    if not isinstance(tiler, tuple) or len(tiler) != 3:
        raise Refusal("%s expects the MMA tiler as a tuple (M, N, K), got %r"
                      % (fn, tiler))
    _smem.need_ints(tiler, fn, "the MMA tiler")
    return tuple(tiler[i] for i in picks)


def _operand(layout, tiler, dtype, stages, picks, fn):
    """(MN, K, stages) of the operand whose MN mode is tiler[picks[0]]."""
    _check(layout, dtype, fn)
    mn, k = _tile_modes(tiler, fn, picks)
    k_major = layout.is_k_major_a()
    kind = get_smem_layout_atom(layout, dtype,
                                major_extent(k if k_major else mn))
    atom = warpgroup.make_smem_layout_atom(kind, dtype)
    return _fast.tile_to_shape(atom, (mn, k, stages), stage_order(k_major))


def make_smem_layout_a(a_layout, mma_tiler_mnk, a_dtype, num_stages):
    """A's staged shared-memory layout, (M, K, stages)."""
    return _operand(a_layout, mma_tiler_mnk, a_dtype, num_stages, (0, 2),
                    "sm90.make_smem_layout_a")


def make_smem_layout_b(b_layout, mma_tiler_mnk, b_dtype, num_stages):
    """B's staged shared-memory layout, (N, K, stages)."""
    return _operand(b_layout, mma_tiler_mnk, b_dtype, num_stages, (1, 2),
                    "sm90.make_smem_layout_b")


def make_smem_layout_epi(epi_dtype, epi_layout, epi_tile, epi_stage,
                         smem_trg_shape=None, smem_order=None):
    """The epilogue's staged shared-memory layout, (M, N, stages), or the
    atom tiled to smem_trg_shape in smem_order when they are given."""
    fn = "sm90.make_smem_layout_epi"
    _check(epi_layout, epi_dtype, fn)
    if not isinstance(epi_tile, tuple) or len(epi_tile) != 2:
        raise Refusal("%s expects the epilogue tile as a tuple (M, N), got "
                      "%r" % (fn, epi_tile))
    _smem.need_ints(epi_tile, fn, "the epilogue tile")
    n_major = epi_layout.is_n_major_c()
    kind = get_smem_layout_atom(epi_layout, epi_dtype,
                                major_extent(epi_tile[1 if n_major else 0]))
    atom = warpgroup.make_smem_layout_atom(kind, epi_dtype)
    target = (epi_tile + (epi_stage,) if smem_trg_shape is None
              else smem_trg_shape)
    order = stage_order(n_major) if smem_order is None else smem_order
    return _fast.tile_to_shape(atom, target, order)
