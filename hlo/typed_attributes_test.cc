// The typed attributes an instruction answers (HloInstruction::tuple_index,
// fusion_kind, custom_call_target; HloModule::operand_aliasing, callees):
// decoded once by the reader, and the same answers for a record the reader
// did not decode (streamed, or made by hand).
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlolayout/hlo/attribute_value.h"
#include "hlolayout/hlo/module.h"
#include "hlolayout/hlo/reader.h"
#include "hlolayout/testing/stringify.h"

namespace hlolayout {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

constexpr absl::string_view kModule = R"(HloModule m

%f (p: f32[2]) -> f32[2] {
  %p = f32[2]{0} parameter(0)
  ROOT %n = f32[2]{0} negate(%p)
}

%g (q: f32[2]) -> f32[2] {
  %q = f32[2]{0} parameter(0)
  ROOT %e = f32[2]{0} exponential(%q)
}

ENTRY %main (a: f32[2]) -> (f32[2], f32[2]) {
  %a = f32[2]{0} parameter(0)
  %loop = f32[2]{0} fusion(%a), kind=kLoop, calls=%f
  %input = f32[2]{0} fusion(%loop), calls=%g, kind=kInput
  %out = f32[2]{0} fusion(%a), kind=kOutput, calls=%f, output_to_operand_aliasing={{}: (0, {})}
  %custom = f32[2]{0} fusion(%a), kind=kCustom, calls=%g
  %mm = (f32[2]{0}, s8[16]{0}) custom-call(%a, %out), metadata={op_name="x"}, custom_call_target="__cublas$lt$matmul", output_to_operand_aliasing={{0}: (1, {}), {1}: (0, {}, may-alias)}
  %plain = f32[2]{0} custom-call(%a), custom_call_target="Sharding"
  %gte = f32[2]{0} get-tuple-element(%mm), index=0
  ROOT %t = (f32[2]{0}, f32[2]{0}) tuple(%gte, %plain)
}
)";

// Every instruction's typed attributes, one line each.
std::string Typed(const HloModule* module, const HloInstruction& in) {
  std::string out = std::string(in.name());
  if (in.tuple_index().has_value()) {
    absl::StrAppend(&out, " index=", *in.tuple_index());
  }
  if (in.fusion_kind().has_value()) {
    absl::StrAppend(&out, " kind=", HloFusionKindName(*in.fusion_kind()));
  }
  if (!in.custom_call_target().empty()) {
    absl::StrAppend(&out, " target=", in.custom_call_target());
  }
  if (module != nullptr) {
    for (const HloAliasPair& p : module->operand_aliasing(in)) {
      absl::StrAppend(&out, " alias{", absl::StrJoin(p.output_index, ","),
                      "}:", p.number, "{", absl::StrJoin(p.index, ","), "}",
                      p.kind);
    }
  }
  return out;
}

const std::vector<std::string> kExpected = {
    "a",
    "loop kind=kLoop",
    "input kind=kInput",
    "out kind=kOutput alias{}:0{}",
    "custom kind=kCustom",
    "mm target=__cublas$lt$matmul alias{0}:1{} alias{1}:0{}may-alias",
    "plain target=Sharding",
    "gte index=0",
    "t",
};

TEST(HloTypedAttributes, DecodedOnceByTheReader) {
  absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(kModule);
  ASSERT_TRUE(modules.ok()) << modules.status();
  const HloModule& m = (*modules)[0];
  std::vector<std::string> lines;
  for (const HloInstruction& in : m.entry().instructions) {
    // Recorded, not read again from the attributes.
    EXPECT_NE(in.decoded_attribute, HloInstruction::kAskAttributes)
        << in.name();
    lines.push_back(Typed(&m, in));
  }
  EXPECT_EQ(lines, kExpected);
  // The two entries, sorted by offset.
  ASSERT_EQ(m.operand_aliasing_table.size(), 2u);
  EXPECT_LT(m.operand_aliasing_table[0].offset,
            m.operand_aliasing_table[1].offset);
  // Callees are resolved: the fusion's called computation by index.
  const HloInstruction& loop = m.entry().instructions[1];
  ASSERT_EQ(m.callees(loop).size(), 1u);
  EXPECT_EQ(m.computations[m.callees(loop)[0]].header.name, "f");
  EXPECT_EQ(Stringified(HloFusionKind::kInput), "kInput");
  EXPECT_EQ(Streamed(HloFusionKind::kOutput), "kOutput");
  // metadata= where the reader recorded it.
  const HloInstruction& mm = m.entry().instructions[5];
  EXPECT_EQ(mm.metadata_attribute, 0);
  EXPECT_EQ(mm.metadata(), "{op_name=\"x\"}");
}

// A record whose facts are unknown (made by hand, or the records a visitor
// is streamed) reads its attributes for the same answers.
TEST(HloTypedAttributes, SameAnswersFromTheAttributes) {
  absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(kModule);
  ASSERT_TRUE(modules.ok()) << modules.status();
  HloModule forgotten = (*modules)[0];
  for (HloComputation& c : forgotten.computations) {
    for (HloInstruction& in : c.instructions) {
      in.attribute_facts = kHloFactsUnknown;
      in.decoded_attribute = HloInstruction::kAskAttributes;
    }
  }
  forgotten.operand_aliasing_table.clear();
  DecodeHloOperandAliasing(&forgotten);
  std::vector<std::string> lines;
  for (const HloInstruction& in : forgotten.entry().instructions) {
    lines.push_back(Typed(&forgotten, in));
  }
  EXPECT_EQ(lines, kExpected);

  struct Streamed : HloVisitor {
    void VisitInstruction(const HloInstruction& in) override {
      lines.push_back(Typed(nullptr, in));
    }
    std::vector<std::string> lines;
  } streamed;
  ASSERT_TRUE(ReadHlo(kModule, {}, &streamed).ok());
  EXPECT_EQ(streamed.lines[streamed.lines.size() - 4],
            "mm target=__cublas$lt$matmul");
  EXPECT_EQ(streamed.lines[streamed.lines.size() - 2], "gte index=0");
}

TEST(HloTypedAttributes, KindsTargetsAndIndicesOfAnyText) {
  const HloAttribute a[] = {
      {"kind", "kLoops"}, {"custom_call_target", "\"\""}, {"index", "-1"}};
  HloInstruction in;
  in.set_attributes(a);
  EXPECT_FALSE(in.fusion_kind().has_value());  // not one of XLA's kinds
  EXPECT_EQ(in.custom_call_target(), "");
  EXPECT_FALSE(in.tuple_index().has_value());
  const HloAttribute b[] = {{"kind", "kOutput"},
                            {"custom_call_target", "\"a\\\"b\""},
                            {"index", "4294967296"}};
  in.set_attributes(b);
  EXPECT_EQ(in.fusion_kind(), HloFusionKind::kOutput);
  EXPECT_EQ(in.custom_call_target(), "a\\\"b");  // escapes as written
  EXPECT_EQ(in.tuple_index(), int64_t{4294967296});
  EXPECT_EQ(ParseHloFusionKind("kCustom"), HloFusionKind::kCustom);
  EXPECT_FALSE(ParseHloFusionKind("loop").has_value());
  HloModule empty;
  EXPECT_THAT(empty.operand_aliasing(in), IsEmpty());
  EXPECT_FALSE(in.channel_id().has_value());
  EXPECT_EQ(in.metadata(), "");
  EXPECT_EQ(in.backend_config(), "");
  const HloAttribute c[] = {{"channel_id", "7"},
                            {"metadata", "{op_name=\"a/b\"}"},
                            {"backend_config", "\"{\\\"x\\\": 1}\""},
                            {"metadata", "{op_name=\"second\"}"}};
  in.set_attributes(c);
  EXPECT_EQ(in.channel_id(), int64_t{7});
  EXPECT_EQ(in.metadata(), "{op_name=\"a/b\"}");  // the first
  EXPECT_EQ(in.backend_config(), "\"{\\\"x\\\": 1}\"");
}

// custom_call_families and backend_config_has: what each family and hint
// matches (a substring of the target, or the whole target; a substring of
// the config as written), the same whether the reader recorded it, streamed
// it, or a record made otherwise reads its attributes.
constexpr absl::string_view kTargets = R"(HloModule m

ENTRY %main (a: f32[2]) -> f32[2] {
  %a = f32[2]{0} parameter(0)
  %lt = f32[2]{0} custom-call(%a), custom_call_target="__cublas$lt$matmul", backend_config={"beta":1}
  %lt8 = f32[2]{0} custom-call(%a), custom_call_target="__cublas$lt$matmul$f8"
  %gemm = f32[2]{0} custom-call(%a), custom_call_target= "x__cublas$gemm"
  %conv = f32[2]{0} custom-call(%a), custom_call_target=__cudnn$convForward
  %tri = f32[2]{0} custom-call(%a), custom_call_target="__triton", backend_config="__cublas"
  %chol = f32[2]{0} custom-call(%a), custom_call_target="__cusolver$cholesky"
  %one = f32[2]{0} custom-call(%a), custom_call_target="__onednn$matmul"
  %xnn = f32[2]{0} custom-call(%a), custom_call_target="__xnn_fusion"
  %none = f32[2]{0} custom-call(%a), backend_config="{\"fusion_backend_config\":{}}"
  %cfg = f32[2]{0} negate(%a), custom_call_target="__cudnn", backend_config={"x":"__triton","y":"NvShMem"}
  ROOT %cpu = f32[2]{0} negate(%cfg), backend_config={"outer_dimension_partitions":[2],"k":"__ynn_fusion"}
}
)";

std::string Families(const HloInstruction& in) {
  std::string out = absl::StrCat(in.name(), " ", in.custom_call_target(), ":");
  const std::pair<HloTargetFamily, absl::string_view> kFamilies[] = {
      {kHloTargetCublas, "cublas"},
      {kHloTargetCublasLtMatmul, "lt"},
      {kHloTargetCudnn, "cudnn"},
      {kHloTargetTriton, "triton"},
      {kHloTargetOnednn, "onednn"},
      {kHloTargetXnn, "xnn"},
      {kHloTargetCusolverCholesky, "cholesky"}};
  for (const auto& [family, name] : kFamilies) {
    if (in.custom_call_is(family)) absl::StrAppend(&out, " ", name);
  }
  EXPECT_EQ(in.custom_call_families(),
            HloTargetFamilies(in.custom_call_target()))
      << in.name();
  absl::StrAppend(&out, " |");
  if (in.backend_config_has(HloConfigHint::kGpu)) absl::StrAppend(&out, " gpu");
  if (in.backend_config_has(HloConfigHint::kCpu)) absl::StrAppend(&out, " cpu");
  if (in.backend_config_has(HloConfigHint::kNvshmem)) {
    absl::StrAppend(&out, " nvshmem");
  }
  return out;
}

const std::vector<std::string> kFamiliesExpected = {
    "a : |",
    "lt __cublas$lt$matmul: cublas lt |",
    "lt8 __cublas$lt$matmul$f8: cublas |",  // lt: the whole target only
    "gemm x__cublas$gemm: cublas |",        // anywhere in the target
    "conv __cudnn$convForward: cudnn |",    // unquoted
    "tri __triton: triton |",  // "__cublas" in the config is no target
    "chol __cusolver$cholesky: cholesky |",
    "one __onednn$matmul: onednn |",
    "xnn __xnn_fusion: xnn |",
    "none : | gpu",  // no target; the config's text
    // Not a custom-call: the attribute is still read, as before.
    "cfg __cudnn: cudnn | gpu nvshmem",
    "cpu : | cpu",
};

TEST(HloTypedAttributes, TargetFamiliesAndConfigHints) {
  absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(kTargets);
  ASSERT_TRUE(modules.ok()) << modules.status();
  HloModule& m = (*modules)[0];
  std::vector<std::string> lines;
  for (const HloInstruction& in : m.entry().instructions) {
    if (in.opcode == HloOpcode::kCustomCall) {
      EXPECT_NE(in.decoded_attribute, HloInstruction::kAskAttributes)
          << in.name();
    }
    lines.push_back(Families(in));
  }
  EXPECT_EQ(lines, kFamiliesExpected);

  lines.clear();
  ASSERT_EQ(m.computations.size(), 1u);
  for (HloInstruction& in : m.computations[0].instructions) {
    in.attribute_facts = kHloFactsUnknown;
    in.decoded_attribute = HloInstruction::kAskAttributes;
    lines.push_back(Families(in));
  }
  EXPECT_EQ(lines, kFamiliesExpected);

  struct Streamed : HloVisitor {
    void VisitInstruction(const HloInstruction& in) override {
      if (in.opcode == HloOpcode::kCustomCall) {
        EXPECT_NE(in.decoded_attribute, HloInstruction::kAskAttributes)
            << in.name();
      }
      lines.push_back(Families(in));
    }
    std::vector<std::string> lines;
  } streamed;
  ASSERT_TRUE(ReadHlo(kTargets, {}, &streamed).ok());
  EXPECT_EQ(streamed.lines, kFamiliesExpected);

  // The recorded bits are the families, not a position read elsewhere.
  absl::StatusOr<std::vector<HloModule>> again = ReadHloModules(kTargets);
  ASSERT_TRUE(again.ok()) << again.status();
  const HloInstruction& lt = (*again)[0].entry().instructions[1];
  EXPECT_EQ(lt.decoded_attribute,
            0 | (kHloTargetCublas | kHloTargetCublasLtMatmul)
                    << kHloTargetFamilyShift);
  EXPECT_EQ(HloTargetFamilies(""), 0);
  EXPECT_EQ(HloTargetFamilies("__xnn"), kHloTargetXnn);
  EXPECT_EQ(HloTargetFamilies("___cudnn"), kHloTargetCudnn);  // overlapping
  EXPECT_EQ(HloTargetFamilies("__x__triton__xnn"),
            kHloTargetTriton | kHloTargetXnn);
  EXPECT_FALSE(HloConfigHas("nvshme", HloConfigHint::kNvshmem));
  EXPECT_TRUE(HloConfigHas("xNVSHMEM", HloConfigHint::kNvshmem));
  EXPECT_EQ(StripHloQuotes(" \"a\" "), "a");
  EXPECT_EQ(StripHloQuotes("\""), "\"");
}

}  // namespace
}  // namespace hlolayout
