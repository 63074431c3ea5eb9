#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "hlolayout/testing/run_cli.h"
#include "hlolayout/testing/test_data.h"

namespace hlolayout::cli {
namespace {

using Result = CliResult;

const char kTiled[] =
    "tensor<53x63xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <3x2>, "
    "memref<1x1x!tt.tile<32 x 32, bfp_bf8>, #tt.memory_space<l1>>>>";
const char kScalar[] =
    "tensor<53x63xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, <3x2>, "
    "memref<18x32xf32, #tt.memory_space<l1>>>>";

TEST(GridCommand, ExplainText) {
  Result r = RunCli({"grid", "explain", kTiled});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("shard:           18x32 scalars"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("padding by dim:  dim 0: 14,14,15; dim 1: 0,1"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("bytes:           1088 per shard, 6528 total"),
            std::string::npos);
}

TEST(GridCommand, ExplainJsonFromStdin) {
  // A multi-line tensor on standard input, as the seed writes it.
  Result r = RunCli({"grid", "explain", "--json", "-"},
                    "tensor<53x63xf32,\n  #tt.metal_layout<\n    (d0, d1) -> "
                    "(d0, d1),\n    undef,\n    <3x2>,\n    memref<18x32xf32, "
                    "#tt.memory_space<l1>>\n  >\n>\n");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("\"total_padding\": 117"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"tile\": null"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.front(), '{');
}

TEST(GridCommand, Locate) {
  Result r = RunCli({"grid", "locate", kTiled, "20,40"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("core:         1,1\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("in tile:      2,8 (in 32x32)\n"), std::string::npos);
  r = RunCli({"grid", "locate", "--json", kScalar, "52,62"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("\"tile\": null"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"byte_offset\": 2168"), std::string::npos) << r.out;
}

TEST(GridCommand, Errors) {
  Result r = RunCli({"grid", "locate", kTiled, "53,0"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err,
            "hlolayout grid locate: index 53 is out of bounds for dim 0 of "
            "size 53\n");
  r = RunCli({"grid", "explain", "tensor<53x63xf32>"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err,
            "hlolayout grid explain: 1:17: expected ',' and a layout "
            "(#ttnn.ttnn_layout, #ttcore.metal_layout)\ntensor<53x63xf32>\n"
            "                ^\n");
  EXPECT_EQ(RunCli({"grid"}).status, 2);
  EXPECT_EQ(RunCli({"grid", "nope"}).status, 2);
  EXPECT_EQ(RunCli({"grid", "explain"}).status, 2);
  EXPECT_EQ(RunCli({"grid", "locate", kTiled}).status, 2);
  EXPECT_EQ(RunCli({"grid", "explain", "--jsn", kTiled}).status, 2);
}

TEST(GridCommand, Help) {
  Result r = RunCli({"grid", "--help"});
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("usage: hlolayout grid SUBCOMMAND"), std::string::npos);
  r = RunCli({"grid", "explain", "--help"});
  EXPECT_NE(r.out.find("usage: hlolayout grid explain"), std::string::npos);
  r = RunCli({"grid", "locate", kTiled, "--help"});
  EXPECT_NE(r.out.find("usage: hlolayout grid locate"), std::string::npos);
}

TEST(GridCommand, Collapse) {
  Result r = RunCli(
      {"grid", "collapse", "2x3x4x5x6x7x8xf32", "2x1x3x2", "(0,3),(-3,-1)"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("joined:  (d0, d1, d2, d3, d4, d5, d6) -> (d0 <> d1 <> "
                       "d2, d3, d4 <> d5, d6)\n"),
            std::string::npos)
      << r.out;
  r = RunCli({"grid", "collapse", "--tile=bfp_bf8", "2x3x64x128xf32", "2x2x4",
              "(1,-1)"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("memref<1x3x1x!tt.tile<32 x 32, bfp_bf8>"),
            std::string::npos)
      << r.out;
  r = RunCli({"grid", "collapse", "2x3x64x128xf32", "2x2", "(1,-1)"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err,
            "hlolayout grid collapse: collapsed rank 3 exceeds grid rank 2\n");
  EXPECT_EQ(RunCli({"grid", "collapse", "4xf32"}).status, 2);
  EXPECT_NE(RunCli({"grid", "collapse", "--help"})
                .out.find("usage: hlolayout grid collapse"),
            std::string::npos);
}

TEST(GridCommand, BatchOps) {
  const std::string input =
      std::string("grid-shard\t") + kScalar + "\ngrid-shard\t" + kTiled +
      "\ngrid-locate\t" + kTiled + "\t20,40\ngrid-locate\t" + kScalar +
      "\t20,40\ngrid-locate\t" + kScalar + "\t1,2,3\ngrid-shard\n";
  Result r = RunCli({"batch"}, input);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out,
            "18x32\n"
            "1x1\n"
            "core=1,1 offset=2,8 tile=0,0 in_tile=2,8\n"
            "core=1,1 offset=2,8\n"
            "error: index has 3 values but the tensor has rank 2\n"
            "error: grid-shard takes 1 tab-separated argument, got 0\n");
}

const char kWidth[] =
    "tensor<32x4096xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x8>, "
    "memref<1x16x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<l1>>, "
    "<width_sharded>, core_ranges = <[#ttnn.core_range<(0,0), (7,0)>]>>>";
const char kStale[] =
    "tensor<32x32xf32, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, "
    "memref<4x4x!ttcore.tile<32x32, f32>, #ttnn.buffer_type<dram>>, "
    "<interleaved>>>";
const char kMetal[] =
    "tensor<2x6x2x2x!ttcore.tile<32x32, f32>, #ttcore.metal_layout<"
    "logical_shape = 128x384, dim_alignments = 32x32, collapsed_intervals = "
    "dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>, l1, sharded>>";

TEST(GridCommand, TtnnExplainAndLocate) {
  Result r = RunCli({"grid", "explain", kWidth});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_NE(r.out.find("memref:          memref<1x16x!ttcore.tile<32x32, "
                       "bf16>, #ttnn.buffer_type<l1>>\n"),
            std::string::npos)
      << r.out;
  r = RunCli({"grid", "explain", "--json", kWidth});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("\"kind\": \"ttnn_layout\""), std::string::npos);
  EXPECT_NE(r.out.find("\"warnings\": []"), std::string::npos);
  r = RunCli({"grid", "locate", kWidth, "2,1541"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("shard:           0,3 (number 3)\n"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("core:            3,0 (x,y)\n"), std::string::npos);
  // A stale memref: the builder's answer, and a warning on stderr.
  r = RunCli({"grid", "explain", "--json", kStale});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(
      r.err,
      "hlolayout grid explain: warning: the written memref 4x4 is not the "
      "builder's 1x1 (tiles)\n");
  EXPECT_NE(r.out.find("\"memref\": \"memref<1x1x!ttcore.tile<32x32, f32>, "
                       "#ttnn.buffer_type<dram>>\""),
            std::string::npos);
  r = RunCli({"grid", "locate", "--json", kStale, "31,31"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("\"page\": 0"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"dram_bank\": 0"), std::string::npos) << r.out;
  // Another device moves the canonical placement.
  r = RunCli({"grid", "explain", "--json", "--worker-grid=2x4", kWidth});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("\"worker_grid\": [\n      2,\n      4\n    ]"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(RunCli({"grid", "explain", "--worker-grid=2y4", kWidth}).status, 1);
}

TEST(GridCommand, MetalExplainAndLocate) {
  Result r = RunCli({"grid", "explain", kMetal});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("device shape:    2x6x2x2\n"), std::string::npos)
      << r.out;
  r = RunCli({"grid", "locate", kMetal, "127,383"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("core:            5,1 (x,y)\n"), std::string::npos)
      << r.out;
  r = RunCli({"grid", "locate", kMetal, "128,0"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err,
            "hlolayout grid locate: index 128 is out of bounds for dim 0 of "
            "size 128\n");
}

TEST(GridCommand, Refusals) {
  Result r = RunCli(
      {"grid", "explain",
       "tensor<32x32xf32, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <8x8>, "
       "memref<1x1x!ttcore.tile<32x32, f32>, #ttnn.buffer_type<dram>>, "
       "<interleaved>>>"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err.substr(0, r.err.find('\n')),
            "hlolayout grid explain: 1:19: tt-mlir's verifier refuses this "
            "layout: expected (1, 1) grid shape for dram buffer type with "
            "interleaved memory layout, got (8, 8)");
}

TEST(GridCommand, FilesAndReport) {
  const std::string file = TestDataPath("ttmlir/testdata/ttnn_example.mlir");
  Result r = RunCli({"grid", "report", file});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("4 tensor types with a layout (2 sections, 6 alias "
                       "definitions): 2 as written, 1 with warnings, 1 "
                       "refused, 0 unread\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("   refused: 23:9: tt-mlir's verifier refuses this "
                       "layout: Memory layout is not allowed for SystemMemory "
                       "buffer type.\n"),
            std::string::npos)
      << r.out;
  r = RunCli({"grid", "report", "--json", file});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("\"refused\": 1"), std::string::npos);
  // explain needs --type when the file has several types.
  r = RunCli({"grid", "explain", file});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("holds 4 tensor types with a layout; pick one with "
                       "--type=K"),
            std::string::npos)
      << r.err;
  r = RunCli({"grid", "locate", "--type=3", file, "2,1541"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("core:            3,0 (x,y)"), std::string::npos);
  EXPECT_EQ(RunCli({"grid", "explain", "--type=9", file}).status, 1);
  // A whole file on standard input; a type after alias lines as an argument.
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  r = RunCli({"grid", "report", "-"}, text.str());
  EXPECT_EQ(r.status, 0) << r.err;
  r = RunCli({"grid", "explain",
              "#l1 = #ttnn.buffer_type<l1>\ntensor<32x32xbf16, "
              "#ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x1>, "
              "memref<1x1x!ttcore.tile<32x32, bf16>, #l1>, <interleaved>>>"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(RunCli({"grid", "report", "no-such-file.mlir"}).status, 1);
  EXPECT_EQ(RunCli({"grid", "report"}).status, 2);
}

TEST(GridCommand, DrawsEveryForm) {
  for (const char* t : {kWidth, kStale, kMetal, kTiled}) {
    Result r = RunCli({"grid", "draw", "--color=never", t});
    EXPECT_EQ(r.status, 0) << t << ": " << r.err;
    r = RunCli({"grid", "draw", "--svg", "-", t});
    EXPECT_EQ(r.status, 0) << t << ": " << r.err;
    EXPECT_NE(r.out.find("<svg"), std::string::npos);
  }
  Result r = RunCli({"grid", "draw", "--svg", "-", kWidth});
  EXPECT_NE(r.out.find("data-shard=\"0,7\""), std::string::npos);
  EXPECT_NE(r.out.find("shard (0,7) on core (7,0)"), std::string::npos);
}

TEST(GridCommand, BatchOpsOnTheNewForms) {
  const std::string input = std::string("grid-shard\t") + kWidth +
                            "\ngrid-locate\t" + kWidth + "\t2,1541\n" +
                            "grid-shard\t" + kMetal + "\ngrid-locate\t" +
                            kMetal + "\t127,383\n";
  Result r = RunCli({"batch"}, input);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out,
            "1x16\n"
            "shard=0,3 offset=2,5 tile=0,48 in_tile=2,5 core=3,0\n"
            "2x2\n"
            "shard=1,5 offset=63,63 offset_tile=1,1 core=5,1\n");
}

TEST(GridCommand, EveryHelp) {
  for (const char* sub : {"explain", "locate", "report", "collapse", "draw"}) {
    Result r = RunCli({"grid", sub, "--help"});
    EXPECT_EQ(r.status, 0) << sub;
    EXPECT_NE(r.out.find(absl::StrCat("usage: hlolayout grid ", sub)),
              std::string::npos)
        << sub;
    EXPECT_EQ(r.out.find("$DEVICE"), std::string::npos) << sub;
  }
}

}  // namespace
}  // namespace hlolayout::cli
