#include "hlolayout/cli/args.h"

#include <algorithm>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "hlolayout/util/edit_distance.h"

namespace hlolayout::cli {

std::string Args::Value(absl::string_view name,
                        absl::string_view fallback) const {
  auto it = values.find(name);
  return it == values.end() ? std::string(fallback) : it->second;
}

absl::Status UnknownFlag(absl::string_view name,
                         absl::Span<const absl::string_view> switches,
                         absl::Span<const absl::string_view> valued) {
  std::vector<std::string> known;
  for (absl::string_view s : switches) known.emplace_back(s);
  for (absl::string_view v : valued) known.emplace_back(v);
  // `--help` is answered before any command parses its flags.
  known.erase(std::remove(known.begin(), known.end(), "help"), known.end());
  std::sort(known.begin(), known.end());
  known.erase(std::unique(known.begin(), known.end()), known.end());
  std::string message = absl::StrCat("unknown flag '--", name, "'");
  std::vector<std::string> near = NearestNames(name, known, 1);
  if (!near.empty() && CloseEnough(name, near[0])) {
    absl::StrAppend(&message, "; did you mean '--", near[0], "'?");
  }
  if (known.empty()) {
    absl::StrAppend(&message, "; this command takes no flags");
  } else {
    absl::StrAppend(&message, "; flags: ");
    for (size_t i = 0; i < known.size(); ++i) {
      absl::StrAppend(&message, i == 0 ? "" : ", ", "--", known[i]);
    }
  }
  return absl::InvalidArgumentError(message);
}

int UnknownSubcommand(std::ostream& err, absl::string_view command,
                      absl::string_view what, absl::string_view sub,
                      const std::vector<std::string>& known) {
  err << "hlolayout " << command << ": unknown " << what << " '" << sub << "'";
  std::vector<std::string> near = NearestNames(sub, known, 1);
  if (!near.empty() && CloseEnough(sub, near[0])) {
    err << "; did you mean '" << near[0] << "'?";
  }
  err << "; " << what << "s: ";
  for (size_t i = 0; i < known.size(); ++i) {
    err << (i == 0 ? "" : ", ") << known[i];
  }
  err << "\n";
  return 2;
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
      return UnknownFlag(name, switches, valued);
    }
  }
  return result;
}

}  // namespace hlolayout::cli
