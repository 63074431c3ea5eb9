#include "hlolayout/triton/cvt_report.h"

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "hlolayout/triton/cvt_target.h"

namespace hlolayout::triton {

absl::StatusOr<std::vector<std::string>> CvtTargetsFlag(absl::string_view flag,
                                                        int lanes) {
  std::vector<std::string> out;
  if (flag.empty()) {
    out.push_back(lanes == 64 ? "hip:gfx942" : std::string(kDefaultCvtTarget));
    return out;
  }
  if (flag == "all") {
    for (const std::string& name : ModelledCvtTargets()) {
      if (CvtTargetNamed(name)->warp_size == lanes) {
        out.push_back(name);
      }
    }
    if (out.empty()) {
      return absl::NotFoundError(absl::StrCat(
          "no modelled target has ", lanes, "-lane warps (the layouts have)"));
    }
    return out;
  }
  for (absl::string_view part : absl::StrSplit(flag, ',')) {
    absl::StatusOr<CvtTarget> t = CvtTargetNamed(part);
    if (!t.ok()) return t.status();
    out.push_back(t->name);
  }
  return out;
}

}  // namespace hlolayout::triton
