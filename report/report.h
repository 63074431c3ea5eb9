// report/report.h: memory and padding report of HLO dumps: for every
// instruction, its shape with layout, memory space, logical and padded
// bytes; totals per module and per memory space; the top padding wasters.
//
//   %copy.3 = bf16[3,200]{1,0:T(8,128)(2,1)} copy(...)
//     logical 3*200*2 = 1200 bytes; the (8,128) tiles cover [8,256]:
//     padded 4096 bytes, expansion 3.4x, 2896 bytes wasted because
//     "dim 0 (size 3) is not a multiple of tile 8 of T(8,128)(2,1)" and
//     "dim 1 (size 200) is not a multiple of tile 128 ..."
//
// Two figures:
//   - buffers (the headline): bytes of the values the module defines, by
//     XLA's dataflow rules (memory/value_rules.h): aliases (bitcast,
//     get-tuple-element, while/call/conditional results, control-flow
//     callees' parameters, *-done ops...) add nothing, a tuple adds only its
//     index table (8 bytes per element), instructions inside fusion bodies
//     and reducers add nothing (a fusion allocates only its result). Each
//     buffer counts once however many instructions name it.
//   - all instruction results (secondary): the result of every instruction
//     of every computation, aliases and fused internals included.
//
// Counting rules (both figures):
//   - bytes are summed over the ARRAY LEAVES of an instruction's result
//     shape: a tuple `(f32[8]{0}, s32[])` counts 32 + 4 bytes; the tuple's
//     own index table (pointers) is not counted. Tokens count nothing.
//   - padded bytes follow every tile level, `*` dims, L(n) tail alignment
//     and E(n) packing (layout/sizes.h); logical bytes are the elements at
//     their storage width (E(n) bits when set).
//   - bounded dynamic dims (`<=N`) count at their bound; leaves with an
//     unbounded dim (`?`) cannot be sized: they are counted in
//     `unsized_array_leaves` and add no bytes.
//   - instructions without a shape (XLA infers it) count as instructions
//     but add nothing.
//   - the memory space of a leaf is its layout's S(n) (0 when absent).
//   - sums that would pass INT64_MAX stop there and set `overflow`.
#ifndef HLOLAYOUT_REPORT_REPORT_H_
#define HLOLAYOUT_REPORT_REPORT_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "hlolayout/hlo/module.h"
#include "hlolayout/hlo/reader.h"
#include "hlolayout/memory/buffer_assignment.h"
#include "hlolayout/memory/live_range.h"
#include "hlolayout/shape/shape.h"

namespace hlolayout {

// Logical and padded bytes with saturating addition.
struct ByteCounts {
  int64_t logical_bytes = 0;
  int64_t padded_bytes = 0;
  bool overflow = false;  // a sum passed INT64_MAX and stopped there

  void Add(const ByteCounts& other);
  int64_t wasted_bytes() const { return padded_bytes - logical_bytes; }
  // padded / logical; 1.0 when logical is 0.
  double expansion() const;
};

// What an instruction's result is in memory.
enum class BufferRole : uint8_t {
  kNew,         // a new buffer: every index of its result is a new value
  kPartial,     // some indices new, the others alias (a tuple's index
                // table, copy-start's destination, ...)
  kAlias,       // nothing new: it names values defined elsewhere
  kInEmbedded,  // inside a fusion body or reducer: no module buffer
};

// BufferRoleName
//
// The role as reports print it (the text table's and JSON's "buffer"
// column, Python's ReportRow.buffer): "new", "part", "alias" or "fused".
const char* BufferRoleName(BufferRole role);

// One instruction of the table.
struct ReportRow {
  static constexpr int64_t kNoMemorySpace = -1;  // no array leaf
  static constexpr int64_t kMixedMemorySpaces = -2;

  int64_t order = 0;  // position in its module, counting from 0
  absl::string_view computation;
  absl::string_view name;
  absl::string_view opcode;
  absl::string_view shape_text;  // as written; empty when there is none
  bool is_root = false;
  bool has_shape = false;
  // S(n) shared by every array leaf, or one of the constants above.
  int64_t memory_space = kNoMemorySpace;
  int64_t array_leaves = 0;
  int64_t unsized_array_leaves = 0;
  ByteCounts bytes;  // over the sized array leaves
  BufferRole buffer = BufferRole::kNew;
  ByteCounts buffer_bytes;  // of the values it defines (tuple tables too)
};

struct MemorySpaceTotals {
  int64_t memory_space = 0;
  // Buffers: values the module defines in this space, their bytes.
  int64_t buffer_values = 0;
  ByteCounts buffer_bytes;
  // All instruction results.
  int64_t instructions = 0;  // with at least one array leaf in this space
  int64_t array_leaves = 0;
  ByteCounts bytes;

  // Adds `other`'s instruction results (not its buffers, which are counted
  // once per module).
  void AddResults(const MemorySpaceTotals& other);
};

struct ModuleTotals {
  int64_t computations = 0;
  int64_t instructions = 0;  // over all computations
  int64_t instructions_without_shape = 0;
  // Buffers: the values the module defines (tuple index tables included).
  int64_t buffer_values = 0;
  ByteCounts buffer_bytes;
  // All instruction results.
  int64_t array_leaves = 0;
  int64_t unsized_array_leaves = 0;
  ByteCounts bytes;

  // Adds `other`'s computations and instruction results (not its buffers,
  // which are counted once per module).
  void AddResults(const ModuleTotals& other);
};

// A buffer that pads a lot, with why: memory that exists once, however
// many instructions name it. A buffer is a set of values that share one
// place (XLA's HloBuffer: a loop's initial value, its body's result and
// the loop's phis; a conditional's branch results; an in-place update and
// the operand it writes over; input_output_alias), as memory/ finds them
// (memory/dataflow.h, value_buffer). Only buffers that own bytes are
// ranked: array values the module defines (a tuple's index table never
// pads; fusion bodies and reducers define no module buffer).
//
//   acc.0 in main: f32[3,1000]{1,0:T(8,128)}   (an entry parameter)
//     also defined by: scaled (the loop body's result takes its place)
//     aliases: tuple.1{1}, state{1}, state.1{1}, acc, init{1}, while{1},
//              result, out{1}
struct PaddingWaster {
  int64_t order = 0;  // of the row of the instruction that defines it
  // The instruction that defines the buffer's first value (in the order of
  // memory/'s values: the flattened schedule), and where in its result.
  std::string computation;
  std::string name;
  std::vector<int64_t> index;  // {} for the whole result
  // The buffer's shape: the instruction's as written when index is {},
  // else the element's printed (Shape::ToString with its layout).
  std::string shape_text;
  Shape shape;
  int64_t memory_space = 0;  // S(n)
  ByteCounts bytes;          // the buffer's (its largest value's)
  // "dim 0 (size 3) is not a multiple of tile 8 of T(8,128)(2,1): padded
  // to 8".
  std::vector<std::string> reasons;
  // The other values of the buffer, by the instruction that defines each
  // ("scaled", "copy-start{0}"), and every other name of it: instructions
  // whose result (or an element of it) is the buffer ("init{1}",
  // "while{1}", "result"), in text order. Restored `%name#N`
  // get-tuple-elements are not names of the text and are left out.
  std::vector<std::string> also_defined_by;
  std::vector<std::string> aliases;

  // "acc.0", "copy-start{0}".
  std::string BufferName() const;
};

// What the memory analyses of memory/ say of one module (the full report
// only: ReportOptions::keep_rows): the lead of each module
// in `hlolayout report` and its HTML page.
struct ModuleMemoryFacts {
  bool scheduled = false;  // is_scheduled=true
  // Scheduled modules: "gpu" or "cpu" (XLA's buffer assignment of that
  // platform, memory/buffer_assignment.h), or "tpu" for a module that looks
  // like XLA:TPU's, whose buffer assignment is not modelled (live ranges
  // only). Empty for unscheduled modules.
  std::string platform;
  // Scheduled GPU/CPU modules with ReportOptions::allocations: what XLA
  // will allocate and the live ranges. Null when not computed or refused.
  std::shared_ptr<const ModuleMemory> memory;
  // Scheduled modules: the live ranges (memory->live_ranges, shared with
  // `memory`, when it is set). Null when refused.
  std::shared_ptr<const MemoryAnalysis> live_ranges;
  // Why a scheduled module has no analysis (the analysis' message).
  std::string error;
};

struct ModuleReport {
  absl::string_view name;  // empty when the module has no HloModule line
  std::string file;        // ReportOptions::read.file_name of its text
  absl::string_view entry_computation;
  std::vector<ReportRow> rows;  // text order; empty with keep_rows false
  ModuleTotals totals;
  std::vector<MemorySpaceTotals> memory_spaces;  // by memory space number
  std::vector<PaddingWaster> top_wasters;        // most wasted bytes first
  // Empty when the wasters are buffers with their aliases; else why they
  // are the values the module defines, each on its own ("the memory
  // analysis refused the module: ..."): then no aliases are known.
  std::string wasters_note;
  // The full report only: the module as read (its views point into the
  // text), and what the memory analyses say of it.
  std::shared_ptr<const HloModule> module;
  ModuleMemoryFacts memory;
};

// An opcode the reader does not know (hlo/checks.h,
// IsUnknownHloOpcode): its instructions are read and counted with their
// shapes as written, so that dumps of newer XLA versions still read
// (docs/hlo-text.md). One per opcode name and text, in order of first use.
struct UnknownOpcode {
  absl::string_view opcode;  // a view into the text
  int64_t instructions = 0;  // how many of the text's have it
  size_t offset = 0;         // the first one's opcode, byte offset in the text
  // The first one located: "file:L:C: warning: unknown opcode 'x' (N
  // instructions,
  // read with their shapes as written)\n<source line>\n<caret>".
  std::string first;
};

struct Report {
  std::vector<ModuleReport> modules;
  // keep_going only: the errors, "file:L:C: message\n<line>\n<caret>".
  std::vector<std::string> errors;
  // Texts read in N parts add N (ReportOptions::threads);
  // texts read in one piece add nothing. Says nothing about the content.
  int64_t parallel_parts = 0;
  // Unknown opcodes of every text read (`hlolayout report` warns of each
  // on stderr). Not errors: the report is complete.
  std::vector<UnknownOpcode> unknown_opcodes;
};

struct ReportOptions {
  HloReadOptions read;
  // How many padding wasters to keep per module (the full report only).
  int64_t top_wasters = 10;
  // The full report: one row per instruction, the padding wasters, the
  // modules and their memory analyses. False: the summary, totals only, for
  // `--summary`, in constant memory beyond the input (no wasters, whatever
  // top_wasters says).
  bool keep_rows = true;
  // The summary (keep_rows false): threads that read a text, each a part of
  // at least min_bytes_per_thread (0: one per idle core when the reading
  // starts, at most 8, util/cores.h; 1: one; at most 64). The full report
  // reads a text whole, on one thread. The parts are
  // cut before instruction lines and joined in text order, so the report is
  // the same whatever the number (hlo/reader.h, ReadHloTail).
  int64_t threads = 0;
  int64_t min_bytes_per_thread = int64_t{4} << 20;
  // The full report (keep_rows): scheduled GPU/CPU
  // modules also get XLA's buffer assignment (ModuleMemoryFacts::memory,
  // what XLA will allocate), not only their live ranges.
  bool allocations = true;
};

// BuildReport
//
// Reads `text` (hlo/reader.h, with the reader's checks: every operand
// is defined before its use, shapes written at uses match, and XLA's other
// rules, docs/hlo-text.md) and builds the report. The views in it
// point into `text`, which must outlive it. Errors are the reader's; with
// options.read.keep_going they go to Report::errors instead and the modules
// are reported without the bad instructions. A text that holds no module
// (empty, or only comments) is an error too: "no HLO module in ...".
//
// Two ways of reading, one result for the rows and totals:
//   - the summary (keep_rows false) streams the text
//     (ReadHlo; on several threads for large texts) and keeps nothing of
//     it: constant memory beyond the input;
//   - the full report reads the text once into modules (ReadHloModules),
//     builds the rows and totals from them, and runs the memory analyses
//     on each (memory/live_range.h with allow_unscheduled;
//     memory/buffer_assignment.h): the padding wasters are buffers with
//     their aliases, and ModuleReport::module and ::memory keep what was
//     read for the lead and the HTML page (views/html.h), which read
//     nothing again.
absl::StatusOr<Report> BuildReport(absl::string_view text,
                                   const ReportOptions& options = {});

// Appends the report of `text` to `*report` (for several files: the views
// point into each text, which must all outlive the report). After an error
// (without keep_going) the last module of `*report` may be incomplete.
absl::Status AppendReport(absl::string_view text, const ReportOptions& options,
                          Report* report);

enum class RowOrder {
  kText,          // as in the dump
  kPaddedBytes,   // most padded bytes first, then text order
  kName,          // by computation name, then instruction name
  kPaddingBytes,  // most padding bytes (padded - logical) first
  kExpansion,     // largest expansion (padded / logical) first
  kBufferBytes,   // most padded bytes of the values it defines first
};

// Sorts the rows of every module (stable: ties keep text order).
void SortRows(RowOrder order, Report* report);

enum class ModuleOrder {
  kText,          // as read (files in the order given)
  kName,          // by module name
  kInstructions,  // most instructions first
  kBuffers,       // most padded buffer bytes first
  kPadding,       // most buffer padding bytes first
  kExpansion,     // largest buffer expansion first
  kAllocated,     // most allocated by XLA first (not known: last)
  kPeak,          // largest live-range peak first (not known: last)
};

// Sorts the modules of the report (stable). kAllocated and kPeak read
// ModuleReport::memory, which only the full report has.
void SortModules(ModuleOrder order, Report* report);

}  // namespace hlolayout

#endif  // HLOLAYOUT_REPORT_REPORT_H_
