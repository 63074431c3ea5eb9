// views/triton_picture.h: pictures of Triton layouts as CellGrids
// (draw/cell_grid.h, rendered as SVG or terminal text; docs/pictures.md).
//
//   draw::CellGrid g = *LayoutPicture(l, "#ttg.blocked<...> on 32x32");
//   // register layouts: cell (i,j) shows the thread and register that own
//   // element (i,j) ("T5:2"), coloured by warp, heavy lines between warps;
//   // shared layouts: the offset of each element and its 4-byte bank
//   // ("17 b8" for element_bits 16), coloured by bank; with `padding`
//   // (a padded_shared layout's intervals) the offset after padding;
//   // tensor memory layouts (row, col): the TMEM lane (row) and 32-bit
//   // column of each element ("12:5"), coloured by the warp whose 32 lanes
//   // hold the row.
//
// Rank 2 draws dim0 down and dim1 across; rank 1 is one row; higher ranks
// stack the leading dims as rows. At most 16,384 elements and 262,144
// inputs (larger layouts give an error, whatever their size, up to 64 bits).
// Cells carry data-coord and data-thread/data-register (or
// data-offset/data-bank).
#ifndef HLOLAYOUT_VIEWS_TRITON_PICTURE_H_
#define HLOLAYOUT_VIEWS_TRITON_PICTURE_H_

#include <string>
#include <utility>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "hlolayout/draw/cell_grid.h"
#include "hlolayout/triton/linear_layout.h"

namespace hlolayout::triton {

inline constexpr int kMaxPictureCellsLog2 = 14;
inline constexpr int64_t kMaxPictureCells = int64_t{1} << kMaxPictureCellsLog2;

absl::StatusOr<draw::CellGrid> LayoutPicture(
    const LinearLayout& l, const std::string& heading, int element_bits = 16,
    absl::Span<const std::pair<int32_t, int32_t>> padding = {});

// PaddedOffset
//
// Where element `offset` of a padded shared layout lives: after every
// `interval` elements `padding` unused ones, each pair counted separately
// (Triton's padded offset: offset + sum of (offset >> log2 interval) <<
// log2 padding).
int64_t PaddedOffset(int64_t offset,
                     absl::Span<const std::pair<int32_t, int32_t>> padding);

}  // namespace hlolayout::triton

#endif  // HLOLAYOUT_VIEWS_TRITON_PICTURE_H_
