// cute/coord_layout.cc: ScaledBasis strides (parse, print, evaluate,
// compose).
#include "hlolayout/cute/coord_layout.h"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "hlolayout/cute/composition.h"
#include "hlolayout/cute/int_tuple_reader.h"
#include "hlolayout/cute/lexer.h"
#include "hlolayout/cute/print.h"
#include "hlolayout/parser/diagnostic.h"
#include "hlolayout/util/check.h"
#include "hlolayout/util/status_macros.h"

namespace hlolayout::cute {

CoordStride CoordStride::Tuple(std::vector<CoordStride> elements) {
  CoordStride t;
  t.elements_ = std::move(elements);
  return t;
}

const ScaledBasis& CoordStride::leaf() const {
  HLOLAYOUT_CHECK(is_leaf_);
  return leaf_;
}

const std::vector<CoordStride>& CoordStride::elements() const {
  HLOLAYOUT_CHECK(!is_leaf_);
  return elements_;
}

namespace {

std::string BasisToString(const ScaledBasis& b) {
  std::string out = absl::StrCat(b.value);
  for (int m : b.modes) absl::StrAppend(&out, "@", m);
  return out;
}

std::string StrideToString(const CoordStride& s) {
  if (s.is_leaf()) return BasisToString(s.leaf());
  std::string out = "(";
  for (size_t i = 0; i < s.elements().size(); ++i) {
    if (i > 0) out += ",";
    out += StrideToString(s.elements()[i]);
  }
  return out + ")";
}

// The result coordinate while it is summed: a tree whose leaves are the
// components. `kind` is fixed by the first basis that reaches a node.
struct Acc {
  enum Kind { kUnset, kInt, kTuple } kind = kUnset;
  int64_t value = 0;
  std::vector<Acc> kids;
};

// Adds `amount` at `modes` in `acc`.
absl::Status AddAt(Acc* acc, const std::vector<int>& modes, int64_t amount,
                   const ScaledBasis& basis) {
  Acc* node = acc;
  for (int m : modes) {
    if (node->kind == Acc::kInt) {
      return absl::InvalidArgumentError(
          absl::StrCat("scaled basis ", BasisToString(basis),
                       " reaches into a coordinate component another "
                       "stride uses whole"));
    }
    node->kind = Acc::kTuple;
    if (node->kids.size() <= static_cast<size_t>(m)) node->kids.resize(m + 1);
    node = &node->kids[m];
  }
  if (node->kind == Acc::kTuple) {
    return absl::InvalidArgumentError(
        absl::StrCat("scaled basis ", BasisToString(basis),
                     " names a coordinate component another stride splits"));
  }
  node->kind = Acc::kInt;
  if (__builtin_add_overflow(node->value, amount, &node->value)) {
    return absl::InvalidArgumentError("coordinate overflows int64");
  }
  return absl::OkStatus();
}

IntTuple AccToTuple(const Acc& acc) {
  if (acc.kind != Acc::kTuple) return IntTuple(acc.value);
  std::vector<IntTuple> kids;
  kids.reserve(acc.kids.size());
  for (const Acc& k : acc.kids) kids.push_back(AccToTuple(k));
  return IntTuple::Tuple(std::move(kids));
}

// Calls f(shape leaf, stride leaf) for each leaf pair; shape and stride are
// congruent.
template <typename F>
absl::Status ForEachLeaf(const IntTuple& shape, const CoordStride& stride,
                         F&& f) {
  if (shape.is_int()) return f(shape.value(), stride.leaf());
  for (size_t i = 0; i < shape.elements().size(); ++i) {
    HLOLAYOUT_RETURN_IF_ERROR(
        ForEachLeaf(shape.elements()[i], stride.elements()[i], f));
  }
  return absl::OkStatus();
}

bool CongruentStride(const IntTuple& shape, const CoordStride& stride) {
  if (shape.is_int()) return stride.is_leaf();
  if (stride.is_leaf()) return false;
  if (shape.elements().size() != stride.elements().size()) return false;
  for (size_t i = 0; i < shape.elements().size(); ++i) {
    if (!CongruentStride(shape.elements()[i], stride.elements()[i])) {
      return false;
    }
  }
  return true;
}

CoordStride IdentityStride(const IntTuple& shape, std::vector<int>* path) {
  if (shape.is_int()) return ScaledBasis{1, *path};
  std::vector<CoordStride> kids;
  for (size_t i = 0; i < shape.elements().size(); ++i) {
    path->push_back(static_cast<int>(i));
    kids.push_back(IdentityStride(shape.elements()[i], path));
    path->pop_back();
  }
  return CoordStride::Tuple(std::move(kids));
}

// True when `coord` is a coordinate of `shape` in range: an integer against
// an integer or a tuple (a 1-D index into it), a tuple against a tuple of the
// same rank, element by element.
bool InRange(const IntTuple& coord, const IntTuple& shape) {
  if (coord.is_int()) {
    absl::StatusOr<int64_t> size = Size(shape);
    return size.ok() && coord.value() >= 0 && coord.value() < *size;
  }
  if (shape.is_int() || coord.elements().size() != shape.elements().size()) {
    return false;
  }
  for (size_t i = 0; i < coord.elements().size(); ++i) {
    if (!InRange(coord.elements()[i], shape.elements()[i])) return false;
  }
  return true;
}

// Leaf coordinates of `crd` (congruent with `shape`) in order.
void FlattenCoord(const IntTuple& crd, std::vector<int64_t>* out) {
  if (crd.is_int()) {
    out->push_back(crd.value());
    return;
  }
  for (const IntTuple& e : crd.elements()) FlattenCoord(e, out);
}

class CoordParser {
 public:
  explicit CoordParser(absl::string_view text) : lexer_(text) {}

  absl::StatusOr<CoordLayout> Parse() {
    const size_t start = lexer_.Peek().offset;
    HLOLAYOUT_ASSIGN_OR_RETURN(IntTuple shape, ParseShape());
    Token colon = lexer_.Next();
    if (colon.kind != TokenKind::kColon) return Unexpected(colon, "':'");
    const Token stride_start = lexer_.Peek();
    HLOLAYOUT_ASSIGN_OR_RETURN(CoordStride stride, ParseStride(0));
    Token end = lexer_.Next();
    if (end.kind != TokenKind::kEnd) return Unexpected(end, "end of input");
    if (!CongruentStride(shape, stride)) {
      return Error(stride_start, "stride is not congruent with the shape");
    }
    absl::StatusOr<CoordLayout> l =
        CoordLayout::Create(std::move(shape), std::move(stride));
    if (!l.ok()) return ParseError(lexer_.text(), start, l.status().message());
    return l;
  }

 private:
  static constexpr int kMaxDepth = kMaxTupleDepth;

  absl::Status Error(const Token& at, absl::string_view message) {
    return TokenError(lexer_, at, message);
  }
  absl::Status Unexpected(const Token& t, absl::string_view expected) {
    return UnexpectedToken(lexer_, t, expected);
  }

  // The shape: an IntTuple (cute/int_tuple_reader.h) of positive
  // integers, read as dynamic.
  absl::StatusOr<IntTuple> ParseShape() {
    HLOLAYOUT_ASSIGN_OR_RETURN(
        IntTuple shape, ReadIntTuple(lexer_, [this](const Token& t) {
          return t.value <= 0 ? Error(t, "shape must be positive")
                              : absl::OkStatus();
        }));
    return WithTags(shape, /*is_static=*/false);
  }

  absl::StatusOr<CoordStride> ParseStride(int depth) {
    Token t = lexer_.Next();
    if (t.kind == TokenKind::kInt) {
      ScaledBasis b;
      b.value = t.value;
      while (lexer_.Peek().kind == TokenKind::kAt) {
        lexer_.Next();
        Token m = lexer_.Next();
        if (m.kind != TokenKind::kInt) {
          return Unexpected(m, "a mode index after '@'");
        }
        if (m.value < 0 || m.value > kMaxBasisIndex) {
          return Error(
              m, absl::StrCat("basis index must be in 0..", kMaxBasisIndex));
        }
        if (b.modes.size() >= static_cast<size_t>(kMaxBasisDepth)) {
          return Error(
              m, absl::StrCat("scaled basis deeper than ", kMaxBasisDepth));
        }
        b.modes.push_back(static_cast<int>(m.value));
      }
      return CoordStride(std::move(b));
    }
    if (t.kind != TokenKind::kLParen) return Unexpected(t, "integer or '('");
    if (depth >= kMaxDepth) {
      return Error(t, absl::StrCat("nesting deeper than ", kMaxDepth));
    }
    std::vector<CoordStride> elements;
    if (lexer_.Peek().kind == TokenKind::kRParen) {
      lexer_.Next();
      return CoordStride::Tuple(std::move(elements));
    }
    while (true) {
      HLOLAYOUT_ASSIGN_OR_RETURN(CoordStride e, ParseStride(depth + 1));
      elements.push_back(std::move(e));
      Token sep = lexer_.Next();
      if (sep.kind == TokenKind::kRParen) break;
      if (sep.kind != TokenKind::kComma) return Unexpected(sep, "',' or ')'");
    }
    return CoordStride::Tuple(std::move(elements));
  }

  Lexer lexer_;
};

}  // namespace

absl::StatusOr<CoordLayout> CoordLayout::Create(IntTuple shape,
                                                CoordStride stride) {
  if (!CongruentStride(shape, stride)) {
    return absl::InvalidArgumentError("stride is not congruent with the shape");
  }
  CoordLayout l;
  Acc shape_of_result;  // checks that the bases nest consistently
  int64_t size = 1;
  HLOLAYOUT_RETURN_IF_ERROR(ForEachLeaf(
      shape, stride, [&](int64_t s, const ScaledBasis& b) -> absl::Status {
        if (s <= 0) {
          return absl::InvalidArgumentError(
              absl::StrCat("shape must be positive, found ", s));
        }
        if (__builtin_mul_overflow(size, s, &size)) {
          return absl::InvalidArgumentError("size overflows int64");
        }
        if (b.modes.size() > static_cast<size_t>(kMaxBasisDepth)) {
          return absl::InvalidArgumentError(
              absl::StrCat("scaled basis deeper than ", kMaxBasisDepth));
        }
        for (int m : b.modes) {
          if (m < 0 || m > kMaxBasisIndex) {
            return absl::InvalidArgumentError(
                absl::StrCat("basis index must be in 0..", kMaxBasisIndex));
          }
        }
        if (b.value == 0) return absl::OkStatus();  // adds nothing
        // Largest |value * (s - 1)| must fit: evaluation then cannot
        // overflow per leaf (sums are checked as they are made).
        int64_t span;
        if (__builtin_mul_overflow(b.value, s - 1, &span) ||
            span == INT64_MIN) {
          return absl::InvalidArgumentError(
              absl::StrCat("stride ", BasisToString(b), " times ", s - 1,
                           " overflows int64"));
        }
        return AddAt(&shape_of_result, b.modes, 0, b);
      }));
  l.shape_ = std::move(shape);
  l.stride_ = std::move(stride);
  l.size_ = size;
  return l;
}

absl::StatusOr<CoordLayout> ParseCoordLayout(absl::string_view text) {
  return CoordParser(text).Parse();
}

std::string ToString(const CoordLayout& layout) {
  return absl::StrCat(ToString(layout.shape()), ":",
                      StrideToString(layout.stride()));
}

absl::StatusOr<CoordLayout> IdentityCoordLayout(const IntTuple& shape) {
  std::vector<int> path;
  return CoordLayout::Create(shape, IdentityStride(shape, &path));
}

absl::StatusOr<IntTuple> EvaluateCoord(const CoordLayout& layout,
                                       const IntTuple& coord) {
  if (coord.is_int() && (coord.value() < 0 || coord.value() >= layout.size())) {
    return absl::InvalidArgumentError(absl::StrCat(
        "index ", coord.value(), " is outside 0..", layout.size() - 1));
  }
  if (!InRange(coord, layout.shape())) {
    return absl::InvalidArgumentError(
        absl::StrCat("coordinate ", ToString(coord),
                     " is not in range of shape ", ToString(layout.shape())));
  }
  HLOLAYOUT_ASSIGN_OR_RETURN(IntTuple natural, IdxToCrd(coord, layout.shape()));
  if (!Congruent(natural, layout.shape())) {
    return absl::InvalidArgumentError(
        absl::StrCat("coordinate ", ToString(coord), " does not fit shape ",
                     ToString(layout.shape())));
  }
  std::vector<int64_t> crd;
  FlattenCoord(natural, &crd);
  Acc acc;
  size_t k = 0;
  HLOLAYOUT_RETURN_IF_ERROR(ForEachLeaf(
      layout.shape(), layout.stride(),
      [&](int64_t s, const ScaledBasis& b) -> absl::Status {
        const int64_t c = crd[k++];
        if (c < 0 || c >= s) {
          return absl::InvalidArgumentError(absl::StrCat(
              "coordinate ", ToString(coord), " is out of range of shape ",
              ToString(layout.shape())));
        }
        if (b.value == 0) return absl::OkStatus();    // adds nothing
        return AddAt(&acc, b.modes, b.value * c, b);  // fits (Create)
      }));
  return AccToTuple(acc);
}

namespace {

// A's mode at `modes` (CuTe's layout<i, j, ...>); an integral layout is its
// own mode 0.
absl::StatusOr<Layout> ModeAt(const Layout& a, const std::vector<int>& modes,
                              const ScaledBasis& b) {
  Layout m = a;
  for (int i : modes) {
    if (i >= m.rank()) {
      return absl::InvalidArgumentError(
          absl::StrCat("scaled basis ", BasisToString(b), " names mode ", i,
                       " of ", ToString(m), ", which has rank ", m.rank()));
    }
    m = m.mode(i);
  }
  return m;
}

bool IsPrefix(const std::vector<int>& a, const std::vector<int>& b) {
  return a.size() <= b.size() && std::equal(a.begin(), a.end(), b.begin());
}

struct Composer {
  const Layout& a;
  std::vector<std::vector<int>> all_paths;

  // R's shape and stride for B's subtree.
  absl::Status Compose(const IntTuple& shape, const CoordStride& stride,
                       IntTuple* out_shape, IntTuple* out_stride) {
    if (shape.is_tuple()) {
      std::vector<IntTuple> shapes, strides;
      for (size_t i = 0; i < shape.elements().size(); ++i) {
        IntTuple s, d;
        HLOLAYOUT_RETURN_IF_ERROR(
            Compose(shape.elements()[i], stride.elements()[i], &s, &d));
        shapes.push_back(std::move(s));
        strides.push_back(std::move(d));
      }
      *out_shape = IntTuple::Tuple(std::move(shapes));
      *out_stride = IntTuple::Tuple(std::move(strides));
      return absl::OkStatus();
    }
    const int64_t s = shape.value();
    const ScaledBasis& b = stride.leaf();
    if (b.value == 0) {  // a broadcast mode
      *out_shape = s;
      *out_stride = 0;
      return absl::OkStatus();
    }
    HLOLAYOUT_ASSIGN_OR_RETURN(Layout mode, ModeAt(a, b.modes, b));
    if (mode.shape().is_int()) {
      int64_t d;
      if (__builtin_mul_overflow(b.value, mode.stride().value(), &d)) {
        return absl::InvalidArgumentError(
            absl::StrCat("stride of ", BasisToString(b), " through ",
                         ToString(mode), " overflows int64"));
      }
      *out_shape = s;
      *out_stride = d;
      return absl::OkStatus();
    }
    // A hierarchical mode of A: B's coordinate there is a 1-D index into
    // it, which is linear only when one stride of B reaches it.
    int reaching = 0;
    for (const std::vector<int>& p : all_paths) {
      if (IsPrefix(p, b.modes) || IsPrefix(b.modes, p)) ++reaching;
    }
    if (reaching > 1) {
      return absl::InvalidArgumentError(absl::StrCat(
          "several strides of B reach the hierarchical mode ", ToString(mode),
          " of A (at ", BasisToString(ScaledBasis{1, b.modes}),
          "); only one may"));
    }
    HLOLAYOUT_ASSIGN_OR_RETURN(Layout inner, Layout::Create(s, b.value));
    HLOLAYOUT_ASSIGN_OR_RETURN(Layout r, Composition(mode, inner));
    *out_shape = r.shape();
    *out_stride = r.stride();
    return absl::OkStatus();
  }
};

}  // namespace

absl::StatusOr<Layout> ComposeWithCoordLayout(const Layout& a,
                                              const CoordLayout& b) {
  Composer composer{a, {}};
  HLOLAYOUT_RETURN_IF_ERROR(ForEachLeaf(
      b.shape(), b.stride(), [&](int64_t, const ScaledBasis& basis) {
        if (basis.value != 0) composer.all_paths.push_back(basis.modes);
        return absl::OkStatus();
      }));
  IntTuple shape, stride;
  HLOLAYOUT_RETURN_IF_ERROR(
      composer.Compose(b.shape(), b.stride(), &shape, &stride));
  absl::StatusOr<Layout> r =
      Layout::Create(std::move(shape), std::move(stride));
  if (!r.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("composition ", ToString(a),
                                                   " o ", ToString(b), ": ",
                                                   r.status().message()));
  }
  return r;
}

}  // namespace hlolayout::cute
