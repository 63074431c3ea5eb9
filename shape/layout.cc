#include "hlolayout/shape/layout.h"

#include <memory>

#include "hlolayout/shape/shape.h"
#include "hlolayout/util/check.h"

namespace hlolayout {

Layout::Rare::Rare(const Rare& other)
    : dim_levels(other.dim_levels),
      tail_padding_alignment_in_elements(
          other.tail_padding_alignment_in_elements),
      index_primitive_type(other.index_primitive_type),
      pointer_primitive_type(other.pointer_primitive_type),
      split_configs(other.split_configs),
      physical_shape(other.physical_shape == nullptr
                         ? nullptr
                         : std::make_unique<Shape>(*other.physical_shape)),
      dynamic_shape_metadata_prefix_bytes(
          other.dynamic_shape_metadata_prefix_bytes) {}

Layout::Rare::Rare() = default;
Layout::Rare::~Rare() = default;

Layout::Layout(const Layout& other)
    : minor_to_major_(other.minor_to_major_),
      tiles_(other.tiles_),
      element_size_in_bits_(other.element_size_in_bits_),
      memory_space_(other.memory_space_),
      rare_(other.rare_ == nullptr ? nullptr
                                   : std::make_unique<Rare>(*other.rare_)) {}

Layout& Layout::operator=(const Layout& other) {
  if (this != &other) *this = Layout(other);
  return *this;
}

Layout::~Layout() = default;

const Shape& Layout::physical_shape() const {
  HLOLAYOUT_CHECK(has_physical_shape()) << "layout has no P(...)";
  return *rare_->physical_shape;
}

Layout& Layout::set_physical_shape(const Shape& shape) {
  rare().physical_shape = std::make_unique<Shape>(shape);
  return *this;
}

Layout& Layout::clear_physical_shape() {
  if (rare_ != nullptr) rare_->physical_shape.reset();
  return *this;
}

bool Layout::Equal::operator()(const Layout& a, const Layout& b) const {
  if (a.minor_to_major_ != b.minor_to_major_) return false;
  if (!ignore_tiles_ && a.tiles_ != b.tiles_) return false;
  if (!ignore_element_size_ &&
      a.element_size_in_bits_ != b.element_size_in_bits_) {
    return false;
  }
  if (!ignore_memory_space_ && a.memory_space_ != b.memory_space_) {
    return false;
  }
  if (a.rare_ == nullptr && b.rare_ == nullptr) return true;
  if (a.dim_levels() != b.dim_levels() ||
      a.index_primitive_type() != b.index_primitive_type() ||
      a.pointer_primitive_type() != b.pointer_primitive_type() ||
      a.dynamic_shape_metadata_prefix_bytes() !=
          b.dynamic_shape_metadata_prefix_bytes()) {
    return false;
  }
  if (!ignore_tail_padding_ && a.tail_padding_alignment_in_elements() !=
                                   b.tail_padding_alignment_in_elements()) {
    return false;
  }
  if (!ignore_split_configs_ && a.split_configs() != b.split_configs()) {
    return false;
  }
  if (a.has_physical_shape() != b.has_physical_shape()) return false;
  return !a.has_physical_shape() || a.physical_shape() == b.physical_shape();
}

}  // namespace hlolayout
