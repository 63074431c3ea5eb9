// shape/shape.h: XLA's Shape: an array, a tuple, a token, an opaque value or
// a buffer, with an optional layout on arrays.
//
//   bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}   array with layout
//   f32[<=16,?]{1,0}                                  bounded and unbounded
//                                                     dynamic dimensions
//   (f32[2]{0}, (s32[], token[]))                     nested tuple
//   b(f32[8]{0})                                      buffer
//
// Shape is a value: copy, compare (operator== includes layouts;
// Shape::Equal().IgnoreLayout() does not) and hash it. Construction does
// not validate; parse text with ParseShape (parser/shape_parser.h), read
// protos with ShapeFromProto (shape/shape_proto.h) and check hand-built
// shapes with ValidateShape (layout/layout_validation.h).
#ifndef HLOLAYOUT_SHAPE_SHAPE_H_
#define HLOLAYOUT_SHAPE_SHAPE_H_

#include <cstdint>
#include <limits>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/types/optional.h"
#include "absl/types/span.h"
#include "hlolayout/shape/layout.h"
#include "hlolayout/shape/primitive_type.h"

namespace hlolayout {

class Shape {
 public:
  // Size stored for an unbounded dynamic dimension `?`.
  static constexpr int64_t kUnboundedSize = std::numeric_limits<int64_t>::min();

  // An invalid shape (element type PRIMITIVE_TYPE_INVALID).
  Shape() = default;

  // f32[2,3]: a static array without a layout.
  // Precondition: IsArrayType(type).
  static Shape MakeArray(PrimitiveType type,
                         absl::Span<const int64_t> dimensions);
  // An array whose dimension i is dynamic when dynamic[i]: its size is the
  // bound (`<=N`), or kUnboundedSize for `?`.
  // Precondition: dimensions.size() == dynamic.size().
  static Shape MakeDynamicArray(PrimitiveType type,
                                absl::Span<const int64_t> dimensions,
                                absl::Span<const bool> dynamic);
  static Shape MakeTuple(std::vector<Shape> elements);
  static Shape MakeToken();
  static Shape MakeOpaque();
  // b(inner).
  static Shape MakeBuffer(Shape inner);

  PrimitiveType element_type() const { return element_type_; }
  // Changes only the element type, as XLA's Shape::set_element_type; lets a
  // parser fill a default-constructed Shape in place instead of assigning
  // a temporary from MakeArray.
  Shape& set_element_type(PrimitiveType type) {
    element_type_ = type;
    return *this;
  }
  bool IsArray() const { return IsArrayType(element_type_); }
  bool IsTuple() const { return element_type_ == TUPLE; }
  bool IsToken() const { return element_type_ == TOKEN; }
  bool IsOpaque() const { return element_type_ == OPAQUE_TYPE; }
  bool IsBuffer() const { return element_type_ == BUFFER; }

  // Array dimensions (empty for a scalar and for non-arrays).
  int64_t rank() const { return static_cast<int64_t>(dimensions_.size()); }
  absl::Span<const int64_t> dimensions() const { return dimensions_; }
  int64_t dimension(int64_t i) const { return dimensions_[i]; }
  absl::Span<const bool> dynamic_dimensions() const {
    return dynamic_dimensions_;
  }
  bool is_dynamic_dimension(int64_t i) const { return dynamic_dimensions_[i]; }
  bool is_unbounded_dynamic_dimension(int64_t i) const {
    return dimensions_[i] == kUnboundedSize;
  }
  // True when no dimension is dynamic (recursively for tuples and buffers).
  bool is_static() const;
  // Sets dimension i to a static size. Precondition: 0 <= i < rank().
  Shape& set_dimension(int64_t i, int64_t size) {
    dimensions_[i] = size;
    dynamic_dimensions_[i] = false;
    return *this;
  }
  // Appends a dimension (kUnboundedSize with dynamic for `?`).
  // Precondition: IsArray().
  Shape& add_dimension(int64_t size, bool dynamic = false) {
    dimensions_.push_back(size);
    dynamic_dimensions_.push_back(dynamic);
    return *this;
  }
  Shape& set_dynamic_dimension(int64_t i, bool dynamic) {
    dynamic_dimensions_[i] = dynamic;
    return *this;
  }

  // Tuple elements; a buffer holds its one inner shape here too.
  absl::Span<const Shape> tuple_shapes() const { return tuple_shapes_; }
  const Shape& tuple_shape(int64_t i) const { return tuple_shapes_[i]; }
  Shape* mutable_tuple_shape(int64_t i) { return &tuple_shapes_[i]; }
  int64_t tuple_size() const {
    return static_cast<int64_t>(tuple_shapes_.size());
  }
  // Precondition: IsBuffer().
  const Shape& buffer_shape() const;

  bool has_layout() const { return layout_.has_value(); }
  // Precondition: has_layout().
  const Layout& layout() const;
  Layout* mutable_layout();  // creates an empty layout if there is none
  Shape& set_layout(Layout layout) {
    layout_ = std::move(layout);
    return *this;
  }
  Shape& clear_layout() {
    layout_.reset();
    return *this;
  }

  // HLO text as XLA's ShapeUtil::HumanString (print_layout false) or
  // HumanStringWithLayout (true): "f32[3,5]" or "f32[3,5]{1,0:T(2,2)}".
  std::string ToString(bool print_layout = false) const;

  // Shape comparison with parts that can be ignored, like XLA's
  // Shape::Equal: Shape::Equal().IgnoreLayout()(a, b).
  class Equal {
   public:
    bool operator()(const Shape& a, const Shape& b) const;
    Equal& IgnoreLayout() {
      ignore_layout_ = true;
      return *this;
    }
    Equal& IgnoreDynamicDimension() {
      ignore_dynamic_dimension_ = true;
      return *this;
    }
    Equal& IgnoreElementType() {
      ignore_element_type_ = true;
      return *this;
    }
    // Compares layouts with this comparator instead of operator==.
    Equal& WithLayoutEqual(Layout::Equal layout_equal) {
      layout_equal_ = layout_equal;
      return *this;
    }

   private:
    bool ignore_layout_ = false;
    bool ignore_dynamic_dimension_ = false;
    bool ignore_element_type_ = false;
    Layout::Equal layout_equal_;
  };

  friend bool operator==(const Shape& a, const Shape& b) {
    return Equal()(a, b);
  }
  friend bool operator!=(const Shape& a, const Shape& b) { return !(a == b); }
  template <typename H>
  friend H AbslHashValue(H h, const Shape& s) {
    h = H::combine(std::move(h), s.element_type_, s.dimensions_,
                   s.dynamic_dimensions_, s.layout_);
    return H::combine_contiguous(std::move(h), s.tuple_shapes_.data(),
                                 s.tuple_shapes_.size());
  }

 private:
  PrimitiveType element_type_ = PRIMITIVE_TYPE_INVALID;
  absl::InlinedVector<int64_t, 6> dimensions_;
  absl::InlinedVector<bool, 6> dynamic_dimensions_;
  std::vector<Shape> tuple_shapes_;
  absl::optional<Layout> layout_;
};

// The shape in HLO text with its layout, as XLA prints a Shape to a stream
// (ToString(true)): "f32[8,128]{1,0:T(8,128)}". AbslStringify lets
// absl::StrCat and absl::StrFormat("%v") print it with an Abseil that knows
// the hook (LTS 2023-01 and later; Debian's 2022-06 ignores it).
template <typename Sink>
void AbslStringify(Sink& sink, const Shape& shape) {
  sink.Append(shape.ToString(/*print_layout=*/true));
}
inline std::ostream& operator<<(std::ostream& out, const Shape& shape) {
  return out << shape.ToString(/*print_layout=*/true);
}

}  // namespace hlolayout

#endif  // HLOLAYOUT_SHAPE_SHAPE_H_
