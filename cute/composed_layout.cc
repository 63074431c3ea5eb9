// cute/composed_layout.cc: ComposedLayout and AnyLayout.
#include "hlolayout/cute/composed_layout.h"

#include <cstdio>
#include <cstdlib>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "hlolayout/util/status_macros.h"

namespace hlolayout::cute {

namespace {

[[noreturn]] void Die(const char* what) {
  std::fprintf(stderr, "AnyLayout: %s\n", what);
  std::abort();
}

}  // namespace

ComposedOffset ComposedOffset::Of(Int value) {
  ComposedOffset o;
  o.value_ = value;
  return o;
}

ComposedOffset ComposedOffset::SmemPtr(int bits) {
  if (bits <= 0) Die("smem_ptr bits must be positive");
  ComposedOffset o;
  o.smem_bits_ = bits;
  return o;
}

absl::StatusOr<ComposedLayout> ComposedLayout::Create(AnyLayout outer,
                                                      ComposedOffset offset,
                                                      AnyLayout inner) {
  if (inner.is_swizzle()) {
    return absl::InvalidArgumentError(
        "the inner part of a composed layout (A o O o B) must be a layout, "
        "not a swizzle");
  }
  ComposedLayout c;
  c.outer_ = std::make_shared<const AnyLayout>(std::move(outer));
  c.offset_ = offset;
  c.inner_ = std::make_shared<const AnyLayout>(std::move(inner));
  return c;
}

const IntTuple& ComposedLayout::shape() const { return innermost().shape(); }

int64_t ComposedLayout::size() const { return innermost().size(); }

const Layout& ComposedLayout::innermost() const {
  const AnyLayout* b = inner_.get();
  while (b->is_composed()) b = &b->composed().inner();
  return b->layout();
}

bool operator==(const ComposedLayout& a, const ComposedLayout& b) {
  return *a.outer_ == *b.outer_ && a.offset_ == b.offset_ &&
         *a.inner_ == *b.inner_;
}

const Layout& AnyLayout::layout() const {
  if (!is_layout()) Die("layout() of a non-layout");
  return std::get<Layout>(value_);
}

const Swizzle& AnyLayout::swizzle() const {
  if (!is_swizzle()) Die("swizzle() of a non-swizzle");
  return std::get<Swizzle>(value_);
}

const ComposedLayout& AnyLayout::composed() const {
  if (!is_composed()) Die("composed() of a non-composed layout");
  return std::get<ComposedLayout>(value_);
}

int64_t AnyLayout::size() const {
  switch (kind()) {
    case Kind::kLayout:
      return layout().size();
    case Kind::kSwizzle:
      return swizzle().domain_size();
    case Kind::kComposed:
      return composed().size();
  }
  return 1;
}

IntTuple AnyLayout::shape() const {
  switch (kind()) {
    case Kind::kLayout:
      return layout().shape();
    case Kind::kSwizzle:
      return IntTuple::Static(swizzle().domain_size());
    case Kind::kComposed:
      return composed().shape();
  }
  return IntTuple();
}

int64_t AnyLayout::cosize() const {
  switch (kind()) {
    case Kind::kLayout:
      return layout().cosize();
    case Kind::kSwizzle:
      return swizzle().domain_size();
    case Kind::kComposed:
      return composed().innermost().cosize();
  }
  return 1;
}

namespace {

// The outer function applied to a 1-D value.
absl::StatusOr<int64_t> ApplyOuter(const AnyLayout& outer,
                                   const ComposedOffset& offset,
                                   int64_t inner_value) {
  int64_t x;
  if (__builtin_add_overflow(inner_value, offset.value().value, &x)) {
    return absl::OutOfRangeError("offset overflows int64");
  }
  return outer.TryEvaluate(x);
}

}  // namespace

absl::StatusOr<int64_t> AnyLayout::TryEvaluate(int64_t idx) const {
  switch (kind()) {
    case Kind::kLayout:
      return layout().TryEvaluate(idx);
    case Kind::kSwizzle:
      return swizzle()(idx);
    case Kind::kComposed: {
      const ComposedLayout& c = composed();
      HLOLAYOUT_ASSIGN_OR_RETURN(int64_t b, c.inner().TryEvaluate(idx));
      return ApplyOuter(c.outer(), c.offset(), b);
    }
  }
  return 0;
}

absl::StatusOr<int64_t> AnyLayout::Evaluate(const IntTuple& coord) const {
  switch (kind()) {
    case Kind::kLayout:
      return layout().Evaluate(coord);
    case Kind::kSwizzle:
      if (!coord.is_int()) {
        return absl::InvalidArgumentError(
            "a swizzle takes an integer, not a coordinate tuple");
      }
      return swizzle()(coord.value());
    case Kind::kComposed: {
      const ComposedLayout& c = composed();
      HLOLAYOUT_ASSIGN_OR_RETURN(int64_t b, c.inner().Evaluate(coord));
      return ApplyOuter(c.outer(), c.offset(), b);
    }
  }
  return 0;
}

absl::StatusOr<AnyLayout> MakeComposed(AnyLayout outer, ComposedOffset offset,
                                       AnyLayout inner) {
  if (outer.is_swizzle() && outer.swizzle().is_identity() &&
      inner.is_layout() && !offset.is_smem_ptr() && offset.value().is_static &&
      offset.value().value == 0) {
    return inner;
  }
  HLOLAYOUT_ASSIGN_OR_RETURN(
      ComposedLayout c,
      ComposedLayout::Create(std::move(outer), offset, std::move(inner)));
  return AnyLayout(std::move(c));
}

}  // namespace hlolayout::cute
