// cute/internal/status_macros.h: early-return helpers for absl::Status code.
//
//   CUTE_RETURN_IF_ERROR(CheckSomething());
//   CUTE_ASSIGN_OR_RETURN(Layout r, Composition(a, b));
//
// Abseil LTS 20220623 has no public ASSIGN_OR_RETURN, so the cute package
// keeps its own pair here, under the `CUTE_` prefix.
#ifndef HLOLAYOUT_CUTE_INTERNAL_STATUS_MACROS_H_
#define HLOLAYOUT_CUTE_INTERNAL_STATUS_MACROS_H_

#include "absl/status/status.h"
#include "absl/status/statusor.h"

#define CUTE_RETURN_IF_ERROR(expr)               \
  do {                                           \
    const ::absl::Status cute_status_ = (expr);  \
    if (!cute_status_.ok()) return cute_status_; \
  } while (0)

#define CUTE_STATUS_CONCAT_INNER_(a, b) a##b
#define CUTE_STATUS_CONCAT_(a, b) CUTE_STATUS_CONCAT_INNER_(a, b)

#define CUTE_ASSIGN_OR_RETURN(lhs, expr)                                    \
  CUTE_ASSIGN_OR_RETURN_IMPL_(CUTE_STATUS_CONCAT_(cute_or_, __LINE__), lhs, \
                              expr)

#define CUTE_ASSIGN_OR_RETURN_IMPL_(tmp, lhs, expr) \
  auto tmp = (expr);                                \
  if (!tmp.ok()) return tmp.status();               \
  lhs = std::move(tmp).value()

#endif  // HLOLAYOUT_CUTE_INTERNAL_STATUS_MACROS_H_
