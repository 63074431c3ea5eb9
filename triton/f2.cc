#include "hlolayout/triton/f2.h"

#include <cstddef>
#include <utility>

namespace hlolayout::triton {
namespace {

template <typename Row>
void Reduce(absl::Span<Row> rows, int num_cols) {
  size_t next = 0;  // the first row without a pivot yet
  for (int c = 0; c < num_cols && next < rows.size(); ++c) {
    const Row bit = Row{1} << c;
    size_t found = next;
    while (found < rows.size() && !(rows[found] & bit)) ++found;
    if (found == rows.size()) continue;
    std::swap(rows[next], rows[found]);
    const Row pivot = rows[next];
    for (size_t r = 0; r < rows.size(); ++r) {
      if (r != next && (rows[r] & bit)) rows[r] ^= pivot;
    }
    ++next;
  }
}

}  // namespace

void ReduceRowEchelon(absl::Span<uint64_t> rows, int num_cols) {
  Reduce(rows, num_cols);
}

void ReduceRowEchelon(absl::Span<F2Row128> rows, int num_cols) {
  Reduce(rows, num_cols);
}

int NonzeroRows(const std::vector<uint64_t>& rows) {
  int n = 0;
  for (uint64_t r : rows) n += r != 0;
  return n;
}

int LowestBit(uint64_t row) { return __builtin_ctzll(row); }

int LowestBit(F2Row128 row) {
  const uint64_t low = static_cast<uint64_t>(row);
  if (low != 0) return __builtin_ctzll(low);
  return 64 + __builtin_ctzll(static_cast<uint64_t>(row >> 64));
}

}  // namespace hlolayout::triton
