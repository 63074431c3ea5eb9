// A part's stop moved by another thread while the part is read
// (MovableStop, hlo/reader_internal.h): the part's reader stops at the
// moved stop when it arrives there, and gives it up, reading on to the
// planned one and telling the taker, when it cannot.
#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "gtest/gtest.h"
#include "hlolayout/hlo/reader.h"
#include "hlolayout/hlo/reader_internal.h"

namespace hlolayout {
namespace {

// Counts the instructions a reading visits.
class Counter : public HloVisitor {
 public:
  void VisitInstruction(const HloInstruction& instruction) override {
    names.emplace_back(instruction.name());
  }
  std::vector<std::string> names;
};

// One computation of `length` adds, each line "  xI = f32[8]{0} add(...)",
// after an instruction `k` whose backend_config is written over two lines.
std::string Computation(int length) {
  std::string text =
      "HloModule m\n\nENTRY main {\n  p0 = f32[8]{0} parameter(0)\n"
      "  k = f32[8]{0} negate(p0), backend_config={\"a\":1,\n  x9 = 2}\n";
  for (int i = 0; i < length; ++i) {
    absl::StrAppend(&text, "  x", i, " = f32[8]{0} add(",
                    i == 0 ? "p0" : absl::StrCat("x", i - 1), ", p0)\n");
  }
  absl::StrAppend(&text, "}\n");
  return text;
}

size_t LineOf(absl::string_view text, absl::string_view line) {
  return text.find(line);
}

struct TailRead {
  absl::Status status;
  bool stopped = false;
  std::vector<std::string> names;
};

// Reads `text` as a tail from `begin` to `planned`, its stop already moved
// to `moved` (as if another thread had taken the rest from there before the
// reading began).
TailRead ReadWithMovedStop(absl::string_view text, size_t begin, size_t planned,
                           size_t moved, hlo_internal::MovableStop* stop) {
  Counter counter;
  std::atomic<bool> cancel{false};
  const HloReadOptions options;  // the reader keeps a reference
  hlo_internal::Reader reader(text, options, &counter);
  reader.SetStop(planned, nullptr, &cancel);
  HloPartLinks links;  // the names it uses that the part does not define
  reader.SetLinks(&links);
  stop->stop = planned;
  reader.SetMovableStop(stop);
  stop->stop = moved;  // taken: compare-and-swap from `planned`
  TailRead out;
  out.status = reader.ReadTail(begin);
  out.stopped = reader.stopped();
  out.names = std::move(counter.names);
  return out;
}

TEST(MovableStop, StopsWhereMovedToWhenItArrivesThere) {
  const std::string text = Computation(100);
  const size_t begin = LineOf(text, "x10 = ");
  const size_t moved = LineOf(text, "x40 = ");
  const size_t planned = LineOf(text, "x90 = ");
  hlo_internal::MovableStop stop;
  const TailRead read = ReadWithMovedStop(text, begin, planned, moved, &stop);
  EXPECT_TRUE(read.stopped) << read.status;
  EXPECT_TRUE(stop.taken);
  EXPECT_FALSE(stop.given_up);
  ASSERT_EQ(read.names.size(), 30u);
  EXPECT_EQ(read.names.front(), "x10");
  EXPECT_EQ(read.names.back(), "x39");
  // Where it was when it last looked: the stop's instruction.
  EXPECT_EQ(stop.progress, moved);
}

TEST(MovableStop, GivesUpAStopItPassedAndReadsOnToThePlannedOne) {
  const std::string text = Computation(100);
  const size_t begin = LineOf(text, "x10 = ");
  const size_t planned = LineOf(text, "x90 = ");
  // Before the part, and inside a line: the reader passes both.
  for (const size_t moved :
       {LineOf(text, "x5 = "), LineOf(text, "x40 = ") + 3}) {
    hlo_internal::MovableStop stop;
    const TailRead read = ReadWithMovedStop(text, begin, planned, moved, &stop);
    EXPECT_TRUE(read.stopped) << read.status;
    EXPECT_FALSE(stop.taken);
    EXPECT_TRUE(stop.given_up);
    ASSERT_EQ(read.names.size(), 80u) << moved;
    EXPECT_EQ(read.names.back(), "x89");
  }
}

TEST(MovableStop, GivesUpAStopInsideAMultiLineValue) {
  const std::string text = Computation(20);
  // "  x9 = 2}" continues k's backend_config: it looks like an
  // instruction line (InstructionLineAfter's guess), but the reading
  // never starts an instruction there.
  const size_t begin = LineOf(text, "k = ");
  const size_t moved = LineOf(text, "x9 = 2");
  ASSERT_EQ(hlo_internal::InstructionLineAfter(text, begin, text.size()),
            moved);
  const size_t planned = LineOf(text, "x15 = ");
  hlo_internal::MovableStop stop;
  const TailRead read = ReadWithMovedStop(text, begin, planned, moved, &stop);
  EXPECT_TRUE(read.stopped) << read.status;
  EXPECT_TRUE(stop.given_up);
  ASSERT_EQ(read.names.size(), 16u);  // k, x0..x14
  EXPECT_EQ(read.names.back(), "x14");
}

TEST(MovableStop, AStopNotMovedIsThePlannedOne) {
  const std::string text = Computation(50);
  const size_t begin = LineOf(text, "x10 = ");
  const size_t planned = LineOf(text, "x30 = ");
  hlo_internal::MovableStop stop;
  const TailRead read = ReadWithMovedStop(text, begin, planned, planned, &stop);
  EXPECT_TRUE(read.stopped) << read.status;
  EXPECT_FALSE(stop.taken);
  EXPECT_FALSE(stop.given_up);
  EXPECT_EQ(read.names.size(), 20u);
}

TEST(MovableStop, ATailThatMissesItsPlannedStopStillFails) {
  const std::string text = Computation(50);
  const size_t begin = LineOf(text, "x10 = ");
  // Inside a line: no instruction starts there.
  const size_t planned = LineOf(text, "x30 = ") + 2;
  hlo_internal::MovableStop stop;
  const TailRead read = ReadWithMovedStop(text, begin, planned, planned, &stop);
  EXPECT_FALSE(read.stopped);
  EXPECT_EQ(read.status.code(), absl::StatusCode::kAborted) << read.status;
}

TEST(InstructionLineAfter, FindsTheNextInstructionLineBeforeTheLimit) {
  const std::string text = Computation(10);
  const size_t x3 = LineOf(text, "x3 = ");
  EXPECT_EQ(hlo_internal::InstructionLineAfter(text, x3, text.size()),
            LineOf(text, "x4 = "));
  // From the newline before it.
  EXPECT_EQ(hlo_internal::InstructionLineAfter(text, x3 - 3, text.size()), x3);
  // The newline before x4 is past the limit.
  EXPECT_EQ(hlo_internal::InstructionLineAfter(text, x3, x3 + 5),
            absl::string_view::npos);
  EXPECT_EQ(hlo_internal::InstructionLineAfter(text, LineOf(text, "x9 = f32"),
                                               text.size()),
            absl::string_view::npos);  // then "}"
}

}  // namespace
}  // namespace hlolayout
