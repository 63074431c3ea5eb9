#include "hlolayout/hlo/reader.h"

#include <map>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlolayout/parser/shape_parser.h"
#include "hlolayout/shape/shape.h"
#include "hlolayout/testing/hlo_test_dump.h"

namespace hlolayout {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::vector<HloModule> ReadOk(absl::string_view text) {
  absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(text);
  EXPECT_TRUE(modules.ok()) << modules.status();
  return modules.ok() ? *std::move(modules) : std::vector<HloModule>();
}

std::string ReadError(absl::string_view text) {
  HloReadOptions options;
  options.file_name = "dump.txt";
  absl::StatusOr<std::vector<HloModule>> modules =
      ReadHloModules(text, options);
  EXPECT_FALSE(modules.ok());
  return modules.ok() ? "" : std::string(modules.status().message());
}

// The shape written at an operand's use, printed with its layout ("" when
// none was written): HloOperand keeps it decoded only.
std::string OperandShape(const HloOperand& operand) {
  return operand.shape == nullptr ? "" : operand.shape->ToString(true);
}

bool IsViewInto(absl::string_view view, absl::string_view text) {
  return view.data() >= text.data() &&
         view.data() + view.size() <= text.data() + text.size();
}

constexpr char kBasic[] =
    R"(HloModule jit_f, is_scheduled=true, entry_computation_layout={(bf16[8,256]{1,0:T(8,128)(2,1)}, f32[]{:T(128)})->bf16[8]{0}}, frontend_attributes={fingerprint="ab,c"}

%add (x: f32[], y: f32[]) -> f32[] {
  %x = f32[] parameter(0)
  %y = f32[] parameter(1)
  ROOT %add.1 = f32[] add(f32[] %x, f32[] %y)
}

ENTRY %main.3 (p0: bf16[8,256], p1: f32[]) -> bf16[8] {
  %p0 = bf16[8,256]{1,0:T(8,128)(2,1)} parameter(0), metadata={op_name="x"}
  %p1 = f32[]{:T(128)} parameter(1)
  ROOT %reduce = bf16[8]{0} reduce(bf16[8,256]{1,0:T(8,128)(2,1)} %p0, f32[]{:T(128)} %p1), dimensions={1}, to_apply=%add, metadata={op_type="reduce_sum" op_name="jit(f)/reduce_sum" source_file="/a/b.py" source_line=12}
}
)";

TEST(HloReader, BasicModule) {
  const std::vector<HloModule> modules = ReadOk(kBasic);
  ASSERT_EQ(modules.size(), 1u);
  const HloModule& m = modules[0];
  EXPECT_TRUE(m.header.has_header);
  EXPECT_EQ(m.header.name, "jit_f");
  ASSERT_EQ(m.header.attributes.size(), 3u);
  EXPECT_EQ(m.header.attributes[0].name(), "is_scheduled");
  EXPECT_EQ(m.header.attributes[0].value(), "true");
  EXPECT_EQ(m.header.attributes[2].value(), "{fingerprint=\"ab,c\"}");
  ASSERT_TRUE(m.header.has_entry_computation_layout);
  ASSERT_EQ(m.header.entry_parameter_shapes.size(), 2u);
  EXPECT_EQ(m.header.entry_parameter_shapes[0].ToString(true),
            "bf16[8,256]{1,0:T(8,128)(2,1)}");
  EXPECT_EQ(m.header.entry_parameter_shapes[1].ToString(true),
            "f32[]{:T(128)}");
  EXPECT_EQ(m.header.entry_result_shape.ToString(true), "bf16[8]{0}");

  ASSERT_EQ(m.computations.size(), 2u);
  EXPECT_EQ(m.entry_index, 1);
  EXPECT_EQ(m.entry().header.name, "main.3");
  EXPECT_TRUE(m.entry().header.entry_marker);
  const HloComputation& add = m.computations[0];
  EXPECT_EQ(add.header.name, "add");
  ASSERT_TRUE(add.header.has_signature);
  ASSERT_EQ(add.header.parameters.size(), 2u);
  EXPECT_EQ(add.header.parameters[1].name, "y");
  ASSERT_NE(add.header.result_shape, nullptr);
  EXPECT_EQ(add.header.result_shape->ToString(true), "f32[]");
  EXPECT_EQ(add.root_index, 2);

  const HloComputation& entry = m.entry();
  ASSERT_EQ(entry.instructions.size(), 3u);
  const HloInstruction& p0 = entry.instructions[0];
  EXPECT_EQ(p0.name(), "p0");
  EXPECT_EQ(p0.opcode_name(), "parameter");
  EXPECT_EQ(p0.opcode, HloOpcode::kParameter);
  EXPECT_EQ(p0.parameter_number, 0);
  EXPECT_TRUE(p0.operands().empty());
  EXPECT_EQ(p0.shape->ToString(true), "bf16[8,256]{1,0:T(8,128)(2,1)}");
  const HloInstruction& reduce = entry.instructions[2];
  EXPECT_TRUE(reduce.root_marker);
  EXPECT_EQ(entry.root_index, 2);
  EXPECT_EQ(reduce.shape_text(), "bf16[8]{0}");
  ASSERT_EQ(reduce.operands().size(), 2u);
  EXPECT_EQ(reduce.operands()[0].name, "p0");
  EXPECT_EQ(OperandShape(reduce.operands()[0]),
            "bf16[8,256]{1,0:T(8,128)(2,1)}");
  EXPECT_EQ(reduce.operands()[1].shape->ToString(true), "f32[]{:T(128)}");
  ASSERT_EQ(reduce.attributes().size(), 3u);
  EXPECT_EQ(reduce.attributes()[0].name(), "dimensions");
  EXPECT_EQ(reduce.attributes()[0].value(), "{1}");
  EXPECT_EQ(*FindHloAttribute(reduce.attributes(), "metadata"),
            "{op_type=\"reduce_sum\" op_name=\"jit(f)/reduce_sum\" "
            "source_file=\"/a/b.py\" source_line=12}");
  EXPECT_THAT(CalledComputationNames(reduce), ElementsAre("add"));
}

TEST(HloReader, NamesAndAttributesAreViewsIntoTheInput) {
  const std::string text = kBasic;
  absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(text);
  ASSERT_TRUE(modules.ok()) << modules.status();
  const HloModule& m = (*modules)[0];
  EXPECT_TRUE(IsViewInto(m.header.name, text));
  for (const HloComputation& c : m.computations) {
    // A computation's name is the module's own copy (module.h): linking the
    // module looks every one up, and the text may have been given back.
    EXPECT_FALSE(IsViewInto(c.header.name, text));
    EXPECT_NE(text.find(absl::StrCat(c.header.name, " ")), std::string::npos);
    for (const HloInstruction& in : c.instructions) {
      EXPECT_TRUE(IsViewInto(in.name(), text));
      EXPECT_TRUE(IsViewInto(in.opcode_name(), text));
      EXPECT_TRUE(IsViewInto(in.shape_text(), text));
      for (const HloAttribute& a : in.attributes()) {
        EXPECT_TRUE(IsViewInto(a.value(), text));
      }
    }
  }
}

TEST(HloReader, StackFrameTables) {
  const std::vector<HloModule> modules = ReadOk(R"(HloModule m

FileNames
1 "/src/train.py"
2 "/src/a \"quoted\" {name}.py"

FunctionNames
1 "train_step"

FileLocations
1 {file_name_id=1 function_name_id=1 line=10 end_line=10 column=2 end_column=30}

StackFrames
1 {file_location_id=1 parent_frame_id=1}
2 {file_location_id=1 parent_frame_id=1}

ENTRY e {
  ROOT c = s32[] constant(1), metadata={stack_frame_id=2}
}
)");
  ASSERT_EQ(modules.size(), 1u);
  const auto& tables = modules[0].header.stack_tables;
  ASSERT_EQ(tables.size(), 4u);
  EXPECT_EQ(tables[0].kind, "FileNames");
  ASSERT_EQ(tables[0].entries.size(), 2u);
  EXPECT_EQ(tables[0].entries[1].id, 2);
  EXPECT_EQ(tables[0].entries[1].value, R"("/src/a \"quoted\" {name}.py")");
  EXPECT_EQ(tables[2].kind, "FileLocations");
  EXPECT_EQ(tables[2].entries[0].value,
            "{file_name_id=1 function_name_id=1 line=10 end_line=10 "
            "column=2 end_column=30}");
  EXPECT_EQ(tables[3].entries.size(), 2u);
  EXPECT_EQ(modules[0].entry().instructions.size(), 1u);
}

TEST(HloReader, SplitModules) {
  const std::vector<HloModule> modules = ReadOk(R"(// RUN: hlo-opt %s
HloModule a

ENTRY e {
  ROOT p = f32[2]{0} parameter(0)
}

// -----

HloModule b

ENTRY e {
  ROOT p = s4[8]{0:E(4)} parameter(0)
}
// -----
// CHECK: nothing here but comments
)");
  ASSERT_EQ(modules.size(), 2u);
  EXPECT_EQ(modules[0].header.name, "a");
  EXPECT_EQ(modules[1].header.name, "b");
  EXPECT_EQ(modules[1].entry().instructions[0].shape->ToString(true),
            "s4[8]{0:E(4)}");
}

TEST(HloReader, SplitModuleTextsCutsOnlyAtLineStarts) {
  const std::string text =
      "HloModule a\nENTRY e {\n ROOT p = f32[] parameter(0), "
      "metadata={op_name=\"// -----\"}\n}\n// -----\nHloModule b\n";
  const auto ranges = SplitHloModuleTexts(text);
  ASSERT_EQ(ranges.size(), 2u);
  EXPECT_EQ(ranges[0].first, 0u);
  EXPECT_EQ(text.substr(ranges[1].first, 8), "// -----");
  EXPECT_EQ(ranges[1].second, text.size());
}

// XLA's own test files frame descriptions with `// -----...` lines, before
// HloModule, between computations and inside them; XLA reads such a file as
// one module. Only a dash line followed by a new module splits.
TEST(HloReader, DecorativeDashLinesAreComments) {
  const std::string text = R"(// ----------------------------------------
// A test's description, framed by dashes.
// ----------------------------------------
HloModule m

// -----------------------
// The reducer.
// -----------------------
%add (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  // -----
  %b = f32[] parameter(1)
  ROOT %s = f32[] add(%a, %b)
}

// -----
ENTRY %main (p: f32[4]) -> f32[] {
  %p = f32[4]{0} parameter(0)
  %z = f32[] constant(0)
// ----------------------
  ROOT %r = f32[] reduce(%p, %z), dimensions={0}, to_apply=%add
}
// -----
// CHECK: trailing comments only
)";
  const std::vector<HloModule> modules = ReadOk(text);
  ASSERT_EQ(modules.size(), 1u);
  EXPECT_EQ(modules[0].header.name, "m");
  ASSERT_EQ(modules[0].computations.size(), 2u);
  EXPECT_EQ(modules[0].computations[0].instructions.size(), 3u);
  EXPECT_EQ(modules[0].entry().header.name, "main");
  EXPECT_EQ(modules[0].entry().instructions.size(), 3u);
  const auto ranges = SplitHloModuleTexts(text);
  ASSERT_EQ(ranges.size(), 1u);
  EXPECT_EQ(ranges[0].second, text.size());
}

// lit's --split-input-file: a dash line followed by `HloModule` splits, and
// in header-less files a dash line between two computations does.
TEST(HloReader, SplitInputFilesReadAsSeveralModules) {
  const std::string with_headers = R"(// ------------
// Two modules, each framed.
// ------------
HloModule a
ENTRY e { ROOT p = f32[2]{0} parameter(0) }
// -----
// ------------
// The second one.
// ------------
HloModule b
// ------------
ENTRY e { ROOT p = f32[3]{0} parameter(0) }
)";
  std::vector<HloModule> modules = ReadOk(with_headers);
  ASSERT_EQ(modules.size(), 2u);
  EXPECT_EQ(modules[0].header.name, "a");
  EXPECT_EQ(modules[1].header.name, "b");
  EXPECT_EQ(modules[1].entry().instructions[0].shape->ToString(true),
            "f32[3]{0}");
  EXPECT_EQ(SplitHloModuleTexts(with_headers).size(), 2u);

  const std::string headerless = R"(ENTRY e {
  ROOT p = f32[2]{0} parameter(0)
}
// -----
ENTRY e {
  ROOT p = f32[3]{0} parameter(0)
}
// -----
c {
  ROOT q = f32[4]{0} parameter(0)
}
)";
  modules = ReadOk(headerless);
  ASSERT_EQ(modules.size(), 3u);
  EXPECT_EQ(modules[1].entry().instructions[0].shape->ToString(true),
            "f32[3]{0}");
  EXPECT_EQ(modules[2].entry().header.name, "c");
  const auto ranges = SplitHloModuleTexts(headerless);
  ASSERT_EQ(ranges.size(), 3u);
  EXPECT_EQ(headerless.substr(ranges[1].first, 9), "// -----\n");
}

// Inside a computation of a header-less module a dash line is a comment.
TEST(HloReader, DashLineInsideHeaderlessComputationIsAComment) {
  const std::string text =
      "ENTRY e {\n  a = f32[] parameter(0)\n// -----\n  ROOT b = f32[] "
      "negate(a)\n}\n";
  const std::vector<HloModule> modules = ReadOk(text);
  ASSERT_EQ(modules.size(), 1u);
  EXPECT_EQ(modules[0].entry().instructions.size(), 2u);
  EXPECT_EQ(SplitHloModuleTexts(text).size(), 1u);
}

// A new module right after a dash line inside a computation still ends it.
TEST(HloReader, ModuleStartingInsideAComputationIsAnError) {
  EXPECT_THAT(ReadError("HloModule a\nENTRY e {\n  p = f32[] parameter(0)\n"
                        "// -----\nHloModule b\nENTRY e { ROOT p = f32[] "
                        "parameter(0) }\n"),
              HasSubstr("dump.txt:2:9: computation 'e' is never closed"));
}

// keep_going resumes at the next real separator, not at a decorative line.
TEST(HloReader, KeepGoingSkipsDecorativeDashLines) {
  const std::string text = R"(HloModule a
ENTRY e {
  ROOT p = f32[2{0} parameter(0)
}
// -----
// decorative
// -----
%f (x: f32[]) -> f32[] { ROOT x = f32[] parameter(0) }
// -----
HloModule b
ENTRY e { ROOT p = f32[3]{0} parameter(0) }
)";
  HloReadOptions options;
  options.keep_going = true;
  std::vector<absl::Status> errors;
  absl::StatusOr<std::vector<HloModule>> modules =
      ReadHloModules(text, options, &errors);
  ASSERT_TRUE(modules.ok());
  ASSERT_EQ(modules->size(), 2u);
  EXPECT_EQ((*modules)[0].computations.size(), 2u);
  EXPECT_EQ((*modules)[1].header.name, "b");
  ASSERT_EQ(errors.size(), 1u);
}

// A run of k comment lines is looked through once, not once per dash line:
// 200,000 dash lines read in linear time.
TEST(HloReader, ManyDashLinesReadInLinearTime) {
  std::string text = "HloModule m\n";
  for (int i = 0; i < 200000; ++i) text += "// -----\n";
  text += "ENTRY e { ROOT p = f32[] parameter(0) }\n";
  for (int i = 0; i < 200000; ++i) text += "// -----\n";
  const std::vector<HloModule> modules = ReadOk(text);
  ASSERT_EQ(modules.size(), 1u);
  EXPECT_EQ(SplitHloModuleTexts(text).size(), 1u);
  text += "HloModule n\nENTRY e { ROOT p = f32[] parameter(0) }\n";
  EXPECT_EQ(ReadOk(text).size(), 2u);
  EXPECT_EQ(SplitHloModuleTexts(text).size(), 2u);
}

TEST(HloReader, OptionalHeaderEntryAndRoot) {
  // No HloModule line, no ENTRY (the last computation is the entry), no ROOT
  // (the last instruction is the root), no '%', no signature, no shape.
  const std::vector<HloModule> modules = ReadOk(R"(
add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  add = f32[] add(a, b)
}
main {
  p = f32[4]{0} parameter(0)
  t = tuple(p, p)
}
)");
  ASSERT_EQ(modules.size(), 1u);
  const HloModule& m = modules[0];
  EXPECT_FALSE(m.header.has_header);
  EXPECT_TRUE(m.header.name.empty());
  EXPECT_EQ(m.entry_index, 1);
  EXPECT_EQ(m.entry().header.name, "main");
  EXPECT_FALSE(m.entry().header.entry_marker);
  EXPECT_FALSE(m.entry().header.has_signature);
  EXPECT_EQ(m.computations[0].root_index, 2);
  EXPECT_EQ(m.computations[0].instructions[2].name(), "add");
  EXPECT_EQ(m.computations[0].instructions[2].opcode_name(), "add");
  const HloInstruction& t = m.entry().instructions[1];
  EXPECT_EQ(m.entry().root_index, 1);
  EXPECT_FALSE(t.root_marker);
  // No shape written: inferred from the operands', as XLA's parser does.
  ASSERT_TRUE(t.has_shape());
  EXPECT_EQ(t.shape->ToString(true), "(f32[4]{0}, f32[4]{0})");
  EXPECT_EQ(t.opcode_name(), "tuple");
  ASSERT_EQ(t.operands().size(), 2u);
  EXPECT_FALSE(t.operands()[0].has_shape());
  EXPECT_EQ(m.instruction_count(), 5);
}

TEST(HloReader, EntryNeedNotBeLast) {
  const std::vector<HloModule> modules = ReadOk(R"(HloModule m
ENTRY main {
  ROOT c = f32[] constant(1)
}
f {
  ROOT z = f32[] constant(0)
}
)");
  ASSERT_EQ(modules.size(), 1u);
  EXPECT_EQ(modules[0].entry_index, 0);
  // But what it calls comes before it (issue 87; reader_strict_test.cc).
}

// A `call` without a shape takes its callee's root shape, found by name
// (not by a scan of every computation: thousands of calls to thousands of
// computations read in linear time).
TEST(HloReader, CallWithoutShapeTakesTheCalleesRoot) {
  std::string text = "HloModule m\n";
  constexpr int kComputations = 3000;
  for (int i = 0; i < kComputations; ++i) {
    absl::StrAppend(&text, "f", i, " {\n  ROOT z = f32[", i + 1,
                    "]{0} constant({...})\n}\n");
  }
  absl::StrAppend(&text, "g {\n  x = f32[2]{0} constant({1, 2})\n",
                  "  ROOT t = tuple(x, x)\n}\n");
  absl::StrAppend(&text, "ENTRY main {\n");
  for (int i = 0; i < kComputations; ++i) {
    absl::StrAppend(&text, "  c", i, " = call(), to_apply=f", i, "\n");
  }
  absl::StrAppend(&text, "  ROOT d = call(), to_apply=g\n}\n");
  const std::vector<HloModule> modules = ReadOk(text);
  ASSERT_EQ(modules.size(), 1u);
  const HloComputation& e = modules[0].entry();
  ASSERT_EQ(e.instructions.size(), static_cast<size_t>(kComputations + 1));
  for (int i : {0, 1, 1234, kComputations - 1}) {
    ASSERT_TRUE(e.instructions[i].has_shape()) << i;
    EXPECT_EQ(e.instructions[i].shape->ToString(true),
              absl::StrCat("f32[", i + 1, "]{0}"));
  }
  // A root whose shape was inferred too.
  ASSERT_TRUE(e.instructions.back().has_shape());
  EXPECT_EQ(e.instructions.back().shape->ToString(true),
            "(f32[2]{0}, f32[2]{0})");
}

TEST(HloReader, TuplesOfTuplesWithIndexComments) {
  const std::vector<HloModule> modules = ReadOk(R"(HloModule m
ENTRY e (p: (f32[], (s32[], u8[2]))) -> (s32[], s32[], s32[], s32[], s32[], s32[]) {
  p = (f32[], (s32[], u8[2]{0})) parameter(0)
  gte = (s32[], u8[2]{0}) get-tuple-element((f32[], (s32[], u8[2]{0})) %p), index=1
  i = s32[] get-tuple-element((s32[], u8[2]{0}) gte), index=0
  ROOT t = (s32[], s32[], s32[], s32[], s32[], /*index=5*/s32[]) tuple(s32[] i, s32[] i, s32[] i, s32[] i, s32[] i, /*index=5*/s32[] i)
}
)");
  ASSERT_EQ(modules.size(), 1u);
  const HloComputation& e = modules[0].entry();
  EXPECT_EQ(e.header.parameters[0].shape->ToString(),
            "(f32[], (s32[], u8[2]))");
  const HloInstruction& gte = e.instructions[1];
  EXPECT_EQ(OperandShape(gte.operands()[0]), "(f32[], (s32[], u8[2]{0}))");
  EXPECT_EQ(gte.operands()[0].shape->tuple_shape(1).tuple_size(), 2);
  const HloInstruction& t = e.instructions[3];
  EXPECT_EQ(t.shape->tuple_size(), 6);
  ASSERT_EQ(t.operands().size(), 6u);
  EXPECT_EQ(t.operands()[5].name, "i");
  EXPECT_EQ(OperandShape(t.operands()[5]), "s32[]");
}

TEST(HloReader, AsyncCollectivePair) {
  const std::vector<HloModule> modules = ReadOk(R"(HloModule m, num_partitions=8
add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}
ENTRY e {
  p = f32[10]{0} parameter(0)
  ags = ((f32[10]{0}), f32[80]{0}, u32[], u32[]) all-gather-start(f32[10]{0} p), channel_id=1, replica_groups=[1,8]<=[8], dimensions={0}, use_global_device_ids=true
  ars = f32[10]{0:S(1)} all-reduce-start(f32[10]{0} p), channel_id=2, replica_groups={{0,1},{2,3}}, to_apply=add, backend_config={"collective_backend_config":{"is_sync":false}}
  ard = f32[10]{0:S(1)} all-reduce-done(f32[10]{0:S(1)} ars)
  ROOT agd = f32[80]{0} all-gather-done(((f32[10]{0}), f32[80]{0}, u32[], u32[]) ags)
}
)");
  ASSERT_EQ(modules.size(), 1u);
  const HloComputation& e = modules[0].entry();
  ASSERT_EQ(e.instructions.size(), 5u);
  const HloInstruction& ags = e.instructions[1];
  EXPECT_EQ(ags.opcode_name(), "all-gather-start");
  EXPECT_EQ(ags.opcode, HloOpcode::kAllGatherStart);
  EXPECT_EQ(e.instructions[4].opcode, HloOpcode::kAllGatherDone);
  EXPECT_EQ(ags.shape->tuple_size(), 4);
  EXPECT_TRUE(ags.shape->tuple_shape(0).IsTuple());
  EXPECT_EQ(*FindHloAttribute(ags.attributes(), "replica_groups"),
            "[1,8]<=[8]");
  const HloInstruction& ars = e.instructions[2];
  EXPECT_EQ(ars.shape->layout().memory_space(), 1);
  EXPECT_EQ(*FindHloAttribute(ars.attributes(), "replica_groups"),
            "{{0,1},{2,3}}");
  EXPECT_EQ(*FindHloAttribute(ars.attributes(), "backend_config"),
            "{\"collective_backend_config\":{\"is_sync\":false}}");
  EXPECT_EQ(e.instructions[4].operands()[0].shape->tuple_size(), 4);
}

TEST(HloReader, WhileAndConditional) {
  const std::vector<HloModule> modules = ReadOk(R"(HloModule m
%cond (a: (s32[], f32[4])) -> pred[] {
  %a = (s32[], f32[4]{0}) parameter(0)
  %i = s32[] get-tuple-element((s32[], f32[4]{0}) %a), index=0
  %n = s32[] constant(10)
  ROOT %lt = pred[] compare(s32[] %i, s32[] %n), direction=LT
}
%body (b: (s32[], f32[4])) -> (s32[], f32[4]) {
  ROOT %b = (s32[], f32[4]{0}) parameter(0)
}
%t (x: f32[4]) -> f32[4] { ROOT %x = f32[4]{0} parameter(0) }
%f (y: f32[4]) -> f32[4] { %y = f32[4]{0} parameter(0)
  ROOT %ny = f32[4]{0} negate(f32[4]{0} %y) }
ENTRY %e (init: (s32[], f32[4]), c: pred[], i2: s32[]) -> f32[4] {
  %init = (s32[], f32[4]{0}) parameter(0)
  %c = pred[] parameter(1)
  %i2 = s32[] parameter(2)
  %w = (s32[], f32[4]{0}) while((s32[], f32[4]{0}) %init), condition=%cond, body=%body, backend_config={"known_trip_count":{"n":"10"}}
  %v = f32[4]{0} get-tuple-element((s32[], f32[4]{0}) %w), index=1
  %k = f32[4]{0} conditional(pred[] %c, f32[4]{0} %v, f32[4]{0} %v), true_computation=%t, false_computation=%f
  ROOT %j = f32[4]{0} conditional(s32[] %i2, f32[4]{0} %v, f32[4]{0} %k), branch_computations={%t, %f}
}
)");
  ASSERT_EQ(modules.size(), 1u);
  const HloModule& m = modules[0];
  ASSERT_EQ(m.computations.size(), 5u);
  EXPECT_EQ(m.computations[2].instructions.size(), 1u);
  EXPECT_TRUE(m.computations[2].instructions[0].root_marker);
  const HloComputation& e = m.entry();
  EXPECT_THAT(CalledComputationNames(e.instructions[3]),
              ElementsAre("cond", "body"));
  EXPECT_THAT(CalledComputationNames(e.instructions[5]), ElementsAre("t", "f"));
  EXPECT_THAT(CalledComputationNames(e.instructions[6]), ElementsAre("t", "f"));
}

TEST(HloReader, SubByteAndScalarTiles) {
  const std::vector<HloModule> modules = ReadOk(R"(HloModule m
ENTRY e {
  a = s4[64,128]{1,0:T(64,128)(8,1)E(4)} parameter(0)
  b = u2[1001]{0:E(2)} parameter(1)
  ROOT c = f32[]{:T(128)S(1)} parameter(2)
}
)");
  ASSERT_EQ(modules.size(), 1u);
  const HloComputation& e = modules[0].entry();
  EXPECT_EQ(e.instructions[0].shape->layout().element_size_in_bits(), 4);
  EXPECT_EQ(e.instructions[1].shape->layout().element_size_in_bits(), 2);
  const Shape& c = *e.instructions[2].shape;
  EXPECT_EQ(c.rank(), 0);
  EXPECT_EQ(c.layout().tiles().size(), 1u);
  EXPECT_EQ(c.layout().memory_space(), 1);
  EXPECT_EQ(c.ToString(true), "f32[]{:T(128)S(1)}");
}

TEST(HloReader, ComputationOfAnEmptyTuple) {
  // A computation without instructions is refused (issue 87;
  // reader_strict_test.cc); one of `() tuple()` is read, its result the
  // empty tuple.
  const std::vector<HloModule> modules = ReadOk(R"(HloModule m
%nothing () -> () {
  ROOT t = () tuple()
}
ENTRY e {
  ROOT t = () tuple()
}
)");
  ASSERT_EQ(modules.size(), 1u);
  const HloModule& m = modules[0];
  ASSERT_EQ(m.computations.size(), 2u);
  EXPECT_TRUE(m.computations[0].header.has_signature);
  ASSERT_NE(m.computations[0].header.result_shape, nullptr);
  EXPECT_EQ(m.computations[0].header.result_shape->tuple_size(), 0);
  EXPECT_EQ(m.entry().instructions[0].shape->tuple_size(), 0);
}

TEST(HloReader, RawAttributeForms) {
  const std::string text = R"(HloModule m
add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}
fused {
  ROOT x = f32[4,16]{1,0} parameter(0)
}
ENTRY e {
  p = f32[8,16]{1,0} parameter(0), sharding={devices=[4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}
  q = f32[8,16]{1,0} custom-call(p), custom_call_target="__cublas$gemm", backend_config="{\"alpha\": 1, \"s\": \"a,b)}\"}", api_version=API_VERSION_TYPED_FFI
  r = f32[8,16]{1,0} all-reduce(q), replica_groups=mesh['axis_0'=2,'axis_1'=2] {'axis_1'}, to_apply=add
  s = f32[8,16]{1,0} convolution(r, r), window={size=3x3 stride=2x2 pad=1_1x1_1}, dim_labels=b01f_01io->b01f
  t = f32[4,16]{1,0} slice(s), slice={[0:8:2], [0:16]}, control-predecessors={%r, %q}
  ROOT u = f32[4,16]{1,0} fusion(t), kind=kOutput, calls=%fused, backend_config={
    "operation_queue_id": "0",
    "fusion_backend_config": {"kind": "__triton_gemm", "block": [32, {"x": "}"}]}
  }, frontend_attributes={_xla_stream_annotation="1"}
}, execution_thread="main"
)";
  const std::vector<HloModule> modules = ReadOk(text);
  ASSERT_EQ(modules.size(), 1u);
  const HloComputation& e = modules[0].entry();
  EXPECT_EQ(e.execution_thread, "\"main\"");
  ASSERT_EQ(e.instructions.size(), 6u);
  // T(1,0) in an iota sharding is a transpose, kept as text.
  EXPECT_EQ(*FindHloAttribute(e.instructions[0].attributes(), "sharding"),
            "{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}");
  const auto& q = e.instructions[1].attributes();
  ASSERT_EQ(q.size(), 3u);
  EXPECT_EQ(q[1].value(), R"("{\"alpha\": 1, \"s\": \"a,b)}\"}")");
  EXPECT_EQ(q[2].value(), "API_VERSION_TYPED_FFI");
  EXPECT_EQ(*FindHloAttribute(e.instructions[2].attributes(), "replica_groups"),
            "mesh['axis_0'=2,'axis_1'=2] {'axis_1'}");
  EXPECT_EQ(*FindHloAttribute(e.instructions[2].attributes(), "to_apply"),
            "add");
  EXPECT_EQ(*FindHloAttribute(e.instructions[3].attributes(), "dim_labels"),
            "b01f_01io->b01f");
  EXPECT_EQ(*FindHloAttribute(e.instructions[4].attributes(), "slice"),
            "{[0:8:2], [0:16]}");
  EXPECT_EQ(e.instructions[4].attributes()[1].name(), "control-predecessors");
  const auto& u = e.instructions[5];
  ASSERT_EQ(u.attributes().size(), 4u);
  EXPECT_THAT(u.attributes()[2].value(), HasSubstr("\"__triton_gemm\""));
  EXPECT_EQ(u.attributes()[3].name(), "frontend_attributes");
  EXPECT_TRUE(u.root_marker);
}

TEST(HloReader, ConstantLiteralsAreSkippedNotCopied) {
  std::string big = "{ ";
  for (int i = 0; i < 100000; ++i) {
    big += i == 0 ? "" : ", ";
    big += "{1.5, -inf, nan}";
  }
  big += " }";
  const std::string text =
      "HloModule m\nENTRY e {\n  c = f32[100000,3]{1,0} constant(" + big +
      "), metadata={op_name=\"k\"}\n  z = c64[] constant((0, 1))\n  ROOT t = "
      "() constant(())\n}\n";
  absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(text);
  ASSERT_TRUE(modules.ok()) << modules.status();
  const HloComputation& e = (*modules)[0].entry();
  EXPECT_EQ(e.instructions[0].literal().size(), big.size());
  EXPECT_TRUE(IsViewInto(e.instructions[0].literal(), text));
  EXPECT_TRUE(e.instructions[0].operands().empty());
  EXPECT_EQ(e.instructions[0].attributes().size(), 1u);
  EXPECT_EQ(e.instructions[1].literal(), "(0, 1)");
  EXPECT_EQ(e.instructions[2].literal(), "()");
}

TEST(HloReader, AttributeValuesSkipStringsCommentsAndDeepNesting) {
  // Escaped quotes and backslashes, brackets inside strings, a comment with
  // brackets, 70 levels of nesting (past the skipper's fast path) and a
  // value longer than 16 bytes of plain text between brackets.
  const std::string deep = std::string(70, '[') + std::string(70, ']');
  const std::string text = absl::StrCat(
      "ENTRY e {\n  p = f32[2]{0} parameter(0), backend_config=\"{\\\"a\\\": "
      "\\\"}]\\\\\\\\\\\"}\", metadata={op_name=\"a(b)/c[d]{e}\\\\\" "
      "x={/* } ] ) */ 1}}, d=",
      deep, ", long={abcdefghijklmnopqrstuvwxyz0123456789 {x}}\n}\n");
  const std::vector<HloModule> modules = ReadOk(text);
  ASSERT_EQ(modules.size(), 1u);
  const HloInstruction& p = modules[0].entry().instructions[0];
  ASSERT_EQ(p.attributes().size(), 4u);
  EXPECT_EQ(p.attributes()[0].value(), "\"{\\\"a\\\": \\\"}]\\\\\\\\\\\"}\"");
  EXPECT_EQ(p.attributes()[1].value(),
            "{op_name=\"a(b)/c[d]{e}\\\\\" x={/* } ] ) */ 1}}");
  EXPECT_EQ(p.attributes()[2].value(), deep);
  EXPECT_EQ(p.attributes()[3].value(),
            "{abcdefghijklmnopqrstuvwxyz0123456789 {x}}");
  // Too deep for max_depth: the careful path says where.
  HloReadOptions shallow;
  shallow.max_depth = 8;
  absl::StatusOr<std::vector<HloModule>> read = ReadHloModules(text, shallow);
  ASSERT_FALSE(read.ok());
  EXPECT_THAT(std::string(read.status().message()),
              HasSubstr("2:134: brackets nested deeper than 8 levels"));
}

TEST(HloReader, LongAttributeValuesAcrossSkipperBlocks) {
  // The bracket skipper works 64 bytes at a time: strings that hold
  // brackets and run across block edges, a backslash late in a value (its
  // block goes the careful way), a comment in a long value, nesting that
  // closes several blocks later.
  const std::string pad(50, 'x');
  const std::string json =
      absl::StrCat("{\"a\":[{\"b\":\"", pad,
                   "}]){[(\"},{\"c\":[[1,2],[3]]}],\"d\":\"", pad, "\\\"]\"}");
  const std::string meta = absl::StrCat("{op_name=\"", pad, "(", pad,
                                        ")\" x={/* } ] */ ", pad, "}}");
  const std::string text = absl::StrCat(
      "ENTRY e {\n  p = f32[2]{0} parameter(0), backend_config=", json,
      ", metadata=", meta, ", sharding={replicated}\n}\n");
  const std::vector<HloModule> modules = ReadOk(text);
  ASSERT_EQ(modules.size(), 1u);
  const HloInstruction& p = modules[0].entry().instructions[0];
  ASSERT_EQ(p.attributes().size(), 3u);
  EXPECT_EQ(p.attributes()[0].value(), json);
  EXPECT_EQ(p.attributes()[1].value(), meta);
  EXPECT_EQ(p.attributes()[2].value(), "{replicated}");
  // A mismatch deep in a long value: the careful path says where.
  const std::string bad = absl::StrCat(
      "ENTRY e {\n  p = f32[2]{0} parameter(0), backend_config={\"a\":[\"", pad,
      "\",", pad, "}}\n}\n");
  EXPECT_THAT(ReadError(bad),
              HasSubstr("dump.txt:2:155: expected ']', found '}'"));
}

TEST(HloReader, ErrorsCarryFileLineColumnAndCaret) {
  EXPECT_EQ(ReadError("HloModule m\nENTRY e {\n  p = f32[2]{0} parameter(0)\n"
                      "  q f32[2]{0} negate(p)\n}\n"),
            "dump.txt:4:5: expected '=' after instruction name 'q', found "
            "'f32'\n  q f32[2]{0} negate(p)\n    ^");
  // Shape errors come from the shape parser, at file positions.
  EXPECT_EQ(ReadError("HloModule m\nENTRY e {\n  p = f32[2{0} parameter(0)\n}"),
            "dump.txt:3:12: expected ',' or ']' in dimensions, found '{'\n"
            "  p = f32[2{0} parameter(0)\n           ^");
  EXPECT_EQ(ReadError("ENTRY e {\n  p = f32[2]{0} parameter(0), "
                      "metadata={op_name=\"x}\n}\n"),
            "dump.txt:2:49: unterminated string\n  p = f32[2]{0} "
            "parameter(0), metadata={op_name=\"x}\n"
            "                                                ^");
  EXPECT_EQ(ReadError("ENTRY e {\n  p = f32[2]{0} parameter(0), x={[1}]\n}"),
            "dump.txt:2:36: expected ']', found '}'\n"
            "  p = f32[2]{0} parameter(0), x={[1}]\n"
            "                                   ^");
  EXPECT_EQ(ReadError("ENTRY e {\n  ROOT a = f32[] parameter(0)\n"
                      "  ROOT b = f32[] parameter(1)\n}"),
            "dump.txt:3:3: second ROOT instruction in 'e'\n"
            "  ROOT b = f32[] parameter(1)\n  ^");
  EXPECT_EQ(ReadError("ENTRY a {\n  ROOT x = f32[] constant(0)\n}\n"
                      "ENTRY b {\n  ROOT y = f32[] constant(0)\n}\n"),
            "dump.txt:4:1: second ENTRY computation\nENTRY b {\n^");
  EXPECT_EQ(ReadError("ENTRY e {\n  p = f32[] parameter(0)\n"),
            "dump.txt:1:9: computation 'e' is never closed\nENTRY e {\n"
            "        ^");
  EXPECT_EQ(ReadError("HloModule m, is_scheduled=true\n"),
            "dump.txt:1:1: module has no computations\n"
            "HloModule m, is_scheduled=true\n^");
  EXPECT_EQ(ReadError("HloModule m\nENTRY e {\n  p = f32[] add(p,, q)\n}"),
            "dump.txt:3:19: expected an operand name, found ','\n"
            "  p = f32[] add(p,, q)\n                  ^");
  EXPECT_EQ(ReadError("HloModule m, entry_computation_layout={(f32[])f32[]}"
                      "\nENTRY e {}\n"),
            "dump.txt:1:47: expected '->' in entry layout, found 'f32'\n"
            "HloModule m, entry_computation_layout={(f32[])f32[]}\n"
            "                                              ^");
  EXPECT_EQ(ReadError("ENTRY e {\n  p = f32[2]{0} parameter(0) /* open\n}"),
            "dump.txt:2:30: unterminated comment\n"
            "  p = f32[2]{0} parameter(0) /* open\n"
            "                             ^");
  EXPECT_EQ(ReadError("junk here\n"),
            "dump.txt:1:6: expected '{' to open computation 'junk', found "
            "'here'\njunk here\n     ^");
}

// Today's XLA prints a use of one output of a multi-output instruction as
// `%name#N` (here a cuBLAS custom call with its workspace, and a
// multi-output fusion), in place of a get-tuple-element.
constexpr char kOutputIndexOperands[] =
    R"(HloModule jit_matmul, is_scheduled=true

%fused (p: f32[8,16]) -> (f32[8,16], f32[]) {
  %p = f32[8,16]{1,0} parameter(0)
  %n = f32[8,16]{1,0} negate(%p)
  %z = f32[] constant(0)
  ROOT %t = (f32[8,16]{1,0}, f32[]) tuple(%n, %z)
}

ENTRY %main (a: f32[8,32], b: f32[32,16]) -> (f32[128], f32[]) {
  %a = f32[8,32]{1,0} parameter(0)
  %b = f32[32,16]{1,0} parameter(1)
  %custom-call.1 = (f32[8,16]{1,0}, s8[4194304]{0}) custom-call(%a, %b), custom_call_target="__cublas$gemm"
  %fusion = (f32[8,16]{1,0}, f32[]) fusion(%custom-call.1#0), kind=kLoop, calls=%fused
  %bitcast.7 = f32[128]{0} bitcast(f32[8,16]{1,0} %fusion#0)
  ROOT %tuple = (f32[128]{0}, f32[]) tuple(%bitcast.7, %fusion#1)
}
)";

TEST(HloReader, OutputIndexOperandsOfMultiOutputInstructions) {
  for (const bool share_shapes : {true, false}) {
    HloReadOptions options;
    options.share_shapes = share_shapes;
    absl::StatusOr<std::vector<HloModule>> modules =
        ReadHloModules(kOutputIndexOperands, options);
    ASSERT_TRUE(modules.ok()) << modules.status();
    const HloComputation& main = (*modules)[0].entry();
    ASSERT_EQ(main.instructions.size(), 6u);
    const HloInstruction& custom_call = main.instructions[2];
    ASSERT_EQ(custom_call.operands().size(), 2u);
    EXPECT_FALSE(custom_call.operands()[0].has_output_index());
    EXPECT_EQ(custom_call.operands()[0].output_index, HloOperand::kWholeResult);
    const HloInstruction& fusion = main.instructions[3];
    ASSERT_EQ(fusion.operands().size(), 1u);
    EXPECT_EQ(fusion.operands()[0].name, "custom-call.1");
    EXPECT_EQ(fusion.operands()[0].output_index, 0);
    EXPECT_EQ(fusion.operand_text(), "%custom-call.1#0");
    const HloInstruction& bitcast = main.instructions[4];
    ASSERT_EQ(bitcast.operands().size(), 1u);
    EXPECT_EQ(bitcast.operands()[0].name, "fusion");
    EXPECT_EQ(bitcast.operands()[0].output_index, 0);
    EXPECT_EQ(OperandShape(bitcast.operands()[0]), "f32[8,16]{1,0}");
    const HloInstruction& tuple = main.instructions[5];
    ASSERT_EQ(tuple.operands().size(), 2u);
    EXPECT_EQ(tuple.operands()[0].name, "bitcast.7");
    EXPECT_FALSE(tuple.operands()[0].has_output_index());
    EXPECT_EQ(tuple.operands()[1].name, "fusion");
    EXPECT_EQ(tuple.operands()[1].output_index, 1);
  }
}

TEST(HloReader, OutputIndexNeedsDigits) {
  EXPECT_THAT(ReadError("ENTRY e {\n  p = (f32[], f32[]) parameter(0)\n"
                        "  ROOT n = f32[] negate(p#)\n}"),
              HasSubstr("dump.txt:3:27: expected an output index after '#'"));
  EXPECT_THAT(ReadError("ENTRY e {\n  p = (f32[], f32[]) parameter(0)\n"
                        "  ROOT n = f32[] negate(p#99999999999999999999)\n}"),
              HasSubstr("output index out of range"));
}

// HloOperand::output_index and HloInstruction::parameter_number keep 32
// bits: a larger number is refused, by the fast path and the careful one
// alike (a comment on the line sends it to the careful path), never wrapped.
TEST(HloReader, NumbersOverInt32AreRefused) {
  for (const char* comment : {"", " // careful"}) {
    SCOPED_TRACE(comment);
    // Read as a number, then refused as XLA refuses a parameter number
    // past the computation's parameter count.
    EXPECT_THAT(
        ReadError(absl::StrCat(
            "ENTRY e {\n  p = (f32[], f32[]) parameter(2147483647)", comment,
            "\n  ROOT g = f32[] get-tuple-element(p), index=1\n}")),
        HasSubstr("dump.txt:2:3: parameter number 2147483647 is out of "
                  "range: 'e' has 1 parameter"));
    EXPECT_THAT(ReadError(absl::StrCat(
                    "ENTRY e {\n  p = (f32[], f32[]) parameter(2147483648)",
                    comment, "\n  ROOT n = f32[] negate(p#1)\n}")),
                HasSubstr("dump.txt:2:32: parameter number out of range"));
    EXPECT_THAT(
        ReadError(absl::StrCat("ENTRY e {\n  p = (f32[], f32[]) parameter(0)\n"
                               "  ROOT n = f32[] negate(p#2147483648)",
                               comment, "\n}")),
        HasSubstr("dump.txt:3:27: output index out of range"));
  }
  // At the limit: read, then refused for the element it names.
  EXPECT_THAT(ReadError("ENTRY e {\n  p = (f32[], f32[]) parameter(0)\n"
                        "  ROOT n = f32[] negate(p#2147483647)\n}"),
              testing::Not(HasSubstr("out of range")));
}

TEST(HloReader, InstructionsOnOneLine) {
  // An instruction ends where the next token is not ','.
  const std::vector<HloModule> modules = ReadOk(
      "add { p = f32[] parameter(0), sharding={replicated} q = f32[] "
      "parameter(1) ROOT r = f32[] add(p, q) }");
  ASSERT_EQ(modules.size(), 1u);
  const HloComputation& c = modules[0].entry();
  ASSERT_EQ(c.instructions.size(), 3u);
  EXPECT_EQ(c.instructions[0].attributes()[0].value(), "{replicated}");
  EXPECT_EQ(c.instructions[1].name(), "q");
  EXPECT_EQ(c.root_index, 2);
}

TEST(HloReader, BadShapeInAnOperandIsAnError) {
  EXPECT_EQ(ReadError("ENTRY e {\n  ROOT n = f32[2]{0} negate(f32[2]{0,0} "
                      "p)\n}"),
            "dump.txt:2:35: layout has 2 dimensions but the shape has "
            "rank 1\n  ROOT n = f32[2]{0} negate(f32[2]{0,0} p)\n"
            "                                  ^");
}

// Records errors and instruction names in keep-going mode.
class Recorder : public HloVisitor {
 public:
  void VisitInstruction(const HloInstruction& instruction) override {
    names.push_back(std::string(instruction.name()));
  }
  void EndComputation(int64_t root_index, absl::string_view) override {
    roots.push_back(root_index);
  }
  void EndModule(int64_t entry_index) override { ++modules; }
  void Error(const absl::Status& error) override {
    errors.push_back(std::string(error.message()));
  }
  std::vector<std::string> names;
  std::vector<std::string> errors;
  std::vector<int64_t> roots;
  int modules = 0;
};

TEST(HloReader, KeepGoingReportsEachBadInstruction) {
  const std::string text = R"(HloModule m
ENTRY e {
  a = f32[2]{0} parameter(0)
  b = f32[2{0} negate(a)
  c = f32[2]{0} negate(a), backend_config={
    "k": [1, 2
  }
  d = f32[2]{0} negate(a), metadata={op_name="unterminated}
  ROOT e = f32[2]{0} add(a, a)
}
// -----
HloModule broken, entry_computation_layout={(f32[])->}
ENTRY e { ROOT a = f32[] parameter(0) }
// -----
HloModule fine
ENTRY e { ROOT a = f32[] parameter(0) }
)";
  HloReadOptions options;
  options.file_name = "x.hlo";
  options.keep_going = true;
  Recorder recorder;
  const absl::Status status = ReadHlo(text, options, &recorder);
  EXPECT_EQ(status.message(), "4 errors in the hlo text");
  EXPECT_THAT(recorder.names, ElementsAre("a", "e", "a"));
  EXPECT_THAT(recorder.roots, ElementsAre(1, 0));
  EXPECT_EQ(recorder.modules, 2);
  ASSERT_EQ(recorder.errors.size(), 4u);
  EXPECT_THAT(recorder.errors[0],
              HasSubstr("x.hlo:4:12: expected ',' or ']' in dimensions"));
  EXPECT_THAT(recorder.errors[1], HasSubstr("x.hlo:7:3: expected ']'"));
  EXPECT_THAT(recorder.errors[2], HasSubstr("x.hlo:8:46: unterminated string"));
  EXPECT_THAT(recorder.errors[3], HasSubstr("x.hlo:12:54: expected a shape"));
}

TEST(HloReader, KeepGoingWithReadHloModules) {
  HloReadOptions options;
  options.keep_going = true;
  std::vector<absl::Status> errors;
  absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(
      "ENTRY e {\n a = f32[] parameter(0)\n b = f32[] ???\n ROOT c = f32[] "
      "negate(a)\n}\n",
      options, &errors);
  ASSERT_TRUE(modules.ok());
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_THAT(errors[0].message(), HasSubstr("3:12: expected an opcode"));
  ASSERT_EQ(modules->size(), 1u);
  EXPECT_EQ((*modules)[0].entry().instructions.size(), 2u);
  EXPECT_EQ((*modules)[0].entry().root_index, 1);
}

// keep_going: an ENTRY computation whose header is refused (its name is
// taken) is not the module's entry; the entry is a computation read.
TEST(HloReader, KeepGoingRefusedEntryHeaderLeavesAValidEntry) {
  HloReadOptions options;
  options.keep_going = true;
  std::vector<absl::Status> errors;
  absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(
      "HloModule m\n"
      "a { ROOT x = f32[] parameter(0) }\n"
      "main { ROOT y = f32[] parameter(0) }\n"
      "ENTRY main { ROOT z = f32[] parameter(0) }\n",
      options, &errors);
  ASSERT_TRUE(modules.ok());
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_THAT(errors[0].message(),
              HasSubstr("4:1: computation 'main' is defined twice"));
  ASSERT_EQ(modules->size(), 1u);
  const HloModule& m = (*modules)[0];
  ASSERT_EQ(m.computations.size(), 2u);
  ASSERT_EQ(m.entry_index, 1);
  EXPECT_EQ(m.entry().header.name, "main");
  EXPECT_EQ(m.entry().instructions[0].name(), "y");
}

TEST(HloReader, EmptyTextHasNoModules) {
  EXPECT_TRUE(ReadOk("").empty());
  EXPECT_TRUE(ReadOk("  // only a comment\n/* and this */\n").empty());
}

// Counts what a generated dump should contain, from the decoded shapes.
class Counter : public HloVisitor {
 public:
  void BeginModule(const HloModuleHeader& header) override {
    ++modules;
    shapes += static_cast<int64_t>(header.entry_parameter_shapes.size()) +
              (header.has_entry_computation_layout ? 1 : 0);
  }
  void BeginComputation(const HloComputationHeader& header) override {
    ++computations;
    shapes += static_cast<int64_t>(header.parameters.size()) +
              (header.has_signature ? 1 : 0);
  }
  void VisitInstruction(const HloInstruction& in) override {
    ++instructions;
    for (const HloOperand& operand : in.operands()) {
      if (operand.has_shape()) ++shapes;
    }
    if (!in.has_shape()) return;
    ++shapes;
    AddLeaves(*in.shape);
  }
  void AddLeaves(const Shape& shape) {
    if (shape.IsTuple()) {
      for (const Shape& element : shape.tuple_shapes()) AddLeaves(element);
      return;
    }
    if (!shape.IsArray()) return;
    ++leaves;
    int64_t n = 1;
    for (int64_t d = 0; d < shape.rank(); ++d) {
      if (shape.is_unbounded_dynamic_dimension(d)) {
        ++unbounded;
        return;
      }
      n *= shape.dimension(d);
    }
    elements += n;
  }
  int64_t modules = 0, computations = 0, instructions = 0, shapes = 0,
          leaves = 0, unbounded = 0, elements = 0;
};

class GeneratedDump : public testing::TestWithParam<HloDumpStyle> {};

INSTANTIATE_TEST_SUITE_P(Styles, GeneratedDump,
                         testing::Values(HloDumpStyle::kClassic,
                                         HloDumpStyle::kXlaTpu,
                                         HloDumpStyle::kXlaTpuSmall),
                         [](const testing::TestParamInfo<HloDumpStyle>& info) {
                           return info.param == HloDumpStyle::kXlaTpu ? "XlaTpu"
                                  : info.param == HloDumpStyle::kClassic
                                      ? "Classic"
                                      : "XlaTpuSmall";
                         });

TEST_P(GeneratedDump, RoundTripsItsBookkeeping) {
  HloDumpOptions dump_options;
  dump_options.target_bytes = 4 << 20;
  dump_options.modules = 3;
  dump_options.style = GetParam();
  const GeneratedHloDump dump = GenerateHloDump(dump_options);
  ASSERT_GE(dump.text.size(), 4u << 20);
  Counter counter;
  const absl::Status status = ReadHlo(dump.text, {}, &counter);
  ASSERT_TRUE(status.ok()) << status;
  EXPECT_EQ(counter.modules, dump.modules);
  EXPECT_EQ(counter.modules, 3);
  EXPECT_EQ(counter.computations, dump.computations);
  EXPECT_EQ(counter.instructions, dump.instructions);
  EXPECT_EQ(counter.shapes, dump.shapes);
  EXPECT_EQ(counter.leaves, dump.array_leaves);
  EXPECT_EQ(counter.unbounded, dump.unbounded_leaves);
  EXPECT_EQ(counter.elements, dump.elements);

  // The same without the shape cache: every shape text decoded in place.
  HloReadOptions unshared;
  unshared.share_shapes = false;
  Counter again;
  ASSERT_TRUE(ReadHlo(dump.text, unshared, &again).ok());
  EXPECT_EQ(again.instructions, dump.instructions);
  EXPECT_EQ(again.shapes, dump.shapes);
  EXPECT_EQ(again.leaves, dump.array_leaves);
  EXPECT_EQ(again.elements, dump.elements);
}

// More distinct shape texts than the cache holds (it is emptied several
// times): every shape of every kept instruction still points to the shape its
// text decodes to, after the reader is gone.
TEST(HloReader, KeptShapesOutliveTheCache) {
  HloDumpOptions dump_options;
  dump_options.target_bytes = 4 << 20;
  dump_options.distinct_shapes = 40000;
  const GeneratedHloDump dump = GenerateHloDump(dump_options);
  std::vector<HloModule> modules = ReadOk(dump.text);
  ASSERT_EQ(modules.size(), 1u);
  const HloModule copy = modules[0];
  modules.clear();  // the copy shares the shapes
  int64_t checked = 0;
  auto check = [&](absl::string_view text, const Shape* shape) {
    ASSERT_NE(shape, nullptr);
    absl::StatusOr<Shape> expected = ParseShape(text);
    ASSERT_TRUE(expected.ok()) << text;
    ASSERT_EQ(*shape, *expected) << text;
    ++checked;
  };
  for (const HloComputation& c : copy.computations) {
    for (const HloInstruction& in : c.instructions) {
      if (in.has_shape()) check(in.shape_text(), in.shape);
      // An operand keeps its shape decoded only: the generator writes
      // the definition's text at the use.
      for (const HloOperand& operand : in.operands()) {
        if (!operand.has_shape()) continue;
        ASSERT_GE(operand.index, 0) << operand.name;
        check(c.instructions[operand.index].shape_text(), operand.shape);
      }
    }
  }
  EXPECT_GT(checked, 20000);
  // Each shape is owned once per module.
  EXPECT_LT(copy.shapes.size(), static_cast<size_t>(checked));
}

// A module read whole keeps every shape: once the shape cache is full it
// grows rather than empties, and no text is decoded twice (emptied, the
// cache decoded each text seen again into a second Shape the module kept).
TEST(HloReader, EachShapeTextDecodedOnceInAModule) {
  // 20,000 distinct shape texts (more than the 12,288 the cache first
  // holds), each seen again after all of them.
  constexpr int kTexts = 20000;
  std::string text = "ENTRY e {\n";
  for (int i = 0; i < kTexts; ++i) {
    absl::StrAppend(&text, "  p", i, " = f32[", i + 1, "]{0} parameter(", i,
                    ")\n");
  }
  for (int i = 0; i < kTexts; ++i) {
    absl::StrAppend(&text, i + 1 == kTexts ? "  ROOT" : " ", " n", i, " = f32[",
                    i + 1, "]{0} negate(p", i, ")\n");
  }
  text += "}\n";
  absl::StatusOr<std::vector<HloModule>> modules =
      ReadHloModules(text, HloReadOptions(), nullptr, /*threads=*/1);
  ASSERT_TRUE(modules.ok()) << modules.status();
  ASSERT_EQ(modules->size(), 1u);
  const HloComputation& e = (*modules)[0].entry();
  ASSERT_EQ(e.instructions.size(), 2u * kTexts);
  int64_t twice = 0;
  for (int i = 0; i < kTexts; ++i) {
    ASSERT_EQ(e.instructions[i].shape_text(),
              e.instructions[kTexts + i].shape_text());
    if (e.instructions[i].shape != e.instructions[kTexts + i].shape) ++twice;
  }
  EXPECT_EQ(twice, 0);
  EXPECT_EQ((*modules)[0].shapes.size(), static_cast<size_t>(kTexts));
}

// Long shape texts are kept too: a loop state of 7,000 elements (70 KB of
// text) written at each of its get-tuple-elements is decoded once, not once
// per use (a Shape per use held 34 times the text).
TEST(HloReader, LongShapeTextsDecodedOnceInAModule) {
  constexpr int kElements = 7000;
  std::string state = "(";
  for (int i = 0; i < kElements; ++i) {
    absl::StrAppend(&state, i == 0 ? "" : ", ", "f32[4]{0}");
  }
  state += ")";
  ASSERT_GT(state.size(), size_t{1} << 16);
  std::string text =
      absl::StrCat("ENTRY e {\n  s = ", state, " parameter(0)\n");
  for (int i = 0; i < 3; ++i) {
    absl::StrAppend(&text, i == 2 ? "  ROOT" : " ", " g", i,
                    " = f32[4]{0} get-tuple-element(", state, " s), index=", i,
                    "\n");
  }
  text += "}\n";
  absl::StatusOr<std::vector<HloModule>> modules =
      ReadHloModules(text, HloReadOptions(), nullptr, /*threads=*/1);
  ASSERT_TRUE(modules.ok()) << modules.status();
  const HloComputation& e = (*modules)[0].entry();
  ASSERT_EQ(e.instructions.size(), 4u);
  for (int i = 1; i <= 3; ++i) {
    ASSERT_EQ(e.instructions[i].operands().size(), 1u);
    EXPECT_EQ(e.instructions[i].operands()[0].shape, e.instructions[0].shape);
  }
  // The tuple once, f32[4]{0} once.
  EXPECT_EQ((*modules)[0].shapes.size(), 2u);
}

// Signatures are not copied into each header: computations with the same
// signature text point to one Shape, which outlives the reader and the
// vector the modules came in.
TEST(HloReader, SignatureShapesAreSharedNotCopied) {
  std::vector<HloModule> modules = ReadOk(R"(HloModule m
%f (a: f32[8], b: (s32[], bf16[2,3])) -> f32[8] {
  %a = f32[8]{0} parameter(0)
  %b = (s32[], bf16[2,3]{1,0}) parameter(1)
  ROOT %n = f32[8]{0} negate(%a)
}
%g (a: f32[8], b: (s32[], bf16[2,3])) -> f32[8] {
  %a = f32[8]{0} parameter(0)
  %b = (s32[], bf16[2,3]{1,0}) parameter(1)
  ROOT %n = f32[8]{0} abs(%a)
}
ENTRY %main (p: f32[8]) -> f32[8] {
  %p = f32[8]{0} parameter(0)
  ROOT %c = f32[8]{0} copy(%p)
}
)");
  ASSERT_EQ(modules.size(), 1u);
  const HloModule m = modules[0];
  modules.clear();  // the copy shares the shapes
  const HloComputationHeader& f = m.computations[0].header;
  const HloComputationHeader& g = m.computations[1].header;
  const HloComputationHeader& e = m.computations[2].header;
  ASSERT_EQ(f.parameters.size(), 2u);
  ASSERT_EQ(g.parameters.size(), 2u);
  EXPECT_EQ(f.parameters[0].shape, g.parameters[0].shape);
  EXPECT_EQ(f.parameters[1].shape, g.parameters[1].shape);
  EXPECT_EQ(f.parameters[0].shape, f.result_shape);
  EXPECT_EQ(e.parameters[0].shape, f.result_shape);
  EXPECT_EQ(f.parameters[0].shape->ToString(true), "f32[8]{0}");
  EXPECT_EQ(g.parameters[1].shape->ToString(true), "(s32[], bf16[2,3]{1,0})");
  EXPECT_EQ(g.result_shape->ToString(true), "f32[8]{0}");
}

// While streaming, a signature's result shape is checked against the root
// after the shape cache has been emptied in the middle of the computation:
// the header keeps its own copy of the shapes the cache owned.
TEST(HloReader, SignatureShapesOutliveACacheEmptiedMidComputation) {
  std::string text = "HloModule m\nENTRY %main (p: f32[<=4]) -> f32[<=4] {\n";
  for (int i = 1; i <= 13000; ++i) {
    absl::StrAppend(&text, "  %p", i, " = f32[", i, "]{0} parameter(", i,
                    ")\n");
  }
  absl::StrAppend(&text, "  %p = f32[<=4]{0} parameter(0)\n",
                  "  ROOT %r = f32[4]{0} copy(%p)\n}\n");
  HloVisitor visitor;
  ASSERT_TRUE(ReadHlo(text, HloReadOptions(), &visitor).ok());
  std::string bad = text;
  bad.replace(bad.rfind("f32[4]{0} copy"), 6, "f32[5]");
  const absl::Status status = ReadHlo(bad, HloReadOptions(), &visitor);
  EXPECT_FALSE(status.ok());
  EXPECT_THAT(std::string(status.message()),
              HasSubstr("returns f32[<=4] but its root 'r' is f32[5]"));
}

// Many near-identical shape texts (one prefix, different tails; arrays with
// and without layouts, tuples longer than the reader's 64-byte guessing
// window, odd spacing) followed by different next characters: every shape
// the reader hands out, through its cache or not, is what ParseShape makes
// of the text it reports, and that text is the one written.
struct ExpectedInstruction {
  std::string shape;  // empty: none
  std::vector<std::string> operand_shapes;
};

class ShapeChecker : public HloVisitor {
 public:
  explicit ShapeChecker(const std::vector<ExpectedInstruction>* expected)
      : expected_(expected) {}
  void VisitInstruction(const HloInstruction& in) override {
    ASSERT_LT(seen, expected_->size());
    const ExpectedInstruction& want = (*expected_)[seen++];
    Check(want.shape, in.shape_text(), in.shape);
    ASSERT_EQ(in.operands().size(), want.operand_shapes.size()) << in.name();
    // An operand keeps its shape decoded only (no text).
    for (size_t i = 0; i < in.operands().size(); ++i) {
      const std::string& operand = want.operand_shapes[i];
      Check(operand, operand, in.operands()[i].shape);
    }
  }
  void Check(const std::string& want, absl::string_view text,
             const Shape* shape) {
    ASSERT_EQ(text, want);
    if (want.empty()) {
      ASSERT_EQ(shape, nullptr);
      return;
    }
    ASSERT_NE(shape, nullptr) << want;
    absl::StatusOr<Shape> decoded = ParseShape(want);
    ASSERT_TRUE(decoded.ok()) << want;
    ASSERT_EQ(*shape, *decoded) << want << " read as " << shape->ToString(true);
    ++checked;
  }
  size_t seen = 0;
  int64_t checked = 0;

 private:
  const std::vector<ExpectedInstruction>* expected_;
};

TEST(HloReader, CachedShapesEqualTheirDecodedTextEverywhere) {
  std::mt19937 rng(20240611);
  auto pick = [&rng](const std::vector<std::string>& from) {
    return from[rng() % from.size()];
  };
  // Shape texts sharing long prefixes.
  std::vector<std::string> pool = {"f32[]",
                                   "f32[]{:T(128)}",
                                   "f32[8]",
                                   "f32[8]{0}",
                                   "f32[8] {0}",
                                   "f32[8,128]",
                                   "f32[8,128]{1,0}",
                                   "f32[8,128]{0,1}",
                                   "f32[8,128]{1,0:T(8,128)}",
                                   "f32[8,128]{1,0:T(8,128)(2,1)}",
                                   "f32[8,128]{1,0:T(8,128)S(1)}",
                                   "f32[8,1280]{1,0:T(8,128)}",
                                   "bf16[8,128]{1,0:T(8,128)(2,1)}",
                                   "bf16[8,128]{1,0:T(8,128)}",
                                   "(f32[8,128]{1,0}, f32[8])",
                                   "(f32[8,128]{1,0}, f32[8]{0})",
                                   "(f32[8,128]{1,0}, (f32[8], s32[]))",
                                   "(f32[8,128]{1,0},f32[8])",
                                   "(f32[8,128]{1,0}, /*index=1*/f32[8])",
                                   "()",
                                   "(f32[])",
                                   "( f32[8] , s32[] )",
                                   "(f32[8,128]{1,0} , f32[8])"};
  const std::string long_prefix =
      "(f32[8,128]{1,0:T(8,128)}, f32[8,128]{1,0:T(8,128)}, f32[8,128]{1,0:";
  for (const char* tail : {"T(8,128)})", "T(8,128)}, s32[])", "T(8,128)(2,1)})",
                           "T(8,128)}, f32[8])"}) {
    pool.push_back(long_prefix + tail);
  }
  for (int i = 0; i < 300; ++i) {
    const std::string dims =
        absl::StrCat("[", 1 + rng() % 9, ",", 128, i % 3 == 0 ? "" : ",4", "]");
    const bool rank3 = i % 3 != 0;
    std::string text = absl::StrCat(i % 2 ? "f32" : "bf16", dims);
    const int layout = rng() % 4;
    if (layout == 1) absl::StrAppend(&text, rank3 ? "{2,1,0}" : "{1,0}");
    if (layout == 2) {
      absl::StrAppend(&text, rank3 ? "{2,1,0:T(" : "{1,0:T(", 1 + rng() % 8,
                      ",128)}");
    }
    if (layout == 3) absl::StrAppend(&text, rank3 ? "{0,1,2}" : "{0,1}");
    pool.push_back(rng() % 3 == 0 ? absl::StrCat("(", text, ", f32[8]{0})")
                                  : text);
  }
  for (const std::string& text : pool) {
    ASSERT_TRUE(ParseShape(text).ok()) << text;
  }
  const std::vector<std::string> after_result = {" ", "  ", "\t", " /*r*/ ",
                                                 "\n      "};
  const std::vector<std::string> before_name = {" %",  " ", "  %",
                                                "\t%", "%", " /*o*/ %"};
  std::vector<ExpectedInstruction> expected;
  std::string text = "HloModule near_identical\n\n";
  // Every operand names a parameter of the shape written at the use (the
  // reader checks that they match).
  std::map<std::string, size_t> parameter_of;
  for (size_t j = 0; j < pool.size(); ++j) parameter_of.emplace(pool[j], j);
  for (int c = 0; c < 40; ++c) {
    absl::StrAppend(&text, "%c", c, " {\n");
    for (size_t j = 0; j < pool.size(); ++j) {
      ExpectedInstruction want;
      want.shape = pool[j];
      absl::StrAppend(&text, "  %p", j, " = ", pool[j], " parameter(", j,
                      ")\n");
      expected.push_back(std::move(want));
    }
    for (int i = 0; i < 150; ++i) {
      ExpectedInstruction want;
      // A name of varying length moves the shapes around the window.
      absl::StrAppend(&text, "  %i", c, "_", i, std::string(rng() % 40, 'x'),
                      " = ");
      if (rng() % 10 != 0) {
        want.shape = pick(pool);
        absl::StrAppend(&text, want.shape, pick(after_result));
      }
      absl::StrAppend(&text, "op", rng() % 3, "(");
      const int operands = rng() % 4;
      for (int k = 0; k < operands; ++k) {
        if (k > 0) absl::StrAppend(&text, rng() % 2 ? ", " : ",");
        std::string shape;
        if (rng() % 8 != 0) {
          shape = pick(pool);
          absl::StrAppend(&text, shape, pick(before_name));
        } else {
          absl::StrAppend(&text, "%");
        }
        absl::StrAppend(&text, "p", shape.empty() ? 0 : parameter_of.at(shape));
        want.operand_shapes.push_back(shape);
      }
      absl::StrAppend(&text, ")");
      if (rng() % 2) absl::StrAppend(&text, ", metadata={op_name=\"x y\"}");
      absl::StrAppend(&text, "\n");
      expected.push_back(std::move(want));
    }
    absl::StrAppend(&text, "}\n\n");
  }
  for (const bool share : {true, false}) {
    HloReadOptions options;
    options.share_shapes = share;
    ShapeChecker checker(&expected);
    const absl::Status status = ReadHlo(text, options, &checker);
    ASSERT_TRUE(status.ok()) << status;
    EXPECT_EQ(checker.seen, expected.size());
    EXPECT_GT(checker.checked, 10000);
  }
  // Kept instructions too (each module owns its shapes).
  const std::vector<HloModule> modules = ReadOk(text);
  ASSERT_EQ(modules.size(), 1u);
  ShapeChecker checker(&expected);
  for (const HloComputation& c : modules[0].computations) {
    for (const HloInstruction& in : c.instructions) {
      checker.VisitInstruction(in);
    }
  }
  EXPECT_EQ(checker.seen, expected.size());
}

}  // namespace
}  // namespace hlolayout

namespace hlolayout {
namespace {

// Everything but the operands, to compare reads with and without them.
struct InstructionView {
  std::string name, shape_text, opcode, operand_text, literal, attributes;
  bool root = false;
  std::string shape;
  bool operator==(const InstructionView& o) const {
    return name == o.name && shape_text == o.shape_text && opcode == o.opcode &&
           operand_text == o.operand_text && literal == o.literal &&
           attributes == o.attributes && root == o.root && shape == o.shape;
  }
};

std::vector<InstructionView> Views(absl::string_view text, bool operands,
                                   size_t* operand_count) {
  HloReadOptions options;
  options.read_operands = operands;
  absl::StatusOr<std::vector<HloModule>> modules =
      ReadHloModules(text, options);
  EXPECT_TRUE(modules.ok()) << modules.status();
  std::vector<InstructionView> views;
  if (!modules.ok()) return views;
  for (const HloModule& m : *modules) {
    for (const HloComputation& c : m.computations) {
      for (const HloInstruction& in : c.instructions) {
        InstructionView v;
        v.name = std::string(in.name());
        v.shape_text = std::string(in.shape_text());
        v.opcode = std::string(in.opcode_name());
        v.operand_text = std::string(in.operand_text());
        v.literal = std::string(in.literal());
        for (const HloAttribute& a : in.attributes()) {
          absl::StrAppend(&v.attributes, a.name(), "=", a.value(), "\n");
        }
        v.root = in.root_marker;
        if (in.shape != nullptr) v.shape = in.shape->ToString(true);
        *operand_count += in.operands().size();
        views.push_back(std::move(v));
      }
    }
  }
  return views;
}

// The report reads without operands (HloReadOptions::read_operands false):
// the skipped operand lists must end exactly where read ones do, through
// tuple shapes, `/*index=N*/` comments (one holding a ')'), `#N` operands
// and lists that span lines, so every other part of every instruction is
// the same.
TEST(HloReader, SkippedOperandListsEndWhereReadOnesDo) {
  HloDumpOptions dump_options;
  dump_options.target_bytes = 1 << 20;
  const std::string generated = GenerateHloDump(dump_options).text;
  const std::string tricky = R"(HloModule m

ENTRY %main (p: (f32[2], s32[]), q: f32[2]) -> f32[2] {
  %p = (f32[2]{0}, s32[]) parameter(0)
  %q = f32[2]{0} parameter(1)
  %t = ((f32[2]{0}, s32[]), f32[2]{0}) tuple((f32[2]{0}, /*index=1*/s32[]) %p,
      f32[2]{0} /* a ) in a comment */ %q), metadata={op_name="a(b"}
  %g = f32[2]{0} get-tuple-element(((f32[2]{0}, s32[]), f32[2]{0}) %t), index=1
  ROOT %n = f32[2]{0} negate(%t#1), sharding={replicated}
}
)";
  for (const std::string& text :
       {generated, std::string(kOutputIndexOperands), tricky}) {
    size_t with_count = 0, without_count = 0;
    const std::vector<InstructionView> with = Views(text, true, &with_count);
    const std::vector<InstructionView> without =
        Views(text, false, &without_count);
    ASSERT_EQ(with.size(), without.size());
    EXPECT_GE(with.size(), 5u);
    for (size_t i = 0; i < with.size(); ++i) {
      EXPECT_TRUE(with[i] == without[i]) << with[i].name;
    }
    EXPECT_GT(with_count, 0u);
    EXPECT_EQ(without_count, 0u);
  }
  // The tricky list: its raw text is kept whole.
  size_t count = 0;
  const std::vector<InstructionView> views = Views(tricky, false, &count);
  ASSERT_EQ(views.size(), 5u);
  EXPECT_EQ(views[2].operand_text,
            "(f32[2]{0}, /*index=1*/s32[]) %p,\n      f32[2]{0} /* a ) in a "
            "comment */ %q");
  EXPECT_EQ(views[2].attributes, "metadata={op_name=\"a(b\"}\n");
}

}  // namespace
}  // namespace hlolayout
