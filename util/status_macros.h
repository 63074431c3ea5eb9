// util/status_macros.h: early-return helpers for absl::Status code, the one
// pair every room of the project uses.
//
//   HLOLAYOUT_RETURN_IF_ERROR(CheckSomething());
//   HLOLAYOUT_ASSIGN_OR_RETURN(Layout r, Composition(a, b));
//
// Abseil LTS 20220623 has no public ASSIGN_OR_RETURN. The second macro
// declares (or assigns) `lhs` in the enclosing scope, so it cannot be the
// body of an unbraced `if`.
#ifndef HLOLAYOUT_UTIL_STATUS_MACROS_H_
#define HLOLAYOUT_UTIL_STATUS_MACROS_H_

#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

#define HLOLAYOUT_RETURN_IF_ERROR(expr)                    \
  do {                                                     \
    const ::absl::Status hlolayout_status_ = (expr);       \
    if (!hlolayout_status_.ok()) return hlolayout_status_; \
  } while (0)

#define HLOLAYOUT_STATUS_CONCAT_INNER_(a, b) a##b
#define HLOLAYOUT_STATUS_CONCAT_(a, b) HLOLAYOUT_STATUS_CONCAT_INNER_(a, b)

#define HLOLAYOUT_ASSIGN_OR_RETURN(lhs, expr) \
  HLOLAYOUT_ASSIGN_OR_RETURN_IMPL_(           \
      HLOLAYOUT_STATUS_CONCAT_(hlolayout_or_, __LINE__), lhs, expr)

#define HLOLAYOUT_ASSIGN_OR_RETURN_IMPL_(tmp, lhs, expr) \
  auto tmp = (expr);                                     \
  if (!tmp.ok()) return tmp.status();                    \
  lhs = std::move(tmp).value()

#endif  // HLOLAYOUT_UTIL_STATUS_MACROS_H_
