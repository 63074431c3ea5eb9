#include "hlolayout/answers/cute_bridge.h"

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "hlolayout/cute/coalesce.h"
#include "hlolayout/cute/int_tuple.h"
#include "hlolayout/cute/print.h"
#include "hlolayout/triton/ops.h"
#include "hlolayout/util/status_macros.h"

namespace hlolayout::triton {
namespace {

absl::Status Err(absl::string_view m) { return absl::InvalidArgumentError(m); }

bool IsPow2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

int Log2(int64_t v) { return 63 - __builtin_clzll(static_cast<uint64_t>(v)); }

void Leaves(const cute::IntTuple& t, std::vector<int64_t>& out) {
  if (t.is_int()) {
    out.push_back(t.value());
    return;
  }
  for (const cute::IntTuple& e : t.elements()) Leaves(e, out);
}

// Checks that the weights share no bits and returns their union.
absl::StatusOr<uint64_t> DisjointUnion(const std::vector<int64_t>& weights) {
  uint64_t seen = 0;
  int64_t first_owner[64] = {};
  for (int64_t w : weights) {
    if (w == 0) continue;
    const uint64_t u = static_cast<uint64_t>(w);
    if (seen & u) {
      const int bit = __builtin_ctzll(seen & u);
      return Err(absl::StrCat("not linear over F2: the weights ",
                              first_owner[bit], " and ", w,
                              " share bits, so the integer sum is not an XOR"));
    }
    for (uint64_t b = u; b; b &= b - 1) first_owner[__builtin_ctzll(b)] = w;
    seen |= u;
  }
  return seen;
}

}  // namespace

absl::StatusOr<LinearLayout> CuteToLinear(const cute::Layout& layout,
                                          absl::Span<const std::string> in_dims,
                                          absl::string_view out_dim) {
  const cute::IntTuple& shape = layout.shape();
  const cute::IntTuple& stride = layout.stride();
  std::vector<std::pair<cute::IntTuple, cute::IntTuple>> modes;
  if (shape.is_int()) {
    modes.emplace_back(shape, stride);
  } else {
    for (size_t i = 0; i < shape.elements().size(); ++i) {
      modes.emplace_back(shape.elements()[i], stride.elements()[i]);
    }
  }
  std::vector<std::string> names(in_dims.begin(), in_dims.end());
  if (names.size() == 1 && modes.size() > 1) {
    // One in-dim: the colexicographic index over every mode.
    modes = {{shape, stride}};
  }
  if (names.empty()) {
    if (modes.size() == 1) {
      names.push_back("index");
    } else {
      for (size_t i = 0; i < modes.size(); ++i) {
        names.push_back(absl::StrCat("mode", i));
      }
    }
  }
  if (names.size() != modes.size()) {
    return Err(absl::StrCat("the layout has ", modes.size(), " modes but ",
                            names.size(), " in-dim names"));
  }
  NamedBases bases;
  std::vector<int64_t> weights;
  for (size_t m = 0; m < modes.size(); ++m) {
    std::vector<int64_t> sizes, strides;
    Leaves(modes[m].first, sizes);
    Leaves(modes[m].second, strides);
    DimBases db;
    for (size_t k = 0; k < sizes.size(); ++k) {
      if (!IsPow2(sizes[k])) {
        return Err(absl::StrCat("a mode of size ", sizes[k],
                                " is not a power of two"));
      }
      if (strides[k] < 0) {
        return Err(absl::StrCat("stride ", strides[k],
                                " is negative (an XOR map cannot go down)"));
      }
      for (int j = 0; j < Log2(sizes[k]); ++j) {
        const int64_t w = strides[k] << j;
        if (w >= (int64_t{1} << 30)) {
          return Err("offsets reach 2^30 (LinearLayout values are int32)");
        }
        weights.push_back(w);
        db.push_back({static_cast<int32_t>(w)});
      }
    }
    bases.emplace_back(names[m], std::move(db));
  }
  HLOLAYOUT_ASSIGN_OR_RETURN(uint64_t all, DisjointUnion(weights));
  int32_t size = 1;
  while (static_cast<uint64_t>(size) <= all) size *= 2;
  return LinearLayout::Create(std::move(bases), {{std::string(out_dim), size}},
                              /*require_surjective=*/false);
}

absl::StatusOr<cute::Layout> LinearToCute(const LinearLayout& layout) {
  LinearLayout flat = layout;
  if (layout.num_out_dims() > 1) {
    HLOLAYOUT_ASSIGN_OR_RETURN(flat, FlattenOuts(layout));
  }
  std::vector<int64_t> weights(flat.flat_bases().begin(),
                               flat.flat_bases().end());
  if (flat.num_out_dims() == 0) weights.assign(flat.TotalInDimSizeLog2(), 0);
  HLOLAYOUT_RETURN_IF_ERROR(DisjointUnion(weights).status());
  std::vector<cute::IntTuple> shapes, strides;
  size_t k = 0;
  for (int d = 0; d < flat.num_in_dims(); ++d) {
    std::vector<cute::IntTuple> s, t;
    for (int i = 0; i < flat.InDimSizeLog2(d); ++i, ++k) {
      s.push_back(2);
      t.push_back(weights[k]);
    }
    if (s.empty()) {
      s.push_back(1);
      t.push_back(0);
    }
    HLOLAYOUT_ASSIGN_OR_RETURN(cute::Layout mode,
                               cute::Layout::Create(cute::IntTuple::Tuple(s),
                                                    cute::IntTuple::Tuple(t)));
    const cute::Layout c = cute::Coalesce(mode);
    shapes.push_back(c.shape());
    strides.push_back(c.stride());
  }
  if (shapes.size() == 1) return cute::Layout::Create(shapes[0], strides[0]);
  return cute::Layout::Create(cute::IntTuple::Tuple(shapes),
                              cute::IntTuple::Tuple(strides));
}

int64_t ApplyCuteSwizzle(CuteSwizzle sw, int64_t x) {
  const int64_t mask = ((int64_t{1} << sw.b) - 1) << (sw.m + sw.s);
  return x ^ ((x & mask) >> sw.s);
}

absl::StatusOr<std::string> SwizzledSharedAsCute(
    const SwizzledSharedLayout& s, absl::Span<const int64_t> shape) {
  if (shape.size() != 2 || s.order.size() != 2) {
    return Err("CuTe's swizzle form is for rank-2 swizzled shared layouts");
  }
  if (!s.cga.empty())
    return Err("a layout split across CTAs has no CuTe swizzle form");
  if (!IsPow2(s.vec) || !IsPow2(s.per_phase) || !IsPow2(s.max_phase)) {
    return Err("vec, perPhase and maxPhase must be powers of two");
  }
  if (s.max_phase == 1) {
    return Err("maxPhase 1 does not swizzle: the layout is plain row-major");
  }
  const int col = s.order[0], row = s.order[1];
  const int64_t cols = shape[col], rows = shape[row];
  if (!IsPow2(cols) || !IsPow2(rows))
    return Err("the shape must be powers of two");
  if (int64_t{s.vec} * s.max_phase > cols) {
    return Err(absl::StrCat("vec * maxPhase = ", int64_t{s.vec} * s.max_phase,
                            " exceeds a row of ", cols,
                            " elements: Triton wraps the swizzle, CuTe does "
                            "not"));
  }
  const int b = Log2(s.max_phase), m = Log2(s.vec);
  const int sh = Log2(cols) + Log2(s.per_phase) - m;
  const std::string layout =
      col == 1 ? absl::StrCat("(", shape[0], ",", shape[1], "):(", cols, ",1)")
               : absl::StrCat("(", shape[0], ",", shape[1], "):(1,", cols, ")");
  return absl::StrCat("Swizzle<", b, ",", m, ",", sh, "> o ", layout);
}

absl::StatusOr<SwizzledSharedLayout> SwizzledSharedFromCute(CuteSwizzle sw,
                                                            int64_t rows,
                                                            int64_t cols) {
  if (sw.b < 1 || sw.m < 0 || sw.s < 0 || sw.b + sw.m + sw.s > 30) {
    return Err("Swizzle<B,M,S> needs B >= 1, M >= 0, S >= 0 and B+M+S <= 30");
  }
  if (!IsPow2(rows) || !IsPow2(cols))
    return Err("the tile must be powers of two");
  const int64_t pp = (int64_t{1} << (sw.s + sw.m)) / cols;
  if (pp < 1 || (int64_t{1} << (sw.s + sw.m)) % cols != 0) {
    return Err(absl::StrCat("Swizzle<", sw.b, ",", sw.m, ",", sw.s,
                            "> takes its phase from inside a row of ", cols,
                            " elements: no Triton perPhase matches"));
  }
  if ((int64_t{1} << (sw.m + sw.b)) > cols) {
    return Err(absl::StrCat("Swizzle<", sw.b, ",", sw.m, ",", sw.s,
                            "> moves elements across rows of ", cols));
  }
  SwizzledSharedLayout s;
  s.vec = 1 << sw.m;
  s.max_phase = 1 << sw.b;
  s.per_phase = static_cast<int32_t>(pp);
  s.order = {1, 0};
  return s;
}

}  // namespace hlolayout::triton
