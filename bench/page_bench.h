// bench/page_bench.h: what bench/page_touch and bench/page_cost share: a
// millisecond clock, the write of one byte per 4 KiB page, and their
// arguments.
//
//   PageBenchArgs args;
//   if (!ParsePageBenchArgs(argc, argv, "page_cost", &args)) return 2;
//   TouchPages(p, args.bytes());  // faults every page of p in
#ifndef HLOLAYOUT_BENCH_PAGE_BENCH_H_
#define HLOLAYOUT_BENCH_PAGE_BENCH_H_

#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstdlib>

namespace hlolayout::bench {

// Milliseconds of a steady clock (the same in a parent and its child).
inline double NowMs() {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Writes a byte per 4 KiB page of the `bytes` bytes at `p`.
inline void TouchPages(char* p, size_t bytes) {
  for (size_t i = 0; i < bytes; i += 4096) {
    static_cast<volatile char*>(p)[i] = 1;
  }
}

// `[MIB] [ROUNDS] [PAUSE]`: defaults 128 MiB, 3 rounds, 3 s.
struct PageBenchArgs {
  long mib = 128;
  long rounds = 3;
  long pause = 3;
  size_t bytes() const { return static_cast<size_t>(mib) << 20; }
};

// False, with the usage on stderr, when an argument is out of range.
inline bool ParsePageBenchArgs(int argc, char** argv, const char* name,
                               PageBenchArgs* args) {
  if (argc > 1) args->mib = std::strtol(argv[1], nullptr, 10);
  if (argc > 2) args->rounds = std::strtol(argv[2], nullptr, 10);
  if (argc > 3) args->pause = std::strtol(argv[3], nullptr, 10);
  if (args->mib < 2 || args->mib > (1 << 16) || args->rounds < 1 ||
      args->rounds > 1000 || args->pause < 0 || args->pause > 600) {
    std::fprintf(stderr,
                 "usage: %s [MIB 2-65536] [ROUNDS 1-1000] [PAUSE 0-600 s]\n",
                 name);
    return false;
  }
  return true;
}

}  // namespace hlolayout::bench

#endif  // HLOLAYOUT_BENCH_PAGE_BENCH_H_
