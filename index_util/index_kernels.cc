#include "hlolayout/index_util/index_kernels.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#endif

#include "hlolayout/layout/offset_kind.h"

namespace hlolayout::index_internal {
namespace {

int Log2IfPowerOfTwo(int64_t t) {
  if (t <= 0 || (t & (t - 1)) != 0) return -1;
  return __builtin_ctzll(static_cast<uint64_t>(t));
}

bool DetectFastBitExtract() {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (__get_cpuid_max(0, nullptr) < 7) return false;
  __cpuid_count(7, 0, eax, ebx, ecx, edx);
  if ((ebx & (1u << 8)) == 0) return false;  // no BMI2
  __cpuid(0, eax, ebx, ecx, edx);
  const bool amd = ebx == 0x68747541 && edx == 0x69746e65 &&
                   ecx == 0x444d4163;  // "AuthenticAMD"
  if (!amd) return true;
  __cpuid(1, eax, ebx, ecx, edx);
  int family = (eax >> 8) & 0xf;
  if (family == 0xf) family += (eax >> 20) & 0xff;
  return family >= 0x19;  // Zen 3 and later: pext in hardware
#else
  return false;
#endif
}

}  // namespace

bool CpuHasFastBitExtract() {
  static const bool fast = DetectFastBitExtract();
  return fast;
}

bool IndexKernels::CompileForward(const std::vector<ForwardPiece>& pieces,
                                  const std::vector<int64_t>& dims) {
  forward_code_ = kNoForward;
  num_divisions_ = 0;
  // Each piece as quotients: floor(x/P) mod M = floor(x/P) - M floor(x/PM).
  // Weights add up per (dim, divisor), modulo 2^64.
  std::map<std::pair<int, int64_t>, uint64_t> weights;
  for (const ForwardPiece& p : pieces) {
    if (p.dim < 0 || p.dim >= static_cast<int>(dims.size()) || p.divisor < 1 ||
        p.modulus < 0) {
      return false;
    }
    weights[{p.dim, p.divisor}] += static_cast<uint64_t>(p.stride);
    if (p.modulus != 0) {
      const __int128 next = static_cast<__int128>(p.divisor) * p.modulus;
      if (next > INT64_MAX) return false;
      weights[{p.dim, static_cast<int64_t>(next)}] -=
          static_cast<uint64_t>(p.stride) * static_cast<uint64_t>(p.modulus);
    }
  }
  int masked = 0, divided = 0;
  for (const auto& [key, weight] : weights) {
    const auto& [dim, divisor] = key;
    if (weight == 0) continue;
    const int log2 = Log2IfPowerOfTwo(divisor);
    if (log2 >= 0 && log2 < 63 && (weight & ((uint64_t{1} << log2) - 1)) == 0) {
      // floor(x / 2^s) * w == (x & -2^s) * (w / 2^s).
      if (masked == kMaxTerms) return false;
      terms_[masked++] = Term{static_cast<int64_t>(~uint64_t{0} << log2),
                              weight >> log2, static_cast<int32_t>(dim)};
      continue;
    }
    // mulhi(x, ceil(2^64 / P)) == floor(x / P) while x (P - 1) < 2^64, for
    // every x below the dim's size; exact for any x when P is a power of 2.
    const uint64_t d = static_cast<uint64_t>(divisor);
    if (log2 < 0 &&
        (static_cast<unsigned __int128>(dims[dim] - 1) * (d - 1)) >> 64 != 0) {
      return false;
    }
    if (divided == kMaxDivisionTerms) return false;
    divisions_[divided++] = DivisionTerm{
        static_cast<uint64_t>(
            ((static_cast<unsigned __int128>(1) << 64) + d - 1) / d),
        weight, static_cast<int32_t>(dim)};
  }
  num_divisions_ = divided;
  forward_code_ = masked + (divided > 0 ? kWithDivisions : 0u);
  return true;
}

// What CompileInverse learns about the digits: the logical dim each feeds
// (-1: none) with its coefficient, and which must be 0.
struct DigitUse {
  int dim = -1;
  int64_t weight = 0;
  bool must_be_zero = false;
};

namespace {

// Assigns each digit to the store that uses it and classifies the checks:
// a check equal to a store is a coordinate bound (`bounds`); a check of one
// unused digit below 1 makes that digit 0. False for anything else.
bool ClassifyDigits(const DigitProgram& p, std::vector<DigitUse>* uses,
                    std::vector<std::pair<int, int64_t>>* bounds) {
  const size_t n = p.sizes.size();
  uses->assign(n, DigitUse());
  for (const auto& [coefs, dim] : p.stores) {
    if (coefs.size() != n) return false;
    for (size_t k = 0; k < n; ++k) {
      if (coefs[k] == 0) continue;
      if ((*uses)[k].dim >= 0 || coefs[k] < 0) return false;
      (*uses)[k].dim = static_cast<int>(dim);
      (*uses)[k].weight = coefs[k];
    }
  }
  for (const auto& [coefs, bound] : p.checks) {
    int same_as = -1;
    for (const auto& [store_coefs, dim] : p.stores) {
      if (store_coefs == coefs) same_as = static_cast<int>(dim);
    }
    if (same_as >= 0) {
      bounds->emplace_back(same_as, bound - 1);
      continue;
    }
    int only = -1, nonzero = 0;
    for (size_t k = 0; k < coefs.size(); ++k) {
      if (coefs[k] != 0) {
        only = static_cast<int>(k);
        ++nonzero;
      }
    }
    if (nonzero != 1 || coefs[only] != 1 || bound != 1 ||
        (*uses)[only].dim >= 0) {
      return false;
    }
    (*uses)[only].must_be_zero = true;
  }
  for (const DigitUse& u : *uses) {
    if (u.dim < 0 && !u.must_be_zero) return false;
  }
  return true;
}

}  // namespace

bool IndexKernels::CompileInverse(const DigitProgram& p, int rank,
                                  bool allow_pext) {
  inverse_ = Inverse::kNone;
  inverse_code_ = kNoInlineInverse;
  const int n = static_cast<int>(p.sizes.size());
  if (rank > kMaxRank || rank <= 0) return false;  // rank 0: general
  std::vector<DigitUse> uses;
  std::vector<std::pair<int, int64_t>> bounds;
  if (!ClassifyDigits(p, &uses, &bounds)) return false;
  if (bounds.size() > static_cast<size_t>(kMaxChecks)) return false;
  // Low digits: the longest minor run of power-of-two sizes, at bit
  // `shift[k]` of the offset.
  int low = 0;
  int bits = 0;
  std::vector<int> shift(n, 0);
  while (low < n && Log2IfPowerOfTwo(p.sizes[low]) >= 0) {
    shift[low] = bits;
    bits += Log2IfPowerOfTwo(p.sizes[low]);
    ++low;
  }
  if (bits > 63) return false;
  // Each coordinate's low digits, in offset order, must sit at weights 1,
  // 2^w0, 2^(w0+w1), ...: then one bit extract gives their sum.
  uint64_t masks[kMaxRank] = {};
  int64_t next_weight[kMaxRank];
  std::fill(next_weight, next_weight + kMaxRank, 1);
  uint64_t zero = 0;
  for (int k = 0; k < low; ++k) {
    const uint64_t field = static_cast<uint64_t>(p.sizes[k] - 1) << shift[k];
    if (uses[k].must_be_zero) {
      zero |= field;
      continue;
    }
    const int d = uses[k].dim;
    if (d < 0 || d >= rank || uses[k].weight != next_weight[d]) return false;
    masks[d] |= field;
    next_weight[d] *= p.sizes[k];
  }
  // High digits: dividends below prod(sizes[k..]); the multiplier is exact
  // while (dividend max) * (size - 1) < 2^64.
  const int high = n - low;
  if (high > kMaxHighDigits) return false;
  unsigned __int128 above = 1;
  for (int k = n - 1; k >= low; --k) {
    above *= static_cast<uint64_t>(p.sizes[k]);
    const DigitUse& u = uses[k];
    if (u.must_be_zero || u.dim < 0 || u.dim >= rank) return false;
    const uint64_t size = static_cast<uint64_t>(p.sizes[k]);
    if (k < n - 1 && (above - 1) * (size - 1) >> 64 != 0) return false;
    HighDigit& h = high_[k - low];  // most minor first
    h.size = size;
    h.multiplier = static_cast<uint64_t>(
        ((static_cast<unsigned __int128>(1) << 64) + size - 1) / size);
    h.weight = static_cast<uint64_t>(u.weight);
    h.dim = u.dim;
  }
  rank_ = rank;
  num_high_ = high;
  high_shift_ = high > 0 ? bits : 0;
  zero_mask_ = zero;
  std::copy(masks, masks + kMaxRank, field_mask_);
  num_checks_ = static_cast<unsigned>(bounds.size());
  may_pad_ = zero != 0 || num_checks_ != 0;
  for (size_t c = 0; c < static_cast<size_t>(kMaxChecks); ++c) {
    checks_[c] = c < bounds.size() ? Check{bounds[c].first, bounds[c].second}
                                   : Check{0, INT64_MAX};
  }
  forward_bits_ = kNoBits;
  if (allow_pext && CpuHasFastBitExtract()) {
    inverse_ = Inverse::kFieldsPext;
    inverse_code_ = static_cast<unsigned>(rank);
    CompileDeposits(p, low, bits, uses);
  } else {
    inverse_ = Inverse::kFieldsPortable;
  }
  return true;
}

void IndexKernels::CompileDeposits(const DigitProgram& p, int low, int bits,
                                   const std::vector<DigitUse>& uses) {
  // Forward as deposits: coordinate c puts its low bits into its fields
  // (the inverse's masks) and adds (x_c >> width) times the place of its
  // one high digit, if it has one whose weight is 2^width.
  const int n = static_cast<int>(p.sizes.size());
  bool mixed = false;
  unsigned __int128 place = static_cast<unsigned __int128>(1) << bits;
  std::vector<int> high_of(rank_, -1);
  for (int k = low; k < n; ++k) {
    const int d = uses[k].dim;
    if (high_of[d] >= 0) return;  // two high digits
    high_of[d] = k;
    const int width = __builtin_popcountll(field_mask_[d]);
    if (width >= 63 || uses[k].weight != int64_t{1} << width ||
        place > INT64_MAX) {
      return;
    }
    deposit_shift_[d] = static_cast<uint64_t>(width);
    deposit_weight_[d] = static_cast<uint64_t>(place);
    mixed = true;
    place *= static_cast<uint64_t>(p.sizes[k]);
  }
  for (unsigned c = 0; c < rank_; ++c) {
    if (high_of[c] < 0) {
      deposit_shift_[c] = 0;
      deposit_weight_[c] = 0;
    }
  }
  forward_bits_ = mixed ? kMixedBits : kPureBits;
}

OffsetKind IndexKernels::ElementAtPortable(uint64_t offset,
                                           int64_t* index) const {
  return ElementAtFields<false>(offset, index, rank_,
                                [](uint64_t, int64_t*) {  // not reached
                                  return OffsetKind::kTailPadding;
                                });
}

}  // namespace hlolayout::index_internal
