#include "hlolayout/triton/layout_verifier.h"

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "hlolayout/triton/layout_utils.h"

namespace hlolayout::triton {
namespace {

absl::Status Err(absl::string_view message) {
  return absl::InvalidArgumentError(message);
}

bool IsPow2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

absl::Status CheckPow2(absl::string_view what,
                       const std::vector<int32_t>& values) {
  for (int32_t x : values) {
    if (!IsPow2(x)) {
      return Err(
          absl::StrCat("Every element in ", what, " must be a power of two."));
    }
  }
  return absl::OkStatus();
}

absl::Status CheckOrder(const std::vector<int32_t>& order) {
  std::vector<bool> seen(order.size(), false);
  for (int32_t o : order) {
    if (o < 0 || o >= static_cast<int32_t>(order.size()) || seen[o]) {
      return Err(
          absl::StrCat("order must be a permutation of 0..(rank-1), but was [",
                       absl::StrJoin(order, ", "), "]"));
    }
    seen[o] = true;
  }
  return absl::OkStatus();
}

// Triton's CGAEncodingAttr::verify (the rank is checked by the caller).
absl::Status CheckCga(const CgaBases& cga, int rank) {
  if (cga.empty()) return absl::OkStatus();
  for (const auto& b : cga) {
    if (static_cast<int>(b.size()) != rank) {
      return Err(
          absl::StrCat("'CGALayout' entry length does not match rank ", rank));
    }
  }
  absl::StatusOr<LinearLayout> l =
      LinearLayout::CreateInferred({{"block", cga}}, StandardOutDimNames(rank));
  if (!l.ok()) return l.status();
  if (!IsPermutationMatrixLayout(*l)) {
    return Err(
        "After removing broadcast bases the CGA encoding must be a "
        "permutation matrix");
  }
  return absl::OkStatus();
}

int Rank(const Layout& l) { return LayoutRank(l); }

}  // namespace

bool IsPermutationMatrixLayout(const LinearLayout& l) {
  std::vector<int> shift(l.num_out_dims());
  int total = 0;
  for (int o = 0; o < l.num_out_dims(); ++o) {
    shift[o] = total;
    total += l.OutDimSizeLog2(o);
  }
  uint64_t seen = 0;
  int count = 0;
  for (int d = 0; d < l.num_in_dims(); ++d) {
    for (int i = 0; i < l.InDimSizeLog2(d); ++i) {
      uint64_t flat = 0;
      for (int o = 0; o < l.num_out_dims(); ++o) {
        flat |=
            static_cast<uint64_t>(static_cast<uint32_t>(l.BasisValue(d, i, o)))
            << shift[o];
      }
      if (flat == 0) continue;  // a broadcast basis
      if ((flat & (flat - 1)) != 0 || (seen & flat) != 0) return false;
      seen |= flat;
      ++count;
    }
  }
  return count == total;
}

absl::Status VerifyLayout(const Layout& layout) {
  if (const auto* b = layout.get<BlockedLayout>()) {
    const size_t rank = b->order.size();
    if (b->size_per_thread.size() != rank ||
        b->threads_per_warp.size() != rank || b->warps_per_cta.size() != rank) {
      return Err(
          "sizePerThread, threadsPerWarp, warpsPerCTA, and order must all "
          "have the same rank.");
    }
    if (absl::Status s = CheckPow2("sizePerThread", b->size_per_thread);
        !s.ok()) {
      return s;
    }
    if (absl::Status s = CheckPow2("threadsPerWarp", b->threads_per_warp);
        !s.ok()) {
      return s;
    }
    if (absl::Status s = CheckPow2("warpsPerCTA", b->warps_per_cta); !s.ok()) {
      return s;
    }
    if (absl::Status s = CheckCga(b->cga, static_cast<int>(rank)); !s.ok()) {
      return s;
    }
    return CheckOrder(b->order);
  }
  if (const auto* m = layout.get<NvidiaMmaLayout>()) {
    return CheckCga(m->cga, static_cast<int>(m->warps_per_cta.size()));
  }
  if (const auto* s = layout.get<SwizzledSharedLayout>()) {
    if (absl::Status st = CheckCga(s->cga, static_cast<int>(s->order.size()));
        !st.ok()) {
      return st;
    }
    return CheckOrder(s->order);
  }
  if (const auto* n = layout.get<NvmmaSharedLayout>()) {
    if (n->swizzle_bytes != 0 && n->swizzle_bytes != 32 &&
        n->swizzle_bytes != 64 && n->swizzle_bytes != 128) {
      return Err("swizzlingByteWidth must be 0, 32, 64, or 128");
    }
    if (!n->cga.empty()) {
      return CheckCga(n->cga, static_cast<int>(n->cga[0].size()));
    }
    return absl::OkStatus();
  }
  if (const auto* e = layout.get<LinearEncoding>()) {
    if (!IsPermutationMatrixLayout(e->layout)) {
      return Err(
          "LinearEncodingAttr requires a permutation matrix layout after "
          "removing broadcast bases");
    }
    return absl::OkStatus();
  }
  if (const auto* s = layout.get<SharedLinearEncoding>()) {
    // Surjectivity was checked when the bases were read; without its zero
    // bases the layout must also be injective, so exactly as many non-zero
    // bases as output bits.
    const LinearLayout& l = s->layout;
    int non_zero = 0;
    for (int d = 0; d < l.num_in_dims(); ++d) {
      for (int i = 0; i < l.InDimSizeLog2(d); ++i) {
        for (int o = 0; o < l.num_out_dims(); ++o) {
          if (l.BasisValue(d, i, o) != 0) {
            ++non_zero;
            break;
          }
        }
      }
    }
    if (non_zero != l.TotalOutDimSizeLog2()) {
      return Err("After removing the zero bases the layout must be bijective");
    }
    return absl::OkStatus();
  }
  if (const auto* s = layout.get<SliceLayout>()) {
    if (s->parent == nullptr) return Err("slice layout without a parent");
    if (absl::Status st = VerifyLayout(*s->parent); !st.ok()) return st;
    const int rank = Rank(*s->parent);
    if (rank <= 1) return Err("parent layout must have at least rank >= 2");
    if (s->dim < 0 || s->dim >= rank) {
      return Err(absl::StrCat("slice dim=", s->dim,
                              " must be less than the parent rank=", rank));
    }
    return absl::OkStatus();
  }
  if (const auto* d = layout.get<DotOperandLayout>()) {
    if (d->op_idx != 0 && d->op_idx != 1) {
      return Err(absl::StrCat("ttg.dot_op opIdx parameter can be 0 or 1, got: ",
                              d->op_idx));
    }
    if (d->parent == nullptr) {
      return Err("ttg.dot_op parent parameter cannot be null");
    }
    if (absl::Status st = VerifyLayout(*d->parent); !st.ok()) return st;
    if (const auto* mma = d->parent->get<NvidiaMmaLayout>()) {
      const bool ampere = mma->version_major == 2;
      const bool hopper = mma->version_major == 3;
      if (d->k_width != 0 && !(ampere || hopper)) {
        return Err(
            "ttg.dot_op kWidth parameter can only be non-zero for Ampere or "
            "Hopper MMA parent");
      }
      if (d->k_width == 0 && (ampere || hopper)) {
        return Err(
            "ttg.dot_op kWidth parameter is mandatory for Ampere or Hopper "
            "MMA parent");
      }
      if (d->op_idx != 0 && hopper) {
        return Err(
            "ttg.dot_op opIdx parameter must be 0 for Hopper MMA parent, "
            "since Hopper WGMMA only allows first operand to be in "
            "registers");
      }
      return absl::OkStatus();
    }
    if (d->parent->get<BlockedLayout>() != nullptr) {
      if (d->k_width != 0) {
        return Err(
            "ttg.dot_op kWidth parameter is not supported when the parent is "
            "a blocked layout");
      }
      return absl::OkStatus();
    }
    return Err(absl::StrCat("ttg.dot_op unexpected parent layout: #ttg.",
                            d->parent->kind_name()));
  }
  return absl::OkStatus();
}

}  // namespace hlolayout::triton
