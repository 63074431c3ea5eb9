// util/side_by_side.h: two independent steps of one computation run at
// the same time, on two threads (RunSideBySide), or one started ahead and
// joined later (SideTask).
//
//   // A module's live ranges while its buffers are united (the memory
//   // analysis of a 75 MB dump: neither reads what the other writes).
//   RunSideBySide(/*parallel=*/threads >= 2, [&] { LiveRanges(); },
//                 [&] { UniteBuffers(); });
//
// Preconditions: neither step writes what the other reads or writes, and
// neither throws (an exception on the second thread ends the program, as
// any uncaught one on a thread does).
#ifndef HLOLAYOUT_UTIL_SIDE_BY_SIDE_H_
#define HLOLAYOUT_UTIL_SIDE_BY_SIDE_H_

#include <functional>
#include <system_error>
#include <thread>
#include <utility>

namespace hlolayout {

// A step started on a thread of its own while the calling thread goes on
// with others, and joined when its result is needed:
//
//   SideTask tail(parallel, [&] { FillNodes(half, count, &tail_nodes); });
//   FillNodes(0, half, &nodes);  // meanwhile
//   tail.Join();                 // tail_nodes are filled
//
// Without `parallel`, or when the system starts no thread, Join() runs the
// task on the calling thread. The destructor joins (or runs) it too, so
// that every way out waits for it. Preconditions: as RunSideBySide's, until
// Join() returns.
class SideTask {
 public:
  template <typename Task>
  SideTask(bool parallel, Task&& task) : task_(std::forward<Task>(task)) {
    if (!parallel) return;
    try {
      thread_ = std::thread(std::ref(task_));
    } catch (const std::system_error&) {
      // No thread: Join() runs it.
    }
  }
  SideTask(const SideTask&) = delete;
  SideTask& operator=(const SideTask&) = delete;
  ~SideTask() { Join(); }

  // Returns once the task has run (on its thread, or here).
  void Join() {
    if (done_) return;
    done_ = true;
    if (thread_.joinable()) {
      thread_.join();
    } else {
      task_();
    }
  }

 private:
  std::function<void()> task_;
  std::thread thread_;
  bool done_ = false;
};

// Runs `first` on the calling thread and `second` on a thread of its own,
// and returns when both have returned. Without `parallel`, or when the
// system starts no thread, runs `first`, then `second`, on the calling
// thread: the same steps in the same order, so the results are the same
// either way when the preconditions hold.
template <typename First, typename Second>
void RunSideBySide(bool parallel, First&& first, Second&& second) {
  SideTask side(parallel, std::ref(second));
  first();
  side.Join();
}

}  // namespace hlolayout

#endif  // HLOLAYOUT_UTIL_SIDE_BY_SIDE_H_
