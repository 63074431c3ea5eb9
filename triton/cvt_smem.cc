#include "hlolayout/triton/cvt_smem.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "hlolayout/triton/lds_banks.h"
#include "hlolayout/triton/ops.h"
#include "hlolayout/util/status_macros.h"

namespace hlolayout::triton {
namespace {

// Triton's regPermForDivide: the register order that puts the bases of
// `b` (each found once in `a`, B's values placed in the high bits of each
// out-dim for a right division) first (left) or last (right), the others
// keeping their order; std::nullopt when a basis of `b` is missing.
std::optional<std::vector<int>> RegPermForDivide(const LinearLayout& a,
                                                 const LinearLayout& b,
                                                 bool left) {
  const int ar = a.InDimIndex("register");
  const int br = b.InDimIndex("register");
  if (ar < 0 || br < 0) return std::nullopt;
  std::vector<bool> used(a.InDimSizeLog2(ar), false);
  std::vector<int> found;
  for (int i = 0; i < b.InDimSizeLog2(br); ++i) {
    std::vector<int32_t> want(a.num_out_dims(), 0);
    for (int o = 0; o < a.num_out_dims(); ++o) {
      const int bo = b.OutDimIndex(a.out_dim_name(o));
      if (bo < 0) continue;
      const int shift = left ? 0 : a.OutDimSizeLog2(o) - b.OutDimSizeLog2(bo);
      want[o] = b.BasisValue(br, i, bo) << std::max(shift, 0);
    }
    int hit = -1;
    for (int j = 0; j < a.InDimSizeLog2(ar) && hit < 0; ++j) {
      if (used[j]) continue;
      auto basis = a.Basis(ar, j);
      if (std::equal(basis.begin(), basis.end(), want.begin())) hit = j;
    }
    if (hit < 0) return std::nullopt;
    used[hit] = true;
    found.push_back(hit);
  }
  std::vector<int> rest;
  for (int j = 0; j < a.InDimSizeLog2(ar); ++j) {
    if (!used[j]) rest.push_back(j);
  }
  std::vector<int> order = left ? found : rest;
  const std::vector<int>& tail = left ? rest : found;
  order.insert(order.end(), tail.begin(), tail.end());
  return order;
}

// The map from one side's hardware bits to the scratch offsets of one
// round: side^-1 o smem with the round registers split off.
absl::StatusOr<LinearLayout> RoundCvt(const LinearLayout& side,
                                      const LinearLayout& smem, int64_t reps) {
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout total, InvertAndCompose(side, smem));
  HLOLAYOUT_ASSIGN_OR_RETURN(
      LinearLayout rep_tile,
      LinearLayout::Identity1D(static_cast<int32_t>(reps), "register", "reps"));
  std::optional<std::vector<int>> perm =
      RegPermForDivide(total, rep_tile, /*left=*/false);
  if (!perm.has_value()) {
    return absl::InternalError("the rounds are not registers of both sides");
  }
  HLOLAYOUT_ASSIGN_OR_RETURN(total,
                             ApplyColumnAction(total, "register", *perm));
  HLOLAYOUT_ASSIGN_OR_RETURN(std::optional<LinearLayout> round,
                             DivideRight(total, rep_tile));
  if (!round.has_value()) {
    return absl::InternalError("the rounds do not divide the conversion");
  }
  return ReshapeOuts(
      *round, {{"offset", static_cast<int32_t>(round->TotalOutDimSize())}});
}

std::string InstrName(SmemInstrKind kind, bool store, bool amd) {
  switch (kind) {
    case SmemInstrKind::kVector:
      if (amd) return store ? "ds_write" : "ds_read";
      return store ? "st.shared" : "ld.shared";
    case SmemInstrKind::kMatrix:
      return store ? "stmatrix" : "ldmatrix";
    case SmemInstrKind::kMatrixTrans:
      return store ? "stmatrix.trans" : "ldmatrix.trans";
  }
  return "";
}

// One side's instructions over all rounds.
absl::StatusOr<SmemInstr> SideInstrs(const LinearLayout& side,
                                     const LinearLayout& smem, int64_t reps,
                                     SmemInstrKind kind, bool store, int bits,
                                     const CvtTarget& target) {
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout cvt, RoundCvt(side, smem, reps));
  const int64_t regs = cvt.InDimSize(cvt.InDimIndex("register"));
  SmemInstr instr;
  instr.instr = InstrName(kind, store, target.amd);
  int64_t per_instr = 1;
  if (kind == SmemInstrKind::kVector) {
    HLOLAYOUT_ASSIGN_OR_RETURN(int v, LargestVector(cvt, bits));
    per_instr = v;
  } else {
    // A core matrix holds 32 bits per thread; .x2 and .x4 move two and
    // four of them, as many as 128 bits and the round's registers allow.
    const int64_t core = 32 / bits;
    const int64_t vec = std::min<int64_t>(128 / bits, regs) / core;
    per_instr = core * std::max<int64_t>(vec, 1);
  }
  instr.bits = static_cast<int>(per_instr * bits);
  instr.count = regs / per_instr * reps;
  return instr;
}

// The worst ways of any of one side's vector instructions in any warp,
// counted on the addresses they reach under the target's bank model
// (lds_banks.h): a round's instructions, each `instr_bits` wide, at the
// offsets of `side`^-1 o `smem` (every round reuses the same scratch).
absl::StatusOr<int> HardwareWays(const LinearLayout& side,
                                 const LinearLayout& smem, int64_t reps,
                                 int instr_bits, int bits, bool load,
                                 const CvtTarget& target) {
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout cvt, RoundCvt(side, smem, reps));
  const int reg = cvt.InDimIndex("register");
  const int lane = cvt.InDimIndex("lane");
  const int warp = cvt.InDimIndex("warp");
  const int32_t vec = instr_bits / bits;
  std::vector<int32_t> ins(cvt.num_in_dims(), 0);
  int32_t offset = 0;
  auto offset_of = [&](int32_t r, int32_t l, int32_t w) {
    ins[reg] = r;
    ins[lane] = l;
    if (warp >= 0) ins[warp] = w;
    cvt.ApplyIndexed(ins, absl::MakeSpan(&offset, 1));
    return offset;
  };
  const int32_t lanes = cvt.InDimSize(lane);
  const int32_t warps = warp >= 0 ? cvt.InDimSize(warp) : 1;
  std::vector<int64_t> addresses(lanes);
  int worst = 1;
  for (int32_t w = 0; w < warps; ++w) {
    for (int32_t r = 0; r < cvt.InDimSize(reg); ++r) {
      // An instruction begins at each register whose vector bits are 0:
      // no other basis touches the vector's offset bits (LargestVector).
      if (offset_of(r, 0, 0) % vec != 0) continue;
      for (int32_t l = 0; l < lanes; ++l) {
        addresses[l] = int64_t{offset_of(r, l, w)} * (bits / 8);
      }
      worst = std::max(worst,
                       BankWays(addresses, instr_bits / 8, load, target).first);
    }
  }
  return worst;
}

}  // namespace

absl::StatusOr<int> LargestVector(const LinearLayout& cvt, int element_bits) {
  for (int v = 128 / element_bits; v >= 1; v /= 2) {
    HLOLAYOUT_ASSIGN_OR_RETURN(
        LinearLayout tile, LinearLayout::Identity1D(v, "register", "offset"));
    std::optional<std::vector<int>> perm =
        RegPermForDivide(cvt, tile, /*left=*/true);
    if (!perm.has_value()) continue;
    HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout permuted,
                               ApplyColumnAction(cvt, "register", *perm));
    HLOLAYOUT_ASSIGN_OR_RETURN(std::optional<LinearLayout> q,
                               DivideLeft(permuted, tile));
    if (q.has_value()) return v;
  }
  return 1;
}

absl::StatusOr<SmemRoundTrip> PlanSmemRoundTrip(const LinearLayout& src_in,
                                                const LinearLayout& dst_in,
                                                int element_bits,
                                                const CvtTarget& target) {
  if (element_bits <= 0 || element_bits > 64 ||
      (element_bits & (element_bits - 1)) != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("element width ", element_bits,
                     " bits is not a power of two up to 64"));
  }
  const int bits = std::max(element_bits, 8);
  const std::vector<std::string> ins = {"register", "lane", "warp"};
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout src,
                             Sublayout(src_in, ins, src_in.OutDimNames()));
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout dst,
                             Sublayout(dst_in, ins, dst_in.OutDimNames()));
  HLOLAYOUT_ASSIGN_OR_RETURN(src, RemoveBroadcastRegisters(src));
  HLOLAYOUT_ASSIGN_OR_RETURN(dst, RemoveBroadcastRegisters(dst));
  HLOLAYOUT_ASSIGN_OR_RETURN(
      SwizzleChoice choice,
      OptimalSwizzling(src, dst, SmemTilesFor(bits, target.smem), bits,
                       target.smem));
  SmemRoundTrip r;
  r.element_bits = bits;
  r.reps = choice.smem.InDimSize(choice.smem.InDimIndex("reps"));
  r.scratch_bytes = choice.smem.TotalOutDimSize() / r.reps * bits / 8;
  HLOLAYOUT_ASSIGN_OR_RETURN(SmemInstr st,
                             SideInstrs(src, choice.smem, r.reps, choice.store,
                                        /*store=*/true, bits, target));
  HLOLAYOUT_ASSIGN_OR_RETURN(SmemInstr ld,
                             SideInstrs(dst, choice.smem, r.reps, choice.load,
                                        /*store=*/false, bits, target));
  r.stores.push_back(std::move(st));
  r.loads.push_back(std::move(ld));
  if (target.amd && target.version == TritonVersion::k3_6_0) {
    // AMD under Triton 3.6.0: the hardware's count of the accesses the
    // kernel makes (that lowering computes no figure: docs/triton.md).
    HLOLAYOUT_ASSIGN_OR_RETURN(
        r.store_ways,
        HardwareWays(src, choice.smem, r.reps, r.stores[0].bits, bits,
                     /*load=*/false, target));
    HLOLAYOUT_ASSIGN_OR_RETURN(
        r.load_ways,
        HardwareWays(dst, choice.smem, r.reps, r.loads[0].bits, bits,
                     /*load=*/true, target));
  } else {
    r.store_ways = 1 << choice.store_conflicts_log2;
    r.load_ways = 1 << choice.load_conflicts_log2;
  }
  if (choice.empirical) {
    r.empirical =
        "the ds_read_b128 read phase over lane bits 0, 1, 2, 4 is fitted to "
        "Triton 3.9.0's LLVM IR for gfx950 (docs/triton.md), not read in "
        "its source";
  }
  r.smem = std::move(choice.smem);
  return r;
}

}  // namespace hlolayout::triton
