// bench/page_cost.cc: what it costs to fault fresh 4 KiB pages in after a
// pause, four ways, and what a process' exit costs for the pages it holds.
// The figures behind docs/memory-speed-pages.md, "The join's link beside
// its copy": whether faulting pages in all at once is cheaper than one at a
// time, whether a second thread faults them in faster, and how long the
// kernel takes to free them when a process ends.
//
//   page_cost [MIB] [ROUNDS] [PAUSE]  defaults: 128 MiB, 3 rounds, 3 s
//
// Each round, for each way, sleeps PAUSE seconds first (on a virtual
// machine whose balloon reports free pages, the host takes back what the
// last write freed), maps MIB MiB in 4 KiB pages, and writes a byte per
// page:
//   touch      one thread, one page at a time
//   populate   MADV_POPULATE_WRITE over the whole mapping, then the writes
//   2 threads  two threads, half of the mapping each
//   exit       a child process writes the mapping and exits; the time from
//              its last write to the parent's waitpid (the kernel freeing
//              the pages)
// and prints ms per MiB for the first three and ms for the exit.
// Linux only.
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <thread>

#include "hlolayout/bench/page_bench.h"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23  // Linux 5.14
#endif

namespace {

using hlolayout::bench::NowMs;
using hlolayout::bench::TouchPages;

// A private anonymous mapping in 4 KiB pages; nullptr when none.
char* Map(size_t bytes) {
  void* map = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (map == MAP_FAILED) return nullptr;
  madvise(map, bytes, MADV_NOHUGEPAGE);
  return static_cast<char*>(map);
}

// ms for one way of writing `bytes` of fresh pages; -1 when it cannot run.
double Write(size_t bytes, int way) {
  char* p = Map(bytes);
  if (p == nullptr) return -1;
  const double start = NowMs();
  if (way == 0) {
    TouchPages(p, bytes);
  } else if (way == 1) {
    if (madvise(p, bytes, MADV_POPULATE_WRITE) != 0) {
      munmap(p, bytes);
      return -1;  // a kernel before 5.14
    }
    TouchPages(p, bytes);
  } else {
    const size_t half = bytes / 2;
    std::thread second(
        [p, half, bytes] { TouchPages(p + half, bytes - half); });
    TouchPages(p, half);
    second.join();
  }
  const double ms = NowMs() - start;
  munmap(p, bytes);
  return ms;
}

// ms from a child's last write of `bytes` to its end, as its parent sees
// it; -1 when it cannot run.
double Exit(size_t bytes) {
  int fds[2];
  if (pipe(fds) != 0) return -1;
  const pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    close(fds[0]);
    char* p = Map(bytes);
    double written = -1;
    if (p != nullptr) {
      TouchPages(p, bytes);
      written = NowMs();  // steady_clock: the same in both processes
    }
    const ssize_t sent = write(fds[1], &written, sizeof written);
    _exit(sent == sizeof written ? 0 : 1);
  }
  close(fds[1]);
  double written = -1;
  if (read(fds[0], &written, sizeof written) != sizeof written) written = -1;
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (written < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return -1;
  return NowMs() - written;
}

}  // namespace

int main(int argc, char** argv) {
  hlolayout::bench::PageBenchArgs args;
  if (!hlolayout::bench::ParsePageBenchArgs(argc, argv, "page_cost", &args)) {
    return 2;
  }
  const long mib = args.mib, rounds = args.rounds, pause = args.pause;
  const size_t bytes = args.bytes();
  std::printf(
      "%ld MiB in 4 KiB pages, each after %ld s: touch, populate, 2 threads "
      "(ms per MiB); exit (ms)\n",
      mib, pause);
  for (long r = 0; r < rounds; ++r) {
    double ms[4];
    for (int way = 0; way < 4; ++way) {
      sleep(static_cast<unsigned>(pause));
      ms[way] = way < 3 ? Write(bytes, way) : Exit(bytes);
    }
    for (int way = 0; way < 4; ++way) {
      if (ms[way] < 0) {
        std::printf("%s", way < 3 ? "- " : "-\n");
      } else if (way < 3) {
        std::printf("%.3f ", ms[way] / static_cast<double>(mib));
      } else {
        std::printf("%.1f\n", ms[way]);
      }
    }
  }
  return 0;
}
