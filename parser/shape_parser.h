// parser/shape_parser.h: HLO shape and layout text to Shape and Layout.
//
//   absl::StatusOr<Shape> s =
//       ParseShape("bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}");
//   absl::StatusOr<Shape> t = ParseShape("(f32[2]{0}, s32[<=4], token[])");
//   absl::StatusOr<Layout> l = ParseLayout("{1,0:T(2,2)}");
//
// Accepts everything XLA's ParseShape accepts and prints: arrays with static,
// bounded (`<=N`) and unbounded (`?`) dimensions, every layout attribute in
// XLA's order (D T L # * E S SC P M), tuples (nested, empty), `token[]`,
// `opaque[]`, buffers `b(...)`, comments anywhere, and the angle-bracket
// layout form `bf16[8,128]<1,0:T(8,128)>`. As in XLA, `{}` after a shape is
// not a layout, missing layouts are filled with the default major-to-minor
// layout and scalars get the empty layout. Like today's XLA, `D(...)` is
// parsed and dropped (ShapeParseOptions::keep_dim_levels keeps it).
//
// Unlike XLA's parser, the result is validated by default with the rules of
// XLA's own validators, ShapeUtil::ValidateShape and
// LayoutUtil::ValidateLayoutForShape (minor_to_major a permutation, tiles
// non-empty and positive or `*`, L > 0, E >= 0, split configs in range...;
// see layout/layout_validation.h), and integers outside int64 are errors
// instead of wrapping. With `validate = false` it accepts what XLA's parser
// accepts and prints it back as XLA does.
//
// Errors are InvalidArgument statuses: "L:C: message", the source line and a
// caret under the offending token (parser/diagnostic.h).
#ifndef HLOLAYOUT_PARSER_SHAPE_PARSER_H_
#define HLOLAYOUT_PARSER_SHAPE_PARSER_H_

#include <cstddef>
#include <cstdint>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "hlolayout/shape/layout.h"
#include "hlolayout/shape/shape.h"

namespace hlolayout {

struct ShapeParseOptions {
  // Fill a missing array layout with {rank-1,...,1,0} (XLA's default).
  bool fill_missing_layouts = true;
  // Run ValidateShape on the result, reporting failures at the shape.
  bool validate = true;
  // Maximum nesting of tuples, buffers and P(...) shapes.
  int max_depth = 100;
  // Prefixed to error positions ("file.hlo:3:14: ...") when not empty.
  absl::string_view file_name;
  // Keep `D(...)` (dim level types) in the layout. Off by default: today's
  // XLA parses D(...) and drops it (sparse layouts were removed), so
  // `f32[2,3]{1,0:D(D,C)}` reads as `f32[2,3]{1,0}` and its proto has no
  // dim_level_types. On, the 2024 behaviour: D is kept, printed when some
  // level is not dense, and makes #(t), *(t) and P(...) legal.
  bool keep_dim_levels = false;
  // Read the common forms of shape text without tokens first
  // (parser/common_shape_parser.h). The answers are the same either way;
  // false is for tests and benchmarks of the token-based parser alone.
  bool try_common_forms = true;
};

// ParseShape
//
// Parses exactly one shape; anything but whitespace and comments after it is
// an error ("extra content after shape").
absl::StatusOr<Shape> ParseShape(absl::string_view text,
                                 const ShapeParseOptions& options = {});

// ParseShapeAt
//
// Parses one shape that starts at `*offset` in `text` (after optional
// whitespace and comments) and sets `*offset` just past it; what follows is
// not looked at. Errors are located in the whole `text`, so a reader of a
// large file gets file positions. For readers that find shapes in the
// middle of other text, such as HLO module dumps.
absl::Status ParseShapeAt(absl::string_view text, size_t* offset, Shape* shape,
                          const ShapeParseOptions& options = {});

// ParseLayout
//
// Parses a layout on its own: "{1,0:T(2,2)}", "{}" or "<1,0:T(2,2)>". It is
// not validated (a layout alone has no shape to check against).
absl::StatusOr<Layout> ParseLayout(absl::string_view text);

}  // namespace hlolayout

#endif  // HLOLAYOUT_PARSER_SHAPE_PARSER_H_
