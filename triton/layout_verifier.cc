#include "hlolayout/triton/layout_verifier.h"

#include <algorithm>
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

absl::Status VerifyMfma(const AmdMfmaLayout& m) {
  if (m.version < 0 || m.version > 4) {
    return Err("version must be in the [0, 4] range");
  }
  const int32_t m_dim = m.instr_shape.size() > 0 ? m.instr_shape[0] : 0;
  const int32_t n_dim = m.instr_shape.size() > 1 ? m.instr_shape[1] : 0;
  if (!((m_dim == 32 && n_dim == 32) || (m_dim == 16 && n_dim == 16) ||
        (m_dim == 64 && n_dim == 4) || (m_dim == 4 && n_dim == 64))) {
    return Err(absl::StrCat("invalid (mDim, nDim) combination: (", m_dim, ", ",
                            n_dim, ")"));
  }
  if (m.element_bits != 32 && m.element_bits != 64) {
    return Err("elementBitWidth must be 32 or 64");
  }
  return CheckCga(m.cga, static_cast<int>(m.warps_per_cta.size()));
}

absl::Status VerifyWmma(const AmdWmmaLayout& w) {
  if (w.version < 1 || w.version > 3) {
    return Err("WMMA version must be in the [1, 3] range");
  }
  using S = std::vector<int32_t>;
  // Triton 3.6 (the warpsPerCTA spelling) has no 32x16 instructions.
  const std::vector<S> valid =
      w.version == 1   ? std::vector<S>{{16, 16, 16}}
      : w.version == 2 ? std::vector<S>{{16, 16, 16}, {16, 16, 32}}
      : w.legacy_warps
          ? std::vector<S>{{16, 16, 4},
                           {16, 16, 32},
                           {16, 16, 64},
                           {16, 16, 128}}
          : std::vector<S>{{16, 16, 4},   {16, 16, 32}, {16, 16, 64},
                           {16, 16, 128}, {32, 16, 64}, {32, 16, 128}};
  if (std::find(valid.begin(), valid.end(), w.instr_shape) == valid.end()) {
    return Err(absl::StrCat("invalid WMMA v", w.version, " instruction shape"));
  }
  return CheckCga(w.cga, LayoutRank(Layout(w)));
}

// A basis moving in at most one dim.
bool OneHot(absl::Span<const int32_t> basis) {
  int non_zero = 0;
  for (int32_t v : basis) non_zero += v != 0;
  return non_zero <= 1;
}

absl::Status VerifyGenericLinear(const LinearLayout& l) {
  for (const char* dim : {"register", "lane", "block"}) {
    const int d = l.InDimIndex(dim);
    if (d < 0) continue;
    for (int i = 0; i < l.InDimSizeLog2(d); ++i) {
      if (!OneHot(l.Basis(d, i))) {
        return Err(absl::StrCat(
            "In a generic linear layout, register, lane, and block bases must "
            "move in at most one dimension. Swizzled bases found in '",
            dim, "'."));
      }
    }
  }
  if (!l.IsSurjective()) {
    return Err(
        "Generic linear layout must be surjective, i.e. all output values "
        "must be covered by some input.");
  }
  return absl::OkStatus();
}

absl::Status VerifyPadded(const PaddedSharedLayout& p) {
  if (p.intervals.empty()) {
    return Err("must have at least one interval-padding pair");
  }
  std::vector<int32_t> seen;
  for (const auto& [interval, padding] : p.intervals) {
    if (!IsPow2(interval)) {
      return Err("interval values must all be power of two");
    }
  }
  for (const auto& [interval, padding] : p.intervals) {
    if (!IsPow2(padding)) return Err("padding values must all be power of two");
  }
  for (const auto& [interval, padding] : p.intervals) {
    if (std::find(seen.begin(), seen.end(), interval) != seen.end()) {
      return Err("interval values cannot have duplicates");
    }
    seen.push_back(interval);
  }
  const LinearLayout& l = p.linear;
  if (l.num_in_dims() == 0) return Err("linearComponent cannot be empty");
  if (l.num_in_dims() != 2 || l.in_dim_name(0) != "offset" ||
      l.in_dim_name(1) != "block") {
    return Err("linearComponent must have [offset, block] as input dims");
  }
  // The offsets alone: no broadcast, no repeated basis.
  absl::StatusOr<LinearLayout> offsets =
      LinearLayout::Create({l.bases()[0]}, l.out_dims(), false);
  if (!offsets.ok()) return offsets.status();
  if (!offsets->IsInjective()) {
    return Err("Broadcasting in offset dimension is not supported.");
  }
  for (int d = 0; d < l.num_in_dims(); ++d) {
    for (int i = 0; i < l.InDimSizeLog2(d); ++i) {
      if (!OneHot(l.Basis(d, i))) {
        return Err("Each offset basis must move in at most one dimension.");
      }
    }
    for (int i = 0; i < l.InDimSizeLog2(d); ++i) {
      for (int32_t v : l.Basis(d, i)) {
        if (v != 0 && !IsPow2(v)) {
          return Err("Each offset basis must be 0 or a power of two.");
        }
      }
    }
  }
  return absl::OkStatus();
}

// Triton 3.6's CTASplitM / CTASplitN of the tensor memory encodings.
absl::Status CheckLegacySplit(int32_t split_m, int32_t split_n) {
  if (!IsPow2(split_m) || !IsPow2(split_n)) {
    return Err(
        "CTASplitM and CTASplitN must be greater than 0 and a power of 2");
  }
  return absl::OkStatus();
}

absl::Status VerifyTensorMemory(const TensorMemoryLayout& t) {
  if (t.legacy_split) {
    if (absl::Status s = CheckLegacySplit(t.cta_split_m, t.cta_split_n);
        !s.ok()) {
      return s;
    }
  } else {
    if (absl::Status s = CheckCga(t.cga, 2); !s.ok()) return s;
    if (t.two_ctas &&
        (t.cga.empty() || t.cga[0] != std::vector<int32_t>{1, 0})) {
      return Err(
          "twoCTAs layout requires the first CGALayout block basis to be "
          "[1, 0]");
    }
  }
  if (t.block_m != 64 && t.block_m != 128) {
    return Err(absl::StrCat("blockM must be 64 or 128 but got ", t.block_m));
  }
  if (!IsPow2(t.block_n)) {
    return Err(absl::StrCat("blockN must be a power of 2 but got ", t.block_n));
  }
  if (t.block_n > 512) {
    return Err(absl::StrCat("blockN must be less than or equal to 512 but got ",
                            t.block_n));
  }
  if (t.col_stride != 1 && t.col_stride != 2 && t.col_stride != 4) {
    // Triton's message says "but got" twice.
    return Err(absl::StrCat("colStride must be 1, 2, or 4 but got but got ",
                            t.col_stride));
  }
  if (t.fp4_padded && t.col_stride != 1) {
    return Err(absl::StrCat(
        "fp4Padded tensor memory layout requires colStride 1 but got ",
        t.col_stride));
  }
  return absl::OkStatus();
}

absl::Status VerifyBlocked(const BlockedLayout& b) {
  const size_t rank = b.order.size();
  if (b.size_per_thread.size() != rank || b.threads_per_warp.size() != rank ||
      b.warps_per_cta.size() != rank) {
    return Err(
        "sizePerThread, threadsPerWarp, warpsPerCTA, and order must all "
        "have the same rank.");
  }
  if (absl::Status s = CheckPow2("sizePerThread", b.size_per_thread); !s.ok()) {
    return s;
  }
  if (absl::Status s = CheckPow2("threadsPerWarp", b.threads_per_warp);
      !s.ok()) {
    return s;
  }
  if (absl::Status s = CheckPow2("warpsPerCTA", b.warps_per_cta); !s.ok()) {
    return s;
  }
  if (absl::Status s = CheckCga(b.cga, static_cast<int>(rank)); !s.ok()) {
    return s;
  }
  return CheckOrder(b.order);
}

absl::Status VerifyNvmma(const NvmmaSharedLayout& n) {
  if (n.swizzle_bytes != 0 && n.swizzle_bytes != 32 && n.swizzle_bytes != 64 &&
      n.swizzle_bytes != 128) {
    return Err("swizzlingByteWidth must be 0, 32, 64, or 128");
  }
  if (!n.cga.empty()) {
    return CheckCga(n.cga, static_cast<int>(n.cga[0].size()));
  }
  return absl::OkStatus();
}

// Surjectivity was checked when the bases were read; without its zero
// bases the layout must also be injective, so exactly as many non-zero
// bases as output bits.
absl::Status VerifySharedLinear(const LinearLayout& l) {
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

absl::Status VerifySlice(const SliceLayout& s) {
  if (s.parent == nullptr) return Err("slice layout without a parent");
  if (absl::Status st = VerifyLayout(*s.parent); !st.ok()) return st;
  const int rank = Rank(*s.parent);
  if (rank <= 1) return Err("parent layout must have at least rank >= 2");
  if (s.dim < 0 || s.dim >= rank) {
    return Err(absl::StrCat("slice dim=", s.dim,
                            " must be less than the parent rank=", rank));
  }
  return absl::OkStatus();
}

// kWidth and opIdx of a dot operand whose parent is an NVIDIA MMA layout.
absl::Status VerifyDotOnMma(const DotOperandLayout& d,
                            const NvidiaMmaLayout& mma) {
  const bool ampere = mma.version_major == 2;
  const bool hopper = mma.version_major == 3;
  if (d.k_width != 0 && !(ampere || hopper)) {
    return Err(
        "ttg.dot_op kWidth parameter can only be non-zero for Ampere or "
        "Hopper MMA parent");
  }
  if (d.k_width == 0 && (ampere || hopper)) {
    return Err(
        "ttg.dot_op kWidth parameter is mandatory for Ampere or Hopper "
        "MMA parent");
  }
  if (d.op_idx != 0 && hopper) {
    return Err(
        "ttg.dot_op opIdx parameter must be 0 for Hopper MMA parent, "
        "since Hopper WGMMA only allows first operand to be in "
        "registers");
  }
  return absl::OkStatus();
}

// kWidth of a dot operand whose parent is an AMD WMMA layout.
absl::Status VerifyDotOnWmma(const DotOperandLayout& d,
                             const AmdWmmaLayout& w) {
  if (w.version == 1 && d.k_width != 8 && d.k_width != 16) {
    return Err(
        "ttg.dot_op kWidth parameter must be 8/16 for WMMA v1 (including "
        "packed cases for `scaled_dot`)");
  }
  if (w.version == 2 && d.k_width != 4 && d.k_width != 8 && d.k_width != 16) {
    return Err(
        "ttg.dot_op kWidth parameter must be 4/8/16 for WMMA v2 (including "
        "packed cases for `scaled_dot`)");
  }
  if (w.version == 3 && w.legacy_warps && d.k_width != 2 && d.k_width != 8 &&
      d.k_width != 16) {
    // Triton 3.6 (the warpsPerCTA spelling).
    return Err("ttg.dot_op kWidth parameter must be 2/8/16 for WMMA v3");
  }
  if (w.version == 3 && d.k_width == 0) {
    return Err("ttg.dot_op kWidth parameter is mandatory for WMMA v3 ");
  }
  return absl::OkStatus();
}

absl::Status VerifyDotOperand(const DotOperandLayout& d) {
  if (d.op_idx != 0 && d.op_idx != 1) {
    return Err(absl::StrCat("ttg.dot_op opIdx parameter can be 0 or 1, got: ",
                            d.op_idx));
  }
  if (d.parent == nullptr) {
    return Err("ttg.dot_op parent parameter cannot be null");
  }
  if (absl::Status st = VerifyLayout(*d.parent); !st.ok()) return st;
  if (const auto* mma = d.parent->get<NvidiaMmaLayout>()) {
    return VerifyDotOnMma(d, *mma);
  }
  if (d.parent->get<BlockedLayout>() != nullptr) {
    if (d.k_width != 0) {
      return Err(
          "ttg.dot_op kWidth parameter is not supported when the parent is "
          "a blocked layout");
    }
    return absl::OkStatus();
  }
  if (const auto* w = d.parent->get<AmdWmmaLayout>()) {
    return VerifyDotOnWmma(d, *w);
  }
  if (d.parent->get<AmdMfmaLayout>() != nullptr) {
    if (d.k_width == 0) {
      return Err("ttg.dot_op kWidth parameter is mandatory for MFMA parent");
    }
    return absl::OkStatus();
  }
  return Err(absl::StrCat("ttg.dot_op unexpected parent layout: #ttg.",
                          d.parent->kind_name()));
}

absl::Status VerifyPartitioned(const PartitionedSharedLayout& p) {
  if (p.num_partitions < 2 || !IsPow2(p.num_partitions)) {
    return Err("numPartitions must be a power of 2 and at least 2");
  }
  if (!IsPow2(p.num_groups)) {
    return Err("numGroups must be a power of 2 and greater than 0");
  }
  if (p.partition_layout == nullptr) return Err("missing partitionLayout");
  const int rank = Rank(*p.partition_layout);
  if (p.partition_dim < 0 || p.partition_dim >= rank) {
    return Err(absl::StrCat("partitionDim (", p.partition_dim,
                            ") must be less than the layout rank (", rank,
                            ")"));
  }
  return VerifyLayout(*p.partition_layout);
}

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
  if (const auto* b = layout.get<BlockedLayout>()) return VerifyBlocked(*b);
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
  if (const auto* n = layout.get<NvmmaSharedLayout>()) return VerifyNvmma(*n);
  if (const auto* e = layout.get<LinearEncoding>()) {
    if (!IsPermutationMatrixLayout(e->layout)) {
      return Err(
          "LinearEncodingAttr requires a permutation matrix layout after "
          "removing broadcast bases");
    }
    return absl::OkStatus();
  }
  if (const auto* s = layout.get<SharedLinearEncoding>()) {
    return VerifySharedLinear(s->layout);
  }
  if (const auto* s = layout.get<SliceLayout>()) return VerifySlice(*s);
  if (const auto* d = layout.get<DotOperandLayout>()) {
    return VerifyDotOperand(*d);
  }
  if (const auto* m = layout.get<AmdMfmaLayout>()) return VerifyMfma(*m);
  if (const auto* w = layout.get<AmdWmmaLayout>()) return VerifyWmma(*w);
  if (const auto* g = layout.get<GenericLinearEncoding>()) {
    return VerifyGenericLinear(g->layout);
  }
  if (const auto* r = layout.get<AmdRotatingSharedLayout>()) {
    return CheckCga(r->cga, static_cast<int>(r->order.size()));
  }
  if (const auto* p = layout.get<PaddedSharedLayout>()) return VerifyPadded(*p);
  if (const auto* p = layout.get<PartitionedSharedLayout>()) {
    return VerifyPartitioned(*p);
  }
  if (const auto* t = layout.get<TensorMemoryLayout>()) {
    return VerifyTensorMemory(*t);
  }
  if (const auto* t = layout.get<TensorMemoryScalesLayout>()) {
    if (t->legacy_split)
      return CheckLegacySplit(t->cta_split_m, t->cta_split_n);
    return CheckCga(t->cga, 2);
  }
  return absl::OkStatus();
}

}  // namespace hlolayout::triton
