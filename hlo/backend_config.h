// hlo/backend_config.h: what the analyses ask of a backend_config's JSON,
// decoded by the one JSON reader (util/json_reader.h) rather than by
// searching its text.
//
//   // custom-call(...), custom_call_target="__cublas$lt$matmul",
//   //     backend_config={"gemm_backend_config":{"alpha_real":1,"beta":0}}
//   HloConfigBetaIsZero(instruction.backend_config())  -> true
#ifndef HLOLAYOUT_HLO_BACKEND_CONFIG_H_
#define HLOLAYOUT_HLO_BACKEND_CONFIG_H_

#include "absl/strings/string_view.h"

namespace hlolayout {

// HloConfigBetaIsZero
//
// Whether a backend_config written as a JSON object (HloInstruction::
// backend_config()) has a member "beta", at any depth, whose value is
// written `0` (cuBLASLt's gemm_backend_config); JSON spaces allowed. False
// for `0.0`, `-0`, no such member, and a config that is not an object's
// JSON (the older quoted form, bad text, a repeated key). Parses the config:
// ask it only of the instructions it is about.
//   {"gemm_backend_config":{"alpha_real":1,"beta" : 0}}  ->  true
//   {"beta":0.0}, "{\"beta\":0}", {"beta":0,"beta":0}    ->  false
bool HloConfigBetaIsZero(absl::string_view config);

}  // namespace hlolayout

#endif  // HLOLAYOUT_HLO_BACKEND_CONFIG_H_
