// triton/linear_layout.h: Triton's LinearLayout, a map over F2 from hardware
// bits to tensor coordinates (docs/triton.md, "The data model").
//
// A layout has ordered named in-dims (for registers: register, lane, warp,
// block; for shared memory: offset, block) and ordered named out-dims
// (dim0, dim1, ...) whose sizes are powers of two. Each in-dim of size 2^k
// has k bases, bases[i] = L(in = 2^i), one value per out-dim; L of any input
// is the XOR of the bases of its set bits.
//
//   LinearLayout l = *LinearLayout::Create(
//       {{"register", {{0, 1}, {1, 0}}}, {"lane", {{2, 0}}}},
//       {{"dim0", 4}, {"dim1", 2}}, /*require_surjective=*/true);
//   *l.Apply({{"register", 3}, {"lane", 1}}) == {{"dim0", 3}, {"dim1", 1}}
//   l.ToString() == "\n - register=1 -> (0, 1)\n   register=2 -> (1, 0)\n"
//                   " - lane=1 -> (2, 0)\n"
//                   "where out dims are: [dim0 (size 4), dim1 (size 2)]"
//
// Everything follows Triton 3.6.0 (lib/Tools/LinearLayout.cpp), refusals
// included: where Triton aborts the process (an assertion or
// report_fatal_error), these functions return an InvalidArgument status
// whose message is Triton's reason. Order is meaning: the in-dim and out-dim
// orders take part in equality, printing, reshapes and products.
//
// Limits: at most 64 input bits and 64 output bits in total (Triton's
// "LinearLayout too large"), at most 30 bits per in-dim (Triton's int32
// arithmetic breaks past that), basis values are int32.
// The operations on layouts are in triton/ops.h, the printed views in
// triton/views.h.
#ifndef HLOLAYOUT_TRITON_LINEAR_LAYOUT_H_
#define HLOLAYOUT_TRITON_LINEAR_LAYOUT_H_

#include <atomic>
#include <cstdint>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace hlolayout::triton {

// One in-dim's bases in order, each with one value per out-dim.
using DimBases = std::vector<std::vector<int32_t>>;
// (in-dim name, its bases), in in-dim order.
using NamedBases = std::vector<std::pair<std::string, DimBases>>;
// (name, size) pairs: out-dims with their sizes, or inputs and outputs of
// Apply.
using NamedInts = std::vector<std::pair<std::string, int32_t>>;

inline constexpr int kMaxTotalBits = 64;
inline constexpr int kMaxInDimBits = 30;

class LinearLayout {
 public:
  // The empty layout: no in-dims, no out-dims (Triton's empty(); the
  // identity of the product).
  LinearLayout();
  static LinearLayout Empty() { return LinearLayout(); }

  // Create
  //
  // Triton's LinearLayout(bases, outDims, requireSurjective): explicit
  // out-dim sizes. Checks, in Triton's order and with its messages: no
  // negative basis value, every basis has one value per out-dim, sizes are
  // powers of two, every value is below its out-dim size, the size limits,
  // and surjectivity when required. A repeated in-dim (out-dim) name keeps
  // the first position and the last bases (size), as Triton's MapVector.
  static absl::StatusOr<LinearLayout> Create(NamedBases bases,
                                             NamedInts out_dims,
                                             bool require_surjective);

  // CreateInferred
  //
  // Triton's names-only constructor: each out-dim size is the largest over
  // the bases of the power of two strictly greater than the value (0 -> 1,
  // 4 -> 8), and the layout must be surjective.
  static absl::StatusOr<LinearLayout> CreateInferred(
      NamedBases bases, absl::Span<const std::string> out_dim_names);

  // Identity1D, Strided1D, Zeros1D
  //
  // Triton's factories. Strided1D(size, stride): bases i*stride for
  // i = 1, 2, 4, ... < size, out size stride*size, surjective when
  // stride == 1. Zeros1D: all-zero bases, out size `out_size`. Size 0 gives
  // the empty layout; size must be a power of two (else an error).
  static absl::StatusOr<LinearLayout> Identity1D(int32_t size,
                                                 absl::string_view in_dim,
                                                 absl::string_view out_dim);
  static absl::StatusOr<LinearLayout> Strided1D(int32_t size, int32_t stride,
                                                absl::string_view in_dim,
                                                absl::string_view out_dim);
  static absl::StatusOr<LinearLayout> Zeros1D(int32_t size,
                                              absl::string_view in_dim,
                                              absl::string_view out_dim,
                                              int32_t out_size = 1);

  // FromFlat
  //
  // A layout from bases stored flat: in-dim d's basis i is the
  // num_out_dims() values at flat[(offset(d) + i) * num_out_dims()].
  // Checks as Create.
  static absl::StatusOr<LinearLayout> FromFlat(
      std::vector<std::string> in_names, absl::Span<const int> in_log2,
      absl::Span<const int32_t> flat, NamedInts out_dims,
      bool require_surjective);

  // FromFlatTrusted
  //
  // FromFlat without the checks, for the operations of triton/ops.h whose
  // results are valid by construction (Triton's surjectivity requirements
  // there can never fail: products, compositions, reshapes and transposes
  // of layouts keep their rank). Precondition: FromFlat(same arguments,
  // require_surjective = false) would succeed.
  static LinearLayout FromFlatTrusted(std::vector<std::string> in_names,
                                      absl::Span<const int> in_log2,
                                      absl::Span<const int32_t> flat,
                                      NamedInts out_dims);

  // In-dims.
  int num_in_dims() const { return static_cast<int>(in_names_.size()); }
  const std::string& in_dim_name(int d) const { return in_names_[d]; }
  const std::vector<std::string>& in_dim_names() const { return in_names_; }
  // The index of an in-dim, or -1.
  int InDimIndex(absl::string_view name) const;
  bool HasInDim(absl::string_view name) const { return InDimIndex(name) >= 0; }
  int InDimSizeLog2(int d) const { return in_log2_[d]; }
  int32_t InDimSize(int d) const { return int32_t{1} << in_log2_[d]; }
  int TotalInDimSizeLog2() const { return total_in_log2_; }
  int64_t TotalInDimSize() const { return int64_t{1} << total_in_log2_; }

  // Out-dims.
  int num_out_dims() const { return static_cast<int>(out_dims_.size()); }
  const NamedInts& out_dims() const { return out_dims_; }
  const std::string& out_dim_name(int o) const { return out_dims_[o].first; }
  std::vector<std::string> OutDimNames() const;
  int OutDimIndex(absl::string_view name) const;
  bool HasOutDim(absl::string_view name) const {
    return OutDimIndex(name) >= 0;
  }
  int32_t OutDimSize(int o) const { return out_dims_[o].second; }
  int OutDimSizeLog2(int o) const { return out_log2_[o]; }
  int TotalOutDimSizeLog2() const { return total_out_log2_; }
  int64_t TotalOutDimSize() const { return int64_t{1} << total_out_log2_; }

  // Bases.
  // Basis i of in-dim d: one value per out-dim.
  absl::Span<const int32_t> Basis(int d, int i) const {
    return absl::MakeConstSpan(flat_).subspan(
        static_cast<size_t>(in_offset_[d] + i) * out_dims_.size(),
        out_dims_.size());
  }
  int32_t BasisValue(int d, int i, int o) const {
    return flat_[static_cast<size_t>(in_offset_[d] + i) * out_dims_.size() + o];
  }
  // The first basis index of in-dim d in the flat storage.
  int InDimOffset(int d) const { return in_offset_[d]; }
  absl::Span<const int32_t> flat_bases() const { return flat_; }
  absl::Span<const int> in_dim_log2() const { return in_log2_; }
  // All bases as (in-dim, bases) pairs (Python's `bases`).
  NamedBases bases() const;

  // Rank and properties (Triton's isSurjective/isInjective/isInvertible).
  // The rank is computed on first use and cached (thread-safe).
  int rank() const;
  bool IsSurjective() const { return rank() == total_out_log2_; }
  bool IsInjective() const { return rank() == total_in_log2_; }
  bool IsInvertible() const {
    return total_in_log2_ == total_out_log2_ && IsSurjective();
  }

  LinearLayout(const LinearLayout& other) { *this = other; }
  LinearLayout(LinearLayout&& other) noexcept { *this = std::move(other); }
  LinearLayout& operator=(const LinearLayout& other);
  LinearLayout& operator=(LinearLayout&& other) noexcept;

  // Apply
  //
  // L(ins) for the (in-dim, value) pairs `ins`, which must name every
  // in-dim (in any order; Triton's message otherwise). Bits above an
  // in-dim's size are ignored. Returns one (out-dim, value) pair per out-dim
  // in order.
  absl::StatusOr<NamedInts> Apply(
      absl::Span<const std::pair<std::string, int32_t>> ins) const;

  // ApplyIndexed
  //
  // L for one value per in-dim in in-dim order (precondition: ins.size() ==
  // num_in_dims()); writes one value per out-dim to `out`.
  void ApplyIndexed(absl::Span<const int32_t> ins,
                    absl::Span<int32_t> out) const;

  // Matrix
  //
  // Triton's getMatrix: one row per output bit (out-dims in order, low bit
  // first), column c is the c-th input bit (in-dims in order, low bit
  // first) in bit c of the row.
  std::vector<uint64_t> Matrix() const;

  // ToString
  //
  // Byte-identical to Triton's toString().
  std::string ToString() const;

  friend bool operator==(const LinearLayout& a, const LinearLayout& b) {
    return a.in_names_ == b.in_names_ && a.in_log2_ == b.in_log2_ &&
           a.out_dims_ == b.out_dims_ && a.flat_ == b.flat_;
  }
  friend bool operator!=(const LinearLayout& a, const LinearLayout& b) {
    return !(a == b);
  }
  template <typename H>
  friend H AbslHashValue(H h, const LinearLayout& l) {
    return H::combine(std::move(h), l.in_names_,
                      absl::MakeConstSpan(l.in_log2_), l.out_dims_,
                      absl::MakeConstSpan(l.flat_));
  }

 private:
  void Finish();  // fills the derived fields

  std::vector<std::string> in_names_;
  absl::InlinedVector<int, 4> in_log2_;
  absl::InlinedVector<int, 4> in_offset_;
  NamedInts out_dims_;
  absl::InlinedVector<int, 4> out_log2_;
  absl::InlinedVector<int32_t, 32> flat_;
  int total_in_log2_ = 0;
  int total_out_log2_ = 0;
  mutable std::atomic<int> rank_{-1};  // -1: not computed yet
};

// Prints ToString() (also what gtest shows for a layout).
inline std::ostream& operator<<(std::ostream& os, const LinearLayout& l) {
  return os << l.ToString();
}

// FormatBases
//
// Triton's toString for bases that may not form a valid layout (ragged or
// out of range), as quoted in Triton's construction errors.
std::string FormatBases(const NamedBases& bases, const NamedInts& out_dims);

// DimsMismatchError
//
// Triton's "Dimensions must match, ignoring order, but they don't." error
// for two lists of names.
absl::Status DimsMismatchError(absl::Span<const std::string> a,
                               absl::Span<const std::string> b);

// SameDimsIgnoringOrder
//
// Whether two name lists hold the same set of names.
bool SameDimsIgnoringOrder(absl::Span<const std::string> a,
                           absl::Span<const std::string> b);

}  // namespace hlolayout::triton

#endif  // HLOLAYOUT_TRITON_LINEAR_LAYOUT_H_
