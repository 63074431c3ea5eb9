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
#include <time.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "_answer.h"
#include "_binding.h"
#include "_record.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "hlolayout/answers/explain.h"
#include "hlolayout/answers/shape_proto.h"
#include "hlolayout/layout/layout_validation.h"
#include "hlolayout/layout/sizes.h"
#include "hlolayout/parser/shape_parser.h"
#include "hlolayout/shape/primitive_type.h"
#include "hlolayout/shape/printer.h"
#include "hlolayout/shape/shape.h"
#include "hlolayout/views/layout_picture.h"

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

// Shape.explain(): the library's explanation as records, whose to_dict()
// is the document `hlolayout explain --json` writes.
py::object Explanation(const answers::ShapeExplanation& e) {
  return ToPython(answers::ExplanationAnswerOf(e));
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
        [](const PyShape& s) {
          return py::bytes(answers::ShapeProtoBytesOf(*s.shape));
        })
      .def("sizes", [](const PyShape& s) { return SizesDict(*s.shape); })
      .def("explain",
           [](const PyShape& s) {
             return Explanation(answers::AnswerExplain(*s.shape));
           })
      // For python/bench/front_bench.py: seconds per AnswerExplain call in
      // C++ alone (`n` calls, the GIL released), the baseline of explain();
      // `cpu`: the calling thread's CPU time, else wall time.
      .def(
          "_time_explain_cpp",
          [](const PyShape& s, int64_t n, bool cpu) {
            py::gil_scoped_release release;
            const auto now = [cpu] {
              if (!cpu) {
                return std::chrono::duration<double>(
                           std::chrono::steady_clock::now().time_since_epoch())
                    .count();
              }
              timespec t;
              clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
              return static_cast<double>(t.tv_sec) +
                     1e-9 * static_cast<double>(t.tv_nsec);
            };
            const double start = now();
            size_t sink = 0;
            for (int64_t i = 0; i < n; ++i) {
              sink += answers::AnswerExplain(*s.shape).shape.size();
            }
            const double t = now() - start;
            return sink == 0 ? 0.0 : t / static_cast<double>(n);
          },
          py::arg("n"), py::arg("cpu") = false)
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
        return MakePyShape(Unwrap(answers::AnswerShapeFromProto(bytes)));
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
  BindAnswer<answers::Explanation>(m, "hlolayout.shapes");

  py::class_<Layout, std::shared_ptr<Layout>>(m, "_Layout");
  py::class_<PyShape> c(m, "_Shape");
  ShapeFields(c);
  LayoutFields(c);
  ShapeAnswers(c);
  ShapeFunctions(m);
}

}  // namespace hlolayout::pyext
