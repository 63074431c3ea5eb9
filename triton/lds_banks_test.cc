// The bank model of lds_banks.h: each target's phases and banks as
// docs/triton-smem.md ("Banks and phases") states them, and worked ways.
#include "hlolayout/triton/lds_banks.h"

#include <cstdint>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "hlolayout/triton/cvt_target.h"

namespace hlolayout::triton {
namespace {

CvtTarget Target(const std::string& name) {
  absl::StatusOr<CvtTarget> t = CvtTargetNamed(name);
  EXPECT_TRUE(t.ok()) << t.status();
  return *t;
}

std::vector<int> Lanes(std::vector<std::pair<int, int>> runs) {
  std::vector<int> out;
  for (auto [first, last] : runs) {
    for (int l = first; l <= last; ++l) out.push_back(l);
  }
  return out;
}

TEST(LdsBanksTest, Banks) {
  const CvtTarget gfx942 = Target("hip:gfx942");
  const CvtTarget gfx950 = Target("hip:gfx950");
  for (int bytes : {1, 2, 4, 8, 16}) {
    for (bool load : {false, true}) {
      EXPECT_EQ(BankCount(gfx942, bytes, load), 32);
      EXPECT_EQ(BankCount(Target("cuda:90"), bytes, load), 32);
      // gfx950: 64 banks for ds_read_b64 and ds_read_b128 only.
      EXPECT_EQ(BankCount(gfx950, bytes, load), load && bytes >= 8 ? 64 : 32);
    }
  }
}

TEST(LdsBanksTest, Phases) {
  const CvtTarget gfx942 = Target("hip:gfx942");
  const CvtTarget gfx950 = Target("hip:gfx950");
  // gfx942 ds_read_b128: lanes 0-3 with 20-23, 4-7 with 16-19, 8-11 with
  // 28-31, 12-15 with 24-27, the same in the upper half.
  std::vector<std::vector<int>> p = AccessPhases(gfx942, 64, 16, true);
  ASSERT_EQ(p.size(), 8u);
  EXPECT_EQ(p[0], Lanes({{0, 3}, {20, 23}}));
  EXPECT_EQ(p[1], Lanes({{4, 7}, {16, 19}}));
  EXPECT_EQ(p[2], Lanes({{8, 11}, {28, 31}}));
  EXPECT_EQ(p[3], Lanes({{12, 15}, {24, 27}}));
  EXPECT_EQ(p[4], Lanes({{32, 35}, {52, 55}}));
  // ds_write_b128: 8 consecutive lanes.
  p = AccessPhases(gfx942, 64, 16, false);
  ASSERT_EQ(p.size(), 8u);
  EXPECT_EQ(p[1], Lanes({{8, 15}}));
  // 8 bytes: 16 lanes, 4 bytes or fewer: 32.
  EXPECT_EQ(AccessPhases(gfx942, 64, 8, true)[1], Lanes({{16, 31}}));
  EXPECT_EQ(AccessPhases(gfx942, 64, 2, false)[1], Lanes({{32, 63}}));
  // gfx950 ds_read_b128 over 64 banks: 16 lanes a phase.
  p = AccessPhases(gfx950, 64, 16, true);
  ASSERT_EQ(p.size(), 4u);
  EXPECT_EQ(p[0], Lanes({{0, 3}, {12, 15}, {20, 23}, {24, 27}}));
  EXPECT_EQ(p[1], Lanes({{4, 11}, {16, 19}, {28, 31}}));
  // ds_read_b64 over 64 banks: 32 lanes; ds_write_b64 over 32: 16.
  EXPECT_EQ(AccessPhases(gfx950, 64, 8, true)[0], Lanes({{0, 31}}));
  EXPECT_EQ(AccessPhases(gfx950, 64, 8, false)[0], Lanes({{0, 15}}));
  // gfx90a: consecutive lanes for every access.
  EXPECT_EQ(AccessPhases(Target("hip:gfx90a"), 64, 16, true)[1],
            Lanes({{8, 15}}));
  // NVIDIA: the warp, half warps at 8 bytes, quarter warps at 16.
  EXPECT_EQ(AccessPhases(Target("cuda:80"), 32, 16, true)[1], Lanes({{8, 15}}));
}

TEST(LdsBanksTest, Ways) {
  const CvtTarget gfx942 = Target("hip:gfx942");
  // 16 bytes a lane at lane * 16: every phase reads 128 distinct bytes.
  std::vector<int64_t> a(64);
  for (int l = 0; l < 64; ++l) a[l] = int64_t{l} * 16;
  EXPECT_EQ(BankWays(a, 16, true, gfx942).first, 1);
  EXPECT_EQ(BankWays(a, 16, false, gfx942).first, 1);
  // Lane bit 4 at 192 instead of 256: lane 20 reads byte 128, bank 0 as
  // lane 0, in its phase; 8 consecutive lanes still do not collide.
  for (int l = 0; l < 64; ++l) {
    a[l] = (int64_t{l} * 16) ^ (((l >> 4) & 1) * 448);
  }
  EXPECT_EQ(BankWays(a, 16, true, gfx942).first, 2);
  EXPECT_EQ(BankWays(a, 16, false, gfx942).first, 1);
  // gfx950: 8 bytes a lane at lane * 8 is conflict-free; at lane * 256
  // every lane is in banks 0 and 1, another word each: a read phase of 32
  // lanes takes 32 wavefronts, a write phase of 16 lanes 16.
  const CvtTarget gfx950 = Target("hip:gfx950");
  for (int l = 0; l < 64; ++l) a[l] = int64_t{l} * 8;
  EXPECT_EQ(BankWays(a, 8, true, gfx950).first, 1);
  EXPECT_EQ(BankWays(a, 8, false, gfx950).first, 1);
  for (int l = 0; l < 64; ++l) a[l] = int64_t{l} * 256;
  EXPECT_EQ(BankWays(a, 8, true, gfx950).first, 32);
  EXPECT_EQ(BankWays(a, 8, false, gfx950).first, 16);
  // The same word is read once (a broadcast).
  for (int l = 0; l < 64; ++l) a[l] = 0;
  const std::pair<int, int64_t> w = BankWays(a, 4, true, gfx942);
  EXPECT_EQ(w.first, 1);
  EXPECT_EQ(w.second, 2);  // two phases of 32 lanes
}

}  // namespace
}  // namespace hlolayout::triton
