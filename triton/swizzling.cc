// The shared-memory layout of a convert_layout, written from the statement
// of the rule in docs/triton-swizzling.md ("The rule"): the offset space
// F2^n is split into the vector, bank, segment and rounds bases of each
// candidate way to store and load, and the candidate with the fewest bank
// conflicts (the dimension of the segment's span met with each phase's)
// wins. The subspace operations are triton/f2.h's.
#include "hlolayout/triton/swizzling.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "hlolayout/triton/f2.h"
#include "hlolayout/triton/linear_layout.h"
#include "hlolayout/triton/ops.h"
#include "hlolayout/util/status_macros.h"

namespace hlolayout::triton {
namespace {

// An ordered list of vectors of F2^n (bit c of a vector is offset bit c).
using Vecs = std::vector<uint64_t>;

// ---------------------------------------------------------------------------
// The notation of the statement ("Notation").

bool Has(const Vecs& x, uint64_t v) {
  return std::find(x.begin(), x.end(), v) != x.end();
}

bool UnitsOrZero(const Vecs& x) {
  return std::all_of(x.begin(), x.end(),
                     [](uint64_t v) { return (v & (v - 1)) == 0; });
}

// X & Y: with unit (or zero) vectors only, the members of X that Y has, in
// X's order; otherwise the canonical basis of <X> ∩ <Y>.
Vecs Common(const Vecs& x, const Vecs& y, int n) {
  if (UnitsOrZero(x) && UnitsOrZero(y)) {
    Vecs out;
    for (uint64_t v : x) {
      if (v != 0 && Has(y, v)) out.push_back(v);
    }
    return out;
  }
  return SpanIntersection(x, y, n);
}

// X \ Y: the members of X whose value Y does not have, in X's order.
Vecs Minus(const Vecs& x, const Vecs& y) {
  Vecs out;
  for (uint64_t v : x) {
    if (!Has(y, v)) out.push_back(v);
  }
  return out;
}

Vecs Concat(Vecs x, const Vecs& y) {
  x.insert(x.end(), y.begin(), y.end());
  return x;
}

Vecs First(Vecs x, size_t k) {
  if (x.size() > k) x.resize(k);
  return x;
}

int Log2(int64_t v) { return 63 - __builtin_clzll(static_cast<uint64_t>(v)); }

// ---------------------------------------------------------------------------
// The two sides and the candidates.

// A side's register, lane and warp lists, flattened to offsets.
struct Side {
  Vecs regs, lanes, warps;
};

// What a candidate fixes: the vector, each side's phase and instruction,
// and what the layout step needs to know of how they were found.
struct Candidate {
  Vecs vector;
  Vecs phase[2];  // [0] the source (stores), [1] the destination (loads)
  SmemInstrKind kind[2] = {SmemInstrKind::kVector, SmemInstrKind::kVector};
  bool plain = true;       // a plain ld/st layout (step 7's fallback)
  int widened = -1;        // the side that widened the vector, step 5
  bool empirical = false;  // the fitted gfx950 read phase
  // Both sides use ldmatrix/stmatrix (either form).
  bool BothMatrix() const {
    return kind[0] != SmemInstrKind::kVector &&
           kind[1] != SmemInstrKind::kVector;
  }
};

// A candidate's layout (steps 1 to 4) and its conflicts (log2 of the ways).
struct Laid {
  Vecs vector, bank, segment, reps;
  int ways_log2[2] = {0, 0};
  int ExtraWays() const {
    return (1 << ways_log2[0]) + (1 << ways_log2[1]) - 2;
  }
};

// Everything the steps share.
struct Problem {
  Side side[2];
  int n = 0;     // offset bits
  int bits = 0;  // element width
  int w = 0;     // log2(128 / bits)
  const SmemTarget* target = nullptr;
};

// ---------------------------------------------------------------------------
// Steps 1 to 4: from a candidate to a layout.

// Step 2: the segment, chosen to meet the phases as little as possible.
Vecs ChooseSegment(const Problem& p, const Candidate& c, int size) {
  const Vecs touched_src = Concat(c.vector, c.phase[0]);
  const Vecs touched_dst = Concat(c.vector, c.phase[1]);
  Vecs unreached;  // unit vectors in neither list
  for (int bit = 0; bit < p.n; ++bit) {
    const uint64_t unit = uint64_t{1} << bit;
    if (!Has(touched_src, unit) && !Has(touched_dst, unit)) {
      unreached.push_back(unit);
    }
  }
  auto only = [](const Vecs& mine, const Vecs& theirs) {
    Vecs out;
    for (uint64_t v : Minus(mine, theirs)) {
      if (v != 0 && !Has(out, v)) out.push_back(v);
    }
    std::sort(out.begin(), out.end());
    return out;
  };
  Vecs x = only(touched_src, touched_dst);
  Vecs y = only(touched_dst, touched_src);
  if (x.size() > y.size()) std::swap(x, y);
  const int pairs = static_cast<int>(x.size());
  const int need = size - static_cast<int>(unreached.size());
  const int lent = need <= pairs ? 0 : std::min(need - pairs, pairs);
  Vecs segment = unreached;
  for (int i = lent; i < pairs; ++i) segment.push_back(x[i] ^ y[i]);
  for (int i = 0; i < lent; ++i) segment.push_back(x[i]);
  for (int i = 0; i < lent; ++i) segment.push_back(y[i]);
  // Cut to size, then a repeated vector (a sum equal to an unreached unit)
  // counts once.
  Vecs distinct;
  for (uint64_t v : First(std::move(segment), std::max(size, 0))) {
    if (!Has(distinct, v)) distinct.push_back(v);
  }
  return distinct;
}

// Step 3: the bank bases, the registers of the side that can use them
// first where a plain layout's vector is below 128 bits.
Vecs ChooseBank(const Problem& p, const Candidate& c, const Vecs& segment) {
  Vecs bank = UnitComplement(Concat(c.vector, segment), p.n);
  const bool below_128 = (int64_t{1} << c.vector.size()) * p.bits < 128;
  if (!c.plain || !below_128 || !p.target->reorder_banks) return bank;
  int lead = c.widened;
  if (lead < 0) {
    int count[2] = {0, 0};
    for (int s = 0; s < 2; ++s) {
      for (uint64_t v : bank) count[s] += Has(p.side[s].regs, v);
    }
    lead = count[0] > count[1] ? 0 : 1;
  }
  Vecs first, rest;
  for (uint64_t v : bank) {
    (Has(p.side[lead].regs, v) ? first : rest).push_back(v);
  }
  return Concat(first, rest);
}

// Steps 1 to 4 for one candidate.
Laid LayOut(const Problem& p, const Candidate& c) {
  Laid l;
  l.vector = c.vector;
  const int left = p.n - static_cast<int>(c.vector.size());
  const int64_t phase_bits = int64_t{p.target->banks} * 32;
  const int64_t vector_bits = (int64_t{1} << c.vector.size()) * p.bits;
  const int bank_size = phase_bits <= vector_bits
                            ? 0
                            : std::min(left, Log2(phase_bits / vector_bits));
  Vecs segment = ChooseSegment(p, c, left - bank_size);
  l.bank = ChooseBank(p, c, segment);
  // Step 4: segment bases that are registers of both sides become rounds,
  // but for the first two where both sides use matrix instructions.
  int kept = c.BothMatrix() ? 2 : 0;
  for (uint64_t v : segment) {
    const bool shared = Has(p.side[0].regs, v) && Has(p.side[1].regs, v);
    if (shared && kept > 0) {
      --kept;
      l.segment.push_back(v);
    } else {
      (shared ? l.reps : l.segment).push_back(v);
    }
  }
  for (int s = 0; s < 2; ++s) {
    l.ways_log2[s] = IntersectionDim(l.segment, c.phase[s], p.n);
  }
  return l;
}

// ---------------------------------------------------------------------------
// Steps 5 and 6: the plain ld/st candidates.

// Step 5: the vector, and the side that widened it (-1: the common
// registers made a word already).
std::pair<Vecs, int> PlainVector(const Problem& p) {
  const Side& src = p.side[0];
  const Side& dst = p.side[1];
  Vecs v = First(Common(src.regs, dst.regs, p.n), p.w);
  const int word = p.bits >= 32 ? 0 : Log2(32 / p.bits);
  if (static_cast<int>(v.size()) >= word) return {v, -1};
  const Vecs offer[2] = {Common(Minus(src.regs, v), dst.warps, p.n),
                         Common(Minus(dst.regs, v), src.warps, p.n)};
  int widened = 1;  // with no offers, the loading side
  if (!offer[0].empty() || !offer[1].empty()) {
    if (offer[0].size() != offer[1].size()) {
      widened = offer[0].size() > offer[1].size() ? 0 : 1;
    } else {
      widened = *std::min_element(offer[0].begin(), offer[0].end()) <
                        *std::min_element(offer[1].begin(), offer[1].end())
                    ? 0
                    : 1;
    }
  }
  auto add = [&](uint64_t x) {
    if (static_cast<int>(v.size()) < word && x != 0 && !Has(v, x)) {
      v.push_back(x);
    }
  };
  for (uint64_t x : offer[widened]) add(x);
  for (uint64_t x : Common(src.warps, dst.warps, p.n)) add(x);
  const Vecs warps[2] = {Minus(src.warps, {0}), Minus(dst.warps, {0})};
  for (size_t i = 0; i < std::max(warps[0].size(), warps[1].size()); ++i) {
    if (i < warps[0].size()) add(warps[0][i]);
    if (i < warps[1].size()) add(warps[1][i]);
  }
  return {First(std::move(v), word), widened};
}

// Step 6 for plain ld/st: the first lanes of one phase.
Vecs PlainPhase(const Problem& p, const Vecs& lanes, size_t vector_size) {
  const int64_t vector_bits = (int64_t{1} << vector_size) * p.bits;
  int count = 0;
  if (!p.target->phase_lanes) {
    const int spread = vector_bits <= 32 ? 0 : Log2(vector_bits / 32);
    count = std::max(0, static_cast<int>(lanes.size()) - spread);
  } else {
    const int64_t fill =
        int64_t{p.target->banks} * 32 / std::max<int64_t>(vector_bits, 32);
    count = fill <= 1 ? 0 : Log2(fill);
  }
  return First(lanes, count);
}

Vecs LanesAt(const Vecs& lanes, const std::vector<int>& at) {
  Vecs out;
  for (int i : at) {
    if (i < static_cast<int>(lanes.size())) out.push_back(lanes[i]);
  }
  return out;
}

// Step 7's fallback: one plain candidate per load phase the target weighs.
std::vector<Candidate> PlainCandidates(const Problem& p) {
  Candidate base;
  std::tie(base.vector, base.widened) = PlainVector(p);
  base.phase[0] = PlainPhase(p, p.side[0].lanes, base.vector.size());
  base.phase[1] = PlainPhase(p, p.side[1].lanes, base.vector.size());
  std::vector<Candidate> out;
  const bool b128 = (int64_t{1} << base.vector.size()) * p.bits == 128;
  if (b128 && !p.target->b128_load_lanes.empty()) {
    Candidate c = base;
    c.phase[1] = LanesAt(p.side[1].lanes, p.target->b128_load_lanes);
    out.push_back(c);
    if (!p.target->b128_load_lanes_alt.empty()) {
      c.phase[1] = LanesAt(p.side[1].lanes, p.target->b128_load_lanes_alt);
      c.empirical = true;
      out.push_back(c);
    }
  }
  out.push_back(base);
  return out;
}

// ---------------------------------------------------------------------------
// Step 7: the pairs of tile instructions.

bool LanesHoldData(const Vecs& lanes, const std::vector<int>& at) {
  for (int i : at) {
    if (i >= static_cast<int>(lanes.size()) || lanes[i] == 0) return false;
  }
  return true;
}

// Step 6 for a tile: the registers the address bits leave, then the
// address lanes; nullopt when the side has too few of either.
std::optional<Vecs> TilePhase(const Side& side, const Vecs& vector,
                              const SmemTile& tile) {
  const Vecs spare = Minus(side.regs, vector);
  const size_t from_regs =
      tile.lane_addr.size() >= 3 ? 0 : 3 - tile.lane_addr.size();
  if (spare.size() < from_regs) return std::nullopt;
  for (int i : tile.lane_addr) {
    if (i >= static_cast<int>(side.lanes.size())) return std::nullopt;
  }
  return Concat(First(spare, from_regs), LanesAt(side.lanes, tile.lane_addr));
}

// The candidate of one store tile and one load tile, if the pair fits.
std::optional<Candidate> TilePair(const Problem& p, const SmemTile& st,
                                  const SmemTile& ld) {
  const SmemTile* tile[2] = {&st, &ld};
  const int reg_bits[2] = {p.w - static_cast<int>(st.lane_contig.size()),
                           p.w - static_cast<int>(ld.lane_contig.size())};
  if (reg_bits[0] < 0 || reg_bits[1] < 0) return std::nullopt;
  const int wide = reg_bits[0] >= reg_bits[1] ? 0 : 1;
  const int narrow = 1 - wide;
  const Side& ws = p.side[wide];
  const Side& ns = p.side[narrow];
  const Vecs common = Common(ws.regs, ns.regs, p.n);
  if (static_cast<int>(common.size()) < reg_bits[narrow]) return std::nullopt;
  if (!LanesHoldData(ws.lanes, tile[wide]->lane_contig) ||
      !LanesHoldData(ns.lanes, tile[narrow]->lane_contig)) {
    return std::nullopt;
  }
  // The narrow side's contiguous lanes seen from the wide side: the first
  // `extra` have a register part, the others exactly the wide side's
  // contiguous lane as their lane part.
  const Vecs narrow_contig = LanesAt(ns.lanes, tile[narrow]->lane_contig);
  const Vecs wide_all = Concat(Concat(ws.regs, ws.lanes), ws.warps);
  const size_t extra = reg_bits[wide] - reg_bits[narrow];
  for (size_t i = 0; i < narrow_contig.size(); ++i) {
    const std::optional<uint64_t> at =
        Coordinates(wide_all, narrow_contig[i], p.n);
    if (!at.has_value()) return std::nullopt;
    const uint64_t reg_part = *at & ((uint64_t{1} << ws.regs.size()) - 1);
    const uint64_t lane_part =
        (*at >> ws.regs.size()) & ((uint64_t{1} << ws.lanes.size()) - 1);
    const bool fits =
        i < extra
            ? reg_part != 0
            : lane_part == uint64_t{1} << tile[wide]->lane_contig[i - extra];
    if (!fits) return std::nullopt;
  }
  Candidate c;
  c.plain = false;
  c.kind[0] = st.kind;
  c.kind[1] = ld.kind;
  c.vector = Concat(First(common, reg_bits[narrow]), narrow_contig);
  for (int s = 0; s < 2; ++s) {
    std::optional<Vecs> phase = TilePhase(p.side[s], c.vector, *tile[s]);
    if (!phase.has_value()) return std::nullopt;
    c.phase[s] = *std::move(phase);
  }
  return c;
}

// ---------------------------------------------------------------------------
// Reading the layouts, writing the answer.

absl::StatusOr<Vecs> Read(const LinearLayout& flat, absl::string_view dim) {
  Vecs out;
  const int d = flat.InDimIndex(dim);
  for (int i = 0; d >= 0 && i < flat.InDimSizeLog2(d); ++i) {
    out.push_back(static_cast<uint32_t>(flat.BasisValue(d, i, 0)));
  }
  return out;
}

absl::StatusOr<Side> ReadSide(const LinearLayout& l) {
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout flat, FlattenOuts(l));
  Side s;
  HLOLAYOUT_ASSIGN_OR_RETURN(s.regs, Read(flat, "register"));
  HLOLAYOUT_ASSIGN_OR_RETURN(s.lanes, Read(flat, "lane"));
  HLOLAYOUT_ASSIGN_OR_RETURN(s.warps, Read(flat, "warp"));
  if (Has(s.regs, 0)) {
    return absl::InvalidArgumentError(
        "the layout has broadcast registers (zero register bases): remove "
        "them first (RemoveBroadcastRegisters)");
  }
  return s;
}

// The layout (vector, bank, segment, reps) -> the tensor of `like`.
absl::StatusOr<LinearLayout> ToLayout(const Laid& l, const LinearLayout& like) {
  if (like.num_out_dims() == 0) {
    return LinearLayout::Create(
        {{"vector", {}}, {"bank", {}}, {"segment", {}}, {"reps", {}}}, {},
        /*require_surjective=*/false);
  }
  auto dim = [](const Vecs& v) {
    DimBases out;
    for (uint64_t x : v) out.push_back({static_cast<int32_t>(x)});
    return out;
  };
  const std::string flat_name = like.out_dim_name(0);
  HLOLAYOUT_ASSIGN_OR_RETURN(
      LinearLayout flat,
      LinearLayout::Create(
          {{"vector", dim(l.vector)},
           {"bank", dim(l.bank)},
           {"segment", dim(l.segment)},
           {"reps", dim(l.reps)}},
          {{flat_name, static_cast<int32_t>(like.TotalOutDimSize())}},
          /*require_surjective=*/false));
  return ReshapeOuts(flat, like.out_dims());
}

}  // namespace

SmemTiles SmemTilesFor(int bitwidth, const SmemTarget& target) {
  // ld.shared/st.shared move 128 bits from registers, 8 lanes a phase;
  // ldmatrix/stmatrix hold a 128-bit row in 4 lanes (lane bits 0, 1) with
  // the rows at lane bits 2-4; their .trans forms spread a 16-bit row over
  // 8 lanes (lane bits 2-4), the rows at lane bits 0, 1 and one register.
  const SmemTile vector{{}, {0, 1, 2}, SmemInstrKind::kVector};
  const SmemTile matrix{{0, 1}, {2, 3, 4}, SmemInstrKind::kMatrix};
  const SmemTile trans{{2, 3, 4}, {0, 1}, SmemInstrKind::kMatrixTrans};
  SmemTiles t;
  t.src.push_back(vector);
  t.dst.push_back(vector);
  if (bitwidth <= 32) {
    if (target.st_matrix) t.src.push_back(matrix);
    if (target.ld_matrix) t.dst.push_back(matrix);
  }
  if (bitwidth == 16) {
    if (target.st_matrix) t.src.push_back(trans);
    if (target.ld_matrix) t.dst.push_back(trans);
  }
  return t;
}

absl::StatusOr<LinearLayout> RemoveBroadcastRegisters(const LinearLayout& l) {
  const int d = l.InDimIndex("register");
  if (d < 0) return l;
  std::vector<int> keep;
  for (int i = 0; i < l.InDimSizeLog2(d); ++i) {
    const absl::Span<const int32_t> b = l.Basis(d, i);
    if (std::any_of(b.begin(), b.end(), [](int32_t v) { return v != 0; })) {
      keep.push_back(i);
    }
  }
  return ApplyColumnAction(l, "register", keep);
}

absl::StatusOr<SwizzleChoice> OptimalSwizzling(const LinearLayout& src,
                                               const LinearLayout& dst,
                                               const SmemTiles& tiles,
                                               int bitwidth,
                                               const SmemTarget& target) {
  if (bitwidth <= 0 || bitwidth > 128 || (bitwidth & (bitwidth - 1)) != 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "element width ", bitwidth, " bits is not a power of two up to 128"));
  }
  Problem p;
  HLOLAYOUT_ASSIGN_OR_RETURN(p.side[0], ReadSide(src));
  HLOLAYOUT_ASSIGN_OR_RETURN(p.side[1], ReadSide(dst));
  p.n = src.TotalOutDimSizeLog2();
  p.bits = bitwidth;
  p.w = Log2(128 / bitwidth);
  p.target = &target;
  std::vector<Candidate> candidates;
  if (target.weigh_tiles) {
    for (const SmemTile& st : tiles.src) {
      for (const SmemTile& ld : tiles.dst) {
        std::optional<Candidate> c = TilePair(p, st, ld);
        if (c.has_value()) candidates.push_back(*std::move(c));
      }
    }
  }
  if (candidates.empty()) candidates = PlainCandidates(p);
  std::optional<Laid> best;
  const Candidate* chosen = nullptr;
  for (const Candidate& c : candidates) {
    Laid l = LayOut(p, c);
    const bool better = !best.has_value() ||
                        l.ExtraWays() < best->ExtraWays() ||
                        (l.ExtraWays() == best->ExtraWays() &&
                         l.reps.size() > best->reps.size());
    if (better) {
      best = std::move(l);
      chosen = &c;
    }
  }
  SwizzleChoice out;
  HLOLAYOUT_ASSIGN_OR_RETURN(out.smem, ToLayout(*best, src));
  out.store = chosen->kind[0];
  out.load = chosen->kind[1];
  out.store_conflicts_log2 = best->ways_log2[0];
  out.load_conflicts_log2 = best->ways_log2[1];
  out.empirical = chosen->empirical;
  return out;
}

absl::StatusOr<int64_t> ScratchElements(const LinearLayout& src,
                                        const LinearLayout& dst, int bitwidth,
                                        const SmemTarget& target) {
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout s, RemoveBroadcastRegisters(src));
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout d, RemoveBroadcastRegisters(dst));
  HLOLAYOUT_ASSIGN_OR_RETURN(
      SwizzleChoice c,
      OptimalSwizzling(s, d, SmemTilesFor(bitwidth, target), bitwidth, target));
  return c.smem.TotalOutDimSize() / c.smem.InDimSize(c.smem.InDimIndex("reps"));
}

}  // namespace hlolayout::triton
