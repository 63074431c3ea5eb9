#include "hlolayout/triton/smem_access.h"

#include <cstdint>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "hlolayout/triton/cvt_target.h"
#include "hlolayout/triton/lds_banks.h"
#include "hlolayout/triton/ttgir_parser.h"

namespace hlolayout::triton {
namespace {

// Hand-written modules (not Triton's output). A 128 x 64 f16 tile: #rows
// gives each thread 8 consecutive elements of a row (a 16-byte vector),
// #cols one element, lanes running down a column.
constexpr char kGfx942[] = R"(
#rows = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#cols = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [64, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#swz = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#pad = #ttg.padded_shared<[64:+2] {order = [1, 0], shape = [128, 64]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 64 : i32, ttg.target = "hip:gfx942"} {
  tt.func @k(%a: tensor<128x64xf16, #rows>, %p: tensor<128x64x!tt.ptr<f16>, #rows>) {
    %0 = ttg.local_alloc %a : (tensor<128x64xf16, #rows>) -> !ttg.memdesc<128x64xf16, #swz, #smem>
    %1 = ttg.local_load %0 : !ttg.memdesc<128x64xf16, #swz, #smem> -> tensor<128x64xf16, #cols>
    %2 = ttg.local_alloc : () -> !ttg.memdesc<2x128x64xf16, #plain, #smem, mutable>
    %3 = ttg.memdesc_index %2[%c0] : !ttg.memdesc<2x128x64xf16, #plain, #smem, mutable> -> !ttg.memdesc<128x64xf16, #plain, #smem, mutable>
    ttg.local_store %a, %3 : tensor<128x64xf16, #rows> -> !ttg.memdesc<128x64xf16, #plain, #smem, mutable>
    %4 = ttg.local_load %3 : !ttg.memdesc<128x64xf16, #plain, #smem, mutable> -> tensor<128x64xf16, #cols>
    %5 = ttg.local_alloc %a : (tensor<128x64xf16, #rows>) -> !ttg.memdesc<128x64xf16, #pad, #smem>
    %6 = ttg.local_load %5 : !ttg.memdesc<128x64xf16, #pad, #smem> -> tensor<128x64xf16, #cols>
    %7 = ttg.async_copy_global_to_local %p, %3 : tensor<128x64x!tt.ptr<f16>, #rows> -> <128x64xf16, #plain, #smem, mutable>
    tt.return
  }
}
)";

constexpr char kSm90[] = R"(
#rows = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#cols = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#nvmma = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func @k(%a: tensor<64x64xf16, #rows>, %p: tensor<64x64x!tt.ptr<f16>, #rows>) {
    %0 = ttg.local_alloc : () -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
    ttg.local_store %a, %0 : tensor<64x64xf16, #rows> -> !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable>
    %1 = ttg.local_load %0 : !ttg.memdesc<64x64xf16, #nvmma, #smem, mutable> -> tensor<64x64xf16, #cols>
    %2 = ttg.async_copy_global_to_local %p, %0 : tensor<64x64x!tt.ptr<f16>, #rows> -> <64x64xf16, #nvmma, #smem, mutable>
    tt.return
  }
}
)";

std::vector<SmemOp> Ops(const char* text) {
  absl::StatusOr<TtgirModule> m = ParseTtgirModule(text);
  EXPECT_TRUE(m.ok()) << m.status();
  return m.ok() ? FindSmemOps(*m, text) : std::vector<SmemOp>{};
}

SmemAccessCost Cost(const SmemOp& op, const char* target) {
  absl::StatusOr<CvtTarget> t = CvtTargetNamed(target);
  EXPECT_TRUE(t.ok());
  absl::StatusOr<SmemAccessCost> c = CostSmemOp(op, *t);
  EXPECT_TRUE(c.ok()) << op.op << " " << op.result << ": " << c.status();
  return c.ok() ? *c : SmemAccessCost{};
}

TEST(SmemAccessTest, FindsEveryStoreAndLoad) {
  const std::vector<SmemOp> ops = Ops(kGfx942);
  std::vector<std::string> seen;
  for (const SmemOp& op : ops) seen.push_back(op.op + " " + op.result);
  // The local_alloc with no source moves nothing; memdesc_index is no
  // access.
  EXPECT_EQ(seen, (std::vector<std::string>{"local_alloc %0", "local_load %1",
                                            "local_store ", "local_load %4",
                                            "local_alloc %5", "local_load %6",
                                            "async_copy_global_to_local %7"}));
  EXPECT_TRUE(ops[0].store);
  EXPECT_FALSE(ops[1].store);
  EXPECT_EQ(ops[1].memdesc.encoding, "#swz");
  EXPECT_EQ(ops[1].tensor.encoding, "#cols");
  // The async copy's memdesc as written without `!ttg.memdesc`.
  EXPECT_EQ(ops[6].memdesc.encoding, "#plain");
  EXPECT_EQ(ops[6].memdesc.shape, (std::vector<int64_t>{128, 64}));
}

// Rows of 128 bytes written 16 bytes a lane: 8 consecutive lanes (one
// ds_write_b128 phase) fill one row, all 32 banks once.
TEST(SmemAccessTest, Gfx942RowWritesAreConflictFree) {
  const std::vector<SmemOp> ops = Ops(kGfx942);
  for (int i : {0, 2}) {
    const SmemAccessCost c = Cost(ops[i], "hip:gfx942");
    EXPECT_EQ(c.instr, "ds_write");
    EXPECT_EQ(c.bits, 128);
    EXPECT_EQ(c.count, 4);  // 32 elements a thread, 8 a write
    EXPECT_EQ(c.ways, 1);
    EXPECT_EQ(c.wavefronts, 4 * 8);  // 8 phases of 8 lanes each
    EXPECT_EQ(c.wavefronts, c.ideal_wavefronts);
  }
}

// Lanes down a column, 2 bytes each: a phase of 32 lanes (32 banks of 4
// bytes). Unswizzled rows of 128 bytes put the column in one bank: 32
// ways. Swizzled (vec 8, maxPhase 8) rows r and r + 8 share a bank: 4 ways.
// Padded by 4 bytes a row, row r is bank r + c / 2: conflict-free.
TEST(SmemAccessTest, Gfx942ColumnReads) {
  const std::vector<SmemOp> ops = Ops(kGfx942);
  const SmemAccessCost plain = Cost(ops[3], "hip:gfx942");
  EXPECT_EQ(plain.instr, "ds_read");
  EXPECT_EQ(plain.bits, 16);
  EXPECT_EQ(plain.count, 32);
  EXPECT_EQ(plain.ways, 32);
  EXPECT_EQ(plain.wavefronts, 32 * 2 * 32);
  EXPECT_EQ(plain.ideal_wavefronts, 32 * 2);
  EXPECT_EQ(Cost(ops[1], "hip:gfx942").ways, 4);
  EXPECT_EQ(Cost(ops[5], "hip:gfx942").ways, 1);
  // gfx950 reads 2 bytes a lane over 32 banks, as gfx942 (64 banks only
  // for ds_read_b64 and ds_read_b128): 4 ways too.
  EXPECT_EQ(Cost(ops[1], "hip:gfx950").ways, 4);
}

TEST(SmemAccessTest, PaddingLimitsTheVector) {
  const std::vector<SmemOp> ops = Ops(kGfx942);
  // 2 elements of padding: 4-byte vectors stay aligned.
  const SmemAccessCost c = Cost(ops[4], "hip:gfx942");
  EXPECT_EQ(c.bits, 32);
  EXPECT_EQ(c.count, 16);
  EXPECT_EQ(c.ways, 1);  // row r, lane column j: bank r + 4 j + k
}

TEST(SmemAccessTest, AmdAsyncCopyWritesInLaneOrder) {
  const SmemAccessCost c = Cost(Ops(kGfx942)[6], "hip:gfx942");
  EXPECT_EQ(c.instr, "global_load_lds");
  EXPECT_EQ(c.ways, 1);
  EXPECT_NE(c.note.find("lane order"), std::string::npos);
}

// sm_90, NVMMA 128-byte swizzle: a quarter warp writes one 128-byte row
// (conflict-free); a column read by 32 lanes meets 8 distinct 16-byte
// chunks, 4 rows in each bank.
TEST(SmemAccessTest, Sm90NvmmaSharedStoresAndLoads) {
  const std::vector<SmemOp> ops = Ops(kSm90);
  ASSERT_EQ(ops.size(), 3u);
  const SmemAccessCost st = Cost(ops[0], "cuda:90");
  EXPECT_EQ(st.instr, "st.shared");
  EXPECT_EQ(st.bits, 128);
  EXPECT_EQ(st.count, 4);
  EXPECT_EQ(st.ways, 1);
  const SmemAccessCost ld = Cost(ops[1], "cuda:90");
  EXPECT_EQ(ld.instr, "ld.shared");
  EXPECT_EQ(ld.bits, 16);
  EXPECT_EQ(ld.count, 32);
  EXPECT_EQ(ld.ways, 4);
  const SmemAccessCost cp = Cost(ops[2], "cuda:90");
  EXPECT_EQ(cp.instr, "cp.async");
  EXPECT_EQ(cp.bits, 128);
  EXPECT_EQ(cp.ways, 1);
  // The same module costed for an AMD GPU is refused: 32-lane layouts.
  absl::StatusOr<SmemAccessCost> amd =
      CostSmemOp(ops[0], *CvtTargetNamed("hip:gfx942"));
  EXPECT_FALSE(amd.ok());
}

// Lanes 0-3 and 20-23 (one ds_read_b128 phase on gfx942) read rows 0, 8,
// 16, 24 and 34, 42, 50, 58, 16 bytes each. swizzled_shared puts a row's
// chunk at r % 8: chunks 0 and 2, four rows each (4 ways);
// amd_rotating_shared XORs in the block of 8 rows: chunks 0-3 and 6, 7, 4,
// 5, conflict-free.
constexpr char kRotating[] = R"(
#lin = #ttg.linear<{register = [[0, 1], [0, 2], [0, 4], [0, 8], [0, 16], [0, 32], [64, 0]], lane = [[8, 0], [16, 0], [32, 0], [1, 0], [2, 0], [4, 0]], warp = [[0, 0], [0, 0]], block = []}>
#swz = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#rot = #ttg.amd_rotating_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 64 : i32, ttg.target = "hip:gfx942"} {
  tt.func @k(%a: !ttg.memdesc<128x64xf16, #swz, #smem>, %b: !ttg.memdesc<128x64xf16, #rot, #smem>) {
    %0 = ttg.local_load %a : !ttg.memdesc<128x64xf16, #swz, #smem> -> tensor<128x64xf16, #lin>
    %1 = ttg.local_load %b : !ttg.memdesc<128x64xf16, #rot, #smem> -> tensor<128x64xf16, #lin>
    tt.return
  }
}
)";

TEST(SmemAccessTest, Gfx942RotatingSharedRemovesTheConflicts) {
  const std::vector<SmemOp> ops = Ops(kRotating);
  ASSERT_EQ(ops.size(), 2u);
  const SmemAccessCost swz = Cost(ops[0], "hip:gfx942");
  EXPECT_EQ(swz.instr, "ds_read");
  EXPECT_EQ(swz.bits, 128);
  EXPECT_EQ(swz.count, 16);
  EXPECT_EQ(swz.ways, 4);
  EXPECT_EQ(Cost(ops[1], "hip:gfx942").ways, 1);
}

TEST(SmemAccessTest, DotOperandLoadsSayWhatIsNotModelled) {
  const char* text = R"(
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#swz = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:80"} {
  tt.func @k(%a: !ttg.memdesc<64x64xf16, #swz, #smem>) {
    %0 = ttg.local_load %a : !ttg.memdesc<64x64xf16, #swz, #smem> -> tensor<64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
    tt.return
  }
}
)";
  const std::vector<SmemOp> ops = Ops(text);
  ASSERT_EQ(ops.size(), 1u);
  const SmemAccessCost c = Cost(ops[0], "cuda:80");
  EXPECT_EQ(c.instr, "ld.shared");
  EXPECT_NE(c.note.find("ldmatrix (not modelled)"), std::string::npos);
  // A plain layout gets no such note (Gfx942ColumnReads' ops have none).
  EXPECT_EQ(Cost(Ops(kGfx942)[1], "hip:gfx950").note, "");
}

TEST(SmemAccessTest, BankWaysCountsDistinctWordsPerBank) {
  const CvtTarget nv = *CvtTargetNamed("cuda:80");
  std::vector<int64_t> same(32, 0), column(32), dense(32);
  for (int i = 0; i < 32; ++i) {
    column[i] = 128 * i;
    dense[i] = 4 * i;
  }
  EXPECT_EQ(BankWays(same, 4, true, nv), (std::pair<int, int64_t>{1, 1}));
  EXPECT_EQ(BankWays(column, 4, true, nv), (std::pair<int, int64_t>{32, 32}));
  EXPECT_EQ(BankWays(dense, 4, false, nv), (std::pair<int, int64_t>{1, 1}));
  // 8 bytes a lane: two half-warp phases, each 128 bytes.
  std::vector<int64_t> wide(32);
  for (int i = 0; i < 32; ++i) wide[i] = 8 * i;
  EXPECT_EQ(BankWays(wide, 8, true, nv), (std::pair<int, int64_t>{1, 2}));
  // gfx942 ds_read_b128 reads lanes 0-3 with 20-23: at 16 bytes a lane
  // they read banks 0-15 and 16-31; with lane bit 4 at 192 bytes instead
  // of 256, lane 20 reads byte 128, bank 0 again (lds_banks_test.cc).
  const CvtTarget amd = *CvtTargetNamed("hip:gfx942");
  std::vector<int64_t> b128(64);
  for (int i = 0; i < 64; ++i) b128[i] = 16 * i;
  EXPECT_EQ(BankWays(b128, 16, true, amd).first, 1);
  for (int i = 0; i < 64; ++i) b128[i] = (16 * i) ^ (((i >> 4) & 1) * 448);
  EXPECT_EQ(BankWays(b128, 16, true, amd).first, 2);
  EXPECT_EQ(BankWays(b128, 16, false, amd).first, 1);
}

}  // namespace
}  // namespace hlolayout::triton
