// views/grid_analysis_picture.h: the picture of `hlolayout grid draw` for a
// tensor type of any tt-mlir form (ttmlir/ttmlir_explain.h's GridAnalysis):
// the grid of views/ttmlir_picture.h (TTNN, reworked metal) or
// views/grid_picture.h (the 2024 seed form) under a title naming the tensor
// and its grid. The CLI and Python's grid.GridLayout draw through it.
//
//   absl::StatusOr<grid::GridAnalysis> a = grid::AnalyzeGridText(text);
//   absl::StatusOr<GridAnalysisPicture> p = DrawGridAnalysis(*a, false);
//   GridsToSvg({p->grid}, p->title)
//     -> "<svg ...>" titled "tensor<32x4096> with #ttnn.ttnn_layout on
//        grid 1x8"
#ifndef HLOLAYOUT_VIEWS_GRID_ANALYSIS_PICTURE_H_
#define HLOLAYOUT_VIEWS_GRID_ANALYSIS_PICTURE_H_

#include <string>

#include "absl/status/statusor.h"
#include "hlolayout/draw/cell_grid.h"
#include "hlolayout/ttmlir/ttmlir_explain.h"

namespace hlolayout::draw {

struct GridAnalysisPicture {
  CellGrid grid;
  std::string title;
};

// `for_text`: the cell limits of the text form (1,024 cells, 48 columns)
// instead of the SVG's (4,096 cells). An error when the tensor cannot be
// drawn (rank 0 planes, too many shards for one picture, ...).
absl::StatusOr<GridAnalysisPicture> DrawGridAnalysis(
    const grid::GridAnalysis& analysis, bool for_text);

// The self-contained SVG of `hlolayout grid draw --svg -`.
absl::StatusOr<std::string> GridAnalysisSvg(const grid::GridAnalysis& analysis);

}  // namespace hlolayout::draw

#endif  // HLOLAYOUT_VIEWS_GRID_ANALYSIS_PICTURE_H_
