// views/triton_drawing.h: the pictures of `hlolayout triton draw`, with their
// titles: a layout over its shape (a padded shared layout shows where its
// elements go once padded), or with --instruction the A, B and C tiles of
// an AMD matrix instruction. The CLI and Python's hlolayout.triton.draw
// both draw through it.
//
//   absl::StatusOr<LayoutDrawing> d = DrawInstruction(
//       "#ttg.amd_mfma<{version = 3, warpsPerCTA = [1, 1], "
//       "instrShape = [32, 32, 8], isTransposed = false}>", {});
//   d->title  // "#ttg.amd_mfma<...>: one instruction of one warp"
//   DrawingText(*d, {})  // A, B and C, in bands of 132 text columns
#ifndef HLOLAYOUT_VIEWS_TRITON_DRAWING_H_
#define HLOLAYOUT_VIEWS_TRITON_DRAWING_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "hlolayout/draw/cell_grid.h"
#include "hlolayout/triton/linear_layout.h"
#include "hlolayout/triton/named_layouts.h"
#include "hlolayout/views/amd_picture.h"

namespace hlolayout::triton {

struct LayoutDrawing {
  std::string title;
  std::vector<draw::CellGrid> grids;
  // Instruction pictures: a 32 x 32 tile's columns do not fit a terminal,
  // so the text form splits each grid into bands of columns.
  bool banded_text = false;
};

// DrawLayout
//
// `layout` (the linear layout of the layout `text` names, `named` when it
// was given as TTGIR, else nullptr) over its output dims, titled "TEXT on
// 128x64"; `bits` the element width of a shared layout's banks. An error
// past kMaxPictureCells cells.
absl::StatusOr<LayoutDrawing> DrawLayout(absl::string_view text,
                                         const LinearLayout& layout,
                                         const Layout* named, int bits);

// DrawInstruction
//
// The instruction of the amd_mfma or amd_wmma layout (or dot_op over one)
// `text` names. Errors: the parser's, a layout of another kind, a k_width
// outside 0 (the instruction's) to 1024.
absl::StatusOr<LayoutDrawing> DrawInstruction(
    absl::string_view text, const InstructionPictureOptions& options);

// The self-contained SVG (`--svg -`), and the text (`--color`, `--ascii`).
std::string DrawingSvg(const LayoutDrawing& drawing);
std::string DrawingText(const LayoutDrawing& drawing, draw::TextStyle style);

}  // namespace hlolayout::triton

#endif  // HLOLAYOUT_VIEWS_TRITON_DRAWING_H_
