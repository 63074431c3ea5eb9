// memory/compiled_memory_stats.h: compiled.memory_analysis() as an answer's
// record, with JAX's attribute names and one field list (util/fields.h): a
// part of `hlolayout memory`'s answer (answers/memory.h) and of a dump
// folder's table (report/dump_folder_record.h).
//
//   AnswerJson(buffers.stats)
//   // {"argument_size_in_bytes": 1024, "output_size_in_bytes": 512, ...}
#ifndef HLOLAYOUT_MEMORY_COMPILED_MEMORY_STATS_H_
#define HLOLAYOUT_MEMORY_COMPILED_MEMORY_STATS_H_

#include <cstdint>
#include <variant>

#include "hlolayout/memory/buffer_assignment.h"
#include "hlolayout/util/fields.h"

namespace hlolayout {

// compiled.memory_analysis() with JAX's attribute names: XlaMemoryStats
// (memory/buffer_assignment.h), whose field list this is.
using CompiledMemoryStats = XlaMemoryStats;

template <typename Fields>
void HlolayoutFields(Fields& f, const XlaMemoryStats& s) {
  f.Type("CompiledMemoryStats",
         "compiled.memory_analysis() as XLA computes it from its buffer "
         "assignment, with JAX's attribute names (docs/memory.md).\n\n"
         "Allocations of host memory (S(5)) count in the host_ figures. The "
         "sizes of generated code are not in a dump: they are None.");
  const FieldOptions repr = FieldOptions().Repr();
  f("argument_size_in_bytes", s.argument_size_in_bytes,
    "Entry parameters' allocations (device memory).", repr);
  f("output_size_in_bytes", s.output_size_in_bytes,
    "Live-out allocations (device memory), the output tuple's index "
    "table included.",
    repr);
  f("alias_size_in_bytes", s.alias_size_in_bytes,
    "Parameter allocations the output reuses (input_output_alias).", repr);
  f("temp_size_in_bytes", s.temp_size_in_bytes,
    "Every other allocation: XLA's heap and its tuple index tables "
    "(device memory).",
    repr);
  f("peak_memory_in_bytes", s.peak_memory_in_bytes,
    "XLA's peak: the parameter, constant and output allocations' "
    "largest values, plus on GPU the most the heap holds at once.",
    repr);
  f("host_argument_size_in_bytes", s.host_argument_size_in_bytes,
    "Entry parameters' allocations in host memory (S(5)).");
  f("host_output_size_in_bytes", s.host_output_size_in_bytes,
    "Live-out allocations in host memory (S(5)).");
  f("host_alias_size_in_bytes", s.host_alias_size_in_bytes,
    "Host parameter allocations the output reuses.");
  f("host_temp_size_in_bytes", s.host_temp_size_in_bytes,
    "Temp allocations in host memory (S(5)).");
  const FieldOptions left_out = FieldOptions().Json(FieldJson::kLeftOut);
  // Not in a dump: None in Python, not in the JSON.
  f("generated_code_size_in_bytes", std::monostate(),
    "None: the size of the compiled code is not in a dump.", left_out);
  f("host_generated_code_size_in_bytes", std::monostate(),
    "None: the size of the compiled code is not in a dump.", left_out);
}

// The record of `stats` (the same value; kept for the callers' words).
inline const CompiledMemoryStats& CompiledMemoryStatsOf(
    const XlaMemoryStats& stats) {
  return stats;
}

}  // namespace hlolayout

#endif  // HLOLAYOUT_MEMORY_COMPILED_MEMORY_STATS_H_
