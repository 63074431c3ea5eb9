#include "hlolayout/triton/layout_explain.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlolayout/answers/triton.h"
#include "hlolayout/util/fields.h"
#include "hlolayout/views/triton_text.h"

namespace hlolayout::triton {
namespace {

using ::testing::HasSubstr;

constexpr char kBlocked[] =
    "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], "
    "warpsPerCTA = [4, 1], order = [1, 0]}>";

// The answer's text and JSON (answers/triton.h) of what `e` explains.
std::string LayoutExplanationText(const LayoutExplanation& e) {
  return ExplainText(AnswerExplain(e.given, 16));
}

std::string LayoutExplanationJson(const LayoutExplanation& e) {
  return AnswerJson(AnswerExplain(e.given, 16),
                    RecordJsonWriter::Style::kIndented);
}

LayoutExplanation Explain(const std::string& text,
                          std::optional<std::vector<int64_t>> shape,
                          int bits = 16) {
  absl::StatusOr<GivenLayout> g = ReadGivenLayout(text, shape, nullptr);
  EXPECT_TRUE(g.ok()) << g.status();
  return ExplainLayout(*std::move(g), bits);
}

TEST(LayoutExplain, BlockedFacts) {
  const LayoutExplanation e =
      Explain(absl::StrCat("  ", kBlocked, "\n"), std::vector<int64_t>{32, 32});
  EXPECT_EQ(e.given.text, kBlocked);  // surrounding blanks removed
  EXPECT_EQ(e.given.kind, "blocked");
  EXPECT_EQ(e.given.as_read, kBlocked);
  EXPECT_EQ(e.shape, (std::vector<int64_t>{32, 32}));
  EXPECT_EQ(e.consecutive, 4);
  // The CuTe form is the answer's (answers/cute_bridge.h joins the models).
  EXPECT_EQ(AnswerExplain(e.given, 16).cute,
            "((4,2),(8,4),4,_1):((32,16),(128,1),4,_0)");
  EXPECT_FALSE(e.xla_form.ok());  // a register layout has no XLA form
  ASSERT_TRUE(e.linear.has_value());
  EXPECT_THAT(*e.linear, HasSubstr("register = [[0, 1], [0, 2], [16, 0]]"));
  EXPECT_TRUE(e.view.ok());  // 1,024 elements: small enough
  EXPECT_TRUE(e.padding.empty());
  const std::string text = LayoutExplanationText(e);
  EXPECT_THAT(text, HasSubstr("kind: blocked, shape 32x32\n"));
  EXPECT_THAT(text, HasSubstr("injective: yes, surjective: yes"));
  EXPECT_THAT(text, HasSubstr("row-major): 4\n"));
  EXPECT_THAT(text, HasSubstr("\nview:\n[[  T0:0,"));
  EXPECT_EQ(text.find("as read:"), std::string::npos);
  const std::string json = LayoutExplanationJson(e);
  EXPECT_THAT(json, HasSubstr("\"consecutive\": 4"));
  EXPECT_THAT(json, HasSubstr("\"kind\": \"blocked\""));
  EXPECT_THAT(json, HasSubstr("\"xla\": null"));
}

TEST(LayoutExplain, LargeLayoutHasNoView) {
  const LayoutExplanation e = Explain(kBlocked, std::vector<int64_t>{64, 64});
  EXPECT_FALSE(e.view.ok());
  EXPECT_THAT(LayoutExplanationText(e),
              HasSubstr("views: more than 1,024 elements"));
  EXPECT_TRUE(LayoutView(e.given.layout, /*hw=*/false).ok());
}

TEST(LayoutExplain, BitsChooseTheXlaFormsElementType) {
  const std::string shared =
      "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = "
      "[1, 0]}>";
  const LayoutExplanation e16 = Explain(shared, std::vector<int64_t>{8, 128});
  const LayoutExplanation e8 = Explain(shared, std::vector<int64_t>{8, 128}, 8);
  ASSERT_TRUE(e16.xla_form.ok()) << e16.xla_form.status();
  ASSERT_TRUE(e8.xla_form.ok()) << e8.xla_form.status();
  EXPECT_EQ(e16.xla_form->substr(0, 4), "f16[");
  EXPECT_EQ(e8.xla_form->substr(0, 3), "s8[");
}

TEST(LayoutExplain, PaddedSharedSaysItsPadding) {
  const LayoutExplanation e =
      Explain("#ttg.padded_shared<[32:+4] {order = [1, 0], shape = [64, 64]}>",
              std::vector<int64_t>{64, 64});
  EXPECT_EQ(e.padding,
            "4 after every 32 (the bases are the linear component: offsets "
            "before padding)");
  EXPECT_THAT(LayoutExplanationText(e),
              HasSubstr("(of the linear component; XLA has no padding"));
}

TEST(LayoutExplain, LinearJsonNeedsNoShape) {
  const LayoutExplanation e = Explain(
      R"({"bases": [["in", [[1], [2]]]], "out_dims": ["out1"]})", std::nullopt);
  EXPECT_EQ(e.given.kind, "linear layout");
  EXPECT_FALSE(e.given.named.has_value());
  EXPECT_EQ(e.shape, (std::vector<int64_t>{4}));
  EXPECT_FALSE(e.linear.has_value());  // neither register nor shared
  EXPECT_THAT(LayoutExplanationJson(e), HasSubstr("\"as_read\": null"));
}

TEST(LayoutExplain, IgnoredKeysWarnAndAsReadShowsThem) {
  std::vector<std::string> warnings;
  absl::StatusOr<GivenLayout> g = ReadGivenLayout(
      "#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, "
      "32, 8], isTransposd = true}>",
      std::vector<int64_t>{64, 64}, &warnings);
  ASSERT_TRUE(g.ok()) << g.status();
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_THAT(warnings[0], HasSubstr("isTransposd"));
  EXPECT_NE(g->as_read, g->text);
  EXPECT_THAT(LayoutExplanationText(ExplainLayout(*std::move(g), 16)),
              HasSubstr("as read: #ttg.amd_mfma<{version = 3"));
}

TEST(LayoutExplain, BadInputs) {
  absl::StatusOr<GivenLayout> no_shape =
      ReadGivenLayout(kBlocked, std::nullopt, nullptr);
  ASSERT_FALSE(no_shape.ok());
  EXPECT_EQ(no_shape.status().message(), "a #ttg.blocked layout needs a shape");
  EXPECT_EQ(ReadGivenLayout(kBlocked, std::nullopt, nullptr, "--shape")
                .status()
                .message(),
            "a #ttg.blocked layout needs --shape");
  EXPECT_FALSE(
      ReadGivenLayout("#ttg.blocked<", std::vector<int64_t>{4}, nullptr).ok());
  EXPECT_FALSE(ReadGivenLayout("", std::nullopt, nullptr).ok());
  EXPECT_FALSE(ReadGivenLayout("{\"bases\": 3}", std::nullopt, nullptr).ok());
  // A shape of the wrong rank is Triton's refusal.
  EXPECT_FALSE(
      ReadGivenLayout(kBlocked, std::vector<int64_t>{32}, nullptr).ok());
}

}  // namespace
}  // namespace hlolayout::triton
