// memory/tpu_chip.h: the TPU generations XLA:TPU compiles for, what each
// chip holds, and how a dump says which one a module was compiled for
// (docs/xla-tpu.md, "The chip").
//
//   module_0004.jit_f.cl_933746096.target_arguments.txt  (XLA:TPU writes it
//   beside module_0004.jit_f.cl_933746096.after_optimizations.txt):
//     tpu_topology_args {
//       version: TPU_VERSION_VIPERFISH
//       variant: "lite"
//       chip_config_name: "default"
//       ...
//
//   TpuGenerationOfTargetArguments(text) == TpuGeneration::kV5e
//   TpuChipOf(TpuGeneration::kV5e).xla_hbm_limit_bytes  // 15.75 GiB
//   XlaTpuMemorySpaceName(1) == "vmem"
//
// Figures: the HBM XLA:TPU lets a program take is what its out-of-memory
// message says when compiling for the generation (libtpu 0.0.42.1); HBM and
// VMEM per chip are public specifications (each cited in docs/xla-tpu.md).
#ifndef HLOLAYOUT_MEMORY_TPU_CHIP_H_
#define HLOLAYOUT_MEMORY_TPU_CHIP_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/types/optional.h"
#include "hlolayout/hlo/module.h"

namespace hlolayout {

enum class TpuGeneration : uint8_t { kV4, kV5e, kV5p, kV6e };

struct TpuChip {
  TpuGeneration generation = TpuGeneration::kV5e;
  const char* name = "";         // "v5e"
  const char* device_kind = "";  // jax's Device.device_kind: "TPU v5 lite"
  int64_t hbm_bytes = 0;         // per chip (public specification)
  // The HBM XLA:TPU lets one program take on the chip: above it, XLA:TPU
  // refuses the program ("Ran out of memory in memory space hbm. Used
  // 15.75G of 15.75G hbm"), as printed (two decimals of a GiB).
  int64_t xla_hbm_limit_bytes = 0;
  // VMEM of one TensorCore (JAX's Pallas TPU information); v4 and v5p chips
  // have two TensorCores, v5e and v6e one.
  int64_t vmem_bytes = 0;
  int tensor_cores = 1;
};

// The four generations, in order.
const std::vector<TpuChip>& TpuChips();
const TpuChip& TpuChipOf(TpuGeneration generation);

// "v4", "v5e", "v5p", "v6e" (as `--tpu=` takes them); none for another name.
absl::optional<TpuGeneration> TpuGenerationNamed(absl::string_view name);

// The generation XLA:TPU compiled for, from the text of its
// `*.target_arguments.txt`: `tpu_topology_args`' `version` and `variant`
// (TPU_VERSION_PUFFERFISH: v4; TPU_VERSION_VIPERFISH with variant "lite":
// v5e, without: v5p; TPU_VERSION_GHOSTLITE: v6e). None for a text that
// names none of these.
absl::optional<TpuGeneration> TpuGenerationOfTargetArguments(
    absl::string_view text);

// Where XLA:TPU writes that file for the module dumped as `module_path`:
// the name up to ".after_optimizations" (or ".before_optimizations")
// followed by ".target_arguments.txt"; empty when the name has neither.
std::string XlaTpuTargetArgumentsPath(absl::string_view module_path);

// The text of that file, when it can be read.
absl::optional<std::string> ReadXlaTpuTargetArguments(
    absl::string_view module_path);

// The generation the module's own text says: v4 when a layout puts a value
// in memory space S(3) (observed: XLA:TPU puts memory-space assignment's
// values there on v4 only; v5e, v5p and v6e use S(1)). None otherwise.
absl::optional<TpuGeneration> TpuGenerationOfModule(const HloModule& module);

// The generation XLA:TPU compiled `module` for, as far as anything says:
// the one `target_arguments` (the text of its target_arguments file; may
// be empty) names, else `requested` (--tpu), else TpuGenerationOfModule's;
// none when nothing says. (memory/tpu_memory.h's answer decides the same
// way, and refuses a `requested` that the file contradicts.)
absl::optional<TpuGeneration> TpuGenerationFor(
    const HloModule& module, absl::string_view target_arguments,
    absl::optional<TpuGeneration> requested);

// XLA:TPU's name of memory space (color) `color` in its
// -memory-usage-report.txt: "default" (0), "vmem" (1), "smem" (2), "hbm"
// (3), "host" (4), "cmem" (5), else "color_N" (the same on the four
// generations).
std::string XlaTpuMemorySpaceName(int64_t color);

// What the memory space is, for people: "HBM" (0), "VMEM" (1), "SMEM" (2),
// "host memory" (5, jax's pinned_host), else "S(n)".
std::string TpuMemorySpaceTitle(int64_t color);

// The devices one run of the module spans: num_partitions times
// replica_count from the HloModule line (1 when absent).
int64_t ModuleDeviceCount(const HloModule& module);

}  // namespace hlolayout

#endif  // HLOLAYOUT_MEMORY_TPU_CHIP_H_
