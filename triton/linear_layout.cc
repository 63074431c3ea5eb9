#include "hlolayout/triton/linear_layout.h"

#include <algorithm>
#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "hlolayout/triton/f2.h"

namespace hlolayout::triton {
namespace {

bool IsPowerOf2U32(int32_t v) {
  const uint32_t u = static_cast<uint32_t>(v);
  return u != 0 && (u & (u - 1)) == 0;
}

int Log2U32(int32_t v) { return 31 - __builtin_clz(static_cast<uint32_t>(v)); }

// llvm::NextPowerOf2 of an int32 widened to uint64, truncated back to int32
// as Triton's std::max<int32_t> does.
int32_t InferredSize(int32_t b) {
  uint64_t a = static_cast<uint64_t>(static_cast<int64_t>(b));
  a |= (a >> 1);
  a |= (a >> 2);
  a |= (a >> 4);
  a |= (a >> 8);
  a |= (a >> 16);
  a |= (a >> 32);
  return static_cast<int32_t>(static_cast<uint32_t>(a + 1));
}

absl::Status Error(std::string message) {
  // Triton's messages end with a newline; a status does not need it.
  while (!message.empty() && message.back() == '\n') message.pop_back();
  return absl::InvalidArgumentError(message);
}

template <typename T>
void InsertOrAssign(std::vector<std::pair<std::string, T>>& v, std::string name,
                    T value) {
  for (auto& [n, x] : v) {
    if (n == name) {
      x = std::move(value);
      return;
    }
  }
  v.emplace_back(std::move(name), std::move(value));
}

std::string OutDimsString(const NamedInts& out_dims) {
  std::string s = "[";
  for (size_t i = 0; i < out_dims.size(); ++i) {
    if (i) s += ", ";
    absl::StrAppend(&s, out_dims[i].first, " (size ", out_dims[i].second, ")");
  }
  s += "]";
  return s;
}

// Triton's toString over any source of bases: `get(d, i)` is basis i of
// in-dim d.
template <typename Get>
std::string Format(const std::vector<std::pair<std::string, int>>& in_dims,
                   const NamedInts& out_dims, Get get) {
  if (in_dims.empty()) {
    if (out_dims.empty()) return "\n(empty layout)";
    return absl::StrCat("\n(empty layout with out-dims ",
                        OutDimsString(out_dims), ")");
  }
  std::string s = "\n";
  for (size_t d = 0; d < in_dims.size(); ++d) {
    const auto& [name, n] = in_dims[d];
    if (n == 0) {
      absl::StrAppend(&s, " - ", name, " is a size 1 dimension\n");
      continue;
    }
    s += " - ";
    for (int i = 0; i < n; ++i) {
      if (i) s += "\n   ";
      absl::StrAppend(&s, name, "=", int64_t{1} << i, " -> (",
                      absl::StrJoin(get(d, i), ", "), ")");
    }
    s += "\n";
  }
  absl::StrAppend(&s, "where out dims are: ", OutDimsString(out_dims));
  return s;
}

}  // namespace

std::string FormatBases(const NamedBases& bases, const NamedInts& out_dims) {
  std::vector<std::pair<std::string, int>> dims;
  for (const auto& [name, b] : bases) {
    dims.emplace_back(name, static_cast<int>(b.size()));
  }
  return Format(
      dims, out_dims, [&](size_t d, int i) -> const auto& {
        return bases[d].second[i];
      });
}

bool SameDimsIgnoringOrder(absl::Span<const std::string> a,
                           absl::Span<const std::string> b) {
  return std::set<std::string>(a.begin(), a.end()) ==
         std::set<std::string>(b.begin(), b.end());
}

absl::Status DimsMismatchError(absl::Span<const std::string> a,
                               absl::Span<const std::string> b) {
  return Error(absl::StrCat(
      "Dimensions must match, ignoring order, but they don't.  Got dims: [",
      absl::StrJoin(a, ", "), "] and [", absl::StrJoin(b, ", "), "]"));
}

LinearLayout::LinearLayout() = default;

LinearLayout& LinearLayout::operator=(const LinearLayout& o) {
  if (this == &o) return *this;
  in_names_ = o.in_names_;
  in_log2_ = o.in_log2_;
  in_offset_ = o.in_offset_;
  out_dims_ = o.out_dims_;
  out_log2_ = o.out_log2_;
  flat_ = o.flat_;
  total_in_log2_ = o.total_in_log2_;
  total_out_log2_ = o.total_out_log2_;
  rank_.store(o.rank_.load(std::memory_order_relaxed),
              std::memory_order_relaxed);
  return *this;
}

LinearLayout& LinearLayout::operator=(LinearLayout&& o) noexcept {
  if (this == &o) return *this;
  in_names_ = std::move(o.in_names_);
  in_log2_ = std::move(o.in_log2_);
  in_offset_ = std::move(o.in_offset_);
  out_dims_ = std::move(o.out_dims_);
  out_log2_ = std::move(o.out_log2_);
  flat_ = std::move(o.flat_);
  total_in_log2_ = o.total_in_log2_;
  total_out_log2_ = o.total_out_log2_;
  rank_.store(o.rank_.load(std::memory_order_relaxed),
              std::memory_order_relaxed);
  return *this;
}

int LinearLayout::rank() const {
  int r = rank_.load(std::memory_order_relaxed);
  if (r >= 0) return r;
  std::vector<uint64_t> m = Matrix();
  ReduceRowEchelon(m, total_in_log2_);
  r = NonzeroRows(m);
  rank_.store(r, std::memory_order_relaxed);
  return r;
}

void LinearLayout::Finish() {
  in_offset_.resize(in_names_.size());
  total_in_log2_ = 0;
  for (size_t d = 0; d < in_names_.size(); ++d) {
    in_offset_[d] = total_in_log2_;
    total_in_log2_ += in_log2_[d];
  }
  out_log2_.resize(out_dims_.size());
  total_out_log2_ = 0;
  for (size_t o = 0; o < out_dims_.size(); ++o) {
    out_log2_[o] = Log2U32(out_dims_[o].second);
    total_out_log2_ += out_log2_[o];
  }
  rank_.store(-1, std::memory_order_relaxed);
}

LinearLayout LinearLayout::FromFlatTrusted(std::vector<std::string> in_names,
                                           absl::Span<const int> in_log2,
                                           absl::Span<const int32_t> flat,
                                           NamedInts out_dims) {
  LinearLayout l;
  l.in_names_ = std::move(in_names);
  l.in_log2_.assign(in_log2.begin(), in_log2.end());
  l.flat_.assign(flat.begin(), flat.end());
  l.out_dims_ = std::move(out_dims);
  l.Finish();
  return l;
}

absl::StatusOr<LinearLayout> LinearLayout::FromFlat(
    std::vector<std::string> in_names, absl::Span<const int> in_log2,
    absl::Span<const int32_t> flat, NamedInts out_dims,
    bool require_surjective) {
  const size_t num_out = out_dims.size();
  size_t num_bases = 0;
  for (int n : in_log2) num_bases += n;
  auto as_named = [&]() {
    NamedBases b;
    size_t k = 0;
    for (size_t d = 0; d < in_names.size(); ++d) {
      DimBases db;
      for (int i = 0; i < in_log2[d]; ++i, ++k) {
        db.emplace_back(flat.begin() + k * num_out,
                        flat.begin() + (k + 1) * num_out);
      }
      b.emplace_back(in_names[d], std::move(db));
    }
    return b;
  };
  // Triton's checkInvariants, in its order.
  {
    size_t k = 0;
    for (size_t d = 0; d < in_names.size(); ++d) {
      for (int i = 0; i < in_log2[d]; ++i, ++k) {
        for (size_t o = 0; o < num_out; ++o) {
          if (flat[k * num_out + o] < 0) {
            return Error(absl::StrCat(
                "Invalid bases passed to LinearLayout.  Expected all basis "
                "values to be non-negative, but found a negative value for "
                "in dimension '",
                in_names[d],
                "'.  Full list of bases:", FormatBases(as_named(), out_dims)));
          }
        }
      }
    }
  }
  for (const auto& [name, size] : out_dims) {
    if (!IsPowerOf2U32(size)) {
      return Error(absl::StrCat("Invalid out-dim size ", size, " for out-dim '",
                                name,
                                "'.  Out-dim sizes must be powers of 2."));
    }
  }
  {
    size_t k = 0;
    for (size_t d = 0; d < in_names.size(); ++d) {
      for (int i = 0; i < in_log2[d]; ++i, ++k) {
        for (size_t o = 0; o < num_out; ++o) {
          const int32_t v = flat[k * num_out + o];
          if (v >= out_dims[o].second) {
            return Error(
                absl::StrCat("Invalid basis ", v, " for in-dim '", in_names[d],
                             "' and out-dim '", out_dims[o].first,
                             "'.  Basis must be less than the out-dim size."));
          }
        }
      }
    }
  }
  int total_out = 0;
  for (const auto& od : out_dims) total_out += Log2U32(od.second);
  for (size_t d = 0; d < in_names.size(); ++d) {
    if (in_log2[d] > kMaxInDimBits) {
      return Error(absl::StrCat("LinearLayout too large: in-dim '", in_names[d],
                                "' has ", in_log2[d], " bases, at most ",
                                kMaxInDimBits, " are supported"));
    }
  }
  if (static_cast<int>(num_bases) > kMaxTotalBits ||
      total_out > kMaxTotalBits) {
    return Error(absl::StrCat("LinearLayout too large: ", num_bases,
                              " input bits and ", total_out,
                              " output bits, at most 64 each"));
  }
  LinearLayout l =
      FromFlatTrusted(std::move(in_names), in_log2, flat, std::move(out_dims));
  if (require_surjective && !l.IsSurjective()) {
    return Error(absl::StrCat(
        "Layout is expected to be surjective, i.e. every `out` coordinate can "
        "be reached by some `in` coordinate, but was not:",
        l.ToString()));
  }
  return l;
}

absl::StatusOr<LinearLayout> LinearLayout::Create(NamedBases bases,
                                                  NamedInts out_dims,
                                                  bool require_surjective) {
  NamedBases in;
  for (auto& [name, b] : bases)
    InsertOrAssign(in, std::move(name), std::move(b));
  NamedInts outs;
  for (auto& [name, size] : out_dims)
    InsertOrAssign(outs, std::move(name), size);
  for (const auto& [name, b] : in) {
    for (const auto& basis : b) {
      for (int32_t v : basis) {
        if (v < 0) {
          return Error(absl::StrCat(
              "Invalid bases passed to LinearLayout.  Expected all basis "
              "values to be non-negative, but found a negative value for in "
              "dimension '",
              name, "'.  Full list of bases:", FormatBases(in, outs)));
        }
      }
    }
  }
  for (const auto& [name, b] : in) {
    for (const auto& basis : b) {
      if (basis.size() != outs.size()) {
        return Error(absl::StrCat(
            "Invalid bases passed to LinearLayout.  Expect all bases to have "
            "the same size, equal to outDimNames.size() (",
            outs.size(), ").  But this failed for in dimension '", name,
            "'.  Full list of bases:", FormatBases(in, outs)));
      }
    }
  }
  std::vector<std::string> names;
  std::vector<int> log2;
  std::vector<int32_t> flat;
  for (auto& [name, b] : in) {
    names.push_back(std::move(name));
    log2.push_back(static_cast<int>(b.size()));
    for (const auto& basis : b)
      flat.insert(flat.end(), basis.begin(), basis.end());
  }
  return FromFlat(std::move(names), std::move(log2), std::move(flat),
                  std::move(outs), require_surjective);
}

absl::StatusOr<LinearLayout> LinearLayout::CreateInferred(
    NamedBases bases, absl::Span<const std::string> out_dim_names) {
  NamedBases in;
  for (auto& [name, b] : bases)
    InsertOrAssign(in, std::move(name), std::move(b));
  NamedInts outs;
  for (const std::string& name : out_dim_names) InsertOrAssign(outs, name, 1);
  for (const auto& [name, b] : in) {
    for (const auto& basis : b) {
      for (size_t i = 0; i < basis.size() && i < out_dim_names.size(); ++i) {
        for (auto& [n, size] : outs) {
          if (n == out_dim_names[i]) {
            size = std::max(size, InferredSize(basis[i]));
          }
        }
      }
    }
  }
  return Create(std::move(in), std::move(outs), /*require_surjective=*/true);
}

absl::StatusOr<LinearLayout> LinearLayout::Strided1D(
    int32_t size, int32_t stride, absl::string_view in_dim,
    absl::string_view out_dim) {
  if (size == 0) return LinearLayout();
  if (!IsPowerOf2U32(size)) {
    return Error(absl::StrCat("size ", size,
                              " of a 1-D layout is not a power "
                              "of two (Triton: isPowerOf2_32(size))"));
  }
  const int n = Log2U32(size);
  if (n > kMaxInDimBits) {
    return Error(absl::StrCat("LinearLayout too large: size ", size));
  }
  std::vector<int32_t> flat;
  for (int i = 0; i < n; ++i) {
    flat.push_back(static_cast<int32_t>(static_cast<uint32_t>(int64_t{1} << i) *
                                        static_cast<uint32_t>(stride)));
  }
  const int32_t out_size = static_cast<int32_t>(static_cast<uint32_t>(stride) *
                                                static_cast<uint32_t>(size));
  const int log2 = n;
  if (stride == 1) {  // the identity: valid and surjective
    return FromFlatTrusted({std::string(in_dim)}, {&log2, 1}, flat,
                           {{std::string(out_dim), out_size}});
  }
  return FromFlat({std::string(in_dim)}, {&log2, 1}, flat,
                  {{std::string(out_dim), out_size}}, false);
}

absl::StatusOr<LinearLayout> LinearLayout::Identity1D(
    int32_t size, absl::string_view in_dim, absl::string_view out_dim) {
  return Strided1D(size, 1, in_dim, out_dim);
}

absl::StatusOr<LinearLayout> LinearLayout::Zeros1D(int32_t size,
                                                   absl::string_view in_dim,
                                                   absl::string_view out_dim,
                                                   int32_t out_size) {
  if (size == 0) return LinearLayout();
  if (!IsPowerOf2U32(size)) {
    return Error(absl::StrCat("size ", size,
                              " of a 1-D layout is not a power "
                              "of two (Triton: isPowerOf2_32(size))"));
  }
  const int n = Log2U32(size);
  if (n > kMaxInDimBits) {
    return Error(absl::StrCat("LinearLayout too large: size ", size));
  }
  const int log2 = n;
  const std::vector<int32_t> zeros(n, 0);
  if (out_size == 1) {  // zeros onto one element: valid and surjective
    return FromFlatTrusted({std::string(in_dim)}, {&log2, 1}, zeros,
                           {{std::string(out_dim), 1}});
  }
  return FromFlat({std::string(in_dim)}, {&log2, 1}, zeros,
                  {{std::string(out_dim), out_size}}, false);
}

int LinearLayout::InDimIndex(absl::string_view name) const {
  for (size_t d = 0; d < in_names_.size(); ++d) {
    if (in_names_[d] == name) return static_cast<int>(d);
  }
  return -1;
}

int LinearLayout::OutDimIndex(absl::string_view name) const {
  for (size_t o = 0; o < out_dims_.size(); ++o) {
    if (out_dims_[o].first == name) return static_cast<int>(o);
  }
  return -1;
}

std::vector<std::string> LinearLayout::OutDimNames() const {
  std::vector<std::string> names;
  names.reserve(out_dims_.size());
  for (const auto& od : out_dims_) names.push_back(od.first);
  return names;
}

NamedBases LinearLayout::bases() const {
  NamedBases b;
  for (int d = 0; d < num_in_dims(); ++d) {
    DimBases db;
    for (int i = 0; i < in_log2_[d]; ++i) {
      auto s = Basis(d, i);
      db.emplace_back(s.begin(), s.end());
    }
    b.emplace_back(in_names_[d], std::move(db));
  }
  return b;
}

absl::StatusOr<NamedInts> LinearLayout::Apply(
    absl::Span<const std::pair<std::string, int32_t>> ins) const {
  std::vector<std::string> given;
  for (const auto& in : ins) given.push_back(in.first);
  if (!SameDimsIgnoringOrder(given, in_names_)) {
    return DimsMismatchError(given, in_names_);
  }
  const size_t num_out = out_dims_.size();
  std::vector<int32_t> out(num_out, 0);
  for (const auto& [name, value] : ins) {
    const int d = InDimIndex(name);
    for (int i = 0; i < in_log2_[d]; ++i) {
      if (value & (int32_t{1} << i)) {
        auto b = Basis(d, i);
        for (size_t o = 0; o < num_out; ++o) out[o] ^= b[o];
      }
    }
  }
  NamedInts result;
  result.reserve(num_out);
  for (size_t o = 0; o < num_out; ++o) {
    result.emplace_back(out_dims_[o].first, out[o]);
  }
  return result;
}

void LinearLayout::ApplyIndexed(absl::Span<const int32_t> ins,
                                absl::Span<int32_t> out) const {
  const size_t num_out = out_dims_.size();
  for (size_t o = 0; o < num_out; ++o) out[o] = 0;
  for (int d = 0; d < num_in_dims(); ++d) {
    uint32_t bits =
        static_cast<uint32_t>(ins[d]) & ((uint32_t{1} << in_log2_[d]) - 1);
    while (bits) {
      const int i = __builtin_ctz(bits);
      bits &= bits - 1;
      // data(), not &flat_[...]: with no out-dims the table is empty.
      const int32_t* b = flat_.data() + (in_offset_[d] + i) * num_out;
      for (size_t o = 0; o < num_out; ++o) out[o] ^= b[o];
    }
  }
}

std::vector<uint64_t> LinearLayout::Matrix() const {
  std::vector<uint64_t> m(total_out_log2_, 0);
  const size_t num_out = out_dims_.size();
  int r = 0;
  for (size_t o = 0; o < num_out; ++o) {
    int c = 0;
    for (int d = 0; d < num_in_dims(); ++d) {
      for (int i = 0; i < in_log2_[d]; ++i, ++c) {
        const uint64_t v = static_cast<uint32_t>(BasisValue(d, i, o));
        for (int j = 0; j < out_log2_[o]; ++j) {
          m[r + j] |= ((v >> j) & 1) << c;
        }
      }
    }
    r += out_log2_[o];
  }
  return m;
}

std::string LinearLayout::ToString() const {
  std::vector<std::pair<std::string, int>> dims;
  for (int d = 0; d < num_in_dims(); ++d) {
    dims.emplace_back(in_names_[d], in_log2_[d]);
  }
  return Format(dims, out_dims_,
                [&](size_t d, int i) { return Basis(static_cast<int>(d), i); });
}

}  // namespace hlolayout::triton
