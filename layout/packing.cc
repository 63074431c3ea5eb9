#include "hlolayout/layout/packing.h"

namespace hlolayout {

absl::string_view PackingOrderName(PackingOrder order) {
  return order == PackingOrder::kLowFirst ? "low-first" : "high-first";
}

absl::optional<PackingOrder> PackingOrderFromName(absl::string_view name) {
  if (name == "low-first") return PackingOrder::kLowFirst;
  if (name == "high-first") return PackingOrder::kHighFirst;
  return absl::nullopt;
}

}  // namespace hlolayout
