// cute/parse.h: reading CuTe's notation for IntTuples, Layouts and Tilers.
//
//   ParseIntTuple("((2,2),3)")          -> ((2,2),3)
//   ParseLayout("(6,2):(8,2)")          -> (6,2):(8,2)
//   ParseLayout("(4):(1)")              -> a rank-1 tuple layout, not 4:1
//   ParseLayout("(2,_3)")               -> (2,_3):(_1,2), compact column-major
//   ParseTiler("<3:4, 8:2>")            -> a tuple tiler
//   ParseTiler("(_8:_1,_8:_1)")         -> the same kind, as CuTe prints it
//   ParseTiler("(3,8)")                 -> the shape tiler <3:_1, 8:_1>
//   ParseSwizzle("Sw<3,4,3>")           -> Swizzle<3,4,3>
//   ParseAnyLayout("Sw<3,4,3> o _0 o (_8,_64):(_64,_1)")  -> a ComposedLayout
//
// Integers written with CuTe's static prefix (`_4`, `_-1`) are static, plain
// ones dynamic (cute/integer.h). Spaces between tokens are ignored. Errors are
// InvalidArgument statuses whose message is `L:C: message`, the source line and
// a caret:
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
#include "hlolayout/cute/composed_layout.h"
#include "hlolayout/cute/int_tuple.h"
#include "hlolayout/cute/layout.h"
#include "hlolayout/cute/swizzle.h"
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
// A layout, a shape (a tiler of stride-1 layouts), `_`, or a tuple of those,
// nested, written `<T0, T1, ...>` (CuTe's documentation) or `(T0,T1,...)`
// (CuTe's print, when an element is a layout: `(_8:_1,(_4,_2):(_2,_1))`).
absl::StatusOr<Tiler> ParseTiler(absl::string_view text);

// ParseSwizzle
//
// `Sw<B,M,S>`, with CuTe's conditions checked (cute/swizzle.h).
absl::StatusOr<Swizzle> ParseSwizzle(absl::string_view text);

// ParseAnyLayout
//
// A layout, a swizzle, or a composed layout `A o O o B` as CuTe prints it:
// A a swizzle or a layout, O an integer or `smem_ptr[Nb](unset)`, B a
// layout or again a composed layout (`Sw<2,0,3> o _0 o Sw<2,0,3> o _0 o
// (_8,_8):(_1,_8)`). `A o B` is read as `A o _0 o B`.
absl::StatusOr<AnyLayout> ParseAnyLayout(absl::string_view text);

}  // namespace hlolayout::cute

#endif  // HLOLAYOUT_CUTE_PARSE_H_
