#include "hlolayout/views/memory_writer.h"

#include <algorithm>
#include <cstdint>
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
#include "hlolayout/memory/buffer_assignment.h"
#include "hlolayout/memory/live_range.h"
#include "hlolayout/memory/tpu_chip.h"
#include "hlolayout/memory/tpu_memory.h"
#include "hlolayout/util/bytes.h"
#include "hlolayout/util/fields.h"
#include "hlolayout/views/allocation_text.h"
#include "hlolayout/views/buffer_assignment_text.h"
#include "hlolayout/views/live_range_text.h"
#include "hlolayout/views/memory_html.h"
#include "hlolayout/views/tpu_memory_text.h"

namespace hlolayout {
namespace {

// Where a peak is: all memory, an XLA:TPU memory space as XLA:TPU names
// it, or S(n) with its name.
std::string PeakWhere(const answers::MemoryPeak& p, bool tpu) {
  if (!p.memory_space.has_value()) return "all memory";
  const int64_t s = *p.memory_space;
  return tpu ? absl::StrCat(TpuMemorySpaceTitle(s), " (XLA:TPU's \"",
                            XlaTpuMemorySpaceName(s), "\")")
             : absl::StrCat(MemorySpaceKey(s), " (", MemorySpaceName(s), ")");
}

// The text of one peak of the answer.
void WritePeakText(const answers::MemoryPeak& p, bool tpu, int64_t top,
                   std::ostream& out) {
  out << "peak of " << PeakWhere(p, tpu) << ": " << p.bytes << " bytes at time "
      << p.time;
  if (p.instruction.has_value()) {
    out << ", " << *p.instruction << " in " << p.computation.value_or("");
    if (!p.op_name.value_or("").empty()) out << " (" << *p.op_name << ")";
  }
  out << "\n  values live at the peak (" << p.live_count << "):\n";
  for (const answers::LiveValue& v : p.live) {
    out << "    " << v.instruction << ShapeIndexString(v.index) << "  "
        << v.shape << "  " << v.bytes << " B  " << PercentOf(v.bytes, p.bytes);
    // A tuple's index table has no padding.
    if (v.bytes > v.logical_bytes && v.shape.rfind('(', 0) != 0) {
      out << "  padding " << (v.bytes - v.logical_bytes) << " B";
    }
    out << "  live " << v.start << "-" << v.end << "\n";
  }
  if (top > 0 && p.live_count > top) {
    out << "    ... " << (p.live_count - top) << " more\n";
  }
  out << "  by op_name prefix:\n";
  for (const auto& [prefix, bytes] : p.by_op_name_prefix) {
    out << "    " << prefix << ": " << bytes << " B ("
        << PercentOf(bytes, p.bytes) << ")\n";
  }
}

// The text of one module: the head and the peaks from its answer `v`; what
// XLA will allocate from the analysis (`m`, null for an XLA:TPU module) or
// v.tpu; `a` for an XLA:TPU module read without the model.
void WriteModuleMemoryText(const answers::ModuleMemory& v,
                           const MemoryAnalysis& a, const ModuleMemory* m,
                           int64_t top, int64_t space, std::ostream& out) {
  out << "module " << (v.module.empty() ? "(no name)" : v.module) << ": "
      << v.schedule_end << " scheduled instructions, " << v.value_count
      << " values\n";
  const bool tpu = m == nullptr;
  if (!tpu) {
    out << XlaAllocationText(*m)
        << AllocationSizesText(ExplainAllocationSizes(*m), top);
  } else if (v.tpu.has_value()) {
    out << TpuMemoryText(*v.tpu);
  } else {
    out << TpuAllocationText(a);
  }
  // All memory's peak, and each space's when there are several.
  size_t shown = v.peaks.size();
  if (!tpu && space < 0 && shown == 2) shown = 1;
  if (space >= 0 && v.peaks.empty()) {
    out << "  no values in memory space " << space << "\n";
  }
  for (size_t k = 0; k < shown; ++k) WritePeakText(v.peaks[k], tpu, top, out);
}

}  // namespace

std::string ModuleMemoryText(const MemoryAnalysis& live_ranges,
                             const ModuleMemory* m, int64_t top,
                             int64_t space) {
  answers::ModuleMemory v;
  v.module = std::string(live_ranges.module_name);
  v.schedule_end = live_ranges.schedule_end;
  v.value_count = static_cast<int64_t>(live_ranges.values.size());
  v.peaks = answers::MemoryPeaksOf(live_ranges, m == nullptr, top, space);
  std::ostringstream out;
  WriteModuleMemoryText(v, live_ranges, m, top, space, out);
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
      WriteModuleMemoryText(
          answers::ModuleMemoryOf(analysed, *std::move(tpu_answer), top, space,
                                  answers::MemoryParts::kLiveRanges),
          live_ranges, memory, top, space, out);
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
