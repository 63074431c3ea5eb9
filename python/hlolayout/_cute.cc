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
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "_binding.h"
#include "_cute_dsl.h"
#include "absl/container/inlined_vector.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "hlolayout/answers/cute_algebra.h"
#include "hlolayout/cute/atom/internal/tv_algebra.h"
#include "hlolayout/cute/atom/mma_atom.h"
#include "hlolayout/cute/atom/static_text.h"
#include "hlolayout/cute/atom/tile.h"
#include "hlolayout/cute/atom/tiled_mma.h"
#include "hlolayout/cute/coalesce.h"
#include "hlolayout/cute/complement.h"
#include "hlolayout/cute/composed_layout.h"
#include "hlolayout/cute/composed_ops.h"
#include "hlolayout/cute/composition.h"
#include "hlolayout/cute/divide.h"
#include "hlolayout/cute/inverse.h"
#include "hlolayout/cute/layout.h"
#include "hlolayout/cute/numeric_types.h"
#include "hlolayout/cute/parse.h"
#include "hlolayout/cute/print.h"
#include "hlolayout/cute/product.h"
#include "hlolayout/cute/slice.h"
#include "hlolayout/cute/smem_atoms.h"
#include "hlolayout/draw/cell_grid.h"
#include "hlolayout/views/cute_picture.h"

namespace py = pybind11;

namespace hlolayout::pyext {

namespace {

// ---------------------------------------------------------------------------
// The Python classes are plain CPython types holding the C++ value inline
// (not pybind11 classes): making and freeing one is an allocation and a
// constructor, without pybind11's instance registry, so that an operation
// costs little more than its C++ work. The functions are METH_FASTCALL.

struct CuteObject {
  PyObject_HEAD cute::AnyLayout any;
  // A Layout's shape and stride as Python tuples, made on first use.
  PyObject* shape_cache;
  PyObject* stride_cache;

  const cute::Layout& layout() const { return any.layout(); }
  const cute::Swizzle& sw() const { return any.swizzle(); }
};

struct TypeObjects {
  PyTypeObject* base = nullptr;
  PyTypeObject* layout = nullptr;
  PyTypeObject* swizzle = nullptr;
  PyTypeObject* composed = nullptr;
};

TypeObjects& Types() {
  static TypeObjects* types = new TypeObjects();
  return *types;
}

const CuteObject* Get(py::handle h, PyTypeObject* type) {
  if (Py_TYPE(h.ptr()) == type || PyObject_TypeCheck(h.ptr(), type)) {
    return reinterpret_cast<const CuteObject*>(h.ptr());
  }
  return nullptr;
}

const CuteObject* GetLayout(py::handle h) { return Get(h, Types().layout); }
const CuteObject* GetSwizzle(py::handle h) { return Get(h, Types().swizzle); }
const CuteObject* GetComposed(py::handle h) { return Get(h, Types().composed); }

// A new object of `type` (one of ours or a Python subclass) owning `value`.
py::object NewObject(PyTypeObject* type, cute::AnyLayout value) {
  PyObject* o = type->tp_alloc(type, 0);
  if (o == nullptr) throw py::error_already_set();
  auto* c = reinterpret_cast<CuteObject*>(o);
  new (&c->any) cute::AnyLayout(std::move(value));
  c->shape_cache = nullptr;
  c->stride_cache = nullptr;
  return py::reinterpret_steal<py::object>(o);
}

void CuteDealloc(PyObject* o) {
  PyTypeObject* type = Py_TYPE(o);
  auto* c = reinterpret_cast<CuteObject*>(o);
  c->any.~AnyLayout();
  Py_CLEAR(c->shape_cache);
  Py_CLEAR(c->stride_cache);
  type->tp_free(o);
  Py_DECREF(type);  // Heap types: each instance holds a reference.
}

// Runs `f` (returning a py::object) and turns C++ exceptions into the
// Python error, as pybind11's dispatcher would.
template <typename F>
PyObject* Guard(F&& f) {
  try {
    return f().release().ptr();
  } catch (py::error_already_set& e) {
    e.restore();
  } catch (py::builtin_exception& e) {
    e.set_error();
  } catch (std::bad_alloc&) {
    PyErr_NoMemory();
  } catch (std::exception& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  }
  return nullptr;
}

// Binds fastcall arguments to `names` (positional, then keywords): `out`
// gets borrowed references, None for an omitted optional one. Throws
// TypeError as Python does.
template <size_t N>
void BindArgs(const char* fn, PyObject* const* args, Py_ssize_t nargs,
              PyObject* kwnames, const char* const (&names)[N], size_t required,
              PyObject* (&out)[N]) {
  if (nargs > static_cast<Py_ssize_t>(N)) {
    throw py::type_error(absl::StrCat(fn, "() takes at most ", N,
                                      " arguments (", nargs, " given)"));
  }
  for (size_t i = 0; i < N; ++i) {
    out[i] = i < static_cast<size_t>(nargs) ? args[i] : nullptr;
  }
  if (kwnames != nullptr) {
    const Py_ssize_t nk = PyTuple_GET_SIZE(kwnames);
    for (Py_ssize_t k = 0; k < nk; ++k) {
      PyObject* key = PyTuple_GET_ITEM(kwnames, k);
      size_t i = 0;
      while (i < N && PyUnicode_CompareWithASCIIString(key, names[i]) != 0) ++i;
      if (i == N) {
        throw py::type_error(absl::StrCat(
            fn, "() got an unexpected keyword argument '",
            py::reinterpret_borrow<py::str>(key).cast<std::string>(), "'"));
      }
      if (out[i] != nullptr) {
        throw py::type_error(absl::StrCat(
            fn, "() got multiple values for argument '", names[i], "'"));
      }
      out[i] = args[nargs + k];
    }
  }
  for (size_t i = 0; i < N; ++i) {
    if (out[i] != nullptr) continue;
    if (i < required) {
      throw py::type_error(
          absl::StrCat(fn, "() missing required argument '", names[i], "'"));
    }
    out[i] = Py_None;
  }
}

// ---------------------------------------------------------------------------
// Python values <-> CuTe integers

py::object ToPy(const cute::IntTuple& t) {
  if (t.is_int()) {
    const cute::Int v = t.integer();
    return v.unknown ? DslIntToPy(v) : py::int_(v.value);
  }
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
  cute::Int dsl;
  if (DslIntFromPy(h, &dsl)) return cute::IntTuple(dsl);   // the DSL's `?`
  if (PyIndex_Check(h.ptr()) && !PyBool_Check(h.ptr())) {  // numpy ints
    // An array of several elements has __index__ too, which raises: then
    // the TypeError below.
    py::int_ v = py::reinterpret_steal<py::int_>(PyNumber_Index(h.ptr()));
    if (v) return cute::IntTuple::Static(PyToInt64(v));
    PyErr_Clear();
  }
  throw py::type_error(
      absl::StrCat("cute: expected an int or a tuple of ints, got ",
                   std::string(py::str(py::type::of(h).attr("__name__")))));
}

// One int (a Python int or NumPy integer): TypeError for a tuple, where
// FromPy's IntTuple would hold one (IntTuple::value() of a tuple is a
// programming error, not the user's).
int64_t IntFromPy(py::handle h, const char* what) {
  if (PyTuple_Check(h.ptr())) {
    throw py::type_error(
        absl::StrCat("cute: ", what, " must be an int, got a tuple"));
  }
  return FromPy(h).value();
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
  return NewObject(Types().layout, cute::AnyLayout(std::move(l)));
}

py::object Wrap(cute::AnyLayout l) {
  switch (l.kind()) {
    case cute::AnyLayout::Kind::kLayout:
      return NewObject(Types().layout, std::move(l));
    case cute::AnyLayout::Kind::kSwizzle:
      return NewObject(Types().swizzle, std::move(l));
    case cute::AnyLayout::Kind::kComposed:
      return NewObject(Types().composed, std::move(l));
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
    if (const CuteObject* l = GetLayout(h)) {
      ptr_ = &l->any;
    } else if (const CuteObject* c = GetComposed(h)) {
      ptr_ = &c->any;
    } else if (const CuteObject* s = GetSwizzle(h)) {
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
  if (const CuteObject* l = GetLayout(h)) return l->layout();
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
  if (const CuteObject* l = GetLayout(h)) return cute::Tiler::Of(l->layout());
  if (PyTuple_Check(h.ptr())) {
    std::vector<cute::Tiler> out;
    const Py_ssize_t n = PyTuple_GET_SIZE(h.ptr());
    out.reserve(n);
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
  return cute::SliceCoord::Of(
      cute::Int::Static(IntFromPy(h, "a coordinate leaf")));
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
  // The fast paths: a plain layout, or a swizzle over offset + layout,
  // on indices inside the domain. The layout is coalesced first: the same
  // function there, with fewer divisions.
  absl::optional<cute::Layout> plain;
  const cute::Swizzle* sw = nullptr;
  int64_t offset = 0;
  if (l.is_layout()) {
    plain = cute::Coalesce(l.layout());
  } else if (l.is_composed() && l.composed().outer().is_swizzle() &&
             l.composed().inner().is_layout()) {
    plain = cute::Coalesce(l.composed().inner().layout());
    sw = &l.composed().outer().swizzle();
    offset = l.composed().offset().value().value;
  }
  absl::Status failed;
  {
    py::gil_scoped_release release;
    bool inside = true;
    for (int64_t i = 0; i < n && inside; ++i)
      inside = in[i] >= 0 && in[i] < size;
    if (plain.has_value() && inside) {
      ParallelFor(n, DefaultThreads(), int64_t{1} << 16,
                  [&](int64_t begin, int64_t end) {
                    plain->EvaluateMany(in + begin, o + begin, end - begin);
                    if (sw != nullptr) {
                      for (int64_t i = begin; i < end; ++i) {
                        o[i] = (*sw)(offset + o[i]);
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
  if (la->is_layout() && PyTuple_Check(b.ptr())) {
    // By mode with layouts and None: no Tiler built.
    const cute::Layout& l = la->layout();
    const Py_ssize_t n = PyTuple_GET_SIZE(b.ptr());
    bool simple = n <= l.rank() && l.shape().is_tuple();
    for (Py_ssize_t i = 0; i < n && simple; ++i) {
      py::handle e = PyTuple_GET_ITEM(b.ptr(), i);
      simple = e.is_none() || GetLayout(e) != nullptr;
    }
    if (simple) {
      absl::InlinedVector<cute::Layout, 4> modes;
      for (Py_ssize_t i = 0; i < n; ++i) {
        py::handle e = PyTuple_GET_ITEM(b.ptr(), i);
        if (e.is_none()) {
          modes.push_back(l.mode(static_cast<int>(i)));
        } else {
          modes.push_back(Unwrap(cute::Composition(l.mode(static_cast<int>(i)),
                                                   GetLayout(e)->layout())));
        }
      }
      return Wrap(Unwrap(cute::MakeLayout(modes)));
    }
  }
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
  return IntFromPy(h, "a type's width in bits");
}

// ---------------------------------------------------------------------------
// Classes

CuteObject* Self(PyObject* o) { return reinterpret_cast<CuteObject*>(o); }

PyObject* ShapeOf(PyObject* self, void*) {
  return Guard([&] {
    CuteObject* c = Self(self);
    if (c->shape_cache == nullptr) {
      c->shape_cache = ToPy(c->any.shape()).release().ptr();
    }
    return py::reinterpret_borrow<py::object>(c->shape_cache);
  });
}

PyObject* StrideOf(PyObject* self, void*) {
  return Guard([&] {
    CuteObject* c = Self(self);
    if (c->stride_cache == nullptr) {
      c->stride_cache = ToPy(c->layout().stride()).release().ptr();
    }
    return py::reinterpret_borrow<py::object>(c->stride_cache);
  });
}

cute::Layout NewLayout(py::handle shape, py::handle stride) {
  if (const CuteObject* l = GetLayout(shape)) {
    if (stride.is_none()) return l->layout();
  }
  if (PyUnicode_Check(shape.ptr())) {
    if (!stride.is_none()) {
      throw py::type_error("cute.Layout(text) takes no stride");
    }
    return Unwrap(cute::ParseLayout(shape.cast<std::string>()));
  }
  cute::IntTuple s = FromPy(shape);
  if (stride.is_none()) return Unwrap(cute::Layout::Compact(std::move(s)));
  return Unwrap(cute::Layout::Create(std::move(s), FromPy(stride)));
}

int ModeIndex(py::handle key, int rank) {
  PyObject* index = PyNumber_Index(key.ptr());
  if (index == nullptr) throw py::error_already_set();
  int64_t i = PyToInt64(py::reinterpret_steal<py::object>(index));
  if (i < 0) i += rank;
  if (i < 0 || i >= rank) throw py::index_error("layout mode out of range");
  return static_cast<int>(i);
}

// Calls with a tuple of positional arguments and keywords (tp_new), bound as
// BindArgs does.
template <size_t N>
void BindTuple(const char* fn, PyObject* args, PyObject* kwargs,
               const char* const (&names)[N], size_t required,
               PyObject* (&out)[N]) {
  const Py_ssize_t nargs = PyTuple_GET_SIZE(args);
  std::vector<PyObject*> all(&PyTuple_GET_ITEM(args, 0),
                             &PyTuple_GET_ITEM(args, 0) + nargs);
  py::object kwnames;
  if (kwargs != nullptr && PyDict_GET_SIZE(kwargs) > 0) {
    py::list keys;
    PyObject *key, *value;
    Py_ssize_t pos = 0;
    while (PyDict_Next(kwargs, &pos, &key, &value)) {
      keys.append(key);
      all.push_back(value);
    }
    kwnames = py::tuple(keys);
  }
  BindArgs(fn, all.data(), nargs, kwnames ? kwnames.ptr() : nullptr, names,
           required, out);
}

PyObject* LayoutNew(PyTypeObject* type, PyObject* args, PyObject* kwargs) {
  return Guard([&] {
    static const char* const kNames[] = {"shape", "stride"};
    PyObject* a[2];
    BindTuple("Layout", args, kwargs, kNames, 1, a);
    return NewObject(type, cute::AnyLayout(NewLayout(a[0], a[1])));
  });
}

PyObject* SwizzleNew(PyTypeObject* type, PyObject* args, PyObject* kwargs) {
  return Guard([&] {
    static const char* const kNames[] = {"bits", "base", "shift"};
    PyObject* a[3];
    BindTuple("Swizzle", args, kwargs, kNames, 3, a);
    auto small = [](PyObject* o) {
      const int64_t v = IntFromPy(o, "a swizzle parameter");
      if (v < INT32_MIN || v > INT32_MAX) {
        throw py::value_error("cute.Swizzle: argument out of range");
      }
      return static_cast<int>(v);
    };
    return NewObject(type, cute::AnyLayout(Unwrap(cute::Swizzle::Create(
                               small(a[0]), small(a[1]), small(a[2])))));
  });
}

PyObject* ComposedNew(PyTypeObject* type, PyObject* args, PyObject* kwargs) {
  return Guard([&] {
    static const char* const kNames[] = {"layoutB", "offset", "layoutA"};
    PyObject* a[3];
    BindTuple("ComposedLayout", args, kwargs, kNames, 3, a);
    py::handle offset = a[1];
    cute::ComposedOffset o;
    if (PyUnicode_Check(offset.ptr())) {
      cute::AnyLayout parsed = Unwrap(cute::ParseAnyLayout(
          absl::StrCat("Sw<0,0,0> o ", offset.cast<std::string>(), " o 1")));
      o = parsed.composed().offset();
    } else {
      o = cute::ComposedOffset::Of(
          cute::Int::Static(IntFromPy(offset, "the offset")));
    }
    return NewObject(type, cute::AnyLayout(Unwrap(cute::ComposedLayout::Create(
                               ToAny(a[0]), o, ToAny(a[2])))));
  });
}

PyObject* CuteCall(PyObject* self, PyObject* args, PyObject* kwargs) {
  return Guard([&] {
    if (kwargs != nullptr && PyDict_GET_SIZE(kwargs) > 0) {
      throw py::type_error("a layout takes no keyword arguments");
    }
    const cute::AnyLayout& l = Self(self)->any;
    if (l.is_swizzle()) {
      if (PyTuple_GET_SIZE(args) != 1) {
        throw py::type_error("a Swizzle takes one argument");
      }
      py::handle x = PyTuple_GET_ITEM(args, 0);
      if (IsIntArray(x)) return py::object(EvaluateArray(l, x));
      return py::object(py::int_(l.swizzle()(IntFromPy(x, "the offset"))));
    }
    return Call(l, py::reinterpret_borrow<py::args>(args));
  });
}

Py_ssize_t CuteLength(PyObject* self) {
  return Self(self)->any.is_swizzle() ? 1 : Self(self)->any.rank();
}

PyObject* CuteItem(PyObject* self, PyObject* key) {
  return Guard([&]() -> py::object {
    const cute::AnyLayout& l = Self(self)->any;
    if (PySlice_Check(key)) {
      // pycute: Layout(shape[i], stride[i]) for a slice of the modes.
      if (!l.is_layout() || !l.layout().shape().is_tuple()) {
        throw py::type_error("only a tuple layout's modes slice");
      }
      py::object shape =
          py::reinterpret_steal<py::object>(ShapeOf(self, nullptr));
      py::object stride =
          py::reinterpret_steal<py::object>(StrideOf(self, nullptr));
      if (!shape || !stride) throw py::error_already_set();
      return Wrap(NewLayout(shape[py::handle(key)], stride[py::handle(key)]));
    }
    const int i = ModeIndex(key, l.rank());
    if (l.is_layout()) return Wrap(l.layout().mode(i));
    return Wrap(Unwrap(cute::GetMode(l, i)));
  });
}

PyObject* CuteSeqItem(PyObject* self, Py_ssize_t i) {
  py::object key = py::int_(i);
  return CuteItem(self, key.ptr());
}

PyObject* CuteRichCompare(PyObject* self, PyObject* other, int op) {
  if (op != Py_EQ && op != Py_NE) Py_RETURN_NOTIMPLEMENTED;
  const cute::AnyLayout& a = Self(self)->any;
  const CuteObject* b = nullptr;
  switch (a.kind()) {
    case cute::AnyLayout::Kind::kLayout:
      b = GetLayout(other);
      break;
    case cute::AnyLayout::Kind::kSwizzle:
      b = GetSwizzle(other);
      break;
    case cute::AnyLayout::Kind::kComposed:
      b = GetComposed(other);
      break;
  }
  bool equal = false;
  if (b != nullptr) {
    switch (a.kind()) {
      case cute::AnyLayout::Kind::kLayout:
        equal = a.layout() == b->layout();
        break;
      case cute::AnyLayout::Kind::kSwizzle:
        equal = a.swizzle() == b->sw();
        break;
      case cute::AnyLayout::Kind::kComposed:
        equal = a == b->any;
        break;
    }
  }
  if ((op == Py_EQ) == equal) Py_RETURN_TRUE;
  Py_RETURN_FALSE;
}

Py_hash_t CuteHash(PyObject* self) {
  const cute::AnyLayout& l = Self(self)->any;
  std::string key;
  switch (l.kind()) {
    case cute::AnyLayout::Kind::kLayout:
      // Equality ignores the tags: so does the hash.
      key = cute::ToString(
          cute::Layout::Make(cute::WithTags(l.layout().shape(), true),
                             cute::WithTags(l.layout().stride(), true)));
      break;
    case cute::AnyLayout::Kind::kSwizzle:
      key = cute::ToString(l.swizzle());
      break;
    case cute::AnyLayout::Kind::kComposed:
      key = cute::ToString(l);
      break;
  }
  py::str s(key);
  return PyObject_Hash(s.ptr());
}

PyObject* CuteStr(PyObject* self) {
  return Guard([&] { return py::object(py::str(PyText(Self(self)->any))); });
}

PyObject* CuteRepr(PyObject* self) {
  return Guard([&] { return py::object(py::str(PyRepr(Self(self)->any))); });
}

PyObject* CuteText(PyObject* self, void*) {
  return Guard(
      [&] { return py::object(py::str(cute::ToString(Self(self)->any))); });
}

PyObject* RankOf(PyObject* self, void*) {
  return PyLong_FromLong(Self(self)->any.rank());
}

PyObject* DepthOf(PyObject* self, void*) {
  return PyLong_FromLong(Self(self)->layout().depth());
}

PyObject* SizeMethod(PyObject* self, PyObject*) {
  const cute::AnyLayout& l = Self(self)->any;
  return PyLong_FromLongLong(l.is_swizzle() ? l.swizzle().domain_size()
                                            : l.size());
}

PyObject* CosizeMethod(PyObject* self, PyObject*) {
  const cute::AnyLayout& l = Self(self)->any;
  return PyLong_FromLongLong(l.is_swizzle() ? l.swizzle().domain_size()
                                            : l.cosize());
}

PyObject* Idx2CrdMethod(PyObject* self, PyObject* index) {
  return Guard([&] {
    return ToPy(
        Unwrap(cute::IdxToCrd(FromPy(index), Self(self)->layout().shape())));
  });
}

PyObject* TableMethod(PyObject* self, PyObject*) {
  return Guard([&] {
    return py::object(py::str(Unwrap(cute::PrintTable(Self(self)->any))));
  });
}

PyObject* SwizzleField(PyObject* self, void* which) {
  const cute::Swizzle& s = Self(self)->sw();
  switch (reinterpret_cast<intptr_t>(which)) {
    case 0:
      return PyLong_FromLong(s.bits());
    case 1:
      return PyLong_FromLong(s.base());
    case 2:
      return PyLong_FromLong(s.shift());
    case 3:
      return PyLong_FromLongLong(s.yyy_mask());
    default:
      return PyLong_FromLongLong(s.zzz_mask());
  }
}

PyObject* ComposedOuter(PyObject* self, void*) {
  return Guard([&] { return Wrap(Self(self)->any.composed().outer()); });
}

PyObject* ComposedInner(PyObject* self, void*) {
  return Guard([&] { return Wrap(Self(self)->any.composed().inner()); });
}

PyObject* ComposedOffsetOf(PyObject* self, void*) {
  return Guard([&]() -> py::object {
    const cute::ComposedOffset& o = Self(self)->any.composed().offset();
    if (o.is_smem_ptr()) return py::str(cute::ToString(o));
    return py::int_(o.value().value);
  });
}

PyObject* ComposedShape(PyObject* self, void*) {
  return Guard([&] { return ToPy(Self(self)->any.shape()); });
}

// Each doc's first line is the signature, as pybind11 writes it (the stubs
// are written from it, python/hlolayout/_stubgen.py); the slots' signatures
// are in _cute_layout.py's _slot_signatures.
PyMethodDef kLayoutMethods[] = {
    {"size", SizeMethod, METH_NOARGS,
     "size(self) -> int\n\nThe number of coordinates."},
    {"cosize", CosizeMethod, METH_NOARGS,
     "cosize(self) -> int\n\n1 + the largest offset span (absolute strides)."},
    {"idx2crd", Idx2CrdMethod, METH_O,
     "idx2crd(self, index: IntTuple) -> IntTuple\n\nThe natural coordinate "
     "of a 1-D index (a nested tuple)."},
    {"table", TableMethod, METH_NOARGS,
     "table(self) -> str\n\nA rank-2 layout as a grid of offsets (CuTe's "
     "print_layout), as text."},
    {nullptr, nullptr, 0, nullptr}};

PyGetSetDef kLayoutGetSet[] = {
    {"shape", ShapeOf, nullptr,
     "(self) -> IntTuple\n\nThe shape, ints and nested tuples.", nullptr},
    {"stride", StrideOf, nullptr,
     "(self) -> IntTuple\n\nThe stride, ints and nested tuples.", nullptr},
    {"cute", CuteText, nullptr,
     "(self) -> str\n\nCuTe's print of the layout, static integers as _N.",
     nullptr},
    {"rank", RankOf, nullptr, "(self) -> int\n\nThe number of top-level modes.",
     nullptr},
    {"depth", DepthOf, nullptr,
     "(self) -> int\n\nThe nesting depth of the shape.", nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr}};

PyMethodDef kSwizzleMethods[] = {
    {"size", SizeMethod, METH_NOARGS,
     "size(self) -> int\n\nThe period, 2^(bits+base+|shift|)."},
    {"cosize", CosizeMethod, METH_NOARGS,
     "cosize(self) -> int\n\nThe period, as size()."},
    {nullptr, nullptr, 0, nullptr}};

PyGetSetDef kSwizzleGetSet[] = {
    {"bits", SwizzleField, nullptr, "(self) -> int\n\nB",
     reinterpret_cast<void*>(0)},
    {"base", SwizzleField, nullptr, "(self) -> int\n\nM",
     reinterpret_cast<void*>(1)},
    {"shift", SwizzleField, nullptr, "(self) -> int\n\nS",
     reinterpret_cast<void*>(2)},
    {"yyy_msk", SwizzleField, nullptr,
     "(self) -> int\n\nThe mask of the bits read.", reinterpret_cast<void*>(3)},
    {"zzz_msk", SwizzleField, nullptr,
     "(self) -> int\n\nThe mask of the bits written.",
     reinterpret_cast<void*>(4)},
    {"cute", CuteText, nullptr, "(self) -> str\n\nCuTe's print, Sw<B,M,S>.",
     nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr}};

PyMethodDef kComposedMethods[] = {
    {"size", SizeMethod, METH_NOARGS,
     "size(self) -> int\n\nThe inner layout's size."},
    {"cosize", CosizeMethod, METH_NOARGS,
     "cosize(self) -> int\n\nThe inner layout's cosize (CuTe's; pycute's is "
     "the outer function's)."},
    {"table", TableMethod, METH_NOARGS,
     "table(self) -> str\n\nA rank-2 layout as a grid of offsets (CuTe's "
     "print_layout), as text."},
    {nullptr, nullptr, 0, nullptr}};

PyGetSetDef kComposedGetSet[] = {
    {"layoutB", ComposedOuter, nullptr,
     "(self) -> Union[Swizzle, Layout, ComposedLayout]\n\nThe outer function "
     "(pycute's name; CuTe's layout_a).",
     nullptr},
    {"offset", ComposedOffsetOf, nullptr,
     "(self) -> Union[int, str]\n\nThe offset: an int, or "
     "'smem_ptr[16b](unset)'.",
     nullptr},
    {"layoutA", ComposedInner, nullptr,
     "(self) -> Union[Layout, ComposedLayout]\n\nThe inner layout (pycute's "
     "name; CuTe's layout_b).",
     nullptr},
    {"shape", ComposedShape, nullptr,
     "(self) -> IntTuple\n\nThe inner layout's shape.", nullptr},
    {"cute", CuteText, nullptr, "(self) -> str\n\nCuTe's print, A o O o B.",
     nullptr},
    {"rank", RankOf, nullptr, "(self) -> int\n\nThe number of top-level modes.",
     nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr}};

PyObject* AbstractNew(PyTypeObject* type, PyObject*, PyObject*) {
  PyErr_Format(PyExc_TypeError,
               "cannot create '%s' instances: make a Layout "
               "or a ComposedLayout",
               type->tp_name);
  return nullptr;
}

PyTypeObject* MakeType(py::module_& m, const char* name, const char* doc,
                       PyTypeObject* base, newfunc tp_new, PyMethodDef* methods,
                       PyGetSetDef* getset, bool sequence) {
  std::vector<PyType_Slot> slots = {
      {Py_tp_dealloc, reinterpret_cast<void*>(CuteDealloc)},
      {Py_tp_doc, const_cast<char*>(doc)},
  };
  slots.push_back({Py_tp_new, reinterpret_cast<void*>(
                                  tp_new != nullptr ? tp_new : AbstractNew)});
  if (tp_new != nullptr) {
    slots.push_back({Py_tp_call, reinterpret_cast<void*>(CuteCall)});
    slots.push_back(
        {Py_tp_richcompare, reinterpret_cast<void*>(CuteRichCompare)});
    slots.push_back({Py_tp_hash, reinterpret_cast<void*>(CuteHash)});
    slots.push_back({Py_tp_str, reinterpret_cast<void*>(CuteStr)});
    slots.push_back({Py_tp_repr, reinterpret_cast<void*>(CuteRepr)});
  }
  if (sequence) {
    slots.push_back({Py_mp_length, reinterpret_cast<void*>(CuteLength)});
    slots.push_back({Py_sq_length, reinterpret_cast<void*>(CuteLength)});
    slots.push_back({Py_mp_subscript, reinterpret_cast<void*>(CuteItem)});
    slots.push_back({Py_sq_item, reinterpret_cast<void*>(CuteSeqItem)});
  }
  if (methods != nullptr) slots.push_back({Py_tp_methods, methods});
  if (getset != nullptr) slots.push_back({Py_tp_getset, getset});
  slots.push_back({0, nullptr});
  // The spec's name is copied by CPython; the module sets __module__.
  // CPython 3.11 keeps the spec's name pointer: it must outlive the type.
  const std::string* full =
      new std::string(absl::StrCat("hlolayout._hlolayout.", name));
  PyType_Spec spec = {full->c_str(), static_cast<int>(sizeof(CuteObject)), 0,
                      Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE, slots.data()};
  PyObject* bases = nullptr;
  if (base != nullptr) {
    bases = PyTuple_Pack(1, reinterpret_cast<PyObject*>(base));
  }
  PyObject* type = PyType_FromSpecWithBases(&spec, bases);
  Py_XDECREF(bases);
  if (type == nullptr) throw py::error_already_set();
  m.add_object(name, py::reinterpret_borrow<py::object>(type));
  return reinterpret_cast<PyTypeObject*>(type);  // The module keeps it.
}

// ---------------------------------------------------------------------------
// pycute's functions, METH_FASTCALL (hlolayout.cute binds them directly: no
// Python frame and no pybind11 dispatch between the caller and the C++).

template <size_t N, typename F>
PyObject* Fast(const char* fn, PyObject* const* args, Py_ssize_t nargs,
               PyObject* kwnames, const char* const (&names)[N],
               size_t required, F&& body) {
  return Guard([&] {
    PyObject* a[N];
    BindArgs(fn, args, nargs, kwnames, names, required, a);
    return body(a);
  });
}

#define CUTE_FASTCALL(name)                                          \
  PyObject* name(PyObject*, PyObject* const* args, Py_ssize_t nargs, \
                 PyObject* kwnames)

const char* const kLayout[] = {"layout"};
const char* const kLayoutProfile[] = {"layout", "profile"};
const char* const kAB[] = {"layoutA", "layoutB"};

CUTE_FASTCALL(FnMakeLayout) {
  return Guard([&] {
    if (kwnames != nullptr && PyTuple_GET_SIZE(kwnames) > 0) {
      throw py::type_error("make_layout() takes no keyword arguments");
    }
    py::tuple items(nargs);
    for (Py_ssize_t i = 0; i < nargs; ++i) {
      items[i] = py::reinterpret_borrow<py::object>(args[i]);
    }
    return MakeLayout(py::reinterpret_borrow<py::args>(items));
  });
}

CUTE_FASTCALL(FnSize) {
  return Fast("size", args, nargs, kwnames, kLayout, 1, [](auto& a) {
    py::handle l = a[0];
    if (IsLayoutLike(l) || PyUnicode_Check(l.ptr())) {
      return py::object(py::int_(AnyRef(l)->size()));
    }
    return py::object(py::int_(Unwrap(cute::Size(FromPy(l)))));
  });
}

CUTE_FASTCALL(FnCosize) {
  return Fast("cosize", args, nargs, kwnames, kLayout, 1, [](auto& a) {
    return py::object(py::int_(AnyRef(a[0])->cosize()));
  });
}

CUTE_FASTCALL(FnCoalesce) {
  return Fast("coalesce", args, nargs, kwnames, kLayoutProfile, 1, [](auto& a) {
    AnyRef l(a[0]);
    py::handle profile = a[1];
    if (l->is_layout() && profile.is_none()) {
      return Wrap(cute::Coalesce(l->layout()));
    }
    return Wrap(Unwrap(cute::CoalesceOf(
        *l, OptionalTuple(py::reinterpret_borrow<py::object>(profile)))));
  });
}

CUTE_FASTCALL(FnFilter) {
  return Fast("filter", args, nargs, kwnames, kLayoutProfile, 1, [](auto& a) {
    return Wrap(Unwrap(cute::FilterOf(
        *AnyRef(a[0]),
        OptionalTuple(py::reinterpret_borrow<py::object>(a[1])))));
  });
}

CUTE_FASTCALL(FnComposition) {
  return Fast("composition", args, nargs, kwnames, kAB, 2,
              [](auto& a) { return Composition(a[0], a[1]); });
}

CUTE_FASTCALL(FnComplement) {
  static const char* const kNames[] = {"layout", "max_idx"};
  return Fast("complement", args, nargs, kwnames, kNames, 1,
              [](auto& a) { return Complement(a[0], a[1]); });
}

CUTE_FASTCALL(FnRightInverse) {
  return Fast("right_inverse", args, nargs, kwnames, kLayout, 1,
              [](auto& a) { return MaybeInverse(a[0], true); });
}

CUTE_FASTCALL(FnLeftInverse) {
  return Fast("left_inverse", args, nargs, kwnames, kLayout, 1,
              [](auto& a) { return MaybeInverse(a[0], false); });
}

template <cute::DivideKind kind>
CUTE_FASTCALL(FnDivide) {
  return Fast("divide", args, nargs, kwnames, kAB, 2,
              [](auto& a) { return DivideOp(kind, a[0], a[1]); });
}

template <cute::ProductKind kind>
CUTE_FASTCALL(FnProduct) {
  return Fast("product", args, nargs, kwnames, kAB, 2,
              [](auto& a) { return ProductOp(kind, a[0], a[1]); });
}

CUTE_FASTCALL(FnBlockedProduct) {
  return Fast("blocked_product", args, nargs, kwnames, kAB, 2, [](auto& a) {
    return Wrap(Unwrap(cute::BlockedProductOf(*AnyRef(a[0]), *AnyRef(a[1]))));
  });
}

CUTE_FASTCALL(FnRakedProduct) {
  return Fast("raked_product", args, nargs, kwnames, kAB, 2, [](auto& a) {
    return Wrap(Unwrap(cute::RakedProductOf(*AnyRef(a[0]), *AnyRef(a[1]))));
  });
}

CUTE_FASTCALL(FnTileToShape) {
  static const char* const kNames[] = {"layout", "shape", "order"};
  return Fast("tile_to_shape", args, nargs, kwnames, kNames, 2, [](auto& a) {
    return Wrap(Unwrap(cute::TileToShapeOf(
        *AnyRef(a[0]), cute::WithTags(ToTuple(a[1]), true),
        OptionalTuple(py::reinterpret_borrow<py::object>(a[2])))));
  });
}

CUTE_FASTCALL(FnSliceAndOffset) {
  static const char* const kNames[] = {"crd", "layout"};
  return Fast("slice_and_offset", args, nargs, kwnames, kNames, 2, [](auto& a) {
    cute::SlicedAnyLayout s =
        Unwrap(cute::SliceAndOffsetOf(ToSliceCoord(a[0]), *AnyRef(a[1])));
    return py::object(
        py::make_tuple(Wrap(std::move(s.layout)), s.offset.value));
  });
}

CUTE_FASTCALL(FnUpcast) {
  static const char* const kNames[] = {"layout", "n"};
  return Fast("upcast", args, nargs, kwnames, kNames, 2, [](auto& a) {
    return Wrap(Unwrap(cute::UpcastOf(*AnyRef(a[0]), IntFromPy(a[1], "n"))));
  });
}

CUTE_FASTCALL(FnDowncast) {
  static const char* const kNames[] = {"layout", "n"};
  return Fast("downcast", args, nargs, kwnames, kNames, 2, [](auto& a) {
    return Wrap(Unwrap(cute::DowncastOf(*AnyRef(a[0]), IntFromPy(a[1], "n"))));
  });
}

CUTE_FASTCALL(FnRecastLayout) {
  static const char* const kNames[] = {"layout", "old_type", "new_type"};
  return Fast("recast_layout", args, nargs, kwnames, kNames, 3, [](auto& a) {
    return Wrap(
        Unwrap(cute::RecastLayoutOf(*AnyRef(a[0]), Bits(a[1]), Bits(a[2]))));
  });
}

CUTE_FASTCALL(FnParse) {
  static const char* const kNames[] = {"text"};
  return Fast("parse", args, nargs, kwnames, kNames, 1, [](auto& a) {
    if (!PyUnicode_Check(a[0])) throw py::type_error("parse() takes a str");
    return Wrap(
        Unwrap(cute::ParseAnyLayout(py::handle(a[0]).cast<std::string>())));
  });
}

#undef CUTE_FASTCALL

template <typename F>
PyCFunction AsCFunction(F f) {
  return reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(f));
}

constexpr int kFast = METH_FASTCALL | METH_KEYWORDS;

PyMethodDef kFunctions[] = {
    {"cute_make_layout", AsCFunction(FnMakeLayout), kFast,
     "cute_make_layout(*layouts)\n--\n\n"
     "make_layout(*layouts: Union[Layout, Iterable[Layout]]) -> Layout\n\nThe "
     "concatenation, each layout one "
     "mode (also from one iterable of layouts)."},
    {"cute_size", AsCFunction(FnSize), kFast,
     "cute_size(layout)\n--\n\n"
     "size(layout: Union[LayoutLike, IntTuple]) -> int\n\nThe size of a "
     "layout's domain, or the product "
     "of an IntTuple."},
    {"cute_cosize", AsCFunction(FnCosize), kFast,
     "cute_cosize(layout)\n--\n\n"
     "cosize(layout: LayoutLike) -> int\n\n1 + the largest offset span, with "
     "absolute "
     "strides (CuTe's; pycute's layout(size-1)+1 is wrong for negative "
     "strides); a composed layout's is its inner layout's."},
    {"cute_coalesce", AsCFunction(FnCoalesce), kFast,
     "cute_coalesce(layout, profile=None)\n--\n\n"
     "coalesce(layout: LayoutLike, profile: Optional[IntTuple] = None) -> "
     "Any\n\nThe same function with the "
     "fewest modes (by mode along a profile)."},
    {"cute_filter", AsCFunction(FnFilter), kFast,
     "cute_filter(layout, profile=None)\n--\n\n"
     "filter(layout: LayoutLike, profile: Optional[IntTuple] = None) -> "
     "Any\n\ncoalesce after dropping "
     "stride-0 and size-1 modes."},
    {"cute_composition", AsCFunction(FnComposition), kFast,
     "cute_composition(layoutA, layoutB)\n--\n\n"
     "composition(layoutA: LayoutLike, layoutB: Union[Tiler, LayoutLike]) -> "
     "Any\n\nR(c) = layoutA(layoutB(c)). "
     "layoutB: a Layout, an int n (n:1), None (layoutA unchanged), a tuple "
     "of those (by mode; modes of layoutA past it are dropped, as in CuTe), "
     "a Swizzle or a ComposedLayout."},
    {"cute_complement", AsCFunction(FnComplement), kFast,
     "cute_complement(layout, max_idx=None)\n--\n\n"
     "complement(layout: LayoutLike, max_idx: Optional[IntTuple] = None) -> "
     "Layout\n\nThe layout of the rest of "
     "the codomain up to max_idx (an int or a shape; by default the cosize "
     "of the filtered layout, CuTe's default)."},
    {"cute_right_inverse", AsCFunction(FnRightInverse), kFast,
     "cute_right_inverse(layout)\n--\n\n"
     "right_inverse(layout: Optional[LayoutLike]) -> Any\n\nR with "
     "layout(R(i)) == i on R's "
     "domain (CuTe's)."},
    {"cute_left_inverse", AsCFunction(FnLeftInverse), kFast,
     "cute_left_inverse(layout)\n--\n\n"
     "left_inverse(layout: Optional[LayoutLike]) -> Any\n\nR with "
     "layout(R(layout(i))) == "
     "layout(i) (CuTe's)."},
    {"cute_logical_divide", AsCFunction(FnDivide<cute::DivideKind::kLogical>),
     kFast,
     "cute_logical_divide(layoutA, layoutB)\n--\n\n"
     "logical_divide(layoutA: LayoutLike, layoutB: Tiler) -> Any\n\n((tile, "
     "rest), ...): "
     "layoutA split by the tiler layoutB."},
    {"cute_zipped_divide", AsCFunction(FnDivide<cute::DivideKind::kZipped>),
     kFast,
     "cute_zipped_divide(layoutA, layoutB)\n--\n\n"
     "zipped_divide(layoutA: LayoutLike, layoutB: Tiler) -> "
     "Any\n\n((tiles...), "
     "(rests...))."},
    {"cute_tiled_divide", AsCFunction(FnDivide<cute::DivideKind::kTiled>),
     kFast,
     "cute_tiled_divide(layoutA, layoutB)\n--\n\n"
     "tiled_divide(layoutA: LayoutLike, layoutB: Tiler) -> Any\n\n((tiles...), "
     "rest0, "
     "rest1, ...)."},
    {"cute_flat_divide", AsCFunction(FnDivide<cute::DivideKind::kFlat>), kFast,
     "cute_flat_divide(layoutA, layoutB)\n--\n\n"
     "flat_divide(layoutA: LayoutLike, layoutB: Tiler) -> Any\n\n(tiles..., "
     "rests...)."},
    {"cute_logical_product",
     AsCFunction(FnProduct<cute::ProductKind::kLogical>), kFast,
     "cute_logical_product(layoutA, layoutB)\n--\n\n"
     "logical_product(layoutA: LayoutLike, layoutB: Union[Tiler, LayoutLike]) "
     "-> Any\n\n(layoutA, its repetitions "
     "along layoutB); an int n means n:1 (pycute divides there)."},
    {"cute_zipped_product", AsCFunction(FnProduct<cute::ProductKind::kZipped>),
     kFast,
     "cute_zipped_product(layoutA, layoutB)\n--\n\n"
     "zipped_product(layoutA: LayoutLike, layoutB: Union[Tiler, LayoutLike]) "
     "-> Any\n\n((blocks...), "
     "(repetitions...))."},
    {"cute_tiled_product", AsCFunction(FnProduct<cute::ProductKind::kTiled>),
     kFast,
     "cute_tiled_product(layoutA, layoutB)\n--\n\n"
     "tiled_product(layoutA: LayoutLike, layoutB: Union[Tiler, LayoutLike]) -> "
     "Any\n\n((blocks...), "
     "repetition0, repetition1, ...)."},
    {"cute_flat_product", AsCFunction(FnProduct<cute::ProductKind::kFlat>),
     kFast,
     "cute_flat_product(layoutA, layoutB)\n--\n\n"
     "flat_product(layoutA: LayoutLike, layoutB: Union[Tiler, LayoutLike]) -> "
     "Any\n\n(blocks..., "
     "repetitions...)."},
    {"cute_blocked_product", AsCFunction(FnBlockedProduct), kFast,
     "cute_blocked_product(layoutA, layoutB)\n--\n\n"
     "blocked_product(layoutA: LayoutLike, layoutB: LayoutLike) -> "
     "Any\n\n((A0, B0), (A1, B1), "
     "...): layoutA repeated as blocks."},
    {"cute_raked_product", AsCFunction(FnRakedProduct), kFast,
     "cute_raked_product(layoutA, layoutB)\n--\n\n"
     "raked_product(layoutA: LayoutLike, layoutB: LayoutLike) -> Any\n\n((B0, "
     "A0), (B1, A1), ...): "
     "layoutA's elements interleaved."},
    {"cute_tile_to_shape", AsCFunction(FnTileToShape), kFast,
     "cute_tile_to_shape(layout, shape, order=None)\n--\n\n"
     "tile_to_shape(layout: LayoutLike, shape: IntTuple, order: "
     "Optional[IntTuple] = None) -> Any\n\nlayout repeated to "
     "shape, its modes filled in order (CuTe's Step; default column-major). "
     "The block must divide the shape."},
    {"cute_slice_and_offset", AsCFunction(FnSliceAndOffset), kFast,
     "cute_slice_and_offset(crd, layout)\n--\n\n"
     "slice_and_offset(crd: Coord, layout: LayoutLike) -> Tuple[Any, "
     "int]\n\n(the layout of crd's None "
     "modes, the offset of crd with None as 0); a swizzled layout's swizzle "
     "decays to strides where CuTe's does."},
    {"cute_upcast", AsCFunction(FnUpcast), kFast,
     "cute_upcast(layout, n)\n--\n\n"
     "upcast(layout: LayoutLike, n: int) -> Any\n\nThe layout in units of n "
     "elements "
     "(CuTe's upcast<n>)."},
    {"cute_downcast", AsCFunction(FnDowncast), kFast,
     "cute_downcast(layout, n)\n--\n\n"
     "downcast(layout: LayoutLike, n: int) -> Any\n\nThe layout in units of "
     "1/n element "
     "(CuTe's downcast<n>)."},
    {"cute_recast_layout", AsCFunction(FnRecastLayout), kFast,
     "cute_recast_layout(layout, old_type, new_type)\n--\n\n"
     "recast_layout(layout: LayoutLike, old_type: Union[str, int], new_type: "
     "Union[str, int]) -> Any\n\nThe layout "
     "between element types or widths: recast_layout(L, 'uint8_t', "
     "'half_t') or (L, 8, 16)."},
    {"cute_parse", AsCFunction(FnParse), kFast,
     "cute_parse(text)\n--\n\n"
     "parse(text: str) -> Any\n\nA Layout, Swizzle or ComposedLayout from "
     "CuTe's printed text."},
    {nullptr, nullptr, 0, nullptr}};

// ---------------------------------------------------------------------------
// CuTe's IntTuple functions (hlolayout.cute's flatten, product, ...: see
// _cute_int_tuple.py), each the C++ core's function on Python ints, tuples
// and None (CuTe's `_`).

// The compact column-major strides of `shape`, or `stride` when given.
cute::IntTuple StridesOr(py::handle stride, const cute::IntTuple& shape) {
  return stride.is_none() ? Unwrap(cute::PrefixProduct(shape)) : FromPy(stride);
}

void RegisterIntTupleFunctions(py::module_& m) {
  m.def("cute_flatten", [](py::handle t) {
    const std::vector<int64_t> leaves = cute::Flatten(FromPy(t));
    py::tuple out(leaves.size());
    for (size_t i = 0; i < leaves.size(); ++i) out[i] = py::int_(leaves[i]);
    return out;
  });
  m.def("cute_product", [](py::handle t) {
    return ToPy(cute::IntTuple(Unwrap(cute::Product(FromPy(t)))));
  });
  m.def("cute_prefix_product", [](py::handle a, py::handle init) {
    return ToPy(Unwrap(cute::PrefixProduct(FromPy(a), FromPy(init))));
  });
  m.def("cute_shape_div", [](py::handle a, py::handle b) {
    return ToPy(Unwrap(cute::ShapeDiv(FromPy(a), FromPy(b))));
  });
  m.def("cute_inner_product", [](py::handle a, py::handle b) {
    return Unwrap(cute::InnerProduct(FromPy(a), FromPy(b))).value;
  });
  m.def("cute_elem_scale", [](py::handle a, py::handle b) {
    return ToPy(Unwrap(cute::ElemScale(FromPy(a), FromPy(b))));
  });
  m.def("cute_idx2crd", [](py::handle idx, py::handle shape,
                           py::handle stride) {
    const cute::IntTuple s = FromPy(shape);
    return ToPy(stride.is_none()
                    ? Unwrap(cute::IdxToCrd(FromPy(idx), s))
                    : Unwrap(cute::IdxToCrd(FromPy(idx), s, FromPy(stride))));
  });
  m.def("cute_crd2idx", [](py::handle crd, py::handle shape,
                           py::handle stride) {
    const cute::IntTuple s = FromPy(shape);
    return Unwrap(cute::CoordOffset(ToSliceCoord(crd), s, StridesOr(stride, s)))
        .value;
  });
  m.def("cute_crd2crd", [](py::handle crd, py::handle dst, py::handle src) {
    const cute::IntTuple source =
        src.is_none() ? cute::IntTuple() : FromPy(src);
    return ToPy(Unwrap(cute::CrdToCrd(FromPy(crd), FromPy(dst),
                                      src.is_none() ? nullptr : &source)));
  });
  m.def("cute_slice", [](py::handle crd, py::handle trg) {
    return ToPy(Unwrap(cute::SliceTuple(ToSliceCoord(crd), FromPy(trg))));
  });
  m.def("cute_has_none",
        [](py::handle a) { return ToSliceCoord(a).has_underscore(); });
}

// A tiled MMA whose operand layouts are built one at a time, when asked
// for (cute/atom/tiled_mma.h MakeTiledMmaShell): hlolayout.cute_dsl's
// TiledMma, where a kernel author reads one or two of the three.
void RegisterTiledMmaShell(py::module_& m) {
  // The tiled MMA without its TV layouts (its layout_tv() is empty: read
  // them with cute_tiled_mma_layout_tv).
  m.def("cute_make_tiled_mma_shell",
        [](const cute::MmaAtom& atom, const std::string& layout,
           const std::string& permutation) {
          cute::Layout l;
          if (!layout.empty()) {
            l = Unwrap(cute::atom_internal::ParseStaticLayout(layout));
          }
          cute::Tile p;
          if (!permutation.empty()) p = Unwrap(cute::ParseTile(permutation));
          return Unwrap(cute::MakeTiledMmaShell(atom, l, p));
        });
  // One operand's TV layout ("A", "B" or "C"), a CuteLayout whose integers
  // are all static (as cute_parse makes it from the tables' static text).
  m.def("cute_tiled_mma_layout_tv", [](const cute::TiledMma& tm,
                                       const std::string& operand) {
    cute::Operand op = cute::Operand::kC;
    if (operand == "A") {
      op = cute::Operand::kA;
    } else if (operand == "B") {
      op = cute::Operand::kB;
    } else if (operand != "C") {
      throw py::value_error("expects the operand A, B or C, got " + operand);
    }
    return Wrap(
        cute::atom_internal::AllStatic(Unwrap(cute::TiledMmaLayoutTv(tm, op))));
  });
}

}  // namespace

cute::IntTuple CuteTupleFromPy(py::handle h) { return FromPy(h); }
py::object CuteTupleToPy(const cute::IntTuple& t) { return ToPy(t); }
py::object WrapCuteLayout(cute::AnyLayout l) { return Wrap(std::move(l)); }
const cute::AnyLayout* CuteLayoutOf(py::handle h) {
  if (const CuteObject* l = GetLayout(h)) return &l->any;
  if (const CuteObject* c = GetComposed(h)) return &c->any;
  if (const CuteObject* s = GetSwizzle(h)) return &s->any;
  return nullptr;
}

void RegisterCute(py::module_& m) {
  RegisterTiledMmaShell(m);
  // The picture of `hlolayout cute draw LAYOUT`: SVG (`--svg -`), or text
  // with ANSI colours or none (`--color always|never`).
  m.def(
      "cute_draw",
      [](const std::string& text, bool svg, bool colour) {
        const cute::AnyLayout layout = Unwrap(cute::ParseAnyLayout(text));
        const draw::CellGrid grid = Unwrap(draw::CuteLayoutGrid(layout));
        if (svg) return draw::GridsToSvg({grid}, grid.heading);
        return draw::PictureToText(grid.heading, {grid},
                                   draw::TextStyle{colour, false});
      },
      py::arg("text"), py::arg("svg") = true, py::arg("colour") = false);
  // The layout of a shared-memory layout atom CuTe names ("GMMA::Layout_K_
  // SW128_Atom<half_t>"), as `hlolayout cute smem NAME` prints its Layout:
  // "Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1)".
  m.def(
      "cute_smem_atom_layout",
      [](const std::string& name) {
        const cute::SmemAtom atom = Unwrap(cute::FindSmemAtom(name));
        return cute::ToString(
            Unwrap(cute::TileSmemAtom(atom, absl::nullopt, absl::nullopt))
                .layout);
      },
      py::arg("name"));
  // The text-level ops of `hlolayout cute` (OPS in hlolayout.cute).
  m.def("cute_op",
        [](const std::string& op, const std::vector<std::string>& args) {
          std::vector<absl::string_view> views(args.begin(), args.end());
          absl::StatusOr<std::string> r;
          {
            py::gil_scoped_release release;
            r = answers::AnswerCuteOp({op, views});
          }
          return Unwrap(std::move(r));
        });
  // `offsets L` as a list of ints (cute.offsets).
  m.def(
      "cute_offsets",
      [](const std::string& layout) {
        absl::StatusOr<std::vector<int64_t>> r;
        {
          py::gil_scoped_release release;
          r = answers::AnswerCuteOffsets(layout);
        }
        return Unwrap(std::move(r));
      },
      py::arg("layout"));
  m.def("cute_op_names", [] {
    std::vector<std::string> names;
    for (const answers::CuteOpInfo& op : answers::CuteOps())
      names.emplace_back(op.name);
    return names;
  });

  RegisterIntTupleFunctions(m);

  TypeObjects& t = Types();
  t.base = MakeType(m, "CuteLayoutBase",
                    "The base of Layout and ComposedLayout (pycute's "
                    "LayoutBase).",
                    nullptr, nullptr, nullptr, nullptr, false);
  t.layout = MakeType(m, "CuteLayout", "A CuTe layout shape:stride.", t.base,
                      LayoutNew, kLayoutMethods, kLayoutGetSet, true);
  t.swizzle = MakeType(m, "CuteSwizzle", "CuTe's Swizzle<B,M,S>.", nullptr,
                       SwizzleNew, kSwizzleMethods, kSwizzleGetSet, false);
  t.composed =
      MakeType(m, "CuteComposedLayout", "A composed layout A o O o B.", t.base,
               ComposedNew, kComposedMethods, kComposedGetSet, true);
  if (PyModule_AddFunctions(m.ptr(), kFunctions) != 0) {
    throw py::error_already_set();
  }
}

}  // namespace hlolayout::pyext
