"""The twin of the shared-memory helpers of `cutlass.utils`: `LayoutEnum`
and the Hopper (`sm90`) and Blackwell (`sm100`) staged operand and
epilogue layouts, with the rule that picks their swizzle (_choice.py).

    >>> from hlolayout import cute_dsl as cute
    >>> u = cute.utils
    >>> print(u.sm90.make_smem_layout_a(u.LayoutEnum.ROW_MAJOR, (128, 128, 64),
    ...                                 cute.Float16, 4))
    S<3,4,3> o 0 o ((8,16),(64,1),(1,4)):((64,512),(1,0),(0,8192))
"""

import enum

from ..nvgpu._base import OperandMajorMode

__all__ = ["LayoutEnum", "sm90", "sm100", "print_latex", "print_latex_tv"]


class LayoutEnum(enum.Enum):
    """How a GEMM tensor is laid out in global memory: ROW_MAJOR (the last
    mode contiguous: A and B K-major, C N-major) or COL_MAJOR (the first:
    A M-major, B N-major, C M-major). The predicates' answers are the
    DSL's (observed for both members)."""

    ROW_MAJOR = "row_major"
    COL_MAJOR = "col_major"

    def _row(self):
        return self is LayoutEnum.ROW_MAJOR

    def mma_major_mode(self):
        """The MMA operand major mode of an A or B tensor so laid out."""
        return OperandMajorMode.K if self._row() else OperandMajorMode.MN

    def sm90_mma_major_mode(self):
        return self.mma_major_mode()

    def is_k_major_a(self):
        return self._row()

    def is_m_major_a(self):
        return not self._row()

    def is_k_major_b(self):
        return self._row()

    def is_n_major_b(self):
        return not self._row()

    def is_n_major_c(self):
        return self._row()

    def is_m_major_c(self):
        return not self._row()


from . import sm90, sm100  # noqa: E402  (they use LayoutEnum)


def print_latex(*args, **kwargs):
    """The DSL keeps this name, deprecated, for cute.viz.print_latex: the
    same picture (observed)."""
    from .. import viz
    return viz.print_latex(*args, **kwargs)


def print_latex_tv(*args, **kwargs):
    """Deprecated, as print_latex, for cute.viz.print_latex_tv."""
    from .. import viz
    return viz.print_latex_tv(*args, **kwargs)
