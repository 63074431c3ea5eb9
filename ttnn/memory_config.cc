#include "hlolayout/ttnn/memory_config.h"

#include <string>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"

namespace hlolayout::ttnn {
namespace {

// Upper-cases `name` and drops a "ttnn." and an "Enum." or "Enum::" prefix.
std::string Normalize(absl::string_view name, absl::string_view enum_name) {
  absl::ConsumePrefix(&name, "ttnn.");
  if (!absl::ConsumePrefix(&name, absl::StrCat(enum_name, "."))) {
    absl::ConsumePrefix(&name, absl::StrCat(enum_name, "::"));
  }
  return absl::AsciiStrToUpper(name);
}

}  // namespace

absl::string_view LayoutName(Layout v) {
  return v == Layout::kTile ? "TILE" : "ROW_MAJOR";
}

absl::string_view OrientationName(ShardOrientation v) {
  return v == ShardOrientation::kColMajor ? "COL_MAJOR" : "ROW_MAJOR";
}

absl::string_view DistributionName(ShardDistributionStrategy v) {
  return v == ShardDistributionStrategy::kGrid2D ? "GRID_2D" : "ROUND_ROBIN_1D";
}

absl::optional<Layout> LayoutFromName(absl::string_view name) {
  const std::string n = Normalize(name, "Layout");
  if (n == "TILE" || n == "TILE_LAYOUT") return Layout::kTile;
  if (n == "ROW_MAJOR" || n == "ROW_MAJOR_LAYOUT") return Layout::kRowMajor;
  return absl::nullopt;
}

absl::optional<TensorMemoryLayout> MemoryLayoutFromName(
    absl::string_view name) {
  const std::string n = Normalize(name, "TensorMemoryLayout");
  for (TensorMemoryLayout v : AllMemoryLayouts()) {
    if (n == MemoryLayoutName(v)) return v;
  }
  return absl::nullopt;
}

absl::optional<BufferType> BufferTypeFromName(absl::string_view name) {
  const std::string n = Normalize(name, "BufferType");
  if (n == "DRAM") return BufferType::kDram;
  if (n == "L1") return BufferType::kL1;
  return absl::nullopt;
}

absl::optional<ShardOrientation> OrientationFromName(absl::string_view name) {
  const std::string n = Normalize(name, "ShardOrientation");
  if (n == "ROW_MAJOR") return ShardOrientation::kRowMajor;
  if (n == "COL_MAJOR") return ShardOrientation::kColMajor;
  return absl::nullopt;
}

absl::optional<ShardDistributionStrategy> DistributionFromName(
    absl::string_view name) {
  const std::string n = Normalize(name, "ShardDistributionStrategy");
  if (n == "ROUND_ROBIN_1D") return ShardDistributionStrategy::kRoundRobin1D;
  if (n == "GRID_2D") return ShardDistributionStrategy::kGrid2D;
  return absl::nullopt;
}

MemoryConfig MemoryConfig::Interleaved(BufferType buffer_type) {
  MemoryConfig m;
  m.buffer_type = buffer_type;
  return m;
}

MemoryConfig MemoryConfig::Sharded(TensorMemoryLayout layout,
                                   BufferType buffer_type, ShardSpec spec) {
  MemoryConfig m;
  m.layout = layout;
  m.buffer_type = buffer_type;
  m.shard_spec = std::move(spec);
  return m;
}

MemoryConfig MemoryConfig::NdSharded(BufferType buffer_type, NdShardSpec spec) {
  MemoryConfig m;
  m.layout = TensorMemoryLayout::kNdSharded;
  m.buffer_type = buffer_type;
  m.nd_shard_spec = std::move(spec);
  m.created_with_nd_shard_spec = true;
  return m;
}

}  // namespace hlolayout::ttnn
