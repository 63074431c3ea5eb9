#include "hlolayout/grid/ttmlir_attrs.h"

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace hlolayout::grid {
namespace {

struct BufferName {
  BufferType type;
  absl::string_view name;
};
constexpr BufferName kBufferNames[] = {
    {BufferType::kDram, "dram"},
    {BufferType::kL1, "l1"},
    {BufferType::kSystemMemory, "system_memory"},
    {BufferType::kL1Small, "l1_small"},
    {BufferType::kTrace, "trace"},
};

struct LayoutName {
  TtnnMemoryLayout layout;
  absl::string_view name;
};
constexpr LayoutName kLayoutNames[] = {
    {TtnnMemoryLayout::kInterleaved, "interleaved"},
    {TtnnMemoryLayout::kHeightSharded, "height_sharded"},
    {TtnnMemoryLayout::kWidthSharded, "width_sharded"},
    {TtnnMemoryLayout::kBlockSharded, "block_sharded"},
    {TtnnMemoryLayout::kNdSharded, "nd_sharded"},
};

}  // namespace

absl::optional<BufferType> BufferTypeFromName(absl::string_view name) {
  for (const BufferName& b : kBufferNames) {
    if (b.name == name) return b.type;
  }
  return absl::nullopt;
}

absl::string_view BufferTypeName(BufferType type) {
  for (const BufferName& b : kBufferNames) {
    if (b.type == type) return b.name;
  }
  return "?";
}

bool IsL1(BufferType type) {
  return type == BufferType::kL1 || type == BufferType::kL1Small;
}

bool IsDram(BufferType type) { return type == BufferType::kDram; }

absl::optional<TtnnMemoryLayout> TtnnMemoryLayoutFromName(
    absl::string_view name) {
  for (const LayoutName& l : kLayoutNames) {
    if (l.name == name) return l.layout;
  }
  return absl::nullopt;
}

absl::string_view TtnnMemoryLayoutName(TtnnMemoryLayout layout) {
  for (const LayoutName& l : kLayoutNames) {
    if (l.layout == layout) return l.name;
  }
  return "?";
}

bool IsSharded(TtnnMemoryLayout layout) {
  return layout == TtnnMemoryLayout::kHeightSharded ||
         layout == TtnnMemoryLayout::kWidthSharded ||
         layout == TtnnMemoryLayout::kBlockSharded;
}

absl::optional<MetalMemoryLayout> MetalMemoryLayoutFromName(
    absl::string_view name) {
  if (name == "interleaved") return MetalMemoryLayout::kInterleaved;
  if (name == "sharded") return MetalMemoryLayout::kSharded;
  return absl::nullopt;
}

absl::string_view MetalMemoryLayoutName(MetalMemoryLayout layout) {
  return layout == MetalMemoryLayout::kInterleaved ? "interleaved" : "sharded";
}

absl::optional<CoreCoord> CoreOfRanges(absl::Span<const CoreRange> ranges,
                                       int64_t n) {
  if (n < 0) return absl::nullopt;
  for (const CoreRange& r : ranges) {
    const int64_t width = r.end.x - r.start.x + 1;
    const int64_t cores = r.num_cores();
    if (n < cores) {
      return CoreCoord{r.start.x + n % width, r.start.y + n / width};
    }
    n -= cores;
  }
  return absl::nullopt;
}

std::string CoreRangesToString(absl::Span<const CoreRange> ranges) {
  std::vector<std::string> parts;
  for (const CoreRange& r : ranges) {
    parts.push_back(absl::StrCat("#ttnn.core_range<(", r.start.x, ",",
                                 r.start.y, "), (", r.end.x, ",", r.end.y,
                                 ")>"));
  }
  if (parts.empty()) return "<>";
  return absl::StrCat("<[", absl::StrJoin(parts, ", "), "]>");
}

int64_t MlirElementBytes(const MlirElement& element) {
  return element.tile ? TileBytes(*element.tile)
                      : ScalarTypeBytes(element.scalar);
}

std::string MlirElementToString(const MlirElement& element) {
  if (!element.tile) return ScalarTypeName(element.scalar);
  return absl::StrCat("!ttcore.tile<", element.tile->height, "x",
                      element.tile->width, ", ",
                      TileDataTypeName(element.tile->dtype), ">");
}

absl::StatusOr<TtnnDevice> ParseTtnnDevice(absl::string_view text) {
  const absl::Status bad = absl::InvalidArgumentError(
      absl::StrCat("bad device '", text, "': expected ROWSxCOLS[,dram=N]"));
  TtnnDevice device;
  std::vector<absl::string_view> parts = absl::StrSplit(text, ',');
  std::vector<absl::string_view> dims = absl::StrSplit(parts[0], 'x');
  if (dims.size() != 2 || parts.size() > 2 ||
      !absl::SimpleAtoi(dims[0], &device.worker_rows) ||
      !absl::SimpleAtoi(dims[1], &device.worker_cols)) {
    return bad;
  }
  if (parts.size() == 2) {
    absl::string_view banks = parts[1];
    if (!absl::ConsumePrefix(&banks, "dram=") ||
        !absl::SimpleAtoi(banks, &device.dram_banks)) {
      return bad;
    }
  }
  for (int64_t v :
       {device.worker_rows, device.worker_cols, device.dram_banks}) {
    if (v < 1 || v > 1024) {
      return absl::InvalidArgumentError(absl::StrCat(
          "bad device '", text, "': sizes must be between 1 and 1024"));
    }
  }
  return device;
}

}  // namespace hlolayout::grid
