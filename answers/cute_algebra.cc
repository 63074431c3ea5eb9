#include "hlolayout/answers/cute_algebra.h"

#include "hlolayout/cute/dsl_index.h"

namespace hlolayout::answers {

absl::StatusOr<std::string> AnswerCuteOp(const CuteOpRequest& request) {
  return cute::RunCuteOp(request.op, request.operands);
}

absl::StatusOr<std::vector<int64_t>> AnswerCuteOffsets(
    absl::string_view layout) {
  return cute::CuteOffsets(layout);
}

absl::StatusOr<cute::IntTuple> AnswerDslIdxToCrd(const cute::IntTuple& index,
                                                 const cute::IntTuple& shape) {
  return cute::IdxToCrdInt(index, shape);
}

absl::StatusOr<cute::Int> AnswerDslCrdToIdx(const cute::IntTuple& coord,
                                            const cute::IntTuple& shape,
                                            const cute::IntTuple& stride) {
  return cute::CrdToIdxInt(coord, shape, stride);
}

}  // namespace hlolayout::answers
