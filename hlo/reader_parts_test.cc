// ReadHloHead and ReadHloTail: reading one text in parts.
#include <atomic>
#include <functional>
#include <string>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlolayout/hlo/reader.h"

namespace hlolayout {
namespace {

// Writes down every call, one line each.
class Log : public HloVisitor {
 public:
  void BeginModule(const HloModuleHeader& header) override {
    absl::StrAppend(&text, "module ", header.name, "\n");
  }
  void BeginComputation(const HloComputationHeader& header) override {
    absl::StrAppend(&text, "computation '", header.name, "' at ", header.offset,
                    header.entry_marker ? " ENTRY" : "", "\n");
  }
  void VisitInstruction(const HloInstruction& in) override {
    absl::StrAppend(&text, "  ", in.root_marker ? "ROOT " : "", in.name(), " ",
                    in.shape_text(), " ", in.opcode_name(), "\n");
  }
  void EndComputation(int64_t root_index, absl::string_view) override {
    absl::StrAppend(&text, "end computation, root ", root_index, "\n");
  }
  void EndModule(int64_t entry_index) override {
    absl::StrAppend(&text, "end module, entry ", entry_index, "\n");
  }
  void Error(const absl::Status& error) override {
    absl::StrAppend(&text, "error ", error.message(), "\n");
  }
  std::string text;
};

constexpr char kText[] = R"(HloModule m

%f (p: f32[2]) -> f32[2] {
  %p = f32[2]{0} parameter(0)
  ROOT %n = f32[2]{0} negate(%p)
}

ENTRY %main (a: f32[2]) -> f32[2] {
  %a = f32[2]{0} parameter(0)
  %b = f32[2]{0} fusion(%a), kind=kLoop, calls=%f
  %c = f32[2]{0} abs(%b)
}
)";

size_t Cut(absl::string_view instruction) {
  return absl::string_view(kText).find(instruction);
}

TEST(HloReaderParts, HeadStopsWhereItArrivesAndAsks) {
  int asked = 0;
  for (bool stop : {true, false}) {
    Log head;
    bool stopped = false;
    const std::function<bool()> at_stop = [&] {
      ++asked;
      return stop;
    };
    ASSERT_TRUE(
        ReadHloHead(kText, {}, Cut("%b ="), at_stop, &head, &stopped).ok());
    EXPECT_EQ(stopped, stop);
    Log whole;
    ASSERT_TRUE(ReadHlo(kText, {}, &whole).ok());
    if (stop) {
      // No end of the open computation and module.
      EXPECT_EQ(head.text, whole.text.substr(0, head.text.size()));
      EXPECT_EQ(head.text.find("end module"), std::string::npos);
      EXPECT_NE(head.text.find("  a f32[2]{0} parameter\n"), std::string::npos);
      EXPECT_EQ(head.text.find(" b "), std::string::npos);
    } else {
      EXPECT_EQ(head.text, whole.text);  // ReadHlo's reading
    }
  }
  EXPECT_EQ(asked, 2);
}

TEST(HloReaderParts, HeadThatDoesNotArriveReadsOn) {
  // A cut inside a line: never arrived at, never asked.
  Log head;
  bool stopped = true;
  const std::function<bool()> at_stop = [] { return true; };
  ASSERT_TRUE(
      ReadHloHead(kText, {}, Cut("%b =") + 2, at_stop, &head, &stopped).ok());
  EXPECT_FALSE(stopped);
  Log whole;
  ASSERT_TRUE(ReadHlo(kText, {}, &whole).ok());
  EXPECT_EQ(head.text, whole.text);
}

TEST(HloReaderParts, TailContinuesTheOpenComputation) {
  // Without links, a name defined before the part ends the reading.
  Log alone;
  bool stopped = true;
  EXPECT_FALSE(ReadHloTail(kText, {}, Cut("%b ="), absl::string_view::npos,
                           nullptr, &alone, &stopped)
                   .ok());
  Log tail;
  HloPartLinks links;
  ASSERT_TRUE(ReadHloTail(kText, {}, Cut("%b ="), absl::string_view::npos,
                          nullptr, &tail, &stopped, &links)
                  .ok());
  EXPECT_TRUE(links.first_computation_closed);
  EXPECT_FALSE(links.has_last);
  EXPECT_FALSE(stopped);  // it read to the end
  EXPECT_EQ(tail.text, absl::StrCat("computation '' at ", Cut("%b ="), "\n",
                                    "  b f32[2]{0} fusion\n"
                                    "  c f32[2]{0} abs\n"
                                    "end computation, root 1\n"
                                    "end module, entry 0\n"));
}

TEST(HloReaderParts, TailStopsOnlyWhereItArrives) {
  Log tail;
  bool stopped = false;
  ASSERT_TRUE(
      ReadHloTail(kText, {}, Cut("%p ="), Cut("%a ="), nullptr, &tail, &stopped)
          .ok());
  EXPECT_TRUE(stopped);
  EXPECT_EQ(tail.text,
            absl::StrCat("computation '' at ", Cut("%p ="), "\n",
                         "  p f32[2]{0} parameter\n  ROOT n f32[2]{0} negate\n"
                         "end computation, root 1\n"
                         "computation 'main' at ",
                         Cut("ENTRY"), " ENTRY\n"));  // %a: the next part's
  // Passing the stop without arriving there is an error (not for users).
  Log passing;
  EXPECT_FALSE(ReadHloTail(kText, {}, Cut("%p ="), Cut("%a =") + 1, nullptr,
                           &passing, &stopped)
                   .ok());
  EXPECT_FALSE(stopped);
  // So is a cancelled one.
  std::atomic<bool> cancel{true};
  Log cancelled;
  EXPECT_FALSE(ReadHloTail(kText, {}, Cut("%p ="), absl::string_view::npos,
                           &cancel, &cancelled, &stopped)
                   .ok());
}

TEST(HloReaderParts, NoStopInAModuleWithoutHeader) {
  const std::string text = std::string(kText).substr(sizeof("HloModule m"));
  Log head;
  bool stopped = true;
  const std::function<bool()> at_stop = [] { return true; };
  ASSERT_TRUE(
      ReadHloHead(text, {}, text.find("%b ="), at_stop, &head, &stopped).ok());
  EXPECT_FALSE(stopped);  // (a tail cannot tell: the head refuses)
  Log whole;
  ASSERT_TRUE(ReadHlo(text, {}, &whole).ok());
  EXPECT_EQ(head.text, whole.text);
}

// Names used in one part and defined in another (an operand, a called
// computation) are checked when the parts are joined, as ReadHlo checks
// them in the whole text.
bool JoinAt(absl::string_view text, absl::string_view cut_before) {
  const size_t cut = text.find(cut_before);
  HloPartLinks head_links;
  HloPartLinks tail_links;
  Log head;
  Log tail;
  bool head_stopped = false;
  bool tail_stopped = false;
  if (!ReadHloTail(text, {}, cut, absl::string_view::npos, nullptr, &tail,
                   &tail_stopped, &tail_links)
           .ok()) {
    return false;
  }
  bool joined = false;
  const std::function<bool()> at_stop = [&] {
    joined = JoinHloParts(text, head_links, {&tail_links});
    return true;
  };
  EXPECT_TRUE(
      ReadHloHead(text, {}, cut, at_stop, &head, &head_stopped, &head_links)
          .ok());
  EXPECT_TRUE(head_stopped);
  return joined;
}

TEST(HloReaderParts, JoinChecksNamesAcrossTheCut) {
  EXPECT_TRUE(JoinAt(kText, "%b ="));
  EXPECT_TRUE(JoinAt(kText, "%c ="));
  // An operand defined nowhere, a computation called and defined nowhere,
  // an operand shape that is not its definition's, a root that is not the
  // signature's: the whole text is refused, and the join says read it whole.
  for (const auto& bad :
       {std::make_pair("%c = f32[2]{0} abs(%b)", "%c = f32[2]{0} abs(%z)"),
        std::make_pair("calls=%f", "calls=%g"),
        std::make_pair("abs(%b)", "abs(f32[3]{0} %b)"),
        std::make_pair("fusion(%a)", "fusion(f32[3]{0} %a)"),
        std::make_pair("%c = f32[2]{0} abs", "%c = f32[3]{0} abs")}) {
    std::string text = kText;
    text.replace(text.find(bad.first), std::string(bad.first).size(),
                 bad.second);
    EXPECT_FALSE(ReadHloModules(text).ok()) << bad.second;
    EXPECT_FALSE(JoinAt(text, "%b =")) << bad.second;
  }
}

// A module of 40 computations called by as many fusions of its entry: the
// join looks up more callees than one batch (ComputationTable::FindEach)
// and compares the parts' computation tables (SharesNameWith).
std::string ManyComputations(int n, bool entry_first = false) {
  std::string computations;
  for (int i = 0; i < n; ++i) {
    absl::StrAppend(&computations, "%f", i, " (p: f32[2]) -> f32[2] {\n",
                    "  %p = f32[2]{0} parameter(0)\n",
                    "  ROOT %n = f32[2]{0} negate(%p)\n}\n\n");
  }
  std::string entry =
      "ENTRY %main (a: f32[2]) -> f32[2] {\n"
      "  %a = f32[2]{0} parameter(0)\n";
  for (int i = 0; i < n; ++i) {
    absl::StrAppend(&entry, "  %b", i, " = f32[2]{0} fusion(%a), kind=kLoop, ",
                    "calls=%f", i, "\n");
  }
  absl::StrAppend(&entry, "  ROOT %c = f32[2]{0} abs(%b0)\n}\n\n");
  return absl::StrCat("HloModule m\n\n", entry_first ? entry : computations,
                      entry_first ? computations : entry);
}

TEST(HloReaderParts, JoinLooksUpManyCalleesAndComputations) {
  const std::string text = ManyComputations(40);
  ASSERT_TRUE(ReadHloModules(text).ok());
  // In the entry (every callee before the cut), and in a computation (half
  // of them after it, their calls too).
  EXPECT_TRUE(JoinAt(text, "%b0 ="));
  EXPECT_TRUE(JoinAt(text, "%b39 ="));
  EXPECT_TRUE(JoinAt(text, "ROOT %n = f32[2]{0} negate(%p)\n}\n\n%f21"));
  // A callee defined nowhere, last of 40 (past the first batch).
  std::string undefined = text;
  undefined.replace(undefined.rfind("calls=%f39"), 10, "calls=%g39");
  EXPECT_FALSE(ReadHloModules(undefined).ok());
  EXPECT_FALSE(JoinAt(undefined, "%b0 ="));
  EXPECT_FALSE(JoinAt(undefined, "%b39 ="));
  // A computation defined on both sides of the cut.
  std::string twice = text;
  twice.replace(twice.find("%f33 ("), 5, "%f3 (");
  twice.replace(twice.find("calls=%f33"), 10, "calls=%f3");
  EXPECT_FALSE(ReadHloModules(twice).ok());
  EXPECT_FALSE(JoinAt(twice, "ROOT %n = f32[2]{0} negate(%p)\n}\n\n%f21"));
  // Callees defined after their calls: XLA's parser refuses them (it
  // looks a callee up among the computations before), and so do the
  // reading whole and the join.
  const std::string forward = ManyComputations(40, true);
  const absl::StatusOr<std::vector<HloModule>> refused =
      ReadHloModules(forward);
  ASSERT_FALSE(refused.ok());
  EXPECT_THAT(std::string(refused.status().message()),
              testing::HasSubstr("is called before it is defined"));
  EXPECT_FALSE(JoinAt(forward, "%b0 ="));
  EXPECT_FALSE(JoinAt(forward, "%b39 ="));
  std::string forward_undefined = forward;
  forward_undefined.replace(forward_undefined.find("calls=%f39"), 10,
                            "calls=%g39");
  EXPECT_FALSE(ReadHloModules(forward_undefined).ok());
  EXPECT_FALSE(JoinAt(forward_undefined, "%b0 ="));
}

// `%x#N#M`: the shape written at the use is checked against element M of
// element N of x's result, in one piece and across a cut (the use in the
// part after the definition's).
TEST(HloReaderParts, NestedOutputIndicesAreFollowedToTheEnd) {
  constexpr char kNested[] = R"(HloModule m

ENTRY %main (p0: (f32[10], (f32[20], f32[30]))) -> f32[20] {
  %p0 = (f32[10]{0}, (f32[20]{0}, f32[30]{0})) parameter(0)
  %a = f32[10]{0} negate(f32[10]{0} %p0#0)
  ROOT %root = f32[20]{0} add(f32[20]{0} %p0#1#0, f32[20]{0} %p0#1#0)
}
)";
  EXPECT_TRUE(ReadHloModules(kNested).ok());
  EXPECT_TRUE(JoinAt(kNested, "%a ="));
  EXPECT_TRUE(JoinAt(kNested, "ROOT %root"));
  // #1#1 is f32[30]; #1#0#0 indexes an array; #1#2 is past the tuple.
  for (const char* use : {"%p0#1#1", "%p0#1#0#0", "%p0#1#2"}) {
    std::string text = kNested;
    text.replace(text.rfind("%p0#1#0"), 7, use);
    EXPECT_FALSE(ReadHloModules(text).ok()) << use;
    EXPECT_FALSE(JoinAt(text, "%a =")) << use;
    EXPECT_FALSE(JoinAt(text, "ROOT %root")) << use;
  }
}

}  // namespace
}  // namespace hlolayout
