// memory/buffer_assignment_internal.h: the pieces of memory/
// buffer_assignment.h shared by its source files; not a public header.
// xla_value_ids.cc numbers the values as XLA does and orders computations
// and instructions; buffer_sharing.cc decides when a value may take its
// operand's place; buffer_assignment.cc assigns the allocations.
#ifndef HLOLAYOUT_MEMORY_BUFFER_ASSIGNMENT_INTERNAL_H_
#define HLOLAYOUT_MEMORY_BUFFER_ASSIGNMENT_INTERNAL_H_

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "hlolayout/hlo/module.h"
#include "hlolayout/memory/buffer_assignment.h"
#include "hlolayout/memory/dataflow.h"
#include "hlolayout/memory/live_range.h"

namespace hlolayout {
namespace buffer_internal {

// How XLA's buffer assignment treats a computation
// (GatherComputationsByAllocationType).
enum class CompKind : uint8_t {
  kUnreached,    // not reached from the entry: no buffers
  kGlobal,       // the entry and what it runs by while/call/conditional/async
  kThreadLocal,  // reducers, comparators, ...: one allocation per value
  kFusion,       // fusion bodies: no buffers
};

// Lists of ids, one per instruction, in one flat table: list i is
// ids[begin[i] .. begin[i + 1]) (a vector per instruction took three
// times the memory on a computation of 355,000 instructions).
struct IdLists {
  std::vector<int64_t> begin{0};
  std::vector<int64_t> ids;

  absl::Span<const int64_t> operator[](int64_t i) const {
    return absl::MakeConstSpan(ids.data() + begin[i], begin[i + 1] - begin[i]);
  }
  size_t size() const { return begin.size() - 1; }
};

// The instructions of a computation as a graph: operands and users by
// index in text order (-1: an operand that is not in the computation).
struct InstructionGraph {
  const HloComputation* source = nullptr;
  IdLists operands;
  IdLists users;                    // each user once, in text order
  std::vector<int64_t> parameters;  // by number, -1 for gaps
  int64_t root = -1;
  const HloInstruction& at(int64_t i) const {
    return source->instructions[static_cast<size_t>(i)];
  }
};
InstructionGraph BuildInstructionGraph(const HloComputation& computation);

// The module, its dataflow and the relations the assignment needs.
struct ModuleGraph {
  ModuleGraph(const HloModule& module, const MemoryAnalysis& analysis);

  const HloModule& module;
  const MemoryAnalysis& analysis;
  const MemoryDataflow& df;
  std::vector<CompKind> kind;  // by computation
  // Called computations of each computation, each once, in the order
  // XLA's call graph lists them (instruction order; a while's body before
  // its condition).
  std::vector<std::vector<int64_t>> callees;
  // Users of each dataflow node (each once), as slices of user_ids.
  std::vector<int64_t> user_begin, user_ids;
  // What each instruction of the module calls (indexed as
  // MemoryDataflow::Callees), in XLA's order: a while's body, then its
  // condition; others in attribute order.
  std::vector<int64_t> call_begin, calls;

  absl::Span<const int64_t> Calls(int64_t instruction) const {
    if (instruction < 0) return {};
    return absl::MakeConstSpan(
        calls.data() + call_begin[instruction],
        call_begin[instruction + 1] - call_begin[instruction]);
  }

  absl::Span<const int64_t> Users(int64_t node) const {
    return absl::MakeConstSpan(user_ids.data() + user_begin[node],
                               user_begin[node + 1] - user_begin[node]);
  }
  // The computation a node's fusion (or other embedded caller) calls
  // through `calls=`, -1 when none.
  int64_t CalledComputation(const HloInstruction& instruction,
                            absl::string_view attribute) const;
  // A graph of a computation without dataflow nodes (built once).
  const InstructionGraph& Graph(int64_t computation) const;
  // The value at position `index` of node `node`'s result, -1 if none.
  int64_t ValueAt(int64_t node, absl::Span<const int64_t> index) const;
  // Lets go of every table (the graph is not read after).
  void Release();

 private:
  mutable std::vector<std::unique_ptr<InstructionGraph>> graphs_;
};

// A value of a thread-local computation.
struct ThreadLocalValue {
  int64_t computation = 0;
  int64_t instruction = 0;  // index in the computation's text
  std::vector<int64_t> index;
  const Shape* shape = nullptr;
  int64_t bytes = 0;
  int64_t id = 0;        // XLA's value id
  int64_t position = 0;  // post-order position among thread-local values
  bool is_constant = false;
};

// XLA:TPU's rules (memory/xla_tpu_rules.cc; docs/xla-tpu.md, learned from
// what XLA:TPU writes). The bytes a value of `shape` takes in XLA:TPU's
// buffer assignment, given its padded bytes (tile padding counted): a
// tuple's index table XlaTpuTupleTableBytes, an array without tiles outside
// SMEM (S(2)) and S(8) a whole (8,128) tile of elements, any other array
// its padded bytes.
int64_t XlaTpuBufferBytes(const Shape& shape, int64_t padded_bytes,
                          absl::optional<TpuGeneration> generation);
// The index table of a tuple of `elements` elements on `generation`: 4
// bytes an element rounded up to 512 bytes (v4, v5e, and a generation not
// known) or to 32 (v5p, v6e); 0 for an empty tuple.
int64_t XlaTpuTupleTableBytes(int64_t elements,
                              absl::optional<TpuGeneration> generation);
// The memory space of the index table of a tuple of `shape` defined in a
// computation of `execution_thread` (the text's, quotes and all): 7 on the
// SparseCore's thread (`sparsecore`), where the table takes no bytes; -1
// for any other value, whose memory space is its layout's.
int64_t XlaTpuSparseCoreTableSpace(const Shape& shape,
                                   absl::string_view execution_thread);
// The alignment of XLA:TPU's heap offsets in a memory space.
int64_t XlaTpuAlignment(int64_t memory_space);
// Whether XLA:TPU keeps a value defined by an instruction of `opcode` out of
// every maybe-live-out allocation (a collective that other devices write
// the result of: all-gather, all-to-all, collective-permute and its start),
// as XLA's BufferAssigner does for the values its `must_not_live_out`
// callback names.
bool XlaTpuMustNotLiveOut(HloOpcode opcode);
// XLA:TPU's memory_analysis() temp and peak figures, set in `b.stats` from
// the assignment `b` of the module `analysis` is of (memory/
// xla_tpu_stats.cc; docs/xla-tpu.md, rules learned from XLA:TPU's
// answers).
void SetXlaTpuMemoryStats(const MemoryAnalysis& analysis, BufferAssignment& b);
// A value live over the steps [start, stop) on the bytes [begin, end).
struct HeapSpan {
  int64_t start, stop, begin, end;
};
// The most bytes that spans live at one step cover, each byte once (the
// HBM heap's term of XLA:TPU's peak; memory/xla_tpu_stats.cc).
int64_t PeakCoveredBytes(absl::Span<const HeapSpan> spans);

// XLA's value ids and the orders that depend on them.
struct XlaIds {
  std::vector<int64_t> value_id;  // by MemoryAnalysis::values index
  std::vector<ThreadLocalValue> thread_local_values;
  // Post-order position of each dataflow node among the global
  // computations (BufferAssigner's sort key), -1 when not numbered.
  std::vector<int64_t> node_position;
};
// XLA:CPU: number the computations in XlaCpuComputationOrder; otherwise in
// XlaGpuComputationOrder (XLA:TPU's guess for XLA:TPU); in XLA's online order
// replayed over `created` (the computations' names in XLA's creation order)
// whatever the platform when it is not empty (memory/xla_value_ids.cc).
XlaIds ComputeXlaIds(const ModuleGraph& graph, XlaPlatform platform,
                     absl::Span<const std::string> created = {});

// For tests: with `on`, ComputeXlaIds checks, at every phi update, the
// counts it keeps up to date as values change (how many inputs have a
// value, the one value, whether they changed since the phi registered
// them) against the same read from every input, and counts the checks and
// the failures (reset here). It reads every input at each update: not for
// use outside tests (quadratic on a body shared by thousands of loops).
void SetXlaIdsSelfCheckForTesting(bool on);
// {checks, failures} since the last SetXlaIdsSelfCheckForTesting.
std::pair<int64_t, int64_t> XlaIdsSelfCheckCountsForTesting();

// The order in which XLA:CPU (as jaxlib compiles) numbers the values of the
// module's computations, every computation once: XLA's online topological
// order of the call graph replayed over the computations in the order they
// were created, `created` (names; CheckCreationOrder) when given, else
// guessed from the names (memory/xla_computation_order.cc; docs/memory.md,
// "Value ids").
std::vector<int64_t> XlaCpuComputationOrder(
    const ModuleGraph& graph, absl::Span<const std::string> created = {});

// The same for XLA:GPU, whose creation order is guessed from its pipeline:
// the imported and derived computations as on XLA:CPU, then each fusion
// pass's bodies (custom, then priority fusion's, then wrapped
// instructions') computation by computation in the order of the moment.
// With `tpu`, XLA:TPU's guess (docs/xla-tpu.md, "Value ids"): the same,
// but a pass's clones ordered by their clone number before the number of
// what they clone, and the loop conditions and bodies passes cloned after
// the computations passes made anew and the clones.
std::vector<int64_t> XlaGpuComputationOrder(const ModuleGraph& graph,
                                            bool tpu = false);

// OK when `created` names every computation of `module` exactly once.
absl::Status CheckCreationOrder(const HloModule& module,
                                absl::Span<const std::string> created);

// a < b with runs of digits compared as numbers ("fused.9" < "fused.10");
// names ordered for XLA:CPU and XLA:GPU value ids alike.
bool NaturalNameLess(absl::string_view a, absl::string_view b);

// XLA's MakeInstructionPostOrder: a depth-first walk from each instruction
// without users, in `count` order, visiting operands in order and control
// predecessors before them. `operands(i)`, `control_predecessors(i)` give
// instruction indices; `has_users(i)` whether i has users.
template <typename Operands, typename Preds, typename HasUsers>
std::vector<int64_t> InstructionPostOrder(int64_t count, Operands operands,
                                          Preds control_predecessors,
                                          HasUsers has_users) {
  std::vector<int64_t> post_order;
  post_order.reserve(count);
  std::vector<uint8_t> state(count, 0);  // 0 new, 1 visiting, 2 visited
  std::vector<int64_t> stack;
  for (int64_t r = 0; r < count; ++r) {
    if (has_users(r) || state[r] == 2) continue;
    stack.push_back(r);
    while (!stack.empty()) {
      const int64_t current = stack.back();
      if (state[current] == 0) {
        state[current] = 1;
        const auto& ops = operands(current);
        for (auto it = ops.rbegin(); it != ops.rend(); ++it) {
          if (*it >= 0 && state[*it] != 2) stack.push_back(*it);
        }
        for (int64_t p : control_predecessors(current)) {
          if (p >= 0 && state[p] != 2) stack.push_back(p);
        }
      } else {
        stack.pop_back();
        if (state[current] != 2) {
          state[current] = 2;
          post_order.push_back(current);
        }
      }
    }
  }
  return post_order;
}

// XLA's HloDataflowAnalysis::CanShareOperandBufferWithUser with the
// platform's hint (docs/memory.md, "When a value takes its operand's
// place"): may `user` (a dataflow node) write its value at `user_index`
// into the buffer of `operand`'s value at `operand_index`? `operand` is a
// direct operand of `user`.
bool CanShareOperandBufferWithUser(const ModuleGraph& graph,
                                   XlaPlatform platform, int64_t operand,
                                   absl::Span<const int64_t> operand_index,
                                   int64_t user,
                                   absl::Span<const int64_t> user_index);

}  // namespace buffer_internal
}  // namespace hlolayout

#endif  // HLOLAYOUT_MEMORY_BUFFER_ASSIGNMENT_INTERNAL_H_
