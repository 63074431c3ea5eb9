// answers/cute_algebra.h: the answers of CuTe's layout algebra on text
// (`hlolayout cute OP ARGS...`, the batch op `cute`, hlolayout.cute's OPS
// and cute.offsets) and the CuTe DSL twin's index answers on tagged
// integers (cute_dsl's crd2idx and idx2crd), through the answers floor.
//
//   answers::AnswerCuteOp({"composition", {"(6,2):(8,2)", "(4,3):(3,1)"}})
//       -> "((2,2),3):((24,2),8)"
//   answers::AnswerCuteOffsets("(2,2):(1,4)")          -> {0, 1, 4, 5}
//   answers::AnswerDslCrdToIdx(?{div=4}, (4,8), (3,16)) -> ?{div=16}
//
// The operations are cute/ops.h's and cute/dsl_index.h's: the faces (cli/,
// python/) reach them through this header only. An op's answer is its
// printed result (the text CuTe prints); the ops' names, operand counts and
// help lines are CuteOps().
#ifndef HLOLAYOUT_ANSWERS_CUTE_ALGEBRA_H_
#define HLOLAYOUT_ANSWERS_CUTE_ALGEBRA_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "hlolayout/cute/common_layout.h"
#include "hlolayout/cute/int_tuple.h"
#include "hlolayout/cute/integer.h"
#include "hlolayout/cute/ops.h"

namespace hlolayout::answers {

// The ops' catalogue: name, operand counts, usage and one line each.
using ::hlolayout::cute::CuteOpInfo;
using ::hlolayout::cute::CuteOps;
using ::hlolayout::cute::FindCuteOp;

// The CuTe DSL twin's max_common_layout, max_common_vector, nullspace and
// max_alignment on tagged integers (cute/common_layout.h).
using ::hlolayout::cute::internal::DslMaxAlignment;
using ::hlolayout::cute::internal::DslMaxCommonLayout;
using ::hlolayout::cute::internal::DslMaxCommonVector;
using ::hlolayout::cute::internal::DslNullspace;

// A CuTe op on text operands: the op's CuTe name and its operands (CuTe
// text, cute/parse.h).
struct CuteOpRequest {
  absl::string_view op;
  absl::Span<const absl::string_view> operands;
};

// AnswerCuteOp
//
// The op's printed result, without a trailing newline (`table` answers
// several lines). Errors: an unknown op, a wrong operand count, text that
// does not parse (line:column and caret), or the op's own failure, as
// cute/ops.h's RunCuteOp says them.
absl::StatusOr<std::string> AnswerCuteOp(const CuteOpRequest& request);

// AnswerCuteOffsets
//
// `offsets L` as numbers: the offset of each index of `layout` (a layout,
// swizzle or composed layout, CuTe text), with AnswerCuteOp's errors.
absl::StatusOr<std::vector<int64_t>> AnswerCuteOffsets(
    absl::string_view layout);

// AnswerDslIdxToCrd, AnswerDslCrdToIdx
//
// The CuTe DSL's idx2crd and crd2idx on tagged integers (static, dynamic
// `?{div=N}`): cute/dsl_index.h's IdxToCrdInt and CrdToIdxInt, with their
// errors ("Mismatched Ranks", "division by zero", overflow).
absl::StatusOr<cute::IntTuple> AnswerDslIdxToCrd(const cute::IntTuple& index,
                                                 const cute::IntTuple& shape);
absl::StatusOr<cute::Int> AnswerDslCrdToIdx(const cute::IntTuple& coord,
                                            const cute::IntTuple& shape,
                                            const cute::IntTuple& stride);

}  // namespace hlolayout::answers

#endif  // HLOLAYOUT_ANSWERS_CUTE_ALGEBRA_H_
