// cute/slice.h: slicing a layout with a coordinate that contains `_`.
//
// A slice coordinate is CuTe's: integers pick a position, `_` keeps the
// mode. slice keeps the modes paired with `_` (flattening the kept modes of
// a nested coordinate into one tuple, as CuTe's filter_tuple does), dice
// keeps the others, and slice_and_offset also returns the offset of the
// coordinate with `_` read as 0:
//
//   SliceCoord c = *ParseSliceCoord("(_,1)");
//   Slice(c, (3,4):(4,1))            == (3):(4)
//   Dice(c, (3,4):(4,1))             == (4):(1)
//   SliceAndOffset(c, (3,4):(4,1))   == {(3):(4), 1}
//   Slice(((_,1),_), ((2,3),4):((1,2),6)) == (2,4):(1,6)
//
// Integers of a slice coordinate are static (CuTe's make_coord(_, Int<1>{})
// in kernels): `1` and `_1` both mean the static 1.
#ifndef HLOLAYOUT_CUTE_SLICE_H_
#define HLOLAYOUT_CUTE_SLICE_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "hlolayout/cute/int_tuple.h"
#include "hlolayout/cute/integer.h"
#include "hlolayout/cute/layout.h"

namespace hlolayout::cute {

class SliceCoord {
 public:
  enum class Kind { kInt, kUnderscore, kTuple };

  // `_`.
  SliceCoord() = default;
  static SliceCoord Of(Int value);
  static SliceCoord Tuple(std::vector<SliceCoord> elements);

  Kind kind() const { return kind_; }
  bool is_int() const { return kind_ == Kind::kInt; }
  bool is_underscore() const { return kind_ == Kind::kUnderscore; }
  bool is_tuple() const { return kind_ == Kind::kTuple; }
  Int value() const { return value_; }
  const std::vector<SliceCoord>& elements() const { return elements_; }

  // has_underscore, all_underscore
  //
  // Whether some leaf / every leaf is `_` (`()` has none and all).
  bool has_underscore() const;
  bool all_underscore() const;

  // WithUnderscoresAsZero
  //
  // The coordinate as an IntTuple, `_` read as the static 0.
  IntTuple WithUnderscoresAsZero() const;

 private:
  Kind kind_ = Kind::kUnderscore;
  Int value_;
  std::vector<SliceCoord> elements_;
};

// ParseSliceCoord
//
// `_`, an integer, or a parenthesised tuple of those, nested: `(_,5)`,
// `((_,1),_)`. Errors are located (cute/parse.h). Integers are static.
absl::StatusOr<SliceCoord> ParseSliceCoord(absl::string_view text);

// ToString
//
// CuTe's print: `(_,_5)`.
std::string ToString(const SliceCoord& coord);

// SliceTuple, DiceTuple
//
// CuTe's slice(c, t) and dice(c, t) on an IntTuple. Returns an error when
// a tuple coordinate's rank differs from the tuple's at that level.
absl::StatusOr<IntTuple> SliceTuple(const SliceCoord& c, const IntTuple& t);
absl::StatusOr<IntTuple> DiceTuple(const SliceCoord& c, const IntTuple& t);

// Slice, Dice
//
// The layouts of the kept modes: make_layout(slice(c, shape),
// slice(c, stride)), likewise dice.
// @post size(Slice(c, L)) * size(Dice(c, L)) == size(L)
// @post L(c with `_` at i) == Slice(c, L)(i) + offset, with the offset of
//       SliceAndOffset
absl::StatusOr<Layout> Slice(const SliceCoord& c, const Layout& layout);
absl::StatusOr<Layout> Dice(const SliceCoord& c, const Layout& layout);

// SliceAndOffset
//
// (Slice(c, L), L(c) with `_` read as 0), the offset static when the
// coordinate's integers and the strides they meet are. Returns an error for
// a rank mismatch or a coordinate out of range in a non-final mode.
struct SlicedLayout {
  Layout layout;
  Int offset;
};
absl::StatusOr<SlicedLayout> SliceAndOffset(const SliceCoord& c,
                                            const Layout& layout);

// CoordOffset
//
// crd2idx(c, shape, stride) with tags: an integer meeting a tuple shape is
// split mode by mode (the last mode takes the quotient), `_` counts 0.
// Returns an error when shape and stride are not congruent, for a profile
// mismatch, a coordinate out of range in a non-final mode, a mode of size
// 0 to split across, or overflow.
absl::StatusOr<Int> CoordOffset(const SliceCoord& c, const IntTuple& shape,
                                const IntTuple& stride);

}  // namespace hlolayout::cute

#endif  // HLOLAYOUT_CUTE_SLICE_H_
