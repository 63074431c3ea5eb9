// views/cute_tikz.h: the TikZ pictures of the CuTe DSL twin's viz
// (hlolayout.cute_dsl.viz): a layout's picture and a thread-value layout's
// over its tile, as the pieces of a TikZ picture (draw/tikz.h), each cell
// filled as the caller says.
//
//   CuteLayoutTikz("(2,2):(1,2)", fill)
//       -> {"\\begin{tikzpicture}...", ...}   // a 2x2 grid of indices
//   CuteTvTikz("(32,4):(4,1)", "(8,16):(1,8)", fill, options)
//
// The kit's pieces a caller needs beside them (TikzDocument, TikzEscape, the
// colours TikzGrey, TikzTvColour, TikzHue) come with draw/tikz.h, included
// here: the faces reach the drawing kit through this view.
#ifndef HLOLAYOUT_VIEWS_CUTE_TIKZ_H_
#define HLOLAYOUT_VIEWS_CUTE_TIKZ_H_

#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "hlolayout/draw/cell_grid.h"
#include "hlolayout/draw/tikz.h"

namespace hlolayout::draw {

// A cell's fill from its numbers (a layout's index, or thread and value).
using TikzCellFill = std::function<TikzFill(const GridCell&)>;

// CuteLayoutTikz
//
// The pieces of the picture of `layout` (CuTe text: a layout, a swizzle or
// a composed layout), with the default options. Errors: the text's
// (line:column), CuteLayoutGrid's.
absl::StatusOr<std::vector<std::string>> CuteLayoutTikz(
    absl::string_view layout, const TikzCellFill& fill);

// CuteTvTikz
//
// The pieces of the picture of the thread-value layout `tv` over the tile
// layout `tile` (CuTe text each; TvTileGrid's placement), striped, its
// cells in the order their owners came (options.order is set here). Errors:
// the texts' (tile's first), TvTileGrid's.
absl::StatusOr<std::vector<std::string>> CuteTvTikz(absl::string_view tv,
                                                    absl::string_view tile,
                                                    const TikzCellFill& fill,
                                                    TikzOptions options);

}  // namespace hlolayout::draw

#endif  // HLOLAYOUT_VIEWS_CUTE_TIKZ_H_
