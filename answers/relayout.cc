#include "hlolayout/answers/relayout.h"

namespace hlolayout::answers {

absl::StatusOr<RelayoutPlan> AnswerRelayout(const RelayoutRequest& request) {
  return RelayoutPlan::Create(request.from, request.to, request.options);
}

}  // namespace hlolayout::answers
