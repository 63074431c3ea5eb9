"""`utils.LayoutEnum`: how a GEMM tensor is laid out in global memory, the
first thing sm90's and sm100's layout makers read (a module of its own so
that they import it and the package imports them, one way)."""

import enum

from ..nvgpu._base import OperandMajorMode

__all__ = ["LayoutEnum"]


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
