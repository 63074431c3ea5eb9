// The allocation-light conversion path (named_layouts_fast.h) against the
// general construction: on every case of triton/testdata/named_layouts.jsonl
// and on random blocked, MMA and dot-operand layouts, whenever the fast path
// answers, the general path accepts the same layout and gives the same
// LinearLayout.
#include "hlolayout/triton/named_layouts_fast.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "hlolayout/testing/triton_test_data.h"
#include "hlolayout/triton/linear_layout.h"
#include "hlolayout/triton/named_layouts.h"
#include "hlolayout/triton/ttgir_parser.h"
#include "hlolayout/triton/ttgir_printer.h"

namespace hlolayout::triton {
namespace {

// True when the fast path answered; fails the test if it disagrees.
bool Agrees(const Layout& layout, const std::vector<int64_t>& shape) {
  std::optional<LinearLayout> fast = FastToLinearLayout(layout, shape);
  absl::StatusOr<LinearLayout> general = ToLinearLayoutGeneral(layout, shape);
  absl::StatusOr<LinearLayout> entry = ToLinearLayout(layout, shape);
  EXPECT_EQ(entry.ok(), general.ok()) << PrintLayout(layout);
  if (entry.ok() && general.ok()) {
    EXPECT_EQ(entry->ToString(), general->ToString()) << PrintLayout(layout);
  }
  if (!fast.has_value()) return false;
  if (!general.ok()) {
    ADD_FAILURE() << PrintLayout(layout) << " at ["
                  << absl::StrJoin(shape, ", ")
                  << "]: the fast path accepts what the general path refuses: "
                  << general.status().message();
    return true;
  }
  EXPECT_TRUE(*fast == *general)
      << PrintLayout(layout) << " at [" << absl::StrJoin(shape, ", ")
      << "]\nfast:    " << fast->ToString()
      << "\ngeneral: " << general->ToString();
  return true;
}

TEST(NamedLayoutsFastTest, AgreesOnEveryDataRow) {
  const std::vector<JsonValue> rows =
      ReadJsonLines("triton/testdata/named_layouts.jsonl");
  ASSERT_EQ(rows.size(), 1000u);
  int taken = 0;
  for (const JsonValue& row : rows) {
    absl::StatusOr<Layout> layout = ParseLayout(row.Find("layout")->string);
    if (!layout.ok()) {
      // Refused by Triton's attribute verifier; Triton refused it too.
      EXPECT_NE(row.Find("refused"), nullptr) << layout.status();
      continue;
    }
    taken += Agrees(*layout, Ints(*row.Find("shape")));
  }
  // Blocked, MMA and dot-operand rows on one CTA take the fast path.
  EXPECT_GT(taken, 250);
}

class Random {
 public:
  explicit Random(uint32_t seed) : gen_(seed) {}
  int Below(int n) {
    return std::uniform_int_distribution<int>(0, n - 1)(gen_);
  }
  // Mostly powers of two up to 2^max_log2, sometimes 3 or 0.
  int32_t Pow2(int max_log2) {
    const int r = Below(20);
    if (r == 0) return 3;
    if (r == 1) return 0;
    return int32_t{1} << Below(max_log2 + 1);
  }
  std::vector<int32_t> Pow2s(int rank, int max_log2) {
    std::vector<int32_t> v;
    for (int i = 0; i < rank; ++i) v.push_back(Pow2(max_log2));
    return v;
  }
  std::vector<int32_t> Order(int rank) {
    std::vector<int32_t> order;
    for (int i = 0; i < rank; ++i) order.push_back(i);
    std::shuffle(order.begin(), order.end(), gen_);
    if (Below(30) == 0) order[0] = order.back();  // not a permutation
    return order;
  }
  std::vector<int64_t> Shape(int rank) {
    std::vector<int64_t> shape;
    for (int i = 0; i < rank; ++i) shape.push_back(int64_t{1} << Below(9));
    if (Below(40) == 0) shape.push_back(4);  // wrong rank
    return shape;
  }
  BlockedLayout Blocked(int rank) {
    BlockedLayout b;
    b.size_per_thread = Pow2s(rank, 3);
    b.threads_per_warp = Pow2s(rank, 5);
    b.warps_per_cta = Pow2s(rank, 3);
    b.order = Order(rank);
    if (Below(20) == 0) b.cga = {std::vector<int32_t>(rank, 0)};
    return b;
  }
  NvidiaMmaLayout Mma(int rank) {
    NvidiaMmaLayout m;
    m.version_major = Below(8) == 0 ? 3 : 2;
    if (m.version_major == 3) rank = 2;
    m.warps_per_cta = Pow2s(rank, 3);
    if (m.version_major == 2) {
      m.instr_shape = std::vector<int32_t>(rank, 1);
      m.instr_shape[rank - 2] = 16;
      m.instr_shape[rank - 1] = 8;
      if (Below(20) == 0) m.instr_shape[rank - 1] = 12;
    } else {
      m.instr_shape = {16, 8 * (1 << Below(5)), 16};
    }
    return m;
  }

 private:
  std::mt19937 gen_;
};

TEST(NamedLayoutsFastTest, AgreesOnRandomLayouts) {
  Random random(24);
  int taken = 0;
  for (int i = 0; i < 1500; ++i) {
    const int rank = 1 + random.Below(3);
    const int kind = random.Below(4);
    std::vector<int64_t> shape;
    if (kind == 0) {
      shape = random.Shape(rank);
      taken += Agrees(Layout(random.Blocked(rank)), shape);
      continue;
    }
    const int mma_rank = rank < 2 ? 2 : rank;
    NvidiaMmaLayout mma = random.Mma(mma_rank);
    shape = random.Shape(static_cast<int>(mma.warps_per_cta.size()));
    if (kind == 1) {
      taken += Agrees(Layout(mma), shape);
      continue;
    }
    DotOperandLayout dot;
    dot.op_idx = random.Below(10) == 0 ? 2 : random.Below(2);
    dot.k_width = random.Pow2(4);
    if (kind == 2) {
      dot.parent = std::make_shared<Layout>(mma);
    } else {
      BlockedLayout b = random.Blocked(mma_rank);
      shape = random.Shape(mma_rank);
      dot.parent = std::make_shared<Layout>(b);
    }
    taken += Agrees(Layout(dot), shape);
  }
  EXPECT_GT(taken, 250);
}

}  // namespace
}  // namespace hlolayout::triton
