#include "hlolayout/triton/evaluator.h"

#include <cstdint>
#include <random>
#include <string>
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

// ApplyBatch against ApplyIndexed on random layouts of up to 4 in-dims of up
// to 20 bits (several table bytes each), random inputs of both widths
// (negative values and bits above each in-dim's size included), and batch
// sizes around the block size.
TEST(EvaluatorTest, ApplyBatchMatchesApplyIndexed) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    const int num_outs = 1 + rng() % 3;
    NamedInts outs;
    for (int o = 0; o < num_outs; ++o) {
      outs.emplace_back("dim" + std::to_string(o), 1 << (rng() % 11));
    }
    NamedBases bases;
    const int num_ins = rng() % 5;
    for (int d = 0; d < num_ins; ++d) {
      DimBases db;
      const int bits = rng() % 21;
      for (int i = 0; i < bits; ++i) {
        std::vector<int32_t> b;
        for (const auto& [name, size] : outs) {
          b.push_back(static_cast<int32_t>(rng() % size));
        }
        db.push_back(std::move(b));
      }
      bases.emplace_back("in" + std::to_string(d), db);
    }
    LinearLayout l = *LinearLayout::Create(bases, outs, false);
    const int64_t n = rng() % 3000;
    std::vector<std::vector<int64_t>> wide(num_ins, std::vector<int64_t>(n));
    std::vector<std::vector<int32_t>> narrow(num_ins, std::vector<int32_t>(n));
    for (int d = 0; d < num_ins; ++d) {
      for (int64_t i = 0; i < n; ++i) {
        wide[d][i] = static_cast<int64_t>(rng());  // any 64 bits
        narrow[d][i] = static_cast<int32_t>(wide[d][i]);
      }
    }
    std::vector<const int64_t*> wide_ptrs;
    std::vector<const int32_t*> narrow_ptrs;
    for (int d = 0; d < num_ins; ++d) {
      wide_ptrs.push_back(wide[d].data());
      narrow_ptrs.push_back(narrow[d].data());
    }
    std::vector<std::vector<int32_t>> got64(num_outs, std::vector<int32_t>(n));
    std::vector<std::vector<int32_t>> got32(num_outs, std::vector<int32_t>(n));
    std::vector<int32_t*> p64, p32;
    for (int o = 0; o < num_outs; ++o) {
      p64.push_back(got64[o].data());
      p32.push_back(got32[o].data());
    }
    ApplyBatch(l, wide_ptrs, p64, n);
    ApplyBatch(l, narrow_ptrs, p32, n);
    std::vector<int32_t> ins(num_ins), want(num_outs);
    for (int64_t i = 0; i < n; ++i) {
      for (int d = 0; d < num_ins; ++d) ins[d] = narrow[d][i];
      l.ApplyIndexed(ins, absl::MakeSpan(want));
      for (int o = 0; o < num_outs; ++o) {
        ASSERT_EQ(got64[o][i], want[o]) << l << " input " << i;
        ASSERT_EQ(got32[o][i], want[o]) << l << " input " << i;
      }
    }
  }
}

// 64 input bits followed by an empty in-dim, and 30 output bits followed by
// out-dims of size 1: places of 64 must not be shifted by (undefined; the
// fuzzer found it with a seed of 64 input bits).
TEST(EvaluatorTest, DimsOfSizeOneAfterSixtyFourBits) {
  std::mt19937_64 rng(11);
  NamedBases bases;
  for (const char* in : {"register", "lane", "warp"}) {
    DimBases db;
    const int bits = std::string(in) == "warp" ? 4 : 30;
    for (int i = 0; i < bits; ++i) {
      db.push_back({static_cast<int32_t>(rng() & ((1 << 30) - 1)), 0, 0});
    }
    bases.emplace_back(in, db);
  }
  bases.emplace_back("block", DimBases{});
  LinearLayout l = *LinearLayout::Create(
      bases, {{"dim0", 1 << 30}, {"dim1", 1}, {"dim2", 1}}, false);
  ASSERT_EQ(l.TotalInDimSizeLog2(), 64);
  LayoutEvaluator e(l);
  std::vector<int32_t> ins(4), want(3), got(3);
  for (int k = 0; k < 100; ++k) {
    for (int d = 0; d < 4; ++d) ins[d] = static_cast<int32_t>(rng());
    l.ApplyIndexed(ins, absl::MakeSpan(want));
    const uint64_t packed = e.Apply(e.Pack(ins));
    for (int o = 0; o < 3; ++o) EXPECT_EQ(e.Out(packed, o), want[o]);
    std::vector<const int32_t*> in_ptrs;
    for (const int32_t& v : ins) in_ptrs.push_back(&v);
    std::vector<int32_t*> out_ptrs;
    for (int32_t& v : got) out_ptrs.push_back(&v);
    ApplyBatch(l, in_ptrs, out_ptrs, 1);
    EXPECT_EQ(got, want);
  }
}

}  // namespace
}  // namespace hlolayout::triton
