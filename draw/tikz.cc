// draw/tikz.cc: CellGrids as TikZ pieces.
#include "hlolayout/draw/tikz.h"

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "hlolayout/draw/palette.h"
#include "hlolayout/util/check.h"

namespace hlolayout::draw {
namespace {

// The picture's axes: x goes down the rows, y across the columns, one
// centimetre a cell, so that a node at (m,n) is row m, column n.
constexpr absl::string_view kOpen =
    "\\begin{tikzpicture}[x={(0cm,-1cm)},y={(1cm,0cm)},every node/"
    ".style={minimum size=1cm, outer sep=0pt}]";
constexpr absl::string_view kClose = "\\end{tikzpicture}";

// A coordinate as printf's %g writes it (2 -> "2", 2.5 -> "2.5").
std::string Num(double x) { return absl::StrFormat("%g", x); }

// A cell's label: a stacked label's words one under the other.
std::string Label(const CellGrid& grid, const GridCell& cell) {
  if (!grid.stacked_labels) return cell.label;
  std::vector<absl::string_view> words =
      absl::StrSplit(cell.label, ' ', absl::SkipEmpty());
  return absl::StrCat("\\shortstack{", absl::StrJoin(words, " \\\\ "), "}");
}

void AddCell(const CellGrid& grid, int64_t k, const TikzFill& fill,
             bool striped, std::vector<std::string>* out) {
  const GridCell& cell = grid.cells[k];
  const int64_t row = k / grid.cols, col = k % grid.cols;
  if (!striped) {
    out->push_back("\\node[fill=");
    out->push_back(fill.empty() ? std::string("white") : fill[0].colour);
    out->push_back(absl::StrCat("] at (", row, ",", col, ") {",
                                Label(grid, cell), "};\n"));
    return;
  }
  for (const TikzStripe& s : fill) {
    out->push_back(absl::StrCat("\\path[fill=", s.colour, "] (",
                                Num(row - 0.5 + s.from), ",", Num(col - 0.5),
                                ") rectangle (", Num(row - 0.5 + s.to), ",",
                                Num(col + 0.5), ");\n"));
  }
  out->push_back(absl::StrCat("\\node at (", row, ",", col, ") {",
                              Label(grid, cell), "};\n"));
}

// The grid lines, the row numbers left of the rows and the column numbers
// above the columns.
void AddFrame(const CellGrid& grid, std::vector<std::string>* out) {
  out->push_back(
      absl::StrCat("\\draw[color=black,thick,shift={(-0.5,-0.5)}] (0,0) grid (",
                   grid.rows, ",", grid.cols, ");\n\n"));
  auto number = [](int64_t at_row, int64_t at_col, const std::string& text) {
    return absl::StrCat("\\node at (", at_row, ",", at_col,
                        ") {\\Large{\\texttt{", text, "}}};\n");
  };
  for (int64_t i = 0; i < grid.rows; ++i) {
    out->push_back(number(i, -1,
                          i < static_cast<int64_t>(grid.row_labels.size())
                              ? grid.row_labels[i]
                              : absl::StrCat(i)));
  }
  for (int64_t j = 0; j < grid.cols; ++j) {
    out->push_back(number(-1, j,
                          j < static_cast<int64_t>(grid.col_labels.size())
                              ? grid.col_labels[j]
                              : absl::StrCat(j)));
  }
}

}  // namespace

std::vector<std::string> GridToTikz(
    const CellGrid& grid, const std::function<TikzFill(const GridCell&)>& fill,
    const TikzOptions& options) {
  std::vector<std::string> out;
  out.push_back(options.striped ? absl::StrCat(kOpen, "\n")
                                : std::string(kOpen));
  const int64_t cells = grid.rows * grid.cols;
  if (options.order.empty()) {
    for (int64_t k = 0; k < cells; ++k) {
      AddCell(grid, k, fill(grid.cells[k]), options.striped, &out);
    }
  } else {
    for (int64_t k : options.order) {
      if (k < 0 || k >= cells) continue;
      AddCell(grid, k, fill(grid.cells[k]), options.striped, &out);
    }
  }
  AddFrame(grid, &out);
  const double mid_row = grid.rows / 2.0, mid_col = grid.cols / 2.0;
  if (options.axis_labels) {
    out.push_back(absl::StrCat("\\node at (-1.7,", Num(mid_col),
                               ") {\\Large N (col) $\\rightarrow$};\n"));
    out.push_back(absl::StrCat("\\node[rotate=90] at (", Num(mid_row),
                               ",-2) {\\Large $\\leftarrow$ M (row)};\n"));
  }
  if (!options.title.empty()) {
    std::vector<std::string> lines;
    for (const std::string& line : options.title) {
      lines.push_back(absl::StrCat("\\texttt{", TikzEscape(line), "}"));
    }
    out.push_back(absl::StrCat("\\node[anchor=south] at (-2.2,", Num(mid_col),
                               ") {\\shortstack{",
                               absl::StrJoin(lines, " \\\\ "), "}};\n"));
  }
  out.push_back(std::string(kClose));
  return out;
}

std::vector<std::string> TikzDocument(const std::string& comment,
                                      const std::vector<std::string>& pieces) {
  std::vector<std::string> lines = {comment,
                                    "\\documentclass[convert]{standalone}",
                                    "\\usepackage{tikz}", "\\begin{document}"};
  lines.insert(lines.end(), pieces.begin(), pieces.end());
  lines.push_back("\\end{document}");
  return lines;
}

std::string TikzEscape(absl::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '\\':
        out += "\\textbackslash{}";
        break;
      case '^':
        out += "\\textasciicircum{}";
        break;
      case '~':
        out += "\\textasciitilde{}";
        break;
      case '#':
      case '$':
      case '%':
      case '&':
      case '_':
      case '{':
      case '}':
        out += '\\';
        out += c;
        break;
      default:
        out += c;
    }
  }
  return out;
}

int TikzGreyPercent(int64_t k) {
  const int64_t low = k & 7;
  const int reversed =
      static_cast<int>(((low & 1) << 2) | (low & 2) | ((low & 4) >> 2));
  return 10 * reversed;
}

std::string TikzGrey(int64_t k) {
  return absl::StrFormat("black!%02d", TikzGreyPercent(k));
}

std::string TikzRgb(int red, int green, int blue) {
  return absl::StrCat("{rgb,255:red,", red, ";green,", green, ";blue,", blue,
                      "}");
}

std::string TikzTvColour(int64_t thread) {
  // CuteTvColour is "#RRGGBB".
  // (thread % 8 first: the negation of INT64_MIN would overflow.)
  const absl::string_view hex =
      CuteTvColour(thread < 0 ? -(thread % 8) : thread);
  int channel[3] = {0, 0, 0};
  for (int i = 0; i < 3; ++i) {
    uint32_t v = 0;
    HLOLAYOUT_CHECK(absl::SimpleHexAtoi(hex.substr(1 + 2 * i, 2), &v));
    channel[i] = static_cast<int>(v);
  }
  return TikzRgb(channel[0], channel[1], channel[2]);
}

std::string TikzHue(int64_t i, int64_t n, double saturation) {
  // The colour wheel in six sectors (red, yellow, green, cyan, blue,
  // magenta at their starts); within a sector one channel is full, one at
  // 1 - s and the third moves between them.
  const double h6 = static_cast<double>(i) / static_cast<double>(n) * 6.0;
  const double sector_start = std::floor(h6);
  const double f = h6 - sector_start;
  const double low = 1.0 - saturation;
  const double falling = 1.0 - saturation * f;
  const double rising = 1.0 - saturation * (1.0 - f);
  int64_t sector = static_cast<int64_t>(sector_start) % 6;
  if (sector < 0) sector += 6;
  double rgb[3];
  switch (sector) {
    case 0:
      rgb[0] = 1;
      rgb[1] = rising;
      rgb[2] = low;
      break;
    case 1:
      rgb[0] = falling;
      rgb[1] = 1;
      rgb[2] = low;
      break;
    case 2:
      rgb[0] = low;
      rgb[1] = 1;
      rgb[2] = rising;
      break;
    case 3:
      rgb[0] = low;
      rgb[1] = falling;
      rgb[2] = 1;
      break;
    case 4:
      rgb[0] = rising;
      rgb[1] = low;
      rgb[2] = 1;
      break;
    default:
      rgb[0] = 1;
      rgb[1] = low;
      rgb[2] = falling;
      break;
  }
  int channel[3];
  for (int c = 0; c < 3; ++c) {
    channel[c] = static_cast<int>(std::nearbyint(rgb[c] * 255.0));
  }
  return TikzRgb(channel[0], channel[1], channel[2]);
}

}  // namespace hlolayout::draw
