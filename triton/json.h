// triton/json.h: the JSON reader under the triton room's names (it moved to
// util/json_reader.h, the one reader of the project; issue 85).
#ifndef HLOLAYOUT_TRITON_JSON_H_
#define HLOLAYOUT_TRITON_JSON_H_

#include "hlolayout/util/json_reader.h"

namespace hlolayout::triton {

using ::hlolayout::JsonKindName;
using ::hlolayout::JsonValue;
using ::hlolayout::kMaxJsonDepth;
using ::hlolayout::ParseJson;

}  // namespace hlolayout::triton

#endif  // HLOLAYOUT_TRITON_JSON_H_
