#include "hlolayout/views/padding_picture.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "hlolayout/draw/svg.h"
#include "hlolayout/layout/sizes.h"
#include "hlolayout/layout/tiling.h"

namespace hlolayout {
namespace {

using draw::SvgNumber;
using draw::SvgWriter;

constexpr double kBoxWidth = 80, kBoxHeight = 44, kGap = 4;
constexpr double kElidedWidth = 40, kElidedHeight = 22;
constexpr double kLeft = 190, kTop = 44, kBottom = 58, kRight = 16;
constexpr int64_t kMaxShown = 8;  // tiles along a dim drawn one by one
constexpr char kElementFill[] = "#7fa7d9";

// One dimension of the picture: its size, tile and where it comes from.
struct Axis {
  std::string label;  // "dim 1", "leading 1", "dims 0-1 combined"
  int64_t size = 1;
  int64_t tile = 1;
  int64_t tiles() const { return (size + tile - 1) / tile; }
  // Elements of tile `i` along this dim that hold elements.
  int64_t used(int64_t i) const { return std::min(tile, size - i * tile); }
};

// The tiles drawn along an axis: indices, with -1 for the elided ones.
std::vector<int64_t> Shown(const Axis& axis) {
  std::vector<int64_t> out;
  const int64_t n = axis.tiles();
  if (n <= kMaxShown) {
    for (int64_t i = 0; i < n; ++i) out.push_back(i);
    return out;
  }
  out = {0, 1, 2, -1, n - 2, n - 1};
  return out;
}

double Extent(const std::vector<int64_t>& shown, double box, double elided) {
  double total = 0;
  for (int64_t i : shown) total += (i < 0 ? elided : box) + kGap;
  return total - kGap;
}

std::string DimLabel(const TileLevel& level, size_t i) {
  const TilingDim& d = level.combined[i];
  if (d.logical_dimension >= 0)
    return absl::StrCat("dim ", d.logical_dimension);
  const auto& [first, last] = level.combined_from[i];
  if (last < level.leading_ones) return "leading 1";
  return absl::StrCat("combined dims (", first - level.leading_ones, "-",
                      last - level.leading_ones, ")");
}

// "dim 1: 1000 -> 1024 (8 tiles of 128, the last holds 104)".
std::string AxisText(const Axis& a) {
  const int64_t padded = a.tiles() * a.tile;
  std::string text = absl::StrCat(a.label, ": ", a.size);
  if (padded != a.size) absl::StrAppend(&text, " -> ", padded);
  absl::StrAppend(&text, " (", a.tiles(), a.tiles() == 1 ? " tile" : " tiles",
                  " of ", a.tile);
  if (padded != a.size) {
    absl::StrAppend(&text, a.tiles() == 1 ? ", holding " : ", the last holds ",
                    a.used(a.tiles() - 1));
  }
  return text + ")";
}

// A line of text starting at (x, y); `grey` for the smaller notes.
void Caption(SvgWriter& svg, double x, double y, bool grey,
             absl::string_view text) {
  if (grey) {
    svg.Text("text",
             {{"x", SvgNumber(x)},
              {"y", SvgNumber(y)},
              {"font-size", "11"},
              {"fill", "#555"},
              {"class", "caption"}},
             text);
  } else {
    svg.Text("text",
             {{"x", SvgNumber(x)},
              {"y", SvgNumber(y)},
              {"font-size", "12"},
              {"class", "caption"}},
             text);
  }
}

// The box that stands for `count` tiles not drawn.
void ElidedBox(SvgWriter& svg, double x, double y, double width, double height,
               int64_t count) {
  const std::string tiles = absl::StrCat(count);
  svg.Open("g", {{"class", "tiles-elided"}, {"data-tiles", tiles}});
  svg.Element("rect", {{"x", SvgNumber(x)},
                       {"y", SvgNumber(y)},
                       {"width", SvgNumber(width)},
                       {"height", SvgNumber(height)},
                       {"fill", "#eef3fa"},
                       {"stroke", "#888"},
                       {"stroke-dasharray", "3 2"}});
  svg.Text("text",
           {{"x", SvgNumber(x + width / 2)},
            {"y", SvgNumber(y + height / 2)},
            {"font-size", "11"}},
           "...");
  svg.Text("title", {},
           absl::StrCat(tiles, " more tiles like their neighbours, not drawn"));
  svg.Close();
}

// Tile (r, c): hatched, filled in proportion to the elements it holds.
void TileBox(SvgWriter& svg, double x, double y, const Axis& rows,
             const Axis& cols, int64_t r, int64_t c, bool two_dims) {
  const int64_t used_rows = rows.used(r), used_cols = cols.used(c);
  svg.Open("g", {{"class", "tile"},
                 {"data-row", absl::StrCat(r)},
                 {"data-col", absl::StrCat(c)},
                 {"data-rows", absl::StrCat(used_rows)},
                 {"data-cols", absl::StrCat(used_cols)}});
  const std::string x0 = SvgNumber(x), y0 = SvgNumber(y);
  const std::string w = SvgNumber(kBoxWidth), h = SvgNumber(kBoxHeight);
  svg.Element("rect", {{"x", x0},
                       {"y", y0},
                       {"width", w},
                       {"height", h},
                       {"fill", "url(#hatch)"},
                       {"stroke", "none"}});
  svg.Element(
      "rect",
      {{"x", x0},
       {"y", y0},
       {"width", SvgNumber(kBoxWidth * static_cast<double>(used_cols) /
                           static_cast<double>(cols.tile))},
       {"height", SvgNumber(kBoxHeight * static_cast<double>(used_rows) /
                            static_cast<double>(rows.tile))},
       {"fill", kElementFill}});
  svg.Element("rect", {{"x", x0},
                       {"y", y0},
                       {"width", w},
                       {"height", h},
                       {"fill", "none"},
                       {"stroke", "#333"}});
  const std::string holds = two_dims ? absl::StrCat(used_rows, " x ", used_cols)
                                     : absl::StrCat(used_cols);
  svg.Text("text",
           {{"x", SvgNumber(x + kBoxWidth / 2)},
            {"y", SvgNumber(y + kBoxHeight / 2)},
            {"font-size", "11"}},
           holds);
  svg.Text(
      "title", {},
      absl::StrCat(
          "tile ",
          two_dims ? absl::StrCat("(", r, ", ", c, ")") : absl::StrCat(c), ": ",
          holds, " of ", two_dims ? absl::StrCat(rows.tile, " x ") : "",
          cols.tile, " elements hold data"));
  svg.Close();
}

// The grid of tiles from (kLeft, kTop).
void TileGrid(SvgWriter& svg, const Axis& rows, const Axis& cols,
              bool two_dims) {
  double y = kTop;
  for (int64_t r : Shown(rows)) {
    const double box_height = r < 0 ? kElidedHeight : kBoxHeight;
    double x = kLeft;
    for (int64_t c : Shown(cols)) {
      const double box_width = c < 0 ? kElidedWidth : kBoxWidth;
      if (r < 0 || c < 0) {
        ElidedBox(
            svg, x, y, box_width, box_height,
            (r < 0 ? rows.tiles() - 5 : 1) * (c < 0 ? cols.tiles() - 5 : 1));
      } else {
        TileBox(svg, x, y, rows, cols, r, c, two_dims);
      }
      x += box_width + kGap;
    }
    y += box_height + kGap;
  }
}

}  // namespace

absl::StatusOr<std::string> PaddingPictureSvg(const Shape& shape) {
  absl::StatusOr<TilingModel> model = BuildTilingModel(shape);
  if (!model.ok()) return model.status();
  absl::StatusOr<ArraySizes> sizes = ComputeArraySizes(shape);
  if (!sizes.ok()) return sizes.status();
  if (model->levels.empty()) {
    return absl::InvalidArgumentError(
        "no tiles in the layout: nothing pads but L(n) tail alignment");
  }
  const TileLevel& level = model->levels[0];
  const size_t n = level.combined.size();
  const size_t k = level.tile_sizes.size();
  Axis rows, cols;
  cols.label = DimLabel(level, n - 1);
  cols.size = level.combined[n - 1].size;
  cols.tile = level.tile_sizes[k - 1];
  size_t outer_end = n - 1;  // dims before this one are outside the picture
  if (k >= 2) {
    rows.label = DimLabel(level, n - 2);
    rows.size = level.combined[n - 2].size;
    rows.tile = level.tile_sizes[k - 2];
    outer_end = n - 2;
  } else {
    rows.label = "";
  }
  int64_t outer = 1;
  std::string outer_text;
  for (size_t i = 0; i < outer_end; ++i) {
    outer *= level.padded[i];
    absl::StrAppend(&outer_text, outer_text.empty() ? "" : ", ",
                    DimLabel(level, i), " ", level.combined[i].size);
    if (level.padded[i] != level.combined[i].size) {
      absl::StrAppend(&outer_text, " -> ", level.padded[i]);
    }
  }
  const double grid_width = Extent(Shown(cols), kBoxWidth, kElidedWidth);
  const double grid_height = Extent(Shown(rows), kBoxHeight, kElidedHeight);
  const std::string col_text = AxisText(cols);
  const std::string row_text = k >= 2 ? AxisText(rows) : "";
  const std::string tile_text = absl::StrCat(
      "tiles of ", k >= 2 ? absl::StrCat(rows.tile, " x ") : "", cols.tile,
      " elements (the first tile level, ", level.tile.ToString(),
      "): ", k >= 2 ? absl::StrCat(rows.tiles(), " x ") : "", cols.tiles(),
      "; filled: elements, hatched: padding");
  const std::string bytes_text = absl::StrCat(
      sizes->logical_elements, " elements, ", sizes->padding_elements(),
      " padding: ", sizes->logical_bytes, " B of ", sizes->padded_bytes, " B",
      outer > 1 ? absl::StrCat(" in all ", outer, " slices (", outer_text, ")")
                : "");
  const double text_width =
      7.0 * static_cast<double>(std::max(
                {col_text.size(), tile_text.size(), bytes_text.size()}));
  const double width =
      std::max(kLeft + grid_width + kRight, 10 + text_width + kRight);
  const double height = kTop + grid_height + kBottom;
  SvgWriter svg(width, height);
  svg.Open("g", {{"class", "padding-picture"}});
  Caption(svg, kLeft, 14, false, col_text);
  Caption(svg, kLeft, 31, true, tile_text.substr(0, tile_text.find(';')));
  if (k >= 2) {
    Caption(svg, 8, kTop + 12, false, row_text.substr(0, row_text.find(" (")));
    Caption(svg, 8, kTop + 30, true, row_text.substr(row_text.find('(')));
  }
  TileGrid(svg, rows, cols, k >= 2);
  Caption(svg, 8, kTop + grid_height + 20, true,
          tile_text.substr(tile_text.find(';') + 2));
  Caption(svg, 8, kTop + grid_height + 40, false, bytes_text);
  svg.Close();
  return std::move(svg).Finish();
}

}  // namespace hlolayout
