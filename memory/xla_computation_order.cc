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
//      the all-reduces, reduce-scatters and scatters it writes;
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
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "absl/types/span.h"
#include "hlolayout/memory/buffer_assignment_internal.h"

namespace hlolayout {
namespace buffer_internal {
namespace {

enum class Made : uint8_t { kImported, kDerived, kFused, kWrapped, kLate };

// The number after the last '.', -1 when there is none; `suffix` (such as
// "_spmd") may follow it.
int64_t TrailingNumber(absl::string_view name, absl::string_view suffix = "") {
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
        n,
        [&](int64_t k) -> const std::vector<int64_t>& {
          return ig.operands[k];
        },
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

// The order XLA:CPU created the computations in, as far as the names and
// the call graph tell it (the text does not hold it): steps 1-5 above.
std::vector<int64_t> GuessedCreationOrder(const ModuleGraph& g) {
  const HloModule& m = g.module;
  const int64_t comps = static_cast<int64_t>(m.computations.size());
  std::vector<Made> made(comps, Made::kDerived);
  std::vector<int64_t> imported, derived, fused, late;
  for (int64_t c = 0; c < comps; ++c) {
    const absl::string_view name = m.computations[c].header.name;
    if (c == m.entry_index || IsImportedRegion(name)) {
      made[c] = Made::kImported;
      imported.push_back(c);
    } else if (IsFused(name)) {
      made[c] = Made::kFused;
      fused.push_back(c);
    } else if (absl::StartsWith(name, "wrapped_")) {
      made[c] = Made::kWrapped;
    } else if (IsLate(name)) {
      made[c] = Made::kLate;
      late.push_back(c);
    } else {
      derived.push_back(c);
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
  std::stable_sort(imported.begin(), imported.end(), [&](int64_t a, int64_t b) {
    return imported_key(a) < imported_key(b);
  });
  // The SPMD partitioner makes a new entry ("main.N_spmd") after the
  // imported computations, and before it the reducers it clones for the
  // collectives and scatters it writes.
  const bool spmd =
      m.entry_index >= 0 && absl::EndsWith(name_of(m.entry_index), "_spmd");
  std::vector<int64_t> before_entry;
  if (spmd) {
    imported.erase(std::find(imported.begin(), imported.end(), m.entry_index));
    std::vector<bool> early(comps, false);
    for (const HloComputation& computation : m.computations) {
      for (const HloInstruction& in : computation.instructions) {
        if (in.opcode != HloOpcode::kAllReduce &&
            in.opcode != HloOpcode::kAllReduceStart &&
            in.opcode != HloOpcode::kReduceScatter &&
            in.opcode != HloOpcode::kScatter) {
          continue;
        }
        const int64_t callee = g.CalledComputation(in, "to_apply");
        if (callee >= 0 && made[callee] == Made::kDerived) early[callee] = true;
      }
    }
    for (int64_t c : derived) {
      if (early[c]) before_entry.push_back(c);
    }
    derived.erase(std::remove_if(derived.begin(), derived.end(),
                                 [&](int64_t c) { return early[c]; }),
                  derived.end());
  }
  std::vector<int64_t> derived_order;
  std::vector<bool> placed(comps, false);
  for (int64_t c : LoopComputations(g)) {
    if (made[c] == Made::kDerived && !placed[c]) {
      placed[c] = true;
      derived_order.push_back(c);
    }
  }
  std::vector<int64_t> rest;
  for (int64_t c : derived) {
    if (!placed[c]) rest.push_back(c);
  }
  std::stable_sort(rest.begin(), rest.end(), [&](int64_t a, int64_t b) {
    const DerivedKey ka = DerivedKeyOf(name_of(a)),
                     kb = DerivedKeyOf(name_of(b));
    if (ka.region != kb.region) return ka.region < kb.region;
    if (ka.number != kb.number) return ka.number < kb.number;
    return NaturalNameLess(ka.name, kb.name);
  });
  derived_order.insert(derived_order.end(), rest.begin(), rest.end());
  std::stable_sort(fused.begin(), fused.end(), [&](int64_t a, int64_t b) {
    return TrailingNumber(name_of(a)) < TrailingNumber(name_of(b));
  });
  std::stable_sort(late.begin(), late.end(), [&](int64_t a, int64_t b) {
    return NaturalNameLess(name_of(a), name_of(b));
  });
  std::vector<int64_t> creation = imported;
  if (spmd) {
    // In the order the rule for derived computations gives them.
    std::vector<int64_t> early_order = before_entry;
    std::stable_sort(early_order.begin(), early_order.end(),
                     [&](int64_t a, int64_t b) {
                       const DerivedKey ka = DerivedKeyOf(name_of(a));
                       const DerivedKey kb = DerivedKeyOf(name_of(b));
                       if (ka.region != kb.region) return ka.region < kb.region;
                       if (ka.number != kb.number) return ka.number < kb.number;
                       return NaturalNameLess(ka.name, kb.name);
                     });
    creation.insert(creation.end(), early_order.begin(), early_order.end());
    creation.push_back(m.entry_index);
  }
  creation.insert(creation.end(), derived_order.begin(), derived_order.end());
  creation.insert(creation.end(), fused.begin(), fused.end());
  const std::vector<int64_t> wrapped = WrappedOrder(g, made);
  creation.insert(creation.end(), wrapped.begin(), wrapped.end());
  creation.insert(creation.end(), late.begin(), late.end());
  return creation;
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

}  // namespace buffer_internal
}  // namespace hlolayout
