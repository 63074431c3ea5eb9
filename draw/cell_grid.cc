#include "hlolayout/draw/cell_grid.h"

#include <algorithm>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "hlolayout/draw/palette.h"
#include "hlolayout/draw/svg.h"
#include "hlolayout/util/check.h"

namespace hlolayout::draw {
namespace {

// Display width of UTF-8 text (code points; the pictures use no wide ones).
int64_t Width(const std::string& s) {
  int64_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

const GridCell* At(const CellGrid& g, int64_t r, int64_t c) {
  if (r < 0 || c < 0 || r >= g.rows || c >= g.cols) return nullptr;
  const int64_t i = r * g.cols + c;
  if (i >= static_cast<int64_t>(g.cells.size())) return nullptr;
  const GridCell* cell = &g.cells[i];
  return cell->present ? cell : nullptr;
}

struct Geometry {
  double cw, ch, label_w, top, width, height;
};

constexpr double kCharW = 7.0;  // monospace 11px
constexpr double kLine = 16;
constexpr double kLabelLine = 12;  // the lines of a stacked label

// The lines a cell's label is drawn in.
std::vector<std::string> LabelLines(const CellGrid& g, const GridCell& c) {
  if (!g.stacked_labels) return {c.label};
  return absl::StrSplit(c.label, ' ', absl::SkipEmpty());
}

// The width and height of `m` from its cell size, label column and header
// height.
void Refit(const CellGrid& g, Geometry& m) {
  double text_w = kCharW * Width(g.heading) + 10;
  for (const std::string& n : g.notes) {
    text_w = std::max(text_w, kCharW * Width(n) + 10);
  }
  m.width = std::max(text_w, m.label_w + m.cw * g.cols + 4);
  m.height = m.top + m.ch * g.rows + 4;
}

Geometry Measure(const CellGrid& g) {
  Geometry m;
  int64_t longest = 0, lines = 1;
  const bool coarse = g.coarse || g.compact;
  for (const GridCell& c : g.cells) {
    const std::vector<std::string> parts = LabelLines(g, c);
    for (const std::string& part : parts) {
      longest = std::max(longest, Width(part));
    }
    lines = std::max<int64_t>(lines, parts.size());
  }
  m.ch = coarse ? 12 : std::max(24.0, kLabelLine * lines + 6);
  // Stacked labels are short words: a narrower margin keeps panels of 16
  // columns under 600 pixels.
  m.cw = coarse
             ? 12
             : std::max(28.0, kCharW * longest + (g.stacked_labels ? 6 : 10));
  int64_t row_label = 0;
  for (const std::string& l : g.row_labels) {
    row_label = std::max(row_label, Width(l));
  }
  m.label_w = row_label > 0 ? kCharW * row_label + 10 : 0;
  m.top = 20 + kLine * g.notes.size() + (g.col_labels.empty() ? 0 : kLine);
  Refit(g, m);
  return m;
}

void Segment(std::string& path, double x, double y, double x2, double y2) {
  absl::StrAppend(&path, "M", SvgNumber(x), " ", SvgNumber(y), "L",
                  SvgNumber(x2), " ", SvgNumber(y2));
}

// The heading (when `headed`), the notes and the column and row labels of
// `g` drawn at (x0, y0).
void DrawHeadingAndLabels(SvgWriter& svg, const CellGrid& g, const Geometry& m,
                          double x0, double y0, bool headed) {
  if (headed) {
    svg.Text(
        "text",
        {{"class", "heading"}, {"x", SvgNumber(x0)}, {"y", SvgNumber(y0 + 10)}},
        g.heading);
  }
  double y = y0 + 10 + kLine;
  for (const std::string& n : g.notes) {
    svg.Text("text",
             {{"class", "caption"}, {"x", SvgNumber(x0)}, {"y", SvgNumber(y)}},
             n);
    y += kLine;
  }
  const double gx = x0 + m.label_w;  // grid origin
  const double gy = y0 + m.top;
  for (int64_t c = 0; c < static_cast<int64_t>(g.col_labels.size()); ++c) {
    svg.Text("text",
             {{"x", SvgNumber(gx + (c + 0.5) * m.cw)},
              {"y", SvgNumber(gy - 8)},
              {"fill", "#555555"}},
             g.col_labels[c]);
  }
  for (int64_t r = 0; r < static_cast<int64_t>(g.row_labels.size()); ++r) {
    svg.Text("text",
             {{"x", SvgNumber(x0 + m.label_w / 2)},
              {"y", SvgNumber(gy + (r + 0.5) * m.ch)},
              {"fill", "#555555"}},
             g.row_labels[r]);
  }
}

// One cell at (x, y): its group with the fill (a bar of height `fill`
// over hatching, or a solid colour), its label lines and its title.
void DrawCell(SvgWriter& svg, const CellGrid& g, const GridCell& cell,
              const Geometry& m, double x, double y) {
  std::vector<std::pair<std::string, std::string>> attrs;
  if (!cell.css_class.empty()) attrs.emplace_back("class", cell.css_class);
  for (const auto& a : cell.attrs) attrs.push_back(a);
  svg.Open("g", attrs);
  const std::string xs = SvgNumber(x), ys = SvgNumber(y), ws = SvgNumber(m.cw),
                    hs = SvgNumber(m.ch);
  if (cell.fill >= 0) {
    if (cell.fill < 1) {
      svg.Element("rect", {{"x", xs},
                           {"y", ys},
                           {"width", ws},
                           {"height", hs},
                           {"fill", "url(#hatch)"}});
    }
    const double h = m.ch * std::min(1.0, cell.fill);
    if (h > 0) {
      svg.Element("rect",
                  {{"x", xs},
                   {"y", SvgNumber(y + m.ch - h)},
                   {"width", ws},
                   {"height", SvgNumber(h)},
                   {"fill", cell.colour >= 0 ? PaletteColour(cell.colour)
                                             : "#FFFFFF"}});
    }
  } else {
    svg.Element("rect", {{"x", xs},
                         {"y", ys},
                         {"width", ws},
                         {"height", hs},
                         {"fill", cell.hatched        ? "url(#hatch)"
                                  : !cell.rgb.empty() ? cell.rgb
                                  : cell.colour >= 0
                                      ? std::string(PaletteColour(cell.colour))
                                      : "#FFFFFF"},
                         {"stroke", "#FFFFFF"}});
  }
  if (!cell.label.empty()) {
    const std::vector<std::string> lines = LabelLines(g, cell);
    double ty = y + m.ch / 2 - kLabelLine * (lines.size() - 1) / 2;
    for (const std::string& line : lines) {
      svg.Text("text", {{"x", SvgNumber(x + m.cw / 2)}, {"y", SvgNumber(ty)}},
               line);
      ty += kLabelLine;
    }
  }
  svg.Text("title", {}, cell.title);
  svg.Close();
}

// The border paths of the cells, drawn after all of them.
struct BorderPaths {
  std::string tiles, subs, bytes;
};

// Appends the borders of `cell` at row r, column c (drawn at (x, y)):
// tile borders on the right and bottom of this cell, and on the left and
// top when there is no neighbour there; byte borders between cells of one
// group; the inset outline of its sub-tile.
void AddCellBorders(const CellGrid& g, const GridCell& cell, int64_t r,
                    int64_t c, const Geometry& m, double x, double y,
                    BorderPaths& paths) {
  const GridCell* right = At(g, r, c + 1);
  const GridCell* down = At(g, r + 1, c);
  const GridCell* left = At(g, r, c - 1);
  const GridCell* up = At(g, r - 1, c);
  // Tile-granularity grids: only the outline.
  const bool inner = !g.coarse;
  if (right == nullptr || (inner && right->group != cell.group)) {
    Segment(paths.tiles, x + m.cw, y, x + m.cw, y + m.ch);
  }
  if (down == nullptr || (inner && down->group != cell.group)) {
    Segment(paths.tiles, x, y + m.ch, x + m.cw, y + m.ch);
  }
  if (left == nullptr) Segment(paths.tiles, x, y, x, y + m.ch);
  if (up == nullptr) Segment(paths.tiles, x, y, x + m.cw, y);
  if (right != nullptr && right->group == cell.group &&
      right->byte != cell.byte) {
    Segment(paths.bytes, x + m.cw, y + 2, x + m.cw, y + m.ch - 2);
  }
  if (cell.sub < 0) return;
  constexpr double kIn = 2.5;
  auto differs = [&](const GridCell* n) {
    return n == nullptr || n->sub != cell.sub;
  };
  const double l = x + kIn, t = y + kIn, rr = x + m.cw - kIn,
               b = y + m.ch - kIn;
  const double l2 = differs(left) ? l : x, r2 = differs(right) ? rr : x + m.cw;
  const double t2 = differs(up) ? t : y, b2 = differs(down) ? b : y + m.ch;
  if (differs(left)) Segment(paths.subs, l, t2, l, b2);
  if (differs(right)) Segment(paths.subs, rr, t2, rr, b2);
  if (differs(up)) Segment(paths.subs, l2, t, r2, t);
  if (differs(down)) Segment(paths.subs, l2, b, r2, b);
}

void DrawBorderPaths(SvgWriter& svg, const BorderPaths& paths) {
  if (!paths.bytes.empty()) {
    svg.Element("path", {{"class", "byte-borders"},
                         {"d", paths.bytes},
                         {"stroke", "#333333"},
                         {"stroke-dasharray", "2 2"},
                         {"fill", "none"}});
  }
  if (!paths.subs.empty()) {
    svg.Element("path", {{"class", "subtile-borders"},
                         {"d", paths.subs},
                         {"stroke", kSubTileBorderColour},
                         {"stroke-width", "1.5"},
                         {"fill", "none"}});
  }
  if (!paths.tiles.empty()) {
    svg.Element("path", {{"class", "tile-borders"},
                         {"d", paths.tiles},
                         {"stroke", kTileBorderColour},
                         {"stroke-width", "2"},
                         {"fill", "none"},
                         {"stroke-linecap", "square"}});
  }
}

void DrawGrid(SvgWriter& svg, const CellGrid& g, const Geometry& m, double x0,
              double y0, bool headed) {
  svg.Open("g", {{"class", g.css_class.empty() ? "grid" : g.css_class}});
  DrawHeadingAndLabels(svg, g, m, x0, y0, headed);
  const double gx = x0 + m.label_w;  // grid origin
  const double gy = y0 + m.top;
  BorderPaths paths;
  for (int64_t r = 0; r < g.rows; ++r) {
    for (int64_t c = 0; c < g.cols; ++c) {
      const GridCell* cell = At(g, r, c);
      if (cell == nullptr) continue;
      const double x = gx + c * m.cw, y = gy + r * m.ch;
      DrawCell(svg, g, *cell, m, x, y);
      AddCellBorders(g, *cell, r, c, m, x, y, paths);
    }
  }
  DrawBorderPaths(svg, paths);
  svg.Close();
}

}  // namespace

std::string GridsToSvg(absl::Span<const CellGrid> grids,
                       const std::string& title) {
  constexpr double kMargin = 12, kGap = 36, kTitle = 24;
  std::vector<Geometry> geos;
  double width = kMargin, height = 0;
  for (const CellGrid& g : grids) {
    geos.push_back(Measure(g));
    width += geos.back().width + kGap;
    height = std::max(height, geos.back().height);
  }
  width = std::max(width - kGap + kMargin,
                   kCharW * 1.2 * Width(title) + 2 * kMargin);
  height += kTitle + 2 * kMargin;
  SvgWriter svg(width, height);
  svg.Text("text",
           {{"class", "heading"},
            {"x", SvgNumber(kMargin)},
            {"y", SvgNumber(kMargin + 6)},
            {"font-size", "13"}},
           title);
  double x = kMargin;
  for (size_t i = 0; i < grids.size(); ++i) {
    DrawGrid(svg, grids[i], geos[i], x, kMargin + kTitle,
             grids[i].heading != title);
    x += geos[i].width + kGap;
  }
  return std::move(svg).Finish();
}

std::string GridsToSvg(absl::Span<const CellGrid> grids,
                       const std::string& title,
                       absl::Span<const GridPlace> places) {
  constexpr double kMargin = 12, kGap = 36, kTitle = 24;
  HLOLAYOUT_CHECK(places.size() == grids.size());
  int rows = 0, cols = 0;
  double cw = 0, ch = 0;
  std::vector<Geometry> geos;
  for (size_t i = 0; i < grids.size(); ++i) {
    rows = std::max(rows, places[i].row + 1);
    cols = std::max(cols, places[i].col + 1);
    geos.push_back(Measure(grids[i]));
    cw = std::max(cw, geos.back().cw);
    ch = std::max(ch, geos.back().ch);
  }
  // One cell size; per table column the widest label column, per table row
  // the tallest header.
  std::vector<double> label_w(cols, 0), top(rows, 0);
  for (size_t i = 0; i < grids.size(); ++i) {
    label_w[places[i].col] = std::max(label_w[places[i].col], geos[i].label_w);
    top[places[i].row] = std::max(top[places[i].row], geos[i].top);
  }
  std::vector<double> col_w(cols, 0), row_h(rows, 0);
  for (size_t i = 0; i < grids.size(); ++i) {
    Geometry& m = geos[i];
    m.cw = cw;
    m.ch = ch;
    m.label_w = label_w[places[i].col];
    m.top = top[places[i].row];
    Refit(grids[i], m);
    col_w[places[i].col] = std::max(col_w[places[i].col], m.width);
    row_h[places[i].row] = std::max(row_h[places[i].row], m.height);
  }
  std::vector<double> col_x(cols), row_y(rows);
  double x = kMargin, y = kMargin + kTitle;
  for (int c = 0; c < cols; ++c) {
    col_x[c] = x;
    x += col_w[c] + (col_w[c] > 0 ? kGap : 0);
  }
  for (int r = 0; r < rows; ++r) {
    row_y[r] = y;
    y += row_h[r] + (row_h[r] > 0 ? kGap : 0);
  }
  const double width =
      std::max(x - kGap + kMargin, kCharW * 1.2 * Width(title) + 2 * kMargin);
  const double height = y - kGap + kMargin;
  SvgWriter svg(width, height);
  svg.Text("text",
           {{"class", "heading"},
            {"x", SvgNumber(kMargin)},
            {"y", SvgNumber(kMargin + 6)},
            {"font-size", "13"}},
           title);
  for (size_t i = 0; i < grids.size(); ++i) {
    DrawGrid(svg, grids[i], geos[i], col_x[places[i].col], row_y[places[i].row],
             grids[i].heading != title);
  }
  return std::move(svg).Finish();
}

namespace {

struct Box {
  const char* h;
  const char* v;
  const char* dotted;
  // Junctions indexed by up | down << 1 | left << 2 | right << 3.
  const char* junction[16];
};

constexpr Box kUnicode = {"─",
                          "│",
                          "┊",
                          {" ", "│", "│", "│", "─", "┘", "┐", "┤", "─", "└",
                           "┌", "├", "─", "┴", "┬", "┼"}};
constexpr Box kAscii = {"-",
                        "|",
                        ":",
                        {" ", "|", "|", "|", "-", "+", "+", "+", "-", "+", "+",
                         "+", "-", "+", "+", "+"}};

std::string Pad(const std::string& s, int64_t w, bool right_align) {
  const int64_t n = Width(s);
  if (n >= w) return s;
  return right_align ? std::string(w - n, ' ') + s
                     : s + std::string(w - n, ' ');
}

void GridText(const CellGrid& g, TextStyle style, bool headed,
              std::string& out) {
  const Box& box = style.ascii ? kAscii : kUnicode;
  if (headed) out += g.heading + "\n";
  for (const std::string& n : g.notes) out += "  " + n + "\n";
  int64_t w = 1;
  for (const GridCell& c : g.cells) w = std::max(w, Width(c.label));
  for (const std::string& l : g.col_labels) w = std::max(w, Width(l));
  const bool coarse = g.coarse;
  if (!coarse) ++w;  // a space before each label
  int64_t lw = 0;
  for (const std::string& l : g.row_labels) lw = std::max(lw, Width(l));
  const std::string indent(lw > 0 ? lw + 1 : 0, ' ');
  // Separator column between c and c+1 on row r: 0 none, 1 tile, 2 byte.
  auto vsep = [&](int64_t r, int64_t c) {
    const GridCell* a = At(g, r, c);
    const GridCell* b = At(g, r, c + 1);
    if (a == nullptr || b == nullptr) return 0;
    if (a->group != b->group) return 1;
    if (a->byte != b->byte) return 2;
    return 0;
  };
  auto hsep = [&](int64_t r, int64_t c) {  // under row r, column c
    const GridCell* a = At(g, r, c);
    const GridCell* b = At(g, r + 1, c);
    return a != nullptr && b != nullptr && a->group != b->group;
  };
  if (!g.col_labels.empty()) {
    out += indent;
    for (int64_t c = 0; c < g.cols; ++c) {
      out += Pad(g.col_labels[c], w, true);
      if (c + 1 < g.cols && !coarse) out += " ";
    }
    out += "\n";
  }
  for (int64_t r = 0; r < g.rows; ++r) {
    out += r < static_cast<int64_t>(g.row_labels.size())
               ? Pad(g.row_labels[r], lw, true) + " "
               : indent;
    for (int64_t c = 0; c < g.cols; ++c) {
      const GridCell* cell = At(g, r, c);
      std::string text =
          cell == nullptr ? std::string(w, ' ') : Pad(cell->label, w, true);
      if (cell != nullptr && style.colour) {
        if (!cell->rgb.empty() && cell->ansi >= 0 && !cell->hatched) {
          text =
              absl::StrCat("\x1b[30;48;5;", cell->ansi, "m", text, "\x1b[0m");
        } else if (cell->colour >= 0 && !cell->hatched) {
          text = absl::StrCat("\x1b[30;48;5;", PaletteAnsi256(cell->colour),
                              "m", text, "\x1b[0m");
        } else if (cell->hatched) {
          text = absl::StrCat("\x1b[2m", text, "\x1b[0m");
        }
      }
      out += text;
      if (c + 1 < g.cols && !coarse) {
        const int s = vsep(r, c);
        out += s == 1 ? box.v : s == 2 ? box.dotted : " ";
      }
    }
    // Trim trailing spaces.
    while (!out.empty() && out.back() == ' ') out.pop_back();
    out += "\n";
    if (r + 1 >= g.rows || coarse) continue;
    bool any = false;
    for (int64_t c = 0; c < g.cols; ++c) any = any || hsep(r, c);
    if (!any) continue;
    std::string line = indent;
    for (int64_t c = 0; c < g.cols; ++c) {
      const bool h = hsep(r, c);
      for (int64_t i = 0; i < w; ++i) line += h ? box.h : " ";
      if (c + 1 < g.cols) {
        const bool up = vsep(r, c) == 1, down = vsep(r + 1, c) == 1;
        const bool right = hsep(r, c + 1);
        const int k = up | down << 1 | h << 2 | right << 3;
        line += box.junction[k];
      }
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
}

}  // namespace

std::string GridsToText(absl::Span<const CellGrid> grids, TextStyle style) {
  std::string out;
  for (size_t i = 0; i < grids.size(); ++i) {
    if (i > 0) out += "\n";
    GridText(grids[i], style, true, out);
  }
  return out;
}

std::string PictureToText(const std::string& title,
                          absl::Span<const CellGrid> grids, TextStyle style) {
  std::string out = title + "\n";
  for (size_t i = 0; i < grids.size(); ++i) {
    const bool headed = grids[i].heading != title;
    if (i > 0 || headed) out += "\n";
    GridText(grids[i], style, headed, out);
  }
  return out;
}

}  // namespace hlolayout::draw
