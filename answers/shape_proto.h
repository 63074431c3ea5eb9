// answers/shape_proto.h: a shape to and from XLA's ShapeProto bytes, as
// Python takes and gives them (hlolayout.shape_from_proto(data),
// Shape.to_proto()): the reading is an answer (bytes in, a checked Shape or
// the error), the writing the shape's serialized form.
//
//   absl::StatusOr<Shape> s = answers::AnswerShapeFromProto(bytes);
//   std::string b = answers::ShapeProtoBytesOf(*s);   // the same bytes back
//
// The conversion is shape/shape_proto.h's (validated on the way in); the
// faces reach it through this header only.
#ifndef HLOLAYOUT_ANSWERS_SHAPE_PROTO_H_
#define HLOLAYOUT_ANSWERS_SHAPE_PROTO_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "hlolayout/shape/shape.h"

namespace hlolayout::answers {

// AnswerShapeFromProto
//
// The shape serialized in `bytes` (XLA's `shape.ToProto()
// .SerializeAsString()`). Errors: ShapeFromProtoBytes's ("shape proto:
// bytes do not parse as a ShapeProto", or what the shape breaks).
absl::StatusOr<Shape> AnswerShapeFromProto(absl::string_view bytes);

// ShapeProtoBytesOf
//
// `shape` as serialized ShapeProto bytes.
std::string ShapeProtoBytesOf(const Shape& shape);

}  // namespace hlolayout::answers

#endif  // HLOLAYOUT_ANSWERS_SHAPE_PROTO_H_
