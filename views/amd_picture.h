// views/amd_picture.h: one AMD matrix instruction (MFMA or WMMA) drawn
// the way AMD's matrix instruction calculator lays it out: the A, B and C
// tiles, each element labelled with the VGPR and lane that hold it
// ("v1{34}", with the bits for elements narrower than 32: "v0{5}.[31:16]").
//
//   Layout mfma = *ParseLayout("#ttg.amd_mfma<{version = 3, warpsPerCTA = "
//                              "[2, 2], instrShape = [32, 32, 8], "
//                              "isTransposed = true}>");
//   std::vector<draw::CellGrid> abc = *InstructionPictures(mfma, {});
//   // abc[0]: A, 32 x 8 (M x K); abc[1]: B, 8 x 32; abc[2]: C, 32 x 32
//
// The tiles are those of one warp and one instruction: the layout's
// warpsPerCTA, tilesPerWarp and CGA layout are set to one; a dot_op over
// an MFMA or WMMA layout draws its parent's instruction with its kWidth.
#ifndef HLOLAYOUT_VIEWS_AMD_PICTURE_H_
#define HLOLAYOUT_VIEWS_AMD_PICTURE_H_

#include <vector>

#include "absl/status/statusor.h"
#include "hlolayout/draw/cell_grid.h"
#include "hlolayout/triton/named_layouts.h"

namespace hlolayout::triton {

struct InstructionPictureOptions {
  int operand_bits = 16;  // A and B element width
  int k_width = 0;        // elements per lane along K (0: the instruction's)
};

// InstructionPictures
//
// The A (M x K), B (K x N) and C (M x N) tiles of the instruction of an
// amd_mfma or amd_wmma layout (or a dot_op over one), as three grids. C's
// elements are 32 bits (64 with elementBitWidth = 64). An error for other
// layouts.
absl::StatusOr<std::vector<draw::CellGrid>> InstructionPictures(
    const Layout& layout, const InstructionPictureOptions& options);

// SplitIntoColumnBands
//
// A grid too wide for `max_width` text columns (its cells as wide as the
// widest label, plus two) as bands of columns, each a grid of the same rows
// whose heading names its columns ("...; columns n0-n7 of 32"); the notes
// stay with the first band. The band width is the largest power of two of
// columns that fits (at least 1). A grid that fits is returned as is.
std::vector<draw::CellGrid> SplitIntoColumnBands(const draw::CellGrid& grid,
                                                 int max_width);

// The elements per lane along K of one instruction's operand: an MFMA's K
// over its lane groups (64 / non-K dim), a WMMA's K over two lane groups
// (v1: all of K, each group holding a copy).
int InstructionKWidth(const Layout& layout);

}  // namespace hlolayout::triton

#endif  // HLOLAYOUT_VIEWS_AMD_PICTURE_H_
