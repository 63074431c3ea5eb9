// The operations: the unit-test vectors of Triton's LinearLayoutTest.cpp
// quoted in docs/triton.md, then properties over random layouts.
#include "hlolayout/triton/ops.h"

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlolayout/testing/triton_test_data.h"
#include "hlolayout/triton/linear_layout.h"

namespace hlolayout::triton {
namespace {

using ::testing::HasSubstr;

LinearLayout Id(int32_t size, const std::string& in, const std::string& out) {
  return *LinearLayout::Identity1D(size, in, out);
}

LinearLayout Zeros(int32_t size, const std::string& in, const std::string& out,
                   int32_t out_size = 1) {
  return *LinearLayout::Zeros1D(size, in, out, out_size);
}

LinearLayout Mul(const LinearLayout& a, const LinearLayout& b) {
  absl::StatusOr<LinearLayout> p = Product(a, b);
  EXPECT_TRUE(p.ok()) << p.status();
  return *p;
}

TEST(OpsTest, Multiply) {
  EXPECT_EQ(
      Mul(Id(16, "in", "out"), Id(32, "in", "out")),
      TestLayout({{"in", {{1}, {2}, {4}, {8}, {16}, {32}, {64}, {128}, {256}}}},
                 {"out"}));
  EXPECT_EQ(Mul(Id(4, "in", "out1"), Id(8, "in", "out2")),
            TestLayout({{"in", {{1, 0}, {2, 0}, {0, 1}, {0, 2}, {0, 4}}}},
                       {"out1", "out2"}));
  LinearLayout by_zeros = Mul(Id(8, "in", "out"), Zeros(16, "in", "out"));
  EXPECT_EQ(by_zeros,
            TestLayout({{"in", {{1}, {2}, {4}, {0}, {0}, {0}, {0}}}}, {"out"}));
  EXPECT_EQ(by_zeros.OutDimSize(0), 8);
  // zeros1D(2) * identity1D(4) computes x / 2 on [0, 8).
  LinearLayout half = Mul(Zeros(2, "i", "o"), Id(4, "i", "o"));
  for (int x = 0; x < 8; ++x) {
    EXPECT_EQ((*half.Apply({{"i", x}}))[0].second, x / 2);
  }
  EXPECT_EQ(
      Mul(Zeros(16, "in", "out1"), TestLayout({{"in", {}}}, {"out2"})),
      TestLayout({{"in", {{0, 0}, {0, 0}, {0, 0}, {0, 0}}}}, {"out1", "out2"}));
}

TEST(OpsTest, Supremum) {
  using V = std::vector<std::string>;
  EXPECT_EQ(*Supremum(V{"a", "b"}, V{"a", "c"}), (V{"a", "b", "c"}));
  EXPECT_EQ(*Supremum(V{"a", "b"}, V{"b", "c"}), (V{"a", "b", "c"}));
  EXPECT_EQ(*Supremum(V{"a", "b", "c"}, V{"a", "d"}), (V{"a", "b", "c", "d"}));
  // Triton's comment says sup([a,b],[b,a]) does not exist, but its merge
  // (which this follows) never reaches that error: it prefers the first list.
  EXPECT_EQ(*Supremum(V{"a", "b"}, V{"b", "a"}), (V{"a", "b"}));
  LinearLayout ab = Mul(Id(2, "a", "o"), Id(2, "b", "o"));
  LinearLayout ba = Mul(Id(2, "b", "o"), Id(2, "a", "o"));
  EXPECT_EQ(Product(ab, ba)->in_dim_names(), (V{"a", "b"}));
}

TEST(OpsTest, Compose) {
  LinearLayout l1 = TestLayout(
      {{"in1", {{1, 1}, {0, 1}}}, {"in2", {{1, 0}, {1, 2}}}}, {"out1", "out2"});
  LinearLayout l2 =
      TestLayout({{"out1", {{2, 2}, {1, 0}}}, {"out2", {{1, 1}, {2, 1}}}},
                 {"out3", "out4"});
  LinearLayout c = *Compose(l1, l2);
  EXPECT_EQ(c,
            TestLayout({{"in1", {{3, 3}, {1, 1}}}, {"in2", {{2, 2}, {0, 3}}}},
                       {{"out3", 4}, {"out4", 4}}, false));
  EXPECT_FALSE(c.IsSurjective());
  EXPECT_THAT(Compose(l1, l1).status().message(),
              HasSubstr("Dimensions must match, ignoring order"));
}

TEST(OpsTest, InvertAndCompose) {
  LinearLayout l1 = TestLayout({{"in1", {{2}, {1}, {4}}}}, {"out"});
  LinearLayout l2 = TestLayout({{"in2", {{4}, {1}, {2}}}}, {"out"});
  LinearLayout c = *InvertAndCompose(l1, l2);
  EXPECT_EQ(c, TestLayout({{"in1", {{4}, {2}, {1}}}}, {"in2"}));
  EXPECT_EQ(*Compose(c, l2), l1);
  // Non-injective l2: the minimum-norm solution.
  EXPECT_EQ(*InvertAndCompose(
                l1, TestLayout({{"in2", {{0}, {2}, {1}, {4}}}}, {"out"})),
            TestLayout({{"in1", {{2}, {4}, {8}}}}, {{"in2", 16}}, false));
  // Broadcast at the beginning, the end, both.
  LinearLayout id8 = Id(8, "in", "out");
  EXPECT_EQ(*InvertAndCompose(
                id8, TestLayout({{"in", {{0}, {4}, {1}, {2}}}}, {"out"})),
            TestLayout({{"in", {{4}, {8}, {2}}}}, {{"in", 16}}, false));
  EXPECT_EQ(
      *InvertAndCompose(Id(8, "in1", "out"),
                        TestLayout({{"in2", {{4}, {1}, {2}, {0}}}}, {"out"})),
      TestLayout({{"in1", {{2}, {4}, {1}}}}, {{"in2", 16}}, false));
  EXPECT_EQ(*InvertAndCompose(
                id8, TestLayout({{"in", {{0}, {4}, {1}, {2}, {0}}}}, {"out"})),
            TestLayout({{"in", {{4}, {8}, {2}}}}, {{"in", 32}}, false));
  // Broadcasted dims.
  LinearLayout a =
      TestLayout({{"in1", {{1}, {2}, {4}}}, {"in2", {{0}}}}, {"out"});
  LinearLayout b =
      TestLayout({{"in3", {{1}, {2}, {4}}}, {"in4", {{0}}}}, {"out"});
  EXPECT_EQ(*InvertAndCompose(a, b),
            TestLayout({{"in1", {{1, 0}, {2, 0}, {4, 0}}}, {"in2", {{0, 0}}}},
                       {{"in3", 8}, {"in4", 2}}, false));
  // Im(B) must be inside Im(A).
  EXPECT_EQ(InvertAndCompose(
                id8, TestLayout({{"in", {{1}, {2}, {0}}}}, {{"out", 8}}, false))
                .status()
                .message(),
            "Precondition broken. Im(B) not contained in Im(A)");
}

TEST(OpsTest, NumConsecutiveInOut) {
  EXPECT_EQ(NumConsecutiveInOut(Id(1, "in", "out")), 1);
  EXPECT_EQ(NumConsecutiveInOut(Id(4, "in", "out")), 4);
  EXPECT_EQ(NumConsecutiveInOut(Mul(Id(4, "in1", "out"), Id(8, "in2", "out"))),
            4);
  EXPECT_EQ(NumConsecutiveInOut(Mul(Id(4, "in", "out1"), Id(8, "in", "out2"))),
            4);
  EXPECT_EQ(
      NumConsecutiveInOut(Mul(Zeros(4, "in", "out1"), Id(4, "in", "out2"))), 1);
  EXPECT_EQ(
      NumConsecutiveInOut(TestLayout({{"in", {{1}, {2}, {4}, {9}}}}, {"out"})),
      1);
  EXPECT_EQ(
      NumConsecutiveInOut(TestLayout({{"in", {{1}, {2}, {4}, {10}}}}, {"out"})),
      2);
  EXPECT_EQ(NumConsecutiveInOut(TestLayout({{"in", {{1}, {4}, {2}}}}, {"out"})),
            2);
  EXPECT_EQ(NumConsecutiveInOut(TestLayout(
                {{"in", {{1}, {2}, {4}}}, {"in2", {{8}, {18}}}}, {"out"})),
            2);
}

TEST(OpsTest, FreeVariableMasks) {
  EXPECT_EQ(FreeVariableMasks(Id(4, "in", "out")), (NamedInts{{"in", 0}}));
  EXPECT_EQ(FreeVariableMasks(Zeros(16, "in", "out")),
            (NamedInts{{"in", 0b1111}}));
  LinearLayout l = Mul(
      Mul(Mul(Id(2, "in", "out"), Zeros(4, "in", "out")), Id(4, "in", "out")),
      Zeros(2, "in", "out"));
  EXPECT_EQ(FreeVariableMasks(l), (NamedInts{{"in", 0b100110}}));
  LinearLayout two = TestLayout(
      {{"in1", {{1, 1}, {2, 2}, {0, 0}}}, {"in2", {{1, 0}, {0, 1}, {2, 0}}}},
      {"out1", "out2"});
  EXPECT_EQ(FreeVariableMasks(two), (NamedInts{{"in1", 0b100}, {"in2", 0b10}}));
}

TEST(OpsTest, ReshapesAndTransposes) {
  LinearLayout l =
      TestLayout({{"in1", {{1}, {4}, {8}}}, {"in2", {{2}}}}, {"out"});
  EXPECT_EQ(*ReshapeIns(l, {{"in3", 2}, {"in4", 8}}),
            TestLayout({{"in3", {{1}}}, {"in4", {{4}, {8}, {2}}}}, {"out"}));
  LinearLayout m =
      TestLayout({{"in1", {{1}, {4}, {8}}}, {"in2", {{3}}}}, {"out"});
  EXPECT_EQ(*ReshapeOuts(m, {{"out2", 2}, {"out3", 8}}),
            TestLayout({{"in1", {{1, 0}, {0, 2}, {0, 4}}}, {"in2", {{1, 1}}}},
                       {"out2", "out3"}));
  LinearLayout f =
      TestLayout({{"in1", {{1, 0}, {4, 1}, {8, 4}}}, {"in2", {{3, 2}}}},
                 {{"out1", 16}, {"out2", 8}}, false);
  EXPECT_EQ(*FlattenOuts(f),
            TestLayout({{"in1", {{1}, {20}, {72}}}, {"in2", {{35}}}},
                       {{"out1", 128}}, false));
  LinearLayout t = *TransposeOuts(
      Mul(Id(32, "in1", "out1"), Id(16, "in2", "out2")), {"out2", "out1"});
  EXPECT_EQ(t, TestLayout({{"in1", {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {0, 16}}},
                           {"in2", {{1, 0}, {2, 0}, {4, 0}, {8, 0}}}},
                          {"out2", "out1"}));
  EXPECT_FALSE(ReshapeIns(l, {{"x", 4}}).ok());
  EXPECT_FALSE(ReshapeIns(l, {{"x", 3}, {"y", 16}}).ok());
}

TEST(OpsTest, Sublayout) {
  LinearLayout l1 = TestLayout(
      {{"in1", {{1, 0}, {0, 1}, {2, 0}}}, {"in2", {{0, 1}}}}, {"out1", "out2"});
  EXPECT_EQ(*Sublayout(l1, {"in2", "in1"}, {"out1"}),
            TestLayout({{"in1", {{1}, {0}, {2}}}, {"in2", {{0}}}}, {"out1"}));
  EXPECT_EQ(*Sublayout(l1, {}, {"out1"}), TestLayout({}, {{"out1", 4}}, false));
  EXPECT_TRUE(*SublayoutIsZero(l1, {"in2"}, {"out1"}));
  EXPECT_FALSE(*SublayoutIsZero(l1, {"in2"}, {"out2"}));
  EXPECT_THAT(Sublayout(l1, {"in9"}, {}).status().message(),
              HasSubstr("Dimensions must be a subset"));
}

TEST(OpsTest, DivideLeft) {
  LinearLayout l1 = TestLayout(
      {{"in1", {{1, 1}, {2, 2}, {0, 8}, {0, 4}}}, {"in2", {{0, 2}, {0, 1}}}},
      {"out1", "out2"});
  LinearLayout l2 = TestLayout(
      {{"in1", {{1, 1}, {2, 2}}}, {"in2", {{0, 2}, {0, 1}}}}, {"out1", "out2"});
  EXPECT_EQ(
      **DivideLeft(l1, l2),
      TestLayout({{"in1", {{0, 2}, {0, 1}}}, {"in2", {}}}, {"out1", "out2"}));
  EXPECT_EQ(**DivideLeft(Id(8, "in", "out"), Id(4, "in", "out")),
            Id(2, "in", "out"));
  LinearLayout extra =
      TestLayout({{"in", {{1}, {2}, {4}, {8}}}, {"extra", {{0}}}}, {"out"});
  EXPECT_EQ(*DivideLeft(Id(32, "in", "out"), extra), std::nullopt);
}

TEST(OpsTest, ColumnAction) {
  LinearLayout l = TestLayout({{"in", {{1}, {2}, {4}}}}, {"out"});
  EXPECT_EQ(*ApplyColumnAction(l, "in", {1, 0}),
            TestLayout({{"in", {{2}, {1}}}}, {{"out", 8}}, false));
  EXPECT_EQ(*ApplyColumnAction(l, "in", {0, 1, 2}), l);
}

TEST(OpsTest, QuotientAndTriviality) {
  LinearLayout l =
      Mul(TestLayout({{"register", {{0, 1}, {1, 0}}}}, {"dim0", "dim1"}),
          Id(4, "warp", "warp"));
  EXPECT_TRUE(*IsTrivialOver(l, {"warp"}));
  EXPECT_EQ(**Quotient(l, {"warp"}),
            TestLayout({{"register", {{0, 1}, {1, 0}}}}, {"dim0", "dim1"}));
  LinearLayout mixed =
      TestLayout({{"register", {{1, 0}}}, {"warp", {{0, 1}, {1, 2}}}},
                 {"register", "warp"});
  EXPECT_FALSE(*IsTrivialOver(mixed, {"warp"}));
  EXPECT_EQ(*Quotient(mixed, {"warp"}), std::nullopt);
  EXPECT_FALSE(*IsTrivialOver(l, {"nowhere"}));
}

// ---------------------------------------------------------------------------
// Properties over random layouts.

class Random {
 public:
  explicit Random(uint64_t seed) : rng_(seed) {}
  int Int(int n) { return static_cast<int>(rng_() % n); }

  // A random layout with in-dims from {a, b, c} and out-dims from {x, y, z}.
  LinearLayout Layout(bool surjective) {
    static const char* kIns[] = {"a", "b", "c"};
    static const char* kOuts[] = {"x", "y", "z"};
    NamedInts outs;
    const int num_out = 1 + Int(3);
    for (int o = 0; o < num_out; ++o) {
      const int bits = Int(4);
      outs.emplace_back(kOuts[o], 1 << bits);
    }
    NamedBases bases;
    const int num_in = 1 + Int(3);
    for (int d = 0; d < num_in; ++d) bases.emplace_back(kIns[d], DimBases{});
    auto random_basis = [&]() {
      std::vector<int32_t> b;
      for (const auto& od : outs) b.push_back(Int(od.second));
      return b;
    };
    if (surjective) {
      // One basis per output bit, then extra random (possibly zero) bases.
      for (int o = 0; o < num_out; ++o) {
        for (int bit = 1; bit < outs[o].second; bit <<= 1) {
          std::vector<int32_t> b(num_out, 0);
          b[o] = bit;
          bases[Int(num_in)].second.push_back(b);
        }
      }
    }
    const int extra = Int(4);
    for (int i = 0; i < extra; ++i) {
      bases[Int(num_in)].second.push_back(random_basis());
    }
    for (auto& [name, b] : bases) {
      for (size_t i = 0; i + 1 < b.size(); ++i) {
        std::swap(b[i], b[i + Int(static_cast<int>(b.size() - i))]);
      }
      // Mix: xor an earlier basis into a later one keeps the rank.
      for (size_t i = 1; i < b.size(); ++i) {
        if (Int(2)) {
          for (size_t o = 0; o < b[i].size(); ++o) b[i][o] ^= b[i - 1][o];
        }
      }
    }
    absl::StatusOr<LinearLayout> l =
        LinearLayout::Create(bases, outs, surjective);
    EXPECT_TRUE(l.ok()) << l.status();
    return *l;
  }

  NamedInts Input(const LinearLayout& l) {
    NamedInts ins;
    for (int d = 0; d < l.num_in_dims(); ++d) {
      ins.emplace_back(l.in_dim_name(d), Int(l.InDimSize(d)));
    }
    return ins;
  }

 private:
  std::mt19937_64 rng_;
};

TEST(OpsTest, PseudoinverseIsARightInverseOfSurjectiveLayouts) {
  Random rnd(1);
  for (int trial = 0; trial < 400; ++trial) {
    LinearLayout a = rnd.Layout(/*surjective=*/true);
    LinearLayout p = *Pseudoinvert(a);
    for (int k = 0; k < 8; ++k) {
      NamedInts x;
      for (const auto& od : a.out_dims()) {
        x.emplace_back(od.first, rnd.Int(od.second));
      }
      NamedInts px = *p.Apply(x);
      EXPECT_EQ(*a.Apply(px), x) << a.ToString();
    }
  }
}

TEST(OpsTest, DivideLeftUndoesProduct) {
  Random rnd(2);
  for (int trial = 0; trial < 400; ++trial) {
    LinearLayout a = rnd.Layout(rnd.Int(2));
    LinearLayout b = rnd.Layout(rnd.Int(2));
    absl::StatusOr<LinearLayout> ab = Product(a, b);
    if (!ab.ok()) continue;  // conflicting dim orders
    absl::StatusOr<std::optional<LinearLayout>> c = DivideLeft(*ab, a);
    ASSERT_TRUE(c.ok()) << c.status();
    ASSERT_TRUE(c->has_value()) << ab->ToString() << a.ToString();
    // The quotient has all of ab's dims; with b's dims it equals b.
    EXPECT_EQ(*Product(a, **c), *ab);
    std::optional<LinearLayout> r = *DivideRight(*ab, b);
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(*Product(*r, b), *ab);
  }
}

TEST(OpsTest, ComposeIsAssociative) {
  Random rnd(3);
  for (int trial = 0; trial < 300; ++trial) {
    LinearLayout a = rnd.Layout(rnd.Int(2));
    // b: a's out-dims -> fresh dims; c: those -> more dims.
    NamedBases bb, cb;
    NamedInts b_outs = {{"p", 1 << rnd.Int(4)}, {"q", 1 << rnd.Int(4)}};
    NamedInts c_outs = {{"u", 1 << rnd.Int(5)}};
    for (const auto& od : a.out_dims()) {
      DimBases d;
      for (int bit = 1; bit < od.second; bit <<= 1) {
        d.push_back({rnd.Int(b_outs[0].second), rnd.Int(b_outs[1].second)});
      }
      bb.emplace_back(od.first, d);
    }
    for (const auto& od : b_outs) {
      DimBases d;
      for (int bit = 1; bit < od.second; bit <<= 1) {
        d.push_back({rnd.Int(c_outs[0].second)});
      }
      cb.emplace_back(od.first, d);
    }
    LinearLayout b = *LinearLayout::Create(bb, b_outs, false);
    LinearLayout c = *LinearLayout::Create(cb, c_outs, false);
    EXPECT_EQ(*Compose(*Compose(a, b), c), *Compose(a, *Compose(b, c)));
    // And composition is function composition.
    NamedInts x = rnd.Input(a);
    EXPECT_EQ(*Compose(a, b).value().Apply(x), *b.Apply(*a.Apply(x)));
  }
}

TEST(OpsTest, QuotientUndoesProductWithAnIdentity) {
  Random rnd(4);
  for (int trial = 0; trial < 300; ++trial) {
    LinearLayout a = rnd.Layout(rnd.Int(2));
    const int32_t n = 1 << rnd.Int(4);
    LinearLayout with = *Product(a, Id(n, "q", "q"));
    EXPECT_TRUE(*IsTrivialOver(with, {"q"}));
    EXPECT_EQ(**Quotient(with, {"q"}), a);
  }
}

TEST(OpsTest, InvertAndComposeSolves) {
  Random rnd(5);
  for (int trial = 0; trial < 400; ++trial) {
    // b's image inside a's: a surjective, same out-dims.
    LinearLayout a = rnd.Layout(/*surjective=*/true);
    NamedBases bb;
    for (const char* name : {"r", "s"}) {
      DimBases d;
      const int n = rnd.Int(4);
      for (int i = 0; i < n; ++i) {
        std::vector<int32_t> v;
        for (const auto& od : a.out_dims()) v.push_back(rnd.Int(od.second));
        d.push_back(v);
      }
      bb.emplace_back(name, d);
    }
    LinearLayout b = *LinearLayout::Create(bb, a.out_dims(), false);
    LinearLayout c = *InvertAndCompose(b, a);
    for (int k = 0; k < 8; ++k) {
      NamedInts x = rnd.Input(b);
      EXPECT_EQ(*a.Apply(*c.Apply(x)), *b.Apply(x));
    }
  }
}

TEST(OpsTest, ReshapeRoundTrips) {
  Random rnd(6);
  for (int trial = 0; trial < 200; ++trial) {
    LinearLayout a = rnd.Layout(rnd.Int(2));
    if (a.TotalOutDimSizeLog2() == 0 || a.TotalInDimSizeLog2() == 0) continue;
    LinearLayout flat = *FlattenOuts(*FlattenIns(a));
    NamedInts ins, outs;
    for (int d = 0; d < a.num_in_dims(); ++d) {
      ins.emplace_back(a.in_dim_name(d), a.InDimSize(d));
    }
    EXPECT_EQ(*ReshapeOuts(*ReshapeIns(flat, ins), a.out_dims()), a);
  }
}

}  // namespace
}  // namespace hlolayout::triton
