#include "hlolayout/triton/named_layouts_fast.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"

namespace hlolayout::triton {
namespace {

constexpr int kMaxRank = 4;
enum In { kRegister = 0, kLane = 1, kWarp = 2, kBlock = 3 };

bool IsPow2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }
int Log2(int64_t v) { return 63 - __builtin_clzll(static_cast<uint64_t>(v)); }

// A register layout under construction: in-dims register, lane, warp (in
// that order, as every product below makes them), out-dims dim0..dim<r-1>
// in the order they were first used.
class Lite {
 public:
  explicit Lite(int rank) : rank_(rank) {}

  // Product with identity1D(2^bits, in, dim<dim>).
  bool Identity(In in, int dim, int bits) {
    Touch(dim);
    if (log2_[dim] + bits > 30) return false;
    for (int k = 0; k < bits; ++k) {
      Basis b{};
      b[dim] = int32_t{1} << (log2_[dim] + k);
      bases_[in].push_back(b);
    }
    log2_[dim] += bits;
    return true;
  }
  bool IdentitySize(In in, int dim, int64_t size) {
    if (!IsPow2(size)) return false;
    return Identity(in, dim, Log2(size));
  }
  // Product with zeros1D(2^bits, in, dim<dim>).
  bool Zeros(In in, int dim, int64_t size) {
    if (!IsPow2(size)) return false;
    Touch(dim);
    for (int k = 0; k < Log2(size); ++k) bases_[in].push_back(Basis{});
    return true;
  }
  void Touch(int dim) {
    for (int i = 0; i < num_order_; ++i) {
      if (order_[i] == dim) return;
    }
    order_[num_order_++] = dim;
  }

  // Triton's ensureLayoutNotSmallerThan: more registers, dims in order.
  bool NotSmaller(absl::Span<const int64_t> shape) {
    for (int i = 0; i < num_order_; ++i) {
      const int d = order_[i];
      const int want = Log2(shape[d]);
      if (log2_[d] < want && !Identity(kRegister, d, want - log2_[d])) {
        return false;
      }
    }
    return true;
  }

  // Triton's ensureLayoutNotLargerThan (broadcasting): zero the largest
  // values of each dim that is too large; then the sizes Triton infers.
  bool NotLarger(absl::Span<const int64_t> shape) {
    struct Entry {
      int32_t value;
      int in, index;
    };
    for (int d = 0; d < rank_; ++d) {
      int64_t actual = int64_t{1} << log2_[d];
      if (actual <= shape[d]) continue;
      absl::InlinedVector<Entry, 32> sorted;
      for (int in = 0; in < 3; ++in) {
        for (size_t i = 0; i < bases_[in].size(); ++i) {
          const int32_t v = bases_[in][i][d];
          if (v == 0) continue;
          if (!IsPow2(v)) return false;
          sorted.push_back({v, in, static_cast<int>(i)});
        }
      }
      std::stable_sort(
          sorted.begin(), sorted.end(),
          [](const Entry& a, const Entry& b) { return a.value > b.value; });
      for (const Entry& e : sorted) {
        if (actual <= shape[d]) break;
        bases_[e.in][e.index][d] = 0;
        actual >>= 1;
      }
    }
    // Inferred sizes; the rebuilt layout must be surjective, which holds
    // when each dim's values are exactly 1, 2, 4, ... below its size.
    for (int d = 0; d < rank_; ++d) {
      uint64_t seen = 0;
      int count = 0;
      for (int in = 0; in < 3; ++in) {
        for (const Basis& b : bases_[in]) {
          if (b[d] == 0) continue;
          seen |= static_cast<uint64_t>(b[d]);
          ++count;
        }
      }
      const int bits = seen == 0 ? 0 : 64 - __builtin_clzll(seen);
      if (count != bits || seen != (uint64_t{1} << bits) - 1) return false;
      log2_[d] = bits;
    }
    return true;
  }

  // Triton's combineCtaCgaWithShape for one CTA: grow, then clip, to
  // `shape`, which the result must then cover exactly.
  std::optional<LinearLayout> Finish(absl::Span<const int64_t> shape) {
    if (!NotSmaller(shape) || !NotLarger(shape)) return std::nullopt;
    for (int d = 0; d < rank_; ++d) {
      if ((int64_t{1} << log2_[d]) != shape[d]) return std::nullopt;
    }
    // Every basis must move in at most one dim (LinearEncodingAttr).
    int log2[4];
    absl::InlinedVector<int32_t, 64> flat;
    for (int in = 0; in < 3; ++in) {
      log2[in] = static_cast<int>(bases_[in].size());
      for (const Basis& b : bases_[in]) {
        int moving = 0;
        for (int d = 0; d < rank_; ++d) {
          flat.push_back(b[d]);
          moving += b[d] != 0;
        }
        if (moving > 1) return std::nullopt;
      }
    }
    log2[kBlock] = 0;
    if (log2[0] > 30 || log2[1] > 30 || log2[2] > 30 ||
        log2[0] + log2[1] + log2[2] > kMaxTotalBits) {
      return std::nullopt;
    }
    NamedInts outs;
    for (int d = 0; d < rank_; ++d) {
      outs.emplace_back(absl::StrCat("dim", d), int32_t{1} << log2_[d]);
    }
    return LinearLayout::FromFlatTrusted({"register", "lane", "warp", "block"},
                                         absl::MakeConstSpan(log2, 4), flat,
                                         std::move(outs));
  }

 private:
  using Basis = std::array<int32_t, kMaxRank>;
  int rank_;
  int order_[kMaxRank] = {};
  int num_order_ = 0;
  int log2_[kMaxRank] = {};
  absl::InlinedVector<Basis, 16> bases_[3];
};

bool Permutation(absl::Span<const int32_t> order, int rank) {
  if (static_cast<int>(order.size()) != rank) return false;
  bool seen[kMaxRank] = {};
  for (int32_t o : order) {
    if (o < 0 || o >= rank || seen[o]) return false;
    seen[o] = true;
  }
  return true;
}

bool ShapeOk(absl::Span<const int64_t> shape, int rank) {
  if (static_cast<int>(shape.size()) != rank || rank < 1 || rank > kMaxRank) {
    return false;
  }
  for (int64_t s : shape) {
    if (!IsPow2(s) || s > (int64_t{1} << 30)) return false;
  }
  return true;
}

std::optional<LinearLayout> Blocked(const BlockedLayout& b,
                                    absl::Span<const int64_t> shape) {
  const int rank = static_cast<int>(b.order.size());
  if (!b.cga.empty() || !ShapeOk(shape, rank) || !Permutation(b.order, rank) ||
      static_cast<int>(b.size_per_thread.size()) != rank ||
      static_cast<int>(b.threads_per_warp.size()) != rank ||
      static_cast<int>(b.warps_per_cta.size()) != rank) {
    return std::nullopt;
  }
  Lite l(rank);
  const std::vector<int32_t>* sizes[] = {&b.size_per_thread,
                                         &b.threads_per_warp, &b.warps_per_cta};
  for (int in = 0; in < 3; ++in) {
    for (int32_t d : b.order) {
      if (!l.IdentitySize(static_cast<In>(in), d, (*sizes[in])[d])) {
        return std::nullopt;
      }
    }
  }
  return l.Finish(shape);
}

// nvidiaMmaTile: registers kWidth along the inner dim, 4 lanes inner, 8
// lanes outer, then repeats outer and inner.
bool MmaTile(Lite& l, absl::Span<const int32_t> tile, int k_width,
             absl::Span<const int32_t> order, absl::Span<const int32_t> rep) {
  for (int32_t d : rep) l.Touch(d);
  const int inner = order[0], outer = order[1];
  const int64_t m = tile[outer], n = tile[inner];
  if (m % 8 != 0 || n % (int64_t{k_width} * 4) != 0) return false;
  return l.IdentitySize(kRegister, inner, k_width) &&
         l.IdentitySize(kLane, inner, 4) && l.IdentitySize(kLane, outer, 8) &&
         l.IdentitySize(kRegister, outer, m / 8) &&
         l.IdentitySize(kRegister, inner, n / (int64_t{k_width} * 4));
}

std::vector<int32_t> MatrixOrder(int rank, bool row_major) {
  std::vector<int32_t> order(rank);
  for (int i = 0; i < rank; ++i) order[i] = rank - 1 - i;
  if (rank >= 2 && !row_major) std::swap(order[0], order[1]);
  return order;
}

bool MmaOk(const NvidiaMmaLayout& m) {
  const int rank = static_cast<int>(m.warps_per_cta.size());
  if (!m.cga.empty() || rank < 2 || rank > kMaxRank) return false;
  if (m.version_major == 2)
    return m.instr_shape.size() == m.warps_per_cta.size();
  return m.version_major == 3 && rank == 2 && m.instr_shape.size() == 3;
}

std::optional<LinearLayout> Mma(const NvidiaMmaLayout& m,
                                absl::Span<const int64_t> shape) {
  if (!MmaOk(m)) return std::nullopt;
  const int rank = static_cast<int>(m.warps_per_cta.size());
  if (!ShapeOk(shape, rank)) return std::nullopt;
  std::vector<int32_t> tile = m.instr_shape;
  if (m.version_major == 3) tile = {m.instr_shape[0], m.instr_shape[1]};
  const std::vector<int32_t> order = MatrixOrder(rank, true);
  Lite l(rank);
  if (!MmaTile(l, tile, 2, order, order)) return std::nullopt;
  for (int32_t d : MatrixOrder(rank, m.version_major != 3)) {
    if (!l.IdentitySize(kWarp, d, m.warps_per_cta[d])) return std::nullopt;
  }
  return l.Finish(shape);
}

std::optional<LinearLayout> NvidiaDot(const DotOperandLayout& dot,
                                      const NvidiaMmaLayout& m,
                                      absl::Span<const int64_t> shape) {
  if (!MmaOk(m)) return std::nullopt;
  const int rank = static_cast<int>(m.warps_per_cta.size());
  if (!ShapeOk(shape, rank) || !IsPow2(dot.k_width) || dot.k_width > 64) {
    return std::nullopt;
  }
  const bool is_a = dot.op_idx == 0;
  if (!is_a && (dot.op_idx != 1 || m.version_major != 2)) return std::nullopt;
  std::vector<int32_t> tile(rank, 1);
  tile[rank - 2] = is_a ? 16 : dot.k_width * 8;
  tile[rank - 1] = is_a ? dot.k_width * 8 : 8;
  const std::vector<int32_t> order = MatrixOrder(rank, is_a);
  Lite l(rank);
  if (!MmaTile(l, tile, dot.k_width, order, order)) return std::nullopt;
  const int k_dim = is_a ? rank - 1 : rank - 2;
  for (int32_t d : MatrixOrder(rank, m.version_major != 3)) {
    const bool ok = d == k_dim ? l.Zeros(kWarp, d, m.warps_per_cta[d])
                               : l.IdentitySize(kWarp, d, m.warps_per_cta[d]);
    if (!ok) return std::nullopt;
  }
  return l.Finish(shape);
}

std::optional<LinearLayout> FmaDot(const DotOperandLayout& dot,
                                   const BlockedLayout& b,
                                   absl::Span<const int64_t> shape) {
  const int rank = static_cast<int>(b.order.size());
  if (!b.cga.empty() || rank < 2 || !ShapeOk(shape, rank) ||
      !Permutation(b.order, rank) ||
      static_cast<int>(b.size_per_thread.size()) != rank ||
      static_cast<int>(b.threads_per_warp.size()) != rank ||
      static_cast<int>(b.warps_per_cta.size()) != rank ||
      (dot.op_idx != 0 && dot.op_idx != 1) || !Blocked(b, shape)) {
    return std::nullopt;
  }
  for (int d = 0; d < rank; ++d) {
    if (!IsPow2(b.size_per_thread[d]) || !IsPow2(b.threads_per_warp[d]) ||
        !IsPow2(b.warps_per_cta[d])) {
      return std::nullopt;
    }
  }
  const int k_dim = dot.op_idx == 0 ? rank - 1 : rank - 2;
  Lite l(rank);
  for (int32_t d : b.order) l.Touch(d);  // the rep order
  for (int32_t d : b.order) {
    const int64_t size = d == k_dim ? shape[k_dim] : b.size_per_thread[d];
    if (!l.IdentitySize(kRegister, d, size)) return std::nullopt;
  }
  const std::vector<int32_t>* sizes[] = {&b.threads_per_warp, &b.warps_per_cta};
  for (int in = 0; in < 2; ++in) {
    for (int32_t d : b.order) {
      const In which = in == 0 ? kLane : kWarp;
      const bool ok = d == k_dim ? l.Zeros(which, d, (*sizes[in])[d])
                                 : l.IdentitySize(which, d, (*sizes[in])[d]);
      if (!ok) return std::nullopt;
    }
  }
  return l.Finish(shape);
}

}  // namespace

std::optional<LinearLayout> FastToLinearLayout(
    const Layout& layout, absl::Span<const int64_t> shape) {
  if (const auto* b = layout.get<BlockedLayout>()) return Blocked(*b, shape);
  if (const auto* m = layout.get<NvidiaMmaLayout>()) return Mma(*m, shape);
  if (const auto* d = layout.get<DotOperandLayout>()) {
    if (d->parent == nullptr) return std::nullopt;
    if (const auto* m = d->parent->get<NvidiaMmaLayout>()) {
      return NvidiaDot(*d, *m, shape);
    }
    if (const auto* b = d->parent->get<BlockedLayout>()) {
      return FmaDot(*d, *b, shape);
    }
  }
  return std::nullopt;
}

}  // namespace hlolayout::triton
