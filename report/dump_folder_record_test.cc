#include "hlolayout/report/dump_folder_record.h"

#include <string>

#include "gtest/gtest.h"
#include "hlolayout/report/dump_folder.h"
#include "hlolayout/util/fields.h"
#include "hlolayout/util/record.h"

namespace hlolayout {
namespace {

std::string JsonOf(const DumpFolderTable& table) {
  std::string json;
  RecordJsonWriter writer(&json);
  EmitValue(DumpFolderAnswerOf(table), writer);
  EXPECT_TRUE(writer.done());
  return json;
}

TEST(DumpFolderRecordTest, RowsOnLinesOfTheirOwn) {
  DumpFolderTable table;
  table.folder = "d";
  table.files_read = 2;
  table.max_bytes_in_flight = 100;
  DumpFolderRow scheduled;
  scheduled.file = "a.txt";
  scheduled.module = "m";
  scheduled.instructions = 3;
  scheduled.buffer_logical_bytes = 3;
  scheduled.buffer_padded_bytes = 4;
  scheduled.scheduled = true;
  scheduled.platform = "gpu";
  scheduled.allocated_bytes = 512;
  scheduled.memory_analysis.temp_size_in_bytes = 512;
  scheduled.peak_bytes = 256;
  DumpFolderRow plain;
  plain.file = "b.txt";
  plain.peak_error = "no";
  table.rows = {scheduled, plain};
  table.skipped = {{"c.pb", "not a .txt file"}};
  table.failed = {{"e.txt", "e.txt:1:1: bad"}};
  EXPECT_EQ(JsonOf(table),
            "{\"folder\": \"d\", \"files_read\": 2, \"max_bytes_in_flight\": "
            "100, \"modules\": [\n"
            "  {\"file\": \"a.txt\", \"module\": \"m\", \"computations\": 0, "
            "\"instructions\": 3, \"buffer_values\": 0, "
            "\"buffer_logical_bytes\": 3, \"buffer_padded_bytes\": 4, "
            "\"padding_bytes\": 1, \"expansion\": 1.3333, \"buffer_overflow\": "
            "false, \"scheduled\": true, \"platform\": \"gpu\", "
            "\"allocated_bytes\": 512, \"memory_analysis\": "
            "{\"argument_size_in_bytes\": 0, \"output_size_in_bytes\": 0, "
            "\"alias_size_in_bytes\": 0, \"temp_size_in_bytes\": 512, "
            "\"peak_memory_in_bytes\": 0, \"host_argument_size_in_bytes\": 0, "
            "\"host_output_size_in_bytes\": 0, \"host_alias_size_in_bytes\": "
            "0, \"host_temp_size_in_bytes\": 0}, \"peak_bytes\": 256},\n"
            "  {\"file\": \"b.txt\", \"module\": \"\", \"computations\": 0, "
            "\"instructions\": 0, \"buffer_values\": 0, "
            "\"buffer_logical_bytes\": 0, \"buffer_padded_bytes\": 0, "
            "\"padding_bytes\": 0, \"expansion\": 1.0000, \"buffer_overflow\": "
            "false, \"scheduled\": false, \"allocated_bytes\": null, "
            "\"memory_analysis\": null, \"peak_bytes\": null, \"peak_error\": "
            "\"no\"}\n"
            "], \"skipped\": [{\"file\": \"c.pb\", \"reason\": \"not a .txt "
            "file\"}], \"failed\": [{\"file\": \"e.txt\", \"error\": "
            "\"e.txt:1:1: bad\"}], \"errors\": []}");
}

TEST(DumpFolderRecordTest, EmptyTable) {
  DumpFolderTable table;
  table.folder = "empty";
  EXPECT_EQ(JsonOf(table),
            "{\"folder\": \"empty\", \"files_read\": 0, "
            "\"max_bytes_in_flight\": 0, \"modules\": [], \"skipped\": [], "
            "\"failed\": [], \"errors\": []}");
}

}  // namespace
}  // namespace hlolayout
