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
#include <functional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/string_view.h"
#include "absl/types/optional.h"
#include "absl/types/span.h"

namespace hlolayout {

struct FlatSchedulingGraph;
struct SchedulingGraph;

// Rows of indices, one row per instruction, stored end to end.
class SchedulingLists {
 public:
  SchedulingLists() : begin_(1, 0) {}
  void Clear() {
    begin_.resize(1);
    items_.clear();
  }
  // Appends to the open row; EndRow closes it.
  void Add(int64_t item) { items_.push_back(item); }
  void EndRow() { begin_.push_back(static_cast<int64_t>(items_.size())); }
  size_t rows() const { return begin_.size() - 1; }
  absl::Span<const int64_t> operator[](size_t row) const {
    return absl::MakeConstSpan(items_.data() + begin_[row],
                               begin_[row + 1] - begin_[row]);
  }
  // The transpose of `from` over `rows` rows, each row's items distinct
  // and increasing: row j lists the rows i of `from` that hold j.
  void SetTransposeOf(const SchedulingLists& from, size_t rows);

 private:
  friend void DecodeSchedulingGraph(const FlatSchedulingGraph& flat,
                                    SchedulingGraph* graph);
  std::vector<int64_t> begin_;  // begin_[0] == 0
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

// Whether `scheduler`'s replay reads the buffer lists, sizes and live-out
// buffers: the post-order scheduler's does not (a graph without them
// replays the same).
inline bool ReplayReadsBuffers(XlaScheduler scheduler) {
  return scheduler != XlaScheduler::kPostOrder;
}

// All four at once, indexed by XlaScheduler (cheaper: the post order and
// the DFS statistics are computed once).
std::array<absl::optional<std::vector<int64_t>>, 4> ReplayXlaSchedulers(
    const SchedulingGraph& graph);

// XLA schedules every computation of a module with one scheduler; which,
// replays of the module's computations tell (docs/memory.md, "Where the
// folded get-tuple-elements ran"). The computations are numbered largest
// first; `reproduces(k, s)` replays computation k with scheduler s and
// says whether that gives the text's order. The `sample` largest decide:
// the scheduler reproducing the most of them, the first of list, DFS,
// DFS with parameters first and post-order on ties; when none reproduces
// any, all `computations` decide. Nullopt when no scheduler reproduces
// any computation.
//
// With `skip`, the computations are replayed smallest first, and a
// scheduler is no longer replayed once it cannot be chosen whatever its
// remaining replays give (another reproduces more than it can, or as many
// and comes first): the choice is the same, and every replay of the
// chosen scheduler on the deciding computations has been asked for.
absl::optional<XlaScheduler> ChooseXlaScheduler(
    size_t computations, size_t sample,
    const std::function<bool(size_t, XlaScheduler)>& reproduces, bool skip);

// A SchedulingGraph as one array of integers, its names apart: the
// instruction count, then for every instruction its flags (kFolded,
// kIgnored, kParameter, kEffectiveScalar) and, each as a count followed by
// the items, its operands, control predecessors, used buffers and defined
// buffers; then, as counts and items, the buffer sizes and the live-out
// buffers; the root; the text order as a count and items. Users and
// control successors are left out: they follow from the rest.
struct FlatSchedulingGraph {
  enum Flag : int64_t {
    kFolded = 1,
    kIgnored = 2,
    kParameter = 4,
    kEffectiveScalar = 8,
  };
  std::vector<int64_t> data;
  std::vector<absl::string_view> names;  // by instruction
};
void EncodeSchedulingGraph(const SchedulingGraph& graph,
                           FlatSchedulingGraph* flat);
// The graph back, with its users and control successors set.
void DecodeSchedulingGraph(const FlatSchedulingGraph& flat,
                           SchedulingGraph* graph);

// Replays of the many computations of one module. A graph equal, in all
// that a replay reads, to one replayed before gets that replay's order
// without a replay: loop bodies, conditions and branches that come from
// one source are often such copies (docs/memory-speed.md, "Speed").
//
// The key is the scheduler, the flat graph and, for the DFS schedulers
// (whose tie-break compares names), the order of the names, not the names
// (XlaReplayCache.MatchesReplays checks it against replays on random
// graphs).
class XlaReplayCache {
 public:
  // ReplayXlaScheduler on the decoded `flat`; the result lives as long as
  // the cache.
  // Graphs larger than kLargest integers are replayed, not remembered
  // (large computations are seldom copies of each other, and their keys
  // cost about what a replay does).
  const absl::optional<std::vector<int64_t>>& Replay(
      const FlatSchedulingGraph& flat, XlaScheduler scheduler);
  int64_t hits() const { return hits_; }
  int64_t misses() const { return misses_; }

  static constexpr size_t kLargest = 1 << 12;

 private:
  // graph_ decoded from `flat` unless it is that already.
  void Decode(const FlatSchedulingGraph& flat);

  absl::flat_hash_map<std::vector<int64_t>,
                      absl::optional<std::vector<int64_t>>>
      orders_;
  std::vector<int64_t> key_;
  std::vector<int64_t> by_name_;  // scratch: instructions sorted by name
  std::vector<uint8_t> folded_;   // scratch
  SchedulingGraph graph_;         // scratch for replays
  FlatSchedulingGraph decoded_;   // what graph_ holds
  bool has_decoded_ = false;
  absl::optional<std::vector<int64_t>> uncached_;
  int64_t hits_ = 0, misses_ = 0;
};

}  // namespace hlolayout

#endif  // HLOLAYOUT_MEMORY_XLA_SCHEDULERS_H_
