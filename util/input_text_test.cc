#include "hlolayout/util/input_text.h"

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>

#include "gtest/gtest.h"
#include "hlolayout/util/pages.h"

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

// A mapped file's pages go back to the system and come back unchanged when
// read again; a text held in memory (what a pipe gives) keeps its bytes.
TEST(InputText, ReleasedPagesComeBackUnchanged) {
  const std::string path = TempPath("input_text_release.txt");
  std::string content;
  for (int i = 0; content.size() < (size_t{16} << 20); ++i) {
    content += "  %x" + std::to_string(i) + " = f32[8]{0} negate(%y)\n";
  }
  std::ofstream(path) << content;
  absl::StatusOr<std::unique_ptr<InputText>> mapped = OpenFileText(path);
  ASSERT_TRUE(mapped.ok()) << mapped.status();
  const InputText& text = **mapped;
  ASSERT_EQ(text.view(), content);  // every page read once
  const int64_t before = ResidentBytes();
  text.ReleasePages();
  const int64_t after = ResidentBytes();
  if (before >= 0 && after >= 0) {
    EXPECT_LT(after, before - (int64_t{8} << 20)) << before << " " << after;
  }
  EXPECT_EQ(text.view(), content);

  // A range: its whole pages only.
  ASSERT_EQ(text.view(), content);
  const int64_t all = ResidentBytes();
  text.ReleasePages(1, content.size() / 2);
  const int64_t half = ResidentBytes();
  if (all >= 0 && half >= 0) {
    EXPECT_LT(half, all - (int64_t{6} << 20)) << all << " " << half;
    EXPECT_GT(half, all - (int64_t{10} << 20)) << all << " " << half;
  }
  EXPECT_EQ(text.view(), content);
  text.ReleasePages(10, 5);                  // empty: nothing
  text.ReleasePages(0, content.size() + 1);  // past the end: nothing
  EXPECT_EQ(text.view(), content);

  InputText owned(content);
  owned.ReleasePages();
  owned.ReleasePages(0, content.size());
  EXPECT_EQ(owned.view(), content);
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
