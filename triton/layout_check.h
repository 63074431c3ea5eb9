// triton/layout_check.h: whether Triton accepts a layout on a type, what
// `hlolayout triton check` answers: TritonGPU's attribute verifiers, then its
// checks of the type (rank, CTAs, a tensor's warp size and warps, a
// memdesc's shape), and the LinearLayout it gives.
//
//   LayoutCheckRequest r;
//   r.layout = "#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], "
//              "instrShape = [32, 32, 8], isTransposed = true}>";
//   r.shape = {64, 64};
//   r.threads_per_warp = 64;
//   LayoutCheck c = CheckLayout(r);   // c.status.ok(), c.kind == "amd_mfma"
//   LayoutCheckText(r, c);
//   // accepted: #ttg.amd_mfma<{version = 3, ...}>
//   // on tensor<64x64xf32> in a module of 64 threads per warp
//   // linear layout (Triton's str): ...
//   r.threads_per_warp = 32;
//   CheckLayout(r).status;            // Triton's refusal of 64-lane bases
#ifndef HLOLAYOUT_TRITON_LAYOUT_CHECK_H_
#define HLOLAYOUT_TRITON_LAYOUT_CHECK_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "hlolayout/triton/cvt_target.h"
#include "hlolayout/triton/linear_layout.h"
#include "hlolayout/util/json_reader.h"

namespace hlolayout::triton {

// The layout and the type and module it is checked on.
struct LayoutCheckRequest {
  std::string layout;          // TTGIR text
  std::vector<int64_t> shape;  // the type's (a memdesc: its allocation)
  std::string element = "f32";
  bool memdesc = false;  // a !ttg.memdesc, else a tensor
  int threads_per_warp = 32;
  std::optional<int> num_warps;  // unset: as many as the layout has
  std::optional<int> num_ctas;   // unset: as many as the layout has
  // The release whose rules decide where the text does not say: under
  // 3.6.0, a tensor memory attribute both releases read (no CTASplitM/N, no
  // CGALayout) is 3.6.0's, whose memdesc checks differ (docs/triton.md,
  // "Triton versions"). The layout verifiers' rules follow the spelling.
  TritonVersion triton = kNewestTriton;
};

// The answer: `status` is Triton's refusal, or OK with the layout's kind,
// its TTGIR as read, and its LinearLayout. `kind` and `ttgir` are empty when
// the text did not parse.
struct LayoutCheck {
  absl::Status status;
  std::string kind;
  std::string ttgir;
  LinearLayout layout;
  // What an accepted type will not do although Triton's verifier passes it:
  // a tensor memory memdesc taking more columns than a CTA has (Triton 3.7
  // and later do not count them at the type). Empty for most checks.
  std::vector<std::string> notes;
};

LayoutCheck CheckLayout(const LayoutCheckRequest& request);

// LayoutCheckRequestFromJson
//
// One request from a JSON object {"layout": ..., "shape": [...],
// "element": "f16", "memdesc": false, "threads_per_warp": 64,
// "num_warps": 4, "num_ctas": 1, "triton": "3.6.0"} (only layout and shape
// required; sizes 1 to 2^40, counts 1 to 2^20). Errors name the key ("a check
// needs ...").
absl::StatusOr<LayoutCheckRequest> LayoutCheckRequestFromJson(
    const JsonValue& v);

// `triton check`'s answer as a value, its JSON and text: answers/triton.h
// (AnswerCheck).

}  // namespace hlolayout::triton

#endif  // HLOLAYOUT_TRITON_LAYOUT_CHECK_H_
