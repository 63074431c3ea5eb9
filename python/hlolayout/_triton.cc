// python/hlolayout/_triton.cc: the C++ half of `hlolayout.triton`, a
// drop-in for Triton 3.6.0's `triton.tools.LinearLayout` (docs/triton.md,
// "Python").
//
//   >>> from hlolayout.triton import LinearLayout
//   >>> l = LinearLayout.identity_1d(4, "register", "dim0")
//   >>> str(l)
//   '\n - register=1 -> (1)\n   register=2 -> (2)\nwhere out dims are: [dim0
//   (size 4)]'
//
// The class keeps Triton's method names and results; where Triton aborts
// its process these raise ValueError with Triton's reason. Layouts are
// immutable values (`a *= b` rebinds `a`), safe to share between threads.
// RegisterTriton adds the `_triton` submodule to `_hlolayout`.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "_answer.h"
#include "_binding.h"
#include "_record.h"
#include "_triton_docs.h"
#include "absl/hash/hash.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "hlolayout/answers/triton.h"
#include "hlolayout/answers/triton_report.h"
#include "hlolayout/draw/cell_grid.h"
#include "hlolayout/triton/bases_json.h"
#include "hlolayout/triton/cvt_cost.h"
#include "hlolayout/triton/cvt_target.h"
#include "hlolayout/triton/evaluator.h"
#include "hlolayout/triton/layout_check.h"
#include "hlolayout/triton/layout_explain.h"
#include "hlolayout/triton/linear_layout.h"
#include "hlolayout/triton/named_layouts.h"
#include "hlolayout/triton/ops.h"
#include "hlolayout/triton/ttgir_parser.h"
#include "hlolayout/triton/ttgir_printer.h"
#include "hlolayout/triton/views.h"
#include "hlolayout/util/json_writer.h"
#include "hlolayout/views/triton_drawing.h"
#include "hlolayout/views/triton_picture.h"

namespace py = pybind11;

namespace hlolayout {
namespace {

using pyext::BindAnswer;
using pyext::ToPython;
using pyext::Typed;
using triton::LinearLayout;
using triton::NamedInts;
namespace docs = pyext::triton_docs;

// The stub types of what LinearLayout takes and gives as Python objects
// (Bases and Inputs are triton.pyi's aliases).
constexpr char kBasesHint[] = "Bases";
constexpr char kInputsHint[] = "Inputs";
constexpr char kDimSizesHint[] = "Sequence[Tuple[str, int]]";
constexpr char kBasesListHint[] = "List[Tuple[str, List[List[int]]]]";
constexpr char kOutDimsHint[] = "List[Tuple[str, int]]";
constexpr char kMasksHint[] = "Dict[str, int]";

[[noreturn]] void Raise(const absl::Status& s) {
  throw py::value_error(std::string(s.message()));
}

template <typename T>
T Get(absl::StatusOr<T> v) {
  if (!v.ok()) Raise(v.status());
  return *std::move(v);
}

int32_t ToInt32(py::handle h, const char* what) {
  if (!py::isinstance<py::int_>(h) || py::isinstance<py::bool_>(h)) {
    throw py::type_error(
        absl::StrCat(what, " must be an int, got ",
                     std::string(py::str(h.get_type().attr("__name__")))));
  }
  const long long v = h.cast<long long>();
  if (v < std::numeric_limits<int32_t>::min() ||
      v > std::numeric_limits<int32_t>::max()) {
    throw py::value_error(absl::StrCat(what, " ", v, " does not fit in int32"));
  }
  return static_cast<int32_t>(v);
}

// (name, value) pairs from a dict or a sequence of pairs.
std::vector<std::pair<std::string, py::object>> Pairs(py::handle h,
                                                      const char* what) {
  std::vector<std::pair<std::string, py::object>> out;
  if (py::isinstance<py::dict>(h)) {
    for (auto item : py::reinterpret_borrow<py::dict>(h)) {
      out.emplace_back(item.first.cast<std::string>(),
                       py::reinterpret_borrow<py::object>(item.second));
    }
    return out;
  }
  for (py::handle pair : py::iter(h)) {
    py::sequence seq = py::reinterpret_borrow<py::sequence>(pair);
    if (!py::isinstance<py::sequence>(pair) || py::len(seq) != 2) {
      throw py::type_error(absl::StrCat(what, " must be (name, value) pairs"));
    }
    out.emplace_back(seq[0].cast<std::string>(),
                     py::reinterpret_borrow<py::object>(seq[1]));
  }
  return out;
}

triton::NamedBases Bases(py::handle h) {
  triton::NamedBases bases;
  for (auto& [name, value] : Pairs(h, "bases")) {
    triton::DimBases db;
    for (py::handle basis : py::iter(value)) {
      std::vector<int32_t> b;
      for (py::handle v : py::iter(basis))
        b.push_back(ToInt32(v, "a basis value"));
      db.push_back(std::move(b));
    }
    bases.emplace_back(name, std::move(db));
  }
  return bases;
}

LinearLayout FromBases(py::object bases, std::vector<std::string> names,
                       std::optional<std::vector<int32_t>> sizes,
                       bool require_surjective) {
  triton::NamedBases b = Bases(bases);
  if (sizes.has_value()) {
    if (sizes->size() != names.size()) {
      throw py::value_error(
          "out_dim_names and out_dim_sizes must have the same length");
    }
    NamedInts outs;
    for (size_t i = 0; i < names.size(); ++i) {
      outs.emplace_back(names[i], (*sizes)[i]);
    }
    return Get(LinearLayout::Create(std::move(b), std::move(outs),
                                    require_surjective));
  }
  if (!require_surjective) {
    throw py::value_error(
        "out_dim_sizes must be provided when require_surjective is false");
  }
  return Get(LinearLayout::CreateInferred(std::move(b), names));
}

py::list PyBases(const LinearLayout& l) {
  py::list result;
  for (const auto& [name, db] : l.bases()) {
    py::list dim;
    for (const auto& b : db) dim.append(py::cast(b));
    result.append(py::make_tuple(name, dim));
  }
  return result;
}

py::list PyOutDims(const LinearLayout& l) {
  py::list result;
  for (const auto& [name, size] : l.out_dims()) {
    result.append(py::make_tuple(name, size));
  }
  return result;
}

// Whether an input value asks for the vectorised form: a NumPy array, a
// list or a tuple (Python ints keep Triton's scalar form).
bool IsArrayLike(py::handle h) {
  return py::isinstance<py::array>(h) || py::isinstance<py::list>(h) ||
         py::isinstance<py::tuple>(h);
}

// An integer array as a C-contiguous int32 array when it is one (no copy),
// else int64 (bits above an in-dim's size are ignored either way).
py::array IntArray(py::handle h) {
  py::array a = py::array::ensure(h);
  if (!a) throw py::type_error("inputs must be integer arrays");
  const char kind = a.dtype().kind();
  if (kind != 'i' && kind != 'u') {
    throw py::type_error(
        absl::StrCat("inputs must be integer arrays, got dtype ",
                     std::string(py::str(a.dtype()))));
  }
  if (a.dtype().is(py::dtype::of<int32_t>()) &&
      (a.flags() & py::array::c_style)) {
    return a;
  }
  return py::array_t<int64_t,
                     py::array::c_style | py::array::forcecast>::ensure(a);
}

// L over arrays: by_dim[d] holds in-dim d's values (any shapes that
// broadcast together); returns one int32 array per out-dim of the broadcast
// shape. The work runs in ApplyBatch (triton/evaluator.h) without the GIL.
std::vector<py::array> ApplyColumns(const LinearLayout& l,
                                    const std::vector<py::object>& by_dim) {
  py::module_ np = py::module_::import("numpy");
  std::vector<py::array> arrays;
  if (!by_dim.empty()) {
    py::tuple args(by_dim.size());
    for (size_t d = 0; d < by_dim.size(); ++d) args[d] = IntArray(by_dim[d]);
    py::list broadcast = np.attr("broadcast_arrays")(*args);
    for (py::handle a : broadcast) arrays.push_back(IntArray(a));
  }
  std::vector<ssize_t> shape;
  if (!arrays.empty()) {
    shape.assign(arrays[0].shape(), arrays[0].shape() + arrays[0].ndim());
  }
  int64_t n = 1;
  for (ssize_t s : shape) n *= s;
  bool all32 = true;
  for (const py::array& a : arrays) {
    all32 = all32 && a.dtype().is(py::dtype::of<int32_t>());
  }
  if (!all32) {
    for (py::array& a : arrays) {
      a = py::array_t<int64_t,
                      py::array::c_style | py::array::forcecast>::ensure(a);
    }
  }
  std::vector<py::array> outs;
  std::vector<int32_t*> out_ptrs;
  for (int o = 0; o < l.num_out_dims(); ++o) {
    py::array_t<int32_t> out(shape);
    out_ptrs.push_back(out.mutable_data());
    outs.push_back(std::move(out));
  }
  if (all32) {
    std::vector<const int32_t*> in_ptrs;
    for (const py::array& a : arrays) {
      in_ptrs.push_back(static_cast<const int32_t*>(a.data()));
    }
    py::gil_scoped_release release;
    triton::ApplyBatch(l, in_ptrs, out_ptrs, n);
  } else {
    std::vector<const int64_t*> in_ptrs;
    for (const py::array& a : arrays) {
      in_ptrs.push_back(static_cast<const int64_t*>(a.data()));
    }
    py::gil_scoped_release release;
    triton::ApplyBatch(l, in_ptrs, out_ptrs, n);
  }
  return outs;
}

// apply(2-D array): one input per row, one column per in-dim in order;
// returns one row per input, one column per out-dim.
py::object ApplyMatrix(const LinearLayout& l, py::array a) {
  if (a.ndim() != 2 || a.shape(1) != l.num_in_dims()) {
    throw py::value_error(absl::StrCat(
        "a 2-D array of inputs has one column per in-dim: shape (n, ",
        l.num_in_dims(), ")"));
  }
  py::module_ np = py::module_::import("numpy");
  py::object columns = np.attr("ascontiguousarray")(IntArray(a).attr("T"));
  std::vector<py::object> by_dim;
  for (int d = 0; d < l.num_in_dims(); ++d)
    by_dim.push_back(columns[py::int_(d)]);
  const int64_t n = a.shape(0);
  if (l.num_in_dims() == 0) {
    py::array_t<int32_t> out(std::vector<ssize_t>{n, l.num_out_dims()});
    std::fill(out.mutable_data(), out.mutable_data() + out.size(), 0);
    return std::move(out);
  }
  std::vector<py::array> outs = ApplyColumns(l, by_dim);
  return np.attr("stack")(py::cast(outs), py::arg("axis") = 1);
}

py::object Apply(const LinearLayout& l, py::object inputs) {
  if (py::isinstance<py::array>(inputs)) {
    return ApplyMatrix(l, py::reinterpret_borrow<py::array>(inputs));
  }
  std::vector<std::pair<std::string, py::object>> pairs =
      Pairs(inputs, "inputs");
  bool vector = false;
  for (const auto& [name, v] : pairs) vector = vector || IsArrayLike(v);
  if (vector) {
    // Triton's checks of the names (each in-dim once, no other name).
    NamedInts names;
    for (const auto& [name, v] : pairs) names.emplace_back(name, 0);
    Get(l.Apply(names));
    std::vector<py::object> by_dim(l.num_in_dims());
    for (const auto& [name, v] : pairs) by_dim[l.InDimIndex(name)] = v;
    std::vector<py::array> outs = ApplyColumns(l, by_dim);
    if (py::isinstance<py::dict>(inputs)) {
      py::dict d;
      for (int o = 0; o < l.num_out_dims(); ++o) {
        d[py::str(l.out_dim_name(o))] = outs[o];
      }
      return d;
    }
    py::list list;
    for (int o = 0; o < l.num_out_dims(); ++o) {
      list.append(py::make_tuple(l.out_dim_name(o), outs[o]));
    }
    return list;
  }
  NamedInts ins;
  for (auto& [name, v] : pairs) {
    ins.emplace_back(name, ToInt32(v, "an input value"));
  }
  NamedInts outs = Get(l.Apply(ins));
  if (py::isinstance<py::dict>(inputs)) {
    py::dict d;
    for (const auto& [name, v] : outs) d[py::str(name)] = v;
    return d;
  }
  py::list list;
  for (const auto& [name, v] : outs) list.append(py::make_tuple(name, v));
  return list;
}

NamedInts Sizes(py::object h) {
  NamedInts out;
  for (auto& [name, v] : Pairs(h, "dims")) {
    out.emplace_back(name, ToInt32(v, "a dim size"));
  }
  return out;
}

std::optional<LinearLayout> Optional(
    absl::StatusOr<std::optional<LinearLayout>> v) {
  if (!v.ok()) Raise(v.status());
  return *std::move(v);
}

// The layout of TTGIR text (or JSON bases) at `shape` (None: a linear
// layout's own shape).
// Keys Triton ignores, as Python warnings.
void Warn(const std::vector<std::string>& warnings) {
  for (const std::string& w : warnings) {
    if (PyErr_WarnEx(PyExc_UserWarning, w.c_str(), 1) != 0) {
      throw py::error_already_set();
    }
  }
}

triton::GivenLayout Given(const std::string& text,
                          const std::optional<std::vector<int64_t>>& shape) {
  std::vector<std::string> warnings;  // keys Triton ignores, located
  absl::StatusOr<triton::GivenLayout> g =
      triton::ReadGivenLayout(text, shape, &warnings);
  Warn(warnings);
  return Get(std::move(g));
}

// `bits` is kept for callers of the older signature: a layout's text names
// its element width.
LinearLayout FromText(const std::string& text,
                      std::optional<std::vector<int64_t>> shape, int /*bits*/) {
  return Given(text, shape).layout;
}

// `hlolayout triton explain`'s answer (a TritonExplainAnswer; its
// to_dict() is the CLI's --json).
py::object Explain(const std::string& text,
                   std::optional<std::vector<int64_t>> shape, int bits) {
  return ToPython(triton::AnswerExplain(Given(text, shape), bits));
}

// `hlolayout triton check`'s answer (a TritonCheckAnswer).
py::object Check(const std::string& layout, std::vector<int64_t> shape,
                 const std::string& element, bool memdesc, int threads_per_warp,
                 std::optional<int> num_warps, std::optional<int> num_ctas) {
  triton::LayoutCheckRequest r;
  r.layout = layout;
  r.shape = std::move(shape);
  r.element = element;
  r.memdesc = memdesc;
  r.threads_per_warp = threads_per_warp;
  r.num_warps = num_warps;
  r.num_ctas = num_ctas;
  return ToPython(triton::AnswerCheck(r));
}

py::list SmemInstrs(const std::vector<triton::SmemInstr>& instrs) {
  py::list out;
  for (const triton::SmemInstr& i : instrs) {
    py::dict d;
    d["instr"] = i.instr;
    d["bits"] = i.bits;
    d["count"] = i.count;
    out.append(d);
  }
  return out;
}

py::dict CvtCost(const LinearLayout& src, const LinearLayout& dst, int bits,
                 const std::string& target_name, const std::string& version) {
  triton::CvtTarget target = Get(triton::CvtTargetNamed(
      target_name, Get(triton::TritonVersionNamed(version))));
  triton::CvtCost c = Get(triton::ConvertLayoutCost(src, dst, bits, target));
  py::dict d;
  d["kind"] = std::string(triton::CvtKindName(c.kind));
  d["target"] = target.name;
  d["scratch_bytes"] = c.scratch_bytes;
  d["map"] = c.map;
  d["mixed_transpositions"] =
      c.mixed_transpositions ? py::object(py::int_(*c.mixed_transpositions))
                             : py::object(py::none());
  if (c.smem.has_value()) {
    d["reps"] = c.smem->reps;
    d["stores"] = SmemInstrs(c.smem->stores);
    d["loads"] = SmemInstrs(c.smem->loads);
    d["store_ways"] = c.smem->store_ways;
    d["load_ways"] = c.smem->load_ways;
  } else {
    const bool none = c.kind != triton::CvtKind::kCrossCta;
    d["reps"] = py::none();
    d["stores"] = none ? py::object(py::list()) : py::object(py::none());
    d["loads"] = none ? py::object(py::list()) : py::object(py::none());
    d["store_ways"] = py::none();
    d["load_ways"] = py::none();
  }
  return d;
}

// LinearLayout's constructors.
void LayoutBuilders(py::class_<LinearLayout>& c) {
  c.def(py::init<>(), docs::kDocInit)
      .def_static(
          "identity_1d",
          [](int32_t size, std::string in, std::string out) {
            return Get(LinearLayout::Identity1D(size, in, out));
          },
          py::arg("size"), py::arg("inDim"), py::arg("outDim"),
          docs::kDocIdentity1d)
      .def_static(
          "strided_1d",
          [](int32_t size, int32_t stride, std::string in, std::string out) {
            return Get(LinearLayout::Strided1D(size, stride, in, out));
          },
          py::arg("size"), py::arg("stride"), py::arg("inDim"),
          py::arg("outDim"), docs::kDocStrided1d)
      .def_static(
          "zeros_1d",
          [](int32_t size, std::string in, std::string out, int32_t out_size) {
            return Get(LinearLayout::Zeros1D(size, in, out, out_size));
          },
          py::arg("size"), py::arg("inDim"), py::arg("outDim"),
          py::arg("outDimSize") = 1, docs::kDocZeros1d)
      .def_static(
          "from_bases",
          [](Typed<kBasesHint> bases, std::vector<std::string> names,
             std::optional<std::vector<int32_t>> sizes,
             bool require_surjective) {
            return FromBases(bases, std::move(names), std::move(sizes),
                             require_surjective);
          },
          py::arg("bases"), py::arg("out_dim_names"),
          py::arg("out_dim_sizes") = py::none(),
          py::arg("require_surjective") = true, docs::kDocFromBases);
}

// Triton's operations on layouts, with Triton's names.
void LayoutOperations(py::class_<LinearLayout>& c) {
  c.def(
       "compose",
       [](const LinearLayout& a, const LinearLayout& b) {
         return Get(triton::Compose(a, b));
       },
       py::arg("outer"), docs::kDocCompose)
      .def(
          "invert_and_compose",
          [](const LinearLayout& a, const LinearLayout& b) {
            return Get(triton::InvertAndCompose(a, b));
          },
          py::arg("outer"), docs::kDocInvertAndCompose)
      .def(
          "invert",
          [](const LinearLayout& a) { return Get(triton::Invert(a)); },
          docs::kDocInvert)
      .def(
          "pseudoinvert",
          [](const LinearLayout& a) { return Get(triton::Pseudoinvert(a)); },
          docs::kDocPseudoinvert)
      .def("is_surjective", &LinearLayout::IsSurjective, docs::kDocIsSurjective)
      .def("is_injective", &LinearLayout::IsInjective, docs::kDocIsInjective)
      .def("is_invertible", &LinearLayout::IsInvertible, docs::kDocIsInvertible)
      .def(
          "get_in_dim_names",
          [](const LinearLayout& l) { return l.in_dim_names(); },
          docs::kDocGetInDimNames)
      .def(
          "get_out_dim_names",
          [](const LinearLayout& l) { return l.OutDimNames(); },
          docs::kDocGetOutDimNames)
      .def_property_readonly(
          "bases",
          [](const LinearLayout& l) -> Typed<kBasesListHint> {
            return PyBases(l);
          },
          docs::kDocBases)
      .def_property_readonly(
          "out_dims",
          [](const LinearLayout& l) -> Typed<kOutDimsHint> {
            return PyOutDims(l);
          },
          docs::kDocOutDims)
      .def_property_readonly("num_in_dims", &LinearLayout::num_in_dims,
                             docs::kDocNumInDims)
      .def_property_readonly("num_out_dims", &LinearLayout::num_out_dims,
                             docs::kDocNumOutDims);
}

// Products, comparison, printing and views.
void LayoutOperators(py::class_<LinearLayout>& c) {
  c.def(
       "__mul__",
       [](const LinearLayout& a, const LinearLayout& b) {
         return Get(triton::Product(a, b));
       },
       py::arg("other"), docs::kDocMul)
      .def(
          "__imul__",
          [](const LinearLayout& a, const LinearLayout& b) {
            return Get(triton::Product(a, b));
          },
          py::arg("other"))
      .def("__eq__",
           [](const LinearLayout& a, const LinearLayout& b) { return a == b; })
      .def("__ne__",
           [](const LinearLayout& a, const LinearLayout& b) { return a != b; })
      .def("__hash__",
           [](const LinearLayout& l) {
             return static_cast<py::ssize_t>(absl::Hash<LinearLayout>()(l));
           })
      .def("__repr__", &LinearLayout::ToString)
      .def("__str__", &LinearLayout::ToString)
      .def(
          "get_shared_view",
          [](const LinearLayout& l, bool hw) {
            return Get(triton::SharedView(l, hw));
          },
          py::arg("use_hw_point_of_view"), docs::kDocGetSharedView)
      .def(
          "get_distributed_view",
          [](const LinearLayout& l, bool hw) {
            return Get(triton::DistributedView(l, hw));
          },
          py::arg("use_hw_point_of_view"), docs::kDocGetDistributedView)
      .def(
          "apply",
          [](const LinearLayout& l, Typed<kInputsHint> inputs) {
            return Apply(l, inputs);
          },
          py::arg("inputs"), docs::kDocApply)
      .def("get_matrix_view", &triton::MatrixView, docs::kDocGetMatrixView);
}

// Beyond Triton's binding: dims by name and reshaping.
void LayoutDims(py::class_<LinearLayout>& c) {
  c.def(
       "get_in_dim_size",
       [](const LinearLayout& l, const std::string& d) {
         const int i = l.InDimIndex(d);
         if (i < 0) throw py::value_error("no in-dim " + d);
         return l.InDimSize(i);
       },
       py::arg("dim"), docs::kDocGetInDimSize)
      .def(
          "get_out_dim_size",
          [](const LinearLayout& l, const std::string& d) {
            const int i = l.OutDimIndex(d);
            if (i < 0) throw py::value_error("no out-dim " + d);
            return l.OutDimSize(i);
          },
          py::arg("dim"), docs::kDocGetOutDimSize)
      .def(
          "reshape_ins",
          [](const LinearLayout& l, Typed<kDimSizesHint> dims) {
            return Get(triton::ReshapeIns(l, Sizes(dims)));
          },
          py::arg("dims"), docs::kDocReshapeIns)
      .def(
          "reshape_outs",
          [](const LinearLayout& l, Typed<kDimSizesHint> dims) {
            return Get(triton::ReshapeOuts(l, Sizes(dims)));
          },
          py::arg("dims"), docs::kDocReshapeOuts)
      .def(
          "flatten_ins",
          [](const LinearLayout& l) { return Get(triton::FlattenIns(l)); },
          docs::kDocFlattenIns)
      .def(
          "flatten_outs",
          [](const LinearLayout& l) { return Get(triton::FlattenOuts(l)); },
          docs::kDocFlattenOuts)
      .def(
          "transpose_ins",
          [](const LinearLayout& l, std::vector<std::string> order) {
            return Get(triton::TransposeIns(l, order));
          },
          py::arg("order"), docs::kDocTransposeIns)
      .def(
          "transpose_outs",
          [](const LinearLayout& l, std::vector<std::string> order) {
            return Get(triton::TransposeOuts(l, order));
          },
          py::arg("order"), docs::kDocTransposeOuts);
}

// Beyond Triton's binding: sublayouts, division, free variables, text.
void LayoutAlgebra(py::class_<LinearLayout>& c) {
  c.def(
       "sublayout",
       [](const LinearLayout& l, std::vector<std::string> ins,
          std::vector<std::string> outs) {
         return Get(triton::Sublayout(l, ins, outs));
       },
       py::arg("ins"), py::arg("outs"), docs::kDocSublayout)
      .def(
          "sublayout_is_zero",
          [](const LinearLayout& l, std::vector<std::string> ins,
             std::vector<std::string> outs) {
            return Get(triton::SublayoutIsZero(l, ins, outs));
          },
          py::arg("ins"), py::arg("outs"), docs::kDocSublayoutIsZero)
      .def(
          "concat_ins",
          [](const LinearLayout& a, const LinearLayout& b) {
            return Get(triton::ConcatIns(a, b));
          },
          py::arg("other"), docs::kDocConcatIns)
      .def(
          "concat_outs",
          [](const LinearLayout& a, const LinearLayout& b) {
            return Get(triton::ConcatOuts(a, b));
          },
          py::arg("other"), docs::kDocConcatOuts)
      .def(
          "divide_left",
          [](const LinearLayout& a, const LinearLayout& b) {
            return Optional(triton::DivideLeft(a, b));
          },
          py::arg("other"), docs::kDocDivideLeft)
      .def(
          "divide_right",
          [](const LinearLayout& a, const LinearLayout& b) {
            return Optional(triton::DivideRight(a, b));
          },
          py::arg("other"), docs::kDocDivideRight)
      .def(
          "is_trivial_over",
          [](const LinearLayout& l, std::vector<std::string> dims) {
            return Get(triton::IsTrivialOver(l, dims));
          },
          py::arg("dims"), docs::kDocIsTrivialOver)
      .def(
          "quotient",
          [](const LinearLayout& l, std::vector<std::string> dims) {
            return Optional(triton::Quotient(l, dims));
          },
          py::arg("dims"), docs::kDocQuotient)
      .def(
          "get_free_variable_masks",
          [](const LinearLayout& l) -> Typed<kMasksHint> {
            py::dict d;
            for (const auto& [name, mask] : triton::FreeVariableMasks(l)) {
              d[py::str(name)] = mask;
            }
            return d;
          },
          docs::kDocGetFreeVariableMasks)
      .def("get_num_consecutive_in_out", &triton::NumConsecutiveInOut,
           docs::kDocGetNumConsecutiveInOut)
      .def("to_json", &triton::LayoutToJson, docs::kDocToJson)
      .def(
          "to_ttgir",
          [](const LinearLayout& l, int32_t alignment) {
            return triton::PrintLinear(l, alignment);
          },
          py::arg("alignment") = 16, docs::kDocToTtgir);
}

// From text and JSON, convert costs.
void LayoutFunctions(py::module_& m) {
  m.def("from_json", [](const std::string& text) {
    return Get(triton::LayoutFromJson(text));
  });
  m.def("from_text", &FromText, py::arg("text"), py::arg("shape"),
        py::arg("bits") = triton::kDefaultElementBits);
  // The answers' classes (answers/triton.h), from their field lists.
  py::module_ answers = m.def_submodule("_answers");
  BindAnswer<triton::TritonExplainAnswer>(answers, "hlolayout.triton");
  BindAnswer<triton::TritonCheckAnswer>(answers, "hlolayout.triton");
  m.def("explain", &Explain, py::arg("text"), py::arg("shape"),
        py::arg("bits") = triton::kDefaultElementBits);
  m.def("check", &Check, py::arg("layout"), py::arg("shape"),
        py::arg("element"), py::arg("memdesc"), py::arg("threads_per_warp"),
        py::arg("num_warps"), py::arg("num_ctas"));
  m.def("cvt_cost", &CvtCost, py::arg("src"), py::arg("dst"),
        py::arg("bits") = triton::kDefaultElementBits,
        py::arg("target") = std::string(triton::kDefaultCvtTarget),
        py::arg("triton") =
            std::string(triton::TritonVersionName(triton::kNewestTriton)));
}

// Pictures of a layout, and kernel reports.
void PictureFunctions(py::module_& m) {
  m.def(
      "draw",
      [](const LinearLayout& l, const std::string& title, int bits, bool svg) {
        draw::CellGrid g = Get(triton::LayoutPicture(l, title, bits));
        return svg ? draw::GridsToSvg({g}, title)
                   : draw::PictureToText(title, {g}, draw::TextStyle{});
      },
      py::arg("layout"), py::arg("title"),
      py::arg("bits") = triton::kDefaultElementBits, py::arg("svg") = true);
  // `hlolayout triton draw TEXT --shape S` (a padded shared layout: where
  // its elements go once padded) and `... --instruction`: (svg, text).
  m.def(
      "draw_ttgir",
      [](const std::string& text, std::optional<std::vector<int64_t>> shape,
         int bits, bool instruction, int k_width) {
        triton::LayoutDrawing d;
        if (instruction) {
          triton::InstructionPictureOptions options;
          options.operand_bits = bits;
          options.k_width = k_width;
          d = Get(triton::DrawInstruction(text, options));
        } else {
          const std::string trimmed(absl::StripAsciiWhitespace(text));
          const triton::Layout named = Get(triton::ParseLayout(trimmed));
          const LinearLayout l = FromText(trimmed, shape, bits);
          d = Get(triton::DrawLayout(trimmed, l, &named, bits));
        }
        return py::make_tuple(triton::DrawingSvg(d),
                              triton::DrawingText(d, draw::TextStyle{}));
      },
      py::arg("text"), py::arg("shape") = py::none(),
      py::arg("bits") = triton::kDefaultElementBits,
      py::arg("instruction") = false, py::arg("k_width") = 0);
}

// hl.triton.report: the kernel report of TTGIR text (named "<text>" in
// messages) or of a file, cache folder or metadata JSON (`path`), as
// records whose to_dict() is what `hlolayout triton report --json` prints.
void ReportFunctions(py::module_& m) {
  pyext::BindAnswer<triton::answer::KernelReport>(m, "hlolayout.triton");
  m.def(
      "report",
      [](const std::optional<std::string>& text,
         const std::optional<std::string>& path, const std::string& triton,
         const std::string& target) {
        triton::TritonReportRequest request;
        if (path) {
          request.path = path;
        } else {
          request.text = text.value_or("");
          request.text_name = "<text>";
        }
        request.triton = triton;
        request.target = target;
        absl::StatusOr<triton::KernelReport> report;
        {
          py::gil_scoped_release release;
          report = triton::AnswerKernelReport(std::move(request));
        }
        return pyext::ToPython(triton::ReportAnswerOf(Get(std::move(report))));
      },
      py::arg("text") = py::none(), py::arg("path") = py::none(),
      py::arg("triton") = "", py::arg("target") = "");
}

}  // namespace

void RegisterTriton(py::module_& parent) {
  py::module_ m = parent.def_submodule(
      "_triton", "C++ core of hlolayout.triton; use hlolayout.triton instead.");
  py::class_<LinearLayout> c(m, "LinearLayout", docs::kDocClass);
  LayoutBuilders(c);
  LayoutOperations(c);
  LayoutOperators(c);
  LayoutDims(c);
  LayoutAlgebra(c);
  LayoutFunctions(m);
  PictureFunctions(m);
  ReportFunctions(m);
}

}  // namespace hlolayout
