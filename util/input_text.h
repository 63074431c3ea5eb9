// util/input_text.h: reading the files a user names, for the library's
// readers, the CLI and the Python module alike (issue 45: Python reads
// files through the library, not through the CLI).
//
//   absl::StatusOr<std::string> text = ReadFileText("dump.txt");
//   absl::StatusOr<std::unique_ptr<InputText>> big = OpenFileText("dump.txt");
//   (*big)->view()  // the file's bytes, mapped
//
// `bazel run` starts a binary in its runfiles directory and exports the
// user's directory as BUILD_WORKING_DIRECTORY; relative paths are resolved
// against it, so `./bazelw run //:hlolayout -- report dump.txt` reads the
// dump.txt the user sees.
#ifndef HLOLAYOUT_UTIL_INPUT_TEXT_H_
#define HLOLAYOUT_UTIL_INPUT_TEXT_H_

#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace hlolayout {

// `path` made absolute against BUILD_WORKING_DIRECTORY when that is set.
std::string ResolveUserPath(absl::string_view path);

// The whole content of file `path`.
// Errors: "cannot open 'x.txt': No such file or directory", "cannot read
// 'dir': Is a directory".
absl::StatusOr<std::string> ReadFileText(absl::string_view path);

// The content of a file, mapped into memory read-only when it is a regular
// file (no copy, no zero-filled buffer: a 75 MB dump read into a string
// cost a tenth of `report --summary`), else read into memory (pipes, empty
// files). A descriptor (cli/input.h maps standard input this way) is mapped
// the same way when it is a regular file (from its current offset), and a
// pipe is read from the descriptor into memory that grows without copying (its
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

  // Gives the pages of a mapped file back to the system; a later read of
  // the view maps them again from the page cache, unchanged (the view stays
  // valid). Nothing for a text held in memory. For a reader done with most
  // of the text: `hlolayout memory` once the module is read (the analysis
  // reads little of the text again; docs/memory-speed.md).
  void ReleasePages() const;
  // The same for the whole pages within view()[begin, end) only (for a
  // reader that has passed them: HloReadOptions::passed).
  void ReleasePages(size_t begin, size_t end) const;
  // The regular file open as `fd` mapped from `offset`; nullptr when it
  // cannot be (not a regular file, nothing left, mmap refused).
  static std::unique_ptr<InputText> MapFile(int fd, int64_t offset);
  // Everything left on `fd`, read into memory that grows without copying.
  static absl::StatusOr<std::unique_ptr<InputText>> ReadDescriptor(int fd);

 private:
  std::string owned_;
  const char* map_ = nullptr;  // the view, inside the mapping below
  size_t size_ = 0;
  void* map_base_ = nullptr;  // what munmap releases
  size_t map_len_ = 0;
  bool file_map_ = false;  // a file (counted for the SIGBUS guard)
};

// ReadFileText's content and errors, as an InputText (mapped when `path` is
// a regular file).
absl::StatusOr<std::unique_ptr<InputText>> OpenFileText(absl::string_view path);

}  // namespace hlolayout

#endif  // HLOLAYOUT_UTIL_INPUT_TEXT_H_
