#include "hlolayout/util/input_text.h"

#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>

#include "gtest/gtest.h"

namespace hlolayout {
namespace {

std::string TempPath(const char* name) {
  const char* dir = std::getenv("TEST_TMPDIR");
  return std::string(dir != nullptr ? dir : "/tmp") + "/" + name;
}

TEST(InputText, ReadsAndMapsAFile) {
  const std::string path = TempPath("input_text.txt");
  std::ofstream(path) << "HloModule m\n";
  absl::StatusOr<std::string> text = ReadFileText(path);
  ASSERT_TRUE(text.ok()) << text.status();
  EXPECT_EQ(*text, "HloModule m\n");
  absl::StatusOr<std::unique_ptr<InputText>> mapped = OpenFileText(path);
  ASSERT_TRUE(mapped.ok()) << mapped.status();
  EXPECT_EQ((*mapped)->view(), "HloModule m\n");
}

TEST(InputText, AnEmptyFileIsEmptyText) {
  const std::string path = TempPath("input_text_empty.txt");
  std::ofstream(path).flush();
  absl::StatusOr<std::unique_ptr<InputText>> mapped = OpenFileText(path);
  ASSERT_TRUE(mapped.ok()) << mapped.status();
  EXPECT_EQ((*mapped)->view(), "");
}

TEST(InputText, ErrorsNameThePathAsWritten) {
  absl::StatusOr<std::string> missing = ReadFileText("no/such/file.txt");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().message(),
            "cannot open 'no/such/file.txt': No such file or directory");
  EXPECT_EQ(OpenFileText("no/such/file.txt").status().message(),
            missing.status().message());
  const char* dir = std::getenv("TEST_TMPDIR");
  absl::StatusOr<std::string> folder =
      ReadFileText(dir != nullptr ? dir : "/tmp");
  ASSERT_FALSE(folder.ok());
  EXPECT_NE(std::string(folder.status().message()).find("Is a directory"),
            std::string::npos)
      << folder.status();
  EXPECT_FALSE(OpenFileText(dir != nullptr ? dir : "/tmp").ok());
}

}  // namespace
}  // namespace hlolayout
