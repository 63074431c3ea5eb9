"""`cute.viz`: a layout, or a thread-value layout over a tile, as a TikZ
picture (LaTeX text) in the form the CuTe DSL prints, so that a notebook
that renders the DSL's pictures renders these.

    from hlolayout import cute_dsl as cute
    cute.viz.print_latex(cute.make_layout((2, 2)))      # a LaTeX document
    tiler, tv = cute.make_layout_tv(cute.make_layout((4, 8)),
                                    cute.make_layout((2, 1)))
    cute.viz.print_latex_tv(tv, (8, 8), palette="rainbow",
                            render_func=pictures.append)  # the tikzpicture

The picture is a grid of 1 cm cells, rows going down and columns right,
each cell a TikZ node at (row, column), row and column numbers outside the
grid. print_latex fills cell (m, n) with the layout's index there; a
rank-1 layout is drawn as one column. print_latex_tv gives each cell of an
M x N tile to the first (thread, value) whose index lands in it, threads
in order and values within a thread, labelled "T# V#"; a tile mode of size
1 is a single row or column whatever its stride. Colours come from
`color` (an index, or a thread and value, to a TikZ colour) or a named
palette (PALETTES) or a palette factory (num_threads, num_values) ->
cell colour function; a cell colour may be a list of horizontal Bands.
Both need static layouts. Without render_func the text is printed as a
standalone LaTeX document, one print() per piece; with render_func, the
tikzpicture goes to it as one string (pieces joined by spaces). The
format is described in docs/cute-dsl.md ("TikZ pictures"); for SVG and
terminal pictures see hlolayout.cute_dsl.draw.
"""

import colorsys
from types import MappingProxyType
from typing import NamedTuple

__all__ = ["print_latex", "print_latex_tv", "PALETTES", "Band",
           "tikz_color_rainbow", "tikz_color_tv", "tikz_escape",
           "tikz_color_bwx8", "tikz_color_white"]


# -- colours ---------------------------------------------------------------

def _grey_percent(k):
    """The eight greys: index k's percent of black is 10 times k's three
    low bits reversed (0, 40, 20, 60, 10, ...), so that neighbouring
    indices get greys far apart."""
    k &= 7
    return 10 * (((k & 1) << 2) | (k & 2) | (k >> 2))


def tikz_color_bwx8(idx):
    """Index `idx`'s grey, one of eight (TikZ `black!NN`)."""
    return "black!%02d" % _grey_percent(idx)


def tikz_color_white(idx):
    """White for every index."""
    return "white"


def _rgb255(r, g, b):
    return "{rgb,255:red,%d;green,%d;blue,%d}" % (r, g, b)


def _pastel(k):
    """Thread k's pastel: blue, green, yellow, red at two lightnesses."""
    light = 175 if k % 8 < 4 else 210
    lit = {0: (0, 0, 1), 1: (0, 1, 0), 2: (1, 1, 0), 3: (1, 0, 0)}[k % 4]
    return _rgb255(*(255 if on else light for on in lit))


def tikz_color_tv(tid, vid):
    """Thread `tid`'s pastel (eight, cycled); the value does not matter."""
    return _pastel(tid)


def tikz_color_rainbow(index, count, saturation=1.0):
    """The hue index/count of the colour wheel at full value."""
    count = max(count, 1)
    rgb = colorsys.hsv_to_rgb((index % count) / count, saturation, 1.0)
    return _rgb255(*(round(c * 255) for c in rgb))


class Band(NamedTuple):
    """A horizontal fill band of a cell: from `lo` to `hi` (fractions of
    the cell's height from its top) in TikZ colour `color`."""

    lo: float
    hi: float
    color: str


def _split(top, bottom):
    return [Band(0.0, 0.5, top), Band(0.5, 1.0, bottom)]


# Each named palette: given the thread and value counts, the colour of a
# cell from its thread and value.
PALETTES = MappingProxyType({
    "pastel": lambda threads, values: tikz_color_tv,
    "rainbow": lambda threads, values:
        lambda tid, vid: tikz_color_rainbow(tid, threads),
    "rainbow_dual": lambda threads, values: lambda tid, vid: _split(
        tikz_color_rainbow(tid, threads),
        tikz_color_rainbow(vid, values, saturation=0.45)),
    "white": lambda threads, values: lambda tid, vid: "white",
    "bw": lambda threads, values: lambda tid, vid: tikz_color_bwx8(tid),
    "bw_dual": lambda threads, values: lambda tid, vid: _split(
        tikz_color_bwx8(tid), "black!%d" % round(0.45 * _grey_percent(vid))),
})


# LaTeX's special characters: those a backslash escapes, and three that
# need a command.
_LATEX_SPECIAL = dict({c: "\\" + c for c in "#$%&_{}"},
                      **{"\\": r"\textbackslash{}",
                         "^": r"\textasciicircum{}",
                         "~": r"\textasciitilde{}"})


def tikz_escape(s):
    """`s` with LaTeX's special characters escaped, for a node's text."""
    return "".join(_LATEX_SPECIAL.get(c, c) for c in s)


# -- the picture ------------------------------------------------------------

class _Tikz:
    """A tikzpicture written piece by piece: printed (a standalone
    document) or handed to `render_func` as one string."""

    _OPEN = ("\\begin{tikzpicture}[x={(0cm,-1cm)},y={(1cm,0cm)},"
             "every node/.style={minimum size=1cm, outer sep=0pt}]")

    def __init__(self, render_func, what, layout, open_suffix=""):
        self._render = render_func
        self._pieces = []
        if render_func is None:
            for piece in (("%% " + what + ": {}", layout),
                          ("\\documentclass[convert]{standalone}",),
                          ("\\usepackage{tikz}",), ("\\begin{document}",)):
                self.put(*piece)
        self.put(self._OPEN + open_suffix)

    def put(self, *parts):
        if self._render is None:
            print(*parts)
        else:
            self._pieces.append(" ".join(str(p) for p in parts))

    def ruled_grid(self, rows, cols):
        """The grid lines and the row and column numbers around them."""
        self.put("\\draw[color=black,thick,shift={(-0.5,-0.5)}] (0,0) grid "
                 "(%d,%d);\n\n" % (rows, cols))
        for m in range(rows):
            self.put("\\node at (%d,%d) {\\Large{\\texttt{%d}}};\n" % (m, -1, m))
        for n in range(cols):
            self.put("\\node at (%d,%d) {\\Large{\\texttt{%d}}};\n" % (-1, n, n))

    def close(self):
        self.put("\\end{tikzpicture}")
        if self._render is None:
            self.put("\\end{document}")
        else:
            self._render(" ".join(self._pieces))


def _cute():
    from .. import cute_dsl
    return cute_dsl


def _need_static(*xs):
    cute = _cute()
    if not all(cute.is_static(x) for x in xs):
        raise ValueError("a TikZ picture needs a static layout (every shape "
                         "and stride known when traced)")


def print_latex(x, *, color=tikz_color_bwx8, render_func=None):
    """A static layout (or composed layout) of rank 1 or 2 as a TikZ grid of
    its indices; rank 1 is one column."""
    cute = _cute()
    _need_static(x)
    rank = cute.rank(x)
    if rank > 2:
        raise ValueError("a TikZ picture draws rank 1 or 2, not rank %d: "
                         "select or group modes first" % rank)
    extents = cute.product_each(x.shape)
    rows, cols = (extents if rank == 2 else (cute.size(x), 1))
    pic = _Tikz(render_func, "Layout", x)
    for m in range(rows):
        for n in range(cols):
            idx = cute.crd2idx((m, n) if rank == 2 else m, x)
            pic.put("\\node[fill=")
            pic.put(color(idx))
            pic.put("] at (%d,%d) {%d};\n" % (m, n, idx))
    pic.ruled_grid(rows, cols)
    pic.close()


def _cell_colour(color, palette, threads, values):
    """(tid, vid) -> colour or Bands, from `palette` when given."""
    if palette is None:
        return color
    if isinstance(palette, str):
        factory = PALETTES.get(palette)
        if factory is None:
            raise ValueError("no palette named %r (the named ones: %s); a "
                             "palette may also be a function (threads, "
                             "values) -> cell colour"
                             % (palette, ", ".join(sorted(PALETTES))))
        return factory(threads, values)
    return palette(threads, values)


def _tile_coordinate(idx, extent, stride):
    """Where index `idx` falls along one tile mode: 0 on a mode of one
    element (whatever its stride), else (idx / stride) mod extent."""
    return 0 if extent == 1 or stride == 0 else (idx // stride) % extent


def _owners(cute, layout_tv, tile):
    """{(m, n): (tid, vid)}: the first thread and value landing in each
    cell, threads in order, values in order within a thread."""
    shape, stride = tile.shape, tile.stride
    owners = {}
    for tid in range(cute.size(layout_tv, mode=[0])):
        for vid in range(cute.size(layout_tv, mode=[1])):
            idx = cute.crd2idx((tid, vid), layout_tv)
            cell = (_tile_coordinate(idx, shape[0], stride[0]),
                    _tile_coordinate(idx, shape[1], stride[1]))
            owners.setdefault(cell, (tid, vid))
    return owners


def print_latex_tv(layout_tv, tile_mn, *, color=tikz_color_tv, palette=None,
                   title=None, axis_labels=False, render_func=None):
    """Which (thread, value) of a static TV layout owns each cell of an
    M x N tile (a shape or a layout), as a TikZ grid."""
    cute = _cute()
    _need_static(layout_tv, tile_mn)
    if cute.rank(layout_tv) != 2:
        raise ValueError("a thread-value picture needs a rank-2 layout "
                         "(threads, values), not rank %d"
                         % cute.rank(layout_tv))
    pic = _Tikz(render_func, "Layout TV", layout_tv, "\n")
    tile = (tile_mn if isinstance(tile_mn, cute.Layout)
            else cute.make_layout(tile_mn))
    rows, cols = cute.product_each(tile.shape)
    colour = _cell_colour(color, palette, cute.size(layout_tv, mode=[0]),
                          cute.size(layout_tv, mode=[1]))
    for (m, n), (tid, vid) in _owners(cute, layout_tv, tile).items():
        fill = colour(tid, vid)
        for band in ([Band(0.0, 1.0, fill)] if isinstance(fill, str)
                     else fill):
            pic.put("\\path[fill=%s] (%g,%g) rectangle (%g,%g);\n" % (
                band.color, m - 0.5 + band.lo, n - 0.5, m - 0.5 + band.hi,
                n + 0.5))
        pic.put("\\node at (%d,%d) {\\shortstack{T%d \\\\ V%d}};\n"
                % (m, n, tid, vid))
    pic.ruled_grid(rows, cols)
    if axis_labels:
        pic.put("\\node at (%g,%g) {\\Large N (col) $\\rightarrow$};\n"
                % (-1.7, cols / 2.0))
        pic.put("\\node[rotate=90] at (%g,%g) {\\Large $\\leftarrow$ M "
                "(row)};\n" % (rows / 2.0, -2.0))
    if title:
        lines = " \\\\ ".join("\\texttt{" + tikz_escape(line) + "}"
                              for line in title.split("\n"))
        pic.put("\\node[anchor=south] at (%g,%g) {\\shortstack{%s}};\n"
                % (-2.2, cols / 2.0, lines))
    pic.close()
