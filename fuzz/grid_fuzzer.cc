// fuzz/grid_fuzzer.cc: tt-mlir grid layouts. The first byte picks a mode:
//   0: ParseTensorType, then the explain / shard / locate answers and a
//      print/parse round trip (second line: the locate index);
//   1: ParseAffineMap;
//   2: BuildCollapsedLayout from four tab-separated fields, then explain;
//   3: ParseIndexList and ParseCollapseIntervals.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "hlolayout/fuzz/fuzz_util.h"
#include "hlolayout/grid/explain.h"
#include "hlolayout/grid/parse.h"
#include "hlolayout/grid/print.h"

namespace hlolayout::fuzz {
namespace {

void Explain(const grid::MetalLayout& layout, absl::string_view locate,
             absl::string_view text) {
  grid::GridExplanation explanation = grid::ExplainGridLayout(layout);
  (void)grid::FormatGridExplanation(explanation);
  (void)grid::GridShardAnswer(layout);
  absl::StatusOr<std::string> located = grid::GridLocateAnswer(layout, locate);
  CheckError(located.status(), text);
  const std::string printed = grid::TensorTypeToString(layout);
  absl::StatusOr<grid::MetalLayout> again = grid::ParseTensorType(printed);
  if (!again.ok()) {
    Fail("printed tensor type does not parse", printed,
         again.status().message());
  }
  if (grid::TensorTypeToString(*again) != printed) {
    Fail("tensor type round trip", printed, grid::TensorTypeToString(*again));
  }
}

}  // namespace
}  // namespace hlolayout::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace hlolayout;
  using namespace hlolayout::fuzz;
  if (size < 1 || size > kMaxInputSize) return 0;
  absl::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0] % 4) {
    case 0: {
      std::vector<absl::string_view> parts = SplitN(text, '\t', 2);
      absl::StatusOr<grid::MetalLayout> layout =
          grid::ParseTensorType(parts[0]);
      CheckError(layout.status(), text);
      if (layout.ok()) {
        Explain(*layout, parts.size() > 1 ? parts[1] : "", text);
      }
      break;
    }
    case 1: {
      absl::StatusOr<grid::AffineMap> map = grid::ParseAffineMap(text);
      CheckError(map.status(), text);
      break;
    }
    case 2: {
      std::vector<absl::string_view> parts = SplitN(text, '\t', 5);
      parts.resize(5);
      absl::StatusOr<grid::MetalLayout> layout =
          grid::BuildCollapsedLayout(parts[0], parts[1], parts[2], parts[3]);
      CheckError(layout.status(), text);
      if (layout.ok()) {
        (void)grid::FormatCollapse(*layout, parts[2]);
        Explain(*layout, parts[4], text);
      }
      break;
    }
    case 3: {
      CheckError(grid::ParseIndexList(text).status(), text);
      CheckError(grid::ParseCollapseIntervals(text).status(), text);
      break;
    }
  }
  return 0;
}
