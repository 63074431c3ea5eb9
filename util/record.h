// util/record.h: the library's answers as records, each described once by a
// field list (RecordSpec) from which every face follows: the CLI's `--json`
// (RecordJsonWriter), Python's result classes with their attributes,
// to_dict() and repr() (python/hlolayout/_record.h), and the .pyi stubs
// (each field's Python type; `python -m hlolayout._stubgen` writes them and a
// test fails when a stub disagrees).
//
// An answer is not built as a tree: the library walks its result once and
// emits each record's fields, in the spec's order, to a RecordSink. The JSON
// writer streams them; Python builds its objects from them.
//
//   const RecordSpec kLiveValue{"LiveValue", "A value live at a peak.", {
//       {"instruction", "The defining instruction.", "str"},
//       {"index", "The shape index.", "Tuple[int, ...]", FieldJson::kIndex},
//       {"op_name", "Its op_name, or None.", "Optional[str]",
//        FieldJson::kOmitIfNone},
//   }};
//   std::string json;
//   RecordJsonWriter w(&json);
//   w.BeginRecord(kLiveValue);
//   w.String("add.3");
//   w.BeginList(); w.Int(1); w.EndList();   // the shape index {1}
//   w.None();                               // left out: omit if None
//   w.EndRecord();
//   json == "{\"instruction\": \"add.3\", \"index\": \"{1}\"}"
//
// Preconditions (CHECKed: they are the emitting code's bugs, not the
// input's): a record gets exactly one value per field; lists and records are
// balanced.
#ifndef HLOLAYOUT_UTIL_RECORD_H_
#define HLOLAYOUT_UTIL_RECORD_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace hlolayout {

// How a field appears in the JSON form (the CLI's --json and to_dict()).
enum class FieldJson : uint8_t {
  kValue,       // as is: int, str, bool, float, null, a list, a record
  kOmitIfNone,  // as is, and the key is left out when the value is None
  kIndex,       // a shape index, a list of ints, written "{1,0}"
  kIndexOmitIfNone,
  kRound6g,  // a float written with 6 significant digits (%.6g)
  kFixed4,   // a float written with 4 decimals (%.4f)
  kLeftOut,  // not in the JSON form (Python only)
  // A list of (key, value) string pairs, written as a JSON object
  // {"key": "value", ...}; each pair is emitted as a list of two strings.
  kStringPairs,
};

bool OmittedIfNone(FieldJson json);

struct FieldSpec {
  const char* name;  // the Python attribute
  const char* doc;
  // Its Python type as the .pyi stubs write it: "int", "Optional[str]",
  // "Tuple[LiveValue, ...]"; a record field names the record's class.
  const char* type;
  FieldJson json = FieldJson::kValue;
  const char* json_name = nullptr;  // the JSON key when it is not `name`
  bool in_repr = false;             // shown by Python's repr()
  // An earlier name of the field, still answered in Python with a
  // DeprecationWarning; null for none.
  const char* deprecated_name = nullptr;
  // A list field whose JSON puts each item on a line of its own after this
  // indent ("  "), and its closing bracket on a line of its own; null: one
  // line.
  const char* item_indent = nullptr;
  // A field whose key starts a line of its own after this indent (",\n  "
  // before it instead of ", "); null: on the record's line. Not used
  // kIndented.
  const char* key_indent = nullptr;
  // With item_indent: the closing bracket right after the last item
  // ("[\n  1,\n  2]") instead of on a line of its own.
  bool close_after_last_item = false;

  const char* key() const { return json_name != nullptr ? json_name : name; }
};

struct RecordSpec {
  const char* name;  // the Python class name
  const char* doc;
  std::vector<FieldSpec> fields;
};

// Receives a record's fields in order. A list field is BeginList, its items,
// EndList; a record field is BeginRecord, its fields, EndRecord.
class RecordSink {
 public:
  virtual ~RecordSink() = default;
  virtual void BeginRecord(const RecordSpec& spec) = 0;
  virtual void EndRecord() = 0;
  virtual void BeginList() = 0;
  virtual void EndList() = 0;
  virtual void None() = 0;
  virtual void Bool(bool value) = 0;
  virtual void Int(int64_t value) = 0;
  virtual void Double(double value) = 0;
  virtual void String(absl::string_view value) = 0;
  // A value that is not there: the JSON leaves its key out, Python reads
  // None. For a field that is null in some records and absent in others;
  // by default None().
  virtual void Absent() { None(); }

  // Conveniences over the calls above.
  void OptionalInt(bool present, int64_t value);
  void OptionalString(bool present, absl::string_view value);
  void IntList(const std::vector<int64_t>& values);
};

// Writes the records as JSON on one line ({"k": v, "l": [1, 2]}), keys and
// forms from the specs, appending to `out`. Constructed kIndented, every
// field and list item is on a line of its own, indented two spaces per
// level, as util/json_writer.h's pretty form (`hlolayout explain --json`):
//   {
//     "k": v,
//     "l": [
//       1
//     ],
//     "e": []
//   }
// (a shape index stays "{1,0}"; item_indent is not used there).
class RecordJsonWriter : public RecordSink {
 public:
  enum class Style : uint8_t { kOneLine, kIndented };
  explicit RecordJsonWriter(std::string* out, Style style = Style::kOneLine)
      : out_(out), indented_(style == Style::kIndented) {}
  // `root` says how the top-level value is written, as a field's FieldJson
  // says of its value: kStringPairs makes a top-level list of (name, value)
  // pairs one object, {"a": 1, "b": 2}.
  RecordJsonWriter(std::string* out, Style style, FieldJson root)
      : out_(out), indented_(style == Style::kIndented), root_(root) {}

  void BeginRecord(const RecordSpec& spec) override;
  void EndRecord() override;
  void BeginList() override;
  void EndList() override;
  void None() override;
  void Bool(bool value) override;
  void Int(int64_t value) override;
  void Double(double value) override;
  void String(absl::string_view value) override;
  void Absent() override;

  // True when every record and list begun has ended.
  bool done() const { return frames_.empty(); }

 private:
  struct Frame {
    const RecordSpec* spec;  // null: a list
    size_t field = 0;        // the next field (a record) or item (a list)
    bool wrote = false;      // something written inside
    int skip_depth = 0;      // > 0: inside a value left out of the JSON
    bool index = false;      // a list written as a shape index "{1,0}"
    const char* item_indent = nullptr;   // FieldSpec::item_indent
    bool close_after_last_item = false;  // FieldSpec's
    bool pairs = false;  // kStringPairs: an object of the pairs below
    bool pair = false;   // one of them: its key, then its value
  };
  // Starts the next value: writes its key or separator. False when the
  // value is left out of the JSON (kLeftOut, or None omitted).
  bool BeginValue(bool is_none);
  void EndValue();
  const FieldSpec* CurrentField() const;
  // The nesting depth: the frames open, a kStringPairs pair not counted
  // (its key and value are on one line, as an object's).
  size_t Depth() const;
  // kIndented: a new line indented for the current depth.
  void NewLine(size_t depth);
  // Closes the innermost record or list with `bracket`.
  void Close(const char* bracket);

  std::string* out_;
  bool indented_ = false;
  std::vector<Frame> frames_;
  int skipping_ = 0;  // nesting depth of a value being left out
  FieldJson root_ = FieldJson::kValue;  // how the top-level value is written
};

}  // namespace hlolayout

#endif  // HLOLAYOUT_UTIL_RECORD_H_
