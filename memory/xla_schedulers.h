// memory/xla_schedulers.h: XLA's three memory schedulers (list, DFS,
// post-order), replayed on one computation to find where the
// get-tuple-elements that the text folded into `%name#N` operands ran.
//
//   %f = (f32[4,33]{1,0}, f32[]) fusion(%p), ...          the text keeps
//   %add = f32[] fusion(%f#1, ...), ...                   f, add, ROOT t;
//   ROOT %t = (f32[4,33]{1,0}, f32[]) tuple(%f#0, %add)   XLA ran
//                                                         f, f#1, add, f#0, t
//
// XLA's default module scheduler runs a list scheduler, a DFS scheduler
// and a post-order scheduler and keeps the schedule that needs the least
// memory (docs/memory.md, "Where the folded get-tuple-elements ran"). A
// dump keeps the order of every instruction it prints, so replaying the
// three on the graph with the folded get-tuple-elements put back, and
// keeping the one whose order of the printed instructions is the text's,
// places those get-tuple-elements where that scheduler put them.
//
// The replay is exact for what decides the order of these modules (sizes,
// users, buffer uses, XLA's tie-breaks); what the text does not keep
// (the names XLA gave the folded instructions, the creation order of the
// computation's instructions, the memory of called computations) is
// guessed, and a replay that does not reproduce the text's order is
// discarded, never forced.
#ifndef HLOLAYOUT_MEMORY_XLA_SCHEDULERS_H_
#define HLOLAYOUT_MEMORY_XLA_SCHEDULERS_H_

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/string_view.h"
#include "absl/types/optional.h"
#include "absl/types/span.h"

namespace hlolayout {

// Rows of indices, one row per instruction, stored end to end.
class SchedulingLists {
 public:
  SchedulingLists() : begin_(1, 0) {}
  void Clear() {
    begin_.assign(1, 0);
    items_.clear();
  }
  // Appends to the open row; EndRow closes it.
  void Add(int64_t item) { items_.push_back(item); }
  void EndRow() { begin_.push_back(items_.size()); }
  size_t rows() const { return begin_.size() - 1; }
  absl::Span<const int64_t> operator[](size_t row) const {
    return absl::MakeConstSpan(items_.data() + begin_[row],
                               begin_[row + 1] - begin_[row]);
  }
  // The transpose of `from` over `rows` rows, each row's items distinct
  // and increasing: row j lists the rows i of `from` that hold j.
  void SetTransposeOf(const SchedulingLists& from, size_t rows);
  // Appends what identifies the rows (for XlaReplayCache's key).
  void AppendKey(std::vector<int64_t>* key) const {
    key->push_back(static_cast<int64_t>(begin_.size()));
    key->insert(key->end(), begin_.begin(), begin_.end());
    key->insert(key->end(), items_.begin(), items_.end());
  }

 private:
  std::vector<size_t> begin_;
  std::vector<int64_t> items_;
};

// One computation as XLA's memory schedulers see it. Instructions are in
// the computation's creation order as far as the text shows it
// (parameters by number, then the text order, each folded
// get-tuple-element right after its producer).
struct SchedulingGraph {
  struct Instruction {
    absl::string_view name;  // empty for a folded get-tuple-element
    bool folded = false;     // a get-tuple-element the text does not print
    bool ignored = false;    // a parameter or a constant (XLA ignores them)
    bool parameter = false;
    bool effective_scalar = false;  // an array with every dimension 1
  };
  std::vector<Instruction> instructions;
  // One row per instruction, filled by the caller:
  SchedulingLists operands;              // instruction indices, as written
  SchedulingLists control_predecessors;  // as written
  SchedulingLists used_buffers;          // distinct, not ignored
  SchedulingLists defined_buffers;       // not ignored
  // Filled by SetUsers:
  SchedulingLists users;  // distinct, in instruction order
  SchedulingLists control_successors;
  std::vector<int64_t> buffer_bytes;  // by buffer id
  std::vector<int64_t> live_out;      // buffers at the root, distinct
  int64_t root = -1;
  // The text's order: indices of the instructions that are not folded.
  std::vector<int64_t> text_order;

  // Empties the graph, keeping its memory.
  void Clear();
  // Fills `users` and `control_successors` from `operands` and
  // `control_predecessors`.
  void SetUsers();
};

enum class XlaScheduler {
  kList,
  kDfs,
  kPostOrder,
  // The DFS order with the parameters moved to the front (XLA:CPU's
  // schedules look like this).
  kDfsParametersFirst,
};
absl::string_view XlaSchedulerName(XlaScheduler scheduler);

// The order `scheduler` gives every instruction of `graph`, provided its
// order of the printed instructions is `graph.text_order`; nullopt when
// it is not (this scheduler did not write the text). The list scheduler's
// choices among printed instructions of equal priority follow the text
// (the tie-break XLA used depends on creation order the text lost).
absl::optional<std::vector<int64_t>> ReplayXlaScheduler(
    const SchedulingGraph& graph, XlaScheduler scheduler);

// All four at once, indexed by XlaScheduler (cheaper: the post order and
// the DFS statistics are computed once).
std::array<absl::optional<std::vector<int64_t>>, 4> ReplayXlaSchedulers(
    const SchedulingGraph& graph);

// Replays of the many computations of one module. A graph equal, in all
// that a replay reads, to one replayed before gets that replay's order
// without a replay: loop bodies, conditions and branches that come from
// one source are often such copies (docs/memory.md, "Speed").
//
// Compared: every instruction's flags (folded, ignored, parameter,
// effective_scalar), every row of `operands`, `control_predecessors`,
// `used_buffers` and `defined_buffers`, `buffer_bytes`, `live_out`,
// `root` and `text_order`; for the DFS schedulers, whose tie-break
// compares names, the order of the names (not the names). `users` and
// `control_successors` follow from the rest. A field that a replay comes
// to read must join the key (XlaReplayCache.MatchesReplays checks random
// graphs).
class XlaReplayCache {
 public:
  // ReplayXlaScheduler(*graph, scheduler). `graph` needs no SetUsers: it
  // is called when the replay runs.
  absl::optional<std::vector<int64_t>> Replay(SchedulingGraph* graph,
                                              XlaScheduler scheduler);
  int64_t hits() const { return hits_; }
  int64_t misses() const { return misses_; }

 private:
  void MakeKey(const SchedulingGraph& graph, XlaScheduler scheduler);

  absl::flat_hash_map<std::vector<int64_t>,
                      absl::optional<std::vector<int64_t>>>
      orders_;
  std::vector<int64_t> key_;
  std::vector<int64_t> by_name_;  // scratch: instructions sorted by name
  int64_t hits_ = 0, misses_ = 0;
};

}  // namespace hlolayout

#endif  // HLOLAYOUT_MEMORY_XLA_SCHEDULERS_H_
