// util/fields.h: an answer type's one field list, the field hook, and the
// generic visitors every face of an answer is made by.
//
// A type lists its fields once, in one friend function template found by
// argument-dependent lookup, as Abseil's AbslStringify and AbslHashValue do:
// each field's name, value and (for Python) doc travel together. Every
// writer is a visitor of that one list: the JSON writer (AnswerJson), the
// Python binding (python/hlolayout/_answer.h: attributes, to_dict(), repr)
// and the .pyi stub generator (each field's Python type follows from its
// C++ type), so a name and its value cannot part.
//
//   struct Place {
//     std::vector<int64_t> index;
//     int64_t offset = 0;
//     Omit<int64_t> bank;  // left out when absent
//
//     template <typename Fields>
//     friend void HlolayoutFields(Fields& f, const Place& p) {
//       f.Type("Place", "Where one element lives.");
//       f("index", p.index, "The element's index.");
//       f("offset", p.offset, "Its byte offset.", FieldOptions().Repr());
//       f("bank", p.bank, "The DRAM bank, or None.");
//     }
//   };
//   AnswerJson(Place{{2, 3}, 40, {}}) ==
//       "{\"index\": [2, 3], \"offset\": 40}"
//   SpecOf<Place>().fields[2].type == std::string("Optional[int]")
//
// The hook calls f.Type(name, doc) once, then f(name, value[, doc[,
// options]]) once per field, always in the same order and for every field
// (a field that does not apply is an empty Omit or optional, never a
// missing call): SpecOf<T>() visits a default-constructed T to learn the
// list. Fields shared by several types are a function template the hooks
// call, never a macro.
//
// Values: bool, integers, floating point, strings; std::optional<V> (null
// when empty), Omit<V> (left out of the JSON when empty, None in Python),
// std::vector<V> and std::array<V, N> (lists; in Python a tuple, of N
// items for an array), std::pair<A, B> (a list of two), std::variant<V...> (the
// value held), std::monostate (always None: a field kept for Python's
// sake, its type "None"), and any type with a hook (a record).
#ifndef HLOLAYOUT_UTIL_FIELDS_H_
#define HLOLAYOUT_UTIL_FIELDS_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <variant>
#include <vector>

#include "absl/strings/string_view.h"
#include "hlolayout/util/record.h"

namespace hlolayout {

// Omit<V>: a value that is absent, not null, when empty: the JSON leaves
// its key out, Python reads None (RecordSink::Absent).
// `omit = std::nullopt` (or reset()) makes it absent, also for an
// Omit<std::optional<V>>; `omit = std::optional<V>()` makes that one
// present and null.
template <typename V>
class Omit : public std::optional<V> {
 public:
  using std::optional<V>::optional;
  template <typename U = V,
            typename = std::enable_if_t<
                std::is_constructible_v<V, U&&> &&
                !std::is_same_v<std::decay_t<U>, std::nullopt_t> &&
                !std::is_same_v<std::decay_t<U>, Omit>>>
  Omit& operator=(U&& value) {
    std::optional<V>::operator=(std::forward<U>(value));
    return *this;
  }
};

// How a field appears beyond its name, value and doc; chained:
// FieldOptions().Json(FieldJson::kIndex).Repr().
struct FieldOptions {
  FieldJson json = FieldJson::kValue;
  const char* json_name = nullptr;
  bool in_repr = false;
  const char* deprecated_name = nullptr;
  const char* item_indent = nullptr;
  const char* key_indent = nullptr;
  bool close_after_last_item = false;
  bool camel_key = false;

  constexpr FieldOptions Json(FieldJson form) const {
    FieldOptions o = *this;
    o.json = form;
    return o;
  }
  // The JSON key when it is not the Python attribute's name.
  constexpr FieldOptions Key(const char* name) const {
    FieldOptions o = *this;
    o.json_name = name;
    return o;
  }
  // The JSON key is the name in CamelCase ("memdesc_shape" ->
  // "MemdescShape"): for answers whose JSON keys are all so, one option for
  // the type instead of each key written again.
  constexpr FieldOptions CamelKey() const {
    FieldOptions o = *this;
    o.camel_key = true;
    return o;
  }
  constexpr FieldOptions Repr() const {
    FieldOptions o = *this;
    o.in_repr = true;
    return o;
  }
  constexpr FieldOptions Deprecated(const char* old_name) const {
    FieldOptions o = *this;
    o.deprecated_name = old_name;
    return o;
  }
  constexpr FieldOptions ItemIndent(const char* indent,
                                    bool close_after_last = false) const {
    FieldOptions o = *this;
    o.item_indent = indent;
    o.close_after_last_item = close_after_last;
    return o;
  }
  constexpr FieldOptions KeyIndent(const char* indent) const {
    FieldOptions o = *this;
    o.key_indent = indent;
    return o;
  }
};

namespace fields_internal {

// A visitor that does nothing: HasFields<T> asks whether T's hook exists.
struct NoFields {
  void Type(const char*, const char*) {}
  template <typename V>
  void operator()(const char*, const V&, const char* = nullptr,
                  FieldOptions = {}) {}
};

// A visitor that keeps the type's name only: PythonTypeOf names a field's
// record without making its spec, so that a record may hold itself (a
// tuple's explanation holds its elements' explanations).
struct TypeName {
  const char* name = nullptr;
  void Type(const char* type_name, const char*) { name = type_name; }
  template <typename V>
  void operator()(const char*, const V&, const char* = nullptr,
                  FieldOptions = {}) {}
};

template <typename T, typename = void>
struct HasFields : std::false_type {};
template <typename T>
struct HasFields<T, std::void_t<decltype(HlolayoutFields(
                        std::declval<NoFields&>(), std::declval<const T&>()))>>
    : std::true_type {};

template <typename T>
struct IsOptional : std::false_type {};
template <typename V>
struct IsOptional<std::optional<V>> : std::true_type {};

template <typename T>
struct IsOmit : std::false_type {};
template <typename V>
struct IsOmit<Omit<V>> : std::true_type {};

template <typename T>
struct IsList : std::false_type {};
template <typename V, typename A>
struct IsList<std::vector<V, A>> : std::true_type {};
template <typename V, size_t N>
struct IsList<std::array<V, N>> : std::true_type {};

template <typename T>
struct IsArray : std::false_type {};
template <typename V, size_t N>
struct IsArray<std::array<V, N>> : std::true_type {};

template <typename T>
struct IsPair : std::false_type {};
template <typename A, typename B>
struct IsPair<std::pair<A, B>> : std::true_type {};

template <typename T>
struct IsVariant : std::false_type {};
template <typename... V>
struct IsVariant<std::variant<V...>> : std::true_type {};

template <typename V>
constexpr bool kIsString =
    std::is_convertible_v<const V&, absl::string_view> && !IsList<V>::value;

// The spec of T, made once from its hook (SpecOf).
template <typename T>
const RecordSpec* MakeSpec();

// CHECKs that a hook named its type and listed fields.
void CheckSpec(const RecordSpec& spec, const char* cxx_name);

template <typename... V>
std::string UnionOf(std::variant<V...>*);

}  // namespace fields_internal

// SpecOf
//
// T's field list as a RecordSpec (util/record.h): names, docs, options and
// each field's Python type, made once from the hook. The record writers
// (RecordJsonWriter, Python's PyRecordSink and BindRecord) take it.
template <typename T>
const RecordSpec& SpecOf() {
  static_assert(fields_internal::HasFields<T>::value,
                "SpecOf<T>: T has no HlolayoutFields hook");
  static const RecordSpec* const spec = fields_internal::MakeSpec<T>();
  return *spec;
}

// PythonTypeOf
//
// The Python type of a field of C++ type V as the .pyi stubs write it:
// int64_t -> "int", std::optional<std::string> -> "Optional[str]",
// std::vector<Place> -> "Tuple[Place, ...]", std::array<int64_t, 2> ->
// "Tuple[int, int]".
template <typename V>
std::string PythonTypeOf() {
  using namespace fields_internal;  // NOLINT
  if constexpr (std::is_same_v<V, bool>) {
    return "bool";
  } else if constexpr (std::is_same_v<V, std::monostate>) {
    return "None";
  } else if constexpr (std::is_integral_v<V>) {
    return "int";
  } else if constexpr (std::is_floating_point_v<V>) {
    return "float";
  } else if constexpr (kIsString<V>) {
    return "str";
  } else if constexpr (IsOptional<V>::value || IsOmit<V>::value) {
    const std::string inner = PythonTypeOf<typename V::value_type>();
    if (inner.rfind("Optional[", 0) == 0) return inner;
    return "Optional[" + inner + "]";
  } else if constexpr (IsArray<V>::value) {
    std::string out = "Tuple[";
    for (size_t i = 0; i < std::tuple_size<V>::value; ++i) {
      out += (i == 0 ? "" : ", ") + PythonTypeOf<typename V::value_type>();
    }
    return out + "]";
  } else if constexpr (IsList<V>::value) {
    return "Tuple[" + PythonTypeOf<typename V::value_type>() + ", ...]";
  } else if constexpr (IsPair<V>::value) {
    return "Tuple[" + PythonTypeOf<typename V::first_type>() + ", " +
           PythonTypeOf<typename V::second_type>() + "]";
  } else if constexpr (IsVariant<V>::value) {
    return UnionOf(static_cast<V*>(nullptr));
  } else {
    static_assert(HasFields<V>::value,
                  "a field's type is a value, a list, an optional or a type "
                  "with a HlolayoutFields hook");
    TypeName type_name;
    const V value{};
    HlolayoutFields(type_name, value);
    return type_name.name;
  }
}

namespace fields_internal {

template <typename... V>
std::string UnionOf(std::variant<V...>*) {
  std::string out = "Union[";
  bool first = true;
  for (const std::string& t : {PythonTypeOf<V>()...}) {
    out += first ? t : ", " + t;
    first = false;
  }
  return out + "]";
}

}  // namespace fields_internal

// EmitValue
//
// Sends `value` to `sink` as its field list says: a record as BeginRecord,
// its fields, EndRecord.
template <typename V>
void EmitValue(const V& value, RecordSink& sink);

// NamedValuesJson
//
// (name, value) pairs as one JSON object, in their order: for answers whose
// keys are data (a layout's dimension names), not fields.
//   NamedValuesJson(std::vector<std::pair<std::string, int>>{{"lane", 3}})
//       == "{\"lane\": 3}"
template <typename V>
std::string NamedValuesJson(
    const std::vector<std::pair<std::string, V>>& pairs,
    RecordJsonWriter::Style style = RecordJsonWriter::Style::kOneLine) {
  std::string out;
  RecordJsonWriter writer(&out, style, FieldJson::kStringPairs);
  EmitValue(pairs, writer);
  return out;
}

namespace fields_internal {

// Visits a hook, sending each field's value to a RecordSink.
class Emitter {
 public:
  explicit Emitter(RecordSink& sink) : sink_(sink) {}
  void Type(const char*, const char*) {}
  template <typename V>
  void operator()(const char*, const V& value, const char* = nullptr,
                  FieldOptions = {}) {
    EmitValue(value, sink_);
  }

 private:
  RecordSink& sink_;
};

// Visits a hook, collecting the spec.
class SpecBuilder {
 public:
  explicit SpecBuilder(RecordSpec* spec) : spec_(spec) {}
  void Type(const char* name, const char* doc) {
    spec_->name = name;
    spec_->doc = doc;
  }
  template <typename V>
  void operator()(const char* name, const V&, const char* doc = nullptr,
                  FieldOptions o = {}) {
    Add(name, doc, PythonTypeOf<V>(), o);
  }

 private:
  void Add(const char* name, const char* doc, std::string type,
           const FieldOptions& o);
  RecordSpec* spec_;
};

template <typename T>
const RecordSpec* MakeSpec() {
  auto* spec = new RecordSpec{nullptr, nullptr, {}};
  SpecBuilder builder(spec);
  const T value{};
  HlolayoutFields(builder, value);
  CheckSpec(*spec, typeid(T).name());
  return spec;
}

}  // namespace fields_internal

template <typename V>
void EmitValue(const V& value, RecordSink& sink) {
  using namespace fields_internal;  // NOLINT
  if constexpr (std::is_same_v<V, bool>) {
    sink.Bool(value);
  } else if constexpr (std::is_same_v<V, std::monostate>) {
    sink.None();
  } else if constexpr (std::is_integral_v<V>) {
    sink.Int(static_cast<int64_t>(value));
  } else if constexpr (std::is_floating_point_v<V>) {
    sink.Double(static_cast<double>(value));
  } else if constexpr (kIsString<V>) {
    sink.String(absl::string_view(value));
  } else if constexpr (IsOmit<V>::value) {
    if (value.has_value()) {
      EmitValue(*value, sink);
    } else {
      sink.Absent();
    }
  } else if constexpr (IsOptional<V>::value) {
    if (value.has_value()) {
      EmitValue(*value, sink);
    } else {
      sink.None();
    }
  } else if constexpr (IsList<V>::value) {
    sink.BeginList();
    for (const auto& item : value) EmitValue(item, sink);
    sink.EndList();
  } else if constexpr (IsPair<V>::value) {
    sink.BeginList();
    EmitValue(value.first, sink);
    EmitValue(value.second, sink);
    sink.EndList();
  } else if constexpr (IsVariant<V>::value) {
    std::visit([&sink](const auto& held) { EmitValue(held, sink); }, value);
  } else {
    sink.BeginRecord(SpecOf<V>());
    Emitter emitter(sink);
    HlolayoutFields(emitter, value);
    sink.EndRecord();
  }
}

// AnswerJson
//
// `value` as JSON (RecordJsonWriter): one line, or kIndented with every
// field and item on a line of its own, two spaces per level.
template <typename V>
std::string AnswerJson(const V& value, RecordJsonWriter::Style style =
                                           RecordJsonWriter::Style::kOneLine) {
  std::string out;
  RecordJsonWriter writer(&out, style);
  EmitValue(value, writer);
  return out;
}

namespace fields_internal {

// Visits a hook, keeping each field's name and its value as text.
class TextLines {
 public:
  void Type(const char*, const char*) {}
  template <typename V>
  void operator()(const char* name, const V& value, const char* = nullptr,
                  FieldOptions = {}) {
    if constexpr (kIsString<V>) {
      lines.push_back({name, std::string(absl::string_view(value))});
    } else {
      lines.push_back({name, AnswerJson(value)});
    }
  }
  std::vector<std::pair<const char*, std::string>> lines;
};

// `title` then the lines, as FieldListText says.
std::string AlignedLines(
    absl::string_view title, absl::string_view indent,
    const std::vector<std::pair<const char*, std::string>>& lines);

}  // namespace fields_internal

// FieldListText
//
// A record whose text is its field list, as CuTe's print() writes one:
// `title` on a line of its own (none when empty), then each field on a line
// of `indent`, its name, a colon and its value, the values aligned one
// column after the longest name's colon. Strings are written as they are,
// other values as their JSON.
//
//   FieldListText(Core{3, 0}, "Core")   // "Core\n  x: 3\n  y: 0\n"
template <typename T>
std::string FieldListText(const T& value, absl::string_view title,
                          absl::string_view indent = "  ") {
  fields_internal::TextLines lines;
  HlolayoutFields(lines, value);
  return fields_internal::AlignedLines(title, indent, lines.lines);
}

}  // namespace hlolayout

#endif  // HLOLAYOUT_UTIL_FIELDS_H_
