// layout/offset_kind.h: what a linear offset of a tiled buffer holds, and
// the bounds check shared by the reference functions
// (layout/reference_index.h) and the fast indexer
// (index_util/tiled_indexer.h).
//
//   f32[3,5]{1,0:T(2,2)}    offset 17 -> kElement (index {2,3});
//                           offset 9  -> kTilePadding
//   f32[2]{0:T(4)L(8)}      offsets 4..7 -> kTailPadding
//
//   CheckIndexInBounds({3, 5}, {2, 5})
//     -> OutOfRange "index 5 out of bounds for dimension 1 of size 5"
#ifndef HLOLAYOUT_LAYOUT_OFFSET_KIND_H_
#define HLOLAYOUT_LAYOUT_OFFSET_KIND_H_

#include <cstdint>
#include <ostream>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace hlolayout {

// What a linear offset below the padded size holds.
enum class OffsetKind {
  kElement,      // a logical element
  kTilePadding,  // padding added to complete a tile
  kTailPadding,  // padding added by L(n) after the last tile
};

// "element", "tile padding", "tail padding".
absl::string_view OffsetKindName(OffsetKind kind);

// Checks that `index` has one coordinate per entry of `dims` and that each
// lies in [0, dims[i]). Errors: InvalidArgument "index has 1 coordinates,
// shape has rank 2"; OutOfRange "index -1 out of bounds for dimension 0 of
// size 3".
absl::Status CheckIndexInBounds(absl::Span<const int64_t> dims,
                                absl::Span<const int64_t> index);

// OffsetKindName(kind): "element", "tile padding", "tail padding".
// AbslStringify as for Shape (shape/shape.h).
template <typename Sink>
void AbslStringify(Sink& sink, OffsetKind kind) {
  sink.Append(OffsetKindName(kind));
}
inline std::ostream& operator<<(std::ostream& out, OffsetKind kind) {
  return out << OffsetKindName(kind);
}

}  // namespace hlolayout

#endif  // HLOLAYOUT_LAYOUT_OFFSET_KIND_H_
