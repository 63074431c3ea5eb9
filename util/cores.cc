#include "hlolayout/util/cores.h"

#include <algorithm>
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

int64_t IdleCores(int64_t at_most) {
  int64_t cores = std::max(1u, std::thread::hardware_concurrency());
#if defined(__linux__)
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) == 0) {
    cores = std::max(1, CPU_COUNT(&set));
  }
  // "0.52 0.58 0.59 2/613 12345": the fourth field is runnable/total.
  if (std::FILE* f = std::fopen("/proc/loadavg", "r")) {
    double a, b, c;
    long runnable = 0, total = 0;
    const int read =
        std::fscanf(f, "%lf %lf %lf %ld/%ld", &a, &b, &c, &runnable, &total);
    std::fclose(f);
    if (read == 5 && runnable > 0) {
      return IdleCoresOf(cores, runnable, at_most);
    }
  }
#endif
  return std::max<int64_t>(1, std::min<int64_t>(cores, at_most));
}

}  // namespace hlolayout
