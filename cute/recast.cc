// cute/recast.cc: upcast, downcast and recast_layout of layouts.
#include "hlolayout/cute/recast.h"

#include <numeric>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "hlolayout/cute/print.h"
#include "hlolayout/util/status_macros.h"

namespace hlolayout::cute {

namespace {

struct Leaves {
  IntTuple shape;
  IntTuple stride;
};

absl::StatusOr<Leaves> UpcastLeaves(const IntTuple& shape,
                                    const IntTuple& stride, Int n) {
  if (shape.is_tuple()) {
    std::vector<IntTuple> sh, st;
    for (int i = 0; i < Rank(shape); ++i) {
      HLOLAYOUT_ASSIGN_OR_RETURN(Leaves l,
                                 UpcastLeaves(shape[i], stride[i], n));
      sh.push_back(std::move(l.shape));
      st.push_back(std::move(l.stride));
    }
    return Leaves{IntTuple::Tuple(std::move(sh)),
                  IntTuple::Tuple(std::move(st))};
  }
  const Int s = shape.integer();
  const Int d = stride.integer();
  if (d.value == 0) return Leaves{shape, stride};
  if (d.value == INT64_MIN) return absl::OutOfRangeError("stride -2^63");
  const Int abs_d = Abs(d);
  if (abs_d.value % n.value != 0 && n.value % abs_d.value != 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "stride ", d.value, " and ", n.value,
        " do not divide each other (CuTe: Divisibility condition)"));
  }
  if (!d.is_static && abs_d.value % n.value == 0) {
    // CuTe's dynamic branch: the shape is kept, the stride divided.
    return Leaves{shape, IntTuple(Div(d, n))};
  }
  const Int new_shape = CeilDiv(s, CeilDiv(n, abs_d));
  const Int new_stride = Mul(Signum(d), CeilDiv(abs_d, n));
  return Leaves{IntTuple(new_shape), IntTuple(new_stride)};
}

bool HasStrideOne(const IntTuple& stride) {
  for (int64_t d : Flatten(stride)) {
    if (d == 1) return true;
  }
  return false;
}

absl::StatusOr<Leaves> DowncastLeaves(const IntTuple& shape,
                                      const IntTuple& stride, Int n) {
  if (shape.is_tuple()) {
    std::vector<IntTuple> sh, st;
    for (int i = 0; i < Rank(shape); ++i) {
      HLOLAYOUT_ASSIGN_OR_RETURN(Leaves l,
                                 DowncastLeaves(shape[i], stride[i], n));
      sh.push_back(std::move(l.shape));
      st.push_back(std::move(l.stride));
    }
    return Leaves{IntTuple::Tuple(std::move(sh)),
                  IntTuple::Tuple(std::move(st))};
  }
  const Int d = stride.integer();
  Int r;
  if (d.value == 1 || d.value == -1) {
    if (!TryMul(shape.integer(), n, &r)) {
      return absl::OutOfRangeError("the size overflows int64");
    }
    return Leaves{IntTuple(r), stride};
  }
  if (!TryMul(d, n, &r)) {
    return absl::OutOfRangeError("a stride overflows int64");
  }
  return Leaves{shape, IntTuple(r)};
}

}  // namespace

absl::StatusOr<Layout> Upcast(const Layout& layout, int64_t n) {
  auto fail = [&](absl::string_view what) {
    return absl::InvalidArgumentError(absl::StrCat(
        "upcast<", n, "> of ", ToString(layout), " fails: ", what));
  };
  if (n < 1) return fail("N must be positive");
  absl::StatusOr<Leaves> l =
      UpcastLeaves(layout.shape(), layout.stride(), Int::Static(n));
  if (!l.ok()) return fail(l.status().message());
  return Layout::Create(std::move(l->shape), std::move(l->stride));
}

absl::StatusOr<Layout> Downcast(const Layout& layout, int64_t n) {
  auto fail = [&](absl::string_view what) {
    return absl::InvalidArgumentError(absl::StrCat(
        "downcast<", n, "> of ", ToString(layout), " fails: ", what));
  };
  if (n < 1) return fail("N must be positive");
  if (!HasStrideOne(layout.stride())) {
    return fail(
        "no mode has stride 1 (CuTe: Downcast requires adjacent "
        "elements)");
  }
  absl::StatusOr<Leaves> l =
      DowncastLeaves(layout.shape(), layout.stride(), Int::Static(n));
  if (!l.ok()) return fail(l.status().message());
  absl::StatusOr<Layout> r =
      Layout::Create(std::move(l->shape), std::move(l->stride));
  if (!r.ok()) return fail(r.status().message());
  return r;
}

absl::StatusOr<RecastRatio> Ratio(int64_t old_bits, int64_t new_bits) {
  if (old_bits <= 0 || new_bits <= 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("recast_layout: element widths must be positive, found ",
                     old_bits, " and ", new_bits, " bits"));
  }
  const int64_t g = std::gcd(old_bits, new_bits);
  return RecastRatio{new_bits / g, old_bits / g};
}

namespace internal {
namespace {

// The DSL's quotients: a `?` by a static 1 is itself, by anything else a
// `?` of divisibility 1.
Int DslQuotient(Int a, Int b, bool ceil) {
  if (!IsKnown(a) && IsStaticOne(b)) return a;
  const Int q = ceil ? CeilDiv(a, b) : Div(a, b);
  return q.unknown ? Int::Unknown(q.value, 1, q.wide) : q;
}

absl::StatusOr<Leaves> DslLeaves(const IntTuple& shape, const IntTuple& stride,
                                 Int n, bool up) {
  if (shape.is_tuple()) {
    std::vector<IntTuple> sh, st;
    for (int i = 0; i < Rank(shape); ++i) {
      HLOLAYOUT_ASSIGN_OR_RETURN(Leaves l,
                                 DslLeaves(shape[i], stride[i], n, up));
      sh.push_back(std::move(l.shape));
      st.push_back(std::move(l.stride));
    }
    return Leaves{IntTuple::Tuple(std::move(sh)),
                  IntTuple::Tuple(std::move(st))};
  }
  const Int s = shape.integer();
  const Int d = stride.integer();
  Int r;
  if (!up) {
    const bool unit = IsConstant(d, 1) || IsConstant(d, -1);
    if (!TryMul(unit ? s : d, n, &r)) {
      return absl::OutOfRangeError(
          "downcast: a size or stride overflows int64");
    }
    return unit ? Leaves{IntTuple(r), stride} : Leaves{shape, IntTuple(r)};
  }
  if (IsConstant(d, 0)) return Leaves{shape, stride};
  if (!IsKnown(d)) return Leaves{shape, IntTuple(DslQuotient(d, n, false))};
  if (d.value == INT64_MIN) return absl::OutOfRangeError("stride -2^63");
  const Int abs_d = Abs(d);
  return Leaves{IntTuple(DslQuotient(s, CeilDiv(n, abs_d), true)),
                IntTuple(Mul(Signum(d), CeilDiv(abs_d, n)))};
}

absl::StatusOr<Layout> DslCast(const Layout& layout, int64_t n, bool up) {
  if (n < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat(up ? "upcast" : "downcast", ": N must be positive"));
  }
  HLOLAYOUT_ASSIGN_OR_RETURN(
      Leaves l, DslLeaves(layout.shape(), layout.stride(), Int::Static(n), up));
  return Layout::Create(std::move(l.shape), std::move(l.stride));
}

}  // namespace

absl::StatusOr<Layout> DslUpcast(const Layout& layout, int64_t n) {
  return DslCast(layout, n, /*up=*/true);
}

absl::StatusOr<Layout> DslDowncast(const Layout& layout, int64_t n) {
  return DslCast(layout, n, /*up=*/false);
}

absl::StatusOr<Layout> DslRecastLayout(const Layout& layout, int64_t old_bits,
                                       int64_t new_bits) {
  return RecastBy(layout, old_bits, new_bits, DslUpcast, DslDowncast);
}

}  // namespace internal

absl::StatusOr<Layout> RecastLayout(const Layout& layout, int64_t old_bits,
                                    int64_t new_bits) {
  return RecastBy(
      layout, old_bits, new_bits,
      [](const Layout& l, int64_t n) { return Upcast(l, n); },
      [](const Layout& l, int64_t n) { return Downcast(l, n); });
}

}  // namespace hlolayout::cute
