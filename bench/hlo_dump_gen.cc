// bench/hlo_dump_gen.cc: writes a generated HLO dump (testing/hlo_test_dump.h)
// to a file, or a whole dump folder, for measuring `hlolayout report` and
// `hlolayout memory` on large inputs.
//
//   ./bazelw run -c opt //bench:hlo_dump_gen -- /tmp/dump75.txt 75
//   ./bazelw run -c opt //bench:hlo_dump_gen -- /tmp/tpu75.txt 75 xla-tpu
//   ./bazelw run -c opt //bench:hlo_dump_gen -- /tmp/small75.txt 75
//   xla-tpu-small
//   ./bazelw run -c opt //bench:hlo_dump_gen -- --folder /tmp/dump 500 75
//
// A file: the second argument is the size in MB (default 75); the third the
// style: `classic` (default), `xla-tpu-small` (XLA:TPU's many small fused
// computations, one per fusion: HloDumpStyle::kXlaTpuSmall) or `xla-tpu`,
// lines as XLA writes TPU dumps
// today (HloDumpStyle in testing/hlo_test_dump.h, with 65,536 distinct shape
// texts in the varied pool). Prints the generator's own totals, which
// `hlolayout report --summary` must reproduce.
//
// A folder (--folder DIR [FILES] [LARGEST_MB], default 500 files, 75 MB):
// as XLA's --xla_dump_to writes one, four files in five are modules after
// optimizations (`module_NNNN.jit_step_N.tpu_after_optimizations.txt`, XLA
// TPU style): one of LARGEST_MB, the others from 16 KiB to 4 MiB
// (log-uniform); the fifth files are what a folder also holds and a reader
// must skip: a module before optimizations, a buffer assignment text, a
// protobuf.
#include <sys/stat.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "hlolayout/testing/hlo_test_dump.h"

namespace {

bool WriteFile(const std::string& path, const std::string& text) {
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (file == nullptr) return false;
  const bool ok = std::fwrite(text.data(), 1, text.size(), file) == text.size();
  return std::fclose(file) == 0 && ok;
}

int WriteFolder(const std::string& folder, int files, long largest_mb) {
  mkdir(folder.c_str(), 0755);
  uint64_t state = 12345;
  auto next = [&] {  // xorshift64
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  long long total = 0;
  int modules = 0;
  for (int i = 0; i < files; ++i) {
    char stem[96];
    std::snprintf(stem, sizeof(stem), "%s/module_%04d.jit_step_%d",
                  folder.c_str(), i, i);
    hlolayout::HloDumpOptions options;
    options.style = hlolayout::HloDumpStyle::kXlaTpu;
    options.seed = 1000 + i;
    std::string path;
    std::string text;
    if (i % 5 == 4) {
      switch (i / 5 % 3) {
        case 0:  // before optimizations: a module, not read
          options.target_bytes = 64 << 10;
          options.distinct_shapes = 256;
          text = hlolayout::GenerateHloDump(options).text;
          path = std::string(stem) + ".before_optimizations.txt";
          break;
        case 1:
          text = "BufferAssignment:\nallocation 0: size 1024, parameter 0\n";
          path = std::string(stem) +
                 ".tpu_after_optimizations-buffer-assignment.txt";
          break;
        default:
          text = std::string("\x0a\x05hello", 7);
          path = std::string(stem) + ".hlo_module.pb";
          break;
      }
    } else {
      const double mb =
          i == 0 ? static_cast<double>(largest_mb)
                 : std::exp(std::log(1.0 / 64) +
                            (std::log(4.0) - std::log(1.0 / 64)) *
                                static_cast<double>(next() % 10000) / 10000);
      options.target_bytes = static_cast<int64_t>(mb * (1 << 20));
      options.distinct_shapes = i == 0 ? 65536 : 2048;
      text = hlolayout::GenerateHloDump(options).text;
      path = std::string(stem) + ".tpu_after_optimizations.txt";
      ++modules;
    }
    if (!WriteFile(path, text)) {
      std::fprintf(stderr, "hlo_dump_gen: cannot write %s\n", path.c_str());
      return 1;
    }
    total += static_cast<long long>(text.size());
  }
  std::printf("files %d\nmodules %d\nbytes %lld\n", files, modules, total);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 3 && std::strcmp(argv[1], "--folder") == 0) {
    const int files = argc > 3 ? std::atoi(argv[3]) : 500;
    const long largest = argc > 4 ? std::atol(argv[4]) : 75;
    if (files < 1 || largest < 1 || argc > 5) {
      std::fprintf(stderr, "usage: hlo_dump_gen --folder DIR [FILES] [MB]\n");
      return 2;
    }
    return WriteFolder(argv[2], files, largest);
  }
  // A flag other than --folder (--help, a typo) is no file name.
  if (argc < 2 || argc > 4 || argv[1][0] == '-') {
    const bool help = argc >= 2 && (std::strcmp(argv[1], "--help") == 0 ||
                                    std::strcmp(argv[1], "-h") == 0);
    std::fprintf(
        help ? stdout : stderr,
        "usage: hlo_dump_gen FILE [MB] [classic|xla-tpu|xla-tpu-small]\n"
        "       hlo_dump_gen --folder DIR [FILES] [LARGEST_MB]\n");
    return help ? 0 : 2;
  }
  hlolayout::HloDumpOptions options;
  const long mb = argc > 2 ? std::atol(argv[2]) : 75;
  options.target_bytes = static_cast<int64_t>(mb) << 20;
  if (argc > 3) {
    if (std::strcmp(argv[3], "xla-tpu") == 0) {
      options.style = hlolayout::HloDumpStyle::kXlaTpu;
      options.distinct_shapes = 65536;  // most shape texts seen once
    } else if (std::strcmp(argv[3], "xla-tpu-small") == 0) {
      options.style = hlolayout::HloDumpStyle::kXlaTpuSmall;
      options.distinct_shapes = 65536;
    } else if (std::strcmp(argv[3], "classic") != 0) {
      std::fprintf(stderr, "hlo_dump_gen: unknown style %s\n", argv[3]);
      return 2;
    }
  }
  const hlolayout::GeneratedHloDump dump = hlolayout::GenerateHloDump(options);
  if (!WriteFile(argv[1], dump.text)) {
    std::fprintf(stderr, "hlo_dump_gen: cannot write %s\n", argv[1]);
    return 1;
  }
  std::printf(
      "bytes %zu\ninstructions %lld\ncomputations %lld\nlogical_bytes "
      "%lld\npadded_bytes %lld\n",
      dump.text.size(), static_cast<long long>(dump.instructions),
      static_cast<long long>(dump.computations),
      static_cast<long long>(dump.logical_bytes),
      static_cast<long long>(dump.padded_bytes));
  return 0;
}
