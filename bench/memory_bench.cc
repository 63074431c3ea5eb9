// bench/memory_bench.cc: `hlolayout memory` (values, schedule, live ranges,
// peak) against reading the same module alone.
//
//   ./bazelw run -c opt //bench:memory_bench
//
// The module is generated in memory: 600 blocks of a while loop (its
// condition and body read the loop state through `%name#N` operands), a
// two-branch conditional and the entry instructions around them, about
// 10,000 instructions in all, is_scheduled=true. The goal: the whole
// analysis in less than twice the time of reading (BM_AnalyzeMemory
// against BM_ReadModule); live ranges and buffer assignment together in at
// most three times (BM_AnalyzeModuleMemory against BM_ReadModule).
// BM_AnalyzeSharedLoops: thousands of while loops sharing one body, the
// phi graph's heaviest case; its time per loop should not grow with the
// loops. BM_AnalyzeChainedLoops: a chain of loops, each starting from the
// one before's result, whose shared body makes new values;
// BM_AnalyzeLinkedLoops: the same chain, each loop's result passed to the
// next through a conditional. Their time per loop should not grow with the
// loops either.
//
// glibc's allocator is pinned for the whole run (kPinnedAllocator below):
// the figures are the work of reading and of the analysis, not how often
// the allocator hands freed memory back to the system
// (docs/memory-speed.md, "Speed").
#include <malloc.h>

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "benchmark/benchmark.h"
#include "hlolayout/hlo/reader.h"
#include "hlolayout/memory/buffer_assignment.h"
#include "hlolayout/memory/live_range.h"

namespace hlolayout {
namespace {

constexpr int kBlocks = 600;

// Every iteration reads or analyzes afresh and frees everything. Left to
// itself, glibc returns the freed top of the heap to the system once it
// passes a threshold that adapts to the largest blocks freed so far, and
// the next iteration touches that memory again page by page; on the
// shared VMs this project runs on a page fault costs microseconds, and
// whether an iteration pays them flips from run to run (the reading alone
// then takes 2 ms or 6 ms). Pinning the thresholds keeps freed memory for
// the next iteration, so both benchmarks time their own work.
const bool kPinnedAllocator = [] {
  mallopt(M_MMAP_THRESHOLD, 32 << 20);  // glibc's largest allowed value
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  return true;
}();

const std::string& Module() {
  static const std::string* text = [] {
    auto* out = new std::string("HloModule loops, is_scheduled=true\n\n");
    const std::string state = "(s32[], f32[64,64]{1,0})";
    std::string entry =
        "ENTRY %main (a: f32[64,64]) -> f32[64,64] {\n"
        "  %a = f32[64,64]{1,0} parameter(0)\n";
    std::string prev = "a";
    for (int i = 0; i < kBlocks; ++i) {
      absl::StrAppend(
          out, "%cond.", i, " (s: (s32[], f32[64,64])) -> pred[] {\n", "  %s.",
          i, " = ", state, " parameter(0)\n", "  %l.", i,
          " = s32[] constant(4)\n", "  ROOT %lt.", i, " = pred[] compare(%s.",
          i, "#0, %l.", i, "), direction=LT\n}\n\n");
      absl::StrAppend(out, "%body.", i,
                      " (t: (s32[], f32[64,64])) -> (s32[], f32[64,64]) {\n",
                      "  %t.", i, " = ", state, " parameter(0)\n", "  %one.", i,
                      " = s32[] constant(1)\n", "  %n.", i, " = s32[] add(%t.",
                      i, "#0, %one.", i, ")\n", "  %m.", i,
                      " = f32[64,64]{1,0} multiply(%t.", i, "#1, %t.", i,
                      "#1)\n", "  ROOT %r.", i, " = ", state, " tuple(%n.", i,
                      ", %m.", i, ")\n}\n\n");
      absl::StrAppend(out, "%yes.", i, " (x: f32[64,64]) -> f32[64,64] {\n",
                      "  %x.", i, " = f32[64,64]{1,0} parameter(0)\n",
                      "  ROOT %e.", i, " = f32[64,64]{1,0} exponential(%x.", i,
                      ")\n}\n\n");
      absl::StrAppend(out, "%no.", i, " (y: f32[64,64]) -> f32[64,64] {\n",
                      "  ROOT %y.", i,
                      " = f32[64,64]{1,0} parameter(0)\n}\n\n");
      absl::StrAppend(
          &entry, "  %z.", i, " = s32[] constant(0)\n", "  %f.", i,
          " = f32[64,64]{1,0} add(%", prev, ", %", prev, ")\n", "  %init.", i,
          " = ", state, " tuple(%z.", i, ", %f.", i, ")\n", "  %w.", i, " = ",
          state, " while(%init.", i, "), condition=%cond.", i, ", body=%body.",
          i, "\n", "  %p.", i, " = pred[] compare(%z.", i, ", %z.", i,
          "), direction=EQ\n", "  %c.", i, " = f32[64,64]{1,0} conditional(%p.",
          i, ", %w.", i, "#1, %w.", i, "#1), true_computation=%yes.", i,
          ", false_computation=%no.", i, "\n");
      prev = absl::StrCat("c.", i);
    }
    absl::StrAppend(&entry, "  ROOT %out = f32[64,64]{1,0} negate(%", prev,
                    ")\n}\n");
    *out += entry;
    return out;
  }();
  return *text;
}

int64_t Instructions() {
  absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(Module());
  return modules.ok() ? (*modules)[0].instruction_count() : 0;
}

// The module's instruction count and the time per instruction.
void SetInstructionCounters(benchmark::State& state) {
  const double n = static_cast<double>(Instructions());
  state.counters["instructions"] = n;
  state.counters["ns_per_instruction"] =
      benchmark::Counter(n, benchmark::Counter::kIsIterationInvariantRate |
                                benchmark::Counter::kInvert);
}

// Analyzes `module`; false (and the benchmark marked skipped) on an error.
bool AnalyzeOrSkip(benchmark::State& state, const HloModule& module) {
  absl::StatusOr<MemoryAnalysis> analysis = AnalyzeMemory(module);
  if (!analysis.ok()) {
    state.SkipWithError(std::string(analysis.status().message()).c_str());
    return false;
  }
  benchmark::DoNotOptimize(analysis->peak.bytes);
  return true;
}

// Reading alone: the module into memory (what the analysis starts from).
void BM_ReadModule(benchmark::State& state) {
  for (auto _ : state) {
    absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(Module());
    if (!modules.ok()) {
      state.SkipWithError("read failed");
      break;
    }
    benchmark::DoNotOptimize(modules->data());
  }
  SetInstructionCounters(state);
}
BENCHMARK(BM_ReadModule)->Unit(benchmark::kMillisecond);

// Reading plus the whole analysis (`hlolayout memory` without printing).
void BM_ReadAndAnalyzeMemory(benchmark::State& state) {
  for (auto _ : state) {
    absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(Module());
    if (!modules.ok()) {
      state.SkipWithError("read failed");
      break;
    }
    if (!AnalyzeOrSkip(state, (*modules)[0])) break;
  }
  SetInstructionCounters(state);
}
BENCHMARK(BM_ReadAndAnalyzeMemory)->Unit(benchmark::kMillisecond);

// The analysis alone, on a module read once (the figure the goal compares
// with BM_ReadModule).
void BM_AnalyzeMemory(benchmark::State& state) {
  absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(Module());
  if (!modules.ok()) {
    state.SkipWithError("read failed");
    return;
  }
  for (auto _ : state) {
    if (!AnalyzeOrSkip(state, (*modules)[0])) break;
  }
  SetInstructionCounters(state);
}
BENCHMARK(BM_AnalyzeMemory)->Unit(benchmark::kMillisecond);

// Live ranges and XLA's buffer assignment together (AnalyzeModuleMemory:
// what `hlolayout memory` computes), on a module read once. The goal of
// issue 23: at most 3x BM_ReadModule.
void BM_AnalyzeModuleMemory(benchmark::State& state) {
  absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(Module());
  if (!modules.ok()) {
    state.SkipWithError("read failed");
    return;
  }
  for (auto _ : state) {
    absl::StatusOr<ModuleMemory> m =
        AnalyzeModuleMemory((*modules)[0], BufferAssignmentOptions());
    if (!m.ok()) {
      state.SkipWithError(std::string(m.status().message()).c_str());
      break;
    }
    benchmark::DoNotOptimize(m->buffers.stats.peak_memory_in_bytes);
  }
  SetInstructionCounters(state);
}
BENCHMARK(BM_AnalyzeModuleMemory)->Unit(benchmark::kMillisecond);

// `loops` while loops sharing one condition and one body that passes the
// state through (an opt-barrier of its parameter), each with an init of
// its own (as the classic dump of bench/hlo_dump_gen): the body's and the
// condition's parameters are phis of every loop's init, the phi graph's
// heaviest case.
// The header of module `name` and the loops' shared condition, on
// `state`: element 0 counts up to 4.
std::string LoopModuleHead(absl::string_view name, absl::string_view state) {
  return absl::StrCat(
      "HloModule ", name, ", is_scheduled=true\n\n", "%cond (s: ", state,
      ") -> pred[] {\n  %s = ", state, " parameter(0)\n",
      "  %i = s32[] get-tuple-element(%s), index=0\n",
      "  %l = s32[] constant(4)\n",
      "  ROOT %lt = pred[] compare(%i, %l), direction=LT\n}\n\n");
}

std::string SharedLoopsModule(int loops) {
  const std::string state = "(s32[], f32[8]{0})";
  std::string out = absl::StrCat(
      LoopModuleHead("shared_loops", state), "%body (t: ", state, ") -> ",
      state, " {\n  %t = ", state, " parameter(0)\n", "  ROOT %b = ", state,
      " opt-barrier(%t)\n}\n\n",
      "ENTRY %main (a: f32[8], n: s32[]) -> f32[8] {\n",
      "  %a = f32[8]{0} parameter(0)\n  %n = s32[] parameter(1)\n");
  std::string prev = "a";
  for (int i = 0; i < loops; ++i) {
    absl::StrAppend(&out, "  %f.", i, " = f32[8]{0} add(%", prev, ", %", prev,
                    ")\n  %init.", i, " = ", state, " tuple(%n, %f.", i,
                    ")\n  %w.", i, " = ", state, " while(%init.", i,
                    "), condition=%cond, body=%body\n  %g.", i,
                    " = f32[8]{0} get-tuple-element(%w.", i, "), index=1\n");
    prev = absl::StrCat("g.", i);
  }
  absl::StrAppend(&out, "  ROOT %out = f32[8]{0} negate(%", prev, ")\n}\n");
  return out;
}

// The analysis of SharedLoopsModule(loops), read once: the time per loop
// should not grow with the loops (it did: 8,000 loops took 16 times as
// long as 2,000).
// The analysis of `text`, a module of state.range(0) loops, read once; the
// time per loop as a counter.
void AnalyzeLoops(benchmark::State& state, const std::string& text) {
  absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(text);
  if (!modules.ok()) {
    state.SkipWithError("read failed");
    return;
  }
  for (auto _ : state) {
    if (!AnalyzeOrSkip(state, (*modules)[0])) break;
  }
  state.counters["ns_per_loop"] =
      benchmark::Counter(static_cast<double>(state.range(0)),
                         benchmark::Counter::kIsIterationInvariantRate |
                             benchmark::Counter::kInvert);
}

void BM_AnalyzeSharedLoops(benchmark::State& state) {
  AnalyzeLoops(state, SharedLoopsModule(static_cast<int>(state.range(0))));
}
BENCHMARK(BM_AnalyzeSharedLoops)
    ->Arg(2000)
    ->Arg(8000)
    ->Unit(benchmark::kMillisecond);

// `loops` while loops in a chain: loop k starts from loop k - 1's result
// and all share one condition and one body that makes a new value for
// each element. Loop k's result {1} is a phi of the body's value and loop
// k - 1's result {1}: the phi graph's walk from it goes down the whole
// chain to the first loop's init before it meets a second value. With
// `linked`, loop k starts from a conditional of loop k - 1's result whose
// two branches (of its own) pass it on: a phi of that result twice, which
// the phi graph replaces by it, rewriting the shared body's and
// condition's parameters (two inputs per loop) each time.
std::string ChainedLoopsModule(int loops, bool linked) {
  const std::string state = "(s32[], f32[8]{0})";
  std::string out = absl::StrCat(
      LoopModuleHead("chained_loops", state), "%body (t: ", state, ") -> ",
      state, " {\n  %t = ", state, " parameter(0)\n",
      "  %j = s32[] get-tuple-element(%t), index=0\n",
      "  %one = s32[] constant(1)\n", "  %k = s32[] add(%j, %one)\n",
      "  %x = f32[8]{0} get-tuple-element(%t), index=1\n",
      "  %m = f32[8]{0} multiply(%x, %x)\n", "  ROOT %b = ", state,
      " tuple(%k, %m)\n}\n\n");
  std::string entry = absl::StrCat(
      "ENTRY %main (a: f32[8], n: s32[]", linked ? ", q: pred[]" : "",
      ") -> f32[8] {\n", "  %a = f32[8]{0} parameter(0)\n",
      "  %n = s32[] parameter(1)\n",
      linked ? "  %q = pred[] parameter(2)\n" : "", "  %init = ", state,
      " tuple(%n, %a)\n");
  std::string prev = "init";
  for (int i = 0; i < loops; ++i) {
    absl::StrAppend(&entry, "  %w.", i, " = ", state, " while(%", prev,
                    "), condition=%cond, body=%body\n");
    prev = absl::StrCat("w.", i);
    if (!linked) continue;
    for (const char* branch : {"yes", "no"}) {
      absl::StrAppend(&out, "%", branch, ".", i, " (p: ", state, ") -> ", state,
                      " {\n  ROOT %", branch, "p.", i, " = ", state,
                      " parameter(0)\n}\n\n");
    }
    absl::StrAppend(&entry, "  %c.", i, " = ", state, " conditional(%q, %w.", i,
                    ", %w.", i, "), true_computation=%yes.", i,
                    ", false_computation=%no.", i, "\n");
    prev = absl::StrCat("c.", i);
  }
  out += entry;
  absl::StrAppend(&out, "  %g = f32[8]{0} get-tuple-element(%", prev,
                  "), index=1\n  ROOT %out = f32[8]{0} negate(%g)\n}\n");
  return out;
}

// The analysis of ChainedLoopsModule(loops, linked), read once.
void AnalyzeChainedLoops(benchmark::State& state, bool linked) {
  AnalyzeLoops(state,
               ChainedLoopsModule(static_cast<int>(state.range(0)), linked));
}

// The time per loop should not grow with the loops (it did: 8,000 loops
// took about 60 times as long as 1,000).
void BM_AnalyzeChainedLoops(benchmark::State& state) {
  AnalyzeChainedLoops(state, /*linked=*/false);
}
BENCHMARK(BM_AnalyzeChainedLoops)
    ->Arg(1000)
    ->Arg(2000)
    ->Arg(4000)
    ->Arg(8000)
    ->Unit(benchmark::kMillisecond);

// Loops linked by conditionals: the same (8,000 loops took about 16 times
// as long as 2,000).
void BM_AnalyzeLinkedLoops(benchmark::State& state) {
  AnalyzeChainedLoops(state, /*linked=*/true);
}
BENCHMARK(BM_AnalyzeLinkedLoops)
    ->Arg(2000)
    ->Arg(8000)
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace hlolayout
