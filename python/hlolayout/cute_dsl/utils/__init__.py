"""The twin of the shared-memory helpers of `cutlass.utils`: `LayoutEnum`
and the Hopper (`sm90`) and Blackwell (`sm100`) staged operand and
epilogue layouts, with the rule that picks their swizzle (_choice.py).

    >>> from hlolayout import cute_dsl as cute
    >>> u = cute.utils
    >>> print(u.sm90.make_smem_layout_a(u.LayoutEnum.ROW_MAJOR, (128, 128, 64),
    ...                                 cute.Float16, 4))
    S<3,4,3> o 0 o ((8,16),(64,1),(1,4)):((64,512),(1,0),(0,8192))
"""

from . import sm90, sm100
from ._layout_enum import LayoutEnum

__all__ = ["LayoutEnum", "sm90", "sm100", "print_latex", "print_latex_tv"]


def print_latex(*args, **kwargs):
    """The DSL keeps this name, deprecated, for cute.viz.print_latex: the
    same picture (observed)."""
    from .. import viz
    return viz.print_latex(*args, **kwargs)


def print_latex_tv(*args, **kwargs):
    """Deprecated, as print_latex, for cute.viz.print_latex_tv."""
    from .. import viz
    return viz.print_latex_tv(*args, **kwargs)
