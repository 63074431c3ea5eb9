#include "hlolayout/triton/evaluator.h"

#include <cstdint>
#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "hlolayout/triton/linear_layout.h"

namespace hlolayout::triton {
namespace {

TEST(EvaluatorTest, MatchesApplyOnEveryInput) {
  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 50; ++trial) {
    NamedInts outs = {{"dim0", 1 << (rng() % 6)}, {"dim1", 1 << (rng() % 6)}};
    NamedBases bases;
    for (const char* in : {"register", "lane", "warp"}) {
      DimBases db;
      const int n = rng() % 5;
      for (int i = 0; i < n; ++i) {
        db.push_back({static_cast<int32_t>(rng() % outs[0].second),
                      static_cast<int32_t>(rng() % outs[1].second)});
      }
      bases.emplace_back(in, db);
    }
    LinearLayout l = *LinearLayout::Create(bases, outs, false);
    LayoutEvaluator e(l);
    std::vector<uint64_t> all(l.TotalInDimSize());
    e.ApplyAll(absl::MakeSpan(all));
    std::vector<int32_t> ins(3), want(2);
    for (int64_t x = 0; x < l.TotalInDimSize(); ++x) {
      int64_t rest = x;
      for (int d = 0; d < 3; ++d) {
        ins[d] = static_cast<int32_t>(rest % l.InDimSize(d));
        rest /= l.InDimSize(d);
      }
      l.ApplyIndexed(ins, absl::MakeSpan(want));
      const uint64_t packed = e.Pack(ins);
      EXPECT_EQ(static_cast<int64_t>(packed), x);
      const uint64_t got = e.Apply(packed);
      EXPECT_EQ(all[x], got);
      EXPECT_EQ(e.Out(got, 0), want[0]);
      EXPECT_EQ(e.Out(got, 1), want[1]);
    }
  }
}

}  // namespace
}  // namespace hlolayout::triton
