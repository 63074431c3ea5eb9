// The value type: construction checks (with Triton's messages), factories,
// Apply, printing, equality and hashing. The unit-test vectors are those of
// Triton's LinearLayoutTest.cpp quoted in docs/triton.md.
#include "hlolayout/triton/linear_layout.h"

#include <string>
#include <vector>

#include "absl/hash/hash.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlolayout/testing/triton_test_data.h"
#include "hlolayout/triton/ops.h"

namespace hlolayout::triton {
namespace {

using ::testing::HasSubstr;

TEST(LinearLayoutTest, HeaderExample) {
  LinearLayout l =
      TestLayout({{"register", {{0, 1}, {1, 0}}}, {"lane", {{2, 0}}}},
                 {{"dim0", 4}, {"dim1", 2}}, true);
  EXPECT_EQ(*l.Apply({{"register", 3}, {"lane", 1}}),
            (NamedInts{{"dim0", 3}, {"dim1", 1}}));
  EXPECT_EQ(l.ToString(),
            "\n - register=1 -> (0, 1)\n   register=2 -> (1, 0)\n"
            " - lane=1 -> (2, 0)\n"
            "where out dims are: [dim0 (size 4), dim1 (size 2)]");
}

TEST(LinearLayoutTest, Identity1D) {
  LinearLayout id = *LinearLayout::Identity1D(32, "testIns", "testOuts");
  EXPECT_EQ(
      id, TestLayout({{"testIns", {{1}, {2}, {4}, {8}, {16}}}}, {"testOuts"}));
  EXPECT_EQ(id.InDimSizeLog2(0), 5);
  EXPECT_EQ(id.OutDimSizeLog2(0), 5);
  EXPECT_EQ(*LinearLayout::Identity1D(1, "testIns", "testOuts"),
            TestLayout({{"testIns", {}}}, {"testOuts"}));
  EXPECT_EQ(*LinearLayout::Identity1D(0, "a", "b"), LinearLayout::Empty());
}

TEST(LinearLayoutTest, Zeros1D) {
  LinearLayout z = *LinearLayout::Zeros1D(32, "ins", "outs");
  EXPECT_EQ(z, TestLayout({{"ins", {{0}, {0}, {0}, {0}, {0}}}}, {"outs"}));
  EXPECT_EQ(z.OutDimSize(0), 1);
  // Not surjective when the out size is larger: still a valid layout.
  LinearLayout z8 = *LinearLayout::Zeros1D(4, "ins", "outs", 8);
  EXPECT_EQ(z8.OutDimSize(0), 8);
  EXPECT_FALSE(z8.IsSurjective());
}

TEST(LinearLayoutTest, Strided1D) {
  LinearLayout s = *LinearLayout::Strided1D(4, 4, "in", "out");
  EXPECT_EQ(s, TestLayout({{"in", {{4}, {8}}}}, {{"out", 16}}, false));
  EXPECT_FALSE(s.IsSurjective());
  EXPECT_THAT(LinearLayout::Strided1D(4, 3, "in", "out").status().message(),
              HasSubstr("Out-dim sizes must be powers of 2"));
  EXPECT_FALSE(LinearLayout::Identity1D(6, "in", "out").ok());
}

TEST(LinearLayoutTest, InferredSizesAreStrictlyGreaterPowers) {
  LinearLayout l = TestLayout({{"in", {{1}, {4}, {2}}}}, {"out"});
  EXPECT_EQ(l.OutDimSize(0), 8);
  // Out size 8 has rank 3, but {1, 4} reach only rank 2: refused.
  absl::StatusOr<LinearLayout> bad =
      LinearLayout::CreateInferred({{"in", {{1}, {4}}}}, {"out"});
  EXPECT_THAT(bad.status().message(),
              HasSubstr("Layout is expected to be surjective"));
}

TEST(LinearLayoutTest, ConstructionErrorsInTritonsOrder) {
  auto err = [](NamedBases b, NamedInts o) {
    return std::string(LinearLayout::Create(b, o, false).status().message());
  };
  EXPECT_THAT(err({{"in", {{-1}}}}, {{"out", 3}}),
              HasSubstr("Expected all basis values to be non-negative, but "
                        "found a negative value for in dimension 'in'"));
  EXPECT_THAT(err({{"in", {{1, 0}}}}, {{"out", 2}}),
              HasSubstr("equal to outDimNames.size() (1).  But this failed "
                        "for in dimension 'in'"));
  EXPECT_EQ(err({{"in", {{1}}}}, {{"out", 3}}),
            "Invalid out-dim size 3 for out-dim 'out'.  Out-dim sizes must be "
            "powers of 2.");
  EXPECT_EQ(err({{"in", {{4}}}}, {{"out", 4}}),
            "Invalid basis 4 for in-dim 'in' and out-dim 'out'.  Basis must be "
            "less than the out-dim size.");
  EXPECT_THAT(
      err({{"in", std::vector<std::vector<int32_t>>(31, {0})}}, {{"out", 1}}),
      HasSubstr("LinearLayout too large"));
  NamedBases wide;
  for (int d = 0; d < 3; ++d) {
    wide.push_back(
        {"in" + std::to_string(d), std::vector<std::vector<int32_t>>(22, {0})});
  }
  EXPECT_THAT(err(wide, {{"out", 1}}), HasSubstr("LinearLayout too large"));
  EXPECT_THAT(LinearLayout::Create({{"in", {{0}}}}, {{"out", 2}}, true)
                  .status()
                  .message(),
              HasSubstr("but was not:\n - in=1 -> (0)\nwhere out dims are: "
                        "[out (size 2)]"));
}

TEST(LinearLayoutTest, RepeatedNamesBehaveLikeTritonsMapVector) {
  // The repeated in-dim keeps its first position and its last bases.
  LinearLayout l = TestLayout({{"a", {{1}}}, {"b", {{2}}}, {"a", {{4}, {1}}}},
                              {{"out", 8}}, false);
  EXPECT_EQ(l.in_dim_names(), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(l.InDimSizeLog2(0), 2);
  EXPECT_EQ(l.BasisValue(0, 0, 0), 4);
}

TEST(LinearLayoutTest, Apply) {
  LinearLayout l =
      TestLayout({{"in1", {{4, 2}, {2, 1}, {1, 0}}}, {"in2", {{1, 2}, {2, 1}}}},
                 {{"out1", 8}, {"out2", 4}}, false);
  EXPECT_EQ(*l.Apply({{"in1", 0}, {"in2", 0}}),
            (NamedInts{{"out1", 0}, {"out2", 0}}));
  EXPECT_EQ(*l.Apply({{"in2", 0}, {"in1", 1}}),
            (NamedInts{{"out1", 4}, {"out2", 2}}));
  EXPECT_EQ(*l.Apply({{"in2", 1}, {"in1", 0}}),
            (NamedInts{{"out1", 1}, {"out2", 2}}));
  EXPECT_EQ(*l.Apply({{"in1", 7}, {"in2", 3}}),
            (NamedInts{{"out1", 4}, {"out2", 0}}));
  // Bits above an in-dim's size are ignored.
  EXPECT_EQ(*l.Apply({{"in1", 8}, {"in2", 4}}),
            (NamedInts{{"out1", 0}, {"out2", 0}}));
  EXPECT_THAT(l.Apply({{"in1", 0}}).status().message(),
              HasSubstr("Dimensions must match, ignoring order, but they "
                        "don't.  Got dims: [in1] and [in1, in2]"));
}

TEST(LinearLayoutTest, EmptyToString) {
  EXPECT_EQ(LinearLayout::Empty().ToString(), "\n(empty layout)");
  LinearLayout no_ins = TestLayout({}, {{"dim0", 4}}, false);
  EXPECT_EQ(no_ins.ToString(),
            "\n(empty layout with out-dims [dim0 (size 4)])");
  LinearLayout size1 = TestLayout({{"lane", {}}}, {"dim0"});
  EXPECT_EQ(size1.ToString(),
            "\n - lane is a size 1 dimension\nwhere out dims are: [dim0 (size "
            "1)]");
}

// An in-dim whose bases have no out-dims: every input maps to the empty
// output (found by fuzz/triton_fuzzer.cc: the table was indexed while
// empty).
TEST(LinearLayoutTest, BasesWithoutOutDimsApplyToNothing) {
  LinearLayout l = TestLayout({{"register", {{}}}}, {}, false);
  ASSERT_EQ(l.num_in_dims(), 1);
  ASSERT_EQ(l.num_out_dims(), 0);
  std::vector<int32_t> ins = {1};
  std::vector<int32_t> outs;
  l.ApplyIndexed(ins, absl::MakeSpan(outs));
  EXPECT_TRUE(outs.empty());
}

TEST(LinearLayoutTest, RankAndProperties) {
  LinearLayout swizzle = TestLayout(
      {{"t", {{1, 1}, {2, 2}}}, {"w", {{0, 1}, {0, 2}}}}, {"a", "b"});
  EXPECT_EQ(swizzle.rank(), 4);
  EXPECT_TRUE(swizzle.IsInvertible());
  // TestLayout(t, w) = (t, w xor t): TestLayout(3, 3) = (3, 0).
  EXPECT_EQ(*swizzle.Apply({{"t", 3}, {"w", 3}}),
            (NamedInts{{"a", 3}, {"b", 0}}));
  EXPECT_EQ(*Pseudoinvert(swizzle),
            TestLayout({{"a", {{1, 1}, {2, 2}}}, {"b", {{0, 1}, {0, 2}}}},
                       {"t", "w"}));
  LinearLayout broadcast = TestLayout({{"in", {{1}, {0}}}}, {"out"});
  EXPECT_TRUE(broadcast.IsSurjective());
  EXPECT_FALSE(broadcast.IsInjective());
  EXPECT_FALSE(broadcast.IsInvertible());
}

TEST(LinearLayoutTest, MatrixRowsAreOutputBits) {
  // TestLayout(0,1) = (0b01, 0b1), TestLayout(0,2) = (0b10, 0), TestLayout(1,0)
  // = (0b10, 0), TestLayout(2,0) = (0b11, 0) (Triton's getMatrix comment).
  LinearLayout l =
      TestLayout({{"a", {{2, 0}, {3, 0}}}, {"b", {{1, 1}, {2, 0}}}},
                 {{"x", 4}, {"y", 2}}, false);
  EXPECT_EQ(l.Matrix(), (std::vector<uint64_t>{0b0110, 0b1011, 0b0100}));
}

TEST(LinearLayoutTest, EqualityAndHashFollowOrder) {
  LinearLayout a = TestLayout({{"x", {{1}}}, {"y", {{2}}}}, {"o"});
  LinearLayout b = TestLayout({{"y", {{2}}}, {"x", {{1}}}}, {"o"});
  EXPECT_NE(a, b);
  EXPECT_EQ(a, *TransposeIns(b, {"x", "y"}));
  EXPECT_EQ(absl::Hash<LinearLayout>()(a),
            absl::Hash<LinearLayout>()(*TransposeIns(b, {"x", "y"})));
  // Out sizes take part in equality.
  EXPECT_NE(TestLayout({{"x", {{1}}}}, {{"o", 2}}, false),
            TestLayout({{"x", {{1}}}}, {{"o", 4}}, false));
}

}  // namespace
}  // namespace hlolayout::triton
