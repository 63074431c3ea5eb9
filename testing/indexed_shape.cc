#include "hlolayout/testing/indexed_shape.h"

#include <utility>

#include "absl/status/statusor.h"
#include "hlolayout/parser/shape_parser.h"
#include "hlolayout/util/check.h"

namespace hlolayout {

IndexedShape IndexedShapeOf(const std::string& text) {
  absl::StatusOr<Shape> s = ParseShape(text);
  HLOLAYOUT_CHECK(s.ok()) << s.status();
  absl::StatusOr<TiledIndexer> t = TiledIndexer::Create(*s);
  HLOLAYOUT_CHECK(t.ok()) << t.status();
  return {*std::move(s), *std::move(t)};
}

}  // namespace hlolayout
