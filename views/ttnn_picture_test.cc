// Pictures of TTNN specs (issue 47 item 1): any tensor draws, the cores
// with their bytes, the tensor in shards when its pages are too many, one
// core's pages on request.
#include "hlolayout/views/ttnn_picture.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"

namespace hlolayout::draw {
namespace {

ttnn::TensorSpec Sharded(std::vector<int64_t> shape,
                         ttnn::TensorMemoryLayout layout, int64_t x, int64_t y,
                         std::array<int64_t, 2> shard) {
  ttnn::TensorSpecInput in;
  in.shape = std::move(shape);
  in.memory = ttnn::MemoryConfig::Sharded(
      layout, ttnn::BufferType::kL1,
      {*ttnn::CoreRangeSet::Make({{{0, 0}, {x - 1, y - 1}}}), shard,
       ttnn::ShardOrientation::kRowMajor});
  absl::StatusOr<ttnn::TensorSpec> s = ttnn::TensorSpec::Make(in);
  EXPECT_TRUE(s.ok()) << s.status().message();
  return *s;
}

// ND sharding of a tensor without elements over no cores (tt-metal takes
// it): a picture of nothing, not an error (found by fuzz/ttnn_fuzzer.cc).
TEST(TtnnPictureTest, NoCoresForNoPages) {
  ttnn::TensorSpecInput in;
  in.shape = {0, 47, 108};
  in.layout = ttnn::Layout::kRowMajor;
  in.memory = ttnn::MemoryConfig::NdSharded(
      ttnn::BufferType::kL1, {{1, 13, 24}, ttnn::CoreRangeSet()});
  absl::StatusOr<ttnn::TensorSpec> s = ttnn::TensorSpec::Make(in);
  ASSERT_TRUE(s.ok()) << s.status().message();
  absl::StatusOr<std::vector<CellGrid>> p = TtnnPicture(*s, absl::nullopt);
  ASSERT_TRUE(p.ok()) << p.status().message();
  ASSERT_FALSE(p->empty());
  EXPECT_EQ((*p)[0].heading, "0 shards on no cores");
  EXPECT_EQ((*p)[0].rows * (*p)[0].cols, 0);
  EXPECT_NE(GridsToSvg(*p, "empty"), "");
  EXPECT_NE(GridsToText(*p, TextStyle{}), "");
}

// A shard of 2^62 bytes on one core (a spec tt-metal describes; the device
// check only warns): the core's label says 4294967296G. Scaling it by ten
// overflowed and labelled it "1844674406511961702.4G".
TEST(TtnnPictureTest, TheBytesOfAHugeShardAreLabelledExactly) {
  ttnn::TensorSpecInput in;
  in.shape = {int64_t{1} << 31, int64_t{1} << 31};
  in.dtype = ttnn::DataType::kUint8;
  in.layout = ttnn::Layout::kRowMajor;
  in.memory = ttnn::MemoryConfig::Sharded(
      ttnn::TensorMemoryLayout::kHeightSharded, ttnn::BufferType::kDram,
      {*ttnn::CoreRangeSet::Make({{{0, 0}, {0, 0}}}),
       {int64_t{1} << 31, int64_t{1} << 31},
       ttnn::ShardOrientation::kRowMajor});
  absl::StatusOr<ttnn::TensorSpec> s = ttnn::TensorSpec::Make(in);
  ASSERT_TRUE(s.ok()) << s.status().message();
  absl::StatusOr<CellGrid> cores = TtnnCoresGrid(*s);
  ASSERT_TRUE(cores.ok()) << cores.status().message();
  ASSERT_EQ(cores->cells.size(), 1u);
  EXPECT_EQ(cores->cells[0].label, "0 4294967296G");
}

// 61 million shards on 16 cores: each core lists its first shards and
// shows the bytes allocated to all of them (counting pages shard by shard
// took seconds; found by fuzz/ttnn_fuzzer.cc).
TEST(TtnnPictureTest, ManyShardsAreSummedNotWalked) {
  ttnn::TensorSpecInput in;
  in.shape = {1, 47, 32, 366666662};
  in.dtype = ttnn::DataType::kFloat32;
  in.layout = ttnn::Layout::kRowMajor;
  in.memory = ttnn::MemoryConfig::NdSharded(
      ttnn::BufferType::kL1,
      {{2, 31, 24}, *ttnn::CoreRangeSet::Make({{{0, 0}, {3, 3}}})});
  absl::StatusOr<ttnn::TensorSpec> s = ttnn::TensorSpec::Make(in);
  ASSERT_TRUE(s.ok()) << s.status().message();
  const int64_t shards = s->distribution()->num_shards();
  ASSERT_GT(shards, int64_t{1} << 20);
  absl::StatusOr<CellGrid> cores = TtnnCoresGrid(*s);
  ASSERT_TRUE(cores.ok()) << cores.status().message();
  ASSERT_EQ(cores->cells.size(), 16u);
  EXPECT_EQ(cores->notes.back(),
            "more than 1048576 shards: each core's bytes are those allocated "
            "to its shards, not counted page by page");
  const GridCell& first = cores->cells[0];
  EXPECT_EQ(first.label.substr(0, 8), "0,16,.. ");
  const int64_t on_core = (shards - 1) / 16 + 1;
  EXPECT_NE(first.title.find(absl::StrCat("(", on_core, " in all)")),
            std::string::npos)
      << first.title;
  EXPECT_NE(first.title.find(" bytes allocated ("), std::string::npos);
  EXPECT_EQ(first.attrs[1].second.substr(first.attrs[1].second.size() - 3),
            ",..");
}

// 65,536 pages: the pages picture is refused alone, the picture draws the
// tensor in shards instead, and each core's cell carries its bytes.
TEST(TtnnPictureTest, LargeTensorsDrawInShards) {
  const ttnn::TensorSpec s =
      Sharded({32, 2048, 1024}, ttnn::TensorMemoryLayout::kBlockSharded, 8, 8,
              {8192, 128});
  EXPECT_FALSE(TtnnPagesGrid(s).ok());
  absl::StatusOr<std::vector<CellGrid>> p = TtnnPicture(s, absl::nullopt);
  ASSERT_TRUE(p.ok()) << p.status().message();
  ASSERT_EQ(p->size(), 2u);
  const CellGrid& cores = (*p)[0];
  EXPECT_EQ(cores.rows * cores.cols, 64);
  EXPECT_EQ(cores.cells[9].label, "9 2M");
  const CellGrid& shards = (*p)[1];
  EXPECT_EQ(shards.rows, 8);
  EXPECT_EQ(shards.cols, 8);
  // Shard 35 is row 4, column 3 of the shard grid, on core (3,4).
  EXPECT_EQ(shards.cells[35].label, "3,4");
  // On request, a core's 1,024 pages.
  p = TtnnPicture(s, 35);
  ASSERT_TRUE(p.ok());
  ASSERT_EQ(p->size(), 3u);
  EXPECT_EQ((*p)[2].heading,
            "core (3,4): 1024 device pages, by the host page each holds");
}

// Height shards (squeezed to one dim, whole rows of the plane) stack down;
// a partial last shard shows how much of it holds data.
TEST(TtnnPictureTest, HeightShardsStackDownAndPartialShardsFill) {
  // [100 * 1024 + 32, 64]: 3201 pages high, shards of 40 pages: 81 shards,
  // the last holding 1 page row of its 40.
  const ttnn::TensorSpec s = Sharded(
      {102432, 64}, ttnn::TensorMemoryLayout::kHeightSharded, 9, 9, {1280, 64});
  absl::StatusOr<CellGrid> g = TtnnShardsGrid(s);
  ASSERT_TRUE(g.ok()) << g.status().message();
  EXPECT_EQ(g->cols, 1);
  EXPECT_EQ(g->rows, 81);
  EXPECT_EQ(g->cells[0].fill, -1);
  EXPECT_DOUBLE_EQ(g->cells[80].fill, 1.0 / 40);
}

// A core with more pages than a picture holds shows its first 16,384.
TEST(TtnnPictureTest, ABigCoreShowsItsFirstPages) {
  const ttnn::TensorSpec s =
      Sharded({32 * 20000, 32}, ttnn::TensorMemoryLayout::kHeightSharded, 1, 1,
              {32 * 20000, 32});
  absl::StatusOr<CellGrid> g = TtnnCorePagesGrid(s, 0);
  ASSERT_TRUE(g.ok()) << g.status().message();
  EXPECT_EQ(g->notes[0],
            "the first 16384 of its 20000 device pages (at most 16384 are "
            "drawn)");
  int64_t present = 0;
  for (const GridCell& c : g->cells) present += c.present;
  EXPECT_EQ(present, 16384);
}

}  // namespace
}  // namespace hlolayout::draw
