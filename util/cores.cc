#include "hlolayout/util/cores.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <thread>

#if defined(__linux__)
#include <sched.h>
#endif

namespace hlolayout {

int64_t IdleCoresOf(int64_t cores, int64_t runnable, int64_t at_most) {
  // The caller runs on one of them; every other runnable thread takes one.
  const int64_t idle = cores - std::max<int64_t>(runnable - 1, 0);
  return std::max<int64_t>(1, std::min<int64_t>(idle, at_most));
}

int64_t IdleCoresRead(int64_t cores, int64_t at_most,
                      const std::function<int64_t()>& read_runnable,
                      const std::function<void()>& pause) {
  const int64_t wanted = std::max<int64_t>(1, std::min(cores, at_most));
  if (wanted == 1) return 1;
  // One read is an instant. Where a dump's reading chose its threads, in
  // a pipeline on a quiet 2-core machine, the first of twelve reads 50 us
  // apart counted 2 to 5 runnable threads in five runs of eight, and the
  // reads 0.1-0.3 ms later counted 1 (the pipeline's other processes
  // starting): read once, `report --summary dump | tail` read on one thread
  // in five runs of eight (docs/threads-default.md). A program that really
  // runs is runnable in every read.
  int64_t least = -1;
  for (int i = 0; i < kRunnableReads; ++i) {
    if (i > 0) pause();
    const int64_t runnable = read_runnable();
    if (runnable < 0) break;
    least = least < 0 ? runnable : std::min(least, runnable);
    if (IdleCoresOf(cores, least, at_most) >= wanted) break;
  }
  return least < 0 ? wanted : IdleCoresOf(cores, least, at_most);
}

namespace {

// The runnable count of /proc/loadavg ("0.52 0.58 0.59 2/613 12345": the
// fourth field is runnable/total), or -1.
int64_t ReadRunnable() {
#if defined(__linux__)
  if (std::FILE* f = std::fopen("/proc/loadavg", "r")) {
    double a, b, c;
    long runnable = 0, total = 0;
    const int read =
        std::fscanf(f, "%lf %lf %lf %ld/%ld", &a, &b, &c, &runnable, &total);
    std::fclose(f);
    if (read == 5 && runnable > 0) return runnable;
  }
#endif
  return -1;
}

}  // namespace

int64_t IdleCores(int64_t at_most) {
  int64_t cores = std::max(1u, std::thread::hardware_concurrency());
#if defined(__linux__)
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) == 0) {
    cores = std::max(1, CPU_COUNT(&set));
  }
#endif
  return IdleCoresRead(cores, at_most, ReadRunnable, [] {
    std::this_thread::sleep_for(
        std::chrono::microseconds(kRunnablePauseMicros));
  });
}

int64_t ThreadsForParts(int64_t requested, int64_t parts, int64_t at_most) {
  if (parts <= 1) return 1;
  const int64_t threads =
      requested > 0 ? requested : IdleCores(std::min(parts, at_most));
  return std::max<int64_t>(1, std::min(threads, parts));
}

}  // namespace hlolayout
