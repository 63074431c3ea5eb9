// cli/input.h: reading the files and standard input a command is given.
//
//   absl::StatusOr<std::string> text = ReadInput("dump.txt", io);  // a file
//   absl::StatusOr<std::string> text = ReadInput("-", io);         // stdin
//
// `bazel run` starts the binary in its runfiles directory and exports the
// user's directory as BUILD_WORKING_DIRECTORY; relative paths are resolved
// against it, so `./bazelw run //:hlolayout -- report dump.txt` reads the
// dump.txt the user sees.
#ifndef HLOLAYOUT_CLI_INPUT_H_
#define HLOLAYOUT_CLI_INPUT_H_

#include <cstdint>
#include <istream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "hlolayout/cli/command.h"

namespace hlolayout::cli {

// `path` made absolute against BUILD_WORKING_DIRECTORY when that is set.
std::string ResolveUserPath(absl::string_view path);

// The whole content of file `path`, or of io.in when `path` is "-".
// Errors: "cannot open 'x.txt': No such file or directory".
absl::StatusOr<std::string> ReadInput(absl::string_view path, IoContext& io);

// Everything left in `in`.
std::string ReadAll(std::istream& in);

// The content of a file, mapped into memory read-only when it is a regular
// file (no copy, no zero-filled buffer: a 75 MB dump read into a string
// cost a tenth of `report --summary`), else read like ReadInput (stdin,
// pipes, empty files). Standard input ("-") with io.in_fd set is mapped the
// same way when it is a regular file (from its current offset), and a pipe
// is read from the descriptor into memory that grows without copying (its
// peak is the input's size, not twice it). The view lives as long as the
// object. A file cut
// short by another process while mapped cannot be read any more: reading a
// lost page ends the program with "an input file was cut short by another
// process while it was read" on stderr and exit status 1 (a SIGBUS handler
// installed with the first mapping), not a crash.
class InputText {
 public:
  InputText() = default;
  explicit InputText(std::string text) : owned_(std::move(text)) {}
  ~InputText();
  InputText(const InputText&) = delete;
  InputText& operator=(const InputText&) = delete;

  absl::string_view view() const {
    return map_ != nullptr ? absl::string_view(map_, size_)
                           : absl::string_view(owned_);
  }

 private:
  friend absl::StatusOr<std::unique_ptr<InputText>> OpenInput(
      absl::string_view path, IoContext& io);
  // The regular file open as `fd` mapped from `offset`; nullptr when it
  // cannot be (not a regular file, nothing left, mmap refused).
  static std::unique_ptr<InputText> MapFile(int fd, int64_t offset);
  // Everything left on `fd`, read into memory that grows without copying.
  static absl::StatusOr<std::unique_ptr<InputText>> ReadDescriptor(int fd);
  std::string owned_;
  const char* map_ = nullptr;  // the view, inside the mapping below
  size_t size_ = 0;
  void* map_base_ = nullptr;  // what munmap releases
  size_t map_len_ = 0;
  bool file_map_ = false;  // a file (counted for the SIGBUS guard)
};

// ReadInput's content and errors, as an InputText.
absl::StatusOr<std::unique_ptr<InputText>> OpenInput(absl::string_view path,
                                                     IoContext& io);

// The shapes a command works on: its positional arguments, or one shape per
// non-blank line of standard input when there are none or the only one is
// "-", or of the file named by `file` when it is not empty.
absl::StatusOr<std::vector<std::string>> ShapeArguments(
    const std::vector<std::string>& positional, absl::string_view file,
    IoContext& io);

}  // namespace hlolayout::cli

#endif  // HLOLAYOUT_CLI_INPUT_H_
