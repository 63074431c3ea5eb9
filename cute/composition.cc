// cute/composition.cc: composition with the exact divisibility rule.
#include "hlolayout/cute/composition.h"

#include <cstdint>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "hlolayout/cute/coalesce.h"
#include "hlolayout/cute/internal/status_macros.h"
#include "hlolayout/cute/print.h"

namespace hlolayout::cute {

namespace {

using internal::Mode;

class Composer {
 public:
  Composer(const Layout& a, const Layout& b)
      : a_(a),
        b_(b),
        modes_(internal::CoalesceX(a)),
        reach_(modes_.size(), 0) {}

  absl::StatusOr<Layout> Run() {
    // Strides of B's non-trivial leaves must not mix signs.
    bool positive = false, negative = false;
    int nontrivial = 0;
    const std::vector<int64_t> s = Flatten(b_.shape());
    const std::vector<int64_t> d = Flatten(b_.stride());
    for (size_t k = 0; k < s.size(); ++k) {
      if (s[k] == 1 || d[k] == 0) continue;
      ++nontrivial;
      (d[k] > 0 ? positive : negative) = true;
    }
    if (positive && negative) {
      return Fail("B mixes positive and negative strides");
    }
    CUTE_ASSIGN_OR_RETURN(Piece p, Walk(b_.shape(), b_.stride()));
    if (nontrivial > 1) {
      for (size_t k = 0; k + 1 < modes_.size(); ++k) {
        if (reach_[k] >= modes_[k].shape) {
          return Fail(absl::StrCat(
              "fails at mode ", k, " of coalesced A (", ModeString(k),
              "): the modes of B reach digit ", reach_[k],
              " in it together, past its size ", modes_[k].shape));
        }
      }
    }
    absl::StatusOr<Layout> r =
        Layout::Create(std::move(p.shape), std::move(p.stride));
    if (!r.ok()) return Fail(absl::StrCat("gives ", r.status().message()));
    return r;
  }

 private:
  struct Piece {
    IntTuple shape;
    IntTuple stride;
  };

  std::string ModeString(size_t k) const {
    return absl::StrCat(modes_[k].shape, ":", modes_[k].stride);
  }

  absl::Status Fail(absl::string_view what) const {
    return absl::InvalidArgumentError(absl::StrCat(
        "composition ", ToString(a_), " o ", ToString(b_), " ", what));
  }

  absl::StatusOr<Piece> Walk(const IntTuple& shape, const IntTuple& stride) {
    if (shape.is_int()) return Leaf(shape.value(), stride.value());
    std::vector<IntTuple> sh, st;
    for (int i = 0; i < Rank(shape); ++i) {
      CUTE_ASSIGN_OR_RETURN(Piece p, Walk(shape[i], stride[i]));
      sh.push_back(std::move(p.shape));
      st.push_back(std::move(p.stride));
    }
    return Piece{IntTuple::Tuple(std::move(sh)),
                 IntTuple::Tuple(std::move(st))};
  }

  // A o s:d for one integral leaf of B.
  absl::StatusOr<Piece> Leaf(int64_t s, int64_t d) {
    std::vector<Mode> out;
    auto emit = [&](int64_t shape, int64_t step, int64_t a) -> absl::Status {
      int64_t stride;
      if (__builtin_mul_overflow(step, a, &stride)) {
        return Fail("gives a stride that overflows int64");
      }
      out.push_back(Mode{shape, stride});
      return absl::OkStatus();
    };
    if (d == 0) {
      out.push_back(Mode{s, 0});
    } else if (modes_.size() == 1) {
      CUTE_RETURN_IF_ERROR(emit(s, std::llabs(d), modes_[0].stride));
    } else {
      int64_t r = s;
      int64_t step = std::llabs(d);
      for (size_t k = 0; k + 1 < modes_.size() && r > 1; ++k) {
        const int64_t n = modes_[k].shape;
        const int64_t a = modes_[k].stride;
        if (step % n == 0) {  // Skip the whole mode.
          step /= n;
          continue;
        }
        if (n % step == 0) {  // Split the mode.
          const int64_t q = n / step;
          if (r <= q) {
            AddReach(k, (r - 1) * step);
            CUTE_RETURN_IF_ERROR(emit(r, step, a));
            r = 1;
          } else if (r % q != 0) {
            return Fail(absl::StrCat(
                "fails at mode ", k, " of coalesced A (", ModeString(k),
                "): the mode holds ", q, " elements at stride ", step,
                ", which does not divide the ", r, " remaining elements of B"));
          } else {
            AddReach(k, (q - 1) * step);
            CUTE_RETURN_IF_ERROR(emit(q, step, a));
            r /= q;
          }
          step = 1;
          continue;
        }
        // Neither divides: B must end inside this mode.
        if ((r - 1) > (n - 1) / step) {
          return Fail(absl::StrCat(
              "fails at mode ", k, " of coalesced A (", ModeString(k),
              "): stride ", step, " and size ", n,
              " do not divide each other and the ", r,
              " elements of B at stride ", step, " do not fit inside it"));
        }
        AddReach(k, (r - 1) * step);
        CUTE_RETURN_IF_ERROR(emit(r, step, a));
        r = 1;
      }
      if (r > 1 || out.empty()) {
        CUTE_RETURN_IF_ERROR(emit(r, step, modes_.back().stride));
      }
    }
    if (d < 0) {
      for (Mode& m : out) m.stride = -m.stride;
    }
    if (out.size() == 1) return Piece{out[0].shape, out[0].stride};
    std::vector<IntTuple> sh, st;
    for (const Mode& m : out) {
      sh.emplace_back(m.shape);
      st.emplace_back(m.stride);
    }
    return Piece{IntTuple::Tuple(std::move(sh)),
                 IntTuple::Tuple(std::move(st))};
  }

  void AddReach(size_t k, int64_t digit) {
    if (__builtin_add_overflow(reach_[k], digit, &reach_[k])) {
      reach_[k] = INT64_MAX;
    }
  }

  const Layout& a_;
  const Layout& b_;
  std::vector<Mode> modes_;
  // Per mode of coalesced A, the sum over B's leaves of the largest digit
  // each one reaches in it.
  std::vector<int64_t> reach_;
};

}  // namespace

absl::StatusOr<Layout> Composition(const Layout& a, const Layout& b) {
  return Composer(a, b).Run();
}

absl::StatusOr<Layout> Composition(const Layout& a, const Tiler& b) {
  switch (b.kind()) {
    case Tiler::Kind::kUnderscore:
      return a;
    case Tiler::Kind::kLayout:
      return Composition(a, b.layout());
    case Tiler::Kind::kTuple:
      break;
  }
  const int rank = static_cast<int>(b.elements().size());
  if (rank > a.rank()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "composition ", ToString(a), " o ", ToString(b),
        " fails: the tiler has ", rank, " modes and A only ", a.rank()));
  }
  std::vector<Layout> modes;
  for (int i = 0; i < rank; ++i) {
    CUTE_ASSIGN_OR_RETURN(Layout m, Composition(a.mode(i), b.elements()[i]));
    modes.push_back(std::move(m));
  }
  return MakeLayout(modes);
}

}  // namespace hlolayout::cute
