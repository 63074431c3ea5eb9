#include "hlolayout/answers/memory_writer.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "hlolayout/answers/memory.h"
#include "hlolayout/draw/svg.h"
#include "hlolayout/layout/memory_space.h"
#include "hlolayout/memory/allocation_sizes.h"
#include "hlolayout/memory/allocation_text.h"
#include "hlolayout/memory/buffer_assignment.h"
#include "hlolayout/memory/live_range.h"
#include "hlolayout/memory/memory_html.h"
#include "hlolayout/memory/tpu_chip.h"
#include "hlolayout/memory/tpu_memory.h"
#include "hlolayout/util/bytes.h"
#include "hlolayout/util/fields.h"

namespace hlolayout {
namespace {

// "jit(f)/while/body/add" -> "jit(f)/while/body".
absl::string_view OpNamePrefix(absl::string_view op_name) {
  const size_t slash = op_name.rfind('/');
  return slash == absl::string_view::npos ? op_name : op_name.substr(0, slash);
}

void WriteModuleMemoryText(const MemoryAnalysis& a, const ModuleMemory* m,
                           const TpuMemory* tpu, int64_t top, int64_t space,
                           std::ostream& out) {
  out << "module " << (a.module_name.empty() ? "(no name)" : a.module_name)
      << ": " << a.schedule_end << " scheduled instructions, "
      << a.values.size() << " values\n";
  if (m != nullptr) {
    out << XlaAllocationText(*m)
        << AllocationSizesText(ExplainAllocationSizes(*m), top);
  } else if (tpu != nullptr) {
    out << TpuMemoryText(*tpu);
  } else {
    out << TpuAllocationText(a);
  }
  std::vector<const MemoryPeak*> peaks;
  if (space < 0 && m == nullptr) {
    // XLA:TPU: each memory space's peak, never all of them added together.
    for (const MemoryPeak& p : a.space_peaks) peaks.push_back(&p);
  } else if (space < 0) {
    peaks.push_back(&a.peak);
    if (a.space_peaks.size() > 1) {
      for (const MemoryPeak& p : a.space_peaks) peaks.push_back(&p);
    }
  } else {
    for (const MemoryPeak& p : a.space_peaks) {
      if (p.memory_space == space) peaks.push_back(&p);
    }
    if (peaks.empty()) out << "  no values in memory space " << space << "\n";
  }
  for (const MemoryPeak* p : peaks) {
    const std::string where =
        p->memory_space < 0 ? std::string("all memory")
        : m == nullptr
            ? absl::StrCat(TpuMemorySpaceTitle(p->memory_space),
                           " (XLA:TPU's \"",
                           XlaTpuMemorySpaceName(p->memory_space), "\")")
            : absl::StrCat(MemorySpaceKey(p->memory_space), " (",
                           MemorySpaceName(p->memory_space), ")");
    out << "peak of " << where << ": " << p->bytes << " bytes at time "
        << p->time;
    if (p->time < static_cast<int64_t>(a.instructions.size())) {
      const ScheduledInstruction& at = a.instructions[p->time];
      out << ", " << at.name() << " in " << at.computation();
      if (!at.op_name().empty()) out << " (" << at.op_name() << ")";
    }
    out << "\n  values live at the peak (" << p->values.size() << "):\n";
    int64_t shown = 0;
    for (int64_t id : p->values) {
      if (top > 0 && shown++ >= top) {
        out << "    ... " << (p->values.size() - top) << " more\n";
        break;
      }
      const LiveValue& v = a.values[id];
      out << "    " << a.instructions[v.instruction].name()
          << ShapeIndexString(v.index()) << "  "
          << (v.shape() != nullptr ? v.shape()->ToString(true) : "") << "  "
          << v.bytes() << " B  " << PercentOf(v.bytes(), p->bytes);
      if (v.bytes() > v.logical_bytes() && !v.shape()->IsTuple()) {
        out << "  padding " << (v.bytes() - v.logical_bytes()) << " B";
      }
      out << "  live " << v.start << "-" << v.end << "\n";
    }
    std::map<std::string, int64_t> by_prefix;
    for (int64_t id : p->values) {
      const LiveValue& v = a.values[id];
      absl::string_view op = a.instructions[v.instruction].op_name();
      by_prefix[op.empty() ? std::string("(no op_name)")
                           : std::string(OpNamePrefix(op))] += v.bytes();
    }
    std::vector<std::pair<std::string, int64_t>> sorted(by_prefix.begin(),
                                                        by_prefix.end());
    std::stable_sort(
        sorted.begin(), sorted.end(),
        [](const auto& x, const auto& y) { return x.second > y.second; });
    out << "  by op_name prefix:\n";
    for (const auto& entry : sorted) {
      out << "    " << entry.first << ": " << entry.second << " B ("
          << PercentOf(entry.second, p->bytes) << ")\n";
    }
  }
}

}  // namespace

std::string ModuleMemoryText(const MemoryAnalysis& live_ranges,
                             const ModuleMemory* m, int64_t top,
                             int64_t space) {
  std::ostringstream out;
  WriteModuleMemoryText(live_ranges, m, nullptr, top, space, out);
  return out.str();
}

absl::optional<MemoryForm> MemoryFormNamed(absl::string_view name) {
  if (name == "text") return MemoryForm::kText;
  if (name == "xla") return MemoryForm::kXla;
  if (name == "xla-buffers") return MemoryForm::kXlaBuffers;
  if (name == "xla-usage") return MemoryForm::kXlaUsage;
  return absl::nullopt;
}

MemoryWriter::MemoryWriter(const MemoryWriterOptions& options)
    : options_(options) {
  if (options_.form == MemoryForm::kHtml) {
    page_ << "<!doctype html>\n<html><head><meta charset=\"utf-8\">"
             "<title>hlolayout memory</title><style>body{font-family:"
             "sans-serif;margin:2em}table{border-collapse:collapse}td,th{"
             "border:1px solid #ccc;padding:2px 6px;font-size:13px}td:nth-"
             "child(n+3){text-align:right}</style></head><body>\n<h1>What "
             "XLA will allocate, and the peak</h1>\n";
  }
}

namespace {

bool IsXlaFileForm(MemoryForm form) {
  return form == MemoryForm::kXla || form == MemoryForm::kXlaBuffers ||
         form == MemoryForm::kXlaUsage;
}

// XLA's own files of an XLA:TPU module: from the model of its buffer
// assignment when the reading made it; else the live-range file only.
absl::Status WriteXlaTpuFile(const DumpModuleMemory& analysed, MemoryForm form,
                             absl::string_view file_name, std::ostream& out) {
  if (analysed.tpu_buffers) {
    // Its live-range file counts logical sizes (docs/xla-tpu.md).
    const BufferAssignment& buffers = analysed.memory.buffers;
    if (form == MemoryForm::kXla) {
      out << XlaLiveRangeText(analysed.live_ranges(), ValuesByXlaId(buffers),
                              LiveRangeSizes::kLogical);
    } else if (form == MemoryForm::kXlaBuffers) {
      out << XlaBufferAssignmentText(buffers);
    } else {
      out << XlaMemoryUsageReportText(buffers);
    }
    return absl::OkStatus();
  }
  if (form == MemoryForm::kXla) {
    // XLA:TPU's live-range dump: the live ranges only (no value ids).
    out << XlaLiveRangeText(analysed.live_ranges(), {},
                            LiveRangeSizes::kLogical);
    return absl::OkStatus();
  }
  return absl::InvalidArgumentError(
      absl::StrCat(file_name,
                   ": looks like an XLA:TPU module (tiled layouts); its buffer "
                   "assignment's texts need DumpTextOptions::tpu_buffers"));
}

}  // namespace

absl::Status MemoryWriter::WriteModule(const HloModule& module,
                                       const DumpModuleMemory& analysed,
                                       absl::string_view file_name,
                                       std::ostream& out) {
  const MemoryForm form = options_.form;
  const int64_t top = options_.top, space = options_.space;
  const bool tpu = !analysed.has_allocations();
  if (tpu && IsXlaFileForm(form)) {
    return WriteXlaTpuFile(analysed, form, file_name, out);
  }
  answers::MemoryRequest request;
  request.top = top;
  request.space = space;
  request.tpu = options_.tpu;
  request.file_name = std::string(file_name);
  absl::StatusOr<std::optional<TpuMemory>> tpu_answer =
      answers::AnswerTpuOf(module, analysed, request);
  if (!tpu_answer.ok()) return tpu_answer.status();
  const TpuMemory* t = tpu_answer->has_value() ? &**tpu_answer : nullptr;
  // `memory` null: XLA:TPU (its answer, or the live ranges only).
  const ModuleMemory* memory = tpu ? nullptr : &analysed.memory;
  const MemoryAnalysis& live_ranges = analysed.live_ranges();
  switch (form) {
    case MemoryForm::kHtml:
      if (memory != nullptr) {
        RenderModuleMemoryHtml(*memory, top, module_index_++, page_, &module);
      } else if (t != nullptr) {
        RenderTpuMemoryHtml(*t, live_ranges, top, module_index_++, page_);
      } else {
        page_ << "<p>" << draw::XmlEscape(TpuAllocationText(live_ranges))
              << "</p>\n";
        RenderMemoryCurveHtml(live_ranges, top, module_index_++, page_);
      }
      break;
    case MemoryForm::kJson: {
      if (!first_) out << ",\n";
      out << AnswerJson(answers::ModuleMemoryOf(
          analysed, *std::move(tpu_answer), top, space));
      break;
    }
    case MemoryForm::kXla:
      // BufferLiveRange by XLA's value ids, as XLA lists it.
      out << XlaLiveRangeText(live_ranges, ValuesByXlaId(memory->buffers));
      break;
    case MemoryForm::kXlaBuffers:
      out << XlaBufferAssignmentText(memory->buffers);
      break;
    case MemoryForm::kXlaUsage:
      out << XlaMemoryUsageReportText(memory->buffers);
      break;
    case MemoryForm::kText:
      if (!first_) out << "\n";
      WriteModuleMemoryText(live_ranges, memory, t, top, space, out);
      break;
  }
  first_ = false;
  return absl::OkStatus();
}

absl::Status MemoryWriter::WriteText(absl::string_view text,
                                     const DumpTextOptions& read_options,
                                     std::ostream& out, std::ostream& warnings,
                                     std::vector<HloModule>* keep) {
  std::vector<std::string> pending;
  const absl::Status status = ForEachDumpModule(
      text, read_options, &pending,
      [&](const HloModule& module, DumpModuleMemory& analysed) {
        // Unknown opcodes are warned of before the first module's answer.
        for (const std::string& w : pending) warnings << w << "\n";
        pending.clear();
        return WriteModule(module, analysed, read_options.file_name, out);
      },
      keep);
  for (const std::string& w : pending) warnings << w << "\n";
  return status;
}

std::string MemoryWriter::Start() const {
  return options_.form == MemoryForm::kJson ? "[" : "";
}

std::string MemoryWriter::Finish() {
  switch (options_.form) {
    case MemoryForm::kJson:
      return "]\n";
    case MemoryForm::kHtml:
      page_ << "</body></html>\n";
      return page_.str();
    default:
      return "";
  }
}

}  // namespace hlolayout
