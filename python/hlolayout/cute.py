"""CuTe's layouts and their algebra: a drop-in for NVIDIA's pycute, bound to
hlolayout's C++ library.

    >>> from hlolayout import cute
    >>> L = cute.Layout(((2, 2), 3), ((24, 2), 8))
    >>> print(cute.coalesce(L))
    (2, 2, 3):(24, 2, 8)
    >>> L.cute
    '((_2,_2),_3):((_24,_2),_8)'
    >>> print(cute.logical_divide(cute.Layout((4, 2, 3), (2, 1, 8)), cute.Layout(4, 2)))
    ((2, 2), (2, 3)):((4, 1), (2, 8))
    >>> cute.composition("(6,2):(8,2)", "(4,3):(3,1)").cute
    '((2,2),3):((24,2),8)'

pycute's names: Layout, Swizzle, ComposedLayout, make_layout, size, cosize,
coalesce, filter, composition, complement, right_inverse, left_inverse,
logical_divide, zipped_divide, tiled_divide, logical_product,
zipped_product, tiled_product, slice_and_offset, and the IntTuple functions
(flatten, product, prefix_product, idx2crd, crd2idx, ...), plus CuTe's
flat_divide, flat_product, blocked_product, raked_product, tile_to_shape,
upcast, downcast and recast_layout. Operands may be objects or CuTe text.
Every other op of `hlolayout cute` (OPS) is a function here too, on text or
objects, returning what the command prints, as objects where it is a layout.

The names come from submodules: _cute_int_tuple (CuTe's integer-tuple
functions under pycute's names, computed by the C++ core),
_cute_layout (layouts, swizzles, the algebra); further CuTe objects add their
module to the imports below.
"""

from . import _cute_int_tuple, _cute_layout
from . import _hlolayout as _core
from ._cute_int_tuple import *  # noqa: F401,F403
from ._cute_layout import *  # noqa: F401,F403
from ._cute_layout import Layout, parse

_DEFINED = set(_cute_int_tuple.__all__) | set(_cute_layout.__all__)


def _operand(value):
    if isinstance(value, str):
        return value
    if hasattr(value, "cute"):
        return value.cute
    if isinstance(value, bool):
        raise TypeError("cute operands are layouts, ints or tuples, got bool")
    if isinstance(value, int):
        return str(value)
    if isinstance(value, tuple):
        return "(" + ",".join(_operand(v) for v in value) + ")"
    raise TypeError("cute operands are layouts, ints, tuples or text, got %s" %
                    type(value).__name__)


def _result(op, text):
    if op in ("size", "cosize", "rank", "depth"):
        return int(text)
    if op in ("congruent", "compatible"):
        return text == "true"
    if op in ("table", "from_xla", "identity", "slice_and_offset"):
        return text
    try:
        return parse(text)
    except ValueError:
        return text


def _make(op):
    def run(*operands):
        if op == "offsets" and len(operands) == 1:
            return _core.cute_offsets(_operand(operands[0]))
        return _result(op, _core.cute_op(op, [_operand(o) for o in operands]))
    run.__name__ = run.__qualname__ = op
    run.__doc__ = "CuTe's %s, as `hlolayout cute %s` (see --help)." % (op, op)
    return run


OPS = tuple(_core.cute_op_names())
_TEXT_OPS = [op for op in OPS if op not in _DEFINED]
for _op in _TEXT_OPS:
    globals()[_op] = _make(_op)
del _op

__all__ = (["OPS"] + list(_cute_int_tuple.__all__) + list(_cute_layout.__all__)
           + _TEXT_OPS)

# CuTe's atoms, tiled MMAs and tiled copies (cute_atoms.py).
from .cute_atoms import *  # noqa: E402,F401,F403
from .cute_atoms import __all__ as _atoms_all  # noqa: E402

__all__ += _atoms_all
