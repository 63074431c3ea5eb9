#include "hlolayout/cli/input.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "gtest/gtest.h"

namespace hlolayout::cli {
namespace {

std::string TempPath(const char* name) {
  const char* dir = std::getenv("TEST_TMPDIR");
  return std::string(dir != nullptr ? dir : "/tmp") + "/" + name;
}

TEST(OpenInput, MapsARegularFileAndReadsStdinOtherwise) {
  const std::string path = TempPath("open_input.txt");
  std::ofstream(path) << "HloModule m\n";
  std::istringstream in("from stdin");
  std::ostringstream out, err;
  IoContext io{in, out, err};
  absl::StatusOr<std::unique_ptr<InputText>> file = OpenInput(path, io);
  ASSERT_TRUE(file.ok()) << file.status();
  EXPECT_EQ((*file)->view(), "HloModule m\n");
  absl::StatusOr<std::unique_ptr<InputText>> stdin_text = OpenInput("-", io);
  ASSERT_TRUE(stdin_text.ok());
  EXPECT_EQ((*stdin_text)->view(), "from stdin");
  EXPECT_FALSE(OpenInput(TempPath("missing.txt"), io).ok());
}

TEST(OpenInput, StdinDescriptorMapsAFileFromItsOffsetAndReadsAPipe) {
  std::istringstream in("the stream is not read");
  std::ostringstream out, err;
  // A regular file (`< file`), already read up to byte 3.
  const std::string path = TempPath("stdin_file.bin");
  std::ofstream(path) << "0123456789";
  const int fd = open(path.c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(lseek(fd, 3, SEEK_SET), 3);
  IoContext file_io{in, out, err, fd};
  absl::StatusOr<std::unique_ptr<InputText>> text = OpenInput("-", file_io);
  ASSERT_TRUE(text.ok()) << text.status();
  EXPECT_EQ((*text)->view(), "3456789");
  close(fd);
  // A pipe of 3 MiB (the buffer grows twice) and an empty one.
  for (const size_t bytes : {size_t{3} << 20, size_t{0}}) {
    int fds[2];
    ASSERT_EQ(pipe(fds), 0);
    std::string data(bytes, '\0');
    for (size_t i = 0; i < bytes; ++i) data[i] = static_cast<char>(i * 7);
    std::thread writer([&] {
      for (size_t done = 0; done < data.size();) {
        const ssize_t n = write(fds[1], data.data() + done, data.size() - done);
        if (n <= 0) break;
        done += static_cast<size_t>(n);
      }
      close(fds[1]);
    });
    IoContext pipe_io{in, out, err, fds[0]};
    text = OpenInput("-", pipe_io);
    writer.join();
    close(fds[0]);
    ASSERT_TRUE(text.ok()) << text.status();
    EXPECT_TRUE((*text)->view() == data) << bytes;
  }
}

// Maps `path`, truncates it as another process would, then reads the view:
// the process must end before the last line.
void ReadAfterTruncation(const std::string& path) {
  std::istringstream in;
  std::ostringstream out, err;
  IoContext io{in, out, err};
  absl::StatusOr<std::unique_ptr<InputText>> text = OpenInput(path, io);
  if (!text.ok()) std::_Exit(3);
  const int fd = open(path.c_str(), O_WRONLY | O_TRUNC);
  if (fd < 0) std::_Exit(4);
  close(fd);
  const absl::string_view view = (*text)->view();
  volatile char sum = 0;
  for (size_t i = 0; i < view.size(); i += 4096) sum = sum + view[i];
  std::_Exit(5);  // not reached: the pages are gone
}

// Another process truncating a mapped input: reading past the new end is a
// clean exit with a message, not a crash.
TEST(OpenInputDeathTest, FileCutShortWhileMappedEndsWithAMessage) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const std::string path = TempPath("cut_short.txt");
  std::ofstream(path) << std::string(1 << 20, 'x');
  EXPECT_EXIT(ReadAfterTruncation(path), ::testing::ExitedWithCode(1),
              "cut short by another process");
}

}  // namespace
}  // namespace hlolayout::cli
