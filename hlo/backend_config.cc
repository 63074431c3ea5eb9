#include "hlolayout/hlo/backend_config.h"

#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "hlolayout/util/json_reader.h"

namespace hlolayout {
namespace {

// Whether `v` or a value inside it has a member `key` written `0` in `text`.
bool HasZeroMember(const JsonValue& v, absl::string_view key,
                   absl::string_view text) {
  for (const auto& [name, member] : v.object) {
    if (name == key && member.kind == JsonValue::Kind::kNumber &&
        member.is_integer && member.integer == 0 &&
        text[member.offset] == '0') {
      return true;
    }
    if (HasZeroMember(member, key, text)) return true;
  }
  for (const JsonValue& item : v.array) {
    if (HasZeroMember(item, key, text)) return true;
  }
  return false;
}

}  // namespace

bool HloConfigBetaIsZero(absl::string_view config) {
  if (!absl::StartsWith(config, "{")) return false;
  const absl::StatusOr<JsonValue> v = ParseJson(config);
  return v.ok() && HasZeroMember(*v, "beta", config);
}

}  // namespace hlolayout
