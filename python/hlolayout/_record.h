// python/hlolayout/_record.h: the read-only result classes of the memory
// analysis and the report (_memory.cc, _report.cc), each a Python class
// with one documented attribute per field, `to_dict()` giving the JSON form
// the CLI's `--json` prints, a short repr of the fields that matter, an HTML
// view for Jupyter (`_repr_html_`), equality, hashing and pickling.
//
//   struct AllocationTag {
//     static const RecordSpec& Spec() {
//       static const RecordSpec spec{"Allocation", "One allocation ...", {
//           {"index", "its number"},
//           {"values", "the values in it", Json::kRecords},
//       }};
//       return spec;
//     }
//   };
//   BindRecord<AllocationTag>(m, "hlolayout.allocations");
//   py::object a = MakeRecord<AllocationTag>(int64_t{0}, values_tuple);
//   a.attr("index"), a.attr("to_dict")()  // 0, {"index": 0, "values": []}
//
// A record holds its values as one Python tuple, built once from the
// library's result; attributes return those objects (ints, strs, None,
// tuples, records), so reading them is cheap and they never change.
// `record[key]` still answers like the dicts these results used to be
// (hl.memory(p)[0]["memory_analysis"]), with a DeprecationWarning: it
// returns to_dict()[key].
#ifndef HLOLAYOUT_PYTHON_HLOLAYOUT_RECORD_H_
#define HLOLAYOUT_PYTHON_HLOLAYOUT_RECORD_H_

#include <pybind11/pybind11.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace hlolayout::pyext {

// How a field appears in to_dict().
enum class Json : uint8_t {
  kValue,       // as is: int, str, bool, None
  kOmitIfNone,  // as is, and the key is left out when the value is None
  kIndexText,   // a shape index (1, 0) written "{1,0}"; None stays null
  kIndexTextOmitIfNone,
  kRecord,  // a record's to_dict(), or None
  kRecordOmitIfNone,
  kRecords,  // a tuple of records: a list of their to_dict()
  kRecordsOmitIfNone,
  kList,     // a tuple of plain values: a list
  kRound6g,  // a float written with 6 significant digits (%.6g)
  kFixed4,   // a float written with 4 decimals (%.4f)
  kLeftOut,  // not in the JSON form
};

struct FieldSpec {
  const char* name;
  const char* doc;
  Json json = Json::kValue;
  const char* json_name = nullptr;  // the JSON key when it is not `name`
  bool in_repr = false;             // shown by repr()
};

struct RecordSpec {
  const char* name;  // the Python class name
  const char* doc;
  std::vector<FieldSpec> fields;
  // More HTML for _repr_html_ after the fields' table (a picture), from the
  // record's values; null for none.
  std::string (*html_extra)(const pybind11::tuple& values) = nullptr;
};

// An immutable record of class Tag::Spec(): its field values in order.
template <typename Tag>
struct Record {
  pybind11::tuple values;
};

// `{1,0}` of (1, 0).
std::string IndexText(pybind11::handle index);

// A record's to_dict() by its spec.
pybind11::dict RecordToDict(const RecordSpec& spec,
                            const pybind11::tuple& values);

// How to_dict() reaches a nested record without calling its to_dict method:
// its class's spec and a function giving its values. BindRecord registers
// every class.
using RecordValues = pybind11::tuple (*)(pybind11::handle record);
void RegisterRecordType(PyTypeObject* type, const RecordSpec* spec,
                        RecordValues values);

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

// Registers class Tag in `m`, its __module__ set to `module_name` (the
// Python module that re-exports it).
template <typename Tag>
void BindRecord(pybind11::module_& m, const char* module_name) {
  namespace py = pybind11;
  const RecordSpec& spec = Tag::Spec();
  py::class_<Record<Tag>> cls(m, spec.name, spec.doc);
  cls.attr("__module__") = module_name;
  py::tuple names(spec.fields.size());
  for (size_t i = 0; i < spec.fields.size(); ++i) {
    const FieldSpec& f = spec.fields[i];
    names[i] = py::str(f.name);
    cls.def_property_readonly(
        f.name, [i](const Record<Tag>& r) -> py::object { return r.values[i]; },
        f.doc);
  }
  cls.attr("_fields") = names;
  RegisterRecordType(
      reinterpret_cast<PyTypeObject*>(cls.ptr()), &spec,
      [](py::handle h) { return h.cast<const Record<Tag>&>().values; });
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
  cls.def(py::pickle([](const Record<Tag>& r) { return r.values; },
                     [](const py::tuple& values) {
                       if (values.size() != Tag::Spec().fields.size()) {
                         throw std::runtime_error("bad pickled record");
                       }
                       return Record<Tag>{values};
                     }));
}

}  // namespace hlolayout::pyext

#endif  // HLOLAYOUT_PYTHON_HLOLAYOUT_RECORD_H_
