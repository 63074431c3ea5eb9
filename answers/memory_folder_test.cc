#include "hlolayout/answers/memory_folder.h"

#include <string>

#include "gtest/gtest.h"
#include "hlolayout/testing/dump_file_reader.h"
#include "hlolayout/testing/test_data.h"

namespace hlolayout::answers {
namespace {

std::string MemoryTestdata() {
  const std::string any = TestDataPath(
      "memory/testdata/module_0002.jit_lstm.cpu_after_optimizations.txt");
  return any.substr(0, any.rfind('/'));
}

// The folder's modules, most allocated first, each scheduled one with
// memory/'s figures; the folder named as the request names it.
TEST(MemoryFolderTest, RowsMostAllocatedFirst) {
  MemoryFolderRequest request;
  request.folder = "testdata";
  request.path = MemoryTestdata();
  request.threads = 2;
  absl::StatusOr<MemoryFolderAnswer> a =
      AnswerMemoryFolder(request, ReadDumpFile);
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_FALSE(a->no_module_files());
  EXPECT_EQ(a->table.folder, "testdata");
  ASSERT_GE(a->table.rows.size(), 5u);
  EXPECT_TRUE(a->table.failed.empty());
  for (size_t i = 0; i < a->table.rows.size(); ++i) {
    const DumpFolderRow& row = a->table.rows[i];
    EXPECT_TRUE(row.scheduled) << row.file;
    EXPECT_GT(row.peak_bytes, 0) << row.file;
    if (i > 0) {
      EXPECT_GE(a->table.rows[i - 1].allocated_bytes, row.allocated_bytes);
    }
  }
  const DumpFolderRow* lstm = nullptr;
  for (const DumpFolderRow& row : a->table.rows) {
    if (row.module == "jit_lstm") lstm = &row;
  }
  ASSERT_NE(lstm, nullptr);
  EXPECT_EQ(lstm->platform, "cpu");
  EXPECT_EQ(lstm->allocated_bytes, lstm->memory_analysis.allocated_bytes());
}

// Another order is kept; a folder that cannot be read is an error.
TEST(MemoryFolderTest, OrderAndMissingFolder) {
  MemoryFolderRequest request;
  request.folder = MemoryTestdata();
  request.order = DumpFolderOrder::kModule;
  absl::StatusOr<MemoryFolderAnswer> a =
      AnswerMemoryFolder(request, ReadDumpFile);
  ASSERT_TRUE(a.ok()) << a.status();
  for (size_t i = 1; i < a->table.rows.size(); ++i) {
    EXPECT_LE(a->table.rows[i - 1].module, a->table.rows[i].module);
  }
  request.folder = "no/such/folder";
  a = AnswerMemoryFolder(request, ReadDumpFile);
  ASSERT_FALSE(a.ok());
  EXPECT_EQ(a.status().message(),
            "cannot read folder 'no/such/folder': No such file or directory");
}

}  // namespace
}  // namespace hlolayout::answers
