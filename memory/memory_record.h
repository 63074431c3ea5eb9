// memory/memory_record.h: the answer of `hlolayout memory` for one module as
// records (util/record.h): one field list per record, from which the CLI's
// --json, hl.memory()'s objects and allocations.pyi all follow.
//
//   HloModule jit_f, is_scheduled=true (...sm_9.0a_gpu_after_optimizations.txt)
//
//   absl::StatusOr<DumpModuleMemory> m = AnalyzeDumpModule(module, kGpu);
//   MemoryRecordOptions options;
//   options.top = 3;
//   std::string json;
//   RecordJsonWriter w(&json);
//   EmitModuleMemory(*m, options, w);
//   // {"module": "jit_f", "schedule_end": 31, "values": 40, ...,
//   //  "allocations": [{"index": 0, "size": 2048, "kind": "parameter", ...}]}
//
// The records: ModuleMemory (one module: its peaks, memory_analysis, heap
// and allocations; for XLA:TPU its TpuMemory), MemoryPeak, LiveValue,
// CompiledMemoryStats, HeapInfo, SizingValue, Allocation, AssignedValue,
// and memory/tpu_memory.h's TpuMemory with its parts.
//
// Preconditions: the module `m` was analysed from outlives the call.
#ifndef HLOLAYOUT_MEMORY_MEMORY_RECORD_H_
#define HLOLAYOUT_MEMORY_MEMORY_RECORD_H_

#include <cstdint>
#include <vector>

#include "hlolayout/memory/buffer_assignment.h"
#include "hlolayout/memory/dump_memory.h"
#include "hlolayout/memory/tpu_memory.h"
#include "hlolayout/util/record.h"

namespace hlolayout {

const RecordSpec& ModuleMemorySpec();
const RecordSpec& CompiledMemoryStatsSpec();

// Every record of this answer, nested ones first (the order a binding
// registers their classes in).
const std::vector<const RecordSpec*>& MemoryRecordSpecs();

struct MemoryRecordOptions {
  int64_t top = 20;    // values listed at each peak (0: all)
  int64_t space = -1;  // >= 0: only that memory space's peak
};

// Emits one ModuleMemory record; `tpu`: an XLA:TPU module's answer
// (memory/tpu_memory.h), its `tpu` field (None when null).
void EmitModuleMemory(const DumpModuleMemory& m,
                      const MemoryRecordOptions& options, RecordSink& sink,
                      const TpuMemory* tpu = nullptr);

// Emits one CompiledMemoryStats record (also a row of the dump-folder table).
void EmitCompiledMemoryStats(const XlaMemoryStats& stats, RecordSink& sink);

}  // namespace hlolayout

#endif  // HLOLAYOUT_MEMORY_MEMORY_RECORD_H_
