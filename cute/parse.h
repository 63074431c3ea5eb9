// cute/parse.h: reading CuTe's notation for IntTuples, Layouts and Tilers.
//
//   ParseIntTuple("((2,2),3)")          -> ((2,2),3)
//   ParseLayout("(6,2):(8,2)")          -> (6,2):(8,2)
//   ParseLayout("(4):(1)")              -> a rank-1 tuple layout, not 4:1
//   ParseLayout("(2,_3)")               -> (2,3):(1,2), compact column-major
//   ParseTiler("<3:4, 8:2>")            -> a tuple tiler
//   ParseTiler("(3,8)")                 -> the shape tiler <3:1, 8:1>
//
// Static prefixes (`_4`, `_-1`) are accepted and read as plain integers.
// Spaces between tokens are ignored. Errors are InvalidArgument statuses
// whose message is `L:C: message`, the source line and a caret:
//
//   1:7: expected ',' or ')', found ':'
//   (6,2):(8:2)
//         ^
//
// Nesting is capped at 64 levels; trailing input is an error.
#ifndef HLOLAYOUT_CUTE_PARSE_H_
#define HLOLAYOUT_CUTE_PARSE_H_

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "hlolayout/cute/int_tuple.h"
#include "hlolayout/cute/layout.h"
#include "hlolayout/cute/tiler.h"

namespace hlolayout::cute {

// ParseIntTuple
//
// An integer or a parenthesised tuple: `4`, `(4)`, `()`, `(2,(3,_4))`.
absl::StatusOr<IntTuple> ParseIntTuple(absl::string_view text);

// ParseLayout
//
// `shape:stride`, or a shape alone (compact column-major strides, size-1
// leaves getting stride 0). Shape leaves must be positive and the stride
// congruent with the shape.
absl::StatusOr<Layout> ParseLayout(absl::string_view text);

// ParseTiler
//
// A layout, a shape (a tiler of stride-1 layouts), `_`, or `<T0, T1, ...>`
// of those, nested.
absl::StatusOr<Tiler> ParseTiler(absl::string_view text);

}  // namespace hlolayout::cute

#endif  // HLOLAYOUT_CUTE_PARSE_H_
