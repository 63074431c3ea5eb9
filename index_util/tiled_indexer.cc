#include "hlolayout/index_util/tiled_indexer.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "hlolayout/index_util/fast_divisor.h"
#include "hlolayout/index_util/index_kernels.h"
#include "hlolayout/layout/offset_kind.h"
#include "hlolayout/layout/tiling.h"
#include "hlolayout/util/check.h"

namespace hlolayout {
namespace {

// A dimension of an intermediate shape during compilation: which register
// holds its coordinate (-1: known to be 0), an upper bound on that
// coordinate (exclusive) and the dimension size.
struct Slot {
  int reg;
  int64_t bound;
  int64_t size;
};

int Log2IfPowerOfTwo(int64_t t) {
  if (t <= 0 || (t & (t - 1)) != 0) return -1;
  return __builtin_ctzll(static_cast<uint64_t>(t));
}

absl::Status TooManyRegisters(int regs) {
  return absl::InvalidArgumentError(absl::StrCat("shape needs ", regs,
                                                 " registers, the indexer has ",
                                                 TiledIndexer::kMaxRegisters));
}

}  // namespace

absl::StatusOr<TiledIndexer> TiledIndexer::Create(const Shape& array_shape) {
  return Create(array_shape, Options());
}

absl::StatusOr<TiledIndexer> TiledIndexer::Create(const Shape& array_shape,
                                                  const Options& options) {
  absl::StatusOr<TilingModel> model = BuildTilingModel(array_shape);
  if (!model.ok()) return model.status();
  return Create(*model, options);
}

absl::StatusOr<TiledIndexer> TiledIndexer::Create(const TilingModel& m) {
  return Create(m, Options());
}

absl::StatusOr<TiledIndexer> TiledIndexer::Create(const TilingModel& m,
                                                  const Options& options) {
  TiledIndexer ix;
  ix.dims_ = m.logical_dims;
  ix.rank_ = ix.dims_.size();
  ix.logical_elements_ = m.logical_elements;
  ix.tiled_elements_ = m.tiled_elements;
  ix.padded_elements_ = m.padded_elements;
  ix.element_bits_ = m.element_bits;
  if (m.logical_elements == 0) return ix;  // no element, nothing to compile
  if (absl::Status s = ix.CompileForward(m); !s.ok()) return s;
  if (absl::Status s = ix.CompileInverse(m); !s.ok()) return s;
  if (options.specialize) ix.CompileFastPaths(options);
  return ix;
}

TiledIndexer::Op TiledIndexer::MakeOp(OpKind kind, int a, int b, int64_t c) {
  Op op{kind,         static_cast<uint8_t>(a), static_cast<uint8_t>(b), 0, c,
        FastDivisor()};
  if (kind == OpKind::kSplit) {
    const int log2 = Log2IfPowerOfTwo(c);
    if (log2 >= 0) {
      op.kind = OpKind::kShift;
      op.shift = static_cast<uint8_t>(log2);
    } else {
      op.div = FastDivisor(c);
    }
  }
  return op;
}

absl::Status TiledIndexer::CompileForward(const TilingModel& m) {
  int next = 0;
  std::vector<Slot> cur;
  for (const TilingDim& d : m.physical) {
    if (d.size <= 1) {
      cur.push_back(Slot{-1, 1, d.size});
    } else {
      loads_.push_back(Term{next, d.logical_dimension});
      if (d.logical_dimension == m.rank() - 1) last_dim_reg_ = next;
      cur.push_back(Slot{next++, d.size, d.size});
    }
  }
  if (next > kMaxRegisters) return TooManyRegisters(next);
  for (const TileLevel& l : m.levels) {
    std::vector<Slot> work(l.leading_ones, Slot{-1, 1, 1});
    work.insert(work.end(), cur.begin(), cur.end());
    std::vector<Slot> combined;
    for (const auto& [first, last] : l.combined_from) {
      Slot acc = work[first];
      for (int64_t i = first + 1; i <= last; ++i) {
        const Slot& s = work[i];
        if (acc.reg < 0) {
          acc.reg = s.reg;
        } else if (s.reg < 0) {
          if (s.size != 1)
            forward_.push_back(MakeOp(OpKind::kMul, acc.reg, 0, s.size));
        } else {
          forward_.push_back(MakeOp(OpKind::kMulAdd, acc.reg, s.reg, s.size));
        }
        acc.bound = (acc.bound - 1) * s.size + s.bound;
        acc.size *= s.size;
      }
      combined.push_back(acc);
    }
    const int64_t p = l.prefix_rank();
    std::vector<Slot> next_slots(combined.begin(), combined.begin() + p);
    std::vector<Slot> insides;
    for (size_t i = 0; i < l.tile_sizes.size(); ++i) {
      const Slot s = combined[p + i];
      const int64_t t = l.tile_sizes[i];
      const int64_t count = s.size / t + (s.size % t != 0 ? 1 : 0);
      if (s.reg < 0) {
        next_slots.push_back(Slot{-1, 1, count});
        insides.push_back(Slot{-1, 1, t});
      } else if (t == 1) {
        next_slots.push_back(Slot{s.reg, s.bound, count});
        insides.push_back(Slot{-1, 1, 1});
      } else if (s.bound <= t) {
        next_slots.push_back(Slot{-1, 1, count});
        insides.push_back(Slot{s.reg, s.bound, t});
      } else {
        if (next >= kMaxRegisters) return TooManyRegisters(next + 1);
        forward_.push_back(MakeOp(OpKind::kSplit, s.reg, next, t));
        next_slots.push_back(
            Slot{s.reg, s.bound / t + (s.bound % t != 0 ? 1 : 0), count});
        insides.push_back(Slot{next++, t, t});
      }
    }
    next_slots.insert(next_slots.end(), insides.begin(), insides.end());
    cur = std::move(next_slots);
  }
  FindWhetherLastDimSeparable();
  int64_t stride = 1;
  for (size_t i = cur.size(); i-- > 0;) {
    if (cur[i].reg >= 0) {
      terms_.push_back(Term{cur[i].reg, stride});
      reg_stride_[cur[i].reg] = stride;
    }
    stride *= cur[i].size;
  }
  return absl::OkStatus();
}

void TiledIndexer::FindWhetherLastDimSeparable() {
  // The last dim is separable when nothing derived from its coordinate
  // is ever combined with another coordinate.
  bool derived[kMaxRegisters] = {};
  if (last_dim_reg_ >= 0) derived[last_dim_reg_] = true;
  for (const Op& op : forward_) {
    if (op.kind == OpKind::kSplit || op.kind == OpKind::kShift) {
      derived[op.b] = derived[op.a];
    } else if (op.kind == OpKind::kMulAdd && derived[op.a] != derived[op.b]) {
      last_dim_separable_ = false;
    }
  }
}

absl::Status TiledIndexer::CompileInverse(const TilingModel& m) {
  int next = 0;
  std::vector<Slot> cur;
  for (int64_t size : m.final_dims) {
    cur.push_back(size > 1 ? Slot{next++, size, size} : Slot{-1, 1, size});
  }
  if (next > kMaxRegisters) return TooManyRegisters(next);
  // Digits, minor first: r = x mod size, x = x / size (a shift for powers
  // of two, else a multiply-shift); the most major digit is what is left.
  for (size_t i = cur.size(); i-- > 0;) {
    if (cur[i].reg >= 0) {
      digits_.push_back(Digit{cur[i].reg, FastDivisor(cur[i].size), cur[i].size,
                              Log2IfPowerOfTwo(cur[i].size)});
    }
  }
  for (size_t li = m.levels.size(); li-- > 0;) {
    const TileLevel& l = m.levels[li];
    const int64_t p = l.prefix_rank();
    const int64_t k = static_cast<int64_t>(l.tile_sizes.size());
    std::vector<Slot> combined(cur.begin(), cur.begin() + p);
    for (int64_t i = 0; i < k; ++i) {
      const Slot c = cur[p + i];
      const Slot n = cur[p + k + i];
      const int64_t t = l.tile_sizes[i];
      const int64_t size = l.combined[p + i].size;
      // Largest value x = c * t + n can take.
      const int64_t max_x =
          (c.reg >= 0 ? (c.size - 1) * t : 0) + (n.reg >= 0 ? n.size - 1 : 0);
      Slot x{-1, 1, size};
      if (c.reg < 0) {
        x.reg = n.reg;
      } else {
        x.reg = c.reg;
        if (n.reg < 0) {
          if (t != 1) inverse_.push_back(MakeOp(OpKind::kMul, c.reg, 0, t));
        } else {
          inverse_.push_back(MakeOp(OpKind::kMulAdd, c.reg, n.reg, t));
        }
      }
      if (x.reg >= 0 && max_x >= size) {
        inverse_.push_back(MakeOp(OpKind::kCheckLess, x.reg, 0, size));
      }
      combined.push_back(x);
    }
    std::vector<int64_t> sizes(l.leading_ones, 1);
    for (const TilingDim& d : l.input) sizes.push_back(d.size);
    std::vector<Slot> work(sizes.size());
    for (size_t ci = 0; ci < combined.size(); ++ci) {
      const Slot x = combined[ci];
      const auto& [first, last] = l.combined_from[ci];
      for (int64_t i = last; i > first; --i) {
        if (x.reg < 0 || sizes[i] == 1) {
          work[i] = Slot{-1, 1, sizes[i]};
          continue;
        }
        if (next >= kMaxRegisters) return TooManyRegisters(next + 1);
        inverse_.push_back(MakeOp(OpKind::kSplit, x.reg, next, sizes[i]));
        work[i] = Slot{next++, sizes[i], sizes[i]};
      }
      work[first] = Slot{x.reg, sizes[first], sizes[first]};
    }
    cur.assign(work.begin() + l.leading_ones, work.end());
  }
  for (size_t j = 0; j < cur.size(); ++j) {
    stores_.push_back(Term{cur[j].reg, m.physical[j].logical_dimension});
  }
  for (int64_t& d : reg_dim_) d = -1;
  for (const Term& t : stores_) {
    if (t.reg >= 0) reg_dim_[t.reg] = t.value;
  }
  return absl::OkStatus();
}

void TiledIndexer::CompileFastPaths(const Options& options) {
  CompileForwardKernel();
  CompileSplitOnlyForward();
  DigitCombinations exprs;
  if (!InverseAsDigitCombinations(&exprs)) return;
  CompileInverseKernel(exprs, options);
  if (!CompileLinearInverse(exprs)) return;
  CompileUnrolledInverse(exprs);
}

void TiledIndexer::CompileForwardKernel() {
  // Follow each register as floor(x / divisor) mod modulus of one
  // coordinate x: loads are whole coordinates, a split by t cuts such a
  // piece in two while t divides the modulus. A `*` (or a split that does
  // not) leaves the general paths.
  struct Piece {
    int dim = -1;
    int64_t divisor = 1;
    int64_t modulus = 0;  // 0: none
  };
  std::vector<Piece> f(kMaxRegisters);
  for (const Term& t : loads_) f[t.reg] = Piece{static_cast<int>(t.value)};
  for (const Op& op : forward_) {
    if (op.kind != OpKind::kShift && op.kind != OpKind::kSplit) return;
    const Piece q = f[op.a];
    if (q.modulus != 0 && q.modulus % op.c != 0) return;
    f[op.b] = Piece{q.dim, q.divisor, op.c};
    f[op.a] =
        Piece{q.dim, q.divisor * op.c, q.modulus == 0 ? 0 : q.modulus / op.c};
  }
  std::vector<index_internal::ForwardPiece> pieces;
  for (const Term& t : terms_) {
    const Piece& x = f[t.reg];
    pieces.push_back(
        index_internal::ForwardPiece{x.dim, x.divisor, x.modulus, t.value});
  }
  kernels_.CompileForward(pieces, dims_);
}

void TiledIndexer::CompileInverseKernel(const DigitCombinations& exprs,
                                        const Options& options) {
  index_internal::DigitProgram p;
  for (const Digit& d : digits_) p.sizes.push_back(d.size);
  for (size_t e = 0; e < exprs.size(); ++e) {
    (static_cast<int>(e) < lin_checks_ ? p.checks : p.stores)
        .push_back(exprs[e]);
  }
  kernels_.CompileInverse(p, static_cast<int>(rank()), options.allow_bmi2);
}

const char* TiledIndexer::forward_path() const {
  if (kernels_.forward_bits() != index_internal::IndexKernels::kNoBits) {
    return "bit deposits (BMI2)";
  }
  const unsigned code = kernels_.forward_code();
  if (code < index_internal::IndexKernels::kWithDivisions) {
    return "masked terms";
  }
  if (code != index_internal::IndexKernels::kNoForward) {
    return "masked and multiply-high terms";
  }
  return split_only_forward_ ? "split loop" : "interpreter";
}

const char* TiledIndexer::inverse_path() const {
  switch (kernels_.inverse()) {
    case index_internal::IndexKernels::Inverse::kFieldsPext:
      return "bit fields (BMI2)";
    case index_internal::IndexKernels::Inverse::kFieldsPortable:
      return "bit fields (portable)";
    case index_internal::IndexKernels::Inverse::kNone:
      break;
  }
  if (unrolled_inverse_ != nullptr) return "unrolled digits";
  return linear_inverse_ ? "linear digits" : "interpreter";
}

void TiledIndexer::WrongIndexSize(const char* function, size_t size) const {
  HLOLAYOUT_CHECK(size == dims_.size())
      << "TiledIndexer::" << function << ": index has " << size
      << " coordinates, shape has rank " << dims_.size();
  std::abort();  // not reached: only called for a wrong size
}

void TiledIndexer::CompileSplitOnlyForward() {
  // ---- Forward: only splits.
  bool ok = loads_.size() <= kMaxFast && terms_.size() <= kMaxFast &&
            forward_.size() <= kMaxFast;
  for (const Op& op : forward_) {
    if (op.kind != OpKind::kSplit && op.kind != OpKind::kShift) ok = false;
  }
  if (!ok) return;
  split_only_forward_ = true;
  num_loads_ = static_cast<int>(loads_.size());
  num_terms_ = static_cast<int>(terms_.size());
  num_splits_ = static_cast<int>(forward_.size());
  for (int i = 0; i < num_loads_; ++i) fast_loads_[i] = loads_[i];
  for (int i = 0; i < num_terms_; ++i) fast_terms_[i] = terms_[i];
  for (int i = 0; i < num_splits_; ++i) {
    const Op& op = forward_[i];
    splits_[i] = SplitStep{
        op.a, op.b,
        static_cast<int8_t>(op.kind == OpKind::kShift ? op.shift : -1), op.c,
        op.kind == OpKind::kShift ? FastDivisor() : op.div};
  }
}

bool TiledIndexer::InverseAsDigitCombinations(DigitCombinations* exprs) {
  // ---- Inverse: no split, so every register is a linear combination of
  // the digits. Execute the program on those combinations.
  const int n = static_cast<int>(digits_.size());
  if (n > kMaxFast) return false;
  for (const Op& op : inverse_) {
    if (op.kind == OpKind::kSplit || op.kind == OpKind::kShift) return false;
  }
  // One block for every register's combination (n <= kMaxFast): plan
  // creation (relayout/relayout.h) builds two indexers per plan, and 64
  // separate vectors were a tenth of a small plan's cost.
  std::vector<std::array<int64_t, kMaxFast>> combo(kMaxRegisters);
  for (int k = 0; k < n; ++k) combo[digits_[k].reg][k] = 1;
  auto first_n = [n](const std::array<int64_t, kMaxFast>& c) {
    return std::vector<int64_t>(c.begin(), c.begin() + n);
  };
  // (combination of digits, bound or dim): the checks, then the stores.
  for (const Op& op : inverse_) {
    std::array<int64_t, kMaxFast>& a = combo[op.a];
    switch (op.kind) {
      case OpKind::kMulAdd:
        for (int k = 0; k < n; ++k) a[k] = a[k] * op.c + combo[op.b][k];
        break;
      case OpKind::kMul:
        for (int k = 0; k < n; ++k) a[k] *= op.c;
        break;
      case OpKind::kCheckLess:
        exprs->emplace_back(first_n(a), op.c);
        break;
      default:
        return false;  // not reached: splits rejected above
    }
  }
  lin_checks_ = static_cast<int>(exprs->size());
  for (const Term& t : stores_) {
    exprs->emplace_back(
        t.reg < 0 ? std::vector<int64_t>(n, 0) : first_n(combo[t.reg]),
        t.value);
  }
  return exprs->size() <= 2 * kMaxFast;
}

bool TiledIndexer::CompileLinearInverse(const DigitCombinations& exprs) {
  const int n = static_cast<int>(digits_.size());
  // sum_k c_k d_k = sum_k q_k (c_k - size_{k-1} c_{k-1}), modulo 2^64.
  int terms = 0;
  for (size_t e = 0; e < exprs.size(); ++e) {
    const std::vector<int64_t>& c = exprs[e].first;
    for (int k = 0; k < n; ++k) {
      uint64_t w = static_cast<uint64_t>(c[k]);
      if (k > 0) {
        w -= static_cast<uint64_t>(digits_[k - 1].size) *
             static_cast<uint64_t>(c[k - 1]);
      }
      if (w == 0) continue;
      if (terms >= 4 * kMaxFast) return false;
      lin_terms_[terms++] = LinTerm{k, w};
    }
    lin_exprs_[e] = LinExpr{terms, exprs[e].second};
  }
  int64_t p = 1;
  for (int k = 0; k < n; ++k) {
    lin_div_[k] = FastDivisor(p);
    lin_shift_[k] = static_cast<int8_t>(Log2IfPowerOfTwo(p));
    p *= digits_[k].size;  // the product of all is tiled_elements at most
  }
  lin_quotients_ = n;
  lin_exprs_count_ = static_cast<int>(exprs.size());
  linear_inverse_ = true;
  return true;
}

void TiledIndexer::CompileUnrolledInverse(const DigitCombinations& exprs) {
  const int n = static_cast<int>(digits_.size());
  // Unrolled form: each digit feeds at most one store, few checks.
  if (n > kMaxUnrolled || lin_checks_ > kMaxChecks) return;
  std::vector<int> owner(n, -1);  // store expression of each digit
  for (size_t e = lin_checks_; e < exprs.size(); ++e) {
    for (int k = 0; k < n; ++k) {
      if (exprs[e].first[k] == 0) continue;
      if (owner[k] >= 0) return;  // feeds two coordinates
      owner[k] = static_cast<int>(e);
    }
  }
  // Digits no coordinate uses (tile digits of leading 1s, always 0 for
  // elements) come first: they store 0 to index[0], which its own group
  // overwrites later.
  int j = 0;
  for (int k = 0; k < n; ++k) {
    lin_size_[k] = digits_[k].size;
    if (owner[k] >= 0) continue;
    if (rank() == 0) return;
    lin_perm_[j] = k;
    lin_target_[j] = 0;
    lin_weight_[j] = 0;
    lin_keep_[j] = 0;
    ++j;
  }
  for (size_t e = lin_checks_; e < exprs.size(); ++e) {
    const int first = j;
    for (int k = 0; k < n; ++k) {
      if (owner[k] != static_cast<int>(e)) continue;
      lin_perm_[j] = k;
      lin_target_[j] = static_cast<int32_t>(exprs[e].second);
      lin_weight_[j] = exprs[e].first[k];
      lin_keep_[j] = ~int64_t{0};
      ++j;
    }
    if (j == first) {
      lin_zero_dims_.push_back(static_cast<int32_t>(exprs[e].second));
    } else {
      lin_keep_[j - 1] = 0;
    }
  }
  for (int c = 0; c < lin_checks_; ++c) {
    int32_t same_dim = -1;
    for (size_t e = lin_checks_; e < exprs.size(); ++e) {
      if (exprs[e].first == exprs[c].first) {
        same_dim = static_cast<int32_t>(exprs[e].second);
      }
    }
    if (same_dim >= 0) {
      lin_post_dim_[lin_post_checks_] = same_dim;
      lin_post_bound_[lin_post_checks_++] = exprs[c].second;
    } else {
      for (int k = 0; k < n; ++k) {
        lin_check_w_[lin_unrolled_checks_][k] = exprs[c].first[k];
      }
      lin_check_bound_[lin_unrolled_checks_++] = exprs[c].second;
    }
  }
  static constexpr InverseFn kFns[kMaxUnrolled + 1] = {
      &UnrolledElementAt<0>, &UnrolledElementAt<1>,  &UnrolledElementAt<2>,
      &UnrolledElementAt<3>, &UnrolledElementAt<4>,  &UnrolledElementAt<5>,
      &UnrolledElementAt<6>, &UnrolledElementAt<7>,  &UnrolledElementAt<8>,
      &UnrolledElementAt<9>, &UnrolledElementAt<10>, &UnrolledElementAt<11>,
      &UnrolledElementAt<12>};
  unrolled_inverse_ = kFns[n];
}

// Kept scalar under GCC; clang (the fuzz build) has no such attribute.
#if defined(__GNUC__) && !defined(__clang__)
#define HLOLAYOUT_NO_TREE_VECTORIZE \
  __attribute__((optimize("no-tree-vectorize")))
#else
#define HLOLAYOUT_NO_TREE_VECTORIZE
#endif

template <int N>
HLOLAYOUT_NO_TREE_VECTORIZE OffsetKind TiledIndexer::UnrolledElementAt(
    const TiledIndexer& ix, int64_t offset, absl::Span<int64_t> index) {
  // Quotients q_k = offset / P_k, independent of each other (shifts for
  // powers of two, else multiply-shifts; once unrolled, each branch always
  // goes the same way for a given shape), then digits. Scalar 64-bit
  // multiplies beat SSE2's emulated ones: no vectorising.
  int64_t q[N + 1];
#pragma GCC unroll 16
  for (int k = 0; k < N; ++k) {
    q[k] = ix.lin_shift_[k] >= 0 ? offset >> ix.lin_shift_[k]
                                 : ix.lin_div_[k].Divide(offset);
  }
  q[N] = 0;
  int64_t d[N + 1];
#pragma GCC unroll 16
  for (int k = 0; k < N; ++k) d[k] = q[k] - ix.lin_size_[k] * q[k + 1];
  bool padding = false;
  for (int c = 0; c < ix.lin_unrolled_checks_; ++c) {
    int64_t v = 0;
#pragma GCC unroll 16
    for (int k = 0; k < N; ++k) v += d[k] * ix.lin_check_w_[c][k];
    padding |= v >= ix.lin_check_bound_[c];
  }
  if (padding) return OffsetKind::kTilePadding;
  int64_t* out = index.data();
  int64_t sum = 0;
#pragma GCC unroll 16
  for (int j = 0; j < N; ++j) {
    sum += d[ix.lin_perm_[j]] * ix.lin_weight_[j];
    out[ix.lin_target_[j]] = sum;
    sum &= ix.lin_keep_[j];
  }
  for (int32_t z : ix.lin_zero_dims_) out[z] = 0;
  for (int c = 0; c < ix.lin_post_checks_; ++c) {
    padding |= out[ix.lin_post_dim_[c]] >= ix.lin_post_bound_[c];
  }
  return padding ? OffsetKind::kTilePadding : OffsetKind::kElement;
}

namespace {

// Two's-complement wrapping arithmetic for the forward programs: an index
// outside the array gives a wrong offset, never signed overflow (which
// UBSan reported for out-of-range indices).
inline int64_t WrapMul(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) *
                              static_cast<uint64_t>(b));
}
inline int64_t WrapAdd(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) +
                              static_cast<uint64_t>(b));
}
inline int64_t WrapSub(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) -
                              static_cast<uint64_t>(b));
}

template <typename OpT>
inline bool RunOps(const OpT* ops, size_t n, int64_t* r) {
  for (size_t i = 0; i < n; ++i) {
    const OpT& op = ops[i];
    switch (op.kind) {
      case decltype(op.kind)::kMulAdd:
        r[op.a] = WrapAdd(WrapMul(r[op.a], op.c), r[op.b]);
        break;
      case decltype(op.kind)::kMul:
        r[op.a] = WrapMul(r[op.a], op.c);
        break;
      case decltype(op.kind)::kSplit: {
        const int64_t x = r[op.a];
        const int64_t q = op.div.Divide(x);
        r[op.b] = WrapSub(x, WrapMul(q, op.c));
        r[op.a] = q;
        break;
      }
      case decltype(op.kind)::kShift: {
        const int64_t x = r[op.a];
        r[op.b] = x & (op.c - 1);
        r[op.a] = x >> op.shift;
        break;
      }
      case decltype(op.kind)::kCheckLess:
        if (r[op.a] >= op.c) return false;
        break;
    }
  }
  return true;
}

}  // namespace

int64_t TiledIndexer::OffsetGeneral(const int64_t* index) const {
  int64_t r[kMaxRegisters];
  if (split_only_forward_) {
    for (int i = 0; i < num_loads_; ++i) {
      r[fast_loads_[i].reg] = index[fast_loads_[i].value];
    }
    for (int i = 0; i < num_splits_; ++i) {
      const SplitStep& s = splits_[i];
      const int64_t x = r[s.a];
      const int64_t q = s.shift >= 0 ? x >> s.shift : s.div.Divide(x);
      r[s.b] = WrapSub(x, WrapMul(q, s.c));
      r[s.a] = q;
    }
    int64_t offset = 0;
    for (int i = 0; i < num_terms_; ++i) {
      offset =
          WrapAdd(offset, WrapMul(r[fast_terms_[i].reg], fast_terms_[i].value));
    }
    return offset;
  }
  for (const Term& t : loads_) r[t.reg] = index[t.value];
  RunOps(forward_.data(), forward_.size(), r);
  int64_t offset = 0;
  for (const Term& t : terms_)
    offset = WrapAdd(offset, WrapMul(r[t.reg], t.value));
  return offset;
}

namespace {

// out[i] = base + r[i] for i < n, and out[i] = i * step: the two loops
// that assemble DimOffsets tables (SSE2 where there is SSE2: GCC at -O2
// leaves them scalar).
inline void AddBase(int64_t* out, const int64_t* r, int64_t n, int64_t base) {
  int64_t i = 0;
#if defined(__SSE2__)
  const __m128i b = _mm_set1_epi64x(base);
  for (; i + 2 <= n; i += 2) {
    _mm_storeu_si128(
        reinterpret_cast<__m128i*>(out + i),
        _mm_add_epi64(_mm_loadu_si128(reinterpret_cast<const __m128i*>(r + i)),
                      b));
  }
#endif
  for (; i < n; ++i) out[i] = WrapAdd(base, r[i]);
}

inline void Multiples(int64_t* out, int64_t n, int64_t step) {
  int64_t i = 0;
#if defined(__SSE2__)
  __m128i v = _mm_set_epi64x(step, 0);  // (0, step), low lane first
  const __m128i two = _mm_set1_epi64x(WrapAdd(step, step));
  for (; i + 2 <= n; i += 2) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i), v);
    v = _mm_add_epi64(v, two);
  }
#endif
  for (; i < n; ++i) out[i] = WrapMul(i, step);
}

// DimOffsets of a split-only program: the offsets that value v (in [0, n))
// of register `reg`, entering the program at op `k`, contributes. The next
// split of `reg` cuts v into q = v / c (still in `reg`) and r = v % c (in
// op.b), whose contributions are tables of their own; without one, v stays
// in `reg` to the end and contributes v * stride[reg].
template <typename OpT>
void SplitTable(absl::Span<const OpT> ops, const int64_t* stride, int reg,
                size_t k, int64_t n, int64_t* out) {
  size_t j = k;
  while (j < ops.size() && ops[j].a != reg) ++j;
  if (j == ops.size()) {
    Multiples(out, n, stride[reg]);
    return;
  }
  const int64_t c = ops[j].c;
  const int64_t nq = n / c + (n % c != 0 ? 1 : 0);
  const int64_t nr = std::min(n, c);
  // One allocation for both halves; the quotient table is often the
  // longer one, the remainder's is at most c.
  std::vector<int64_t> scratch(nq + nr);
  int64_t* q = scratch.data();
  int64_t* r = q + nq;
  SplitTable(ops, stride, reg, j + 1, nq, q);
  SplitTable(ops, stride, ops[j].b, j + 1, nr, r);
  int64_t v = 0;
  for (int64_t i = 0; i < nq; ++i) {
    const int64_t m = std::min(c, n - v);
    AddBase(out + v, r, m, q[i]);
    v += m;
  }
}

}  // namespace

void TiledIndexer::DimOffsets(int64_t dim, absl::Span<int64_t> out) const {
  HLOLAYOUT_CHECK(dim >= 0 && dim < rank() &&
                  static_cast<int64_t>(out.size()) == dims_[dim])
      << "TiledIndexer::DimOffsets: dim " << dim << " of rank " << rank()
      << ", " << out.size() << " entries";
  bool splits_only = true;
  for (const Op& op : forward_) {
    splits_only &= op.kind == OpKind::kSplit || op.kind == OpKind::kShift;
  }
  if (!splits_only) {
    const int d = static_cast<int>(dim);
    GroupOffsets(absl::MakeConstSpan(&d, 1), out);
    return;
  }
  int reg = -1;
  for (const Term& t : loads_) {
    if (t.value == dim) reg = t.reg;
  }
  if (reg < 0) {  // a dimension of size <= 1: only index 0
    std::fill(out.begin(), out.end(), 0);
    return;
  }
  SplitTable(absl::MakeConstSpan(forward_), reg_stride_, reg, 0,
             static_cast<int64_t>(out.size()), out.data());
}

void TiledIndexer::GroupOffsets(absl::Span<const int> dims,
                                absl::Span<int64_t> out) const {
  int64_t n = 1;
  std::vector<bool> used(dims_.size(), false);
  for (int d : dims) {
    HLOLAYOUT_CHECK(d >= 0 && d < rank() && !used[d])
        << "TiledIndexer::GroupOffsets: bad or repeated dim " << d;
    used[d] = true;
    n *= dims_[d];
  }
  HLOLAYOUT_CHECK(static_cast<int64_t>(out.size()) == n)
      << "TiledIndexer::GroupOffsets: " << out.size() << " entries, "
      << "the dims have " << n << " combinations";
  // Each register as an array over the n combinations; empty: all 0 (the
  // dims outside the group, and whatever only they feed).
  std::vector<std::vector<int64_t>> r(kMaxRegisters);
  int64_t inner = 1;
  for (size_t k = dims.size(); k-- > 0;) {
    const int64_t size = dims_[dims[k]];
    for (const Term& t : loads_) {
      if (t.value != dims[k]) continue;
      std::vector<int64_t>& v = r[t.reg];
      v.resize(n);
      // Coordinate of combination c: (c / inner) % size.
      for (int64_t c = 0; c < n;) {
        if (inner == 1) {
          for (int64_t i = 0; i < size; ++i) v[c + i] = i;
          c += size;
          continue;
        }
        for (int64_t i = 0; i < size; ++i) {
          std::fill_n(v.begin() + c, inner, i);
          c += inner;
        }
      }
    }
    inner *= size;
  }
  for (const Op& op : forward_) {
    std::vector<int64_t>& a = r[op.a];
    std::vector<int64_t>& b = r[op.b];
    switch (op.kind) {
      case OpKind::kMulAdd:  // a = a * c + b
        if (a.empty()) {
          a = b;
        } else if (b.empty()) {
          for (int64_t& x : a) x = WrapMul(x, op.c);
        } else {
          for (int64_t i = 0; i < n; ++i) {
            a[i] = WrapAdd(WrapMul(a[i], op.c), b[i]);
          }
        }
        break;
      case OpKind::kMul:
        for (int64_t& x : a) x = WrapMul(x, op.c);
        break;
      case OpKind::kSplit:
      case OpKind::kShift:  // q = a / c; b = a - q * c; a = q
        if (a.empty()) {
          b.clear();
          break;
        }
        b.resize(n);
        if (op.kind == OpKind::kShift) {
          for (int64_t i = 0; i < n; ++i) {
            b[i] = a[i] & (op.c - 1);
            a[i] >>= op.shift;
          }
          break;
        }
        for (int64_t i = 0; i < n; ++i) {
          const int64_t x = a[i];
          const int64_t q = op.div.Divide(x);
          b[i] = WrapSub(x, WrapMul(q, op.c));
          a[i] = q;
        }
        break;
      case OpKind::kCheckLess:
        break;  // not in forward programs
    }
  }
  std::fill(out.begin(), out.end(), 0);
  for (const Term& t : terms_) {
    const std::vector<int64_t>& v = r[t.reg];
    if (v.empty()) continue;
    for (int64_t i = 0; i < n; ++i)
      out[i] = WrapAdd(out[i], WrapMul(v[i], t.value));
  }
}

absl::StatusOr<int64_t> TiledIndexer::TryOffsetInElements(
    absl::Span<const int64_t> index) const {
  absl::Status s = CheckIndexInBounds(dims_, index);
  if (!s.ok()) return s;
  return OffsetInElements(index);
}

absl::StatusOr<BitPosition> TiledIndexer::TryBitPositionOf(
    int64_t offset, PackingOrder order) const {
  if (offset < 0 || offset >= padded_elements_) {
    return absl::OutOfRangeError(
        absl::StrCat("offset ", offset, " is past the end of the buffer (",
                     padded_elements_, " elements)"));
  }
  const __int128 byte = static_cast<__int128>(offset) * element_bits_ / 8;
  if (byte > INT64_MAX) {
    return absl::InvalidArgumentError(
        absl::StrCat("byte offset of element ", offset, " at ", element_bits_,
                     " bits overflows int64"));
  }
  return BitPositionOf(offset, order);
}

void TiledIndexer::OffsetsInElements(absl::Span<const int64_t> indices,
                                     absl::Span<int64_t> offsets) const {
  const size_t rank = dims_.size();
  HLOLAYOUT_CHECK(indices.size() == offsets.size() * rank)
      << "TiledIndexer::OffsetsInElements: " << offsets.size()
      << " offsets need " << offsets.size() * rank << " coordinates, got "
      << indices.size();
  const int64_t* in = indices.data();
  const size_t n = offsets.size();
  if (kernels_.forward_bits() != index_internal::IndexKernels::kNoBits) {
    for (size_t i = 0; i < n; ++i) {
      offsets[i] = kernels_.OffsetByDeposits(in + i * rank);
    }
    return;
  }
  if (kernels_.forward_code() != index_internal::IndexKernels::kNoForward) {
    const auto general = [this](const int64_t* x) { return OffsetGeneral(x); };
    for (size_t i = 0; i < n; ++i) {
      offsets[i] = kernels_.Offset(in + i * rank, general);
    }
    return;
  }
  for (size_t i = 0; i < n; ++i) offsets[i] = OffsetGeneral(in + i * rank);
}

absl::Status TiledIndexer::TryOffsetsInElements(
    absl::Span<const int64_t> indices, absl::Span<int64_t> offsets) const {
  const size_t rank = dims_.size();
  if (indices.size() != offsets.size() * rank) {
    return absl::InvalidArgumentError(absl::StrCat(
        "batch of ", offsets.size(), " offsets needs ", offsets.size() * rank,
        " coordinates, got ", indices.size()));
  }
  for (size_t i = 0; i < offsets.size(); ++i) {
    absl::Status s = CheckIndexInBounds(dims_, indices.subspan(i * rank, rank));
    if (!s.ok()) return s;
  }
  OffsetsInElements(indices, offsets);
  return absl::OkStatus();
}

void TiledIndexer::Digits(int64_t offset, int64_t* r) const {
  const size_t n = digits_.size();
  if (n == 0) return;
  int64_t x = offset;
  for (size_t i = 0; i + 1 < n; ++i) {
    const Digit& d = digits_[i];
    const int64_t q = d.shift >= 0 ? x >> d.shift : d.div.Divide(x);
    r[d.reg] = x - q * d.size;
    x = q;
  }
  r[digits_[n - 1].reg] = x;  // offset < tiled_elements: no division
}

OffsetKind TiledIndexer::ElementAtGeneral(int64_t offset,
                                          absl::Span<int64_t> index) const {
  switch (kernels_.inverse()) {
    case index_internal::IndexKernels::Inverse::kFieldsPext:
      return kernels_.ElementAt(static_cast<uint64_t>(offset), index.data(),
                                [](uint64_t, int64_t*) {  // not reached
                                  return OffsetKind::kTailPadding;
                                });
    case index_internal::IndexKernels::Inverse::kFieldsPortable:
      return kernels_.ElementAtPortable(static_cast<uint64_t>(offset),
                                        index.data());
    case index_internal::IndexKernels::Inverse::kNone:
      break;
  }
  if (unrolled_inverse_ != nullptr) {
    return unrolled_inverse_(*this, offset, index);
  }
  if (linear_inverse_) {
    // Independent shifts and multiply-shifts (no dependent division
    // chain), then fixed linear combinations; one branch for padding.
    uint64_t q[kMaxFast];
    for (int k = 0; k < lin_quotients_; ++k) {
      q[k] = static_cast<uint64_t>(lin_shift_[k] >= 0
                                       ? offset >> lin_shift_[k]
                                       : lin_div_[k].Divide(offset));
    }
    const LinTerm* t = lin_terms_;
    bool padding = false;
    int e = 0;
    for (; e < lin_checks_; ++e) {
      uint64_t v = 0;
      for (const LinTerm* end = lin_terms_ + lin_exprs_[e].end; t < end; ++t) {
        v += q[t->q] * t->weight;
      }
      padding |= static_cast<int64_t>(v) >= lin_exprs_[e].value;
    }
    if (padding) return OffsetKind::kTilePadding;
    for (; e < lin_exprs_count_; ++e) {
      uint64_t v = 0;
      for (const LinTerm* end = lin_terms_ + lin_exprs_[e].end; t < end; ++t) {
        v += q[t->q] * t->weight;
      }
      index[lin_exprs_[e].value] = static_cast<int64_t>(v);
    }
    return OffsetKind::kElement;
  }
  int64_t r[kMaxRegisters];
  Digits(offset, r);
  if (!RunOps(inverse_.data(), inverse_.size(), r)) {
    return OffsetKind::kTilePadding;
  }
  for (const Term& t : stores_) index[t.value] = t.reg < 0 ? 0 : r[t.reg];
  return OffsetKind::kElement;
}

absl::StatusOr<OffsetKind> TiledIndexer::TryElementAtOffsetInElements(
    int64_t offset, absl::Span<int64_t> index) const {
  if (offset < 0 || offset >= padded_elements_) {
    return absl::OutOfRangeError(
        absl::StrCat("offset ", offset, " is past the end of the buffer (",
                     padded_elements_, " elements)"));
  }
  if (index.size() != dims_.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("index has ", index.size(),
                     " coordinates, shape has rank ", dims_.size()));
  }
  return ElementAtOffsetInElements(offset, index);
}

void TiledIndexer::ElementsAtOffsetsInElements(
    absl::Span<const int64_t> offsets, absl::Span<int64_t> indices,
    absl::Span<OffsetKind> kinds) const {
  const size_t rank = dims_.size();
  HLOLAYOUT_CHECK(indices.size() == offsets.size() * rank &&
                  kinds.size() == offsets.size())
      << "TiledIndexer::ElementsAtOffsetsInElements: " << offsets.size()
      << " offsets need " << offsets.size() * rank
      << " coordinates and as many kinds, got " << indices.size() << " and "
      << kinds.size();
  const size_t n = offsets.size();
  const uint64_t tiled = static_cast<uint64_t>(tiled_elements_);
  int64_t* out = indices.data();
  if (kernels_.inverse() ==
      index_internal::IndexKernels::Inverse::kFieldsPext) {
    const auto general = [](uint64_t, int64_t*) {  // not reached
      return OffsetKind::kTailPadding;
    };
    for (size_t i = 0; i < n; ++i) {
      const uint64_t u = static_cast<uint64_t>(offsets[i]);
      kinds[i] = u >= tiled ? OffsetKind::kTailPadding
                            : kernels_.ElementAt(u, out + i * rank, general);
    }
    return;
  }
  for (size_t i = 0; i < n; ++i) {
    kinds[i] = static_cast<uint64_t>(offsets[i]) >= tiled
                   ? OffsetKind::kTailPadding
                   : ElementAtGeneral(offsets[i],
                                      absl::MakeSpan(out + i * rank, rank));
  }
}

namespace {

// Runs a program on registers `r` while following one "hot" register: the
// one that the next element along the walked dimension increments. Splits
// bound how many elements remain before a digit wraps (`*remaining`);
// kCheckLess marks padding. Shared by OffsetRun and ElementRun.
template <typename Op>
inline void RunTrackingRuns(absl::Span<const Op> ops, int64_t* r, int* hot,
                            int64_t* remaining, bool* padding) {
  for (const Op& op : ops) {
    switch (op.kind) {
      case decltype(op.kind)::kMulAdd:
        r[op.a] = r[op.a] * op.c + r[op.b];
        if (op.b == *hot) {
          *hot = op.a;
        } else if (op.a == *hot) {
          *hot = -1;
        }
        break;
      case decltype(op.kind)::kMul:
        r[op.a] *= op.c;
        if (op.a == *hot) *hot = -1;
        break;
      case decltype(op.kind)::kSplit:
      case decltype(op.kind)::kShift: {
        const int64_t v = r[op.a];
        const int64_t q = op.kind == decltype(op.kind)::kShift
                              ? v >> op.shift
                              : op.div.Divide(v);
        r[op.b] = v - q * op.c;
        r[op.a] = q;
        if (op.a == *hot) {
          *remaining = std::min(*remaining, op.c - r[op.b]);
          *hot = op.b;
        }
        break;
      }
      case decltype(op.kind)::kCheckLess:
        if (r[op.a] >= op.c) {
          *padding = true;  // stays padding while the run lasts
        } else if (op.a == *hot) {
          *remaining = std::min(*remaining, op.c - r[op.a]);
        }
        break;
    }
  }
}

}  // namespace

int64_t TiledIndexer::OffsetRun(absl::Span<const int64_t> index,
                                int64_t* stride, int64_t* run) const {
  HLOLAYOUT_CHECK(!dims_.empty() && index.size() == dims_.size())
      << "TiledIndexer::OffsetRun: index has " << index.size()
      << " coordinates, shape has rank " << dims_.size();
  const int64_t last = static_cast<int64_t>(dims_.size()) - 1;
  int64_t remaining = dims_[last] - index[last];
  int64_t r[kMaxRegisters];
  for (const Term& t : loads_) r[t.reg] = index[t.value];
  int hot = last_dim_reg_;
  bool padding = false;  // forward programs have no kCheckLess
  RunTrackingRuns(absl::MakeConstSpan(forward_), r, &hot, &remaining, &padding);
  int64_t offset = 0;
  for (const Term& t : terms_) offset += r[t.reg] * t.value;
  *stride = hot >= 0 ? reg_stride_[hot] : 0;
  *run = hot >= 0 ? remaining : 1;
  return offset;
}

OffsetKind TiledIndexer::ElementRun(int64_t offset, absl::Span<int64_t> index,
                                    int64_t* dim, int64_t* run) const {
  HLOLAYOUT_CHECK(index.size() == dims_.size())
      << "TiledIndexer::ElementRun: index has " << index.size()
      << " coordinates, shape has rank " << dims_.size();
  *dim = -1;
  if (offset >= tiled_elements_) {
    *run = padded_elements_ - offset;
    return OffsetKind::kTailPadding;
  }
  int64_t r[kMaxRegisters];
  Digits(offset, r);
  int hot = -1;
  int64_t remaining = 1;
  if (!digits_.empty()) {
    hot = digits_[0].reg;
    remaining = digits_[0].size - r[hot];
  }
  bool padding = false;
  RunTrackingRuns(absl::MakeConstSpan(inverse_), r, &hot, &remaining, &padding);
  if (hot < 0) remaining = 1;
  if (padding) {
    *run = remaining;
    return OffsetKind::kTilePadding;
  }
  for (const Term& t : stores_) index[t.value] = t.reg < 0 ? 0 : r[t.reg];
  *dim = hot >= 0 ? reg_dim_[hot] : -1;
  *run = *dim >= 0 ? remaining : 1;
  return OffsetKind::kElement;
}

}  // namespace hlolayout
