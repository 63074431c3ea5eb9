// python/hlolayout/_cute.cc: CuTe layouts, swizzles and composed layouts as
// Python objects bound to the C++ ones (cute/), and the layout algebra on
// them, for `hlolayout.cute` (a drop-in for NVIDIA's pycute):
//
//   >>> from hlolayout import cute
//   >>> L = cute.Layout(((2, 2), 3), ((24, 2), 8))
//   >>> print(L), L(5), L.cute
//   ((2, 2), 3):((24, 2), 8)  32  '((_2,_2),_3):((_24,_2),_8)'
//   >>> cute.composition(cute.Layout((6, 2), (8, 2)), cute.Layout((4, 3), (3,
//   1))) Layout(((2, 2), 3),((24, 2), 8))
//
// Every operation runs in C++ on the objects themselves (no text round
// trip). Python ints are CuTe's static integers; layouts made from text keep
// the text's tags. Errors are ValueError with the library's message.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "_binding.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "hlolayout/cute/coalesce.h"
#include "hlolayout/cute/complement.h"
#include "hlolayout/cute/composed_layout.h"
#include "hlolayout/cute/composed_ops.h"
#include "hlolayout/cute/composition.h"
#include "hlolayout/cute/divide.h"
#include "hlolayout/cute/inverse.h"
#include "hlolayout/cute/layout.h"
#include "hlolayout/cute/numeric_types.h"
#include "hlolayout/cute/ops.h"
#include "hlolayout/cute/parse.h"
#include "hlolayout/cute/print.h"
#include "hlolayout/cute/product.h"
#include "hlolayout/cute/slice.h"

namespace py = pybind11;

namespace hlolayout::pyext {

// The Python classes (outside the anonymous namespace: pybind11 knows them
// by type).
struct PyLayoutBase {};

struct PyLayout : PyLayoutBase {
  explicit PyLayout(cute::Layout l) : any(std::move(l)) {}
  const cute::Layout& layout() const { return any.layout(); }
  cute::AnyLayout any;  // kind kLayout
  py::object shape_cache;
  py::object stride_cache;
};

struct PySwizzle {
  explicit PySwizzle(cute::Swizzle s) : any(s) {}
  const cute::Swizzle& sw() const { return any.swizzle(); }
  cute::AnyLayout any;  // kind kSwizzle
};

struct PyComposed : PyLayoutBase {
  explicit PyComposed(cute::AnyLayout l) : layout(std::move(l)) {}
  cute::AnyLayout layout;  // kind kComposed
};

namespace {

// ---------------------------------------------------------------------------
// Fast paths to the C++ objects of our classes: pybind11's isinstance and
// cast look the type up in a hash map each time (a few hundred
// instructions, a large part of a layout operation here), so the type
// records are looked up once and an exact type match reads the value
// directly. Subclasses take pybind11's general path.

struct TypeRecords {
  const py::detail::type_info* layout;
  const py::detail::type_info* swizzle;
  const py::detail::type_info* composed;
};

const TypeRecords& Types() {
  static const TypeRecords records = {
      py::detail::get_type_info(typeid(PyLayout)),
      py::detail::get_type_info(typeid(PySwizzle)),
      py::detail::get_type_info(typeid(PyComposed))};
  return records;
}

template <typename T>
const T* Get(py::handle h, const py::detail::type_info* type) {
  if (Py_TYPE(h.ptr()) == type->type) {
    auto* inst = reinterpret_cast<py::detail::instance*>(h.ptr());
    return static_cast<const T*>(inst->get_value_and_holder(type).value_ptr());
  }
  if (PyObject_TypeCheck(h.ptr(), type->type)) return &h.cast<const T&>();
  return nullptr;
}

const PyLayout* GetLayout(py::handle h) {
  return Get<PyLayout>(h, Types().layout);
}
const PySwizzle* GetSwizzle(py::handle h) {
  return Get<PySwizzle>(h, Types().swizzle);
}
const PyComposed* GetComposed(py::handle h) {
  return Get<PyComposed>(h, Types().composed);
}

// A new Python object owning `value` (pybind11's cast, without the type
// lookup).
template <typename T>
py::object NewObject(T value, const py::detail::type_info* type) {
  T* p = new T(std::move(value));
  return py::reinterpret_steal<py::object>(
      py::detail::type_caster_generic::cast(
          p, py::return_value_policy::take_ownership, py::handle(), type,
          nullptr, nullptr));
}

// ---------------------------------------------------------------------------
// Python values <-> CuTe integers

py::object ToPy(const cute::IntTuple& t) {
  if (t.is_int()) return py::int_(t.value());
  py::tuple out(t.elements().size());
  for (size_t i = 0; i < t.elements().size(); ++i)
    out[i] = ToPy(t.elements()[i]);
  return std::move(out);
}

bool IsPyInt(py::handle h) {
  return PyLong_Check(h.ptr()) || py::isinstance<py::int_>(h) ||
         (PyIndex_Check(h.ptr()) && !PyBool_Check(h.ptr()) &&
          !py::isinstance<py::str>(h));
}

int64_t PyToInt64(py::handle h) {
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(h.ptr(), &overflow);
  if (overflow != 0) throw py::value_error("integer out of int64's range");
  if (v == -1 && PyErr_Occurred()) throw py::error_already_set();
  return v;
}

// An int or nested tuple of ints as a static IntTuple.
cute::IntTuple FromPy(py::handle h, int depth = 0) {
  if (depth > 64) throw py::value_error("nesting deeper than 64");
  if (PyTuple_Check(h.ptr())) {
    const Py_ssize_t n = PyTuple_GET_SIZE(h.ptr());
    std::vector<cute::IntTuple> out;
    out.reserve(n);
    for (Py_ssize_t i = 0; i < n; ++i) {
      out.push_back(FromPy(PyTuple_GET_ITEM(h.ptr(), i), depth + 1));
    }
    return cute::IntTuple::Tuple(std::move(out));
  }
  if (PyLong_Check(h.ptr()) && !PyBool_Check(h.ptr())) {
    return cute::IntTuple::Static(PyToInt64(h));
  }
  if (PyIndex_Check(h.ptr()) && !PyBool_Check(h.ptr())) {  // numpy ints
    py::int_ v = py::reinterpret_steal<py::int_>(PyNumber_Index(h.ptr()));
    return cute::IntTuple::Static(PyToInt64(v));
  }
  throw py::type_error(
      absl::StrCat("cute: expected an int or a tuple of ints, got ",
                   std::string(py::str(py::type::of(h).attr("__name__")))));
}

// An IntTuple operand: Python ints and tuples (static), or CuTe text.
cute::IntTuple ToTuple(py::handle h) {
  if (PyUnicode_Check(h.ptr())) {
    return Unwrap(cute::ParseIntTuple(h.cast<std::string>()));
  }
  return FromPy(h);
}

// pycute's text of an IntTuple: Python's tuple repr, `(4,)` for rank 1.
void AppendPy(std::string& out, const cute::IntTuple& t) {
  if (t.is_int()) {
    absl::StrAppend(&out, t.value());
    return;
  }
  out.push_back('(');
  const auto& e = t.elements();
  for (size_t i = 0; i < e.size(); ++i) {
    if (i > 0) out += ", ";
    AppendPy(out, e[i]);
  }
  if (e.size() == 1) out.push_back(',');
  out.push_back(')');
}

std::string PyText(const cute::IntTuple& t) {
  std::string out;
  AppendPy(out, t);
  return out;
}

std::string PyText(const cute::Layout& l) {
  std::string out;
  AppendPy(out, l.shape());
  out.push_back(':');
  AppendPy(out, l.stride());
  return out;
}

std::string PyText(const cute::Swizzle& s) {
  return absl::StrCat("SW_", s.bits(), "_", s.base(), "_", s.shift());
}

std::string PyText(const cute::AnyLayout& l);

std::string PyText(const cute::ComposedLayout& c) {
  const std::string offset = c.offset().is_smem_ptr()
                                 ? cute::ToString(c.offset())
                                 : absl::StrCat(c.offset().value().value);
  return absl::StrCat(PyText(c.outer()), " o ", offset, " o ",
                      PyText(c.inner()));
}

std::string PyText(const cute::AnyLayout& l) {
  switch (l.kind()) {
    case cute::AnyLayout::Kind::kLayout:
      return PyText(l.layout());
    case cute::AnyLayout::Kind::kSwizzle:
      return PyText(l.swizzle());
    case cute::AnyLayout::Kind::kComposed:
      return PyText(l.composed());
  }
  return "";
}

std::string PyRepr(const cute::AnyLayout& l) {
  switch (l.kind()) {
    case cute::AnyLayout::Kind::kLayout:
      return absl::StrCat("Layout(", PyText(l.layout().shape()), ",",
                          PyText(l.layout().stride()), ")");
    case cute::AnyLayout::Kind::kSwizzle: {
      const cute::Swizzle& s = l.swizzle();
      return absl::StrCat("Swizzle(", s.bits(), ",", s.base(), ",", s.shift(),
                          ")");
    }
    case cute::AnyLayout::Kind::kComposed: {
      const cute::ComposedLayout& c = l.composed();
      const std::string offset = c.offset().is_smem_ptr()
                                     ? cute::ToString(c.offset())
                                     : absl::StrCat(c.offset().value().value);
      return absl::StrCat("ComposedLayout(", PyRepr(c.outer()), ",", offset,
                          ",", PyRepr(c.inner()), ")");
    }
  }
  return "";
}

// ---------------------------------------------------------------------------
// Python objects <-> AnyLayout

py::object Wrap(cute::Layout l) {
  return NewObject(PyLayout(std::move(l)), Types().layout);
}

py::object Wrap(cute::AnyLayout l) {
  switch (l.kind()) {
    case cute::AnyLayout::Kind::kLayout:
      return Wrap(l.layout());
    case cute::AnyLayout::Kind::kSwizzle:
      return NewObject(PySwizzle(l.swizzle()), Types().swizzle);
    case cute::AnyLayout::Kind::kComposed:
      return NewObject(PyComposed(std::move(l)), Types().composed);
  }
  return py::none();
}

bool IsLayoutLike(py::handle h) {
  return GetLayout(h) != nullptr || GetSwizzle(h) != nullptr ||
         GetComposed(h) != nullptr;
}

// A Layout, Swizzle, ComposedLayout (borrowed from the Python object, no
// copy) or CuTe text or a shape (parsed and owned).
class AnyRef {
 public:
  explicit AnyRef(py::handle h) {
    if (const PyLayout* l = GetLayout(h)) {
      ptr_ = &l->any;
    } else if (const PyComposed* c = GetComposed(h)) {
      ptr_ = &c->layout;
    } else if (const PySwizzle* s = GetSwizzle(h)) {
      ptr_ = &s->any;
    } else if (py::isinstance<py::str>(h)) {
      owned_ = Unwrap(cute::ParseAnyLayout(h.cast<std::string>()));
      ptr_ = &*owned_;
    } else if (PyTuple_Check(h.ptr()) || IsPyInt(h)) {
      owned_ = cute::AnyLayout(Unwrap(cute::Layout::Compact(FromPy(h))));
      ptr_ = &*owned_;
    } else {
      throw py::type_error(absl::StrCat(
          "cute: expected a Layout, Swizzle, ComposedLayout or CuTe text, "
          "got ",
          std::string(py::str(py::type::of(h).attr("__name__")))));
    }
  }
  AnyRef(const AnyRef&) = delete;
  AnyRef& operator=(const AnyRef&) = delete;

  const cute::AnyLayout& operator*() const { return *ptr_; }
  const cute::AnyLayout* operator->() const { return ptr_; }

 private:
  absl::optional<cute::AnyLayout> owned_;
  const cute::AnyLayout* ptr_ = nullptr;
};

cute::AnyLayout ToAny(py::handle h) { return *AnyRef(h); }

cute::Layout ToLayout(py::handle h) {
  if (const PyLayout* l = GetLayout(h)) return l->layout();
  cute::AnyLayout a = ToAny(h);
  if (!a.is_layout()) {
    throw py::value_error(
        absl::StrCat("cute: expected a plain layout, got ", PyText(a)));
  }
  return a.layout();
}

// The second operand of composition, divides and products: None (CuTe's
// `_`), an int n (n:1), a Layout, a tuple of those (by mode), or CuTe text.
cute::Tiler ToTiler(py::handle h, int depth = 0) {
  if (depth > 64) throw py::value_error("nesting deeper than 64");
  if (h.is_none()) return cute::Tiler::Underscore();
  if (const PyLayout* l = GetLayout(h)) return cute::Tiler::Of(l->layout());
  if (PyTuple_Check(h.ptr())) {
    std::vector<cute::Tiler> out;
    const Py_ssize_t n = PyTuple_GET_SIZE(h.ptr());
    for (Py_ssize_t i = 0; i < n; ++i) {
      out.push_back(ToTiler(PyTuple_GET_ITEM(h.ptr(), i), depth + 1));
    }
    return cute::Tiler::Tuple(std::move(out));
  }
  if (IsPyInt(h)) return Unwrap(cute::Tiler::FromShape(FromPy(h)));
  if (py::isinstance<py::str>(h)) {
    return Unwrap(cute::ParseTiler(h.cast<std::string>()));
  }
  throw py::type_error(absl::StrCat(
      "cute: expected a Layout, an int, None or a tuple of those, got ",
      std::string(py::str(py::type::of(h).attr("__name__")))));
}

// A second operand that is a whole layout-like object (not a tiler).
bool IsAnyOperand(py::handle h) {
  if (IsLayoutLike(h)) return true;
  if (PyUnicode_Check(h.ptr())) {
    const std::string s = h.cast<std::string>();
    return s.find("Sw") != std::string::npos ||
           s.find(" o ") != std::string::npos;
  }
  return false;
}

// A pycute coordinate: ints, tuples and None (CuTe's `_`).
bool HasNone(py::handle h) {
  if (h.is_none()) return true;
  if (PyTuple_Check(h.ptr())) {
    for (py::handle e : py::reinterpret_borrow<py::tuple>(h)) {
      if (HasNone(e)) return true;
    }
  }
  return false;
}

cute::SliceCoord ToSliceCoord(py::handle h, int depth = 0) {
  if (depth > 64) throw py::value_error("nesting deeper than 64");
  if (h.is_none()) return cute::SliceCoord();
  if (PyTuple_Check(h.ptr())) {
    std::vector<cute::SliceCoord> out;
    for (py::handle e : py::reinterpret_borrow<py::tuple>(h)) {
      out.push_back(ToSliceCoord(e, depth + 1));
    }
    return cute::SliceCoord::Tuple(std::move(out));
  }
  return cute::SliceCoord::Of(cute::Int::Static(FromPy(h).value()));
}

// ---------------------------------------------------------------------------
// Evaluation, scalar and vectorized

py::object Evaluate(const cute::AnyLayout& l, py::handle coord) {
  if (l.is_layout() && PyLong_Check(coord.ptr())) {
    const int64_t i = PyToInt64(coord);
    const cute::Layout& layout = l.layout();
    if (i >= 0 && i < layout.size()) return py::int_(layout(i));
  }
  if (IsPyInt(coord) && PyLong_Check(coord.ptr())) {
    return py::int_(Unwrap(l.TryEvaluate(PyToInt64(coord))));
  }
  return py::int_(Unwrap(l.Evaluate(FromPy(coord))));
}

// L over an integer array of 1-D indices, elementwise, same shape.
using IndexArray =
    py::array_t<int64_t, py::array::c_style | py::array::forcecast>;

py::array_t<int64_t> EvaluateArray(const cute::AnyLayout& l, py::handle x) {
  IndexArray idx = IndexArray::ensure(x);
  if (!idx) throw py::type_error("cute: expected an integer array");
  const int64_t n = idx.size();
  std::vector<py::ssize_t> dims(idx.shape(), idx.shape() + idx.ndim());
  py::array_t<int64_t> out(dims);
  const int64_t* in = idx.data();
  int64_t* o = out.mutable_data();
  const int64_t size = l.size();
  // The fast paths: a plain layout, or a swizzle over offset + layout, on
  // indices inside the domain.
  const cute::Layout* plain = nullptr;
  const cute::Swizzle* sw = nullptr;
  int64_t offset = 0;
  if (l.is_layout()) {
    plain = &l.layout();
  } else if (l.is_composed() && l.composed().outer().is_swizzle() &&
             l.composed().inner().is_layout()) {
    plain = &l.composed().inner().layout();
    sw = &l.composed().outer().swizzle();
    offset = l.composed().offset().value().value;
  }
  absl::Status failed;
  {
    py::gil_scoped_release release;
    bool inside = true;
    for (int64_t i = 0; i < n && inside; ++i)
      inside = in[i] >= 0 && in[i] < size;
    if (plain != nullptr && inside) {
      ParallelFor(n, DefaultThreads(), int64_t{1} << 16,
                  [&](int64_t begin, int64_t end) {
                    if (sw == nullptr) {
                      for (int64_t i = begin; i < end; ++i)
                        o[i] = (*plain)(in[i]);
                    } else {
                      for (int64_t i = begin; i < end; ++i) {
                        o[i] = (*sw)(offset + (*plain)(in[i]));
                      }
                    }
                  });
    } else {
      for (int64_t i = 0; i < n; ++i) {
        absl::StatusOr<int64_t> v = l.TryEvaluate(in[i]);
        if (!v.ok()) {
          failed = v.status();
          break;
        }
        o[i] = *v;
      }
    }
  }
  if (!failed.ok()) ThrowStatus(failed);
  return out;
}

bool IsIntArray(py::handle h) {
  if (!py::isinstance<py::array>(h)) return false;
  const char kind = py::reinterpret_borrow<py::array>(h).dtype().kind();
  return kind == 'i' || kind == 'u';
}

// pycute's L(*args): a coordinate, a slice (None for `_`), or an array.
py::object Call(const cute::AnyLayout& l, py::args args) {
  if (args.size() == 1 && IsIntArray(args[0])) {
    return EvaluateArray(l, args[0]);
  }
  py::object coord = args.size() == 1
                         ? py::reinterpret_borrow<py::object>(args[0])
                         : py::reinterpret_borrow<py::object>(args);
  if (HasNone(coord)) {
    return Wrap(Unwrap(cute::SliceOf(ToSliceCoord(coord), l)));
  }
  return Evaluate(l, coord);
}

// ---------------------------------------------------------------------------
// The algebra

py::object Composition(py::handle a, py::handle b) {
  AnyRef la(a);
  if (IsAnyOperand(b)) return Wrap(Unwrap(cute::Compose(*la, *AnyRef(b))));
  return Wrap(Unwrap(cute::Compose(*la, ToTiler(b))));
}

py::object Complement(py::handle l, py::handle cotarget) {
  absl::optional<cute::IntTuple> cot;
  if (!cotarget.is_none()) cot = ToTuple(cotarget);
  AnyRef a(l);
  if (a->is_layout()) {
    return Wrap(Unwrap(cot ? cute::Complement(a->layout(), *cot)
                           : cute::Complement(a->layout())));
  }
  return Wrap(Unwrap(cute::ComplementOf(*a, cot)));
}

py::object MaybeInverse(py::handle l, bool right) {
  if (l.is_none()) return py::none();
  AnyRef a(l);
  if (a->is_layout() && right) return Wrap(cute::RightInverse(a->layout()));
  return Wrap(
      Unwrap(right ? cute::RightInverseOf(*a) : cute::LeftInverseOf(*a)));
}

py::object DivideOp(cute::DivideKind kind, py::handle a, py::handle b) {
  AnyRef la(a);
  if (la->is_layout() && GetLayout(b) != nullptr) {
    // A layout tiler without copying it into a Tiler.
    const cute::Layout& t = GetLayout(b)->layout();
    if (kind == cute::DivideKind::kLogical ||
        kind == cute::DivideKind::kZipped) {
      return Wrap(
          Unwrap(cute::LogicalDivide(la->layout(), cute::Tiler::Of(t))));
    }
  }
  return Wrap(Unwrap(cute::Divide(kind, *la, ToTiler(b))));
}

py::object ProductOp(cute::ProductKind kind, py::handle a, py::handle b) {
  AnyRef la(a);
  if (IsAnyOperand(b) && GetLayout(b) == nullptr) {
    return Wrap(Unwrap(cute::Product(kind, *la, *AnyRef(b))));
  }
  return Wrap(Unwrap(cute::Product(kind, *la, ToTiler(b))));
}

py::object MakeLayout(py::args layouts) {
  py::sequence items = layouts;
  if (layouts.size() == 1 && !IsLayoutLike(layouts[0])) {
    items = py::reinterpret_borrow<py::sequence>(
        py::tuple(py::iterable(layouts[0])));
  }
  std::vector<cute::Layout> modes;
  for (py::handle h : items) modes.push_back(ToLayout(h));
  return Wrap(Unwrap(cute::MakeLayout(modes)));
}

absl::optional<cute::IntTuple> OptionalTuple(py::object o) {
  if (o.is_none()) return absl::nullopt;
  return ToTuple(o);
}

int64_t Bits(py::handle h) {
  if (py::isinstance<py::str>(h)) {
    return Unwrap(cute::SizeofBits(h.cast<std::string>()));
  }
  return FromPy(h).value();
}

// ---------------------------------------------------------------------------
// Classes

const py::object& ShapeOf(PyLayout& l) {
  if (!l.shape_cache) l.shape_cache = ToPy(l.layout().shape());
  return l.shape_cache;
}

const py::object& StrideOf(PyLayout& l) {
  if (!l.stride_cache) l.stride_cache = ToPy(l.layout().stride());
  return l.stride_cache;
}

cute::Layout NewLayout(py::object shape, py::object stride) {
  if (py::isinstance<PyLayout>(shape) && stride.is_none()) {
    return shape.cast<const PyLayout&>().layout();
  }
  if (py::isinstance<py::str>(shape)) {
    if (!stride.is_none()) {
      throw py::type_error("cute.Layout(text) takes no stride");
    }
    return Unwrap(cute::ParseLayout(shape.cast<std::string>()));
  }
  cute::IntTuple s = FromPy(shape);
  if (stride.is_none()) return Unwrap(cute::Layout::Compact(std::move(s)));
  return Unwrap(cute::Layout::Create(std::move(s), FromPy(stride)));
}

int ModeIndex(int i, int rank) {
  if (i < 0) i += rank;
  if (i < 0 || i >= rank) throw py::index_error("layout mode out of range");
  return i;
}

}  // namespace

void RegisterCute(py::module_& m) {
  // The text-level ops of `hlolayout cute` (OPS in hlolayout.cute).
  m.def("cute_op",
        [](const std::string& op, const std::vector<std::string>& args) {
          std::vector<absl::string_view> views(args.begin(), args.end());
          absl::StatusOr<std::string> r;
          {
            py::gil_scoped_release release;
            r = cute::RunCuteOp(op, views);
          }
          return Unwrap(std::move(r));
        });
  m.def("cute_op_names", [] {
    std::vector<std::string> names;
    for (const cute::CuteOpInfo& op : cute::CuteOps())
      names.emplace_back(op.name);
    return names;
  });

  py::class_<PyLayoutBase>(m, "CuteLayoutBase",
                           "The base of Layout and ComposedLayout (pycute's "
                           "LayoutBase).");

  py::class_<PyLayout, PyLayoutBase>(m, "CuteLayout")
      .def(py::init([](py::object shape, py::object stride) {
             return PyLayout(NewLayout(std::move(shape), std::move(stride)));
           }),
           py::arg("shape"), py::arg("stride") = py::none())
      .def_property_readonly("shape", &ShapeOf)
      .def_property_readonly("stride", &StrideOf)
      .def_property_readonly(
          "cute", [](const PyLayout& l) { return cute::ToString(l.layout()); },
          "CuTe's print of the layout, static integers as _N.")
      .def_property_readonly(
          "rank", [](const PyLayout& l) { return l.layout().rank(); })
      .def_property_readonly(
          "depth", [](const PyLayout& l) { return l.layout().depth(); })
      .def("size", [](const PyLayout& l) { return l.layout().size(); })
      .def("cosize", [](const PyLayout& l) { return l.layout().cosize(); })
      .def("__len__", [](const PyLayout& l) { return l.layout().rank(); })
      .def("__call__",
           [](const PyLayout& l, py::args args) {
             return Call(l.any, std::move(args));
           })
      .def("__getitem__",
           [](const PyLayout& l, int i) {
             return Wrap(l.layout().mode(ModeIndex(i, l.layout().rank())));
           })
      .def("__eq__",
           [](const PyLayout& a, py::object b) {
             return py::isinstance<PyLayout>(b) &&
                    a.layout() == b.cast<const PyLayout&>().layout();
           })
      .def("__ne__",
           [](const PyLayout& a, py::object b) {
             return !(py::isinstance<PyLayout>(b) &&
                      a.layout() == b.cast<const PyLayout&>().layout());
           })
      .def("__hash__",
           [](const PyLayout& l) {
             return py::hash(py::str(cute::ToString(cute::Layout::Make(
                 cute::WithTags(l.layout().shape(), true),
                 cute::WithTags(l.layout().stride(), true)))));
           })
      .def("__str__", [](const PyLayout& l) { return PyText(l.layout()); })
      .def("__repr__", [](const PyLayout& l) { return PyRepr(l.any); })
      .def("idx2crd",
           [](const PyLayout& l, py::object index) {
             return ToPy(
                 Unwrap(cute::IdxToCrd(FromPy(index), l.layout().shape())));
           })
      .def("table", [](const PyLayout& l) {
        return Unwrap(cute::PrintTable(l.layout()));
      });

  py::class_<PySwizzle>(m, "CuteSwizzle")
      .def(py::init([](int bits, int base, int shift) {
             return PySwizzle(Unwrap(cute::Swizzle::Create(bits, base, shift)));
           }),
           py::arg("bits"), py::arg("base"), py::arg("shift"))
      .def_property_readonly("bits",
                             [](const PySwizzle& s) { return s.sw().bits(); })
      .def_property_readonly("base",
                             [](const PySwizzle& s) { return s.sw().base(); })
      .def_property_readonly("shift",
                             [](const PySwizzle& s) { return s.sw().shift(); })
      .def_property_readonly(
          "yyy_msk", [](const PySwizzle& s) { return s.sw().yyy_mask(); })
      .def_property_readonly(
          "zzz_msk", [](const PySwizzle& s) { return s.sw().zzz_mask(); })
      .def_property_readonly(
          "cute", [](const PySwizzle& s) { return cute::ToString(s.sw()); })
      .def("size", [](const PySwizzle& s) { return s.sw().domain_size(); })
      .def("cosize", [](const PySwizzle& s) { return s.sw().domain_size(); })
      .def("__call__",
           [](const PySwizzle& s, py::object x) -> py::object {
             if (IsIntArray(x)) {
               return EvaluateArray(s.any, x);
             }
             return py::int_(s.sw()(FromPy(x).value()));
           })
      .def("__eq__",
           [](const PySwizzle& a, py::object b) {
             return py::isinstance<PySwizzle>(b) &&
                    a.sw() == b.cast<const PySwizzle&>().sw();
           })
      .def("__hash__",
           [](const PySwizzle& s) {
             return py::hash(
                 py::make_tuple(s.sw().bits(), s.sw().base(), s.sw().shift()));
           })
      .def("__str__", [](const PySwizzle& s) { return PyText(s.sw()); })
      .def("__repr__", [](const PySwizzle& s) { return PyRepr(s.any); });

  py::class_<PyComposed, PyLayoutBase>(m, "CuteComposedLayout")
      .def(py::init([](py::object outer, py::object offset, py::object inner) {
             cute::ComposedOffset o;
             if (py::isinstance<py::str>(offset)) {
               cute::AnyLayout parsed =
                   Unwrap(cute::ParseAnyLayout(absl::StrCat(
                       "Sw<0,0,0> o ", offset.cast<std::string>(), " o 1")));
               o = parsed.composed().offset();
             } else {
               o = cute::ComposedOffset::Of(
                   cute::Int::Static(FromPy(offset).value()));
             }
             return PyComposed(cute::AnyLayout(Unwrap(
                 cute::ComposedLayout::Create(ToAny(outer), o, ToAny(inner)))));
           }),
           py::arg("layoutB"), py::arg("offset"), py::arg("layoutA"))
      .def_property_readonly(
          "layoutB",
          [](const PyComposed& c) { return Wrap(c.layout.composed().outer()); },
          "The outer function (pycute's name; CuTe's layout_a).")
      .def_property_readonly("offset",
                             [](const PyComposed& c) -> py::object {
                               const cute::ComposedOffset& o =
                                   c.layout.composed().offset();
                               if (o.is_smem_ptr())
                                 return py::str(cute::ToString(o));
                               return py::int_(o.value().value);
                             })
      .def_property_readonly(
          "layoutA",
          [](const PyComposed& c) { return Wrap(c.layout.composed().inner()); },
          "The inner layout (pycute's name; CuTe's layout_b).")
      .def_property_readonly(
          "shape", [](const PyComposed& c) { return ToPy(c.layout.shape()); })
      .def_property_readonly(
          "cute", [](const PyComposed& c) { return cute::ToString(c.layout); })
      .def("size", [](const PyComposed& c) { return c.layout.size(); })
      .def("cosize", [](const PyComposed& c) { return c.layout.cosize(); })
      .def("__len__", [](const PyComposed& c) { return c.layout.rank(); })
      .def("__call__",
           [](const PyComposed& c, py::args args) {
             return Call(c.layout, std::move(args));
           })
      .def("__getitem__",
           [](const PyComposed& c, int i) {
             return Wrap(Unwrap(
                 cute::GetMode(c.layout, ModeIndex(i, c.layout.rank()))));
           })
      .def("__eq__",
           [](const PyComposed& a, py::object b) {
             return py::isinstance<PyComposed>(b) &&
                    a.layout == b.cast<const PyComposed&>().layout;
           })
      .def("__hash__",
           [](const PyComposed& c) {
             return py::hash(py::str(cute::ToString(c.layout)));
           })
      .def("__str__", [](const PyComposed& c) { return PyText(c.layout); })
      .def("__repr__", [](const PyComposed& c) { return PyRepr(c.layout); })
      .def("table", [](const PyComposed& c) {
        return Unwrap(cute::PrintTable(c.layout));
      });

  // pycute's functions (hlolayout.cute binds them directly: no Python
  // frame between the caller and the C++).
  m.def("cute_make_layout", &MakeLayout,
        "make_layout(*layouts): the concatenation, each layout one mode (also "
        "from one iterable of layouts).");
  m.def(
      "cute_size",
      [](py::handle l) -> int64_t {
        if (IsLayoutLike(l) || py::isinstance<py::str>(l))
          return AnyRef(l)->size();
        return Unwrap(cute::Size(FromPy(l)));
      },
      py::arg("layout"),
      "The size of a layout's domain, or the product of an IntTuple.");
  m.def(
      "cute_cosize", [](py::handle l) { return AnyRef(l)->cosize(); },
      py::arg("layout"),
      "1 + the largest offset span, with absolute strides (CuTe's; pycute's "
      "layout(size-1)+1 is wrong for negative strides); a composed layout's "
      "is its inner layout's.");
  m.def(
      "cute_coalesce",
      [](py::handle l, py::handle profile) {
        AnyRef a(l);
        if (a->is_layout() && profile.is_none())
          return Wrap(cute::Coalesce(a->layout()));
        return Wrap(Unwrap(cute::CoalesceOf(
            *a, OptionalTuple(py::reinterpret_borrow<py::object>(profile)))));
      },
      py::arg("layout"), py::arg("profile") = py::none(),
      "The same function with the fewest modes (by mode along a profile).");
  m.def(
      "cute_filter",
      [](py::handle l, py::handle profile) {
        return Wrap(Unwrap(cute::FilterOf(
            *AnyRef(l),
            OptionalTuple(py::reinterpret_borrow<py::object>(profile)))));
      },
      py::arg("layout"), py::arg("profile") = py::none(),
      "coalesce after dropping stride-0 and size-1 modes.");
  m.def("cute_composition", &Composition, py::arg("layoutA"),
        py::arg("layoutB"),
        "R(c) = layoutA(layoutB(c)). layoutB: a Layout, an int n (n:1), None "
        "(layoutA unchanged), a tuple of those (by mode; modes of layoutA past "
        "it are dropped, as in CuTe), a Swizzle or a ComposedLayout.");
  m.def(
      "cute_complement", &Complement, py::arg("layout"),
      py::arg("max_idx") = py::none(),
      "The layout of the rest of the codomain up to max_idx (an int or a "
      "shape; by default the cosize of the filtered layout, CuTe's default).");
  m.def(
      "cute_right_inverse", [](py::handle l) { return MaybeInverse(l, true); },
      py::arg("layout"), "R with layout(R(i)) == i on R's domain (CuTe's).");
  m.def(
      "cute_left_inverse", [](py::handle l) { return MaybeInverse(l, false); },
      py::arg("layout"), "R with layout(R(layout(i))) == layout(i) (CuTe's).");
  struct DivideDef {
    const char* name;
    cute::DivideKind kind;
    const char* doc;
  };
  for (const DivideDef& d :
       {DivideDef{"cute_logical_divide", cute::DivideKind::kLogical,
                  "((tile, rest), ...): layoutA split by the tiler layoutB."},
        DivideDef{"cute_zipped_divide", cute::DivideKind::kZipped,
                  "((tiles...), (rests...))."},
        DivideDef{"cute_tiled_divide", cute::DivideKind::kTiled,
                  "((tiles...), rest0, rest1, ...)."},
        DivideDef{"cute_flat_divide", cute::DivideKind::kFlat,
                  "(tiles..., rests...)."}}) {
    const cute::DivideKind kind = d.kind;
    m.def(
        d.name,
        [kind](py::handle a, py::handle b) { return DivideOp(kind, a, b); },
        py::arg("layoutA"), py::arg("layoutB"), d.doc);
  }
  struct ProductDef {
    const char* name;
    cute::ProductKind kind;
    const char* doc;
  };
  for (const ProductDef& d :
       {ProductDef{"cute_logical_product", cute::ProductKind::kLogical,
                   "(layoutA, its repetitions along layoutB); an int n means "
                   "n:1 (pycute divides there)."},
        ProductDef{"cute_zipped_product", cute::ProductKind::kZipped,
                   "((blocks...), (repetitions...))."},
        ProductDef{"cute_tiled_product", cute::ProductKind::kTiled,
                   "((blocks...), repetition0, repetition1, ...)."},
        ProductDef{"cute_flat_product", cute::ProductKind::kFlat,
                   "(blocks..., repetitions...)."}}) {
    const cute::ProductKind kind = d.kind;
    m.def(
        d.name,
        [kind](py::handle a, py::handle b) { return ProductOp(kind, a, b); },
        py::arg("layoutA"), py::arg("layoutB"), d.doc);
  }
  m.def(
      "cute_blocked_product",
      [](py::handle a, py::handle b) {
        return Wrap(Unwrap(cute::BlockedProductOf(*AnyRef(a), *AnyRef(b))));
      },
      py::arg("layoutA"), py::arg("layoutB"),
      "((A0, B0), (A1, B1), ...): layoutA repeated as blocks.");
  m.def(
      "cute_raked_product",
      [](py::handle a, py::handle b) {
        return Wrap(Unwrap(cute::RakedProductOf(*AnyRef(a), *AnyRef(b))));
      },
      py::arg("layoutA"), py::arg("layoutB"),
      "((B0, A0), (B1, A1), ...): layoutA's elements interleaved.");
  m.def(
      "cute_tile_to_shape",
      [](py::handle a, py::handle shape, py::handle order) {
        return Wrap(Unwrap(cute::TileToShapeOf(
            *AnyRef(a), cute::WithTags(ToTuple(shape), true),
            OptionalTuple(py::reinterpret_borrow<py::object>(order)))));
      },
      py::arg("layout"), py::arg("shape"), py::arg("order") = py::none(),
      "layout repeated to shape, its modes filled in order (CuTe's Step; "
      "default column-major). The block must divide the shape.");
  m.def(
      "cute_slice_and_offset",
      [](py::handle crd, py::handle l) {
        cute::SlicedAnyLayout s =
            Unwrap(cute::SliceAndOffsetOf(ToSliceCoord(crd), *AnyRef(l)));
        return py::make_tuple(Wrap(std::move(s.layout)), s.offset.value);
      },
      py::arg("crd"), py::arg("layout"),
      "(the layout of crd's None modes, the offset of crd with None as 0); "
      "a swizzled layout's swizzle decays to strides where CuTe's does.");
  m.def(
      "cute_upcast",
      [](py::handle l, int64_t n) {
        return Wrap(Unwrap(cute::UpcastOf(*AnyRef(l), n)));
      },
      py::arg("layout"), py::arg("n"),
      "The layout in units of n elements (CuTe's upcast<n>).");
  m.def(
      "cute_downcast",
      [](py::handle l, int64_t n) {
        return Wrap(Unwrap(cute::DowncastOf(*AnyRef(l), n)));
      },
      py::arg("layout"), py::arg("n"),
      "The layout in units of 1/n element (CuTe's downcast<n>).");
  m.def(
      "cute_recast_layout",
      [](py::handle l, py::handle old_type, py::handle new_type) {
        return Wrap(Unwrap(
            cute::RecastLayoutOf(*AnyRef(l), Bits(old_type), Bits(new_type))));
      },
      py::arg("layout"), py::arg("old_type"), py::arg("new_type"),
      "The layout between element types or widths: recast_layout(L, "
      "'uint8_t', 'half_t') or (L, 8, 16).");
  m.def(
      "cute_parse",
      [](const std::string& text) {
        return Wrap(Unwrap(cute::ParseAnyLayout(text)));
      },
      py::arg("text"),
      "A Layout, Swizzle or ComposedLayout from CuTe's printed text.");
}

}  // namespace hlolayout::pyext
