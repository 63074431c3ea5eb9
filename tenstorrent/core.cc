#include "hlolayout/tenstorrent/core.h"

#include "absl/strings/str_cat.h"

namespace hlolayout::tenstorrent {

bool CoreRange::Intersects(const CoreRange& o) const {
  return !(end.x < o.start.x || start.x > o.end.x || end.y < o.start.y ||
           start.y > o.end.y);
}

std::string CoreName(CoreCoord c) {
  return absl::StrCat("(", c.x, ",", c.y, ")");
}

absl::optional<CoreCoord> NthCore(absl::Span<const CoreRange> ranges,
                                  bool row_wise, int64_t n) {
  if (n < 0) return absl::nullopt;
  for (const CoreRange& r : ranges) {
    if (n < r.size()) {
      if (row_wise)
        return CoreCoord{r.start.x + n % r.width(), r.start.y + n / r.width()};
      return CoreCoord{r.start.x + n / r.height(), r.start.y + n % r.height()};
    }
    n -= r.size();
  }
  return absl::nullopt;
}

}  // namespace hlolayout::tenstorrent
