// triton/layout_explain.h: one layout given as text, read and explained: what
// `hlolayout triton explain` and `triton view` print (the CLI only reads the
// argument's file and prints), and what `cvt`, `draw` and the LinearLayout
// operations take as their operands.
//
//   std::vector<std::string> warnings;
//   GivenLayout g = *ReadGivenLayout(
//       "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], "
//       "warpsPerCTA = [4, 1], order = [1, 0]}>", std::vector<int64_t>{32, 32},
//       &warnings);
//   LayoutExplanation e = ExplainLayout(std::move(g), /*bits=*/16);
//   e.consecutive == 4;                  // each thread holds 4 in a row
//
// `triton explain`'s answer, its text and JSON are answers/triton.h's
// (AnswerExplain).
#ifndef HLOLAYOUT_TRITON_LAYOUT_EXPLAIN_H_
#define HLOLAYOUT_TRITON_LAYOUT_EXPLAIN_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "hlolayout/triton/linear_layout.h"
#include "hlolayout/triton/named_layouts.h"

namespace hlolayout::triton {

// A layout as the user wrote it: TTGIR (`#ttg.blocked<...>`, ...) or a
// LinearLayout's JSON (`{"bases": ..., "out_dims": ...}`), and the
// LinearLayout it is on its shape.
struct GivenLayout {
  std::string text;             // as given, surrounding blanks removed
  std::optional<Layout> named;  // when given as TTGIR
  LinearLayout layout;
  std::string kind;     // "blocked", ..., or "linear layout" for JSON
  std::string as_read;  // a named layout as read (printed back), else ""
};

// ReadGivenLayout
//
// Reads `text`. A named layout is taken on `shape`; without one, only a
// #ttg.linear or #ttg.shared_linear (whose out-dims are its shape) is read,
// others are refused with "a #ttg.KIND layout needs " + `shape_name` (how
// the face asks for it: "--shape (e.g. 128x64)" on the command line).
// Keys Triton ignores are appended to `warnings` (located), which may be null.
// Errors: the text's, and Triton's refusal of the layout on the shape.
absl::StatusOr<GivenLayout> ReadGivenLayout(
    absl::string_view text, const std::optional<std::vector<int64_t>>& shape,
    std::vector<std::string>* warnings,
    absl::string_view shape_name = "a shape");

// True for a register layout (in-dims register, lane, warp, block) and for
// a shared-memory one (offset, block).
bool IsDistributedLayout(const LinearLayout& l);
bool IsSharedLayout(const LinearLayout& l);

// LayoutView
//
// The table of which thread holds which element (a register layout) or
// where each element is (a shared one); `hw` the hardware view (Triton's
// getDistributedLayoutStr / getSharedLayoutStr with useHWPointOfView).
absl::StatusOr<std::string> LayoutView(const LinearLayout& l, bool hw);

// What `triton explain` says of a layout, besides the layout itself.
struct LayoutExplanation {
  GivenLayout given;
  std::vector<int64_t> shape;  // the out-dims' sizes
  NamedInts masks;             // free variables per in-dim
  int32_t consecutive = 1;     // elements of the first in-dim in a row
  // The XLA form (offset -> index) and the two views; each an error saying
  // why there is none. The CuTe form joins two vendor models and is
  // answers/triton.h's (AnswerExplain, on answers/cute_bridge.h).
  absl::StatusOr<std::string> xla_form, view, view_hw;
  std::optional<std::string> linear;  // its #ttg.linear spelling
  std::string padding;                // a padded layout's padding
};

// ExplainLayout
//
// The facts of `given`, for elements of `bits` bits (which choose the XLA
// form's element type). Views are given for at most 1,024 elements and
// 4,096 positions.
LayoutExplanation ExplainLayout(GivenLayout given, int bits);

}  // namespace hlolayout::triton

#endif  // HLOLAYOUT_TRITON_LAYOUT_EXPLAIN_H_
