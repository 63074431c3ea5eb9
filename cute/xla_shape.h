// cute/xla_shape.h: an XLA array shape with its layout, as a CuTe layout.
//
//   XlaShapeToCute(ParseShape("f32[3,5]{1,0:T(2,2)}"))
//     == ((2,2),(2,3)):((2,12),(1,4))
//   evaluated at the hierarchical coordinate (2,3): 17, the tiled linear
//   index of element (2,3) (layout/reference_index.h).
//
// A thin adapter over XlaTiledLayoutToCute (cute/xla_bridge.h) that takes
// the dims, minor_to_major and tiles of a parsed hlolayout::Shape. Only the
// element placement is expressed: L(n) tail padding and E(n) packing change
// the buffer's size and bit positions, not the element offsets, and are
// ignored here.
#ifndef HLOLAYOUT_CUTE_XLA_SHAPE_H_
#define HLOLAYOUT_CUTE_XLA_SHAPE_H_

#include "absl/status/statusor.h"
#include "hlolayout/cute/layout.h"
#include "hlolayout/shape/shape.h"

namespace hlolayout::cute {

// Errors: not an array with a layout, a dynamic dimension, a zero-sized
// dimension, or a layout the algebra cannot express (see
// XlaTiledLayoutToCute).
absl::StatusOr<Layout> XlaShapeToCute(const hlolayout::Shape& shape);

}  // namespace hlolayout::cute

#endif  // HLOLAYOUT_CUTE_XLA_SHAPE_H_
