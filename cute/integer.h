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
//
// The CuTe DSL (NVIDIA's Python DSL on CuTe, docs/cute-dsl.md) adds a third
// kind: a dynamic integer whose value is not known while the DSL traces,
// printed `?`. What the DSL knows of it is its width (32 or 64 bits) and a
// divisibility, a number its value is a multiple of: `?{div=16}`,
// `?{i64}`, `?{i64 div=16}`. An Int with `unknown` set is one. Its `value`
// is the value it stands for (kept so that a layout can still be
// evaluated), which no decision of the algebra may read: an algorithm
// decides with IsKnown/IsConstant and Divisibility. Arithmetic on it
// follows the DSL's rules (docs/cute-dsl.md, "Dynamic integers", each
// observed on the DSL itself):
//
//   Int n = Int::Unknown(96, 32);       // ?{div=32}, standing for 96
//   Mul(n, Int::Static(4))  == ?{div=128}   divisibilities multiply
//   Add(n, Int::Static(8))  == ?{div=8}     a sum's is their gcd
//   Mul(Int::Static(0), n)  == _0           CuTe's shortcut still holds
//   CeilDiv(n, Int::Static(8)) == ?         a quotient's is 1 ...
//   Div(n, Int::Static(8))  == ?{div=4}     ... but that of an exact one
//
// A result is unknown when an operand is (the static-0 shortcuts aside),
// 64 bits wide when an operand is.
#ifndef HLOLAYOUT_CUTE_INTEGER_H_
#define HLOLAYOUT_CUTE_INTEGER_H_

#include <cstdint>
#include <cstdlib>

namespace hlolayout::cute {

// Int
//
// An aggregate: Int{8, true} is `_8`; Int::Dynamic(8) is `8`;
// Int::Unknown(8, 4) is the DSL's `?{div=4}` standing for 8.
struct Int {
  int64_t value = 0;
  bool is_static = false;
  // The DSL's `?`: `value` is not known to the algebra (never static).
  bool unknown = false;
  // A 64-bit `?` (`?{i64}`).
  bool wide = false;
  // What a `?` is known to be a multiple of: 1 when nothing is known, 0
  // when it is known to be 0 (the DSL prints `?{div=0}`). Only read for a
  // `?`: a known integer's divisibility is its value (Divisibility()).
  int64_t div = 1;

  static constexpr Int Static(int64_t v) { return Int{v, true}; }
  static constexpr Int Dynamic(int64_t v) { return Int{v, false}; }
  static constexpr Int Unknown(int64_t v, int64_t divisibility = 1,
                               bool is_wide = false) {
    return Int{v, false, true, is_wide, divisibility};
  }

  // Equality of values; the tags are not compared (CuTe: `_8 == 8`).
  friend constexpr bool operator==(Int a, Int b) { return a.value == b.value; }
  friend constexpr bool operator!=(Int a, Int b) { return a.value != b.value; }
};

// BothStatic
//
// The tag of an ordinary binary operation.
constexpr bool BothStatic(Int a, Int b) { return a.is_static && b.is_static; }

// IsKnown
//
// Whether the algebra may decide with the value: every integer but a `?`.
constexpr bool IsKnown(Int a) { return !a.unknown; }

// IsConstant
//
// Whether `a` is known to be `v` (CuTe's is_constant for a static one; a
// plain dynamic integer is known too, the algebra deciding with values).
constexpr bool IsConstant(Int a, int64_t v) {
  return !a.unknown && a.value == v;
}

// Divisibility
//
// The divisibility the DSL knows: a `?`'s `div`, a known integer's |value|
// (0 for 0).
constexpr int64_t Divisibility(Int a) {
  if (a.unknown) return a.div;
  return a.value < 0 ? -a.value : a.value;
}

// Gcd
//
// The greatest common divisor of |a| and |b|, gcd(0, b) == |b|.
// Precondition: neither is INT64_MIN.
constexpr int64_t Gcd(int64_t a, int64_t b) {
  a = a < 0 ? -a : a;
  b = b < 0 ? -b : b;
  while (b != 0) {
    const int64_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

namespace integer_internal {

// The tags of a result that is a `?` when either operand is one: its
// width, and `div` (1 when no operand is a `?`, unread then).
inline Int Tagged(int64_t value, bool is_static, Int a, Int b, int64_t div) {
  Int r{value, is_static};
  if (a.unknown || b.unknown) {
    r.is_static = false;
    r.unknown = true;
    r.wide = a.wide || b.wide;
    r.div = div;
  }
  return r;
}

// |a * b| for divisibilities; 1 (nothing known) when it overflows.
inline int64_t DivProduct(int64_t a, int64_t b) {
  int64_t p;
  if (__builtin_mul_overflow(a, b, &p) || p == INT64_MIN) return 1;
  return p < 0 ? -p : p;
}

inline int64_t SafeGcd(int64_t a, int64_t b) {
  if (a == INT64_MIN || b == INT64_MIN) return 1;
  return Gcd(a, b);
}

}  // namespace integer_internal

// IsStaticZero, IsStaticOne
constexpr bool IsStaticZero(Int a) { return a.is_static && a.value == 0; }
constexpr bool IsStaticOne(Int a) { return a.is_static && a.value == 1; }

// TryMul, TryAdd, TrySub
//
// The checked operations: false when the value overflows int64 (`out` is
// then unspecified). Tags: TryMul follows the _0 shortcut, also against a
// `?`. A `?` result's divisibility: a product's is the product of the two
// (a known operand counting |value|), a sum's or difference's their gcd.
inline bool TryMul(Int a, Int b, Int* out) {
  int64_t v;
  const bool ok = !__builtin_mul_overflow(a.value, b.value, &v);
  if (IsStaticZero(a) || IsStaticZero(b)) {
    *out = Int::Static(0);
    return true;
  }
  *out = integer_internal::Tagged(
      v, BothStatic(a, b), a, b,
      integer_internal::DivProduct(Divisibility(a), Divisibility(b)));
  return ok;
}
inline bool TryAdd(Int a, Int b, Int* out) {
  int64_t v;
  const bool ok = !__builtin_add_overflow(a.value, b.value, &v);
  *out = integer_internal::Tagged(
      v, BothStatic(a, b), a, b,
      integer_internal::SafeGcd(Divisibility(a), Divisibility(b)));
  return ok;
}
inline bool TrySub(Int a, Int b, Int* out) {
  int64_t v;
  const bool ok = !__builtin_sub_overflow(a.value, b.value, &v);
  *out = integer_internal::Tagged(
      v, BothStatic(a, b), a, b,
      integer_internal::SafeGcd(Divisibility(a), Divisibility(b)));
  return ok;
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
// Truncating division; the _0 shortcut holds against a `?` too. A `?`
// quotient by a known divisor of its divisibility has the quotient of the
// two as its divisibility (`?{div=32}` / 8 is `?{div=4}`), any other `?`
// quotient 1. Precondition: b != 0 (a `?` divisor's value may be 0: the
// quotient's value is then 0).
inline Int Div(Int a, Int b) {
  if (IsStaticZero(a)) return Int::Static(0);
  const int64_t v = b.value == 0 ? 0 : a.value / b.value;
  int64_t div = 1;
  if (a.unknown && IsKnown(b) && b.value != 0 && a.div % b.value == 0) {
    div = a.div / b.value;
  }
  return integer_internal::Tagged(v, BothStatic(a, b), a, b, div);
}

// Mod
//
// The truncating remainder, with CuTe's static-0 shortcuts (_0 % x, x % _1,
// x % _-1). A `?` modulo a known c: a static 0 when c divides its
// divisibility (the DSL folds it: idx2crd of `?{div=8}` in (4,2) is
// (0,?{div=2})), a `?` of its divisibility when that divides c, else a `?`
// of divisibility 1; any other `?` remainder has divisibility 1.
// Precondition: b != 0 unless b is a `?` (its value's 0 gives 0).
inline Int Mod(Int a, Int b) {
  if (IsStaticZero(a) || (b.is_static && (b.value == 1 || b.value == -1))) {
    return Int::Static(0);
  }
  if (a.unknown && IsKnown(b) && b.value != 0) {
    if (a.div % b.value == 0) return Int::Static(0);
    const int64_t div = (a.div != 0 && b.value % a.div == 0) ? a.div : 1;
    return integer_internal::Tagged(a.value % b.value, false, a, b, div);
  }
  const int64_t v = b.value == 0 ? 0 : a.value % b.value;
  return integer_internal::Tagged(v, BothStatic(a, b), a, b, 1);
}

// CeilDiv
//
// ceil(a / b) for a >= 0, b > 0 (CuTe's (a + b - 1) / b). A `?` quotient's
// divisibility is 1.
inline Int CeilDiv(Int a, Int b) {
  const int64_t v =
      b.value <= 0 ? 0 : a.value / b.value + (a.value % b.value != 0);
  return integer_internal::Tagged(v, BothStatic(a, b), a, b, 1);
}

// Min, Max, Abs, Signum, Neg
//
// A `?` min or max is one of the two, so their gcd divides it; a `?`'s
// absolute value, sign or negation has divisibility 1 (the DSL's, as it
// prints -x).
inline Int Min(Int a, Int b) {
  return integer_internal::Tagged(
      a.value < b.value ? a.value : b.value, BothStatic(a, b), a, b,
      integer_internal::SafeGcd(Divisibility(a), Divisibility(b)));
}
inline Int Max(Int a, Int b) {
  return integer_internal::Tagged(
      a.value > b.value ? a.value : b.value, BothStatic(a, b), a, b,
      integer_internal::SafeGcd(Divisibility(a), Divisibility(b)));
}
// Precondition: a.value != INT64_MIN.
inline Int Abs(Int a) {
  return integer_internal::Tagged(a.value < 0 ? -a.value : a.value, a.is_static,
                                  a, a, 1);
}
inline Int Signum(Int a) {
  return integer_internal::Tagged((a.value > 0) - (a.value < 0), a.is_static, a,
                                  a, 1);
}
inline Int Neg(Int a) {
  return integer_internal::Tagged(-a.value, a.is_static, a, a, 1);
}

}  // namespace hlolayout::cute

#endif  // HLOLAYOUT_CUTE_INTEGER_H_
