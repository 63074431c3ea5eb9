// The layout facts of a TTGIR kernel dump (what `hlolayout triton report`
// prints and hl.triton.report returns), on the test data's kernels; the
// request answered by AnswerKernelReport. Was triton/kernel_report_test.cc.
#include "hlolayout/answers/triton_report.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlolayout/testing/test_data.h"
#include "hlolayout/triton/kernel_report.h"
#include "hlolayout/triton/report_input.h"
#include "hlolayout/util/fields.h"
#include "hlolayout/util/record.h"
#include "hlolayout/views/triton_report_text.h"

namespace hlolayout::triton {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

ReportInput Text(const std::string& text) {
  ReportInput in;
  in.text = text;
  in.file = "<stdin>";
  return in;
}

TEST(KernelReportTest, MatmulHasOneSharedMemoryConvertOnCuda90) {
  const KernelReport r = *MakeKernelReport(
      *ReadReportInput(TestDataPath("triton/testdata/"
                                    "matmul_f16_64x64x32_w4.ttgir")),
      "", "");
  EXPECT_EQ(r.m.num_warps, 4);
  ASSERT_EQ(r.costs.size(), 1u);
  ASSERT_EQ(r.costs[0].size(), 1u);
  const ConvertCost& c = r.costs[0][0];
  EXPECT_EQ(c.target, "cuda:90");
  EXPECT_EQ(c.bits, 16);
  ASSERT_TRUE(c.cost.ok());
  EXPECT_EQ(c.cost->kind, CvtKind::kSharedMemory);
  EXPECT_EQ(c.cost->scratch_bytes, 8192);
  EXPECT_EQ(r.rules.version, kNewestTriton);
  EXPECT_EQ(r.encodings[0], "#mma");
  EXPECT_EQ(r.counts.at("#mma"), 9);
  const std::string text = KernelReportText(r);
  EXPECT_THAT(text, HasSubstr("module: 4 warps, 32 threads per warp, 1 CTA, "
                              "target cuda:90\n"));
  EXPECT_THAT(text, HasSubstr("  #mma: 9 uses (tensor<64x64xf32>, "
                              "tensor<64x64xf16>)\n"));
  EXPECT_THAT(KernelReportJson(r), HasSubstr("\n  \"num_warps\": 4,\n"));
}

TEST(KernelReportTest, TargetsAskedForCostEachConvertOnEach) {
  const KernelReport r = *MakeKernelReport(
      *ReadReportInput(TestDataPath("triton/testdata/"
                                    "matmul_f16_64x64x32_w4.ttgir")),
      "3.6.0", "cuda:80,cuda:90");
  EXPECT_EQ(r.rules.version, TritonVersion::k3_6_0);
  ASSERT_EQ(r.costs[0].size(), 2u);
  EXPECT_EQ(r.costs[0][0].target, "cuda:80");
  EXPECT_THAT(KernelReportJson(r), HasSubstr("\"on_targets\": ["));
  EXPECT_THAT(KernelReportText(r), HasSubstr("costs on: cuda:80,cuda:90 "
                                             "(--target; the module's target "
                                             "is cuda:90)\n"));
}

TEST(KernelReportTest, SharedMemoryOpsAreCosted) {
  const KernelReport r = *MakeKernelReport(
      *ReadReportInput(TestDataPath("triton/testdata/smem_gfx942.ttgir")), "",
      "");
  EXPECT_FALSE(r.smem_ops.empty());
  EXPECT_EQ(r.m.threads_per_warp, 64);
  EXPECT_THAT(KernelReportText(r), HasSubstr("shared-memory stores and loads"));
}

TEST(KernelReportTest, TextWithoutTtgirIsRefusedLocated) {
  absl::StatusOr<KernelReport> r = MakeKernelReport(Text("# a README"), "", "");
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(std::string(r.status().message()),
              StartsWith("<stdin>:1:1: no TTGIR module here: "));
  // The README's tt-mlir example: a tensor of another dialect's encoding is
  // no TTGIR (issue 89 item 9: it read as an implicit module, "layouts (0)").
  r = MakeKernelReport(
      Text("# hlolayout\n\n```sh\nT='tensor<128x2048xbf16, "
           "#ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x8>, "
           "memref<4x8x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<l1>>, "
           "<width_sharded>, core_ranges = <[#ttnn.core_range<(0,0), "
           "(7,0)>]>>>'\n```\n"),
      "", "");
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(std::string(r.status().message()),
              StartsWith("<stdin>:1:1: no TTGIR module here: "));
}

TEST(KernelReportTest, UnknownReleaseOrTargetIsRefused) {
  const ReportInput in = Text(
      "#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], "
      "warpsPerCTA = [4], order = [0]}>\n"
      "module attributes {\"ttg.num-warps\" = 4 : i32} {\n"
      "  tt.func @f(%x: tensor<128xf32, #b>) { tt.return }\n}\n");
  EXPECT_TRUE(MakeKernelReport(in, "", "").ok());
  EXPECT_FALSE(MakeKernelReport(in, "1.0", "").ok());
  absl::StatusOr<KernelReport> bad = MakeKernelReport(in, "", "cuda:90,nope");
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(std::string(bad.status().message()), HasSubstr("target 'nope'"));
  EXPECT_TRUE(MakeKernelReport(in, "", "all").ok());
}

TEST(KernelReportTest, AMissingFileIsNamed) {
  absl::StatusOr<ReportInput> in = ReadReportInput("no/such.ttgir");
  ASSERT_FALSE(in.ok());
  EXPECT_THAT(std::string(in.status().message()), HasSubstr("'no/such.ttgir'"));
}

// The answer is a value: a cost whose target is not modelled leaves
// `empirical` out (a modelled one writes it, null), as the report always
// has; the shared cost fields are ConvertLayout's and ConvertCost's alike.
TEST(KernelReportTest, RecordsFollowTheFieldLists) {
  ReportInput in = *ReadReportInput(
      TestDataPath("triton/testdata/matmul_f16_64x64x32_w4.ttgir"));
  const KernelReport r = *MakeKernelReport(in, "", "cuda:80");
  const answer::KernelReport a = ReportAnswerOf(r);
  ASSERT_EQ(a.converts.size(), 1u);
  ASSERT_TRUE(a.converts[0].on_targets.has_value());
  EXPECT_EQ(AnswerJson(a.converts[0].cost),
            AnswerJson((*a.converts[0].on_targets)[0]));
  ASSERT_TRUE(a.converts[0].cost.empirical.has_value());
  EXPECT_FALSE(a.converts[0].cost.empirical->has_value());
  EXPECT_EQ(std::string(SpecOf<answer::ConvertLayout>().fields.back().name),
            "on_targets");
  EXPECT_EQ(SpecOf<answer::ConvertLayout>().fields.size(),
            SpecOf<answer::ConvertCost>().fields.size() + 7);
  const std::string modelled = KernelReportJson(r);
  EXPECT_THAT(modelled, HasSubstr("\"load_ways\": 1,\n      "
                                  "\"empirical\": null,\n      "
                                  "\"error\": null,\n"));
  const size_t at = in.text.find("\"cuda:90\"");
  ASSERT_NE(at, std::string::npos);
  in.text.replace(at, 9, "\"cuda:75\"");
  const std::string json = KernelReportJson(*MakeKernelReport(in, "", ""));
  EXPECT_THAT(json, HasSubstr("\"load_ways\": null,\n      "
                              "\"error\": null\n"));
  EXPECT_THAT(json, ::testing::Not(HasSubstr("empirical")));
  EXPECT_THAT(json, HasSubstr("\"fields\": {\n        \"sizePerThread\": "));
}

// The request names a file (or a cache entry) by path, or gives the text
// and its name; AnswerKernelReport gives what MakeKernelReport gives.
TEST(KernelReportTest, AnswerKernelReportReadsTheRequest) {
  const std::string path =
      TestDataPath("triton/testdata/matmul_f16_64x64x32_w4.ttgir");
  TritonReportRequest by_path;
  by_path.path = path;
  by_path.target = "cuda:80";
  const KernelReport a = *AnswerKernelReport(by_path);
  EXPECT_EQ(KernelReportJson(a), KernelReportJson(*MakeKernelReport(
                                     *ReadReportInput(path), "", "cuda:80")));
  TritonReportRequest by_text;
  by_text.text = ReadReportInput(path)->text;
  by_text.text_name = "<stdin>";
  by_text.triton = "3.6.0";
  const KernelReport b = *AnswerKernelReport(by_text);
  EXPECT_EQ(b.in.file, "<stdin>");
  EXPECT_EQ(b.rules.version, *TritonVersionNamed("3.6.0"));
  TritonReportRequest missing;
  missing.path = "no/such.ttgir";
  EXPECT_THAT(std::string(AnswerKernelReport(missing).status().message()),
              HasSubstr("'no/such.ttgir'"));
  // An empty path is a path (read, refused), not the text.
  TritonReportRequest empty_path;
  empty_path.path = "";
  empty_path.text = ReadReportInput(path)->text;
  EXPECT_FALSE(AnswerKernelReport(empty_path).ok());
}

}  // namespace
}  // namespace hlolayout::triton
