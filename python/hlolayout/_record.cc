// python/hlolayout/_record.cc: to_dict(), repr() and the deprecated
// dict access of the result records (_record.h).
#include "_record.h"

#include <pybind11/pybind11.h>

#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/strip.h"
#include "hlolayout/draw/svg.h"

namespace py = pybind11;

namespace hlolayout::pyext {
namespace {

struct RecordType {
  const RecordSpec* spec;
  RecordValues values;
  RecordMaker make;
  RecordHtmlExtra html_extra;
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

// Each bound spec's class maker (PyRecordSink).
std::unordered_map<const RecordSpec*, RecordMaker>& RecordMakers() {
  static auto* makers =
      new std::unordered_map<const RecordSpec*, RecordMaker>();
  return *makers;
}

// A nested record's to_dict().
py::object NestedToDict(py::handle record) {
  auto it = RecordTypes().find(Py_TYPE(record.ptr()));
  if (it == RecordTypes().end()) return record.attr("to_dict")();
  return RecordToDict(*it->second.spec, it->second.values(record));
}

// A field's value in the JSON form: records as dicts, tuples as lists.
py::object PlainJson(py::handle value) {
  if (py::isinstance<py::tuple>(value)) {
    py::list out;
    for (py::handle item : value) out.append(PlainJson(item));
    return std::move(out);
  }
  if (RecordTypes().count(Py_TYPE(value.ptr())) != 0) {
    return NestedToDict(value);
  }
  return py::reinterpret_borrow<py::object>(value);
}

py::object JsonOf(const FieldSpec& f, py::handle value) {
  if (value.is_none()) return py::none();
  switch (f.json) {
    case FieldJson::kIndex:
    case FieldJson::kIndexOmitIfNone:
      return py::str(IndexText(value));
    case FieldJson::kRound6g:
      return py::float_(
          std::stod(absl::StrFormat("%.6g", value.cast<double>())));
    case FieldJson::kFixed4:
      return py::float_(
          std::stod(absl::StrFormat("%.4f", value.cast<double>())));
    case FieldJson::kStringPairs: {
      py::dict out;
      for (py::handle pair : value) {
        out[pair[py::int_(0)]] = PlainJson(pair[py::int_(1)]);
      }
      return std::move(out);
    }
    case FieldJson::kValue:
    case FieldJson::kOmitIfNone:
    case FieldJson::kLeftOut:
      break;
  }
  return PlainJson(value);
}

bool IsPlainScalar(py::handle value) {
  return value.is_none() || py::isinstance<py::int_>(value) ||
         py::isinstance<py::str>(value) || py::isinstance<py::float_>(value);
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
                        RecordValues values, RecordMaker make,
                        RecordHtmlExtra html_extra) {
  RecordTypes()[type] = RecordType{spec, values, make, html_extra};
  RecordMakers()[spec] = make;
}

bool IsRecordsField(const FieldSpec& f) {
  absl::string_view type = f.type;
  absl::ConsumePrefix(&type, "Optional[");
  return absl::ConsumePrefix(&type, "Tuple[") && !type.empty() &&
         absl::ascii_isupper(static_cast<unsigned char>(type[0]));
}

void WarnDeprecatedField(const RecordSpec& spec, size_t i) {
  const FieldSpec& f = spec.fields[i];
  const std::string message =
      absl::StrCat(spec.name, ".", f.deprecated_name, " is now ", spec.name,
                   ".", f.name, " (the old name goes in the next release)");
  if (PyErr_WarnEx(PyExc_DeprecationWarning, message.c_str(), 1) != 0) {
    throw py::error_already_set();
  }
}

void PyRecordSink::Add(py::object value) {
  if (frames_.empty()) {
    result_ = std::move(value);
    has_result_ = true;
    return;
  }
  values_.push_back(std::move(value));
}

namespace {

// The class maker of `spec` (null when none is bound), through a
// direct-mapped cache in front of RecordMakers(): it is looked up for every
// record made, and hashing into the map was 2% of Shape.explain(). Used
// with the GIL held.
RecordMaker FindMaker(const RecordSpec& spec) {
  struct Entry {
    const RecordSpec* spec;
    RecordMaker make;
  };
  static Entry cache[64];
  Entry& e = cache[(reinterpret_cast<uintptr_t>(&spec) >> 4) % 64];
  if (e.spec == &spec) return e.make;
  auto it = RecordMakers().find(&spec);
  if (it == RecordMakers().end()) return nullptr;
  e = Entry{&spec, it->second};
  return it->second;
}

}  // namespace

void PyRecordSink::BeginRecord(const RecordSpec& spec) {
  const RecordMaker make = FindMaker(spec);
  if (make == nullptr) {
    throw std::logic_error(std::string("no Python class for record ") +
                           spec.name);
  }
  frames_.push_back(Frame{&spec, make, values_.size()});
}

py::tuple PyRecordSink::PopTuple(size_t start) {
  py::tuple out(values_.size() - start);
  for (size_t i = start; i < values_.size(); ++i) {
    PyTuple_SET_ITEM(out.ptr(), i - start, values_[i].release().ptr());
  }
  values_.resize(start);
  return out;
}

void PyRecordSink::EndRecord() {
  const Frame frame = frames_.back();
  frames_.pop_back();
  if (frame.spec == nullptr ||
      values_.size() - frame.start != frame.spec->fields.size()) {
    throw std::logic_error("PyRecordSink: unbalanced record");
  }
  Add(frame.make(PopTuple(frame.start)));
}

void PyRecordSink::BeginList() {
  frames_.push_back(Frame{nullptr, nullptr, values_.size()});
}

void PyRecordSink::EndList() {
  const Frame frame = frames_.back();
  frames_.pop_back();
  if (frame.spec != nullptr) {
    throw std::logic_error("PyRecordSink: unbalanced list");
  }
  Add(PopTuple(frame.start));
}

void PyRecordSink::None() { Add(py::none()); }
void PyRecordSink::Bool(bool value) { Add(py::bool_(value)); }
void PyRecordSink::Int(int64_t value) { Add(py::int_(value)); }
void PyRecordSink::Double(double value) { Add(py::float_(value)); }
void PyRecordSink::Absent() {
  Add(py::reinterpret_borrow<py::object>(Py_Ellipsis));
}
void PyRecordSink::String(absl::string_view value) {
  Add(py::str(value.data(), value.size()));
}

py::object PyRecordSink::Take() {
  if (!has_result_ || !frames_.empty()) {
    throw std::logic_error("PyRecordSink: no complete value");
  }
  has_result_ = false;
  return std::move(result_);
}

py::dict RecordToDict(const RecordSpec& spec, const py::tuple& values) {
  const std::vector<py::object>& keys = Keys(spec);
  py::dict out;
  for (size_t i = 0; i < spec.fields.size(); ++i) {
    const FieldSpec& f = spec.fields[i];
    if (f.json == FieldJson::kLeftOut) continue;
    py::handle value = PyTuple_GET_ITEM(values.ptr(), i);
    if (value.ptr() == Py_Ellipsis) continue;  // absent
    if (value.is_none() && OmittedIfNone(f.json)) continue;
    if ((f.json == FieldJson::kValue || f.json == FieldJson::kOmitIfNone) &&
        IsPlainScalar(value)) {
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
    py::object value = Field(values, i);
    std::string text;
    if (IsRecordsField(f) && !value.is_none()) {
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

// A plain value as a cell: strings as they are, other values by repr.
std::string PlainHtml(py::handle value) {
  if (py::isinstance<py::str>(value)) {
    return draw::XmlEscape(value.cast<std::string>());
  }
  return draw::XmlEscape(py::repr(value).cast<std::string>());
}

const RecordType* TypeOf(py::handle record) {
  auto it = RecordTypes().find(Py_TYPE(record.ptr()));
  return it == RecordTypes().end() ? nullptr : &it->second;
}

std::string FieldHtml(const FieldSpec& f, py::handle value);

std::string RecordsHtml(py::handle value, size_t rows) {
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
    if (shown++ == rows) break;
    const RecordType* t = TypeOf(item);
    if (t == nullptr) continue;
    const py::tuple v = t->values(item);
    out += "<tr>";
    for (size_t i = 0; i < spec.fields.size(); ++i) {
      if (!spec.fields[i].in_repr) continue;
      py::object x = Field(v, i);
      absl::StrAppend(&out, "<td>",
                      IsRecordsField(spec.fields[i]) && !x.is_none()
                          ? absl::StrCat("(", py::len(x), " items)")
                          : FieldHtml(spec.fields[i], x),
                      "</td>");
    }
    out += "</tr>";
  }
  out += "</table>";
  if (n > rows) absl::StrAppend(&out, "... ", n - rows, " more");
  return out;
}

// A field's value as HTML.
std::string FieldHtml(const FieldSpec& f, py::handle value) {
  constexpr size_t kRows = 50;
  if (value.is_none()) return "<i>None</i>";
  if (f.json == FieldJson::kIndex || f.json == FieldJson::kIndexOmitIfNone) {
    return draw::XmlEscape(IndexText(value));
  }
  if (const RecordType* type = TypeOf(value)) {
    return RecordHtml(*type->spec, type->values(value));
  }
  if (IsRecordsField(f)) return RecordsHtml(value, kRows);
  if (py::isinstance<py::tuple>(value)) {
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
  return PlainHtml(value);
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
                    FieldHtml(f, Field(values, i)), "</td></tr>");
  }
  out += "</table>";
  for (const auto& entry : RecordTypes()) {
    if (entry.second.spec == &spec && entry.second.html_extra != nullptr) {
      out += entry.second.html_extra(values);
    }
  }
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
