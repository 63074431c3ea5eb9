// layout/reference_index.h: the reference (plain, checked, slow) tiled
// linear index and its inverse,
// written plainly from the seed formula (the reference the fast indexer in
// index_util/tiled_indexer.h is tested against).
//
//   f32[3,5]{1,0:T(2,2)}       (2,3) -> 17;  17 -> (2,3);  9 -> tile padding
//   f32[8,8]{1,0:T(2,4)(2,1,1,1)}   (6,5) -> 51
//   f32[2]{0:T(4)L(8)}          offsets 2,3 are tile padding, 4..7 tail
//                               padding, 8 is out of range
//
// Every tile level is followed (see layout/tiling.h); L(n) only adds tail
// padding. These functions divide at run time; use TiledIndexer for speed.
#ifndef HLOLAYOUT_LAYOUT_REFERENCE_INDEX_H_
#define HLOLAYOUT_LAYOUT_REFERENCE_INDEX_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "hlolayout/layout/offset_kind.h"
#include "hlolayout/layout/tiling.h"
#include "hlolayout/shape/shape.h"

namespace hlolayout {

struct ElementAtOffset {
  OffsetKind kind = OffsetKind::kElement;
  std::vector<int64_t> index;  // the logical multi-index when kElement
};

// ReferenceOffset
//
// The element offset (in elements, from the start of the buffer) of the
// logical multi-index `index`: f32[3,5]{1,0:T(2,2)}, {2,3} -> 17.
// Errors: wrong rank ("index has 1 coordinates, shape has rank 2"), a
// coordinate out of bounds (negative included), a shape that
// BuildTilingModel rejects.
// @post ReferenceElementAt(shape, result) is {kElement, index}.
absl::StatusOr<int64_t> ReferenceOffset(const TilingModel& model,
                                        absl::Span<const int64_t> index);
absl::StatusOr<int64_t> ReferenceOffset(const Shape& array_shape,
                                        absl::Span<const int64_t> index);

// ReferenceElementAt
//
// The inverse: f32[3,5]{1,0:T(2,2)}, 17 -> {kElement, {2,3}}; 9 ->
// {kTilePadding}. Offsets from tiled_elements to padded_elements - 1 are
// kTailPadding. Errors: offset < 0 or >= padded_elements ("offset 24 is past
// the end of the buffer (24 elements)").
absl::StatusOr<ElementAtOffset> ReferenceElementAt(const TilingModel& model,
                                                   int64_t offset);
absl::StatusOr<ElementAtOffset> ReferenceElementAt(const Shape& array_shape,
                                                   int64_t offset);

}  // namespace hlolayout

#endif  // HLOLAYOUT_LAYOUT_REFERENCE_INDEX_H_
