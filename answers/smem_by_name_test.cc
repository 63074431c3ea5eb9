// SmemLayoutByName: the three ways to name shared memory give the same
// offsets where they name the same layout, and the refusals.
#include "hlolayout/answers/smem_by_name.h"

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "hlolayout/answers/smem_twin.h"
#include "hlolayout/cute/smem_atoms.h"
#include "hlolayout/triton/named_layouts.h"

namespace hlolayout::triton {
namespace {

std::vector<int64_t> Offsets(const NamedSmem& s, int64_t rows, int64_t cols) {
  std::vector<int64_t> out;
  for (int64_t m = 0; m < rows; ++m) {
    for (int64_t n = 0; n < cols; ++n) {
      absl::StatusOr<int64_t> o = s.layout.Offset(m, n, rows, cols);
      EXPECT_TRUE(o.ok()) << o.status();
      out.push_back(o.value_or(-1));
    }
  }
  return out;
}

// Every #ttg.nvmma_shared (not transposed: K-major) of 8, 16 and 32-bit
// elements and 0 to 128-byte swizzles on tiles of 8 to 64 rows and 16 to
// 128 columns that have a CuTe twin tiled column-major: the two names give
// the same offset to every element, and the same element width.
TEST(SmemByNameTest, TritonLayoutsAndTheirCuteAtomsAgree) {
  int compared = 0;
  for (int bits : {8, 16, 32}) {
    for (int swizzle : {0, 32, 64, 128}) {
      for (int64_t rows : {8, 16, 64}) {
        for (int64_t cols : {16, 32, 64, 128}) {
          NvmmaSharedLayout n;
          n.swizzle_bytes = swizzle;
          n.element_bits = bits;
          const std::string attr = NvmmaAttr(n);
          absl::StatusOr<absl::optional<CuteSmemTwin>> twin =
              CuteTwinOf(n, {rows, cols});
          if (!twin.ok() || !twin->has_value() || (*twin)->order) continue;
          SCOPED_TRACE(
              absl::StrCat(attr, " ", rows, "x", cols, " ", (*twin)->atom));
          absl::StatusOr<NamedSmem> t =
              SmemLayoutByName(attr, rows, cols, bits);
          absl::StatusOr<NamedSmem> c =
              SmemLayoutByName((*twin)->atom, rows, cols, bits);
          ASSERT_TRUE(t.ok()) << t.status();
          ASSERT_TRUE(c.ok()) << c.status();
          EXPECT_EQ(t->element_bits, bits);
          EXPECT_EQ(c->element_bits, bits);
          EXPECT_EQ(Offsets(*t, rows, cols), Offsets(*c, rows, cols));
          ++compared;
        }
      }
    }
  }
  EXPECT_GT(compared, 50);
}

TEST(SmemByNameTest, LayoutTextIsEvaluatedAsBefore) {
  absl::StatusOr<NamedSmem> s = SmemLayoutByName("(4,8):(8,1)", 4, 8, 16);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->element_bits, 0);
  EXPECT_EQ(s->description, "(4,8):(8,1)");
  EXPECT_EQ(Offsets(*s, 4, 8)[9], 9);  // (1,1)
}

TEST(SmemByNameTest, Descriptions) {
  absl::StatusOr<NamedSmem> s =
      SmemLayoutByName("GMMA::Layout_K_SW128_Atom<half_t>", 32, 64, 16);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->description,
            "GMMA::Layout_K_SW128_Atom<half_t> tiled to (_32,_64): Sw<3,4,3> "
            "o smem_ptr[16b](unset) o ((_8,_4),(_64,_1)):((_64,_512),(_1,_0))");
  s = SmemLayoutByName(
      "#ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = "
      "[1, 0]}>",
      16, 64, 16);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_TRUE(absl::EndsWith(s->description, "}> on 16x64"));
}

TEST(SmemByNameTest, Refusals) {
  auto message = [](const std::string& text, int64_t rows, int64_t cols,
                    int bits) {
    int b = bits;
    absl::StatusOr<NamedSmem> s = SmemForAccess(text, rows, cols, b);
    EXPECT_FALSE(s.ok()) << text;
    return std::string(s.status().message());
  };
  EXPECT_EQ(message("GMMA::Layout_K_SW128_Atom_Bits", 32, 64, 16),
            "SMEM: GMMA::Layout_K_SW128_Atom_Bits is in bits: name the typed "
            "atom, such as GMMA::Layout_K_SW128_Atom<half_t>, so that its "
            "offsets are elements");
  EXPECT_TRUE(absl::StartsWith(
      message("GMMA::Layout_K_SW128_Atom<half_t>", 32, 16, 16),
      "SMEM: GMMA::Layout_K_SW128_Atom<half_t> tiled to the 32x16 tile: "))
      << message("GMMA::Layout_K_SW128_Atom<half_t>", 32, 16, 16);
  EXPECT_TRUE(absl::StrContains(
      message("GMMA::Layout_K_SW12_Atom<half_t>", 32, 64, 16), "nearest"));
  EXPECT_EQ(message("GMMA::Layout_K_SW128_Atom<float>", 32, 64, 16),
            "SMEM holds 32-bit elements but the access moves 16-bit values");
  EXPECT_TRUE(absl::StartsWith(
      message("#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, "
              "8], warpsPerCTA = [4, 1], order = [1, 0]}>",
              32, 32, 16),
      "SMEM: a #ttg.blocked layout places registers, not shared memory"));
  EXPECT_EQ(message("(32,32):(32,1)", 32, 32, 0),
            "the width of a value is needed: SMEM names no element width");
  EXPECT_TRUE(absl::StartsWith(message("(32,32:(32,1)", 32, 32, 16),
                               "SMEM: 1:"));  // located
}

TEST(SmemByNameTest, AWidthFromTheName) {
  int bits = 0;
  absl::StatusOr<NamedSmem> s = SmemForAccess(
      "#ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, "
      "elementBitWidth = 8}>",
      16, 64, bits);
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(bits, 8);
}

}  // namespace
}  // namespace hlolayout::triton
