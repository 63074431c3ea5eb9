// Computations written inline as attribute values (`to_apply={ p0 = ... }`):
// read as computations of the module, checked as any other, named as XLA
// names them and visited after the computation that holds them.
#include <functional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlolayout/hlo/checks.h"
#include "hlolayout/hlo/reader.h"
#include "hlolayout/hlo/reader_internal.h"
#include "hlolayout/shape/shape.h"

namespace hlolayout {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::vector<HloModule> ReadOk(absl::string_view text,
                              const HloReadOptions& options = {}) {
  absl::StatusOr<std::vector<HloModule>> modules =
      ReadHloModules(text, options);
  EXPECT_TRUE(modules.ok()) << modules.status();
  return modules.ok() ? *std::move(modules) : std::vector<HloModule>();
}

std::string ReadError(absl::string_view text) {
  HloReadOptions options;
  options.file_name = "dump.txt";
  absl::StatusOr<std::vector<HloModule>> modules =
      ReadHloModules(text, options);
  EXPECT_FALSE(modules.ok()) << text;
  return modules.ok() ? "" : std::string(modules.status().message());
}

std::vector<std::string> Names(const HloModule& module) {
  std::vector<std::string> names;
  for (const HloComputation& c : module.computations) {
    names.push_back(std::string(c.header.name));
  }
  return names;
}

const HloInstruction* Find(const HloModule& module, absl::string_view c,
                           absl::string_view name) {
  for (const HloComputation& computation : module.computations) {
    if (computation.header.name != c) continue;
    for (const HloInstruction& in : computation.instructions) {
      if (in.name() == name) return &in;
    }
  }
  return nullptr;
}

std::string Called(const HloInstruction* in) {
  if (in == nullptr) return "(none)";
  std::string out;
  for (absl::string_view name : CalledComputationNames(*in)) {
    absl::StrAppend(&out, out.empty() ? "" : " ", name);
  }
  return out;
}

// XLA's own example (hlo_parser_test.cc, CallStart_CallDone_Bind_Output).
constexpr char kCallStart[] = R"(HloModule main

ENTRY main {
  p0 = f32[] parameter(0)
  p1 = s32[] parameter(1)
  call-start.0 = ((f32[], s32[]), (), s32[]) call-start(p0, p1), to_apply={
    p0 = f32[] parameter(0)
    p1 = s32[] parameter(1)
    ROOT tuple.0 = tuple(p0, p1)
  }, async_execution_thread="parallel_thread"
  ROOT call-done.0 = (f32[], s32[]) call-done(call-start.0)
}
)";

// The opcode is a value on every path of the reader: an instruction with
// its shape (the fast path), one without (inferred), one written inline,
// and sugar for an asynchronous wrapper.
TEST(HloReaderInline, OpcodesAreReadAsValues) {
  const std::vector<HloModule> modules = ReadOk(kCallStart);
  ASSERT_EQ(modules.size(), 1u);
  const HloModule& m = modules[0];
  EXPECT_EQ(Find(m, "main", "p0")->opcode, HloOpcode::kParameter);
  const HloInstruction* start = Find(m, "main", "call-start.0");
  ASSERT_NE(start, nullptr);
  EXPECT_EQ(start->opcode, HloOpcode::kWrappedAsync);
  EXPECT_EQ(start->opcode_name(), "call-start");
  EXPECT_EQ(Find(m, "main", "call-done.0")->opcode, HloOpcode::kWrappedAsync);
  int tuples = 0;
  for (const HloComputation& c : m.computations) {
    for (const HloInstruction& in : c.instructions) {
      if (in.name() == "tuple.0") {
        EXPECT_EQ(in.opcode, HloOpcode::kTuple);
        ++tuples;
      }
    }
  }
  EXPECT_EQ(tuples, 1);
}

TEST(HloReaderInline, AComputationOfTheModuleNamedAsXlaNamesIt) {
  const std::vector<HloModule> modules = ReadOk(kCallStart);
  ASSERT_EQ(modules.size(), 1u);
  const HloModule& m = modules[0];
  // After the computation that holds it; the entry is still `main`.
  EXPECT_THAT(Names(m), ElementsAre("main", "_"));
  EXPECT_EQ(m.entry_index, 0);
  EXPECT_EQ(m.instruction_count(), 7);
  const HloComputation& inlined = m.computations[1];
  EXPECT_TRUE(inlined.header.written_inline);
  EXPECT_FALSE(m.computations[0].header.written_inline);
  EXPECT_FALSE(inlined.header.has_signature);
  EXPECT_EQ(kCallStart[inlined.header.offset], '{');
  EXPECT_EQ(inlined.root_index, 2);
  ASSERT_EQ(inlined.instructions.size(), 3u);
  // Its own scope: p0 and p1 are its parameters; the tuple's shape is
  // inferred from them.
  ASSERT_NE(inlined.instructions[2].shape, nullptr);
  EXPECT_EQ(inlined.instructions[2].shape->ToString(true), "(f32[], s32[])");
  // The attribute names it; the attribute after it is read as usual.
  const HloInstruction* start = Find(m, "main", "call-start.0");
  ASSERT_NE(start, nullptr);
  EXPECT_EQ(FindHloAttribute(start->attributes(), "to_apply"), "_");
  EXPECT_EQ(FindHloAttribute(start->attributes(), "async_execution_thread"),
            "\"parallel_thread\"");
  EXPECT_EQ(Called(start), "_");
}

// XLA adds a computation written inline when its closing brace is read, and
// names it "_" made unique in the module: the innermost first.
TEST(HloReaderInline, NestedOnesAreNamedInTheOrderTheyClose) {
  constexpr char kNested[] = R"(HloModule m

%add (x: f32[8], y: f32[8]) -> f32[8] {
  %x = f32[8]{0} parameter(0)
  %y = f32[8]{0} parameter(1)
  ROOT %s = f32[8]{0} add(%x, %y)
}

main {
  p = f32[8]{0} parameter(0)
  c = f32[8]{0} call(p), to_apply={
    a = f32[8]{0} parameter(0)
    ROOT r = f32[8]{0} call(a), to_apply={
      b = f32[8]{0} parameter(0)
      ROOT n = f32[8]{0} negate(b)
    }
  }
  ROOT d = call(c), to_apply={
    e = f32[8]{0} parameter(0)
    ROOT f = f32[8]{0} call(e, e), to_apply=%add
  }
}
)";
  const std::vector<HloModule> modules = ReadOk(kNested);
  ASSERT_EQ(modules.size(), 1u);
  const HloModule& m = modules[0];
  EXPECT_THAT(Names(m), ElementsAre("add", "main", "_", "_.1", "_.2"));
  // No ENTRY: the last computation of the text, not the last visited.
  EXPECT_EQ(m.entry_index, 1);
  EXPECT_EQ(m.instruction_count(), 3 + 3 + 2 + 2 + 2);
  EXPECT_EQ(Called(Find(m, "main", "c")), "_.1");
  EXPECT_EQ(Called(Find(m, "_.1", "r")), "_");
  EXPECT_EQ(Called(Find(m, "main", "d")), "_.2");
  EXPECT_EQ(Called(Find(m, "_.2", "f")), "add");
  // `d` has no shape written: a call's is its callee's root.
  const HloInstruction* d = Find(m, "main", "d");
  ASSERT_NE(d, nullptr);
  ASSERT_NE(d->shape, nullptr);
  EXPECT_EQ(d->shape->ToString(true), "f32[8]{0}");
  for (const HloComputation& c : m.computations) {
    EXPECT_EQ(c.header.written_inline, c.header.name[0] == '_');
  }
}

// Each element of a list of computations may be written inline.
TEST(HloReaderInline, ListsOfComputations) {
  constexpr char kBranches[] = R"(HloModule m

%b1 (x: f32[]) -> f32[] {
  ROOT %x = f32[] parameter(0)
}

ENTRY %main (i: s32[], v: f32[]) -> f32[] {
  %i = s32[] parameter(0)
  %v = f32[] parameter(1)
  ROOT %r = f32[] conditional(%i, %v, %v), branch_computations={{
    x = f32[] parameter(0)
    ROOT n = f32[] negate(x)
  }, %b1}
}
)";
  const std::vector<HloModule> modules = ReadOk(kBranches);
  ASSERT_EQ(modules.size(), 1u);
  const HloModule& m = modules[0];
  EXPECT_THAT(Names(m), ElementsAre("b1", "main", "_"));
  const HloInstruction* r = Find(m, "main", "r");
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(FindHloAttribute(r->attributes(), "branch_computations"),
            "{_, %b1}");
  EXPECT_EQ(Called(r), "_ b1");
  // A list of names alone is kept as written.
  const std::vector<HloModule> names = ReadOk(
      "HloModule m\n%b1 (x: f32[]) -> f32[] {\n  ROOT %x = f32[] "
      "parameter(0)\n}\nENTRY %e {\n  %i = s32[] parameter(0)\n  %v = f32[] "
      "parameter(1)\n  ROOT %r = f32[] conditional(%i, %v, %v), "
      "branch_computations={ %b1 , %b1 }\n}\n");
  ASSERT_EQ(names.size(), 1u);
  EXPECT_EQ(FindHloAttribute(Find(names[0], "e", "r")->attributes(),
                             "branch_computations"),
            "{ %b1 , %b1 }");
  // A written name of such a list must exist, as any callee.
  std::string missing = kBranches;
  missing.replace(missing.find("}, %b1}"), 7, "}, %b2}");
  EXPECT_THAT(ReadError(missing),
              HasSubstr("dump.txt:13:7: no computation named 'b2'"));
}

// The instructions of a computation written inline are checked as any
// other's, in a scope of their own, with the usual located message; until
// it gets its name, messages name it by its attribute and place.
TEST(HloReaderInline, ErrorsInsideAreLocated) {
  constexpr char kOutside[] = R"(HloModule m
ENTRY main {
  p = f32[] parameter(0)
  ROOT c = f32[] call(p), to_apply={
    x = f32[] parameter(0)
    ROOT y = f32[] add(x, p)
  }
}
)";
  EXPECT_EQ(ReadError(kOutside),
            "dump.txt:6:27: 'p' is not defined in 'to_apply@4:36' before its "
            "use\n"
            "    ROOT y = f32[] add(x, p)\n"
            "                          ^");
  // A shape written at a use, against the definition inside.
  std::string shape = kOutside;
  shape.replace(shape.find("add(x, p)"), 9, "add(x, s32[] x)");
  EXPECT_THAT(ReadError(shape), HasSubstr("dump.txt:6:27: operand shape s32[] "
                                          "differs from the shape of 'x'"));
  // A parameter number twice, two ROOTs, an operand count.
  EXPECT_THAT(ReadError("HloModule m\nENTRY e {\n  p = f32[] parameter(0)\n"
                        "  ROOT c = f32[] call(p), to_apply={\n"
                        "    a = f32[] parameter(0)\n"
                        "    b = f32[] parameter(0)\n  }\n}\n"),
              HasSubstr("dump.txt:6:5: duplicate parameter number 0 in "
                        "'to_apply@4:36'"));
  EXPECT_THAT(ReadError("HloModule m\nENTRY e {\n  p = f32[] parameter(0)\n"
                        "  ROOT c = f32[] call(p), to_apply={\n"
                        "    ROOT a = f32[] parameter(0)\n"
                        "    ROOT b = f32[] negate(a)\n  }\n}\n"),
              HasSubstr("dump.txt:6:5: second ROOT instruction in "
                        "'to_apply@4:36'"));
  EXPECT_THAT(ReadError("HloModule m\nENTRY e {\n  p = f32[] parameter(0)\n"
                        "  ROOT c = f32[] call(p), to_apply={\n"
                        "    a = f32[] parameter(0)\n"
                        "    ROOT b = f32[] negate(a, a)\n  }\n}\n"),
              HasSubstr("dump.txt:6:20: 'negate' takes 1 operand, found 2"));
  // A control predecessor that is not there (checked at the end).
  EXPECT_THAT(ReadError("HloModule m\nENTRY e {\n  p = f32[] parameter(0)\n"
                        "  ROOT c = f32[] call(p), to_apply={\n"
                        "    a = f32[] parameter(0)\n"
                        "    ROOT b = f32[] negate(a), "
                        "control-predecessors={q}\n  }\n}\n"),
              HasSubstr("dump.txt:6:53: 'q' is not defined in "
                        "'to_apply@4:36'"));
}

TEST(HloReaderInline, BadInputs) {
  // Never closed: the end of the text comes first.
  EXPECT_EQ(ReadError("HloModule m\nENTRY e {\n  p = f32[] parameter(0)\n"
                      "  ROOT c = f32[] call(p), to_apply={\n"
                      "    x = f32[] parameter(0)\n"),
            "dump.txt:4:36: computation 'to_apply@4:36' is never closed\n"
            "  ROOT c = f32[] call(p), to_apply={\n"
            "                                   ^");
  // Its brace left open, it takes the lines after it: the first name
  // defined outside is not defined in it.
  EXPECT_THAT(ReadError("HloModule m\nENTRY e {\n  p = f32[] parameter(0)\n"
                        "  c = f32[] call(p), to_apply={\n"
                        "    x = f32[] parameter(0)\n"
                        "  ROOT d = f32[] negate(p)\n}\n"),
              HasSubstr("dump.txt:6:25: 'p' is not defined in "
                        "'to_apply@4:31' before its use"));
  // Empty, as XLA refuses it.
  EXPECT_THAT(ReadError("HloModule m\nENTRY e {\n  p = f32[] parameter(0)\n"
                        "  ROOT c = f32[] call(p), to_apply={ }\n}\n"),
              HasSubstr("dump.txt:4:38: expected an instruction in the "
                        "computation written inline, found '}'"));
  // '{' where one computation is expected opens one written inline (XLA
  // reads nothing else there): a list of names is not one.
  EXPECT_THAT(ReadError("HloModule m\n%a {\n  ROOT x = f32[] parameter(0)\n}\n"
                        "ENTRY e {\n  p = f32[] parameter(0)\n"
                        "  ROOT c = f32[] call(p), to_apply={%a}\n}\n"),
              HasSubstr("dump.txt:7:39: expected '=' after instruction name "
                        "'a', found '}'"));
  // A list whose elements are not separated.
  EXPECT_THAT(ReadError("HloModule m\n%b {\n  ROOT x = f32[] parameter(0)\n}\n"
                        "ENTRY e {\n  i = s32[] parameter(0)\n"
                        "  ROOT c = f32[] conditional(i), "
                        "branch_computations={{\n    ROOT y = f32[] "
                        "constant(0)\n  } %b}\n}\n"),
              HasSubstr("dump.txt:9:5: expected ',' or '}' in the list of "
                        "computations, found '%'"));
  // No written name refers to one (XLA: no such computation).
  EXPECT_THAT(
      ReadError("HloModule m\nENTRY e {\n  p = f32[] parameter(0)\n"
                "  c = f32[] call(p), to_apply={\n    ROOT x = f32[] "
                "parameter(0)\n  }\n  ROOT d = f32[] call(c), to_apply=_\n}\n"),
      HasSubstr("dump.txt:7:36: no computation named '_'"));
  // Nested too deep: a bound, not a stack overflow.
  std::string deep = "HloModule m\nENTRY e {\n  ROOT p = f32[] parameter(0)";
  std::string close;
  for (int i = 0; i < 70; ++i) {
    deep += ", to_apply={\n  ROOT p = f32[] parameter(0)";
    close += "}";
  }
  deep += close + "\n}\n";
  EXPECT_THAT(ReadError(deep), HasSubstr("computations written inline nested "
                                         "deeper than 64 levels"));
  // An unterminated string inside.
  EXPECT_THAT(ReadError("HloModule m\nENTRY e {\n  p = f32[] parameter(0)\n"
                        "  ROOT c = f32[] call(p), to_apply={\n"
                        "    ROOT x = f32[] parameter(0), metadata={op_name=\"a"
                        "\n  }\n}\n"),
              HasSubstr("unterminated string"));
}

// Without ROOT, the last instruction is the root (as XLA's builder does).
TEST(HloReaderInline, WithoutRootTheLastInstruction) {
  const std::vector<HloModule> modules = ReadOk(
      "HloModule m\nENTRY e {\n  p = f32[4]{0} parameter(0)\n"
      "  ROOT c = call(p), to_apply={\n    x = f32[4]{0} parameter(0)\n"
      "    y = s32[4]{0} convert(x)\n  }\n}\n");
  ASSERT_EQ(modules.size(), 1u);
  ASSERT_EQ(modules[0].computations.size(), 2u);
  EXPECT_EQ(modules[0].computations[1].root_index, 1);
  const HloInstruction* c = Find(modules[0], "e", "c");
  ASSERT_NE(c, nullptr);
  ASSERT_NE(c->shape, nullptr);
  EXPECT_EQ(c->shape->ToString(true), "s32[4]{0}");
}

// A computation of the text already named `_` keeps its name; the inline
// one takes the next.
TEST(HloReaderInline, WrittenNamesArePassedOver) {
  const std::vector<HloModule> modules = ReadOk(
      "HloModule m\n_ {\n  ROOT x = f32[] parameter(0)\n}\n"
      "ENTRY e {\n  p = f32[] parameter(0)\n"
      "  ROOT c = f32[] call(p), to_apply={\n    ROOT y = f32[] "
      "parameter(0)\n  }\n}\n");
  ASSERT_EQ(modules.size(), 1u);
  EXPECT_THAT(Names(modules[0]), ElementsAre("_", "e", "_.1"));
  EXPECT_EQ(Called(Find(modules[0], "e", "c")), "_.1");
}

// What a visitor is told, in order: the computation holding them ends
// first; unknown opcodes inside are told as anywhere.
class Recorder : public HloVisitor {
 public:
  void BeginComputation(const HloComputationHeader& header) override {
    absl::StrAppend(&log, "begin ", header.name,
                    header.written_inline ? " inline" : "", "\n");
  }
  void UnknownOpcode(const HloInstruction& in) override {
    absl::StrAppend(&log, "unknown ", in.opcode_name(), "\n");
  }
  void VisitInstruction(const HloInstruction& in) override {
    absl::StrAppend(&log, "  ", in.name(), " ",
                    in.shape != nullptr ? in.shape->ToString(true) : "-");
    for (const HloAttribute& a : in.attributes()) {
      absl::StrAppend(&log, " ", a.name(), "=", a.value());
    }
    log += "\n";
  }
  void EndComputation(int64_t root, absl::string_view) override {
    absl::StrAppend(&log, "end ", root, "\n");
  }
  void EndModule(int64_t entry) override {
    absl::StrAppend(&log, "module ", entry, "\n");
  }
  void Error(const absl::Status& error) override {
    absl::StrAppend(&log, "error ", error.message().substr(0, 40), "\n");
  }
  std::string log;
};

TEST(HloReaderInline, TheVisitorSeesThemAfterTheEnclosingComputation) {
  constexpr char kText[] = R"(HloModule m
c1 {
  p = f32[] parameter(0)
  ROOT q = f32[] call(p), to_apply={
    a = f32[] parameter(0)
    ROOT b = f32[] frobnicate(a)
  }
}
ENTRY c2 {
  p = f32[] parameter(0)
  ROOT q = f32[] call(p), to_apply=c1
}
)";
  for (int mode = 0; mode < 4; ++mode) {
    HloReadOptions options;
    options.read_operands = (mode & 1) == 0;
    // Without the cache, shapes are decoded over scratch ones, which the
    // computation written inline must not overwrite for `q`.
    options.share_shapes = (mode & 2) == 0;
    Recorder recorder;
    ASSERT_TRUE(ReadHlo(kText, options, &recorder).ok());
    EXPECT_EQ(recorder.log,
              "begin c1\n"
              "  p f32[]\n"
              "  q f32[] to_apply=_\n"
              "end 1\n"
              "begin _ inline\n"
              "  a f32[]\n"
              "unknown frobnicate\n"
              "  b f32[]\n"
              "end 1\n"
              "begin c2\n"
              "  p f32[]\n"
              "  q f32[] to_apply=c1\n"
              "end 1\n"
              "module 2\n")
        << mode;
  }
}

// keep_going: an error inside is the enclosing instruction's; the reading
// goes on after the computation's closing brace.
TEST(HloReaderInline, KeepGoingResumesAfterIt) {
  constexpr char kText[] = R"(HloModule m
ENTRY e {
  p = f32[] parameter(0)
  c = f32[] call(p), to_apply={
    x = f32[] parameter(0)
    ROOT y = f32[] negate(z)
  }, metadata={op_name="c"}
  ROOT d = f32[] negate(p)
}
)";
  HloReadOptions options;
  options.keep_going = true;
  Recorder recorder;
  EXPECT_FALSE(ReadHlo(kText, options, &recorder).ok());
  EXPECT_EQ(recorder.log,
            "begin e\n"
            "  p f32[]\n"
            "error 6:27: 'z' is not defined in 'to_apply@4:\n"
            "  d f32[]\n"
            "end 1\n"
            "module 0\n");
}

// Read into modules, the instructions of one keep their shapes (owned by
// the module) after the text's shape cache has moved on.
TEST(HloReaderInline, ShapesOutliveTheReading) {
  std::string text =
      "HloModule m\nENTRY e {\n  p = f32[8]{0} parameter(0)\n"
      "  c = f32[8]{0} call(p), to_apply={\n"
      "    x = f32[8]{0} parameter(0)\n"
      "    ROOT y = f32[8]{0} negate(f32[8]{0} x)\n  }\n";
  // Many more shapes than the cache holds, after it.
  for (int i = 0; i < 20000; ++i) {
    absl::StrAppend(&text, "  v", i, " = f32[", i + 1, "]{0} parameter(", i + 1,
                    ")\n");
  }
  text += "}\n";
  for (bool share : {true, false}) {
    HloReadOptions options;
    options.share_shapes = share;
    const std::vector<HloModule> modules = ReadOk(text, options);
    ASSERT_EQ(modules.size(), 1u);
    const HloInstruction* y = Find(modules[0], "_", "y");
    ASSERT_NE(y, nullptr);
    ASSERT_NE(y->shape, nullptr);
    EXPECT_EQ(y->shape->ToString(true), "f32[8]{0}");
    ASSERT_EQ(y->operands().size(), 1u);
    ASSERT_NE(y->operands()[0].shape, nullptr);
    EXPECT_EQ(y->operands()[0].shape->ToString(true), "f32[8]{0}");
  }
}

// Reading in parts (ReadHloHead, ReadHloTail): a part cannot name the
// computations written inline in it (their names count those before), so a
// tail that meets one ends with an error that says to read the text whole;
// the head does not stop inside one, nor before the top-level computation
// holding one ends (it has not handed them over yet): it reads on.
TEST(HloReaderInline, PartsDoNotStopInsideOrBeforeTheyAreHandedOver) {
  constexpr char kText[] = R"(HloModule m
ENTRY e {
  p = f32[] parameter(0)
  c = f32[] call(p), to_apply={
    x = f32[] parameter(0)
    ROOT y = f32[] negate(x)
  }
  d = f32[] negate(c)
  ROOT r = f32[] negate(d)
}
)";
  const absl::string_view text = kText;
  Recorder whole;
  ASSERT_TRUE(ReadHlo(text, {}, &whole).ok());
  for (absl::string_view at : {"x = f32[]", "ROOT y", "d = f32[]", "ROOT r"}) {
    const size_t cut = text.find(at);
    Recorder tail;
    bool stopped = true;
    EXPECT_FALSE(ReadHloTail(text, {}, text.find("c = f32[]"), cut, nullptr,
                             &tail, &stopped)
                     .ok())
        << at;
    EXPECT_FALSE(stopped) << at;
    Recorder head;
    bool asked = false;
    const std::function<bool()> at_stop = [&asked] {
      asked = true;
      return true;
    };
    ASSERT_TRUE(ReadHloHead(text, {}, cut, at_stop, &head, &stopped).ok())
        << at;
    EXPECT_FALSE(stopped) << at;
    EXPECT_FALSE(asked) << at;
    EXPECT_EQ(head.log, whole.log) << at;
  }
}

// The reader's fast test of attribute names agrees with the rules' table
// (HloAttributeKindOf): on the callee names, on every attribute name in
// XLA's printer and parser, and on near misses.
TEST(HloReaderInline, CalleeAttributeNamesAsTheRulesSayThem) {
  const std::vector<std::string> names = {"body",
                                          "calls",
                                          "select",
                                          "scatter",
                                          "to_apply",
                                          "condition",
                                          "true_computation",
                                          "false_computation",
                                          "branch_computations",
                                          "called_computations",
                                          "metadata",
                                          "sharding",
                                          "backend_config",
                                          "frontend_attributes",
                                          "dimensions",
                                          "slice",
                                          "window",
                                          "origin",
                                          "domain",
                                          "source_target_pairs",
                                          "operand_layout_constraints",
                                          "output_to_operand_aliasing",
                                          "replica_groups",
                                          "channel_id",
                                          "custom_call_target",
                                          "kind",
                                          "index",
                                          "direction",
                                          "type",
                                          "dim_labels",
                                          "feature_group_count",
                                          "batch_group_count",
                                          "precision_config",
                                          "lhs_contracting_dims",
                                          "rhs_batch_dims",
                                          "padding",
                                          "distribution",
                                          "fft_type",
                                          "fft_length",
                                          "exponent_bits",
                                          "mantissa_bits",
                                          "is_stable",
                                          "largest",
                                          "k",
                                          "api_version",
                                          "async_execution_thread",
                                          "control-predecessors",
                                          "statistics",
                                          "result_accuracy",
                                          "literal",
                                          "mode",
                                          "scatter_dims_to_operand_dims",
                                          "selects",
                                          "calls2",
                                          "Calls",
                                          "bodies",
                                          "to_apply_",
                                          "to-apply",
                                          "condition.",
                                          "branch_computation",
                                          "false_computations",
                                          "true_computations",
                                          "called_computationz",
                                          "b",
                                          "c",
                                          "zzzzzzzzz",
                                          "select_",
                                          "_select",
                                          "scatter1"};
  for (const std::string& name : names) {
    EXPECT_EQ(hlo_internal::IsCalleeAttributeName(name),
              (HloAttributeKindOf(name) & kHloAttrCallee) != 0)
        << name;
  }
}

}  // namespace
}  // namespace hlolayout
