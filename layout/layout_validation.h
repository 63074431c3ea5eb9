// layout/layout_validation.h: is this shape and its layout meaningful?
//
// The rules of XLA's newest ShapeUtil::ValidateShape and
// LayoutUtil::ValidateLayoutForShape, each failure a short lowercase
// message, plus the rules the index service relies on:
//
//   f32[3,5]{1,0:T(2,2)}     ok
//   f32[3,5]{0,0}            "minor_to_major {0,0} is not a permutation of
//                             0..1: 0 appears twice"
//   f32[3,5]{1,0:T(2,0)}     "tile (2,0) has a zero dimension"
//
// ParseShape and ShapeFromProto call these; call them yourself on shapes
// built by hand before handing them to the index functions.
#ifndef HLOLAYOUT_LAYOUT_LAYOUT_VALIDATION_H_
#define HLOLAYOUT_LAYOUT_LAYOUT_VALIDATION_H_

#include "absl/status/status.h"
#include "hlolayout/shape/layout.h"
#include "hlolayout/shape/shape.h"

namespace hlolayout {

// Checks `layout` as the layout of the array `shape` (shape's own layout is
// ignored). The rules are those of XLA's LayoutUtil::ValidateLayoutForShape
// (and no more, so every shape XLA's validators accept is accepted):
//   - minor_to_major is a permutation of 0..rank-1;
//   - D(...) is empty or has one entry per dimension;
//   - every tile is non-empty and no tile size is 0 (a negative size or a
//     trailing `*` passes here, as in XLA; BuildTilingModel refuses them);
//   - L > 0, E >= 0 (M is not checked);
//   - #(t) and *(t) only on sparse arrays (some D entry not dense), with an
//     integral t; P(shape) only on sparse arrays;
//   - SC(d:...): d a physical dimension in range, each at most once, split
//     indices strictly increasing and strictly inside (0, size of d).
// Precondition: shape.IsArray().
absl::Status ValidateLayoutForShape(const Layout& layout, const Shape& shape);

// Checks a whole shape, recursively:
//   - arrays: sizes >= 0, or `?` (which must be dynamic); the element count
//     (bounded dimensions at their bound) fits in int64; the layout, if
//     present, passes ValidateLayoutForShape;
//   - tuples: no dimensions and no layout; elements valid;
//   - token and opaque: no dimensions, and no layout attributes;
//   - buffers: exactly one inner shape, an array;
//   - PRIMITIVE_TYPE_INVALID is rejected.
absl::Status ValidateShape(const Shape& shape);

}  // namespace hlolayout

#endif  // HLOLAYOUT_LAYOUT_LAYOUT_VALIDATION_H_
