// util/status_macros.h: early-return helpers for absl::Status code, the ones
// every room of the project uses (no room defines its own).
//
//   HLOLAYOUT_RETURN_IF_ERROR(CheckSomething());
//   HLOLAYOUT_ASSIGN_OR_RETURN(Layout r, Composition(a, b));
//   HLOLAYOUT_ASSIGN_OR_RETURN_PREFIXED(Layout t, LogicalDivide(a, b),
//                                       "make_tiled_mma", "permuting the
//                                       tile");
//   // an error returns "make_tiled_mma: permuting the tile: <its message>",
//   // its code kept
//
// Abseil LTS 20220623 has no public ASSIGN_OR_RETURN. The second macro
// declares (or assigns) `lhs` in the enclosing scope, so it cannot be the
// body of an unbraced `if`.
#ifndef HLOLAYOUT_UTIL_STATUS_MACROS_H_
#define HLOLAYOUT_UTIL_STATUS_MACROS_H_

#include <initializer_list>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"

namespace hlolayout::status_internal {

// `status` with `parts` and ": " before its message.
inline absl::Status Prefixed(const absl::Status& status,
                             std::initializer_list<absl::string_view> parts) {
  return absl::Status(status.code(), absl::StrCat(absl::StrJoin(parts, ": "),
                                                  ": ", status.message()));
}

}  // namespace hlolayout::status_internal

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

// As HLOLAYOUT_ASSIGN_OR_RETURN, an error returned with the strings after
// `expr` (a step's name, ...) before its message, each followed by ": ";
// they are made only on error.
#define HLOLAYOUT_ASSIGN_OR_RETURN_PREFIXED(lhs, expr, ...)         \
  HLOLAYOUT_ASSIGN_OR_RETURN_PREFIXED_IMPL_(                        \
      HLOLAYOUT_STATUS_CONCAT_(hlolayout_or_, __LINE__), lhs, expr, \
      __VA_ARGS__)

#define HLOLAYOUT_ASSIGN_OR_RETURN_PREFIXED_IMPL_(tmp, lhs, expr, ...) \
  auto tmp = (expr);                                                   \
  if (!tmp.ok()) {                                                     \
    return ::hlolayout::status_internal::Prefixed(tmp.status(),        \
                                                  {__VA_ARGS__});      \
  }                                                                    \
  lhs = std::move(tmp).value()

#endif  // HLOLAYOUT_UTIL_STATUS_MACROS_H_
