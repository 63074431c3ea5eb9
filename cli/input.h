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

#include <istream>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "cli/command.h"

namespace hlolayout::cli {

// `path` made absolute against BUILD_WORKING_DIRECTORY when that is set.
std::string ResolveUserPath(absl::string_view path);

// The whole content of file `path`, or of io.in when `path` is "-".
// Errors: "cannot open 'x.txt': No such file or directory".
absl::StatusOr<std::string> ReadInput(absl::string_view path, IoContext& io);

// Everything left in `in`.
std::string ReadAll(std::istream& in);

}  // namespace hlolayout::cli

#endif  // HLOLAYOUT_CLI_INPUT_H_
