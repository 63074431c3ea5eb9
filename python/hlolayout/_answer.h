// python/hlolayout/_answer.h: answer types bound to Python from their field
// hook (util/fields.h), nothing written by hand per type: the class, its
// documented attributes, to_dict() (the CLI's --json, as plain dicts and
// lists), repr, equality, hashing and pickling are _record.h's, made from
// SpecOf<T>(); the .pyi stubs follow from the same list (_stubgen.py).
//
//   BindAnswer<grid::TtnnLayoutExplain>(m, "hlolayout.grid");
//   // binds the types its fields hold too (TtnnPadding, TtnnShard, ...)
//   py::object a = ToPython(grid::AnswerExplain(analysis));
//   a.attr("kind"), a.attr("to_dict")()   // "ttnn_layout", {"kind": ...}
//
// A variant answer (std::variant<A, B>) becomes the object of the type it
// holds; bind each alternative (BindAnswer<std::variant<A, B>> does).
#ifndef HLOLAYOUT_PYTHON_HLOLAYOUT_ANSWER_H_
#define HLOLAYOUT_PYTHON_HLOLAYOUT_ANSWER_H_

#include <pybind11/pybind11.h>

#include <variant>

#include "_record.h"
#include "hlolayout/util/fields.h"

namespace hlolayout::pyext {

// The _record.h tag of answer type T.
template <typename T>
struct AnswerTag {
  static const RecordSpec& Spec() { return SpecOf<T>(); }
};

template <typename V>
void BindAnswer(pybind11::module_& m, const char* module_name,
                RecordHtmlExtra html_extra = nullptr);

namespace answer_internal {

// Visits a hook, binding the answer types its fields hold.
class Binder {
 public:
  Binder(pybind11::module_& m, const char* module_name)
      : m_(m), module_name_(module_name) {}
  void Type(const char*, const char*) {}
  template <typename V>
  void operator()(const char*, const V&, const char* = nullptr,
                  FieldOptions = {}) {
    BindAnswer<V>(m_, module_name_);
  }

 private:
  pybind11::module_& m_;
  const char* module_name_;
};

template <typename... V>
void BindEach(pybind11::module_& m, const char* module_name,
              std::variant<V...>*) {
  (BindAnswer<V>(m, module_name), ...);
}

}  // namespace answer_internal

// BindAnswer
//
// Registers answer type V's class in `m` (its __module__ `module_name`),
// after the answer types its fields hold; once per type. V may also be a
// list, optional or variant of answer types, or a plain value (nothing to
// bind). `html_extra`: more HTML for _repr_html_ (a picture); null for
// none.
template <typename V>
void BindAnswer(pybind11::module_& m, const char* module_name,
                RecordHtmlExtra html_extra) {
  using namespace fields_internal;  // NOLINT
  if constexpr (IsOptional<V>::value || IsOmit<V>::value || IsList<V>::value) {
    BindAnswer<typename V::value_type>(m, module_name);
  } else if constexpr (IsPair<V>::value) {
    BindAnswer<typename V::first_type>(m, module_name);
    BindAnswer<typename V::second_type>(m, module_name);
  } else if constexpr (IsVariant<V>::value) {
    answer_internal::BindEach(m, module_name, static_cast<V*>(nullptr));
  } else if constexpr (HasFields<V>::value) {
    static bool bound = false;
    if (bound) return;
    bound = true;
    answer_internal::Binder binder(m, module_name);
    const V value{};
    HlolayoutFields(binder, value);
    BindRecord<AnswerTag<V>>(m, module_name, html_extra);
  }
}

// ToPython
//
// The Python object of an answer (its class's, BindAnswer), a list of
// them (a tuple) or a plain value.
template <typename V>
pybind11::object ToPython(const V& value) {
  PyRecordSink sink;
  EmitValue(value, sink);
  return sink.Take();
}

}  // namespace hlolayout::pyext

#endif  // HLOLAYOUT_PYTHON_HLOLAYOUT_ANSWER_H_
