// python/hlolayout/_record.cc: to_dict(), repr() and the deprecated
// dict access of the result records (_record.h).
#include "_record.h"

#include <pybind11/pybind11.h>

#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace py = pybind11;

namespace hlolayout::pyext {
namespace {

struct RecordType {
  const RecordSpec* spec;
  RecordValues values;
};

// Written while the module is imported (with the GIL), read after.
std::unordered_map<PyTypeObject*, RecordType>& RecordTypes() {
  static auto* types = new std::unordered_map<PyTypeObject*, RecordType>();
  return *types;
}

// The JSON keys of a spec, made once (interned Python strings).
const std::vector<py::object>& Keys(const RecordSpec& spec) {
  static auto* keys =
      new std::unordered_map<const RecordSpec*, std::vector<py::object>>();
  auto it = keys->find(&spec);
  if (it != keys->end()) return it->second;
  std::vector<py::object> made;
  for (const FieldSpec& f : spec.fields) {
    made.push_back(py::reinterpret_steal<py::object>(PyUnicode_InternFromString(
        f.json_name != nullptr ? f.json_name : f.name)));
  }
  return keys->emplace(&spec, std::move(made)).first->second;
}

// A nested record's to_dict().
py::object NestedToDict(py::handle record) {
  auto it = RecordTypes().find(Py_TYPE(record.ptr()));
  if (it == RecordTypes().end()) return record.attr("to_dict")();
  return RecordToDict(*it->second.spec, it->second.values(record));
}

py::object JsonOf(const FieldSpec& f, py::handle value) {
  switch (f.json) {
    case Json::kIndexText:
    case Json::kIndexTextOmitIfNone:
      if (value.is_none()) return py::none();
      return py::str(IndexText(value));
    case Json::kRecord:
    case Json::kRecordOmitIfNone:
      if (value.is_none()) return py::none();
      return NestedToDict(value);
    case Json::kRecords:
    case Json::kRecordsOmitIfNone: {
      if (value.is_none()) return py::none();
      py::list out;
      for (py::handle item : value) out.append(NestedToDict(item));
      return std::move(out);
    }
    case Json::kList: {
      if (value.is_none()) return py::none();
      py::list out;
      for (py::handle item : value) out.append(item);
      return std::move(out);
    }
    case Json::kRound6g:
      if (value.is_none()) return py::none();
      return py::float_(
          std::stod(absl::StrFormat("%.6g", value.cast<double>())));
    case Json::kFixed4:
      if (value.is_none()) return py::none();
      return py::float_(
          std::stod(absl::StrFormat("%.4f", value.cast<double>())));
    case Json::kValue:
    case Json::kOmitIfNone:
    case Json::kLeftOut:
      break;
  }
  return py::reinterpret_borrow<py::object>(value);
}

bool OmitIfNone(Json json) {
  return json == Json::kOmitIfNone || json == Json::kIndexTextOmitIfNone ||
         json == Json::kRecordOmitIfNone || json == Json::kRecordsOmitIfNone;
}

bool IsRecords(Json json) {
  return json == Json::kRecords || json == Json::kRecordsOmitIfNone;
}

}  // namespace

std::string IndexText(py::handle index) {
  std::string out = "{";
  bool first = true;
  for (py::handle i : index) {
    absl::StrAppend(&out, first ? "" : ",", i.cast<int64_t>());
    first = false;
  }
  return out + "}";
}

void RegisterRecordType(PyTypeObject* type, const RecordSpec* spec,
                        RecordValues values) {
  RecordTypes()[type] = RecordType{spec, values};
}

py::dict RecordToDict(const RecordSpec& spec, const py::tuple& values) {
  const std::vector<py::object>& keys = Keys(spec);
  py::dict out;
  for (size_t i = 0; i < spec.fields.size(); ++i) {
    const FieldSpec& f = spec.fields[i];
    if (f.json == Json::kLeftOut) continue;
    py::handle value = PyTuple_GET_ITEM(values.ptr(), i);
    if (value.is_none() && OmitIfNone(f.json)) continue;
    if (f.json == Json::kValue || f.json == Json::kOmitIfNone) {
      PyDict_SetItem(out.ptr(), keys[i].ptr(), value.ptr());
    } else {
      out[keys[i]] = JsonOf(f, value);
    }
  }
  return out;
}

std::string RecordRepr(const RecordSpec& spec, const py::tuple& values) {
  std::string out = absl::StrCat(spec.name, "(");
  bool first = true;
  for (size_t i = 0; i < spec.fields.size(); ++i) {
    const FieldSpec& f = spec.fields[i];
    if (!f.in_repr) continue;
    py::handle value = values[i];
    std::string text;
    if (IsRecords(f.json) && !value.is_none()) {
      text = absl::StrCat("(", py::len(value), " items)");
    } else {
      text = py::repr(value).cast<std::string>();
    }
    absl::StrAppend(&out, first ? "" : ", ", f.name, "=", text);
    first = false;
  }
  return out + ")";
}

py::object DeprecatedItem(const RecordSpec& spec, const py::tuple& values,
                          const py::str& key) {
  const std::string message = absl::StrCat(
      spec.name, "[", py::repr(key).cast<std::string>(),
      "]: the results are objects now; use the attribute or to_dict()[key] "
      "(dict access goes in the next release)");
  if (PyErr_WarnEx(PyExc_DeprecationWarning, message.c_str(), 1) != 0) {
    throw py::error_already_set();
  }
  py::dict d = RecordToDict(spec, values);
  if (!d.contains(key)) throw py::key_error(key.cast<std::string>());
  return d[key];
}

}  // namespace hlolayout::pyext
