#include "hlolayout/views/dump_folder_text.h"

#include <sstream>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace hlolayout {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

DumpFolderTable TwoRows() {
  DumpFolderTable table;
  table.folder = "dump";
  table.files_read = 2;
  DumpFolderRow a;
  a.file = "module_0001.jit_f.txt";
  a.module = "jit_f";
  a.instructions = 12;
  a.buffer_logical_bytes = 1000;
  a.buffer_padded_bytes = 3000;
  a.scheduled = true;
  a.platform = "gpu";
  a.allocated_bytes = 4096;
  a.peak_bytes = 2048;
  DumpFolderRow b;
  b.file = "module_0002.txt";
  b.instructions = 3;
  b.buffer_logical_bytes = 16;
  b.buffer_padded_bytes = 16;
  table.rows = {a, b};
  table.skipped = {{"notes.md", "not a .txt file"},
                   {"a.pb", "not a .txt file"}};
  table.failed = {{"bad.txt", "bad.txt:1:1: expected 'HloModule'"}};
  return table;
}

TEST(DumpFolderTextTest, RowsInAlignedColumnsThenTotalsAndSkipped) {
  EXPECT_EQ(DumpFolderTableText(TwoRows()),
            "dump folder dump: 2 modules in 2 files, 2 skipped, 1 failed\n"
            "module     instructions  buffers  padding  expansion  XLA "
            "allocates  live-range peak  file\n"
            "jit_f                12  2.9 KiB  2.0 KiB      3.00x  4.0 KiB "
            "(gpu)          2.0 KiB  module_0001.jit_f.txt\n"
            "(no name)             3     16 B      0 B      1.00x  not "
            "scheduled    not scheduled  module_0002.txt\n"
            "all modules: 15 instructions, buffers 2.9 KiB padded (1016 B "
            "logical), padding 2.0 KiB\n"
            "skipped 2 files:\n"
            "  2 not a .txt file: notes.md, a.pb\n"
            "failed: bad.txt: bad.txt:1:1: expected 'HloModule'\n");
}

TEST(DumpFolderTextTest, EmptyFolder) {
  DumpFolderTable table;
  table.folder = "empty";
  EXPECT_EQ(DumpFolderTableText(table),
            "dump folder empty: 0 modules in 0 files, 0 skipped\n");
}

TEST(DumpFolderTextTest, JsonTakesExtraKeys) {
  const std::string json = DumpFolderTableJson(TwoRows(), ", \"x\": 1");
  EXPECT_THAT(json, StartsWith("{"));
  EXPECT_THAT(json, HasSubstr("\"module\": \"jit_f\""));
  EXPECT_EQ(json.substr(json.size() - 10), ", \"x\": 1}\n");
}

TEST(DumpFolderTextTest, FolderReportWithoutWasters) {
  const DumpFolderTable table = TwoRows();
  Report report;
  report.modules.resize(2);
  std::ostringstream text, json;
  WriteFolderReport(report, table, 5, false, text);
  EXPECT_THAT(text.str(),
              HasSubstr("top padding wasters over the folder (buffers, each "
                        "once, with their other names):\n  (no padding)\n"));
  WriteFolderReport(report, table, 5, true, json);
  EXPECT_THAT(json.str(), HasSubstr("\"top_padding_wasters\": []}\n"));
}

}  // namespace
}  // namespace hlolayout
