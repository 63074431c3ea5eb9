#include "hlolayout/cli/args.h"

#include <algorithm>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace hlolayout::cli {

std::string Args::Value(absl::string_view name,
                        absl::string_view fallback) const {
  auto it = values.find(name);
  return it == values.end() ? std::string(fallback) : it->second;
}

absl::StatusOr<Args> ParseArgs(const std::vector<std::string>& args,
                               absl::Span<const absl::string_view> switches,
                               absl::Span<const absl::string_view> valued) {
  Args result;
  bool flags_done = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const absl::string_view arg = args[i];
    if (flags_done || arg.size() < 2 || arg.substr(0, 2) != "--") {
      result.positional.emplace_back(arg);
      continue;
    }
    if (arg == "--") {
      flags_done = true;
      continue;
    }
    absl::string_view name = arg.substr(2);
    absl::string_view value;
    const size_t eq = name.find('=');
    const bool has_value = eq != absl::string_view::npos;
    if (has_value) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
    }
    const bool is_switch =
        std::find(switches.begin(), switches.end(), name) != switches.end();
    const bool is_valued =
        std::find(valued.begin(), valued.end(), name) != valued.end();
    if (is_switch && !has_value) {
      result.switches.emplace(name);
    } else if (is_valued) {
      if (!has_value) {
        if (i + 1 >= args.size()) {
          return absl::InvalidArgumentError(
              absl::StrCat("flag '--", name, "' needs a value"));
        }
        value = args[++i];
      }
      result.values[name] = std::string(value);
    } else if (is_switch) {
      return absl::InvalidArgumentError(
          absl::StrCat("flag '--", name, "' takes no value"));
    } else {
      return absl::InvalidArgumentError(
          absl::StrCat("unknown flag '",
                       arg.substr(0, has_value ? eq + 2 : arg.size()), "'"));
    }
  }
  return result;
}

}  // namespace hlolayout::cli
