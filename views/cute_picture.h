// views/cute_picture.h: pictures of CuTe layouts (cute/layout.h) and of
// thread-value partitions, as CellGrids (draw/cell_grid.h).
//
//   CuteLayoutGrid(*cute::ParseLayout("(4,(2,2)):(2,(1,8))"))
//     4 rows x 4 columns; cell (i,j) shows L(i + 4*j), the codomain index
//     of coordinate (i,j); a heavy line every 2 columns (the nested mode)
//   CuteTvGrid(*ParseLayout("(2,2):(1,2)"), *ParseLayout("2:4"), 2, 4)
//     thread t, value v own cell THR(t) + VAL(v) of the 2x4 tile
//     (column-major, as CuTe's TV layouts): labels "T3 V1"
//
// Cells: <g class="cute-cell" data-coord="i,j" data-index="k"> for layouts;
// <g class="tv-cell" data-coord="m,n" data-thread="t" data-value="v"> for
// TV partitions (class "tv-cell unowned" for cells no pair maps to).
#ifndef HLOLAYOUT_VIEWS_CUTE_PICTURE_H_
#define HLOLAYOUT_VIEWS_CUTE_PICTURE_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "hlolayout/cute/composed_layout.h"
#include "hlolayout/cute/layout.h"
#include "hlolayout/draw/cell_grid.h"

namespace hlolayout::draw {

// A rank-1 or integral layout is one row; rank 2 is rows x columns (mode 0
// down, mode 1 across). Nested modes: a heavy line after every size of the
// mode's first sub-mode. Coloured by index. A composed layout (a swizzled
// one, `Sw<3,4,3> o _0 o (_8,_64):(_64,_1)`) draws over its inner layout's
// shape with the composed function's indices; a swizzle alone is one row of
// its period. Errors: rank above 2, more than 16,384 cells, an index that
// overflows.
absl::StatusOr<CellGrid> CuteLayoutGrid(const cute::AnyLayout& layout);

// Which thread and value own each cell of an M x N tile: the pair (t, v)
// owns cell k = THR(t) + VAL(v), at row k % M, column k / M. Coloured by
// thread. Errors: M or N < 1, a tile of more than 16,384 cells, an index
// outside the tile, a pair count above 2^20.
absl::StatusOr<CellGrid> CuteTvGrid(const cute::Layout& thr,
                                    const cute::Layout& val, int64_t m,
                                    int64_t n);

}  // namespace hlolayout::draw

#endif  // HLOLAYOUT_VIEWS_CUTE_PICTURE_H_
