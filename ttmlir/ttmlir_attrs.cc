#include "hlolayout/ttmlir/ttmlir_attrs.h"

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace hlolayout::grid {

absl::optional<ttnn::BufferType> BufferTypeFromMlirName(
    absl::string_view name) {
  for (ttnn::BufferType t : ttnn::AllBufferTypes()) {
    if (BufferTypeMlirName(t) == name) return t;
  }
  return absl::nullopt;
}

std::string BufferTypeMlirName(ttnn::BufferType type) {
  return absl::AsciiStrToLower(ttnn::BufferTypeName(type));
}

bool IsL1(ttnn::BufferType type) {
  return type == ttnn::BufferType::kL1 || type == ttnn::BufferType::kL1Small;
}

bool IsDram(ttnn::BufferType type) { return type == ttnn::BufferType::kDram; }

absl::optional<ttnn::TensorMemoryLayout> MemoryLayoutFromMlirName(
    absl::string_view name) {
  for (ttnn::TensorMemoryLayout l : ttnn::AllMemoryLayouts()) {
    if (MemoryLayoutMlirName(l) == name) return l;
  }
  return absl::nullopt;
}

std::string MemoryLayoutMlirName(ttnn::TensorMemoryLayout layout) {
  return absl::AsciiStrToLower(ttnn::MemoryLayoutName(layout));
}

bool IsShardedIn2D(ttnn::TensorMemoryLayout layout) {
  return layout == ttnn::TensorMemoryLayout::kHeightSharded ||
         layout == ttnn::TensorMemoryLayout::kWidthSharded ||
         layout == ttnn::TensorMemoryLayout::kBlockSharded;
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

absl::optional<ttnn::CoreCoord> CoreOfRanges(
    absl::Span<const ttnn::CoreRange> ranges, int64_t n) {
  return ttnn::NthCore(ranges, /*row_wise=*/true, n);
}

std::string CoreRangesToString(absl::Span<const ttnn::CoreRange> ranges) {
  std::vector<std::string> parts;
  for (const ttnn::CoreRange& r : ranges) {
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
