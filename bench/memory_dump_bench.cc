// bench/memory_dump_bench.cc: the memory analysis of a 75 MB dump (the
// three styles bench/memory_goals.py measures `hlolayout memory` on), on one
// thread and on two (MemoryAnalysisOptions::threads).
//
//   ./bazelw run -c opt //bench:memory_dump_bench
//
// Each dump is generated in memory (testing/hlo_test_dump.h, as
// bench/hlo_dump_gen writes it) and read once; the benchmark times
// AnalyzeMemory alone, which is what `hlolayout memory` adds to the reading
// that `report --summary` does too. The goal (issue 45): two threads faster
// than one, never slower, with the same answers. The process is measured
// as its users run it by bench/memory_goals.py; this one separates the
// analysis from the reading and from the machine's page faults (the
// analysis' memory is kept from one iteration to the next:
// memory/scratch_pool.h).
#include <malloc.h>

#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "benchmark/benchmark.h"
#include "hlolayout/hlo/reader.h"
#include "hlolayout/memory/live_range.h"
#include "hlolayout/testing/hlo_test_dump.h"

namespace hlolayout {
namespace {

// Freed memory stays in the heap for the next iteration (memory_bench.cc
// explains why).
const bool kPinnedAllocator = [] {
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  // One heap for every thread, as the CLI's (cli/heap.cc).
  mallopt(M_ARENA_MAX, 1);
  return true;
}();

// The module of the 75 MB dump of `style`, read once per process.
const HloModule* Dump(HloDumpStyle style) {
  static auto* modules = new std::map<HloDumpStyle, std::vector<HloModule>>;
  auto it = modules->find(style);
  if (it == modules->end()) {
    HloDumpOptions options;
    options.target_bytes = int64_t{75} << 20;
    options.style = style;
    // As bench/hlo_dump_gen: most TPU shape texts seen once.
    if (style != HloDumpStyle::kClassic) options.distinct_shapes = 65536;
    // The text stays alive: the modules view it.
    static auto* texts = new std::vector<std::unique_ptr<std::string>>;
    texts->push_back(
        std::make_unique<std::string>(GenerateHloDump(options).text));
    absl::StatusOr<std::vector<HloModule>> read =
        ReadHloModules(*texts->back(), HloReadOptions(), nullptr, 2);
    if (!read.ok() || read->empty()) return nullptr;
    it = modules->emplace(style, *std::move(read)).first;
  }
  return &it->second.front();
}

// Args: style (0 classic, 1 TPU, 2 TPU with small fusions), threads.
void BM_AnalyzeDump(benchmark::State& state) {
  const auto style = static_cast<HloDumpStyle>(state.range(0));
  const HloModule* module = Dump(style);
  if (module == nullptr) {
    state.SkipWithError("the generated dump did not read");
    return;
  }
  MemoryAnalysisOptions options;
  options.threads = static_cast<int>(state.range(1));
  for (auto _ : state) {
    absl::StatusOr<MemoryAnalysis> analysis = AnalyzeMemory(*module, options);
    if (!analysis.ok()) {
      state.SkipWithError(std::string(analysis.status().message()).c_str());
      break;
    }
    benchmark::DoNotOptimize(analysis->peak.bytes);
  }
  state.counters["instructions"] =
      static_cast<double>(module->instruction_count());
}
BENCHMARK(BM_AnalyzeDump)
    ->ArgNames({"style", "threads"})
    ->ArgsProduct({{static_cast<int>(HloDumpStyle::kClassic),
                    static_cast<int>(HloDumpStyle::kXlaTpu),
                    static_cast<int>(HloDumpStyle::kXlaTpuSmall)},
                   {1, 2}})
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace hlolayout
