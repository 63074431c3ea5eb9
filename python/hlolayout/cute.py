"""CuTe's layout algebra (the ops of `hlolayout cute`), on Layout values.

    >>> from hlolayout import cute
    >>> L = cute.Layout("((2,2),3):((24,2),8)")
    >>> L(5), L.shape, L.stride, L.size
    (32, ((2, 2), 3), ((24, 2), 8), 12)
    >>> str(cute.composition("(6,2):(8,2)", "(4,3):(3,1)"))
    '((2,2),3):((24,2),8)'
    >>> str(cute.complement("4:2", 24))
    '(2,3):(_1,8)'

Every op of `hlolayout cute` is a function here with the same operands:
layouts (Layout or text), and shapes, integers or tilers '<3:4, 8:2>' as
text or ints. Failed preconditions raise ValueError naming the operation.
"""

from . import _hlolayout as _core


class Layout:
    """A CuTe layout: shape:stride, a function from coordinates to offsets.

    Layout(text) parses CuTe's notation ('(6,2):(8,2)', '12:1', a shape
    alone for compact column-major strides). L(i) evaluates a 1-D index or
    a (hierarchical) coordinate tuple.
    """

    __slots__ = ("_text", "shape", "stride", "size", "cosize", "rank", "depth")

    def __init__(self, text):
        if isinstance(text, Layout):
            text = text._text
        if not isinstance(text, str):
            raise TypeError("cute.Layout takes a str, got %s" %
                            type(text).__name__)
        (self._text, self.shape, self.stride, self.size, self.cosize,
         self.rank, self.depth) = _core.cute_layout_info(text)

    def __call__(self, coord):
        return int(_core.cute_op("crd2idx", [self._text, _operand(coord)]))

    def __str__(self):
        return self._text

    def __repr__(self):
        return "cute.Layout(%r)" % self._text

    def _repr_svg_(self):
        """Jupyter shows the layout as `hlolayout cute draw --svg -` draws it."""
        from . import _cli_text
        try:
            return _cli_text(["cute", "draw", "--svg", "-", self._text])
        except ValueError:
            return None

    def __eq__(self, other):
        return isinstance(other, Layout) and self._text == other._text

    def __hash__(self):
        return hash(("cute", self._text))

    def __getitem__(self, i):
        return get(self, i)

    def idx2crd(self, index):
        """The natural coordinate of a 1-D index (a nested tuple)."""
        import ast
        return ast.literal_eval(_core.cute_op("idx2crd",
                                              [self._text, _operand(index)]))

    def table(self):
        """A rank-2 layout as a grid of offsets (print_layout), as text."""
        return _core.cute_op("table", [self._text])


def _operand(value):
    if isinstance(value, Layout):
        return str(value)
    if isinstance(value, bool):
        raise TypeError("cute operands are layouts, ints or tuples, got bool")
    if isinstance(value, int):
        return str(value)
    if isinstance(value, tuple):
        return "(" + ",".join(_operand(v) for v in value) + ")"
    if isinstance(value, str):
        return value
    raise TypeError("cute operands are layouts, ints, tuples or text, got %s" %
                    type(value).__name__)


def _result(op, text):
    if op in ("size", "cosize", "rank", "depth"):
        return int(text)
    if op in ("congruent", "compatible"):
        return text == "true"
    if op == "crd2idx":
        return int(text)
    if op in ("idx2crd",):
        import ast
        return ast.literal_eval(text)
    if op == "table":
        return text
    return Layout(text)


def _make(op):
    def run(*operands):
        return _result(op, _core.cute_op(op, [_operand(o) for o in operands]))
    run.__name__ = op
    run.__qualname__ = op
    run.__doc__ = "CuTe's %s (see `hlolayout cute --help`)." % op
    return run


OPS = tuple(_core.cute_op_names())
for _op in OPS:
    globals()[_op] = _make(_op)
del _op

__all__ = ["Layout", "OPS"] + list(OPS)

# CuTe's atoms, tiled MMAs and tiled copies (cute_atoms.py).
from .cute_atoms import *  # noqa: E402,F401,F403
from .cute_atoms import __all__ as _atoms_all  # noqa: E402

__all__ += _atoms_all
