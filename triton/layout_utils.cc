#include "hlolayout/triton/layout_utils.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "hlolayout/triton/ops.h"
#include "hlolayout/util/status_macros.h"

namespace hlolayout::triton {
namespace {

absl::StatusOr<int64_t> SizeOf(const NamedInts& shape, absl::string_view name) {
  for (const auto& [n, s] : shape) {
    if (n == name) return s;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("no size given for out-dim '", name, "'"));
}

}  // namespace

absl::Status CheckOrder(absl::Span<const int32_t> order) {
  std::vector<bool> seen(order.size(), false);
  for (int32_t o : order) {
    if (o < 0 || o >= static_cast<int32_t>(order.size()) || seen[o]) {
      return absl::InvalidArgumentError(
          absl::StrCat("order must be a permutation of 0..(rank-1), but was [",
                       absl::StrJoin(order, ", "), "]"));
    }
    seen[o] = true;
  }
  return absl::OkStatus();
}

std::vector<std::string> StandardOutDimNames(int rank) {
  std::vector<std::string> names;
  for (int i = 0; i < rank; ++i) names.push_back(absl::StrCat("dim", i));
  return names;
}

absl::StatusOr<LinearLayout> IdentityStandardND(
    absl::string_view in_dim, absl::Span<const int32_t> shape,
    absl::Span<const int32_t> order) {
  if (shape.size() != order.size()) {
    return absl::InvalidArgumentError(
        "shape and order must have the same rank");
  }
  LinearLayout ret;
  for (int32_t dim : order) {
    if (dim < 0 || dim >= static_cast<int32_t>(shape.size())) {
      return absl::InvalidArgumentError(
          absl::StrCat("order entry ", dim, " is out of range"));
    }
    HLOLAYOUT_ASSIGN_OR_RETURN(
        LinearLayout id,
        LinearLayout::Identity1D(shape[dim], in_dim, absl::StrCat("dim", dim)));
    HLOLAYOUT_ASSIGN_OR_RETURN(ret, Product(ret, id));
  }
  return ret;
}

absl::StatusOr<LinearLayout> EnsureLayoutNotSmallerThan(
    const LinearLayout& l, const NamedInts& shape) {
  if (shape.empty()) return l;
  if (l.num_in_dims() == 0 ||
      (l.in_dim_name(0) != "register" && l.in_dim_name(0) != "offset")) {
    return absl::InvalidArgumentError(
        "ensureLayoutNotSmallerThan: the first in-dim must be register or "
        "offset");
  }
  const std::string first = l.in_dim_name(0);
  LinearLayout ret = l;
  for (int o = 0; o < l.num_out_dims(); ++o) {
    const int64_t actual = l.OutDimSize(o);
    HLOLAYOUT_ASSIGN_OR_RETURN(int64_t desired,
                               SizeOf(shape, l.out_dim_name(o)));
    if (actual >= desired) continue;
    if (desired % actual != 0 || desired > (int64_t{1} << 30)) {
      return absl::InvalidArgumentError(
          absl::StrCat("bad shape ", desired, " for out-dim '",
                       l.out_dim_name(o), "' of size ", actual));
    }
    HLOLAYOUT_ASSIGN_OR_RETURN(
        LinearLayout id,
        LinearLayout::Identity1D(static_cast<int32_t>(desired / actual), first,
                                 l.out_dim_name(o)));
    HLOLAYOUT_ASSIGN_OR_RETURN(ret, Product(ret, id));
  }
  return ret;
}

absl::StatusOr<LinearLayout> EnsureLayoutNotLargerThan(
    const LinearLayout& l, const NamedInts& shape, bool broadcast_registers) {
  if (shape.empty()) return l;
  const int num_out = l.num_out_dims();
  std::vector<int32_t> flat(l.flat_bases().begin(), l.flat_bases().end());
  const int reg = l.InDimIndex("register");
  std::vector<bool> dropped(reg >= 0 ? l.InDimSizeLog2(reg) : 0, false);
  std::vector<std::tuple<int32_t, int, int>> sorted;  // (value, in-dim, i)
  for (int o = 0; o < num_out; ++o) {
    int64_t actual = l.OutDimSize(o);
    HLOLAYOUT_ASSIGN_OR_RETURN(int64_t desired,
                               SizeOf(shape, l.out_dim_name(o)));
    if (actual <= desired) continue;
    sorted.clear();
    for (int d = 0; d < l.num_in_dims(); ++d) {
      for (int i = 0; i < l.InDimSizeLog2(d); ++i) {
        const int32_t v =
            flat[static_cast<size_t>(l.InDimOffset(d) + i) * num_out + o];
        if (v == 0) continue;
        if ((v & (v - 1)) != 0) {
          return absl::InvalidArgumentError(
              absl::StrCat("ensureLayoutNotLargerThan: basis value ", v,
                           " of in-dim '", l.in_dim_name(d),
                           "' is not a power of two (Triton asserts "
                           "isPowerOf2_32(outValue))"));
        }
        sorted.emplace_back(v, d, i);
      }
    }
    // Largest first. Every basis of one value goes at once: copies of an
    // output bit (a swizzle can repeat one) shrink the dim only together.
    std::stable_sort(sorted.begin(), sorted.end(), [](auto& a, auto& b) {
      return std::get<0>(a) > std::get<0>(b);
    });
    for (size_t k = 0; k < sorted.size() && actual > desired;) {
      const int32_t value = std::get<0>(sorted[k]);
      for (; k < sorted.size() && std::get<0>(sorted[k]) == value; ++k) {
        const auto& [v, d, i] = sorted[k];
        if (!broadcast_registers && d == reg) {
          dropped[i] = true;
        } else {
          flat[static_cast<size_t>(l.InDimOffset(d) + i) * num_out + o] = 0;
        }
      }
      actual >>= 1;
    }
  }
  std::vector<int> log2(l.in_dim_log2().begin(), l.in_dim_log2().end());
  if (!broadcast_registers && reg >= 0) {
    std::vector<int32_t> kept;
    for (int d = 0; d < l.num_in_dims(); ++d) {
      for (int i = 0; i < l.InDimSizeLog2(d); ++i) {
        if (d == reg && dropped[i]) continue;
        const size_t at = static_cast<size_t>(l.InDimOffset(d) + i) * num_out;
        kept.insert(kept.end(), flat.begin() + at, flat.begin() + at + num_out);
      }
    }
    log2[reg] -=
        static_cast<int>(std::count(dropped.begin(), dropped.end(), true));
    flat = std::move(kept);
  }
  // Each out-dim keeps its size, clipped to the shape; the result need not
  // be surjective (Triton 3.6.0 rebuilt it with inferred sizes instead, the
  // same on every layout its conversions build).
  NamedInts outs;
  for (int o = 0; o < num_out; ++o) {
    HLOLAYOUT_ASSIGN_OR_RETURN(int64_t desired,
                               SizeOf(shape, l.out_dim_name(o)));
    outs.emplace_back(l.out_dim_name(o), static_cast<int32_t>(std::min<int64_t>(
                                             l.OutDimSize(o), desired)));
  }
  return LinearLayout::FromFlat(l.in_dim_names(), log2, flat, std::move(outs),
                                /*require_surjective=*/false);
}

absl::StatusOr<LinearLayout> CombineCtaCgaWithShape(
    LinearLayout cta, const LinearLayout& cga,
    absl::Span<const int64_t> shape) {
  const int rank = static_cast<int>(shape.size());
  if (cta.num_out_dims() != rank || cga.num_out_dims() != rank) {
    return absl::InvalidArgumentError(absl::StrCat(
        "layout rank ", cta.num_out_dims(), " (CGA rank ", cga.num_out_dims(),
        ") does not match the shape's rank ", rank));
  }
  const std::vector<std::string> names = StandardOutDimNames(rank);
  NamedInts labeled;
  for (int i = 0; i < rank; ++i) {
    if (shape[i] > (int64_t{1} << 30)) {
      return absl::InvalidArgumentError(
          absl::StrCat("shape entry ", shape[i], " is too large"));
    }
    labeled.emplace_back(names[i], static_cast<int32_t>(shape[i]));
  }
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout clipped,
                             EnsureLayoutNotLargerThan(cga, labeled));
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout cga_l,
                             TransposeOuts(clipped, cta.OutDimNames()));
  NamedInts cta_shape;
  for (int o = 0; o < cta.num_out_dims(); ++o) {
    HLOLAYOUT_ASSIGN_OR_RETURN(int64_t size,
                               SizeOf(labeled, cta.out_dim_name(o)));
    cta_shape.emplace_back(
        cta.out_dim_name(o),
        static_cast<int32_t>(std::max<int64_t>(1, size / cga_l.OutDimSize(o))));
  }
  HLOLAYOUT_ASSIGN_OR_RETURN(cta, EnsureLayoutNotSmallerThan(cta, cta_shape));
  HLOLAYOUT_ASSIGN_OR_RETURN(cta, EnsureLayoutNotLargerThan(cta, cta_shape));
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout product, Product(cta, cga_l));
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout ret, TransposeOuts(product, names));
  for (int o = 0; o < rank; ++o) {
    if (ret.OutDimSize(o) != shape[o]) {
      return absl::InvalidArgumentError(
          absl::StrCat("the layout covers ", ret.OutDimSize(o),
                       " elements of dim", o, ", not the shape's ", shape[o]));
    }
  }
  return ret;
}

}  // namespace hlolayout::triton
