// cute/xla_bridge.cc: XLA tiling by tracking mixed-radix digits.
//
// Each logical index e_l is a mixed-radix number of "digits" (least
// significant first; the top digit unbounded in CuTe). Each physical dim,
// at every step of the tiling, is a sum of terms digit * weight. A tile t
// splits a physical dim into value / t and value % t; that is again a sum
// of terms when every term either has a weight that t divides (it goes
// outer), or stays below t (inner), or straddles t at a weight that
// divides t (the digit is split in two). Digits end up with a stride each:
// weight times the row-major stride of their physical dim.
#include "hlolayout/cute/xla_bridge.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "hlolayout/util/status_macros.h"

namespace hlolayout::cute {

namespace {

struct Digit {
  int logical;
  int64_t range;  // Values are in [0, range).
  bool top;       // The most significant digit of its logical dim.
};

struct Term {
  int digit;
  int64_t weight;
};

struct PhysDim {
  std::vector<Term> terms;
  int64_t extent = 1;
};

absl::Status Cannot(absl::string_view why) {
  return absl::InvalidArgumentError(
      absl::StrCat("cannot be expressed as a cute layout: ", why));
}

absl::Status Overflow() {
  return absl::OutOfRangeError("tiled layout size overflows int64");
}

class Bridge {
 public:
  explicit Bridge(absl::Span<const int64_t> dims) : order_(dims.size()) {
    for (size_t l = 0; l < dims.size(); ++l) {
      digits_.push_back(Digit{static_cast<int>(l), dims[l], true});
      order_[l].push_back(static_cast<int>(l));
    }
  }

  absl::StatusOr<Layout> Run(absl::Span<const int64_t> minor_to_major,
                             const std::vector<std::vector<int64_t>>& tiles) {
    std::vector<PhysDim> shape;
    for (size_t i = minor_to_major.size(); i-- > 0;) {
      const int l = static_cast<int>(minor_to_major[i]);
      shape.push_back(PhysDim{{Term{l, 1}}, digits_[l].range});
    }
    for (size_t ti = 0; ti < tiles.size(); ++ti) {
      HLOLAYOUT_ASSIGN_OR_RETURN(shape, ApplyTile(shape, tiles[ti], ti));
    }
    return Finish(shape);
  }

 private:
  static absl::StatusOr<PhysDim> Merge(const PhysDim& major,
                                       const PhysDim& minor) {
    PhysDim out = minor;
    for (const Term& t : major.terms) {
      int64_t w;
      if (__builtin_mul_overflow(t.weight, minor.extent, &w)) return Overflow();
      out.terms.push_back(Term{t.digit, w});
    }
    if (__builtin_mul_overflow(major.extent, minor.extent, &out.extent)) {
      return Overflow();
    }
    return out;
  }

  absl::StatusOr<std::vector<PhysDim>> ApplyTile(
      std::vector<PhysDim> shape, const std::vector<int64_t>& tile, size_t ti) {
    for (int64_t t : tile) {
      if (t != kCombineDim && t <= 0) {
        return absl::InvalidArgumentError(
            absl::StrCat("tile ", ti, " has a non-positive entry ", t));
      }
    }
    if (tile.empty()) return shape;
    if (tile.back() == kCombineDim) {
      return absl::InvalidArgumentError(absl::StrCat(
          "tile ", ti, " ends with '*', which has no more minor dim to join"));
    }
    while (shape.size() < tile.size()) shape.insert(shape.begin(), PhysDim{});
    const size_t first = shape.size() - tile.size();
    std::vector<PhysDim> out(shape.begin(), shape.begin() + first);
    // Combine `*` dims into the next more minor one.
    std::vector<std::pair<PhysDim, int64_t>> tiled;
    PhysDim carry;
    bool carrying = false;
    for (size_t i = 0; i < tile.size(); ++i) {
      const PhysDim& dim = shape[first + i];
      if (carrying) {
        HLOLAYOUT_ASSIGN_OR_RETURN(carry, Merge(carry, dim));
      } else {
        carry = dim;
        carrying = true;
      }
      if (tile[i] != kCombineDim) {
        tiled.push_back({carry, tile[i]});
        carrying = false;
      }
    }
    std::vector<PhysDim> inner;
    for (size_t j = 0; j < tiled.size(); ++j) {
      PhysDim o, in;
      HLOLAYOUT_RETURN_IF_ERROR(
          Split(tiled[j].first, tiled[j].second, ti, &o, &in));
      out.push_back(std::move(o));
      inner.push_back(std::move(in));
    }
    for (PhysDim& in : inner) out.push_back(std::move(in));
    return out;
  }

  // Splits `dim` by tile size t into outer (value / t) and inner
  // (value % t).
  absl::Status Split(const PhysDim& dim, int64_t t, size_t ti, PhysDim* outer,
                     PhysDim* inner) {
    outer->extent = dim.extent / t + (dim.extent % t != 0);
    inner->extent = t;
    int64_t inner_max = 0;
    for (const Term& term : dim.terms) {
      const Digit d = digits_[term.digit];
      if (d.range == 1) continue;
      const int64_t span = (d.range - 1) * term.weight;  // < extent.
      if (term.weight % t == 0) {
        outer->terms.push_back(Term{term.digit, term.weight / t});
      } else if (span < t) {
        inner->terms.push_back(term);
        inner_max += span;
      } else if (t % term.weight == 0) {
        const int64_t u = t / term.weight;  // 1 < u < range.
        if (!d.top && d.range % u != 0) {
          return Cannot(absl::StrCat(
              "tile ", ti, " cuts a digit of size ", d.range, " of dim ",
              d.logical, " into parts of ", u, ", which does not divide it"));
        }
        const int64_t hi_range =
            d.top ? d.range / u + (d.range % u != 0) : d.range / u;
        const int lo = term.digit;
        digits_[lo] = Digit{d.logical, u, false};
        const int hi = static_cast<int>(digits_.size());
        digits_.push_back(Digit{d.logical, hi_range, d.top});
        std::vector<int>& order = order_[d.logical];
        for (size_t k = 0; k < order.size(); ++k) {
          if (order[k] == lo) {
            order.insert(order.begin() + k + 1, hi);
            break;
          }
        }
        inner->terms.push_back(Term{lo, term.weight});
        inner_max += (u - 1) * term.weight;
        outer->terms.push_back(Term{hi, 1});
      } else {
        return Cannot(absl::StrCat("tile ", ti, " splits a dim by ", t,
                                   " where dim ", d.logical, " runs at step ",
                                   term.weight, " over a span of ", span + 1,
                                   ", neither a multiple nor a divisor "
                                   "of ",
                                   t));
      }
    }
    if (inner_max >= t) {
      return Cannot(absl::StrCat("tile ", ti, " splits a dim by ", t,
                                 " inside a digit that ", t,
                                 " does not cover, so its parts carry"));
    }
    return absl::OkStatus();
  }

  absl::StatusOr<Layout> Finish(const std::vector<PhysDim>& shape) {
    std::vector<int64_t> stride_of(digits_.size(), 0);
    int64_t row = 1;
    for (size_t p = shape.size(); p-- > 0;) {
      for (const Term& term : shape[p].terms) {
        if (__builtin_mul_overflow(term.weight, row, &stride_of[term.digit])) {
          return Overflow();
        }
      }
      if (__builtin_mul_overflow(row, shape[p].extent, &row)) return Overflow();
    }
    std::vector<IntTuple> shapes, strides;
    for (const std::vector<int>& order : order_) {
      std::vector<IntTuple> sh, st;
      for (int g : order) {
        if (digits_[g].range == 1) continue;
        sh.emplace_back(digits_[g].range);
        st.emplace_back(stride_of[g]);
      }
      if (sh.empty()) {
        shapes.emplace_back(1);
        strides.emplace_back(0);
      } else if (sh.size() == 1) {
        shapes.push_back(sh[0]);
        strides.push_back(st[0]);
      } else {
        shapes.push_back(IntTuple::Tuple(std::move(sh)));
        strides.push_back(IntTuple::Tuple(std::move(st)));
      }
    }
    absl::StatusOr<Layout> l =
        Layout::Create(IntTuple::Tuple(std::move(shapes)),
                       IntTuple::Tuple(std::move(strides)));
    if (!l.ok()) return Overflow();
    return l;
  }

  std::vector<Digit> digits_;
  // Per logical dim, its digit ids, least significant first.
  std::vector<std::vector<int>> order_;
};

}  // namespace

absl::StatusOr<Layout> XlaTiledLayoutToCute(
    absl::Span<const int64_t> dims, absl::Span<const int64_t> minor_to_major,
    const std::vector<std::vector<int64_t>>& tiles) {
  if (minor_to_major.size() != dims.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("minor_to_major has ", minor_to_major.size(),
                     " entries for rank ", dims.size()));
  }
  std::vector<bool> seen(dims.size(), false);
  for (int64_t d : minor_to_major) {
    if (d < 0 || d >= static_cast<int64_t>(dims.size()) || seen[d]) {
      return absl::InvalidArgumentError(
          "minor_to_major is not a permutation of the dims");
    }
    seen[d] = true;
  }
  for (size_t l = 0; l < dims.size(); ++l) {
    if (dims[l] <= 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "dim ", l, " has size ", dims[l], "; sizes must be positive"));
    }
  }
  return Bridge(dims).Run(minor_to_major, tiles);
}

}  // namespace hlolayout::cute
