// cute/coord_layout.h: layouts whose strides are CuTe ScaledBasis elements,
// functions from a coordinate to a coordinate.
//
// CuTe writes a coordinate layout (make_identity_layout, TMA coordinate
// tensors) with strides that are scaled basis vectors: `3@1` is 3 times the
// unit vector of mode 1, `1@1@0` the unit vector of mode 0 inside mode 1
// (indices outermost first). Evaluating such a layout sums the scaled bases
// into a coordinate instead of an offset:
//
//   CoordLayout l = *ParseCoordLayout("(4,4):(1@1,1@0)");
//   *EvaluateCoord(l, 6)               == (1,2)   // coordinate (2,1)
//   ToString(*IdentityCoordLayout((4,(2,3))))
//                                      == "(4,(2,3)):(1@0,(1@1@0,1@1@1))"
//   ToString(*ComposeWithCoordLayout(Layout (4,4):(4,1), l))
//                                      == "(4,4):(1,4)"
//
// A stride leaf without `@` is a plain integer, CuTe's E<> (the coordinate
// is then an integer); it cannot be mixed with scaled bases unless it is 0
// (a broadcast mode). The notation and semantics are CuTe's (docs/cute.md,
// section "ScaledBasis strides").
//
// Supported: parse, print, evaluate, the identity layout, and composition
// A o B of an integral layout A with a coordinate layout B. Not supported
// (errors, or not offered): a coordinate layout as A in a composition,
// coalesce, complement, inverses, divides and products of coordinate
// layouts, and arithmetic mixing plain integers with scaled bases. Limits:
// basis indices are below 1024 and at most 16 deep (a result coordinate is
// materialised as a tuple).
#ifndef HLOLAYOUT_CUTE_COORD_LAYOUT_H_
#define HLOLAYOUT_CUTE_COORD_LAYOUT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "hlolayout/cute/int_tuple.h"
#include "hlolayout/cute/layout.h"

namespace hlolayout::cute {

// value@modes[0]@modes[1]...; no modes: the plain integer `value`.
struct ScaledBasis {
  int64_t value = 0;
  std::vector<int> modes;

  friend bool operator==(const ScaledBasis& a, const ScaledBasis& b) {
    return a.value == b.value && a.modes == b.modes;
  }
};

inline constexpr int kMaxBasisIndex = 1023;
inline constexpr int kMaxBasisDepth = 16;

// A tree of ScaledBasis leaves, congruent with a shape.
class CoordStride {
 public:
  CoordStride() = default;       // the empty tuple
  CoordStride(ScaledBasis leaf)  // NOLINT(google-explicit-constructor)
      : is_leaf_(true), leaf_(std::move(leaf)) {}
  static CoordStride Tuple(std::vector<CoordStride> elements);

  bool is_leaf() const { return is_leaf_; }
  // Precondition: is_leaf() (CHECK).
  const ScaledBasis& leaf() const;
  // Precondition: !is_leaf() (CHECK).
  const std::vector<CoordStride>& elements() const;

 private:
  bool is_leaf_ = false;
  ScaledBasis leaf_;
  std::vector<CoordStride> elements_;
};

class CoordLayout {
 public:
  // Create
  //
  // shape:stride. Errors: not congruent, a shape leaf not positive, the
  // size overflowing int64, a basis index or depth past the limits, or two
  // non-zero strides whose modes do not nest consistently (`1@1` with
  // `1@1@0`, or a plain integer with `1@0`).
  static absl::StatusOr<CoordLayout> Create(IntTuple shape, CoordStride stride);

  const IntTuple& shape() const { return shape_; }
  const CoordStride& stride() const { return stride_; }
  int64_t size() const { return size_; }

 private:
  CoordLayout() = default;
  IntTuple shape_;
  CoordStride stride_;
  int64_t size_ = 1;
};

// ParseCoordLayout
//
// `shape:stride` with ScaledBasis leaves, e.g. `(2,3):(1@0,1@1)`. Errors are
// ParseError diagnostics (line:column, source window, caret).
absl::StatusOr<CoordLayout> ParseCoordLayout(absl::string_view text);

// ToString
//
// CuTe's form: `(4,4):(1@1,1@0)`; a plain stride prints as an integer.
std::string ToString(const CoordLayout& layout);

// IdentityCoordLayout
//
// CuTe's make_identity_layout(shape): each leaf at mode path p has stride
// 1@p, so evaluating gives back the natural coordinate (an integral shape n
// gives n:1, whose coordinate is the integer itself).
absl::StatusOr<CoordLayout> IdentityCoordLayout(const IntTuple& shape);

// EvaluateCoord
//
// The coordinate B(c): `coord` is a 1-D index (0 <= i < size) or a
// coordinate of the shape (converted as IdxToCrd does, each leaf in range).
// Each leaf coordinate k with stride v@p adds k*v at position p of the
// result; positions no stride reaches are 0. Errors: out of range, a
// coordinate that does not fit the shape, int64 overflow.
absl::StatusOr<IntTuple> EvaluateCoord(const CoordLayout& layout,
                                       const IntTuple& coord);

// ComposeWithCoordLayout
//
// R = A o B for an integral layout A and a coordinate layout B:
// R(c) = A(B(c)), A evaluated at the coordinate B(c). A leaf s:(v@p) of B
// becomes s:(v * stride of A at p) when A's mode at p is a leaf, and the
// composition of A's mode at p with s:v (cute/composition.h) when that mode
// is hierarchical; a 0 stride stays 0; a plain stride v reads A itself.
// @post size(R) == size(B); R(i) == A(B(i)) for 0 <= i < size(B)
// Errors: a path past A's modes, several strides of B reaching one
// hierarchical mode of A, a failing inner composition, overflow.
absl::StatusOr<Layout> ComposeWithCoordLayout(const Layout& a,
                                              const CoordLayout& b);

}  // namespace hlolayout::cute

#endif  // HLOLAYOUT_CUTE_COORD_LAYOUT_H_
