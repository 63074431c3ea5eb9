// bench/page_touch.cc: what writing fresh memory costs on this machine, in
// 4 KiB pages and in 2 MiB (transparent huge) pages, the first time, again
// right after the memory was given back (MADV_DONTNEED), and again after it
// was given back and the process paused. The number behind
// docs/memory-speed-pages.md: `hlolayout memory` writes about 170 MiB of
// memory for the first time on a 75 MB dump, `report --summary` about 50.
// On a virtual machine whose balloon reports free pages to its host, the
// pause lets the guest hand the freed pages over, and the next write
// faults them in from the host again.
//
//   page_touch [MIB] [ROUNDS] [PAUSE]  defaults: 128 MiB, 3 rounds, 3 s
//
// Each round maps MIB MiB twice (one mapping marked MADV_HUGEPAGE, one
// not), writes a byte per 4 KiB page of each, gives both back, writes them
// again, gives both back, sleeps PAUSE seconds (0: no third write), writes
// them a third time, and prints the times in ms per MiB. A process of its
// own per run: a benchmark loop would measure only the warm case.
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>

#include "hlolayout/bench/page_bench.h"

namespace {

constexpr size_t kHuge = size_t{2} << 20;

using hlolayout::bench::NowMs;

// Writes a byte per 4 KiB page of `bytes` at `p`; returns ms per MiB.
double Touch(char* p, size_t bytes) {
  const double start = NowMs();
  hlolayout::bench::TouchPages(p, bytes);
  return (NowMs() - start) / static_cast<double>(bytes >> 20);
}

// A mapping of `bytes` bytes and more, its start aligned to 2 MiB.
class Mapping {
 public:
  Mapping(size_t bytes, bool huge) : size_(bytes + kHuge) {
    void* map = mmap(nullptr, size_, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (map == MAP_FAILED) return;
    map_ = map;
    data_ = reinterpret_cast<char*>(
        (reinterpret_cast<uintptr_t>(map) + kHuge - 1) & ~(kHuge - 1));
    if (huge) madvise(data_, bytes, MADV_HUGEPAGE);
  }
  ~Mapping() {
    if (map_ != nullptr) munmap(map_, size_);
  }
  Mapping(const Mapping&) = delete;
  Mapping& operator=(const Mapping&) = delete;
  char* data() const { return data_; }  // nullptr: no mapping

 private:
  size_t size_;
  void* map_ = nullptr;
  char* data_ = nullptr;
};

}  // namespace

int main(int argc, char** argv) {
  hlolayout::bench::PageBenchArgs args;
  if (!hlolayout::bench::ParsePageBenchArgs(argc, argv, "page_touch", &args)) {
    return 2;
  }
  const long mib = args.mib, rounds = args.rounds, pause = args.pause;
  const size_t bytes = args.bytes();
  std::printf(
      "ms per MiB: 4 KiB first, again, after %ld s; 2 MiB first, again, "
      "after %ld s\n",
      pause, pause);
  for (long r = 0; r < rounds; ++r) {
    const Mapping small(bytes, false);
    const Mapping huge(bytes, true);
    if (small.data() == nullptr || huge.data() == nullptr) {
      std::fprintf(stderr, "page_touch: cannot map %ld MiB\n", mib);
      return 1;
    }
    double times[2][3] = {};
    const Mapping* const mappings[2] = {&small, &huge};
    for (int m = 0; m < 2; ++m) {
      times[m][0] = Touch(mappings[m]->data(), bytes);
      madvise(mappings[m]->data(), bytes, MADV_DONTNEED);
      times[m][1] = Touch(mappings[m]->data(), bytes);
    }
    if (pause > 0) {
      for (const Mapping* mapping : mappings) {
        madvise(mapping->data(), bytes, MADV_DONTNEED);
      }
      sleep(static_cast<unsigned>(pause));
      for (int m = 0; m < 2; ++m)
        times[m][2] = Touch(mappings[m]->data(), bytes);
    }
    // No third write without a pause: "-".
    char third[2][16] = {"-", "-"};
    for (int m = 0; m < 2 && pause > 0; ++m) {
      std::snprintf(third[m], sizeof(third[m]), "%.3f", times[m][2]);
    }
    std::printf("%.3f %.3f %s %.3f %.3f %s\n", times[0][0], times[0][1],
                third[0], times[1][0], times[1][1], third[1]);
  }
  return 0;
}
