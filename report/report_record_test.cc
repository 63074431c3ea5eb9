#include "hlolayout/report/report_record.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlolayout/report/report.h"
#include "hlolayout/util/fields.h"
#include "hlolayout/util/record.h"

namespace hlolayout {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr char kDump[] = R"(HloModule jit_small
ENTRY %main {
  %a = bf16[3,200]{1,0:T(8,128)(2,1)} parameter(0)
  %v = f32[128]{0:T(128)S(1)} parameter(1)
  ROOT %t = (bf16[3,200]{1,0:T(8,128)(2,1)}, f32[128]{0:T(128)S(1)}) tuple(%a, %v)
}
)";

std::string Json(bool summary) {
  absl::StatusOr<Report> report = BuildReport(kDump);
  EXPECT_TRUE(report.ok()) << report.status();
  std::string json;
  RecordJsonWriter w(&json);
  EmitValue(ReportAnswerOf(report.ok() ? *report : Report(), summary), w);
  EXPECT_TRUE(w.done());
  return json;
}

// The layout `hlolayout report --json` has always had: a module per line,
// its sections on lines indented by two, wasters and rows by four, each
// list closed after its last item.
TEST(ReportRecord, JsonLayout) {
  const std::string json = Json(false);
  EXPECT_THAT(json, HasSubstr("{\"modules\": [\n {\"name\": \"jit_small\", "
                              "\"entry_computation\": \"main\",\n  "
                              "\"totals\": {\"computations\": 1, "));
  EXPECT_THAT(json, HasSubstr("},\n  \"memory_spaces\": [{\"memory_space\": "
                              "0, \"key\": \"hbm\", "));
  EXPECT_THAT(json, HasSubstr("],\n  \"top_padding_wasters\": [\n    "
                              "{\"computation\": \"main\", \"instruction\": "
                              "\"a\", \"index\": \"{}\", "));
  EXPECT_THAT(json, HasSubstr("\"expansion\": 3.41333, "));
  EXPECT_THAT(json, HasSubstr("],\n  \"instructions\": [\n    "
                              "{\"computation\": \"main\", \"instruction\": "
                              "\"a\", \"opcode\": \"parameter\", "));
  EXPECT_THAT(json, HasSubstr("\"buffer_overflow\": false}]}],\n "
                              "\"errors\": []}"));
  EXPECT_THAT(json, Not(HasSubstr("padding_wasters_note")));
}

TEST(ReportRecord, SummaryLeavesOutWastersAndRows) {
  const std::string json = Json(true);
  EXPECT_THAT(json, Not(HasSubstr("top_padding_wasters")));
  EXPECT_THAT(json, Not(HasSubstr("\"instructions\": [")));
  EXPECT_THAT(json, HasSubstr("\"overflow\": false}]}],\n \"errors\": []}"));
}

// The answer is a value: with summary a module has no wasters, note or
// rows; the byte counts are field groups the records share, in the same
// order in each; the waster's shape is field 3 (Python draws it).
TEST(ReportRecord, TheAnswerIsAValue) {
  absl::StatusOr<Report> report = BuildReport(kDump);
  ASSERT_TRUE(report.ok()) << report.status();
  const report_answer::Report summary = ReportAnswerOf(*report, true);
  ASSERT_EQ(summary.modules.size(), 1u);
  EXPECT_FALSE(summary.modules[0].instructions.has_value());
  EXPECT_FALSE(summary.modules[0].top_padding_wasters.has_value());
  const report_answer::Report full = ReportAnswerOf(*report, false);
  ASSERT_TRUE(full.modules[0].instructions.has_value());
  EXPECT_EQ(full.modules[0].instructions->size(), 3u);
  EXPECT_EQ((*full.modules[0].instructions)[2].instruction, "t");
  const RecordSpec& totals = SpecOf<report_answer::ModuleTotals>();
  const RecordSpec& row = SpecOf<report_answer::ReportRow>();
  EXPECT_EQ(std::string(totals.fields.back().name), "overflow");
  EXPECT_EQ(std::string(row.fields.back().name), "buffer_overflow");
  EXPECT_EQ(std::string(SpecOf<report_answer::PaddingWaster>().fields[3].name),
            "shape");
}

}  // namespace
}  // namespace hlolayout
