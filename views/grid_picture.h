// views/grid_picture.h: a picture of a tt-mlir grid-sharded tensor
// (ttmlir/metal_layout.h): the core grid over the collapsed tensor, each
// core's shard coloured by core, the tiles inside a shard and the padding.
//
//   tensor<53x63xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <3x2>,
//          memref<1x1x!tt.tile<32 x 32, bfp_bf8>, #tt.memory_space<l1>>>>
//   -> 3x2 shards of 32x32 (tile-padded from 18x32): one cell per tile
//      position, coloured by core, hatched where a core holds only padding.
//
// The picture covers the last two collapsed dims (grids of rank > 2: the
// first device and outer index 0, stated in the notes). Cells are
// <g class="grid-cell" data-core="y,x" data-fill="P%"> (plus
// class "padding" for cells holding no element); one cell per scalar when
// the whole picture has at most `max_cells` cells, otherwise one per tile
// (tilized) or per block, with the scale in the notes.
#ifndef HLOLAYOUT_VIEWS_GRID_PICTURE_H_
#define HLOLAYOUT_VIEWS_GRID_PICTURE_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "hlolayout/draw/cell_grid.h"
#include "hlolayout/ttmlir/metal_layout.h"

namespace hlolayout::draw {

// `for_text`: at most 1,024 cells and 48 columns, each cell labelled with
// its core number (row-major over the grid) and '.' for padding.
absl::StatusOr<CellGrid> GridLayoutGrid(const grid::MetalLayout& layout,
                                        bool for_text = false);

}  // namespace hlolayout::draw

#endif  // HLOLAYOUT_VIEWS_GRID_PICTURE_H_
