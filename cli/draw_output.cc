#include "hlolayout/cli/draw_output.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>

#include "absl/strings/str_cat.h"
#include "hlolayout/cli/input.h"

namespace hlolayout::cli {

absl::StatusOr<bool> ShouldColour(absl::string_view when, const IoContext& io) {
  if (when == "always") return true;
  if (when == "never") return false;
  if (when != "auto") {
    return absl::InvalidArgumentError(
        absl::StrCat("bad --color '", when, "' (auto, always or never)"));
  }
  const char* no_color = std::getenv("NO_COLOR");
  if (no_color != nullptr && *no_color != '\0') return false;
  return &io.out == &std::cout && isatty(STDOUT_FILENO) == 1;
}

absl::Status WriteSvg(absl::string_view path, const std::string& svg,
                      IoContext& io) {
  if (path == "-") {
    io.out << svg;
    return absl::OkStatus();
  }
  const std::string resolved = ResolveUserPath(path);
  std::FILE* f = std::fopen(resolved.c_str(), "wb");
  if (f == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot write '", path, "': ", std::strerror(errno)));
  }
  const size_t n = std::fwrite(svg.data(), 1, svg.size(), f);
  const bool ok = n == svg.size() && std::fclose(f) == 0;
  if (!ok) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot write '", path, "': ", std::strerror(errno)));
  }
  return absl::OkStatus();
}

}  // namespace hlolayout::cli
