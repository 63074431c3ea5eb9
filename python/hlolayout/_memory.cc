// python/hlolayout/_memory.cc: `hl.memory()` (hlolayout.allocations): what
// XLA will allocate for scheduled modules and their live-range peak, from
// the library's memory/ (AnalyzeModuleMemory), as typed records.
//
//   >>> (m,) = hl.memory(text, platform="gpu")
//   >>> m.memory_analysis.temp_size_in_bytes      # JAX's attribute names
//   2048
//   >>> m.allocations[0].values[0].offset
//   0
//
// The module is read and analysed without the GIL; the records are then
// built once from the result (_record.h). Their to_dict() is the JSON of
// `hlolayout memory --json`.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "_binding.h"
#include "_record.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "hlolayout/hlo/no_module.h"
#include "hlolayout/hlo/reader.h"
#include "hlolayout/memory/allocation_sizes.h"
#include "hlolayout/memory/buffer_assignment.h"
#include "hlolayout/memory/dump_memory.h"
#include "hlolayout/memory/live_range.h"

namespace py = pybind11;

namespace hlolayout::pyext {
namespace {

constexpr char kModule[] = "hlolayout.allocations";

struct CompiledMemoryStatsTag {
  static const RecordSpec& Spec() {
    static const RecordSpec spec{
        "CompiledMemoryStats",
        "compiled.memory_analysis() as XLA computes it from its buffer "
        "assignment, with JAX's attribute names (docs/memory.md).\n\n"
        "Allocations of host memory (S(5)) count in the host_ figures. The "
        "sizes of generated code are not in a dump: they are None.",
        {
            {"argument_size_in_bytes",
             "Entry parameters' allocations (device memory).", Json::kValue,
             nullptr, true},
            {"output_size_in_bytes",
             "Live-out allocations (device memory), the output tuple's index "
             "table included.",
             Json::kValue, nullptr, true},
            {"alias_size_in_bytes",
             "Parameter allocations the output reuses (input_output_alias).",
             Json::kValue, nullptr, true},
            {"temp_size_in_bytes",
             "Every other allocation: XLA's heap and its tuple index tables "
             "(device memory).",
             Json::kValue, nullptr, true},
            {"peak_memory_in_bytes",
             "XLA's peak: the parameter, constant and output allocations' "
             "largest values, plus on GPU the most the heap holds at once.",
             Json::kValue, nullptr, true},
            {"host_argument_size_in_bytes",
             "Entry parameters' allocations in host memory (S(5))."},
            {"host_output_size_in_bytes",
             "Live-out allocations in host memory (S(5))."},
            {"host_alias_size_in_bytes",
             "Host parameter allocations the output reuses."},
            {"host_temp_size_in_bytes",
             "Temp allocations in host memory (S(5))."},
            {"generated_code_size_in_bytes",
             "None: the size of the compiled code is not in a dump.",
             Json::kLeftOut},
            {"host_generated_code_size_in_bytes",
             "None: the size of the compiled code is not in a dump.",
             Json::kLeftOut},
        }};
    return spec;
  }
};

struct HeapInfoTag {
  static const RecordSpec& Spec() {
    static const RecordSpec spec{
        "HeapInfo",
        "XLA's heap simulation: the values packed into the temp allocation.",
        {
            {"size", "Bytes the heap needs.", Json::kValue, nullptr, true},
            {"offset", "Where the temp allocation holds it.", Json::kValue,
             nullptr, true},
            {"peak", "The most heap bytes in use at once.", Json::kValue,
             nullptr, true},
            {"alignment", "256 on GPU, 64 on CPU.", Json::kValue, nullptr,
             true},
            {"peak_time",
             "The first schedule time at which the heap holds `peak` (-1 "
             "without a heap).",
             Json::kValue, nullptr, true},
            {"peak_instruction", "The instruction at peak_time ('' if none)."},
            {"peak_value_count", "How many values the heap holds then."},
            {"peak_values",
             "SizingValues in the heap then, largest first (at most `top`): "
             "what sets the temp allocation's share of the peak.",
             Json::kRecords},
            {"peak_alignment_bytes",
             "What aligning those values' places to `alignment` adds."},
        }};
    return spec;
  }
};

struct SizingValueTag {
  static const RecordSpec& Spec() {
    static const RecordSpec spec{
        "SizingValue",
        "A value that sets an allocation's size: the largest value of an "
        "allocation of its own, or a value in the heap at its peak.",
        {
            {"name", "The value: instruction and shape index (\"x{1}\").",
             Json::kValue, nullptr, true},
            {"shape", "Its shape, XLA's text."},
            {"bytes", "Its own size.", Json::kValue, nullptr, true},
            {"offset", "Its offset in its allocation."},
            {"start", "Its live range's first schedule time, or None.",
             Json::kOmitIfNone},
            {"end", "Its live range's last schedule time, or None.",
             Json::kOmitIfNone},
        }};
    return spec;
  }
};

struct AssignedValueTag {
  static const RecordSpec& Spec() {
    static const RecordSpec spec{
        "AssignedValue",
        "A value placed in an allocation (a line ` value: <id name ...>` of "
        "XLA's *-buffer-assignment.txt).",
        {
            {"id", "XLA's HloValue id.", Json::kValue, nullptr, true},
            {"name", "The defining instruction.", Json::kValue, nullptr, true},
            {"index",
             "The shape index in the defining instruction's result, a tuple "
             "(\"{1,0}\" in to_dict()).",
             Json::kIndexText, nullptr, true},
            {"shape", "The value's shape, XLA's text."},
            {"offset", "Its offset in the allocation.", Json::kValue, nullptr,
             true},
            {"size", "Its slot there, in bytes.", Json::kValue, nullptr, true},
            {"start",
             "Its live range's first schedule time, None for values of "
             "thread-local computations.",
             Json::kOmitIfNone},
            {"end", "Its live range's last schedule time, or None.",
             Json::kOmitIfNone},
        }};
    return spec;
  }
};

struct AllocationTag {
  static const RecordSpec& Spec() {
    static const RecordSpec spec{
        "Allocation",
        "One allocation of XLA's buffer assignment, and the values in it.",
        {
            {"index", "Its number, as XLA prints it.", Json::kValue, nullptr,
             true},
            {"size", "Bytes.", Json::kValue, nullptr, true},
            {"color", "The memory space of its values.", Json::kValue},
            {"kind",
             "'parameter', 'constant', 'thread-local', 'output' or 'temp'.",
             Json::kValue, nullptr, true},
            {"parameter_number",
             "The entry parameter it holds, None for other kinds.",
             Json::kOmitIfNone},
            {"parameter_index",
             "The shape index in that parameter, a tuple; None for other "
             "kinds.",
             Json::kIndexTextOmitIfNone},
            {"parameter_aliased",
             "Whether the output reuses it (input_output_alias); None for "
             "other kinds.",
             Json::kOmitIfNone},
            {"maybe_live_out", "Whether the module's output may live here."},
            {"size_set_by",
             "The names of the values that set its size: its largest values, "
             "or for the temp allocation the values in the heap at its peak.",
             Json::kList},
            {"values", "The AssignedValues in it, by id.", Json::kRecords,
             nullptr, true},
        }};
    return spec;
  }
};

struct LiveValueTag {
  static const RecordSpec& Spec() {
    static const RecordSpec spec{
        "LiveValue",
        "A value live at a peak (XLA's HloLiveRange).",
        {
            {"instruction", "The defining instruction.", Json::kValue, nullptr,
             true},
            {"index", "The shape index, a tuple (\"{1}\" in to_dict()).",
             Json::kIndexText, nullptr, true},
            {"bytes", "Its size: padded bytes, 8 per tuple element.",
             Json::kValue, nullptr, true},
            {"logical_bytes", "The same without tile and L(n) padding."},
            {"start", "The first schedule time it is live.", Json::kValue,
             nullptr, true},
            {"end", "The last schedule time it is live.", Json::kValue, nullptr,
             true},
        }};
    return spec;
  }
};

struct MemoryPeakTag {
  static const RecordSpec& Spec() {
    static const RecordSpec spec{
        "MemoryPeak",
        "The first schedule time at which the live bytes are largest, of "
        "all memory (memory_space None, XLA's figure) or of one memory "
        "space.",
        {
            {"memory_space", "S(n), or None for all memory together.",
             Json::kValue, nullptr, true},
            {"bytes", "The live bytes there.", Json::kValue, nullptr, true},
            {"time", "The schedule time.", Json::kValue, nullptr, true},
            {"instruction",
             "The instruction at that time (None past the last one).",
             Json::kOmitIfNone, nullptr, true},
            {"op_name",
             "Its metadata op_name ('' without one; None past the last "
             "instruction).",
             Json::kOmitIfNone},
            {"live",
             "The LiveValues live there, largest first (at most `top`).",
             Json::kRecords, nullptr, true},
        }};
    return spec;
  }
};

struct ModuleMemoryTag {
  static const RecordSpec& Spec() {
    static const RecordSpec spec{
        "ModuleMemory",
        "What XLA will allocate for one scheduled module, and its live-range "
        "peak: one element of hl.memory()'s list.",
        {
            {"module", "The HloModule name.", Json::kValue, nullptr, true},
            {"schedule_end", "The schedule's length (HloLiveRange's max T)."},
            {"value_count", "The values the module defines.", Json::kValue,
             "values"},
            {"replayed_scheduler",
             "The XLA scheduler whose replay placed folded get-tuple-elements "
             "('list', 'dfs', ...), or None."},
            {"peaks",
             "MemoryPeaks: all memory first, then one per memory space "
             "(only space S(n) when asked).",
             Json::kRecords},
            {"platform", "'gpu', 'cpu', or 'tpu' (allocations not modelled).",
             Json::kValue, nullptr, true},
            {"memory_analysis",
             "CompiledMemoryStats, as compiled.memory_analysis(); None for "
             "XLA:TPU modules.",
             Json::kRecord, nullptr, true},
            {"allocated_bytes",
             "arguments + temp + outputs - aliases (device memory); None for "
             "XLA:TPU modules.",
             Json::kOmitIfNone, nullptr, true},
            {"heap", "HeapInfo, or None for XLA:TPU modules.",
             Json::kRecordOmitIfNone},
            {"rounding_bytes",
             "What rounding every allocation up to the alignment adds; None "
             "for XLA:TPU modules.",
             Json::kOmitIfNone},
            {"allocations",
             "The Allocations, by index; None for XLA:TPU modules.",
             Json::kRecordsOmitIfNone, nullptr, true},
        }};
    return spec;
  }
};

py::tuple Index(const std::vector<int64_t>& index) { return IntTuple(index); }

py::object OptionalInt(bool present, int64_t value) {
  return present ? py::object(py::int_(value)) : py::object(py::none());
}

py::object StatsRecord(const XlaMemoryStats& s) {
  return MakeRecord<CompiledMemoryStatsTag>(
      s.argument_size_in_bytes, s.output_size_in_bytes, s.alias_size_in_bytes,
      s.temp_size_in_bytes, s.peak_memory_in_bytes,
      s.host_argument_size_in_bytes, s.host_output_size_in_bytes,
      s.host_alias_size_in_bytes, s.host_temp_size_in_bytes, py::none(),
      py::none());
}

const char* AllocationKind(const BufferAllocation& x) {
  return x.is_parameter      ? "parameter"
         : x.is_constant     ? "constant"
         : x.is_thread_local ? "thread-local"
         : x.maybe_live_out  ? "output"
                             : "temp";
}

py::object SizingValueRecord(const SizingValue& v) {
  return MakeRecord<SizingValueTag>(
      v.name, v.shape != nullptr ? v.shape->ToString(true) : std::string(),
      v.bytes, v.offset, OptionalInt(v.start >= 0, v.start),
      OptionalInt(v.start >= 0, v.end));
}

py::tuple Names(const std::vector<SizingValue>* values) {
  if (values == nullptr) return py::tuple();
  py::tuple names(values->size());
  for (size_t k = 0; k < values->size(); ++k) names[k] = (*values)[k].name;
  return names;
}

py::object HeapRecord(const BufferAssignment& b, const HeapPeakSizing& h,
                      int64_t top) {
  const size_t shown =
      top > 0 ? std::min<size_t>(h.values.size(), top) : h.values.size();
  py::tuple values(shown);
  for (size_t k = 0; k < shown; ++k) values[k] = SizingValueRecord(h.values[k]);
  return MakeRecord<HeapInfoTag>(b.heap_size, b.heap_offset, b.heap_peak,
                                 b.alignment, h.time, h.instruction,
                                 static_cast<int64_t>(h.values.size()),
                                 std::move(values), h.alignment_bytes);
}

py::object AllocationRecord(const BufferAllocation& x,
                            const std::vector<SizingValue>* set_by) {
  py::tuple values(x.values.size());
  for (size_t j = 0; j < x.values.size(); ++j) {
    const AssignedValue& v = x.values[j];
    values[j] = MakeRecord<AssignedValueTag>(
        v.id, std::string(v.name), Index(v.index),
        v.shape != nullptr ? v.shape->ToString(true) : std::string(), v.offset,
        v.size, OptionalInt(v.start >= 0, v.start),
        OptionalInt(v.start >= 0, v.end));
  }
  return MakeRecord<AllocationTag>(
      x.index, x.size, x.color, AllocationKind(x),
      OptionalInt(x.is_parameter, x.parameter_number),
      x.is_parameter ? py::object(Index(x.parameter_index))
                     : py::object(py::none()),
      x.is_parameter ? py::object(py::bool_(x.parameter_aliased))
                     : py::object(py::none()),
      x.maybe_live_out, Names(set_by), std::move(values));
}

py::object PeakRecord(const MemoryAnalysis& a, const MemoryPeak& p,
                      int64_t top) {
  const size_t shown =
      top > 0 ? std::min<size_t>(p.values.size(), top) : p.values.size();
  py::tuple live(shown);
  for (size_t k = 0; k < shown; ++k) {
    const LiveValue& v = a.values[p.values[k]];
    live[k] = MakeRecord<LiveValueTag>(a.instructions[v.instruction].name,
                                       Index(v.index), v.bytes, v.logical_bytes,
                                       v.start, v.end);
  }
  const bool at = p.time < static_cast<int64_t>(a.instructions.size());
  return MakeRecord<MemoryPeakTag>(
      OptionalInt(p.memory_space >= 0, p.memory_space), p.bytes, p.time,
      at ? py::object(py::str(a.instructions[p.time].name))
         : py::object(py::none()),
      at ? py::object(py::str(std::string(a.instructions[p.time].op_name)))
         : py::object(py::none()),
      std::move(live));
}

// `memory` null: an XLA:TPU module (live ranges only).
py::object ModuleRecord(const MemoryAnalysis& a, const ModuleMemory* memory,
                        int64_t top, int64_t space) {
  py::list peaks;
  if (space < 0) peaks.append(PeakRecord(a, a.peak, top));
  for (const MemoryPeak& p : a.space_peaks) {
    if (space < 0 || p.memory_space == space) {
      peaks.append(PeakRecord(a, p, top));
    }
  }
  py::object replayed = a.replayed_scheduler.empty()
                            ? py::object(py::none())
                            : py::object(py::str(a.replayed_scheduler));
  if (memory == nullptr) {
    return MakeRecord<ModuleMemoryTag>(
        std::string(a.module_name), a.schedule_end,
        static_cast<int64_t>(a.values.size()), replayed, py::tuple(peaks),
        "tpu", py::none(), py::none(), py::none(), py::none(), py::none());
  }
  const BufferAssignment& b = memory->buffers;
  const AllocationSizes sizes = ExplainAllocationSizes(*memory);
  std::vector<const std::vector<SizingValue>*> set_by(b.allocations.size(),
                                                      nullptr);
  if (sizes.heap.allocation >= 0)
    set_by[sizes.heap.allocation] = &sizes.heap.values;
  for (const OwnAllocationSizing& o : sizes.own)
    set_by[o.allocation] = &o.values;
  py::tuple allocations(b.allocations.size());
  for (size_t k = 0; k < b.allocations.size(); ++k) {
    allocations[k] = AllocationRecord(b.allocations[k], set_by[k]);
  }
  return MakeRecord<ModuleMemoryTag>(
      std::string(a.module_name), a.schedule_end,
      static_cast<int64_t>(a.values.size()), replayed, py::tuple(peaks),
      std::string(XlaPlatformName(b.platform)), StatsRecord(b.stats),
      b.stats.allocated_bytes(), HeapRecord(b, sizes.heap, top),
      sizes.rounding_bytes, std::move(allocations));
}

// hl.memory(): `source` is a path (is_path) or HLO text; `platform` "",
// "gpu" or "cpu".
// What the library answers for one source: its modules read and each
// analysed (memory/dump_memory.h), or the first error. The modules and the
// text stay alive beside the analyses, which refer to them.
struct Analysed {
  absl::Status open_error, error;
  std::unique_ptr<InputText> input;
  std::vector<HloModule> modules;
  std::vector<DumpModuleMemory> analysed;
};

// The library calls of hl.memory, without Python (call without the GIL).
void Analyse(std::string source, bool is_path, const std::string& platform,
             Analysed& out) {
  const std::string name = is_path ? source : std::string();
  absl::StatusOr<std::unique_ptr<InputText>> text =
      OpenSource(std::move(source), is_path);
  if (!text.ok()) {
    out.open_error = text.status();
    return;
  }
  out.input = *std::move(text);
  HloReadOptions options;
  options.file_name = name;
  absl::StatusOr<std::vector<HloModule>> read =
      ReadHloModules(out.input->view(), options);
  if (!read.ok()) {
    out.error = read.status();
    return;
  }
  out.modules = *std::move(read);
  if (out.modules.empty()) {
    out.error = NoHloModuleError(out.input->view(), name);
    return;
  }
  absl::optional<XlaPlatform> requested;
  if (!platform.empty()) {
    requested = platform == "gpu" ? XlaPlatform::kGpu : XlaPlatform::kCpu;
  }
  for (const HloModule& module : out.modules) {
    if (absl::Status entry =
            CheckEntryComputationLayout(out.input->view(), module, name);
        !entry.ok()) {
      out.error = entry;
      return;
    }
    absl::StatusOr<DumpModuleMemory> one =
        AnalyzeDumpModule(module, ChooseDumpPlatform(module, name, requested));
    const absl::Status status = one.status();
    if (!status.ok()) {
      out.error =
          name.empty()
              ? status
              : absl::Status(status.code(),
                             absl::StrCat(name, ": ", status.message()));
      return;
    }
    out.analysed.push_back(*std::move(one));
  }
}

void CheckArguments(int64_t top, const std::string& platform) {
  if (top < 0)
    throw py::value_error(absl::StrCat("top must be >= 0, got ", top));
  if (platform != "" && platform != "gpu" && platform != "cpu") {
    throw py::value_error("platform must be 'gpu' or 'cpu', got '" + platform +
                          "'");
  }
}

py::list Memory(std::string source, bool is_path, int64_t top, int64_t space,
                const std::string& platform) {
  CheckArguments(top, platform);
  Analysed a;
  {
    py::gil_scoped_release release;
    Analyse(std::move(source), is_path, platform, a);
  }
  if (!a.open_error.ok()) RaiseOSError(a.open_error);
  if (!a.error.ok()) ThrowStatus(a.error);
  py::list out;
  for (const DumpModuleMemory& one : a.analysed) {
    out.append(ModuleRecord(one.live_ranges(),
                            one.has_allocations() ? &one.memory : nullptr, top,
                            space));
  }
  return out;
}

// The seconds per call of hl.memory's library calls alone (python/bench's
// baseline): `n` runs of Analyse, the GIL released.
double TimeMemoryCpp(const std::string& source, bool is_path,
                     const std::string& platform, int64_t n) {
  py::gil_scoped_release release;
  const auto start = std::chrono::steady_clock::now();
  size_t sink = 0;
  for (int64_t i = 0; i < n; ++i) {
    Analysed a;
    Analyse(source, is_path, platform, a);
    sink += a.analysed.size();
  }
  const std::chrono::duration<double> t =
      std::chrono::steady_clock::now() - start;
  return sink == 0 ? 0.0 : t.count() / static_cast<double>(n);
}

}  // namespace

py::object CompiledMemoryStatsRecord(const XlaMemoryStats& stats) {
  return StatsRecord(stats);
}

void RegisterMemory(py::module_& m) {
  BindRecord<CompiledMemoryStatsTag>(m, kModule);
  BindRecord<SizingValueTag>(m, kModule);
  BindRecord<HeapInfoTag>(m, kModule);
  BindRecord<AssignedValueTag>(m, kModule);
  BindRecord<AllocationTag>(m, kModule);
  BindRecord<LiveValueTag>(m, kModule);
  BindRecord<MemoryPeakTag>(m, kModule);
  BindRecord<ModuleMemoryTag>(m, kModule);
  m.def("memory", &Memory, py::arg("source"), py::arg("is_path"),
        py::arg("top"), py::arg("space"), py::arg("platform"));
  m.def("_time_memory_cpp", &TimeMemoryCpp, py::arg("source"),
        py::arg("is_path"), py::arg("platform"), py::arg("calls"));
}

}  // namespace hlolayout::pyext
