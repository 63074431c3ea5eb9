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

absl::optional<tenstorrent::BufferType> BufferTypeFromMlirName(
    absl::string_view name) {
  for (tenstorrent::BufferType t : tenstorrent::AllBufferTypes()) {
    if (BufferTypeMlirName(t) == name) return t;
  }
  return absl::nullopt;
}

std::string BufferTypeMlirName(tenstorrent::BufferType type) {
  return absl::AsciiStrToLower(tenstorrent::BufferTypeName(type));
}

bool IsL1(tenstorrent::BufferType type) {
  return type == tenstorrent::BufferType::kL1 ||
         type == tenstorrent::BufferType::kL1Small;
}

bool IsDram(tenstorrent::BufferType type) {
  return type == tenstorrent::BufferType::kDram;
}

absl::optional<tenstorrent::TensorMemoryLayout> MemoryLayoutFromMlirName(
    absl::string_view name) {
  for (tenstorrent::TensorMemoryLayout l : tenstorrent::AllMemoryLayouts()) {
    if (MemoryLayoutMlirName(l) == name) return l;
  }
  return absl::nullopt;
}

std::string MemoryLayoutMlirName(tenstorrent::TensorMemoryLayout layout) {
  return absl::AsciiStrToLower(tenstorrent::MemoryLayoutName(layout));
}

bool IsShardedIn2D(tenstorrent::TensorMemoryLayout layout) {
  return layout == tenstorrent::TensorMemoryLayout::kHeightSharded ||
         layout == tenstorrent::TensorMemoryLayout::kWidthSharded ||
         layout == tenstorrent::TensorMemoryLayout::kBlockSharded;
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

absl::optional<tenstorrent::CoreCoord> CoreOfRanges(
    absl::Span<const tenstorrent::CoreRange> ranges, int64_t n) {
  return tenstorrent::NthCore(ranges, /*row_wise=*/true, n);
}

std::string CoreRangesToString(
    absl::Span<const tenstorrent::CoreRange> ranges) {
  std::vector<std::string> parts;
  for (const tenstorrent::CoreRange& r : ranges) {
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
