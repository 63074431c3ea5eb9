#include "hlolayout/util/cores.h"

#include <vector>

#include "gtest/gtest.h"

namespace hlolayout {
namespace {

TEST(Cores, IdleCoresLeaveTheBusyOnesOut) {
  // Alone on 2 cores: both; one other program running: one.
  EXPECT_EQ(IdleCoresOf(2, 1, 8), 2);
  EXPECT_EQ(IdleCoresOf(2, 2, 8), 1);
  EXPECT_EQ(IdleCoresOf(2, 11, 8), 1);  // never fewer than one
  EXPECT_EQ(IdleCoresOf(16, 3, 8), 8);  // at most at_most
  EXPECT_EQ(IdleCoresOf(16, 3, 64), 14);
  EXPECT_EQ(IdleCoresOf(4, 0, 8), 4);  // a count that misses the caller
  EXPECT_EQ(IdleCoresOf(1, 1, 8), 1);
}

// The counts of successive reads, and how many were read and paused for.
struct Reads {
  std::vector<int64_t> counts;
  size_t read = 0;
  int pauses = 0;
  int64_t Idle(int64_t cores, int64_t at_most) {
    return IdleCoresRead(
        cores, at_most,
        [this] { return read < counts.size() ? counts[read++] : int64_t{1}; },
        [this] { ++pauses; });
  }
};

TEST(Cores, ABurstOfRunnableThreadsIsReadAgain) {
  // A pipeline's other processes runnable for a moment, as they start: the
  // later reads find the cores idle, and the reading stops there.
  Reads burst{{5, 4, 1, 3}};
  EXPECT_EQ(burst.Idle(2, 8), 2);
  EXPECT_EQ(burst.read, 3u);
  EXPECT_EQ(burst.pauses, 2);
  // Idle at once: one read, no pause.
  Reads quiet{{1}};
  EXPECT_EQ(quiet.Idle(2, 8), 2);
  EXPECT_EQ(quiet.read, 1u);
  EXPECT_EQ(quiet.pauses, 0);
}

TEST(Cores, AProgramRunnableInEveryReadKeepsItsCore) {
  Reads busy{{2, 2, 2, 2, 2, 2, 2}};
  EXPECT_EQ(busy.Idle(2, 8), 1);
  EXPECT_EQ(busy.read, static_cast<size_t>(kRunnableReads));
  EXPECT_EQ(busy.pauses, kRunnableReads - 1);
  // The least count read wins, not the last.
  Reads varied{{9, 3, 6, 7, 8}};
  EXPECT_EQ(varied.Idle(8, 8), 6);
  EXPECT_EQ(varied.read, static_cast<size_t>(kRunnableReads));
}

TEST(Cores, OneCoreWantedReadsNothing) {
  Reads one{{5}};
  EXPECT_EQ(one.Idle(1, 8), 1);
  EXPECT_EQ(one.Idle(16, 1), 1);
  EXPECT_EQ(one.read, 0u);
}

TEST(Cores, AnUnreadableCountGivesTheCores) {
  Reads none{{-1, -1}};
  EXPECT_EQ(none.Idle(4, 8), 4);
  EXPECT_EQ(none.Idle(16, 8), 8);
  // What was read before wins over a later failure.
  Reads later{{3, -1}};
  EXPECT_EQ(later.Idle(4, 8), 2);
}

TEST(Cores, ThreadsForPartsNeverExceedThePartsOrRequest) {
  EXPECT_EQ(ThreadsForParts(0, 1, 8), 1);  // does not split
  EXPECT_EQ(ThreadsForParts(6, 0, 8), 1);
  EXPECT_EQ(ThreadsForParts(6, 4, 8), 4);  // asked for more than the parts
  EXPECT_EQ(ThreadsForParts(3, 40, 8), 3);
  EXPECT_EQ(ThreadsForParts(16, 40, 8), 16);  // at_most bounds idle cores only
  const int64_t idle = ThreadsForParts(0, 3, 8);
  EXPECT_GE(idle, 1);
  EXPECT_LE(idle, 3);
}

TEST(Cores, IdleCoresIsAPlausibleCount) {
  const int64_t n = IdleCores(8);
  EXPECT_GE(n, 1);
  EXPECT_LE(n, 8);
  EXPECT_EQ(IdleCores(1), 1);
}

}  // namespace
}  // namespace hlolayout
