#include "hlolayout/util/fields.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "gtest/gtest.h"
#include "hlolayout/util/record.h"

namespace hlolayout {
namespace {

struct Core {
  int64_t x = 0;
  int64_t y = 0;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const Core& c) {
    f.Type("Core", "A core.");
    f("x", c.x, "Its column.");
    f("y", c.y, "Its row.");
  }
};

struct Place {
  std::vector<int64_t> index;
  int64_t offset = 0;
  Omit<int64_t> bank;
  std::optional<Core> core;
  Omit<std::optional<std::string>> note;
  std::vector<Core> cores;
  std::array<int64_t, 2> in_page{};
  std::pair<std::string, double> ratio;
  bool tiled = false;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const Place& p) {
    f.Type("Place", "Where one element lives.");
    f("index", p.index, "The element's index.",
      FieldOptions().Json(FieldJson::kIndex));
    f("offset", p.offset, "Its offset.", FieldOptions().Repr());
    f("bank", p.bank, "The bank, or None.");
    f("core", p.core, "The core, or None.");
    f("note", p.note);
    f("cores", p.cores, "Every core.");
    f("in_page", p.in_page);
    f("ratio", p.ratio, "A name and a ratio.");
    f("tiled", p.tiled, "Tiled.", FieldOptions().Key("is_tiled"));
  }
};

struct Other {
  std::string kind = "other";

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const Other& o) {
    f.Type("Other", "Another answer.");
    f("kind", o.kind);
  }
};

TEST(Fields, JsonFollowsTheHook) {
  Place p;
  p.index = {1, 0};
  p.offset = 40;
  p.core = Core{3, 0};
  p.cores = {{1, 2}};
  p.in_page = {2, 5};
  p.ratio = {"a", 0.5};
  EXPECT_EQ(AnswerJson(p),
            "{\"index\": \"{1,0}\", \"offset\": 40, \"core\": {\"x\": 3, "
            "\"y\": 0}, \"cores\": [{\"x\": 1, \"y\": 2}], \"in_page\": [2, "
            "5], \"ratio\": [\"a\", 0.5], \"is_tiled\": false}");
}

// Keys in CamelCase from the names, one option for the whole type.
struct Twin {
  std::string triton = "t";
  std::vector<int64_t> memdesc_shape = {8, 64};
  Omit<std::string> layout_elements;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const Twin& t) {
    f.Type("Twin", "Keys in CamelCase.");
    const FieldOptions camel = FieldOptions().CamelKey();
    f("triton", t.triton, "", camel);
    f("memdesc_shape", t.memdesc_shape, "", camel);
    f("layout_elements", t.layout_elements, "", camel);
  }
};

TEST(Fields, CamelKeyIsTheNameInCamelCase) {
  Twin t;
  EXPECT_EQ(AnswerJson(t), "{\"Triton\": \"t\", \"MemdescShape\": [8, 64]}");
  t.layout_elements = "(2,4):(1,2)";
  EXPECT_EQ(AnswerJson(t),
            "{\"Triton\": \"t\", \"MemdescShape\": [8, 64], "
            "\"LayoutElements\": \"(2,4):(1,2)\"}");
  // Python's attribute keeps the name.
  EXPECT_STREQ(SpecOf<Twin>().fields[1].name, "memdesc_shape");
  EXPECT_STREQ(SpecOf<Twin>().fields[1].key(), "MemdescShape");
}

TEST(Fields, OmitIsAbsentOptionalIsNull) {
  Place p;
  p.bank = 7;
  p.note = std::optional<std::string>();  // present, null
  const std::string json = AnswerJson(p);
  EXPECT_NE(json.find("\"bank\": 7, \"core\": null, \"note\": null"),
            std::string::npos)
      << json;
  p.note = std::nullopt;  // absent
  EXPECT_EQ(AnswerJson(p).find("note"), std::string::npos);
  p.note = std::optional<std::string>("x");
  p.bank = std::nullopt;
  EXPECT_NE(AnswerJson(p).find("\"core\": null, \"note\": \"x\""),
            std::string::npos)
      << AnswerJson(p);
}

// A field that is always None (kept for Python's sake): type "None".
struct WithNone {
  int64_t size = 4;
  std::monostate code;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const WithNone& w) {
    f.Type("WithNone", "A record with a field always None.");
    f("size", w.size);
    f("code", w.code, "Not known.");
    f("code_left_out", w.code, "Not known.",
      FieldOptions().Json(FieldJson::kLeftOut));
  }
};

TEST(Fields, MonostateIsAlwaysNone) {
  EXPECT_EQ(AnswerJson(WithNone()), "{\"size\": 4, \"code\": null}");
  EXPECT_STREQ(SpecOf<WithNone>().fields[1].type, "None");
  EXPECT_EQ(PythonTypeOf<std::monostate>(), "None");
}

TEST(Fields, FieldListTextAlignsTheValues) {
  EXPECT_EQ(FieldListText(Core{3, 0}, "Core"), "Core\n  x: 3\n  y: 0\n");
  Other o;
  o.kind = "a b";
  EXPECT_EQ(FieldListText(o, "", ""), "kind: a b\n");
  Place p;
  p.index = {1, 2};
  const std::string text = FieldListText(p, "Place");
  EXPECT_NE(text.find("\n  index:   [1, 2]\n  offset:  0\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("\n  bank:    \n"), std::string::npos) << text;  // absent
  EXPECT_NE(text.find("\n  core:    null\n"), std::string::npos) << text;
}

TEST(Fields, IndentedJson) {
  EXPECT_EQ(AnswerJson(Core{1, 2}, RecordJsonWriter::Style::kIndented),
            "{\n  \"x\": 1,\n  \"y\": 2\n}");
}

TEST(Fields, NamedValuesAreOneObject) {
  const std::vector<std::pair<std::string, int64_t>> masks = {
      {"register", 0}, {"lane", 3}, {"warp", 1}};
  EXPECT_EQ(NamedValuesJson(masks),
            "{\"register\": 0, \"lane\": 3, \"warp\": 1}");
  EXPECT_EQ(NamedValuesJson(masks, RecordJsonWriter::Style::kIndented),
            "{\n  \"register\": 0,\n  \"lane\": 3,\n  \"warp\": 1\n}");
  EXPECT_EQ(NamedValuesJson(std::vector<std::pair<std::string, int>>{}), "{}");
  // Without the root's kStringPairs the same pairs are a list of lists.
  EXPECT_EQ(AnswerJson(masks),
            "[[\"register\", 0], [\"lane\", 3], [\"warp\", 1]]");
}

TEST(Fields, VariantWritesTheValueHeld) {
  std::variant<Core, Other> v = Other{};
  EXPECT_EQ(AnswerJson(v), "{\"kind\": \"other\"}");
  v = Core{4, 5};
  EXPECT_EQ(AnswerJson(v), "{\"x\": 4, \"y\": 5}");
}

TEST(Fields, SpecFromTheHook) {
  const RecordSpec& spec = SpecOf<Place>();
  EXPECT_STREQ(spec.name, "Place");
  EXPECT_STREQ(spec.doc, "Where one element lives.");
  std::vector<std::pair<std::string, std::string>> got;
  for (const FieldSpec& f : spec.fields) got.push_back({f.name, f.type});
  const std::vector<std::pair<std::string, std::string>> want = {
      {"index", "Tuple[int, ...]"},
      {"offset", "int"},
      {"bank", "Optional[int]"},
      {"core", "Optional[Core]"},
      {"note", "Optional[str]"},
      {"cores", "Tuple[Core, ...]"},
      {"in_page", "Tuple[int, int]"},
      {"ratio", "Tuple[str, float]"},
      {"tiled", "bool"},
  };
  EXPECT_EQ(got, want);
  EXPECT_EQ(spec.fields[0].json, FieldJson::kIndex);
  EXPECT_TRUE(spec.fields[1].in_repr);
  EXPECT_FALSE(spec.fields[0].in_repr);
  EXPECT_STREQ(spec.fields[8].key(), "is_tiled");
  EXPECT_STREQ(spec.fields[4].doc, "");
  // Made once.
  EXPECT_EQ(&SpecOf<Place>(), &spec);
}

TEST(Fields, UnionType) {
  EXPECT_EQ((PythonTypeOf<std::variant<Core, Other>>()), "Union[Core, Other]");
  EXPECT_EQ((PythonTypeOf<std::vector<std::variant<Core, Other>>>()),
            "Tuple[Union[Core, Other], ...]");
}

// A sink that keeps the calls, to see what the record writers are sent.
class CallLog : public RecordSink {
 public:
  void BeginRecord(const RecordSpec& spec) override {
    log += std::string("{") + spec.name + " ";
  }
  void EndRecord() override { log += "} "; }
  void BeginList() override { log += "[ "; }
  void EndList() override { log += "] "; }
  void None() override { log += "None "; }
  void Absent() override { log += "Absent "; }
  void Bool(bool v) override { log += v ? "true " : "false "; }
  void Int(int64_t v) override { log += std::to_string(v) + " "; }
  void Double(double v) override { log += "d "; }
  void String(absl::string_view v) override {
    log += "'" + std::string(v) + "' ";
  }
  std::string log;
};

TEST(Fields, EmitSendsOneValuePerField) {
  Place p;
  p.index = {3};
  CallLog log;
  EmitValue(p, log);
  EXPECT_EQ(log.log,
            "{Place [ 3 ] 0 Absent None Absent [ ] [ 0 0 ] [ '' d ] false } ");
}

struct Nameless {
  int64_t x = 0;
  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const Nameless& n) {
    f("x", n.x);
  }
};

struct Twice {
  int64_t x = 0;
  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const Twice& t) {
    f.Type("Twice", "");
    f("x", t.x);
    f("x", t.x);
  }
};

TEST(FieldsDeathTest, AHookNamesItsTypeAndEachFieldOnce) {
  EXPECT_DEATH(SpecOf<Nameless>(), "calls no f.Type");
  EXPECT_DEATH(SpecOf<Twice>(), "field x twice");
}

}  // namespace
}  // namespace hlolayout
