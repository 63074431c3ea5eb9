#include "hlolayout/report/report_record.h"

#include <algorithm>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlolayout/report/report.h"
#include "hlolayout/testing/record_specs_seen.h"
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
  EmitReport(report.ok() ? *report : Report(), summary, w);
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

// Every record emitted is one of ReportRecordSpecs().
TEST(ReportRecord, EveryRecordIsListed) {
  absl::StatusOr<Report> report = BuildReport(kDump);
  ASSERT_TRUE(report.ok()) << report.status();
  RecordSpecsSeen sink;
  EmitReport(*report, false, sink);
  const std::vector<const RecordSpec*>& specs = ReportRecordSpecs();
  for (const RecordSpec* spec : specs) {
    EXPECT_NE(std::find(sink.seen.begin(), sink.seen.end(), spec),
              sink.seen.end())
        << spec->name << " not emitted";
  }
  for (const RecordSpec* spec : sink.seen) {
    EXPECT_NE(std::find(specs.begin(), specs.end(), spec), specs.end())
        << spec->name;
  }
  EXPECT_EQ(std::string(PaddingWasterSpec().fields[3].name), "shape");
}

}  // namespace
}  // namespace hlolayout
