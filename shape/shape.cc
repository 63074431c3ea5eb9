#include "hlolayout/shape/shape.h"

#include <utility>
#include <vector>

#include "hlolayout/util/check.h"

namespace hlolayout {

Shape Shape::MakeArray(PrimitiveType type,
                       absl::Span<const int64_t> dimensions) {
  HLOLAYOUT_CHECK(IsArrayType(type)) << PrimitiveTypeName(type);
  Shape shape;
  shape.element_type_ = type;
  shape.dimensions_.assign(dimensions.begin(), dimensions.end());
  shape.dynamic_dimensions_.assign(dimensions.size(), false);
  return shape;
}

Shape Shape::MakeDynamicArray(PrimitiveType type,
                              absl::Span<const int64_t> dimensions,
                              absl::Span<const bool> dynamic) {
  HLOLAYOUT_CHECK(dimensions.size() == dynamic.size());
  Shape shape = MakeArray(type, dimensions);
  shape.dynamic_dimensions_.assign(dynamic.begin(), dynamic.end());
  return shape;
}

Shape Shape::MakeTuple(std::vector<Shape> elements) {
  Shape shape;
  shape.element_type_ = TUPLE;
  shape.tuple_shapes_ = std::move(elements);
  return shape;
}

Shape Shape::MakeToken() {
  Shape shape;
  shape.element_type_ = TOKEN;
  return shape;
}

Shape Shape::MakeOpaque() {
  Shape shape;
  shape.element_type_ = OPAQUE_TYPE;
  return shape;
}

Shape Shape::MakeBuffer(Shape inner) {
  Shape shape;
  shape.element_type_ = BUFFER;
  shape.tuple_shapes_.push_back(std::move(inner));
  return shape;
}

bool Shape::is_static() const {
  for (bool dynamic : dynamic_dimensions_) {
    if (dynamic) return false;
  }
  for (const Shape& element : tuple_shapes_) {
    if (!element.is_static()) return false;
  }
  return true;
}

const Shape& Shape::buffer_shape() const {
  HLOLAYOUT_CHECK(IsBuffer() && tuple_shapes_.size() == 1);
  return tuple_shapes_[0];
}

const Layout& Shape::layout() const {
  HLOLAYOUT_CHECK(layout_.has_value()) << "shape has no layout";
  return *layout_;
}

Layout* Shape::mutable_layout() {
  if (!layout_.has_value()) layout_.emplace();
  return &*layout_;
}

bool Shape::Equal::operator()(const Shape& a, const Shape& b) const {
  if (a.element_type_ != b.element_type_) {
    if (!ignore_element_type_ || !a.IsArray() || !b.IsArray()) return false;
  }
  if (a.dimensions_ != b.dimensions_) return false;
  if (!ignore_dynamic_dimension_ &&
      a.dynamic_dimensions_ != b.dynamic_dimensions_) {
    return false;
  }
  if (a.tuple_shapes_.size() != b.tuple_shapes_.size()) return false;
  for (size_t i = 0; i < a.tuple_shapes_.size(); ++i) {
    if (!(*this)(a.tuple_shapes_[i], b.tuple_shapes_[i])) return false;
  }
  if (ignore_layout_) return true;
  if (a.layout_.has_value() != b.layout_.has_value()) return false;
  return !a.layout_.has_value() || layout_equal_(*a.layout_, *b.layout_);
}

}  // namespace hlolayout
