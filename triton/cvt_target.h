// triton/cvt_target.h: the GPUs whose convert_layout lowering hlolayout
// models, named as a TTGIR module names its target (`ttg.target`).
//
//   CvtTarget t = *CvtTargetNamed("hip:gfx942");
//   t.warp_size   // 64
//   t.smem        // no ldmatrix/stmatrix
//   t.name        // "hip:gfx942"
//
// Modelled, and checked against Triton's own lowering (differential/triton/
// cvt.py): NVIDIA sm_80, sm_86, sm_89 (ldmatrix), sm_90, sm_100, sm_120
// (ldmatrix and stmatrix), AMD gfx90a, gfx942 and gfx950 (64-lane waves,
// LDS through ds_read/ds_write). Any other name is refused with the list,
// never answered with another GPU's rule.
#ifndef HLOLAYOUT_TRITON_CVT_TARGET_H_
#define HLOLAYOUT_TRITON_CVT_TARGET_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "hlolayout/triton/swizzling.h"

namespace hlolayout::triton {

// The Triton releases whose lowering is modelled. Where they differ (AMD's
// LDS banks and access phases, docs/triton.md), the newest is the default.
enum class TritonVersion { k3_6_0, k3_9_0 };
inline constexpr TritonVersion kNewestTriton = TritonVersion::k3_9_0;

// "3.6.0", "3.9.0".
absl::string_view TritonVersionName(TritonVersion v);

// "3.6.0" or "3.6", "3.9.0" or "3.9", "latest" (the newest).
absl::StatusOr<TritonVersion> TritonVersionNamed(absl::string_view name);

struct CvtTarget {
  std::string name;  // "cuda:90", "hip:gfx942"
  bool amd = false;
  int warp_size = 32;
  TritonVersion version = kNewestTriton;
  SmemTarget smem;
};

// The target of a name as TTGIR writes it ("cuda:90", "hip:gfx942"); the
// short forms "sm_90" and "gfx942" are accepted too. An unmodelled target
// is an error naming the modelled ones.
absl::StatusOr<CvtTarget> CvtTargetNamed(absl::string_view name,
                                         TritonVersion version = kNewestTriton);

// "cuda:80", "cuda:86", "cuda:89", "cuda:90", "cuda:100", "cuda:120",
// "hip:gfx90a", "hip:gfx942", "hip:gfx950".
const std::vector<std::string>& ModelledCvtTargets();

// The target `triton cvt` and `cvt_cost` assume when none is given, and
// `triton report` when the module names none: "cuda:90".
inline constexpr absl::string_view kDefaultCvtTarget = "cuda:90";

// The element width assumed where neither a flag nor a module's element
// type gives one (the `--bits` of `triton cvt`, `explain`, `draw`; the
// `bits` of the Python functions): 16 bits, Triton's most common tensor
// element (f16, bf16).
inline constexpr int kDefaultElementBits = 16;

}  // namespace hlolayout::triton

#endif  // HLOLAYOUT_TRITON_CVT_TARGET_H_
