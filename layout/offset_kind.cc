#include "hlolayout/layout/offset_kind.h"

#include <cstdint>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace hlolayout {

absl::string_view OffsetKindName(OffsetKind kind) {
  switch (kind) {
    case OffsetKind::kElement:
      return "element";
    case OffsetKind::kTilePadding:
      return "tile padding";
    case OffsetKind::kTailPadding:
      return "tail padding";
  }
  return "element";
}

absl::Status CheckIndexInBounds(absl::Span<const int64_t> dims,
                                absl::Span<const int64_t> index) {
  if (index.size() != dims.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("index has ", index.size(),
                     " coordinates, shape has rank ", dims.size()));
  }
  for (size_t i = 0; i < dims.size(); ++i) {
    if (index[i] < 0 || index[i] >= dims[i]) {
      return absl::OutOfRangeError(absl::StrCat("index ", index[i],
                                                " out of bounds for dimension ",
                                                i, " of size ", dims[i]));
    }
  }
  return absl::OkStatus();
}

}  // namespace hlolayout
