#include "shape/printer.h"

#include <string>

#include "absl/strings/str_cat.h"

namespace hlolayout {
namespace {

void AppendInts(std::string* out, absl::Span<const int64_t> values) {
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out->push_back(',');
    absl::StrAppend(out, values[i]);
  }
}

char DimLevelLetter(DimLevelType type) {
  switch (type) {
    case DIM_DENSE:
      return 'D';
    case DIM_COMPRESSED:
      return 'C';
    case DIM_SINGLETON:
      return 'S';
    case DIM_LOOSE_COMPRESSED:
      return 'H';
  }
  return '?';
}

bool HasNonDefaultDimLevel(const Layout& layout) {
  for (const DimLevel& level : layout.dim_levels()) {
    if (level != DimLevel()) return true;
  }
  return false;
}

absl::string_view IndexTypeName(PrimitiveType type) {
  return IsIntegralType(type) ? PrimitiveTypeName(type) : "invalid";
}

}  // namespace

void AppendTile(std::string* out, const Tile& tile) {
  out->push_back('(');
  for (int64_t i = 0; i < tile.rank(); ++i) {
    if (i > 0) out->push_back(',');
    if (tile.dimension(i) == Tile::kCombineDimension) {
      out->push_back('*');
    } else {
      absl::StrAppend(out, tile.dimension(i));
    }
  }
  out->push_back(')');
}

void AppendLayout(std::string* out, const Layout& layout) {
  out->push_back('{');
  AppendInts(out, layout.minor_to_major());
  const size_t colon = out->size();
  if (HasNonDefaultDimLevel(layout)) {
    out->append("D(");
    for (size_t i = 0; i < layout.dim_levels().size(); ++i) {
      const DimLevel& level = layout.dim_levels()[i];
      if (i > 0) out->push_back(',');
      out->push_back(DimLevelLetter(level.type));
      if (!level.unique) out->push_back('+');
      if (!level.ordered) out->push_back('~');
    }
    out->push_back(')');
  }
  if (!layout.tiles().empty()) {
    out->push_back('T');
    for (const Tile& tile : layout.tiles()) AppendTile(out, tile);
  }
  if (layout.tail_padding_alignment_in_elements() != 1) {
    absl::StrAppend(out, "L(", layout.tail_padding_alignment_in_elements(),
                    ")");
  }
  if (layout.index_primitive_type() != PRIMITIVE_TYPE_INVALID) {
    absl::StrAppend(out, "#(", IndexTypeName(layout.index_primitive_type()),
                    ")");
  }
  if (layout.pointer_primitive_type() != PRIMITIVE_TYPE_INVALID) {
    absl::StrAppend(out, "*(", IndexTypeName(layout.pointer_primitive_type()),
                    ")");
  }
  if (layout.element_size_in_bits() != 0) {
    absl::StrAppend(out, "E(", layout.element_size_in_bits(), ")");
  }
  if (layout.memory_space() != 0) {
    absl::StrAppend(out, "S(", layout.memory_space(), ")");
  }
  if (!layout.split_configs().empty()) {
    out->append("SC");
    for (const SplitConfig& config : layout.split_configs()) {
      absl::StrAppend(out, "(", config.dimension, ":");
      AppendInts(out, config.split_indices);
      out->push_back(')');
    }
  }
  if (layout.has_physical_shape()) {
    out->append("P(");
    AppendShape(out, layout.physical_shape(), /*print_layout=*/true);
    out->push_back(')');
  }
  if (layout.dynamic_shape_metadata_prefix_bytes() > 0) {
    absl::StrAppend(out, "M(", layout.dynamic_shape_metadata_prefix_bytes(),
                    ")");
  }
  if (out->size() != colon) out->insert(colon, 1, ':');
  out->push_back('}');
}

void AppendShape(std::string* out, const Shape& shape, bool print_layout) {
  if (shape.IsTuple()) {
    out->push_back('(');
    for (int64_t i = 0; i < shape.tuple_size(); ++i) {
      if (i > 0) out->append(", ");
      if (i > 0 && i % 5 == 0) absl::StrAppend(out, "/*index=", i, "*/");
      AppendShape(out, shape.tuple_shape(i), print_layout);
    }
    out->push_back(')');
    return;
  }
  if (shape.IsBuffer()) {
    out->append("b(");
    if (shape.tuple_size() == 1) {
      AppendShape(out, shape.buffer_shape(), print_layout);
    }
    out->push_back(')');
    return;
  }
  out->append(PrimitiveTypeName(shape.element_type()).data(),
              PrimitiveTypeName(shape.element_type()).size());
  out->push_back('[');
  for (int64_t i = 0; i < shape.rank(); ++i) {
    if (i > 0) out->push_back(',');
    if (shape.is_unbounded_dynamic_dimension(i)) {
      out->push_back('?');
    } else {
      if (shape.is_dynamic_dimension(i)) out->append("<=");
      absl::StrAppend(out, shape.dimension(i));
    }
  }
  out->push_back(']');
  if (!print_layout || !shape.IsArray() || !shape.has_layout()) return;
  const size_t before = out->size();
  AppendLayout(out, shape.layout());
  if (shape.rank() == 0 && out->size() - before == 2) out->resize(before);
}

std::string HumanString(const Shape& shape) {
  std::string out;
  AppendShape(&out, shape, /*print_layout=*/false);
  return out;
}

std::string HumanStringWithLayout(const Shape& shape) {
  std::string out;
  AppendShape(&out, shape, /*print_layout=*/true);
  return out;
}

std::string Tile::ToString() const {
  std::string out;
  AppendTile(&out, *this);
  return out;
}

std::string Layout::ToString() const {
  std::string out;
  AppendLayout(&out, *this);
  return out;
}

std::string Shape::ToString(bool print_layout) const {
  std::string out;
  AppendShape(&out, *this, print_layout);
  return out;
}

}  // namespace hlolayout
