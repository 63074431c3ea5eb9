#include "hlolayout/memory/memory_record.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "hlolayout/memory/allocation_sizes.h"
#include "hlolayout/memory/buffer_assignment.h"
#include "hlolayout/memory/live_range.h"
#include "hlolayout/memory/tpu_memory.h"
#include "hlolayout/util/fields.h"
#include "hlolayout/util/record.h"

namespace hlolayout {
namespace {

const RecordSpec& SizingValueSpec() {
  static const RecordSpec spec{
      "SizingValue",
      "A value that sets an allocation's size: the largest value of an "
      "allocation of its own, or a value in the heap at its peak.",
      {
          {"name", "The value: instruction and shape index (\"x{1}\").", "str",
           FieldJson::kValue, nullptr, true},
          {"shape", "Its shape, XLA's text.", "str"},
          {"bytes", "Its own size.", "int", FieldJson::kValue, nullptr, true},
          {"offset", "Its offset in its allocation.", "int"},
          {"start", "Its live range's first schedule time, or None.",
           "Optional[int]", FieldJson::kOmitIfNone},
          {"end", "Its live range's last schedule time, or None.",
           "Optional[int]", FieldJson::kOmitIfNone},
      }};
  return spec;
}

const RecordSpec& HeapInfoSpec() {
  static const RecordSpec spec{
      "HeapInfo",
      "XLA's heap simulation: the values packed into the temp allocation.",
      {
          {"size", "Bytes the heap needs.", "int", FieldJson::kValue, nullptr,
           true},
          {"offset", "Where the temp allocation holds it.", "int",
           FieldJson::kValue, nullptr, true},
          {"peak", "The most heap bytes in use at once.", "int",
           FieldJson::kValue, nullptr, true},
          {"alignment", "256 on GPU, 64 on CPU.", "int", FieldJson::kValue,
           nullptr, true},
          {"peak_time",
           "The first schedule time at which the heap holds `peak` (-1 "
           "without a heap).",
           "int", FieldJson::kValue, nullptr, true},
          {"peak_instruction", "The instruction at peak_time ('' if none).",
           "str"},
          {"peak_value_count", "How many values the heap holds then.", "int"},
          {"peak_values",
           "SizingValues in the heap then, largest first (at most `top`): "
           "what sets the temp allocation's share of the peak.",
           "Tuple[SizingValue, ...]"},
          {"peak_alignment_bytes",
           "What aligning those values' places to `alignment` adds.", "int"},
      }};
  return spec;
}

const RecordSpec& AssignedValueSpec() {
  static const RecordSpec spec{
      "AssignedValue",
      "A value placed in an allocation (a line ` value: <id name ...>` of "
      "XLA's *-buffer-assignment.txt).",
      {
          {"id", "XLA's HloValue id.", "int", FieldJson::kValue, nullptr, true},
          {"instruction", "The defining instruction (as LiveValue's).", "str",
           FieldJson::kValue, nullptr, true, "name"},
          {"index",
           "The shape index in the defining instruction's result, a tuple "
           "(\"{1,0}\" in to_dict()).",
           "Tuple[int, ...]", FieldJson::kIndex, nullptr, true},
          {"shape", "The value's shape, XLA's text.", "str"},
          {"offset", "Its offset in the allocation.", "int", FieldJson::kValue,
           nullptr, true},
          {"size", "Its slot there, in bytes.", "int", FieldJson::kValue,
           nullptr, true},
          {"start",
           "Its live range's first schedule time, None for values of "
           "thread-local computations.",
           "Optional[int]", FieldJson::kOmitIfNone},
          {"end", "Its live range's last schedule time, or None.",
           "Optional[int]", FieldJson::kOmitIfNone},
      }};
  return spec;
}

const RecordSpec& AllocationSpec() {
  static const RecordSpec spec{
      "Allocation",
      "One allocation of XLA's buffer assignment, and the values in it.",
      {
          {"index", "Its number, as XLA prints it.", "int", FieldJson::kValue,
           nullptr, true},
          {"size", "Bytes.", "int", FieldJson::kValue, nullptr, true},
          {"color", "The memory space of its values.", "int"},
          {"kind",
           "'parameter', 'constant', 'thread-local', 'output' or 'temp'.",
           "str", FieldJson::kValue, nullptr, true},
          {"parameter_number",
           "The entry parameter it holds, None for other kinds.",
           "Optional[int]", FieldJson::kOmitIfNone},
          {"parameter_index",
           "The shape index in that parameter, a tuple; None for other "
           "kinds.",
           "Optional[Tuple[int, ...]]", FieldJson::kIndexOmitIfNone},
          {"parameter_aliased",
           "Whether the output reuses it (input_output_alias); None for "
           "other kinds.",
           "Optional[bool]", FieldJson::kOmitIfNone},
          {"maybe_live_out", "Whether the module's output may live here.",
           "bool"},
          {"size_set_by",
           "The names of the values that set its size: its largest values, "
           "or for the temp allocation the values in the heap at its peak.",
           "Tuple[str, ...]"},
          {"values", "The AssignedValues in it, by id.",
           "Tuple[AssignedValue, ...]", FieldJson::kValue, nullptr, true},
      }};
  return spec;
}

const RecordSpec& LiveValueSpec() {
  static const RecordSpec spec{
      "LiveValue",
      "A value live at a peak (XLA's HloLiveRange).",
      {
          {"instruction", "The defining instruction.", "str", FieldJson::kValue,
           nullptr, true},
          {"index", "The shape index, a tuple (\"{1}\" in to_dict()).",
           "Tuple[int, ...]", FieldJson::kIndex, nullptr, true},
          {"bytes", "Its size: padded bytes, 8 per tuple element.", "int",
           FieldJson::kValue, nullptr, true},
          {"logical_bytes", "The same without tile and L(n) padding.", "int"},
          {"start", "The first schedule time it is live.", "int",
           FieldJson::kValue, nullptr, true},
          {"end", "The last schedule time it is live.", "int",
           FieldJson::kValue, nullptr, true},
      }};
  return spec;
}

const RecordSpec& MemoryPeakSpec() {
  static const RecordSpec spec{
      "MemoryPeak",
      "The first schedule time at which the live bytes are largest, of "
      "all memory (memory_space None, XLA's figure) or of one memory "
      "space.",
      {
          {"memory_space", "S(n), or None for all memory together.",
           "Optional[int]", FieldJson::kValue, nullptr, true},
          {"bytes", "The live bytes there.", "int", FieldJson::kValue, nullptr,
           true},
          {"time", "The schedule time.", "int", FieldJson::kValue, nullptr,
           true},
          {"instruction",
           "The instruction at that time (None past the last one).",
           "Optional[str]", FieldJson::kOmitIfNone, nullptr, true},
          {"op_name",
           "Its metadata op_name ('' without one; None past the last "
           "instruction).",
           "Optional[str]", FieldJson::kOmitIfNone},
          {"live", "The LiveValues live there, largest first (at most `top`).",
           "Tuple[LiveValue, ...]", FieldJson::kValue, nullptr, true},
      }};
  return spec;
}

void EmitSizingValue(const SizingValue& v, RecordSink& s) {
  s.BeginRecord(SizingValueSpec());
  s.String(v.name);
  s.String(v.shape != nullptr ? v.shape->ToString(true) : std::string());
  s.Int(v.bytes);
  s.Int(v.offset);
  s.OptionalInt(v.start >= 0, v.start);
  s.OptionalInt(v.start >= 0, v.end);
  s.EndRecord();
}

void EmitHeap(const BufferAssignment& b, const HeapPeakSizing& h, int64_t top,
              RecordSink& s) {
  s.BeginRecord(HeapInfoSpec());
  s.Int(b.heap_size);
  s.Int(b.heap_offset);
  s.Int(b.heap_peak);
  s.Int(b.alignment);
  s.Int(h.time);
  s.String(h.instruction);
  s.Int(static_cast<int64_t>(h.values.size()));
  const size_t shown =
      top > 0 ? std::min<size_t>(h.values.size(), top) : h.values.size();
  s.BeginList();
  for (size_t k = 0; k < shown; ++k) EmitSizingValue(h.values[k], s);
  s.EndList();
  s.Int(h.alignment_bytes);
  s.EndRecord();
}

const char* AllocationKind(const BufferAllocation& x) {
  return x.is_parameter      ? "parameter"
         : x.is_constant     ? "constant"
         : x.is_thread_local ? "thread-local"
         : x.maybe_live_out  ? "output"
                             : "temp";
}

void EmitAssignedValue(const AssignedValue& v, RecordSink& s) {
  s.BeginRecord(AssignedValueSpec());
  s.Int(v.id);
  s.String(v.name);
  s.IntList(v.index);
  s.String(v.shape != nullptr ? v.shape->ToString(true) : std::string());
  s.Int(v.offset);
  s.Int(v.size);
  s.OptionalInt(v.start >= 0, v.start);
  s.OptionalInt(v.start >= 0, v.end);
  s.EndRecord();
}

// `set_by`: the values that set its size, or null.
void EmitAllocation(const BufferAllocation& x,
                    const std::vector<SizingValue>* set_by, RecordSink& s) {
  s.BeginRecord(AllocationSpec());
  s.Int(x.index);
  s.Int(x.size);
  s.Int(x.color);
  s.String(AllocationKind(x));
  s.OptionalInt(x.is_parameter, x.parameter_number);
  if (x.is_parameter) {
    s.IntList(x.parameter_index);
    s.Bool(x.parameter_aliased);
  } else {
    s.None();
    s.None();
  }
  s.Bool(x.maybe_live_out);
  s.BeginList();
  if (set_by != nullptr) {
    for (const SizingValue& v : *set_by) s.String(v.name);
  }
  s.EndList();
  s.BeginList();
  for (const AssignedValue& v : x.values) EmitAssignedValue(v, s);
  s.EndList();
  s.EndRecord();
}

void EmitPeak(const MemoryAnalysis& a, const MemoryPeak& p, int64_t top,
              RecordSink& s) {
  s.BeginRecord(MemoryPeakSpec());
  s.OptionalInt(p.memory_space >= 0, p.memory_space);
  s.Int(p.bytes);
  s.Int(p.time);
  const bool at = p.time < static_cast<int64_t>(a.instructions.size());
  s.OptionalString(at, at ? a.instructions[p.time].name() : "");
  s.OptionalString(at, at ? a.instructions[p.time].op_name() : "");
  const size_t shown =
      top > 0 ? std::min<size_t>(p.values.size(), top) : p.values.size();
  s.BeginList();
  for (size_t k = 0; k < shown; ++k) {
    const LiveValue& v = a.values[p.values[k]];
    s.BeginRecord(LiveValueSpec());
    s.String(a.instructions[v.instruction].name());
    s.IntList(std::vector<int64_t>(v.index().begin(), v.index().end()));
    s.Int(v.bytes());
    s.Int(v.logical_bytes());
    s.Int(v.start);
    s.Int(v.end);
    s.EndRecord();
  }
  s.EndList();
  s.EndRecord();
}

void EmitAllocations(const ModuleMemory& memory, int64_t top, RecordSink& s) {
  const BufferAssignment& b = memory.buffers;
  const AllocationSizes sizes = ExplainAllocationSizes(memory);
  std::vector<const std::vector<SizingValue>*> set_by(b.allocations.size(),
                                                      nullptr);
  if (sizes.heap.allocation >= 0) {
    set_by[sizes.heap.allocation] = &sizes.heap.values;
  }
  for (const OwnAllocationSizing& o : sizes.own) {
    set_by[o.allocation] = &o.values;
  }
  s.String(XlaPlatformName(b.platform));
  EmitCompiledMemoryStats(b.stats, s);
  s.Int(b.stats.allocated_bytes());
  EmitHeap(b, sizes.heap, top, s);
  s.Int(sizes.rounding_bytes);
  s.BeginList();
  for (size_t k = 0; k < b.allocations.size(); ++k) {
    EmitAllocation(b.allocations[k], set_by[k], s);
  }
  s.EndList();
}

}  // namespace

const RecordSpec& CompiledMemoryStatsSpec() {
  static const RecordSpec spec{
      "CompiledMemoryStats",
      "compiled.memory_analysis() as XLA computes it from its buffer "
      "assignment, with JAX's attribute names (docs/memory.md).\n\n"
      "Allocations of host memory (S(5)) count in the host_ figures. The "
      "sizes of generated code are not in a dump: they are None.",
      {
          {"argument_size_in_bytes",
           "Entry parameters' allocations (device memory).", "int",
           FieldJson::kValue, nullptr, true},
          {"output_size_in_bytes",
           "Live-out allocations (device memory), the output tuple's index "
           "table included.",
           "int", FieldJson::kValue, nullptr, true},
          {"alias_size_in_bytes",
           "Parameter allocations the output reuses (input_output_alias).",
           "int", FieldJson::kValue, nullptr, true},
          {"temp_size_in_bytes",
           "Every other allocation: XLA's heap and its tuple index tables "
           "(device memory).",
           "int", FieldJson::kValue, nullptr, true},
          {"peak_memory_in_bytes",
           "XLA's peak: the parameter, constant and output allocations' "
           "largest values, plus on GPU the most the heap holds at once.",
           "int", FieldJson::kValue, nullptr, true},
          {"host_argument_size_in_bytes",
           "Entry parameters' allocations in host memory (S(5)).", "int"},
          {"host_output_size_in_bytes",
           "Live-out allocations in host memory (S(5)).", "int"},
          {"host_alias_size_in_bytes",
           "Host parameter allocations the output reuses.", "int"},
          {"host_temp_size_in_bytes", "Temp allocations in host memory (S(5)).",
           "int"},
          {"generated_code_size_in_bytes",
           "None: the size of the compiled code is not in a dump.", "None",
           FieldJson::kLeftOut},
          {"host_generated_code_size_in_bytes",
           "None: the size of the compiled code is not in a dump.", "None",
           FieldJson::kLeftOut},
      }};
  return spec;
}

const RecordSpec& ModuleMemorySpec() {
  static const RecordSpec spec{
      "ModuleMemory",
      "What XLA will allocate for one scheduled module, and its live-range "
      "peak: one element of hl.memory()'s list.",
      {
          {"module", "The HloModule name.", "str", FieldJson::kValue, nullptr,
           true},
          {"schedule_end", "The schedule's length (HloLiveRange's max T).",
           "int"},
          {"value_count", "The values the module defines.", "int",
           FieldJson::kValue, "values"},
          {"replayed_scheduler",
           "The XLA scheduler whose replay placed folded get-tuple-elements "
           "('list', 'dfs', ...), or None.",
           "Optional[str]"},
          {"peaks",
           "MemoryPeaks: all memory first, then one per memory space "
           "(only space S(n) when asked); for XLA:TPU modules one per "
           "memory space only (never their sum).",
           "Tuple[MemoryPeak, ...]"},
          {"platform",
           "'gpu', 'cpu', or 'tpu' (XLA:TPU's allocations from the model of "
           "its assignment, docs/xla-tpu.md).",
           "str", FieldJson::kValue, nullptr, true},
          {"memory_analysis",
           "CompiledMemoryStats, as compiled.memory_analysis() (for XLA:TPU "
           "modules from the model of its assignment, docs/xla-tpu.md).",
           "Optional[CompiledMemoryStats]", FieldJson::kValue, nullptr, true},
          {"allocated_bytes",
           "arguments + temp + outputs - aliases (device memory).",
           "Optional[int]", FieldJson::kOmitIfNone, nullptr, true},
          {"heap", "HeapInfo.", "Optional[HeapInfo]", FieldJson::kOmitIfNone},
          {"rounding_bytes",
           "What rounding every allocation up to the alignment adds.",
           "Optional[int]", FieldJson::kOmitIfNone},
          {"allocations", "The Allocations, by index.",
           "Optional[Tuple[Allocation, ...]]", FieldJson::kOmitIfNone, nullptr,
           true},
          {"tpu",
           "XLA:TPU modules: TpuMemory (per memory space, whether it fits "
           "the chip, the HBM heap at its peak, tile padding); None for "
           "others.",
           "Optional[TpuMemory]", FieldJson::kOmitIfNone},
      }};
  return spec;
}

const std::vector<const RecordSpec*>& MemoryRecordSpecs() {
  static const auto* specs =
      new std::vector<const RecordSpec*>{&CompiledMemoryStatsSpec(),
                                         &SizingValueSpec(),
                                         &HeapInfoSpec(),
                                         &AssignedValueSpec(),
                                         &AllocationSpec(),
                                         &LiveValueSpec(),
                                         &MemoryPeakSpec(),
                                         &SpecOf<TpuMemorySpace>(),
                                         &SpecOf<TpuHeapValue>(),
                                         &SpecOf<TpuHeapPeak>(),
                                         &SpecOf<TpuPaddedArray>(),
                                         &SpecOf<TpuPadding>(),
                                         &SpecOf<TpuMemory>(),
                                         &ModuleMemorySpec()};
  return *specs;
}

void EmitCompiledMemoryStats(const XlaMemoryStats& stats, RecordSink& s) {
  s.BeginRecord(CompiledMemoryStatsSpec());
  s.Int(stats.argument_size_in_bytes);
  s.Int(stats.output_size_in_bytes);
  s.Int(stats.alias_size_in_bytes);
  s.Int(stats.temp_size_in_bytes);
  s.Int(stats.peak_memory_in_bytes);
  s.Int(stats.host_argument_size_in_bytes);
  s.Int(stats.host_output_size_in_bytes);
  s.Int(stats.host_alias_size_in_bytes);
  s.Int(stats.host_temp_size_in_bytes);
  s.None();
  s.None();
  s.EndRecord();
}

void EmitModuleMemory(const DumpModuleMemory& m,
                      const MemoryRecordOptions& options, RecordSink& s,
                      const TpuMemory* tpu) {
  const MemoryAnalysis& a = m.live_ranges();
  s.BeginRecord(ModuleMemorySpec());
  s.String(a.module_name);
  s.Int(a.schedule_end);
  s.Int(static_cast<int64_t>(a.values.size()));
  s.OptionalString(!a.replayed_scheduler.empty(), a.replayed_scheduler);
  s.BeginList();
  // XLA:TPU: each memory space's peak, never their sum.
  if (options.space < 0 && m.has_allocations()) {
    EmitPeak(a, a.peak, options.top, s);
  }
  for (const MemoryPeak& p : a.space_peaks) {
    if (options.space < 0 || p.memory_space == options.space) {
      EmitPeak(a, p, options.top, s);
    }
  }
  s.EndList();
  if (m.has_allocations() || m.tpu_buffers) {
    EmitAllocations(m.memory, options.top, s);
  } else {
    s.String("tpu");
    for (int k = 0; k < 5; ++k) s.None();  // memory_analysis ... allocations
  }
  if (tpu != nullptr) {
    EmitValue(*tpu, s);
  } else {
    s.None();
  }
  s.EndRecord();
}

}  // namespace hlolayout
