#include "hlolayout/util/side_by_side.h"

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "gtest/gtest.h"

namespace hlolayout {
namespace {

TEST(RunSideBySide, SerialRunsFirstThenSecondOnTheCallingThread) {
  std::vector<int> order;
  std::thread::id first_id, second_id;
  RunSideBySide(
      /*parallel=*/false,
      [&] {
        order.push_back(1);
        first_id = std::this_thread::get_id();
      },
      [&] {
        order.push_back(2);
        second_id = std::this_thread::get_id();
      });
  EXPECT_EQ(order, (std::vector<int>{1, 2}));
  EXPECT_EQ(first_id, std::this_thread::get_id());
  EXPECT_EQ(second_id, std::this_thread::get_id());
}

TEST(RunSideBySide, ParallelRunsSecondOnAnotherThreadAndWaitsForBoth) {
  // The two halves of a sum, each written by its own step.
  std::vector<int64_t> values(100000);
  for (size_t i = 0; i < values.size(); ++i) values[i] = i;
  int64_t low = 0, high = 0;
  std::thread::id first_id, second_id;
  RunSideBySide(
      /*parallel=*/true,
      [&] {
        first_id = std::this_thread::get_id();
        for (size_t i = 0; i < values.size() / 2; ++i) low += values[i];
      },
      [&] {
        second_id = std::this_thread::get_id();
        for (size_t i = values.size() / 2; i < values.size(); ++i) {
          high += values[i];
        }
      });
  EXPECT_EQ(low + high, int64_t{99999} * 100000 / 2);
  EXPECT_EQ(first_id, std::this_thread::get_id());
  EXPECT_NE(second_id, std::this_thread::get_id());
}

TEST(RunSideBySide, SecondFinishesBeforeItReturnsEvenWhenFirstIsQuick) {
  std::atomic<bool> second_done{false};
  RunSideBySide(
      /*parallel=*/true, [] {},
      [&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        second_done = true;
      });
  EXPECT_TRUE(second_done);
}

TEST(SideTask, SerialRunsTheTaskAtJoinOnTheCallingThread) {
  std::vector<int> order;
  std::thread::id task_id;
  SideTask task(/*parallel=*/false, [&] {
    order.push_back(2);
    task_id = std::this_thread::get_id();
  });
  order.push_back(1);
  task.Join();
  task.Join();  // once only
  EXPECT_EQ(order, (std::vector<int>{1, 2}));
  EXPECT_EQ(task_id, std::this_thread::get_id());
}

TEST(SideTask, ParallelRunsTheTaskOnAnotherThreadUntilJoin) {
  std::atomic<bool> done{false};
  std::thread::id task_id;
  SideTask task(/*parallel=*/true, [&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    task_id = std::this_thread::get_id();
    done = true;
  });
  task.Join();
  EXPECT_TRUE(done);
  EXPECT_NE(task_id, std::this_thread::get_id());
}

TEST(SideTask, TheDestructorWaitsForAnUnjoinedTask) {
  std::atomic<int> runs{0};
  for (const bool parallel : {false, true}) {
    SideTask task(parallel, [&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      ++runs;
    });
  }  // an early return, say: no Join()
  EXPECT_EQ(runs, 2);
}

}  // namespace
}  // namespace hlolayout
