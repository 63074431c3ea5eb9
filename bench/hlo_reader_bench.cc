// bench/hlo_reader_bench.cc: HLO dump reading throughput against a memchr
// newline scan of the same bytes.
//
//   ./bazelw run -c opt //bench:hlo_reader_bench
//
// The dump is generated in memory once (about 75 MB, testing/hlo_test_dump.h:
// fusions, tuples of tuples, metadata, JSON backend configs, tiled layouts,
// 8,192 distinct random shapes on top of the fixed ones, so that the shape
// cache cannot hold them all).
// Every benchmark reports MB/s through SetBytesProcessed; the goal is a
// reader at no less than a tenth of BM_MemchrNewlineScan.
#include <cstring>
#include <sstream>

#include "benchmark/benchmark.h"
#include "hlolayout/hlo/reader.h"
#include "hlolayout/report/report.h"
#include "hlolayout/testing/hlo_test_dump.h"
#include "hlolayout/views/report_render.h"

namespace hlolayout {
namespace {

const GeneratedHloDump& Dump() {
  static const GeneratedHloDump* dump = [] {
    HloDumpOptions options;
    options.target_bytes = 75 << 20;
    return new GeneratedHloDump(GenerateHloDump(options));
  }();
  return *dump;
}

// The baseline: count lines with memchr, nothing else.
void BM_MemchrNewlineScan(benchmark::State& state) {
  const std::string& text = Dump().text;
  for (auto _ : state) {
    int64_t lines = 0;
    const char* p = text.data();
    const char* end = p + text.size();
    while (const void* nl = std::memchr(p, '\n', end - p)) {
      ++lines;
      p = static_cast<const char*>(nl) + 1;
    }
    benchmark::DoNotOptimize(lines);
  }
  state.SetBytesProcessed(state.iterations() *
                          static_cast<int64_t>(text.size()));
}
BENCHMARK(BM_MemchrNewlineScan)->Unit(benchmark::kMillisecond);

// Counts instructions and array dims, so that every decoded shape is used.
class CountingVisitor : public HloVisitor {
 public:
  void VisitInstruction(const HloInstruction& instruction) override {
    ++instructions;
    if (instruction.shape != nullptr) {
      dims += instruction.shape->rank() + instruction.shape->tuple_size();
    }
    for (const HloOperand& operand : instruction.operands()) {
      if (operand.shape != nullptr) dims += operand.shape->rank();
    }
  }
  int64_t instructions = 0;
  int64_t dims = 0;
};

// The streaming reader: every module, computation, instruction and shape
// decoded, one instruction kept at a time. Arg 1: shapes shared through the
// reader's cache (each distinct text decoded once, up to its bound); arg 0:
// no cache, every shape text decoded by ParseShapeAt where it stands.
void BM_HloReaderStreaming(benchmark::State& state) {
  const GeneratedHloDump& dump = Dump();
  HloReadOptions options;
  options.share_shapes = state.range(0) != 0;
  for (auto _ : state) {
    CountingVisitor visitor;
    const absl::Status status = ReadHlo(dump.text, options, &visitor);
    if (!status.ok() || visitor.instructions != dump.instructions) {
      state.SkipWithError("reader disagrees with the generator");
      break;
    }
    benchmark::DoNotOptimize(visitor.dims);
  }
  state.SetBytesProcessed(state.iterations() *
                          static_cast<int64_t>(dump.text.size()));
  state.counters["instructions"] = static_cast<double>(dump.instructions);
  state.counters["shapes"] = static_cast<double>(dump.shapes);
  state.counters["MB"] = static_cast<double>(dump.text.size()) / 1e6;
}
BENCHMARK(BM_HloReaderStreaming)
    ->ArgName("share_shapes")
    ->Arg(1)
    ->Arg(0)
    ->Unit(benchmark::kMillisecond);

// The same text into std::vector<HloModule>, every instruction kept.
void BM_HloReaderModules(benchmark::State& state) {
  const GeneratedHloDump& dump = Dump();
  for (auto _ : state) {
    absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(dump.text);
    if (!modules.ok()) {
      state.SkipWithError("read failed");
      break;
    }
    benchmark::DoNotOptimize(modules->data());
  }
  state.SetBytesProcessed(state.iterations() *
                          static_cast<int64_t>(dump.text.size()));
}
BENCHMARK(BM_HloReaderModules)->Unit(benchmark::kMillisecond);

// The whole `hlolayout report --summary`: read, per-shape sizes, buffer
// rules, totals per module and memory space, and the text it prints. Arg:
// ReportOptions::threads (1: one thread, the figure to compare with the
// memchr scan's; 0: one per core, the CLI's default). CPU time counts the
// main thread only: read the wall ("Time") column for threads:0.
void BM_ReportSummary(benchmark::State& state) {
  const GeneratedHloDump& dump = Dump();
  ReportOptions options;
  options.threads = state.range(0);
  options.keep_rows = false;
  RenderOptions render;
  render.summary = true;
  for (auto _ : state) {
    absl::StatusOr<Report> report = BuildReport(dump.text, options);
    if (!report.ok() || report->modules.empty()) {
      state.SkipWithError("report failed");
      break;
    }
    std::ostringstream out;
    RenderReportText(*report, render, out);
    benchmark::DoNotOptimize(out.str().size());
  }
  state.SetBytesProcessed(state.iterations() *
                          static_cast<int64_t>(dump.text.size()));
}
BENCHMARK(BM_ReportSummary)
    ->ArgName("threads")
    ->Arg(1)
    ->Arg(0)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
}  // namespace hlolayout
