#include "hlolayout/triton/cvt_cost.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "hlolayout/triton/f2.h"
#include "hlolayout/triton/ops.h"
#include "hlolayout/util/status_macros.h"

namespace hlolayout::triton {
namespace {

int Log2(int32_t v) { return 31 - __builtin_clz(static_cast<uint32_t>(v)); }

// The register and lane bases of `l`, each in-dim padded with zero bases
// to `n_reg` and `n_lane` bits.
absl::StatusOr<LinearLayout> RegistersAndLanes(
    const LinearLayout& l, int n_reg, int n_lane,
    const std::vector<std::string>& outs) {
  const std::vector<std::string> ins = {"register", "lane"};
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout sub, Sublayout(l, ins, outs));
  NamedBases bases = sub.bases();
  for (auto& [name, b] : bases) {
    const int want = name == "register" ? n_reg : n_lane;
    while (static_cast<int>(b.size()) < want) {
      b.push_back(std::vector<int32_t>(outs.size(), 0));
    }
  }
  return LinearLayout::Create(std::move(bases), sub.out_dims(), false);
}

// `s` with the register and lane bits the destination `t` holds in a warp
// (or block) bit zeroed: their element is read off the copy in the
// reader's own warp, so they take no part in the register/lane
// permutation.
absl::StatusOr<LinearLayout> WithoutLocalCopies(const LinearLayout& s,
                                                const LinearLayout& t) {
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout tf, FlattenOuts(t));
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout sf, FlattenOuts(s));
  std::vector<uint64_t> span;
  for (int d = 0; d < 2; ++d) {
    for (int i = 0; i < tf.InDimSizeLog2(d); ++i) {
      span.push_back(static_cast<uint32_t>(tf.BasisValue(d, i, 0)));
    }
  }
  ReduceRowEchelon(span, 32);
  auto in_span = [&](uint64_t v) {
    for (uint64_t r : span) {
      if (r != 0 && ((v >> LowestBit(r)) & 1)) v ^= r;
    }
    return v == 0;
  };
  NamedBases bases = s.bases();
  for (int d = 0; d < 2; ++d) {
    for (int i = 0; i < sf.InDimSizeLog2(d); ++i) {
      if (!in_span(static_cast<uint32_t>(sf.BasisValue(d, i, 0)))) {
        std::fill(bases[d].second[i].begin(), bases[d].second[i].end(), 0);
      }
    }
  }
  return LinearLayout::Create(std::move(bases), s.out_dims(), false);
}

// P: where each (register, lane) bit of S goes in T; in-dims register and
// lane, each basis one-hot in (register, lane).
struct BitPermutation {
  NamedBases bases;
  int sizes[2];  // the register and lane bits
};

// P's skeleton from S and T, its free bits (those broadcast in one of
// them) paired in order.
std::optional<BitPermutation> PermutationOfBits(const LinearLayout& s,
                                                const LinearLayout& t) {
  absl::StatusOr<LinearLayout> p = InvertAndCompose(s, t);
  if (!p.ok()) return std::nullopt;
  BitPermutation out;
  NamedBases& pb = out.bases;
  pb = p->bases();  // in-dims register, lane -> out register, lane
  absl::StatusOr<LinearLayout> sf = FlattenOuts(s);
  absl::StatusOr<LinearLayout> tf = FlattenOuts(t);
  if (!sf.ok() || !tf.ok()) return std::nullopt;
  std::vector<std::pair<int, int>> src_free, dst_free;
  for (int di = 0; di < 2; ++di) {
    for (int i = 0; i < sf->InDimSizeLog2(di); ++i) {
      const int32_t sv = sf->BasisValue(di, i, 0);
      const int32_t tv = tf->BasisValue(di, i, 0);
      if (sv == 0 && tv == 0) {
        pb[di].second[i][di] = int32_t{1} << i;  // a fixed point
      } else if (sv == 0) {
        src_free.emplace_back(di, i);
      } else if (tv == 0) {
        dst_free.emplace_back(di, i);
      }
    }
  }
  for (size_t k = 0; k < std::min(src_free.size(), dst_free.size()); ++k) {
    const auto [sdi, si] = src_free[k];
    const auto [ddi, dix] = dst_free[k];
    pb[sdi].second[si][ddi] = int32_t{1} << dix;
  }
  out.sizes[0] = sf->InDimSizeLog2(0);
  out.sizes[1] = sf->InDimSizeLog2(1);
  return out;
}

// Walks the cycles of P; each run of lane bits inside a cycle that also has
// register bits (a step from a lane bit back to a register bit ends one) is
// one mixed transposition. nullopt when P is no permutation.
std::optional<int> MixedTranspositions(const BitPermutation& p, int n_reg,
                                       int n_lane) {
  const NamedBases& pb = p.bases;
  std::vector<bool> visited(n_reg + n_lane, false);
  auto flat = [&](int di, int i) { return di == 0 ? i : n_reg + i; };
  int mixed = 0;
  for (int di = 0; di < 2; ++di) {
    for (int i = 0; i < p.sizes[di]; ++i) {
      if (visited[flat(di, i)]) continue;
      int cur_d = di, cur_i = i;
      int steps = 0;
      do {
        if (++steps > n_reg + n_lane + 1) return std::nullopt;
        visited[flat(cur_d, cur_i)] = true;
        const std::vector<int32_t>& next = pb[cur_d].second[cur_i];
        int next_d = -1, next_i = -1;
        for (int k = 0; k < 2; ++k) {
          if (next[k] != 0) {
            if ((next[k] & (next[k] - 1)) != 0) return std::nullopt;
            next_d = k;
            next_i = Log2(next[k]);
          }
        }
        if (next_d < 0 || next_i >= (next_d == 0 ? n_reg : n_lane)) {
          return std::nullopt;
        }
        if (cur_d == 1 && next_d == 0) ++mixed;
        cur_d = next_d;
        cur_i = next_i;
      } while (flat(cur_d, cur_i) != flat(di, i));
    }
  }
  for (int d = 0; d < 2; ++d) {
    for (int i = 0; i < (d == 0 ? n_reg : n_lane); ++i) {
      if (!visited[flat(d, i)]) return std::nullopt;
    }
  }
  return mixed;
}

}  // namespace

absl::string_view CvtKindName(CvtKind kind) {
  switch (kind) {
    case CvtKind::kRegisters:
      return "registers";
    case CvtKind::kWarpShuffle:
      return "warp_shuffle";
    case CvtKind::kSharedMemory:
      return "shared_memory";
    case CvtKind::kCrossCta:
      return "cross_cta";
  }
  return "";
}

absl::StatusOr<LinearLayout> MinimalCvtLayout(const LinearLayout& src,
                                              const LinearLayout& dst) {
  // The in-dims the two share at the end of their lists, slowest first.
  std::vector<std::string> dims;
  const auto& s = src.in_dim_names();
  const auto& d = dst.in_dim_names();
  for (size_t i = 0; i < std::min(s.size(), d.size()); ++i) {
    const std::string& sd = s[s.size() - 1 - i];
    if (sd != d[d.size() - 1 - i]) break;
    dims.push_back(sd);
  }
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout comp, InvertAndCompose(dst, src));
  for (const std::string& dim : dims) {
    HLOLAYOUT_ASSIGN_OR_RETURN(std::optional<LinearLayout> q,
                               Quotient(comp, {dim}));
    if (!q.has_value()) break;
    comp = *std::move(q);
  }
  return comp;
}

std::optional<int> WarpShuffleTranspositions(const LinearLayout& src_in,
                                             const LinearLayout& dst_in,
                                             bool local_copies) {
  absl::StatusOr<LinearLayout> src = RemoveBroadcastRegisters(src_in);
  absl::StatusOr<LinearLayout> dst = RemoveBroadcastRegisters(dst_in);
  if (!src.ok() || !dst.ok()) return std::nullopt;
  const int sr = src->InDimIndex("register"), sl = src->InDimIndex("lane");
  const int dr = dst->InDimIndex("register"), dl = dst->InDimIndex("lane");
  if (sr < 0 || sl < 0 || dr < 0 || dl < 0) return std::nullopt;
  const int n_reg = std::max(src->InDimSizeLog2(sr), dst->InDimSizeLog2(dr));
  const int n_lane = std::max(src->InDimSizeLog2(sl), dst->InDimSizeLog2(dl));
  const std::vector<std::string> outs = src->OutDimNames();
  absl::StatusOr<LinearLayout> s = RegistersAndLanes(*src, n_reg, n_lane, outs);
  absl::StatusOr<LinearLayout> t = RegistersAndLanes(*dst, n_reg, n_lane, outs);
  if (!s.ok() || !t.ok()) return std::nullopt;
  if (local_copies) {
    s = WithoutLocalCopies(*s, *t);
    if (!s.ok()) return std::nullopt;
  }
  std::optional<BitPermutation> p = PermutationOfBits(*s, *t);
  if (!p.has_value()) return std::nullopt;
  return MixedTranspositions(*p, n_reg, n_lane);
}

absl::StatusOr<bool> ReadsLocalCopies(const LinearLayout& src,
                                      const LinearLayout& dst) {
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout comp, InvertAndCompose(dst, src));
  NamedBases bases = comp.bases();
  // Where the source is broadcast over a warp (block) bit, the reader may
  // take the copy in its own warp (block): that output bit follows the
  // reader's own (Triton's #10647 and #11646).
  for (const std::string dim : {"block", "warp"}) {
    const int o = comp.OutDimIndex(dim);
    const int sd = src.InDimIndex(dim);
    if (o < 0 || sd < 0) continue;
    const int cd = comp.InDimIndex(dim);  // the destination's
    if (cd < 0 || comp.InDimSizeLog2(cd) != src.InDimSizeLog2(sd)) {
      return absl::InvalidArgumentError(
          absl::StrCat("the two layouts must have as many ", dim, "s"));
    }
    for (int i = 0; i < src.InDimSizeLog2(sd); ++i) {
      auto b = src.Basis(sd, i);
      if (std::any_of(b.begin(), b.end(), [](int32_t v) { return v != 0; })) {
        continue;
      }
      for (auto& [name, dim_bases] : bases) {
        for (auto& basis : dim_bases) basis[o] &= ~(int32_t{1} << i);
      }
      for (auto& [name, dim_bases] : bases) {
        if (name == dim) dim_bases[i][o] |= int32_t{1} << i;
      }
    }
  }
  HLOLAYOUT_ASSIGN_OR_RETURN(
      LinearLayout patched,
      LinearLayout::Create(std::move(bases), comp.out_dims(),
                           /*require_surjective=*/false));
  // Every warp and block bit must then read from its own, and no warp bit
  // may pick a source register.
  const int reg_out = patched.OutDimIndex("register");
  for (int d = 0; d < patched.num_in_dims(); ++d) {
    const std::string& in = patched.in_dim_name(d);
    for (int i = 0; i < patched.InDimSizeLog2(d); ++i) {
      for (const std::string dim : {"block", "warp"}) {
        const int o = patched.OutDimIndex(dim);
        if (o < 0) continue;
        const int32_t want = in == dim ? int32_t{1} << i : 0;
        if (patched.BasisValue(d, i, o) != want) return false;
      }
      if (in == "warp" && reg_out >= 0 &&
          patched.BasisValue(d, i, reg_out) != 0) {
        return false;
      }
    }
  }
  return true;
}

absl::StatusOr<CvtCost> ConvertLayoutCost(const LinearLayout& src,
                                          const LinearLayout& dst,
                                          int element_bits,
                                          const CvtTarget& target) {
  for (const LinearLayout* l : {&src, &dst}) {
    if (l->num_in_dims() != 4 || l->in_dim_name(0) != "register" ||
        l->in_dim_name(1) != "lane" || l->in_dim_name(2) != "warp" ||
        l->in_dim_name(3) != "block") {
      return absl::InvalidArgumentError(
          "convert_layout costs are for register layouts (in-dims register, "
          "lane, warp, block)");
    }
  }
  if (src.out_dims() != dst.out_dims()) {
    return absl::InvalidArgumentError(
        "the two layouts must describe the same shape (out-dims and sizes)");
  }
  for (const LinearLayout* l : {&src, &dst}) {
    if (l->InDimSize(1) != target.warp_size) {
      return absl::InvalidArgumentError(
          absl::StrCat("a layout has ", l->InDimSize(1), " lanes but ",
                       target.name, " has ", target.warp_size, "-lane warps"));
    }
  }
  // One kernel's layouts: as many warps and blocks on both sides (the
  // costs below walk the source's warp bits in the destination's bases).
  for (const int d : {2, 3}) {
    if (src.InDimSize(d) != dst.InDimSize(d)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "the two layouts must have as many ", src.in_dim_name(d), "s (",
          src.InDimSize(d), " and ", dst.InDimSize(d), ")"));
    }
  }
  if (element_bits <= 0 || element_bits > 64 ||
      (element_bits & (element_bits - 1)) != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("element width ", element_bits,
                     " bits is not a power of two up to 64"));
  }
  const int bits = element_bits < 8 ? 8 : element_bits;
  CvtCost cost;
  HLOLAYOUT_ASSIGN_OR_RETURN(cost.map, MinimalCvtLayout(src, dst));
  const std::vector<std::string> outs = cost.map.OutDimNames();
  if (outs.empty() || outs == std::vector<std::string>{"register"}) {
    cost.kind = CvtKind::kRegisters;
    return cost;
  }
  if (outs == std::vector<std::string>{"register", "lane"}) {
    cost.mixed_transpositions = WarpShuffleTranspositions(src, dst);
    if (cost.mixed_transpositions.has_value() &&
        *cost.mixed_transpositions < 2) {
      cost.kind = CvtKind::kWarpShuffle;
      return cost;
    }
  } else if (target.version != TritonVersion::k3_6_0 &&
             !cost.map.HasOutDim("block")) {
    // After 3.6, a destination warp reads the copy of a source that is
    // broadcast over warps in its own warp; shuffles then do, unless a warp
    // bit picks a source register.
    HLOLAYOUT_ASSIGN_OR_RETURN(bool local, ReadsLocalCopies(src, dst));
    if (local) {
      cost.mixed_transpositions =
          WarpShuffleTranspositions(src, dst, /*local_copies=*/true);
      if (cost.mixed_transpositions.has_value() &&
          *cost.mixed_transpositions < 2) {
        cost.kind = CvtKind::kWarpShuffle;
        return cost;
      }
    }
  }
  if (cost.map.HasOutDim("block")) {
    cost.kind = CvtKind::kCrossCta;
    HLOLAYOUT_ASSIGN_OR_RETURN(int64_t elements,
                               ScratchElements(src, dst, bits, target.smem));
    cost.scratch_bytes = elements * bits / 8;
    return cost;
  }
  cost.kind = CvtKind::kSharedMemory;
  HLOLAYOUT_ASSIGN_OR_RETURN(cost.smem,
                             PlanSmemRoundTrip(src, dst, bits, target));
  cost.scratch_bytes = cost.smem->scratch_bytes;
  return cost;
}

}  // namespace hlolayout::triton
