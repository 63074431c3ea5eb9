// python/hlolayout/_shapes.cc: shapes and layouts for `hlolayout.shapes`
// (shape/, layout/, parser/shape_parser.h): parsing, XLA's text, the proto
// wire format and array sizes.
//
//   >>> s = hl.parse_shape("f32[3,5]{1,0:T(2,2)}")
//   >>> s.sizes()["padded_bytes"]
//   96
//
// Shapes are immutable after creation, safe to share between threads.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "_binding.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "hlolayout/draw/layout_picture.h"
#include "hlolayout/layout/explain.h"
#include "hlolayout/layout/layout_validation.h"
#include "hlolayout/layout/sizes.h"
#include "hlolayout/parser/shape_parser.h"
#include "hlolayout/shape/primitive_type.h"
#include "hlolayout/shape/printer.h"
#include "hlolayout/shape/shape.h"
#include "hlolayout/shape/shape_proto.h"

namespace py = pybind11;

namespace hlolayout::pyext {

PyShape MakePyShape(Shape shape) {
  std::string text = HumanStringWithLayout(shape);
  return {std::make_shared<const Shape>(std::move(shape)), std::move(text)};
}

py::tuple IntTuple(absl::Span<const int64_t> values) {
  py::tuple out(values.size());
  for (size_t i = 0; i < values.size(); ++i) out[i] = py::int_(values[i]);
  return out;
}

namespace {

PyShape ParsePyShape(const std::string& text) {
  absl::StatusOr<Shape> shape;
  {
    py::gil_scoped_release release;
    shape = ParseShape(text);
  }
  return MakePyShape(Unwrap(std::move(shape)));
}

py::dict SizesDict(const Shape& shape) {
  ArraySizes s = Unwrap(ComputeArraySizes(shape));
  py::dict d;
  d["logical_elements"] = s.logical_elements;
  d["tiled_elements"] = s.tiled_elements;
  d["padded_elements"] = s.padded_elements;
  d["logical_bytes"] = s.logical_bytes;
  d["tiled_bytes"] = s.tiled_bytes;
  d["padded_bytes"] = s.padded_bytes;
  d["padding_elements"] = s.padding_elements();
  d["padding_bytes"] = s.padding_bytes();
  d["expansion"] = s.expansion;
  d["element_bits"] = s.element_bits;
  d["packed"] = s.packed;
  return d;
}

// The dict keys of Shape.explain(), made once and interned: a key built
// per call would cost as much as the explanation itself.
enum ExplainKey {
  kAlignedToTiles,
  kAttributes,
  kBitWidth,
  kBufferShape,
  kByteWidth,
  kBytes,
  kDescription,
  kDimension,
  kDimensions,
  kDynamicDimensions,
  kElementType,
  kElements,
  kElementsShapes,
  kExpansion,
  kKey,
  kKind,
  kLayout,
  kLogicalBytes,
  kLogicalElements,
  kMajorToMinor,
  kMemorySpace,
  kMemorySpaceName,
  kMinorToMajor,
  kPaddedBytes,
  kPaddedDimensions,
  kPaddedElements,
  kPaddedSize,
  kPaddingAndSize,
  kPaddingAndSizeError,
  kPaddingBytes,
  kPaddingElements,
  kPhysicalTiled,
  kRank,
  kReason,
  kShape,
  kSize,
  kText,
  kTileLevel,
  kTileSize,
  kTiledElements,
  kExplainKeyCount
};

const py::str& K(ExplainKey key) {
  static constexpr const char* kNames[kExplainKeyCount] = {
      "aligned_to_tiles",
      "attributes",
      "bit_width",
      "buffer_shape",
      "byte_width",
      "bytes",
      "description",
      "dimension",
      "dimensions",
      "dynamic_dimensions",
      "element_type",
      "elements",
      "elements_shapes",
      "expansion",
      "key",
      "kind",
      "layout",
      "logical_bytes",
      "logical_elements",
      "major_to_minor",
      "memory_space",
      "memory_space_name",
      "minor_to_major",
      "padded_bytes",
      "padded_dimensions",
      "padded_elements",
      "padded_size",
      "padding_and_size",
      "padding_and_size_error",
      "padding_bytes",
      "padding_elements",
      "physical_tiled",
      "rank",
      "reason",
      "shape",
      "size",
      "text",
      "tile_level",
      "tile_size",
      "tiled_elements",
  };
  static const py::str* const keys = [] {
    auto* out = new py::str[kExplainKeyCount];
    for (int k = 0; k < kExplainKeyCount; ++k) {
      out[k] =
          py::reinterpret_steal<py::str>(PyUnicode_InternFromString(kNames[k]));
    }
    return out;
  }();
  return keys[key];
}

py::list IntList(absl::Span<const int64_t> values) {
  py::list out;
  for (int64_t v : values) out.append(v);
  return out;
}

// Sets d["padding_and_size"] (and the error, when the shape cannot be
// sized), as ExplanationJson writes them.
void PaddingDict(const ShapeExplanation& e, py::dict& d) {
  if (!e.padding.ok()) {
    d[K(kPaddingAndSize)] = py::none();
    d[K(kPaddingAndSizeError)] = std::string(e.padding.status().message());
    return;
  }
  const PaddingAndSize& p = *e.padding;
  const ArraySizes& s = p.sizes;
  py::dict out;
  out[K(kPhysicalTiled)] = IntList(p.physical_tiled);
  out[K(kLogicalElements)] = s.logical_elements;
  out[K(kTiledElements)] = s.tiled_elements;
  out[K(kPaddedElements)] = s.padded_elements;
  out[K(kPaddingElements)] = s.padding_elements();
  out[K(kLogicalBytes)] = s.logical_bytes;
  out[K(kPaddedBytes)] = s.padded_bytes;
  out[K(kPaddingBytes)] = s.padding_bytes();
  out[K(kExpansion)] = FormatExpansion(s.expansion);
  out[K(kAlignedToTiles)] = p.padded_dimensions.empty();
  py::list padded;
  for (const TilePadding& t : p.padded_dimensions) {
    py::dict x;
    x[K(kDimension)] = t.dimension;
    x[K(kSize)] = t.size;
    x[K(kTileSize)] = t.tile_size;
    x[K(kPaddedSize)] = t.padded_size;
    x[K(kTileLevel)] = t.tile_level;
    x[K(kReason)] = t.reason;
    padded.append(std::move(x));
  }
  out[K(kPaddedDimensions)] = std::move(padded);
  d[K(kPaddingAndSize)] = std::move(out);
}

// Shape.explain(): the library's explanation as the dict that
// `hlolayout explain --json` writes (the same keys, in the same order).
py::dict ExplanationDict(const ShapeExplanation& e) {
  py::dict d;
  d[K(kShape)] = e.shape;
  switch (e.kind) {
    case ShapeExplanation::Kind::kTuple: {
      d[K(kKind)] = "tuple";
      py::list parts;
      for (const ShapeExplanation& part : e.parts) {
        parts.append(ExplanationDict(part));
      }
      d[K(kElementsShapes)] = std::move(parts);
      return d;
    }
    case ShapeExplanation::Kind::kBuffer:
      d[K(kKind)] = "buffer";
      d[K(kBufferShape)] = ExplanationDict(e.parts[0]);
      return d;
    case ShapeExplanation::Kind::kToken:
    case ShapeExplanation::Kind::kOpaque:
      d[K(kKind)] = std::string(PrimitiveTypeName(e.element_type));
      return d;
    case ShapeExplanation::Kind::kArray:
      break;
  }
  d[K(kKind)] = "array";
  d[K(kElementType)] = std::string(PrimitiveTypeName(e.element_type));
  d[K(kBitWidth)] = e.bit_width;
  d[K(kByteWidth)] = e.byte_width;
  d[K(kRank)] = e.rank;
  py::list dims;
  for (size_t i = 0; i < e.dimensions.size(); ++i) {
    dims.append(e.unbounded[i] ? py::object(py::none())
                               : py::object(py::int_(e.dimensions[i])));
  }
  d[K(kDimensions)] = std::move(dims);
  py::list dynamic;
  for (bool b : e.dynamic_dimensions) dynamic.append(py::bool_(b));
  d[K(kDynamicDimensions)] = std::move(dynamic);
  d[K(kMinorToMajor)] = IntList(e.minor_to_major);
  d[K(kMajorToMinor)] = IntList(e.major_to_minor);
  d[K(kLayout)] = e.layout;
  py::list attributes;
  for (const AttributeDescription& a : e.attributes) {
    py::dict x;
    x[K(kKey)] = a.key;
    x[K(kText)] = a.text;
    x[K(kDescription)] = a.description;
    attributes.append(std::move(x));
  }
  d[K(kAttributes)] = std::move(attributes);
  d[K(kMemorySpace)] = e.memory_space;
  d[K(kMemorySpaceName)] = e.memory_space_name;
  d[K(kElements)] = e.elements < 0 ? py::object(py::none())
                                   : py::object(py::int_(e.elements));
  d[K(kBytes)] =
      e.bytes < 0 ? py::object(py::none()) : py::object(py::int_(e.bytes));
  PaddingDict(e, d);
  return d;
}

// The shape without its layout: the logical form to_layout and from_layout
// copy from and to.
PyShape PyLogicalShape(const PyShape& shape) {
  Shape s = *shape.shape;
  s.clear_layout();
  return MakePyShape(std::move(s));
}

// The shape's own fields.
void ShapeFields(py::class_<PyShape>& c) {
  c.def_property_readonly("text", [](const PyShape& s) { return s.text; })
      .def_property_readonly(
          "human_string",
          [](const PyShape& s) { return HumanString(*s.shape); })
      .def_property_readonly(
          "element_type",
          [](const PyShape& s) {
            return std::string(PrimitiveTypeName(s.shape->element_type()));
          })
      .def_property_readonly(
          "dimensions",
          [](const PyShape& s) { return IntTuple(s.shape->dimensions()); })
      .def_property_readonly(
          "dynamic_dimensions",
          [](const PyShape& s) {
            py::tuple t(s.shape->dynamic_dimensions().size());
            for (size_t i = 0; i < t.size(); ++i) {
              t[i] = py::bool_(s.shape->dynamic_dimensions()[i]);
            }
            return t;
          })
      .def_property_readonly(
          "is_array", [](const PyShape& s) { return s.shape->IsArray(); })
      .def_property_readonly(
          "is_tuple", [](const PyShape& s) { return s.shape->IsTuple(); })
      .def_property_readonly("tuple_shapes", [](const PyShape& s) {
        py::tuple t(s.shape->tuple_shapes().size());
        for (size_t i = 0; i < t.size(); ++i) {
          t[i] = py::cast(MakePyShape(s.shape->tuple_shapes()[i]));
        }
        return t;
      });
}

// The fields of its layout.
void LayoutFields(py::class_<PyShape>& c) {
  c.def_property_readonly(
       "has_layout", [](const PyShape& s) { return s.shape->has_layout(); })
      .def_property_readonly(
          "layout_minor_to_major",
          [](const PyShape& s) {
            return IntTuple(s.shape->layout().minor_to_major());
          })
      .def_property_readonly("layout_tiles",
                             [](const PyShape& s) {
                               const auto tiles = s.shape->layout().tiles();
                               py::tuple t(tiles.size());
                               for (size_t i = 0; i < tiles.size(); ++i) {
                                 t[i] = IntTuple(tiles[i].dimensions());
                               }
                               return t;
                             })
      .def_property_readonly("layout_text",
                             [](const PyShape& s) {
                               std::string out;
                               AppendLayout(&out, s.shape->layout());
                               return out;
                             })
      .def_property_readonly(
          "layout_memory_space",
          [](const PyShape& s) { return s.shape->layout().memory_space(); })
      .def_property_readonly("layout_element_size_in_bits",
                             [](const PyShape& s) {
                               return s.shape->layout().element_size_in_bits();
                             })
      .def_property_readonly(
          "layout_tail_padding_alignment_in_elements",
          [](const PyShape& s) {
            return s.shape->layout().tail_padding_alignment_in_elements();
          })
      .def_property_readonly("layout_split_configs", [](const PyShape& s) {
        py::list out;
        for (const SplitConfig& c : s.shape->layout().split_configs()) {
          out.append(py::make_tuple(c.dimension, IntTuple(c.split_indices)));
        }
        return py::tuple(out);
      });
}

// Its proto, sizes and explanation.
void ShapeAnswers(py::class_<PyShape>& c) {
  c.def("to_proto",
        [](const PyShape& s) { return py::bytes(ShapeToProtoBytes(*s.shape)); })
      .def("sizes", [](const PyShape& s) { return SizesDict(*s.shape); })
      .def("explain",
           [](const PyShape& s) {
             return ExplanationDict(ExplainShape(*s.shape));
           })
      // For python/bench/front_bench.py: seconds per ExplainShape call in
      // C++ alone (`n` calls, the GIL released), the baseline of explain().
      .def("_time_explain_cpp",
           [](const PyShape& s, int64_t n) {
             py::gil_scoped_release release;
             const auto start = std::chrono::steady_clock::now();
             size_t sink = 0;
             for (int64_t i = 0; i < n; ++i) {
               sink += ExplainShape(*s.shape).shape.size();
             }
             const std::chrono::duration<double> t =
                 std::chrono::steady_clock::now() - start;
             return sink == 0 ? 0.0 : t.count() / static_cast<double>(n);
           })
      .def("equals", [](const PyShape& a, const PyShape& b) {
        return Shape::Equal()(*a.shape, *b.shape);
      });
}

// Shapes from text and protos, with a layout, and their picture.
void ShapeFunctions(py::module_& m) {
  m.def("parse_shape", &ParsePyShape, py::arg("text"));
  m.def(
      "shape_from_proto",
      [](py::bytes b) {
        std::string bytes = b;
        return MakePyShape(Unwrap(ShapeFromProtoBytes(bytes)));
      },
      py::arg("data"));
  m.def(
      "shape_with_layout",
      [](const PyShape& shape, const std::string& layout_text) {
        // Gives an array shape the layout written as "{1,0:T(8,128)}".
        Layout layout = Unwrap(ParseLayout(layout_text));
        Shape s = *shape.shape;
        s.set_layout(std::move(layout));
        absl::Status v = ValidateShape(s);
        if (!v.ok()) ThrowStatus(v);
        return MakePyShape(std::move(s));
      },
      py::arg("shape"), py::arg("layout"));

  m.def("logical_shape", &PyLogicalShape);
  // hl.draw: the SVG of `hlolayout draw SHAPE --svg - --view V --slice I,..`.
  m.def(
      "draw_layout_svg",
      [](const PyShape& shape, const std::string& view,
         const std::vector<int64_t>& slice) {
        draw::LayoutDrawOptions options;
        options.view = Unwrap(draw::ParseView(view));
        options.slice = slice;
        return Unwrap(draw::LayoutSvg(*shape.shape, options));
      },
      py::arg("shape"), py::arg("view") = "both",
      py::arg("slice") = std::vector<int64_t>{});
}

}  // namespace

void RegisterShapes(py::module_& m) {
  m.attr("COMBINE") = py::int_(Tile::kCombineDimension);

  py::class_<Layout, std::shared_ptr<Layout>>(m, "_Layout");
  py::class_<PyShape> c(m, "_Shape");
  ShapeFields(c);
  LayoutFields(c);
  ShapeAnswers(c);
  ShapeFunctions(m);
}

}  // namespace hlolayout::pyext
