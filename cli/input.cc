#include "hlolayout/cli/input.h"

#include <unistd.h>

#include "absl/status/status.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace hlolayout::cli {

std::string ReadAll(std::istream& in) {
  std::string text;
  char buffer[1 << 16];
  while (in.read(buffer, sizeof(buffer)) || in.gcount() > 0) {
    text.append(buffer, static_cast<size_t>(in.gcount()));
  }
  return text;
}

absl::StatusOr<std::string> ReadInput(absl::string_view path, IoContext& io) {
  if (path == "-") return ReadAll(io.in);
  return ReadFileText(path);
}

absl::StatusOr<std::unique_ptr<InputText>> OpenInput(absl::string_view path,
                                                     IoContext& io) {
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
