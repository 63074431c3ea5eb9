// fuzz/grid_fuzzer.cc: tt-mlir grid layouts. The first byte picks a mode:
//   0: ParseTensorType, then the explain and locate texts and a
//      print/parse round trip (second line: the locate index);
//   1: ParseAffineMap;
//   2: BuildCollapsedLayout from four tab-separated fields, then explain;
//   3: ParseIndexList and ParseCollapseIntervals;
//   4: ParseGridTensor (TTNN, reworked metal, seed; aliases), the builder's
//      analysis, explain texts, the picture, locate (second line: the
//      index), and the builder's own text read back to the same layout;
//   5: ScanMlirFile, then the analysis of every type found.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "hlolayout/fuzz/fuzz_util.h"
#include "hlolayout/ttmlir/explain.h"
#include "hlolayout/ttmlir/print.h"
#include "hlolayout/ttmlir/ttmlir_explain.h"
#include "hlolayout/ttmlir/ttmlir_parse.h"
#include "hlolayout/views/ttmlir_picture.h"
#include "hlolayout/views/ttmlir_text.h"

namespace hlolayout::fuzz {
namespace {

void Explain(const grid::MetalLayout& layout, absl::string_view locate,
             absl::string_view text) {
  grid::GridExplanation explanation = grid::ExplainGridLayout(layout);
  (void)grid::FormatGridExplanation(explanation);
  absl::StatusOr<std::vector<int64_t>> index = grid::ParseIndexList(locate);
  CheckError(index.status(), text);
  if (index.ok()) {
    absl::StatusOr<grid::ElementLocation> loc = layout.TryLocate(*index);
    CheckError(loc.status(), text);
    if (loc.ok()) (void)grid::FormatElementLocation(layout, *index, *loc);
  }
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

// The analysis of a current-form layout: texts, picture, locate, and the
// builder's text read back to the same layout.
void Analyze(const grid::GridAnalysis& a, absl::string_view locate,
             absl::string_view text) {
  absl::StatusOr<std::vector<int64_t>> index = grid::ParseIndexList(locate);
  if (a.ttnn) {
    const grid::TtnnLayoutAttr& l = *a.ttnn;
    (void)grid::FormatTtnnExplanation(a);
    if (l.num_shards() <= 4096) {
      CheckError(draw::TtnnLayoutGrid(l, true).status(), text);
    }
    if (index.ok()) {
      absl::StatusOr<grid::TtnnAttrLocation> loc = l.Locate(*index);
      CheckError(loc.status(), text);
      if (loc.ok()) (void)grid::FormatTtnnLocation(l, *index, *loc);
    }
    const std::string printed = l.TensorText(a.text.element);
    absl::StatusOr<grid::GridAnalysis> again = grid::AnalyzeGridText(printed);
    if (!again.ok()) {
      Fail("the builder's text is refused", printed, again.status().message());
    }
    if (!again->ttnn || again->ttnn->LayoutText() != l.LayoutText()) {
      Fail("the builder's text builds another layout", printed,
           again->ttnn ? again->ttnn->LayoutText() : "");
    }
  } else if (a.metal) {
    const grid::TtcoreMetalLayout& l = *a.metal;
    (void)grid::FormatMetalExplanation(a);
    CheckError(draw::MetalHeadLayoutGrid(l, true).status(), text);
    if (index.ok()) {
      absl::StatusOr<grid::MetalLocation> loc = l.Locate(*index);
      CheckError(loc.status(), text);
      if (loc.ok()) {
        (void)grid::FormatMetalLocation(l, *index, *loc);
        if (l.LogicalAt(loc->physical) != *index) {
          Fail("physical coordinate does not map back", text, locate);
        }
      }
    }
    const std::string printed = l.TensorText();
    absl::StatusOr<grid::GridAnalysis> again = grid::AnalyzeGridText(printed);
    if (!again.ok()) {
      Fail("the builder's text is refused", printed, again.status().message());
    }
    if (!again->metal || again->metal->device_shape() != l.device_shape()) {
      Fail("the builder's text builds another layout", printed, "");
    }
  }
}

}  // namespace
}  // namespace hlolayout::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace hlolayout;
  using namespace hlolayout::fuzz;
  if (size < 1 || size > kMaxInputSize) return 0;
  absl::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0] % 6) {
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
    case 4: {
      // The index follows the last tab (tensor texts may hold newlines).
      const size_t tab = text.rfind('\t');
      const absl::string_view type =
          tab == absl::string_view::npos ? text : text.substr(0, tab);
      const absl::string_view index =
          tab == absl::string_view::npos ? "" : text.substr(tab + 1);
      absl::StatusOr<grid::GridAnalysis> a = grid::AnalyzeGridText(type);
      CheckError(a.status(), text);
      if (a.ok()) Analyze(*a, index, text);
      break;
    }
    case 5: {
      absl::StatusOr<grid::MlirFileScan> scan = grid::ScanMlirFile(text);
      CheckError(scan.status(), text);
      if (!scan.ok()) break;
      for (const grid::MlirFileType& t : scan->types) {
        CheckError(t.parsed.status(), text);
        if (!t.parsed.ok()) continue;
        absl::StatusOr<grid::GridAnalysis> a =
            grid::AnalyzeGridTensor(*t.parsed);
        CheckError(a.status(), text);
        if (a.ok()) Analyze(*a, "0,0", text);
      }
      break;
    }
  }
  return 0;
}
