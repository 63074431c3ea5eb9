// cute/int_tuple.h: CuTe's IntTuple, an integer or a tuple of IntTuples.
//
// Shapes, strides and coordinates of cute layouts are IntTuples. Each leaf
// is an int64 value tagged static (CuTe's `Int<N>`, printed `_N`) or
// dynamic (a run-time `int`, printed plain), or the CuTe DSL's `?` with its
// width and divisibility, cute/integer.h. The algorithms
// decide with the values alone (CuTe with every value known, see
// docs/cute.md, "Static and dynamic integers"); the tags only decide how
// results print, following CuTe's rules.
//
//   IntTuple s = IntTuple::Tuple({2, IntTuple::Tuple({3, 4})});  // (2,(3,4))
//   IntTuple t = IntTuple::Tuple({IntTuple::Static(8), 4});      // (_8,4)
//   Rank(s) == 2, Depth(s) == 2, *Size(s) == 24
//   ToString(s) == "(2,(3,4))", ToString(t) == "(_8,4)"   (cute/print.h)
//
// Text parsing is in cute/parse.h and printing in cute/print.h.
#ifndef HLOLAYOUT_CUTE_INT_TUPLE_H_
#define HLOLAYOUT_CUTE_INT_TUPLE_H_

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "hlolayout/cute/integer.h"

namespace hlolayout::cute {

// IntTuple
//
// A value type: either a leaf integer or a (possibly empty) tuple. The
// integer constructors are implicit so that `IntTuple::Tuple({2, 3})` reads
// like CuTe's `make_shape(2, 3)`.
class IntTuple {
 public:
  // The empty tuple `()`.
  IntTuple() = default;
  // The dynamic integer `value`.
  IntTuple(int64_t value)  // NOLINT(google-explicit-constructor)
      : is_int_(true), value_(value) {}
  // The integer `value` with its tags.
  IntTuple(Int value)  // NOLINT(google-explicit-constructor)
      : is_int_(true),
        static_(value.is_static && !value.unknown),
        unknown_(value.unknown),
        wide_(value.unknown && value.wide),
        value_(value.value),
        div_(value.unknown ? value.div : 1) {}

  // Static
  //
  // The static integer `_value`.
  static IntTuple Static(int64_t value) { return IntTuple(Int::Static(value)); }

  // Tuple
  //
  // The tuple of `elements`: `Tuple({4})` is the rank-1 tuple `(4)`, which
  // differs from the integer `4`.
  static IntTuple Tuple(std::vector<IntTuple> elements);
  static IntTuple Tuple(std::initializer_list<IntTuple> elements) {
    return Tuple(std::vector<IntTuple>(elements));
  }

  bool is_int() const { return is_int_; }
  bool is_tuple() const { return !is_int_; }

  // value
  //
  // Precondition: is_int() (CHECK).
  int64_t value() const;

  // integer
  //
  // The value with its tags. Precondition: is_int() (CHECK).
  Int integer() const { return Int{value(), static_, unknown_, wide_, div_}; }

  // is_static
  //
  // For an integer, its tag; for a tuple, whether every leaf is static (the
  // empty tuple is static, as CuTe's `tuple<>`).
  bool is_static() const;

  // has_unknown
  //
  // Whether a leaf is the CuTe DSL's `?` (cute/integer.h).
  bool has_unknown() const;

  // elements
  //
  // Precondition: is_tuple() (CHECK).
  const std::vector<IntTuple>& elements() const;

  // operator[]
  //
  // The i-th top-level element. An integer has rank 1 and is its own element
  // 0, as in CuTe's get<0>. Precondition: 0 <= i < Rank(*this) (CHECK).
  const IntTuple& operator[](int i) const;

  // Equality of trees and values; tags are not compared (CuTe: `_8 == 8`;
  // a `?` by the value it stands for). Identical() compares them too.
  friend bool operator==(const IntTuple& a, const IntTuple& b) {
    return a.is_int_ == b.is_int_ && a.value_ == b.value_ &&
           (a.elements_ == b.elements_ || a.elems() == b.elems());
  }
  friend bool operator!=(const IntTuple& a, const IntTuple& b) {
    return !(a == b);
  }

 private:
  bool is_int_ = false;
  bool static_ = false;
  bool unknown_ = false;
  bool wide_ = false;
  int64_t value_ = 0;
  int64_t div_ = 1;
  // The elements, shared between copies (IntTuples are immutable, so a copy
  // of a tree is a reference count, not a deep copy); null for `()` and
  // integers.
  std::shared_ptr<const std::vector<IntTuple>> elements_;

  const std::vector<IntTuple>& elems() const;
};

// Rank
//
// The number of top-level elements; an integer has rank 1, `()` rank 0.
int Rank(const IntTuple& t);

// Depth
//
// 0 for an integer, else 1 + the largest depth of the elements (`()` is 1).
int Depth(const IntTuple& t);

// Size
//
// The product of all leaves (`()` gives 1). Returns an error when the
// product overflows int64.
absl::StatusOr<int64_t> Size(const IntTuple& t);

// Identical
//
// operator== that also compares the tags: `(_8,4)` and `(8,4)` are equal
// but not identical; a `?` is identical to a `?` of the same value, width
// and divisibility only.
bool Identical(const IntTuple& a, const IntTuple& b);

// Product
//
// Size() with its tag (CuTe's product): static when every leaf is, `_1` for
// `()`, static `_0` when a leaf is a static 0.
absl::StatusOr<Int> Product(const IntTuple& t);

// Flatten
//
// The leaves, left to right: Flatten((2,(3,4))) == {2, 3, 4}.
std::vector<int64_t> Flatten(const IntTuple& t);

// FlattenInts
//
// The leaves with their tags.
std::vector<Int> FlattenInts(const IntTuple& t);

// WithTags
//
// `t` with every leaf made static (`is_static` true) or dynamic; a `?`
// stays what it is.
IntTuple WithTags(const IntTuple& t, bool is_static);

// FlattenToTuple
//
// The leaves as a tuple, `(2,3,4)`; an integer stays an integer.
IntTuple FlattenToTuple(const IntTuple& t);

// Congruent
//
// True when `a` and `b` have the same tree of tuples (leaf values aside).
bool Congruent(const IntTuple& a, const IntTuple& b);

// WeaklyCongruent
//
// True when `a` may have an integer where `b` has a subtree; a tuple in `a`
// against an integer in `b` is false, and differing ranks are false.
bool WeaklyCongruent(const IntTuple& a, const IntTuple& b);

// Compatible
//
// True when every coordinate of shape `a` is a coordinate of shape `b`: an
// integer `a` is compatible with `b` when a == size(b); tuples need equal
// rank and compatible elements. So 24 <= (4,6) <= ((2,2),6), while (24) is
// not compatible with 24.
bool Compatible(const IntTuple& a, const IntTuple& b);

// CeilDiv
//
// CuTe's ceil_div fold: a tuple divided by an integer divides its elements
// left to right, carrying ceil(rest / element): CeilDiv((3,6,2,8), 72) is
// (1,1,1,4). Integer by integer is ceil(a / b). Each result leaf is static
// when the leaf and the carried divisor are. Precondition: leaves and `b`
// are positive (CHECK).
IntTuple CeilDiv(const IntTuple& a, Int b);
inline IntTuple CeilDiv(const IntTuple& a, int64_t b) {
  return CeilDiv(a, Int::Dynamic(b));
}

// CrdToIdx
//
// The colexicographic 1-D index of coordinate `coord` in `shape` (CuTe's
// crd2idx without strides): an integer coordinate is already 1-D; a tuple
// coordinate against a tuple shape is Horner's rule mode by mode. Returns an
// error when the coordinate does not fit the shape's profile, is out of
// range in a non-final mode, or when the index overflows.
absl::StatusOr<int64_t> CrdToIdx(const IntTuple& coord, const IntTuple& shape);

// IdxToCrd
//
// The natural coordinate of `coord` in `shape` (CuTe's idx2crd): an integer
// against a tuple shape becomes a coordinate congruent to that shape, leaf k
// being (i / prod(shape_<k)) % shape_k; a tuple coordinate is converted mode
// by mode, restarting the strides inside each sub-mode:
// IdxToCrd((1,5), (3,(2,3))) == (1,(1,2)). Returns an error for a tuple
// coordinate against an integer shape, a rank mismatch, a negative integer
// coordinate, or a shape leaf that is not positive.
absl::StatusOr<IntTuple> IdxToCrd(const IntTuple& coord, const IntTuple& shape);

// IdxToCrd (with strides)
//
// CuTe's idx2crd(idx, shape, stride) for an integer index: each leaf of the
// coordinate is (idx / stride_k) % shape_k, congruent to `shape`; a tuple
// index goes mode by mode (shape and stride of the same rank). Returns an
// error for a profile mismatch, a zero stride, or a negative index.
//   IdxToCrd(7, (2,(3,4)), (1,(2,6))) == (1,(0,1))
absl::StatusOr<IntTuple> IdxToCrd(const IntTuple& coord, const IntTuple& shape,
                                  const IntTuple& stride);

// CrdToCrd
//
// A coordinate of `src_shape` as a coordinate of `dst_shape` (CuTe's
// crd2crd), decided by which of the coordinate and the destination are
// tuples: both, mode by mode (the source's mode alongside, when given);
// a tuple into an integer, its 1-D index in the source shape (CrdToIdx);
// an integer into a tuple, its natural coordinate there (IdxToCrd); an
// integer into an integer, itself, when below the destination.
//   CrdToCrd((1,2), 6, (2,3))       == 5
//   CrdToCrd(5, (2,3), null)        == (1,2)
//   CrdToCrd((1,(1,2)), (3,6), (3,(2,3))) == (1,5)
// `src_shape` may be null when no tuple meets an integer destination.
// Returns an error on a rank mismatch, a missing source shape where one is
// needed, or an integer out of range.
absl::StatusOr<IntTuple> CrdToCrd(const IntTuple& coord,
                                  const IntTuple& dst_shape,
                                  const IntTuple* src_shape);

// PrefixProduct
//
// CuTe's prefix_product(a, init): congruent to `a`, each leaf the product of
// `init` and of every leaf before it, left to right, so that with init _1 it
// is the compact column-major stride of shape `a`:
//   PrefixProduct((2,(3,4))) == (_1,(_2,_6))
// A tuple `init` goes mode by mode with a tuple `a` of the same rank. Tags
// follow CuTe's multiplication. Returns an error for a tuple `init` against
// an integer or a tuple of another rank, and on overflow.
absl::StatusOr<IntTuple> PrefixProduct(
    const IntTuple& a, const IntTuple& init = IntTuple::Static(1));

// ShapeDiv
//
// CuTe's shape_div(a, b). Tuple by tuple: mode by mode (equal ranks). Tuple
// by integer: a fold, each element divided by what is left of b, which is
// then divided by the element's product: ShapeDiv((3,6,2,8), 72) ==
// (1,1,1,4). Integer by tuple: by the tuple's product. Integer by integer:
// one must divide the other (CuTe's static_assert); a / b, or
// signum(a) * signum(b) when that is 0. Returns an error otherwise, for a
// zero divisor, or for a rank mismatch. A `?` operand gives a `?` of
// divisibility 1, unchecked (the DSL's).
absl::StatusOr<IntTuple> ShapeDiv(const IntTuple& a, const IntTuple& b);

// InnerProduct
//
// CuTe's inner_product: the sum of the products of congruent leaves.
// Returns an error when `a` and `b` are not congruent, or on overflow.
absl::StatusOr<Int> InnerProduct(const IntTuple& a, const IntTuple& b);

// ElemScale
//
// CuTe's elem_scale(a, b): `a` scaled leaf by leaf, a leaf of `a` meeting a
// subtree of `b` multiplied by the subtree's product:
//   ElemScale((2,3), (4,(2,5))) == (8,30)
// Returns an error for a tuple `a` against an integer or a tuple of another
// rank, and on overflow.
absl::StatusOr<IntTuple> ElemScale(const IntTuple& a, const IntTuple& b);

}  // namespace hlolayout::cute

#endif  // HLOLAYOUT_CUTE_INT_TUPLE_H_
