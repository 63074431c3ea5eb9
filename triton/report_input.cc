#include "hlolayout/triton/report_input.h"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "hlolayout/util/input_text.h"
#include "hlolayout/util/json_reader.h"

namespace hlolayout::triton {
namespace {

bool IsDirectory(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool IsFile(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// The names in `folder` ending in `suffix`, sorted.
std::vector<std::string> NamesEndingIn(const std::string& folder,
                                       absl::string_view suffix) {
  std::vector<std::string> names;
  if (DIR* dir = opendir(folder.c_str())) {
    while (const dirent* d = readdir(dir)) {
      const std::string name = d->d_name;
      if (absl::EndsWith(name, suffix) && IsFile(folder + "/" + name)) {
        names.push_back(name);
      }
    }
    closedir(dir);
  }
  std::sort(names.begin(), names.end());
  return names;
}

// `path` without its last `.ext`; the folder part kept.
std::string Stem(absl::string_view path) {
  const size_t slash = path.rfind('/');
  const size_t dot = path.rfind('.');
  if (dot == absl::string_view::npos ||
      (slash != absl::string_view::npos && dot < slash)) {
    return std::string(path);
  }
  return std::string(path.substr(0, dot));
}

// The .ttgir of a cache entry's folder: its only one.
absl::StatusOr<std::string> TtgirOfFolder(const std::string& folder,
                                          const std::string& shown) {
  const std::vector<std::string> ttgirs = NamesEndingIn(folder, ".ttgir");
  if (ttgirs.empty()) {
    return absl::NotFoundError(absl::StrCat(
        "no .ttgir file in the folder '", shown,
        "' (a Triton cache entry holds KERNEL.ttgir beside KERNEL.json)"));
  }
  if (ttgirs.size() > 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the folder '", shown, "' holds ", ttgirs.size(), " .ttgir files (",
        absl::StrJoin(ttgirs, ", "), "): name one"));
  }
  return absl::StrCat(shown, absl::EndsWith(shown, "/") ? "" : "/", ttgirs[0]);
}

// The "triton_version" of a metadata JSON ("" when it has none).
absl::StatusOr<std::string> VersionOfMetadata(const std::string& text,
                                              const std::string& shown) {
  absl::StatusOr<JsonValue> v = ParseJson(text, shown);
  if (!v.ok()) return v.status();
  if (!v->is_object()) {
    return absl::InvalidArgumentError(
        absl::StrCat(shown, ": not Triton's metadata (a JSON object)"));
  }
  const JsonValue* version = v->Find("triton_version");
  if (version == nullptr || !version->is_string()) return std::string();
  return version->string;
}

// The .ttgir a metadata JSON stands for: KERNEL.ttgir beside KERNEL.json
// (or beside __grp__KERNEL.json).
std::string TtgirOfMetadata(const std::string& json_path) {
  std::string stem = Stem(json_path);
  const size_t slash = stem.rfind('/');
  const size_t base = slash == std::string::npos ? 0 : slash + 1;
  if (absl::StartsWith(absl::string_view(stem).substr(base), "__grp__")) {
    stem.erase(base, 7);
  }
  return stem + ".ttgir";
}

}  // namespace

absl::StatusOr<ReportInput> ReadReportInput(const std::string& arg) {
  ReportInput in;
  std::string ttgir = arg;
  std::string metadata;
  if (IsDirectory(ResolveUserPath(arg))) {
    absl::StatusOr<std::string> found =
        TtgirOfFolder(ResolveUserPath(arg), arg);
    if (!found.ok()) return found.status();
    ttgir = *found;
  } else if (absl::EndsWith(arg, ".json")) {
    ttgir = TtgirOfMetadata(arg);
    // The group file lists the entry's files; KERNEL.json has the release.
    metadata = IsFile(ResolveUserPath(Stem(ttgir) + ".json"))
                   ? Stem(ttgir) + ".json"
                   : arg;
    if (!IsFile(ResolveUserPath(ttgir))) {
      return absl::NotFoundError(absl::StrCat(
          "no '", ttgir, "' beside '", arg,
          "' (Triton's cache keeps KERNEL.ttgir beside KERNEL.json)"));
    }
  }
  if (metadata.empty() && IsFile(ResolveUserPath(Stem(ttgir) + ".json"))) {
    metadata = Stem(ttgir) + ".json";
  }
  absl::StatusOr<std::string> text = ReadFileText(ttgir);
  if (!text.ok()) return text.status();
  in.text = *std::move(text);
  in.file = ttgir;
  if (!metadata.empty()) {
    absl::StatusOr<std::string> json = ReadFileText(metadata);
    if (!json.ok()) return json.status();
    absl::StatusOr<std::string> version = VersionOfMetadata(*json, metadata);
    if (!version.ok()) return version.status();
    in.metadata = metadata;
    in.triton_version = *version;
  }
  return in;
}

absl::StatusOr<ReleaseRules> RulesFor(const ReportInput& in,
                                      absl::string_view flag) {
  ReleaseRules r;
  const std::string base = [&] {
    const size_t slash = in.metadata.rfind('/');
    return slash == std::string::npos ? in.metadata
                                      : in.metadata.substr(slash + 1);
  }();
  if (!flag.empty()) {
    absl::StatusOr<TritonVersion> v = TritonVersionNamed(flag);
    if (!v.ok()) return v.status();
    r.version = *v;
    r.said =
        absl::StrCat("Triton ", TritonVersionName(*v), "'s rules (--triton)");
    if (!in.triton_version.empty()) {
      absl::StrAppend(&r.said, "; the dump is of Triton ", in.triton_version,
                      " (", base, ")");
    }
    return r;
  }
  if (in.triton_version.empty()) {
    r.said = absl::StrCat(
        "Triton ", TritonVersionName(r.version),
        "'s rules (the newest modelled: the dump does not say its release; "
        "--triton 3.6.0 for another)");
    return r;
  }
  // "3.6.0", "3.6.0+git1234": major and minor decide.
  std::vector<std::string> parts = absl::StrSplit(in.triton_version, '.');
  int major = 0, minor = 0;
  const bool numbered = parts.size() >= 2 &&
                        absl::SimpleAtoi(parts[0], &major) &&
                        absl::SimpleAtoi(parts[1], &minor);
  const bool older = numbered && (major < 3 || (major == 3 && minor <= 6));
  r.version = older ? TritonVersion::k3_6_0 : kNewestTriton;
  const std::string rules(TritonVersionName(r.version));
  const bool exact = numbered && major == 3 &&
                     absl::StrCat(parts[0], ".", parts[1]) ==
                         rules.substr(0, rules.rfind('.'));
  r.said = exact ? absl::StrCat("Triton ", rules, "'s rules (", base,
                                " says Triton ", in.triton_version, ")")
                 : absl::StrCat("Triton ", rules,
                                "'s rules, the nearest "
                                "modelled: ",
                                base, " says Triton ", in.triton_version,
                                ", which is not modelled");
  return r;
}

std::vector<std::string> DefaultedFacts(const TtgirModule& m) {
  std::vector<std::string> out;
  if (m.num_warps == 0) out.push_back("num_warps");
  if (!m.threads_per_warp_named) out.push_back("threads_per_warp");
  if (!m.num_ctas_named) out.push_back("num_ctas");
  if (m.target.empty()) out.push_back("target");
  return out;
}

}  // namespace hlolayout::triton
