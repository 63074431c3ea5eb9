// cute/composition.cc: composition with the exact divisibility rule.
#include "hlolayout/cute/composition.h"

#include <cstdint>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "hlolayout/cute/coalesce.h"
#include "hlolayout/cute/print.h"
#include "hlolayout/util/status_macros.h"

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
    for (const Mode& m : b_.leaf_modes()) {
      if (m.shape.value == 1 || m.stride.value == 0) continue;
      ++nontrivial;
      (m.stride.value > 0 ? positive : negative) = true;
    }
    if (positive && negative) {
      return Fail("B mixes positive and negative strides");
    }
    HLOLAYOUT_ASSIGN_OR_RETURN(Piece p, Walk(b_.shape(), b_.stride()));
    if (nontrivial > 1) {
      for (size_t k = 0; k + 1 < modes_.size(); ++k) {
        if (reach_[k] >= modes_[k].shape.value) {
          return Fail(absl::StrCat(
              "fails at mode ", k, " of coalesced A (", ModeString(k),
              "): the modes of B reach digit ", reach_[k],
              " in it together, past its size ", modes_[k].shape.value));
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
    return absl::StrCat(ToString(IntTuple(modes_[k].shape)), ":",
                        ToString(IntTuple(modes_[k].stride)));
  }

  absl::Status Fail(absl::string_view what) const {
    return absl::InvalidArgumentError(absl::StrCat(
        "composition ", ToString(a_), " o ", ToString(b_), " ", what));
  }

  absl::StatusOr<Piece> Walk(const IntTuple& shape, const IntTuple& stride) {
    if (shape.is_int()) return Leaf(shape.integer(), stride.integer());
    const std::vector<IntTuple>& se = shape.elements();
    const std::vector<IntTuple>& de = stride.elements();
    std::vector<IntTuple> sh, st;
    sh.reserve(se.size());
    st.reserve(se.size());
    for (size_t i = 0; i < se.size(); ++i) {
      HLOLAYOUT_ASSIGN_OR_RETURN(Piece p, Walk(se[i], de[i]));
      sh.push_back(std::move(p.shape));
      st.push_back(std::move(p.stride));
    }
    return Piece{IntTuple::Tuple(std::move(sh)),
                 IntTuple::Tuple(std::move(st))};
  }

  // A o s:d for one integral leaf of B, following CuTe's composition_impl
  // step by step (so that values and tags come out as CuTe's), with the
  // exact admissibility rule checked at every step that places elements.
  absl::StatusOr<Piece> Leaf(Int s, Int d) {
    if (d.value == 0) return Piece{s, d};
    if (d.value == INT64_MIN) return Fail("has a stride of -2^63");
    Int product;
    if (modes_.size() == 1) {
      if (!TryMul(d, modes_[0].stride, &product)) {
        return Fail("gives a stride that overflows int64");
      }
      return Piece{s, product};
    }
    internal::Modes out;
    Int rest_shape = s;
    Int rest_stride = d;
    for (size_t k = 0; k + 1 < modes_.size(); ++k) {
      const Int n = modes_[k].shape;
      const Int a = modes_[k].stride;
      const Int step = Abs(rest_stride);
      const int64_t r = rest_shape.value;
      if (r > 1) HLOLAYOUT_RETURN_IF_ERROR(Check(k, step.value, r));
      const Int next_shape = CeilDiv(n, step);
      const Int next_stride = Mul(CeilDiv(step, n), Signum(rest_stride));
      if (next_shape.value == 1 || r == 1) {
        rest_stride = next_stride;
        continue;
      }
      const Int new_shape = Min(next_shape, rest_shape);
      AddReach(k, (new_shape.value - 1) * step.value);
      if (!TryMul(rest_stride, a, &product)) {
        return Fail("gives a stride that overflows int64");
      }
      out.push_back(Mode{new_shape, product});
      rest_shape = Div(rest_shape, new_shape);
      rest_stride = next_stride;
    }
    if (out.empty() || rest_shape.value != 1) {
      if (!TryMul(rest_stride, modes_.back().stride, &product)) {
        return Fail("gives a stride that overflows int64");
      }
      if (out.empty()) return Piece{rest_shape, product};
      out.push_back(Mode{rest_shape, product});
    }
    if (out.size() == 1) return Piece{out[0].shape, out[0].stride};
    std::vector<IntTuple> sh, st;
    sh.reserve(out.size());
    st.reserve(out.size());
    for (const Mode& m : out) {
      sh.emplace_back(m.shape);
      st.emplace_back(m.stride);
    }
    return Piece{IntTuple::Tuple(std::move(sh)),
                 IntTuple::Tuple(std::move(st))};
  }

  // The exact rule at mode k of coalesced A, with `step` the stride still to
  // divide out and `r` > 1 the elements of B still to place.
  absl::Status Check(size_t k, int64_t step, int64_t r) const {
    const int64_t n = modes_[k].shape.value;
    if (step % n == 0) return absl::OkStatus();  // The mode is skipped whole.
    if (n % step == 0) {                         // The mode is split.
      const int64_t q = n / step;
      if (r > q && r % q != 0) {
        return Fail(absl::StrCat(
            "fails at mode ", k, " of coalesced A (", ModeString(k),
            "): the mode holds ", q, " elements at stride ", step,
            ", which does not divide the ", r, " remaining elements of B"));
      }
      return absl::OkStatus();
    }
    // Neither divides: B must end inside this mode.
    if ((r - 1) > (n - 1) / step) {
      return Fail(absl::StrCat(
          "fails at mode ", k, " of coalesced A (", ModeString(k), "): stride ",
          step, " and size ", n, " do not divide each other and the ", r,
          " elements of B at stride ", step, " do not fit inside it"));
    }
    return absl::OkStatus();
  }

  void AddReach(size_t k, int64_t digit) {
    if (__builtin_add_overflow(reach_[k], digit, &reach_[k])) {
      reach_[k] = INT64_MAX;
    }
  }

  const Layout& a_;
  const Layout& b_;
  internal::Modes modes_;
  // Per mode of coalesced A, the sum over B's leaves of the largest digit
  // each one reaches in it.
  absl::InlinedVector<int64_t, 8> reach_;
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
    HLOLAYOUT_ASSIGN_OR_RETURN(Layout m,
                               Composition(a.mode(i), b.elements()[i]));
    modes.push_back(std::move(m));
  }
  return MakeLayout(modes);
}

namespace internal {

namespace {

absl::Status DivisionByZero() {
  return absl::InvalidArgumentError("composition: division by zero");
}

absl::Status Overflow() {
  return absl::OutOfRangeError("composition: a stride overflows int64");
}

// ceil(a / b) as the DSL computes it: the true ceiling of two static
// integers, a `?` divided by a static 1 itself, else a `?` of
// divisibility 1 (cute/integer.h CeilDiv).
absl::StatusOr<Int> DslCeilDiv(Int a, Int b) {
  if (IsStaticOne(b)) return a;
  if (!a.is_static || !b.is_static) return CeilDiv(a, b);
  if (b.value == 0) return DivisionByZero();
  if (b.value == -1 && a.value == INT64_MIN) return Overflow();
  int64_t q = a.value / b.value;
  if (a.value % b.value != 0 && ((a.value < 0) == (b.value < 0))) ++q;
  return Int::Static(q);
}

// CuTe's stride divisibility check as the DSL applies it: only between
// static integers, d % n == 0 or d < n (truncating, signed as given).
absl::Status CheckStride(Int n, Int d) {
  if (!n.is_static || !d.is_static || n.value == 0) return absl::OkStatus();
  if (d.value % n.value == 0 || d.value < n.value) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat("composition: Stride Divisibility Condition: stride ",
                   d.value, " and shape ", n.value));
}

}  // namespace

absl::StatusOr<std::vector<SourcedMode>> DslCompositionLeaf(
    absl::Span<const Int> a_shapes, Int s, Int d) {
  if (IsConstant(d, 0)) return std::vector<SourcedMode>{{s, d, -1}};
  const int last = static_cast<int>(a_shapes.size()) - 1;
  if (last <= 0) return std::vector<SourcedMode>{{s, d, 0}};
  std::vector<SourcedMode> out;
  Int rest_shape = s;
  Int rest_stride = d;
  for (int k = 0; k < last; ++k) {
    const Int n = a_shapes[k];
    HLOLAYOUT_RETURN_IF_ERROR(CheckStride(n, rest_stride));
    if (rest_stride.value == INT64_MIN) return Overflow();
    const Int step = Abs(rest_stride);
    HLOLAYOUT_ASSIGN_OR_RETURN(const Int next_shape, DslCeilDiv(n, step));
    HLOLAYOUT_ASSIGN_OR_RETURN(const Int up, DslCeilDiv(step, n));
    const Int next_stride = Mul(up, Signum(rest_stride));
    if (IsConstant(next_shape, 1) || IsConstant(rest_shape, 1)) {
      rest_stride = next_stride;
      continue;
    }
    const Int new_shape = Min(next_shape, rest_shape);
    if (new_shape.is_static && rest_shape.is_static) {
      if (new_shape.value == 0) return DivisionByZero();
      if (rest_shape.value % new_shape.value != 0) {
        return absl::InvalidArgumentError(absl::StrCat(
            "composition: Shape Divisibility Condition: ", new_shape.value,
            " does not divide ", rest_shape.value));
      }
    }
    out.push_back(SourcedMode{new_shape, rest_stride, k});
    rest_shape = Div(rest_shape, new_shape);
    rest_stride = next_stride;
  }
  if (out.empty() || !IsConstant(rest_shape, 1)) {
    out.push_back(SourcedMode{rest_shape, rest_stride, last});
  }
  return out;
}

namespace {

// B's leaves in turn through DslCompositionLeaf, in B's shape.
absl::Status ComposeDslTree(const Modes& a, const std::vector<Int>& shapes,
                            const IntTuple& shape, const IntTuple& stride,
                            IntTuple& out_shape, IntTuple& out_stride) {
  if (!shape.is_int()) {
    std::vector<IntTuple> sh(shape.elements().size());
    std::vector<IntTuple> st(sh.size());
    for (size_t i = 0; i < sh.size(); ++i) {
      HLOLAYOUT_RETURN_IF_ERROR(ComposeDslTree(
          a, shapes, shape.elements()[i], stride.elements()[i], sh[i], st[i]));
    }
    out_shape = IntTuple::Tuple(std::move(sh));
    out_stride = IntTuple::Tuple(std::move(st));
    return absl::OkStatus();
  }
  HLOLAYOUT_ASSIGN_OR_RETURN(
      std::vector<SourcedMode> leaf,
      DslCompositionLeaf(shapes, shape.integer(), stride.integer()));
  Modes modes;
  for (const SourcedMode& m : leaf) {
    Int st = m.factor;
    if (m.source >= 0 && !TryMul(m.factor, a[m.source].stride, &st)) {
      return Overflow();
    }
    modes.push_back(Mode{m.shape, st});
  }
  // The DSL coalesces a leaf's modes (known integers only).
  if (modes.size() > 1) modes = CoalesceModes(modes);
  if (modes.empty()) modes.push_back(Mode{Int::Static(1), Int::Static(0)});
  if (modes.size() == 1) {
    out_shape = IntTuple(modes[0].shape);
    out_stride = IntTuple(modes[0].stride);
    return absl::OkStatus();
  }
  std::vector<IntTuple> sh, st;
  for (const Mode& m : modes) {
    sh.emplace_back(m.shape);
    st.emplace_back(m.stride);
  }
  out_shape = IntTuple::Tuple(std::move(sh));
  out_stride = IntTuple::Tuple(std::move(st));
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::pair<IntTuple, IntTuple>> DslComposition(
    const Modes& a_leaves, const IntTuple& b_shape, const IntTuple& b_stride) {
  const Modes a = CoalesceX(a_leaves);
  std::vector<Int> shapes;
  shapes.reserve(a.size());
  for (const Mode& m : a) shapes.push_back(m.shape);
  std::pair<IntTuple, IntTuple> r;
  HLOLAYOUT_RETURN_IF_ERROR(
      ComposeDslTree(a, shapes, b_shape, b_stride, r.first, r.second));
  return r;
}

}  // namespace internal

}  // namespace hlolayout::cute
