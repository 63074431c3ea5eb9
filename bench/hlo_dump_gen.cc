// bench/hlo_dump_gen.cc: writes a generated HLO dump (parser/hlo_test_dump.h)
// to a file, for measuring `hlolayout report` on a large input.
//
//   ./bazelw run -c opt //bench:hlo_dump_gen -- /tmp/dump75.txt 75
//   ./bazelw run -c opt //bench:hlo_dump_gen -- /tmp/tpu75.txt 75 xla-tpu
//
// The second argument is the size in MB (default 75); the third the style:
// `classic` (default) or `xla-tpu`, lines as XLA writes TPU dumps today
// (HloDumpStyle in parser/hlo_test_dump.h, with 65,536 distinct shape
// texts in the varied pool). Prints the generator's own
// totals, which `hlolayout report --summary` must reproduce.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "hlolayout/parser/hlo_test_dump.h"

int main(int argc, char** argv) {
  if (argc < 2 || argc > 4) {
    std::fprintf(stderr, "usage: hlo_dump_gen FILE [MB] [classic|xla-tpu]\n");
    return 2;
  }
  hlolayout::HloDumpOptions options;
  const long mb = argc > 2 ? std::atol(argv[2]) : 75;
  options.target_bytes = static_cast<int64_t>(mb) << 20;
  if (argc > 3) {
    if (std::strcmp(argv[3], "xla-tpu") == 0) {
      options.style = hlolayout::HloDumpStyle::kXlaTpu;
      options.distinct_shapes = 65536;  // most shape texts seen once
    } else if (std::strcmp(argv[3], "classic") != 0) {
      std::fprintf(stderr, "hlo_dump_gen: unknown style %s\n", argv[3]);
      return 2;
    }
  }
  const hlolayout::GeneratedHloDump dump = hlolayout::GenerateHloDump(options);
  std::FILE* file = std::fopen(argv[1], "wb");
  if (file == nullptr ||
      std::fwrite(dump.text.data(), 1, dump.text.size(), file) !=
          dump.text.size() ||
      std::fclose(file) != 0) {
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
