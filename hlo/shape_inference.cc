#include "hlolayout/hlo/shape_inference.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "hlolayout/hlo/attribute_value.h"

namespace hlolayout {
namespace {

absl::Status Fail(absl::string_view opcode, absl::string_view why) {
  return absl::InvalidArgumentError(
      absl::StrCat("cannot infer the shape of '", opcode, "': ", why));
}

bool OneOf(absl::string_view s, std::initializer_list<absl::string_view> set) {
  for (absl::string_view x : set) {
    if (s == x) return true;
  }
  return false;
}

// An array of `type` with the dimensions (and dynamic marks) of `from` at
// `dims`, in that order, with XLA's default layout.
Shape ArrayFrom(PrimitiveType type, const Shape& from,
                absl::Span<const int64_t> dims) {
  std::vector<int64_t> sizes;
  absl::InlinedVector<bool, 8> dynamic;
  for (int64_t d : dims) {
    sizes.push_back(from.dimension(d));
    dynamic.push_back(from.is_dynamic_dimension(d));
  }
  Shape shape = Shape::MakeDynamicArray(type, sizes, dynamic);
  Layout* layout = shape.mutable_layout();
  for (int64_t i = shape.rank() - 1; i >= 0; --i) layout->add_minor_to_major(i);
  return shape;
}

std::vector<int64_t> AllDims(const Shape& shape) {
  std::vector<int64_t> dims(shape.rank());
  for (int64_t i = 0; i < shape.rank(); ++i) dims[i] = i;
  return dims;
}

// `like` with another element type; its layout is kept.
Shape WithType(const Shape& like, PrimitiveType type) {
  Shape shape = like;
  shape.set_element_type(type);
  return shape;
}

bool SameDims(const Shape& a, const Shape& b) {
  if (a.rank() != b.rank()) return false;
  for (int64_t i = 0; i < a.rank(); ++i) {
    if (a.dimension(i) != b.dimension(i) ||
        a.is_dynamic_dimension(i) != b.is_dynamic_dimension(i)) {
      return false;
    }
  }
  return true;
}

absl::optional<absl::string_view> Attribute(
    absl::Span<const HloAttribute> attributes, absl::string_view name) {
  return FindHloAttribute(attributes, name);
}

absl::StatusOr<std::vector<int64_t>> IntegersOf(
    absl::string_view opcode, absl::Span<const HloAttribute> attributes,
    absl::string_view name, bool required) {
  absl::optional<absl::string_view> value = Attribute(attributes, name);
  if (!value.has_value()) {
    if (required) return Fail(opcode, absl::StrCat("no ", name, "="));
    return std::vector<int64_t>();
  }
  absl::StatusOr<std::vector<int64_t>> list = ParseHloIntegerList(*value);
  if (!list.ok()) {
    return Fail(opcode,
                absl::StrCat(name, "=", *value, ": ", list.status().message()));
  }
  return list;
}

// Every operand known, `count` of them (-1: any number).
absl::Status NeedOperands(absl::string_view opcode,
                          absl::Span<const Shape* const> operands,
                          int64_t count) {
  if (count >= 0 && static_cast<int64_t>(operands.size()) != count) {
    return Fail(opcode, absl::StrCat("expected ", count, " operands, found ",
                                     operands.size()));
  }
  for (size_t i = 0; i < operands.size(); ++i) {
    if (operands[i] == nullptr) {
      return Fail(opcode,
                  absl::StrCat("the shape of operand ", i, " is not known"));
    }
  }
  return absl::OkStatus();
}

// The shape of an elementwise result over `operands` of the same dimensions
// (scalars broadcast), with element type `type`; the layout of the first
// operand of that rank.
absl::StatusOr<Shape> Elementwise(absl::string_view opcode,
                                  absl::Span<const Shape* const> operands,
                                  PrimitiveType type) {
  const Shape* widest = nullptr;
  for (const Shape* s : operands) {
    if (!s->IsArray()) return Fail(opcode, "an operand is not an array");
    if (widest == nullptr || s->rank() > widest->rank()) widest = s;
  }
  for (const Shape* s : operands) {
    if (s->rank() != 0 && !SameDims(*s, *widest)) {
      return Fail(opcode, absl::StrCat("operand shapes ", s->ToString(),
                                       " and ", widest->ToString(), " differ"));
    }
  }
  return WithType(*widest, type);
}

absl::StatusOr<Shape> InferDot(absl::string_view opcode,
                               absl::Span<const Shape* const> operands,
                               absl::Span<const HloAttribute> attributes) {
  const Shape& lhs = *operands[0];
  const Shape& rhs = *operands[1];
  if (!lhs.IsArray() || !rhs.IsArray()) {
    return Fail(opcode, "an operand is not an array");
  }
  if (lhs.element_type() != rhs.element_type()) {
    return Fail(opcode, "operand element types differ");
  }
  absl::StatusOr<std::vector<int64_t>> lb =
      IntegersOf(opcode, attributes, "lhs_batch_dims", false);
  absl::StatusOr<std::vector<int64_t>> rb =
      IntegersOf(opcode, attributes, "rhs_batch_dims", false);
  absl::StatusOr<std::vector<int64_t>> lc =
      IntegersOf(opcode, attributes, "lhs_contracting_dims", false);
  absl::StatusOr<std::vector<int64_t>> rc =
      IntegersOf(opcode, attributes, "rhs_contracting_dims", false);
  for (const auto* list : {&lb, &rb, &lc, &rc}) {
    if (!list->ok()) return list->status();
  }
  if (lb->size() != rb->size() || lc->size() != rc->size()) {
    return Fail(opcode, "batch or contracting dimension counts differ");
  }
  std::vector<bool> lhs_used(lhs.rank(), false);
  std::vector<bool> rhs_used(rhs.rank(), false);
  auto pair = [&](const std::vector<int64_t>& l,
                  const std::vector<int64_t>& r) -> absl::Status {
    for (size_t i = 0; i < l.size(); ++i) {
      if (l[i] < 0 || l[i] >= lhs.rank() || r[i] < 0 || r[i] >= rhs.rank() ||
          lhs_used[l[i]] || rhs_used[r[i]]) {
        return Fail(opcode, "a dimension number is out of range or repeated");
      }
      if (lhs.dimension(l[i]) != rhs.dimension(r[i])) {
        return Fail(opcode, "paired dimensions differ in size");
      }
      lhs_used[l[i]] = true;
      rhs_used[r[i]] = true;
    }
    return absl::OkStatus();
  };
  absl::Status status = pair(*lb, *rb);
  if (status.ok()) status = pair(*lc, *rc);
  if (!status.ok()) return status;
  std::vector<int64_t> sizes;
  absl::InlinedVector<bool, 8> dynamic;
  for (int64_t d : *lb) {
    sizes.push_back(lhs.dimension(d));
    dynamic.push_back(lhs.is_dynamic_dimension(d));
  }
  for (int64_t d = 0; d < lhs.rank(); ++d) {
    if (lhs_used[d]) continue;
    sizes.push_back(lhs.dimension(d));
    dynamic.push_back(lhs.is_dynamic_dimension(d));
  }
  for (int64_t d = 0; d < rhs.rank(); ++d) {
    if (rhs_used[d]) continue;
    sizes.push_back(rhs.dimension(d));
    dynamic.push_back(rhs.is_dynamic_dimension(d));
  }
  Shape shape = Shape::MakeDynamicArray(lhs.element_type(), sizes, dynamic);
  Layout* layout = shape.mutable_layout();
  for (int64_t i = shape.rank() - 1; i >= 0; --i) layout->add_minor_to_major(i);
  return shape;
}

absl::StatusOr<Shape> InferSlice(absl::string_view opcode, const Shape& in,
                                 absl::Span<const HloAttribute> attributes) {
  absl::optional<absl::string_view> value = Attribute(attributes, "slice");
  if (!value.has_value()) return Fail(opcode, "no slice=");
  // {[a:b], [a:b:s], ...}
  std::vector<int64_t> sizes;
  size_t p = 0;
  const absl::string_view v = *value;
  while ((p = v.find('[', p)) != absl::string_view::npos) {
    const size_t close = v.find(']', p);
    if (close == absl::string_view::npos) return Fail(opcode, "bad slice=");
    std::string inner(v.substr(p + 1, close - p - 1));
    for (char& c : inner) {
      if (c == ':') c = ',';
    }
    absl::StatusOr<std::vector<int64_t>> parts =
        ParseHloIntegerList(absl::StrCat("{", inner, "}"));
    if (!parts.ok() || parts->size() < 2 || parts->size() > 3) {
      return Fail(opcode, absl::StrCat("bad slice=", v));
    }
    const int64_t start = (*parts)[0];
    const int64_t limit = (*parts)[1];
    const int64_t stride = parts->size() == 3 ? (*parts)[2] : 1;
    const int64_t d = static_cast<int64_t>(sizes.size());
    if (d >= in.rank() || stride <= 0 || start < 0 || limit < start ||
        limit > in.dimension(d)) {
      return Fail(opcode,
                  absl::StrCat("slice=", v, " does not fit ", in.ToString()));
    }
    sizes.push_back((limit - start + stride - 1) / stride);
    p = close + 1;
  }
  if (static_cast<int64_t>(sizes.size()) != in.rank()) {
    return Fail(opcode,
                absl::StrCat("slice=", v, " does not fit ", in.ToString()));
  }
  Shape shape = Shape::MakeArray(in.element_type(), sizes);
  Layout* layout = shape.mutable_layout();
  for (int64_t i = shape.rank() - 1; i >= 0; --i) layout->add_minor_to_major(i);
  return shape;
}

absl::StatusOr<Shape> InferReduce(absl::string_view opcode,
                                  absl::Span<const Shape* const> operands,
                                  absl::Span<const HloAttribute> attributes) {
  if (operands.empty() || operands.size() % 2 != 0) {
    return Fail(opcode, "expected inputs and as many init values");
  }
  absl::StatusOr<std::vector<int64_t>> dims =
      IntegersOf(opcode, attributes, "dimensions", true);
  if (!dims.ok()) return dims.status();
  const size_t n = operands.size() / 2;
  const Shape& first = *operands[0];
  std::vector<bool> reduced(first.IsArray() ? first.rank() : 0, false);
  for (int64_t d : *dims) {
    if (d < 0 || d >= static_cast<int64_t>(reduced.size()) || reduced[d]) {
      return Fail(opcode, "a reduced dimension is out of range or repeated");
    }
    reduced[d] = true;
  }
  std::vector<int64_t> kept;
  for (int64_t d = 0; d < static_cast<int64_t>(reduced.size()); ++d) {
    if (!reduced[d]) kept.push_back(d);
  }
  std::vector<Shape> results;
  for (size_t i = 0; i < n; ++i) {
    const Shape& input = *operands[i];
    const Shape& init = *operands[n + i];
    if (!input.IsArray() || !SameDims(input, first) || !init.IsArray() ||
        init.rank() != 0) {
      return Fail(opcode, "inputs must be arrays of one shape, inits scalars");
    }
    results.push_back(ArrayFrom(init.element_type(), input, kept));
  }
  if (n == 1) return results[0];
  return Shape::MakeTuple(std::move(results));
}

// InferHloShape's groups of opcodes: each answers for its own opcodes and
// gives nullopt for the others.
using Inferred = absl::optional<absl::StatusOr<Shape>>;

// Elementwise on one operand.
Inferred InferUnary(absl::string_view opcode,
                    absl::Span<const Shape* const> operands,
                    absl::Span<const HloAttribute>) {
  absl::Status status;
  if (OneOf(opcode, {"abs",
                     "negate",
                     "copy",
                     "sqrt",
                     "rsqrt",
                     "cbrt",
                     "exponential",
                     "exponential-minus-one",
                     "log",
                     "log-plus-one",
                     "logistic",
                     "tanh",
                     "tan",
                     "sine",
                     "cosine",
                     "ceil",
                     "floor",
                     "round-nearest-afz",
                     "round-nearest-even",
                     "sign",
                     "not",
                     "popcnt",
                     "count-leading-zeros",
                     "erf",
                     "real",
                     "imag",
                     "is-finite",
                     "reduce-precision"})) {
    status = NeedOperands(opcode, operands, 1);
    if (!status.ok()) return status;
    const Shape& in = *operands[0];
    if (!in.IsArray()) return Fail(opcode, "the operand is not an array");
    PrimitiveType type = in.element_type();
    if (opcode == "is-finite") {
      type = PRED;
    } else if ((opcode == "abs" || opcode == "real" || opcode == "imag") &&
               IsComplexType(type)) {
      type = ComplexComponentType(type);
    }
    return WithType(in, type);
  }
  return absl::nullopt;
}

// Elementwise on two operands.
Inferred InferBinary(absl::string_view opcode,
                     absl::Span<const Shape* const> operands,
                     absl::Span<const HloAttribute>) {
  absl::Status status;
  if (OneOf(opcode, {"add", "subtract", "multiply", "divide", "remainder",
                     "maximum", "minimum", "power", "atan2", "and", "or", "xor",
                     "shift-left", "shift-right-arithmetic",
                     "shift-right-logical", "compare", "complex"})) {
    status = NeedOperands(opcode, operands, 2);
    if (!status.ok()) return status;
    if (operands[0]->IsArray() && operands[1]->IsArray() &&
        operands[0]->element_type() != operands[1]->element_type()) {
      return Fail(opcode, "operand element types differ");
    }
    PrimitiveType type =
        operands[0]->IsArray() ? operands[0]->element_type() : TUPLE;
    if (opcode == "compare") {
      type = PRED;
    } else if (opcode == "complex") {
      if (type == F32) {
        type = C64;
      } else if (type == F64) {
        type = C128;
      } else {
        return Fail(opcode, "complex takes f32 or f64 operands");
      }
    }
    return Elementwise(opcode, operands, type);
  }
  return absl::nullopt;
}

// select and clamp: three operands, the value's type.
Inferred InferSelectOrClamp(absl::string_view opcode,
                            absl::Span<const Shape* const> operands,
                            absl::Span<const HloAttribute>) {
  absl::Status status;
  if (opcode == "select" || opcode == "clamp") {
    status = NeedOperands(opcode, operands, 3);
    if (!status.ok()) return status;
    const Shape& value = *operands[1];
    if (!value.IsArray()) return Fail(opcode, "operand 1 is not an array");
    if (opcode == "select" &&
        (!operands[0]->IsArray() || operands[0]->element_type() != PRED)) {
      return Fail(opcode, "the predicate is not a pred array");
    }
    if (operands[2]->IsArray() &&
        operands[2]->element_type() != value.element_type()) {
      return Fail(opcode, "operand element types differ");
    }
    if (opcode == "select") {
      return Elementwise(opcode, operands, value.element_type());
    }
    return Elementwise(opcode, operands.subspan(1, 1), value.element_type());
  }
  return absl::nullopt;
}

// Results that pass an operand on, or build or take tuple elements.
Inferred InferFromOperandOrTuple(absl::string_view opcode,
                                 absl::Span<const Shape* const> operands,
                                 absl::Span<const HloAttribute> attributes) {
  absl::Status status;
  if (opcode == "reverse") {
    status = NeedOperands(opcode, operands, 1);
    if (!status.ok()) return status;
    return *operands[0];
  }
  if (OneOf(opcode, {"while", "domain", "opt-barrier", "add-dependency",
                     "async-update"})) {
    if (operands.empty()) return Fail(opcode, "no operand");
    status = NeedOperands(opcode, operands.subspan(0, 1), 1);
    if (!status.ok()) return status;
    return *operands[0];
  }
  if (opcode == "tuple") {
    status = NeedOperands(opcode, operands, -1);
    if (!status.ok()) return status;
    std::vector<Shape> elements;
    for (const Shape* s : operands) elements.push_back(*s);
    return Shape::MakeTuple(std::move(elements));
  }
  if (opcode == "get-tuple-element" || opcode == "async-done" ||
      opcode == "copy-done") {
    status = NeedOperands(opcode, operands, 1);
    if (!status.ok()) return status;
    const Shape& in = *operands[0];
    int64_t index = opcode == "async-done" ? 1 : 0;
    if (opcode == "get-tuple-element") {
      absl::StatusOr<std::vector<int64_t>> list =
          IntegersOf(opcode, attributes, "index", true);
      if (!list.ok()) return list.status();
      if (list->size() != 1) return Fail(opcode, "index= is not one integer");
      index = (*list)[0];
    }
    if (!in.IsTuple() || index < 0 || index >= in.tuple_size()) {
      return Fail(opcode, absl::StrCat("the operand ", in.ToString(),
                                       " has no tuple element ", index));
    }
    return in.tuple_shape(index);
  }
  if (opcode == "recv-done") {
    status = NeedOperands(opcode, operands, 1);
    if (!status.ok()) return status;
    const Shape& in = *operands[0];
    if (!in.IsTuple() || in.tuple_size() < 1) {
      return Fail(opcode, "the operand is not a recv's tuple");
    }
    return Shape::MakeTuple({in.tuple_shape(0), Shape::MakeToken()});
  }
  if (opcode == "send" || opcode == "copy-start") {
    status = NeedOperands(opcode, operands, opcode == "send" ? 2 : 1);
    if (!status.ok()) return status;
    Shape context = Shape::MakeArray(U32, {});
    context.mutable_layout();
    if (opcode == "send") {
      return Shape::MakeTuple(
          {*operands[0], std::move(context), Shape::MakeToken()});
    }
    return Shape::MakeTuple({*operands[0], *operands[0], std::move(context)});
  }
  return absl::nullopt;
}

// dot, transpose and slice: operands rearranged.
Inferred InferRearranged(absl::string_view opcode,
                         absl::Span<const Shape* const> operands,
                         absl::Span<const HloAttribute> attributes) {
  absl::Status status;
  if (opcode == "dot") {
    status = NeedOperands(opcode, operands, 2);
    if (!status.ok()) return status;
    return InferDot(opcode, operands, attributes);
  }
  if (opcode == "transpose") {
    status = NeedOperands(opcode, operands, 1);
    if (!status.ok()) return status;
    const Shape& in = *operands[0];
    absl::StatusOr<std::vector<int64_t>> perm =
        IntegersOf(opcode, attributes, "dimensions", true);
    if (!perm.ok()) return perm.status();
    std::vector<bool> seen(in.IsArray() ? in.rank() : 0, false);
    if (!in.IsArray() || static_cast<int64_t>(perm->size()) != in.rank()) {
      return Fail(opcode, "dimensions= is not a permutation of the operand's");
    }
    for (int64_t d : *perm) {
      if (d < 0 || d >= in.rank() || seen[d]) {
        return Fail(opcode, "dimensions= is not a permutation");
      }
      seen[d] = true;
    }
    return ArrayFrom(in.element_type(), in, *perm);
  }
  if (opcode == "slice") {
    status = NeedOperands(opcode, operands, 1);
    if (!status.ok()) return status;
    if (!operands[0]->IsArray()) return Fail(opcode, "not an array");
    return InferSlice(opcode, *operands[0], attributes);
  }
  return absl::nullopt;
}

// concatenate: operands joined along one dimension.
Inferred InferConcatenate(absl::string_view opcode,
                          absl::Span<const Shape* const> operands,
                          absl::Span<const HloAttribute> attributes) {
  absl::Status status;
  if (opcode == "concatenate") {
    status = NeedOperands(opcode, operands, -1);
    if (!status.ok()) return status;
    if (operands.empty()) return Fail(opcode, "no operand");
    absl::StatusOr<std::vector<int64_t>> dims =
        IntegersOf(opcode, attributes, "dimensions", true);
    if (!dims.ok()) return dims.status();
    const Shape& first = *operands[0];
    if (dims->size() != 1 || !first.IsArray() || (*dims)[0] < 0 ||
        (*dims)[0] >= first.rank()) {
      return Fail(opcode, "dimensions= is not one dimension of the operands");
    }
    const int64_t d = (*dims)[0];
    int64_t total = 0;
    for (const Shape* s : operands) {
      if (!s->IsArray() || s->rank() != first.rank() ||
          s->element_type() != first.element_type()) {
        return Fail(opcode, "operands differ in rank or element type");
      }
      for (int64_t i = 0; i < first.rank(); ++i) {
        if (i != d && s->dimension(i) != first.dimension(i)) {
          return Fail(opcode, "operands differ outside the joined dimension");
        }
      }
      if (s->dimension(d) < 0 || total > INT64_MAX - s->dimension(d)) {
        return Fail(opcode, "the joined size is out of range");
      }
      total += s->dimension(d);
    }
    Shape shape = ArrayFrom(first.element_type(), first, AllDims(first));
    shape.set_dimension(d, total);
    return shape;
  }
  return absl::nullopt;
}

}  // namespace

absl::StatusOr<std::vector<int64_t>> ParseHloIntegerList(
    absl::string_view value) {
  std::vector<int64_t> out;
  size_t p = 0;
  const size_t n = value.size();
  auto space = [&] { p = SkipHloSpace(value, p); };
  space();
  const bool braced = p < n && value[p] == '{';
  if (braced) ++p;
  while (true) {
    space();
    if (p >= n) break;
    if (braced && value[p] == '}') break;
    bool negative = false;
    if (value[p] == '-') {
      negative = true;
      ++p;
    }
    const size_t begin = p;
    uint64_t magnitude = 0;
    while (p < n && value[p] >= '0' && value[p] <= '9') {
      magnitude = magnitude * 10 + static_cast<uint64_t>(value[p] - '0');
      if (magnitude > (uint64_t{1} << 63)) {
        return absl::InvalidArgumentError("integer out of range");
      }
      ++p;
    }
    if (p == begin) {
      return absl::InvalidArgumentError(
          absl::StrCat("expected an integer in '", value, "'"));
    }
    if (!negative && magnitude == (uint64_t{1} << 63)) {
      return absl::InvalidArgumentError("integer out of range");
    }
    out.push_back(negative ? static_cast<int64_t>(0 - magnitude)
                           : static_cast<int64_t>(magnitude));
    space();
    if (p < n && value[p] == ',') {
      ++p;
      continue;
    }
    break;
  }
  space();
  if (braced) {
    if (p >= n || value[p] != '}') {
      return absl::InvalidArgumentError(
          absl::StrCat("expected '}' in '", value, "'"));
    }
    ++p;
    space();
  }
  if (p != n) {
    return absl::InvalidArgumentError(
        absl::StrCat("unexpected text in '", value, "'"));
  }
  return out;
}

absl::StatusOr<Shape> InferHloShape(absl::string_view opcode,
                                    absl::Span<const Shape* const> operands,
                                    absl::Span<const HloAttribute> attributes,
                                    const Shape* called_root) {
  // Opcodes whose result comes from elsewhere than the operands.
  if (opcode == "after-all") return Shape::MakeToken();
  if (opcode == "send-done") return Shape::MakeToken();
  if (opcode == "call" || opcode == "conditional") {
    if (called_root == nullptr) {
      return Fail(opcode, "the called computation's root shape is not known");
    }
    return *called_root;
  }
  if (opcode == "get-dimension-size") {
    Shape shape = Shape::MakeArray(S32, {});
    shape.mutable_layout();
    return shape;
  }
  for (Inferred (*infer)(absl::string_view, absl::Span<const Shape* const>,
                         absl::Span<const HloAttribute>) :
       {InferUnary, InferBinary, InferSelectOrClamp, InferFromOperandOrTuple,
        InferRearranged, InferConcatenate}) {
    Inferred inferred = infer(opcode, operands, attributes);
    if (inferred.has_value()) return *std::move(inferred);
  }
  if (opcode == "reduce") {
    absl::Status status = NeedOperands(opcode, operands, -1);
    if (!status.ok()) return status;
    return InferReduce(opcode, operands, attributes);
  }
  if (OneOf(opcode, {"convert", "bitcast-convert", "bitcast", "broadcast",
                     "reshape", "parameter", "constant", "iota", "recv",
                     "custom-call", "fusion", "rng", "infeed"})) {
    return Fail(opcode, "its result shape is written only in its shape");
  }
  return Fail(opcode, "no shape rule for this opcode");
}

}  // namespace hlolayout
