#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "hlolayout/cli/run_for_test.h"

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
  EXPECT_EQ(
      r.err,
      "hlolayout grid explain: 1:17: expected ',' and a "
      "#tt.metal_layout encoding\ntensor<53x63xf32>\n                ^\n");
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

}  // namespace
}  // namespace hlolayout::cli
