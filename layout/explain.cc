#include "hlolayout/layout/explain.h"

#include <string>
#include <vector>

#include "hlolayout/layout/memory_space.h"
#include "hlolayout/layout/tiling.h"
#include "hlolayout/shape/printer.h"

namespace hlolayout {
namespace {

// Logical elements (bounded dims at their bound), or -1 if unbounded or too
// large for int64.
int64_t ElementCount(const Shape& shape) {
  int64_t n = 1;
  for (int64_t i = 0; i < shape.rank(); ++i) {
    if (shape.is_unbounded_dynamic_dimension(i)) return -1;
    if (__builtin_mul_overflow(n, shape.dimension(i), &n)) return -1;
  }
  return n;
}

// Bytes of the elements without tiling padding: ceil(n*E/8) with E(n),
// n*ByteWidth otherwise; -1 when unknown or overflowing.
int64_t LogicalBytes(const Shape& shape, int64_t elements) {
  if (elements < 0) return -1;
  const int64_t e = shape.layout().element_size_in_bits();
  int64_t product;
  if (e != 0) {
    if (__builtin_mul_overflow(elements, e, &product)) return -1;
    return product / 8 + (product % 8 != 0);
  }
  if (__builtin_mul_overflow(elements, ByteWidth(shape.element_type()),
                             &product)) {
    return -1;
  }
  return product;
}

absl::StatusOr<PaddingAndSize> Padding(const Shape& shape) {
  absl::StatusOr<TilingModel> m = BuildTilingModel(shape);
  if (!m.ok()) return m.status();
  absl::StatusOr<ArraySizes> s = ComputeArraySizes(shape);
  if (!s.ok()) return s.status();
  absl::StatusOr<std::vector<TilePadding>> p = ExplainTilePadding(shape);
  if (!p.ok()) return p.status();
  PaddingAndSize out;
  out.physical_tiled = m->final_dims;
  for (const TileLevel& l : m->levels) {
    absl::StrAppend(&out.tiles, l.tile.ToString());
  }
  out.sizes = *s;
  out.padded_dimensions = *std::move(p);
  return out;
}

void ExplainArray(const Shape& shape, ShapeExplanation& e) {
  e.element_type = shape.element_type();
  e.bit_width = BitWidth(e.element_type);
  e.byte_width = ByteWidth(e.element_type);
  e.rank = shape.rank();
  const std::string human = HumanString(shape);
  e.dimensions_text = human.substr(human.find('['));
  for (int64_t i = 0; i < shape.rank(); ++i) {
    e.dimensions.push_back(shape.dimension(i));
    e.unbounded.push_back(shape.is_unbounded_dynamic_dimension(i));
  }
  e.dynamic_dimensions.assign(shape.dynamic_dimensions().begin(),
                              shape.dynamic_dimensions().end());
  e.is_static = shape.is_static();
  const Layout& layout = shape.layout();
  e.minor_to_major.assign(layout.minor_to_major().begin(),
                          layout.minor_to_major().end());
  e.major_to_minor = MajorToMinor(layout);
  e.layout = layout.ToString();
  e.attributes = DescribeLayout(shape);
  e.memory_space = layout.memory_space();
  e.memory_space_name = std::string(MemorySpaceName(e.memory_space));
  e.element_size_in_bits = layout.element_size_in_bits();
  e.elements = ElementCount(shape);
  e.bytes = LogicalBytes(shape, e.elements);
  e.padding = Padding(shape);
}

}  // namespace

bool ShapeExplanation::HasUnboundedDimension() const {
  for (bool u : unbounded) {
    if (u) return true;
  }
  return false;
}

bool ShapeExplanation::ok() const {
  if (kind == Kind::kArray && !padding.ok() && !HasUnboundedDimension()) {
    return false;
  }
  for (const ShapeExplanation& part : parts) {
    if (!part.ok()) return false;
  }
  return true;
}

ShapeExplanation ExplainShape(const Shape& shape) {
  ShapeExplanation e;
  e.shape = HumanStringWithLayout(shape);
  if (shape.IsTuple()) {
    e.kind = ShapeExplanation::Kind::kTuple;
    for (const Shape& element : shape.tuple_shapes()) {
      e.parts.push_back(ExplainShape(element));
    }
  } else if (shape.IsBuffer()) {
    e.kind = ShapeExplanation::Kind::kBuffer;
    e.parts.push_back(ExplainShape(shape.buffer_shape()));
  } else if (shape.IsArray()) {
    e.kind = ShapeExplanation::Kind::kArray;
    ExplainArray(shape, e);
  } else {
    e.kind = shape.IsToken() ? ShapeExplanation::Kind::kToken
                             : ShapeExplanation::Kind::kOpaque;
    e.element_type = shape.element_type();
    e.shape = HumanString(shape);
  }
  return e;
}

}  // namespace hlolayout
