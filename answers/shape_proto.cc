#include "hlolayout/answers/shape_proto.h"

#include "hlolayout/shape/shape_proto.h"

namespace hlolayout::answers {

absl::StatusOr<Shape> AnswerShapeFromProto(absl::string_view bytes) {
  return ShapeFromProtoBytes(bytes);
}

std::string ShapeProtoBytesOf(const Shape& shape) {
  return ShapeToProtoBytes(shape);
}

}  // namespace hlolayout::answers
