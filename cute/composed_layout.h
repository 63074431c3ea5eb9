// cute/composed_layout.h: CuTe's ComposedLayout `A o O o B`, and AnyLayout,
// the operand of every cute operation (a Layout, a Swizzle or a
// ComposedLayout).
//
// A ComposedLayout maps a coordinate c of its inner layout B to
// A(O + B(c)): B defines the domain (shape, size, rank, depth and cosize are
// B's), O is an offset, and A is a Swizzle (the usual case: a swizzled
// shared-memory layout), a Layout or another ComposedLayout. It prints as
// CuTe prints it:
//
//   AnyLayout l = *ParseAnyLayout("Sw<3,4,3> o _0 o (_8,_64):(_64,_1)");
//   l.composed().inner()  is (_8,_64):(_64,_1); l.size() == 512
//   l(1) == Sw<3,4,3>(64) == 64 ^ ((64 & 0b1110000000) >> 3) == 64
//   ToString(l) == "Sw<3,4,3> o _0 o (_8,_64):(_64,_1)"      (cute/print.h)
//
// The offset is an integer (static `_0` or dynamic) or CuTe's marker of an
// unset shared-memory pointer, `smem_ptr[16b](unset)`, printed by the GMMA
// shared-memory atoms (cute/smem_atoms.h): it evaluates as offset 0 and
// records the element width whose byte addresses the swizzle acts on.
//
// MakeComposed() is CuTe's composition(A, O, B): it drops an identity
// swizzle (Sw<0,M,S>) when O is the static `_0`, as CuTe does. The
// operations on AnyLayout are in cute/composed_ops.h.
#ifndef HLOLAYOUT_CUTE_COMPOSED_LAYOUT_H_
#define HLOLAYOUT_CUTE_COMPOSED_LAYOUT_H_

#include <cstdint>
#include <memory>
#include <variant>

#include "absl/status/statusor.h"
#include "hlolayout/cute/int_tuple.h"
#include "hlolayout/cute/integer.h"
#include "hlolayout/cute/layout.h"
#include "hlolayout/cute/swizzle.h"

namespace hlolayout::cute {

class AnyLayout;

// ComposedOffset
//
// The O of `A o O o B`: an integer, or the unset shared-memory pointer
// marker `smem_ptr[Nb](unset)` of an N-bit element type.
class ComposedOffset {
 public:
  // The static `_0`.
  ComposedOffset() : value_(Int::Static(0)) {}
  static ComposedOffset Of(Int value);
  // Precondition: bits > 0 (CHECK).
  static ComposedOffset SmemPtr(int bits);

  bool is_smem_ptr() const { return smem_bits_ > 0; }
  // The integer offset; `_0` for the pointer marker.
  Int value() const { return value_; }
  // The element width of the pointer marker; 0 for an integer offset.
  int smem_bits() const { return smem_bits_; }

  friend bool operator==(const ComposedOffset& a, const ComposedOffset& b) {
    return a.value_ == b.value_ && a.smem_bits_ == b.smem_bits_;
  }

 private:
  Int value_;
  int smem_bits_ = 0;
};

// ComposedLayout
//
// A value type (its parts are shared, immutable).
class ComposedLayout {
 public:
  // Create
  //
  // `outer` o `offset` o `inner`, as written (no simplification). Returns
  // an error when `inner` is a Swizzle (B must define a domain).
  static absl::StatusOr<ComposedLayout> Create(AnyLayout outer,
                                               ComposedOffset offset,
                                               AnyLayout inner);

  const AnyLayout& outer() const { return *outer_; }
  const ComposedOffset& offset() const { return offset_; }
  const AnyLayout& inner() const { return *inner_; }

  // The inner layout's shape (CuTe's shape(ComposedLayout)).
  const IntTuple& shape() const;
  int64_t size() const;

  // The innermost plain Layout (B, or B's B for a nested B).
  const Layout& innermost() const;

  friend bool operator==(const ComposedLayout& a, const ComposedLayout& b);

 private:
  ComposedLayout() = default;

  std::shared_ptr<const AnyLayout> outer_;
  ComposedOffset offset_;
  std::shared_ptr<const AnyLayout> inner_;
};

// AnyLayout
//
// A Layout, a Swizzle or a ComposedLayout. Implicit from each.
class AnyLayout {
 public:
  enum class Kind { kLayout, kSwizzle, kComposed };

  // The layout `_1:_0`.
  AnyLayout() : value_(Layout()) {}
  AnyLayout(Layout l) : value_(std::move(l)) {}          // NOLINT
  AnyLayout(Swizzle s) : value_(s) {}                    // NOLINT
  AnyLayout(ComposedLayout c) : value_(std::move(c)) {}  // NOLINT

  Kind kind() const { return static_cast<Kind>(value_.index()); }
  bool is_layout() const { return kind() == Kind::kLayout; }
  bool is_swizzle() const { return kind() == Kind::kSwizzle; }
  bool is_composed() const { return kind() == Kind::kComposed; }

  // layout, swizzle, composed
  //
  // Preconditions: the matching kind (CHECK).
  const Layout& layout() const;
  const Swizzle& swizzle() const;
  const ComposedLayout& composed() const;

  // size
  //
  // The number of coordinates: a layout's size, a composed layout's inner
  // size, and for a swizzle its period 2^(B+M+|S|) (pycute's size).
  int64_t size() const;

  // shape
  //
  // A layout's or composed layout's shape; a swizzle's is size().
  IntTuple shape() const;

  // rank, depth, cosize
  //
  // Those of the shape, and cosize of the (innermost) layout that defines
  // the domain (CuTe's cosize of a ComposedLayout is its inner layout's; a
  // swizzle's cosize is its size).
  int rank() const { return Rank(shape()); }
  int depth() const { return Depth(shape()); }
  int64_t cosize() const;

  // TryEvaluate
  //
  // The offset of 1-D index `idx`: L(idx), sw(idx) or A(O + B(idx)), with
  // the past-the-end rule of layouts. Returns an error on overflow.
  absl::StatusOr<int64_t> TryEvaluate(int64_t idx) const;

  // Evaluate
  //
  // The offset of a coordinate of any profile that fits the shape (for a
  // swizzle, an integer). Errors as Layout::Evaluate.
  absl::StatusOr<int64_t> Evaluate(const IntTuple& coord) const;

  friend bool operator==(const AnyLayout& a, const AnyLayout& b) {
    return a.value_ == b.value_;
  }
  friend bool operator!=(const AnyLayout& a, const AnyLayout& b) {
    return !(a == b);
  }

 private:
  std::variant<Layout, Swizzle, ComposedLayout> value_;
};

// MakeComposed
//
// CuTe's composition(A, O, B): A o O o B, or B itself when A is an identity
// swizzle, O is the static `_0` and B is a Layout. Errors as
// ComposedLayout::Create.
absl::StatusOr<AnyLayout> MakeComposed(AnyLayout outer, ComposedOffset offset,
                                       AnyLayout inner);

}  // namespace hlolayout::cute

#endif  // HLOLAYOUT_CUTE_COMPOSED_LAYOUT_H_
