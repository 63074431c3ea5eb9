#include "hlolayout/ttnn/refusal.h"

#include "absl/strings/cord.h"
#include "absl/strings/str_cat.h"

namespace hlolayout::ttnn {
namespace {

constexpr absl::string_view kRuleUrl = "hlolayout.ttnn/rule";

}  // namespace

absl::Status Refused(absl::string_view rule, absl::string_view message) {
  absl::Status status = absl::InvalidArgumentError(message);
  status.SetPayload(kRuleUrl, absl::Cord(rule));
  return status;
}

absl::optional<std::string> RefusalRule(const absl::Status& status) {
  absl::optional<absl::Cord> payload = status.GetPayload(kRuleUrl);
  if (!payload) return absl::nullopt;
  return std::string(*payload);
}

}  // namespace hlolayout::ttnn
