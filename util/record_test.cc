#include "hlolayout/util/record.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlolayout/util/json_writer.h"

namespace hlolayout {
namespace {

const RecordSpec& Inner() {
  static const RecordSpec spec{
      "Inner",
      "A nested record.",
      {
          {"id", "Its number.", "int"},
          {"note", "Or None.", "Optional[str]", FieldJson::kOmitIfNone},
      }};
  return spec;
}

const RecordSpec& Outer() {
  static const RecordSpec spec{
      "Outer",
      "Every form of field.",
      {
          {"name", "A string.", "str"},
          {"count", "Written as 'n'.", "int", FieldJson::kValue, "n"},
          {"index", "A shape index.", "Tuple[int, ...]", FieldJson::kIndex},
          {"maybe_index", "Or None.", "Optional[Tuple[int, ...]]",
           FieldJson::kIndexOmitIfNone},
          {"ratio", "Six digits.", "float", FieldJson::kRound6g},
          {"share", "Four decimals.", "float", FieldJson::kFixed4},
          {"plain", "Shortest.", "float"},
          {"hidden", "Python only.", "Tuple[Inner, ...]", FieldJson::kLeftOut},
          {"inner", "A record.", "Optional[Inner]"},
          {"items", "Records.", "Tuple[Inner, ...]"},
          {"flag", "A bool.", "bool"},
          {"gone", "None and omitted.", "Optional[int]",
           FieldJson::kOmitIfNone},
          {"kept", "None and written.", "Optional[int]"},
      }};
  return spec;
}

void EmitInner(RecordSink& s, int64_t id, const char* note) {
  s.BeginRecord(Inner());
  s.Int(id);
  s.OptionalString(note != nullptr, note != nullptr ? note : "");
  s.EndRecord();
}

TEST(RecordTest, EveryFormOfFieldAsJson) {
  std::string json;
  RecordJsonWriter w(&json);
  w.BeginRecord(Outer());
  w.String("a \"q\"");
  w.Int(7);
  w.IntList({1, 0});
  w.None();
  w.Double(2.0 / 3.0);
  w.Double(0.5);
  w.Double(0.1);
  w.BeginList();  // left out, with a nested record inside
  EmitInner(w, 9, "x");
  w.EndList();
  EmitInner(w, 1, nullptr);
  w.BeginList();
  EmitInner(w, 2, "two");
  EmitInner(w, 3, nullptr);
  w.EndList();
  w.Bool(true);
  w.None();
  w.None();
  w.EndRecord();
  EXPECT_TRUE(w.done());
  EXPECT_EQ(json,
            "{\"name\": \"a \\\"q\\\"\", \"n\": 7, \"index\": \"{1,0}\", "
            "\"ratio\": 0.666667, \"share\": 0.5000, \"plain\": 0.1, "
            "\"inner\": {\"id\": 1}, \"items\": [{\"id\": 2, \"note\": "
            "\"two\"}, {\"id\": 3}], \"flag\": true, \"kept\": null}");
}

TEST(RecordTest, EmptyIndexAndEmptyListAndTopLevelList) {
  std::string json;
  RecordJsonWriter w(&json);
  w.BeginList();
  w.BeginRecord(Outer());
  w.String("");
  w.Int(0);
  w.IntList({});
  w.IntList({4});
  w.Double(1e20);
  w.Double(0);
  w.Double(-2.5);
  w.None();
  w.None();
  w.BeginList();
  w.EndList();
  w.Bool(false);
  w.Int(3);
  w.Int(-1);
  w.EndRecord();
  EmitInner(w, 5, nullptr);
  w.EndList();
  EXPECT_TRUE(w.done());
  EXPECT_EQ(json,
            "[{\"name\": \"\", \"n\": 0, \"index\": \"{}\", \"maybe_index\": "
            "\"{4}\", \"ratio\": 1e+20, \"share\": 0.0000, \"plain\": -2.5, "
            "\"inner\": null, \"items\": [], \"flag\": false, \"gone\": 3, "
            "\"kept\": -1}, {\"id\": 5}]");
}

TEST(RecordTest, ItemsOnLinesOfTheirOwn) {
  static const RecordSpec spec{
      "Table",
      "Rows on lines.",
      {
          {"rows", "Each on a line.", "Tuple[Inner, ...]", FieldJson::kValue,
           nullptr, false, nullptr, "  "},
          {"empty", "None on a line.", "Tuple[int, ...]", FieldJson::kValue,
           nullptr, false, nullptr, "  "},
      }};
  std::string json;
  RecordJsonWriter w(&json);
  w.BeginRecord(spec);
  w.BeginList();
  EmitInner(w, 1, nullptr);
  EmitInner(w, 2, nullptr);
  w.EndList();
  w.IntList({});
  w.EndRecord();
  EXPECT_EQ(json,
            "{\"rows\": [\n  {\"id\": 1},\n  {\"id\": 2}\n], \"empty\": []}");
}

TEST(RecordTest, KeysOnLinesAndListsClosedAfterTheLastItem) {
  static const RecordSpec spec{
      "Module",
      "Keys on lines of their own.",
      {
          {"name", "First, on the record's line.", "str", FieldJson::kValue,
           nullptr, false, nullptr, nullptr, "  "},
          {"rows", "Items on lines, closed after the last.",
           "Tuple[Inner, ...]", FieldJson::kValue, nullptr, false, nullptr,
           "    ", "  ", true},
          {"empty", "No items.", "Tuple[int, ...]", FieldJson::kValue, nullptr,
           false, nullptr, "    ", "  ", true},
          {"gone", "Omitted, with its line.", "Optional[int]",
           FieldJson::kOmitIfNone, nullptr, false, nullptr, nullptr, "  "},
      }};
  std::string json;
  RecordJsonWriter w(&json);
  w.BeginRecord(spec);
  w.String("m");
  w.BeginList();
  EmitInner(w, 1, nullptr);
  EmitInner(w, 2, nullptr);
  w.EndList();
  w.IntList({});
  w.None();
  w.EndRecord();
  EXPECT_EQ(json,
            "{\"name\": \"m\",\n  \"rows\": [\n    {\"id\": 1},\n    "
            "{\"id\": 2}],\n  \"empty\": []}");
}

const RecordSpec& Alias() {
  static const RecordSpec spec{
      "Alias",
      "A map and an absent value.",
      {
          {"fields", "Pairs.", "Tuple[Tuple[str, str], ...]",
           FieldJson::kStringPairs},
          {"maybe", "Absent or null.", "Optional[str]"},
          {"last", "After it.", "int"},
      }};
  return spec;
}

void EmitAlias(RecordSink& s, bool absent) {
  s.BeginRecord(Alias());
  s.BeginList();
  for (const char* k : {"a", "b\""}) {
    s.BeginList();
    s.String(k);
    s.String("v");
    s.EndList();
  }
  s.EndList();
  if (absent) {
    s.Absent();
  } else {
    s.None();
  }
  s.Int(1);
  s.EndRecord();
}

TEST(RecordTest, StringPairsAsAnObjectAndAbsentValues) {
  std::string json;
  RecordJsonWriter w(&json);
  w.BeginList();
  EmitAlias(w, true);
  EmitAlias(w, false);
  w.EndList();
  EXPECT_TRUE(w.done());
  EXPECT_EQ(json,
            "[{\"fields\": {\"a\": \"v\", \"b\\\"\": \"v\"}, \"last\": 1}, "
            "{\"fields\": {\"a\": \"v\", \"b\\\"\": \"v\"}, \"maybe\": null, "
            "\"last\": 1}]");
  std::string indented;
  RecordJsonWriter i(&indented, RecordJsonWriter::Style::kIndented);
  EmitAlias(i, true);
  JsonWriter pretty(/*pretty=*/true);
  pretty.BeginObject().Key("fields").BeginObject();
  pretty.Key("a").String("v").Key("b\"").String("v").EndObject();
  pretty.Key("last").Int(1).EndObject();
  EXPECT_EQ(indented, pretty.str());
  std::string empty;
  RecordJsonWriter e(&empty, RecordJsonWriter::Style::kIndented);
  e.BeginRecord(Alias());
  e.BeginList();
  e.EndList();
  e.None();
  e.Int(2);
  e.EndRecord();
  EXPECT_EQ(empty,
            "{\n  \"fields\": {},\n  \"maybe\": null,\n  \"last\": 2\n}");
}

// Pairs whose values are lists (a LinearLayout's bases by in-dim): indented
// as JsonWriter's object of arrays, the pair adding no level.
TEST(RecordTest, IndentedStringPairsOfLists) {
  static const RecordSpec spec{
      "Bases",
      "Lists by name.",
      {
          {"bases", "By in-dim.", "Tuple[Tuple[str, Tuple[int, ...]], ...]",
           FieldJson::kStringPairs},
      }};
  std::string json;
  RecordJsonWriter w(&json, RecordJsonWriter::Style::kIndented);
  w.BeginRecord(spec);
  w.BeginList();
  for (const char* k : {"register", "lane"}) {
    w.BeginList();
    w.String(k);
    w.BeginList();
    w.IntList({0, 1});
    w.EndList();
    w.EndList();
  }
  w.EndList();
  w.EndRecord();
  EXPECT_TRUE(w.done());
  JsonWriter pretty(/*pretty=*/true);
  pretty.BeginObject().Key("bases").BeginObject();
  for (const char* k : {"register", "lane"}) {
    pretty.Key(k).BeginArray().IntArray({0, 1}).EndArray();
  }
  pretty.EndObject().EndObject();
  EXPECT_EQ(json, pretty.str());
}

TEST(RecordTest, IndentedAsJsonWritersPrettyForm) {
  std::string json;
  RecordJsonWriter w(&json, RecordJsonWriter::Style::kIndented);
  w.BeginRecord(Outer());
  w.String("a");
  w.Int(7);
  w.IntList({1, 0});  // a shape index stays on its line
  w.None();
  w.Double(0.5);
  w.Double(0.5);
  w.Double(0.5);
  w.BeginList();  // left out
  EmitInner(w, 9, "x");
  w.EndList();
  EmitInner(w, 1, nullptr);
  w.BeginList();
  EmitInner(w, 2, "two");
  w.EndList();
  w.Bool(true);
  w.None();
  w.None();
  w.EndRecord();
  EXPECT_TRUE(w.done());
  JsonWriter pretty(/*pretty=*/true);
  pretty.BeginObject();
  pretty.Key("name").String("a");
  pretty.Key("n").Int(7);
  pretty.Key("index").String("{1,0}");
  pretty.Key("ratio").String("0.5").Key("share").String("0.5000");
  pretty.Key("plain").Double(0.5);
  pretty.Key("inner").BeginObject().Key("id").Int(1).EndObject();
  pretty.Key("items").BeginArray().BeginObject();
  pretty.Key("id").Int(2).Key("note").String("two").EndObject().EndArray();
  pretty.Key("flag").Bool(true).Key("kept").Null().EndObject();
  std::string want = pretty.str();
  // JsonWriter quotes the two strings the record writes as numbers.
  want.replace(want.find("\"0.5\""), 5, "0.5");
  want.replace(want.find("\"0.5000\""), 8, "0.5000");
  EXPECT_EQ(json, want);
  EXPECT_THAT(json, ::testing::HasSubstr("{\n  \"name\": \"a\",\n  \"n\": 7,"));
}

TEST(RecordTest, IndentedEmptyRecordAndLists) {
  static const RecordSpec spec{
      "Lists",
      "Lists, one empty.",
      {
          {"full", "Ints.", "Tuple[int, ...]"},
          {"empty", "None.", "Tuple[int, ...]", FieldJson::kValue, nullptr,
           false, nullptr, "  "},
      }};
  static const RecordSpec none{"None", "No fields.", {}};
  std::string json;
  RecordJsonWriter w(&json, RecordJsonWriter::Style::kIndented);
  w.BeginList();
  w.BeginRecord(spec);
  w.IntList({3, 4});
  w.IntList({});
  w.EndRecord();
  w.BeginRecord(none);
  w.EndRecord();
  w.EndList();
  EXPECT_EQ(json,
            "[\n  {\n    \"full\": [\n      3,\n      4\n    ],\n    "
            "\"empty\": []\n  },\n  {}\n]");
}

TEST(RecordTest, WrongNumberOfValuesIsABugOfTheEmitter) {
  std::string json;
  RecordJsonWriter w(&json);
  w.BeginRecord(Inner());
  w.Int(1);
  EXPECT_DEATH(w.EndRecord(), "Inner: 1 values for 2 fields");
  RecordJsonWriter w2(&json);
  w2.BeginRecord(Inner());
  w2.Int(1);
  w2.None();
  EXPECT_DEATH(w2.Int(3), "Inner: more values than fields");
}

}  // namespace
}  // namespace hlolayout
