// triton/f2.h: linear algebra over F2 (bits) on packed rows, for
// LinearLayout (docs/triton.md, "The data model").
//
// A matrix is a vector of rows; row r holds column c in bit c. Rows are
// uint64_t (up to 64 columns) or F2Row128 (up to 128 columns, used where
// two 64-column matrices are put side by side).
//
//   std::vector<uint64_t> m = {0b011, 0b110};
//   ReduceRowEchelon(m, 3);      // m == {0b101, 0b110}: pivots in columns 0, 1
//   Rank(m) == 2
#ifndef HLOLAYOUT_TRITON_F2_H_
#define HLOLAYOUT_TRITON_F2_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/types/span.h"

namespace hlolayout::triton {

using F2Row128 = unsigned __int128;

// ReduceRowEchelon
//
// Brings `rows` to reduced row echelon form in place: every nonzero row has
// a pivot (its lowest set column), pivot columns are increasing from the
// first row down, each pivot column is zero in every other row, and the zero
// rows come last. The reduced form of a matrix is unique, so the result does
// not depend on the elimination order. Only columns below `num_cols` are
// pivots (precondition: no bit at or above num_cols is set).
void ReduceRowEchelon(absl::Span<uint64_t> rows, int num_cols);
void ReduceRowEchelon(absl::Span<F2Row128> rows, int num_cols);
inline void ReduceRowEchelon(std::vector<uint64_t>& rows, int num_cols) {
  ReduceRowEchelon(absl::MakeSpan(rows), num_cols);
}
inline void ReduceRowEchelon(std::vector<F2Row128>& rows, int num_cols) {
  ReduceRowEchelon(absl::MakeSpan(rows), num_cols);
}

// The number of nonzero rows of a matrix in reduced row echelon form.
int NonzeroRows(const std::vector<uint64_t>& rows);

// The lowest set bit of a nonzero row.
int LowestBit(uint64_t row);
int LowestBit(F2Row128 row);

// Subspaces of F2^num_cols (num_cols <= 64), given by spanning rows.

// TopBitBasis
//
// The one basis of span(rows) in which every vector's highest set bit is
// set in no other vector, ordered by that bit, lowest first:
//   TopBitBasis({0b011, 0b110, 0b101}, 3) == {0b011, 0b101}
std::vector<uint64_t> TopBitBasis(std::vector<uint64_t> rows, int num_cols);

// SpanIntersection
//
// span(a) ∩ span(b), as its TopBitBasis:
//   SpanIntersection({0b001, 0b010}, {0b011, 0b100}, 3) == {0b011}
std::vector<uint64_t> SpanIntersection(const std::vector<uint64_t>& a,
                                       const std::vector<uint64_t>& b,
                                       int num_cols);

// UnitComplement
//
// The unit vectors e_c, lowest c first, of the columns c in which no vector
// of the reduced row echelon form of `rows` has its pivot: together with
// span(rows) they span F2^num_cols, and they are independent of it.
//   UnitComplement({0b011}, 3) == {0b010, 0b100}
std::vector<uint64_t> UnitComplement(std::vector<uint64_t> rows, int num_cols);

// Rank
//
// dim span(rows):
//   Rank({0b011, 0b110, 0b101}, 3) == 2
int Rank(std::vector<uint64_t> rows, int num_cols);

// IntersectionDim
//
// dim(span(a) ∩ span(b)) = Rank(a) + Rank(b) - Rank(a ++ b):
//   IntersectionDim({0b001, 0b010}, {0b011, 0b100}, 3) == 1
int IntersectionDim(const std::vector<uint64_t>& a,
                    const std::vector<uint64_t>& b, int num_cols);

// Coordinates
//
// A set of `basis` vectors whose XOR is x, as a mask (bit i: basis[i]), or
// nullopt when x is not in their span. Zero vectors are never used; when
// the nonzero ones are dependent, the earlier ones are preferred (each
// vector is used only if it is independent of those before it).
//   Coordinates({0b001, 0, 0b110}, 0b111, 3) == 0b101
std::optional<uint64_t> Coordinates(const std::vector<uint64_t>& basis,
                                    uint64_t x, int num_cols);

}  // namespace hlolayout::triton

#endif  // HLOLAYOUT_TRITON_F2_H_
