// index_util/index_kernels.h: the straight-line forms a TiledIndexer picks
// for itself when it is created (index_util/tiled_indexer.h uses them; call
// TiledIndexer, not these).
//
// Forward, "masked terms": the forward program only cuts each coordinate x
// into pieces floor(x / P) mod M (no `*` mixes coordinates), and
// floor(x / P) mod M = floor(x / P) - M floor(x / PM), so the offset is a
// fixed sum of quotients floor(x_d / P) times weights. A quotient by a power
// of two whose weight it divides is a mask, (x & -P) * (weight / P); any
// other is one multiply-high by ceil(2^64 / P), exact for every in-bounds x
// (checked when compiled). So
//
//   offset = sum_k (index[d_k] & mask_k) * weight_k
//          + sum_j mulhi(index[d_j], multiplier_j) * weight_j   (mod 2^64)
//
// f32[1024,1024]{1,0:T(8,128)}: i * 128 + (i & ~7) * 896 + j +
// (j & ~127) * 7; power-of-two tiles need no multiply-high. Up to kMaxTerms
// masked terms, run as one straight-line block entered at the right term (a
// fall-through switch), and up to kMaxDivisionTerms others before it.
//
// Inverse, "fields and digits": the final (fully tiled) dimensions are the
// digits of the offset, minor first. The longest minor run of digits whose
// sizes are powers of two are bit fields of the offset: each logical
// coordinate takes its fields with one bit extract (x86 BMI2 `pext`, or a
// portable loop over the mask's runs). The digits above them ("high
// digits": tile counts and untiled major dimensions, any size) come from the
// offset shifted down, one multiply-high per digit (no post-shift: the
// multiplier ceil(2^64 / size) is exact for every value the digit's dividend
// can take, checked when compiled), and are added to their coordinates with
// their weights. Then the coordinates whose tiles overhang the array are
// compared with their sizes (tile padding), as are the fields that must be
// 0 (tile rows of leading 1s).
//
// Either form is compiled only when it gives the same answer as the general
// program for every in-bounds index and offset; Compile* return false
// otherwise and the indexer keeps its general paths.
#ifndef HLOLAYOUT_INDEX_UTIL_INDEX_KERNELS_H_
#define HLOLAYOUT_INDEX_UTIL_INDEX_KERNELS_H_

#include <climits>
#include <cstdint>
#include <utility>
#include <vector>

#include "absl/base/attributes.h"
#include "absl/base/optimization.h"
#include "hlolayout/layout/offset_kind.h"

namespace hlolayout::index_internal {

// One piece of a coordinate in the forward program: floor(index[dim] /
// divisor) mod modulus (modulus 0: no modulus), at `stride` elements per
// unit.
struct ForwardPiece {
  int dim = 0;
  int64_t divisor = 1;
  int64_t modulus = 0;
  int64_t stride = 0;
};

// The inverse program as linear combinations of the offset's digits:
// `sizes` of the digits (each > 1, minor first); `checks`: (coefficients,
// bound), padding when the combination is >= bound; `stores`: (coefficients,
// logical dim).
struct DigitProgram {
  std::vector<int64_t> sizes;
  std::vector<std::pair<std::vector<int64_t>, int64_t>> checks;
  std::vector<std::pair<std::vector<int64_t>, int64_t>> stores;
};

struct DigitUse;

// True when the x86 BMI2 bit extract is present and fast (not the
// microcoded one of AMD processors before Zen 3).
bool CpuHasFastBitExtract();

class IndexKernels {
 public:
  static constexpr int kMaxTerms = 12;
  static constexpr int kMaxDivisionTerms = 4;
  static constexpr int kMaxRank = 8;
  static constexpr int kMaxHighDigits = 8;
  static constexpr int kMaxChecks = 2;
  // forward_code(): the number of masked terms, plus kWithDivisions when
  // there are multiply-high terms too; kNoForward without a form.
  static constexpr unsigned kWithDivisions = 16;
  static constexpr unsigned kNoForward = 255;
  // inverse_code(): the rank when the inline BMI2 form applies, else
  // kNoInlineInverse.
  static constexpr unsigned kNoInlineInverse = 255;

  enum class Inverse : uint8_t {
    kNone,
    kFieldsPext,      // BMI2 bit extract, inline
    kFieldsPortable,  // the same with a portable extract, out of line
  };

  // Forward form from the pieces of every coordinate (`dims`: the
  // coordinates' sizes); false (and no form) when there are too many terms
  // or a multiply-high would not be exact.
  bool CompileForward(const std::vector<ForwardPiece>& pieces,
                      const std::vector<int64_t>& dims);
  // Inverse form for a shape of `rank` dims; false (and no form) when it
  // does not apply. `allow_pext`: take the BMI2 form when the processor has
  // it.
  bool CompileInverse(const DigitProgram& program, int rank, bool allow_pext);

  // forward_bits(): the bit-deposit forward form (BMI2), compiled with the
  // inverse: kPureBits when every coordinate is bit fields of the offset,
  // kMixedBits when some also have a high digit.
  static constexpr unsigned kNoBits = 0;
  static constexpr unsigned kPureBits = 1;
  static constexpr unsigned kMixedBits = 2;
  unsigned forward_bits() const { return forward_bits_; }
  unsigned forward_code() const { return forward_code_; }
  unsigned inverse_code() const { return inverse_code_; }
  Inverse inverse() const { return inverse_; }

  // The offset of `index` (rank entries), or general(index) without a
  // form: one indexed jump into the block of terms.
  template <typename General>
  ABSL_ATTRIBUTE_ALWAYS_INLINE int64_t Offset(const int64_t* index,
                                              const General& general) const {
    uint64_t sum = 0;
    unsigned code = forward_code_;
    const Term* t = terms_;
  dispatch:
    // Entered at the last term, falls through to the first.
#define HLOLAYOUT_TERM(k)                                                    \
  case k + 1:                                                                \
    sum += static_cast<uint64_t>(index[t[k].dim] & t[k].mask) * t[k].weight; \
    [[fallthrough]];
    switch (code) {
      HLOLAYOUT_TERM(11)
      HLOLAYOUT_TERM(10)
      HLOLAYOUT_TERM(9)
      HLOLAYOUT_TERM(8)
      HLOLAYOUT_TERM(7)
      HLOLAYOUT_TERM(6)
      HLOLAYOUT_TERM(5)
      HLOLAYOUT_TERM(4)
      HLOLAYOUT_TERM(3)
      HLOLAYOUT_TERM(2)
      HLOLAYOUT_TERM(1)
      HLOLAYOUT_TERM(0)
      case 0:
        return static_cast<int64_t>(sum);
      default:
        if (code == kNoForward) return general(index);
        sum = DivisionSum(index);
        code -= kWithDivisions;
        goto dispatch;
    }
#undef HLOLAYOUT_TERM
  }

  // The element at `offset`: writes its index (rank entries) and returns
  // kElement, or returns kTilePadding (index unspecified); without the
  // inline form, general(offset, index).
  // @pre 0 <= offset < tiled elements.
  template <typename General>
  ABSL_ATTRIBUTE_ALWAYS_INLINE OffsetKind
  ElementAt(uint64_t offset, int64_t* index, const General& general) const {
    return ElementAtFields<true>(offset, index, inverse_code_, general);
  }
  // The portable form, @pre inverse() == kFieldsPortable.
  OffsetKind ElementAtPortable(uint64_t offset, int64_t* index) const;

 private:
  // The forward by deposits, from the inverse's fields (CompileInverse).
  void CompileDeposits(const DigitProgram& p, int low, int bits,
                       const std::vector<DigitUse>& uses);

  struct Term {
    int64_t mask;
    uint64_t weight;
    int32_t dim;
  };
  struct DivisionTerm {
    uint64_t multiplier;  // ceil(2^64 / divisor)
    uint64_t weight;
    int32_t dim;
  };
  struct HighDigit {
    uint64_t multiplier;  // ceil(2^64 / size)
    uint64_t size;
    uint64_t weight;  // in its coordinate
    int32_t dim;
  };
  struct Check {
    int32_t dim;
    int64_t last;  // the largest coordinate that is not padding
  };

  // Bits of `value` under `mask`, packed to the low end.
  template <bool kPext>
  ABSL_ATTRIBUTE_ALWAYS_INLINE static uint64_t Extract(uint64_t value,
                                                       uint64_t mask) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    if (kPext) {
      uint64_t out;
      // Only run when CpuHasFastBitExtract(); written as an instruction so
      // that no compiler flag is needed.
      asm("{pextq %2, %1, %0|pext %0, %1, %2}"
          : "=r"(out)
          : "r"(value), "rm"(mask));
      return out;
    }
#endif
    uint64_t out = 0;
    int filled = 0;
    while (mask != 0) {
      const int low = __builtin_ctzll(mask);
      const uint64_t run = mask >> low;
      const int width =
          run == ~uint64_t{0} >> low ? 64 - low : __builtin_ctzll(~run);
      const uint64_t ones =
          width == 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
      out |= ((value >> low) & ones) << filled;
      filled += width;
      mask &= ~(ones << low);
    }
    return out;
  }

  // The BMI2 bit deposit and shift (only run when CpuHasFastBitExtract()).
  ABSL_ATTRIBUTE_ALWAYS_INLINE static uint64_t Deposit(uint64_t value,
                                                       uint64_t mask) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    uint64_t out;
    asm("{pdepq %2, %1, %0|pdep %0, %1, %2}"
        : "=r"(out)
        : "r"(value), "rm"(mask));
    return out;
#else
    (void)value;
    (void)mask;
    return 0;  // not reached: no BMI2 form is compiled
#endif
  }
  ABSL_ATTRIBUTE_ALWAYS_INLINE static uint64_t ShiftRight(uint64_t value,
                                                          uint64_t count) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    uint64_t out;
    asm("{shrxq %2, %1, %0|shrx %0, %1, %2}"
        : "=r"(out)
        : "rm"(value), "r"(count));
    return out;
#else
    return value >> (count & 63);
#endif
  }

  // The multiply-high terms.
  ABSL_ATTRIBUTE_ALWAYS_INLINE uint64_t
  DivisionSum(const int64_t* index) const {
    uint64_t sum = 0;
    const DivisionTerm* t = divisions_;
#define HLOLAYOUT_DIVISION(k)                                                \
  case k + 1:                                                                \
    sum +=                                                                   \
        static_cast<uint64_t>((static_cast<unsigned __int128>(               \
                                   static_cast<uint64_t>(index[t[k].dim])) * \
                               t[k].multiplier) >>                           \
                              64) *                                          \
        t[k].weight;                                                         \
    [[fallthrough]];
    switch (num_divisions_) {
      HLOLAYOUT_DIVISION(3)
      HLOLAYOUT_DIVISION(2)
      HLOLAYOUT_DIVISION(1)
      HLOLAYOUT_DIVISION(0)
      default:
        break;
    }
#undef HLOLAYOUT_DIVISION
    return sum;
  }

 public:
  // ElementAt's body; `code`: the rank, or anything above kMaxRank for
  // general(u, index). For the two forms (kPext or not).
  template <bool kPext, typename General>
  ABSL_ATTRIBUTE_ALWAYS_INLINE OffsetKind ElementAtFields(
      uint64_t u, int64_t* index, unsigned code, const General& general) const {
    if (code > static_cast<unsigned>(kMaxRank)) return general(u, index);
    // Straight-line with an early exit after the last one: conditional
    // branches that always go the same way for a shape cost far less than
    // the indexed jump of a fall-through switch.
    // Every coordinate's bit fields (0 for those without any).
    do {
#define HLOLAYOUT_FIELDS(c) \
  if (code == c) break;     \
  index[c] = static_cast<int64_t>(Extract<kPext>(u, field_mask_[c]));
      HLOLAYOUT_FIELDS(0)
      HLOLAYOUT_FIELDS(1)
      HLOLAYOUT_FIELDS(2)
      HLOLAYOUT_FIELDS(3)
      HLOLAYOUT_FIELDS(4)
      HLOLAYOUT_FIELDS(5)
      HLOLAYOUT_FIELDS(6)
      HLOLAYOUT_FIELDS(7)
#undef HLOLAYOUT_FIELDS
    } while (false);
    // The high digits, most minor first; the last (top) one is what is
    // left.
    if (num_high_ != 0) {
      uint64_t h = u >> high_shift_;
      do {
#define HLOLAYOUT_DIGIT(k)                                                    \
  {                                                                           \
    const HighDigit& d = high_[k];                                            \
    if (num_high_ == k + 1) {                                                 \
      index[d.dim] = static_cast<int64_t>(                                    \
          static_cast<uint64_t>(index[d.dim]) + h * d.weight);                \
      break;                                                                  \
    }                                                                         \
    const uint64_t q = static_cast<uint64_t>(                                 \
        (static_cast<unsigned __int128>(h) * d.multiplier) >> 64);            \
    index[d.dim] = static_cast<int64_t>(static_cast<uint64_t>(index[d.dim]) + \
                                        (h - q * d.size) * d.weight);         \
    h = q;                                                                    \
  }
        HLOLAYOUT_DIGIT(0)
        HLOLAYOUT_DIGIT(1)
        HLOLAYOUT_DIGIT(2)
        HLOLAYOUT_DIGIT(3)
        HLOLAYOUT_DIGIT(4)
        HLOLAYOUT_DIGIT(5)
        HLOLAYOUT_DIGIT(6)
        HLOLAYOUT_DIGIT(7)
#undef HLOLAYOUT_DIGIT
      } while (false);
    }
    // A layout whose tiles never overhang its array (and whose fields are
    // all coordinates) has no padding offset below its size: nothing to
    // compare.
    if (!may_pad_) return OffsetKind::kElement;
    // Padding when a field that must be 0 is not, or a coordinate passes
    // its last value (last - x < 0).
    uint64_t over = (u & zero_mask_) != 0 ? ~uint64_t{0} : 0;
    // Always two checks, no branch: an unused one compares coordinate 0
    // with the largest int64 (rank >= 1 here).
    over |= static_cast<uint64_t>(checks_[0].last) -
            static_cast<uint64_t>(index[checks_[0].dim]);
    over |= static_cast<uint64_t>(checks_[1].last) -
            static_cast<uint64_t>(index[checks_[1].dim]);
    return static_cast<int64_t>(over) < 0 ? OffsetKind::kTilePadding
                                          : OffsetKind::kElement;
  }

  // The offset by bit deposits: sum over the coordinates x_c of
  // pdep(x_c, field mask) + (x_c >> shift_c) * weight_c. @pre
  // forward_bits() != kNoBits and the processor has BMI2.
  ABSL_ATTRIBUTE_ALWAYS_INLINE int64_t
  OffsetByDeposits(const int64_t* index) const {
    uint64_t sum = 0;
    const unsigned n = rank_;
    do {
#define HLOLAYOUT_DEPOSIT(c)                                      \
  if (n == c) break;                                              \
  {                                                               \
    const uint64_t x = static_cast<uint64_t>(index[c]);           \
    sum += Deposit(x, field_mask_[c]);                            \
    sum += ShiftRight(x, deposit_shift_[c]) * deposit_weight_[c]; \
  }
      HLOLAYOUT_DEPOSIT(0)
      HLOLAYOUT_DEPOSIT(1)
      HLOLAYOUT_DEPOSIT(2)
      HLOLAYOUT_DEPOSIT(3)
      HLOLAYOUT_DEPOSIT(4)
      HLOLAYOUT_DEPOSIT(5)
      HLOLAYOUT_DEPOSIT(6)
      HLOLAYOUT_DEPOSIT(7)
#undef HLOLAYOUT_DEPOSIT
    } while (false);
    return static_cast<int64_t>(sum);
  }

 private:
  // Forward.
  unsigned forward_code_ = kNoForward;
  unsigned num_divisions_ = 0;
  Term terms_[kMaxTerms] = {};
  DivisionTerm divisions_[kMaxDivisionTerms] = {};
  // Inverse.
  Inverse inverse_ = Inverse::kNone;
  unsigned inverse_code_ = kNoInlineInverse;
  unsigned rank_ = 0;
  unsigned num_high_ = 0;
  unsigned num_checks_ = 0;
  int high_shift_ = 0;
  uint64_t zero_mask_ = 0;
  bool may_pad_ = true;  // zero_mask_ != 0 or num_checks_ != 0
  uint64_t field_mask_[kMaxRank] = {};
  HighDigit high_[kMaxHighDigits] = {};  // most minor first
  // Forward by deposits.
  unsigned forward_bits_ = kNoBits;
  uint64_t deposit_shift_[kMaxRank] = {};
  uint64_t deposit_weight_[kMaxRank] = {};
  Check checks_[kMaxChecks] = {{0, INT64_MAX}, {0, INT64_MAX}};
};

}  // namespace hlolayout::index_internal

#endif  // HLOLAYOUT_INDEX_UTIL_INDEX_KERNELS_H_
