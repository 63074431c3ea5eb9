// views/live_range_text.h: XLA's `*-live-range.txt` of an analysis
// (memory/live_range.h), `hlolayout memory --format=xla`: a view of the
// memory answer in XLA's own dump format (docs/memory.md, "The peak").
//
//   absl::StatusOr<MemoryAnalysis> a = AnalyzeMemory(module, options);
//   std::string text = XlaLiveRangeText(*a);
//   // "HloLiveRange (max 152):\n  InstructionSequence:\n"
//   // "    0:params_0_.1\n..."
#ifndef HLOLAYOUT_VIEWS_LIVE_RANGE_TEXT_H_
#define HLOLAYOUT_VIEWS_LIVE_RANGE_TEXT_H_

#include <cstdint>
#include <string>

#include "absl/types/span.h"
#include "hlolayout/memory/live_range.h"

namespace hlolayout {

// XLA's HloLiveRange::ToString text, the whole `*-live-range.txt`:
// `HloLiveRange (max T):`, `InstructionSequence:`, `BufferLiveRange:`,
// `Live ranges at T (peak):` and XlaStackTraceText's section.
// XLA lists `BufferLiveRange:` by HloValue id; `value_order` gives that
// order (MemoryAnalysis::values indices, from the buffer assignment's ids:
// ValuesByXlaId in memory/buffer_assignment.h). Values it leaves out
// follow in the analysis' order; without it the analysis' order is used.
//
// `sizes`: kAllocated counts each value's padded bytes (XLA:GPU's and
// XLA:CPU's files); kLogical its bytes without tile padding, and the peak
// is found with those (XLA:TPU's file: docs/xla-tpu.md).
enum class LiveRangeSizes : uint8_t { kAllocated, kLogical };
std::string XlaLiveRangeText(const MemoryAnalysis& analysis);
std::string XlaLiveRangeText(const MemoryAnalysis& analysis,
                             absl::Span<const int64_t> value_order,
                             LiveRangeSizes sizes = LiveRangeSizes::kAllocated);

// The last section of XLA's dump, "Stack trace breakdown for peak usage":
// the values live at the peak as a tree. The root is the entry
// computation; a value defined in a loop body (condition, branch, called
// computation) hangs under the op_name of the instruction that runs it
// and then that computation's name; a value's own label is its defining
// instruction's op_name (its name when there is none) followed by its
// shape index unless {}. Equal labels add up; siblings go by bytes, most
// first, then by label; each line gives the share of the peak, the bytes
// under it, its own bytes and the bytes left after it in this order.
// Numbers are grouped by three with spaces, as XLA prints them:
//   Stack trace breakdown for peak usage: 100 408 bytes
//     main.3 (100.0%, total: 100 408 bytes, current: 0 bytes, ...)
//       ├── jit(dus_loop)/while (32.7%, total: 32 796 bytes, ...)
//       │   └── region_1.2.clone.clone (32.7%, ...)
//       │       ├── arg_tuple.6{1} (32.6%, total: 32 768 bytes, ...)
std::string XlaStackTraceText(const MemoryAnalysis& analysis);

}  // namespace hlolayout

#endif  // HLOLAYOUT_VIEWS_LIVE_RANGE_TEXT_H_
