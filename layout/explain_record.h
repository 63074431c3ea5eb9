// layout/explain_record.h: a shape's explanation (layout/explain.h) as a
// value with one field list per type (util/fields.h), from which
// `hlolayout explain --json`, Python's Shape.explain() (its objects,
// to_dict() and repr) and shapes.pyi all follow.
//
//   ShapeExplanation e =
//       ExplainShape(ParseShape("f32[3,5]{1,0:T(2,2)}").value());
//   ExplanationAnswerOf(e)   // an explain_answer::ArrayExplanation
//   ExplanationJson(e)       // views/explain_text.h: its JSON
//   // {
//   //   "shape": "f32[3,5]{1,0:T(2,2)}",
//   //   "kind": "array",
//   //   ...
//   //   "padding_and_size": {
//   //     "physical_tiled": [
//   //       4,
//   //       6
//   //     ],
//   //   ...
//   // }
//
// The records (namespace explain_answer; their Python names are the
// types' names, apart from layout/'s analyses of the same names), by the
// explanation's kind: ArrayExplanation (with its LayoutAttributes and
// PaddingAndSize, whose TilePaddings say why), TupleExplanation (its
// elements' explanations), BufferExplanation (the array it holds) and
// OpaqueExplanation (tokens and opaque values).
#ifndef HLOLAYOUT_LAYOUT_EXPLAIN_RECORD_H_
#define HLOLAYOUT_LAYOUT_EXPLAIN_RECORD_H_

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "hlolayout/layout/explain.h"
#include "hlolayout/util/fields.h"
#include "hlolayout/util/record.h"

namespace hlolayout {
namespace explain_answer {

struct LayoutAttribute {
  std::string key, text, description;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const LayoutAttribute& a) {
    f.Type("LayoutAttribute", "One attribute of a layout, in words.");
    const FieldOptions repr = FieldOptions().Repr();
    f("key", a.key, "'minor_to_major', 'T', 'E', 'L', 'S', ...", repr);
    f("text", a.text, "The attribute as printed: 'T(8,128)(2,1)'.", repr);
    f("description", a.description, "One sentence in words.");
  }
};

struct TilePadding {
  int64_t dimension = -1, size = 0, tile_size = 0, padded_size = 0,
          tile_level = 0;
  std::string reason;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const TilePadding& t) {
    f.Type("TilePadding",
           "A tiled dimension whose size is not a multiple of its tile size.");
    const FieldOptions repr = FieldOptions().Repr();
    f("dimension", t.dimension,
      "Its logical dimension, -1 when it combines several (*) or is a "
      "leading 1.",
      repr);
    f("size", t.size, "Its size.", repr);
    f("tile_size", t.tile_size, "The tile size along it.", repr);
    f("padded_size", t.padded_size, "Its size rounded up to the tile size.",
      repr);
    f("tile_level", t.tile_level,
      "The tile level that pads it, 0 for the first.");
    f("reason", t.reason, "Why, in words.");
  }
};

struct PaddingAndSize {
  std::vector<int64_t> physical_tiled;
  int64_t logical_elements = 0, tiled_elements = 0, padded_elements = 0,
          padding_elements = 0, logical_bytes = 0, padded_bytes = 0,
          padding_bytes = 0;
  std::string expansion;
  bool aligned_to_tiles = true;
  std::vector<TilePadding> padded_dimensions;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const PaddingAndSize& p) {
    f.Type("PaddingAndSize",
           "How big an array's buffer is after its tiles, and why.");
    const FieldOptions repr = FieldOptions().Repr();
    f("physical_tiled", p.physical_tiled,
      "The dimensions after every tile level.");
    f("logical_elements", p.logical_elements, "Elements of the shape.");
    f("tiled_elements", p.tiled_elements, "Elements after the tiles.");
    f("padded_elements", p.padded_elements, "Elements after every padding.");
    f("padding_elements", p.padding_elements, "Padded minus logical elements.");
    f("logical_bytes", p.logical_bytes, "Bytes of the elements.", repr);
    f("padded_bytes", p.padded_bytes, "Bytes of the buffer.", repr);
    f("padding_bytes", p.padding_bytes, "Padded minus logical bytes.");
    f("expansion", p.expansion, "Padded / logical bytes, as text: '1.6x'.",
      repr);
    f("aligned_to_tiles", p.aligned_to_tiles, "No dimension pads.");
    f("padded_dimensions", p.padded_dimensions,
      "TilePaddings: the dimensions that pad.");
  }
};

struct ArrayExplanation {
  std::string shape, kind = "array", element_type;
  int64_t bit_width = 0, byte_width = 0, rank = 0;
  std::vector<std::optional<int64_t>> dimensions;
  std::vector<bool> dynamic_dimensions;
  std::vector<int64_t> minor_to_major, major_to_minor;
  std::string layout;
  std::vector<LayoutAttribute> attributes;
  int64_t memory_space = 0;
  std::string memory_space_name;
  std::optional<int64_t> elements, bytes;
  std::optional<PaddingAndSize> padding_and_size;
  std::optional<std::string> padding_and_size_error;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const ArrayExplanation& e) {
    f.Type("ArrayExplanation",
           "An array shape and its layout explained (`hlolayout explain "
           "--json`).");
    const FieldOptions repr = FieldOptions().Repr();
    f("shape", e.shape, "The shape with its layout, as XLA prints it.", repr);
    f("kind", e.kind, "'array'.");
    f("element_type", e.element_type, "'f32', 's4', ...");
    f("bit_width", e.bit_width, "Bits of an element.");
    f("byte_width", e.byte_width, "Bytes of an unpacked element.");
    f("rank", e.rank, "Number of dimensions.");
    f("dimensions", e.dimensions,
      "Sizes (a bound for <=N), None when unbounded (?).");
    f("dynamic_dimensions", e.dynamic_dimensions,
      "Per dimension: dynamic (<=N or ?).");
    f("minor_to_major", e.minor_to_major, "The layout's dimension order.");
    f("major_to_minor", e.major_to_minor,
      "Logical dimensions, major to minor.");
    f("layout", e.layout, "The layout as printed: '{1,0:T(2,2)}'.");
    f("attributes", e.attributes, "LayoutAttributes, in words.");
    f("memory_space", e.memory_space, "S(n), 0 for the default.");
    f("memory_space_name", e.memory_space_name, "'hbm', 'vmem', 'host', ...");
    f("elements", e.elements,
      "Logical elements, None when unbounded or past int64.", repr);
    f("bytes", e.bytes, "Bytes before tiling padding, None when unknown.",
      repr);
    f("padding_and_size", e.padding_and_size,
      "PaddingAndSize, None when the layout cannot be sized.");
    f("padding_and_size_error", e.padding_and_size_error,
      "Why it cannot be sized, or None.",
      FieldOptions().Json(FieldJson::kOmitIfNone));
  }
};

struct BufferExplanation {
  std::string shape, kind = "buffer";
  ArrayExplanation buffer_shape;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const BufferExplanation& e) {
    f.Type("BufferExplanation",
           "A buffer shape: the array it holds explained.");
    f("shape", e.shape, "The shape with its layout.", FieldOptions().Repr());
    f("kind", e.kind, "'buffer'.");
    f("buffer_shape", e.buffer_shape, "The array's explanation.");
  }
};

struct OpaqueExplanation {
  std::string shape, kind;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const OpaqueExplanation& e) {
    f.Type("OpaqueExplanation",
           "A token or an opaque value: no data, or of unknown size.");
    f("shape", e.shape, "The shape.", FieldOptions().Repr());
    f("kind", e.kind, "'token' or 'opaque'.");
  }
};

struct TupleExplanation;

// Any of the four explanations.
using Explanation = std::variant<ArrayExplanation, TupleExplanation,
                                 BufferExplanation, OpaqueExplanation>;

struct TupleExplanation {
  std::string shape, kind = "tuple";
  std::vector<Explanation> elements_shapes;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const TupleExplanation& e) {
    f.Type("TupleExplanation", "A tuple shape explained element by element.");
    f("shape", e.shape, "The shape with its layouts.", FieldOptions().Repr());
    f("kind", e.kind, "'tuple'.");
    f("elements_shapes", e.elements_shapes, "Each element's explanation.");
  }
};

}  // namespace explain_answer

// ExplanationAnswerOf
//
// `e` as the record of its kind: what `explain --json` prints and Python
// binds.
explain_answer::Explanation ExplanationAnswerOf(const ShapeExplanation& e);

}  // namespace hlolayout

#endif  // HLOLAYOUT_LAYOUT_EXPLAIN_RECORD_H_
