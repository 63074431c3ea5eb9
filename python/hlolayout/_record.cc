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

namespace {

std::string Escape(absl::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

// A plain value as a cell: strings as they are, other values by repr.
std::string PlainHtml(py::handle value) {
  if (py::isinstance<py::str>(value)) {
    return Escape(value.cast<std::string>());
  }
  return Escape(py::repr(value).cast<std::string>());
}

const RecordType* TypeOf(py::handle record) {
  auto it = RecordTypes().find(Py_TYPE(record.ptr()));
  return it == RecordTypes().end() ? nullptr : &it->second;
}

// A field's value as HTML.
std::string FieldHtml(const FieldSpec& f, py::handle value) {
  constexpr size_t kRows = 50;
  if (value.is_none()) return "<i>None</i>";
  switch (f.json) {
    case Json::kIndexText:
    case Json::kIndexTextOmitIfNone:
      return Escape(IndexText(value));
    case Json::kRecord:
    case Json::kRecordOmitIfNone: {
      const RecordType* type = TypeOf(value);
      if (type == nullptr) return PlainHtml(value);
      return RecordHtml(*type->spec, type->values(value));
    }
    case Json::kRecords:
    case Json::kRecordsOmitIfNone: {
      const size_t n = py::len(value);
      if (n == 0) return "(none)";
      const RecordType* type = TypeOf(value[py::int_(0)]);
      if (type == nullptr) return PlainHtml(value);
      const RecordSpec& spec = *type->spec;
      std::string out = "<table><tr>";
      for (const FieldSpec& item : spec.fields) {
        if (item.in_repr) absl::StrAppend(&out, "<th>", item.name, "</th>");
      }
      out += "</tr>";
      size_t shown = 0;
      for (py::handle item : value) {
        if (shown++ == kRows) break;
        const RecordType* t = TypeOf(item);
        if (t == nullptr) continue;
        const py::tuple v = t->values(item);
        out += "<tr>";
        for (size_t i = 0; i < spec.fields.size(); ++i) {
          if (!spec.fields[i].in_repr) continue;
          py::handle x = v[i];
          absl::StrAppend(&out, "<td>",
                          IsRecords(spec.fields[i].json) && !x.is_none()
                              ? absl::StrCat("(", py::len(x), " items)")
                              : FieldHtml(spec.fields[i], x),
                          "</td>");
        }
        out += "</tr>";
      }
      out += "</table>";
      if (n > kRows) absl::StrAppend(&out, "... ", n - kRows, " more");
      return out;
    }
    case Json::kList: {
      std::string out;
      size_t shown = 0;
      for (py::handle item : value) {
        if (shown == kRows) {
          absl::StrAppend(&out, ", ... ", py::len(value) - kRows, " more");
          break;
        }
        absl::StrAppend(&out, shown++ == 0 ? "" : "<br>", PlainHtml(item));
      }
      return out;
    }
    default:
      return PlainHtml(value);
  }
}

}  // namespace

std::string RecordHtml(const RecordSpec& spec, const py::tuple& values) {
  std::string out = absl::StrCat(
      "<div class=\"hlolayout-record\"><table><caption style=\"text-align:"
      "left\"><b>",
      spec.name, "</b></caption>");
  for (size_t i = 0; i < spec.fields.size(); ++i) {
    const FieldSpec& f = spec.fields[i];
    absl::StrAppend(&out,
                    "<tr><th style=\"text-align:left;vertical-align:"
                    "top\">",
                    f.name, "</th><td style=\"text-align:left\">",
                    FieldHtml(f, values[i]), "</td></tr>");
  }
  out += "</table>";
  if (spec.html_extra != nullptr) out += spec.html_extra(values);
  return out + "</div>";
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
