// cute/print.h: CuTe's text form of IntTuples, Layouts and Tilers, and the
// print_layout grid.
//
//   ToString(IntTuple::Tuple({4}))          == "(4)"
//   ToString(Layout::Make(12, 1))            == "12:1"
//   ToString(*ParseLayout("(_8,_8):(_8,_1)")) == "(_8,_8):(_8,_1)"
//   ToString(<3:4, 8:2> as a Tiler)          == "<3:4, 8:2>"
//
// The output is what cute/parse.h reads back. Static integers print with
// CuTe's `_` prefix (`_8`, `_-1`), dynamic ones plain, the CuTe DSL's `?`
// as the DSL prints it (`?`, `?{div=16}`, `?{i64}`, `?{i64 div=16}`).
// DslText is the DSL's notation: static integers bare.
#ifndef HLOLAYOUT_CUTE_PRINT_H_
#define HLOLAYOUT_CUTE_PRINT_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "hlolayout/cute/composed_layout.h"
#include "hlolayout/cute/int_tuple.h"
#include "hlolayout/cute/layout.h"
#include "hlolayout/cute/swizzle.h"
#include "hlolayout/cute/tiler.h"

namespace hlolayout::cute {

// ToString
//
// An integer prints as itself (`_8` when static), a tuple as `(e0,e1,...)`
// without spaces, the
// empty tuple as `()`, a Layout as `shape:stride`, a Tiler as
// `<t0, t1, ...>` (the docs' notation, with `_` for Underscore).
std::string ToString(const IntTuple& t);
std::string ToString(const Layout& layout);
std::string ToString(const Tiler& tiler);

// DslText
//
// The CuTe DSL's print: a static integer bare, a `?` with its width and
// divisibility: DslText((_4,?{div=8}):(_1,_4)) == "(4,?{div=8}):(1,4)".
std::string DslText(Int v);
std::string DslText(const IntTuple& t);
std::string DslText(const Layout& layout);

// ToString (swizzles and composed layouts)
//
// CuTe's print: `Sw<3,4,3>`; an offset `_0`, `5` or `smem_ptr[16b](unset)`;
// a composed layout `Sw<3,4,3> o _0 o (_8,_64):(_64,_1)`, nested ones to the
// right (`Sw<2,0,3> o _0 o Sw<2,0,3> o _0 o (_8,_8):(_1,_8)`).
std::string ToString(const Swizzle& swizzle);
std::string ToString(const ComposedOffset& offset);
std::string ToString(const ComposedLayout& layout);
std::string ToString(const AnyLayout& layout);

// PrintTable
//
// CuTe's print_layout: the layout on its first line, then a grid with one
// row per coordinate of mode 0 and one column per coordinate of mode 1,
// each cell holding layout(m, n). A rank-1 layout prints as one column.
// Cells are as wide as the widest value, column number or cosize (CuTe's
// rule), whichever is widest, so negative values keep the grid aligned:
//
//   (2,3):(3,1)
//         0   1   2
//       +---+---+---+
//    0  | 0 | 1 | 2 |
//       +---+---+---+
//    1  | 3 | 4 | 5 |
//       +---+---+---+
//
// Returns an error for rank 0, rank > 2 or a grid of more than
// kMaxTableCells cells (65,536: a 256x256 grid, about 1.5 MB of text; the
// work is linear in the cells, so the limit bounds it whatever the shape's
// integers are).
inline constexpr int64_t kMaxTableCells = 65536;
absl::StatusOr<std::string> PrintTable(const Layout& layout);
// The same grid for a composed layout (each cell evaluated through the
// swizzle), whose first line is its CuTe print; a swizzle alone is one
// column.
absl::StatusOr<std::string> PrintTable(const AnyLayout& layout);

}  // namespace hlolayout::cute

#endif  // HLOLAYOUT_CUTE_PRINT_H_
