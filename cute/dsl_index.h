// cute/dsl_index.h: CuTe's crd2idx and idx2crd carried out with the
// integers' own arithmetic (cute/integer.h), so that the result keeps the
// tags: a static integer stays static, and the CuTe DSL's `?` (an index or a
// shape known only by its width and divisibility) gives the `?` the DSL
// prints. The int64 versions of cute/int_tuple.h decide and check with
// values; these are the CuTe DSL twin's (python/hlolayout/cute_dsl).
//
//   IdxToCrdInt(?{div=8}, (4,2))            == (_0,?{div=2})
//   CrdToIdxInt(?{div=4}, (4,8), (3,16))    == ?{div=16}
//   CrdToIdxInt(5, (4,?{div=8}), (1,4))     == _5
//
// Each mode but the last takes the remainder of the index by the mode's size
// and hands the quotient on (`%` and `/` of cute/integer.h: a `?` modulo a
// divisor of its divisibility is a static 0, a quotient by one divides the
// divisibility); the last mode takes the rest whole. Each example is what
// the DSL printed for the same call (docs/cute-dsl.md, "Dynamic integers in
// the C++ core").
#ifndef HLOLAYOUT_CUTE_DSL_INDEX_H_
#define HLOLAYOUT_CUTE_DSL_INDEX_H_

#include "absl/status/statusor.h"
#include "hlolayout/cute/int_tuple.h"
#include "hlolayout/cute/integer.h"

namespace hlolayout::cute {

// IdxToCrdInt
//
// The natural coordinate of `index` in `shape`: an integer index against a
// tuple shape becomes a coordinate congruent to it, an integer shape takes
// the index as it is, a tuple index goes mode by mode. Returns an error for
// a tuple index against an integer shape or of another rank ("Mismatched
// Ranks"), or a known mode size of 0 before the last mode ("division by
// zero").
absl::StatusOr<IntTuple> IdxToCrdInt(const IntTuple& index,
                                     const IntTuple& shape);

// CrdToIdxInt
//
// The offset of `coord` in the layout shape:stride: a tuple coordinate is
// the sum of its modes' offsets, an integer one against a tuple shape is
// split as IdxToCrdInt splits it, an integer one against an integer shape
// is coord * stride. Returns an error for a tuple coordinate that does not
// fit the shape's profile ("Mismatched Ranks", the DSL's words), a shape and
// stride that are not congruent, a known mode size of 0 before the last
// ("division by zero"), or an offset that overflows int64.
absl::StatusOr<Int> CrdToIdxInt(const IntTuple& coord, const IntTuple& shape,
                                const IntTuple& stride);

}  // namespace hlolayout::cute

#endif  // HLOLAYOUT_CUTE_DSL_INDEX_H_
