#include "hlolayout/layout/describe.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "hlolayout/layout/memory_space.h"
#include "hlolayout/shape/printer.h"
#include "hlolayout/util/check.h"

namespace hlolayout {
namespace {

std::string DimName(const Shape& shape, int64_t d) {
  std::string size =
      shape.is_unbounded_dynamic_dimension(d)
          ? "?"
          : absl::StrCat(shape.is_dynamic_dimension(d) ? "<=" : "",
                         shape.dimension(d));
  return absl::StrCat("dim ", d, " (size ", size, ")");
}

const char* DimLevelWord(DimLevelType type) {
  switch (type) {
    case DIM_DENSE:
      return "dense";
    case DIM_COMPRESSED:
      return "compressed";
    case DIM_SINGLETON:
      return "singleton";
    case DIM_LOOSE_COMPRESSED:
      return "loose compressed";
  }
  return "unknown";
}

std::string DescribeTile(const Tile& tile, int level) {
  std::vector<std::string> sizes;
  std::string combined;
  int64_t combined_count = 0;
  for (int64_t i = 0; i < tile.rank(); ++i) {
    if (tile.dimension(i) == Tile::kCombineDimension) {
      ++combined_count;
    } else {
      sizes.push_back(absl::StrCat(tile.dimension(i)));
    }
  }
  std::string text =
      absl::StrCat(level == 0 ? "tiles the " : "then tiles the ", tile.rank(),
                   " most minor dimension", tile.rank() == 1 ? "" : "s",
                   level == 0 ? " of the physical shape" : " of the result",
                   " by ", absl::StrJoin(sizes, "x"));
  if (combined_count > 0) {
    absl::StrAppend(&text, " after combining ", combined_count, " dimension",
                    combined_count == 1 ? "" : "s",
                    " marked '*' into the next more minor one");
  }
  return text;
}

// D(...): the sparse dimension levels, when one is not the dense default.
void AddDimLevels(const Layout& layout,
                  std::vector<AttributeDescription>* out) {
  bool sparse_levels = false;
  for (const DimLevel& level : layout.dim_levels()) {
    sparse_levels |= level != DimLevel();
  }
  if (sparse_levels) {
    std::vector<std::string> parts;
    for (size_t d = 0; d < layout.dim_levels().size(); ++d) {
      const DimLevel& level = layout.dim_levels()[d];
      std::string part = absl::StrCat("dim ", d, " ", DimLevelWord(level.type));
      if (!level.unique) part += ", not unique";
      if (!level.ordered) part += ", not ordered";
      parts.push_back(part);
    }
    Layout only;
    for (const DimLevel& level : layout.dim_levels()) only.add_dim_level(level);
    std::string text = only.ToString();
    out->push_back({"D", text.substr(2, text.size() - 3),
                    absl::StrCat("sparse dimension levels: ",
                                 absl::StrJoin(parts, "; "))});
  }
}

// T(...): the tiles, each described, in order.
void AddTiles(const Layout& layout, std::vector<AttributeDescription>* out) {
  if (!layout.tiles().empty()) {
    std::string text = "T";
    std::vector<std::string> steps;
    for (size_t i = 0; i < layout.tiles().size(); ++i) {
      text += layout.tiles()[i].ToString();
      steps.push_back(absl::StrCat(layout.tiles()[i].ToString(), " ",
                                   DescribeTile(layout.tiles()[i], i)));
    }
    out->push_back(
        {"T", text,
         absl::StrCat(layout.tiles().size() == 1 ? "tile " : "tiles ",
                      absl::StrJoin(steps, "; "),
                      "; tiles are stored one after another, "
                      "padding where a dimension is not a multiple "
                      "of its tile")});
  }
}

// SC(...): the split configs, with the logical dim each physical one is.
void AddSplitConfigs(const Shape& shape,
                     std::vector<AttributeDescription>* out) {
  const Layout& layout = shape.layout();
  if (!layout.split_configs().empty()) {
    std::string text = "SC";
    std::vector<std::string> parts;
    for (const SplitConfig& config : layout.split_configs()) {
      absl::StrAppend(&text, "(", config.dimension, ":",
                      absl::StrJoin(config.split_indices, ","), ")");
      const int64_t logical =
          layout.minor_to_major(shape.rank() - 1 - config.dimension);
      parts.push_back(absl::StrCat("physical dim ", config.dimension,
                                   " (logical dim ", logical, ") at ",
                                   absl::StrJoin(config.split_indices, ", ")));
    }
    out->push_back({"SC", text,
                    absl::StrCat("split into separate allocations: ",
                                 absl::StrJoin(parts, "; "))});
  }
}

}  // namespace

std::vector<int64_t> MajorToMinor(const Layout& layout) {
  return std::vector<int64_t>(layout.minor_to_major().rbegin(),
                              layout.minor_to_major().rend());
}

std::vector<AttributeDescription> DescribeLayout(const Shape& shape) {
  HLOLAYOUT_CHECK(shape.IsArray() && shape.has_layout());
  const Layout& layout = shape.layout();
  std::vector<AttributeDescription> out;
  if (shape.rank() > 0) {
    std::vector<std::string> order;
    for (int64_t d : MajorToMinor(layout)) order.push_back(DimName(shape, d));
    out.push_back(
        {"minor_to_major",
         absl::StrCat("{", absl::StrJoin(layout.minor_to_major(), ","), "}"),
         absl::StrCat("physical order, major to minor: ",
                      absl::StrJoin(order, ", "))});
  }
  AddDimLevels(layout, &out);
  AddTiles(layout, &out);
  if (layout.tail_padding_alignment_in_elements() != 1) {
    const int64_t n = layout.tail_padding_alignment_in_elements();
    out.push_back({"L", absl::StrCat("L(", n, ")"),
                   absl::StrCat("tail padding: the element count after tiling "
                                "is rounded up to a multiple of ",
                                n)});
  }
  if (layout.index_primitive_type() != PRIMITIVE_TYPE_INVALID) {
    const absl::string_view t =
        PrimitiveTypeName(layout.index_primitive_type());
    out.push_back({"#", absl::StrCat("#(", t, ")"),
                   absl::StrCat("sparse index type ", t)});
  }
  if (layout.pointer_primitive_type() != PRIMITIVE_TYPE_INVALID) {
    const absl::string_view t =
        PrimitiveTypeName(layout.pointer_primitive_type());
    out.push_back({"*", absl::StrCat("*(", t, ")"),
                   absl::StrCat("sparse pointer type ", t)});
  }
  if (layout.element_size_in_bits() != 0) {
    const int64_t e = layout.element_size_in_bits();
    out.push_back(
        {"E", absl::StrCat("E(", e, ")"),
         absl::StrCat("elements are packed at ", e, " bit", e == 1 ? "" : "s",
                      " each (the type's own width is ",
                      BitWidth(shape.element_type()), ")")});
  }
  if (layout.memory_space() != 0) {
    out.push_back({"S", absl::StrCat("S(", layout.memory_space(), ")"),
                   absl::StrCat("memory space ", layout.memory_space(), ": ",
                                MemorySpaceName(layout.memory_space()))});
  }
  AddSplitConfigs(shape, &out);
  if (layout.has_physical_shape()) {
    const std::string physical = HumanStringWithLayout(layout.physical_shape());
    out.push_back({"P", absl::StrCat("P(", physical, ")"),
                   absl::StrCat("sparse storage shape ", physical)});
  }
  if (layout.dynamic_shape_metadata_prefix_bytes() > 0) {
    const int64_t m = layout.dynamic_shape_metadata_prefix_bytes();
    out.push_back({"M", absl::StrCat("M(", m, ")"),
                   absl::StrCat(m,
                                " bytes of dynamic-shape metadata precede "
                                "the data")});
  }
  return out;
}

}  // namespace hlolayout
