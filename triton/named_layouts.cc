#include "hlolayout/triton/named_layouts.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "hlolayout/triton/layout_utils.h"
#include "hlolayout/triton/named_layouts_fast.h"
#include "hlolayout/triton/named_layouts_internal.h"
#include "hlolayout/triton/ops.h"
#include "hlolayout/util/status_macros.h"

namespace hlolayout::triton {
namespace internal {

absl::Status Err(absl::string_view message) {
  return absl::InvalidArgumentError(message);
}

bool IsPow2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

absl::Status CheckPow2(absl::string_view what, absl::Span<const int32_t> v) {
  for (int32_t x : v) {
    if (!IsPow2(x)) {
      return Err(
          absl::StrCat("Every element in ", what, " must be a power of two."));
    }
  }
  return absl::OkStatus();
}

absl::Status CheckShape(absl::Span<const int64_t> shape, int rank) {
  if (static_cast<int>(shape.size()) != rank) {
    return Err(absl::StrCat("Layout has rank ", rank,
                            ", but the tensor it's attached to has rank ",
                            shape.size(), "."));
  }
  for (int64_t s : shape) {
    if (!IsPow2(s) || s > (int64_t{1} << 30)) {
      return Err(absl::StrCat("the tensor shape [", absl::StrJoin(shape, "x"),
                              "] is not made of powers of two (up to 2^30)"));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<LinearLayout> Id(int64_t size, absl::string_view in,
                                absl::string_view out) {
  if (size > (int64_t{1} << 30)) return Err("layout too large");
  return LinearLayout::Identity1D(static_cast<int32_t>(size), in, out);
}

absl::StatusOr<LinearLayout> Zeros(int64_t size, absl::string_view in,
                                   absl::string_view out) {
  if (size > (int64_t{1} << 30)) return Err("layout too large");
  return LinearLayout::Zeros1D(static_cast<int32_t>(size), in, out);
}

absl::Status MulInto(LinearLayout& layout, const LinearLayout& part) {
  HLOLAYOUT_ASSIGN_OR_RETURN(layout, Product(layout, part));
  return absl::OkStatus();
}

absl::Status MulId(LinearLayout& layout, int64_t size, absl::string_view in,
                   absl::string_view out) {
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout id, Id(size, in, out));
  return MulInto(layout, id);
}

absl::StatusOr<LinearLayout> CgaLayout(const CgaBases& cga, int rank) {
  for (const auto& b : cga) {
    if (static_cast<int>(b.size()) != rank) {
      return Err(
          absl::StrCat("'CGALayout' entry length does not match rank ", rank));
    }
  }
  return LinearLayout::CreateInferred({{"block", cga}},
                                      StandardOutDimNames(rank));
}

std::vector<int64_t> SplitNum(const CgaBases& cga, int rank) {
  std::vector<int64_t> split(rank, 1);
  for (const auto& b : cga) {
    for (int d = 0; d < rank && d < static_cast<int>(b.size()); ++d) {
      if (b[d] != 0) {
        split[d] *= 2;
        break;
      }
    }
  }
  return split;
}

std::vector<int64_t> ShapePerCta(absl::Span<const int64_t> shape,
                                 const CgaBases& cga) {
  std::vector<int64_t> split = SplitNum(cga, static_cast<int>(shape.size()));
  std::vector<int64_t> per(shape.size());
  for (size_t i = 0; i < shape.size(); ++i) {
    per[i] = shape[i] / std::min(shape[i], split[i]);
  }
  return per;
}

absl::StatusOr<LinearLayout> DotOperandCgaLayout(const CgaBases& parent_cga,
                                                 int rank, int op_idx) {
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout parent, CgaLayout(parent_cga, rank));
  const int k_dim = op_idx == 0 ? rank - 1 : rank - 2;
  CgaBases bases = parent_cga;
  for (auto& b : bases) b[k_dim] = 0;
  NamedInts outs = parent.out_dims();
  outs[k_dim].second = 1;
  return LinearLayout::Create({{"block", bases}}, outs,
                              /*require_surjective=*/true);
}

std::vector<int32_t> MatrixOrder(int rank, bool row_major) {
  std::vector<int32_t> order(rank);
  for (int i = 0; i < rank; ++i) order[i] = rank - 1 - i;
  if (rank >= 2 && !row_major) std::swap(order[0], order[1]);
  return order;
}

std::vector<int32_t> DotOperandOrder(int op_idx, int rank) {
  return MatrixOrder(rank, /*row_major=*/op_idx == 0);
}

absl::StatusOr<LinearLayout> BroadcastedDotOperandLayout(
    absl::Span<const int32_t> shape, absl::Span<const int32_t> order, int k_dim,
    absl::string_view in_dim) {
  LinearLayout layout;
  for (int32_t d : order) {
    absl::StatusOr<LinearLayout> part =
        d == k_dim
            ? LinearLayout::Zeros1D(shape[d], in_dim, absl::StrCat("dim", d))
            : LinearLayout::Identity1D(shape[d], in_dim,
                                       absl::StrCat("dim", d));
    if (!part.ok()) return part.status();
    HLOLAYOUT_RETURN_IF_ERROR(MulInto(layout, *part));
  }
  return layout;
}

std::vector<std::string> PermutedDimNames(absl::Span<const int32_t> order) {
  std::vector<std::string> names;
  for (int32_t d : order) names.push_back(absl::StrCat("dim", d));
  return names;
}

}  // namespace internal

namespace {

using internal::BroadcastedDotOperandLayout;
using internal::CgaLayout;
using internal::CheckPow2;
using internal::CheckShape;
using internal::Convert;
using internal::DotOperandOrder;
using internal::Err;
using internal::Id;
using internal::IsPow2;
using internal::MatrixOrder;
using internal::ShapePerCta;

absl::StatusOr<LinearLayout> Mul(const LinearLayout& a, const LinearLayout& b) {
  return Product(a, b);
}

NamedInts Named(absl::Span<const int64_t> shape) {
  NamedInts n;
  for (size_t i = 0; i < shape.size(); ++i) {
    n.emplace_back(absl::StrCat("dim", i), static_cast<int32_t>(shape[i]));
  }
  return n;
}

absl::StatusOr<LinearLayout> NvidiaMmaTile(
    absl::Span<const int32_t> tile, int k_width,
    absl::Span<const int32_t> order, absl::Span<const int32_t> rep_order) {
  const int rank = static_cast<int>(rep_order.size());
  HLOLAYOUT_ASSIGN_OR_RETURN(
      LinearLayout cta,
      IdentityStandardND("register", std::vector<int32_t>(rank, 1), rep_order));
  const int inner = order[0], outer = order[1];
  const int m = tile[outer], n = tile[inner];
  if (m % 8 != 0 || n % (k_width * 4) != 0) {
    return Err(absl::StrCat("MMA tile [", absl::StrJoin(tile, ", "),
                            "] is not a multiple of the 8 x ", k_width * 4,
                            " instruction tile (Triton asserts m % 8 == 0 and "
                            "n % (kWidth * 4) == 0)"));
  }
  const std::string in = absl::StrCat("dim", inner);
  const std::string out = absl::StrCat("dim", outer);
  struct Part {
    int32_t size;
    const char* in_dim;
    const std::string* out_dim;
  };
  const Part parts[] = {{k_width, "register", &in},
                        {4, "lane", &in},
                        {8, "lane", &out},
                        {m / 8, "register", &out},
                        {n / (k_width * 4), "register", &in}};
  for (const Part& p : parts) {
    HLOLAYOUT_ASSIGN_OR_RETURN(
        LinearLayout id,
        LinearLayout::Identity1D(p.size, p.in_dim, *p.out_dim));
    HLOLAYOUT_ASSIGN_OR_RETURN(cta, Mul(cta, id));
  }
  return cta;
}

absl::StatusOr<LinearLayout> FromBlocked(const BlockedLayout& b,
                                         absl::Span<const int64_t> shape) {
  const size_t rank = b.order.size();
  if (b.size_per_thread.size() != rank || b.threads_per_warp.size() != rank ||
      b.warps_per_cta.size() != rank) {
    return Err(
        "sizePerThread, threadsPerWarp, warpsPerCTA, and order must all have "
        "the same rank.");
  }
  HLOLAYOUT_RETURN_IF_ERROR(CheckPow2("sizePerThread", b.size_per_thread));
  HLOLAYOUT_RETURN_IF_ERROR(CheckPow2("threadsPerWarp", b.threads_per_warp));
  HLOLAYOUT_RETURN_IF_ERROR(CheckPow2("warpsPerCTA", b.warps_per_cta));
  HLOLAYOUT_RETURN_IF_ERROR(CheckOrder(b.order));
  HLOLAYOUT_RETURN_IF_ERROR(CheckShape(shape, static_cast<int>(rank)));
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout cga,
                             CgaLayout(b.cga, static_cast<int>(rank)));
  HLOLAYOUT_ASSIGN_OR_RETURN(
      LinearLayout regs,
      IdentityStandardND("register", b.size_per_thread, b.order));
  HLOLAYOUT_ASSIGN_OR_RETURN(
      LinearLayout lanes,
      IdentityStandardND("lane", b.threads_per_warp, b.order));
  HLOLAYOUT_ASSIGN_OR_RETURN(
      LinearLayout warps, IdentityStandardND("warp", b.warps_per_cta, b.order));
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout cta, Mul(regs, lanes));
  HLOLAYOUT_ASSIGN_OR_RETURN(cta, Mul(cta, warps));
  return CombineCtaCgaWithShape(std::move(cta), cga, shape);
}

absl::Status CheckMma(const NvidiaMmaLayout& m) {
  if (m.version_major != 2 && m.version_major != 3) {
    return Err(absl::StrCat("NVIDIA MMA version ", m.version_major,
                            " is not converted here (versions 2 and 3 are)"));
  }
  HLOLAYOUT_RETURN_IF_ERROR(CheckPow2("warpsPerCTA", m.warps_per_cta));
  const size_t rank = m.warps_per_cta.size();
  if (rank < 2) return Err("an NVIDIA MMA layout has rank 2 or 3");
  if (m.version_major == 2 && m.instr_shape.size() != rank) {
    return Err("instrShape of an MMA v2 layout must have one entry per dim");
  }
  if (m.version_major == 3 && (m.instr_shape.size() != 3 || rank != 2)) {
    return Err("an MMA v3 layout has rank 2 and instrShape [M, N, K]");
  }
  return absl::OkStatus();
}

absl::StatusOr<LinearLayout> FromMma(const NvidiaMmaLayout& m,
                                     absl::Span<const int64_t> shape) {
  HLOLAYOUT_RETURN_IF_ERROR(CheckMma(m));
  const int rank = static_cast<int>(m.warps_per_cta.size());
  HLOLAYOUT_RETURN_IF_ERROR(CheckShape(shape, rank));
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout cga, CgaLayout(m.cga, rank));
  std::vector<int32_t> tile = m.instr_shape;
  if (m.version_major == 3) tile = {m.instr_shape[0], m.instr_shape[1]};
  const std::vector<int32_t> order = MatrixOrder(rank, true);
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout cta,
                             NvidiaMmaTile(tile, 2, order, order));
  HLOLAYOUT_ASSIGN_OR_RETURN(
      LinearLayout warps,
      IdentityStandardND("warp", m.warps_per_cta,
                         MatrixOrder(rank, m.version_major != 3)));
  HLOLAYOUT_ASSIGN_OR_RETURN(warps, TransposeOuts(warps, cta.OutDimNames()));
  HLOLAYOUT_ASSIGN_OR_RETURN(cta, Mul(cta, warps));
  return CombineCtaCgaWithShape(std::move(cta), cga, shape);
}

absl::StatusOr<LinearLayout> FromNvidiaDot(const DotOperandLayout& d,
                                           const NvidiaMmaLayout& m,
                                           absl::Span<const int64_t> shape) {
  HLOLAYOUT_RETURN_IF_ERROR(CheckMma(m));
  const int rank = static_cast<int>(m.warps_per_cta.size());
  HLOLAYOUT_RETURN_IF_ERROR(CheckShape(shape, rank));
  HLOLAYOUT_RETURN_IF_ERROR(CgaLayout(m.cga, rank).status());
  // An operand is broadcast along K across CTAs (the dot_op's CGA layout).
  HLOLAYOUT_ASSIGN_OR_RETURN(
      LinearLayout cga, internal::DotOperandCgaLayout(m.cga, rank, d.op_idx));
  const bool is_a = d.op_idx == 0;
  if (!is_a && m.version_major != 2) {
    return Err(
        "Hopper (MMA v3) takes the B operand from shared memory: no "
        "register layout for opIdx = 1");
  }
  if (!IsPow2(d.k_width) || d.k_width > 64) {
    return Err(absl::StrCat("kWidth ", d.k_width,
                            " of an MMA dot operand must be a power of two"));
  }
  std::vector<int32_t> tile(rank, 1);
  if (is_a) {
    tile[rank - 2] = 16;
    tile[rank - 1] = d.k_width * 8;
  } else {
    tile[rank - 2] = d.k_width * 8;
    tile[rank - 1] = 8;
  }
  const std::vector<int32_t> order = DotOperandOrder(d.op_idx, rank);
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout cta,
                             NvidiaMmaTile(tile, d.k_width, order, order));
  const int k_dim = is_a ? rank - 1 : rank - 2;
  HLOLAYOUT_ASSIGN_OR_RETURN(
      LinearLayout warps,
      BroadcastedDotOperandLayout(m.warps_per_cta,
                                  MatrixOrder(rank, m.version_major != 3),
                                  k_dim, "warp"));
  HLOLAYOUT_ASSIGN_OR_RETURN(warps, TransposeOuts(warps, cta.OutDimNames()));
  HLOLAYOUT_ASSIGN_OR_RETURN(cta, Mul(cta, warps));
  return CombineCtaCgaWithShape(std::move(cta), cga, shape);
}

absl::StatusOr<LinearLayout> FromFmaDot(const DotOperandLayout& d,
                                        const BlockedLayout& b,
                                        absl::Span<const int64_t> shape) {
  // Validate the parent as a blocked layout of this shape first.
  HLOLAYOUT_RETURN_IF_ERROR(FromBlocked(b, shape).status());
  const int rank = static_cast<int>(shape.size());
  if (rank < 2) return Err("a dot operand has rank 2 or 3");
  // An operand is broadcast along K across CTAs (the dot_op's CGA layout).
  HLOLAYOUT_ASSIGN_OR_RETURN(
      LinearLayout cga, internal::DotOperandCgaLayout(b.cga, rank, d.op_idx));
  const int k_dim = d.op_idx == 0 ? rank - 1 : rank - 2;
  std::vector<int32_t> thread_size = b.size_per_thread;
  thread_size[k_dim] = static_cast<int32_t>(shape[k_dim]);
  std::vector<std::string> rep_names;
  for (int32_t o : b.order) rep_names.push_back(absl::StrCat("dim", o));
  HLOLAYOUT_ASSIGN_OR_RETURN(
      LinearLayout regs, IdentityStandardND("register", thread_size, b.order));
  HLOLAYOUT_ASSIGN_OR_RETURN(
      LinearLayout lanes,
      BroadcastedDotOperandLayout(b.threads_per_warp, b.order, k_dim, "lane"));
  HLOLAYOUT_ASSIGN_OR_RETURN(
      LinearLayout warps,
      BroadcastedDotOperandLayout(b.warps_per_cta, b.order, k_dim, "warp"));
  HLOLAYOUT_ASSIGN_OR_RETURN(regs, TransposeOuts(regs, rep_names));
  HLOLAYOUT_ASSIGN_OR_RETURN(lanes, TransposeOuts(lanes, rep_names));
  HLOLAYOUT_ASSIGN_OR_RETURN(warps, TransposeOuts(warps, rep_names));
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout cta, Mul(regs, lanes));
  HLOLAYOUT_ASSIGN_OR_RETURN(cta, Mul(cta, warps));
  return CombineCtaCgaWithShape(std::move(cta), cga, shape);
}

absl::StatusOr<LinearLayout> FromDot(const DotOperandLayout& d,
                                     absl::Span<const int64_t> shape) {
  if (d.op_idx != 0 && d.op_idx != 1) {
    return Err(absl::StrCat("opIdx ", d.op_idx,
                            " of a dot operand is not 0 "
                            "or 1"));
  }
  if (d.parent == nullptr) return Err("a dot operand needs a parent layout");
  if (const auto* m = d.parent->get<NvidiaMmaLayout>()) {
    return FromNvidiaDot(d, *m, shape);
  }
  if (const auto* b = d.parent->get<BlockedLayout>()) {
    return FromFmaDot(d, *b, shape);
  }
  if (const auto* m = d.parent->get<AmdMfmaLayout>()) {
    return internal::FromMfmaDot(d, *m, shape);
  }
  if (const auto* w = d.parent->get<AmdWmmaLayout>()) {
    return internal::FromWmmaDot(d, *w, shape);
  }
  return Err(absl::StrCat("ttg.dot_op unexpected parent layout: #ttg.",
                          d.parent->kind_name()));
}

absl::StatusOr<LinearLayout> FromSlice(const SliceLayout& s,
                                       absl::Span<const int64_t> shape) {
  if (s.parent == nullptr) return Err("a slice needs a parent layout");
  if (!s.parent->is_distributed()) {
    return Err("expected a distributed encoding trait");
  }
  const int parent_rank = LayoutRank(*s.parent);
  if (parent_rank <= 1) {
    return Err("parent layout must have at least rank >= 2");
  }
  if (s.dim < 0 || s.dim >= parent_rank) {
    return Err(
        absl::StrCat("slice dim=", s.dim,
                     " must be less than the parent rank=", parent_rank));
  }
  HLOLAYOUT_RETURN_IF_ERROR(CheckShape(shape, parent_rank - 1));
  std::vector<int64_t> parent_shape(shape.begin(), shape.end());
  parent_shape.insert(parent_shape.begin() + s.dim, 1);
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout parent,
                             Convert(*s.parent, parent_shape));
  const std::vector<std::string> names = StandardOutDimNames(parent_rank);
  LinearLayout transform;
  for (int idx = 0; idx < parent.num_out_dims(); ++idx) {
    const std::string& out = parent.out_dim_name(idx);
    absl::StatusOr<LinearLayout> part =
        idx == s.dim
            ? LinearLayout::Zeros1D(parent.OutDimSize(idx), out, names[0])
            : LinearLayout::Identity1D(parent.OutDimSize(idx), out,
                                       names[idx - (idx < s.dim ? 0 : 1)]);
    if (!part.ok()) return part.status();
    HLOLAYOUT_ASSIGN_OR_RETURN(transform, Mul(transform, *part));
  }
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout sliced, Compose(parent, transform));
  NamedBases bases = sliced.bases();
  for (auto& [name, b] : bases) {
    if (name != "register") continue;
    DimBases kept;
    for (auto& basis : b) {
      if (std::any_of(basis.begin(), basis.end(),
                      [](int32_t v) { return v != 0; })) {
        kept.push_back(std::move(basis));
      }
    }
    b = std::move(kept);
  }
  return LinearLayout::CreateInferred(std::move(bases), sliced.OutDimNames());
}

absl::StatusOr<LinearLayout> FromLinear(const LinearEncoding& e,
                                        absl::Span<const int64_t> shape) {
  const LinearLayout& ll = e.layout;
  static const char* kIns[] = {"register", "lane", "warp", "block"};
  if (ll.num_in_dims() != 4) {
    return Err("a linear layout has the in-dims register, lane, warp, block");
  }
  for (int i = 0; i < 4; ++i) {
    if (ll.in_dim_name(i) != kIns[i]) {
      return Err(absl::StrCat("Expected input dimension ", i, " to be '",
                              kIns[i], "'. Got ", ll.in_dim_name(i)));
    }
  }
  const int rank = ll.num_out_dims();
  for (int o = 0; o < rank; ++o) {
    if (ll.out_dim_name(o) != absl::StrCat("dim", o)) {
      return Err(absl::StrCat(
          "Expected output dimensions to be ['dim0', 'dim1', ...]. Got ",
          ll.out_dim_name(o), " at position ", o));
    }
  }
  HLOLAYOUT_RETURN_IF_ERROR(CheckShape(shape, rank));
  bool same = true;
  for (int o = 0; o < rank; ++o) same = same && ll.OutDimSize(o) == shape[o];
  if (same) return ll;
  // Triton's getRepOrder for a linear layout: the dims in the order the
  // register bases first move along them, then the rest from the last dim.
  std::vector<int32_t> rep_order;
  auto add = [&](int32_t d) {
    if (std::find(rep_order.begin(), rep_order.end(), d) == rep_order.end()) {
      rep_order.push_back(d);
    }
  };
  for (int i = 0; i < ll.InDimSizeLog2(0); ++i) {
    for (int o = 0; o < rank; ++o) {
      if (ll.BasisValue(0, i, o) != 0) {
        add(o);
        break;
      }
    }
  }
  for (int o = rank - 1; o >= 0; --o) add(o);
  std::vector<std::string> permuted;
  NamedInts named;
  for (int32_t d : rep_order) {
    permuted.push_back(ll.out_dim_name(d));
    named.emplace_back(ll.out_dim_name(d), static_cast<int32_t>(shape[d]));
  }
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout out, TransposeOuts(ll, permuted));
  HLOLAYOUT_ASSIGN_OR_RETURN(out, EnsureLayoutNotSmallerThan(out, named));
  HLOLAYOUT_ASSIGN_OR_RETURN(out, EnsureLayoutNotLargerThan(out, named, false));
  return TransposeOuts(out, ll.OutDimNames());
}

}  // namespace

absl::StatusOr<LinearLayout> internal::FromGenericLinear(
    const GenericLinearEncoding& e, absl::Span<const int64_t> shape) {
  // Triton orders the dims by the register bases (orderPerDim), which
  // needs each to be 0 or a power of two (it may still be a swizzle of
  // lanes and warps).
  const LinearLayout& l = e.layout;
  const int reg = l.InDimIndex("register");
  for (int i = 0; reg >= 0 && i < l.InDimSizeLog2(reg); ++i) {
    for (int32_t v : l.Basis(reg, i)) {
      if (v != 0 && !IsPow2(v)) {
        return Err(
            "orderPerDim cannot determine dimension order for swizzled "
            "bases.");
      }
    }
  }
  return FromLinear(LinearEncoding{e.layout}, shape);
}

namespace {

absl::StatusOr<LinearLayout> FromSwizzled(const SwizzledSharedLayout& s,
                                          absl::Span<const int64_t> shape) {
  const int rank = static_cast<int>(s.order.size());
  HLOLAYOUT_RETURN_IF_ERROR(CheckOrder(s.order));
  if (s.vec <= 0 || s.per_phase <= 0 || s.max_phase <= 0) {
    return Err(
        "vec, perPhase and maxPhase of a swizzled shared layout must "
        "be positive");
  }
  HLOLAYOUT_RETURN_IF_ERROR(CheckShape(shape, rank));
  if (!s.cga.empty() && static_cast<int>(s.cga[0].size()) != rank) {
    return Err(absl::StrCat("order size (", rank,
                            ") must match CGALayout rank (", s.cga[0].size(),
                            ")"));
  }
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout cga, CgaLayout(s.cga, rank));
  const std::vector<int64_t> per_cta = ShapePerCta(shape, s.cga);
  if (rank == 1) {
    HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout cta,
                               Id(per_cta[0], "offset", "dim0"));
    return CombineCtaCgaWithShape(std::move(cta), cga, shape);
  }
  const int col_dim = s.order[0], row_dim = s.order[1];
  const int64_t num_cols = per_cta[col_dim], num_rows = per_cta[row_dim];
  DimBases bases2d;
  for (int64_t col = 1; col < num_cols; col *= 2) {
    bases2d.push_back({0, static_cast<int32_t>(col)});
  }
  for (int64_t row = 1; row < num_rows; row *= 2) {
    const int64_t swizzle =
        (s.vec * ((row / s.per_phase) % s.max_phase)) % num_cols;
    bases2d.push_back(
        {static_cast<int32_t>(row), static_cast<int32_t>(swizzle)});
  }
  HLOLAYOUT_ASSIGN_OR_RETURN(
      LinearLayout cta,
      LinearLayout::CreateInferred(
          {{"offset", bases2d}},
          {absl::StrCat("dim", row_dim), absl::StrCat("dim", col_dim)}));
  for (int i = 2; i < rank; ++i) {
    const int dim = s.order[i];
    HLOLAYOUT_ASSIGN_OR_RETURN(
        LinearLayout id, Id(per_cta[dim], "offset", absl::StrCat("dim", dim)));
    HLOLAYOUT_ASSIGN_OR_RETURN(cta, Mul(cta, id));
  }
  return CombineCtaCgaWithShape(std::move(cta), cga, shape);
}

// Triton's reshapeLayout: the layout read row-major as `shape`.
absl::StatusOr<LinearLayout> ReshapeRowMajor(const LinearLayout& l,
                                             absl::Span<const int64_t> shape) {
  std::vector<std::string> reversed = l.OutDimNames();
  std::reverse(reversed.begin(), reversed.end());
  NamedInts new_outs = Named(shape);
  std::reverse(new_outs.begin(), new_outs.end());
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout t, TransposeOuts(l, reversed));
  HLOLAYOUT_ASSIGN_OR_RETURN(t, ReshapeOuts(t, new_outs));
  return TransposeOuts(t, StandardOutDimNames(static_cast<int>(shape.size())));
}

// Triton's getTMABlockShape: the box TMA moves (every dim at most 256, the
// contiguous one exactly one swizzle row).
absl::StatusOr<std::vector<int64_t>> NvmmaTmaBlock(
    const NvmmaSharedLayout& n, const std::vector<int64_t>& per_cta) {
  const int rank = static_cast<int>(per_cta.size());
  std::vector<int64_t> tma = per_cta;
  const int contig = n.transposed ? 0 : rank - 1;
  if (n.fp4_padded) tma[contig] *= 2;
  for (int64_t& t : tma) t = std::min<int64_t>(t, 256);
  if (n.swizzle_bytes != 0) {
    const int64_t contig_size = 8 * n.swizzle_bytes / n.element_bits;
    if (tma[contig] < contig_size) {
      return Err(
          absl::StrCat("block shape along the contiguous dimension ", contig,
                       " is too small for the swizzle byte size ",
                       n.swizzle_bytes, " in an NVMMASharedLayout, got ",
                       tma[contig], " but expected at least ", contig_size));
    }
    tma[contig] = contig_size;
  }
  if (n.fp4_padded) tma[contig] /= 2;
  return tma;
}

// An unswizzled NVMMA layout: the TMA box row-major.
absl::StatusOr<LinearLayout> NvmmaRowMajor(const std::vector<int64_t>& tma) {
  const int rank = static_cast<int>(tma.size());
  HLOLAYOUT_ASSIGN_OR_RETURN(
      LinearLayout layout,
      Id(tma[rank - 1], "offset", absl::StrCat("dim", rank - 1)));
  for (int i = rank - 2; i >= 0; --i) {
    HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout id,
                               Id(tma[i], "offset", absl::StrCat("dim", i)));
    HLOLAYOUT_ASSIGN_OR_RETURN(layout, Mul(layout, id));
  }
  return layout;
}

// The core matrix of a swizzled NVMMA layout: 8 rows of one swizzle width
// each (fp4Padded: columns packed 8 of every 16).
absl::StatusOr<LinearLayout> NvmmaCoreMatrix(const NvmmaSharedLayout& n) {
  const int32_t vec = 128 / n.element_bits;
  int32_t per_phase = 1, max_phase = 8;
  if (n.swizzle_bytes == 32) {
    per_phase = 4;
    max_phase = 2;
  } else if (n.swizzle_bytes == 64) {
    per_phase = 2;
    max_phase = 4;
  }
  const int32_t tile_rows = 8;
  const int32_t tile_cols =
      8 * std::max<int32_t>(16, n.swizzle_bytes) / n.element_bits;
  auto packed = [](int32_t col) { return col / 16 * 8 + col % 8; };
  DimBases bases2d;
  for (int32_t col = 1; col < tile_cols; col *= 2) {
    bases2d.push_back({0, n.fp4_padded ? packed(col) : col});
  }
  for (int32_t row = 1; row < tile_rows; row *= 2) {
    const int32_t swizzled = vec * ((row / per_phase) % max_phase);
    bases2d.push_back({row, n.fp4_padded ? packed(swizzled) : swizzled});
  }
  return LinearLayout::CreateInferred({{"offset", bases2d}},
                                      StandardOutDimNames(2));
}

// `l` with its last out-dim moved first: basis b becomes (b[rank-1], b[0],
// b[1], ...).
absl::StatusOr<LinearLayout> MoveLastDimFirst(const LinearLayout& l) {
  const int rank = l.num_out_dims();
  NamedBases bases = l.bases();
  for (auto& [name, b] : bases) {
    for (auto& basis : b) {
      std::vector<int32_t> moved = {basis[rank - 1]};
      moved.insert(moved.end(), basis.begin(), basis.end() - 1);
      basis = std::move(moved);
    }
  }
  return LinearLayout::CreateInferred(std::move(bases), l.OutDimNames());
}

// A swizzled NVMMA layout of the TMA box `tma`: the core matrix over the
// box collapsed to 2D, read back in the box's shape.
absl::StatusOr<LinearLayout> NvmmaSwizzled(const NvmmaSharedLayout& n,
                                           const std::vector<int64_t>& tma) {
  const int rank = static_cast<int>(tma.size());
  int64_t collapsed[2] = {1, tma[rank - 1]};
  for (int i = 0; i + 1 < rank; ++i) collapsed[0] *= tma[i];
  if (n.transposed) std::swap(collapsed[0], collapsed[1]);
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout tile, NvmmaCoreMatrix(n));
  const int packing = n.fp4_padded ? 2 : 1;
  if (collapsed[1] * packing < tile.OutDimSize(1) ||
      collapsed[0] < tile.OutDimSize(0)) {
    return Err(absl::StrCat(
        "Illegal shared layout; expected collapsed shapePerCTA to be at least "
        "[",
        tile.OutDimSize(0), ", ", tile.OutDimSize(1) / packing,
        "], collapsedTmaShape: [", collapsed[0], ", ", collapsed[1], "]"));
  }
  HLOLAYOUT_ASSIGN_OR_RETURN(
      LinearLayout layout,
      EnsureLayoutNotSmallerThan(
          tile, {{"dim0", static_cast<int32_t>(collapsed[0])},
                 {"dim1", static_cast<int32_t>(collapsed[1])}}));
  std::vector<int64_t> reshape_to = tma;
  if (n.transposed) {
    std::rotate(reshape_to.begin(), reshape_to.begin() + 1, reshape_to.end());
  }
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout reshaped,
                             ReshapeRowMajor(layout, reshape_to));
  if (n.transposed) return MoveLastDimFirst(reshaped);
  return reshaped;
}

absl::StatusOr<LinearLayout> FromNvmma(const NvmmaSharedLayout& n,
                                       absl::Span<const int64_t> shape) {
  const int rank = static_cast<int>(shape.size());
  if (rank < 1) return Err("an nvmma_shared tensor has rank 1 or more");
  HLOLAYOUT_RETURN_IF_ERROR(CheckShape(shape, rank));
  if (n.swizzle_bytes != 0 && n.swizzle_bytes != 32 && n.swizzle_bytes != 64 &&
      n.swizzle_bytes != 128) {
    return Err(absl::StrCat("swizzlingByteWidth ", n.swizzle_bytes,
                            " is not 0, 32, 64 or 128"));
  }
  if (!IsPow2(n.element_bits) || n.element_bits > 64) {
    return Err(absl::StrCat("elementBitWidth ", n.element_bits,
                            " is not a power of two up to 64"));
  }
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout cga, CgaLayout(n.cga, rank));
  const std::vector<int64_t> per_cta = ShapePerCta(shape, n.cga);
  HLOLAYOUT_ASSIGN_OR_RETURN(const std::vector<int64_t> tma,
                             NvmmaTmaBlock(n, per_cta));
  LinearLayout layout;
  if (n.swizzle_bytes == 0) {
    HLOLAYOUT_ASSIGN_OR_RETURN(layout, NvmmaRowMajor(tma));
  } else {
    if (rank < 2) {
      return Err("a swizzled nvmma_shared tensor has rank 2 or more");
    }
    HLOLAYOUT_ASSIGN_OR_RETURN(layout, NvmmaSwizzled(n, tma));
  }
  HLOLAYOUT_ASSIGN_OR_RETURN(
      layout, EnsureLayoutNotSmallerThan(layout, Named(per_cta)));
  return CombineCtaCgaWithShape(std::move(layout), cga, shape);
}

absl::StatusOr<LinearLayout> FromSharedLinear(const SharedLinearEncoding& e,
                                              absl::Span<const int64_t> shape) {
  const LinearLayout& ll = e.layout;
  if (!IsPow2(e.alignment)) {
    return Err("alignment must be a positive power of two");
  }
  if (ll.num_in_dims() != 2 || ll.in_dim_name(0) != "offset" ||
      ll.in_dim_name(1) != "block") {
    return Err("a shared linear layout has the in-dims offset, block");
  }
  HLOLAYOUT_RETURN_IF_ERROR(CheckShape(shape, ll.num_out_dims()));
  for (int o = 0; o < ll.num_out_dims(); ++o) {
    if (ll.OutDimSize(o) != shape[o]) {
      return Err(absl::StrCat(
          "a shared linear layout covers exactly its own shape: dim", o,
          " has ", ll.OutDimSize(o), " elements, the tensor ", shape[o]));
    }
  }
  return ll;
}

}  // namespace

absl::StatusOr<LinearLayout> internal::Convert(
    const Layout& layout, absl::Span<const int64_t> shape) {
  struct Visitor {
    absl::Span<const int64_t> shape;
    absl::StatusOr<LinearLayout> operator()(const BlockedLayout& b) {
      return FromBlocked(b, shape);
    }
    absl::StatusOr<LinearLayout> operator()(const SliceLayout& s) {
      return FromSlice(s, shape);
    }
    absl::StatusOr<LinearLayout> operator()(const NvidiaMmaLayout& m) {
      return FromMma(m, shape);
    }
    absl::StatusOr<LinearLayout> operator()(const DotOperandLayout& d) {
      return FromDot(d, shape);
    }
    absl::StatusOr<LinearLayout> operator()(const LinearEncoding& e) {
      return FromLinear(e, shape);
    }
    absl::StatusOr<LinearLayout> operator()(const SwizzledSharedLayout& s) {
      return FromSwizzled(s, shape);
    }
    absl::StatusOr<LinearLayout> operator()(const NvmmaSharedLayout& n) {
      return FromNvmma(n, shape);
    }
    absl::StatusOr<LinearLayout> operator()(const SharedLinearEncoding& e) {
      return FromSharedLinear(e, shape);
    }
    absl::StatusOr<LinearLayout> operator()(const AmdMfmaLayout& m) {
      return internal::FromMfma(m, shape);
    }
    absl::StatusOr<LinearLayout> operator()(const AmdWmmaLayout& w) {
      return internal::FromWmma(w, shape);
    }
    absl::StatusOr<LinearLayout> operator()(const GenericLinearEncoding& e) {
      return internal::FromGenericLinear(e, shape);
    }
    absl::StatusOr<LinearLayout> operator()(const AmdRotatingSharedLayout& s) {
      return internal::FromRotating(s, shape);
    }
    absl::StatusOr<LinearLayout> operator()(const PaddedSharedLayout& p) {
      return internal::FromPadded(p, shape);
    }
    absl::StatusOr<LinearLayout> operator()(const PartitionedSharedLayout& p) {
      return internal::FromPartitioned(p, shape);
    }
    absl::StatusOr<LinearLayout> operator()(const TensorMemoryLayout& t) {
      return internal::FromTensorMemory(t, shape);
    }
    absl::StatusOr<LinearLayout> operator()(const TensorMemoryScalesLayout& t) {
      return internal::FromTensorMemoryScales(t, shape);
    }
  };
  return std::visit(Visitor{shape}, layout.value());
}

bool Layout::is_shared() const {
  return std::holds_alternative<SwizzledSharedLayout>(v_) ||
         std::holds_alternative<NvmmaSharedLayout>(v_) ||
         std::holds_alternative<SharedLinearEncoding>(v_) ||
         std::holds_alternative<AmdRotatingSharedLayout>(v_) ||
         std::holds_alternative<PaddedSharedLayout>(v_) ||
         std::holds_alternative<PartitionedSharedLayout>(v_);
}

bool Layout::is_tensor_memory() const {
  return std::holds_alternative<TensorMemoryLayout>(v_) ||
         std::holds_alternative<TensorMemoryScalesLayout>(v_);
}

const char* Layout::kind_name() const {
  static const char* kNames[] = {"blocked",
                                 "slice",
                                 "nvidia_mma",
                                 "dot_op",
                                 "linear",
                                 "swizzled_shared",
                                 "nvmma_shared",
                                 "shared_linear",
                                 "amd_mfma",
                                 "amd_wmma",
                                 "generic_linear",
                                 "amd_rotating_shared",
                                 "padded_shared",
                                 "partitioned_shared",
                                 "tensor_memory_encoding",
                                 "tensor_memory_scales_encoding"};
  static_assert(sizeof(kNames) / sizeof(kNames[0]) ==
                std::variant_size_v<Layout::Variant>);
  return kNames[v_.index()];
}

int LayoutRank(const Layout& layout) {
  struct Visitor {
    int operator()(const BlockedLayout& b) {
      return static_cast<int>(b.order.size());
    }
    int operator()(const SliceLayout& s) {
      return s.parent ? LayoutRank(*s.parent) - 1 : 0;
    }
    int operator()(const NvidiaMmaLayout& m) {
      return static_cast<int>(m.warps_per_cta.size());
    }
    int operator()(const DotOperandLayout& d) {
      return d.parent ? LayoutRank(*d.parent) : 0;
    }
    int operator()(const LinearEncoding& e) { return e.layout.num_out_dims(); }
    int operator()(const SwizzledSharedLayout& s) {
      return static_cast<int>(s.order.size());
    }
    int operator()(const NvmmaSharedLayout& n) {
      return n.cga.empty() ? n.rank : static_cast<int>(n.cga[0].size());
    }
    int operator()(const SharedLinearEncoding& e) {
      return e.layout.num_out_dims();
    }
    int operator()(const AmdMfmaLayout& m) {
      return static_cast<int>(m.warps_per_cta.size());
    }
    int operator()(const AmdWmmaLayout& w) {
      return w.legacy_warps ? static_cast<int>(w.warps_per_cta.size()) : w.rank;
    }
    int operator()(const GenericLinearEncoding& e) {
      return e.layout.num_out_dims();
    }
    int operator()(const AmdRotatingSharedLayout& s) {
      return static_cast<int>(s.order.size());
    }
    int operator()(const PaddedSharedLayout& p) {
      return p.linear.num_out_dims();
    }
    int operator()(const PartitionedSharedLayout& p) {
      return p.partition_layout ? LayoutRank(*p.partition_layout) : 0;
    }
    int operator()(const TensorMemoryLayout&) { return 2; }
    int operator()(const TensorMemoryScalesLayout&) { return 2; }
  };
  return std::visit(Visitor{}, layout.value());
}

absl::StatusOr<LinearLayout> ToLinearLayout(const Layout& layout,
                                            absl::Span<const int64_t> shape) {
  if (std::optional<LinearLayout> fast = FastToLinearLayout(layout, shape)) {
    return *std::move(fast);
  }
  return ToLinearLayoutGeneral(layout, shape);
}

absl::StatusOr<LinearLayout> ToLinearLayoutGeneral(
    const Layout& layout, absl::Span<const int64_t> shape) {
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout l, Convert(layout, shape));
  if (layout.is_distributed() &&
      layout.get<GenericLinearEncoding>() == nullptr) {
    for (int d = 0; d < l.num_in_dims(); ++d) {
      for (int i = 0; i < l.InDimSizeLog2(d); ++i) {
        int moving = 0;
        for (int32_t v : l.Basis(d, i)) moving += v != 0;
        if (moving > 1) {
          return Err(
              "In a distributed layout, each base must move in at most one "
              "dimension.");
        }
      }
    }
  }
  return l;
}

}  // namespace hlolayout::triton
