"""Pictures of the twin's objects, drawn by hlolayout's own draw/ code (the
pictures of `hlolayout cute draw`, `draw-mma` and `draw-copy`): SVG for
Jupyter (`_repr_svg_`, `_repr_html_`) and text for a terminal.

    >>> from hlolayout import cute_dsl as cute
    >>> print(cute.draw(cute.make_layout((2, 4), stride=(4, 1))))
    CuTe layout (2,4):(4,1)
      cell (i,j) shows the index of coordinate (i,j): rows mode 0 (2), columns mode 1 (4)
       0  1  2  3
    0  0  1  2  3
    1  4  5  6  7
    <BLANKLINE>

What is drawn:
  Layout           cell (i, j) holds L(i, j) (rank 1 or 2); a dynamic
                   integer is drawn with the value it holds in the twin
  ComposedLayout   the same over its layout's shape, indices through the
                   swizzle (S<3,4,3> o 0 o L)
  Swizzle          S<B,M,S> on 2^B rows of 2^|S| chunks of 2^M elements:
                   each cell the swizzled start of its chunk
  MMA atom, tiled MMA, op   the A, B and C panels (thread and value of each
                   element, coloured by thread), as draw-mma draws them
  copy atom, tiled copy     the source and destination panels (draw-copy)
Identity layouts (strides that are coordinates) and tuples are not drawn
(`_repr_svg_` is None; Jupyter then shows the text).

The same pictures as TikZ, in the form the DSL's cute.viz prints
(draw/tikz.h): `tikz_layout` and `tikz_tv` give the pieces, viz.py prints
them under the DSL's names.

Titles and errors name layouts as the DSL prints them ((4,8):(8,1),
S<3,4,3> o 0 o ...), never in C++'s notation (_4, Sw<...>): the C++ code
the pictures come from writes C++'s, and `dsl_notation` rewrites it.
"""

import html as _html
import re as _re

from .. import _hlolayout as _core

__all__ = ["draw", "svg", "html"]


# ---------------------------------------------------------------------------
# What the C++ pictures read (cute::ParseAnyLayout): C++'s text, each
# integer static (`_8`, a `?` as the value the twin holds), a swizzle as
# `Sw<B,M,S>`, a composed layout as `inner o _offset o outer`.

def _cpp_text(x):
    """A Layout, Swizzle or ComposedLayout in C++'s text, as drawn (each
    writes its own, `_cpp`, _objects.py)."""
    cpp = getattr(x, "_cpp", None)
    if cpp is None:
        raise TypeError("nothing to draw for %s" % type(x).__name__)
    return cpp()


# A static integer of C++'s text (`_8`, `_-2`): an underscore that no letter
# or digit precedes, before a number (op names such as SM80_16x8x16_F32 keep
# theirs).
_STATIC_INT = _re.compile(r"(?<![A-Za-z0-9])_(?=-?[0-9])")
_CPP_SWIZZLE = _re.compile(r"(?<![A-Za-z0-9])Sw<")


def dsl_notation(text):
    """C++'s CuTe text as the DSL prints it: `(_4,_8):(_8,_1)` as
    `(4,8):(8,1)`, `Sw<3,4,3> o _0 o L` as `S<3,4,3> o 0 o L`."""
    return _CPP_SWIZZLE.sub("S<", _STATIC_INT.sub("", text))


def _atom_picture(x, as_svg, colour):
    """The picture of an atom, tiled atom or MMA op (each draws itself with
    its C++ object, _atoms), or None."""
    picture = getattr(x, "_picture", None)
    return None if picture is None else picture(as_svg, colour)


def draw(x, svg=False, colour=False):
    """The picture of a layout, swizzle, composed layout, atom, tiled atom
    or MMA op: SVG text when `svg`, else terminal text (ANSI colours when
    `colour`). ValueError when it cannot be drawn (rank above 2, more than
    16,384 cells, an identity layout)."""
    try:
        text = _atom_picture(x, svg, colour)
    except ValueError as ex:
        raise ValueError(dsl_notation(str(ex))) from None
    if text is not None:
        # The panels' notes name their TV layouts.
        return dsl_notation(text)
    cpp = _cpp_text(x)
    # The picture's title and any error name the layout as the DSL prints
    # it ((4,8):(8,1), S<3,4,3> o 0 o ...), not in C++'s notation.
    dsl = str(x)
    try:
        text = _core.cute_draw(cpp, bool(svg), bool(colour))
    except ValueError as ex:
        raise ValueError(dsl_notation(str(ex).replace(cpp, dsl))) from None
    if svg:
        return text.replace(_html.escape(cpp), _html.escape(dsl))
    return text.replace(cpp, dsl, 1)


# ---------------------------------------------------------------------------
# Jupyter's rich display of every object (its `_repr_svg_`, `_repr_html_`).

def svg(x):
    """The picture as SVG; None where `x` has none (Jupyter then falls back
    to the text)."""
    try:
        return draw(x, svg=True)
    except Exception:  # noqa: BLE001 (any failure: no picture)
        return None


def html(x):
    """What the DSL prints (preformatted), then the picture if there is
    one, in a div of class hlolayout-cute-dsl."""
    printed = "<pre>%s</pre>" % _html.escape(str(x))
    picture = svg(x)
    if picture is None:
        return printed
    return '<div class="hlolayout-cute-dsl">%s</div>' % (printed + picture)


# ---------------------------------------------------------------------------
# TikZ (draw/tikz.h), for viz.py: lists of pieces.

def _cpp_call(fn, *args):
    """fn(*args) with the C++ core's errors in the DSL's notation."""
    try:
        return fn(*args)
    except ValueError as ex:
        raise ValueError(dsl_notation(str(ex))) from None


def tikz_layout(x, fill):
    """The pieces of the TikZ picture of a static layout or composed layout
    of rank 2 (`draw`'s cells: cell (i, j) shows x(i, j)); fill(index)
    gives a cell's stripes, (from, to, colour) triples."""
    return _cpp_call(_core.cute_tikz_layout, _cpp_text(x), fill)


def tikz_tv(layout_tv, tile, fill, axis_labels, title_lines):
    """The pieces of the TikZ picture of a static (thread, value) layout
    over a tile layout (M,N):(a,b): index k in row floor(k/a) mod M, column
    floor(k/b) mod N, the first pair owning a cell (views/tv_picture.h,
    TvTileGrid); fill(thread, value) gives a cell's stripes."""
    return _cpp_call(_core.cute_tikz_tv, layout_tv._cpp(),
                     tile._cpp(), fill, bool(axis_labels),
                     list(title_lines))


def tikz_document(comment, pieces):
    """The lines of a standalone LaTeX file around the pieces."""
    return _core.cute_tikz_document(comment, pieces)
