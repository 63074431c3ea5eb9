// memory/buffer_assignment.h: what XLA will allocate for a scheduled module:
// its buffer assignment (the allocations, and each value's place in them)
// and the figures of `compiled.memory_analysis()`, reproduced from the dump
// (docs/memory.md, "What XLA allocates").
//
//   absl::StatusOr<ModuleMemory> m = AnalyzeModuleMemory(module, {});
//   m->buffers.stats.temp_size_in_bytes;   // XLA's temp allocation
//   m->buffers.stats.peak_memory_in_bytes; // memory_analysis() peak
//   for (const BufferAllocation& a : m->buffers.allocations) ...
//   XlaBufferAssignmentText(m->buffers);   // views/buffer_assignment_text.h
//
// XLA gives entry parameters, constants and live-out buffers allocations
// of their own, every value of a reducer, comparator or other thread-local
// computation one each, tuple index tables one each, and packs every other
// value into one temp allocation with its heap simulator (best fit,
// alignment 256 bytes on GPU and 64 on CPU); values that must share
// storage (through while loops, conditionals, in-place updates and
// input_output_alias) share one place. docs/memory.md states every rule
// and which ones are inferred from XLA's own dumps rather than read in its
// sources.
//
// Preconditions: the MemoryAnalysis was made with keep_dataflow from the
// same module (AnalyzeModuleMemory does both).
#ifndef HLOLAYOUT_MEMORY_BUFFER_ASSIGNMENT_H_
#define HLOLAYOUT_MEMORY_BUFFER_ASSIGNMENT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/optional.h"
#include "hlolayout/hlo/module.h"
#include "hlolayout/memory/live_range.h"
#include "hlolayout/memory/tpu_chip.h"
#include "hlolayout/shape/shape.h"

namespace hlolayout {

// The XLA backend whose buffer-assignment rules apply: the one platform
// enum of the library (DumpPlatform in memory/dump_memory.h is this one).
enum class XlaPlatform : uint8_t { kGpu, kCpu, kTpu };

// "gpu", "cpu" or "tpu".
absl::string_view XlaPlatformName(XlaPlatform platform);
// "XLA:GPU", "XLA:CPU" or "XLA:TPU".
absl::string_view XlaPlatformTitle(XlaPlatform platform);

// TPU when the module looks like one XLA:TPU compiled (LooksLikeXlaTpu);
// GPU when the file name says so (`sm_` as in "sm_9.0a_gpu", or "gpu") or
// the module uses what only XLA:GPU writes (GPU backend configs,
// cuBLAS/cuDNN/Triton custom calls); CPU when the file name or what only
// XLA:CPU writes says so; GPU when nothing says anything.
XlaPlatform DetectXlaPlatform(const HloModule& module,
                              absl::string_view file_name);

// True when the module looks like one XLA compiled for TPU: "tpu" in the
// file name, or a tiled layout (`T(8,128)`) on an instruction's result
// (XLA:GPU and XLA:CPU write no tiles).
bool LooksLikeXlaTpu(const HloModule& module, absl::string_view file_name);

// XLA's allocation alignment: 256 bytes on GPU, 64 on CPU; on TPU it
// depends on the memory space (docs/xla-tpu.md).
int64_t XlaAlignment(XlaPlatform platform, int64_t memory_space = 0);

struct BufferAssignmentOptions {
  // Whose rules apply. Unset: DetectXlaPlatform(module, "") decides (an
  // XLA:TPU module gets XLA:TPU's rules, never GPU's), and
  // BufferAssignment::platform says which it was.
  absl::optional<XlaPlatform> platform;
  // XLA:CPU: the names of the module's computations in the order XLA
  // created them (HloModule::computations() of the compiled module), each
  // once. The text does not hold that order; given, value ids follow from
  // it exactly; empty, it is guessed from the names (docs/memory.md,
  // "Value ids").
  std::vector<std::string> xla_creation_order;
  // MemoryAnalysisOptions::threads, for the live ranges the assignment
  // starts from (the answers do not depend on it).
  int threads = 1;
  // XLA:TPU: the generation the module was compiled for (TpuGenerationFor),
  // which sizes tuple index tables (docs/xla-tpu.md). Unset: v4's and
  // v5e's sizes, and BufferAssignment::tpu_tables_guessed says where that
  // decided a size.
  absl::optional<TpuGeneration> tpu_generation;
};

// A value placed in an allocation.
struct AssignedValue {
  int64_t id = 0;          // XLA's HloValue id (printed as <id name ...>)
  int64_t value = -1;      // MemoryAnalysis::values index; -1 for values of
                           // thread-local computations
  absl::string_view name;  // the defining instruction (into the module text)
  std::vector<int64_t> index;
  bool index_printed = false;  // the defining instruction's shape is a tuple
  bool is_phi = false;
  const Shape* shape = nullptr;  // the value's subshape
  int64_t offset = 0;            // in the allocation
  int64_t size = 0;              // its slot there
  int64_t bytes = 0;             // the value's own size
  int64_t start = -1, end = -1;  // live range (schedule times); -1: none

  bool operator==(const AssignedValue& o) const {
    return id == o.id && value == o.value && name == o.name &&
           index == o.index && index_printed == o.index_printed &&
           is_phi == o.is_phi && offset == o.offset && size == o.size &&
           bytes == o.bytes && start == o.start && end == o.end;
  }
};

struct BufferAllocation {
  int64_t index = 0;
  int64_t size = 0;
  int64_t color = 0;
  bool is_parameter = false;
  int64_t parameter_number = -1;
  std::vector<int64_t> parameter_index;
  const Shape* parameter_shape = nullptr;  // the whole parameter's shape
  bool parameter_aliased = false;          // named by input_output_alias
  bool is_constant = false;
  bool is_thread_local = false;
  bool is_tuple = false;
  bool maybe_live_out = false;
  // The entry root's shape, when a value of this allocation is the entry
  // root's whole result.
  const Shape* output_shape = nullptr;
  std::vector<AssignedValue> values;  // by id

  // XLA's IsPreallocatedTempBuffer: not a parameter, live-out, constant or
  // thread-local.
  bool is_temp() const {
    return !is_parameter && !maybe_live_out && !is_constant && !is_thread_local;
  }
  // What it holds, in one word: "parameter", "constant", "thread-local",
  // "output" (live out, not a parameter) or "temp".
  const char* kind() const {
    return is_parameter      ? "parameter"
           : is_constant     ? "constant"
           : is_thread_local ? "thread-local"
           : maybe_live_out  ? "output"
                             : "temp";
  }
  bool operator==(const BufferAllocation& o) const {
    return index == o.index && size == o.size && color == o.color &&
           is_parameter == o.is_parameter &&
           parameter_number == o.parameter_number &&
           parameter_index == o.parameter_index &&
           parameter_aliased == o.parameter_aliased &&
           is_constant == o.is_constant &&
           is_thread_local == o.is_thread_local && is_tuple == o.is_tuple &&
           maybe_live_out == o.maybe_live_out && values == o.values;
  }
};

// compiled.memory_analysis() (XLA's CompiledMemoryStats, as
// PopulateBufferStatsFromAllocations sums the allocations): allocations of
// host memory (memory space 5, S(5)) count in the host_ figures, all others
// in the device ones. The sizes of generated code are not in a dump and are
// not modelled.
struct XlaMemoryStats {
  static constexpr int64_t kHostMemorySpace = 5;

  int64_t argument_size_in_bytes = 0;
  int64_t output_size_in_bytes = 0;
  int64_t alias_size_in_bytes = 0;
  int64_t temp_size_in_bytes = 0;
  int64_t peak_memory_in_bytes = 0;
  int64_t host_argument_size_in_bytes = 0;
  int64_t host_output_size_in_bytes = 0;
  int64_t host_alias_size_in_bytes = 0;
  int64_t host_temp_size_in_bytes = 0;

  // What XLA allocates in device memory for a run: arguments + temp +
  // outputs - aliases.
  int64_t allocated_bytes() const {
    return argument_size_in_bytes + temp_size_in_bytes + output_size_in_bytes -
           alias_size_in_bytes;
  }
  bool operator==(const XlaMemoryStats& o) const {
    return argument_size_in_bytes == o.argument_size_in_bytes &&
           output_size_in_bytes == o.output_size_in_bytes &&
           alias_size_in_bytes == o.alias_size_in_bytes &&
           temp_size_in_bytes == o.temp_size_in_bytes &&
           peak_memory_in_bytes == o.peak_memory_in_bytes &&
           host_argument_size_in_bytes == o.host_argument_size_in_bytes &&
           host_output_size_in_bytes == o.host_output_size_in_bytes &&
           host_alias_size_in_bytes == o.host_alias_size_in_bytes &&
           host_temp_size_in_bytes == o.host_temp_size_in_bytes;
  }
};

// One value of XLA's heap (the temp allocation before tuple tables are
// appended to it): its place in memory and in time, for pictures.
struct HeapBlock {
  int64_t value = 0;  // MemoryAnalysis::values index
  int64_t offset = 0, size = 0;
  int64_t start = 0, end = 0;  // live range (schedule times)
};

struct BufferAssignment {
  XlaPlatform platform = XlaPlatform::kGpu;
  int64_t alignment = 256;
  std::vector<BufferAllocation> allocations;
  XlaMemoryStats stats;
  // The heap simulation: its size, where the temp allocation holds it,
  // its blocks, and the most heap bytes in use at once (the part of the
  // peak that memory_analysis() adds on GPU).
  int64_t heap_size = 0;
  int64_t heap_offset = 0;
  int64_t heap_peak = 0;
  std::vector<HeapBlock> heap;
  // What sets heap_peak: the schedule time at which the heap first holds it
  // (-1 without a heap) and the blocks (indices into `heap`, increasing)
  // in the heap then. Blocks sharing one place (an in-place update, a
  // loop's state) are all listed; their place counts once.
  int64_t heap_peak_time = -1;
  std::vector<int64_t> heap_peak_blocks;
  // The bytes of what is always allocated: each parameter, constant and
  // live-out allocation's largest value.
  int64_t static_bytes = 0;
  // XLA:TPU: BufferAssignmentOptions::tpu_generation, and whether a tuple
  // index table was sized without it (v4's and v5e's size taken).
  absl::optional<TpuGeneration> tpu_generation;
  bool tpu_tables_guessed = false;

  // The allocation holding the temp buffers, -1 when there is none.
  int64_t temp_allocation() const;
};

// XLA's buffer assignment of the module `analysis` was made from.
absl::StatusOr<BufferAssignment> AssignBuffers(
    const HloModule& module, const MemoryAnalysis& analysis,
    const BufferAssignmentOptions& options);

// Everything `hlolayout memory` reports on one module.
struct ModuleMemory {
  MemoryAnalysis live_ranges;
  BufferAssignment buffers;
};

// The live ranges (AnalyzeMemory, with keep_dataflow) and the buffer
// assignment of one module read by ReadHloModules.
absl::StatusOr<ModuleMemory> AnalyzeModuleMemory(
    const HloModule& module, const BufferAssignmentOptions& options);

// The values of the live ranges (MemoryAnalysis::values indices) that the
// assignment places, by XLA's HloValue id: the order of XLA's
// `BufferLiveRange:` lines (XlaLiveRangeText's value_order,
// views/live_range_text.h).
std::vector<int64_t> ValuesByXlaId(const BufferAssignment& assignment);

}  // namespace hlolayout

#endif  // HLOLAYOUT_MEMORY_BUFFER_ASSIGNMENT_H_
