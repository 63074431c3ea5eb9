// answers/memory.h: the answer of `hlolayout memory FILE` and hl.memory(), as
// a value with one field list per type (util/fields.h): the CLI's --json is
// AnswerJson of each module's answer, hl.memory()'s objects, their to_dict()
// and allocations.pyi's classes come from the same lists.
//
//   HloModule jit_f, is_scheduled=true (...sm_9.0a_gpu_after_optimizations.txt)
//
//   answers::MemoryRequest request;
//   request.top = 3;
//   absl::StatusOr<answers::MemoryAnswer> a =
//       answers::AnswerMemory(text, request);
//   a->modules[0].memory_analysis->temp_size_in_bytes;   // 2048
//   AnswerJson(a->modules[0]);
//   // {"module": "jit_f", "schedule_end": 31, "values": 40, ...,
//   //  "allocations": [{"index": 0, "size": 2048, "kind": "parameter", ...}]}
//
// The records: ModuleMemory (one module: its peaks, memory_analysis, heap
// and allocations; for XLA:TPU its TpuMemory, memory/tpu_memory.h),
// MemoryPeak, LiveValue, CompiledMemoryStats, HeapInfo, SizingValue,
// Allocation and AssignedValue. Their Python names are the types' names;
// they live in namespace answers because memory/ has analyses of the same
// names (hlolayout::ModuleMemory, hlolayout::LiveValue, ...).
//
// The answer owns its strings: it outlives the module and the text.
#ifndef HLOLAYOUT_ANSWERS_MEMORY_H_
#define HLOLAYOUT_ANSWERS_MEMORY_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/optional.h"
#include "hlolayout/hlo/module.h"
#include "hlolayout/memory/buffer_assignment.h"
#include "hlolayout/memory/compiled_memory_stats.h"
#include "hlolayout/memory/dump_memory.h"
#include "hlolayout/memory/dump_text.h"
#include "hlolayout/memory/live_range.h"
#include "hlolayout/memory/tpu_chip.h"
#include "hlolayout/memory/tpu_memory.h"
#include "hlolayout/util/fields.h"
#include "hlolayout/util/input_text.h"

namespace hlolayout::answers {

// compiled.memory_analysis() with JAX's attribute names (the dump folder's
// table has it too): memory/compiled_memory_stats.h.
using ::hlolayout::CompiledMemoryStats;
using ::hlolayout::CompiledMemoryStatsOf;

// A value that sets an allocation's size.
struct SizingValue {
  std::string name;
  std::string shape;
  int64_t bytes = 0;
  int64_t offset = 0;
  std::optional<int64_t> start, end;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const SizingValue& v) {
    f.Type("SizingValue",
           "A value that sets an allocation's size: the largest value of an "
           "allocation of its own, or a value in the heap at its peak.");
    const FieldOptions repr = FieldOptions().Repr();
    const FieldOptions omit = FieldOptions().Json(FieldJson::kOmitIfNone);
    f("name", v.name, "The value: instruction and shape index (\"x{1}\").",
      repr);
    f("shape", v.shape, "Its shape, XLA's text.");
    f("bytes", v.bytes, "Its own size.", repr);
    f("offset", v.offset, "Its offset in its allocation.");
    f("start", v.start, "Its live range's first schedule time, or None.", omit);
    f("end", v.end, "Its live range's last schedule time, or None.", omit);
  }
};

// XLA's heap simulation.
struct HeapInfo {
  int64_t size = 0;
  int64_t offset = 0;
  int64_t peak = 0;
  int64_t alignment = 0;
  int64_t peak_time = -1;
  std::string peak_instruction;
  int64_t peak_value_count = 0;
  std::vector<SizingValue> peak_values;  // at most `top`
  int64_t peak_alignment_bytes = 0;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const HeapInfo& h) {
    f.Type("HeapInfo",
           "XLA's heap simulation: the values packed into the temp "
           "allocation.");
    const FieldOptions repr = FieldOptions().Repr();
    f("size", h.size, "Bytes the heap needs.", repr);
    f("offset", h.offset, "Where the temp allocation holds it.", repr);
    f("peak", h.peak, "The most heap bytes in use at once.", repr);
    f("alignment", h.alignment, "256 on GPU, 64 on CPU.", repr);
    f("peak_time", h.peak_time,
      "The first schedule time at which the heap holds `peak` (-1 "
      "without a heap).",
      repr);
    f("peak_instruction", h.peak_instruction,
      "The instruction at peak_time ('' if none).");
    f("peak_value_count", h.peak_value_count,
      "How many values the heap holds then.");
    f("peak_values", h.peak_values,
      "SizingValues in the heap then, largest first (at most `top`): "
      "what sets the temp allocation's share of the peak.");
    f("peak_alignment_bytes", h.peak_alignment_bytes,
      "What aligning those values' places to `alignment` adds.");
  }
};

// A value placed in an allocation.
struct AssignedValue {
  int64_t id = 0;
  std::string instruction;
  std::vector<int64_t> index;
  std::string shape;
  int64_t offset = 0;
  int64_t size = 0;
  std::optional<int64_t> start, end;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const AssignedValue& v) {
    f.Type("AssignedValue",
           "A value placed in an allocation (a line ` value: <id name ...>` "
           "of XLA's *-buffer-assignment.txt).");
    const FieldOptions repr = FieldOptions().Repr();
    const FieldOptions omit = FieldOptions().Json(FieldJson::kOmitIfNone);
    f("id", v.id, "XLA's HloValue id.", repr);
    f("instruction", v.instruction,
      "The defining instruction (as LiveValue's).", repr.Deprecated("name"));
    f("index", v.index,
      "The shape index in the defining instruction's result, a tuple "
      "(\"{1,0}\" in to_dict()).",
      repr.Json(FieldJson::kIndex));
    f("shape", v.shape, "The value's shape, XLA's text.");
    f("offset", v.offset, "Its offset in the allocation.", repr);
    f("size", v.size, "Its slot there, in bytes.", repr);
    f("start", v.start,
      "Its live range's first schedule time, None for values of "
      "thread-local computations.",
      omit);
    f("end", v.end, "Its live range's last schedule time, or None.", omit);
  }
};

// One allocation of XLA's buffer assignment.
struct Allocation {
  int64_t index = 0;
  int64_t size = 0;
  int64_t color = 0;
  std::string kind;  // "parameter", "constant", "thread-local", ...
  std::optional<int64_t> parameter_number;
  std::optional<std::vector<int64_t>> parameter_index;
  std::optional<bool> parameter_aliased;
  bool maybe_live_out = false;
  std::vector<std::string> size_set_by;
  std::vector<AssignedValue> values;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const Allocation& a) {
    f.Type("Allocation",
           "One allocation of XLA's buffer assignment, and the values in it.");
    const FieldOptions repr = FieldOptions().Repr();
    const FieldOptions omit = FieldOptions().Json(FieldJson::kOmitIfNone);
    f("index", a.index, "Its number, as XLA prints it.", repr);
    f("size", a.size, "Bytes.", repr);
    f("color", a.color, "The memory space of its values.");
    f("kind", a.kind,
      "'parameter', 'constant', 'thread-local', 'output' or 'temp'.", repr);
    f("parameter_number", a.parameter_number,
      "The entry parameter it holds, None for other kinds.", omit);
    f("parameter_index", a.parameter_index,
      "The shape index in that parameter, a tuple; None for other "
      "kinds.",
      FieldOptions().Json(FieldJson::kIndexOmitIfNone));
    f("parameter_aliased", a.parameter_aliased,
      "Whether the output reuses it (input_output_alias); None for "
      "other kinds.",
      omit);
    f("maybe_live_out", a.maybe_live_out,
      "Whether the module's output may live here.");
    f("size_set_by", a.size_set_by,
      "The names of the values that set its size: its largest values, "
      "or for the temp allocation the values in the heap at its peak.");
    f("values", a.values, "The AssignedValues in it, by id.", repr);
  }
};

// A value live at a peak.
struct LiveValue {
  std::string instruction;
  std::vector<int64_t> index;
  int64_t bytes = 0;
  int64_t logical_bytes = 0;
  int64_t start = 0;
  int64_t end = 0;
  std::string shape;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const LiveValue& v) {
    f.Type("LiveValue", "A value live at a peak (XLA's HloLiveRange).");
    const FieldOptions repr = FieldOptions().Repr();
    f("instruction", v.instruction, "The defining instruction.", repr);
    f("index", v.index, "The shape index, a tuple (\"{1}\" in to_dict()).",
      repr.Json(FieldJson::kIndex));
    f("bytes", v.bytes, "Its size: padded bytes, 8 per tuple element.", repr);
    f("logical_bytes", v.logical_bytes,
      "The same without tile and L(n) padding.");
    f("start", v.start, "The first schedule time it is live.", repr);
    f("end", v.end, "The last schedule time it is live.", repr);
    f("shape", v.shape, "Its shape, XLA's text (not in to_dict()).",
      FieldOptions().Json(FieldJson::kLeftOut));
  }
};

// The first schedule time at which the live bytes are largest.
struct MemoryPeak {
  std::optional<int64_t> memory_space;
  int64_t bytes = 0;
  int64_t time = 0;
  std::optional<std::string> instruction;
  std::optional<std::string> op_name;
  std::vector<LiveValue> live;  // at most `top`
  std::optional<std::string> computation;
  int64_t live_count = 0;
  std::vector<std::pair<std::string, int64_t>> by_op_name_prefix;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const MemoryPeak& p) {
    f.Type("MemoryPeak",
           "The first schedule time at which the live bytes are largest, of "
           "all memory (memory_space None, XLA's figure) or of one memory "
           "space.");
    const FieldOptions repr = FieldOptions().Repr();
    const FieldOptions omit = FieldOptions().Json(FieldJson::kOmitIfNone);
    f("memory_space", p.memory_space, "S(n), or None for all memory together.",
      repr);
    f("bytes", p.bytes, "The live bytes there.", repr);
    f("time", p.time, "The schedule time.", repr);
    f("instruction", p.instruction,
      "The instruction at that time (None past the last one).", omit.Repr());
    f("op_name", p.op_name,
      "Its metadata op_name ('' without one; None past the last "
      "instruction).",
      omit);
    f("live", p.live,
      "The LiveValues live there, largest first (at most `top`).", repr);
    // The text's, not in the JSON.
    const FieldOptions text_only = FieldOptions().Json(FieldJson::kLeftOut);
    f("computation", p.computation,
      "The computation of that instruction (None past the last one; not "
      "in to_dict()).",
      text_only);
    f("live_count", p.live_count,
      "How many values are live there (not in to_dict()).", text_only);
    f("by_op_name_prefix", p.by_op_name_prefix,
      "The live bytes by op_name prefix ('jit(f)/while/body'; '(no "
      "op_name)'), most first (not in to_dict()).",
      text_only);
  }
};

// One module's answer.
struct ModuleMemory {
  std::string module;
  int64_t schedule_end = 0;
  int64_t value_count = 0;
  std::optional<std::string> replayed_scheduler;
  std::vector<MemoryPeak> peaks;
  std::string platform;
  // None for an XLA:TPU module read without the model of its assignment.
  std::optional<CompiledMemoryStats> memory_analysis;
  std::optional<int64_t> allocated_bytes;
  std::optional<HeapInfo> heap;
  std::optional<int64_t> rounding_bytes;
  std::optional<std::vector<Allocation>> allocations;
  std::optional<TpuMemory> tpu;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const ModuleMemory& m) {
    f.Type("ModuleMemory",
           "What XLA will allocate for one scheduled module, and its "
           "live-range peak: one element of hl.memory()'s list.");
    const FieldOptions repr = FieldOptions().Repr();
    const FieldOptions omit = FieldOptions().Json(FieldJson::kOmitIfNone);
    f("module", m.module, "The HloModule name.", repr);
    f("schedule_end", m.schedule_end,
      "The schedule's length (HloLiveRange's max T).");
    f("value_count", m.value_count, "The values the module defines.",
      FieldOptions().Key("values"));
    f("replayed_scheduler", m.replayed_scheduler,
      "The XLA scheduler whose replay placed folded get-tuple-elements "
      "('list', 'dfs', ...), or None.");
    f("peaks", m.peaks,
      "MemoryPeaks: all memory first, then one per memory space "
      "(only space S(n) when asked); for XLA:TPU modules one per "
      "memory space only (never their sum).");
    f("platform", m.platform,
      "'gpu', 'cpu', or 'tpu' (XLA:TPU's allocations from the model of "
      "its assignment, docs/xla-tpu.md).",
      repr);
    f("memory_analysis", m.memory_analysis,
      "CompiledMemoryStats, as compiled.memory_analysis() (for XLA:TPU "
      "modules from the model of its assignment, docs/xla-tpu.md).",
      repr);
    f("allocated_bytes", m.allocated_bytes,
      "arguments + temp + outputs - aliases (device memory).", omit.Repr());
    f("heap", m.heap, "HeapInfo.", omit);
    f("rounding_bytes", m.rounding_bytes,
      "What rounding every allocation up to the alignment adds.", omit);
    f("allocations", m.allocations, "The Allocations, by index.", omit.Repr());
    f("tpu", m.tpu,
      "XLA:TPU modules: TpuMemory (per memory space, whether it fits "
      "the chip, the HBM heap at its peak, tile padding); None for "
      "others.",
      omit);
  }
};

// What is asked: the CLI's flags and hl.memory()'s arguments, checked.
struct MemoryRequest {
  // Values listed at each peak, heap values and TPU rankings (0: all).
  int64_t top = 20;
  // >= 0: only that memory space's peak; -1: all memory, then each space's.
  int64_t space = -1;
  // The platform whose rules apply; none: from the file name or the module.
  absl::optional<XlaPlatform> platform;
  // The generation an XLA:TPU module was compiled for, where its dump does
  // not say (TpuMemoryOptions::requested).
  absl::optional<TpuGeneration> tpu;
  // DumpTextOptions::xla_creation_order.
  std::vector<std::string> xla_creation_order;
  // Threads reading a large text and analysing a large module (0: one per
  // idle core).
  int threads = 1;
  // The file's name, for messages, the platform and XLA:TPU's
  // *.target_arguments.txt beside it; "" for text that is not a file's.
  std::string file_name;
};

// The platform of --platform=NAME / platform=NAME: "gpu", "cpu" or "tpu";
// none for another name.
absl::optional<XlaPlatform> MemoryPlatformNamed(absl::string_view name);

// The answers of one text, module by module (XLA:TPU's own
// buffer-assignment file: its one answer, AnswerXlaTpuBufferFile).
struct MemoryAnswer {
  std::vector<ModuleMemory> modules;
};

// How the text of a request is read (DumpTextOptions's): one module's
// analysis at a time, operand lists given back, XLA:TPU modules with the
// model of XLA:TPU's buffer assignment.
DumpTextOptions MemoryReadOptions(const MemoryRequest& request);

// An XLA:TPU module's TpuMemory (the chip from XLA:TPU's
// *.target_arguments.txt beside request.file_name when there is one, else
// request.tpu); none for other modules and for XLA:TPU modules analysed
// without the model. Errors name the file.
absl::StatusOr<std::optional<TpuMemory>> AnswerTpuOf(
    const HloModule& module, const DumpModuleMemory& analysed,
    const MemoryRequest& request);

// Whether AnswerMemory takes `text` for XLA:TPU's own
// *-buffer-assignment.txt (memory/xla_buffer_file.h) rather than a module:
// XLA's buffer-assignment text with tiled layouts (XLA:TPU writes them;
// XLA:GPU and XLA:CPU do not), or one said to be XLA:TPU's by request.tpu
// or by XLA:TPU's target_arguments file beside request.file_name. Other
// buffer-assignment texts are refused as the reader refuses side files.
bool IsXlaTpuBufferFile(absl::string_view text, const MemoryRequest& request);

// The answer for that file: one ModuleMemory whose allocations and `tpu`
// are XLA:TPU's own (tpu->checked), named from XLA's file name
// ("module_0316.jit_step.cl_1.after_optimizations-buffer-assignment.txt":
// "jit_step"; "" when the name does not say), with no peaks, schedule or
// memory_analysis (the file does not say when values live, and XLA:TPU's
// temp and peak figures are not sums of its allocations). Errors: the
// file's, located; --tpu against its target_arguments file.
absl::StatusOr<ModuleMemory> AnswerXlaTpuBufferFile(
    absl::string_view text, const MemoryRequest& request);

// What a module's answer holds: everything, or the live ranges and `tpu`
// only (memory_analysis, heap and allocations None; the text's part, which
// does not make every value's shape text).
enum class MemoryParts : uint8_t { kAll, kLiveRanges };

// One module's answer from its analysis and its TpuMemory (AnswerTpuOf).
ModuleMemory ModuleMemoryOf(const DumpModuleMemory& analysed,
                            std::optional<TpuMemory> tpu, int64_t top,
                            int64_t space,
                            MemoryParts parts = MemoryParts::kAll);

// The peaks of the answer: for a module with allocations (`tpu` false) all
// memory's, then each memory space's; for XLA:TPU each memory space's only
// (never their sum); with `space` >= 0 that space's only.
std::vector<MemoryPeak> MemoryPeaksOf(const MemoryAnalysis& live_ranges,
                                      bool tpu, int64_t top, int64_t space);

// What ForEachMemoryAnswer hands over for each module: the module, its
// analysis (for XLA's own dump texts and the HTML page) and its answer.
using MemoryAnswerVisitor = std::function<absl::Status(
    const HloModule&, const DumpModuleMemory&, ModuleMemory)>;

// Reads, analyses and answers every module of `text` as
// ForEachDumpModule does (`options` from MemoryReadOptions, with the
// caller's page hooks), calling `visit` with each answer as it is made;
// unknown opcodes' warnings go to `warnings` (before the visit of the
// first module). Returns the first error.
absl::Status ForEachMemoryAnswer(absl::string_view text,
                                 const MemoryRequest& request,
                                 const DumpTextOptions& options,
                                 std::vector<std::string>* warnings,
                                 const MemoryAnswerVisitor& visit,
                                 std::vector<HloModule>* keep = nullptr);

// AnswerMemory
//
// The answer of every module of `text`. Unknown opcodes' warnings go to
// `warnings` (may be null), also when an error follows. The InputText form
// gives a mapped file's pages back as the reading passes them.
absl::StatusOr<MemoryAnswer> AnswerMemory(
    absl::string_view text, const MemoryRequest& request,
    std::vector<std::string>* warnings = nullptr);
absl::StatusOr<MemoryAnswer> AnswerMemory(
    const InputText& input, const MemoryRequest& request,
    std::vector<std::string>* warnings = nullptr);

}  // namespace hlolayout::answers

#endif  // HLOLAYOUT_ANSWERS_MEMORY_H_
