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

namespace {

// Bits 0..n-1 of `row` mirrored (bit c goes to bit n - 1 - c).
uint64_t Mirror(uint64_t row, int n) {
  uint64_t out = 0;
  for (int c = 0; c < n; ++c) {
    if ((row >> c) & 1) out |= uint64_t{1} << (n - 1 - c);
  }
  return out;
}

}  // namespace

std::vector<uint64_t> TopBitBasis(std::vector<uint64_t> rows, int num_cols) {
  // Mirrored, the highest bit is the lowest: the reduced row echelon form
  // of the mirror has what is asked, in the opposite order.
  for (uint64_t& r : rows) r = Mirror(r, num_cols);
  ReduceRowEchelon(rows, num_cols);
  std::vector<uint64_t> basis;
  for (auto it = rows.rbegin(); it != rows.rend(); ++it) {
    if (*it != 0) basis.push_back(Mirror(*it, num_cols));
  }
  return basis;
}

std::vector<uint64_t> SpanIntersection(const std::vector<uint64_t>& a,
                                       const std::vector<uint64_t>& b,
                                       int num_cols) {
  // Zassenhaus: rows (u, u) for u in a and (v, 0) for v in b, the first
  // half in the low 64 bits. Eliminating the first half leaves rows (0, w)
  // whose w span the intersection.
  std::vector<F2Row128> rows;
  for (uint64_t u : a) rows.push_back(F2Row128{u} | (F2Row128{u} << 64));
  for (uint64_t v : b) rows.push_back(F2Row128{v});
  ReduceRowEchelon(rows, 64 + num_cols);
  std::vector<uint64_t> common;
  for (F2Row128 r : rows) {
    if (static_cast<uint64_t>(r) == 0 && r != 0) {
      common.push_back(static_cast<uint64_t>(r >> 64));
    }
  }
  return TopBitBasis(std::move(common), num_cols);
}

std::vector<uint64_t> UnitComplement(std::vector<uint64_t> rows, int num_cols) {
  ReduceRowEchelon(rows, num_cols);
  uint64_t led = 0;
  for (uint64_t r : rows) {
    if (r != 0) led |= uint64_t{1} << LowestBit(r);
  }
  std::vector<uint64_t> units;
  for (int c = 0; c < num_cols; ++c) {
    if (!((led >> c) & 1)) units.push_back(uint64_t{1} << c);
  }
  return units;
}

int Rank(std::vector<uint64_t> rows, int num_cols) {
  ReduceRowEchelon(rows, num_cols);
  return NonzeroRows(rows);
}

int IntersectionDim(const std::vector<uint64_t>& a,
                    const std::vector<uint64_t>& b, int num_cols) {
  std::vector<uint64_t> both = a;
  both.insert(both.end(), b.begin(), b.end());
  return Rank(a, num_cols) + Rank(b, num_cols) - Rank(both, num_cols);
}

std::optional<uint64_t> Coordinates(const std::vector<uint64_t>& basis,
                                    uint64_t x, int num_cols) {
  // Echelon rows keyed by their lowest set bit, each with the mask of the
  // basis vectors it is the XOR of.
  std::vector<uint64_t> row(num_cols, 0), mask(num_cols, 0);
  for (size_t i = 0; i < basis.size() && i < 64; ++i) {
    uint64_t v = basis[i], m = uint64_t{1} << i;
    while (v != 0 && row[LowestBit(v)] != 0) {
      const int c = LowestBit(v);
      v ^= row[c];
      m ^= mask[c];
    }
    if (v != 0) {
      row[LowestBit(v)] = v;
      mask[LowestBit(v)] = m;
    }
  }
  uint64_t m = 0;
  while (x != 0) {
    const int c = LowestBit(x);
    if (c >= num_cols || row[c] == 0) return std::nullopt;
    x ^= row[c];
    m ^= mask[c];
  }
  return m;
}

}  // namespace hlolayout::triton
