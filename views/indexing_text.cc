#include "hlolayout/views/indexing_text.h"

#include <cstdint>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "hlolayout/layout/offset_kind.h"
#include "hlolayout/layout/packing.h"
#include "hlolayout/layout/sizes.h"
#include "hlolayout/layout/tiling.h"
#include "hlolayout/util/check.h"

namespace hlolayout {

std::string IndexAnswerText(const IndexAnswer& a, bool with_bytes) {
  std::string out = absl::StrCat(a.offset);
  if (with_bytes) {
    HLOLAYOUT_CHECK(a.bits.ok()) << a.bits.status();
    absl::StrAppend(&out, " (byte ", a.bits->byte);
    if (a.packed) {
      absl::StrAppend(&out, ", bit ", a.bits->shift, ", ",
                      PackingOrderName(a.order));
    }
    out += ")";
  }
  return out + "\n";
}

std::string ElementAnswerText(const ElementAnswer& a) {
  return absl::StrCat(a.kind == OffsetKind::kElement
                          ? IndexText(a.index)
                          : std::string(OffsetKindName(a.kind)),
                      "\n");
}

std::string IndexText(absl::Span<const int64_t> index) {
  return index.empty() ? std::string("()") : absl::StrJoin(index, ",");
}

std::string TilingAnswerText(const TilingAnswer& a) {
  const ArraySizes& s = a.sizes;
  std::string out =
      absl::StrCat(a.shape, "\n", DescribeTiling(a.model), "bytes ",
                   s.logical_bytes, " logical, ", s.padded_bytes, " padded (",
                   FormatExpansion(s.expansion), " expansion)\n");
  for (const TilePadding& p : a.padding) {
    absl::StrAppend(&out, "  ", p.reason, "\n");
  }
  return out;
}

}  // namespace hlolayout
