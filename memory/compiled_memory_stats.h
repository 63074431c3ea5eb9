// memory/compiled_memory_stats.h: compiled.memory_analysis() as an answer's
// record, with JAX's attribute names and one field list (util/fields.h): a
// part of `hlolayout memory`'s answer (answers/memory.h) and of a dump
// folder's table (report/dump_folder_record.h).
//
//   AnswerJson(CompiledMemoryStatsOf(buffers.stats))
//   // {"argument_size_in_bytes": 1024, "output_size_in_bytes": 512, ...}
#ifndef HLOLAYOUT_MEMORY_COMPILED_MEMORY_STATS_H_
#define HLOLAYOUT_MEMORY_COMPILED_MEMORY_STATS_H_

#include <cstdint>
#include <variant>

#include "hlolayout/memory/buffer_assignment.h"
#include "hlolayout/util/fields.h"

namespace hlolayout {

// compiled.memory_analysis() with JAX's attribute names.
struct CompiledMemoryStats {
  int64_t argument_size_in_bytes = 0;
  int64_t output_size_in_bytes = 0;
  int64_t alias_size_in_bytes = 0;
  int64_t temp_size_in_bytes = 0;
  int64_t peak_memory_in_bytes = 0;
  int64_t host_argument_size_in_bytes = 0;
  int64_t host_output_size_in_bytes = 0;
  int64_t host_alias_size_in_bytes = 0;
  int64_t host_temp_size_in_bytes = 0;
  // Not in a dump: None in Python, not in the JSON.
  std::monostate generated_code_size_in_bytes;
  std::monostate host_generated_code_size_in_bytes;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const CompiledMemoryStats& s) {
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
    f("generated_code_size_in_bytes", s.generated_code_size_in_bytes,
      "None: the size of the compiled code is not in a dump.", left_out);
    f("host_generated_code_size_in_bytes", s.host_generated_code_size_in_bytes,
      "None: the size of the compiled code is not in a dump.", left_out);
  }
};

inline CompiledMemoryStats CompiledMemoryStatsOf(const XlaMemoryStats& stats) {
  CompiledMemoryStats out;
  out.argument_size_in_bytes = stats.argument_size_in_bytes;
  out.output_size_in_bytes = stats.output_size_in_bytes;
  out.alias_size_in_bytes = stats.alias_size_in_bytes;
  out.temp_size_in_bytes = stats.temp_size_in_bytes;
  out.peak_memory_in_bytes = stats.peak_memory_in_bytes;
  out.host_argument_size_in_bytes = stats.host_argument_size_in_bytes;
  out.host_output_size_in_bytes = stats.host_output_size_in_bytes;
  out.host_alias_size_in_bytes = stats.host_alias_size_in_bytes;
  out.host_temp_size_in_bytes = stats.host_temp_size_in_bytes;
  return out;
}

}  // namespace hlolayout

#endif  // HLOLAYOUT_MEMORY_COMPILED_MEMORY_STATS_H_
