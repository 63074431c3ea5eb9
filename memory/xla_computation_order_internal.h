// memory/xla_computation_order_internal.h: the pieces of the guessed
// computation order shared by memory/xla_computation_order.cc (XLA:CPU's
// and XLA:GPU's guesses, and the frame XLA:TPU's shares) and
// memory/xla_tpu_computation_order.cc (XLA:TPU's own rules, docs/
// xla-tpu.md, "Value ids"); not a public header.
#ifndef HLOLAYOUT_MEMORY_XLA_COMPUTATION_ORDER_INTERNAL_H_
#define HLOLAYOUT_MEMORY_XLA_COMPUTATION_ORDER_INTERNAL_H_

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "hlolayout/hlo/module.h"
#include "hlolayout/memory/buffer_assignment_internal.h"

namespace hlolayout {
namespace buffer_internal {

// XLA:GPU's fusion passes, in the order they run; each names the bodies it
// makes its own way.
enum class GpuPass : uint8_t {
  kNone,
  kCustom,
  kSortIota,
  kFused,
  kTpuCustom,        // XLA:TPU's gather and scatter fusions' bodies, earlier
  kTpuCollective,    // XLA:TPU's async_collective_fusion bodies, made later
  kTpuWindowClone,   // XLA:TPU's reducer clones of fused reduce-windows
  kTpuWindowFusion,  // and the fusion bodies calling them (rule 13)
  kAsync,
  kWrapped
};

// The number after the last '.', -1 when there is none; `suffix` (such as
// "_spmd") may follow it.
int64_t TrailingNumber(absl::string_view name, absl::string_view suffix = "");

// Whether `s` is one or more decimal digits.
bool AllDigits(absl::string_view s);

// A collective that reduces with a computation of its own (all-reduce,
// all-reduce-start, reduce-scatter), which the SPMD partitioner clones.
bool ReducesWithAComputation(const HloInstruction& in);

// (B, A) of the importer's "region_A.B", of a computation a pass made of
// one in its place ("region_10.17.reduce_window") or of one a pass renamed
// ("region_2.4_scalarized_rw_wrapper"); nullopt otherwise.
std::optional<std::pair<int64_t, int64_t>> ImportedNumbers(
    absl::string_view name);

// (N, K) of a clone "X.N....clone.K" (K 0 for ".clone", N -1 when X has no
// number): the number of what was cloned, then the clone's; nullopt when
// the name has no ".clone".
std::optional<std::pair<int64_t, int64_t>> CloneNumbers(absl::string_view name);

// XLA:TPU's rules (memory/xla_tpu_computation_order.cc).

// The place of each of the SPMD partitioner's reducer clones among them
// (rule 5), -1 for the computations that are not such clones.
std::vector<int64_t> TpuPartitionerTimes(const ModuleGraph& g,
                                         const std::vector<GpuPass>& pass);

// (computation, rank) of each of `clones`, clones of reducers, in XLA:TPU's
// order (rule 6); empty where the names do not give it.
std::vector<std::pair<int64_t, int64_t>> TpuCloneRanks(
    const ModuleGraph& g, const std::vector<int64_t>& clones);

// Whether XLA:TPU makes this computation after its gather and scatter
// fusions (rule 11): not its scatter expander's reducers (rule 14).
bool AfterCustomFusion(const HloComputation& computation);

// Whether this is a reducer XLA:TPU's scatter expander made (rule 14: the
// `and` of an index-validity check, "X.reduce_sub_computation" by name),
// made just after the importer's computations, first of those passes make
// anew.
bool TpuScatterExpanderReducer(const HloComputation& computation);

// Sorts those computations (AfterCustomFusion) in XLA:TPU's order, each
// kind in the places it holds (rules 11 and 12).
void SortTpuAfterCustom(const HloModule& m, std::vector<int64_t>* list);

// XLA:TPU's loops cloned after fusion (`late`, conditions and bodies) in
// the order it makes them (rule 10): every condition, then every body; the
// conditions computation by computation callees first (a loop in another's
// body before that loop), the bodies callers first (depth-first from the
// entry), each computation's loops by the numbers ending their names
// (while.59 before while.61).
std::vector<int64_t> TpuLateLoopOrder(const ModuleGraph& g,
                                      const std::vector<int64_t>& late);

// XLA:TPU's reducer clones that only reduce-windows in fusion bodies call
// (rule 13), made after fusion with the bodies calling them: marks them
// kTpuWindowClone and those bodies (and the fusion bodies calling those)
// kTpuWindowFusion, and returns the clones in the order made (by name).
std::vector<int64_t> MarkTpuWindowClones(const ModuleGraph& g,
                                         std::vector<GpuPass>* pass);

}  // namespace buffer_internal
}  // namespace hlolayout

#endif  // HLOLAYOUT_MEMORY_XLA_COMPUTATION_ORDER_INTERNAL_H_
