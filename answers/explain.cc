#include "hlolayout/answers/explain.h"

#include "hlolayout/parser/shape_parser.h"

namespace hlolayout::answers {

ShapeExplanation AnswerExplain(const Shape& shape) {
  return ExplainShape(shape);
}

absl::StatusOr<ShapeExplanation> AnswerExplain(absl::string_view text) {
  absl::StatusOr<Shape> shape = ParseShape(text);
  if (!shape.ok()) return shape.status();
  return ExplainShape(*shape);
}

}  // namespace hlolayout::answers
