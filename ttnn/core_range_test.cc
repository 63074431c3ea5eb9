#include "hlolayout/ttnn/core_range.h"

#include <set>
#include <utility>

#include "gtest/gtest.h"
#include "hlolayout/ttnn/refusal.h"

namespace hlolayout::ttnn {
namespace {

std::vector<std::pair<int64_t, int64_t>> Pairs(
    const std::vector<CoreCoord>& c) {
  std::vector<std::pair<int64_t, int64_t>> out;
  for (CoreCoord x : c) out.push_back({x.x, x.y});
  return out;
}

TEST(CoreRangeTest, CoresComeRangeByRangeInOrientationOrder) {
  absl::StatusOr<CoreRangeSet> s =
      CoreRangeSet::Make({{{0, 0}, {1, 1}}, {{0, 2}, {0, 2}}});
  ASSERT_TRUE(s.ok());
  using P = std::vector<std::pair<int64_t, int64_t>>;
  EXPECT_EQ(Pairs(s->Cores(true)), (P{{0, 0}, {1, 0}, {0, 1}, {1, 1}, {0, 2}}));
  EXPECT_EQ(Pairs(s->Cores(false)),
            (P{{0, 0}, {0, 1}, {1, 0}, {1, 1}, {0, 2}}));
  EXPECT_EQ(Pairs(s->Cores(true, 3)), (P{{0, 0}, {1, 0}, {0, 1}}));
  EXPECT_EQ(s->num_cores(), 5);
  EXPECT_EQ(s->ToString(), "[(0,0)-(1,1), (0,2)-(0,2)]");
  const CoreRange box = s->BoundingBox();
  EXPECT_EQ(box.width(), 2);
  EXPECT_EQ(box.height(), 3);
}

// Every rectangle up to 4x4 at every origin up to (2,2): each core once,
// in the right order.
TEST(CoreRangeTest, EveryCoreOnceExhaustively) {
  for (int64_t x0 = 0; x0 < 3; ++x0)
    for (int64_t y0 = 0; y0 < 3; ++y0)
      for (int64_t w = 1; w <= 4; ++w)
        for (int64_t h = 1; h <= 4; ++h) {
          const CoreRangeSet s =
              *CoreRangeSet::Make({{{x0, y0}, {x0 + w - 1, y0 + h - 1}}});
          for (bool row_wise : {true, false}) {
            const std::vector<CoreCoord> c = s.Cores(row_wise);
            ASSERT_EQ(static_cast<int64_t>(c.size()), w * h);
            std::set<std::pair<int64_t, int64_t>> seen;
            for (size_t i = 0; i < c.size(); ++i) {
              const int64_t fast = row_wise ? c[i].x - x0 : c[i].y - y0;
              EXPECT_EQ(fast, static_cast<int64_t>(i) % (row_wise ? w : h));
              seen.insert({c[i].x, c[i].y});
            }
            EXPECT_EQ(static_cast<int64_t>(seen.size()), w * h);
          }
        }
}

TEST(CoreRangeTest, RefusesBackwardRangesAndOverlaps) {
  absl::StatusOr<CoreRangeSet> back = CoreRangeSet::Make({{{3, 0}, {1, 0}}});
  ASSERT_FALSE(back.ok());
  EXPECT_EQ(RefusalRule(back.status()), "core-range-order");
  absl::StatusOr<CoreRangeSet> overlap =
      CoreRangeSet::Make({{{0, 0}, {3, 3}}, {{3, 3}, {4, 4}}});
  ASSERT_FALSE(overlap.ok());
  EXPECT_EQ(RefusalRule(overlap.status()), "core-range-overlap");
  EXPECT_EQ(overlap.status().message(),
            "core ranges (0,0)-(3,3) and (3,3)-(4,4) overlap (tt-metal: a "
            "CoreRangeSet holds disjoint ranges)");
  EXPECT_FALSE(CoreRangeSet::Make({{{-1, 0}, {1, 0}}}).ok());
  EXPECT_TRUE(CoreRangeSet::Make({}).ok());
}

// NthCore is Cores()[n] in both orders, one core at a time (tt-mlir's
// shard placement in ttmlir/ reads it).
TEST(CoreRangeTest, NthCoreIsTheCoreListsNthCore) {
  absl::StatusOr<CoreRangeSet> s = CoreRangeSet::Make(
      {{{2, 1}, {4, 3}}, {{0, 5}, {7, 5}}, {{6, 0}, {6, 2}}});
  ASSERT_TRUE(s.ok());
  for (bool row_wise : {true, false}) {
    const std::vector<CoreCoord> cores = s->Cores(row_wise);
    for (size_t n = 0; n < cores.size(); ++n) {
      absl::optional<CoreCoord> c =
          NthCore(s->ranges(), row_wise, static_cast<int64_t>(n));
      ASSERT_TRUE(c.has_value()) << n;
      EXPECT_EQ(*c, cores[n]) << row_wise << " " << n;
    }
    EXPECT_FALSE(NthCore(s->ranges(), row_wise, s->num_cores()).has_value());
    EXPECT_FALSE(NthCore(s->ranges(), row_wise, -1).has_value());
  }
  EXPECT_EQ(NthCore(s->ranges(), false, 1), (CoreCoord{2, 2}));
  EXPECT_FALSE(NthCore({}, true, 0).has_value());
}

}  // namespace
}  // namespace hlolayout::ttnn
