// views/layout_picture.h: pictures of where the elements of an XLA array
// live, as SVG or terminal text.
//
//   absl::StatusOr<std::string> svg =
//       LayoutSvg(*ParseShape("f32[3,5]{1,0:T(2,2)}"), LayoutDrawOptions{});
//
// Two views (XLA's tiled-layout document draws the same two):
//   logical: the array as a grid, the two most minor physical dimensions
//     as rows and columns (other dimensions fixed by `slice`), each cell
//     labelled with its element's linear offset, coloured by first-level
//     tile, a red box around each tile of the second level; positions the
//     first tile level pads are drawn hatched (class "logical-padding").
//   memory: the buffer in offset order, wrapped one tile per row (at most
//     64 slots), each slot labelled with the logical index it holds;
//     padding slots hatched and labelled "pad" (tile padding) or "tail"
//     (L(n) tail padding). Sub-byte packed types (E(n) < 8) show which
//     slots share a byte with a dotted border; titles give byte and bit.
//
// SVG contract: every element cell is a <g class="element"
// data-index="i,j,..." data-offset="N">; every padding slot of the memory
// view is a <g class="padding tile-padding|tail-padding" data-offset="N">;
// every cell has a <title>; the views are <g class="view logical"> and
// <g class="view memory">. Offsets come from TiledIndexer.
//
// A view that would need more than `max_cells` cells is drawn at tile
// granularity: one cell per block of first-level tiles (class
// "tile-block", data-offset of the first element it holds, data-fill),
// filled in proportion to the elements it holds, and its notes state the
// scale. No such cell claims to be an element or a padding slot.
#ifndef HLOLAYOUT_VIEWS_LAYOUT_PICTURE_H_
#define HLOLAYOUT_VIEWS_LAYOUT_PICTURE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "hlolayout/draw/cell_grid.h"
#include "hlolayout/shape/shape.h"

namespace hlolayout::draw {

enum class View { kLogical, kMemory, kBoth };

// "logical", "memory", "both". Errors: "unknown view 'x' (logical, memory
// or both)".
absl::StatusOr<View> ParseView(absl::string_view text);

struct LayoutDrawOptions {
  View view = View::kBoth;
  // The logical index of the slice drawn: empty (all 0), rank entries
  // (those of the row and column dims are ignored), or rank - 2 entries for
  // the other dims in logical order.
  std::vector<int64_t> slice;
  // Tile granularity past this many cells in a view.
  int64_t max_cells = 4096;
  // At tile granularity: at most this many cells and columns.
  int64_t coarse_cells = 768;
  int64_t coarse_cols = 48;
};

// The views as CellGrids (for callers composing their own pictures).
// Errors: not an array, invalid layout, a slice of the wrong length or out
// of bounds, shapes the indexer cannot handle.
absl::StatusOr<std::vector<CellGrid>> LayoutGrids(
    const Shape& shape, const LayoutDrawOptions& options);

// A self-contained SVG of the views, side by side.
absl::StatusOr<std::string> LayoutSvg(const Shape& shape,
                                      const LayoutDrawOptions& options);

// The views as text, one under the other. Text pictures switch to tile
// granularity sooner (more than 1,024 cells or 32 columns).
absl::StatusOr<std::string> LayoutText(const Shape& shape,
                                       const LayoutDrawOptions& options,
                                       TextStyle style);

}  // namespace hlolayout::draw

#endif  // HLOLAYOUT_VIEWS_LAYOUT_PICTURE_H_
