// cute/layout.cc: Layout validation, evaluation and concatenation.
#include "hlolayout/cute/layout.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "hlolayout/util/status_macros.h"

namespace hlolayout::cute {

Layout::Layout() : Layout(IntTuple::Static(1), IntTuple::Static(0), 1, 1) {}

Layout::Layout(IntTuple shape, IntTuple stride, int64_t size, int64_t cosize)
    : shape_(std::move(shape)),
      stride_(std::move(stride)),
      size_(size),
      cosize_(cosize) {
  CollectLeaves(shape_, stride_);
  if (leaves_.empty()) leaves_.push_back(OneLeaf());
}

bool Layout::CollectLeaves(const IntTuple& shape, const IntTuple& stride) {
  if (shape.is_int() || stride.is_int()) {
    if (!shape.is_int() || !stride.is_int()) return false;
    const int64_t s = shape.value();
    leaves_.push_back(Leaf{s, stride.value(),
                           internal::FastDivisor(s > 0 ? s : 1),
                           shape.is_static(), stride.is_static()});
    return true;
  }
  const std::vector<IntTuple>& a = shape.elements();
  const std::vector<IntTuple>& b = stride.elements();
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!CollectLeaves(a[i], b[i])) return false;
  }
  return true;
}

absl::StatusOr<Layout> Layout::Create(IntTuple shape, IntTuple stride) {
  // One walk over both trees: congruence, the leaves, their checks.
  Layout l{Empty{}};
  if (!l.CollectLeaves(shape, stride)) {
    return absl::InvalidArgumentError("shape and stride are not congruent");
  }
  int64_t size = 1;
  int64_t cosize = 1;
  for (const Leaf& leaf : l.leaves_) {
    if (leaf.shape <= 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("shape must be positive, found ", leaf.shape));
    }
    if (leaf.stride == std::numeric_limits<int64_t>::min()) {
      return absl::OutOfRangeError("stride -2^63 is not supported");
    }
    int64_t span;
    if (__builtin_mul_overflow(size, leaf.shape, &size) ||
        __builtin_mul_overflow(leaf.shape - 1,
                               leaf.stride < 0 ? -leaf.stride : leaf.stride,
                               &span) ||
        __builtin_add_overflow(cosize, span, &cosize)) {
      return absl::OutOfRangeError("layout size or cosize overflows int64");
    }
  }
  if (l.leaves_.empty()) l.leaves_.push_back(OneLeaf());
  l.shape_ = std::move(shape);
  l.stride_ = std::move(stride);
  l.size_ = size;
  l.cosize_ = cosize;
  return l;
}

namespace {

IntTuple CompactStrides(const IntTuple& shape, Int& current) {
  if (shape.is_int()) {
    if (IsStaticOne(shape.integer())) return IntTuple::Static(0);
    const Int stride = current;
    current = Mul(current, shape.integer());
    return stride;
  }
  std::vector<IntTuple> out;
  for (const IntTuple& e : shape.elements()) {
    out.push_back(CompactStrides(e, current));
  }
  return IntTuple::Tuple(std::move(out));
}

}  // namespace

absl::StatusOr<Layout> Layout::Compact(IntTuple shape) {
  for (int64_t s : Flatten(shape)) {
    if (s <= 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("shape must be positive, found ", s));
    }
  }
  if (!Size(shape).ok()) {
    return absl::OutOfRangeError("layout size or cosize overflows int64");
  }
  Int current = Int::Static(1);  // Cannot overflow: the size fits.
  IntTuple stride = CompactStrides(shape, current);
  return Create(std::move(shape), std::move(stride));
}

Layout Layout::Make(IntTuple shape, IntTuple stride) {
  absl::StatusOr<Layout> l = Create(std::move(shape), std::move(stride));
  if (!l.ok()) {
    std::fprintf(stderr, "Layout::Make: %s\n",
                 std::string(l.status().message()).c_str());
    std::abort();
  }
  return *std::move(l);
}

namespace {

int64_t LeafCount(const IntTuple& t) {
  if (t.is_int()) return 1;
  int64_t n = 0;
  for (const IntTuple& e : t.elements()) n += LeafCount(e);
  return n;
}

}  // namespace

Layout Layout::mode(int i) const {
  if (shape_.is_int()) {
    if (i != 0) {
      std::fprintf(stderr, "Layout::mode(%d) of an integral layout\n", i);
      std::abort();
    }
    return *this;
  }
  // The mode's leaves are a run of this layout's: copy them (with their
  // divisors) instead of validating and dividing again. Sizes fit: they
  // are factors of this layout's.
  Layout m{Empty{}};
  m.shape_ =
      shape_[i];  // aborts with "index i out of rank r" when out of range
  m.stride_ = stride_[i];
  int64_t first = 0;
  for (int k = 0; k < i; ++k) first += LeafCount(shape_[k]);
  const int64_t count = LeafCount(m.shape_);
  m.size_ = 1;
  m.cosize_ = 1;
  for (int64_t k = first; k < first + count; ++k) {
    const Leaf& leaf = leaves_[static_cast<size_t>(k)];
    m.leaves_.push_back(leaf);
    m.size_ *= leaf.shape;
    m.cosize_ +=
        (leaf.shape - 1) * (leaf.stride < 0 ? -leaf.stride : leaf.stride);
  }
  if (m.leaves_.empty()) m.leaves_.push_back(OneLeaf());
  return m;
}

bool Layout::placeholder() const {
  return leaves_.size() == 1 && shape_.is_tuple() && LeafCount(shape_) == 0;
}

Int Layout::size_int() const {
  if (has_unknown()) {
    Int product = Int::Static(1);  // Cannot overflow: the size fits.
    for (const Int& s : FlattenInts(shape_)) product = Mul(product, s);
    return product;
  }
  bool all_static = true;
  for (const Leaf& leaf : leaves_) all_static = all_static && leaf.shape_static;
  return Int{size_, all_static};
}

Int Layout::cosize_int() const {
  if (has_unknown()) {
    // The DSL's: L'(size - 1) + 1, L' this layout with absolute strides,
    // the index split into a coordinate by the integers' arithmetic (a
    // static 1 mode's coordinate a static 0). Cannot overflow: the cosize
    // fits.
    const internal::Modes modes = leaf_modes();
    Int index;
    TrySub(size_int(), Int::Static(1), &index);
    Int offset = Int::Static(0);
    for (size_t k = 0; k < modes.size(); ++k) {
      Int coord = index;
      if (k + 1 < modes.size()) {
        coord = Mod(index, modes[k].shape);
        index = Div(index, modes[k].shape);
      }
      offset = Add(offset, Mul(coord, Abs(modes[k].stride)));
    }
    Int cosize = Add(offset, Int::Static(1));
    cosize.wide = false;  // a 32-bit `?` whatever the leaves (observed)
    return cosize;
  }
  // Static when each leaf's (shape - 1) * |stride| is: a static size-1 leaf
  // gives a static 0 whatever its stride.
  bool all_static = true;
  for (const Leaf& leaf : leaves_) {
    const bool zero = leaf.shape_static && leaf.shape == 1;
    all_static =
        all_static && (zero || (leaf.shape_static && leaf.stride_static) ||
                       (leaf.stride_static && leaf.stride == 0));
  }
  return Int{cosize_, all_static};
}

internal::Modes Layout::leaf_modes() const {
  internal::Modes out;
  if (placeholder()) return out;
  if (has_unknown()) {  // The cache keeps values and tags only.
    const std::vector<Int> shape = FlattenInts(shape_);
    const std::vector<Int> stride = FlattenInts(stride_);
    for (size_t k = 0; k < shape.size(); ++k) {
      out.push_back(internal::Mode{shape[k], stride[k]});
    }
    return out;
  }
  for (const Leaf& leaf : leaves_) {
    out.push_back(internal::Mode{Int{leaf.shape, leaf.shape_static},
                                 Int{leaf.stride, leaf.stride_static}});
  }
  return out;
}

absl::StatusOr<Layout> Layout::FromModes(const internal::Modes& modes) {
  if (modes.empty()) return Layout();
  Layout l{Empty{}};
  int64_t size = 1;
  int64_t cosize = 1;
  for (const internal::Mode& m : modes) {
    const int64_t s = m.shape.value;
    const int64_t d = m.stride.value;
    if (s <= 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("shape must be positive, found ", s));
    }
    if (d == std::numeric_limits<int64_t>::min()) {
      return absl::OutOfRangeError("stride -2^63 is not supported");
    }
    int64_t span;
    if (__builtin_mul_overflow(size, s, &size) ||
        __builtin_mul_overflow(s - 1, d < 0 ? -d : d, &span) ||
        __builtin_add_overflow(cosize, span, &cosize)) {
      return absl::OutOfRangeError("layout size or cosize overflows int64");
    }
    l.leaves_.push_back(Leaf{s, d, internal::FastDivisor(s), m.shape.is_static,
                             m.stride.is_static});
  }
  l.size_ = size;
  l.cosize_ = cosize;
  if (modes.size() == 1) {
    l.shape_ = IntTuple(modes[0].shape);
    l.stride_ = IntTuple(modes[0].stride);
    return l;
  }
  std::vector<IntTuple> sh, st;
  sh.reserve(modes.size());
  st.reserve(modes.size());
  for (const internal::Mode& m : modes) {
    sh.emplace_back(m.shape);
    st.emplace_back(m.stride);
  }
  l.shape_ = IntTuple::Tuple(std::move(sh));
  l.stride_ = IntTuple::Tuple(std::move(st));
  return l;
}

std::vector<Layout> Layout::modes() const {
  std::vector<Layout> out;
  out.reserve(rank());
  for (int i = 0; i < rank(); ++i) out.push_back(mode(i));
  return out;
}

void Layout::EvaluateMany(const int64_t* idx, int64_t* out, int64_t n) const {
  constexpr int64_t kBlock = 64;
  int64_t q[kBlock];
  int64_t offset[kBlock];
  const size_t last = leaves_.size() - 1;
  for (int64_t begin = 0; begin < n; begin += kBlock) {
    const int64_t m = std::min(kBlock, n - begin);
    for (int64_t e = 0; e < m; ++e) {
      q[e] = idx[begin + e];
      offset[e] = 0;
    }
    for (size_t k = 0; k < last; ++k) {
      const Leaf& leaf = leaves_[k];
      const int64_t shape = leaf.shape;
      const int64_t stride = leaf.stride;
      if ((shape & (shape - 1)) == 0) {  // A power of two: shift and mask.
        const int bits = __builtin_ctzll(static_cast<uint64_t>(shape));
        for (int64_t e = 0; e < m; ++e) {
          offset[e] += (q[e] & (shape - 1)) * stride;
          q[e] >>= bits;
        }
        continue;
      }
      for (int64_t e = 0; e < m; ++e) {
        const int64_t quotient = leaf.divisor.Divide(q[e]);
        offset[e] += (q[e] - quotient * shape) * stride;
        q[e] = quotient;
      }
    }
    const int64_t stride = leaves_[last].stride;
    for (int64_t e = 0; e < m; ++e) out[begin + e] = offset[e] + q[e] * stride;
  }
}

absl::StatusOr<int64_t> Layout::TryEvaluate(int64_t idx) const {
  if (idx == std::numeric_limits<int64_t>::min()) {
    return absl::OutOfRangeError("index -2^63 is not supported");
  }
  if (idx > -size_ && idx < size_) return (*this)(idx);
  const bool negative = idx < 0;
  int64_t i = negative ? -idx : idx;
  int64_t offset = 0;
  const size_t last = leaves_.size() - 1;
  for (size_t k = 0; k < last; ++k) {
    offset += (i % leaves_[k].shape) * leaves_[k].stride;  // Within cosize.
    i /= leaves_[k].shape;
  }
  int64_t term;
  if (__builtin_mul_overflow(i, leaves_[last].stride, &term) ||
      __builtin_add_overflow(offset, term, &offset)) {
    return absl::OutOfRangeError(
        absl::StrCat("offset of index ", idx, " overflows int64"));
  }
  return negative ? -offset : offset;
}

namespace {

// Evaluates coordinate `c` against shape/stride, adding into `offset`.
absl::Status EvaluateInto(const IntTuple& c, const IntTuple& shape,
                          const IntTuple& stride, bool last, int64_t& offset) {
  if (c.is_int()) {
    int64_t i = c.value();
    if (i < 0) {
      return absl::OutOfRangeError(absl::StrCat("negative coordinate ", i));
    }
    if (shape.is_int()) {
      if (!last && i >= shape.value()) {
        return absl::OutOfRangeError(
            absl::StrCat("coordinate ", i, " out of range for mode of size ",
                         shape.value()));
      }
      int64_t term;
      if (__builtin_mul_overflow(i, stride.value(), &term) ||
          __builtin_add_overflow(offset, term, &offset)) {
        return absl::OutOfRangeError("offset overflows int64");
      }
      return absl::OkStatus();
    }
    // Split the integer across the modes; the last takes the quotient.
    const int rank = Rank(shape);
    if (rank == 0) {
      if (i != 0 && !last) {
        return absl::OutOfRangeError(
            absl::StrCat("coordinate ", i, " out of range for mode ()"));
      }
      return absl::OkStatus();
    }
    for (int k = 0; k < rank; ++k) {
      const bool final_mode = k + 1 == rank;
      int64_t part = i;
      if (!final_mode) {
        const int64_t s = *Size(shape[k]);  // Valid layouts have sizes.
        part = i % s;
        i /= s;
      }
      HLOLAYOUT_RETURN_IF_ERROR(
          EvaluateInto(part, shape[k], stride[k], last && final_mode, offset));
    }
    return absl::OkStatus();
  }
  if (shape.is_int() || Rank(c) != Rank(shape)) {
    return absl::InvalidArgumentError(
        "coordinate does not fit the profile of the layout");
  }
  for (int k = 0; k < Rank(shape); ++k) {
    HLOLAYOUT_RETURN_IF_ERROR(EvaluateInto(
        c[k], shape[k], stride[k], last && k + 1 == Rank(shape), offset));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<int64_t> Layout::Evaluate(const IntTuple& coord) const {
  if (coord.is_int()) {
    if (coord.value() < 0) {
      return absl::OutOfRangeError(
          absl::StrCat("negative coordinate ", coord.value()));
    }
    return TryEvaluate(coord.value());
  }
  int64_t offset = 0;
  HLOLAYOUT_RETURN_IF_ERROR(EvaluateInto(coord, shape_, stride_, true, offset));
  return offset;
}

absl::StatusOr<Layout> MakeLayout(absl::Span<const Layout> modes) {
  std::vector<IntTuple> shapes;
  std::vector<IntTuple> strides;
  shapes.reserve(modes.size());
  strides.reserve(modes.size());
  for (const Layout& m : modes) {
    shapes.push_back(m.shape());
    strides.push_back(m.stride());
  }
  return Layout::Concatenate(modes, IntTuple::Tuple(std::move(shapes)),
                             IntTuple::Tuple(std::move(strides)));
}

absl::StatusOr<Layout> Layout::Concatenate(absl::Span<const Layout> modes,
                                           IntTuple shape, IntTuple stride) {
  // The modes are valid layouts: their leaves and divisors are reused; only
  // the totals can overflow.
  Layout l{Empty{}};
  int64_t size = 1;
  int64_t cosize = 1;
  for (const Layout& m : modes) {
    const bool placeholder = m.shape_.is_tuple() && m.shape_.elements().empty();
    if (!placeholder) {
      for (const Leaf& leaf : m.leaves_) l.leaves_.push_back(leaf);
    }
    if (__builtin_mul_overflow(size, m.size_, &size) ||
        __builtin_add_overflow(cosize, m.cosize_ - 1, &cosize)) {
      return absl::OutOfRangeError("layout size or cosize overflows int64");
    }
  }
  if (l.leaves_.empty()) l.leaves_.push_back(OneLeaf());
  l.shape_ = std::move(shape);
  l.stride_ = std::move(stride);
  l.size_ = size;
  l.cosize_ = cosize;
  return l;
}

Layout FlattenLayout(const Layout& layout) {
  return Layout::Make(FlattenToTuple(layout.shape()),
                      FlattenToTuple(layout.stride()));
}

bool Congruent(const Layout& a, const Layout& b) {
  return Congruent(a.shape(), b.shape());
}

bool Compatible(const Layout& a, const Layout& b) {
  return Compatible(a.shape(), b.shape());
}

}  // namespace hlolayout::cute
