#include "hlolayout/ttnn/locate.h"

#include <set>
#include <tuple>
#include <vector>

#include "gtest/gtest.h"

namespace hlolayout::ttnn {
namespace {

using V = std::vector<int64_t>;

TensorSpec Spec(V shape, DataType dtype, Layout layout, MemoryConfig m,
                Tile tile = {}) {
  TensorSpecInput in;
  in.shape = std::move(shape);
  in.dtype = dtype;
  in.layout = layout;
  in.tile = tile;
  in.memory = std::move(m);
  absl::StatusOr<TensorSpec> s = TensorSpec::Make(in);
  EXPECT_TRUE(s.ok()) << s.status().message();
  return *std::move(s);
}

TEST(LocateTest, ExampleOfTheHeader) {
  const TensorSpec s = Spec(
      {272, 58}, DataType::kBfloat16, Layout::kTile,
      MemoryConfig::Sharded(TensorMemoryLayout::kHeightSharded, BufferType::kL1,
                            {*CoreRangeSet::Make({{{0, 0}, {2, 0}}}),
                             {96, 64},
                             ShardOrientation::kColMajor}));
  absl::StatusOr<ElementPlace> p = Locate(s, {100, 20});
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->host_page, 6);
  EXPECT_EQ(p->in_page, (std::array<int64_t, 2>{4, 20}));
  EXPECT_EQ(p->byte_in_page, 648);
  EXPECT_EQ(*p->core, (CoreCoord{1, 0}));
  EXPECT_EQ(*p->device_page, 0);
  EXPECT_EQ(p->offset, 648);
  EXPECT_FALSE(Locate(s, {272, 0}).ok());
  EXPECT_EQ(Locate(s, {1}).status().message(),
            "index has 1 coordinates, the tensor 2 dims");
}

TEST(LocateTest, BlockFloatExponentsComeFirst) {
  const TensorSpec s = Spec({64, 64}, DataType::kBfloat8B, Layout::kTile,
                            MemoryConfig::Interleaved(BufferType::kDram));
  // (40, 17): tile (1, 0) -> page 2; row 8 col 17 -> face 1, position
  // 256 + 8 * 16 + 1 = 385; 64 exponent bytes before it.
  absl::StatusOr<ElementPlace> p = Locate(s, {40, 17});
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->host_page, 2);
  EXPECT_EQ(p->byte_in_page, 64 + 385);
  EXPECT_EQ(*p->exponent_byte_in_page, 16 + 8);
  EXPECT_EQ(*p->bank, 2);
  EXPECT_EQ(*p->page_in_bank, 0);
  // 1088-byte pages aligned to 32 in DRAM stay 1088.
  absl::StatusOr<ElementPlace> q = Locate(s, {63, 63});
  EXPECT_EQ(q->host_page, 3);
}

// Every element of small tensors of every type: no two elements share a
// byte (a bfloat4_b nibble), each lies inside its page, and the page is
// where the distribution or the banks say.
TEST(LocateTest, ElementsTileTheirPagesExhaustively) {
  const CoreRangeSet grid = *CoreRangeSet::Make({{{0, 0}, {2, 1}}});
  int64_t checked = 0;
  for (DataType t : AllDataTypes()) {
    for (Layout layout : {Layout::kTile, Layout::kRowMajor}) {
      if (IsBlockFloat(t) && layout != Layout::kTile) continue;
      if (layout == Layout::kRowMajor && !RowMajorElementBytes(t)) continue;
      if (t == DataType::kFp8E4m3 && layout == Layout::kTile) continue;
      for (const V& shape : {V{40, 50}, V{3, 20, 33}, V{70}}) {
        std::vector<MemoryConfig> configs = {
            MemoryConfig::Interleaved(BufferType::kDram),
            MemoryConfig::NdSharded(BufferType::kL1,
                                    {layout == Layout::kTile ? V{32, 32}
                                     : shape.size() == 1     ? V{16}
                                                             : V{8, 16},
                                     grid})};
        for (const MemoryConfig& m : configs) {
          const TensorSpec s = Spec(shape, t, layout, m);
          std::set<std::tuple<int64_t, int64_t, bool>> bytes;
          V index(shape.size(), 0);
          const int64_t aligned = s.AlignedPageSize(s.page_alignment());
          while (true) {
            absl::StatusOr<ElementPlace> p = Locate(s, index);
            ASSERT_TRUE(p.ok());
            ASSERT_LT(p->byte_in_page, s.page_size_bytes());
            ASSERT_TRUE(
                bytes.insert({p->host_page, p->byte_in_page, p->low_nibble})
                    .second)
                << "two elements share a byte";
            if (s.sharded()) {
              ASSERT_EQ(
                  s.distribution()->HostPage(*p->core_index, *p->device_page),
                  p->host_page);
              ASSERT_EQ(p->offset, *p->device_page * aligned + p->byte_in_page);
            } else {
              ASSERT_EQ(*p->bank, p->host_page % s.num_banks());
            }
            ++checked;
            int i = static_cast<int>(shape.size()) - 1;
            for (; i >= 0 && ++index[i] == shape[i]; --i) index[i] = 0;
            if (i < 0) break;
          }
        }
      }
    }
  }
  EXPECT_GT(checked, 100000);
}

}  // namespace
}  // namespace hlolayout::ttnn
