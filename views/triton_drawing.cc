#include "hlolayout/views/triton_drawing.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"
#include "hlolayout/triton/ttgir_parser.h"
#include "hlolayout/views/triton_picture.h"

namespace hlolayout::triton {

absl::StatusOr<LayoutDrawing> DrawLayout(absl::string_view text,
                                         const LinearLayout& layout,
                                         const Layout* named, int bits) {
  std::vector<int64_t> shape;
  for (const auto& od : layout.out_dims()) shape.push_back(od.second);
  LayoutDrawing d;
  d.title = absl::StrCat(text, " on ", absl::StrJoin(shape, "x"));
  // A padded layout's picture shows the offsets after padding.
  std::vector<std::pair<int32_t, int32_t>> padding;
  if (named != nullptr) {
    if (const auto* pad = named->get<PaddedSharedLayout>()) {
      padding = pad->intervals;
    }
  }
  absl::StatusOr<draw::CellGrid> grid =
      LayoutPicture(layout, d.title, bits, padding);
  if (!grid.ok()) return grid.status();
  d.grids.push_back(*std::move(grid));
  return d;
}

absl::StatusOr<LayoutDrawing> DrawInstruction(
    absl::string_view text, const InstructionPictureOptions& options) {
  if (options.k_width < 0 || options.k_width > 1024) {
    return absl::InvalidArgumentError(absl::StrCat("bad k_width ",
                                                   options.k_width,
                                                   " (1 to 1024, or 0: the "
                                                   "instruction's)"));
  }
  text = absl::StripAsciiWhitespace(text);
  absl::StatusOr<Layout> named = ParseLayout(text);
  if (!named.ok()) return named.status();
  absl::StatusOr<std::vector<draw::CellGrid>> grids =
      InstructionPictures(*named, options);
  if (!grids.ok()) return grids.status();
  LayoutDrawing d;
  d.title = absl::StrCat(text, ": one instruction of one warp");
  d.grids = *std::move(grids);
  d.banded_text = true;
  return d;
}

std::string DrawingSvg(const LayoutDrawing& d) {
  return draw::GridsToSvg(d.grids, d.title);
}

std::string DrawingText(const LayoutDrawing& d, draw::TextStyle style) {
  if (!d.banded_text) return draw::PictureToText(d.title, d.grids, style);
  std::vector<draw::CellGrid> banded;
  for (const draw::CellGrid& g : d.grids) {
    for (draw::CellGrid& band : SplitIntoColumnBands(g, 132)) {
      banded.push_back(std::move(band));
    }
  }
  return draw::PictureToText(d.title, banded, style);
}

}  // namespace hlolayout::triton
