// memory/live_range.h: values, live ranges and peak memory of a scheduled
// HLO module, computed as XLA's HloDataflowAnalysis and module-scoped
// HloLiveRange compute them (docs/memory.md).
//
//   HloModule m, is_scheduled=true
//   ENTRY %main (p: f32[256]) -> f32[256] {
//     %p = f32[256]{0} parameter(0)              time 0: p{} lives 0-4
//     %a = f32[256]{0} negate(%p)                time 1: a{} lives 1-2
//     %b = f32[256]{0} exponential(%a)           time 2: b{} lives 2-4
//     ROOT %t = (f32[256]{0}) tuple(%b)          time 3: t{} lives 3-4
//   }
//   -> schedule end 4; XLA's peak moment is 3 (its sweep adds t, starting
//      at 3, before it drops a, whose end event falls at 3): p, b, t live,
//      2056 bytes
//
// What is modelled:
//   - values (defining instruction, shape index) by the rules of
//     memory/value_rules.h; `while` and `conditional` merge values into phi
//     values, which XLA's phi graph optimization resolves (a phi whose
//     inputs reach a single value is that value);
//   - operands written `%name#N`: today's XLA prints a get-tuple-element
//     this way, and the text keeps neither its name nor its place in the
//     schedule. One get-tuple-element per distinct (producer, N) is put
//     back, named "producer#N", where XLA's scheduler ran it: XLA's list,
//     DFS and post-order schedulers are replayed and the one reproducing
//     the text's order places it (memory/xla_schedulers.h); otherwise it
//     goes right after the producer (docs/memory.md);
//   - the flattened schedule of the module (`call`, `conditional` branches,
//     async computations, `while` condition then body, each flattened once
//     before the instruction that runs it);
//   - live ranges [start, end] with the while-use, root and entry-parameter
//     rules, and XLA's normalization of values that share a buffer (through
//     while loops, conditionals, in-place dynamic-update-slice fusions,
//     custom-call output_to_operand_aliasing, input_output_alias);
//   - sizes: tuple nodes 8 bytes per element; arrays the exact padded bytes
//     of layout/sizes.h (tiles, L, E): on untiled GPU/CPU layouts this is
//     XLA's ShapeUtil::ByteSizeOf;
//   - the peak: the first time at which the live bytes reach their
//     maximum, for all memory together (XLA's figure) and per memory space.
//
// Preconditions: none; a module without `is_scheduled=true` is refused with
// an error (there is no schedule to follow), as are unknown operands and
// computations.
#ifndef HLOLAYOUT_MEMORY_LIVE_RANGE_H_
#define HLOLAYOUT_MEMORY_LIVE_RANGE_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "hlolayout/hlo/module.h"
#include "hlolayout/memory/dataflow.h"
#include "hlolayout/shape/shape.h"

namespace hlolayout {

// A get-tuple-element the analysis restored (a `%producer#N` operand
// stands for it in the text): its own name and shape, which no instruction
// record holds (MemoryAnalysis::storage keeps them).
struct RestoredGetTupleElement {
  absl::string_view name;  // "producer#N"
  const Shape* shape = nullptr;
};

// One instruction of the flattened schedule, 24 bytes (a 75 MB dump
// schedules some 400,000): the records it comes from; its texts and shape
// are found from them when asked. The texts are views: into the module's
// text, and for a restored get-tuple-element's "producer#N" into
// MemoryAnalysis::storage.
struct ScheduledInstruction {
  ScheduledInstruction() = default;
  explicit ScheduledInstruction(const HloInstruction* source)
      : record_(source) {}
  explicit ScheduledInstruction(const RestoredGetTupleElement* restored)
      : restored_(restored != nullptr), record_(restored) {}

  // Its instruction; null for a restored get-tuple-element.
  const HloInstruction* source() const {
    return restored_ ? nullptr : static_cast<const HloInstruction*>(record_);
  }
  // A restored get-tuple-element's record; null for any other.
  const RestoredGetTupleElement* restored() const {
    return restored_ ? static_cast<const RestoredGetTupleElement*>(record_)
                     : nullptr;
  }
  // Its result's shape: its instruction's, or a restored element's own
  // (null when neither is set).
  const Shape* shape() const {
    if (record_ == nullptr) return nullptr;
    return restored_ ? restored()->shape : source()->shape;
  }
  // "fusion.3", or "producer#N" for a restored get-tuple-element.
  absl::string_view name() const {
    if (record_ == nullptr) return absl::string_view();
    return restored_ ? restored()->name : source()->name();
  }
  // "fusion", "get-tuple-element" (restored), as written.
  absl::string_view opcode() const;
  // Its computation's name.
  absl::string_view computation() const;
  // The metadata attribute's value ("{op_name=... source_line=...}"),
  // empty when absent; hlo/source_location.h reads its source line.
  absl::string_view metadata() const;
  // The metadata's op_name ("jit(f)/mul"), empty when absent.
  absl::string_view op_name() const;

  // The computation it belongs to (of the module analysed).
  const HloComputation* computation_source = nullptr;
  // The time of the instruction that runs this one's computation (a
  // `while`, `conditional`, `call` or `async-start`; the first, when
  // several do); -1 in the entry computation. Times are counted in 32 bits,
  // as the analysis numbers its positions.
  int32_t caller = -1;

 private:
  // (In this order: the flag fills the room after `caller`.)
  bool restored_ = false;
  const void* record_ = nullptr;  // an HloInstruction, or restored_'s record
};
static_assert(sizeof(ScheduledInstruction) <= 24, "one per instruction");

// What one shape index of one distinct shape holds: every value defined at
// that index of a result of that shape shares it (MemoryAnalysis::storage
// owns those of an analysis).
struct LiveValueShape {
  // {} for the whole result; its entries are kept where this struct is
  // (MemoryAnalysis::storage, or whatever a value made by hand uses).
  absl::Span<const int64_t> index;
  const Shape* shape = nullptr;
  int64_t bytes = 0;          // 8 per tuple element, padded array bytes
  int64_t logical_bytes = 0;  // the same without tile/L padding
};

// 24 bytes (a 75 MB dump defines some 400,000 values): what its shape index
// says is shared (LiveValueShape), read through index(), shape(), bytes()
// and logical_bytes(). Instructions and times are counted in 32 bits, as
// the analysis numbers its positions.
struct LiveValue {
  // Its index's shape and sizes: in MemoryAnalysis::storage (or, for a
  // value made by hand, whatever outlives it). Null reads as the whole
  // result of no shape, 0 bytes.
  const LiveValueShape* of = nullptr;
  int32_t instruction = 0;  // index into MemoryAnalysis::instructions
  int32_t start = 0;        // live range, inclusive, after normalization
  int32_t end = 0;
  bool is_phi = false;

  // Shape index, {} for the whole result.
  absl::Span<const int64_t> index() const {
    return of != nullptr ? of->index : absl::Span<const int64_t>();
  }
  const Shape* shape() const { return of != nullptr ? of->shape : nullptr; }
  int64_t bytes() const { return of != nullptr ? of->bytes : 0; }
  int64_t logical_bytes() const {
    return of != nullptr ? of->logical_bytes : 0;
  }

  // S(n) of its shape, an array with a layout; 0 for the others (tuples,
  // tokens, no layout or no shape).
  int64_t memory_space() const { return MemorySpaceOf(shape()); }

  // The same of any shape (null: 0).
  static int64_t MemorySpaceOf(const Shape* shape) {
    return shape != nullptr && shape->IsArray() && shape->has_layout()
               ? shape->layout().memory_space()
               : 0;
  }
};

struct MemoryPeak {
  int64_t memory_space = -1;  // -1: all memory together (XLA's figure)
  int64_t time = 0;
  int64_t bytes = 0;
  // Values live at `time` (start <= time <= end), largest first, then by
  // instruction name and index (the order XLA prints).
  std::vector<int64_t> values;
};

struct MemoryAnalysis {
  absl::string_view module_name;
  // The module says is_scheduled=true. False only with
  // MemoryAnalysisOptions::allow_unscheduled: the "schedule" below is then
  // the text order, and the live ranges, peaks and curve are of that order.
  bool scheduled = true;
  // Every instruction of the flattened schedule, at its logical time.
  std::vector<ScheduledInstruction> instructions;
  int64_t schedule_end = 0;  // `HloLiveRange (max T)`
  // The XLA scheduler whose replay placed the get-tuple-elements folded
  // into `%name#N` operands ("list", "dfs", ...; memory/xla_schedulers.h),
  // empty when none reproduced the text (they then follow their producer).
  std::string replayed_scheduler;
  // Values defined by scheduled instructions, in a deterministic order:
  // computations in schedule order, instructions in post order, phis last.
  std::vector<LiveValue> values;
  MemoryPeak peak;                      // all memory spaces
  std::vector<MemoryPeak> space_peaks;  // one per memory space present
  // Live bytes at every time 0..schedule_end-1 (all spaces): the values'
  // own sizes over their inclusive ranges, so a buffer handed from one
  // value to the next counts twice at the handover time.
  std::vector<int64_t> curve;
  // What the views of `instructions` and `values` that do not point into
  // the module point into (restored get-tuple-elements' names, shape
  // indices); copies of the analysis share it.
  std::shared_ptr<const void> storage;
  // The dataflow the values come from (memory/dataflow.h), only when
  // MemoryAnalysisOptions::keep_dataflow was set; null otherwise.
  std::shared_ptr<const MemoryDataflow> dataflow;
};

// AnalyzeMemory
//
// The analysis of one module read by ReadHloModules. The result points
// into `module` (shapes) and its text (names): both must outlive it.
// Refused: computations that call each other in a cycle (XLA's call graph
// has none) and calls nested more than kMaxCallDepth computations deep
// (the analyses walk the call graph by recursion, one stack frame a level).
// With glibc's malloc, an analysis that freed 8 MiB or more of large
// working tables (a module of tens of MB) gives the free memory of the
// process' heap back to the system once they are freed
// (ScratchPool::GiveBackFreeHeap, memory/scratch_pool.h: about 2 ms).
inline constexpr int64_t kMaxCallDepth = 1000;
absl::StatusOr<MemoryAnalysis> AnalyzeMemory(const HloModule& module);

// Switches for tests that check the analysis' shortcuts against the plain
// computation (the result is the same either way); the defaults are what
// AnalyzeMemory(module) does.
struct MemoryAnalysisOptions {
  // Shortcuts of the scheduler replays (docs/memory-speed.md, "Speed"): a
  // computation whose scheduling graph equals one replayed before takes
  // that replay's order (XlaReplayCache, memory/xla_schedulers.h), and
  // sample replays that cannot change which scheduler is chosen are not
  // run. False: every replay is run.
  bool replay_shortcuts = true;
  // Keep the dataflow (MemoryAnalysis::dataflow) for the buffer
  // assignment (memory/buffer_assignment.h).
  bool keep_dataflow = false;
  // Analyse a module without is_scheduled=true too, taking its text order
  // as the schedule (the reader has checked that every operand is defined
  // before its use, so it is a valid one). The values, and which of them
  // share a buffer (MemoryDataflow::value_buffer), do not depend on the
  // order; the live ranges and peaks then describe the text order, not an
  // execution order, and MemoryAnalysis::scheduled says so. Get-tuple-
  // elements folded into `%name#N` operands go right after their producer
  // (no scheduler is replayed). For `hlolayout report`'s buffers.
  bool allow_unscheduled = false;
  // Threads the analysis may use: with two or more, steps of a large
  // module that do not depend on each other run side by side on two
  // threads (the answers are the same). 0: one per idle core
  // (util/cores.h), at most two.
  int threads = 1;
  // The instructions outside fused computations from which a module counts
  // as large: below, starting a thread costs about what it saves. Tests
  // set 0.
  int64_t parallel_from = 32768;
  // Called once (may be empty) when the analysis has built its own graph
  // of the module and will read the operand lists of the computations it
  // gives (by index: those it made nodes of, all but the embedded ones) no
  // more. A caller that owns the module and reads those lists no more
  // either may give them back then (GiveBackOperandLists, hlo/give_back.h):
  // `hlolayout memory` does. On one thread it is called on the calling
  // thread; when the analysis runs on two, on the second one while the
  // analysis sets its sources (it goes on once the call has returned): the call
  // may write those lists and the instructions' views of them, nothing else the
  // analysis reads.
  std::function<void(absl::Span<const int32_t> computations)> operands_read;
};
absl::StatusOr<MemoryAnalysis> AnalyzeMemory(
    const HloModule& module, const MemoryAnalysisOptions& options);

// The all-memory peak of `analysis` as XLA:TPU's HloLiveRange finds it:
// with the values' logical sizes (MemoryAnalysis::peak uses the padded
// ones). Its values largest first by logical size, then by name and index.
MemoryPeak LogicalPeak(const MemoryAnalysis& analysis);

// "{}", "{1}", "{1,0}".
std::string ShapeIndexString(absl::Span<const int64_t> index);

}  // namespace hlolayout

#endif  // HLOLAYOUT_MEMORY_LIVE_RANGE_H_
