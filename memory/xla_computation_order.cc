// The order in which XLA:CPU numbers its computations' values
// (memory/buffer_assignment_internal.h, XlaCpuComputationOrder;
// docs/memory.md, "Value ids").
//
// HloDataflowAnalysis numbers values computation by computation in
// HloModule::MakeComputationPostOrder(), the reverse of the topological
// order of the call graph the module keeps up to date as computations and
// calls are added (OnlineCallOrder below). That order follows from the
// order the computations were created in: given XLA's (--xla-creation-
// order), the ids are XLA's on all 511 modules of differential/xla. The
// text does not hold the creation order (XLA prints computations in a
// depth-first post order from the entry); without it, the names and the
// call graph guess it (GuessedCreationOrder), which is right on 466 of
// those 511 modules:
//
//   1. the computations the importer made: region_A.B and the entry, by B
//      (the importer's counter), then A; the SPMD partitioner's entry
//      ("main.N_spmd") after them, preceded by the reducers it clones for
//      the all-reduces, reduce-scatters and scatters it writes (those of
//      collectives by their channel ids, ReducerChannels);
//   2. what passes derived from them before fusion (clones of while
//      conditions and bodies, "wide.", ".clone", ".sunk", ...): each while
//      loop's condition then body, loops reached from the entry first, the
//      outer before those in its body; then the others by region number
//      and clone number;
//   3. fused_computation, fused_computation.1, ... by number;
//   4. wrapped_*_computation: the order their callers are met walking the
//      module from the entry, instructions in post order, into a while
//      loop's body then condition (and other called computations) where
//      the loop is; within one name, by number;
//   5. while.N_computation, made last.
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "absl/types/span.h"
#include "hlolayout/memory/buffer_assignment_internal.h"
#include "hlolayout/memory/xla_computation_order_internal.h"

namespace hlolayout {
namespace buffer_internal {
namespace {

enum class Made : uint8_t { kImported, kDerived, kFused, kWrapped, kLate };

}  // namespace

// The number after the last '.', -1 when there is none; `suffix` (such as
// "_spmd") may follow it.
int64_t TrailingNumber(absl::string_view name, absl::string_view suffix) {
  if (!suffix.empty() && absl::EndsWith(name, suffix)) {
    name.remove_suffix(suffix.size());
  }
  const size_t dot = name.rfind('.');
  if (dot == absl::string_view::npos) return -1;
  int64_t n = 0;
  absl::string_view digits = name.substr(dot + 1);
  if (digits.empty() || digits.size() > 15) return -1;
  for (char ch : digits) {
    if (!std::isdigit(static_cast<unsigned char>(ch))) return -1;
  }
  return absl::SimpleAtoi(digits, &n) ? n : -1;
}

bool AllDigits(absl::string_view s) {
  if (s.empty()) return false;
  for (char ch : s) {
    if (!std::isdigit(static_cast<unsigned char>(ch))) return false;
  }
  return true;
}

namespace {

// "region_A.B" exactly (the importer's name for a region).
bool IsImportedRegion(absl::string_view name) {
  if (!absl::ConsumePrefix(&name, "region_")) return false;
  const size_t dot = name.find('.');
  return dot != absl::string_view::npos && AllDigits(name.substr(0, dot)) &&
         AllDigits(name.substr(dot + 1));
}

bool IsFused(absl::string_view name) {
  if (!absl::ConsumePrefix(&name, "fused_computation")) return false;
  return name.empty() || (name[0] == '.' && AllDigits(name.substr(1)));
}

bool IsLate(absl::string_view name) {
  return absl::StartsWith(name, "while.") &&
         absl::EndsWith(name, "_computation") &&
         AllDigits(name.substr(6, name.size() - 6 - 12));
}

// A derived computation's place among the others: the region it comes
// from ("(wide.)*region_A.B..." gives A), then the number ending its name
// (clone.1, clone.2, ...), then the name.
struct DerivedKey {
  int64_t region = INT64_MAX;
  int64_t number = -1;
  absl::string_view name;
};

DerivedKey DerivedKeyOf(absl::string_view name) {
  DerivedKey k;
  k.name = name;
  absl::string_view rest = name;
  while (absl::ConsumePrefix(&rest, "wide.")) {
  }
  if (absl::ConsumePrefix(&rest, "region_")) {
    size_t n = 0;
    while (n < rest.size() && std::isdigit(static_cast<unsigned char>(rest[n])))
      ++n;
    int64_t region = 0;
    if (n > 0 && n <= 15 && absl::SimpleAtoi(rest.substr(0, n), &region)) {
      k.region = region;
    }
  }
  k.number = TrailingNumber(name);
  return k;
}

// The order XLA keeps the module's computations in, replayed (docs/
// memory.md, "Value ids"). XLA maintains a topological order of the call
// graph (callers before callees) online, as computations and calls are
// added. A new computation goes to the front. A call from `caller` to
// `callee` that the order already respects changes nothing; otherwise
// `caller` and everything that calls it, directly or not, go to the front,
// each ahead of the computations it calls (the callers found first by a
// depth-first search up the call graph end up first).
//
// XLA's order also has levels: a search up the callers that visits more
// calls than a budget (growing with the calls and computations ever added,
// removed ones included) drops `callee` a level instead, behind every
// computation of the levels above. The text cannot tell the budget, and
// none of the 511 modules of the zoo and the held-out set (jaxlib 0.10.2)
// needed a level (differential/xla), so the search here never runs out.
//
// The computations are replayed in `creation` order; each brings the calls
// between it and those already there (its callers' first).
class OnlineCallOrder {
 public:
  explicit OnlineCallOrder(const ModuleGraph& g)
      : callees_(g.callees),
        callers_(g.callees.size()),
        present_(g.callees.size(), false),
        stamp_(g.callees.size(), 0) {
    for (size_t c = 0; c < callees_.size(); ++c) {
      for (int64_t callee : callees_[c]) {
        if (callee != static_cast<int64_t>(c)) {
          callers_[callee].push_back(static_cast<int64_t>(c));
        }
      }
    }
  }

  void Add(int64_t c) {
    present_[c] = true;
    stamp_[c] = ++clock_;
    for (int64_t caller : callers_[c]) {
      if (present_[caller]) AddCall(caller, c);
    }
    for (int64_t callee : callees_[c]) {
      if (present_[callee] && callee != c) AddCall(c, callee);
    }
  }

  bool Has(int64_t c) const { return present_[c]; }

  // A pass gave `c` a new callee: `c` and everything that calls it go to
  // the front, as for a call to a new computation.
  void Touch(int64_t c) { MoveToFront(c); }

  // Callees first: the reverse of the order.
  std::vector<int64_t> PostOrder() const {
    std::vector<int64_t> out;
    for (size_t c = 0; c < present_.size(); ++c) {
      if (present_[c]) out.push_back(static_cast<int64_t>(c));
    }
    std::sort(out.begin(), out.end(),
              [&](int64_t a, int64_t b) { return stamp_[a] < stamp_[b]; });
    return out;
  }

 private:
  // The latest stamp is the front.
  void AddCall(int64_t caller, int64_t callee) {
    if (stamp_[caller] > stamp_[callee]) return;
    MoveToFront(caller);
  }

  void MoveToFront(int64_t caller) {
    // Depth first up the callers: each after its own callers.
    std::vector<int64_t> found;
    std::vector<bool> seen(present_.size(), false);
    std::vector<std::pair<int64_t, bool>> stack = {{caller, false}};
    while (!stack.empty()) {
      const auto [c, done] = stack.back();
      stack.pop_back();
      if (done) {
        found.push_back(c);
        continue;
      }
      if (seen[c]) continue;
      seen[c] = true;
      stack.emplace_back(c, true);
      for (int64_t up : callers_[c]) {
        if (present_[up]) stack.emplace_back(up, false);
      }
    }
    for (auto it = found.rbegin(); it != found.rend(); ++it) {
      stamp_[*it] = ++clock_;
    }
  }

  const std::vector<std::vector<int64_t>>& callees_;
  std::vector<std::vector<int64_t>> callers_;
  std::vector<bool> present_;
  std::vector<int64_t> stamp_;
  int64_t clock_ = 0;
};

// The computations of `creation` replayed through OnlineCallOrder.
std::vector<int64_t> CallGraphPostOrder(const ModuleGraph& g,
                                        const std::vector<int64_t>& creation) {
  OnlineCallOrder order(g);
  for (int64_t c : creation) order.Add(c);
  return order.PostOrder();
}

// Conditions and bodies of while loops, as the passes before fusion clone
// them: from the entry, each loop's condition then body, a computation's
// loops before the loops inside them.
std::vector<int64_t> LoopComputations(const ModuleGraph& g) {
  const HloModule& m = g.module;
  std::vector<int64_t> out;
  std::vector<bool> seen(m.computations.size(), false);
  std::function<void(int64_t)> visit = [&](int64_t c) {
    if (c < 0 || seen[c]) return;
    seen[c] = true;
    std::vector<std::pair<int64_t, int64_t>> loops;  // (condition, body)
    for (const HloInstruction& in : m.computations[c].instructions) {
      if (in.opcode != HloOpcode::kWhile) continue;
      loops.emplace_back(g.CalledComputation(in, "condition"),
                         g.CalledComputation(in, "body"));
    }
    for (const auto& [condition, body] : loops) {
      if (condition >= 0) out.push_back(condition);
      if (body >= 0) out.push_back(body);
    }
    for (const auto& [condition, body] : loops) {
      visit(body);
      visit(condition);
    }
    for (int64_t callee : g.callees[c]) visit(callee);
  };
  visit(m.entry_index);
  return out;
}

// Wrapped computations in the order their callers are met walking the
// module from the entry: each computation's instructions in post order, a
// while loop's body then condition (and what any other instruction calls
// but a fusion body) walked where the instruction is; then any left, in
// text order. Within one name (the name without its ".N"), the numbers
// then decide.
std::vector<int64_t> WrappedOrder(const ModuleGraph& g,
                                  const std::vector<Made>& made) {
  const HloModule& m = g.module;
  const int64_t comps = static_cast<int64_t>(m.computations.size());
  std::vector<int64_t> seq;
  std::vector<bool> listed(comps, false), walked(comps, false);
  std::function<void(int64_t)> walk = [&](int64_t c) {
    if (c < 0 || walked[c]) return;
    walked[c] = true;
    const InstructionGraph& ig = g.Graph(c);
    const int64_t n = static_cast<int64_t>(ig.operands.size());
    static const std::vector<int64_t> kNone;
    const std::vector<int64_t> order = InstructionPostOrder(
        n, [&](int64_t k) { return ig.operands[k]; },
        [&](int64_t) -> const std::vector<int64_t>& { return kNone; },
        [&](int64_t k) { return !ig.users[k].empty(); });
    const int64_t first = g.df.computation_first[c];
    for (int64_t k : order) {
      const HloInstruction& in = ig.at(k);
      if (in.opcode == HloOpcode::kWhile) {
        walk(g.CalledComputation(in, "body"));
        walk(g.CalledComputation(in, "condition"));
        continue;
      }
      for (int64_t callee : g.Calls(first + k)) {
        if (made[callee] == Made::kWrapped) {
          if (!listed[callee]) {
            listed[callee] = true;
            seq.push_back(callee);
          }
        } else if (made[callee] != Made::kFused) {
          walk(callee);
        }
      }
    }
  };
  walk(m.entry_index);
  for (int64_t c = 0; c < comps; ++c) {
    if (made[c] == Made::kWrapped && !listed[c]) seq.push_back(c);
  }
  // Within one name, by number: the slots of each name keep their places.
  auto stem = [&](int64_t c) {
    absl::string_view name = m.computations[c].header.name;
    const size_t dot = name.rfind('.');
    if (dot != absl::string_view::npos && AllDigits(name.substr(dot + 1))) {
      name = name.substr(0, dot);
    }
    return name;
  };
  std::vector<int64_t> sorted = seq;
  std::stable_sort(sorted.begin(), sorted.end(), [&](int64_t a, int64_t b) {
    const absl::string_view sa = stem(a), sb = stem(b);
    if (sa != sb) return sa < sb;
    return TrailingNumber(m.computations[a].header.name) <
           TrailingNumber(m.computations[b].header.name);
  });
  std::vector<int64_t> out;
  out.reserve(seq.size());
  for (int64_t c : seq) {
    // The first not yet used member of c's stem in `sorted`.
    const absl::string_view s = stem(c);
    auto it = std::find_if(sorted.begin(), sorted.end(),
                           [&](int64_t x) { return x >= 0 && stem(x) == s; });
    out.push_back(*it);
    *it = -1;
  }
  return out;
}

}  // namespace

bool NaturalNameLess(absl::string_view a, absl::string_view b) {
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const bool da = std::isdigit(static_cast<unsigned char>(a[i]));
    const bool db = std::isdigit(static_cast<unsigned char>(b[j]));
    if (da && db) {
      size_t ie = i, je = j;
      while (ie < a.size() && std::isdigit(static_cast<unsigned char>(a[ie])))
        ++ie;
      while (je < b.size() && std::isdigit(static_cast<unsigned char>(b[je])))
        ++je;
      const absl::string_view na = a.substr(i, ie - i),
                              nb = b.substr(j, je - j);
      if (na.size() != nb.size()) return na.size() < nb.size();
      if (na != nb) return na < nb;
      i = ie;
      j = je;
      continue;
    }
    if (a[i] != b[j]) return a[i] < b[j];
    ++i;
    ++j;
  }
  return a.size() - i < b.size() - j;
}

namespace {

// Derived computations by their name's key: region, number, then name.
bool DerivedNameLess(absl::string_view a, absl::string_view b) {
  const DerivedKey ka = DerivedKeyOf(a), kb = DerivedKeyOf(b);
  if (ka.region != kb.region) return ka.region < kb.region;
  if (ka.number != kb.number) return ka.number < kb.number;
  return NaturalNameLess(ka.name, kb.name);
}

// The computations by how they were made, each group in the order its
// names give.
struct MadeGroups {
  std::vector<Made> made;
  std::vector<int64_t> imported, derived, fused, late;
};

MadeGroups GroupByMaking(const HloModule& m) {
  const int64_t comps = static_cast<int64_t>(m.computations.size());
  MadeGroups g;
  g.made.assign(comps, Made::kDerived);
  for (int64_t c = 0; c < comps; ++c) {
    const absl::string_view name = m.computations[c].header.name;
    if (c == m.entry_index || IsImportedRegion(name)) {
      g.made[c] = Made::kImported;
      g.imported.push_back(c);
    } else if (IsFused(name)) {
      g.made[c] = Made::kFused;
      g.fused.push_back(c);
    } else if (absl::StartsWith(name, "wrapped_")) {
      g.made[c] = Made::kWrapped;
    } else if (IsLate(name)) {
      g.made[c] = Made::kLate;
      g.late.push_back(c);
    } else {
      g.derived.push_back(c);
    }
  }
  auto name_of = [&](int64_t c) { return m.computations[c].header.name; };
  // region_A.B by (B, A): the importer's counter, then the region's number
  // (shard_map's regions all end in .0).
  auto imported_key = [&](int64_t c) {
    const absl::string_view name = name_of(c);
    const int64_t b = TrailingNumber(name, "_spmd");
    return std::make_pair(
        b, c == m.entry_index ? int64_t{-1} : DerivedKeyOf(name).region);
  };
  std::stable_sort(
      g.imported.begin(), g.imported.end(),
      [&](int64_t a, int64_t b) { return imported_key(a) < imported_key(b); });
  std::stable_sort(g.fused.begin(), g.fused.end(), [&](int64_t a, int64_t b) {
    return TrailingNumber(name_of(a)) < TrailingNumber(name_of(b));
  });
  std::stable_sort(g.late.begin(), g.late.end(), [&](int64_t a, int64_t b) {
    return NaturalNameLess(name_of(a), name_of(b));
  });
  return g;
}

}  // namespace

// A collective that reduces with a computation of its own (all-reduce,
// all-reduce-start, reduce-scatter), which the SPMD partitioner clones.
bool ReducesWithAComputation(const HloInstruction& in) {
  return in.opcode == HloOpcode::kAllReduce ||
         in.opcode == HloOpcode::kAllReduceStart ||
         in.opcode == HloOpcode::kReduceScatter;
}

namespace {

// The smallest channel_id of the collectives (all-reduce, all-reduce-start,
// reduce-scatter) that reduce with each computation, INT64_MAX for none:
// the SPMD partitioner numbers channels as it makes its collectives, each
// with a clone of its reducer, so the channels order the clones.
std::vector<int64_t> ReducerChannels(const ModuleGraph& g) {
  const HloModule& m = g.module;
  std::vector<int64_t> channel(m.computations.size(), INT64_MAX);
  for (const HloComputation& computation : m.computations) {
    for (const HloInstruction& in : computation.instructions) {
      if (!ReducesWithAComputation(in)) continue;
      const int64_t callee = g.CalledComputation(in, "to_apply");
      const absl::optional<int64_t> id = in.channel_id();
      if (callee >= 0 && id.has_value()) {
        channel[callee] = std::min(channel[callee], *id);
      }
    }
  }
  return channel;
}

// The SPMD partitioner makes a new entry ("main.N_spmd") after the imported
// computations, and before it the reducers it clones for the collectives
// and scatters it writes: those, taken out of `groups`' derived ones, in the
// order the rule for derived computations gives them.
std::vector<int64_t> PartitionerReducers(const ModuleGraph& g,
                                         MadeGroups& groups) {
  const HloModule& m = g.module;
  groups.imported.erase(
      std::find(groups.imported.begin(), groups.imported.end(), m.entry_index));
  std::vector<bool> early(m.computations.size(), false);
  for (const HloComputation& computation : m.computations) {
    for (const HloInstruction& in : computation.instructions) {
      if (in.opcode != HloOpcode::kAllReduce &&
          in.opcode != HloOpcode::kAllReduceStart &&
          in.opcode != HloOpcode::kReduceScatter &&
          in.opcode != HloOpcode::kScatter) {
        continue;
      }
      const int64_t callee = g.CalledComputation(in, "to_apply");
      if (callee >= 0 && groups.made[callee] == Made::kDerived) {
        early[callee] = true;
      }
    }
  }
  std::vector<int64_t> before_entry;
  for (int64_t c : groups.derived) {
    if (early[c]) before_entry.push_back(c);
  }
  groups.derived.erase(
      std::remove_if(groups.derived.begin(), groups.derived.end(),
                     [&](int64_t c) { return early[c]; }),
      groups.derived.end());
  std::stable_sort(before_entry.begin(), before_entry.end(),
                   [&](int64_t a, int64_t b) {
                     return DerivedNameLess(m.computations[a].header.name,
                                            m.computations[b].header.name);
                   });
  // The clones for collectives, in the places the names give them, by the
  // channels of their collectives (a scatter's clone has none).
  const std::vector<int64_t> channel = ReducerChannels(g);
  std::vector<int64_t> slots, clones;
  for (size_t i = 0; i < before_entry.size(); ++i) {
    if (channel[before_entry[i]] != INT64_MAX) {
      slots.push_back(static_cast<int64_t>(i));
      clones.push_back(before_entry[i]);
    }
  }
  std::stable_sort(clones.begin(), clones.end(), [&](int64_t a, int64_t b) {
    return channel[a] < channel[b];
  });
  for (size_t k = 0; k < slots.size(); ++k) before_entry[slots[k]] = clones[k];
  return before_entry;
}

// The derived computations: loop computations first, as the loops that
// made them come, then the others by their names.
std::vector<int64_t> DerivedOrder(const ModuleGraph& g,
                                  const MadeGroups& groups) {
  const HloModule& m = g.module;
  std::vector<int64_t> order;
  std::vector<bool> placed(m.computations.size(), false);
  for (int64_t c : LoopComputations(g)) {
    if (groups.made[c] == Made::kDerived && !placed[c]) {
      placed[c] = true;
      order.push_back(c);
    }
  }
  std::vector<int64_t> rest;
  for (int64_t c : groups.derived) {
    if (!placed[c]) rest.push_back(c);
  }
  std::stable_sort(rest.begin(), rest.end(), [&](int64_t a, int64_t b) {
    return DerivedNameLess(m.computations[a].header.name,
                           m.computations[b].header.name);
  });
  order.insert(order.end(), rest.begin(), rest.end());
  return order;
}

// The order XLA:CPU created the computations in, as far as the names and
// the call graph tell it (the text does not hold it): steps 1-5 above.
std::vector<int64_t> GuessedCreationOrder(const ModuleGraph& g) {
  const HloModule& m = g.module;
  MadeGroups groups = GroupByMaking(m);
  const bool spmd =
      m.entry_index >= 0 &&
      absl::EndsWith(m.computations[m.entry_index].header.name, "_spmd");
  std::vector<int64_t> before_entry;
  if (spmd) before_entry = PartitionerReducers(g, groups);
  const std::vector<int64_t> derived_order = DerivedOrder(g, groups);
  std::vector<int64_t> creation = groups.imported;
  if (spmd) {
    creation.insert(creation.end(), before_entry.begin(), before_entry.end());
    creation.push_back(m.entry_index);
  }
  creation.insert(creation.end(), derived_order.begin(), derived_order.end());
  creation.insert(creation.end(), groups.fused.begin(), groups.fused.end());
  const std::vector<int64_t> wrapped = WrappedOrder(g, groups.made);
  creation.insert(creation.end(), wrapped.begin(), wrapped.end());
  creation.insert(creation.end(), groups.late.begin(), groups.late.end());
  return creation;
}

GpuPass GpuPassOf(absl::string_view name) {
  // GemmFusion's Triton GEMMs and the softmax rewriter's fusions (kCustom,
  // which RenameFusions leaves alone).
  if (absl::StartsWith(name, "gemm_fusion") ||
      absl::StartsWith(name, "triton_")) {
    return GpuPass::kCustom;
  }
  // Priority fusion's and the multi-output passes' (RenameFusions gives
  // them "fused_" and their heroes; fused_computation.N keep theirs).
  if (absl::StartsWith(name, "fused_")) return GpuPass::kFused;
  // The computations that async wrapping makes, after fusion.
  if (absl::StartsWith(name, "async_computation")) return GpuPass::kAsync;
  // FusionWrapper's, last: one instruction each.
  if (absl::StartsWith(name, "wrapped_")) return GpuPass::kWrapped;
  return GpuPass::kNone;
}

bool LowerWord(absl::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char ch) {
    return std::islower(static_cast<unsigned char>(ch)) || ch == '_';
  });
}

}  // namespace

// (B, A) of the importer's "region_A.B", of a computation a pass made of
// one in its place ("region_10.17.reduce_window") or of one a pass renamed
// ("region_2.4_scalarized_rw_wrapper"); nullopt otherwise.
std::optional<std::pair<int64_t, int64_t>> ImportedNumbers(
    absl::string_view name) {
  if (!absl::ConsumePrefix(&name, "region_")) return std::nullopt;
  std::vector<absl::string_view> parts = absl::StrSplit(name, '.');
  if (parts.size() == 2) {
    // "B_word": the word ends the name.
    const size_t underscore = parts[1].find('_');
    if (underscore != absl::string_view::npos) {
      if (!LowerWord(parts[1].substr(underscore + 1))) return std::nullopt;
      parts[1] = parts[1].substr(0, underscore);
    }
  } else if (parts.size() != 3 || absl::StartsWith(parts[2], "clone") ||
             !LowerWord(parts[2])) {
    return std::nullopt;
  }
  int64_t a = 0, b = 0;
  if (!AllDigits(parts[0]) || !AllDigits(parts[1]) || parts[0].size() > 15 ||
      parts[1].size() > 15 || !absl::SimpleAtoi(parts[0], &a) ||
      !absl::SimpleAtoi(parts[1], &b)) {
    return std::nullopt;
  }
  return std::make_pair(b, a);
}

// (N, K) of a clone "X.N....clone.K" (K 0 for ".clone", N -1 when X has no
// number): the number of what was cloned, then the clone's; nullopt when
// the name has no ".clone".
std::optional<std::pair<int64_t, int64_t>> CloneNumbers(
    absl::string_view name) {
  const size_t clone = name.find(".clone");
  if (clone == absl::string_view::npos) return std::nullopt;
  const absl::string_view base = name.substr(0, clone);
  const size_t dot = base.find('.');
  int64_t n = -1;
  if (dot != absl::string_view::npos) {
    size_t k = dot + 1;
    while (k < base.size() && k < dot + 16 &&
           std::isdigit(static_cast<unsigned char>(base[k]))) {
      ++k;
    }
    if (k > dot + 1 &&
        !absl::SimpleAtoi(base.substr(dot + 1, k - dot - 1), &n)) {
      n = -1;
    }
  }
  absl::string_view rest = name.substr(clone + 6);
  int64_t number = 0;
  if (!rest.empty() &&
      !(absl::ConsumePrefix(&rest, ".") && AllDigits(rest) &&
        rest.size() <= 15 && absl::SimpleAtoi(rest, &number))) {
    number = INT64_MAX;  // a clone of a clone, or more after it
  }
  return std::make_pair(n, number);
}

namespace {

// Whether a clone's original ("X" of "X.clone") is gone from the module.
bool LoneClone(absl::string_view name,
               const absl::flat_hash_set<absl::string_view>& names) {
  return absl::ConsumeSuffix(&name, ".clone") && !names.contains(name);
}

// The place of each loop condition and body a pass cloned among them
// (LoopComputations' order), -1 for the other computations.
std::vector<int64_t> ClonedLoopPlaces(const ModuleGraph& g) {
  const HloModule& m = g.module;
  std::vector<int64_t> loop_place(m.computations.size(), -1);
  int64_t loops = 0;
  for (int64_t c : LoopComputations(g)) {
    if (loop_place[c] < 0 && c != m.entry_index &&
        !ImportedNumbers(m.computations[c].header.name)) {
      loop_place[c] = loops++;
    }
  }
  return loop_place;
}

// The SPMD partitioner's reducer clones, for the collectives it writes
// (made before its entry), each with the smallest channel_id of the
// collectives that reduce with it: the partitioner numbers channels as it
// makes the collectives, each with its reducer's clone, so their order is
// the clones' (INT64_MAX for a clone no collective with a channel uses; -1
// for the other computations).
std::vector<int64_t> PartitionerClones(const ModuleGraph& g,
                                       const std::vector<GpuPass>& pass) {
  const HloModule& m = g.module;
  std::vector<int64_t> channel(m.computations.size(), -1);
  if (m.entry_index < 0 ||
      !absl::EndsWith(m.computations[m.entry_index].header.name, "_spmd")) {
    return channel;
  }
  const std::vector<int64_t> channels = ReducerChannels(g);
  for (const HloComputation& computation : m.computations) {
    for (const HloInstruction& in : computation.instructions) {
      if (!ReducesWithAComputation(in)) continue;
      const int64_t callee = g.CalledComputation(in, "to_apply");
      if (callee >= 0 && pass[callee] == GpuPass::kNone &&
          callee != m.entry_index &&
          !ImportedNumbers(m.computations[callee].header.name)) {
        channel[callee] = channels[callee];
      }
    }
  }
  return channel;
}

// The computations XLA:TPU makes after some fusion pass
// (GpuEarlyComputations; docs/xla-tpu.md, "Value ids", rules 8, 9 and 11).
struct TpuLater {
  std::vector<int64_t> after_custom;  // after the gather/scatter fusions
  std::vector<int64_t> after_fusion;  // after fusion, before collectives'
  std::vector<int64_t> loops;         // loops cloned after fusion
};

// (class, then three keys, then the text position) of a computation made
// before fusion (GpuEarlyComputations).
using EarlyKey = std::tuple<int, int64_t, int64_t, int64_t>;

// Sorts `keyed` by key; clones of equal keys in the order of their
// originals, region-derived names of equal keys in natural order.
void SortEarly(const HloModule& m,
               std::vector<std::pair<EarlyKey, int64_t>>* keyed_out) {
  using Key = EarlyKey;
  std::vector<std::pair<EarlyKey, int64_t>>& keyed = *keyed_out;
  auto name_of = [&](int64_t c) { return m.computations[c].header.name; };
  // Clones of equal keys in the order of their originals (a pass clones
  // walking the computations in order).
  absl::flat_hash_map<absl::string_view, Key> original_key;
  for (const auto& [key, c] : keyed) {
    if (std::get<0>(key) != 5) original_key.emplace(name_of(c), key);
  }
  auto original_of = [&](int64_t c) -> std::optional<Key> {
    const absl::string_view name = name_of(c);
    auto it = original_key.find(name.substr(0, name.find(".clone")));
    if (it == original_key.end()) return std::nullopt;
    return it->second;
  };
  std::stable_sort(
      keyed.begin(), keyed.end(), [&](const auto& x, const auto& y) {
        if (x.first != y.first) return x.first < y.first;
        // Region-derived names of equal keys: in natural order.
        if (std::get<0>(x.first) == 1 || std::get<0>(x.first) == 6) {
          return NaturalNameLess(name_of(x.second), name_of(y.second));
        }
        if (std::get<0>(x.first) == 5) {
          // Those whose original is gone after the others.
          const std::optional<Key> a = original_of(x.second),
                                   b = original_of(y.second);
          if (a.has_value() != b.has_value()) return a.has_value();
          if (a && b) return *a < *b;
        }
        return false;
      });
}

// The computations made before fusion (classes 0 to 7 of `keyed`, sorted),
// with `imported` set to the importer's count; XLA:TPU's made after a
// fusion pass (classes 8 and 9, AfterCustomFusion) go to `later`.
std::vector<int64_t> SplitEarly(
    const HloModule& m, const std::vector<std::pair<EarlyKey, int64_t>>& keyed,
    bool tpu, int64_t* imported, TpuLater* later) {
  std::vector<int64_t> out;
  out.reserve(keyed.size());
  *imported = 0;
  for (const auto& [key, c] : keyed) {
    if (std::get<0>(key) == 9) {
      later->after_fusion.push_back(c);
    } else if (std::get<0>(key) == 8) {
      later->loops.push_back(c);
    } else if (tpu && AfterCustomFusion(m.computations[c])) {
      later->after_custom.push_back(c);
    } else {
      out.push_back(c);
      if (std::get<0>(key) == 0) ++*imported;
    }
  }
  SortTpuAfterCustom(m, &later->after_custom);
  return out;
}

// A clone's place among a pass's clones (CloneNumbers gives `clone`):
// XLA:GPU's by the number of what it clones, then its clone number;
// XLA:TPU's by its clone number first (docs/xla-tpu.md, "Value ids", rule
// 1), clones of clones after the others by the number ending the name
// (".clone.clone.1" before ".clone.clone.2"; rule 15).
std::pair<int64_t, int64_t> CloneKey(absl::string_view name,
                                     std::pair<int64_t, int64_t> clone,
                                     bool tpu) {
  if (!tpu) return clone;
  if (clone.second == INT64_MAX) {
    return {INT64_MAX / 2 + std::max<int64_t>(TrailingNumber(name), 0),
            clone.first};
  }
  return {clone.second, clone.first};
}

// The computations XLA:GPU made before fusion, in the order guessed: the
// importer's (by its counter, then the region's number), then the SPMD
// partitioner's reducer clones, then loop conditions and bodies that passes
// cloned (LoopComputations), then computations passes made anew (a top-k
// comparator, a scalar adder) in text order, the scatter expander's
// reducer ("and.reduce_sub_computation") first, then clones (those whose
// original is gone first, then by the number of what they clone, then
// their own, then in their originals' order), then what else passes
// derived from regions (by region, then the number ending the name), then
// the reducers the split-k rewriter made for dots
// ("dot.N.reduce_sub_computation", by N, a bare "dot" first). With `tpu`,
// XLA:TPU's (docs/xla-tpu.md, "Value ids"): the SPMD partitioner's clones
// by TpuPartitionerTimes, other clones by TpuCloneRanks (else by their
// clone number first), a comparator named "compare" after them, then
// passes' reducers ("X.reduce_sub_computation"); the cloned loops, which
// XLA:TPU makes after fusion, go to `late` (in LoopComputations' order).
std::vector<int64_t> GpuEarlyComputations(const ModuleGraph& g,
                                          const std::vector<GpuPass>& pass,
                                          bool tpu, int64_t* imported,
                                          TpuLater* later) {
  const HloModule& m = g.module;
  const int64_t comps = static_cast<int64_t>(m.computations.size());
  auto name_of = [&](int64_t c) { return m.computations[c].header.name; };
  std::vector<std::pair<EarlyKey, int64_t>> keyed;
  // Loop conditions and bodies that passes cloned: each loop's condition
  // then its body, as on XLA:CPU (LoopComputations). The importer's keep
  // its order (a while loop's body first), which XLA:GPU's fusion follows
  // in most modules but not in all (docs/memory-xla-checks.md, "Checked
  // against XLA:GPU").
  const std::vector<int64_t> loop_place = ClonedLoopPlaces(g);
  constexpr absl::string_view kReduceSub = ".reduce_sub_computation";
  absl::flat_hash_set<absl::string_view> names;
  for (const HloComputation& computation : m.computations) {
    names.insert(computation.header.name);
  }
  const bool spmd =
      m.entry_index >= 0 &&
      absl::EndsWith(m.computations[m.entry_index].header.name, "_spmd");
  const std::vector<int64_t> partitioner =
      tpu && spmd ? TpuPartitionerTimes(g, pass) : PartitionerClones(g, pass);
  for (int64_t c = 0; c < comps; ++c) {
    if (pass[c] != GpuPass::kNone) continue;
    const absl::string_view name = name_of(c);
    if (c == m.entry_index) {
      keyed.push_back({{0, TrailingNumber(name, "_spmd"), -1, 0}, c});
    } else if (const auto ab = ImportedNumbers(name)) {
      // A pass's new computation in place of a region ("region_A.B.word")
      // comes after the importer's; a region renamed ("region_A.B_word")
      // keeps its place.
      const bool in_place = std::count(name.begin(), name.end(), '.') == 2;
      keyed.push_back({{in_place ? 3 : 0, ab->first, ab->second, 0}, c});
    } else if (partitioner[c] >= 0) {
      const DerivedKey k = DerivedKeyOf(name);
      keyed.push_back({{1, partitioner[c], k.region, k.number}, c});
    } else if (loop_place[c] >= 0) {
      // XLA:TPU's are made after fusion (`late`; docs/xla-tpu.md, "Value
      // ids", rule 8).
      keyed.push_back({{tpu ? 8 : 2, loop_place[c], 0, 0}, c});
    } else if (const auto clone = CloneNumbers(name)) {
      // Clones of computations gone first.
      const auto [n, k] = CloneKey(name, *clone, tpu);
      keyed.push_back({{5, LoneClone(name, names) ? 0 : 1, n, k}, c});
    } else if (const DerivedKey k = DerivedKeyOf(name); k.region != INT64_MAX) {
      keyed.push_back({{6, k.region, k.number, 0}, c});
    } else if (tpu && absl::StrContains(name, kReduceSub) &&
               (absl::StartsWith(name, "all-to-all") ||
                absl::StartsWith(name, "all_to_all"))) {
      // XLA:TPU's reducers of all-to-alls, made after fusion (`late`;
      // docs/xla-tpu.md, "Value ids", rule 9).
      keyed.push_back({{9, 0, 0, 0}, c});
    } else if (tpu && TpuScatterExpanderReducer(m.computations[c])) {
      // XLA:TPU's scatter expander's reducers, first of the computations
      // passes made anew, by the name uniquer's number (docs/xla-tpu.md,
      // "Value ids", rule 14).
      keyed.push_back({{4, -1, TrailingNumber(name), 0}, c});
    } else if (tpu && absl::EndsWith(name, kReduceSub)) {
      // XLA:TPU's after the clones (docs/xla-tpu.md, "Value ids").
      keyed.push_back({{5, 2, 0, 0}, c});
    } else if (absl::EndsWith(name, kReduceSub)) {
      absl::string_view dot = name;
      dot.remove_suffix(kReduceSub.size());
      // The split-k rewriter's ("dot.N.reduce_sub_computation") come last;
      // another's (the scatter expander's "and.reduce_sub_computation")
      // first of the computations passes made anew.
      if (absl::StartsWith(dot, "dot")) {
        keyed.push_back({{7, TrailingNumber(dot), 0, 0}, c});
      } else {
        keyed.push_back({{4, -1, 0, 0}, c});
      }
    } else if (tpu && name == "compare") {
      // XLA:TPU's comparator made late: after the clones.
      keyed.push_back({{5, 1, INT64_MAX, INT64_MAX}, c});
    } else {
      keyed.push_back({{4, 0, 0, 0}, c});
    }
  }
  if (tpu) {
    std::vector<int64_t> clones;
    for (const auto& [key, c] : keyed) {
      if (std::get<0>(key) == 5 && CloneNumbers(name_of(c)))
        clones.push_back(c);
    }
    const std::vector<std::pair<int64_t, int64_t>> ranks =
        TpuCloneRanks(g, clones);
    absl::flat_hash_map<int64_t, int64_t> rank_of(ranks.begin(), ranks.end());
    for (auto& [key, c] : keyed) {
      auto it = rank_of.find(c);
      if (it != rank_of.end()) key = {5, 1, it->second, 0};
    }
  }
  SortEarly(m, &keyed);
  return SplitEarly(m, keyed, tpu, imported, later);
}

// The op_name of an instruction's metadata, empty when none.
absl::string_view OpNameOf(const HloInstruction& in) {
  const absl::string_view metadata = in.metadata();
  const size_t at = metadata.find("op_name=\"");
  if (at == absl::string_view::npos) return {};
  const size_t end = metadata.find('"', at + 9);
  if (end == absl::string_view::npos) return {};
  return metadata.substr(at + 9, end - at - 9);
}

// Whether computation `c`, its fusion bodies included, holds what two calls
// of one function the importer made left there. XLA's first pass,
// FlattenCallGraph, gives each call after the first of a function a clone
// of it, a new callee of `c`; CallInliner then inlines them all, and only
// the op_names are left. Counted for the two functions a scan calls once
// per stacked input or output, each made of one operation
// (".../jit(dynamic_index_in_dim)/dynamic_slice",
// ".../jit(dynamic_update_index_in_dim)/dynamic_update_slice"; jax lowers
// them once per signature): two of one op_name and shape are two calls. A
// copy of an instruction in a fusion body is named after the instruction
// with ".N" added, and fusion may copy a slice into several bodies: those
// count once.
bool CalledOneFunctionTwice(const ModuleGraph& g, int64_t c) {
  static constexpr absl::string_view kOnceEach[] = {
      "/jit(dynamic_index_in_dim)/dynamic_slice",
      "/jit(dynamic_update_index_in_dim)/dynamic_update_slice"};
  const HloModule& m = g.module;
  using Key = std::pair<absl::string_view, absl::string_view>;
  absl::flat_hash_map<Key, absl::flat_hash_set<absl::string_view>> calls;
  std::vector<int64_t> stack = {c};
  absl::flat_hash_set<int64_t> visited = {c};
  while (!stack.empty()) {
    const int64_t k = stack.back();
    stack.pop_back();
    for (const HloInstruction& in : m.computations[k].instructions) {
      if (in.opcode != HloOpcode::kDynamicSlice &&
          in.opcode != HloOpcode::kDynamicUpdateSlice) {
        continue;
      }
      const absl::string_view op_name = OpNameOf(in);
      if (std::none_of(std::begin(kOnceEach), std::end(kOnceEach),
                       [&](absl::string_view end) {
                         return absl::EndsWith(op_name, end);
                       })) {
        continue;
      }
      absl::string_view base = in.name();
      if (k != c) base = base.substr(0, std::min(base.size(), base.rfind('.')));
      auto& names = calls[Key{op_name, in.shape_text()}];
      names.insert(base);
      if (names.size() >= 2) return true;
    }
    for (int64_t callee : g.callees[k]) {
      if (g.kind[callee] == CompKind::kFusion &&
          visited.insert(callee).second) {
        stack.push_back(callee);
      }
    }
  }
  return false;
}

// Moves to the front the computations that call `c` through fusion bodies
// (the callers its callers had before fusion took them in).
void TouchFusedCallers(const ModuleGraph& g,
                       const std::vector<std::vector<int64_t>>& callers,
                       int64_t c, OnlineCallOrder* order) {
  std::vector<int64_t> stack;
  absl::flat_hash_set<int64_t> visited;
  for (int64_t u : callers[c]) {
    if (g.kind[u] == CompKind::kFusion && visited.insert(u).second) {
      stack.push_back(u);
    }
  }
  while (!stack.empty()) {
    const int64_t f = stack.back();
    stack.pop_back();
    for (int64_t u : callers[f]) {
      if (!visited.insert(u).second) continue;
      if (g.kind[u] == CompKind::kFusion) {
        stack.push_back(u);
      } else if (order->Has(u)) {
        order->Touch(u);
      }
    }
  }
}

// Adds fusion body `c` of `p`, after the bodies of `p` it calls.
void AddFusionBody(const ModuleGraph& g, const std::vector<GpuPass>& pass,
                   GpuPass p, int64_t c, OnlineCallOrder* order) {
  if (order->Has(c)) return;
  for (int64_t callee : g.callees[c]) {
    if (callee != c && pass[callee] == p) {
      AddFusionBody(g, pass, p, callee, order);
    }
  }
  order->Add(c);
}

// Marks the fusion bodies XLA:TPU's async collectives' start and done
// fusions ("async-collective-start.N", "async-collective-done.N") call
// (rule 9), and its gather and scatter fusions' (rule 11).
void MarkTpuFusionBodies(const ModuleGraph& g, std::vector<GpuPass>* pass) {
  for (const HloComputation& computation : g.module.computations) {
    for (const HloInstruction& in : computation.instructions) {
      if (in.opcode != HloOpcode::kFusion ||
          !absl::StartsWith(in.name(), "async-collective-")) {
        continue;
      }
      const int64_t body = g.CalledComputation(in, "calls");
      if (body >= 0 && (*pass)[body] == GpuPass::kFused) {
        (*pass)[body] = GpuPass::kTpuCollective;
      }
    }
  }
  // Gather and scatter fusions (kind=kCustom), made before the others
  // (rule 11); not their clones (a pass that offloads a scatter clones
  // its fusion later).
  for (const HloComputation& computation : g.module.computations) {
    for (const HloInstruction& in : computation.instructions) {
      if (in.opcode != HloOpcode::kFusion ||
          in.fusion_kind() != HloFusionKind::kCustom) {
        continue;
      }
      const int64_t body = g.CalledComputation(in, "calls");
      if (body >= 0 && (*pass)[body] == GpuPass::kFused &&
          !absl::StrContains(g.module.computations[body].header.name,
                             ".clone")) {
        (*pass)[body] = GpuPass::kTpuCustom;
      }
    }
  }
}

// Each fusion pass walks the computations in the order of the moment
// (XLA's MakeComputationPostOrder, callees first) and fuses in each: its
// bodies are made computation by computation, and each call to one moves
// its caller (and theirs) behind it.
// XLA:TPU's fusion bodies that call a reduce-window's reducer clone (rule
// 13), made later, hold bodies fusion made before: those are made as if
// their caller were there.
void FuseIn(const ModuleGraph& g, const std::vector<GpuPass>& pass, GpuPass p,
            int64_t caller, OnlineCallOrder* order) {
  for (int64_t callee : g.callees[caller]) {
    if (pass[callee] == p) {
      AddFusionBody(g, pass, p, callee, order);
    } else if (pass[callee] == GpuPass::kTpuWindowFusion && callee != caller) {
      FuseIn(g, pass, p, callee, order);
    }
  }
}

void RunFusionPass(const ModuleGraph& g, const std::vector<GpuPass>& pass,
                   GpuPass p, OnlineCallOrder* order) {
  for (int64_t caller : order->PostOrder()) FuseIn(g, pass, p, caller, order);
}

void RunFusionPasses(const ModuleGraph& g, const std::vector<GpuPass>& pass,
                     OnlineCallOrder* order) {
  for (GpuPass p : {GpuPass::kCustom, GpuPass::kSortIota, GpuPass::kFused}) {
    RunFusionPass(g, pass, p, order);
  }
}

// XLA:TPU's loops cloned after fusion (docs/xla-tpu.md, "Value ids", rule
// 8): every condition and body first, in the order TpuLateLoopOrder gives
// (rule 10), then each one's fusion bodies (their clones), which move it
// behind them; then what fusion makes in them.
void AddLoopsClonedAfterFusion(const ModuleGraph& g,
                               const std::vector<GpuPass>& pass,
                               const std::vector<int64_t>& late,
                               OnlineCallOrder* order) {
  if (late.empty()) return;
  const std::vector<int64_t> sorted = TpuLateLoopOrder(g, late);
  for (int64_t c : sorted) order->Add(c);
  for (int64_t c : sorted) {
    for (int64_t callee : g.callees[c]) {
      if (g.kind[callee] == CompKind::kFusion) {
        AddFusionBody(g, pass, pass[callee], callee, order);
      }
    }
  }
  RunFusionPasses(g, pass, order);
  RunFusionPass(g, pass, GpuPass::kTpuCollective, order);
}

// XLA:TPU's reducer clones of fused reduce-windows, made after fusion
// (docs/xla-tpu.md, "Value ids", rule 13): each clone, then the fusion
// bodies that call it (those they call first).
void AddWindowClones(const ModuleGraph& g, const std::vector<GpuPass>& pass,
                     const std::vector<int64_t>& clones,
                     OnlineCallOrder* order) {
  if (clones.empty()) return;
  std::vector<std::vector<int64_t>> window_callers(g.callees.size());
  for (size_t c = 0; c < g.callees.size(); ++c) {
    if (pass[c] != GpuPass::kTpuWindowFusion) continue;
    for (int64_t callee : g.callees[c]) {
      if (callee != static_cast<int64_t>(c)) {
        window_callers[callee].push_back(static_cast<int64_t>(c));
      }
    }
  }
  for (int64_t clone : clones) {
    order->Add(clone);
    // The outermost of the bodies calling it: each adds those it calls.
    std::vector<int64_t> stack = {clone}, outermost;
    absl::flat_hash_set<int64_t> seen;
    while (!stack.empty()) {
      const int64_t c = stack.back();
      stack.pop_back();
      bool called = false;
      for (int64_t caller : window_callers[c]) {
        if (order->Has(caller)) continue;
        called = true;
        if (seen.insert(caller).second) stack.push_back(caller);
      }
      if (!called && c != clone) outermost.push_back(c);
    }
    for (int64_t f : outermost) {
      AddFusionBody(g, pass, GpuPass::kTpuWindowFusion, f, order);
    }
  }
}

// The pass that made each computation, from its name; XLA:TPU's fusion
// bodies by their callers too (docs/xla-tpu.md, "Value ids", rules 8, 9
// and 11).
std::vector<GpuPass> AssignPasses(const ModuleGraph& g, bool tpu) {
  const HloModule& m = g.module;
  const int64_t comps = static_cast<int64_t>(m.computations.size());
  std::vector<GpuPass> pass(comps);
  for (int64_t c = 0; c < comps; ++c) {
    pass[c] = GpuPassOf(m.computations[c].header.name);
    // SortIotaFusion's bodies, made before priority fusion: a sort with
    // its iota (the only fusion body holding a sort).
    if (pass[c] == GpuPass::kFused &&
        std::any_of(m.computations[c].instructions.begin(),
                    m.computations[c].instructions.end(),
                    [](const HloInstruction& in) {
                      return in.opcode == HloOpcode::kSort;
                    })) {
      pass[c] = GpuPass::kSortIota;
    }
    // XLA:TPU's fusion bodies of other names (bitcast_fusion, and its
    // clones in loops cloned after fusion) are fusion's too (rule 8).
    if (tpu && pass[c] == GpuPass::kNone && g.kind[c] == CompKind::kFusion) {
      pass[c] = absl::StartsWith(m.computations[c].header.name,
                                 "async_collective_fusion")
                    ? GpuPass::kTpuCollective
                    : GpuPass::kFused;
    }
  }
  if (tpu) MarkTpuFusionBodies(g, &pass);
  return pass;
}

}  // namespace

absl::Status CheckCreationOrder(const HloModule& module,
                                absl::Span<const std::string> created) {
  absl::flat_hash_map<absl::string_view, int64_t> seen;
  for (const HloComputation& c : module.computations) {
    seen.emplace(c.header.name, 0);
  }
  for (const std::string& name : created) {
    auto it = seen.find(name);
    if (it == seen.end()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "creation order names '", name, "', not a computation here"));
    }
    if (++it->second > 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("creation order names '", name, "' twice"));
    }
  }
  for (const HloComputation& c : module.computations) {
    if (seen[c.header.name] == 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "creation order lacks computation '", c.header.name, "'"));
    }
  }
  return absl::OkStatus();
}

std::vector<int64_t> XlaCpuComputationOrder(
    const ModuleGraph& g, absl::Span<const std::string> created) {
  std::vector<int64_t> creation;
  if (created.empty()) {
    creation = GuessedCreationOrder(g);
  } else {
    // The user's list names computations: the one place names are looked
    // up, once each.
    absl::flat_hash_map<absl::string_view, int64_t> by_name;
    const std::vector<HloComputation>& computations = g.module.computations;
    by_name.reserve(computations.size());
    for (size_t c = 0; c < computations.size(); ++c) {
      by_name.try_emplace(computations[c].header.name, c);
    }
    for (const std::string& name : created) {
      auto it = by_name.find(name);
      if (it != by_name.end()) creation.push_back(it->second);
    }
  }
  return CallGraphPostOrder(g, creation);
}

std::vector<int64_t> XlaGpuComputationOrder(const ModuleGraph& g, bool tpu) {
  const HloModule& m = g.module;
  const int64_t comps = static_cast<int64_t>(m.computations.size());
  std::vector<GpuPass> pass = AssignPasses(g, tpu);
  const std::vector<int64_t> window_clones =
      tpu ? MarkTpuWindowClones(g, &pass) : std::vector<int64_t>();
  OnlineCallOrder order(g);
  int64_t imported = 0;
  TpuLater later;
  const std::vector<int64_t> early =
      GpuEarlyComputations(g, pass, tpu, &imported, &later);
  const bool spmd =
      m.entry_index >= 0 &&
      absl::EndsWith(m.computations[m.entry_index].header.name, "_spmd");
  std::vector<std::vector<int64_t>> callers(comps);
  for (int64_t c = 0; c < comps; ++c) {
    for (int64_t callee : g.callees[c]) {
      if (callee != c) callers[callee].push_back(c);
    }
  }
  for (size_t i = 0; i <= early.size(); ++i) {
    if (static_cast<int64_t>(i) == imported && !spmd) {
      // FlattenCallGraph's clones (the SPMD partitioner's round trip
      // through MLIR numbers the computations anew after it).
      for (int64_t c : order.PostOrder()) {
        if (c != m.entry_index && CalledOneFunctionTwice(g, c)) order.Touch(c);
      }
    }
    if (i == early.size()) break;
    const int64_t c = early[i];
    order.Add(c);
    // A computation made before fusion whose caller fusion took in was
    // called by the computation holding the fusion when it was made.
    if (static_cast<int64_t>(i) >= imported) {
      TouchFusedCallers(g, callers, c, &order);
    }
  }
  // XLA:TPU's: gather and scatter fusions, then what is made after them
  // (rule 11).
  RunFusionPass(g, pass, GpuPass::kTpuCustom, &order);
  for (int64_t c : later.after_custom) {
    order.Add(c);
    TouchFusedCallers(g, callers, c, &order);
  }
  RunFusionPasses(g, pass, &order);
  // XLA:TPU's: the reducers of all-to-alls, then the async collectives'
  // fusion bodies (rule 9), then the loops cloned after fusion (rule 8).
  for (int64_t c : later.after_fusion) order.Add(c);
  RunFusionPass(g, pass, GpuPass::kTpuCollective, &order);
  AddLoopsClonedAfterFusion(g, pass, later.loops, &order);
  AddWindowClones(g, pass, window_clones, &order);
  // The async wrappers' computations, as the name uniquer numbered them
  // (async_computation, async_computation.1, ...: the order made).
  std::vector<int64_t> async;
  for (int64_t c = 0; c < comps; ++c) {
    if (pass[c] == GpuPass::kAsync) async.push_back(c);
  }
  std::sort(async.begin(), async.end(), [&](int64_t a, int64_t b) {
    return NaturalNameLess(m.computations[a].header.name,
                           m.computations[b].header.name);
  });
  for (int64_t c : async) AddFusionBody(g, pass, GpuPass::kAsync, c, &order);
  // FusionWrapper walks the module from the entry as XLA:CPU's wrapping
  // does (WrappedOrder): the entry's instructions before a loop's body.
  std::vector<Made> made(comps, Made::kDerived);
  for (int64_t c = 0; c < comps; ++c) {
    if (pass[c] == GpuPass::kWrapped) {
      made[c] = Made::kWrapped;
    } else if (g.kind[c] == CompKind::kFusion) {
      made[c] = Made::kFused;
    }
  }
  for (int64_t c : WrappedOrder(g, made)) {
    if (!order.Has(c)) order.Add(c);
  }
  for (int64_t c = 0; c < comps; ++c) {
    if (!order.Has(c)) order.Add(c);
  }
  return order.PostOrder();
}

}  // namespace buffer_internal
}  // namespace hlolayout
