// views/padding_picture.h: a picture of how a tiled array pads, readable
// at a glance, for the padding wasters of `hlolayout report --html` and
// the Jupyter view of hl.PaddingWaster.
//
//   PaddingPictureSvg(*ParseShape("f32[3,1000]{1,0:T(8,128)}"))
//
// draws the two most minor dimensions of the array, as its first tile
// level sees them, at tile granularity: one box per (8,128) tile, 1 x 8
// boxes, each filled in proportion to the elements it holds (3 of its 8
// rows; the last also 104 of its 128 columns) and hatched where it pads,
// the box sizes fixed (a tile of 8 x 128 elements is drawn 80 x 44 px, not
// 1 x 128) so that the fill is what one sees. Axis labels give each
// dimension's size, its padded size and its tiles; a line under the boxes
// the elements, padding and bytes. More than 8 tiles along a dimension
// show the first three and the last two, the others replaced by one
// narrow box that says how many full tiles it stands for (all the tiles
// a dimension pads are its last). Dimensions outside the two (batch dims,
// or more tiled dims of a longer tile) are said in words ("x 32 slices").
#ifndef HLOLAYOUT_VIEWS_PADDING_PICTURE_H_
#define HLOLAYOUT_VIEWS_PADDING_PICTURE_H_

#include <string>

#include "absl/status/statusor.h"
#include "hlolayout/shape/shape.h"

namespace hlolayout {

// A self-contained SVG (class "padding-picture"; each tile box a
// <g class="tile" data-row data-col data-rows data-cols> with a <title>,
// the elided boxes <g class="tiles-elided" data-tiles>). Errors: not an
// array, no tiles in its layout (nothing to draw: padding is then L(n)
// tail alignment only), or what ComputeArraySizes refuses.
absl::StatusOr<std::string> PaddingPictureSvg(const Shape& array_shape);

}  // namespace hlolayout

#endif  // HLOLAYOUT_VIEWS_PADDING_PICTURE_H_
