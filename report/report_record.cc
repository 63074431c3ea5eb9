#include "hlolayout/report/report_record.h"

#include <string>
#include <utility>
#include <vector>

#include "hlolayout/layout/memory_space.h"
#include "hlolayout/report/report.h"
#include "hlolayout/util/fields.h"
#include "hlolayout/util/record.h"

namespace hlolayout {
namespace {

report_answer::LeafBytes LeafBytesOf(const ByteCounts& b) {
  return {b.logical_bytes, b.padded_bytes, b.wasted_bytes(), b.expansion(),
          b.overflow};
}

report_answer::BufferBytes BufferBytesOf(const ByteCounts& b) {
  return {b.logical_bytes, b.padded_bytes, b.wasted_bytes(), b.overflow};
}

report_answer::ModuleTotals TotalsOf(const ModuleTotals& t) {
  report_answer::ModuleTotals a;
  a.computations = t.computations;
  a.instructions = t.instructions;
  a.instructions_without_shape = t.instructions_without_shape;
  a.buffer_values = t.buffer_values;
  a.buffer_bytes = BufferBytesOf(t.buffer_bytes);
  a.array_leaves = t.array_leaves;
  a.unsized_array_leaves = t.unsized_array_leaves;
  a.bytes = LeafBytesOf(t.bytes);
  return a;
}

report_answer::MemorySpaceTotals SpaceOf(const MemorySpaceTotals& t) {
  report_answer::MemorySpaceTotals a;
  a.memory_space = t.memory_space;
  a.key = std::string(MemorySpaceKey(t.memory_space));
  a.name = std::string(MemorySpaceName(t.memory_space));
  a.buffer_values = t.buffer_values;
  a.buffer_bytes = BufferBytesOf(t.buffer_bytes);
  a.instructions = t.instructions;
  a.array_leaves = t.array_leaves;
  a.bytes = LeafBytesOf(t.bytes);
  return a;
}

report_answer::ReportRow RowOf(const ReportRow& r) {
  report_answer::ReportRow a;
  a.computation = std::string(r.computation);
  a.instruction = std::string(r.name);
  a.opcode = std::string(r.opcode);
  a.root = r.is_root;
  if (r.has_shape) a.shape = std::string(r.shape_text);
  if (r.memory_space == ReportRow::kMixedMemorySpaces) {
    a.memory_space = "mixed";
  } else if (r.memory_space != ReportRow::kNoMemorySpace) {
    a.memory_space = std::string(MemorySpaceKey(r.memory_space));
  }
  a.array_leaves = r.array_leaves;
  a.unsized_array_leaves = r.unsized_array_leaves;
  a.bytes = LeafBytesOf(r.bytes);
  a.buffer = BufferRoleName(r.buffer);
  a.buffer_bytes = BufferBytesOf(r.buffer_bytes);
  return a;
}

report_answer::ModuleReport ModuleOf(const ModuleReport& m, bool summary) {
  report_answer::ModuleReport a;
  a.name = std::string(m.name);
  a.entry_computation = std::string(m.entry_computation);
  a.totals = TotalsOf(m.totals);
  for (const MemorySpaceTotals& t : m.memory_spaces) {
    a.memory_spaces.push_back(SpaceOf(t));
  }
  if (summary) return a;
  if (!m.wasters_note.empty()) a.padding_wasters_note = m.wasters_note;
  a.top_padding_wasters.emplace();
  for (const PaddingWaster& w : m.top_wasters) {
    a.top_padding_wasters->push_back(PaddingWasterAnswerOf(w));
  }
  a.instructions.emplace();
  a.instructions->reserve(m.rows.size());
  for (const ReportRow& r : m.rows) a.instructions->push_back(RowOf(r));
  return a;
}

}  // namespace

report_answer::PaddingWaster PaddingWasterAnswerOf(const PaddingWaster& w) {
  report_answer::PaddingWaster a;
  a.computation = w.computation;
  a.instruction = w.name;
  a.index = w.index;
  a.shape = w.shape_text;
  a.memory_space = std::string(MemorySpaceKey(w.memory_space));
  a.array_leaf_logical_bytes = w.bytes.logical_bytes;
  a.array_leaf_padded_bytes = w.bytes.padded_bytes;
  a.padding_bytes = w.bytes.wasted_bytes();
  a.expansion = w.bytes.expansion();
  a.overflow = w.bytes.overflow;
  a.reasons = w.reasons;
  a.also_defined_by = w.also_defined_by;
  a.aliases = w.aliases;
  return a;
}

report_answer::Report ReportAnswerOf(const Report& report, bool summary) {
  report_answer::Report a;
  a.modules.reserve(report.modules.size());
  for (const ModuleReport& m : report.modules) {
    a.modules.push_back(ModuleOf(m, summary));
  }
  a.errors = report.errors;
  return a;
}

}  // namespace hlolayout
