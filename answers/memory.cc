#include "hlolayout/answers/memory.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "hlolayout/memory/allocation_sizes.h"
#include "hlolayout/memory/buffer_assignment.h"
#include "hlolayout/memory/live_range.h"
#include "hlolayout/memory/xla_buffer_file.h"

namespace hlolayout::answers {
namespace {

std::string ShapeText(const Shape* shape) {
  return shape != nullptr ? shape->ToString(true) : std::string();
}

// A live range's ends, or none for a value that has none (start -1).
void SetRange(int64_t start, int64_t end, std::optional<int64_t>& s,
              std::optional<int64_t>& e) {
  if (start >= 0) {
    s = start;
    e = end;
  }
}

SizingValue SizingValueOf(const hlolayout::SizingValue& v) {
  SizingValue out;
  out.name = v.name;
  out.shape = ShapeText(v.shape);
  out.bytes = v.bytes;
  out.offset = v.offset;
  SetRange(v.start, v.end, out.start, out.end);
  return out;
}

HeapInfo HeapInfoOf(const BufferAssignment& b, const HeapPeakSizing& h,
                    int64_t top) {
  HeapInfo out;
  out.size = b.heap_size;
  out.offset = b.heap_offset;
  out.peak = b.heap_peak;
  out.alignment = b.alignment;
  out.peak_time = h.time;
  out.peak_instruction = h.instruction;
  out.peak_value_count = static_cast<int64_t>(h.values.size());
  const size_t shown =
      top > 0 ? std::min<size_t>(h.values.size(), top) : h.values.size();
  for (size_t k = 0; k < shown; ++k) {
    out.peak_values.push_back(SizingValueOf(h.values[k]));
  }
  out.peak_alignment_bytes = h.alignment_bytes;
  return out;
}

AssignedValue AssignedValueOf(const hlolayout::AssignedValue& v) {
  AssignedValue out;
  out.id = v.id;
  out.instruction = std::string(v.name);
  out.index = v.index;
  out.shape = ShapeText(v.shape);
  out.offset = v.offset;
  out.size = v.size;
  SetRange(v.start, v.end, out.start, out.end);
  return out;
}

// `set_by`: the values that set its size, or null.
Allocation AllocationOf(const BufferAllocation& x,
                        const std::vector<hlolayout::SizingValue>* set_by) {
  Allocation out;
  out.index = x.index;
  out.size = x.size;
  out.color = x.color;
  out.kind = x.kind();
  if (x.is_parameter) {
    out.parameter_number = x.parameter_number;
    out.parameter_index = x.parameter_index;
    out.parameter_aliased = x.parameter_aliased;
  }
  out.maybe_live_out = x.maybe_live_out;
  if (set_by != nullptr) {
    for (const hlolayout::SizingValue& v : *set_by) {
      out.size_set_by.push_back(v.name);
    }
  }
  for (const hlolayout::AssignedValue& v : x.values) {
    out.values.push_back(AssignedValueOf(v));
  }
  return out;
}

// "jit(f)/while/body/add" -> "jit(f)/while/body".
absl::string_view OpNamePrefix(absl::string_view op_name) {
  const size_t slash = op_name.rfind('/');
  return slash == absl::string_view::npos ? op_name : op_name.substr(0, slash);
}

// The live bytes of the values live at `p` by op_name prefix, most first.
std::vector<std::pair<std::string, int64_t>> ByOpNamePrefix(
    const MemoryAnalysis& a, const hlolayout::MemoryPeak& p) {
  std::map<std::string, int64_t> by_prefix;
  for (int64_t id : p.values) {
    const hlolayout::LiveValue& v = a.values[id];
    absl::string_view op = a.instructions[v.instruction].op_name();
    by_prefix[op.empty() ? std::string("(no op_name)")
                         : std::string(OpNamePrefix(op))] += v.bytes();
  }
  std::vector<std::pair<std::string, int64_t>> sorted(by_prefix.begin(),
                                                      by_prefix.end());
  std::stable_sort(
      sorted.begin(), sorted.end(),
      [](const auto& x, const auto& y) { return x.second > y.second; });
  return sorted;
}

MemoryPeak PeakOf(const MemoryAnalysis& a, const hlolayout::MemoryPeak& p,
                  int64_t top) {
  MemoryPeak out;
  if (p.memory_space >= 0) out.memory_space = p.memory_space;
  out.bytes = p.bytes;
  out.time = p.time;
  if (p.time < static_cast<int64_t>(a.instructions.size())) {
    const ScheduledInstruction& at = a.instructions[p.time];
    out.instruction = std::string(at.name());
    out.op_name = std::string(at.op_name());
    out.computation = std::string(at.computation());
  }
  out.live_count = static_cast<int64_t>(p.values.size());
  out.by_op_name_prefix = ByOpNamePrefix(a, p);
  const size_t shown =
      top > 0 ? std::min<size_t>(p.values.size(), top) : p.values.size();
  for (size_t k = 0; k < shown; ++k) {
    const hlolayout::LiveValue& v = a.values[p.values[k]];
    LiveValue live;
    live.instruction = std::string(a.instructions[v.instruction].name());
    live.index.assign(v.index().begin(), v.index().end());
    live.bytes = v.bytes();
    live.logical_bytes = v.logical_bytes();
    live.start = v.start;
    live.end = v.end;
    live.shape = ShapeText(v.shape());
    out.live.push_back(std::move(live));
  }
  return out;
}

// The buffer assignment's part of the answer: memory_analysis, the heap
// and the allocations, what sets each allocation's size found once.
void SetAllocations(const hlolayout::ModuleMemory& memory, int64_t top,
                    ModuleMemory& out) {
  const BufferAssignment& b = memory.buffers;
  const AllocationSizes sizes = ExplainAllocationSizes(memory);
  std::vector<const std::vector<hlolayout::SizingValue>*> set_by(
      b.allocations.size(), nullptr);
  if (sizes.heap.allocation >= 0) {
    set_by[sizes.heap.allocation] = &sizes.heap.values;
  }
  for (const OwnAllocationSizing& o : sizes.own) {
    set_by[o.allocation] = &o.values;
  }
  out.platform = std::string(XlaPlatformName(b.platform));
  out.memory_analysis = CompiledMemoryStatsOf(b.stats);
  out.allocated_bytes = b.stats.allocated_bytes();
  out.heap = HeapInfoOf(b, sizes.heap, top);
  out.rounding_bytes = sizes.rounding_bytes;
  out.allocations.emplace();
  out.allocations->reserve(b.allocations.size());
  for (size_t k = 0; k < b.allocations.size(); ++k) {
    out.allocations->push_back(AllocationOf(b.allocations[k], set_by[k]));
  }
}

}  // namespace

std::vector<MemoryPeak> MemoryPeaksOf(const MemoryAnalysis& a, bool tpu,
                                      int64_t top, int64_t space) {
  std::vector<MemoryPeak> out;
  // XLA:TPU: each memory space's peak, never their sum.
  if (space < 0 && !tpu) out.push_back(PeakOf(a, a.peak, top));
  for (const hlolayout::MemoryPeak& p : a.space_peaks) {
    if (space < 0 || p.memory_space == space) {
      out.push_back(PeakOf(a, p, top));
    }
  }
  return out;
}

ModuleMemory ModuleMemoryOf(const DumpModuleMemory& m,
                            std::optional<TpuMemory> tpu, int64_t top,
                            int64_t space, MemoryParts parts) {
  const MemoryAnalysis& a = m.live_ranges();
  ModuleMemory out;
  out.module = std::string(a.module_name);
  out.schedule_end = a.schedule_end;
  out.value_count = static_cast<int64_t>(a.values.size());
  if (!a.replayed_scheduler.empty()) {
    out.replayed_scheduler = a.replayed_scheduler;
  }
  out.peaks = MemoryPeaksOf(a, !m.has_allocations(), top, space);
  if (parts == MemoryParts::kAll && (m.has_allocations() || m.tpu_buffers)) {
    SetAllocations(m.memory, top, out);
  } else {
    out.platform = std::string(DumpPlatformName(m.platform));
  }
  out.tpu = std::move(tpu);
  return out;
}

absl::optional<XlaPlatform> MemoryPlatformNamed(absl::string_view name) {
  if (name == "gpu") return XlaPlatform::kGpu;
  if (name == "cpu") return XlaPlatform::kCpu;
  if (name == "tpu") return XlaPlatform::kTpu;
  return absl::nullopt;
}

DumpTextOptions MemoryReadOptions(const MemoryRequest& request) {
  DumpTextOptions options;
  options.file_name = request.file_name;
  options.platform = request.platform;
  options.xla_creation_order = request.xla_creation_order;
  // A large text is read in parts on `threads` threads (the same modules;
  // hlo/reader.h).
  options.threads = request.threads;
  // The answers are made from the analyses only.
  options.give_back_operands = true;
  // XLA:TPU modules get the model of XLA:TPU's buffer assignment, for every
  // form (memory/tpu_memory.h, XLA's own files).
  options.tpu_buffers = true;
  // The generation the model sizes XLA:TPU's tuple tables for, where the
  // dump does not say it (docs/xla-tpu.md).
  options.tpu = request.tpu;
  return options;
}

namespace {

// The TPU answer's options of a request: --tpu, top, and XLA:TPU's
// *.target_arguments.txt beside the file when there is one.
TpuMemoryOptions TpuOptionsOf(const MemoryRequest& request) {
  TpuMemoryOptions options;
  options.requested = request.tpu;
  options.top = request.top;
  if (absl::optional<std::string> text =
          ReadXlaTpuTargetArguments(request.file_name)) {
    options.target_arguments = *std::move(text);
    options.target_arguments_file =
        XlaTpuTargetArgumentsPath(request.file_name);
  }
  return options;
}

}  // namespace

absl::StatusOr<std::optional<TpuMemory>> AnswerTpuOf(
    const HloModule& module, const DumpModuleMemory& analysed,
    const MemoryRequest& request) {
  if (analysed.has_allocations() || !analysed.tpu_buffers) {
    return std::optional<TpuMemory>();
  }
  absl::StatusOr<TpuMemory> answer =
      AnswerTpuMemory(module, analysed, TpuOptionsOf(request));
  if (!answer.ok()) {
    return absl::Status(
        answer.status().code(),
        absl::StrCat(request.file_name, ": ", answer.status().message()));
  }
  return std::optional<TpuMemory>(*std::move(answer));
}

absl::Status ForEachMemoryAnswer(absl::string_view text,
                                 const MemoryRequest& request,
                                 const DumpTextOptions& options,
                                 std::vector<std::string>* warnings,
                                 const MemoryAnswerVisitor& visit,
                                 std::vector<HloModule>* keep) {
  return ForEachDumpModule(
      text, options, warnings,
      [&](const HloModule& module, DumpModuleMemory& analysed) -> absl::Status {
        absl::StatusOr<std::optional<TpuMemory>> tpu =
            AnswerTpuOf(module, analysed, request);
        if (!tpu.ok()) return tpu.status();
        return visit(module, analysed,
                     ModuleMemoryOf(analysed, *std::move(tpu), request.top,
                                    request.space));
      },
      keep);
}

bool IsXlaTpuBufferFile(absl::string_view text, const MemoryRequest& request) {
  if (!IsXlaBufferAssignmentText(text)) return false;
  return absl::StrContains(text, ":T(") || request.tpu.has_value() ||
         ReadXlaTpuTargetArguments(request.file_name).has_value();
}

namespace {

// "jit_step" of ".../module_0316.jit_step.cl_1.after_optimizations-...":
// the name between XLA's module number and the next dot.
std::string ModuleNameOfXlaFile(absl::string_view path) {
  const size_t slash = path.rfind('/');
  absl::string_view name =
      slash == absl::string_view::npos ? path : path.substr(slash + 1);
  if (!absl::StartsWith(name, "module_")) return "";
  const size_t dot = name.find('.');
  if (dot == absl::string_view::npos) return "";
  name.remove_prefix(dot + 1);
  return std::string(name.substr(0, name.find('.')));
}

}  // namespace

absl::StatusOr<ModuleMemory> AnswerXlaTpuBufferFile(
    absl::string_view text, const MemoryRequest& request) {
  absl::StatusOr<std::unique_ptr<const XlaBufferFile>> file =
      ReadXlaBufferAssignment(std::string(text), request.file_name);
  if (!file.ok()) return file.status();
  absl::StatusOr<TpuMemory> tpu =
      AnswerTpuMemoryOfXlaFile(**file, TpuOptionsOf(request));
  if (!tpu.ok()) {
    return absl::Status(
        tpu.status().code(),
        absl::StrCat(request.file_name, ": ", tpu.status().message()));
  }
  ModuleMemory m;
  m.module = ModuleNameOfXlaFile(request.file_name);
  m.value_count = (*file)->values;
  m.platform = "tpu";
  std::vector<Allocation> allocations;
  for (const BufferAllocation& x : (*file)->assignment.allocations) {
    allocations.push_back(AllocationOf(x, nullptr));
  }
  m.allocations = std::move(allocations);
  m.tpu = *std::move(tpu);
  return m;
}

namespace {

absl::StatusOr<MemoryAnswer> Answer(absl::string_view text,
                                    const MemoryRequest& request,
                                    const DumpTextOptions& options,
                                    std::vector<std::string>* warnings) {
  MemoryAnswer answer;
  if (IsXlaTpuBufferFile(text, request)) {
    absl::StatusOr<ModuleMemory> m = AnswerXlaTpuBufferFile(text, request);
    if (!m.ok()) return m.status();
    answer.modules.push_back(*std::move(m));
    return answer;
  }
  std::vector<std::string> own;
  const absl::Status status = ForEachMemoryAnswer(
      text, request, options, warnings != nullptr ? warnings : &own,
      [&answer](const HloModule&, const DumpModuleMemory&, ModuleMemory m) {
        answer.modules.push_back(std::move(m));
        return absl::OkStatus();
      });
  if (!status.ok()) return status;
  return answer;
}

}  // namespace

absl::StatusOr<MemoryAnswer> AnswerMemory(absl::string_view text,
                                          const MemoryRequest& request,
                                          std::vector<std::string>* warnings) {
  return Answer(text, request, MemoryReadOptions(request), warnings);
}

absl::StatusOr<MemoryAnswer> AnswerMemory(const InputText& input,
                                          const MemoryRequest& request,
                                          std::vector<std::string>* warnings) {
  DumpTextOptions options = MemoryReadOptions(request);
  // A mapped file's pages go back once the modules are read, and the
  // ranges the reading has passed as it goes (the answers' names map them
  // again as they are read).
  options.text_read = [&input] { input.ReleasePages(); };
  options.text_passed = [&input](size_t begin, size_t end) {
    input.ReleasePages(begin, end);
  };
  return Answer(input.view(), request, options, warnings);
}

}  // namespace hlolayout::answers
