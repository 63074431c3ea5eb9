// Guards against cost that grows faster than the text with the number of
// tile levels. `f32[16]{0:T(2)(2)...}` with 1000 levels (3 KB of text) once
// took 14.7 GB and 47 s: every level stored nested labels of all its dims.
// Labels are now built on demand, and past kMaxTilingModelDims the model
// is refused at once with a message.
#include <sys/resource.h>

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "hlolayout/index_util/tiled_indexer.h"
#include "hlolayout/layout/reference_index.h"
#include "hlolayout/layout/sizes.h"
#include "hlolayout/layout/tiling.h"
#include "hlolayout/parser/shape_parser.h"
#include "hlolayout/shape/printer.h"

namespace hlolayout {
namespace {

std::string ManyLevels(const char* tile, int levels) {
  std::string text = "f32[16]{0:T";
  for (int i = 0; i < levels; ++i) text += tile;
  return text + "}";
}

int64_t PeakRssMegabytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss / 1024;  // kilobytes on Linux
}

TEST(TileLevelsLinear, ThousandLevelsAnswerInBoundedMemory) {
  const std::string text = ManyLevels("(2)", 1000);
  absl::StatusOr<Shape> shape = ParseShape(text);
  ASSERT_TRUE(shape.ok()) << shape.status();
  EXPECT_EQ(HumanStringWithLayout(*shape), text);

  absl::StatusOr<TilingModel> model = BuildTilingModel(*shape);
  ASSERT_TRUE(model.ok()) << model.status();
  EXPECT_EQ(model->levels.size(), 1000u);
  EXPECT_EQ(model->tiled_elements, 16);

  absl::StatusOr<TiledIndexer> indexer = TiledIndexer::Create(*model);
  ASSERT_TRUE(indexer.ok()) << indexer.status();
  for (int64_t i = 0; i < 16; ++i) {
    const std::vector<int64_t> index = {i};
    EXPECT_EQ(*indexer->TryOffsetInElements(index), i);  // T(2)(2)... keeps the order
    EXPECT_EQ(*ReferenceOffset(*model, index), i);
  }
  absl::StatusOr<ArraySizes> sizes = ComputeArraySizes(*shape);
  ASSERT_TRUE(sizes.ok()) << sizes.status();
  EXPECT_EQ(sizes->padded_bytes, 64);

  // The deepest label is short: the middle levels are counted, not listed.
  const int64_t last = static_cast<int64_t>(model->final_dims.size()) - 1;
  const std::string label = OutputDimLabel(*model, 999, last);
  EXPECT_LT(label.size(), 200u) << label;
  EXPECT_TRUE(absl::StartsWith(label, "dim 0 ")) << label;
  EXPECT_NE(label.find("more tile levels"), std::string::npos) << label;
  EXPECT_NE(label.find("(T999)"), std::string::npos) << label;

  // Was 14.7 GB; about 60 MB now (more under sanitizers).
  EXPECT_LT(PeakRssMegabytes(), 1024);
}

TEST(TileLevelsLinear, TenThousandLevelsAreRefusedAtOnce) {
  const std::string text = ManyLevels("(2)", 10000);
  absl::StatusOr<Shape> shape = ParseShape(text);  // parsing is linear
  ASSERT_TRUE(shape.ok()) << shape.status();
  EXPECT_EQ(HumanStringWithLayout(*shape).size(), text.size());
  absl::StatusOr<TilingModel> model = BuildTilingModel(*shape);
  ASSERT_FALSE(model.ok());
  EXPECT_TRUE(
      absl::StrContains(model.status().message(), "tiled layout too large"))
      << model.status();
  EXPECT_FALSE(TiledIndexer::Create(*shape).ok());
  EXPECT_FALSE(ComputeArraySizes(*shape).ok());
  EXPECT_LT(PeakRssMegabytes(), 1024);
}

// Padding at every level names the dim with a bounded label too.
TEST(TileLevelsLinear, PaddingReasonsStayShort) {
  absl::StatusOr<Shape> shape = ParseShape(ManyLevels("(2)(3)", 30));
  ASSERT_TRUE(shape.ok()) << shape.status();
  absl::StatusOr<std::vector<TilePadding>> padding = ExplainTilePadding(*shape);
  ASSERT_TRUE(padding.ok()) << padding.status();
  EXPECT_EQ(padding->size(), 59u);  // every level but the first
  for (const TilePadding& pad : *padding) {
    EXPECT_LT(pad.reason.size(), 200u) << pad.reason;
  }
}

}  // namespace
}  // namespace hlolayout
