// What a visitor streamed to is handed with each instruction: its operands'
// definitions (HloOperand::index) and its attribute facts, as a module read
// whole has them, on one thread or in parts.
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "gtest/gtest.h"
#include "hlolayout/hlo/module.h"
#include "hlolayout/hlo/reader.h"
#include "hlolayout/testing/hlo_test_dump.h"

namespace hlolayout {
namespace {

// Checks each operand's index against the names handed so far.
struct IndexChecker : HloVisitor {
  void BeginComputation(const HloComputationHeader&) override {
    names.clear();
    ++computations;
  }
  void VisitInstruction(const HloInstruction& in) override {
    if ((in.attribute_facts & kHloFactsKnown) == 0) ++facts_unknown;
    for (const HloOperand& o : in.operands()) {
      if (o.index < 0) {
        ++unknown;
        // Only where the part does not know its computation's beginning.
        if (computations != 1) ++unknown_after_first;
        continue;
      }
      ++known;
      if (static_cast<size_t>(o.index) >= names.size() ||
          names[o.index] != o.name) {
        ++wrong;
      }
    }
    names.push_back(std::string(in.name()));
  }
  std::vector<std::string> names;
  int64_t computations = 0, known = 0, unknown = 0, unknown_after_first = 0,
          wrong = 0, facts_unknown = 0;
};

constexpr absl::string_view kModule = R"(HloModule m
%add (x: f32[], y: f32[]) -> f32[] {
  %x = f32[] parameter(0)
  %y = f32[] parameter(1)
  ROOT %s = f32[] add(%x, %y)
}
ENTRY %main (p: f32[8]) -> (f32[], f32[8]) {
  %p = f32[8]{0} parameter(0)
  %c = f32[] constant(0)
  %r = f32[] reduce(%p, %c), dimensions={0}, to_apply=%add
  %m = f32[] reduce(%p, %c), dimensions={0}, to_apply={
    a = f32[] parameter(0)
    b = f32[] parameter(1)
    ROOT mx = f32[] maximum(a, b)
  }
  %t = (f32[], f32[8]) tuple(%r, %p)
  %g = f32[] get-tuple-element(%t), index=0
  ROOT %out = (f32[], f32[8]) tuple(%g, %p)
}
)";

TEST(HloStreamed, OperandsKnowTheirDefinitions) {
  IndexChecker checker;
  ASSERT_TRUE(ReadHlo(kModule, {}, &checker).ok());
  EXPECT_EQ(checker.known, 13);  // inline computation's too
  EXPECT_EQ(checker.unknown, 0);
  EXPECT_EQ(checker.wrong, 0);
  EXPECT_EQ(checker.facts_unknown, 0);
}

// A large dump read in parts on several threads, each part streamed to a
// visitor of its own: every operand linked right; none left unknown but in
// the first computation of a part after a cut, where the part does not
// know how many instructions came before it.
TEST(HloStreamed, InPartsToo) {
  HloDumpOptions options;
  options.target_bytes = 12 << 20;
  const std::string text = GenerateHloDump(options).text;
  IndexChecker whole;
  ASSERT_TRUE(ReadHlo(text, {}, &whole).ok());
  EXPECT_GT(whole.known, 50000);
  EXPECT_EQ(whole.unknown, 0);
  EXPECT_EQ(whole.wrong, 0);

  const std::vector<size_t> cuts = HloCutPoints(text, 3);
  ASSERT_FALSE(cuts.empty());
  IndexChecker head;
  std::vector<IndexChecker> tails(cuts.size());
  std::vector<HloVisitor*> tail_visitors;
  for (IndexChecker& t : tails) tail_visitors.push_back(&t);
  bool joined = false;
  ASSERT_TRUE(ReadHloInParts(text, {}, cuts, 3, &head, tail_visitors, nullptr,
                             nullptr, &joined)
                  .ok());
  int64_t known = head.known, wrong = head.wrong,
          stray = head.unknown_after_first + head.unknown;
  for (const IndexChecker& t : tails) {
    known += t.known;
    wrong += t.wrong;
    stray += t.unknown_after_first;
  }
  // (The generated dump is mostly one large computation: its uses past
  // the first cut are in the tails' first computations, unknown.)
  EXPECT_GT(known, 0);
  EXPECT_EQ(wrong, 0);
  EXPECT_EQ(stray, 0);
}

}  // namespace
}  // namespace hlolayout
