// XLA:TPU's rules of the order in which it numbers its computations'
// values (docs/xla-tpu.md, "Value ids"), learned from the files XLA:TPU
// writes: where its SPMD partitioner's reducer clones go (rule 5), the
// order of a pass's reducer clones (rule 6), the computations made after
// the gather and scatter fusions (rules 11 and 12; the scatter expander's
// reducers come before, rule 14), and the order of the
// loops cloned after fusion (rule 10). XlaGpuComputationOrder
// (memory/xla_computation_order.cc) applies them with `tpu`.
#include <algorithm>
#include <cstdint>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "absl/types/optional.h"
#include "absl/types/span.h"
#include "hlolayout/memory/buffer_assignment_internal.h"
#include "hlolayout/memory/xla_computation_order_internal.h"

namespace hlolayout {
namespace buffer_internal {
namespace {

// XLA:TPU's SPMD partitioner clones a reducer for each collective, reduce
// and scatter it writes, as it walks the program, and numbers the
// collectives' channels as it goes. The place of such a clone among the
// others (docs/xla-tpu.md, "Value ids"): a collective's by its channel; a
// reduce's or scatter's (a clone, ".clone" in its name) just after the
// largest channel of the collectives its operands come from, directly or
// not (through fusions, loops and calls, and into a computation from what
// flows into its caller). -1 for the computations that are not such clones.
class PartitionerWalk {
 public:
  PartitionerWalk(const ModuleGraph& g, const std::vector<GpuPass>& pass)
      : g_(g), m_(g.module) {
    const int64_t comps = static_cast<int64_t>(m_.computations.size());
    caller_.assign(comps, -1);
    up_.resize(comps);
    inside_.resize(comps);
    inside_done_.assign(comps, false);
    for (int64_t c = 0; c < comps; ++c) {
      const int64_t n =
          static_cast<int64_t>(m_.computations[c].instructions.size());
      for (int64_t k = 0; k < n; ++k) {
        for (int64_t callee : CallsOf(c, k)) {
          if (callee >= 0 && callee != c && caller_[callee] < 0) {
            caller_[callee] = c * kSlot + k;
          }
        }
      }
    }
    times_.assign(comps, -1);
    for (int64_t c = 0; c < comps; ++c) ScanComputation(c, pass);
  }

  const std::vector<int64_t>& times() const { return times_; }

 private:
  static constexpr int64_t kSlot = int64_t{1} << 31;
  // Channels are taken up to kMaxChannel (so that 2 ch + 3 fits).
  static constexpr int64_t kMaxChannel = INT64_MAX / 4;
  // The largest channel (-1 when none).
  struct Channels {
    int64_t high = -1;
    void Add(const Channels& o) { high = std::max(high, o.high); }
    void Add(int64_t ch) {
      high = std::max(high, std::clamp(ch, int64_t{-1}, kMaxChannel));
    }
  };

  absl::Span<const int64_t> CallsOf(int64_t c, int64_t k) const {
    return g_.Calls(g_.df.computation_first[c] + k);
  }

  // The channels of an instruction: its own and those of what it calls.
  Channels Own(int64_t c, int64_t k) {
    Channels ch;
    if (const auto id = m_.computations[c].instructions[k].channel_id()) {
      ch.Add(*id);
    }
    for (int64_t callee : CallsOf(c, k)) {
      if (callee >= 0) ch.Add(Inside(callee));
    }
    return ch;
  }

  Channels Inside(int64_t c) {
    if (inside_done_[c]) return inside_[c];
    inside_done_[c] = true;
    Channels ch;
    const int64_t n =
        static_cast<int64_t>(m_.computations[c].instructions.size());
    for (int64_t k = 0; k < n; ++k) ch.Add(Own(c, k));
    return inside_[c] = ch;
  }

  // Per instruction of `c`: the largest channel its operands come from,
  // directly or not (-1 when none).
  const std::vector<int64_t>& UpOf(int64_t c) {
    std::vector<int64_t>& up = up_[c];
    if (!up.empty()) return up;
    const InstructionGraph& ig = g_.Graph(c);
    const int64_t n = static_cast<int64_t>(ig.operands.size());
    static const std::vector<int64_t> kNone;
    const std::vector<int64_t> order = InstructionPostOrder(
        n, [&](int64_t i) { return ig.operands[i]; },
        [&](int64_t) -> const std::vector<int64_t>& { return kNone; },
        [&](int64_t) { return false; });
    std::vector<int64_t> with_own(n, -1);
    up.assign(n, -1);
    for (int64_t k : order) {
      for (int64_t o : ig.operands[k]) up[k] = std::max(up[k], with_own[o]);
      with_own[k] = std::max(up[k], Own(c, k).high);
    }
    return up;
  }

  // The largest channel that flows into instruction k of computation c:
  // from its operands, else from what flows into c's caller (-1 when none).
  int64_t UpAt(int64_t c, int64_t k) {
    for (int depth = 0; depth < 64; ++depth) {
      const int64_t up = UpOf(c)[k];
      if (up >= 0 || caller_[c] < 0) return up;
      const int64_t at = caller_[c];
      c = at / kSlot;
      k = at % kSlot;
    }
    return -1;
  }

  // The clones reducing in computation `c`.
  void ScanComputation(int64_t c, const std::vector<GpuPass>& pass) {
    const auto& instructions = m_.computations[c].instructions;
    for (size_t k = 0; k < instructions.size(); ++k) {
      const HloInstruction& in = instructions[k];
      const int64_t callee = g_.CalledComputation(in, "to_apply");
      if (callee < 0 || callee == m_.entry_index ||
          pass[callee] != GpuPass::kNone ||
          ImportedNumbers(m_.computations[callee].header.name)) {
        continue;
      }
      const bool collective = ReducesWithAComputation(in);
      if (!collective && !CloneNumbers(m_.computations[callee].header.name)) {
        continue;
      }
      const absl::optional<int64_t> id = in.channel_id();
      // A collective at 2 ch + 2; a reduce or scatter just after the
      // largest channel it comes from (2 ch + 3; 1 when none).
      const int64_t t = collective && id.has_value()
                            ? 2 * std::clamp(*id, int64_t{-1}, kMaxChannel) + 2
                            : 2 * UpAt(c, static_cast<int64_t>(k)) + 3;
      if (times_[callee] < 0 || t < times_[callee]) times_[callee] = t;
    }
  }

  const ModuleGraph& g_;
  const HloModule& m_;
  std::vector<int64_t> caller_;
  std::vector<std::vector<int64_t>> up_;
  std::vector<Channels> inside_;
  std::vector<bool> inside_done_;
  std::vector<int64_t> times_;
};

// Sorts the members of `list` that `pick` picks by `less`, each in a
// place a picked one held.
template <typename Pick, typename Less>
void SortInPlace(std::vector<int64_t>* list, Pick pick, Less less) {
  std::vector<size_t> places;
  std::vector<int64_t> picked;
  for (size_t i = 0; i < list->size(); ++i) {
    if (pick((*list)[i])) {
      places.push_back(i);
      picked.push_back((*list)[i]);
    }
  }
  std::stable_sort(picked.begin(), picked.end(), less);
  for (size_t k = 0; k < places.size(); ++k) (*list)[places[k]] = picked[k];
}

}  // namespace

std::vector<int64_t> TpuPartitionerTimes(const ModuleGraph& g,
                                         const std::vector<GpuPass>& pass) {
  return PartitionerWalk(g, pass).times();
}

// XLA:TPU's clones of reducers (class 5 of GpuEarlyComputations), each
// with its place among them (docs/xla-tpu.md, "Value ids", rule 6): the
// clones of one original in their clone numbers' order; the clones of
// another original that one computation calls (a fusion body reducing with
// both) made together, at the place of the earliest of them; otherwise an
// original's clones after those of the originals made before it (the
// importer's regions by its counter, then the others by the number ending
// their names). Empty when a clone is a clone's clone or is called by no
// computation, where the clone numbers do not give the order.
std::vector<std::pair<int64_t, int64_t>> TpuCloneRanks(
    const ModuleGraph& g, const std::vector<int64_t>& clones) {
  const HloModule& m = g.module;
  const int64_t comps = static_cast<int64_t>(m.computations.size());
  std::vector<int64_t> caller(comps, -1);
  for (int64_t c = 0; c < comps; ++c) {
    for (int64_t callee : g.callees[c]) {
      if (callee != c && caller[callee] < 0) caller[callee] = c;
    }
  }
  using Own = std::tuple<int, int64_t, int64_t, int64_t>;
  struct Clone {
    int64_t c;
    absl::string_view original;
    Own own;
  };
  std::vector<Clone> list;
  for (int64_t c : clones) {
    const absl::string_view name = m.computations[c].header.name;
    const auto numbers = CloneNumbers(name);
    if (!numbers || numbers->second == INT64_MAX || caller[c] < 0) return {};
    const absl::string_view original = name.substr(0, name.find(".clone"));
    Own own;
    if (const auto ab = ImportedNumbers(original)) {
      own = Own{0, ab->first, ab->second, numbers->second};
    } else {
      own = Own{1, TrailingNumber(original), 0, numbers->second};
    }
    list.push_back({c, original, own});
  }
  // Each clone's place: the earliest of its own and those of the other
  // originals' clones its caller calls.
  std::vector<std::pair<Own, Own>> keys;
  keys.reserve(list.size());
  for (const Clone& x : list) {
    Own place = x.own;
    for (const Clone& y : list) {
      if (caller[y.c] == caller[x.c] && y.original != x.original) {
        place = std::min(place, y.own);
      }
    }
    keys.emplace_back(place, x.own);
  }
  std::vector<size_t> order(list.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return keys[a] < keys[b]; });
  std::vector<std::pair<int64_t, int64_t>> ranks;
  for (size_t r = 0; r < order.size(); ++r) {
    ranks.emplace_back(list[order[r]].c, static_cast<int64_t>(r));
  }
  return ranks;
}

// Whether XLA:TPU makes a computation of this name after its gather and
// scatter fusions (rule 11): a pass's reducer ("X.reduce_sub_computation",
// "X.reduce_sub_computation.N", but an all-to-all's, made later still) and
// the or-reducers a pass makes ("reduce_or_computation.N"); not the scatter
// expander's reducers, made before (rule 14).
bool AfterCustomFusion(const HloComputation& computation) {
  const absl::string_view name = computation.header.name;
  if (TpuScatterExpanderReducer(computation)) return false;
  return absl::StrContains(name, ".reduce_sub_computation") ||
         absl::StartsWith(name, "reduce_or_computation");
}

// XLA:TPU's scatter expander checks each scatter index with an `and` of
// predicates reduced by MakeReduceHlo: a reducer of that name whose root
// is an `and` of pred[] (docs/xla-tpu.md, "Value ids", rule 14).
bool TpuScatterExpanderReducer(const HloComputation& computation) {
  const absl::string_view name = computation.header.name;
  if (!absl::StrContains(name, ".reduce_sub_computation") ||
      computation.root_index < 0) {
    return false;
  }
  const HloInstruction& root = computation.instructions[computation.root_index];
  return root.opcode == HloOpcode::kAnd &&
         absl::StartsWith(root.shape_text(), "pred[]");
}

void SortTpuAfterCustom(const HloModule& m, std::vector<int64_t>* list) {
  auto name_of = [&](int64_t c) { return m.computations[c].header.name; };
  // XLA:TPU's or-reducers by their numbers (rule 11), and its reducers of
  // MakeReduceHlo's names by the number the name uniquer added
  // ("X.reduce_sub_computation.2" after every "Y.reduce_sub_computation"),
  // then by name (rule 12), each kind in the places it holds.
  SortInPlace(
      list,
      [&](int64_t c) {
        return absl::StartsWith(name_of(c), "reduce_or_computation");
      },
      [&](int64_t a, int64_t b) {
        return NaturalNameLess(name_of(a), name_of(b));
      });
  constexpr absl::string_view kReduceSub = ".reduce_sub_computation";
  auto uniquer_number = [&](int64_t c) {
    const absl::string_view name = name_of(c);
    absl::string_view rest =
        name.substr(name.find(kReduceSub) + kReduceSub.size());
    int64_t n = 0;
    if (absl::ConsumePrefix(&rest, ".") && AllDigits(rest) &&
        rest.size() <= 15 && absl::SimpleAtoi(rest, &n)) {
      return n;
    }
    return int64_t{0};
  };
  SortInPlace(
      list,
      [&](int64_t c) { return absl::StrContains(name_of(c), kReduceSub); },
      [&](int64_t a, int64_t b) {
        const int64_t na = uniquer_number(a), nb = uniquer_number(b);
        if (na != nb) return na < nb;
        return NaturalNameLess(name_of(a), name_of(b));
      });
}

std::vector<int64_t> TpuLateLoopOrder(const ModuleGraph& g,
                                      const std::vector<int64_t>& late) {
  const HloModule& m = g.module;
  const size_t comps = m.computations.size();
  // The computations depth-first from the entry (callees in the call
  // graph's order), each when first met and when done, without recursion.
  std::vector<int64_t> pre, post;
  std::vector<bool> met(comps, false);
  std::vector<std::pair<int64_t, size_t>> stack;
  if (m.entry_index >= 0) {
    stack.emplace_back(m.entry_index, 0);
    met[m.entry_index] = true;
    pre.push_back(m.entry_index);
  }
  while (!stack.empty()) {
    auto& [c, next] = stack.back();
    if (next < g.callees[c].size()) {
      const int64_t callee = g.callees[c][next++];
      if (callee >= 0 && !met[callee]) {
        met[callee] = true;
        pre.push_back(callee);
        stack.emplace_back(callee, 0);
      }
      continue;
    }
    post.push_back(c);
    stack.pop_back();
  }
  std::vector<bool> is_late(comps, false), placed(comps, false);
  for (int64_t c : late) is_late[c] = true;
  std::vector<int64_t> out;
  // The conditions (bodies) of each computation's loops, by the numbers
  // ending the loops' names (text order for those without).
  auto place_loops = [&](int64_t c, absl::string_view part) {
    std::vector<std::pair<int64_t, const HloInstruction*>> loops;
    for (const HloInstruction& in : m.computations[c].instructions) {
      if (in.opcode != HloOpcode::kWhile) continue;
      const int64_t number = TrailingNumber(in.name());
      loops.emplace_back(number < 0 ? INT64_MAX : number, &in);
    }
    std::stable_sort(
        loops.begin(), loops.end(),
        [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& loop : loops) {
      const int64_t callee = g.CalledComputation(*loop.second, part);
      if (callee >= 0 && is_late[callee] && !placed[callee]) {
        placed[callee] = true;
        out.push_back(callee);
      }
    }
  };
  for (int64_t c : post) place_loops(c, "condition");
  for (int64_t c : pre) place_loops(c, "body");
  for (int64_t c : late) {
    if (!placed[c]) out.push_back(c);
  }
  return out;
}

std::vector<int64_t> MarkTpuWindowClones(const ModuleGraph& g,
                                         std::vector<GpuPass>* pass) {
  const HloModule& m = g.module;
  const int64_t comps = static_cast<int64_t>(m.computations.size());
  // Per computation: -1 not yet seen as a callee, 1 while every caller is
  // a reduce-window in a fusion body, 0 once another caller is seen.
  std::vector<int8_t> window_only(comps, -1);
  std::vector<std::vector<int64_t>> fused_callers(comps);
  for (int64_t c = 0; c < comps; ++c) {
    const bool fused = g.kind[c] == CompKind::kFusion;
    for (const HloInstruction& in : m.computations[c].instructions) {
      const int64_t callee = g.CalledComputation(in, "to_apply");
      if (callee < 0 || callee == c) continue;
      const bool window = fused && in.opcode == HloOpcode::kReduceWindow;
      window_only[callee] = window && window_only[callee] != 0 ? 1 : 0;
      if (window) fused_callers[callee].push_back(c);
    }
  }
  // Called some other way too (calls=, body=, ...).
  for (int64_t c = 0; c < comps; ++c) {
    for (int64_t callee : g.callees[c]) {
      if (callee != c && g.kind[c] != CompKind::kFusion)
        window_only[callee] = 0;
    }
  }
  std::vector<int64_t> clones;
  for (int64_t c = 0; c < comps; ++c) {
    if (window_only[c] != 1 || g.kind[c] == CompKind::kFusion ||
        (*pass)[c] != GpuPass::kNone ||
        !CloneNumbers(m.computations[c].header.name)) {
      continue;
    }
    clones.push_back(c);
    (*pass)[c] = GpuPass::kTpuWindowClone;
  }
  // The fusion bodies calling them, and the fusion bodies calling those.
  std::vector<int64_t> stack;
  for (int64_t c : clones) {
    stack.insert(stack.end(), fused_callers[c].begin(), fused_callers[c].end());
  }
  std::vector<std::vector<int64_t>> callers(comps);
  for (int64_t c = 0; c < comps; ++c) {
    for (int64_t callee : g.callees[c]) {
      if (callee != c) callers[callee].push_back(c);
    }
  }
  while (!stack.empty()) {
    const int64_t f = stack.back();
    stack.pop_back();
    if ((*pass)[f] == GpuPass::kTpuWindowFusion ||
        g.kind[f] != CompKind::kFusion) {
      continue;
    }
    (*pass)[f] = GpuPass::kTpuWindowFusion;
    for (int64_t u : callers[f]) stack.push_back(u);
  }
  std::sort(clones.begin(), clones.end(), [&](int64_t a, int64_t b) {
    return NaturalNameLess(m.computations[a].header.name,
                           m.computations[b].header.name);
  });
  return clones;
}

}  // namespace buffer_internal
}  // namespace hlolayout
