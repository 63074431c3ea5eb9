// triton/status_macros.h: early-return helpers for absl::Status code in the
// triton package.
//
//   TT_RETURN_IF_ERROR(CheckSomething());
//   TT_ASSIGN_OR_RETURN(LinearLayout c, a.Compose(b));
//
// Abseil LTS 20220623 has no public ASSIGN_OR_RETURN, so the package keeps
// its own pair (like cute/internal/status_macros.h, under the `TT_` prefix).
#ifndef HLOLAYOUT_TRITON_STATUS_MACROS_H_
#define HLOLAYOUT_TRITON_STATUS_MACROS_H_

#include "absl/status/status.h"
#include "absl/status/statusor.h"

#define TT_RETURN_IF_ERROR(expr)              \
  do {                                        \
    const ::absl::Status tt_status_ = (expr); \
    if (!tt_status_.ok()) return tt_status_;  \
  } while (0)

#define TT_STATUS_CONCAT_INNER_(a, b) a##b
#define TT_STATUS_CONCAT_(a, b) TT_STATUS_CONCAT_INNER_(a, b)

#define TT_ASSIGN_OR_RETURN(lhs, expr) \
  TT_ASSIGN_OR_RETURN_IMPL_(TT_STATUS_CONCAT_(tt_or_, __LINE__), lhs, expr)

#define TT_ASSIGN_OR_RETURN_IMPL_(tmp, lhs, expr) \
  auto tmp = (expr);                              \
  if (!tmp.ok()) return tmp.status();             \
  lhs = std::move(tmp).value()

#endif  // HLOLAYOUT_TRITON_STATUS_MACROS_H_
