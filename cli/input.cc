#include "hlolayout/cli/input.h"

#include <unistd.h>

#include <atomic>
#include <cstring>
#include <exception>
#include <new>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace hlolayout::cli {

namespace {

// The input read last (NoteReading): a copy that is never freed, so that
// the out-of-memory handler can print it whatever it interrupted.
std::atomic<const char*> reading{nullptr};

void WriteAll(const char* text, size_t size) {
  while (size > 0) {
    const ssize_t n = write(STDERR_FILENO, text, size);
    if (n <= 0) return;
    text += n;
    size -= static_cast<size_t>(n);
  }
}

void OutOfMemoryExit() {
  // Nothing is allocated here: the program is out of memory.
  const char* what = reading.load(std::memory_order_relaxed);
  constexpr char kHead[] = "hlolayout: out of memory";
  WriteAll(kHead, sizeof(kHead) - 1);
  if (what != nullptr) {
    constexpr char kWhile[] = " while reading ";
    WriteAll(kWhile, sizeof(kWhile) - 1);
    WriteAll(what, std::strlen(what));
  }
  WriteAll("\n", 1);
  _exit(1);
}

void OnTerminate() {
  // A std::bad_alloc thrown past a thread's function (or by a mapping that
  // failed) ends here.
  if (std::exception_ptr e = std::current_exception()) {
    try {
      std::rethrow_exception(e);
    } catch (const std::bad_alloc&) {
      OutOfMemoryExit();
    } catch (...) {
    }
  }
  std::abort();
}

}  // namespace

void NoteReading(absl::string_view path) {
  const std::string quoted = path == "-" ? std::string("standard input")
                                         : absl::StrCat("'", path, "'");
  char* copy = new char[quoted.size() + 1];
  std::memcpy(copy, quoted.c_str(), quoted.size() + 1);
  reading.store(copy, std::memory_order_relaxed);
}

void ExitOnOutOfMemory() {
  std::set_new_handler(OutOfMemoryExit);
  std::set_terminate(OnTerminate);
}

std::string ReadAll(std::istream& in) {
  std::string text;
  char buffer[1 << 16];
  while (in.read(buffer, sizeof(buffer)) || in.gcount() > 0) {
    text.append(buffer, static_cast<size_t>(in.gcount()));
  }
  return text;
}

absl::StatusOr<std::string> ReadInput(absl::string_view path, IoContext& io) {
  NoteReading(path);
  if (path == "-") return ReadAll(io.in);
  return ReadFileText(path);
}

absl::StatusOr<std::unique_ptr<InputText>> OpenInput(absl::string_view path,
                                                     IoContext& io) {
  NoteReading(path);
  if (path != "-") return OpenFileText(path);
  if (io.in_fd >= 0) {
    std::unique_ptr<InputText> text =
        InputText::MapFile(io.in_fd, lseek(io.in_fd, 0, SEEK_CUR));
    if (text != nullptr) return text;
    return InputText::ReadDescriptor(io.in_fd);
  }
  return std::make_unique<InputText>(ReadAll(io.in));
}

absl::StatusOr<std::vector<std::string>> ShapeArguments(
    const std::vector<std::string>& positional, absl::string_view file,
    IoContext& io) {
  const bool from_stdin =
      positional.empty() || (positional.size() == 1 && positional[0] == "-");
  if (file.empty() && !from_stdin) return positional;
  if (!file.empty() && !positional.empty()) {
    return absl::InvalidArgumentError(
        "give shapes as arguments or with --file, not both");
  }
  if (file.empty()) NoteReading("-");
  absl::StatusOr<std::string> text =
      file.empty() ? ReadAll(io.in) : ReadInput(file, io);
  if (!text.ok()) return text.status();
  std::vector<std::string> shapes;
  for (absl::string_view line : absl::StrSplit(*text, '\n')) {
    line = absl::StripAsciiWhitespace(line);
    if (!line.empty()) shapes.emplace_back(line);
  }
  return shapes;
}

}  // namespace hlolayout::cli
