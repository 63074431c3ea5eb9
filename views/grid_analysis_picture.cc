#include "hlolayout/views/grid_analysis_picture.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "hlolayout/ttmlir/metal_layout.h"
#include "hlolayout/views/grid_picture.h"
#include "hlolayout/views/ttmlir_picture.h"

namespace hlolayout::draw {

absl::StatusOr<GridAnalysisPicture> DrawGridAnalysis(
    const grid::GridAnalysis& a, bool for_text) {
  absl::StatusOr<CellGrid> grid;
  std::string title;
  if (a.ttnn) {
    grid = TtnnLayoutGrid(*a.ttnn, for_text);
    title = absl::StrCat("tensor<",
                         a.ttnn->logical_shape().empty()
                             ? std::string("scalar")
                             : grid::DimsToString(a.ttnn->logical_shape()),
                         "> with #ttnn.ttnn_layout on grid ",
                         grid::DimsToString(a.ttnn->grid()));
  } else if (a.metal) {
    grid = MetalHeadLayoutGrid(*a.metal, for_text);
    title = absl::StrCat("tensor<", grid::DimsToString(a.metal->device_shape()),
                         "> with #ttcore.metal_layout on grid ",
                         grid::DimsToString(a.metal->grid()));
  } else {
    const grid::MetalLayout& layout = *a.text.seed;
    grid = GridLayoutGrid(layout, for_text);
    title = absl::StrCat("tensor<", grid::DimsToString(layout.logical_shape()),
                         "> on grid ", grid::DimsToString(layout.grid()));
  }
  if (!grid.ok()) return grid.status();
  return GridAnalysisPicture{*std::move(grid), std::move(title)};
}

absl::StatusOr<std::string> GridAnalysisSvg(const grid::GridAnalysis& a) {
  absl::StatusOr<GridAnalysisPicture> p = DrawGridAnalysis(a, false);
  if (!p.ok()) return p.status();
  return GridsToSvg({p->grid}, p->title);
}

}  // namespace hlolayout::draw
