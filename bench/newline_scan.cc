// bench/newline_scan.cc: counts the newlines of a file: maps it and scans it
// with memchr. The baseline process of bench/cli_bench.cc: it links only the
// C and C++ runtimes, so it starts about as fast as a program can.
//
//   newline_scan FILE    prints the number of newlines
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: newline_scan FILE\n");
    return 2;
  }
  const int fd = open(argv[1], O_RDONLY);
  struct stat st = {};
  if (fd < 0 || fstat(fd, &st) != 0) {
    std::fprintf(stderr, "newline_scan: cannot open %s\n", argv[1]);
    return 1;
  }
  const size_t size = static_cast<size_t>(st.st_size);
  long lines = 0;
  if (size > 0) {
    void* map =
        mmap(nullptr, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
    if (map == MAP_FAILED) {
      std::fprintf(stderr, "newline_scan: cannot map %s\n", argv[1]);
      return 1;
    }
    const char* p = static_cast<const char*>(map);
    const char* end = p + size;
    while (const void* nl = std::memchr(p, '\n', end - p)) {
      ++lines;
      p = static_cast<const char*>(nl) + 1;
    }
  }
  std::printf("%ld\n", lines);
  return 0;
}
