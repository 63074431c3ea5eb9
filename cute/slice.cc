// cute/slice.cc: slice coordinates, slice, dice and slice_and_offset.
#include "hlolayout/cute/slice.h"

#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "hlolayout/cute/lexer.h"
#include "hlolayout/cute/print.h"
#include "hlolayout/parser/diagnostic.h"
#include "hlolayout/util/status_macros.h"

namespace hlolayout::cute {

SliceCoord SliceCoord::Of(Int value) {
  SliceCoord c;
  c.kind_ = Kind::kInt;
  c.value_ = value;
  return c;
}

SliceCoord SliceCoord::Tuple(std::vector<SliceCoord> elements) {
  SliceCoord c;
  c.kind_ = Kind::kTuple;
  c.elements_ = std::move(elements);
  return c;
}

bool SliceCoord::has_underscore() const {
  if (is_underscore()) return true;
  if (is_int()) return false;
  for (const SliceCoord& e : elements_) {
    if (e.has_underscore()) return true;
  }
  return false;
}

bool SliceCoord::all_underscore() const {
  if (is_underscore()) return true;
  if (is_int()) return false;
  for (const SliceCoord& e : elements_) {
    if (!e.all_underscore()) return false;
  }
  return true;
}

IntTuple SliceCoord::WithUnderscoresAsZero() const {
  if (is_underscore()) return IntTuple::Static(0);
  if (is_int()) return IntTuple(value_);
  std::vector<IntTuple> out;
  for (const SliceCoord& e : elements_) {
    out.push_back(e.WithUnderscoresAsZero());
  }
  return IntTuple::Tuple(std::move(out));
}

namespace {

constexpr int kMaxDepth = 64;

absl::StatusOr<SliceCoord> ParseCoord(Lexer& lexer, int depth) {
  const Token t = lexer.Next();
  if (t.kind == TokenKind::kUnderscore) return SliceCoord();
  if (t.kind == TokenKind::kInt) return SliceCoord::Of(Int::Static(t.value));
  if (t.kind != TokenKind::kLParen) {
    if (t.kind == TokenKind::kError && t.error != "unexpected character") {
      return ParseError(lexer.text(), t.offset, t.error);
    }
    return ParseError(lexer.text(), t.offset,
                      absl::StrCat("expected integer, '_' or '(', found ",
                                   DescribeToken(t.text)));
  }
  if (depth >= kMaxDepth) {
    return ParseError(lexer.text(), t.offset,
                      absl::StrCat("nesting deeper than ", kMaxDepth));
  }
  std::vector<SliceCoord> elements;
  if (lexer.Peek().kind == TokenKind::kRParen) {
    lexer.Next();
    return SliceCoord::Tuple(std::move(elements));
  }
  while (true) {
    HLOLAYOUT_ASSIGN_OR_RETURN(SliceCoord e, ParseCoord(lexer, depth + 1));
    elements.push_back(std::move(e));
    const Token sep = lexer.Next();
    if (sep.kind == TokenKind::kRParen) break;
    if (sep.kind != TokenKind::kComma) {
      return ParseError(
          lexer.text(), sep.offset,
          absl::StrCat("expected ',' or ')', found ", DescribeToken(sep.text)));
    }
  }
  return SliceCoord::Tuple(std::move(elements));
}

absl::Status RankMismatch(const SliceCoord& c, const IntTuple& t) {
  return absl::InvalidArgumentError(
      absl::StrCat("coordinate ", ToString(c), " does not fit the profile of ",
                   ToString(t)));
}

// CuTe's lift_slice / lift_dice: the kept elements, appended to `out`.
absl::Status Lift(const SliceCoord& c, const IntTuple& t, bool keep_underscore,
                  std::vector<IntTuple>& out) {
  if (c.is_tuple()) {
    if (t.is_int() || Rank(t) != static_cast<int>(c.elements().size())) {
      return RankMismatch(c, t);
    }
    for (size_t i = 0; i < c.elements().size(); ++i) {
      HLOLAYOUT_RETURN_IF_ERROR(
          Lift(c.elements()[i], t[i], keep_underscore, out));
    }
    return absl::OkStatus();
  }
  if (c.is_underscore() == keep_underscore) out.push_back(t);
  return absl::OkStatus();
}

absl::StatusOr<IntTuple> Filter(const SliceCoord& c, const IntTuple& t,
                                bool keep_underscore) {
  if (!c.is_tuple()) {
    // slice(_, t) == t and dice(i, t) == t; otherwise nothing is kept.
    if (c.is_underscore() == keep_underscore) return t;
    return IntTuple::Tuple({});
  }
  std::vector<IntTuple> out;
  HLOLAYOUT_RETURN_IF_ERROR(Lift(c, t, keep_underscore, out));
  return IntTuple::Tuple(std::move(out));
}

}  // namespace

absl::StatusOr<SliceCoord> ParseSliceCoord(absl::string_view text) {
  Lexer lexer(text);
  HLOLAYOUT_ASSIGN_OR_RETURN(SliceCoord c, ParseCoord(lexer, 0));
  const Token end = lexer.Next();
  if (end.kind != TokenKind::kEnd) {
    return ParseError(
        text, end.offset,
        absl::StrCat("expected end of input, found ", DescribeToken(end.text)));
  }
  return c;
}

std::string ToString(const SliceCoord& coord) {
  if (coord.is_underscore()) return "_";
  if (coord.is_int()) return ToString(IntTuple(coord.value()));
  std::string out = "(";
  for (size_t i = 0; i < coord.elements().size(); ++i) {
    if (i > 0) out += ",";
    out += ToString(coord.elements()[i]);
  }
  return out + ")";
}

absl::StatusOr<IntTuple> SliceTuple(const SliceCoord& c, const IntTuple& t) {
  return Filter(c, t, /*keep_underscore=*/true);
}

absl::StatusOr<IntTuple> DiceTuple(const SliceCoord& c, const IntTuple& t) {
  return Filter(c, t, /*keep_underscore=*/false);
}

absl::StatusOr<Layout> Slice(const SliceCoord& c, const Layout& layout) {
  HLOLAYOUT_ASSIGN_OR_RETURN(IntTuple shape, SliceTuple(c, layout.shape()));
  HLOLAYOUT_ASSIGN_OR_RETURN(IntTuple stride, SliceTuple(c, layout.stride()));
  return Layout::Create(std::move(shape), std::move(stride));
}

absl::StatusOr<Layout> Dice(const SliceCoord& c, const Layout& layout) {
  HLOLAYOUT_ASSIGN_OR_RETURN(IntTuple shape, DiceTuple(c, layout.shape()));
  HLOLAYOUT_ASSIGN_OR_RETURN(IntTuple stride, DiceTuple(c, layout.stride()));
  return Layout::Create(std::move(shape), std::move(stride));
}

namespace {

// CoordOffset's work; `shape` and `stride` are congruent.
absl::StatusOr<Int> CongruentCoordOffset(const SliceCoord& c,
                                         const IntTuple& shape,
                                         const IntTuple& stride) {
  auto overflow = [] {
    return absl::OutOfRangeError("the offset overflows int64");
  };
  if (c.is_underscore()) return Int::Static(0);
  if (c.is_int()) {
    if (c.value().value < 0) {
      return absl::OutOfRangeError(
          absl::StrCat("negative coordinate ", c.value().value));
    }
    if (shape.is_int()) {
      Int r;
      if (!TryMul(c.value(), stride.integer(), &r)) return overflow();
      return r;
    }
    // Split across the modes; the last takes the quotient.
    Int rest = c.value();
    Int sum = Int::Static(0);
    const int rank = Rank(shape);
    for (int k = 0; k < rank; ++k) {
      Int part = rest;
      if (k + 1 < rank) {
        HLOLAYOUT_ASSIGN_OR_RETURN(Int size, Product(shape[k]));
        if (size.value <= 0) {
          return absl::InvalidArgumentError(
              absl::StrCat("mode ", k, " of the shape has size ", size.value));
        }
        part = Int{rest.value % size.value, BothStatic(rest, size)};
        rest = Div(rest, size);
      }
      HLOLAYOUT_ASSIGN_OR_RETURN(
          Int o,
          CongruentCoordOffset(SliceCoord::Of(part), shape[k], stride[k]));
      if (!TryAdd(sum, o, &sum)) return overflow();
    }
    return sum;
  }
  if (shape.is_int() || Rank(shape) != static_cast<int>(c.elements().size())) {
    return RankMismatch(c, shape);
  }
  Int sum = Int::Static(0);
  for (size_t k = 0; k < c.elements().size(); ++k) {
    if (c.elements()[k].is_int() && k + 1 < c.elements().size()) {
      HLOLAYOUT_ASSIGN_OR_RETURN(Int size, Product(shape[k]));
      if (c.elements()[k].value().value >= size.value) {
        return absl::OutOfRangeError(
            absl::StrCat("coordinate ", c.elements()[k].value().value,
                         " out of range in mode ", k, " of size ", size.value));
      }
    }
    HLOLAYOUT_ASSIGN_OR_RETURN(
        Int o, CongruentCoordOffset(c.elements()[k], shape[k], stride[k]));
    if (!TryAdd(sum, o, &sum)) return overflow();
  }
  return sum;
}

}  // namespace

absl::StatusOr<Int> CoordOffset(const SliceCoord& c, const IntTuple& shape,
                                const IntTuple& stride) {
  if (!Congruent(shape, stride)) {
    return absl::InvalidArgumentError("shape and stride are not congruent");
  }
  return CongruentCoordOffset(c, shape, stride);
}

absl::StatusOr<SlicedLayout> SliceAndOffset(const SliceCoord& c,
                                            const Layout& layout) {
  HLOLAYOUT_ASSIGN_OR_RETURN(Layout sliced, Slice(c, layout));
  HLOLAYOUT_ASSIGN_OR_RETURN(Int offset,
                             CoordOffset(c, layout.shape(), layout.stride()));
  return SlicedLayout{std::move(sliced), offset};
}

}  // namespace hlolayout::cute
