#include "hlolayout/hlo/verifier.h"

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlolayout/hlo/reader.h"
#include "hlolayout/util/input_text.h"

namespace hlolayout {
namespace {

using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::SizeIs;

// The reader's module of `text` (which must read), verified.
absl::Status Verified(absl::string_view text,
                      const HloVerifyOptions& options = {}) {
  absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(text);
  EXPECT_TRUE(modules.ok()) << modules.status();
  if (!modules.ok()) return absl::OkStatus();
  for (const HloModule& m : *modules) {
    absl::Status status = VerifyHloModule(text, m, options);
    if (!status.ok()) return status;
  }
  return absl::OkStatus();
}

// Issue 88's example: read without a word, refused by the verifier with a
// located message.
TEST(VerifyHloModule, ANegateOfAnotherShapeIsRefused) {
  const std::string text =
      "HloModule m\n"
      "ENTRY %main (p: f32[2]) -> f32[3] {\n"
      "  %p = f32[2]{0} parameter(0)\n"
      "  ROOT %n = f32[3]{0} negate(%p)\n"
      "}\n";
  HloVerifyOptions options;
  options.file_name = "dump.txt";
  const absl::Status status = Verified(text, options);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(),
            "dump.txt:4:13: shape f32[3]{0} of 'n' is not negate's of its "
            "operands: f32[2]\n"
            "  ROOT %n = f32[3]{0} negate(%p)\n"
            "            ^");
}

// The opcodes as XLA writes them: exponential, sine and cosine (the
// inference listed "exp", "sin" and "cos", so their shapes went unchecked).
TEST(VerifyHloModule, ExponentialSineAndCosineAreChecked) {
  for (const char* op : {"exponential", "sine", "cosine"}) {
    const std::string text = absl::StrCat(
        "HloModule m\n"
        "ENTRY %main (p: f32[2]) -> f32[3] {\n"
        "  %p = f32[2]{0} parameter(0)\n"
        "  ROOT %n = f32[3]{0} ",
        op,
        "(%p)\n"
        "}\n");
    const absl::Status status = Verified(text, {});
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << op;
    EXPECT_THAT(std::string(status.message()),
                ::testing::HasSubstr(
                    absl::StrCat("of 'n' is not ", op, "'s of its operands")))
        << op;
  }
}

TEST(VerifyHloModule, WhatXlaAcceptsPasses) {
  EXPECT_TRUE(Verified(R"(HloModule m
%add (x: f32[], y: f32[]) -> f32[] {
  %x = f32[] parameter(0)
  %y = f32[] parameter(1)
  ROOT %s = f32[] add(%x, %y)
}
ENTRY %main (p: f32[2,3], q: f32[2,3], c: c64[2]) -> (pred[2,3], f32[2,3], f32[2], f32[2,3]) {
  %p = f32[2,3]{0,1} parameter(0)
  %q = f32[2,3]{1,0} parameter(1)
  %c = c64[2]{0} parameter(2)
  %lt = pred[2,3]{1,0} compare(%p, %q), direction=LT
  %m = f32[2,3]{0,1:T(8,128)} multiply(%p, %q)
  %sel = f32[2,3]{1,0} select(%lt, %p, %m)
  %re = f32[2]{0} real(%c)
  %one = f32[] constant(1)
  %cl = f32[2,3]{1,0} clamp(%one, %sel, %one)
  %t = (pred[2,3]{1,0}, f32[2,3]{1,0}) tuple(%lt, %cl)
  %g = f32[2,3]{1,0} get-tuple-element(%t), index=1
  %r = f32[] reduce(%p, %one), dimensions={0,1}, to_apply=%add
  ROOT %out = (pred[2,3]{1,0}, f32[2,3]{1,0}, f32[2]{0}, f32[2,3]{1,0}) tuple(%lt, %g, %re, %cl)
}
)")
                  .ok());
}

TEST(VerifyHloModule, EachRuleRefuses) {
  const struct {
    const char* q;  // the signature's second parameter
    const char* body;
    const char* message;
  } cases[] = {
      // Dimensions of a binary op.
      {"f32[3]", "%x = f32[2]{0} add(%p, %q)",
       "'x': cannot infer the shape of 'add': operand shapes f32[3] and f32[2] "
       "differ"},
      // Element types: compare gives pred; add keeps f32.
      {"f32[2]", "%x = f32[2]{0} compare(%p, %q), direction=EQ",
       "of 'x' is not compare's of its operands: pred[2]"},
      {"f32[2]", "%x = bf16[2]{0} add(%p, %q)",
       "of 'x' is not add's of its operands: f32[2]"},
      // A tuple of other shapes; an element that is not there.
      {"f32[2]", "%x = (f32[2]{0}, s32[2]{0}) tuple(%p, %q)",
       "of 'x' is not tuple's of its operands: (f32[2], f32[2])"},
      {"f32[2]",
       "%t = (f32[2]{0}, f32[2]{0}) tuple(%p, %q)\n"
       "  %x = f32[3]{0} get-tuple-element(%t), index=0",
       "of 'x' is not get-tuple-element's of its operands: f32[2]"},
      // A parameter unlike its signature's.
      {"f32[4]", "%x = f32[2]{0} negate(%p)",
       "of 'q' is not parameter 1's in the signature of 'main': f32[4]"},
  };
  for (const auto& c : cases) {
    const bool q_differs =
        absl::string_view(c.message).find("'q'") != absl::string_view::npos;
    const std::string text = absl::StrCat(
        "HloModule m\nENTRY %main (p: f32[2], q: ", c.q, ") -> f32[2] {\n",
        "  %p = f32[2]{0} parameter(0)\n  %q = ",
        q_differs ? "f32[2]{0}" : absl::StrCat(c.q, "{0}"), " parameter(1)\n  ",
        c.body, "\n  ROOT %r = f32[2]{0} negate(%p)\n}\n");
    absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(text);
    if (!modules.ok()) {
      ADD_FAILURE() << "the reader refuses " << text << ": "
                    << modules.status();
      continue;
    }
    const absl::Status status = VerifyHloModule(text, (*modules)[0]);
    EXPECT_THAT(std::string(status.message()), HasSubstr(c.message)) << text;
  }
}

TEST(VerifyHloModule, MixedPrecisionWhenAllowed) {
  const std::string text =
      "HloModule m\n"
      "ENTRY %main (p: f32[2], q: bf16[2]) -> bf16[2] {\n"
      "  %p = f32[2]{0} parameter(0)\n"
      "  %q = bf16[2]{0} parameter(1)\n"
      "  ROOT %a = bf16[2]{0} add(%p, %q)\n"
      "}\n";
  EXPECT_FALSE(Verified(text).ok());
  HloVerifyOptions mixed;
  mixed.allow_mixed_precision = true;
  EXPECT_TRUE(Verified(text, mixed).ok());
}

TEST(VerifyHloModule, AllErrorsInOrder) {
  const std::string text =
      "HloModule m\n"
      "ENTRY %main (p: f32[2]) -> f32[2] {\n"
      "  %p = f32[2]{0} parameter(0)\n"
      "  %n = f32[3]{0} negate(%p)\n"
      "  %a = s32[2]{0} abs(%p)\n"
      "  ROOT %r = f32[2]{0} negate(%p)\n"
      "}\n";
  absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(text);
  ASSERT_TRUE(modules.ok()) << modules.status();
  const std::vector<absl::Status> errors =
      VerifyHloModuleAll(text, (*modules)[0]);
  ASSERT_THAT(errors, SizeIs(2));
  EXPECT_THAT(std::string(errors[0].message()), HasSubstr("4:8: shape"));
  EXPECT_THAT(std::string(errors[1].message()), HasSubstr("5:8: shape"));
  EXPECT_THAT(VerifyHloModuleAll("", HloModule()), IsEmpty());
}

// What XLA wrote passes: every module of the dumps XLA:GPU, XLA:CPU and
// XLA:TPU wrote (memory/testdata*). XLA:TPU's with mixed precision allowed:
// its optimized modules hold selects of a bf16 result from f32 operands
// (module_0662, 7546, 1407 of testdata_xla_tpu), which XLA's verifier
// refuses with its default options, so XLA:TPU's own verifier allows them.
TEST(VerifyHloModule, XlasOwnDumpsPass) {
  int verified = 0;
  for (const auto& [folder, mixed] : std::vector<std::pair<const char*, bool>>{
           {"memory/testdata", false},
           {"memory/testdata_jaxlib_0.10.2", false},
           {"memory/testdata_xla_gpu", false},
           {"memory/testdata_xla_tpu", true},
           {"memory/testdata_xla_tpu_chips", true}}) {
    for (const auto& entry :
         std::filesystem::recursive_directory_iterator(folder)) {
      const std::string path = entry.path().string();
      if (!absl::EndsWith(path, "optimizations.txt")) continue;
      absl::StatusOr<std::string> text = ReadFileText(path);
      ASSERT_TRUE(text.ok()) << text.status();
      absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(*text);
      ASSERT_TRUE(modules.ok()) << path << ": " << modules.status();
      HloVerifyOptions options;
      options.file_name = path;
      options.allow_mixed_precision = mixed;
      for (const HloModule& m : *modules) {
        EXPECT_TRUE(VerifyHloModule(*text, m, options).ok())
            << VerifyHloModule(*text, m, options);
      }
      ++verified;
    }
  }
  EXPECT_GE(verified, 20);
}

}  // namespace
}  // namespace hlolayout
