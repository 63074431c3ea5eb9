#include "hlolayout/triton/cvt_target.h"

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"

namespace hlolayout::triton {

const std::vector<std::string>& ModelledCvtTargets() {
  static const auto* const kNames = new std::vector<std::string>{
      "cuda:80",  "cuda:86",    "cuda:89",    "cuda:90",   "cuda:100",
      "cuda:120", "hip:gfx90a", "hip:gfx942", "hip:gfx950"};
  return *kNames;
}

absl::string_view TritonVersionName(TritonVersion v) {
  switch (v) {
    case TritonVersion::k3_6_0:
      return "3.6.0";
    case TritonVersion::k3_9_0:
      return "3.9.0";
  }
  return "";
}

absl::StatusOr<TritonVersion> TritonVersionNamed(absl::string_view name) {
  if (name == "3.6.0" || name == "3.6") return TritonVersion::k3_6_0;
  if (name == "3.9.0" || name == "3.9" || name == "latest") {
    return TritonVersion::k3_9_0;
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "Triton version '", name, "' is not modelled (3.6.0, 3.9.0 or latest)"));
}

absl::StatusOr<CvtTarget> CvtTargetNamed(absl::string_view name,
                                         TritonVersion version) {
  std::string full(name);
  absl::string_view rest = name;
  if (absl::ConsumePrefix(&rest, "sm_")) {
    full = absl::StrCat("cuda:", rest);
  } else if (absl::StartsWith(name, "gfx")) {
    full = absl::StrCat("hip:", name);
  }
  CvtTarget t;
  t.name = full;
  t.version = version;
  // Newer Triton (after 3.6) counts the lanes of one access phase by the
  // banks they fill, gives gfx950 64 banks, and takes a lane order of its
  // own for AMD's 128-bit LDS reads (not the hardware's phases, which
  // lds_banks.h models: docs/triton-smem.md, "Banks and phases").
  const bool newer = version != TritonVersion::k3_6_0;
  t.smem.phase_lanes = newer;
  if (full == "cuda:80" || full == "cuda:86" || full == "cuda:89") {
    t.smem.ld_matrix = true;  // ldmatrix from sm_75, stmatrix from sm_90
  } else if (full == "cuda:90" || full == "cuda:100" || full == "cuda:120") {
    t.smem.ld_matrix = true;
    t.smem.st_matrix = true;
  } else if (full == "hip:gfx942") {
    t.amd = true;
    t.warp_size = 64;
    t.smem.weigh_tiles = false;
    if (newer) {
      t.smem.b128_load_lanes = {0, 1, 4};
    }
  } else if (full == "hip:gfx90a") {
    // CDNA2: 32 banks in both releases, 128-bit reads in plain lane order.
    t.amd = true;
    t.warp_size = 64;
    t.smem.weigh_tiles = false;
  } else if (full == "hip:gfx950") {
    t.amd = true;
    t.warp_size = 64;
    t.smem.weigh_tiles = false;
    if (newer) {
      t.smem.banks = 64;
      t.smem.b128_load_lanes = {0, 1, 3, 4};
      t.smem.b128_load_lanes_alt = {0, 1, 2, 4};
      t.smem.reorder_banks = false;
    }
  } else {
    return absl::InvalidArgumentError(absl::StrCat(
        "convert_layout costs are not modelled for target '", name,
        "' (modelled: ", absl::StrJoin(ModelledCvtTargets(), ", "), ")"));
  }
  return t;
}

}  // namespace hlolayout::triton
