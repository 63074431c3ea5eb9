#include "hlolayout/triton/ops.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "hlolayout/triton/f2.h"
#include "hlolayout/util/status_macros.h"

namespace hlolayout::triton {
namespace {

absl::Status Error(absl::string_view message) {
  return absl::InvalidArgumentError(message);
}

bool Contains(absl::Span<const std::string> v, absl::string_view s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

bool IsPowerOf2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

int Log2(int64_t v) { return 63 - __builtin_clzll(static_cast<uint64_t>(v)); }

absl::Status SubsetError(absl::Span<const std::string> small,
                         absl::Span<const std::string> big) {
  return Error(absl::StrCat(
      "Dimensions must be a subset, ignoring order, but they aren't.  Got "
      "dims: [",
      absl::StrJoin(small, ", "), "] and [", absl::StrJoin(big, ", "), "]"));
}

bool IsSubset(absl::Span<const std::string> small,
              absl::Span<const std::string> big) {
  for (const auto& s : small) {
    if (!Contains(big, s)) return false;
  }
  return true;
}

// An out size from its log2, refusing what int32 cannot hold.
absl::StatusOr<int32_t> SizeFromLog2(int log2, absl::string_view name) {
  if (log2 > 30) {
    return Error(absl::StrCat("LinearLayout too large: out-dim '", name,
                              "' would have 2^", log2, " elements"));
  }
  return int32_t{1} << log2;
}

}  // namespace

absl::StatusOr<std::vector<std::string>> Supremum(
    absl::Span<const std::string> x, absl::Span<const std::string> y) {
  std::vector<std::string> result;
  auto in_result = [&](const std::string& s) { return Contains(result, s); };
  // Positions (the last one for repeated names, as Triton's DenseMap).
  auto position = [](absl::Span<const std::string> v,
                     const std::string& s) -> int {
    for (size_t i = v.size(); i > 0; --i) {
      if (v[i - 1] == s) return static_cast<int>(i - 1);
    }
    return -1;
  };
  auto no_sup = [] { return Error("Supremum does not exist"); };
  result.reserve(x.size() + y.size());
  size_t i = 0, j = 0;
  constexpr int kInf = std::numeric_limits<int>::max();
  while (i < x.size() || j < y.size()) {
    while (i < x.size() && in_result(x[i])) ++i;
    while (j < y.size() && in_result(y[j])) ++j;
    if (i >= x.size() && j >= y.size()) break;
    if (i < x.size() && j < y.size() && x[i] == y[j]) {
      if (position(y, x[i]) < static_cast<int>(j)) return no_sup();
      result.push_back(x[i]);
      ++i, ++j;
      continue;
    }
    int cand_x = kInf, cand_y = kInf;
    if (i < x.size()) {
      const int p = position(y, x[i]);
      if (p >= 0 && p >= static_cast<int>(j)) cand_x = p;
    }
    if (j < y.size()) {
      const int p = position(x, y[j]);
      if (p >= 0 && p >= static_cast<int>(i)) cand_y = p;
    }
    if (i < x.size() && cand_x == kInf) {
      result.push_back(x[i]);
      ++i;
      continue;
    }
    if (j < y.size() && cand_y == kInf) {
      result.push_back(y[j]);
      ++j;
      continue;
    }
    if (cand_x <= cand_y) {
      if (position(y, x[i]) < static_cast<int>(j)) return no_sup();
      result.push_back(x[i]);
      ++i;
    } else {
      if (position(x, y[j]) < static_cast<int>(i)) return no_sup();
      result.push_back(y[j]);
      ++j;
    }
  }
  return result;
}

absl::StatusOr<LinearLayout> Product(const LinearLayout& inner,
                                     const LinearLayout& outer) {
  HLOLAYOUT_ASSIGN_OR_RETURN(
      std::vector<std::string> in_dims,
      Supremum(inner.in_dim_names(), outer.in_dim_names()));
  const std::vector<std::string> inner_outs = inner.OutDimNames();
  const std::vector<std::string> outer_outs = outer.OutDimNames();
  HLOLAYOUT_ASSIGN_OR_RETURN(std::vector<std::string> out_dims,
                             Supremum(inner_outs, outer_outs));
  const size_t num_out = out_dims.size();
  std::vector<int> in_log2(in_dims.size(), 0);
  std::vector<int> out_log2(num_out, 0);
  std::vector<int> inner_in(in_dims.size()), outer_in(in_dims.size());
  std::vector<int> inner_out(num_out), outer_out(num_out);
  for (size_t d = 0; d < in_dims.size(); ++d) {
    inner_in[d] = inner.InDimIndex(in_dims[d]);
    outer_in[d] = outer.InDimIndex(in_dims[d]);
    if (inner_in[d] >= 0) in_log2[d] += inner.InDimSizeLog2(inner_in[d]);
    if (outer_in[d] >= 0) in_log2[d] += outer.InDimSizeLog2(outer_in[d]);
  }
  for (size_t o = 0; o < num_out; ++o) {
    inner_out[o] = inner.OutDimIndex(out_dims[o]);
    outer_out[o] = outer.OutDimIndex(out_dims[o]);
    if (inner_out[o] >= 0) out_log2[o] += inner.OutDimSizeLog2(inner_out[o]);
    if (outer_out[o] >= 0) out_log2[o] += outer.OutDimSizeLog2(outer_out[o]);
  }
  NamedInts outs;
  for (size_t o = 0; o < num_out; ++o) {
    HLOLAYOUT_ASSIGN_OR_RETURN(int32_t size,
                               SizeFromLog2(out_log2[o], out_dims[o]));
    outs.emplace_back(out_dims[o], size);
  }
  size_t total = 0;
  for (int n : in_log2) total += n;
  if (total > kMaxTotalBits) {
    return Error(absl::StrCat("LinearLayout too large: ", total,
                              " input bits, at most 64"));
  }
  std::vector<int32_t> flat(total * num_out, 0);
  size_t row = 0;
  for (size_t d = 0; d < in_dims.size(); ++d) {
    const int inner_n = inner_in[d] >= 0 ? inner.InDimSizeLog2(inner_in[d]) : 0;
    for (size_t o = 0; o < num_out; ++o) {
      if (inner_in[d] >= 0 && inner_out[o] >= 0) {
        for (int i = 0; i < inner_n; ++i) {
          flat[(row + i) * num_out + o] =
              inner.BasisValue(inner_in[d], i, inner_out[o]);
        }
      }
      if (outer_in[d] >= 0 && outer_out[o] >= 0) {
        const int shift =
            inner_out[o] >= 0 ? inner.OutDimSizeLog2(inner_out[o]) : 0;
        for (int i = 0; i < outer.InDimSizeLog2(outer_in[d]); ++i) {
          flat[(row + inner_n + i) * num_out + o] =
              static_cast<int32_t>(static_cast<uint32_t>(outer.BasisValue(
                                       outer_in[d], i, outer_out[o]))
                                   << shift);
        }
      }
    }
    row += in_log2[d];
  }
  // Triton requires the product of surjective layouts to be surjective; it
  // always is (the ranks add up), so nothing is left to check.
  return LinearLayout::FromFlatTrusted(std::move(in_dims), in_log2, flat,
                                       std::move(outs));
}

absl::StatusOr<LinearLayout> Compose(const LinearLayout& inner,
                                     const LinearLayout& outer) {
  const std::vector<std::string> inner_outs = inner.OutDimNames();
  if (!SameDimsIgnoringOrder(inner_outs, outer.in_dim_names())) {
    return DimsMismatchError(inner_outs, outer.in_dim_names());
  }
  // For each inner out-dim, the outer in-dim it feeds.
  std::vector<int> feeds(inner.num_out_dims());
  bool sizes_equal = true;
  for (int o = 0; o < inner.num_out_dims(); ++o) {
    feeds[o] = outer.InDimIndex(inner_outs[o]);
    const int32_t in_size = outer.InDimSize(feeds[o]);
    if (inner.OutDimSize(o) > in_size) {
      return Error(absl::StrCat("compose: out-dim '", inner_outs[o],
                                "' has size ", inner.OutDimSize(o),
                                " but the outer layout's in-dim has size ",
                                in_size,
                                " (Triton asserts getOutDimSize(outDim) <= "
                                "outer.getInDimSize(outDim))"));
    }
    sizes_equal = sizes_equal && inner.OutDimSize(o) == in_size;
  }
  const int num_out = outer.num_out_dims();
  const int rows = inner.TotalInDimSizeLog2();
  std::vector<int32_t> flat(static_cast<size_t>(rows) * num_out, 0);
  std::vector<int32_t> args(outer.num_in_dims(), 0);
  for (int r = 0; r < rows; ++r) {
    const int32_t* b =
        &inner.flat_bases()[static_cast<size_t>(r) * inner.num_out_dims()];
    for (int o = 0; o < inner.num_out_dims(); ++o) args[feeds[o]] = b[o];
    outer.ApplyIndexed(
        args, absl::MakeSpan(&flat[static_cast<size_t>(r) * num_out], num_out));
  }
  // Surjective inputs covering each other's sizes compose to a surjective
  // layout, so Triton's requirement cannot fail.
  (void)sizes_equal;
  return LinearLayout::FromFlatTrusted(
      inner.in_dim_names(), inner.in_dim_log2(), flat, outer.out_dims());
}

namespace {

// The least-squares system of InvertAndCompose over F2: rows are output
// bits (out-dims in order, low bit first), columns a's non-identity input
// bits, then b's. Writes, per a column, the b columns it solves for.
template <typename Row>
absl::Status SolveForB(const LinearLayout& a, const LinearLayout& b,
                       absl::Span<const int> a_cols,
                       absl::Span<const int> b_cols,
                       absl::Span<uint64_t> solution) {
  const int num_out = a.num_out_dims();
  const int num_a = static_cast<int>(a_cols.size());
  absl::InlinedVector<Row, 64> m(a.TotalOutDimSizeLog2(), 0);
  absl::InlinedVector<int, 8> first_row(num_out);
  for (int o = 0, row = 0; o < num_out; ++o) {
    first_row[o] = row;
    row += a.OutDimSizeLog2(o);
  }
  auto add_column = [&](const LinearLayout& l, int basis, int column) {
    const int32_t* values =
        l.flat_bases().data() + static_cast<size_t>(basis) * num_out;
    for (int o = 0; o < num_out; ++o) {
      // Values are below their out-dim size, and b's sizes are at most a's.
      for (uint32_t v = static_cast<uint32_t>(values[o]); v != 0; v &= v - 1) {
        m[first_row[o] + __builtin_ctz(v)] |= Row{1} << column;
      }
    }
  };
  for (int c = 0; c < num_a; ++c) add_column(a, a_cols[c], c);
  for (size_t c = 0; c < b_cols.size(); ++c) {
    add_column(b, b_cols[c], num_a + static_cast<int>(c));
  }
  ReduceRowEchelon(absl::MakeSpan(m), num_a + static_cast<int>(b_cols.size()));
  for (const Row& r : m) {
    if (r == 0) continue;
    const int c = LowestBit(r);
    if (c >= num_a) {
      return Error("Precondition broken. Im(B) not contained in Im(A)");
    }
    solution[c] = static_cast<uint64_t>(r >> num_a);
  }
  return absl::OkStatus();
}

bool SameOutOrder(const LinearLayout& x, const LinearLayout& y) {
  if (x.num_out_dims() != y.num_out_dims()) return false;
  for (int o = 0; o < x.num_out_dims(); ++o) {
    if (x.out_dim_name(o) != y.out_dim_name(o)) return false;
  }
  return true;
}

// Per in-dim flags (char, not bool, for a span of them).
using DimFlags = absl::InlinedVector<char, 8>;

// Whether a's out-dims (in b's order) have b's sizes; an error when one is
// smaller.
absl::StatusOr<bool> CompareOutSizes(const LinearLayout& a,
                                     const LinearLayout& b) {
  bool equal = true;
  for (int o = 0; o < b.num_out_dims(); ++o) {
    if (a.OutDimSize(o) < b.OutDimSize(o)) {
      return Error(absl::StrCat(
          "A.invertAndCompose(B) called with incompatible output shapes in ",
          b.out_dim_name(o), ": ", a.OutDimSize(o), " >= ", b.OutDimSize(o)));
    }
    equal = equal && a.OutDimSize(o) == b.OutDimSize(o);
  }
  return equal;
}

// Identity dims: in-dims of both whose sublayouts onto all outs are equal
// (bases; the out sizes are). Marks them in each layout's flags.
void MarkIdentityDims(const LinearLayout& a, const LinearLayout& b,
                      DimFlags& a_identity, DimFlags& b_identity) {
  const int num_out = b.num_out_dims();
  for (int da = 0; da < a.num_in_dims(); ++da) {
    const int db = b.InDimIndex(a.in_dim_name(da));
    if (db < 0 || a.InDimSizeLog2(da) != b.InDimSizeLog2(db)) continue;
    const size_t n = static_cast<size_t>(a.InDimSizeLog2(da)) * num_out;
    const int32_t* x = a.flat_bases().data() +
                       static_cast<size_t>(a.InDimOffset(da)) * num_out;
    const int32_t* y = b.flat_bases().data() +
                       static_cast<size_t>(b.InDimOffset(db)) * num_out;
    if (std::equal(x, x + n, y)) a_identity[da] = b_identity[db] = 1;
  }
}

// Solves for the bits of the dims that are not identity dims and writes
// them into `flat` (b's input bits by a's in-dims).
absl::Status ComposeNonIdentityDims(const LinearLayout& a,
                                    const LinearLayout& b,
                                    const DimFlags& a_identity,
                                    const DimFlags& b_identity,
                                    absl::InlinedVector<int32_t, 128>& flat) {
  const int result_out = a.num_in_dims();
  // The flat basis rows of the reduced dims; for a's, where each lands.
  absl::InlinedVector<int, 64> a_cols, b_cols;
  absl::InlinedVector<int, 64> a_col_dim, a_col_bit;
  for (int da = 0; da < a.num_in_dims(); ++da) {
    if (a_identity[da]) continue;
    for (int i = 0; i < a.InDimSizeLog2(da); ++i) {
      a_cols.push_back(a.InDimOffset(da) + i);
      a_col_dim.push_back(da);
      a_col_bit.push_back(i);
    }
  }
  for (int db = 0; db < b.num_in_dims(); ++db) {
    if (b_identity[db]) continue;
    for (int i = 0; i < b.InDimSizeLog2(db); ++i) {
      b_cols.push_back(b.InDimOffset(db) + i);
    }
  }
  absl::InlinedVector<uint64_t, 64> solution(a_cols.size(), 0);
  if (a_cols.size() + b_cols.size() <= 64) {
    HLOLAYOUT_RETURN_IF_ERROR(
        SolveForB<uint64_t>(a, b, a_cols, b_cols, absl::MakeSpan(solution)));
  } else {
    HLOLAYOUT_RETURN_IF_ERROR(
        SolveForB<F2Row128>(a, b, a_cols, b_cols, absl::MakeSpan(solution)));
  }
  // Column j of b gets bit i of a's in-dim d for each a column (d, i) whose
  // solution has bit j (reshapeOuts splits a's bits per in-dim, low bits
  // first).
  for (size_t c = 0; c < a_cols.size(); ++c) {
    for (uint64_t s = solution[c]; s != 0; s &= s - 1) {
      const int j = __builtin_ctzll(s);
      flat[static_cast<size_t>(b_cols[j]) * result_out + a_col_dim[c]] |=
          int32_t{1} << a_col_bit[c];
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<LinearLayout> InvertAndCompose(const LinearLayout& b,
                                              const LinearLayout& a_in) {
  // a with b's out-dim order (no copy when it has it already).
  std::optional<LinearLayout> transposed;
  if (!SameOutOrder(a_in, b)) {
    const std::vector<std::string> outs = b.OutDimNames();
    if (!SameDimsIgnoringOrder(outs, a_in.OutDimNames())) {
      return DimsMismatchError(outs, a_in.OutDimNames());
    }
    HLOLAYOUT_ASSIGN_OR_RETURN(transposed, TransposeOuts(a_in, outs));
  }
  const LinearLayout& a = transposed ? *transposed : a_in;
  HLOLAYOUT_ASSIGN_OR_RETURN(const bool out_sizes_equal, CompareOutSizes(a, b));
  DimFlags a_identity(a.num_in_dims(), 0);
  DimFlags b_identity(b.num_in_dims(), 0);
  if (out_sizes_equal) MarkIdentityDims(a, b, a_identity, b_identity);
  auto all = [](absl::Span<const char> v) {
    return std::all_of(v.begin(), v.end(), [](char x) { return x != 0; });
  };
  const bool a_empty = all(a_identity);
  if (a_empty != all(b_identity)) {
    return Error(
        "assertion failed: (ANonIdentityInDims.empty()) == "
        "(BNonIdentityInDims.empty())");
  }
  // The result: in-dims are b's, out-dims are a's in-dims with a's sizes.
  const int result_out = a.num_in_dims();
  NamedInts result_outs;
  result_outs.reserve(result_out);
  for (int da = 0; da < a.num_in_dims(); ++da) {
    result_outs.emplace_back(a.in_dim_name(da), a.InDimSize(da));
  }
  absl::InlinedVector<int32_t, 128> flat(
      static_cast<size_t>(b.TotalInDimSizeLog2()) * result_out, 0);
  if (!a_empty) {
    HLOLAYOUT_RETURN_IF_ERROR(
        ComposeNonIdentityDims(a, b, a_identity, b_identity, flat));
  }
  // Identity dims map by the identity.
  for (int db = 0; db < b.num_in_dims(); ++db) {
    if (!b_identity[db]) continue;
    const int da = a.InDimIndex(b.in_dim_name(db));
    for (int i = 0; i < b.InDimSizeLog2(db); ++i) {
      flat[static_cast<size_t>(b.InDimOffset(db) + i) * result_out + da] =
          int32_t{1} << i;
    }
  }
  return LinearLayout::FromFlatTrusted(b.in_dim_names(), b.in_dim_log2(), flat,
                                       std::move(result_outs));
}

absl::StatusOr<LinearLayout> Pseudoinvert(const LinearLayout& a) {
  // The identity on a's out-dims, built directly.
  const int n = a.num_out_dims();
  absl::InlinedVector<int, 8> log2(n);
  absl::InlinedVector<int32_t, 128> flat(
      static_cast<size_t>(a.TotalOutDimSizeLog2()) * n, 0);
  for (int o = 0, row = 0; o < n; ++o) {
    log2[o] = a.OutDimSizeLog2(o);
    for (int i = 0; i < log2[o]; ++i, ++row) {
      flat[static_cast<size_t>(row) * n + o] = int32_t{1} << i;
    }
  }
  const LinearLayout identity =
      LinearLayout::FromFlatTrusted(a.OutDimNames(), log2, flat, a.out_dims());
  return InvertAndCompose(identity, a);
}

absl::StatusOr<LinearLayout> Invert(const LinearLayout& a) {
  if (!a.IsInvertible()) {
    return Error(
        "A linear layout must be surjective and square to be invertible");
  }
  return Pseudoinvert(a);
}

absl::StatusOr<LinearLayout> ReshapeIns(const LinearLayout& l,
                                        const NamedInts& new_in_dims) {
  // Sizes as logarithms: the totals may reach 2^64.
  int product_log2 = 0;
  std::vector<std::string> names;
  std::vector<int> log2;
  for (const auto& [name, size] : new_in_dims) {
    if (!IsPowerOf2(size)) {
      return Error(absl::StrCat("reshapeIns: size ", size, " of in-dim '", name,
                                "' is not a power of two"));
    }
    product_log2 += Log2(size);
    names.push_back(name);
    log2.push_back(Log2(size));
    if (product_log2 > l.TotalInDimSizeLog2()) break;
  }
  if (product_log2 != l.TotalInDimSizeLog2()) {
    return Error(absl::StrCat("reshapeIns: the new in-dim sizes multiply to 2^",
                              product_log2, ", not the total in-dim size 2^",
                              l.TotalInDimSizeLog2()));
  }
  return LinearLayout::FromFlatTrusted(std::move(names), log2, l.flat_bases(),
                                       l.out_dims());
}

absl::StatusOr<LinearLayout> ReshapeOuts(const LinearLayout& l,
                                         const NamedInts& new_out_dims) {
  int product_log2 = 0;
  for (const auto& [name, size] : new_out_dims) {
    if (!IsPowerOf2(size)) {
      return Error(absl::StrCat("reshapeOuts: size ", size, " of out-dim '",
                                name, "' is not a power of two"));
    }
    product_log2 += Log2(size);
    if (product_log2 > l.TotalOutDimSizeLog2()) break;
  }
  if (product_log2 != l.TotalOutDimSizeLog2()) {
    return Error(absl::StrCat(
        "reshapeOuts: the new out-dim sizes multiply to 2^", product_log2,
        ", not the total out-dim size 2^", l.TotalOutDimSizeLog2()));
  }
  const int old_out = l.num_out_dims();
  const size_t new_out = new_out_dims.size();
  const int rows = l.TotalInDimSizeLog2();
  std::vector<int32_t> flat(static_cast<size_t>(rows) * new_out);
  for (int r = 0; r < rows; ++r) {
    uint64_t packed = 0;
    int shift = 0;
    for (int o = 0; o < old_out; ++o) {
      packed |= static_cast<uint64_t>(static_cast<uint32_t>(
                    l.flat_bases()[static_cast<size_t>(r) * old_out + o]))
                << shift;
      shift += l.OutDimSizeLog2(o);
    }
    for (size_t o = 0; o < new_out; ++o) {
      const uint64_t size = static_cast<uint64_t>(new_out_dims[o].second);
      flat[r * new_out + o] = static_cast<int32_t>(packed % size);
      packed /= size;
    }
  }
  return LinearLayout::FromFlatTrusted(l.in_dim_names(), l.in_dim_log2(), flat,
                                       new_out_dims);
}

absl::StatusOr<LinearLayout> FlattenIns(const LinearLayout& l) {
  if (l.num_in_dims() == 0)
    return Error("flattenIns: the layout has no in-dims");
  if (l.TotalInDimSizeLog2() > 30) {
    return Error("LinearLayout too large to flatten its in-dims into int32");
  }
  return ReshapeIns(
      l, {{l.in_dim_name(0), static_cast<int32_t>(l.TotalInDimSize())}});
}

absl::StatusOr<LinearLayout> FlattenOuts(const LinearLayout& l) {
  if (l.num_out_dims() == 0) {
    return Error("flattenOuts: the layout has no out-dims");
  }
  if (l.TotalOutDimSizeLog2() > 30) {
    return Error("LinearLayout too large to flatten its out-dims into int32");
  }
  return ReshapeOuts(
      l, {{l.out_dim_name(0), static_cast<int32_t>(l.TotalOutDimSize())}});
}

absl::StatusOr<LinearLayout> TransposeIns(const LinearLayout& l,
                                          absl::Span<const std::string> order) {
  if (!SameDimsIgnoringOrder(order, l.in_dim_names()) ||
      order.size() != l.in_dim_names().size()) {
    return DimsMismatchError(order, l.in_dim_names());
  }
  const int num_out = l.num_out_dims();
  std::vector<std::string> names;
  std::vector<int> log2;
  std::vector<int32_t> flat;
  flat.reserve(l.flat_bases().size());
  for (const std::string& name : order) {
    const int d = l.InDimIndex(name);
    names.push_back(name);
    log2.push_back(l.InDimSizeLog2(d));
    auto begin = l.flat_bases().begin() +
                 static_cast<size_t>(l.InDimOffset(d)) * num_out;
    flat.insert(flat.end(), begin, begin + l.InDimSizeLog2(d) * num_out);
  }
  return LinearLayout::FromFlatTrusted(std::move(names), log2, flat,
                                       l.out_dims());
}

absl::StatusOr<LinearLayout> TransposeOuts(
    const LinearLayout& l, absl::Span<const std::string> order) {
  const std::vector<std::string> outs = l.OutDimNames();
  if (!SameDimsIgnoringOrder(order, outs) || order.size() != outs.size()) {
    return DimsMismatchError(order, outs);
  }
  std::vector<int> perm;
  NamedInts new_outs;
  for (const std::string& name : order) {
    perm.push_back(l.OutDimIndex(name));
    new_outs.emplace_back(name, l.OutDimSize(perm.back()));
  }
  const size_t num_out = outs.size();
  const int rows = l.TotalInDimSizeLog2();
  std::vector<int32_t> flat(static_cast<size_t>(rows) * num_out);
  for (int r = 0; r < rows; ++r) {
    for (size_t o = 0; o < num_out; ++o) {
      flat[r * num_out + o] = l.flat_bases()[r * num_out + perm[o]];
    }
  }
  return LinearLayout::FromFlatTrusted(l.in_dim_names(), l.in_dim_log2(), flat,
                                       std::move(new_outs));
}

absl::StatusOr<LinearLayout> Sublayout(const LinearLayout& l,
                                       absl::Span<const std::string> ins,
                                       absl::Span<const std::string> outs) {
  if (!IsSubset(ins, l.in_dim_names())) {
    return SubsetError(ins, l.in_dim_names());
  }
  const std::vector<std::string> all_outs = l.OutDimNames();
  if (!IsSubset(outs, all_outs)) return SubsetError(outs, all_outs);
  std::vector<int> keep_out;
  NamedInts new_outs;
  for (int o = 0; o < l.num_out_dims(); ++o) {
    if (Contains(outs, all_outs[o])) {
      keep_out.push_back(o);
      new_outs.push_back(l.out_dims()[o]);
    }
  }
  std::vector<std::string> names;
  std::vector<int> log2;
  std::vector<int32_t> flat;
  for (int d = 0; d < l.num_in_dims(); ++d) {
    if (!Contains(ins, l.in_dim_name(d))) continue;
    names.push_back(l.in_dim_name(d));
    log2.push_back(l.InDimSizeLog2(d));
    for (int i = 0; i < l.InDimSizeLog2(d); ++i) {
      for (int o : keep_out) flat.push_back(l.BasisValue(d, i, o));
    }
  }
  return LinearLayout::FromFlatTrusted(std::move(names), log2, flat,
                                       std::move(new_outs));
}

absl::StatusOr<bool> SublayoutIsZero(const LinearLayout& l,
                                     absl::Span<const std::string> ins,
                                     absl::Span<const std::string> outs) {
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout s, Sublayout(l, ins, outs));
  for (int32_t v : s.flat_bases()) {
    if (v != 0) return false;
  }
  return true;
}

absl::StatusOr<LinearLayout> ConcatIns(const LinearLayout& l,
                                       const LinearLayout& other) {
  if (l.OutDimNames() != other.OutDimNames()) {
    return Error("concatIns: layouts must have the same output dimensions");
  }
  for (int o = 0; o < l.num_out_dims(); ++o) {
    if (l.OutDimSize(o) != other.OutDimSize(o)) {
      return Error(
          "concatIns: layouts must have the same output dimension sizes");
    }
  }
  // MapVector::insert keeps an existing in-dim's bases.
  NamedBases bases = l.bases();
  for (auto& [name, b] : other.bases()) {
    bool present = false;
    for (const auto& [n, unused] : bases) present = present || n == name;
    if (!present) bases.emplace_back(name, b);
  }
  return LinearLayout::Create(std::move(bases), l.out_dims(),
                              /*require_surjective=*/false);
}

absl::StatusOr<LinearLayout> ConcatOuts(const LinearLayout& l,
                                        const LinearLayout& other) {
  if (l.in_dim_names() != other.in_dim_names()) {
    return Error("concatOuts: layouts must have the same input dimensions");
  }
  for (int d = 0; d < l.num_in_dims(); ++d) {
    if (l.InDimSizeLog2(d) != other.InDimSizeLog2(d)) {
      return Error(
          "concatOuts: layouts must have the same input dimension sizes");
    }
  }
  NamedInts outs = l.out_dims();
  for (const auto& od : other.out_dims()) outs.push_back(od);
  std::vector<int32_t> flat;
  const int rows = l.TotalInDimSizeLog2();
  for (int r = 0; r < rows; ++r) {
    for (int o = 0; o < l.num_out_dims(); ++o) {
      flat.push_back(
          l.flat_bases()[static_cast<size_t>(r) * l.num_out_dims() + o]);
    }
    for (int o = 0; o < other.num_out_dims(); ++o) {
      flat.push_back(
          other
              .flat_bases()[static_cast<size_t>(r) * other.num_out_dims() + o]);
    }
  }
  // A repeated out-dim name makes an invalid layout; Create reports it.
  NamedBases bases;
  size_t k = 0;
  for (int d = 0; d < l.num_in_dims(); ++d) {
    DimBases db;
    for (int i = 0; i < l.InDimSizeLog2(d); ++i, k += outs.size()) {
      db.emplace_back(flat.begin() + k, flat.begin() + k + outs.size());
    }
    bases.emplace_back(l.in_dim_name(d), std::move(db));
  }
  return LinearLayout::Create(std::move(bases), std::move(outs),
                              /*require_surjective=*/false);
}

namespace {

int32_t BasisOrZero(const LinearLayout& l, int d, int i,
                    absl::string_view out) {
  const int o = l.OutDimIndex(out);
  return o < 0 ? 0 : l.BasisValue(d, i, o);
}

}  // namespace

absl::StatusOr<std::optional<LinearLayout>> DivideLeft(const LinearLayout& a,
                                                       const LinearLayout& b) {
  for (const auto& d : b.in_dim_names()) {
    if (!a.HasInDim(d)) return std::nullopt;
  }
  for (const auto& od : b.out_dims()) {
    if (!a.HasOutDim(od.first)) return std::nullopt;
  }
  NamedInts c_outs;
  std::vector<int> out_b(a.num_out_dims());
  for (int o = 0; o < a.num_out_dims(); ++o) {
    const int bo = b.OutDimIndex(a.out_dim_name(o));
    out_b[o] = bo >= 0 ? b.OutDimSizeLog2(bo) : 0;
    const int out_c = a.OutDimSizeLog2(o) - out_b[o];
    if (out_c < 0) return std::nullopt;
    c_outs.emplace_back(a.out_dim_name(o), int32_t{1} << out_c);
  }
  NamedBases c_bases;
  for (int d = 0; d < a.num_in_dims(); ++d) {
    const int bd = b.InDimIndex(a.in_dim_name(d));
    const int in_b = bd >= 0 ? b.InDimSizeLog2(bd) : 0;
    if (a.InDimSizeLog2(d) - in_b < 0) return std::nullopt;
    for (int i = 0; i < in_b; ++i) {
      for (int o = 0; o < a.num_out_dims(); ++o) {
        const int32_t expected = BasisOrZero(b, bd, i, a.out_dim_name(o));
        if (a.BasisValue(d, i, o) != expected) return std::nullopt;
      }
    }
    DimBases db;
    for (int i = in_b; i < a.InDimSizeLog2(d); ++i) {
      std::vector<int32_t> basis;
      for (int o = 0; o < a.num_out_dims(); ++o) {
        const int32_t v = a.BasisValue(d, i, o);
        if ((v & ((int32_t{1} << out_b[o]) - 1)) != 0) return std::nullopt;
        basis.push_back(v >> out_b[o]);
      }
      db.push_back(std::move(basis));
    }
    c_bases.emplace_back(a.in_dim_name(d), std::move(db));
  }
  HLOLAYOUT_ASSIGN_OR_RETURN(
      LinearLayout c,
      LinearLayout::Create(std::move(c_bases), std::move(c_outs),
                           a.IsSurjective() && b.IsSurjective()));
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout check, Product(b, c));
  if (check != a) return Error("assertion failed: B * C == A");
  return c;
}

absl::StatusOr<std::optional<LinearLayout>> DivideRight(const LinearLayout& a,
                                                        const LinearLayout& b) {
  for (const auto& d : b.in_dim_names()) {
    if (!a.HasInDim(d)) return std::nullopt;
  }
  for (const auto& od : b.out_dims()) {
    if (!a.HasOutDim(od.first)) return std::nullopt;
  }
  NamedInts c_outs;
  for (int o = 0; o < a.num_out_dims(); ++o) {
    const int bo = b.OutDimIndex(a.out_dim_name(o));
    const int out_b = bo >= 0 ? b.OutDimSizeLog2(bo) : 0;
    const int out_c = a.OutDimSizeLog2(o) - out_b;
    if (out_c < 0) return std::nullopt;
    c_outs.emplace_back(a.out_dim_name(o), int32_t{1} << out_c);
  }
  NamedBases c_bases;
  for (int d = 0; d < a.num_in_dims(); ++d) {
    const int bd = b.InDimIndex(a.in_dim_name(d));
    const int in_b = bd >= 0 ? b.InDimSizeLog2(bd) : 0;
    const int in_c = a.InDimSizeLog2(d) - in_b;
    if (in_c < 0) return std::nullopt;
    DimBases db;
    for (int i = 0; i < in_c; ++i) {
      auto s = a.Basis(d, i);
      db.emplace_back(s.begin(), s.end());
    }
    for (int i = in_c; i < a.InDimSizeLog2(d); ++i) {
      for (int bo = 0; bo < b.num_out_dims(); ++bo) {
        const int o = a.OutDimIndex(b.out_dim_name(bo));
        const int shift = a.OutDimSizeLog2(o) - b.OutDimSizeLog2(bo);
        const int32_t v = a.BasisValue(d, i, o);
        if ((v & ((int32_t{1} << shift) - 1)) != 0) return std::nullopt;
        if ((v >> shift) != b.BasisValue(bd, i - in_c, bo)) return std::nullopt;
      }
    }
    c_bases.emplace_back(a.in_dim_name(d), std::move(db));
  }
  HLOLAYOUT_ASSIGN_OR_RETURN(
      LinearLayout c,
      LinearLayout::Create(std::move(c_bases), std::move(c_outs),
                           a.IsSurjective() && b.IsSurjective()));
  HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout check, Product(c, b));
  if (check != a) return Error("assertion failed: C * B == A");
  return c;
}

absl::StatusOr<bool> IsTrivialOver(const LinearLayout& l,
                                   absl::Span<const std::string> dims) {
  const std::vector<std::string> outs = l.OutDimNames();
  for (const auto& d : dims) {
    if (!l.HasInDim(d) && !l.HasOutDim(d)) return false;
  }
  std::vector<std::string> rest_in, rest_out;
  for (const auto& d : l.in_dim_names()) {
    if (!Contains(dims, d)) rest_in.push_back(d);
  }
  for (const auto& d : outs) {
    if (!Contains(dims, d)) rest_out.push_back(d);
  }
  // The square sublayout on `dims` must be the identity.
  if (!dims.empty()) {
    HLOLAYOUT_ASSIGN_OR_RETURN(LinearLayout sl, Sublayout(l, dims, dims));
    for (const auto& d : dims) {
      if (l.InDimSize(l.InDimIndex(d)) != l.OutDimSize(l.OutDimIndex(d))) {
        return false;
      }
    }
    HLOLAYOUT_ASSIGN_OR_RETURN(sl, FlattenIns(sl));
    HLOLAYOUT_ASSIGN_OR_RETURN(sl, FlattenOuts(sl));
    for (int i = 0; i < sl.TotalInDimSizeLog2(); ++i) {
      if (sl.BasisValue(0, i, 0) != (int32_t{1} << i)) return false;
    }
  }
  HLOLAYOUT_ASSIGN_OR_RETURN(bool zero1, SublayoutIsZero(l, rest_in, dims));
  if (!zero1) return false;
  return SublayoutIsZero(l, dims, rest_out);
}

absl::StatusOr<std::optional<LinearLayout>> Quotient(
    const LinearLayout& l, absl::Span<const std::string> dims) {
  HLOLAYOUT_ASSIGN_OR_RETURN(bool trivial, IsTrivialOver(l, dims));
  if (!trivial) return std::nullopt;
  std::vector<std::string> rest_in, rest_out;
  for (const auto& d : l.in_dim_names()) {
    if (!Contains(dims, d)) rest_in.push_back(d);
  }
  for (const auto& d : l.OutDimNames()) {
    if (!Contains(dims, d)) rest_out.push_back(d);
  }
  return Sublayout(l, rest_in, rest_out);
}

NamedInts FreeVariableMasks(const LinearLayout& l) {
  std::vector<uint64_t> m = l.Matrix();
  ReduceRowEchelon(m, l.TotalInDimSizeLog2());
  uint64_t basic = 0;
  for (uint64_t r : m) {
    if (r) basic |= uint64_t{1} << LowestBit(r);
  }
  NamedInts masks;
  int c = 0;
  for (int d = 0; d < l.num_in_dims(); ++d) {
    int32_t mask = 0;
    for (int i = 0; i < l.InDimSizeLog2(d); ++i, ++c) {
      if (!((basic >> c) & 1)) mask |= int32_t{1} << i;
    }
    masks.emplace_back(l.in_dim_name(d), mask);
  }
  return masks;
}

int32_t NumConsecutiveInOut(const LinearLayout& l) {
  if (l.num_in_dims() == 0 || l.num_out_dims() == 0) return 1;
  int consec = 0;
  for (; consec < l.InDimSizeLog2(0); ++consec) {
    auto b = l.Basis(0, consec);
    if (b[0] != (int32_t{1} << consec)) break;
    bool rest_zero = true;
    for (size_t o = 1; o < b.size(); ++o) rest_zero = rest_zero && b[o] == 0;
    if (!rest_zero) break;
  }
  int32_t other = 0;
  for (int d = 0; d < l.num_in_dims(); ++d) {
    for (int i = 0; i < l.InDimSizeLog2(d); ++i) {
      if (d != 0 || i >= consec) other |= l.BasisValue(d, i, 0);
    }
  }
  const int trailing =
      other != 0 ? __builtin_ctz(static_cast<uint32_t>(other)) : 31;
  return int32_t{1} << std::min(consec, trailing);
}

absl::StatusOr<LinearLayout> UnsqueezeIn(const LinearLayout& l,
                                         absl::string_view dim) {
  const int d = l.InDimIndex(dim);
  if (d < 0 || l.InDimSizeLog2(d) != 0) {
    return Error(
        absl::StrCat("unsqueezeIn: '", dim, "' is not an in-dim of size 1"));
  }
  NamedInts ins;
  for (int i = 0; i < l.num_in_dims(); ++i) {
    if (i != d) ins.emplace_back(l.in_dim_name(i), l.InDimSize(i));
  }
  return ReshapeIns(l, ins);
}

absl::StatusOr<LinearLayout> UnsqueezeOut(const LinearLayout& l,
                                          absl::string_view dim) {
  const int o = l.OutDimIndex(dim);
  if (o < 0 || l.OutDimSize(o) != 1) {
    return Error(
        absl::StrCat("unsqueezeOut: '", dim, "' is not an out-dim of size 1"));
  }
  NamedBases bases = l.bases();
  for (auto& [name, b] : bases) {
    for (auto& basis : b) basis.erase(basis.begin() + o);
  }
  NamedInts outs = l.out_dims();
  outs.erase(outs.begin() + o);
  return LinearLayout::Create(std::move(bases), std::move(outs),
                              l.IsSurjective());
}

absl::StatusOr<LinearLayout> RemoveZeroBasesAlongDim(const LinearLayout& l,
                                                     absl::string_view dim) {
  NamedBases bases = l.bases();
  for (auto& [name, b] : bases) {
    if (name != dim) continue;
    DimBases kept;
    for (auto& basis : b) {
      bool nonzero = false;
      for (int32_t v : basis) nonzero = nonzero || v != 0;
      if (nonzero) kept.push_back(std::move(basis));
    }
    b = std::move(kept);
  }
  return LinearLayout::Create(std::move(bases), l.out_dims(), l.IsSurjective());
}

absl::StatusOr<LinearLayout> ApplyColumnAction(const LinearLayout& l,
                                               absl::string_view dim,
                                               absl::Span<const int> action) {
  const int d = l.InDimIndex(dim);
  if (d < 0) {
    return Error(absl::StrCat("column action: '", dim, "' is not an in-dim"));
  }
  const int n = l.InDimSizeLog2(d);
  bool identity = static_cast<int>(action.size()) == n;
  for (size_t i = 0; i < action.size(); ++i) {
    if (action[i] < 0 || action[i] >= n) {
      return Error(absl::StrCat("column action: index ", action[i],
                                " is out of range for ", n, " bases"));
    }
    identity = identity && action[i] == static_cast<int>(i);
  }
  if (identity) return l;
  NamedBases bases = l.bases();
  DimBases picked;
  for (int a : action) picked.push_back(bases[d].second[a]);
  bases[d].second = std::move(picked);
  return LinearLayout::Create(std::move(bases), l.out_dims(),
                              /*require_surjective=*/false);
}

}  // namespace hlolayout::triton
