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
#include "hlolayout/util/input_text.h"

namespace hlolayout::cli {

// Out of memory, the program says so on stderr, with the input it was
// reading last ("hlolayout: out of memory while reading 'dump.txt'"), and
// exits with status 1, whichever thread ran out: ExitOnOutOfMemory installs
// the handlers (the program's main does), and every input this file opens
// is noted (NoteReading; "-" is standard input).
void ExitOnOutOfMemory();
void NoteReading(absl::string_view path);

// The whole content of file `path`, or of io.in when `path` is "-".
// Errors: "cannot open 'x.txt': No such file or directory".
absl::StatusOr<std::string> ReadInput(absl::string_view path, IoContext& io);

// Everything left in `in`.
std::string ReadAll(std::istream& in);

using ::hlolayout::InputText;
using ::hlolayout::ResolveUserPath;

// ReadInput's content and errors, as an InputText: a file as OpenFileText
// opens it; standard input ("-") with io.in_fd set mapped when it is a
// regular file (from its current offset), else read from the descriptor
// (InputText::ReadDescriptor).
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
