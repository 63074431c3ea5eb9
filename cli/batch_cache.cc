#include "hlolayout/cli/batch_cache.h"

#include "hlolayout/parser/shape_parser.h"

namespace hlolayout::cli {

const absl::StatusOr<Shape>& BatchCache::GetShape(absl::string_view text) {
  auto it = shapes_.find(text);
  if (it != shapes_.end()) return it->second;
  if (shapes_.size() >= kMaxEntries) shapes_.clear();
  return shapes_.emplace(std::string(text), ParseShape(text)).first->second;
}

}  // namespace hlolayout::cli
