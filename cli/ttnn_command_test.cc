// `hlolayout ttnn`: the subcommands' outputs, inputs and errors.
#include <string>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "hlolayout/testing/run_cli.h"

namespace hlolayout::cli {
namespace {

const std::vector<std::string> kHeight = {
    "--shape",       "272,58", "--memory-layout", "HEIGHT_SHARDED",
    "--buffer-type", "L1",     "--grid",          "0,0-2,0",
    "--shard-shape", "96,64",  "--orientation",   "COL_MAJOR"};

std::vector<std::string> With(std::vector<std::string> head,
                              const std::vector<std::string>& tail) {
  head.insert(head.end(), tail.begin(), tail.end());
  return head;
}

TEST(TtnnCommandTest, SpecText) {
  const CliResult r = RunCli(With({"ttnn", "spec"}, kHeight));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(
      r.out,
      "bfloat16[272, 58] TILE 32x32, L1 HEIGHT_SHARDED\n"
      "device            wormhole_n150 (Wormhole B0, 1 chip): 8x8 worker "
      "cores, 1499136 bytes of L1 each (1463968 for buffers), 12 DRAM banks "
      "of 1 GiB on 6 channels (12 GiB); the default (--device)\n"
      "memory layout     HEIGHT_SHARDED\n"
      "alignment         [32, 32]\n"
      "padded shape      [288, 64]\n"
      "logical 2-D       [272, 58]\n"
      "physical shape    [288, 64]\n"
      "page              32x32, 2048 bytes; 18 pages, 36864 bytes packed\n"
      "strides           [64, 1]\n"
      "per bank          12288 bytes at most (64 L1 banks, pages aligned to "
      "16 bytes)\n"
      "shard spec        [96, 64] on [(0,0)-(2,0)] COL_MAJOR\n"
      "  in pages        [3, 2] of [9, 2], 6 per shard\n"
      "nd shard spec     [96, 64] on [(0,0)-(2,0)] COL_MAJOR ROUND_ROBIN_1D\n"
      "distribution      3 shards of [6] pages over [18], on 3 cores (3 "
      "with data), at most 1 per core (6 pages)\n"
      "  core (0,0)      1 shard: host pages 0 1 2 3 4 5\n"
      "  core (1,0)      1 shard: host pages 6 7 8 9 10 11\n"
      "  core (2,0)      1 shard: host pages 12 13 14 15 16 17\n");
}

TEST(TtnnCommandTest, SpecJsonFromStandardInputAndJsonLines) {
  const CliResult r = RunCli({"ttnn", "spec", "--json", "-"},
                             "{\"shape\": [64, 64]}\n"
                             "{\"shape\": [64, 64], \"dtype\": \"bfloat8_b\", "
                             "\"layout\": \"ROW_MAJOR\"}\n");
  EXPECT_EQ(r.status, 1);  // the second spec is refused
  EXPECT_TRUE(absl::StartsWith(r.out, "{\"alignment\": [32, 32], ")) << r.out;
  EXPECT_TRUE(absl::StrContains(r.out, "\"page_size_bytes\": 2048"));
  EXPECT_TRUE(absl::StrContains(r.out, "\"rule\": \"dtype-layout\"}\n"));
}

TEST(TtnnCommandTest, InlineJsonAndFlagsAreTheSameSpec) {
  const CliResult a = RunCli({"ttnn", "spec", "--json",
                              "{\"shape\": [3, 40], \"dtype\": \"float32\", "
                              "\"buffer_type\": \"L1\"}"});
  const CliResult b = RunCli({"ttnn", "spec", "--json", "--shape", "3,40",
                              "--dtype", "float32", "--buffer-type", "L1"});
  ASSERT_EQ(a.status, 0) << a.err;
  EXPECT_EQ(a.out, b.out);
}

TEST(TtnnCommandTest, RefusalsGoToStandardErrorWithTheRule) {
  const CliResult r =
      RunCli({"ttnn", "spec", "--shape", "64,64", "--memory-layout",
              "HEIGHT_SHARDED", "--grid", "0,0", "--shard-shape", "32,64"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err,
            "hlolayout ttnn spec: bfloat16[64, 64] TILE 32x32, DRAM "
            "HEIGHT_SHARDED: height sharding: 2 shards along the height "
            "exceed the 1 cores (tt-metal: \"Number of shards along height "
            "must not exceed number of cores\")\n");
}

TEST(TtnnCommandTest, UsageErrors) {
  EXPECT_EQ(RunCli({"ttnn"}).status, 2);
  EXPECT_EQ(RunCli({"ttnn", "nope"}).status, 2);
  EXPECT_EQ(RunCli({"ttnn", "spec"}).status, 2);
  const CliResult both =
      RunCli({"ttnn", "spec", "--shape", "4", "--spec", "{\"shape\": [4]}"});
  EXPECT_EQ(both.status, 2);
  EXPECT_TRUE(absl::StrContains(both.err, "not both"));
  const CliResult grid =
      RunCli({"ttnn", "spec", "--shape", "4", "--grid", "8x8"});
  EXPECT_EQ(grid.status, 2);
  EXPECT_TRUE(absl::StrContains(grid.err, "need a sharded --memory-layout"));
  const CliResult bad =
      RunCli({"ttnn", "spec", "-"}, "{\"shape\": [4], \"tile\": [8]}");
  EXPECT_EQ(bad.status, 2);
  EXPECT_EQ(bad.err,
            "hlolayout ttnn spec: 1:24: expected a tile [h, w]\n"
            "{\"shape\": [4], \"tile\": [8]}\n"
            "                       ^\n");
  EXPECT_EQ(RunCli({"ttnn", "spec", "--shape", "4", "--tile", "8x8"}).status,
            2);
  EXPECT_EQ(RunCli({"ttnn", "spec", "--shape", "4", "--dtype", "f32"}).status,
            2);
}

TEST(TtnnCommandTest, Locate) {
  const CliResult r =
      RunCli(With({"ttnn", "locate"}, With(kHeight, {"100,20"})));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out,
            "element [100, 20]: host page 6, row 4 col 20 of the page, byte "
            "648 of 2048\n"
            "  shard 1 on core (1,0), device page 0: offset 648 from the "
            "buffer's base on that core\n");
  const CliResult j = RunCli(
      {"ttnn", "locate", "--json", "{\"shape\": [64, 64]}", "40,17", "0,0"});
  ASSERT_EQ(j.status, 0) << j.err;
  EXPECT_EQ(
      j.out,
      "{\"index\": [40, 17], \"host_page\": 2, \"in_page\": [8, 17], "
      "\"byte_in_page\": 770, \"buffer_type\": \"DRAM\", \"bank\": 2, "
      "\"page_in_bank\": 0, \"offset\": 770, \"aligned_page_size\": 2048}\n"
      "{\"index\": [0, 0], \"host_page\": 0, \"in_page\": [0, 0], "
      "\"byte_in_page\": 0, \"buffer_type\": \"DRAM\", \"bank\": 0, "
      "\"page_in_bank\": 0, \"offset\": 0, \"aligned_page_size\": 2048}\n");
  const CliResult out = RunCli({"ttnn", "locate", "--shape", "4", "9"});
  EXPECT_EQ(out.status, 1);
  EXPECT_EQ(
      out.err,
      "hlolayout ttnn locate: index 9 is out of bounds for dim 0 of size 4\n");
  EXPECT_EQ(RunCli({"ttnn", "locate", "--shape", "4"}).status, 2);
}

TEST(TtnnCommandTest, DrawTextAndSvg) {
  const CliResult t =
      RunCli(With({"ttnn", "draw", "--color", "never"}, kHeight));
  ASSERT_EQ(t.status, 0) << t.err;
  EXPECT_TRUE(absl::StrContains(t.out, "the tensor's 18 pages (32x32)"));
  EXPECT_TRUE(absl::StrContains(t.out, "3 shards on 3 cores"));
  // A core's pages only on request.
  EXPECT_FALSE(absl::StrContains(t.out, "device pages")) << t.out;
  const CliResult c = RunCli(
      With({"ttnn", "draw", "--color", "never", "--core", "0,0"}, kHeight));
  EXPECT_TRUE(absl::StrContains(c.out, "core (0,0): 6 device pages"));
  const CliResult s =
      RunCli(With({"ttnn", "draw", "--svg", "-", "--core", "2,0"}, kHeight));
  ASSERT_EQ(s.status, 0) << s.err;
  EXPECT_TRUE(absl::StartsWith(s.out, "<svg"));
  EXPECT_TRUE(absl::StrContains(s.out, "data-host-page=\"12\""));
  const CliResult none =
      RunCli(With({"ttnn", "draw", "--core", "5,5"}, kHeight));
  EXPECT_EQ(none.status, 1);
  EXPECT_TRUE(absl::StrContains(none.err, "holds no shard"));
}

// Issue 47 item 1: a tensor of 65,536 pages draws (it was refused: "the
// pages picture would have 65536 cells"): the cores with their shards and
// bytes, the tensor in shards, and one core's 1,024 pages on request.
TEST(TtnnCommandTest, DrawAnyTensor) {
  const std::vector<std::string> big = {
      "--shape",         "32,2048,1024",  "--dtype",       "bfloat8_b",
      "--memory-layout", "BLOCK_SHARDED", "--buffer-type", "L1",
      "--grid",          "8x8",           "--shard-shape", "8192,128"};
  const CliResult t = RunCli(With({"ttnn", "draw", "--color", "never"}, big));
  ASSERT_EQ(t.status, 0) << t.err;
  EXPECT_TRUE(absl::StrContains(t.out,
                                "64 shards on 64 cores: each core's "
                                "shards and bytes"))
      << t.out;
  // Each core: its shard and 1024 pages of 1088 bytes (1.1 MiB).
  EXPECT_TRUE(absl::StrContains(t.out, " 9 1.1M ")) << t.out;
  EXPECT_TRUE(absl::StrContains(t.out,
                                "65536 pages are too many to draw one "
                                "by one (at most 16384): the tensor in "
                                "shards"));
  EXPECT_TRUE(absl::StrContains(t.out,
                                "the tensor's 64 shards (256x4 pages "
                                "each), by the core holding each"));
  // 76% of the n150's usable L1: borderline.
  EXPECT_TRUE(absl::StrContains(t.err, "warning: borderline")) << t.err;
  const CliResult s =
      RunCli(With({"ttnn", "draw", "--svg", "-", "--core", "3,4"}, big));
  ASSERT_EQ(s.status, 0) << s.err;
  EXPECT_TRUE(absl::StrContains(s.out, "data-shard=\"35\" data-core=\"3,4\""));
  EXPECT_TRUE(absl::StrContains(s.out, "core (3,4): 1024 device pages"));
  EXPECT_TRUE(absl::StrContains(s.out, "data-bytes=\"1114112\""));
  // The same tensor in bfloat16 does not fit an n150 (2 MiB a core): drawn
  // all the same, saying so.
  std::vector<std::string> bf16 = big;
  bf16[3] = "bfloat16";
  const CliResult w = RunCli(With({"ttnn", "draw", "--color", "never"}, bf16));
  ASSERT_EQ(w.status, 0) << w.err;
  EXPECT_TRUE(absl::StrContains(w.out, "warning: does not fit wormhole_n150"));
  // Interleaved: the banks with pages and bytes, the pages past the limit
  // noted.
  const CliResult i =
      RunCli({"ttnn", "draw", "--color", "never", "--shape", "32,2048,1024"});
  ASSERT_EQ(i.status, 0) << i.err;
  EXPECT_TRUE(absl::StrContains(i.out, "5462 11M  5461 11M")) << i.out;
  EXPECT_TRUE(absl::StrContains(
      i.out, "65536 pages are too many to draw one by one (at most 16384)"));
}

// Issue 47 item 2: the device named and checked.
TEST(TtnnCommandTest, DeviceChecks) {
  const std::vector<std::string> block = {"ttnn",
                                          "spec",
                                          "--shape",
                                          "32,2048,1024",
                                          "--memory-layout",
                                          "BLOCK_SHARDED",
                                          "--buffer-type",
                                          "L1",
                                          "--shard-shape",
                                          "8192,128"};
  const CliResult l1 = RunCli(With(block, {"--grid", "8x8"}));
  EXPECT_EQ(l1.status, 1);
  EXPECT_TRUE(absl::StrContains(
      l1.err,
      "each core holds up to 2097152 bytes (1024 pages of 2048), "
      "more than the 1463968 bytes of its 1499136 bytes of L1 a "
      "wormhole_n150 core has for buffers"))
      << l1.err;
  const CliResult j = RunCli(With(block, {"--grid", "8x8", "--json"}));
  EXPECT_TRUE(absl::StrContains(j.out, "\"rule\": \"device-l1\"")) << j.out;
  const CliResult grid = RunCli(
      {"ttnn", "spec", "--shape", "320,320", "--memory-layout", "BLOCK_SHARDED",
       "--buffer-type", "L1", "--grid", "10x10", "--shard-shape", "32,32"});
  EXPECT_EQ(grid.status, 1);
  EXPECT_TRUE(absl::StrContains(grid.err,
                                "reaches core (9,9), outside "
                                "wormhole_n150's 8x8 worker grid"))
      << grid.err;
  const CliResult p150 =
      RunCli({"ttnn", "spec", "--shape", "320,320", "--memory-layout",
              "BLOCK_SHARDED", "--buffer-type", "L1", "--grid", "10x10",
              "--shard-shape", "32,32", "--device", "p150"});
  EXPECT_EQ(p150.status, 0) << p150.err;
  EXPECT_TRUE(absl::StrContains(p150.out,
                                "device            blackhole_p150 "
                                "(Blackhole, 1 chip): 13x10"));
  EXPECT_TRUE(absl::StrContains(p150.out, "(130 L1 banks"));
  const CliResult bad =
      RunCli({"ttnn", "spec", "--shape", "4", "--device", "n15"});
  EXPECT_EQ(bad.status, 2);
  EXPECT_TRUE(absl::StrContains(bad.err, "did you mean 'n150'?")) << bad.err;
  // JSON names the device; borderline specs carry their warnings.
  const CliResult warn =
      RunCli({"ttnn", "spec", "--json", "--shape", "32,2048,1024", "--dtype",
              "bfloat8_b", "--memory-layout", "BLOCK_SHARDED", "--buffer-type",
              "L1", "--grid", "8x8"});
  ASSERT_EQ(warn.status, 0) << warn.err;
  EXPECT_TRUE(absl::StrContains(warn.out, "\"device\": \"wormhole_n150\""));
  EXPECT_TRUE(absl::StrContains(warn.out, "\"warnings\": [\"borderline: "));
  EXPECT_TRUE(absl::StrContains(warn.out, "\"shard_shape_derived\": true"));
}

// Each device of a mesh is one chip of --device: 16 GiB slices do not fit
// an n150's 12 GiB, 4 GiB slices do.
TEST(TtnnCommandTest, MeshSlicesAreCheckedAgainstTheDevice) {
  const CliResult two = RunCli({"ttnn", "mesh", "--shape", "16,1024,1024,1024",
                                "--mesh", "2", "--placements", "S0"});
  EXPECT_EQ(two.status, 1);
  EXPECT_TRUE(absl::StrContains(
      two.out, "refused: each DRAM bank holds up to 1431656448 bytes"))
      << two.out;
  EXPECT_EQ(RunCli({"ttnn", "mesh", "--shape", "16,1024,1024,1024", "--mesh",
                    "8", "--placements", "S0"})
                .status,
            0);
}

// Issue 47 item 3: a HEIGHT/WIDTH/BLOCK shard derived from the shape and a
// WxH grid, and said so.
TEST(TtnnCommandTest, DerivedShardShape) {
  const CliResult r =
      RunCli({"ttnn", "spec", "--shape", "1,1,1024,64", "--memory-layout",
              "HEIGHT_SHARDED", "--buffer-type", "L1", "--grid", "8x4"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(absl::StrContains(
      r.out,
      "shard spec        [32, 64] on [(0,0)-(7,3)] ROW_MAJOR (shard "
      "shape derived: ttnn.create_sharded_memory_config's rule)\n"))
      << r.out;
  const CliResult json = RunCli(
      {"ttnn", "spec", "--json",
       "{\"shape\": [64, 256], \"memory_layout\": \"WIDTH_SHARDED\", "
       "\"buffer_type\": \"L1\", \"shard_spec\": {\"grid\": [[[0, 0], [3, "
       "1]]]}}"});
  ASSERT_EQ(json.status, 0) << json.err;
  EXPECT_TRUE(absl::StrContains(json.out, "\"shape\": [64, 32]")) << json.out;
  const CliResult no =
      RunCli({"ttnn", "spec", "--shape", "100,64", "--memory-layout",
              "HEIGHT_SHARDED", "--buffer-type", "L1", "--grid", "8x1"});
  EXPECT_EQ(no.status, 1);
  EXPECT_TRUE(absl::StrContains(no.err, "does not divide into 8 cores"))
      << no.err;
  // ND shards are not derived.
  EXPECT_EQ(RunCli({"ttnn", "spec", "--shape", "64,64", "--memory-layout",
                    "ND_SHARDED", "--grid", "2x2"})
                .status,
            2);
}

TEST(TtnnCommandTest, Mesh) {
  const CliResult r = RunCli(
      {"ttnn", "mesh", "--shape", "6,8", "--mesh", "4", "--placements", "S0"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(absl::StrContains(r.out, "  device (3)  nothing\n")) << r.out;
  const CliResult bad = RunCli({"ttnn", "mesh", "--shape", "10,8", "--mesh",
                                "4", "--placements", "S0", "--json"});
  EXPECT_EQ(bad.status, 1);
  EXPECT_TRUE(absl::StrContains(bad.out, "\"rule\": \"mesh-shard-shape\""))
      << bad.out;
  EXPECT_EQ(RunCli({"ttnn", "mesh", "--shape", "6,8", "--mesh", "4",
                    "--placements", "Q"})
                .status,
            2);
}

}  // namespace
}  // namespace hlolayout::cli
