#include "hlolayout/triton/swizzling_port.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "hlolayout/triton/f2.h"
#include "hlolayout/triton/ops.h"
#include "hlolayout/util/status_macros.h"

namespace hlolayout::triton::port {
namespace {

using Vec = std::vector<int32_t>;

bool Contains(const Vec& v, int32_t x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

bool IsPow2(int32_t x) { return x > 0 && (x & (x - 1)) == 0; }

int Log2Floor(int64_t x) {
  // llvm::Log2_32: -1 for 0.
  if (x <= 0) return -1;
  return 63 - __builtin_clzll(static_cast<uint64_t>(x));
}

// The bases of in-dim `dim` of a layout with one out-dim, as values.
Vec Flat(const LinearLayout& l, absl::string_view dim) {
  Vec v;
  const int d = l.InDimIndex(dim);
  if (d < 0) return v;
  for (int i = 0; i < l.InDimSizeLog2(d); ++i)
    v.push_back(l.BasisValue(d, i, 0));
  return v;
}

// Values in first-seen order without repeats (an llvm::SetVector).
Vec Unique(const Vec& v) {
  Vec out;
  for (int32_t x : v) {
    if (!Contains(out, x)) out.push_back(x);
  }
  return out;
}

std::vector<uint64_t> Rows(const Vec& v) {
  std::vector<uint64_t> rows;
  for (int32_t x : v) rows.push_back(static_cast<uint32_t>(x));
  return rows;
}

Vec NullspaceBasis(const Vec& vectors, int dim) {
  std::vector<uint64_t> m = Rows(vectors);
  ReduceRowEchelon(m, dim);
  uint64_t pivots = 0;
  for (uint64_t r : m) {
    if (r) pivots |= uint64_t{1} << LowestBit(r);
  }
  Vec basis;
  for (int free = 0; free < dim; ++free) {
    if ((pivots >> free) & 1) continue;
    uint64_t v = uint64_t{1} << free;
    for (uint64_t r : m) {
      if (r & (uint64_t{1} << free)) v ^= uint64_t{1} << LowestBit(r);
    }
    basis.push_back(static_cast<int32_t>(v));
  }
  return basis;
}

Vec IntersectionBasis(const Vec& b1, const Vec& b2, int dim) {
  const bool pow2 = std::all_of(b1.begin(), b1.end(), IsPow2) &&
                    std::all_of(b2.begin(), b2.end(), IsPow2);
  if (pow2) {
    Vec result;
    for (int32_t b : b1) {
      if (b != 0 && Contains(b2, b)) result.push_back(b);
    }
    return result;
  }
  Vec joint = NullspaceBasis(b1, dim);
  const Vec ns2 = NullspaceBasis(b2, dim);
  joint.insert(joint.end(), ns2.begin(), ns2.end());
  return NullspaceBasis(joint, dim);
}

Vec ComplementBasis(const Vec& basis, int dim) {
  std::vector<uint64_t> m = Rows(basis);
  ReduceRowEchelon(m, dim);
  uint64_t pivots = 0;
  for (uint64_t r : m) {
    if (r) pivots |= uint64_t{1} << LowestBit(r);
  }
  Vec comp;
  for (int i = 0; i < dim; ++i) {
    if (!((pivots >> i) & 1)) comp.push_back(int32_t{1} << i);
  }
  return comp;
}

Vec ComputeSegment(const Vec& bank_src, const Vec& bank_dst, int dim,
                   int len_segment) {
  Vec set_src, set_dst;  // as sets: order irrelevant but sorted later
  for (int32_t v : bank_src) {
    if (v != 0 && !Contains(set_src, v)) set_src.push_back(v);
  }
  for (int32_t v : bank_dst) {
    if (v != 0 && !Contains(set_dst, v)) set_dst.push_back(v);
  }
  Vec segment;
  for (int b = 0; b < dim; ++b) {
    const int32_t bit = int32_t{1} << b;
    if (!Contains(set_src, bit) && !Contains(set_dst, bit)) {
      segment.push_back(bit);
    }
  }
  if (static_cast<int>(segment.size()) >= len_segment) {
    segment.resize(std::max(len_segment, 0));
    return segment;
  }
  Vec a, b;
  for (int32_t v : set_src) {
    if (!Contains(set_dst, v)) a.push_back(v);
  }
  for (int32_t v : set_dst) {
    if (!Contains(set_src, v)) b.push_back(v);
  }
  if (a.size() > b.size()) std::swap(a, b);
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  const int conflicts =
      std::min<int>(std::max<int>(0, len_segment - static_cast<int>(a.size()) -
                                         static_cast<int>(segment.size())),
                    static_cast<int>(a.size()));
  for (size_t i = conflicts; i < a.size(); ++i) segment.push_back(a[i] ^ b[i]);
  segment.insert(segment.end(), a.begin(), a.begin() + conflicts);
  segment.insert(segment.end(), b.begin(), b.begin() + conflicts);
  if (static_cast<int>(segment.size()) > len_segment) {
    segment.resize(len_segment);
  }
  return segment;
}

DimBases Unflatten(const Vec& v) {
  DimBases out;
  for (int32_t x : v) out.push_back({x});
  return out;
}

// Splits the segment bases that are registers of both layouts into `reps`
// (one round per rep), keeping the first `leave_reps` for vectorisation.
absl::StatusOr<LinearLayout> BuildReps(const LinearLayout& src,
                                       const LinearLayout& dst,
                                       const LinearLayout& smem,
                                       int leave_reps) {
  const Vec src_regs = Flat(src, "register");
  const Vec dst_regs = Flat(dst, "register");
  const Vec smem_segment = Unique(Flat(smem, "segment"));
  Vec segment, reps;
  for (int32_t s : smem_segment) {
    if (Contains(src_regs, s) && Contains(dst_regs, s)) {
      if (leave_reps > 0) {
        --leave_reps;
        if (!Contains(segment, s)) segment.push_back(s);
      } else if (!Contains(reps, s)) {
        reps.push_back(s);
      }
    } else if (!Contains(segment, s)) {
      segment.push_back(s);
    }
  }
  return LinearLayout::Create({{"vector", Unflatten(Flat(smem, "vector"))},
                               {"bank", Unflatten(Flat(smem, "bank"))},
                               {"segment", Unflatten(segment)},
                               {"reps", Unflatten(reps)}},
                              smem.out_dims(), /*require_surjective=*/true);
}

absl::StatusOr<LinearLayout> Swizzle(const LinearLayout& src,
                                     const LinearLayout& dst, int bitwidth,
                                     const Vec& vbasis, const Vec& tile_src,
                                     const Vec& tile_dst,
                                     const NamedInts& out_dims, int leave_reps,
                                     int banks) {
  const int dim = src.TotalOutDimSizeLog2();
  for (const LinearLayout* l : {&src, &dst}) {
    for (int32_t r : Flat(*l, "register")) {
      if (r == 0) {
        return absl::InvalidArgumentError(
            "Remove register broadcasting from src and dst first");
      }
    }
  }
  Vec bank_src = vbasis, bank_dst = vbasis;
  bank_src.insert(bank_src.end(), tile_src.begin(), tile_src.end());
  bank_dst.insert(bank_dst.end(), tile_dst.begin(), tile_dst.end());
  const int nv = static_cast<int>(vbasis.size());
  // The bases that cover one phase of `banks` 4-byte banks.
  const int len_b = std::min<int>(
      Log2Floor(int64_t{banks} * 32 / ((int64_t{1} << nv) * bitwidth)),
      dim - nv);
  const int len_s = dim - len_b - nv;
  const Vec sbasis = ComputeSegment(bank_src, bank_dst, dim, len_s);
  Vec all = vbasis;
  all.insert(all.end(), sbasis.begin(), sbasis.end());
  const Vec bbasis = ComplementBasis(all, dim);
  HLOLAYOUT_ASSIGN_OR_RETURN(
      LinearLayout basis1d,
      LinearLayout::Create({{"vector", Unflatten(vbasis)},
                            {"bank", Unflatten(bbasis)},
                            {"segment", Unflatten(sbasis)}},
                           src.out_dims(), /*require_surjective=*/true));
  HLOLAYOUT_ASSIGN_OR_RETURN(basis1d, BuildReps(src, dst, basis1d, leave_reps));
  return ReshapeOuts(basis1d, out_dims);
}

// Triton's bankConflicts, as log2 of the ways: (read, write), the
// dimension of the segment's intersection with each side's phase tile.
std::pair<int, int> BankConflicts(const Vec& tile_src, const Vec& tile_dst,
                                  const LinearLayout& smem) {
  absl::StatusOr<LinearLayout> flat = FlattenOuts(smem);
  const Vec segment = flat.ok() ? Flat(*flat, "segment") : Vec{};
  const int rank = smem.TotalOutDimSizeLog2();
  return {static_cast<int>(IntersectionBasis(segment, tile_dst, rank).size()),
          static_cast<int>(IntersectionBasis(segment, tile_src, rank).size())};
}

// Triton's getVecBasisLdSt: the tensor bases an ld/st moves at once. The
// registers both layouts hold (at most 128 bits); below 32 bits, filled up
// to a 4-byte bank with registers of one side that are warps of the other
// (the side with more, or with the lower basis on a tie: `src_fills` says
// which), then with warp bases. Never more than a bank when filled: an
// asymmetric vector would conflict.
Vec VecBasisLdSt(const LinearLayout& src, const LinearLayout& dst, int bitwidth,
                 std::optional<bool>* src_fills) {
  const Vec reg_src = Flat(src, "register"), reg_dst = Flat(dst, "register");
  const int dim = src.TotalOutDimSizeLog2();
  Vec vbasis = IntersectionBasis(reg_src, reg_dst, dim);
  const int max_vec = Log2Floor(128 / bitwidth);
  if (static_cast<int>(vbasis.size()) > max_vec) vbasis.resize(max_vec);
  src_fills->reset();
  if ((int64_t{1} << vbasis.size()) * bitwidth >= 32) return vbasis;
  const int per_bank = Log2Floor(32 / bitwidth);
  auto nonzero = [](const Vec& v) {
    Vec out;
    for (int32_t x : v) {
      if (x != 0) out.push_back(x);
    }
    return out;
  };
  const Vec warp_src = nonzero(Flat(src, "warp"));
  const Vec warp_dst = nonzero(Flat(dst, "warp"));
  auto without_vector = [&](const Vec& v) {
    Vec out;
    for (int32_t x : v) {
      if (!Contains(vbasis, x)) out.push_back(x);
    }
    return out;
  };
  const Vec src_in_warps =
      IntersectionBasis(without_vector(reg_src), warp_dst, dim);
  const Vec dst_in_warps =
      IntersectionBasis(without_vector(reg_dst), warp_src, dim);
  bool fills = false;
  if (src_in_warps.size() == dst_in_warps.size() && !src_in_warps.empty()) {
    fills = *std::min_element(src_in_warps.begin(), src_in_warps.end()) <
            *std::min_element(dst_in_warps.begin(), dst_in_warps.end());
  } else {
    fills = src_in_warps.size() > dst_in_warps.size();
  }
  *src_fills = fills;
  const Vec& largest = fills ? src_in_warps : dst_in_warps;
  vbasis.insert(vbasis.end(), largest.begin(), largest.end());
  if (static_cast<int>(vbasis.size()) < per_bank) {
    const Vec both = IntersectionBasis(warp_src, warp_dst, dim);
    vbasis.insert(vbasis.end(), both.begin(), both.end());
  }
  for (size_t i = 0; static_cast<int>(vbasis.size()) < per_bank &&
                     (i < warp_src.size() || i < warp_dst.size());
       ++i) {
    if (i < warp_src.size() && !Contains(vbasis, warp_src[i])) {
      vbasis.push_back(warp_src[i]);
    }
    if (static_cast<int>(vbasis.size()) < per_bank && i < warp_dst.size() &&
        !Contains(vbasis, warp_dst[i])) {
      vbasis.push_back(warp_dst[i]);
    }
  }
  if (static_cast<int>(vbasis.size()) > per_bank) vbasis.resize(per_bank);
  return vbasis;
}

// The lane bases of one ld/st access phase (Triton's getLaneTile; 3.6:
// every lane but those a vector wider than 32 bits spreads over banks).
Vec LaneTile(const Vec& lanes, const std::vector<int>& lane_addr, int vec_elems,
             int bitwidth, const SmemTarget& target) {
  const int log2_vec =
      Log2Floor(std::max<int64_t>(1, int64_t{vec_elems} * bitwidth / 32));
  int drop = log2_vec;
  if (target.phase_lanes) {
    drop = std::max(
        0, log2_vec + static_cast<int>(lanes.size()) - Log2Floor(target.banks));
    if (!lane_addr.empty()) {
      Vec out;
      for (int i : lane_addr) {
        if (i < static_cast<int>(lanes.size())) out.push_back(lanes[i]);
      }
      return out;
    }
  }
  return Vec(lanes.begin(),
             lanes.end() - std::min<int>(drop, static_cast<int>(lanes.size())));
}

// Triton's optimalSwizzlingLdSt: the layout for plain ld/st, with the bank
// bases that are registers of the side that filled the bank (or of the side
// with more of them) first, so that side vectorises further when the
// vector is below 64 bits.
absl::StatusOr<SwizzleChoice> SwizzleLdStPhase(const LinearLayout& src,
                                               const LinearLayout& dst,
                                               int bitwidth,
                                               const SmemTarget& target,
                                               const std::vector<int>& phase) {
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout src_flat, FlattenOuts(src));
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout dst_flat, FlattenOuts(dst));
  const Vec reg_src = Flat(src_flat, "register");
  const Vec reg_dst = Flat(dst_flat, "register");
  std::optional<bool> src_fills;
  const Vec vbasis = VecBasisLdSt(src_flat, dst_flat, bitwidth, &src_fills);
  const int vec = 1 << vbasis.size();
  const int log2_vec =
      Log2Floor(std::max<int64_t>(1, int64_t{vec} * bitwidth / 32));
  const std::vector<int>& load_addr = phase;
  const Vec tile_src =
      LaneTile(Flat(src_flat, "lane"), {}, vec, bitwidth, target);
  const Vec tile_dst =
      LaneTile(Flat(dst_flat, "lane"), load_addr, vec, bitwidth, target);
  SwizzleChoice choice;
  HLOLAYOUT_ASSIGN_OR_RETURN(
      choice.smem, Swizzle(src_flat, dst_flat, bitwidth, vbasis, tile_src,
                           tile_dst, src.out_dims(), 0, target.banks));
  if (log2_vec < 2 && target.reorder_banks) {
    HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout smem_flat,
                               FlattenOuts(choice.smem));
    const Vec bank = Flat(smem_flat, "bank");
    std::vector<int> in_src, in_dst;
    for (int i = 0; i < static_cast<int>(bank.size()); ++i) {
      if (Contains(reg_src, bank[i])) in_src.push_back(i);
      if (Contains(reg_dst, bank[i])) in_dst.push_back(i);
    }
    std::vector<int> order;
    if (src_fills.has_value()) {
      order = *src_fills ? in_src : in_dst;
    } else {
      order = in_src.size() > in_dst.size() ? in_src : in_dst;
    }
    for (int i = 0; i < static_cast<int>(bank.size()); ++i) {
      if (std::find(order.begin(), order.end(), i) == order.end()) {
        order.push_back(i);
      }
    }
    HLOLAYOUT_ASSIGN_OR_RETURN(choice.smem,
                               ApplyColumnAction(choice.smem, "bank", order));
  }
  const auto [read, write] = BankConflicts(tile_src, tile_dst, choice.smem);
  choice.load_conflicts_log2 = read;
  choice.store_conflicts_log2 = write;
  return choice;
}

// Whether plain ld/st of `src` and `dst` move 128 bits at once.
absl::StatusOr<bool> Moves128Bits(const LinearLayout& src,
                                  const LinearLayout& dst, int bitwidth) {
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout src_flat, FlattenOuts(src));
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout dst_flat, FlattenOuts(dst));
  std::optional<bool> src_fills;
  const Vec vbasis = VecBasisLdSt(src_flat, dst_flat, bitwidth, &src_fills);
  return (int64_t{1} << vbasis.size()) * bitwidth == 128;
}

// The ld/st layout. Where the target reads 128 bits in its own lane order
// (AMD ds_read_b128 in Triton 3.9.0), the layouts for that phase, for the
// target's other phase if it has one, and for the first lanes are
// candidates, weighed as Triton weighs tiles: fewer bank conflicts (store
// plus load), then more rounds (less scratch); the earlier on a tie.
absl::StatusOr<SwizzleChoice> SwizzleLdSt(const LinearLayout& src,
                                          const LinearLayout& dst, int bitwidth,
                                          const SmemTarget& target) {
  bool b128 = false;
  if (target.phase_lanes && !target.b128_load_lanes.empty()) {
    HLOLAYOUT_ASSIGN_OR_RETURN(b128, Moves128Bits(src, dst, bitwidth));
  }
  std::vector<std::vector<int>> phases;
  if (b128) {
    phases.push_back(target.b128_load_lanes);
    if (!target.b128_load_lanes_alt.empty()) {
      phases.push_back(target.b128_load_lanes_alt);
    }
  }
  phases.push_back({});
  // Triton adds the extra ways of each side: 2^store - 1 + 2^load - 1.
  auto extra_ways = [](const SwizzleChoice& c) {
    return (1 << c.store_conflicts_log2) + (1 << c.load_conflicts_log2) - 2;
  };
  std::optional<SwizzleChoice> best;
  for (const std::vector<int>& phase : phases) {
    HLOLAYOUT_ASSIGN_OR_RETURN(
        SwizzleChoice c, SwizzleLdStPhase(src, dst, bitwidth, target, phase));
    c.empirical = !phase.empty() && phase == target.b128_load_lanes_alt;
    if (best.has_value()) {
      const int64_t reps = c.smem.InDimSize(c.smem.InDimIndex("reps"));
      const int64_t best_reps =
          best->smem.InDimSize(best->smem.InDimIndex("reps"));
      if (extra_ways(c) > extra_ways(*best) ||
          (extra_ways(c) == extra_ways(*best) && reps <= best_reps)) {
        continue;
      }
    }
    best = std::move(c);
  }
  return *std::move(best);
}

// The tile of an a/b instruction pair (Triton's optimalSwizzlingTile).
std::optional<Vec> SwizzlingTile(const LinearLayout& a, const LinearLayout& b,
                                 int n_reg_a, int n_reg_b,
                                 const std::vector<int>& lane_tile_a,
                                 const std::vector<int>& lane_tile_b) {
  if (n_reg_a < n_reg_b) {
    return SwizzlingTile(b, a, n_reg_b, n_reg_a, lane_tile_b, lane_tile_a);
  }
  const int dim = a.TotalOutDimSizeLog2();
  absl::StatusOr<LinearLayout> cvt = InvertAndCompose(b, a);
  if (!cvt.ok()) return std::nullopt;
  const Vec reg_a = Flat(a, "register"), reg_b = Flat(b, "register");
  const Vec lane_a = Flat(a, "lane"), lane_b = Flat(b, "lane");
  Vec vbasis = IntersectionBasis(reg_a, reg_b, dim);
  if (static_cast<int>(vbasis.size()) < n_reg_b) return std::nullopt;
  vbasis.resize(n_reg_b);
  Vec tile_a, tile_b;
  for (int id : lane_tile_a) {
    if (id >= static_cast<int>(lane_a.size())) return std::nullopt;
    tile_a.push_back(lane_a[id]);
  }
  for (int id : lane_tile_b) {
    if (id >= static_cast<int>(lane_b.size())) return std::nullopt;
    tile_b.push_back(lane_b[id]);
  }
  for (int32_t x : tile_a) {
    if (x == 0) return std::nullopt;
  }
  for (int32_t x : tile_b) {
    if (x == 0) return std::nullopt;
  }
  const int lane = cvt->InDimIndex("lane");
  const int out_reg = cvt->OutDimIndex("register");
  const int out_lane = cvt->OutDimIndex("lane");
  if (lane < 0 || out_reg < 0 || out_lane < 0) return std::nullopt;
  for (int i = 0; i < n_reg_a - n_reg_b; ++i) {
    if (cvt->BasisValue(lane, lane_tile_b[i], out_reg) == 0)
      return std::nullopt;
  }
  const size_t skip = lane_tile_b.size() - lane_tile_a.size();
  for (size_t k = 0; k < lane_tile_a.size(); ++k) {
    if (cvt->BasisValue(lane, lane_tile_b[skip + k], out_lane) !=
        (int32_t{1} << lane_tile_a[k])) {
      return std::nullopt;
    }
  }
  vbasis.insert(vbasis.end(), tile_b.begin(), tile_b.end());
  return vbasis;
}

}  // namespace

absl::StatusOr<SwizzleChoice> OptimalSwizzling(const LinearLayout& src,
                                               const LinearLayout& dst,
                                               const SmemTiles& tiles,
                                               int bitwidth,
                                               const SmemTarget& target) {
  if (bitwidth <= 0 || bitwidth > 128 || (bitwidth & (bitwidth - 1)) != 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "element width ", bitwidth, " bits is not a power of two up to 128"));
  }
  if (!target.weigh_tiles) return SwizzleLdSt(src, dst, bitwidth, target);
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout src_flat, FlattenOuts(src));
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout dst_flat, FlattenOuts(dst));
  const int total = Log2Floor(128 / bitwidth);
  struct Candidate {
    int src_tile, dst_tile;
    Vec vbasis;
  };
  std::vector<Candidate> pairs;
  for (size_t s = 0; s < tiles.src.size(); ++s) {
    const int reg_s = total - static_cast<int>(tiles.src[s].lane_contig.size());
    for (size_t d = 0; d < tiles.dst.size(); ++d) {
      const int reg_d =
          total - static_cast<int>(tiles.dst[d].lane_contig.size());
      std::optional<Vec> t =
          SwizzlingTile(src_flat, dst_flat, reg_s, reg_d,
                        tiles.src[s].lane_contig, tiles.dst[d].lane_contig);
      if (t.has_value()) {
        pairs.push_back({static_cast<int>(s), static_cast<int>(d), *t});
      }
    }
  }
  const Vec reg_src = Flat(src_flat, "register");
  const Vec reg_dst = Flat(dst_flat, "register");
  const Vec lane_src = Flat(src_flat, "lane");
  const Vec lane_dst = Flat(dst_flat, "lane");
  auto get_tile = [](const SmemTile& instr, const Vec& regs, const Vec& lane,
                     const Vec& vbasis) -> std::optional<Vec> {
    Vec tile;
    int needed = 3 - static_cast<int>(instr.lane_addr.size());
    for (int32_t r : regs) {
      if (needed == 0) break;
      if (!Contains(vbasis, r)) {
        tile.push_back(r);
        --needed;
      }
    }
    if (needed > 0) return std::nullopt;
    for (int i : instr.lane_addr) {
      if (i >= static_cast<int>(lane.size())) return std::nullopt;
      tile.push_back(lane[i]);
    }
    return tile;
  };
  std::optional<SwizzleChoice> best;
  int best_conflicts = 0;
  for (const Candidate& c : pairs) {
    const SmemTile& s = tiles.src[c.src_tile];
    const SmemTile& d = tiles.dst[c.dst_tile];
    std::optional<Vec> tile_src = get_tile(s, reg_src, lane_src, c.vbasis);
    std::optional<Vec> tile_dst = get_tile(d, reg_dst, lane_dst, c.vbasis);
    if (!tile_src.has_value() || !tile_dst.has_value()) continue;
    const int missing_s =
        static_cast<int>(s.lane_contig.size() + s.lane_addr.size()) - 3;
    const int missing_d =
        static_cast<int>(d.lane_contig.size() + d.lane_addr.size()) - 3;
    const int leave = std::min(missing_s, missing_d);
    HLOLAYOUT_ASSIGN_OR_RETURN(
        LinearLayout smem,
        Swizzle(src_flat, dst_flat, bitwidth, c.vbasis, *tile_src, *tile_dst,
                src.out_dims(), leave, target.banks));
    const auto [read, write] = BankConflicts(*tile_src, *tile_dst, smem);
    // Triton counts a k-way conflict as k - 1 and adds both sides.
    const int conflicts = ((1 << read) - 1) + ((1 << write) - 1);
    const int reps = smem.InDimSize(smem.InDimIndex("reps"));
    if (!best.has_value() || conflicts < best_conflicts ||
        (conflicts == best_conflicts &&
         reps > best->smem.InDimSize(best->smem.InDimIndex("reps")))) {
      best = SwizzleChoice{smem, s.kind, d.kind, write, read};
      best_conflicts = conflicts;
    }
  }
  if (!best.has_value()) return SwizzleLdSt(src, dst, bitwidth, target);
  return *std::move(best);
}

}  // namespace hlolayout::triton::port
