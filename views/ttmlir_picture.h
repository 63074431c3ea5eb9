// views/ttmlir_picture.h: pictures of tt-mlir's current layouts
// (ttmlir/ttnn_attr.h, ttmlir/ttcore_metal_layout.h): the collapsed 2-D plane,
// split into shards coloured by shard (with the core or DRAM bank holding
// each), tiles as red boxes, padding hatched.
//
//   tensor<384x32xbf16, #ttnn.ttnn_layout<..., <12x1>, memref<1x1x!ttcore.
//       tile<32x32, bf16>, #ttnn.buffer_type<l1>>, <height_sharded>, ...>>
//   -> 12 shards of 32x32 stacked, shard m on core (m mod 8, m div 8).
//
// Interleaved and system-memory TTNN layouts have no shards: their pages
// (tiles, or rows of a row-major layout) are coloured by the DRAM bank they
// are interleaved to (page mod banks), by page in L1, one colour in system
// memory. Metal layouts with more than two physical dims show the last two
// (outer index 0, stated in the notes).
//
// Cells are <g class="grid-cell" data-shard="y,x" data-fill="P%"> (class
// "padding" added where a cell holds no element); one cell per scalar when
// the picture has at most 4,096 cells (text: 1,024 cells, 48 columns), else
// one per block, with the scale in the notes.
#ifndef HLOLAYOUT_VIEWS_TTMLIR_PICTURE_H_
#define HLOLAYOUT_VIEWS_TTMLIR_PICTURE_H_

#include "absl/status/statusor.h"
#include "hlolayout/draw/cell_grid.h"
#include "hlolayout/ttmlir/ttcore_metal_layout.h"
#include "hlolayout/ttmlir/ttnn_attr.h"

namespace hlolayout::draw {

absl::StatusOr<CellGrid> TtnnLayoutGrid(const grid::TtnnLayoutAttr& layout,
                                        bool for_text = false);

absl::StatusOr<CellGrid> MetalHeadLayoutGrid(
    const grid::TtcoreMetalLayout& layout, bool for_text = false);

}  // namespace hlolayout::draw

#endif  // HLOLAYOUT_VIEWS_TTMLIR_PICTURE_H_
