// python/hlolayout/_instance.h: pybind11 instances of a bound class made and
// freed without pybind11's bookkeeping, for the objects Python makes by the
// thousand (hl.ttnn.TensorSpec, the records of Shape.explain()). pybind11
// looks the class's type record up on every allocation and deallocation
// (two hash lookups, one by the C++ type's name) and enters each instance
// in its table of instances (a hash insert and erase); that table finds the
// Python object of a C++ pointer being returned by reference, which these
// classes never are.
//
//   py::class_<Rec> cls(m, "Rec");
//   FastInstances<Rec>::Install(cls);     // its tp_dealloc
//   py::object r = FastInstances<Rec>::New(std::make_unique<Rec>(...));
//
// Instances made the usual way (py::init, py::cast, pickle) are registered
// and freed by pybind11 as before: Dealloc hands every instance it did not
// make to pybind11_object_dealloc, as it does a subclass's. pybind11
// ignores a second __init__ of an instance it finds registered, and a
// new-style constructor (py::init) frees the value of one it does not
// find: a class whose instances New or Place makes defines its own
// __init__ and __setstate__ (MethodNamed; python/hlolayout/_ttnn.cc,
// _record.h).
#ifndef HLOLAYOUT_PYTHON_HLOLAYOUT_INSTANCE_H_
#define HLOLAYOUT_PYTHON_HLOLAYOUT_INSTANCE_H_

#include <pybind11/pybind11.h>

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <typeinfo>
#include <utility>

namespace hlolayout::pyext {

template <typename T>
class FastInstances {
 public:
  // Makes the class of T (bound with a std::unique_ptr<T> holder, no
  // dynamic attributes, no base class) use Dealloc. std::logic_error when
  // its instances do not have pybind11's simple layout (one value pointer,
  // the holder in place).
  static void Install(pybind11::handle cls) {
    namespace py = pybind11;
    auto* type = reinterpret_cast<PyTypeObject*>(cls.ptr());
    const py::detail::type_info* info = py::detail::get_type_info(typeid(T));
    if (info == nullptr || info->type != type ||
        py::detail::all_type_info(type).size() != 1 ||
        info->holder_size_in_ptrs >
            py::detail::instance_simple_holder_in_ptrs() ||
        PyType_HasFeature(type, Py_TPFLAGS_HAVE_GC) ||
        type->tp_dictoffset != 0) {
      throw std::logic_error(std::string(type->tp_name) +
                             ": not a simple pybind11 class");
    }
    info_ = info;
    type->tp_dealloc = &Dealloc;
  }

  // A new instance of T's class holding `value`.
  static pybind11::object New(std::unique_ptr<T> value) {
    PyObject* self = Allocate();
    if (self == nullptr) throw pybind11::error_already_set();
    Place(self, std::move(value));
    return pybind11::reinterpret_steal<pybind11::object>(self);
  }

  // An instance of exactly T's class with no value yet, as pybind11's
  // tp_new makes it (null and a Python error when out of memory).
  static PyObject* Allocate() {
    PyTypeObject* type = info_->type;
    PyObject* self = type->tp_alloc(type, 0);  // zeroed
    if (self == nullptr) return nullptr;
    auto* inst = reinterpret_cast<pybind11::detail::instance*>(self);
    inst->simple_layout = true;
    inst->owned = true;
    return self;
  }

  // Gives `self`, an instance of T's class (or of a subclass) with no value
  // yet, its value, as py::init does but not registered.
  static void Place(PyObject* self, std::unique_ptr<T> value) {
    pybind11::detail::value_and_holder v_h =
        reinterpret_cast<pybind11::detail::instance*>(self)
            ->get_value_and_holder(info_);
    Place(v_h, std::move(value));
  }

  // T's class.
  static PyObject* Type() { return reinterpret_cast<PyObject*>(info_->type); }

  // Whether `self` has its value (its holder is made).
  static bool Made(PyObject* self) {
    return reinterpret_cast<pybind11::detail::instance*>(self)
        ->get_value_and_holder(info_)
        .holder_constructed();
  }

 private:
  static void Place(pybind11::detail::value_and_holder& v_h,
                    std::unique_ptr<T> value) {
    v_h.value_ptr() = value.get();
    using Holder = std::unique_ptr<T>;
    new (std::addressof(v_h.holder<Holder>())) Holder(std::move(value));
    v_h.set_holder_constructed();
  }

  // tp_dealloc: what pybind11_object_dealloc does for an instance of
  // exactly T's class made by New or Place, without looking anything up.
  static void Dealloc(PyObject* self) {
    namespace py = pybind11;
    PyTypeObject* type = Py_TYPE(self);
    auto* inst = reinterpret_cast<py::detail::instance*>(self);
    if (type != info_->type || !inst->simple_layout ||
        inst->simple_instance_registered || !inst->simple_holder_constructed ||
        inst->weakrefs != nullptr || inst->has_patients) {
      py::detail::pybind11_object_dealloc(self);
      return;
    }
    {
      // As pybind11's dealloc: a pending Python error kept aside while the
      // value's destructor runs.
      std::optional<py::error_scope> scope;
      if (PyErr_Occurred() != nullptr) scope.emplace();
      using Holder = std::unique_ptr<T>;
      reinterpret_cast<Holder*>(&inst->simple_value_holder[1])->~Holder();
    }
    type->tp_free(self);
    Py_DECREF(type);
  }

  static inline const pybind11::detail::type_info* info_ = nullptr;
};

// A method of `cls` that Python finds as `name`, a dunder name (set it as
// cls.attr(name)), while pybind11 records it as "_" + the name between the
// underscores (`_init` for __init__). pybind11 takes a function named
// __init__ or __setstate__ for a constructor: an old-style one (taking
// `self`) is deprecated (a FutureWarning in debug builds), and a new-style
// one (py::init, py::pickle) frees the value of an instance New or Place
// made before calling it. Such a method checks `self` itself (CheckSelf).
template <typename F, typename... Extra>
pybind11::cpp_function MethodNamed(pybind11::handle cls, const char* name,
                                   F&& f, const Extra&... extra) {
  namespace py = pybind11;
  std::string recorded = name;  // pybind11 copies it
  while (recorded.size() > 1 && recorded[0] == '_') recorded.erase(0, 1);
  while (recorded.size() > 1 && recorded.back() == '_') recorded.pop_back();
  recorded.insert(0, "_");
  return py::cpp_function(std::forward<F>(f), py::name(recorded.c_str()),
                          py::is_method(cls), extra...);
}

// For a method made by MethodNamed: a TypeError unless `self` is an
// instance of `type` (or of a subclass), as pybind11 checks a
// constructor's.
inline void CheckSelf(pybind11::handle self, PyObject* type,
                      const char* method) {
  if (PyObject_TypeCheck(self.ptr(), reinterpret_cast<PyTypeObject*>(type))) {
    return;
  }
  const pybind11::handle cls(type);  // named as Python names it
  throw pybind11::type_error(
      std::string(method) + "(self, ...) called with a self that is not a " +
      pybind11::str(cls.attr("__module__")).cast<std::string>() + "." +
      pybind11::str(cls.attr("__qualname__")).cast<std::string>());
}

}  // namespace hlolayout::pyext

#endif  // HLOLAYOUT_PYTHON_HLOLAYOUT_INSTANCE_H_
