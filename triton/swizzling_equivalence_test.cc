// TEMPORARY (issue 46 item 2): the re-implemented OptimalSwizzling against
// the previous translation (triton/swizzling_port.h) on exhaustive small
// cases and seeded random ones, every target and Triton version, 8 to 64
// bit elements. Both must give the same layout, instructions, conflict
// estimate and empirical flag, or both refuse.
#include <algorithm>
#include <cstdint>
#include <iostream>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "hlolayout/testing/sanitizer_scale.h"
#include "hlolayout/triton/cvt_target.h"
#include "hlolayout/triton/linear_layout.h"
#include "hlolayout/triton/ops.h"
#include "hlolayout/triton/swizzling.h"
#include "hlolayout/triton/swizzling_port.h"

namespace hlolayout::triton {
namespace {

using Bases = std::vector<int32_t>;

DimBases Dim(const Bases& v) {
  DimBases out;
  for (int32_t x : v) out.push_back({x});
  return out;
}

// A register layout over a 2^bits tensor seen as 2^low x 2^(bits - low).
LinearLayout Make(const Bases& regs, const Bases& lanes, const Bases& warps,
                  int bits, int low) {
  LinearLayout flat = *LinearLayout::Create(
      {{"register", Dim(regs)}, {"lane", Dim(lanes)}, {"warp", Dim(warps)}},
      {{"dim0", 1 << bits}}, /*require_surjective=*/false);
  return *ReshapeOuts(flat, {{"dim0", 1 << (bits - low)}, {"dim1", 1 << low}});
}

std::vector<SmemTarget> AllTargets() {
  std::vector<SmemTarget> out;
  for (TritonVersion v : {TritonVersion::k3_6_0, TritonVersion::k3_9_0}) {
    for (const std::string& name : ModelledCvtTargets()) {
      out.push_back(CvtTargetNamed(name, v)->smem);
    }
  }
  return out;
}

// What the cases exercised (printed, so a run shows the comparison is not
// vacuous): matrix instructions chosen, rounds split off, conflicts
// estimated, the empirical read phase, refusals.
struct Coverage {
  int cases = 0, matrix = 0, rounds = 0, conflicts = 0, empirical = 0,
      refused = 0;
  ~Coverage() {
    std::cout << "cases " << cases << " matrix " << matrix << " rounds "
              << rounds << " conflicts " << conflicts << " empirical "
              << empirical << " refused " << refused << "\n";
  }
};

int Compare(Coverage& cov, const LinearLayout& src, const LinearLayout& dst,
            const std::vector<SmemTarget>& targets,
            const std::vector<int>& widths) {
  int differences = 0;
  for (const SmemTarget& t : targets) {
    for (int bits : widths) {
      const SmemTiles tiles = SmemTilesFor(bits, t);
      absl::StatusOr<SwizzleChoice> now =
          OptimalSwizzling(src, dst, tiles, bits, t);
      absl::StatusOr<SwizzleChoice> before =
          port::OptimalSwizzling(src, dst, tiles, bits, t);
      ++cov.cases;
      if (before.ok()) {
        cov.matrix += before->store != SmemInstrKind::kVector ||
                      before->load != SmemInstrKind::kVector;
        cov.rounds +=
            before->smem.InDimSizeLog2(before->smem.InDimIndex("reps")) > 0;
        cov.conflicts +=
            before->store_conflicts_log2 + before->load_conflicts_log2 > 0;
        cov.empirical += before->empirical;
      } else {
        ++cov.refused;
      }
      bool same = now.ok() == before.ok();
      if (same && now.ok()) {
        same = now->smem == before->smem && now->store == before->store &&
               now->load == before->load &&
               now->store_conflicts_log2 == before->store_conflicts_log2 &&
               now->load_conflicts_log2 == before->load_conflicts_log2 &&
               now->empirical == before->empirical;
      } else if (same) {
        same = now.status().code() == before.status().code();
      }
      if (!same && ++differences <= 3) {
        ADD_FAILURE() << "bits " << bits << " banks " << t.banks << "\nsrc "
                      << src << "dst " << dst << "now "
                      << (now.ok() ? now->smem.ToString()
                                   : now.status().ToString())
                      << "before "
                      << (before.ok() ? before->smem.ToString()
                                      : before.status().ToString());
      }
    }
  }
  return differences;
}

// Every pair of layouts whose bases are the units of a 32-element tensor
// in any order (two registers, two lanes, one warp), on toy targets with
// 1 to 4 banks, so that so small a tensor has segment bases, rounds and
// conflicts.
TEST(SwizzlingEquivalence, ExhaustiveThirtyTwoElementsToyBanks) {
  std::vector<SmemTarget> targets(4);
  targets[0].banks = 1;
  targets[0].weigh_tiles = false;
  targets[1].banks = 2;
  targets[1].weigh_tiles = false;
  targets[1].phase_lanes = true;
  targets[1].b128_load_lanes = {1, 0};
  targets[1].b128_load_lanes_alt = {1};
  targets[2].banks = 4;
  targets[2].reorder_banks = false;
  targets[3].banks = 1;
  targets[3].ld_matrix = targets[3].st_matrix = true;
  Bases order = {1, 2, 4, 8, 16};
  std::vector<LinearLayout> layouts;
  do {
    layouts.push_back(
        Make({order[0], order[1]}, {order[2], order[3]}, {order[4]}, 5, 2));
  } while (std::next_permutation(order.begin(), order.end()));
  int differences = 0;
  Coverage cov;
  for (const LinearLayout& a : layouts) {
    for (const LinearLayout& b : layouts) {
      differences += Compare(cov, a, b, targets, {8, 64});
    }
  }
  EXPECT_EQ(differences, 0);
}

// 128 elements over two registers and 32 lanes (where ldmatrix/stmatrix
// fit): every order of the loaded layout against a few stored ones.
TEST(SwizzlingEquivalence, ExhaustiveLoadedOrders) {
  const std::vector<SmemTarget> targets = {CvtTargetNamed("cuda:90")->smem,
                                           CvtTargetNamed("cuda:80")->smem};
  Bases order = {1, 2, 4, 8, 16, 32, 64};
  std::vector<LinearLayout> stored;
  std::mt19937 rng(46);
  for (int i = 0; i < 3; ++i) {
    Bases o = order;
    std::shuffle(o.begin(), o.end(), rng);
    stored.push_back(
        Make({o[0], o[1]}, {o[2], o[3], o[4], o[5], o[6]}, {}, 7, 3));
  }
  stored.push_back(Make({1, 2}, {4, 8, 16, 32, 64}, {}, 7, 3));
  int differences = 0;
  Coverage cov;
  do {
    const LinearLayout b =
        Make({order[0], order[1]},
             {order[2], order[3], order[4], order[5], order[6]}, {}, 7, 3);
    for (const LinearLayout& a : stored) {
      differences += Compare(cov, a, b, targets, {16});
    }
  } while (std::next_permutation(order.begin(), order.end()));
  EXPECT_EQ(differences, 0);
}

// Random layouts: an invertible matrix (units mixed by row additions),
// its columns dealt to registers, lanes (32 or 64) and warps, with
// broadcast (zero) lanes and warps mixed in.
TEST(SwizzlingEquivalence, RandomSeeded) {
  const std::vector<SmemTarget> targets = AllTargets();
  std::mt19937 rng(20261125);
  auto side = [&](int bits, int lane_bits, int zero_lanes, int warps, int low) {
    Bases basis(bits);
    for (int i = 0; i < bits; ++i) basis[i] = 1 << i;
    std::shuffle(basis.begin(), basis.end(), rng);
    const int mixes = rng() % 3 == 0 ? rng() % 4 : 0;
    for (int m = 0; m < mixes; ++m) {
      const int i = rng() % bits, j = rng() % bits;
      if (i != j) basis[i] ^= basis[j];
    }
    const int regs = bits - (lane_bits - zero_lanes) - warps;
    Bases r(basis.begin(), basis.begin() + regs);
    Bases l(basis.begin() + regs,
            basis.begin() + regs + lane_bits - zero_lanes);
    Bases w(basis.begin() + regs + lane_bits - zero_lanes, basis.end());
    for (int z = 0; z < zero_lanes; ++z)
      l.insert(l.begin() + rng() % (l.size() + 1), 0);
    if (rng() % 4 == 0) w.insert(w.begin() + rng() % (w.size() + 1), 0);
    return Make(r, l, w, bits, low);
  };
  int differences = 0;
  Coverage cov;
  for (int trial = 0; trial < SanitizerScaled(800); ++trial) {
    const int lane_bits = rng() % 2 ? 5 : 6;
    const int warps = rng() % 3;
    const int bits = lane_bits + warps + 1 + rng() % 4;
    const int low = rng() % (bits + 1);
    const LinearLayout a = side(bits, lane_bits, rng() % 3 == 0, warps, low);
    const LinearLayout b = side(bits, lane_bits, rng() % 3 == 0, warps, low);
    differences += Compare(cov, a, b, targets, {8, 16, 32, 64});
  }
  EXPECT_EQ(differences, 0);
}

}  // namespace
}  // namespace hlolayout::triton
