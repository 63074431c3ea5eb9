// views/bank_picture.h: a shared-memory layout coloured by bank.
//
//   BankGrid(*cute::ParseLayout("(8,64):(64,1)"), 16)
//     8 rows x 64 columns; cell (m,n) shows the bank of element L(m,n)'s
//     first byte, (L(m,n) * 16 / 32) % 32, coloured by bank % 8
//
// Cells: <g class="bank-cell" data-coord="m,n" data-offset="k"
// data-bank="b">.
#ifndef HLOLAYOUT_VIEWS_BANK_PICTURE_H_
#define HLOLAYOUT_VIEWS_BANK_PICTURE_H_

#include <cstdint>
#include <functional>
#include <string>

#include "absl/status/statusor.h"
#include "hlolayout/cute/composed_layout.h"
#include "hlolayout/draw/cell_grid.h"

namespace hlolayout::draw {

// BankGridOf
//
// A rows x cols grid of element offsets `offset(m, n)` (a swizzled layout,
// any function), `bits` per element. Errors: more than 16,384 cells, a
// negative offset, bits outside 1..1024.
absl::StatusOr<CellGrid> BankGridOf(
    int64_t rows, int64_t cols, int bits,
    const std::function<absl::StatusOr<int64_t>(int64_t, int64_t)>& offset,
    const std::string& heading);

// BankGrid
//
// A rank-2 layout, swizzled layout or composed layout (mode 0 down, mode 1
// across; a rank-1 layout is one row), element offsets as
// cute::SmemLayout::Any computes them (a `smem_ptr` swizzle acts on bytes).
absl::StatusOr<CellGrid> BankGrid(const cute::AnyLayout& layout, int bits);

}  // namespace hlolayout::draw

#endif  // HLOLAYOUT_VIEWS_BANK_PICTURE_H_
