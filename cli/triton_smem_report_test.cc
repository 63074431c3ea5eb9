// `hlolayout triton report`'s shared-memory stores and loads (issue 47 item
// 9): a gfx942 module whose operands go through local_alloc/local_load and
// no convert_layout now shows its LDS traffic, in text and --json.
#include <string>

#include "absl/strings/match.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlolayout/testing/run_cli.h"

namespace hlolayout::cli {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// Hand-written: a 128 x 64 f16 tile stored row by row (8 elements a
// thread), read back down columns.
const char kGfx942[] = R"(
#rows = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#cols = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [64, 1], warpsPerCTA = [1, 4], order = [0, 1]}>
#swz = #ttg.swizzled_shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 64 : i32, ttg.target = "hip:gfx942"} {
  tt.func @k(%a: tensor<128x64xf16, #rows>) {
    %0 = ttg.local_alloc %a : (tensor<128x64xf16, #rows>) -> !ttg.memdesc<128x64xf16, #swz, #smem>
    %1 = ttg.local_load %0 : !ttg.memdesc<128x64xf16, #swz, #smem> -> tensor<128x64xf16, #cols>
    tt.return
  }
}
)";

TEST(TritonSmemReportTest, TextShowsEachStoreAndLoad) {
  const CliResult r = RunCli({"triton", "report", "-"}, kGfx942);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("convert_layout ops (0):"));
  EXPECT_THAT(r.out, HasSubstr("shared-memory stores and loads (2):"));
  EXPECT_THAT(r.out, HasSubstr("%0 = local_alloc !ttg.memdesc<128x64xf16> "
                               "#rows -> #swz"));
  EXPECT_THAT(r.out,
              HasSubstr("hip:gfx942: 4 x ds_write 128-bit per thread, bank "
                        "conflicts none (32 wavefronts a warp)"));
  EXPECT_THAT(r.out,
              HasSubstr("hip:gfx942: 32 x ds_read 16-bit per thread, bank "
                        "conflicts 4-way (256 wavefronts a warp, 64 without "
                        "conflicts)"));
}

TEST(TritonSmemReportTest, JsonHasTheFigures) {
  const CliResult r = RunCli({"triton", "report", "-", "--json"}, kGfx942);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("\"smem_ops\": ["));
  EXPECT_THAT(r.out, HasSubstr("\"op\": \"local_load\""));
  EXPECT_THAT(r.out, HasSubstr("\"ways\": 4"));
  EXPECT_THAT(r.out, HasSubstr("\"wavefronts\": 256"));
}

TEST(TritonSmemReportTest, OtherTargets) {
  // gfx950 reads 16 bits a lane over 32 banks, as gfx942 (64 banks are
  // for ds_read_b64 and ds_read_b128 only): 4 rows of a column share a
  // bank in a 32-lane phase.
  CliResult r =
      RunCli({"triton", "report", "-", "--target", "hip:gfx950"}, kGfx942);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("hip:gfx950: 32 x ds_read 16-bit per thread, "
                               "bank conflicts 4-way (256 wavefronts a warp, "
                               "64 without conflicts)"));
  // A 32-lane GPU cannot run these 64-lane layouts: said per op.
  r = RunCli({"triton", "report", "-", "--target", "cuda:90"}, kGfx942);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("cuda:90: cost unknown: the layout has 64 "
                               "lanes, cuda:90 warps have 32"));
}

TEST(TritonSmemReportTest, NoTargetIsSaid) {
  std::string text = kGfx942;
  text.replace(text.find(", ttg.target = \"hip:gfx942\""),
               std::string(", ttg.target = \"hip:gfx942\"").size(), "");
  const CliResult r = RunCli({"triton", "report", "-"}, text);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("hip:gfx942 (assumed: the module names no "
                               "target): 4 x ds_write"));
}

TEST(TritonSmemReportTest, NothingWithoutSharedMemory) {
  const CliResult r =
      RunCli({"triton", "report", "-"},
             "#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], "
             "warpsPerCTA = [4], order = [0]}>\n"
             "module attributes {\"ttg.num-warps\" = 4 : i32} {\n"
             "  tt.func @f(%x: tensor<128xf32, #b>) { tt.return }\n}\n");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, Not(HasSubstr("shared-memory stores and loads")));
}

}  // namespace
}  // namespace hlolayout::cli
