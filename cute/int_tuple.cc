// cute/int_tuple.cc: IntTuple and the integer-tuple functions of CuTe.
#include "hlolayout/cute/int_tuple.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "hlolayout/util/status_macros.h"

namespace hlolayout::cute {

IntTuple IntTuple::Tuple(std::vector<IntTuple> elements) {
  IntTuple t;
  if (!elements.empty()) {
    t.elements_ =
        std::make_shared<const std::vector<IntTuple>>(std::move(elements));
  }
  return t;
}

const std::vector<IntTuple>& IntTuple::elems() const {
  static const std::vector<IntTuple>* const kEmpty = new std::vector<IntTuple>;
  return elements_ ? *elements_ : *kEmpty;
}

int64_t IntTuple::value() const {
  if (!is_int_) {
    std::fprintf(stderr, "IntTuple::value() called on a tuple\n");
    std::abort();
  }
  return value_;
}

const std::vector<IntTuple>& IntTuple::elements() const {
  if (is_int_) {
    std::fprintf(stderr, "IntTuple::elements() called on an integer\n");
    std::abort();
  }
  return elems();
}

const IntTuple& IntTuple::operator[](int i) const {
  if (is_int_) {
    if (i != 0) {
      std::fprintf(stderr, "IntTuple: index %d of an integer\n", i);
      std::abort();
    }
    return *this;
  }
  const std::vector<IntTuple>& e = elems();
  if (i < 0 || i >= static_cast<int>(e.size())) {
    std::fprintf(stderr, "IntTuple: index %d out of rank %d\n", i,
                 static_cast<int>(e.size()));
    std::abort();
  }
  return e[i];
}

bool IntTuple::is_static() const {
  if (is_int_) return static_;
  for (const IntTuple& e : elems()) {
    if (!e.is_static()) return false;
  }
  return true;
}

bool IntTuple::has_unknown() const {
  if (is_int_) return unknown_;
  for (const IntTuple& e : elems()) {
    if (e.has_unknown()) return true;
  }
  return false;
}

bool Identical(const IntTuple& a, const IntTuple& b) {
  if (a.is_int() || b.is_int()) {
    if (!a.is_int() || !b.is_int()) return false;
    const Int x = a.integer(), y = b.integer();
    return x.value == y.value && x.is_static == y.is_static &&
           x.unknown == y.unknown && x.wide == y.wide && x.div == y.div;
  }
  if (a.elements().size() != b.elements().size()) return false;
  for (size_t i = 0; i < a.elements().size(); ++i) {
    if (!Identical(a.elements()[i], b.elements()[i])) return false;
  }
  return true;
}

absl::StatusOr<Int> Product(const IntTuple& t) {
  if (t.is_int()) return t.integer();
  Int product = Int::Static(1);
  for (const IntTuple& e : t.elements()) {
    HLOLAYOUT_ASSIGN_OR_RETURN(Int s, Product(e));
    if (!TryMul(product, s, &product)) {
      return absl::OutOfRangeError("size overflows int64");
    }
  }
  return product;
}

int Rank(const IntTuple& t) {
  return t.is_int() ? 1 : static_cast<int>(t.elements().size());
}

int Depth(const IntTuple& t) {
  if (t.is_int()) return 0;
  int d = 0;
  for (const IntTuple& e : t.elements()) d = std::max(d, Depth(e));
  return d + 1;
}

absl::StatusOr<int64_t> Size(const IntTuple& t) {
  if (t.is_int()) return t.value();
  int64_t product = 1;
  for (const IntTuple& e : t.elements()) {
    HLOLAYOUT_ASSIGN_OR_RETURN(int64_t s, Size(e));
    if (__builtin_mul_overflow(product, s, &product)) {
      return absl::OutOfRangeError("size overflows int64");
    }
  }
  return product;
}

namespace {

void FlattenInto(const IntTuple& t, std::vector<int64_t>& out) {
  if (t.is_int()) {
    out.push_back(t.value());
    return;
  }
  for (const IntTuple& e : t.elements()) FlattenInto(e, out);
}

void FlattenIntsInto(const IntTuple& t, std::vector<Int>& out) {
  if (t.is_int()) {
    out.push_back(t.integer());
    return;
  }
  for (const IntTuple& e : t.elements()) FlattenIntsInto(e, out);
}

}  // namespace

std::vector<int64_t> Flatten(const IntTuple& t) {
  std::vector<int64_t> out;
  out.reserve(8);
  FlattenInto(t, out);
  return out;
}

std::vector<Int> FlattenInts(const IntTuple& t) {
  std::vector<Int> out;
  out.reserve(8);
  FlattenIntsInto(t, out);
  return out;
}

IntTuple WithTags(const IntTuple& t, bool is_static) {
  if (t.is_int()) {
    if (t.integer().unknown) return t;
    return IntTuple(Int{t.value(), is_static});
  }
  std::vector<IntTuple> out;
  for (const IntTuple& e : t.elements()) out.push_back(WithTags(e, is_static));
  return IntTuple::Tuple(std::move(out));
}

IntTuple FlattenToTuple(const IntTuple& t) {
  if (t.is_int()) return t;
  std::vector<IntTuple> leaves;
  for (Int v : FlattenInts(t)) leaves.emplace_back(v);
  return IntTuple::Tuple(std::move(leaves));
}

bool Congruent(const IntTuple& a, const IntTuple& b) {
  if (a.is_int() || b.is_int()) return a.is_int() && b.is_int();
  if (a.elements().size() != b.elements().size()) return false;
  for (size_t i = 0; i < a.elements().size(); ++i) {
    if (!Congruent(a.elements()[i], b.elements()[i])) return false;
  }
  return true;
}

bool WeaklyCongruent(const IntTuple& a, const IntTuple& b) {
  if (a.is_int()) return true;
  if (b.is_int()) return false;
  if (a.elements().size() != b.elements().size()) return false;
  for (size_t i = 0; i < a.elements().size(); ++i) {
    if (!WeaklyCongruent(a.elements()[i], b.elements()[i])) return false;
  }
  return true;
}

bool Compatible(const IntTuple& a, const IntTuple& b) {
  if (a.is_int()) {
    absl::StatusOr<int64_t> s = Size(b);
    return s.ok() && *s == a.value();
  }
  if (b.is_int()) return false;
  if (a.elements().size() != b.elements().size()) return false;
  for (size_t i = 0; i < a.elements().size(); ++i) {
    if (!Compatible(a.elements()[i], b.elements()[i])) return false;
  }
  return true;
}

namespace {

IntTuple CeilDivFold(const IntTuple& a, Int& rest) {
  if (a.is_int()) {
    if (a.value() <= 0 || rest.value <= 0) {
      std::fprintf(stderr, "CeilDiv: non-positive operand\n");
      std::abort();
    }
    const Int r = CeilDiv(a.integer(), rest);
    rest = CeilDiv(rest, a.integer());
    return r;
  }
  std::vector<IntTuple> out;
  for (const IntTuple& e : a.elements()) out.push_back(CeilDivFold(e, rest));
  return IntTuple::Tuple(std::move(out));
}

}  // namespace

IntTuple CeilDiv(const IntTuple& a, Int b) {
  Int rest = b;
  return CeilDivFold(a, rest);
}

absl::StatusOr<int64_t> CrdToIdx(const IntTuple& coord, const IntTuple& shape) {
  if (coord.is_int()) return coord.value();
  if (shape.is_int() || Rank(coord) != Rank(shape)) {
    return absl::InvalidArgumentError(
        "coordinate does not fit the profile of the shape");
  }
  int64_t index = 0;
  int64_t scale = 1;
  const int rank = Rank(shape);
  for (int i = 0; i < rank; ++i) {
    HLOLAYOUT_ASSIGN_OR_RETURN(int64_t c, CrdToIdx(coord[i], shape[i]));
    HLOLAYOUT_ASSIGN_OR_RETURN(int64_t s, Size(shape[i]));
    if (c < 0 || (i + 1 < rank && c >= s)) {
      return absl::OutOfRangeError(absl::StrCat(
          "coordinate ", c, " out of range in mode ", i, " of size ", s));
    }
    int64_t term;
    if (__builtin_mul_overflow(c, scale, &term) ||
        __builtin_add_overflow(index, term, &index)) {
      return absl::OutOfRangeError("index overflows int64");
    }
    if (i + 1 < rank && __builtin_mul_overflow(scale, s, &scale)) {
      return absl::OutOfRangeError("index overflows int64");
    }
  }
  return index;
}

namespace {

// The first leaf of `shape` that is not positive, as an error of `op`.
absl::Status PositiveLeaves(const IntTuple& shape, absl::string_view op) {
  if (shape.is_int()) {
    if (shape.value() > 0) return absl::OkStatus();
    return absl::InvalidArgumentError(absl::StrCat(
        op, ": the shape has a leaf ", shape.value(), ", not positive"));
  }
  for (const IntTuple& e : shape.elements()) {
    HLOLAYOUT_RETURN_IF_ERROR(PositiveLeaves(e, op));
  }
  return absl::OkStatus();
}

// Precondition: every leaf of `shape` is positive.
absl::StatusOr<IntTuple> IntToCrd(int64_t index, const IntTuple& shape) {
  if (shape.is_int()) return index % shape.value();
  std::vector<IntTuple> out;
  for (const IntTuple& e : shape.elements()) {
    HLOLAYOUT_ASSIGN_OR_RETURN(int64_t s, Size(e));
    HLOLAYOUT_ASSIGN_OR_RETURN(IntTuple c, IntToCrd(index % s, e));
    out.push_back(std::move(c));
    index /= s;
  }
  return IntTuple::Tuple(std::move(out));
}

}  // namespace

absl::StatusOr<IntTuple> IdxToCrd(const IntTuple& coord,
                                  const IntTuple& shape) {
  if (coord.is_int()) {
    if (coord.value() < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("negative index ", coord.value()));
    }
    HLOLAYOUT_RETURN_IF_ERROR(PositiveLeaves(shape, "idx2crd"));
    return IntToCrd(coord.value(), shape);
  }
  if (shape.is_int() || Rank(coord) != Rank(shape)) {
    return absl::InvalidArgumentError(
        "coordinate does not fit the profile of the shape");
  }
  std::vector<IntTuple> out;
  for (int i = 0; i < Rank(shape); ++i) {
    HLOLAYOUT_ASSIGN_OR_RETURN(IntTuple c, IdxToCrd(coord[i], shape[i]));
    out.push_back(std::move(c));
  }
  return IntTuple::Tuple(std::move(out));
}

absl::StatusOr<IntTuple> CrdToCrd(const IntTuple& coord,
                                  const IntTuple& dst_shape,
                                  const IntTuple* src_shape) {
  if (!coord.is_int() && !dst_shape.is_int()) {
    if (Rank(coord) != Rank(dst_shape)) {
      return absl::InvalidArgumentError(
          absl::StrCat("crd2crd: a coordinate of rank ", Rank(coord),
                       " into a shape of rank ", Rank(dst_shape)));
    }
    if (src_shape != nullptr &&
        (src_shape->is_int() || Rank(*src_shape) != Rank(coord))) {
      return absl::InvalidArgumentError(
          "crd2crd: the source shape does not fit the coordinate");
    }
    std::vector<IntTuple> modes;
    for (int i = 0; i < Rank(coord); ++i) {
      HLOLAYOUT_ASSIGN_OR_RETURN(
          IntTuple mode,
          CrdToCrd(coord[i], dst_shape[i],
                   src_shape == nullptr ? nullptr : &(*src_shape)[i]));
      modes.push_back(std::move(mode));
    }
    return IntTuple::Tuple(std::move(modes));
  }
  if (!coord.is_int()) {
    if (src_shape == nullptr) {
      return absl::InvalidArgumentError(
          "crd2crd: a tuple coordinate into an integer shape needs the "
          "source shape");
    }
    HLOLAYOUT_ASSIGN_OR_RETURN(int64_t index, CrdToIdx(coord, *src_shape));
    return IntTuple(index);
  }
  if (!dst_shape.is_int()) return IdxToCrd(coord, dst_shape);
  if (coord.value() < 0 || coord.value() >= dst_shape.value()) {
    return absl::InvalidArgumentError(absl::StrCat("crd2crd: ", coord.value(),
                                                   " is out of range for ",
                                                   dst_shape.value()));
  }
  return coord;
}

absl::StatusOr<IntTuple> IdxToCrd(const IntTuple& coord, const IntTuple& shape,
                                  const IntTuple& stride) {
  if (!Congruent(shape, stride)) {
    return absl::InvalidArgumentError("shape and stride are not congruent");
  }
  if (!coord.is_int()) {
    if (shape.is_int() || Rank(coord) != Rank(shape)) {
      return absl::InvalidArgumentError(
          "coordinate does not fit the profile of the shape");
    }
    std::vector<IntTuple> out;
    for (int i = 0; i < Rank(shape); ++i) {
      HLOLAYOUT_ASSIGN_OR_RETURN(IntTuple c,
                                 IdxToCrd(coord[i], shape[i], stride[i]));
      out.push_back(std::move(c));
    }
    return IntTuple::Tuple(std::move(out));
  }
  if (coord.value() < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("negative index ", coord.value()));
  }
  if (shape.is_int()) {
    if (stride.value() == 0 || shape.value() == 0) {
      return absl::InvalidArgumentError("idx2crd divides by a zero stride");
    }
    return (coord.value() / stride.value()) % shape.value();
  }
  std::vector<IntTuple> out;
  for (int i = 0; i < Rank(shape); ++i) {
    HLOLAYOUT_ASSIGN_OR_RETURN(IntTuple c,
                               IdxToCrd(coord, shape[i], stride[i]));
    out.push_back(std::move(c));
  }
  return IntTuple::Tuple(std::move(out));
}

namespace {

absl::Status Overflow(absl::string_view what) {
  return absl::OutOfRangeError(absl::StrCat(what, " overflows int64"));
}

// PrefixProduct of `a` starting at the integer `*running`, which ends as
// `*running` times every leaf of `a`.
absl::StatusOr<IntTuple> PrefixFold(const IntTuple& a, Int* running) {
  if (a.is_int()) {
    const Int here = *running;
    if (!TryMul(*running, a.integer(), running))
      return Overflow("prefix_product");
    return IntTuple(here);
  }
  std::vector<IntTuple> out;
  for (const IntTuple& e : a.elements()) {
    HLOLAYOUT_ASSIGN_OR_RETURN(IntTuple p, PrefixFold(e, running));
    out.push_back(std::move(p));
  }
  return IntTuple::Tuple(std::move(out));
}

absl::Status RankMismatch(absl::string_view op, const IntTuple& a,
                          const IntTuple& b) {
  return absl::InvalidArgumentError(
      absl::StrCat(op, ": ranks ", Rank(a), " and ", Rank(b), " differ"));
}

}  // namespace

absl::StatusOr<IntTuple> PrefixProduct(const IntTuple& a,
                                       const IntTuple& init) {
  if (init.is_int()) {
    Int running = init.integer();
    return PrefixFold(a, &running);
  }
  if (a.is_int()) {
    return absl::InvalidArgumentError(
        "prefix_product: a tuple init for an integer");
  }
  if (Rank(a) != Rank(init)) return RankMismatch("prefix_product", a, init);
  std::vector<IntTuple> out;
  for (int i = 0; i < Rank(a); ++i) {
    HLOLAYOUT_ASSIGN_OR_RETURN(IntTuple p, PrefixProduct(a[i], init[i]));
    out.push_back(std::move(p));
  }
  return IntTuple::Tuple(std::move(out));
}

absl::StatusOr<IntTuple> ShapeDiv(const IntTuple& a, const IntTuple& b) {
  if (!a.is_int()) {
    std::vector<IntTuple> out;
    if (!b.is_int()) {
      if (Rank(a) != Rank(b)) return RankMismatch("shape_div", a, b);
      for (int i = 0; i < Rank(a); ++i) {
        HLOLAYOUT_ASSIGN_OR_RETURN(IntTuple q, ShapeDiv(a[i], b[i]));
        out.push_back(std::move(q));
      }
      return IntTuple::Tuple(std::move(out));
    }
    IntTuple rest = b;
    for (const IntTuple& e : a.elements()) {
      HLOLAYOUT_ASSIGN_OR_RETURN(IntTuple q, ShapeDiv(e, rest));
      HLOLAYOUT_ASSIGN_OR_RETURN(Int p, Product(e));
      HLOLAYOUT_ASSIGN_OR_RETURN(rest, ShapeDiv(rest, IntTuple(p)));
      out.push_back(std::move(q));
    }
    return IntTuple::Tuple(std::move(out));
  }
  if (!b.is_int()) {
    HLOLAYOUT_ASSIGN_OR_RETURN(Int p, Product(b));
    return ShapeDiv(a, IntTuple(p));
  }
  const Int x = a.integer(), y = b.integer();
  const auto sign = [](int64_t v) { return (v > 0) - (v < 0); };
  if (x.unknown || y.unknown) {
    // The DSL cannot check that a `?` and the other divide each other: the
    // quotient is a `?` of divisibility 1 (observed: shape_div of
    // `?{div=32}` by 32, or by 1, is `?`). Its value is CuTe's run-time
    // one (0 for a divisor standing for 0).
    int64_t q = 0;
    if (y.value != 0 && !(x.value == INT64_MIN && y.value == -1)) {
      q = x.value / y.value;
      if (q == 0) q = sign(x.value) * sign(y.value);
    }
    return IntTuple(Int::Unknown(q, 1, x.wide || y.wide));
  }
  if (y.value == 0) return absl::InvalidArgumentError("shape_div by zero");
  if (x.value % y.value != 0 && (x.value == 0 || y.value % x.value != 0)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "shape_div: ", x.value, " and ", y.value, " do not divide each other"));
  }
  if (x.value == INT64_MIN && y.value == -1) return Overflow("shape_div");
  const int64_t q = x.value / y.value;
  return IntTuple(
      Int{q != 0 ? q : sign(x.value) * sign(y.value), BothStatic(x, y)});
}

absl::StatusOr<Int> InnerProduct(const IntTuple& a, const IntTuple& b) {
  if (a.is_int() != b.is_int() || (!a.is_int() && Rank(a) != Rank(b))) {
    return absl::InvalidArgumentError(
        "inner_product: the operands are not congruent");
  }
  if (a.is_int()) {
    Int r;
    if (!TryMul(a.integer(), b.integer(), &r)) return Overflow("inner_product");
    return r;
  }
  Int sum = Int::Static(0);
  for (int i = 0; i < Rank(a); ++i) {
    HLOLAYOUT_ASSIGN_OR_RETURN(Int term, InnerProduct(a[i], b[i]));
    if (!TryAdd(sum, term, &sum)) return Overflow("inner_product");
  }
  return sum;
}

absl::StatusOr<IntTuple> ElemScale(const IntTuple& a, const IntTuple& b) {
  if (a.is_int()) {
    HLOLAYOUT_ASSIGN_OR_RETURN(Int p, Product(b));
    Int r;
    if (!TryMul(a.integer(), p, &r)) return Overflow("elem_scale");
    return IntTuple(r);
  }
  if (b.is_int()) {
    return absl::InvalidArgumentError(
        "elem_scale: a tuple scaled by an integer");
  }
  if (Rank(a) != Rank(b)) return RankMismatch("elem_scale", a, b);
  std::vector<IntTuple> out;
  for (int i = 0; i < Rank(a); ++i) {
    HLOLAYOUT_ASSIGN_OR_RETURN(IntTuple e, ElemScale(a[i], b[i]));
    out.push_back(std::move(e));
  }
  return IntTuple::Tuple(std::move(out));
}

}  // namespace hlolayout::cute
