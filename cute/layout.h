// cute/layout.h: a CuTe layout, a function from coordinates to offsets.
//
// A Layout is a pair of congruent IntTuples, shape and stride, printed
// `shape:stride`. It maps a coordinate to the inner product of the
// coordinate with the stride:
//
//   Layout l = *Layout::Create(IntTuple::Tuple({6, 2}),
//                              IntTuple::Tuple({8, 2}));  // (6,2):(8,2)
//   l(7) == 10            // 1-D index 7 is coordinate (1,1): 1*8 + 1*2
//   *l.Evaluate(IntTuple::Tuple({1, 1})) == 10
//   l.size() == 12, l.cosize() == 43
//
// Every Layout is validated when it is made: shape leaves are positive,
// shape and stride are congruent, and size() and cosize() fit in int64, so
// evaluation inside the domain cannot overflow. Operations that build
// layouts (cute/coalesce.h, cute/composition.h, ...) return an error rather
// than a layout that breaks these rules.
//
// Coordinates are colexicographic: the leftmost coordinate varies fastest.
// A 1-D index past size() keeps running along the last mode (its quotient is
// not reduced), as CuTe does; composition relies on it. A negative 1-D index
// i evaluates to -L(-i), C++'s truncating division applied to CuTe's
// formula, which is what gives negative-stride compositions their meaning.
#ifndef HLOLAYOUT_CUTE_LAYOUT_H_
#define HLOLAYOUT_CUTE_LAYOUT_H_

#include <cstdint>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "hlolayout/cute/int_tuple.h"
#include "hlolayout/cute/internal/fast_div.h"

namespace hlolayout::cute {

namespace internal {

// A flat mode shape:stride with its tags; the algorithms work on runs of
// these (on the stack for up to 8) and build one Layout at the end.
struct Mode {
  Int shape;
  Int stride;
};
using Modes = absl::InlinedVector<Mode, 8>;

}  // namespace internal

class Layout {
 public:
  // The layout `_1:_0`, a single element at offset 0.
  Layout();

  // Create
  //
  // The layout shape:stride. Returns an error when the two are not
  // congruent, a shape leaf is not positive, a stride is INT64_MIN, or
  // size() or cosize() overflows int64.
  static absl::StatusOr<Layout> Create(IntTuple shape, IntTuple stride);

  // Compact
  //
  // The column-major compact layout of `shape` (CuTe's make_layout(shape)):
  // strides are the exclusive prefix product of the leaves, left to right,
  // starting at a static `_1`; a static size-1 leaf gets stride `_0` (a
  // dynamic 1 gets the running product, as in CuTe):
  // Compact((_2,_1,_3)) is (_2,_1,_3):(_1,_0,_2), Compact((2,3)) is
  // (2,3):(_1,2). Errors as for Create.
  static absl::StatusOr<Layout> Compact(IntTuple shape);

  // Make
  //
  // Create(), for layouts the caller knows to be valid (tests, internal
  // code). Precondition: Create(shape, stride) succeeds (CHECK).
  static Layout Make(IntTuple shape, IntTuple stride);

  const IntTuple& shape() const { return shape_; }
  const IntTuple& stride() const { return stride_; }

  // size
  //
  // The number of coordinates: the product of the shape.
  int64_t size() const { return size_; }

  // cosize
  //
  // 1 + sum over leaves of (shape - 1) * |stride| (absolute strides, so it
  // is correct for negative strides, unlike pycute's L(size-1)+1).
  int64_t cosize() const { return cosize_; }

  // size_int, cosize_int
  //
  // size() and cosize() with CuTe's tags: static when every leaf that
  // contributes is (a static size-1 leaf contributes a static 0 to cosize
  // whatever its stride). With a `?` leaf (the CuTe DSL's, cute/integer.h)
  // they are the integers' arithmetic: the product of the shape, and the
  // DSL's cosize, the layout with absolute strides at its last index, plus
  // 1 (a `?` as soon as that offset is not static; 32 bits wide whatever
  // the leaves, as the DSL prints it).
  Int size_int() const;
  Int cosize_int() const;

  // has_unknown
  //
  // Whether a leaf of the shape or stride is the CuTe DSL's `?`.
  bool has_unknown() const {
    return shape_.has_unknown() || stride_.has_unknown();
  }

  // rank, depth
  //
  // Those of the shape: an integral layout `12:1` has rank 1 and depth 0;
  // `(4):(1)` has rank 1 and depth 1.
  int rank() const { return Rank(shape_); }
  int depth() const { return Depth(shape_); }

  // mode
  //
  // Mode i as a layout (CuTe's layout<i>). An integral layout is its own
  // mode 0. Precondition: 0 <= i < rank() (CHECK).
  Layout mode(int i) const;

  // modes
  //
  // All top-level modes (one for an integral layout).
  std::vector<Layout> modes() const;

  // operator()
  //
  // The offset of 1-D index `idx`. Fast path with no checks.
  // Precondition: |idx| < size(), or the caller knows that the value past
  // the end fits in int64 (use TryEvaluate otherwise); idx != INT64_MIN.
  int64_t operator()(int64_t idx) const {
    if (idx < 0) return -EvaluateNonNegative(-idx);
    return EvaluateNonNegative(idx);
  }

  // EvaluateMany
  //
  // out[i] = (*this)(idx[i]) for i < n, several indices at a time (each
  // mode's division of a block of indices is independent work, which a
  // processor overlaps). Precondition: 0 <= idx[i] < size().
  void EvaluateMany(const int64_t* idx, int64_t* out, int64_t n) const;

  // TryEvaluate
  //
  // operator() with checks: any idx (past the end runs on along the last
  // mode), an error when the offset overflows int64 or idx is INT64_MIN.
  absl::StatusOr<int64_t> TryEvaluate(int64_t idx) const;

  // Evaluate
  //
  // The offset of a coordinate of any profile that fits the shape: an
  // integer is a 1-D index (as TryEvaluate); a tuple of rank R evaluates
  // each mode with its element, recursively, so `(1,5)` and `(1,(1,2))`
  // both work against shape `(3,(2,3))`. Where an integer meets a tuple
  // shape it is split mode by mode, the last mode taking the quotient.
  // Returns an error for a profile mismatch, a negative coordinate, a
  // coordinate out of range in a non-final mode, or overflow.
  absl::StatusOr<int64_t> Evaluate(const IntTuple& coord) const;

  // leaf_modes
  //
  // The leaves with their tags (a `?` with its width and divisibility),
  // left to right (none for the shape `()`): the flattened layout without
  // building one.
  internal::Modes leaf_modes() const;

  // FromModes
  //
  // The flat layout of `modes`: `_1:_0` for none, an integral layout for
  // one, `(s0,s1,...):(d0,d1,...)` otherwise. Errors as Create.
  static absl::StatusOr<Layout> FromModes(const internal::Modes& modes);

  // Structural equality (as CuTe's ==), not functional equality.
  friend bool operator==(const Layout& a, const Layout& b) {
    return a.shape_ == b.shape_ && a.stride_ == b.stride_;
  }
  friend bool operator!=(const Layout& a, const Layout& b) { return !(a == b); }

 private:
  struct Leaf {
    int64_t shape;
    int64_t stride;
    internal::FastDivisor divisor;
    bool shape_static;
    bool stride_static;
  };

  // The placeholder leaf `_1:_0` of a layout with no leaves.
  static Leaf OneLeaf() {
    return Leaf{1, 0, internal::FastDivisor(1), true, true};
  }
  // True when the only leaf is the placeholder (the shape has no integers).
  bool placeholder() const;

  Layout(IntTuple shape, IntTuple stride, int64_t size, int64_t cosize);
  friend absl::StatusOr<Layout> MakeLayout(absl::Span<const Layout> modes);
  // MakeLayout's work: `shape` and `stride` are the modes' as a tuple.
  static absl::StatusOr<Layout> Concatenate(absl::Span<const Layout> modes,
                                            IntTuple shape, IntTuple stride);

  // No leaves and empty trees, for Create() to fill.
  struct Empty {};
  explicit Layout(Empty) {}

  // Appends the leaves of congruent `shape` and `stride` to leaves_;
  // false when they are not congruent.
  bool CollectLeaves(const IntTuple& shape, const IntTuple& stride);

  int64_t EvaluateNonNegative(int64_t idx) const {
    int64_t offset = 0;
    const size_t last = leaves_.size() - 1;
    for (size_t k = 0; k < last; ++k) {
      const Leaf& leaf = leaves_[k];
      const int64_t q = leaf.divisor.Divide(idx);
      offset += (idx - q * leaf.shape) * leaf.stride;
      idx = q;
    }
    return offset + idx * leaves_[last].stride;
  }

  IntTuple shape_;
  IntTuple stride_;
  int64_t size_ = 1;
  int64_t cosize_ = 1;
  // The flattened modes; never empty (the empty shape `()` evaluates as
  // `1:0`).
  absl::InlinedVector<Leaf, 6> leaves_;
};

// MakeLayout
//
// Concatenation, CuTe's make_layout(L0, L1, ...): each argument becomes one
// mode of the result: MakeLayout({4:1, (2,3):(4,8)}) is (4,(2,3)):(1,(4,8)).
// An empty list gives `():()`. Returns an error when the result overflows.
absl::StatusOr<Layout> MakeLayout(absl::Span<const Layout> modes);

// FlattenLayout
//
// The leaves as a flat layout; an integral layout is unchanged:
// ((2,2),3):((24,2),8) -> (2,2,3):(24,2,8).
Layout FlattenLayout(const Layout& layout);

// Congruent, Compatible
//
// Of the two layouts' shapes (cute/int_tuple.h).
bool Congruent(const Layout& a, const Layout& b);
bool Compatible(const Layout& a, const Layout& b);

}  // namespace hlolayout::cute

#endif  // HLOLAYOUT_CUTE_LAYOUT_H_
