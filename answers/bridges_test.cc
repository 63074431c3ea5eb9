// CuTe and XLA bridges: the examples of docs/triton.md, refusals, and round
// trips CuTe <-> LinearLayout <-> XLA over random layouts.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlolayout/answers/cute_bridge.h"
#include "hlolayout/cute/parse.h"
#include "hlolayout/cute/print.h"
#include "hlolayout/parser/shape_parser.h"
#include "hlolayout/triton/linear_layout.h"
#include "hlolayout/triton/named_layouts.h"
#include "hlolayout/triton/ops.h"
#include "hlolayout/triton/xla_bridge.h"

namespace hlolayout::triton {
namespace {

using ::testing::HasSubstr;

LinearLayout FromCute(const std::string& text) {
  absl::StatusOr<LinearLayout> l = CuteToLinear(*cute::ParseLayout(text));
  EXPECT_TRUE(l.ok()) << text << ": " << l.status();
  return l.ok() ? *l : LinearLayout();
}

TEST(BridgesTest, CuteExamples) {
  LinearLayout l = FromCute("(4,8):(8,1)");
  EXPECT_EQ(l, *LinearLayout::Create(
                   {{"mode0", {{8}, {16}}}, {"mode1", {{1}, {2}, {4}}}},
                   {{"offset", 32}}, false));
  EXPECT_TRUE(l.IsInvertible());
  EXPECT_EQ(cute::ToString(*LinearToCute(l)), "(4,8):(8,1)");
  LinearLayout odd = FromCute("2:3");
  EXPECT_EQ(odd.OutDimSize(0), 4);
  EXPECT_FALSE(odd.IsSurjective());
  EXPECT_THAT(CuteToLinear(*cute::ParseLayout("4:3")).status().message(),
              HasSubstr("the weights 3 and 6 share bits"));
  EXPECT_THAT(
      CuteToLinear(*cute::ParseLayout("(2,2):(1,1)")).status().message(),
      HasSubstr("share bits"));
  EXPECT_THAT(
      CuteToLinear(*cute::ParseLayout("(3,2):(1,3)")).status().message(),
      HasSubstr("a mode of size 3 is not a power of two"));
  // Broadcast (zero stride) is fine.
  EXPECT_EQ(FromCute("(2,4):(0,1)").bases()[0].second, (DimBases{{0}}));
}

TEST(BridgesTest, LinearToCuteRefusesSwizzles) {
  LinearLayout swizzle =
      *LinearLayout::Create({{"offset", {{1}, {3}}}}, {{"dim0", 4}}, false);
  EXPECT_THAT(LinearToCute(swizzle).status().message(),
              HasSubstr("share bits"));
}

TEST(BridgesTest, CuteRoundTripsAsFunctions) {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 300; ++trial) {
    // Random power-of-two modes with disjoint power-of-two strides.
    const int modes = 1 + rng() % 3;
    std::vector<int> free_bits;
    for (int b = 0; b < 14; ++b) free_bits.push_back(b);
    std::shuffle(free_bits.begin(), free_bits.end(), rng);
    std::string shape = "(", stride = "(";
    size_t next = 0;
    for (int m = 0; m < modes; ++m) {
      const int bits = rng() % 3;
      const int64_t size = int64_t{1} << bits;
      int64_t st = 0;
      if (rng() % 4 != 0 && next + bits <= free_bits.size()) {
        // A run of `bits` consecutive offset bits starting at a free bit.
        st = int64_t{1} << (free_bits[next] + 14);
        next += 1;
      }
      shape += (m ? "," : "") + std::to_string(size);
      stride += (m ? "," : "") + std::to_string(st);
    }
    const std::string text = shape + "):" + stride + ")";
    absl::StatusOr<cute::Layout> c = cute::ParseLayout(text);
    ASSERT_TRUE(c.ok()) << text;
    absl::StatusOr<LinearLayout> l = CuteToLinear(*c);
    if (!l.ok()) continue;  // overlapping supports: refused, checked above
    absl::StatusOr<cute::Layout> back = LinearToCute(*l);
    ASSERT_TRUE(back.ok()) << text << back.status();
    ASSERT_EQ(back->size(), c->size());
    for (int64_t i = 0; i < c->size(); ++i) {
      EXPECT_EQ((*back)(i), (*c)(i)) << text << " -> " << cute::ToString(*back);
      std::vector<int32_t> in;
      int64_t rest = i;
      for (int d = 0; d < l->num_in_dims(); ++d) {
        in.push_back(static_cast<int32_t>(rest % l->InDimSize(d)));
        rest /= l->InDimSize(d);
      }
      std::vector<int32_t> out(1);
      l->ApplyIndexed(in, absl::MakeSpan(out));
      EXPECT_EQ(out[0], (*c)(i)) << text;
    }
  }
}

TEST(BridgesTest, CuteSwizzlesAreTritonsSwizzledSharedLayouts) {
  struct Case {
    int rows, cols, vec, pp, mp;
  };
  const Case cases[] = {{64, 64, 8, 1, 8},  {32, 32, 4, 1, 8},
                        {64, 32, 8, 2, 4},  {16, 64, 4, 1, 4},
                        {128, 16, 2, 4, 2}, {32, 128, 16, 1, 8},
                        {64, 64, 1, 1, 8}};
  for (const Case& c : cases) {
    SwizzledSharedLayout s{c.vec, c.pp, c.mp, {1, 0}, {}};
    const std::string text = *SwizzledSharedAsCute(s, {c.rows, c.cols});
    LinearLayout l = *ToLinearLayout(Layout(s), {c.rows, c.cols});
    // The CuTe map (row, col) -> Swizzle(row * cols + col) is the inverse
    // of Triton's offset -> (row, col).
    CuteSwizzle sw;
    ASSERT_EQ(
        std::sscanf(text.c_str(), "Swizzle<%d,%d,%d>", &sw.b, &sw.m, &sw.s), 3);
    for (int32_t off = 0; off < c.rows * c.cols; ++off) {
      std::vector<int32_t> in = {off, 0}, out(2);
      l.ApplyIndexed(in, absl::MakeSpan(out));
      EXPECT_EQ(ApplyCuteSwizzle(sw, int64_t{out[0]} * c.cols + out[1]), off)
          << text;
    }
    SwizzledSharedLayout back = *SwizzledSharedFromCute(sw, c.rows, c.cols);
    EXPECT_EQ(back.vec, c.vec);
    EXPECT_EQ(back.per_phase, c.pp);
    EXPECT_EQ(back.max_phase, c.mp);
  }
  EXPECT_EQ(*SwizzledSharedAsCute(SwizzledSharedLayout{8, 1, 8, {1, 0}, {}},
                                  {64, 64}),
            "Swizzle<3,3,3> o (64,64):(64,1)");
  EXPECT_THAT(
      SwizzledSharedAsCute(SwizzledSharedLayout{8, 1, 8, {1, 0}, {}}, {64, 32})
          .status()
          .message(),
      HasSubstr("exceeds a row"));
}

TEST(BridgesTest, XlaExample) {
  LinearLayout l = *XlaToLinear(*ParseShape("f32[16,256]{1,0:T(8,128)}"));
  EXPECT_EQ(l.bases()[0].second, (DimBases{{0, 1},
                                           {0, 2},
                                           {0, 4},
                                           {0, 8},
                                           {0, 16},
                                           {0, 32},
                                           {0, 64},
                                           {1, 0},
                                           {2, 0},
                                           {4, 0},
                                           {0, 128},
                                           {8, 0}}));
  EXPECT_EQ(*LinearToXla(l, F32), "f32[16,256]{1,0:T(8,128)}");
  EXPECT_THAT(
      XlaToLinear(*ParseShape("f32[10,200]{1,0:T(8,128)}")).status().message(),
      HasSubstr("not a power of two"));
  EXPECT_THAT(
      XlaToLinear(*ParseShape("f32[8,64]{1,0:T(8,128)}")).status().message(),
      HasSubstr("padding is not expressible"));
  EXPECT_THAT(XlaToLinear(*ParseShape("s4[16,256]{1,0:T(8,128)E(4)}"))
                  .status()
                  .message(),
              HasSubstr("E(n)"));
  // A swizzle is no XLA layout.
  LinearLayout swz = *LinearLayout::Create({{"offset", {{0, 1}, {1, 1}}}},
                                           {{"dim0", 2}, {"dim1", 2}}, true);
  EXPECT_THAT(LinearToXla(swz, F32).status().message(),
              HasSubstr("not a bit permutation"));
}

TEST(BridgesTest, XlaRoundTrips) {
  std::mt19937_64 rng(12);
  for (int trial = 0; trial < 200; ++trial) {
    const int rank = 1 + rng() % 3;
    std::vector<int64_t> dims;
    for (int d = 0; d < rank; ++d) dims.push_back(int64_t{1} << (rng() % 6));
    std::vector<int> perm(rank);
    for (int d = 0; d < rank; ++d) perm[d] = rank - 1 - d;
    std::shuffle(perm.begin(), perm.end(), rng);
    std::string text = "bf16[";
    for (int d = 0; d < rank; ++d)
      text += (d ? "," : "") + std::to_string(dims[d]);
    text += "]{";
    for (int d = 0; d < rank; ++d)
      text += (d ? "," : "") + std::to_string(perm[d]);
    if (rng() % 2) {
      // A tile over the minor-most physical dims that divides them.
      const int k = 1 + rng() % rank;
      text += ":T(";
      for (int i = 0; i < k; ++i) {
        const int64_t d = dims[perm[k - 1 - i]];
        text +=
            (i ? "," : "") +
            std::to_string(int64_t{1} << (rng() % (1 + __builtin_ctzll(d))));
      }
      text += ")";
    }
    text += "}";
    absl::StatusOr<Shape> shape = ParseShape(text);
    ASSERT_TRUE(shape.ok()) << text;
    absl::StatusOr<LinearLayout> l = XlaToLinear(*shape);
    ASSERT_TRUE(l.ok()) << text << ": " << l.status();
    EXPECT_TRUE(l->IsInvertible());
    absl::StatusOr<std::string> back = LinearToXla(*l, BF16);
    ASSERT_TRUE(back.ok()) << text << ": " << back.status();
    EXPECT_EQ(*XlaToLinear(*ParseShape(*back)), *l) << text << " -> " << *back;
    // And through CuTe: the offset -> flat index map.
    absl::StatusOr<cute::Layout> c = LinearToCute(*l);
    ASSERT_TRUE(c.ok()) << text;
    EXPECT_EQ(*CuteToLinear(*c, {"offset"}, "dim0"), *FlattenOuts(*l))
        << text << " -> " << cute::ToString(*c);
  }
}

}  // namespace
}  // namespace hlolayout::triton
