// cli/batch_cache.h: parsed shapes shared by the lines of `hlolayout batch`.
//
// A batch stream usually asks many questions about a few shapes; each shape
// text is parsed (and validated) once. Errors are cached too.
//
//   const absl::StatusOr<Shape>& shape = cache.GetShape("f32[3,5]{1,0}");
#ifndef HLOLAYOUT_CLI_BATCH_CACHE_H_
#define HLOLAYOUT_CLI_BATCH_CACHE_H_

#include <string>

#include "absl/container/node_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "hlolayout/shape/shape.h"

namespace hlolayout::cli {

class BatchCache {
 public:
  // Entries kept before the cache starts over (bounds memory on streams of
  // distinct shapes).
  static constexpr size_t kMaxEntries = 1 << 14;

  // The parse result for `text`. The reference stays valid until the next
  // GetShape call.
  const absl::StatusOr<Shape>& GetShape(absl::string_view text);

 private:
  absl::node_hash_map<std::string, absl::StatusOr<Shape>> shapes_;
};

}  // namespace hlolayout::cli

#endif  // HLOLAYOUT_CLI_BATCH_CACHE_H_
