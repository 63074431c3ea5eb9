#include "hlolayout/hlo/source_location.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "hlolayout/hlo/reader.h"

namespace hlolayout {
namespace {

TEST(MetadataField, KeysValuesAndQuotes) {
  const absl::string_view m =
      "{op_type=\"dot\" op_name=\"jit(f)/a b source_line=9\" "
      "source_file=\"/src/x \\\"y\\\".py\" source_line=12 stack_frame_id=3}";
  EXPECT_EQ(MetadataField(m, "op_type"), "dot");
  EXPECT_EQ(MetadataField(m, "op_name"), "jit(f)/a b source_line=9");
  EXPECT_EQ(MetadataField(m, "source_line"), "12");  // not the quoted one
  EXPECT_EQ(MetadataField(m, "source_file"), "/src/x \\\"y\\\".py");
  EXPECT_EQ(MetadataField(m, "stack_frame_id"), "3");
  EXPECT_EQ(MetadataField(m, "line"), "");  // whole keys only
  EXPECT_EQ(MetadataField(m, "missing"), "");
  EXPECT_EQ(MetadataField("{file_name_id=1 line=184 end_line=184}", "line"),
            "184");
  // Broken text: no crash, nothing found or the part there is.
  for (absl::string_view bad : {"", "{", "}", "=", "{a=\"", "{a=\"\\", "a b c",
                                "{=1 ==2}", "{a=\"x\"b=1}"}) {
    MetadataField(bad, "a");
    MetadataField(bad, "b");
  }
  EXPECT_EQ(MetadataField("{a=\"unterminated", "a"), "unterminated");
}

constexpr char kModule[] = R"(HloModule m

FileNames
1 "train.py"
2 "layers.py"

FileLocations
1 {file_name_id=1 function_name_id=1 line=10 end_line=10 column=0 end_column=0}
2 {file_name_id=2 function_name_id=1 line=176 end_line=176 column=3 end_column=9}
3 {file_name_id=9 function_name_id=1 line=5 end_line=5 column=0 end_column=0}

StackFrames
1 {file_location_id=1 parent_frame_id=0}
2 {file_location_id=2 parent_frame_id=1}
3 {file_location_id=3 parent_frame_id=1}
4 {file_location_id=7 parent_frame_id=1}

ENTRY %e (p: f32[8]) -> f32[8] {
  ROOT %p = f32[8]{0} parameter(0), metadata={op_name="x" stack_frame_id=2}
}
)";

TEST(HloSourceLocations, StackFramesAndSourceFields) {
  absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(kModule);
  ASSERT_TRUE(modules.ok()) << modules.status();
  const HloSourceLocations l((*modules)[0].header);
  EXPECT_EQ(l.Of("{op_name=\"x\" stack_frame_id=2}"), "layers.py:176");
  EXPECT_EQ(l.Of("{stack_frame_id=1}"), "train.py:10");
  // source_file/source_line win over a frame.
  EXPECT_EQ(l.Of("{source_file=\"a.py\" source_line=7 stack_frame_id=2}"),
            "a.py:7");
  EXPECT_EQ(l.Of("{source_file=\"a.py\"}"), "a.py");
  // Ids that point nowhere, or do not parse: no location.
  EXPECT_EQ(l.Of("{stack_frame_id=3}"), "");  // file 9 is not listed
  EXPECT_EQ(l.Of("{stack_frame_id=4}"), "");  // location 7 is not listed
  EXPECT_EQ(l.Of("{stack_frame_id=99}"), "");
  EXPECT_EQ(l.Of("{stack_frame_id=x}"), "");
  EXPECT_EQ(l.Of("{stack_frame_id=99999999999999999999999}"), "");
  EXPECT_EQ(l.Of("{op_name=\"x\"}"), "");
  EXPECT_EQ(l.Of(""), "");
  // A module without tables.
  const HloSourceLocations none{HloModuleHeader()};
  EXPECT_EQ(none.Of("{stack_frame_id=1}"), "");
}

}  // namespace
}  // namespace hlolayout
