#include "hlolayout/answers/ttmlir_ttnn.h"

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "hlolayout/ttmlir/ttmlir_parse.h"

namespace hlolayout {
namespace {

// The layout of `tensor<SHAPE x ELEM, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1),
// <GRID>, memref<MEMREF, #ttnn.buffer_type<BUFFER>>REST>>`.
absl::StatusOr<grid::TtnnLayoutAttr> Build(const std::string& text) {
  absl::StatusOr<grid::GridTensorText> t = grid::ParseGridTensor(text);
  if (!t.ok()) return t.status();
  return grid::TtnnLayoutAttr::Build(t->shape, *t->ttnn);
}

std::string Text(absl::string_view shape, absl::string_view grid,
                 absl::string_view memref, absl::string_view buffer,
                 absl::string_view rest) {
  return absl::StrCat(
      "tensor<", shape, ", #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <", grid,
      ">, memref<", memref, ", #ttnn.buffer_type<", buffer, ">>", rest, ">>");
}

// The layout in the TTNN model's terms (tests/ttnn_two_views_test.cc makes
// TensorSpecs of it and compares every element).
TEST(TtmlirTtnnTest, TtnnSpecInputOf) {
  absl::StatusOr<grid::TtnnLayoutAttr> l =
      Build(Text("96x200xbf16", "3x1", "1x7x!ttcore.tile<32x32, bfp_bf8>", "l1",
                 ", <height_sharded>, core_ranges = <[#ttnn.core_range<(0,0), "
                 "(2,0)>]>"));
  ASSERT_TRUE(l.ok()) << l.status();
  absl::StatusOr<ttnn::TensorSpecInput> in = TtnnSpecInputOf(*l);
  ASSERT_TRUE(in.ok()) << in.status();
  EXPECT_EQ(in->dtype, ttnn::DataType::kBfloat8B);
  EXPECT_EQ(in->layout, ttnn::Layout::kTile);
  EXPECT_EQ(in->memory.layout, ttnn::TensorMemoryLayout::kHeightSharded);
  EXPECT_EQ(in->memory.buffer_type, ttnn::BufferType::kL1);
  ASSERT_TRUE(in->memory.shard_spec.has_value());
  EXPECT_EQ(in->memory.shard_spec->shape, (std::array<int64_t, 2>{32, 224}));
  EXPECT_EQ(in->memory.shard_spec->grid.ToString(), "[(0,0)-(2,0)]");

  // Row-major, interleaved in DRAM.
  l = Build(Text("64x64xui16", "1x1", "64x64xui16", "dram", ", <interleaved>"));
  ASSERT_TRUE(l.ok()) << l.status();
  in = TtnnSpecInputOf(*l);
  ASSERT_TRUE(in.ok()) << in.status();
  EXPECT_EQ(in->dtype, ttnn::DataType::kUint16);
  EXPECT_EQ(in->layout, ttnn::Layout::kRowMajor);
  EXPECT_EQ(in->memory.buffer_type, ttnn::BufferType::kDram);
  EXPECT_FALSE(in->memory.shard_spec.has_value());

  // What a TensorSpec cannot hold.
  for (const auto& [text, message] :
       std::vector<std::pair<std::string, std::string>>{
           {Text("32x32xf16", "1x1", "32x32xf16", "dram", ", <interleaved>"),
            "TTNN has no data type for f16"},
           {Text("32x32xbf16", "1x1", "32x32xbf16", "system_memory", ""),
            "a TTNN TensorSpec lives in DRAM or L1, not system_memory"},
       }) {
    l = Build(text);
    ASSERT_TRUE(l.ok()) << l.status();
    in = TtnnSpecInputOf(*l);
    ASSERT_FALSE(in.ok()) << text;
    EXPECT_EQ(in.status().message(), message);
  }
}

}  // namespace
}  // namespace hlolayout
