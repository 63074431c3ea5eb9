"""The twin of `cutlass.cute.viz`: a layout, or a thread-value layout over a
tile, as a TikZ picture (LaTeX text), cell for cell and colour for colour
what the DSL prints.

    from hlolayout import cute_dsl as cute
    cute.viz.print_latex(cute.make_layout((2, 2)))      # a LaTeX document
    tiler, tv = cute.make_layout_tv(cute.make_layout((4, 8)),
                                    cute.make_layout((2, 1)))
    cute.viz.print_latex_tv(tv, (8, 8), palette="rainbow",
                            render_func=pictures.append)  # the tikzpicture

print_latex draws cell (m, n) of a rank-2 layout (a rank-1 one gets a
second mode 1:0) holding L(m, n), filled by `color(index)` (eight greys by
default). print_latex_tv draws an M x N tile: the first (thread, value)
whose index lands in a cell, in thread-major order, owns it and labels it
"T# V#", filled by `color(tid, vid)` or a palette (PALETTES, or a factory
palette(num_tid, num_vid) -> cell). Both need static layouts, as the DSL's.
Without render_func the LaTeX goes to stdout, as the DSL prints it (one
print per piece); with it, render_func gets the tikzpicture as one string.
For SVG and terminal pictures see hlolayout.cute_dsl.draw.
"""

import colorsys
from types import MappingProxyType
from typing import NamedTuple

__all__ = ["print_latex", "print_latex_tv", "PALETTES", "Band",
           "tikz_color_rainbow", "tikz_color_tv", "tikz_escape",
           "tikz_color_bwx8", "tikz_color_white"]

# Percent black of the eight greys, light and dark alternating.
_GREYS = (0, 40, 20, 60, 10, 50, 30, 70)

# The eight pastel fills of the thread-value pictures, cycled by thread.
_PASTELS = tuple("{rgb,255:red,%d;green,%d;blue,%d}" % c for c in (
    (175, 175, 255), (175, 255, 175), (255, 255, 175), (255, 175, 175),
    (210, 210, 255), (210, 255, 210), (255, 255, 210), (255, 210, 210)))

_HEADER = ("\\begin{tikzpicture}[x={(0cm,-1cm)},y={(1cm,0cm)},"
           "every node/.style={minimum size=1cm, outer sep=0pt}]")


def tikz_color_bwx8(idx):
    """One of eight greys, by index."""
    return "black!%02d" % _GREYS[idx % 8]


def tikz_color_white(idx):
    return "white"


def tikz_color_tv(tid, vid):
    """The pastel of thread `tid` (eight, cycled)."""
    return _PASTELS[tid % 8]


def tikz_color_rainbow(index, count, saturation=1.0):
    """Hue index/count on the colour wheel, full value."""
    count = max(count, 1)
    r, g, b = colorsys.hsv_to_rgb((index % count) / count, saturation, 1.0)
    return "{rgb,255:red,%d;green,%d;blue,%d}" % (
        round(r * 255), round(g * 255), round(b * 255))


class Band(NamedTuple):
    """A horizontal fill band of a cell: from `lo` to `hi` (fractions of
    the cell's height from its top) in TikZ colour `color`."""

    lo: float
    hi: float
    color: str


def _pastel(num_tid, num_vid):
    return tikz_color_tv


def _rainbow(num_tid, num_vid):
    return lambda tid, vid: tikz_color_rainbow(tid, num_tid)


def _rainbow_dual(num_tid, num_vid):
    return lambda tid, vid: [
        Band(0.0, 0.5, tikz_color_rainbow(tid, num_tid)),
        Band(0.5, 1.0, tikz_color_rainbow(vid, num_vid, saturation=0.45))]


def _white(num_tid, num_vid):
    return lambda tid, vid: "white"


def _bw(num_tid, num_vid):
    return lambda tid, vid: tikz_color_bwx8(tid)


def _bw_dual(num_tid, num_vid):
    return lambda tid, vid: [
        Band(0.0, 0.5, tikz_color_bwx8(tid)),
        Band(0.5, 1.0, "black!%d" % round(0.45 * _GREYS[vid % 8]))]


PALETTES = MappingProxyType({
    "pastel": _pastel, "rainbow": _rainbow, "rainbow_dual": _rainbow_dual,
    "white": _white, "bw": _bw, "bw_dual": _bw_dual})

_ESCAPES = {"\\": r"\textbackslash{}", "_": r"\_", "#": r"\#", "&": r"\&",
            "%": r"\%", "$": r"\$", "{": r"\{", "}": r"\}",
            "^": r"\textasciicircum{}", "~": r"\textasciitilde{}"}


def tikz_escape(s):
    """`s` with LaTeX's special characters escaped."""
    return "".join(_ESCAPES.get(c, c) for c in s)


class _Out:
    """print() each piece, or collect the pieces for render_func."""

    def __init__(self, render_func):
        self.render_func = render_func
        self.pieces = []

    def __call__(self, *args):
        if self.render_func is None:
            print(*args)
        else:
            self.pieces.append(" ".join(str(a) for a in args))

    def document_start(self, comment, layout):
        if self.render_func is None:
            self(comment, layout)
            self("\\documentclass[convert]{standalone}")
            self("\\usepackage{tikz}")
            self("\\begin{document}")

    def finish(self):
        self("\\end{tikzpicture}")
        if self.render_func is None:
            self("\\end{document}")
        else:
            self.render_func(" ".join(self.pieces))


def _index_labels(out, m_count, n_count):
    out("\\draw[color=black,thick,shift={(-0.5,-0.5)}] (0,0) grid (%d,%d);"
        "\n\n" % (m_count, n_count))
    for m in range(m_count):
        out("\\node at (%d,%d) {\\Large{\\texttt{%d}}};\n" % (m, -1, m))
    for n in range(n_count):
        out("\\node at (%d,%d) {\\Large{\\texttt{%d}}};\n" % (-1, n, n))


def _index(layout, coord):
    from .. import cute_dsl as cute
    return cute.crd2idx(coord, layout)


def print_latex(x, *, color=tikz_color_bwx8, render_func=None):
    """A rank-1 or rank-2 static layout (or composed layout) as a TikZ grid
    of its indices."""
    from .. import cute_dsl as cute
    if not cute.is_static(x):
        raise ValueError("Requires static input")
    if cute.rank(x) > 2:
        raise ValueError("Requires rank <= 2 to print")
    layout = x
    if cute.rank(x) == 1:
        layout = cute.append(x, cute.make_layout(1, stride=0))
    out = _Out(render_func)
    out.document_start("%% Layout: {}", layout)
    out(_HEADER)
    m_count, n_count = cute.product_each(x.shape)
    for m in range(m_count):
        for n in range(n_count):
            idx = _index(layout, (m, n))
            out("\\node[fill=")
            out(color(idx))
            out("] at (%d,%d) {%d};\n" % (m, n, idx))
    _index_labels(out, m_count, n_count)
    out.finish()


def _cell_function(color, palette, num_tid, num_vid):
    if palette is None:
        return color
    if isinstance(palette, str):
        if palette not in PALETTES:
            raise ValueError("Unknown palette %r; choose one of %s or pass a "
                             "factory" % (palette, sorted(PALETTES)))
        palette = PALETTES[palette]
    return palette(num_tid, num_vid)


def print_latex_tv(layout_tv, tile_mn, *, color=tikz_color_tv, palette=None,
                   title=None, axis_labels=False, render_func=None):
    """Which (thread, value) of a static TV layout owns each cell of an
    M x N tile, as a TikZ grid."""
    from .. import cute_dsl as cute
    if not cute.is_static(layout_tv) or not cute.is_static(tile_mn):
        raise ValueError("Layout tv and tile_mn must be static")
    if cute.rank(layout_tv) != 2:
        raise ValueError("Require layout_tv to be rank 2")
    out = _Out(render_func)
    out.document_start("%% Layout TV: {}", layout_tv)
    out(_HEADER + "\n")
    if not isinstance(tile_mn, cute.Layout):
        tile_mn = cute.make_layout(tile_mn)
    m_count, n_count = cute.product_each(tile_mn.shape)
    filled = [[False] * n_count for _ in range(m_count)]
    num_tid = cute.size(layout_tv, mode=[0])
    num_vid = cute.size(layout_tv, mode=[1])
    cell = _cell_function(color, palette, num_tid, num_vid)
    for tid in range(num_tid):
        for vid in range(num_vid):
            idx = _index(layout_tv, (tid, vid))
            m = (idx // tile_mn.stride[0]) % tile_mn.shape[0]
            n = (idx // tile_mn.stride[1]) % tile_mn.shape[1]
            if filled[m][n]:
                continue
            filled[m][n] = True
            bands = cell(tid, vid)
            if isinstance(bands, str):
                bands = [Band(0.0, 1.0, bands)]
            for band in bands:
                out("\\path[fill=%s] (%g,%g) rectangle (%g,%g);\n" % (
                    band.color, m - 0.5 + band.lo, n - 0.5,
                    m - 0.5 + band.hi, n + 0.5))
            out("\\node at (%d,%d) {\\shortstack{T%d \\\\ V%d}};\n" %
                (m, n, tid, vid))
    _index_labels(out, m_count, n_count)
    if axis_labels:
        out("\\node at (%g,%g) {\\Large N (col) $\\rightarrow$};\n" %
            (-1.7, n_count / 2.0))
        out("\\node[rotate=90] at (%g,%g) {\\Large $\\leftarrow$ M (row)};\n"
            % (m_count / 2.0, -2.0))
    if title:
        body = " \\\\ ".join("\\texttt{" + tikz_escape(line) + "}"
                             for line in title.split("\n"))
        out("\\node[anchor=south] at (%g,%g) {\\shortstack{%s}};\n" %
            (-2.2, n_count / 2.0, body))
    out.finish()
