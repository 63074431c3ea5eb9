#include "hlolayout/views/report_render.h"

#include <algorithm>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "hlolayout/layout/memory_space.h"
#include "hlolayout/memory/live_range.h"
#include "hlolayout/report/report_record.h"
#include "hlolayout/util/fields.h"
#include "hlolayout/util/record.h"
#include "hlolayout/views/allocation_text.h"

namespace hlolayout {
namespace {

std::string SpaceKey(int64_t space) {
  if (space == ReportRow::kNoMemorySpace) return "-";
  if (space == ReportRow::kMixedMemorySpaces) return "mixed";
  return MemorySpaceKey(space);
}

std::string Expansion(const ByteCounts& bytes) {
  return absl::StrFormat("%.1fx", bytes.expansion());
}

// "1200", "?" when nothing could be sized, "1200+?" when part could not.
std::string RowBytes(const ReportRow& row, int64_t bytes) {
  if (!row.has_shape || row.array_leaves == 0) return "-";
  if (row.unsized_array_leaves == row.array_leaves) return "?";
  std::string text = absl::StrCat(bytes);
  if (row.unsized_array_leaves > 0) text += "+?";
  if (row.bytes.overflow) text += " (overflow)";
  return text;
}

// "1 instruction", "2 instructions".
std::string Count(int64_t n, absl::string_view noun) {
  return absl::StrCat(n, " ", noun, n == 1 ? "" : "s");
}

std::string Leaves(int64_t n) {
  return absl::StrCat(n, n == 1 ? " array leaf" : " array leaves");
}

std::string Overflow(const ByteCounts& bytes) {
  return bytes.overflow ? " (overflow: the true sum is larger)" : "";
}

std::string BufferBytes(const ReportRow& row) {
  if (row.buffer == BufferRole::kAlias ||
      row.buffer == BufferRole::kInEmbedded || !row.has_shape) {
    return "-";
  }
  std::string text = absl::StrCat(row.buffer_bytes.padded_bytes);
  if (row.unsized_array_leaves > 0) text += "+?";
  return text;
}

void Pad(std::ostream& out, absl::string_view text, size_t width, bool right) {
  if (right) {
    for (size_t i = text.size(); i < width; ++i) out << ' ';
    out << text;
  } else {
    out << text;
    for (size_t i = text.size(); i < width; ++i) out << ' ';
  }
}

// "a, b, c"; past kShownNames names "a, ..., l and 3 more".
std::string NameList(const std::vector<std::string>& names) {
  constexpr size_t kShownNames = 12;
  std::string out;
  for (size_t i = 0; i < names.size() && i < kShownNames; ++i) {
    absl::StrAppend(&out, i > 0 ? ", " : "", names[i]);
  }
  if (names.size() > kShownNames) {
    absl::StrAppend(&out, " and ", names.size() - kShownNames, " more");
  }
  return out;
}

void RenderTable(const ModuleReport& module, std::ostream& out) {
  const char* kHeaders[] = {
      "computation", "instruction", "opcode",    "shape",  "memory",
      "logical B",   "padded B",    "expansion", "buffer", "buffer B"};
  constexpr int kColumns = 10;
  size_t widths[kColumns];
  for (int i = 0; i < kColumns; ++i) {
    widths[i] = std::string(kHeaders[i]).size();
  }
  // Column widths from every row (name widths include "ROOT ").
  for (const ReportRow& row : module.rows) {
    widths[0] = std::max(widths[0], row.computation.size());
    widths[1] = std::max(widths[1], row.name.size() + (row.is_root ? 5 : 0));
    widths[2] = std::max(widths[2], row.opcode.size());
    widths[3] = std::max(widths[3], std::max<size_t>(row.shape_text.size(), 1));
    widths[5] =
        std::max(widths[5], RowBytes(row, row.bytes.logical_bytes).size());
    widths[6] =
        std::max(widths[6], RowBytes(row, row.bytes.padded_bytes).size());
    widths[9] = std::max(widths[9], BufferBytes(row).size());
  }
  widths[4] = std::max<size_t>(widths[4], 5);
  for (size_t& width : widths) width = std::min(width, kMaxColumnWidth);
  out << "  ";
  for (int i = 0; i < kColumns; ++i) {
    Pad(out, kHeaders[i], widths[i], i >= 5 && i != 8);
    out << (i == kColumns - 1 ? "\n" : "  ");
  }
  for (const ReportRow& row : module.rows) {
    out << "  ";
    Pad(out, row.computation, widths[0], false);
    out << "  ";
    Pad(out,
        row.is_root ? absl::StrCat("ROOT ", row.name) : std::string(row.name),
        widths[1], false);
    out << "  ";
    Pad(out, row.opcode, widths[2], false);
    out << "  ";
    Pad(out, row.has_shape ? row.shape_text : "-", widths[3], false);
    out << "  ";
    Pad(out, SpaceKey(row.memory_space), widths[4], false);
    out << "  ";
    Pad(out, RowBytes(row, row.bytes.logical_bytes), widths[5], true);
    out << "  ";
    Pad(out, RowBytes(row, row.bytes.padded_bytes), widths[6], true);
    out << "  ";
    const bool sized = row.array_leaves > row.unsized_array_leaves;
    Pad(out, sized ? Expansion(row.bytes) : "-", widths[7], true);
    out << "  ";
    Pad(out, BufferRoleName(row.buffer), widths[8], false);
    out << "  ";
    Pad(out, BufferBytes(row), widths[9], true);
    out << "\n";
  }
}

void RenderModuleText(const ModuleReport& module, const RenderOptions& options,
                      const std::string& head, std::ostream& out) {
  const ModuleTotals& t = module.totals;
  out << "module "
      << (module.name.empty() ? "(no HloModule line)" : module.name)
      << ": entry " << module.entry_computation << ", "
      << Count(t.computations, "computation") << ", "
      << Count(t.instructions, "instruction") << "\n"
      << head;
  if (!options.summary) RenderTable(module, out);
  out << "buffers (the values the module defines, each once; aliases and "
         "fused internals not counted; not what XLA allocates): "
      << Count(t.buffer_values, "value") << "\n  logical "
      << BytesWithTotal(t.buffer_bytes.logical_bytes) << ", padded "
      << BytesWithTotal(t.buffer_bytes.padded_bytes) << ", expansion "
      << Expansion(t.buffer_bytes) << ", padding "
      << BytesWithTotal(t.buffer_bytes.wasted_bytes())
      << Overflow(t.buffer_bytes) << "\n";
  out << "all instruction results (every instruction of every computation, "
         "aliases counted again; not memory use: the base of padding and "
         "expansion): "
      << Count(t.instructions, "instruction") << " in "
      << Count(t.computations, "computation") << " ("
      << t.instructions_without_shape << " without a shape), "
      << Leaves(t.array_leaves);
  if (t.unsized_array_leaves > 0) {
    out << " (" << t.unsized_array_leaves
        << " not sized: unbounded dims or too large)";
  }
  out << "\n  logical " << BytesWithTotal(t.bytes.logical_bytes) << ", padded "
      << BytesWithTotal(t.bytes.padded_bytes) << ", expansion "
      << Expansion(t.bytes) << ", padding "
      << BytesWithTotal(t.bytes.wasted_bytes()) << Overflow(t.bytes) << "\n";
  out << "memory spaces:\n";
  if (module.memory_spaces.empty()) out << "  (no arrays)\n";
  for (const MemorySpaceTotals& s : module.memory_spaces) {
    out << "  " << MemorySpaceKey(s.memory_space) << " ("
        << MemorySpaceName(s.memory_space)
        << "): buffers: " << Count(s.buffer_values, "value") << ", logical "
        << BytesWithTotal(s.buffer_bytes.logical_bytes) << ", padded "
        << BytesWithTotal(s.buffer_bytes.padded_bytes) << ", "
        << Expansion(s.buffer_bytes) << Overflow(s.buffer_bytes)
        << "\n    all results: " << Count(s.instructions, "instruction") << ", "
        << Leaves(s.array_leaves) << ", logical "
        << BytesWithTotal(s.bytes.logical_bytes) << ", padded "
        << BytesWithTotal(s.bytes.padded_bytes) << ", " << Expansion(s.bytes)
        << Overflow(s.bytes) << "\n";
  }
  if (options.summary) return;
  if (module.wasters_note.empty()) {
    out << "top padding wasters (buffers, each once, with their other "
           "names):\n";
  } else {
    out << "top padding wasters (" << module.wasters_note << "):\n";
  }
  if (module.top_wasters.empty()) out << "  (no padding)\n";
  int rank = 0;
  for (const PaddingWaster& w : module.top_wasters) {
    RenderWasterText(w, ++rank, w.computation, out);
  }
}

}  // namespace

void RenderWasterText(const PaddingWaster& w, int rank, absl::string_view where,
                      std::ostream& out) {
  out << "  " << rank << ". " << w.BufferName() << " in " << where << ": "
      << w.shape_text;
  if (w.memory_space != 0) out << " (" << MemorySpaceKey(w.memory_space) << ")";
  out << "\n     " << BytesWithTotal(w.bytes.wasted_bytes()) << " of padding ("
      << w.bytes.logical_bytes << " -> " << w.bytes.padded_bytes << " B, "
      << Expansion(w.bytes) << ")\n";
  for (const std::string& reason : w.reasons) {
    out << "       " << reason << "\n";
  }
  if (!w.also_defined_by.empty()) {
    out << "     also defined by: " << NameList(w.also_defined_by) << "\n";
  }
  if (!w.aliases.empty()) {
    out << "     aliases: " << NameList(w.aliases) << "\n";
  }
}

void RenderWasterJson(const PaddingWaster& w, absl::string_view extra,
                      std::ostream& out) {
  std::string json;
  RecordJsonWriter writer(&json);
  EmitValue(PaddingWasterAnswerOf(w), writer);
  if (!extra.empty()) json.insert(1, absl::StrCat(extra, ", "));
  out << json;
}

std::string ModuleLeadText(const ModuleReport& module,
                           absl::string_view indent) {
  const ModuleMemoryFacts& facts = module.memory;
  if (!facts.scheduled) {
    return absl::StrCat(indent,
                        "what XLA will allocate: known for scheduled modules "
                        "only (is_scheduled=true, as XLA dumps them after "
                        "optimizations)\n");
  }
  if (facts.memory != nullptr) return XlaAllocationText(*facts.memory, indent);
  if (facts.platform == "tpu" && facts.live_ranges != nullptr) {
    return TpuAllocationText(*facts.live_ranges, indent);
  }
  return absl::StrCat(indent, "what XLA will allocate: not computed (",
                      facts.error.empty()
                          ? "the report was built without allocations"
                          : facts.error,
                      ")\n");
}

void RenderReportText(const Report& report, const RenderOptions& options,
                      std::ostream& out) {
  for (size_t i = 0; i < report.modules.size(); ++i) {
    if (i > 0) out << "\n";
    const ModuleReport& m = report.modules[i];
    std::string head = i < options.module_heads.size() ? options.module_heads[i]
                                                       : std::string();
    if (head.empty() && options.lead && m.module != nullptr) {
      head = ModuleLeadText(m, "  ");
    }
    RenderModuleText(m, options, head, out);
  }
  if (report.modules.empty()) out << "no modules\n";
  if (!report.errors.empty()) {
    out << "\n"
        << report.errors.size()
        << (report.errors.size() == 1 ? " error" : " errors")
        << " (instructions skipped)\n";
  }
}

void RenderReportJson(const Report& report, const RenderOptions& options,
                      std::ostream& out) {
  std::string json;
  RecordJsonWriter writer(&json);
  EmitValue(ReportAnswerOf(report, options.summary), writer);
  out << json << "\n";
}

}  // namespace hlolayout
