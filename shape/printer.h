// shape/printer.h: HLO text for shapes and layouts, byte-identical to XLA.
//
//   AppendShape(&out, shape, /*print_layout=*/true)
//     appends "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}".
//
// Rules (as XLA's ShapeUtil::HumanString / HumanStringWithLayout):
//   - no spaces inside brackets; `<=N` for bounded and `?` for unbounded
//     dynamic dimensions;
//   - a layout is `{minor_to_major}` plus `:` and its attributes only when
//     one is not at its default, in the order D T L # * E S SC P M;
//   - a scalar whose layout prints as `{}` prints no layout; token[] and
//     opaque[] never print one;
//   - tuples are `(a, b, ...)` with `/*index=i*/` before every element
//     whose position i is a positive multiple of 5, restarting in nested
//     tuples; `()` is the empty tuple;
//   - buffers are `b(<inner>)`.
// D(...) is printed when some dimension is not dense/unique/ordered, as the
// 2024 XLA printer did (the newest XLA drops it altogether).
// Shape::ToString, Layout::ToString and Tile::ToString call these.
#ifndef HLOLAYOUT_SHAPE_PRINTER_H_
#define HLOLAYOUT_SHAPE_PRINTER_H_

#include <string>

#include "hlolayout/shape/layout.h"
#include "hlolayout/shape/shape.h"
#include "hlolayout/shape/tile.h"

namespace hlolayout {

void AppendTile(std::string* out, const Tile& tile);
void AppendLayout(std::string* out, const Layout& layout);
void AppendShape(std::string* out, const Shape& shape, bool print_layout);

// XLA's ShapeUtil::HumanString: no layouts.
std::string HumanString(const Shape& shape);
// XLA's ShapeUtil::HumanStringWithLayout.
std::string HumanStringWithLayout(const Shape& shape);

}  // namespace hlolayout

#endif  // HLOLAYOUT_SHAPE_PRINTER_H_
