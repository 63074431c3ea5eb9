"""cute.viz: the CuTe DSL's TikZ pictures under its names.

    >>> from hlolayout import cute_dsl as cute
    >>> pieces = []
    >>> cute.viz.print_latex(cute.make_layout((2, 2)), render_func=pieces.append)
    >>> pieces[0].split("\\n")[1]
    ' \\\\node[fill= black!20 ] at (0,1) {2};'

The pictures are hlolayout's own: the cells come from draw/ (a layout's as
`cute.draw` shows them, a thread-value layout's from views/tv_picture.h) and
draw/tikz.h writes them as TikZ in the form the DSL prints (the rules:
docs/cute-dsl.md, "TikZ pictures"). What this module adds is the DSL's
arguments: the colour of a cell, the palettes, the output.

  print_latex(layout, color=, render_func=)
      cell (i, j) shows layout(i, j), filled with color(index); a rank-1
      layout is one column (its shape gets a mode 1:0, as the DSL's comment
      line shows it).
  print_latex_tv(layout_tv, tile_mn, color=, palette=, title=, axis_labels=,
                 render_func=)
      each cell of the tile names its first (thread, value); `palette` (a
      name below, or a function of the thread and value counts returning a
      function of (thread, value)) wins over `color`.
  A cell's colour is a TikZ colour, or stripes from top to bottom: a list
  of (from, to, colour) with from and to fractions of the cell's height
  (objects with .lo, .hi and .color are read too).
  Without render_func the picture is printed as a standalone LaTeX file,
  one piece a line; with it, render_func gets the pieces joined by spaces.

Palettes: "pastel" (the thread's TV colour), "rainbow" (a hue a thread),
"rainbow_dual" (top half the thread's hue, bottom half the value's, paler),
"white", "bw" (the thread's grey), "bw_dual" (the thread's grey over a
lighter grey of the value).
"""

from .. import _hlolayout as _core
from . import _fast, _makers, _pictures, _tuples
from ._objects import ComposedLayout, Layout

__all__ = ["print_latex", "print_latex_tv", "tikz_color_bwx8",
           "tikz_color_white", "tikz_color_tv", "tikz_color_rainbow",
           "tikz_escape"]


# ---------------------------------------------------------------------------
# Colours (draw/tikz.h computes them).

def tikz_color_bwx8(idx):
    """The grey of index idx: eight greys, neighbours far apart."""
    return _core.cute_tikz_grey(_whole(idx, "idx"))


def tikz_color_white(idx):
    """White, whatever the index."""
    return "white"


def tikz_color_tv(tid, vid):
    """The thread's colour of CuTe's TV pictures (eight pastels)."""
    return _core.cute_tikz_tv_colour(_whole(tid, "tid"))


def tikz_color_rainbow(index, count, saturation=1.0):
    """Hue index/count of the colour wheel, at this saturation."""
    if _whole(count, "count") <= 0:
        raise ValueError("the rainbow needs a positive count, not %d" % count)
    return _core.cute_tikz_hue(_whole(index, "index"), count,
                               float(saturation))


def tikz_escape(s):
    """s with LaTeX's special characters escaped."""
    if not isinstance(s, str):
        raise TypeError("tikz_escape takes a string, not %s" %
                        type(s).__name__)
    return _core.cute_tikz_escape(s)


def _whole(x, name):
    try:
        return int(x)
    except (TypeError, ValueError):
        raise TypeError("%s must be an integer, not %r" % (name, x)) from None


# ---------------------------------------------------------------------------
# Palettes: how a cell of thread t, value v (of T threads, V values) is
# coloured; one colouring fills the cell, two split it into a top half (the
# first) and a bottom half.

def _value_grey(t, v, threads, values):
    return "black!%d" % round(0.45 * _core.cute_tikz_grey_percent(v))


_COLOURINGS = {
    "pastel": [lambda t, v, T, V: tikz_color_tv(t, v)],
    "rainbow": [lambda t, v, T, V: tikz_color_rainbow(t, T)],
    "rainbow_dual": [lambda t, v, T, V: tikz_color_rainbow(t, T),
                     lambda t, v, T, V: tikz_color_rainbow(v, V, 0.45)],
    "white": [lambda t, v, T, V: "white"],
    "bw": [lambda t, v, T, V: tikz_color_bwx8(t)],
    "bw_dual": [lambda t, v, T, V: tikz_color_bwx8(t), _value_grey],
}


def _named_palette(name, threads, values):
    colourings = _COLOURINGS.get(name)
    if colourings is None:
        raise ValueError("no palette named %r (the palettes: %s; or a "
                         "function of the thread and value counts)"
                         % (name, ", ".join(sorted(_COLOURINGS))))
    step = 1.0 / len(colourings)

    def colour(t, v):
        return [(i * step, (i + 1) * step, c(t, v, threads, values))
                for i, c in enumerate(colourings)]
    return colour


def _stripes(value):
    """A colour function's answer as (from, to, colour) triples."""
    if isinstance(value, str):
        return [(0.0, 1.0, value)]
    try:
        items = list(value)
    except TypeError:
        raise TypeError("a cell's colour is a TikZ colour or a list of "
                        "(from, to, colour) stripes, not %r" % (value,)) \
            from None
    out = []
    for item in items:
        if hasattr(item, "color"):
            item = (item.lo, item.hi, item.color)
        if not (isinstance(item, tuple) and len(item) == 3 and
                isinstance(item[2], str)):
            raise TypeError("a stripe is (from, to, colour), not %r" %
                            (item,))
        out.append((float(item[0]), float(item[1]), item[2]))
    return out


# ---------------------------------------------------------------------------
# The layouts drawn.

def _static_layout(x, who, composed_ok):
    kinds = (Layout, ComposedLayout) if composed_ok else (Layout,)
    if not isinstance(x, kinds):
        raise TypeError("%s draws a %s, not %s" % (
            who, "layout or composed layout" if composed_ok else "layout",
            type(x).__name__))
    if not x.is_static():
        raise ValueError("%s draws static layouts only; %s has dynamic "
                         "integers" % (who, x))
    return x


def _two_modes(x):
    """x with rank 2: a rank-1 (or integral) layout gets a mode 1:0, a
    column of one cell per element."""
    if isinstance(x, ComposedLayout):
        outer = _two_modes(x.outer)
        if outer is x.outer:
            return x
        return _makers.make_composed_layout(x.inner, x.offset, outer)
    shape, stride = x.sh, x.st
    if type(shape) is not tuple:
        return _makers.make_layout((shape, 1), stride=(stride, 0))
    if len(shape) == 1:
        return _makers.make_layout((shape[0], 1), stride=(stride[0], 0))
    return x


def _tile_layout(tile_mn):
    """The tile as a layout (M,N):(a,b); a tuple (M, N) is column-major."""
    if not isinstance(tile_mn, Layout):
        try:
            tile_mn = _makers.make_layout(tile_mn)
        except (TypeError, ValueError):
            raise TypeError("tile_mn is a shape (M, N) or a layout, not %r"
                            % (tile_mn,)) from None
    return _two_modes(_static_layout(tile_mn, "print_latex_tv's tile",
                                     False))


def _title_lines(title):
    if title is None or title == "":
        return []
    if not isinstance(title, str):
        raise TypeError("title must be a string, not %s" %
                        type(title).__name__)
    return title.split("\n")


def _emit(comment, pieces, render_func):
    if render_func is not None:
        render_func(" ".join(pieces))
        return
    for line in _pictures.tikz_document(comment, pieces):
        print(line)


# ---------------------------------------------------------------------------
# The DSL's entry points.

def print_latex(x, *, color=tikz_color_bwx8, render_func=None):
    """The TikZ picture of a static layout or composed layout of rank 1 or
    2: cell (i, j) holds x(i, j), filled with color(x(i, j))."""
    x = _two_modes(_static_layout(x, "print_latex", True))
    pieces = _pictures.tikz_layout(x, lambda k: _stripes(color(k)))
    _emit("%% Layout: {} " + str(x), pieces, render_func)


def print_latex_tv(layout_tv, tile_mn, *, color=tikz_color_tv, palette=None,
                   title=None, axis_labels=False, render_func=None):
    """The TikZ picture of a static (thread, value) layout over the tile
    tile_mn: each cell names the first (thread, value), threads outer, whose
    index lands in it, coloured by `palette` or else by color(t, v)."""
    tv = _static_layout(layout_tv, "print_latex_tv", False)
    rank = _tuples.rank(tv.sh)
    if rank != 2:
        raise ValueError("print_latex_tv draws a (thread, value) layout of "
                         "rank 2, not %s (rank %d)" % (tv, rank))
    tile = _tile_layout(tile_mn)
    lines = _title_lines(title)
    if palette is None:
        colour = color
    elif isinstance(palette, str):
        colour = _named_palette(palette, _mode_size(tv, 0), _mode_size(tv, 1))
    elif callable(palette):
        colour = palette(_mode_size(tv, 0), _mode_size(tv, 1))
    else:
        raise TypeError("palette is a name or a function of the thread and "
                        "value counts, not %r" % (palette,))
    pieces = _pictures.tikz_tv(tv, tile,
                               lambda t, v: _stripes(colour(t, v)),
                               axis_labels, lines)
    _emit("%% Layout TV: {} " + str(tv), pieces, render_func)


def _mode_size(layout, i):
    return int(_fast.size(layout[i]))
