"""Pictures of layouts as SVG (the library's draw/; docs/pictures.md).

    >>> svg = hl.draw("f32[3,5]{1,0:T(2,2)}", view="memory")
    >>> svg.startswith("<svg") or svg.startswith("<?xml")
    True

Jupyter shows a Shape as its picture (Shape._repr_svg_).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional, Sequence, Union

from . import _hlolayout as _core
from .shapes import _shape

if TYPE_CHECKING:
    from .shapes import ShapeLike

__all__ = ["draw"]


def draw(shape: Union[ShapeLike, Any], view: str = "both",
         slice: Optional[Sequence[int]] = None,
         core: Optional[Sequence[int]] = None) -> str:
    """The SVG picture of a layout, as `hlolayout draw SHAPE --svg -` writes it.
    A hlolayout.ttnn.TensorSpec draws as `hlolayout ttnn draw --svg -` (its
    cores, pages or shards; `core` (x, y) adds that core's pages).

        >>> svg = hl.draw("f32[3,5]{1,0:T(2,2)}", view="memory")
        >>> svg.startswith("<svg") or svg.startswith("<?xml")
        True

    view: "logical", "memory" or "both"; slice: the fixed outer indices
    (a tuple) when the array has more than two dimensions.
    """
    from . import ttnn as _ttnn
    if isinstance(shape, _ttnn.TensorSpec):
        return shape.draw(core=core)
    shape = _shape(shape, "shape")
    if view not in ("logical", "memory", "both"):
        raise ValueError("view must be 'logical', 'memory' or 'both', got %r" %
                         (view,))
    index = [] if slice is None else [int(i) for i in slice]
    return _core.draw_layout_svg(shape._s, view, index)
