#include "hlolayout/shape/layout.h"

#include <memory>

#include "hlolayout/shape/shape.h"
#include "hlolayout/util/check.h"

namespace hlolayout {

Layout::Layout(const Layout& other)
    : minor_to_major_(other.minor_to_major_),
      dim_levels_(other.dim_levels_),
      tiles_(other.tiles_),
      tail_padding_alignment_in_elements_(
          other.tail_padding_alignment_in_elements_),
      index_primitive_type_(other.index_primitive_type_),
      pointer_primitive_type_(other.pointer_primitive_type_),
      element_size_in_bits_(other.element_size_in_bits_),
      memory_space_(other.memory_space_),
      split_configs_(other.split_configs_),
      physical_shape_(other.physical_shape_ == nullptr
                          ? nullptr
                          : std::make_unique<Shape>(*other.physical_shape_)),
      dynamic_shape_metadata_prefix_bytes_(
          other.dynamic_shape_metadata_prefix_bytes_) {}

Layout& Layout::operator=(const Layout& other) {
  if (this != &other) *this = Layout(other);
  return *this;
}

Layout::~Layout() = default;

const Shape& Layout::physical_shape() const {
  HLOLAYOUT_CHECK(physical_shape_ != nullptr) << "layout has no P(...)";
  return *physical_shape_;
}

Layout& Layout::set_physical_shape(const Shape& shape) {
  physical_shape_ = std::make_unique<Shape>(shape);
  return *this;
}

Layout& Layout::clear_physical_shape() {
  physical_shape_.reset();
  return *this;
}

bool Layout::Equal::operator()(const Layout& a, const Layout& b) const {
  if (a.minor_to_major_ != b.minor_to_major_ ||
      a.dim_levels_ != b.dim_levels_ ||
      a.index_primitive_type_ != b.index_primitive_type_ ||
      a.pointer_primitive_type_ != b.pointer_primitive_type_ ||
      a.dynamic_shape_metadata_prefix_bytes_ !=
          b.dynamic_shape_metadata_prefix_bytes_) {
    return false;
  }
  if (!ignore_tiles_ && a.tiles_ != b.tiles_) return false;
  if (!ignore_tail_padding_ && a.tail_padding_alignment_in_elements_ !=
                                   b.tail_padding_alignment_in_elements_) {
    return false;
  }
  if (!ignore_element_size_ &&
      a.element_size_in_bits_ != b.element_size_in_bits_) {
    return false;
  }
  if (!ignore_memory_space_ && a.memory_space_ != b.memory_space_) {
    return false;
  }
  if (!ignore_split_configs_ && a.split_configs_ != b.split_configs_) {
    return false;
  }
  if ((a.physical_shape_ == nullptr) != (b.physical_shape_ == nullptr)) {
    return false;
  }
  return a.physical_shape_ == nullptr ||
         *a.physical_shape_ == *b.physical_shape_;
}

}  // namespace hlolayout
