#include "hlolayout/layout/explain_record.h"

#include <string>
#include <vector>

#include "hlolayout/layout/explain.h"
#include "hlolayout/layout/sizes.h"
#include "hlolayout/util/record.h"

namespace hlolayout {
namespace {

// Any of the four explanations, as a field's Python type.
#define HLOLAYOUT_EXPLANATION                                     \
  "Union[ArrayExplanation, TupleExplanation, BufferExplanation, " \
  "OpaqueExplanation]"

const RecordSpec& LayoutAttributeSpec() {
  static const RecordSpec spec{
      "LayoutAttribute",
      "One attribute of a layout, in words.",
      {
          {"key", "'minor_to_major', 'T', 'E', 'L', 'S', ...", "str",
           FieldJson::kValue, nullptr, true},
          {"text", "The attribute as printed: 'T(8,128)(2,1)'.", "str",
           FieldJson::kValue, nullptr, true},
          {"description", "One sentence in words.", "str"},
      }};
  return spec;
}

const RecordSpec& TilePaddingSpec() {
  static const RecordSpec spec{
      "TilePadding",
      "A tiled dimension whose size is not a multiple of its tile size.",
      {
          {"dimension",
           "Its logical dimension, -1 when it combines several (*) or is a "
           "leading 1.",
           "int", FieldJson::kValue, nullptr, true},
          {"size", "Its size.", "int", FieldJson::kValue, nullptr, true},
          {"tile_size", "The tile size along it.", "int", FieldJson::kValue,
           nullptr, true},
          {"padded_size", "Its size rounded up to the tile size.", "int",
           FieldJson::kValue, nullptr, true},
          {"tile_level", "The tile level that pads it, 0 for the first.",
           "int"},
          {"reason", "Why, in words.", "str"},
      }};
  return spec;
}

const RecordSpec& PaddingAndSizeSpec() {
  static const RecordSpec spec{
      "PaddingAndSize",
      "How big an array's buffer is after its tiles, and why.",
      {
          {"physical_tiled", "The dimensions after every tile level.",
           "Tuple[int, ...]"},
          {"logical_elements", "Elements of the shape.", "int"},
          {"tiled_elements", "Elements after the tiles.", "int"},
          {"padded_elements", "Elements after every padding.", "int"},
          {"padding_elements", "Padded minus logical elements.", "int"},
          {"logical_bytes", "Bytes of the elements.", "int", FieldJson::kValue,
           nullptr, true},
          {"padded_bytes", "Bytes of the buffer.", "int", FieldJson::kValue,
           nullptr, true},
          {"padding_bytes", "Padded minus logical bytes.", "int"},
          {"expansion", "Padded / logical bytes, as text: '1.6x'.", "str",
           FieldJson::kValue, nullptr, true},
          {"aligned_to_tiles", "No dimension pads.", "bool"},
          {"padded_dimensions", "TilePaddings: the dimensions that pad.",
           "Tuple[TilePadding, ...]"},
      }};
  return spec;
}

const RecordSpec& ArrayExplanationSpec() {
  static const RecordSpec spec{
      "ArrayExplanation",
      "An array shape and its layout explained (`hlolayout explain --json`).",
      {
          {"shape", "The shape with its layout, as XLA prints it.", "str",
           FieldJson::kValue, nullptr, true},
          {"kind", "'array'.", "str"},
          {"element_type", "'f32', 's4', ...", "str"},
          {"bit_width", "Bits of an element.", "int"},
          {"byte_width", "Bytes of an unpacked element.", "int"},
          {"rank", "Number of dimensions.", "int"},
          {"dimensions", "Sizes (a bound for <=N), None when unbounded (?).",
           "Tuple[Optional[int], ...]"},
          {"dynamic_dimensions", "Per dimension: dynamic (<=N or ?).",
           "Tuple[bool, ...]"},
          {"minor_to_major", "The layout's dimension order.",
           "Tuple[int, ...]"},
          {"major_to_minor", "Logical dimensions, major to minor.",
           "Tuple[int, ...]"},
          {"layout", "The layout as printed: '{1,0:T(2,2)}'.", "str"},
          {"attributes", "LayoutAttributes, in words.",
           "Tuple[LayoutAttribute, ...]"},
          {"memory_space", "S(n), 0 for the default.", "int"},
          {"memory_space_name", "'hbm', 'vmem', 'host', ...", "str"},
          {"elements", "Logical elements, None when unbounded or past int64.",
           "Optional[int]", FieldJson::kValue, nullptr, true},
          {"bytes", "Bytes before tiling padding, None when unknown.",
           "Optional[int]", FieldJson::kValue, nullptr, true},
          {"padding_and_size",
           "PaddingAndSize, None when the layout cannot be sized.",
           "Optional[PaddingAndSize]"},
          {"padding_and_size_error", "Why it cannot be sized, or None.",
           "Optional[str]", FieldJson::kOmitIfNone},
      }};
  return spec;
}

const RecordSpec& TupleExplanationSpec() {
  static const RecordSpec spec{
      "TupleExplanation",
      "A tuple shape explained element by element.",
      {
          {"shape", "The shape with its layouts.", "str", FieldJson::kValue,
           nullptr, true},
          {"kind", "'tuple'.", "str"},
          {"elements_shapes", "Each element's explanation.",
           "Tuple[" HLOLAYOUT_EXPLANATION ", ...]"},
      }};
  return spec;
}

const RecordSpec& BufferExplanationSpec() {
  static const RecordSpec spec{
      "BufferExplanation",
      "A buffer shape: the array it holds explained.",
      {
          {"shape", "The shape with its layout.", "str", FieldJson::kValue,
           nullptr, true},
          {"kind", "'buffer'.", "str"},
          {"buffer_shape", "The array's explanation.", "ArrayExplanation"},
      }};
  return spec;
}

const RecordSpec& OpaqueExplanationSpec() {
  static const RecordSpec spec{
      "OpaqueExplanation",
      "A token or an opaque value: no data, or of unknown size.",
      {
          {"shape", "The shape.", "str", FieldJson::kValue, nullptr, true},
          {"kind", "'token' or 'opaque'.", "str"},
      }};
  return spec;
}

void EmitPadding(const ShapeExplanation& e, RecordSink& s) {
  if (!e.padding.ok()) {
    s.None();
    s.String(e.padding.status().message());
    return;
  }
  const PaddingAndSize& p = *e.padding;
  const ArraySizes& z = p.sizes;
  s.BeginRecord(PaddingAndSizeSpec());
  s.IntList(p.physical_tiled);
  s.Int(z.logical_elements);
  s.Int(z.tiled_elements);
  s.Int(z.padded_elements);
  s.Int(z.padding_elements());
  s.Int(z.logical_bytes);
  s.Int(z.padded_bytes);
  s.Int(z.padding_bytes());
  s.String(FormatExpansion(z.expansion));
  s.Bool(p.padded_dimensions.empty());
  s.BeginList();
  for (const TilePadding& t : p.padded_dimensions) {
    s.BeginRecord(TilePaddingSpec());
    s.Int(t.dimension);
    s.Int(t.size);
    s.Int(t.tile_size);
    s.Int(t.padded_size);
    s.Int(t.tile_level);
    s.String(t.reason);
    s.EndRecord();
  }
  s.EndList();
  s.EndRecord();
  s.None();
}

void EmitArray(const ShapeExplanation& e, RecordSink& s) {
  s.BeginRecord(ArrayExplanationSpec());
  s.String(e.shape);
  s.String("array");
  s.String(PrimitiveTypeName(e.element_type));
  s.Int(e.bit_width);
  s.Int(e.byte_width);
  s.Int(e.rank);
  s.BeginList();
  for (size_t i = 0; i < e.dimensions.size(); ++i) {
    s.OptionalInt(!e.unbounded[i], e.dimensions[i]);
  }
  s.EndList();
  s.BeginList();
  for (bool d : e.dynamic_dimensions) s.Bool(d);
  s.EndList();
  s.IntList(e.minor_to_major);
  s.IntList(e.major_to_minor);
  s.String(e.layout);
  s.BeginList();
  for (const AttributeDescription& a : e.attributes) {
    s.BeginRecord(LayoutAttributeSpec());
    s.String(a.key);
    s.String(a.text);
    s.String(a.description);
    s.EndRecord();
  }
  s.EndList();
  s.Int(e.memory_space);
  s.String(e.memory_space_name);
  s.OptionalInt(e.elements >= 0, e.elements);
  s.OptionalInt(e.bytes >= 0, e.bytes);
  EmitPadding(e, s);
  s.EndRecord();
}

}  // namespace

const std::vector<const RecordSpec*>& ShapeExplanationSpecs() {
  static const auto* specs = new std::vector<const RecordSpec*>{
      &LayoutAttributeSpec(),  &TilePaddingSpec(),
      &PaddingAndSizeSpec(),   &ArrayExplanationSpec(),
      &TupleExplanationSpec(), &BufferExplanationSpec(),
      &OpaqueExplanationSpec()};
  return *specs;
}

void EmitShapeExplanation(const ShapeExplanation& e, RecordSink& s) {
  switch (e.kind) {
    case ShapeExplanation::Kind::kArray:
      EmitArray(e, s);
      return;
    case ShapeExplanation::Kind::kTuple:
      s.BeginRecord(TupleExplanationSpec());
      s.String(e.shape);
      s.String("tuple");
      s.BeginList();
      for (const ShapeExplanation& part : e.parts) {
        EmitShapeExplanation(part, s);
      }
      s.EndList();
      s.EndRecord();
      return;
    case ShapeExplanation::Kind::kBuffer:
      s.BeginRecord(BufferExplanationSpec());
      s.String(e.shape);
      s.String("buffer");
      EmitShapeExplanation(e.parts[0], s);
      s.EndRecord();
      return;
    case ShapeExplanation::Kind::kToken:
    case ShapeExplanation::Kind::kOpaque:
      s.BeginRecord(OpaqueExplanationSpec());
      s.String(e.shape);
      s.String(PrimitiveTypeName(e.element_type));
      s.EndRecord();
      return;
  }
}

}  // namespace hlolayout
