#include "hlolayout/memory/tpu_chip.h"

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/types/optional.h"

namespace hlolayout {
namespace {

constexpr int64_t kMiB = int64_t{1} << 20;
constexpr int64_t kGiB = int64_t{1} << 30;

// `hundredths` of a GiB, as XLA:TPU prints its limit ("15.75G").
constexpr int64_t HundredthsOfGiB(int64_t hundredths) {
  return hundredths * kGiB / 100;
}

// The value after `key` on a line of a protobuf text ("  version: X"), up
// to the line's end, quotes taken off; empty when no line has it.
absl::string_view ProtoTextValue(absl::string_view text,
                                 absl::string_view key) {
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find('\n', at);
    if (end == absl::string_view::npos) end = text.size();
    absl::string_view line = text.substr(at, end - at);
    at = end + 1;
    while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) {
      line.remove_prefix(1);
    }
    if (line.size() <= key.size() || line.substr(0, key.size()) != key ||
        line[key.size()] != ':') {
      continue;
    }
    line.remove_prefix(key.size() + 1);
    while (!line.empty() && line.front() == ' ') line.remove_prefix(1);
    while (!line.empty() && (line.back() == ' ' || line.back() == '\r')) {
      line.remove_suffix(1);
    }
    if (line.size() >= 2 && line.front() == '"' && line.back() == '"') {
      line = line.substr(1, line.size() - 2);
    }
    return line;
  }
  return {};
}

// The integer attribute `name=N` of the HloModule line, or `fallback`.
int64_t HeaderInt(const HloModule& module, absl::string_view name,
                  int64_t fallback) {
  for (const HloAttribute& a : module.header.attributes) {
    int64_t n = 0;
    if (a.name() == name && absl::SimpleAtoi(a.value(), &n) && n > 0) return n;
  }
  return fallback;
}

// Whether an array of `shape` is in memory space S(3); tuples nested
// deeper than 64 are not looked into.
bool InMemorySpace3(const Shape& shape, int depth) {
  if (shape.IsTuple()) {
    if (depth > 64) return false;
    for (const Shape& element : shape.tuple_shapes()) {
      if (InMemorySpace3(element, depth + 1)) return true;
    }
    return false;
  }
  return shape.IsArray() && shape.has_layout() &&
         shape.layout().memory_space() == 3;
}

}  // namespace

const std::vector<TpuChip>& TpuChips() {
  // HBM per chip: Google Cloud's pages for each generation (32, 16, 95 and
  // 32 GiB). XLA:TPU's limits: its out-of-memory message when compiling
  // for a slice of that generation (docs/xla-tpu.md, "The chip"). VMEM per
  // TensorCore: JAX's jax/_src/pallas/mosaic/tpu_info.py.
  static const auto* chips = new std::vector<TpuChip>{
      {TpuGeneration::kV4, "v4", "TPU v4", 32 * kGiB, HundredthsOfGiB(3075),
       16 * kMiB, 2},
      {TpuGeneration::kV5e, "v5e", "TPU v5 lite", 16 * kGiB,
       HundredthsOfGiB(1575), 128 * kMiB, 1},
      {TpuGeneration::kV5p, "v5p", "TPU v5", 95 * kGiB, HundredthsOfGiB(9574),
       64 * kMiB, 2},
      {TpuGeneration::kV6e, "v6e", "TPU v6 lite", 32 * kGiB,
       HundredthsOfGiB(3125), 128 * kMiB, 1},
  };
  return *chips;
}

const TpuChip& TpuChipOf(TpuGeneration generation) {
  return TpuChips()[static_cast<size_t>(generation)];
}

absl::optional<TpuGeneration> TpuGenerationNamed(absl::string_view name) {
  for (const TpuChip& chip : TpuChips()) {
    if (name == chip.name) return chip.generation;
  }
  return absl::nullopt;
}

absl::optional<TpuGeneration> TpuGenerationOfTargetArguments(
    absl::string_view text) {
  const absl::string_view version = ProtoTextValue(text, "version");
  const bool lite = ProtoTextValue(text, "variant") == "lite";
  if (version == "TPU_VERSION_PUFFERFISH" && !lite) return TpuGeneration::kV4;
  if (version == "TPU_VERSION_VIPERFISH") {
    return lite ? TpuGeneration::kV5e : TpuGeneration::kV5p;
  }
  if (version == "TPU_VERSION_GHOSTLITE") return TpuGeneration::kV6e;
  return absl::nullopt;
}

std::string XlaTpuTargetArgumentsPath(absl::string_view module_path) {
  for (absl::string_view marker :
       {".after_optimizations", ".before_optimizations"}) {
    const size_t at = module_path.rfind(marker);
    if (at != absl::string_view::npos) {
      return absl::StrCat(module_path.substr(0, at), ".target_arguments.txt");
    }
  }
  return "";
}

absl::optional<std::string> ReadXlaTpuTargetArguments(
    absl::string_view module_path) {
  const std::string path = XlaTpuTargetArgumentsPath(module_path);
  if (path.empty()) return absl::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::nullopt;
  // The file is a few hundred bytes; a larger one is not XLA:TPU's.
  constexpr std::streamsize kMost = 1 << 16;
  std::string buffer(kMost, '\0');
  in.read(&buffer[0], kMost);
  buffer.resize(static_cast<size_t>(in.gcount()));
  return buffer;
}

absl::optional<TpuGeneration> TpuGenerationOfModule(const HloModule& module) {
  for (const HloComputation& c : module.computations) {
    for (const HloInstruction& in : c.instructions) {
      if (in.shape != nullptr && InMemorySpace3(*in.shape, 0)) {
        return TpuGeneration::kV4;
      }
    }
  }
  return absl::nullopt;
}

absl::optional<TpuGeneration> TpuGenerationFor(
    const HloModule& module, absl::string_view target_arguments,
    absl::optional<TpuGeneration> requested) {
  if (!target_arguments.empty()) {
    absl::optional<TpuGeneration> named =
        TpuGenerationOfTargetArguments(target_arguments);
    if (named.has_value()) return named;
  }
  if (requested.has_value()) return requested;
  return TpuGenerationOfModule(module);
}

std::string XlaTpuMemorySpaceName(int64_t color) {
  switch (color) {
    case 0:
      return "default";
    case 1:
      return "vmem";
    case 2:
      return "smem";
    case 3:
      return "hbm";
    case 4:
      return "host";
    case 5:
      return "cmem";
    default:
      return absl::StrCat("color_", color);
  }
}

std::string TpuMemorySpaceTitle(int64_t color) {
  switch (color) {
    case 0:
      return "HBM";
    case 1:
      return "VMEM";
    case 2:
      return "SMEM";
    case 5:
      return "host memory";
    default:
      return absl::StrCat("S(", color, ")");
  }
}

int64_t ModuleDeviceCount(const HloModule& module) {
  const int64_t partitions = HeaderInt(module, "num_partitions", 1);
  const int64_t replicas = HeaderInt(module, "replica_count", 1);
  int64_t devices = 0;
  if (__builtin_mul_overflow(partitions, replicas, &devices)) return partitions;
  return devices;
}

}  // namespace hlolayout
