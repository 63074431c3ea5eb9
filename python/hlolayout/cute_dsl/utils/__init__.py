"""The twin of `cutlass.utils`: the shared-memory layout helpers of the
Hopper (sm90) and Blackwell (sm100) GEMMs, and LayoutEnum.

    >>> from hlolayout import cute_dsl as cute
    >>> u = cute.utils
    >>> print(u.sm90.make_smem_layout_a(u.LayoutEnum.ROW_MAJOR, (128, 128, 64),
    ...                                 cute.Float16, 4))
    S<3,4,3> o 0 o ((8,16),(64,1),(1,4)):((64,512),(1,0),(0,8192))
"""

import enum

from ..nvgpu._common import OperandMajorMode

__all__ = ["LayoutEnum", "sm90", "sm100", "print_latex", "print_latex_tv"]


class LayoutEnum(enum.Enum):
    """A GEMM operand's memory order: ROW_MAJOR (K-major A and B, N-major
    C) or COL_MAJOR (M-major A, N-major B, M-major C)."""

    ROW_MAJOR = "row_major"
    COL_MAJOR = "col_major"

    def mma_major_mode(self):
        return (OperandMajorMode.K if self is LayoutEnum.ROW_MAJOR
                else OperandMajorMode.MN)

    sm90_mma_major_mode = mma_major_mode

    def is_k_major_a(self):
        return self is LayoutEnum.ROW_MAJOR

    def is_m_major_a(self):
        return self is LayoutEnum.COL_MAJOR

    def is_n_major_b(self):
        return self is LayoutEnum.COL_MAJOR

    def is_k_major_b(self):
        return self is LayoutEnum.ROW_MAJOR

    def is_n_major_c(self):
        return self is LayoutEnum.ROW_MAJOR

    def is_m_major_c(self):
        return self is LayoutEnum.COL_MAJOR


from . import sm90, sm100  # noqa: E402


def print_latex(*args, **kwargs):
    """Deprecated in the DSL for cute.viz.print_latex (the same picture)."""
    from .. import viz
    return viz.print_latex(*args, **kwargs)


def print_latex_tv(*args, **kwargs):
    """Deprecated in the DSL for cute.viz.print_latex_tv."""
    from .. import viz
    return viz.print_latex_tv(*args, **kwargs)
