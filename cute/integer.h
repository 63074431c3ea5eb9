// cute/integer.h: CuTe's integers, static (`_8`) or dynamic (`8`).
//
// CuTe has two kinds of integers: static ones, known at compile time
// (`Int<8>`, printed `_8`), and dynamic ones (a plain `int`, printed `8`).
// hlolayout keeps the distinction as a tag on each value, so that results
// print as CuTe prints them:
//
//   Int a = Int::Static(8), b = Int::Dynamic(4);
//   Mul(a, a)  == _64        static: both operands are
//   Mul(a, b)  == 32         dynamic: one operand is
//   Mul(Int::Static(0), b) == _0   CuTe's shortcut: static 0 times anything
//
// The rule (CuTe's integral_constant.hpp): an operation on two static values
// is static, on any dynamic value dynamic, except that CuTe makes these
// static 0 whatever the other operand is: _0 * x, x * _0, _0 / x, _0 % x,
// x % _1, x % _-1, _0 & x, x & _0. min, max, gcd, ceil_div and friends are
// static only when both operands are.
//
// The tag never changes a value: the algorithms of cute/ decide with the
// values (every integer known, CuTe's all-static behaviour) and only the
// printed form follows the tags (docs/cute.md, "Static and dynamic
// integers").
#ifndef HLOLAYOUT_CUTE_INTEGER_H_
#define HLOLAYOUT_CUTE_INTEGER_H_

#include <cstdint>
#include <cstdlib>

namespace hlolayout::cute {

// Int
//
// An aggregate: Int{8, true} is `_8`; Int::Dynamic(8) is `8`.
struct Int {
  int64_t value = 0;
  bool is_static = false;

  static constexpr Int Static(int64_t v) { return Int{v, true}; }
  static constexpr Int Dynamic(int64_t v) { return Int{v, false}; }

  // Equality of values; the tags are not compared (CuTe: `_8 == 8`).
  friend constexpr bool operator==(Int a, Int b) { return a.value == b.value; }
  friend constexpr bool operator!=(Int a, Int b) { return a.value != b.value; }
};

// BothStatic
//
// The tag of an ordinary binary operation.
constexpr bool BothStatic(Int a, Int b) { return a.is_static && b.is_static; }

// IsStaticZero, IsStaticOne
constexpr bool IsStaticZero(Int a) { return a.is_static && a.value == 0; }
constexpr bool IsStaticOne(Int a) { return a.is_static && a.value == 1; }

// TryMul, TryAdd, TrySub
//
// The checked operations: false when the value overflows int64 (`out` is
// then unspecified). Tags: TryMul follows the _0 shortcut.
inline bool TryMul(Int a, Int b, Int* out) {
  out->is_static = BothStatic(a, b) || IsStaticZero(a) || IsStaticZero(b);
  return !__builtin_mul_overflow(a.value, b.value, &out->value);
}
inline bool TryAdd(Int a, Int b, Int* out) {
  out->is_static = BothStatic(a, b);
  return !__builtin_add_overflow(a.value, b.value, &out->value);
}
inline bool TrySub(Int a, Int b, Int* out) {
  out->is_static = BothStatic(a, b);
  return !__builtin_sub_overflow(a.value, b.value, &out->value);
}

// Mul, Add
//
// Unchecked forms, for values the caller has bounded.
inline Int Mul(Int a, Int b) {
  Int r;
  TryMul(a, b, &r);
  return r;
}
inline Int Add(Int a, Int b) {
  Int r;
  TryAdd(a, b, &r);
  return r;
}

// Div
//
// Truncating division. Precondition: b != 0.
inline Int Div(Int a, Int b) {
  return Int{a.value / b.value, BothStatic(a, b) || IsStaticZero(a)};
}

// CeilDiv
//
// ceil(a / b) for a >= 0, b > 0 (CuTe's (a + b - 1) / b).
inline Int CeilDiv(Int a, Int b) {
  return Int{a.value / b.value + (a.value % b.value != 0), BothStatic(a, b)};
}

// Min, Max, Abs, Signum, Neg
inline Int Min(Int a, Int b) {
  return Int{a.value < b.value ? a.value : b.value, BothStatic(a, b)};
}
inline Int Max(Int a, Int b) {
  return Int{a.value > b.value ? a.value : b.value, BothStatic(a, b)};
}
// Precondition: a.value != INT64_MIN.
inline Int Abs(Int a) {
  return Int{a.value < 0 ? -a.value : a.value, a.is_static};
}
inline Int Signum(Int a) {
  return Int{(a.value > 0) - (a.value < 0), a.is_static};
}
inline Int Neg(Int a) { return Int{-a.value, a.is_static}; }

}  // namespace hlolayout::cute

#endif  // HLOLAYOUT_CUTE_INTEGER_H_
