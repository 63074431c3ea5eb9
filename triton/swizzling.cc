// The shared-memory layout of a convert_layout, as docs/triton-swizzling.md
// describes it. The code follows the document's sections:
//
//   1. Bit vectors: a register layout read as its tensor bases, and the
//      two subspace questions asked of them (SharedBases, UnitComplement).
//   2. The vector: what one thread moves at once (PlainVector, PairVector).
//   3. Access phases: which bases one instruction touches (PlainPhase,
//      MatrixPhase).
//   4. Laying out one plan: segment, bank, rounds, conflicts (LayOut).
//   5. Plans and the choice among them (MatrixPlans, PlainPlans, Outranks).
#include "hlolayout/triton/swizzling.h"

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

// ---------------------------------------------------------------------
// 1. Bit vectors
// ---------------------------------------------------------------------

// Tensor bases: the flat offset (one out-dim) each in-dim basis reaches.
using Bases = std::vector<int32_t>;

int FloorLog2(int64_t x) {
  return x <= 0 ? -1 : 63 - __builtin_clzll(static_cast<uint64_t>(x));
}

bool Holds(const Bases& set, int32_t b) {
  return std::find(set.begin(), set.end(), b) != set.end();
}

bool IsUnit(int32_t b) { return b > 0 && (b & (b - 1)) == 0; }

void Append(Bases& to, const Bases& more) {
  to.insert(to.end(), more.begin(), more.end());
}

// `bases` without those in `drop` (order kept).
Bases Except(const Bases& bases, const Bases& drop) {
  Bases out;
  for (int32_t b : bases) {
    if (!Holds(drop, b)) out.push_back(b);
  }
  return out;
}

Bases NonZero(const Bases& bases) { return Except(bases, {0}); }

std::vector<uint64_t> AsRows(const Bases& bases) {
  std::vector<uint64_t> rows;
  for (int32_t b : bases) rows.push_back(static_cast<uint32_t>(b));
  return rows;
}

Bases FromRows(const std::vector<uint64_t>& rows) {
  Bases out;
  for (uint64_t r : rows) out.push_back(static_cast<int32_t>(r));
  return out;
}

// SharedBases
//
// A basis of what `first` and `second` both span. When both are unit
// vectors this is the units of `first` that `second` also has, in the
// order of `first` (so a layout's own order is kept); otherwise the
// intersection's TopBitBasis.
Bases SharedBases(const Bases& first, const Bases& second, int bits) {
  if (std::all_of(first.begin(), first.end(), IsUnit) &&
      std::all_of(second.begin(), second.end(), IsUnit)) {
    Bases out;
    for (int32_t b : first) {
      if (Holds(second, b)) out.push_back(b);
    }
    return out;
  }
  return FromRows(SpanIntersection(AsRows(first), AsRows(second), bits));
}

// The bases of in-dim `name` of a one-out-dim layout (empty if absent).
Bases InDimBases(const LinearLayout& flat, absl::string_view name) {
  Bases out;
  const int d = flat.InDimIndex(name);
  if (d < 0) return out;
  for (int i = 0; i < flat.InDimSizeLog2(d); ++i) {
    out.push_back(flat.BasisValue(d, i, 0));
  }
  return out;
}

// One side of the conversion (the stored layout or the loaded one).
struct Side {
  LinearLayout flat;  // the register layout on one flat out-dim
  Bases registers, lanes, warps;
};

absl::StatusOr<Side> ReadSide(const LinearLayout& layout) {
  Side s;
  HLOLAYOUT_ASSIGN_OR_RETURN(s.flat, FlattenOuts(layout));
  s.registers = InDimBases(s.flat, "register");
  s.lanes = InDimBases(s.flat, "lane");
  s.warps = InDimBases(s.flat, "warp");
  return s;
}

// ---------------------------------------------------------------------
// 2. The vector
// ---------------------------------------------------------------------

enum class Which { kStored, kLoaded };

struct PlainVector {
  Bases bases;
  // The side whose registers widened a sub-word vector to a whole bank
  // word; empty when the common registers already fill one.
  std::optional<Which> widened_by;
};

// Which side widens the vector: the one offering more registers the other
// keeps in warps, on a tie the one whose lowest offered basis is lower;
// the loaded side when neither offers any.
Which Widener(const Bases& stored_offer, const Bases& loaded_offer) {
  if (stored_offer.size() != loaded_offer.size() || stored_offer.empty()) {
    return stored_offer.size() > loaded_offer.size() ? Which::kStored
                                                     : Which::kLoaded;
  }
  return *std::min_element(stored_offer.begin(), stored_offer.end()) <
                 *std::min_element(loaded_offer.begin(), loaded_offer.end())
             ? Which::kStored
             : Which::kLoaded;
}

// Fills a sub-word vector up to one 4-byte bank word: first with the
// chosen side's registers that the other side holds in warps, then with
// the warps both share, then with the warps of either side taken in turn.
void WidenToWord(const Side& stored, const Side& loaded, int bitwidth, int bits,
                 PlainVector& v) {
  const size_t per_word = FloorLog2(32 / bitwidth);
  const Bases stored_warps = NonZero(stored.warps);
  const Bases loaded_warps = NonZero(loaded.warps);
  const Bases stored_offer =
      SharedBases(Except(stored.registers, v.bases), loaded_warps, bits);
  const Bases loaded_offer =
      SharedBases(Except(loaded.registers, v.bases), stored_warps, bits);
  v.widened_by = Widener(stored_offer, loaded_offer);
  Append(v.bases,
         *v.widened_by == Which::kStored ? stored_offer : loaded_offer);
  if (v.bases.size() < per_word) {
    Append(v.bases, SharedBases(stored_warps, loaded_warps, bits));
  }
  Bases in_turn;
  for (size_t i = 0; i < std::max(stored_warps.size(), loaded_warps.size());
       ++i) {
    if (i < stored_warps.size()) in_turn.push_back(stored_warps[i]);
    if (i < loaded_warps.size()) in_turn.push_back(loaded_warps[i]);
  }
  for (int32_t w : in_turn) {
    if (v.bases.size() >= per_word) break;
    if (!Holds(v.bases, w)) v.bases.push_back(w);
  }
  if (v.bases.size() > per_word) v.bases.resize(per_word);
}

// The vector of plain ld/st: the registers both sides share, at most 128
// bits; below a 4-byte word, widened to one (WidenToWord).
PlainVector PlainVectorFor(const Side& stored, const Side& loaded, int bitwidth,
                           int bits) {
  PlainVector v;
  v.bases = SharedBases(stored.registers, loaded.registers, bits);
  const size_t widest = FloorLog2(128 / bitwidth);
  if (v.bases.size() > widest) v.bases.resize(widest);
  if ((int64_t{1} << v.bases.size()) * bitwidth < 32) {
    WidenToWord(stored, loaded, bitwidth, bits, v);
  }
  return v;
}

// The lanes of `lanes` at positions `picks`; empty if one is missing.
std::optional<Bases> LanesAt(const Bases& lanes,
                             const std::vector<int>& picks) {
  Bases out;
  for (int p : picks) {
    if (p >= static_cast<int>(lanes.size())) return std::nullopt;
    out.push_back(lanes[p]);
  }
  return out;
}

// One side's part in a pair of instructions.
struct InstrSide {
  const Side* side;
  int register_bits;               // log2 registers per 128-bit access
  const std::vector<int>* contig;  // its lane bits of contiguous data
};

// PairVector
//
// The vector a pair of instructions moves, or nothing when the pair does
// not fit the two layouts. The "wide" instruction takes more register
// bits than the "narrow" one; the difference is made up on the narrow
// side by lanes. The vector is the first `narrow.register_bits` registers
// both sides share (in the wide side's order), then the narrow side's
// contiguous lanes. It fits when those lanes exist and hold data, the
// first of the narrow side's contiguous lanes land in the wide side's
// registers, and the rest land exactly on the wide side's contiguous
// lanes, in order.
std::optional<Bases> PairVector(InstrSide wide, InstrSide narrow, int bits) {
  if (wide.register_bits < narrow.register_bits) std::swap(wide, narrow);
  absl::StatusOr<LinearLayout> to_wide =
      InvertAndCompose(narrow.side->flat, wide.side->flat);
  if (!to_wide.ok()) return std::nullopt;
  Bases vector =
      SharedBases(wide.side->registers, narrow.side->registers, bits);
  if (static_cast<int>(vector.size()) < narrow.register_bits) {
    return std::nullopt;
  }
  vector.resize(narrow.register_bits);
  const std::optional<Bases> wide_lanes =
      LanesAt(wide.side->lanes, *wide.contig);
  const std::optional<Bases> narrow_lanes =
      LanesAt(narrow.side->lanes, *narrow.contig);
  if (!wide_lanes || !narrow_lanes || Holds(*wide_lanes, 0) ||
      Holds(*narrow_lanes, 0)) {
    return std::nullopt;
  }
  const int lane = to_wide->InDimIndex("lane");
  const int as_register = to_wide->OutDimIndex("register");
  const int as_lane = to_wide->OutDimIndex("lane");
  if (lane < 0 || as_register < 0 || as_lane < 0) return std::nullopt;
  const int into_registers = wide.register_bits - narrow.register_bits;
  for (int i = 0; i < static_cast<int>(narrow.contig->size()); ++i) {
    const int bit = (*narrow.contig)[i];
    if (i < into_registers) {
      if (to_wide->BasisValue(lane, bit, as_register) == 0) {
        return std::nullopt;
      }
    } else if (to_wide->BasisValue(lane, bit, as_lane) !=
               (int32_t{1} << (*wide.contig)[i - into_registers])) {
      return std::nullopt;
    }
  }
  Append(vector, *narrow_lanes);
  return vector;
}

// ---------------------------------------------------------------------
// 3. Access phases
// ---------------------------------------------------------------------

// The lanes of one plain ld/st phase: the lane bits `picks` when given (a
// read in the hardware's own lane order), else the first lanes. Triton
// 3.6 drops one lane bit per doubling of the vector past a word; newer
// Triton keeps as many lanes as fill the banks.
Bases PlainPhase(const Bases& lanes, const std::vector<int>& picks,
                 int64_t vector_bits, const SmemTarget& target) {
  const int words_log2 = FloorLog2(std::max<int64_t>(1, vector_bits / 32));
  int dropped = words_log2;
  if (target.phase_lanes) {
    if (!picks.empty()) {
      Bases picked;  // a wave narrower than the order skips what it lacks
      for (int p : picks) {
        if (p < static_cast<int>(lanes.size())) picked.push_back(lanes[p]);
      }
      return picked;
    }
    dropped = std::max(0, words_log2 + static_cast<int>(lanes.size()) -
                              FloorLog2(target.banks));
  }
  const size_t kept = lanes.size() - std::min<size_t>(dropped, lanes.size());
  return Bases(lanes.begin(), lanes.begin() + kept);
}

// The bases of one phase of a tile instruction outside its vector: the
// first registers not in the vector, as many as the tile's three address
// bits leave to registers, then its address lanes.
std::optional<Bases> MatrixPhase(const SmemTile& tile, const Side& side,
                                 const Bases& vector) {
  size_t wanted = 3 - tile.lane_addr.size();
  Bases phase;
  for (int32_t r : side.registers) {
    if (phase.size() == wanted) break;
    if (!Holds(vector, r)) phase.push_back(r);
  }
  if (phase.size() < wanted) return std::nullopt;
  const std::optional<Bases> lanes = LanesAt(side.lanes, tile.lane_addr);
  if (!lanes) return std::nullopt;
  Append(phase, *lanes);
  return phase;
}

// ---------------------------------------------------------------------
// 4. Laying out one plan
// ---------------------------------------------------------------------

// A way to do the conversion: the vector, the bases outside it each side
// touches in one access phase, and the instructions.
struct Plan {
  Bases vector;
  Bases store_phase, load_phase;
  int rounds_kept = 0;  // shared registers left in the segment
  SmemInstrKind store = SmemInstrKind::kVector;
  SmemInstrKind load = SmemInstrKind::kVector;
  // Plain ld/st below 128 bits: bank bases that are registers of one
  // side go first (BankLeader), that of the side that widened the vector
  // if one did.
  bool lead_banks = false;
  std::optional<Which> widened_by;
  bool empirical = false;
};

// The distinct nonzero bases of the vector and a phase.
Bases Touched(const Bases& vector, const Bases& phase) {
  Bases out;
  for (const Bases* part : {&vector, &phase}) {
    for (int32_t b : *part) {
      if (b != 0 && !Holds(out, b)) out.push_back(b);
    }
  }
  return out;
}

// SegmentBases
//
// `count` bases that select among bank-sized rows, chosen so that as few
// as possible fall in what one access phase of either side touches:
// first the unit bases neither side touches (lowest first); then, pairing
// the bases only one side touches (each side's sorted, the shorter list
// against the longer), their sums, which neither side touches alone; when
// still short, the last resort is conflicts: a pair gives up its sum for
// its two members.
Bases SegmentBases(const Bases& stored, const Bases& loaded, int bits,
                   int count) {
  Bases segment;
  for (int b = 0; b < bits; ++b) {
    const int32_t unit = int32_t{1} << b;
    if (!Holds(stored, unit) && !Holds(loaded, unit)) segment.push_back(unit);
  }
  if (static_cast<int>(segment.size()) >= count) {
    segment.resize(std::max(count, 0));
    return segment;
  }
  Bases fewer = Except(stored, loaded), more = Except(loaded, stored);
  if (fewer.size() > more.size()) std::swap(fewer, more);
  std::sort(fewer.begin(), fewer.end());
  std::sort(more.begin(), more.end());
  const int pairs = static_cast<int>(fewer.size());
  const int conflicts =
      std::clamp(count - pairs - static_cast<int>(segment.size()), 0, pairs);
  for (int i = conflicts; i < pairs; ++i) segment.push_back(fewer[i] ^ more[i]);
  for (int i = 0; i < conflicts; ++i) segment.push_back(fewer[i]);
  for (int i = 0; i < conflicts; ++i) segment.push_back(more[i]);
  if (static_cast<int>(segment.size()) > count) segment.resize(count);
  return segment;
}

// Whose registers go first among the bank bases: the side that widened
// the vector, else the one with more registers among them (the loaded one
// on a tie).
Which BankLeader(const Bases& bank, const Side& stored, const Side& loaded,
                 std::optional<Which> widened_by) {
  if (widened_by.has_value()) return *widened_by;
  auto count = [&bank](const Bases& registers) {
    return std::count_if(bank.begin(), bank.end(),
                         [&](int32_t b) { return Holds(registers, b); });
  };
  return count(stored.registers) > count(loaded.registers) ? Which::kStored
                                                           : Which::kLoaded;
}

// The bank bases with those that are registers of `leader` first.
Bases LeadWith(const Bases& bank, const Bases& leader) {
  Bases first, rest;
  for (int32_t b : bank) (Holds(leader, b) ? first : rest).push_back(b);
  Append(first, rest);
  return first;
}

// Splits off the segment bases that are registers of both sides into
// rounds, keeping the first `kept` of them in the segment.
std::pair<Bases, Bases> SplitRounds(const Bases& segment, const Side& stored,
                                    const Side& loaded, int kept) {
  Bases stays, rounds;
  for (int32_t s : segment) {
    if (Holds(stays, s) || Holds(rounds, s)) continue;
    const bool shared =
        Holds(stored.registers, s) && Holds(loaded.registers, s);
    if (shared && kept-- <= 0) {
      rounds.push_back(s);
    } else {
      stays.push_back(s);
    }
  }
  return {stays, rounds};
}

DimBases AsDimBases(const Bases& bases) {
  DimBases out;
  for (int32_t b : bases) out.push_back({b});
  return out;
}

// LayOut
//
// The shared layout of one plan and its conflict estimate.
absl::StatusOr<SwizzleChoice> LayOut(const Plan& plan, const Side& stored,
                                     const Side& loaded, const NamedInts& outs,
                                     int bitwidth, int banks) {
  const int bits = stored.flat.TotalOutDimSizeLog2();
  const int vector_log2 = static_cast<int>(plan.vector.size());
  // The bases of one phase of `banks` 4-byte words, over the vector; the
  // rest select the row (segment and rounds).
  const int bank_log2 = std::min(
      FloorLog2(int64_t{banks} * 32 / ((int64_t{1} << vector_log2) * bitwidth)),
      bits - vector_log2);
  const Bases chosen = SegmentBases(Touched(plan.vector, plan.store_phase),
                                    Touched(plan.vector, plan.load_phase), bits,
                                    bits - bank_log2 - vector_log2);
  Bases spanned = plan.vector;
  Append(spanned, chosen);
  Bases bank = FromRows(UnitComplement(AsRows(spanned), bits));
  if (plan.lead_banks) {
    const Which leader = BankLeader(bank, stored, loaded, plan.widened_by);
    bank = LeadWith(
        bank, leader == Which::kStored ? stored.registers : loaded.registers);
  }
  const auto [segment, rounds] =
      SplitRounds(chosen, stored, loaded, plan.rounds_kept);
  SwizzleChoice c;
  HLOLAYOUT_ASSIGN_OR_RETURN(
      LinearLayout flat,
      LinearLayout::Create({{"vector", AsDimBases(plan.vector)},
                            {"bank", AsDimBases(bank)},
                            {"segment", AsDimBases(segment)},
                            {"reps", AsDimBases(rounds)}},
                           stored.flat.out_dims(),
                           /*require_surjective=*/true));
  HLOLAYOUT_ASSIGN_OR_RETURN(c.smem, ReshapeOuts(flat, outs));
  c.store = plan.store;
  c.load = plan.load;
  // An access is 2^k-way when the segment shares k bases with its phase.
  c.store_conflicts_log2 =
      static_cast<int>(SharedBases(segment, plan.store_phase, bits).size());
  c.load_conflicts_log2 =
      static_cast<int>(SharedBases(segment, plan.load_phase, bits).size());
  c.empirical = plan.empirical;
  return c;
}

// ---------------------------------------------------------------------
// 5. Plans and the choice
// ---------------------------------------------------------------------

// The plans of every store/load tile pair that fits, stores outermost.
std::vector<Plan> MatrixPlans(const Side& stored, const Side& loaded,
                              const SmemTiles& tiles, int bitwidth) {
  const int access_bits = FloorLog2(128 / bitwidth);
  const int bits = stored.flat.TotalOutDimSizeLog2();
  std::vector<Plan> plans;
  for (const SmemTile& st : tiles.src) {
    for (const SmemTile& ld : tiles.dst) {
      std::optional<Bases> vector = PairVector(
          {&stored, access_bits - static_cast<int>(st.lane_contig.size()),
           &st.lane_contig},
          {&loaded, access_bits - static_cast<int>(ld.lane_contig.size()),
           &ld.lane_contig},
          bits);
      if (!vector) continue;
      std::optional<Bases> store_phase = MatrixPhase(st, stored, *vector);
      std::optional<Bases> load_phase = MatrixPhase(ld, loaded, *vector);
      if (!store_phase || !load_phase) continue;
      Plan p;
      p.vector = *std::move(vector);
      p.store_phase = *std::move(store_phase);
      p.load_phase = *std::move(load_phase);
      // A matrix instruction short of registers moves several core
      // matrices at once (.x4): keep those rounds together.
      p.rounds_kept = static_cast<int>(
          std::min(st.lane_contig.size() + st.lane_addr.size() - 3,
                   ld.lane_contig.size() + ld.lane_addr.size() - 3));
      p.store = st.kind;
      p.load = ld.kind;
      plans.push_back(std::move(p));
    }
  }
  return plans;
}

// The plans of plain ld/st: one per read phase the target weighs (its
// 128-bit read orders, when the vector is 128 bits), the first lanes last.
std::vector<Plan> PlainPlans(const Side& stored, const Side& loaded,
                             int bitwidth, const SmemTarget& target) {
  const int bits = stored.flat.TotalOutDimSizeLog2();
  const PlainVector vector = PlainVectorFor(stored, loaded, bitwidth, bits);
  const int64_t vector_bits = (int64_t{1} << vector.bases.size()) * bitwidth;
  std::vector<std::vector<int>> read_orders;
  if (target.phase_lanes && vector_bits == 128 &&
      !target.b128_load_lanes.empty()) {
    read_orders.push_back(target.b128_load_lanes);
    if (!target.b128_load_lanes_alt.empty()) {
      read_orders.push_back(target.b128_load_lanes_alt);
    }
  }
  read_orders.push_back({});
  std::vector<Plan> plans;
  for (const std::vector<int>& order : read_orders) {
    Plan p;
    p.vector = vector.bases;
    p.store_phase = PlainPhase(stored.lanes, {}, vector_bits, target);
    p.load_phase = PlainPhase(loaded.lanes, order, vector_bits, target);
    p.lead_banks = target.reorder_banks && vector_bits < 128;
    p.widened_by = vector.widened_by;
    p.empirical = !order.empty() && order == target.b128_load_lanes_alt;
    plans.push_back(std::move(p));
  }
  return plans;
}

// Fewer extra ways (a 2^k-way access costs 2^k - 1, both sides added),
// then more rounds (less scratch).
bool Outranks(const SwizzleChoice& a, const SwizzleChoice& b) {
  auto extra = [](const SwizzleChoice& c) {
    return (1 << c.store_conflicts_log2) + (1 << c.load_conflicts_log2) - 2;
  };
  auto rounds = [](const SwizzleChoice& c) {
    return c.smem.InDimSizeLog2(c.smem.InDimIndex("reps"));
  };
  if (extra(a) != extra(b)) return extra(a) < extra(b);
  return rounds(a) > rounds(b);
}

}  // namespace

SmemTiles SmemTilesFor(int bitwidth, const SmemTarget& target) {
  // Contiguous lane bits, address lane bits: st.shared/ld.shared take all
  // their contiguous data from registers; a core matrix row is 4 bytes of
  // registers times lane bits 0-1; the transposing forms read it down lane
  // bits 2-4.
  const SmemTile plain{{}, {0, 1, 2}, SmemInstrKind::kVector};
  const SmemTile matrix{{0, 1}, {2, 3, 4}, SmemInstrKind::kMatrix};
  const SmemTile transposed{{2, 3, 4}, {0, 1}, SmemInstrKind::kMatrixTrans};
  SmemTiles t{{plain}, {plain}};
  auto offer = [&](const SmemTile& tile) {
    if (target.st_matrix) t.src.push_back(tile);
    if (target.ld_matrix) t.dst.push_back(tile);
  };
  if (bitwidth <= 32) offer(matrix);
  if (bitwidth == 16) offer(transposed);
  return t;
}

absl::StatusOr<LinearLayout> RemoveBroadcastRegisters(const LinearLayout& l) {
  const int reg = l.InDimIndex("register");
  if (reg < 0) return l;
  std::vector<int> keep;
  for (int i = 0; i < l.InDimSizeLog2(reg); ++i) {
    for (int32_t v : l.Basis(reg, i)) {
      if (v != 0) {
        keep.push_back(i);
        break;
      }
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
  HLOLAYOUT_ASSIGN_OR_RETURN(const Side stored, ReadSide(src));
  HLOLAYOUT_ASSIGN_OR_RETURN(const Side loaded, ReadSide(dst));
  if (Holds(stored.registers, 0) || Holds(loaded.registers, 0)) {
    return absl::InvalidArgumentError(
        "broadcast registers must be removed first "
        "(RemoveBroadcastRegisters)");
  }
  std::vector<Plan> plans;
  if (target.weigh_tiles) {
    plans = MatrixPlans(stored, loaded, tiles, bitwidth);
  }
  if (plans.empty()) plans = PlainPlans(stored, loaded, bitwidth, target);
  std::optional<SwizzleChoice> best;
  for (const Plan& plan : plans) {
    HLOLAYOUT_ASSIGN_OR_RETURN(
        SwizzleChoice c,
        LayOut(plan, stored, loaded, src.out_dims(), bitwidth, target.banks));
    if (!best || Outranks(c, *best)) best = std::move(c);
  }
  return *std::move(best);
}

absl::StatusOr<int64_t> ScratchElements(const LinearLayout& src,
                                        const LinearLayout& dst, int bitwidth,
                                        const SmemTarget& target) {
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout s, RemoveBroadcastRegisters(src));
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout d, RemoveBroadcastRegisters(dst));
  HLOLAYOUT_ASSIGN_OR_RETURN(
      SwizzleChoice choice,
      OptimalSwizzling(s, d, SmemTilesFor(bitwidth, target), bitwidth, target));
  const int reps = choice.smem.InDimIndex("reps");
  return choice.smem.TotalOutDimSize() / choice.smem.InDimSize(reps);
}

}  // namespace hlolayout::triton
