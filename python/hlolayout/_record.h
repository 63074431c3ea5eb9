// python/hlolayout/_record.h: the read-only result classes of the memory
// analysis and the report (_memory.cc, _report.cc), each a Python class
// made from a library field list (util/record.h's RecordSpec): one
// documented attribute per field, `to_dict()` giving the JSON form the
// CLI's `--json` prints, a short repr of the fields that matter, an HTML
// view for Jupyter (`_repr_html_`), equality, hashing and pickling.
//
//   // a tag whose Spec() is an answer type's field list (_answer.h's
//   // AnswerTag<answers::Allocation>, made by BindAnswer from its hook)
//   BindRecord<AnswerTag<answers::Allocation>>(m, "hlolayout.memory_usage");
//   PyRecordSink sink;                 // the library emits a record to it
//   EmitValue(allocation, sink);       // util/fields.h, the type's hook
//   py::object a = sink.Take();        // (_answer.h's ToPython does these)
//   a.attr("index"), a.attr("to_dict")()  // 0, {"index": 0, "values": []}
//
// A record holds its values as one Python tuple, built once from the
// library's result; attributes return those objects (ints, strs, None,
// tuples, records), so reading them is cheap and they never change.
// `record[key]` still answers like the dicts these results used to be
// (hl.memory(p)[0]["memory_analysis"]), with a DeprecationWarning: it
// returns to_dict()[key]. A field's `deprecated_name` answers as the field,
// with a DeprecationWarning.
#ifndef HLOLAYOUT_PYTHON_HLOLAYOUT_RECORD_H_
#define HLOLAYOUT_PYTHON_HLOLAYOUT_RECORD_H_

#include <pybind11/pybind11.h>

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "_instance.h"
#include "absl/strings/string_view.h"
#include "hlolayout/util/record.h"

namespace hlolayout::pyext {

using hlolayout::FieldJson;
using hlolayout::FieldSpec;
using hlolayout::RecordSpec;

// An immutable record of class Tag::Spec(): its field values in order.
template <typename Tag>
struct Record {
  pybind11::tuple values;
};

// Field i of a record's values: None for an absent value (Ellipsis).
inline pybind11::object Field(const pybind11::tuple& values, size_t i) {
  PyObject* v = PyTuple_GET_ITEM(values.ptr(), static_cast<Py_ssize_t>(i));
  if (v == Py_Ellipsis) v = Py_None;
  return pybind11::reinterpret_borrow<pybind11::object>(v);
}

// `{1,0}` of (1, 0).
std::string IndexText(pybind11::handle index);

// A record's to_dict() by its spec.
pybind11::dict RecordToDict(const RecordSpec& spec,
                            const pybind11::tuple& values);

// How to_dict() reaches a nested record without calling its to_dict method:
// its class's spec and a function giving its values. BindRecord registers
// every class.
using RecordValues = pybind11::tuple (*)(pybind11::handle record);
using RecordMaker = pybind11::object (*)(pybind11::tuple values);
using RecordHtmlExtra = std::string (*)(const pybind11::tuple& values);
void RegisterRecordType(PyTypeObject* type, const RecordSpec* spec,
                        RecordValues values, RecordMaker make,
                        RecordHtmlExtra html_extra);

// Builds the Python objects of the records a library function emits: each
// record an object of the class bound for its spec (BindRecord), each list
// a tuple. Take() returns the one top-level value.
class PyRecordSink : public hlolayout::RecordSink {
 public:
  PyRecordSink() {
    frames_.reserve(8);
    values_.reserve(64);
  }
  void BeginRecord(const RecordSpec& spec) override;
  void EndRecord() override;
  void BeginList() override;
  void EndList() override;
  void None() override;
  void Bool(bool value) override;
  void Int(int64_t value) override;
  void Double(double value) override;
  void String(absl::string_view value) override;
  // Held as Ellipsis: the attribute reads None, to_dict() leaves the key
  // out.
  void Absent() override;

  pybind11::object Take();

 private:
  // An open record or list: its values are values_[start..]. One stack of
  // values for every frame, so a record costs no allocation of its own.
  struct Frame {
    const RecordSpec* spec;  // null: a list
    RecordMaker make;        // the record's class (null for a list)
    size_t start;
  };
  void Add(pybind11::object value);
  pybind11::tuple PopTuple(size_t start);

  std::vector<Frame> frames_;
  std::vector<pybind11::object> values_;
  pybind11::object result_;
  bool has_result_ = false;
};

// Whether a field holds a tuple of records (by its Python type,
// "Tuple[Allocation, ...]", "Optional[Tuple[...]]").
bool IsRecordsField(const FieldSpec& f);

// repr(): "Allocation(index=0, kind='temp', size=2048, values=(2 items))".
std::string RecordRepr(const RecordSpec& spec, const pybind11::tuple& values);

// _repr_html_() (Jupyter): a table of the fields, nested records as
// tables, lists of records as one table of their repr fields (at most 50
// rows, then how many more), then the spec's html_extra. Self-contained
// HTML, every value escaped.
std::string RecordHtml(const RecordSpec& spec, const pybind11::tuple& values);

// record[key]: to_dict()[key] with a DeprecationWarning.
pybind11::object DeprecatedItem(const RecordSpec& spec,
                                const pybind11::tuple& values,
                                const pybind11::str& key);

// A DeprecationWarning for reading field `i` by its deprecated_name.
void WarnDeprecatedField(const RecordSpec& spec, size_t i);

// The record of class Tag from its field values, in the spec's order.
template <typename Tag, typename... Values>
pybind11::object MakeRecord(Values&&... values) {
  Record<Tag> r{pybind11::make_tuple(std::forward<Values>(values)...)};
  if (r.values.size() != Tag::Spec().fields.size()) {
    throw std::logic_error(std::string(Tag::Spec().name) +
                           ": wrong number of fields");
  }
  return pybind11::cast(std::move(r));
}

// A new Python object of class Tag holding `values`, made without
// pybind11's lookups and instance table (_instance.h): a tenth of
// Shape.explain()'s time was the class's type record looked up by the C++
// type's name, another the instance table.
template <typename Tag>
pybind11::object NewRecordObject(pybind11::tuple values) {
  return FastInstances<Record<Tag>>::New(
      std::unique_ptr<Record<Tag>>(new Record<Tag>{std::move(values)}));
}

// Registers class Tag in `m`, its __module__ set to `module_name` (the
// Python module that re-exports it).
// `html_extra`: more HTML for _repr_html_ after the fields' table (a
// picture), from the record's values; null for none.
template <typename Tag>
void BindRecord(pybind11::module_& m, const char* module_name,
                RecordHtmlExtra html_extra = nullptr) {
  namespace py = pybind11;
  const RecordSpec& spec = Tag::Spec();
  py::class_<Record<Tag>> cls(m, spec.name, spec.doc);
  cls.attr("__module__") = module_name;
  py::tuple names(spec.fields.size());
  for (size_t i = 0; i < spec.fields.size(); ++i) {
    const FieldSpec& f = spec.fields[i];
    names[i] = py::str(f.name);
    cls.def_property_readonly(
        f.name,
        [i](const Record<Tag>& r) -> py::object { return Field(r.values, i); },
        f.doc);
  }
  cls.attr("_fields") = names;
  // The field list's Python types and earlier names, for the .pyi stubs
  // (_stubgen.py).
  py::tuple types(spec.fields.size());
  py::dict deprecated;
  for (size_t i = 0; i < spec.fields.size(); ++i) {
    types[i] = py::str(spec.fields[i].type);
    if (spec.fields[i].deprecated_name != nullptr) {
      deprecated[py::str(spec.fields[i].deprecated_name)] =
          py::str(spec.fields[i].name);
    }
  }
  cls.attr("_field_types") = types;
  cls.attr("_deprecated_fields") = deprecated;
  for (size_t i = 0; i < spec.fields.size(); ++i) {
    const FieldSpec& f = spec.fields[i];
    if (f.deprecated_name == nullptr) continue;
    cls.def_property_readonly(
        f.deprecated_name,
        [i](const Record<Tag>& r) -> py::object {
          WarnDeprecatedField(Tag::Spec(), i);
          return Field(r.values, i);
        },
        f.doc);
  }
  RegisterRecordType(
      reinterpret_cast<PyTypeObject*>(cls.ptr()), &spec,
      [](py::handle h) { return h.cast<const Record<Tag>&>().values; },
      &NewRecordObject<Tag>, html_extra);
  cls.def(
      "to_dict",
      [](const Record<Tag>& r) { return RecordToDict(Tag::Spec(), r.values); },
      "The JSON form, as the CLI's --json prints it (plain dicts, lists, "
      "strs, ints, floats, bools and None).");
  cls.def("__repr__", [](const Record<Tag>& r) {
    return RecordRepr(Tag::Spec(), r.values);
  });
  cls.def(
      "_repr_html_",
      [](const Record<Tag>& r) { return RecordHtml(Tag::Spec(), r.values); },
      "The HTML Jupyter shows: a table of the fields (and a picture where "
      "the record has one).");
  cls.def(
      "__eq__",
      [](const Record<Tag>& a, py::handle b) -> py::object {
        if (!py::isinstance<Record<Tag>>(b))
          return py::reinterpret_borrow<py::object>(Py_NotImplemented);
        return py::bool_(a.values.equal(b.cast<const Record<Tag>&>().values));
      },
      py::is_operator());
  cls.def("__hash__", [](const Record<Tag>& r) { return py::hash(r.values); });
  cls.def(
      "__getitem__",
      [](const Record<Tag>& r, const py::str& key) {
        return DeprecatedItem(Tag::Spec(), r.values, key);
      },
      "Deprecated: the dict these results used to be; use the attributes "
      "or to_dict().");
  // Pickling. __setstate__ gives a record its values once (pickle calls
  // it on a new object); called again it does nothing, as py::pickle's
  // did (which would free the values of a record NewRecordObject made).
  // Made under another name (MethodNamed): by its own name pybind11 takes
  // it for an old-style constructor (deprecated; a FutureWarning in debug
  // builds).
  FastInstances<Record<Tag>>::Install(cls);
  cls.def("__getstate__", [](const Record<Tag>& r) { return r.values; });
  cls.attr("__setstate__") = MethodNamed(
      cls, "__setstate__", [](py::handle self, const py::tuple& values) {
        CheckSelf(self, FastInstances<Record<Tag>>::Type(), "__setstate__");
        if (FastInstances<Record<Tag>>::Made(self.ptr())) return;
        if (values.size() != Tag::Spec().fields.size()) {
          throw std::runtime_error("bad pickled record");
        }
        FastInstances<Record<Tag>>::Place(
            self.ptr(), std::unique_ptr<Record<Tag>>(new Record<Tag>{values}));
      });
}

}  // namespace hlolayout::pyext

#endif  // HLOLAYOUT_PYTHON_HLOLAYOUT_RECORD_H_
