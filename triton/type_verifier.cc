#include "hlolayout/triton/type_verifier.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "hlolayout/triton/linear_layout.h"
#include "hlolayout/triton/ttgir_printer.h"

namespace hlolayout::triton {
namespace {

absl::Status Err(absl::string_view message) {
  return absl::InvalidArgumentError(message);
}

bool IsPow2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

int64_t BlockSize(const LinearLayout& l) {
  const int block = l.InDimIndex("block");
  return block < 0 ? 1 : l.InDimSize(block);
}

// The in-dim `name`'s size of the layout at `shape`, or an error.
absl::StatusOr<int64_t> InDimSize(const Layout& layout,
                                  const std::vector<int64_t>& shape,
                                  absl::string_view name) {
  absl::StatusOr<LinearLayout> l = ToLinearLayout(layout, shape);
  if (!l.ok()) return l.status();
  const int d = l->InDimIndex(name);
  return d < 0 ? 1 : l->InDimSize(d);
}

absl::Status VerifyCtas(const Layout& layout, const LayoutUse& use) {
  if (const auto* g = layout.get<GenericLinearEncoding>()) {
    // Triton counts the CTAs per dim (basesPerDim): the block bases must be
    // 0 or powers of two.
    const LinearLayout& l = g->layout;
    const int block = l.InDimIndex("block");
    for (int i = 0; block >= 0 && i < l.InDimSizeLog2(block); ++i) {
      for (int32_t v : l.Basis(block, i)) {
        if (v != 0 && !IsPow2(v)) {
          return Err(
              "basesPerDim cannot decompose swizzled bases into per-dimension "
              "counts.");
        }
      }
    }
  }
  const int64_t ctas = NumCtas(layout);
  if (ctas != use.num_ctas) {
    return Err(absl::StrCat(PrintLayout(layout), ".\nLayout has ", ctas,
                            " CTAs per CGA, but the context requires ",
                            use.num_ctas, " CTAs per CGA."));
  }
  return absl::OkStatus();
}

absl::Status VerifyTensor(const Layout& layout, const LayoutUse& use) {
  const int rank = LayoutRank(layout);
  if (rank != 0 && rank != static_cast<int>(use.shape.size())) {
    return Err(absl::StrCat("Layout has rank ", rank,
                            ", but the tensor it's attached to has rank ",
                            use.shape.size(), "."));
  }
  if (absl::Status s = VerifyCtas(layout, use); !s.ok()) return s;
  if (!layout.is_distributed()) {
    return Err("Non-distributed layout is not allowed in tensor type.");
  }
  for (int64_t d : use.shape) {
    if (!IsPow2(d)) {
      const std::string shape = absl::StrJoin(use.shape, ", ");
      return Err(absl::StrCat("Layout has shape ", shape,
                              ", but the tensor it's attached to has shape ",
                              shape, " which is not a power of two."));
    }
  }
  absl::StatusOr<int64_t> lanes = InDimSize(layout, use.shape, "lane");
  if (!lanes.ok()) return lanes.status();
  if (*lanes != use.threads_per_warp) {
    return Err(absl::StrCat(PrintLayout(layout), ".\nLayout has ", *lanes,
                            " threads per warp, but the module specifies ",
                            use.threads_per_warp, " threads per warp."));
  }
  absl::StatusOr<int64_t> warps = InDimSize(layout, use.shape, "warp");
  if (!warps.ok()) return warps.status();
  if (*warps != use.num_warps) {
    return Err(absl::StrCat(PrintLayout(layout), ".\nLayout has ", *warps,
                            " warps per CTA, but the context requires ",
                            use.num_warps, " warps per CTA."));
  }
  return absl::OkStatus();
}

// The CTAs a tensor memory layout splits its allocation across, along M
// and N: CTASplitM/N as written (Triton 3.6.0's spelling), else a factor 2
// for each CGA basis along that dim.
std::pair<int64_t, int64_t> Splits(const TensorMemoryLayout& t) {
  if (t.legacy_split) return {t.cta_split_m, t.cta_split_n};
  int64_t split_m = 1, split_n = 1;
  for (const auto& b : t.cga) {
    if (b.size() == 2 && b[0] != 0) split_m *= 2;
    if (b.size() == 2 && b[0] == 0 && b[1] != 0) split_n *= 2;
  }
  return {split_m, split_n};
}

// MemDescType::verify for tensor memory: the allocation's last two dims
// (docs/triton.md, "Tensor memory"). Triton 3.6.0's rules apply to its
// spelling (legacy_split): the at-least shape per CTA with blockN as
// written, then at most 512 32-bit columns per CTA (its message's nCol:
// rows x columns x colStride over the 128 lanes, over the CTAs), both
// fitted to Triton 3.6.0's answers. Triton 3.7 and later clip blockN to
// the columns and do not count the columns at the type.
absl::Status VerifyTensorMemory(const TensorMemoryLayout& t,
                                const LayoutUse& use) {
  const size_t n = use.shape.size();
  if (n != 2 && n != 3) return Err("rank must be 2 or 3");
  if (static_cast<int64_t>(use.element_bits) * t.col_stride > 32) {
    return Err(absl::StrCat(
        "bitwidth * colStride must be less than or equal to 32. Got ",
        use.element_bits, " and ", t.col_stride));
  }
  const int64_t rows = use.shape[n - 2], cols = use.shape[n - 1];
  const auto [split_m, split_n] = Splits(t);
  const int64_t block_n =
      t.legacy_split ? t.block_n : std::min<int64_t>(t.block_n, cols);
  if (rows < t.block_m * split_m || cols < block_n * split_n) {
    // Triton 3.6.0 names the allocation and its last two dims, 3.7 and
    // later the tensor and all of them.
    return Err(absl::StrCat("the ", t.legacy_split ? "allocation" : "tensor",
                            " shape must be at least ", t.block_m * split_m,
                            "x", block_n * split_n, ". Got ",
                            t.legacy_split ? absl::StrCat(rows, ", ", cols)
                                           : absl::StrJoin(use.shape, ", ")));
  }
  if (t.legacy_split) {
    // Sizes are at most 2^40 and colStride at most 32: no overflow in 128
    // bits.
    const unsigned __int128 n_col = static_cast<unsigned __int128>(rows) *
                                    cols * t.col_stride / 128 /
                                    (split_m * split_n);
    if (n_col > static_cast<unsigned __int128>(512 * 32 / use.element_bits)) {
      return Err(absl::StrCat(
          "nCol / (CTASplitM * CTASplitN) must be less than or equal to 512 "
          "* 32 / bitwidth but got ",
          static_cast<uint64_t>(n_col)));
    }
  }
  absl::StatusOr<LinearLayout> l = ToLinearLayout(Layout(t), {rows, cols});
  if (!l.ok()) return l.status();
  const int64_t got_rows = l->OutDimSize(l->OutDimIndex("dim0"));
  const int64_t got_cols = l->OutDimSize(l->OutDimIndex("dim1"));
  if (got_rows != rows || got_cols != cols) {
    return Err(absl::StrCat("allocation shape must be equal to ", got_rows, "x",
                            got_cols));
  }
  return absl::OkStatus();
}

absl::Status VerifyMemdesc(const Layout& layout, const LayoutUse& use) {
  if (use.shape.empty()) return Err("rank 0 memdesc is not allowed");
  const int rank = LayoutRank(layout);
  const int n = static_cast<int>(use.shape.size());
  if (const auto* t = layout.get<TensorMemoryLayout>()) {
    if (absl::Status s = VerifyTensorMemory(*t, use); !s.ok()) return s;
  } else if (const auto* s = layout.get<TensorMemoryScalesLayout>()) {
    // Scales are not multi-buffered: Triton 3.6.0 says so of any rank but
    // 2, 3.9.0 names the rank (both seen on tmem_alloc).
    if (n != 2) {
      return Err(s->legacy_split
                     ? std::string("Scales don't currently support "
                                   "multibuffering")
                     : absl::StrCat("tensor-memory scale descriptors must "
                                    "have rank 2; got ",
                                    n));
    }
    if (use.element_bits != 8) return Err("bitwidth must be 8");
  } else if (layout.is_shared()) {
    if (rank != 0 && rank != n && rank != n - 1) {
      return Err(absl::StrCat(
          "rank must be equal to or one less than the shape size. Got ", rank,
          " and ", n));
    }
  } else {
    return Err(absl::StrCat(PrintLayout(layout), " is not a valid encoding"));
  }
  // Padded and shared linear layouts have their own shape: the
  // allocation's (without a leading multi-buffering dim).
  const LinearLayout* own = nullptr;
  if (const auto* p = layout.get<PaddedSharedLayout>()) own = &p->linear;
  if (const auto* s = layout.get<SharedLinearEncoding>()) own = &s->layout;
  if (own != nullptr) {
    const int r = own->num_out_dims();
    for (int d = 0; d < r && d < n; ++d) {
      const int64_t expected = use.shape[n - r + d];
      if (own->OutDimSize(d) != expected) {
        return Err(absl::StrCat("Mismatch in expected shape for dimension ", d,
                                ". Expected: ", expected,
                                ", got: ", own->OutDimSize(d)));
      }
    }
  }
  if (rank != 0 && rank != n && rank + 1 != n) {
    return Err(absl::StrCat(
        "Layout has rank ", rank,
        ", but the memdesc it's attached to has rank ", n,
        ". Memdesc rank must equal the layout rank or be exactly one greater "
        "for multibuffering."));
  }
  return VerifyCtas(layout, use);
}

}  // namespace

int64_t NumCtas(const Layout& layout) {
  struct Visitor {
    int64_t Bases(const CgaBases& cga) { return int64_t{1} << cga.size(); }
    int64_t operator()(const BlockedLayout& b) { return Bases(b.cga); }
    int64_t operator()(const SliceLayout& s) {
      return s.parent ? NumCtas(*s.parent) : 1;
    }
    int64_t operator()(const NvidiaMmaLayout& m) { return Bases(m.cga); }
    int64_t operator()(const DotOperandLayout& d) {
      return d.parent ? NumCtas(*d.parent) : 1;
    }
    int64_t operator()(const LinearEncoding& e) { return BlockSize(e.layout); }
    int64_t operator()(const SwizzledSharedLayout& s) { return Bases(s.cga); }
    int64_t operator()(const NvmmaSharedLayout& n) { return Bases(n.cga); }
    int64_t operator()(const SharedLinearEncoding& e) {
      return BlockSize(e.layout);
    }
    int64_t operator()(const AmdMfmaLayout& m) { return Bases(m.cga); }
    int64_t operator()(const AmdWmmaLayout& w) { return Bases(w.cga); }
    int64_t operator()(const GenericLinearEncoding& e) {
      return BlockSize(e.layout);
    }
    int64_t operator()(const AmdRotatingSharedLayout& r) {
      return Bases(r.cga);
    }
    int64_t operator()(const PaddedSharedLayout& p) {
      return BlockSize(p.linear);
    }
    int64_t operator()(const PartitionedSharedLayout& p) {
      return p.partition_layout ? NumCtas(*p.partition_layout) : 1;
    }
    int64_t operator()(const TensorMemoryLayout& t) {
      return t.legacy_split ? int64_t{t.cta_split_m} * t.cta_split_n
                            : Bases(t.cga);
    }
    int64_t operator()(const TensorMemoryScalesLayout& t) {
      return t.legacy_split ? int64_t{t.cta_split_m} * t.cta_split_n
                            : Bases(t.cga);
    }
  };
  return std::visit(Visitor{}, layout.value());
}

absl::Status VerifyLayoutUse(const Layout& layout, const LayoutUse& use) {
  return use.memdesc ? VerifyMemdesc(layout, use) : VerifyTensor(layout, use);
}

absl::StatusOr<LinearLayout> LayoutForUse(const Layout& layout,
                                          const LayoutUse& use) {
  if (absl::Status s = VerifyLayoutUse(layout, use); !s.ok()) return s;
  std::vector<int64_t> shape = use.shape;
  const int rank = LayoutRank(layout);
  if (use.memdesc && rank > 0 && static_cast<int>(shape.size()) > rank) {
    shape.erase(shape.begin(), shape.end() - rank);
  }
  return ToLinearLayout(layout, shape);
}

int64_t TensorMemoryColumnsPerCta(const TensorMemoryLayout& layout,
                                  const LayoutUse& use) {
  if (use.shape.empty()) return 0;
  // Sizes are at most 2^40 a dim and the rank small, so the bits are
  // counted in 128 bits and capped before they could wrap.
  unsigned __int128 bits = static_cast<unsigned __int128>(use.element_bits) *
                           static_cast<unsigned>(layout.col_stride);
  const unsigned __int128 cap = static_cast<unsigned __int128>(1) << 100;
  for (int64_t d : use.shape) {
    bits *= static_cast<unsigned __int128>(d);
    if (bits > cap) return std::numeric_limits<int64_t>::max();
  }
  const auto [split_m, split_n] = Splits(layout);
  const unsigned __int128 per_column =
      static_cast<unsigned __int128>(32) * 128 * split_m * split_n;
  const unsigned __int128 columns = (bits + per_column - 1) / per_column;
  return columns > static_cast<unsigned __int128>(
                       std::numeric_limits<int64_t>::max())
             ? std::numeric_limits<int64_t>::max()
             : static_cast<int64_t>(columns);
}

}  // namespace hlolayout::triton
