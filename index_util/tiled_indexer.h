// index_util/tiled_indexer.h: the exact tiled linear index and its inverse,
// precomputed once per shape. Every offset here counts elements (E(n)
// packing and byte widths do not enter); BitPositionOf turns one into a
// byte and bit.
//
//   absl::StatusOr<TiledIndexer> ix =
//       TiledIndexer::Create(*ParseShape("f32[3,5]{1,0:T(2,2)}"));
//   ix->OffsetInElements({2, 3}) == 17
//   int64_t idx[2];
//   ix->ElementAtOffsetInElements(17, absl::MakeSpan(idx))
//       == OffsetKind::kElement   // {2,3}
//   ix->ElementAtOffsetInElements(9, absl::MakeSpan(idx))
//       == OffsetKind::kTilePadding
//
// Create specialises the indexer to the layout (index_util/index_kernels.h):
//   - forward, when every tile is a power of two (TPU tilings such as
//     T(8,128)(2,1)): offset = sum_k (index[d_k] & mask_k) * weight_k, one
//     straight-line block inlined at the call, entered at the right term;
//   - inverse, when no `*` mixes coordinates: the offset's power-of-two
//     digits are bit fields (one x86 BMI2 bit extract per coordinate, or a
//     portable loop), the digits above them one multiply-high each, then one
//     comparison per coordinate whose tiles overhang the array;
// and keeps general paths for the rest: a straight loop of splits (tiles
// of any size), the inverse as independent quotients, and for `*` an
// interpreter of the tiling chain of layout/tiling.h compiled into a short
// program over a register file (combine is a multiply-add, a split a
// FastDivisor multiply-shift; splits that cannot happen for in-bounds
// indices are dropped). No path allocates or divides by a runtime divisor.
// Results equal ReferenceOffset / ReferenceElementAt
// (layout/reference_index.h) exactly; the exhaustive tests check every path
// against it and the specialised paths against the interpreter.
//
// Cost per call on the shared 2-core build machine (docs/indexing.md,
// bench/index_vs_closed_form.cc): 2 to 4 ns on the specialised paths, about
// 2x a closed form written by hand for the shape (1.1x to 1.9x its
// instructions); 10 to 20 ns on the general ones; Create about 25 us for
// the design card's shape (build it once per shape).
//
// The unchecked entry points (OffsetInElements, ElementAtOffsetInElements,
// and their batched forms) have preconditions; the Try* ones check them and
// return a Status. Span sizes are CHECKed everywhere (a wrong size aborts
// with a message naming the function, never reads or writes past a span):
// the calling program's bug, not bad input. Index and offset values are not
// checked by the unchecked entry points; what each does with a wrong value
// is stated.
#ifndef HLOLAYOUT_INDEX_UTIL_TILED_INDEXER_H_
#define HLOLAYOUT_INDEX_UTIL_TILED_INDEXER_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "absl/base/attributes.h"
#include "absl/base/optimization.h"
#include "absl/container/inlined_vector.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "hlolayout/index_util/fast_divisor.h"
#include "hlolayout/index_util/index_kernels.h"
#include "hlolayout/layout/offset_kind.h"
#include "hlolayout/layout/packing.h"
#include "hlolayout/layout/tiling.h"
#include "hlolayout/shape/shape.h"
#include "hlolayout/util/check.h"

namespace hlolayout {

// Where an element's bits start, for packed (E(n)) and unpacked types.
struct BitPosition {
  int64_t bit_offset = 0;  // offset * element_bits; -1 if past int64
  int64_t byte = 0;        // offset * element_bits / 8
  int bit = 0;             // bit_offset % 8: position in the packed bit
                           // stream
  // Where the element's least significant bit sits in its byte, counted
  // from the byte's least significant bit, for the packing order asked
  // (layout/packing.h): `bit` for low-first (today's XLA, the default),
  // 8 - element_bits - bit for high-first. 0 for whole-byte elements.
  int shift = 0;
};

class TiledIndexer {
 public:
  // Registers available to a compiled program: rank plus the number of
  // splits that survive folding must fit. Create fails beyond it.
  static constexpr int kMaxRegisters = 64;

  // How Create compiles. The defaults give the fastest paths; the others
  // are for tests and benchmarks that compare the paths with each other.
  struct Options {
    // false: no specialised or fast path, only the general interpreter.
    bool specialize = true;
    // false: never the BMI2 bit extract (the portable bit-field loop).
    bool allow_bmi2 = true;
  };

  // Create
  //
  // Errors as BuildTilingModel (not an array, bad layout, overflow), or
  // "shape needs N registers, the indexer has 64" for extreme ranks.
  static absl::StatusOr<TiledIndexer> Create(const Shape& array_shape);
  static absl::StatusOr<TiledIndexer> Create(const Shape& array_shape,
                                             const Options& options);
  static absl::StatusOr<TiledIndexer> Create(const TilingModel& model);
  static absl::StatusOr<TiledIndexer> Create(const TilingModel& model,
                                             const Options& options);

  int64_t rank() const { return static_cast<int64_t>(dims_.size()); }
  absl::Span<const int64_t> dimensions() const { return dims_; }
  int64_t logical_elements() const { return logical_elements_; }
  int64_t tiled_elements() const { return tiled_elements_; }
  int64_t padded_elements() const { return padded_elements_; }
  int64_t element_bits() const { return element_bits_; }

  // OffsetInElements
  //
  // f32[3,5]{1,0:T(2,2)}: {2,3} -> 17 (elements from the buffer's start).
  // @pre 0 <= index[i] < dimensions()[i]. Any other values give a wrong
  //      offset, never undefined behaviour: the arithmetic wraps (two's
  //      complement) instead of overflowing. CHECKs index.size() == rank().
  // @post ElementAtOffsetInElements(result) == kElement with the same index.
  ABSL_ATTRIBUTE_ALWAYS_INLINE int64_t
  OffsetInElements(absl::Span<const int64_t> index) const {
    if (ABSL_PREDICT_FALSE(index.size() != rank_)) {
      WrongIndexSize("OffsetInElements", index.size());
    }
    if (ABSL_PREDICT_TRUE(kernels_.forward_bits() !=
                          index_internal::IndexKernels::kNoBits)) {
      return kernels_.OffsetByDeposits(index.data());
    }
    return kernels_.Offset(
        index.data(), [this](const int64_t* x) { return OffsetGeneral(x); });
  }
  // Checks rank and bounds first (messages as ReferenceOffset).
  absl::StatusOr<int64_t> TryOffsetInElements(
      absl::Span<const int64_t> index) const;

  // OffsetsInElements
  //
  // Batched: `indices` holds offsets.size() multi-indices back to back
  // (rank() entries each). CHECKs indices.size() == offsets.size() *
  // rank(); out-of-bounds indices give wrong offsets, as OffsetInElements.
  void OffsetsInElements(absl::Span<const int64_t> indices,
                         absl::Span<int64_t> offsets) const;
  absl::Status TryOffsetsInElements(absl::Span<const int64_t> indices,
                                    absl::Span<int64_t> offsets) const;

  // ElementAtOffsetInElements
  //
  // The inverse: writes the multi-index held at `offset` (in elements) into
  // `index` and returns kElement, or returns kTilePadding / kTailPadding
  // (and leaves `index` unspecified).
  // @pre 0 <= offset < padded_elements(); any other offset (negative
  //      included) gives kTailPadding. CHECKs index.size() == rank().
  ABSL_ATTRIBUTE_ALWAYS_INLINE OffsetKind
  ElementAtOffsetInElements(int64_t offset, absl::Span<int64_t> index) const {
    if (ABSL_PREDICT_FALSE(index.size() != rank_)) {
      WrongIndexSize("ElementAtOffsetInElements", index.size());
    }
    // Unsigned: a negative offset is huge and lands here too.
    if (static_cast<uint64_t>(offset) >=
        static_cast<uint64_t>(tiled_elements_)) {
      return OffsetKind::kTailPadding;
    }
    return kernels_.ElementAt(static_cast<uint64_t>(offset), index.data(),
                              [this](uint64_t u, int64_t* x) {
                                return ElementAtGeneral(
                                    static_cast<int64_t>(u),
                                    absl::MakeSpan(x, rank_));
                              });
  }
  // Errors: offset out of range (message as ReferenceElementAt), wrong span
  // size.
  absl::StatusOr<OffsetKind> TryElementAtOffsetInElements(
      int64_t offset, absl::Span<int64_t> index) const;

  // ElementsAtOffsetsInElements
  //
  // Batched inverse. CHECKs indices.size() == offsets.size() * rank() and
  // kinds.size() == offsets.size(); offsets outside [0, padded_elements())
  // give kTailPadding, as ElementAtOffsetInElements.
  void ElementsAtOffsetsInElements(absl::Span<const int64_t> offsets,
                                   absl::Span<int64_t> indices,
                                   absl::Span<OffsetKind> kinds) const;

  // The names before units were spelled out (0.3.0); the same calls.
  [[deprecated("use OffsetInElements")]] int64_t Offset(
      absl::Span<const int64_t> index) const {
    return OffsetInElements(index);
  }
  [[deprecated("use TryOffsetInElements")]] absl::StatusOr<int64_t> TryOffset(
      absl::Span<const int64_t> index) const {
    return TryOffsetInElements(index);
  }
  [[deprecated("use OffsetsInElements")]] void Offsets(
      absl::Span<const int64_t> indices, absl::Span<int64_t> offsets) const {
    OffsetsInElements(indices, offsets);
  }
  [[deprecated("use TryOffsetsInElements")]] absl::Status TryOffsets(
      absl::Span<const int64_t> indices, absl::Span<int64_t> offsets) const {
    return TryOffsetsInElements(indices, offsets);
  }
  [[deprecated("use ElementAtOffsetInElements")]] OffsetKind ElementAt(
      int64_t offset, absl::Span<int64_t> index) const {
    return ElementAtOffsetInElements(offset, index);
  }
  [[deprecated("use TryElementAtOffsetInElements")]] absl::StatusOr<OffsetKind>
  TryElementAt(int64_t offset, absl::Span<int64_t> index) const {
    return TryElementAtOffsetInElements(offset, index);
  }
  [[deprecated("use ElementsAtOffsetsInElements")]] void ElementsAt(
      absl::Span<const int64_t> offsets, absl::Span<int64_t> indices,
      absl::Span<OffsetKind> kinds) const {
    ElementsAtOffsetsInElements(offsets, indices, kinds);
  }

  // BitPositionOf
  //
  // s4[8]{0:E(4)}: offset 3 -> bit 12, byte 1, bit 4, shift 4 (low-first:
  // the high nibble of byte 1; high-first: shift 0, the low nibble).
  // Unpacked types use 8 * ByteWidth bits per element (s4[8]{0}: offset 3
  // -> byte 3, shift 0). relayout/relayout.h packs with the same order.
  // Computed in 128 bits: the byte is exact whenever it fits in int64;
  // bit_offset is -1 when only the bit count does not fit (an unpacked
  // f32 past 2^60 elements). Errors: "byte offset ... overflows int64"
  // (f32[4611686018427387904] at offset 2^62), offset outside the buffer.
  absl::StatusOr<BitPosition> TryBitPositionOf(
      int64_t offset, PackingOrder order = PackingOrder::kLowFirst) const;
  // The same without the checks. @pre 0 <= offset < padded_elements() and
  // the byte offset fits in int64 (else a wrong position, never undefined
  // behaviour).
  BitPosition BitPositionOf(
      int64_t offset, PackingOrder order = PackingOrder::kLowFirst) const {
    const __int128 bits = static_cast<__int128>(offset) * element_bits_;
    BitPosition p;
    p.byte = static_cast<int64_t>(bits >> 3);
    p.bit = static_cast<int>(bits & 7);
    p.bit_offset =
        bits <= INT64_MAX && bits >= 0 ? static_cast<int64_t>(bits) : -1;
    if (element_bits_ < 8) {
      p.shift = PackedShift(p.bit, static_cast<int>(element_bits_), order);
    }
    return p;
  }

  // DimOffsets
  //
  // The offset of every index that is 0 outside dimension `dim`:
  // out[i] = OffsetInElements(index with index[dim] = i, every other
  // coordinate 0), for
  // i in [0, dimensions()[dim]). f32[3,5]{1,0:T(2,2)}, dim 1: {0, 1, 4, 5, 8}.
  // When no `*` mixes coordinates (the program is tile splits only) the
  // table is assembled from the splits' own tables, a few additions per
  // entry and no division; otherwise as GroupOffsets. For plans that
  // tabulate each dimension (relayout/relayout.h).
  // CHECKs 0 <= dim < rank() and out.size() == dimensions()[dim].
  void DimOffsets(int64_t dim, absl::Span<int64_t> out) const;

  // GroupOffsets
  //
  // The same for several dimensions at once: the offset of every index that
  // is 0 outside `dims`, those coordinates enumerated row-major (dims.back()
  // fastest), so out has the product of their sizes entries. f32[3,5]{1,0:
  // T(2,2)}, dims {0, 1}: every offset in index order. The program runs once
  // on whole arrays of coordinates (one vector operation per `*` or split),
  // not once per entry: for tabulating dimensions that a `*` merges.
  // CHECKs that `dims` are distinct and in range and out.size() is the
  // product.
  void GroupOffsets(absl::Span<const int> dims, absl::Span<int64_t> out) const;

  // OffsetRun
  //
  // OffsetInElements(index), plus the run along the last logical dimension
  // that starts there: for i in [0, *run), the index with index[rank-1] + i
  // is at offset + i * *stride. For walkers; *run >= 1.
  // @pre index in bounds (else undefined: use TryOffsetInElements to
  //      check). CHECKs
  //      rank() >= 1 and index.size() == rank().
  int64_t OffsetRun(absl::Span<const int64_t> index, int64_t* stride,
                    int64_t* run) const;

  // ElementRun
  //
  // ElementAtOffsetInElements(offset, index), plus the run of offsets that
  // starts there: offsets offset + i for i in [0, *run) all have the
  // returned kind, and when it is kElement they hold `index` with
  // index[*dim] + i.
  // @pre 0 <= offset < padded_elements() (else undefined: use
  //      TryElementAtOffsetInElements to check). CHECKs index.size() ==
  //      rank().
  OffsetKind ElementRun(int64_t offset, absl::Span<int64_t> index, int64_t* dim,
                        int64_t* run) const;

  // True when OffsetInElements(index) = A(index[0..rank-2]) +
  // B(index[rank-1]): no
  // `*` mixes the last dimension with another. Walkers then compute the
  // runs of one row and reuse them for every row.
  bool last_dim_separable() const { return last_dim_separable_; }

  // Number of operations in the compiled forward / inverse programs, for
  // tests and curiosity.
  int forward_op_count() const { return static_cast<int>(forward_.size()); }
  int inverse_op_count() const { return static_cast<int>(inverse_.size()); }

  // True when OffsetInElements / ElementAtOffsetInElements can take the
  // straight-line paths below rather than the op interpreter (layouts
  // without a `*` that mixes coordinates, and small enough programs). For
  // tests.
  bool has_split_only_forward() const { return split_only_forward_; }
  bool has_linear_inverse() const { return linear_inverse_; }
  bool has_unrolled_inverse() const { return unrolled_inverse_ != nullptr; }

  // Which path each direction takes, in words: "masked terms" or "masked
  // and multiply-high terms" (the specialised forward), "split loop",
  // "interpreter"; "bit fields (BMI2)"
  // and "bit fields (portable)" (the specialised inverse), "unrolled
  // digits", "linear digits", "interpreter". For tests and benchmarks.
  const char* forward_path() const;
  const char* inverse_path() const;

 private:
  enum class OpKind : uint8_t {
    kMulAdd,    // r[a] = r[a] * c + r[b]
    kMul,       // r[a] = r[a] * c
    kSplit,     // q = r[a] / div; r[b] = r[a] - q * c; r[a] = q
    kShift,     // r[b] = r[a] & (c - 1); r[a] >>= shift   (c = 2^shift)
    kCheckLess  // padding if r[a] >= c
  };
  struct Op {
    OpKind kind;
    uint8_t a;
    uint8_t b;
    uint8_t shift;
    int64_t c;
    FastDivisor div;
  };
  struct Term {  // offset += r[reg] * stride, or index[dim] = r[reg]
    int reg;
    int64_t value;
  };

  TiledIndexer() = default;

  // A span of the wrong size: aborts naming `function`.
  [[noreturn]] ABSL_ATTRIBUTE_NOINLINE void WrongIndexSize(const char* function,
                                                           size_t size) const;
  // OffsetInElements without the specialised form.
  int64_t OffsetGeneral(const int64_t* index) const;
  // ElementAtOffsetInElements without the inline specialised form.
  // @pre offset < tiled_elements_.
  OffsetKind ElementAtGeneral(int64_t offset, absl::Span<int64_t> index) const;
  index_internal::IndexKernels kernels_;

  std::vector<int64_t> dims_;
  size_t rank_ = 0;  // dims_.size()
  int64_t logical_elements_ = 0;
  int64_t tiled_elements_ = 0;
  int64_t padded_elements_ = 0;
  int64_t element_bits_ = 0;
  // Forward: load index[value] into reg, run forward_, sum terms.
  absl::InlinedVector<Term, 8> loads_;
  absl::InlinedVector<Op, 8> forward_;
  absl::InlinedVector<Term, 12> terms_;
  // Inverse: delinearize the offset into registers (digits_, minor first,
  // see Digits), run inverse_, then index[value] = r[reg] for each store
  // (-1 reg: index 0).
  struct Digit {
    int reg;
    FastDivisor div;  // by this final dim's size
    int64_t size;     // this final dim
    int shift;        // log2(size) when a power of two, else -1
  };
  void Digits(int64_t offset, int64_t* r) const;
  absl::InlinedVector<Digit, 12> digits_;
  absl::InlinedVector<Op, 12> inverse_;
  absl::InlinedVector<Term, 8> stores_;
  // For the run queries: register of the last logical dim's coordinate in
  // the forward program (-1: none), the stride of each register's final
  // coordinate, the logical dim each inverse register is stored to.
  // Straight-line forward path, taken when forward_ holds only splits
  // (no `*` combine): for each split, q = x >> shift or a multiply-shift,
  // then r[b] = x - q * c, r[a] = q; no op dispatch.
  static constexpr int kMaxFast = 24;
  struct SplitStep {
    uint8_t a;
    uint8_t b;
    int8_t shift;  // log2(c) when c is a power of two, else -1
    int64_t c;
    FastDivisor div;
  };
  bool split_only_forward_ = false;
  int num_splits_ = 0;
  int num_loads_ = 0;
  int num_terms_ = 0;
  SplitStep splits_[kMaxFast];
  Term fast_loads_[kMaxFast];
  Term fast_terms_[kMaxFast];
  // Linear inverse path, taken when inverse_ holds no split (no `*`):
  // with the final digits d_0 (most minor) .. d_{n-1} and P_k the product
  // of the sizes of d_0..d_{k-1}, the quotients q_k = offset / P_k are
  // independent shifts or multiply-shifts of the offset, and since
  // d_k = q_k - size_k * q_{k+1}, every padding check and every logical
  // coordinate is a fixed linear combination of the q_k (computed modulo
  // 2^64: exact, since the true value fits).
  struct LinTerm {
    int32_t q;        // which quotient
    uint64_t weight;  // two's complement coefficient
  };
  struct LinExpr {
    int32_t end;    // terms [previous end, end)
    int64_t value;  // check: bound (padding if sum >= bound); store: dim
  };
  bool linear_inverse_ = false;
  int lin_quotients_ = 0;          // q_0 .. q_{n-1}
  FastDivisor lin_div_[kMaxFast];  // lin_div_[k] divides by P_k
  int8_t lin_shift_[kMaxFast];     // log2(P_k) when a power of two, else -1
  int lin_checks_ = 0;
  LinTerm lin_terms_[4 * kMaxFast];
  LinExpr lin_exprs_[2 * kMaxFast];  // checks, then one store per dim
  int lin_exprs_count_ = 0;
  // Unrolled form of the same, when every digit feeds at most one logical
  // coordinate (no `*`) and there are at most kMaxUnrolled digits and
  // kMaxChecks checks. Check c is sum_k digit_k * lin_check_w_[c][k] <
  // lin_check_bound_[c]. The coordinates are segmented sums: the digits
  // are visited in lin_perm_ order, grouped by coordinate; step j adds
  // digit lin_perm_[j] times lin_weight_[j] to a running sum, stores the
  // sum to index[lin_target_[j]] (the group's last store wins) and keeps
  // the sum (lin_keep_[j] all ones) or restarts at 0 for the next group.
  // Coordinates no digit feeds are in lin_zero_dims_. The function is
  // instantiated per digit count.
  static constexpr int kMaxUnrolled = 12;
  static constexpr int kMaxChecks = 4;
  using InverseFn = OffsetKind (*)(const TiledIndexer&, int64_t,
                                   absl::Span<int64_t>);
  template <int N>
  static OffsetKind UnrolledElementAt(const TiledIndexer& ix, int64_t offset,
                                      absl::Span<int64_t> index);
  InverseFn unrolled_inverse_ = nullptr;
  int64_t lin_size_[kMaxUnrolled];
  int32_t lin_perm_[kMaxUnrolled];
  int32_t lin_target_[kMaxUnrolled];
  int64_t lin_weight_[kMaxUnrolled];
  int64_t lin_keep_[kMaxUnrolled];
  int64_t lin_check_w_[kMaxChecks][kMaxUnrolled];
  int64_t lin_check_bound_[kMaxChecks];
  int lin_unrolled_checks_ = 0;  // the checks above
  // Checks equal to a coordinate: padding if index[dim] >= bound, tested
  // after the coordinates are stored.
  int lin_post_checks_ = 0;
  int32_t lin_post_dim_[kMaxChecks];
  int64_t lin_post_bound_[kMaxChecks];
  absl::InlinedVector<int32_t, 4> lin_zero_dims_;
  void CompileFastPaths(const Options& options);
  // CompileFastPaths' steps: the specialised forms of
  // index_util/index_kernels.h when they apply (forward; inverse from the
  // digit combinations); the straight-line forward path; the inverse
  // program as linear combinations of the digits, `exprs` (the checks with
  // their bounds, then the stores with their dims), false when it has a
  // split or too many; the linear inverse from them (false when it needs
  // too many terms); its unrolled form when it applies.
  using DigitCombinations =
      std::vector<std::pair<std::vector<int64_t>, int64_t>>;
  void CompileSplitOnlyForward();
  bool InverseAsDigitCombinations(DigitCombinations* exprs);
  void CompileForwardKernel();
  void CompileInverseKernel(const DigitCombinations& exprs,
                            const Options& options);
  bool CompileLinearInverse(const DigitCombinations& exprs);
  void CompileUnrolledInverse(const DigitCombinations& exprs);

  // Create's steps: an op (a split by a power of two becomes a shift); the
  // forward program (logical index -> offset) and whether the last dim is
  // separable; the inverse program (offset -> logical index or padding).
  static Op MakeOp(OpKind kind, int a, int b, int64_t c);
  absl::Status CompileForward(const TilingModel& m);
  void FindWhetherLastDimSeparable();
  absl::Status CompileInverse(const TilingModel& m);

  int last_dim_reg_ = -1;
  bool last_dim_separable_ = true;
  int64_t reg_stride_[kMaxRegisters] = {};
  int64_t reg_dim_[kMaxRegisters] = {};
};

}  // namespace hlolayout

#endif  // HLOLAYOUT_INDEX_UTIL_TILED_INDEXER_H_
