#include "hlolayout/layout/explain_record.h"

#include <string>
#include <utility>
#include <vector>

#include "hlolayout/layout/explain.h"
#include "hlolayout/layout/sizes.h"
#include "hlolayout/util/fields.h"
#include "hlolayout/util/record.h"

namespace hlolayout {
namespace {

explain_answer::PaddingAndSize PaddingOf(const PaddingAndSize& p) {
  const ArraySizes& z = p.sizes;
  explain_answer::PaddingAndSize a;
  a.physical_tiled = p.physical_tiled;
  a.logical_elements = z.logical_elements;
  a.tiled_elements = z.tiled_elements;
  a.padded_elements = z.padded_elements;
  a.padding_elements = z.padding_elements();
  a.logical_bytes = z.logical_bytes;
  a.padded_bytes = z.padded_bytes;
  a.padding_bytes = z.padding_bytes();
  a.expansion = FormatExpansion(z.expansion);
  a.aligned_to_tiles = p.padded_dimensions.empty();
  for (const TilePadding& t : p.padded_dimensions) {
    a.padded_dimensions.push_back({t.dimension, t.size, t.tile_size,
                                   t.padded_size, t.tile_level, t.reason});
  }
  return a;
}

explain_answer::ArrayExplanation ArrayOf(const ShapeExplanation& e) {
  explain_answer::ArrayExplanation a;
  a.shape = e.shape;
  a.element_type = std::string(PrimitiveTypeName(e.element_type));
  a.bit_width = e.bit_width;
  a.byte_width = e.byte_width;
  a.rank = e.rank;
  for (size_t i = 0; i < e.dimensions.size(); ++i) {
    a.dimensions.push_back(e.unbounded[i] ? std::nullopt
                                          : std::optional(e.dimensions[i]));
  }
  a.dynamic_dimensions = e.dynamic_dimensions;
  a.minor_to_major = e.minor_to_major;
  a.major_to_minor = e.major_to_minor;
  a.layout = e.layout;
  for (const AttributeDescription& d : e.attributes) {
    a.attributes.push_back({d.key, d.text, d.description});
  }
  a.memory_space = e.memory_space;
  a.memory_space_name = e.memory_space_name;
  if (e.elements >= 0) a.elements = e.elements;
  if (e.bytes >= 0) a.bytes = e.bytes;
  if (e.padding.ok()) {
    a.padding_and_size = PaddingOf(*e.padding);
  } else {
    a.padding_and_size_error = std::string(e.padding.status().message());
  }
  return a;
}

}  // namespace

explain_answer::Explanation ExplanationAnswerOf(const ShapeExplanation& e) {
  switch (e.kind) {
    case ShapeExplanation::Kind::kArray:
      break;
    case ShapeExplanation::Kind::kTuple: {
      explain_answer::TupleExplanation t;
      t.shape = e.shape;
      for (const ShapeExplanation& part : e.parts) {
        t.elements_shapes.push_back(ExplanationAnswerOf(part));
      }
      return t;
    }
    case ShapeExplanation::Kind::kBuffer: {
      explain_answer::BufferExplanation b;
      b.shape = e.shape;
      b.buffer_shape = ArrayOf(e.parts[0]);
      return b;
    }
    case ShapeExplanation::Kind::kToken:
    case ShapeExplanation::Kind::kOpaque:
      return explain_answer::OpaqueExplanation{
          e.shape, std::string(PrimitiveTypeName(e.element_type))};
  }
  return ArrayOf(e);
}

}  // namespace hlolayout
