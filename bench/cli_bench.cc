// bench/cli_bench.cc: commands end to end, as a user runs them (a process
// that starts, reads a file, writes its answer and exits), against plain
// tools run as processes too:
//   - `hlolayout report --summary` against newline scans of the same dump;
//   - `hlolayout relayout` of a 256 MiB array (tile a row-major f32
//     [8192,8192] to T(8,128), from a raw file and from a .npy file, and
//     untile it back to .npy) against `cp` of the same input, in /dev/shm
//     (memory) and in the temporary directory (a disk), one thread.
//
//   ./bazelw run -c opt //bench:cli_bench
//   ./bazelw run -c opt //bench:cli_bench -- --benchmark_repetitions=5
//   ./bazelw run -c opt //bench:cli_bench -- --benchmark_filter=Relayout
//
// BM_CliReportTwoThreadsVsOne runs `report --summary` of each dump on two
// threads and on one back to back (which first alternates):
// `ratio_to_one_thread` is the median over the pairs of the two-thread time
// over the one-thread time (issue 38: never above 1).
// BM_CliReportDefaultVsOne does the same with the default threads (one per
// idle core) against one.
// BM_CliMemoryVsReportSummary runs `hlolayout memory` and `report --summary`
// (default threads) of a 40 MB dump of TPU-shaped small computations the same
// way: `ratio_to_report` (issue 40: at most 2).
//
//   ./bazelw run -c opt //bench:cli_bench --
//     --benchmark_filter='WcL|VsOne|MemoryVsReport'
//     --benchmark_min_time=5
//
// The files are two generated dumps of about 75 MB (testing/hlo_test_dump.h),
// written once to temporary files and read from the page cache by every run:
// `dump:0`, the classic style (the same generator and size as
// bench/hlo_reader_bench.cc), `dump:1`, the XLA TPU style (operands
// without shapes, metadata, backend configs and frontend attributes on
// every line, large source tables, 65,536 distinct shape texts: most seen
// once), and `dump:2`, the same style with one small fused computation per
// fusion as XLA:TPU writes them (HloDumpStyle::kXlaTpuSmall: about 62,600
// computations of a few lines). `report --summary` runs on 1 and 2 threads
// and the default; at the end, dump:2's time over dump:1's (does the speed
// depend on how the bytes are split into computations?) and each dump's
// one-thread time over its two-thread time. Baselines, run on the same
// file:
//   - BM_WcL: `wc -l FILE`, the newline scan issue 10 measured against;
//   - BM_NewlineScanProcess: bench/newline_scan.cc, a program that maps
//     the file and counts newlines with memchr and links only the C and C++
//     runtimes: about the fastest newline scan a process can do.
// Every benchmark reports wall time (a process's whole life, startup and
// exit included). At the end the binary prints each CLI figure as a ratio of
// both baselines from the same run ("speed ratio": baseline time / CLI
// time, so 0.1 means a tenth of the baseline's speed). Medians when run with
// repetitions.
//
// The relayout cases write their 256 MiB inputs once per folder (random
// bytes), warm up for half a second (the page cache then holds the input),
// and run `cp` of the same input right before each timed run of the
// command, outputs removed before each: writing to a disk depends on how
// much the kernel has left to write back, and on a shared machine on the
// others' load, which pairs taken back to back mostly cancel
// (`ratio_to_cp` is the median of the pairs' ratios). `peak_rss_MiB` is
// the command's peak resident memory (the input is mapped, so it counts),
// `rss_per_input` that over the input's size. At the end each relayout
// case is printed with its ratio to `cp`.
//
// The binaries are found in the runfiles (`bazel run`), or given with
// --hlolayout=PATH and --newline_scan=PATH.
//
// --baseline=PATH (another hlolayout binary, e.g. one built from the previous
// commit) adds BM_CliReportSummaryVsBaseline: `report --summary` of each dump
// by both binaries back to back (which one first alternates), the time the
// CLI's; `ratio_to_baseline` is the median over the pairs of the CLI's time
// over the baseline's (1.05: 5% slower), `baseline_ms` the baseline's median.
//   ./bazelw run -c opt //bench:cli_bench -- --baseline=/tmp/hlolayout.old
//     --benchmark_filter=VsBaseline --benchmark_min_time=10
#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "hlolayout/testing/hlo_test_dump.h"

extern char** environ;

namespace hlolayout {
namespace {

std::string& CliPath() {
  static std::string path;
  return path;
}
std::string& ScanPath() {
  static std::string path;
  return path;
}
std::string& BaselinePath() {
  static std::string path;
  return path;
}

// 0: classic, 1: XLA TPU style, 2: XLA TPU style with many small computations.
constexpr int kDumps = 3;

// A generated dump, written to a temporary file once.
std::string WriteDump(int kind) {
  HloDumpOptions options;
  options.target_bytes = 75 << 20;
  if (kind == 1 || kind == 2) {
    options.style =
        kind == 1 ? HloDumpStyle::kXlaTpu : HloDumpStyle::kXlaTpuSmall;
    options.distinct_shapes = 65536;
  }
  const GeneratedHloDump dump = GenerateHloDump(options);
  const char* dir = std::getenv("TEST_TMPDIR");
  std::string name = std::string(dir != nullptr ? dir : "/tmp") +
                     "/hlolayout_cli_bench_XXXXXX";
  const int fd = mkstemp(name.data());
  if (fd < 0 || write(fd, dump.text.data(), dump.text.size()) !=
                    static_cast<ssize_t>(dump.text.size())) {
    std::fprintf(stderr, "cli_bench: cannot write %s\n", name.c_str());
    std::exit(1);
  }
  close(fd);
  return name;
}

bool dumps_written = false;

// Both dumps, written the first time one is asked for (before the timing
// of the benchmark that asks: its arguments are built first).
const std::string& DumpPath(int kind) {
  static const std::vector<std::string>* paths = [] {
    dumps_written = true;
    auto* p = new std::vector<std::string>;
    for (int kind = 0; kind < kDumps; ++kind) p->push_back(WriteDump(kind));
    return p;
  }();
  return (*paths)[kind];
}

// Runs `argv` with stdout and stderr to /dev/null; false when it fails.
// `max_rss_kib`, when given, gets the process's peak resident memory.
bool Run(const std::vector<std::string>& args, long* max_rss_kib = nullptr) {
  std::vector<char*> argv;
  for (const std::string& a : args)
    argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  pid_t pid;
  const int error =
      posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (error != 0) return false;
  int status = 0;
  struct rusage usage = {};
  if (wait4(pid, &status, 0, &usage) != pid) return false;
  if (max_rss_kib != nullptr) *max_rss_kib = usage.ru_maxrss;
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

// Runs `args` once per iteration; the last argument is the file read.
void RunEach(benchmark::State& state, const std::vector<std::string>& args) {
  for (auto _ : state) {
    if (!Run(args)) {
      state.SkipWithError(("failed: " + args[0]).c_str());
      return;
    }
  }
  struct stat st = {};
  stat(args.back().c_str(), &st);
  state.SetBytesProcessed(state.iterations() * st.st_size);
}

void BM_WcL(benchmark::State& state) {
  RunEach(state, {"wc", "-l", DumpPath(state.range(0))});
}
BENCHMARK(BM_WcL)
    ->ArgName("dump")
    ->DenseRange(0, kDumps - 1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void BM_NewlineScanProcess(benchmark::State& state) {
  RunEach(state, {ScanPath(), DumpPath(state.range(0))});
}
BENCHMARK(BM_NewlineScanProcess)
    ->ArgName("dump")
    ->DenseRange(0, kDumps - 1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// threads:0 is the CLI's default (one thread per idle core, at most 8).
void BM_CliReportSummary(benchmark::State& state) {
  RunEach(state, {CliPath(), "report", "--summary",
                  "--threads=" + std::to_string(state.range(1)),
                  DumpPath(state.range(0))});
}
BENCHMARK(BM_CliReportSummary)
    ->ArgNames({"dump", "threads"})
    ->ArgsProduct({{0, 1, 2}, {1, 2, 0}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

double Seconds(const std::vector<std::string>& args, long* rss_kib);
double Median(std::vector<double> v);

// `report --summary` by the CLI and by --baseline, back to back (registered
// only with --baseline): manual time the CLI's, counters `baseline_ms` and
// `ratio_to_baseline` (medians; the ratio per pair, CLI over baseline).
void BM_CliReportSummaryVsBaseline(benchmark::State& state) {
  const std::string& dump = DumpPath(state.range(0));
  const std::string threads = "--threads=" + std::to_string(state.range(1));
  const std::vector<std::string> cli = {CliPath(), "report", "--summary",
                                        threads, dump};
  const std::vector<std::string> base = {BaselinePath(), "report", "--summary",
                                         threads, dump};
  std::vector<double> base_times, ratios;
  long rss = 0;
  bool cli_first = true;
  for (auto _ : state) {
    double t, b;
    if (cli_first) {
      t = Seconds(cli, &rss);
      b = Seconds(base, &rss);
    } else {
      b = Seconds(base, &rss);
      t = Seconds(cli, &rss);
    }
    cli_first = !cli_first;
    if (t < 0 || b < 0) {
      state.SkipWithError(t < 0 ? "hlolayout failed" : "baseline failed");
      break;
    }
    state.SetIterationTime(t);
    base_times.push_back(b);
    ratios.push_back(t / b);
  }
  struct stat st = {};
  stat(dump.c_str(), &st);
  state.SetBytesProcessed(state.iterations() * st.st_size);
  state.counters["baseline_ms"] = Median(base_times) * 1e3;
  state.counters["ratio_to_baseline"] = Median(ratios);
}

// Runs `a` and `b` back to back once per iteration (which one first
// alternates); manual time `a`'s. Counters: `<b_name>_ms`, the median of b's
// times, and `ratio_to_<b_name>`, the median over the pairs of a's time over
// b's (1.5: a takes 1.5 times b's time). (No peak memory: a child spawned
// here inherits this process's high-water mark in ru_maxrss; measure it with
// /usr/bin/time.)
void RunPairs(benchmark::State& state, const std::vector<std::string>& a,
              const std::vector<std::string>& b, const std::string& b_name) {
  std::vector<double> b_times, ratios;
  long rss = 0;
  bool a_first = true;
  for (auto _ : state) {
    double t, u;
    if (a_first) {
      t = Seconds(a, &rss);
      u = Seconds(b, &rss);
    } else {
      u = Seconds(b, &rss);
      t = Seconds(a, &rss);
    }
    a_first = !a_first;
    if (t < 0 || u < 0) {
      state.SkipWithError("a command failed");
      return;
    }
    state.SetIterationTime(t);
    b_times.push_back(u);
    ratios.push_back(t / u);
  }
  struct stat st = {};
  stat(a.back().c_str(), &st);
  state.SetBytesProcessed(state.iterations() * st.st_size);
  state.counters[b_name + "_ms"] = Median(b_times) * 1e3;
  state.counters["ratio_to_" + b_name] = Median(ratios);
}

// `report --summary` on two threads against one, in pairs (issue 38: two
// threads must never be slower than one): `ratio_to_one_thread` below 1 is
// faster.
void BM_CliReportTwoThreadsVsOne(benchmark::State& state) {
  const std::string& dump = DumpPath(state.range(0));
  RunPairs(state, {CliPath(), "report", "--summary", "--threads=2", dump},
           {CliPath(), "report", "--summary", "--threads=1", dump},
           "one_thread");
}
BENCHMARK(BM_CliReportTwoThreadsVsOne)
    ->ArgName("dump")
    ->DenseRange(0, kDumps - 1)
    ->Unit(benchmark::kMillisecond)
    ->UseManualTime();

// `report --summary` with the default threads (one per idle core, at most
// 8: util/cores.h) against one thread, in pairs: what a user who gives no
// --threads waits, against the one-thread floor (issue 38: never above 1).
void BM_CliReportDefaultVsOne(benchmark::State& state) {
  const std::string& dump = DumpPath(state.range(0));
  RunPairs(state, {CliPath(), "report", "--summary", dump},
           {CliPath(), "report", "--summary", "--threads=1", dump},
           "one_thread");
}
BENCHMARK(BM_CliReportDefaultVsOne)
    ->ArgName("dump")
    ->DenseRange(0, kDumps - 1)
    ->Unit(benchmark::kMillisecond)
    ->UseManualTime();

bool small_dump_written = false;

// The 40 MB dump of TPU-shaped small computations that issue 40 measures
// `hlolayout memory` on, written once.
const std::string& SmallDump40() {
  static const std::string* path = [] {
    HloDumpOptions options;
    options.target_bytes = 40 << 20;
    options.style = HloDumpStyle::kXlaTpuSmall;
    options.distinct_shapes = 65536;
    const GeneratedHloDump dump = GenerateHloDump(options);
    const char* dir = std::getenv("TEST_TMPDIR");
    std::string name = std::string(dir != nullptr ? dir : "/tmp") +
                       "/hlolayout_cli_bench_XXXXXX";
    const int fd = mkstemp(name.data());
    if (fd < 0 || write(fd, dump.text.data(), dump.text.size()) !=
                      static_cast<ssize_t>(dump.text.size())) {
      std::fprintf(stderr, "cli_bench: cannot write %s\n", name.c_str());
      std::exit(1);
    }
    close(fd);
    small_dump_written = true;
    return new std::string(name);
  }();
  return *path;
}

// `hlolayout memory` (the live ranges and the peak: XLA:TPU's buffer
// assignment is not modelled) against `report --summary` of the same dump,
// default threads, in pairs: issue 40 asks for `ratio_to_report` <= 2.
void BM_CliMemoryVsReportSummary(benchmark::State& state) {
  const std::string& dump = SmallDump40();
  RunPairs(state, {CliPath(), "memory", dump},
           {CliPath(), "report", "--summary", dump}, "report");
}
BENCHMARK(BM_CliMemoryVsReportSummary)
    ->Unit(benchmark::kMillisecond)
    ->UseManualTime();

// ---- relayout: 256 MiB arrays against cp.

constexpr int64_t kSide = 8192;  // f32[8192,8192]: 256 MiB
const char kRowMajor[] = "f32[8192,8192]{1,0}";
const char kTiled[] = "f32[8192,8192]{1,0:T(8,128)}";

// The folders: 0 /dev/shm (memory), 1 TEST_TMPDIR or /tmp (a disk).
std::string Folder(int which) {
  if (which == 0) return "/dev/shm";
  const char* dir = std::getenv("TEST_TMPDIR");
  return dir != nullptr ? dir : "/tmp";
}

bool WriteFileBytes(const std::string& path, const std::string& head,
                    int64_t bytes, uint64_t seed) {
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return false;
  bool ok =
      write(fd, head.data(), head.size()) == static_cast<ssize_t>(head.size());
  std::mt19937_64 rng(seed);
  std::vector<uint64_t> block(1 << 17);  // 1 MiB
  for (int64_t done = 0; ok && done < bytes;) {
    for (uint64_t& v : block) v = rng();
    const size_t n = static_cast<size_t>(
        std::min<int64_t>(bytes - done, block.size() * sizeof(uint64_t)));
    ok = write(fd, block.data(), n) == static_cast<ssize_t>(n);
    done += static_cast<int64_t>(n);
  }
  return close(fd) == 0 && ok;
}

// The inputs of one folder: a.bin (row-major), a.npy (the same as .npy),
// t.bin (tiled), written once; removed at the end.
std::vector<std::string>& Written() {
  static std::vector<std::string> paths;
  return paths;
}
const std::string& Input(int which, const char* name) {
  static std::map<std::string, std::string> paths;
  const std::string key = std::to_string(which) + name;
  auto it = paths.find(key);
  if (it != paths.end()) return it->second;
  const std::string path = Folder(which) + "/hlolayout_cli_bench_" +
                           std::to_string(getpid()) + "_" + name;
  const int64_t bytes = kSide * kSide * 4;
  bool ok;
  if (std::strcmp(name, "a.npy") == 0) {
    // The header NumPy writes for float32 (8192, 8192): 128 bytes.
    std::string dict =
        "{'descr': '<f4', 'fortran_order': False, 'shape': (8192, 8192), }";
    dict.append((64 - (10 + dict.size() + 1) % 64) % 64, ' ');
    dict += '\n';
    std::string head = "\x93NUMPY\x01";
    head += '\0';
    head += static_cast<char>(dict.size() & 0xFF);
    head += static_cast<char>(dict.size() >> 8);
    ok = WriteFileBytes(path, head + dict, bytes, 1);
  } else {
    ok = WriteFileBytes(path, "", bytes,
                        std::strcmp(name, "t.bin") == 0 ? 2 : 1);
  }
  if (!ok) {
    std::fprintf(stderr, "cli_bench: cannot write %s\n", path.c_str());
    std::exit(1);
  }
  Written().push_back(path);
  return paths[key] = path;
}

double Seconds(const std::vector<std::string>& args, long* rss_kib) {
  const auto t0 = std::chrono::steady_clock::now();
  const bool ok = Run(args, rss_kib);
  const auto t1 = std::chrono::steady_clock::now();
  return ok ? std::chrono::duration<double>(t1 - t0).count() : -1;
}

double Median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

std::string OutputPath(int which, const char* name) {
  return Folder(which) + "/hlolayout_cli_bench_" + std::to_string(getpid()) +
         "_" + name;
}

// hlolayout relayout --threads 1 in folder range 0: case range 1 is 0 tile
// a.bin, 1 tile a.npy (--from from its header), 2 untile t.bin to a .npy
// file. Each iteration runs `cp` of the same input first, then the
// command, each to a fresh output (removed before, untimed): the time is
// the command's (manual time); counters: `cp_ms` (median), `ratio_to_cp`
// (the median over iterations of cp's time over the command's, the two
// taken back to back: it cancels most of a shared machine's drift),
// `peak_rss_MiB` and `rss_per_input` (the command's peak resident memory;
// the mapped input counts).
void BM_CliRelayout(benchmark::State& state) {
  const int which = static_cast<int>(state.range(0));
  std::vector<std::string> args = {CliPath(), "relayout", "--threads", "1"};
  std::string in;
  switch (state.range(1)) {
    case 0:
      in = Input(which, "a.bin");
      args.insert(args.end(), {"--from", kRowMajor, "--to", kTiled, in,
                               OutputPath(which, "out.bin")});
      break;
    case 1:
      in = Input(which, "a.npy");
      args.insert(args.end(),
                  {"--to", kTiled, in, OutputPath(which, "out.bin")});
      break;
    default:
      in = Input(which, "t.bin");
      args.insert(args.end(), {"--from", kTiled, "--to", kRowMajor, in,
                               OutputPath(which, "out.npy")});
  }
  const std::string& output = args.back();
  const std::vector<std::string> cp = {"cp", in, OutputPath(which, "cp.out")};
  std::vector<double> cp_times, ratios;
  long rss = 0, cp_rss = 0;
  for (auto _ : state) {
    std::remove(cp.back().c_str());
    std::remove(output.c_str());
    const double c = Seconds(cp, &cp_rss);
    std::remove(cp.back().c_str());
    const double t = Seconds(args, &rss);
    if (c < 0 || t < 0) {
      state.SkipWithError(c < 0 ? "cp failed" : "hlolayout relayout failed");
      break;
    }
    state.SetIterationTime(t);
    cp_times.push_back(c);
    ratios.push_back(c / t);
  }
  std::remove(cp.back().c_str());
  std::remove(output.c_str());
  struct stat st = {};
  stat(in.c_str(), &st);
  state.SetBytesProcessed(state.iterations() * st.st_size);
  state.counters["cp_ms"] = Median(cp_times) * 1e3;
  state.counters["ratio_to_cp"] = Median(ratios);
  state.counters["peak_rss_MiB"] = static_cast<double>(rss) / 1024;
  state.counters["rss_per_input"] =
      static_cast<double>(rss) * 1024 / static_cast<double>(st.st_size);
}
BENCHMARK(BM_CliRelayout)
    ->ArgNames({"dir", "case"})
    ->ArgsProduct({{0, 1}, {0, 1, 2}})
    ->Unit(benchmark::kMillisecond)
    ->MinWarmUpTime(0.5)
    ->MinTime(2)
    ->UseManualTime();

// Keeps every run's wall time by name (the aggregates' names end in _median
// etc., and are kept too), and prints the ratios at the end.
class RatioReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs) {
      if (run.error_occurred) continue;
      // "BM_WcL/real_time_median" -> "BM_WcL_median"; the relayout cases'
      // "/min_time:2.000/min_warmup_time:0.500" and "/manual_time" go too.
      std::string name = run.benchmark_name();
      for (const char* part :
           {"/min_time:", "/min_warmup_time:", "/iterations:"}) {
        const size_t at = name.find(part);
        if (at != std::string::npos) {
          name.erase(at, name.find('/', at + 1) - at);
        }
      }
      for (const char* suffix : {"/real_time", "/manual_time"}) {
        const size_t at = name.find(suffix);
        if (at != std::string::npos) name.erase(at, std::strlen(suffix));
      }
      times_[name].push_back(run.GetAdjustedRealTime());
      for (const char* counter :
           {"cp_ms", "ratio_to_cp", "peak_rss_MiB", "baseline_ms",
            "ratio_to_baseline", "one_thread_ms", "ratio_to_one_thread",
            "report_ms", "ratio_to_report"}) {
        auto it = run.counters.find(counter);
        if (it != run.counters.end()) {
          counters_[name + " " + counter].push_back(it->second.value);
        }
      }
    }
    ConsoleReporter::ReportRuns(runs);
  }
  void Finalize() override {
    ConsoleReporter::Finalize();
    auto time = [&](const std::string& name) {
      // The median aggregate when there are repetitions, else the run.
      for (const std::string& key : {name + "_median", name}) {
        auto it = times_.find(key);
        if (it != times_.end() && !it->second.empty()) {
          std::vector<double> v = it->second;
          std::sort(v.begin(), v.end());
          return v[v.size() / 2];
        }
      }
      return 0.0;
    };
    for (int kind = 0; kind < kDumps; ++kind) {
      const std::string dump = "/dump:" + std::to_string(kind);
      const double wc = time("BM_WcL" + dump);
      const double scan = time("BM_NewlineScanProcess" + dump);
      for (const char* threads : {"/threads:1", "/threads:2", "/threads:0"}) {
        const std::string name = "BM_CliReportSummary" + dump + threads;
        const double t = time(name);
        if (t <= 0) continue;
        std::printf(
            "%s: %.1f ms; speed ratio to wc -l %.3fx, to the mapped "
            "newline scan %.3fx\n",
            name.c_str(), t, wc > 0 ? wc / t : 0.0, scan > 0 ? scan / t : 0.0);
      }
    }
    // Many small computations against the same bytes in large ones, and
    // what a second thread gives.
    for (const char* threads : {"/threads:1", "/threads:2"}) {
      const double large =
          time(std::string("BM_CliReportSummary/dump:1") + threads);
      const double small =
          time(std::string("BM_CliReportSummary/dump:2") + threads);
      if (large > 0 && small > 0) {
        std::printf(
            "report --summary%s: many small computations (dump:2) take %.2fx "
            "the time of large ones (dump:1)\n",
            threads, small / large);
      }
    }
    for (int kind = 0; kind < kDumps; ++kind) {
      const std::string dump =
          "BM_CliReportSummary/dump:" + std::to_string(kind);
      const double one = time(dump + "/threads:1");
      const double two = time(dump + "/threads:2");
      if (one > 0 && two > 0) {
        std::printf("%s: --threads=2 is %.2fx faster than --threads=1\n",
                    dump.c_str(), one / two);
      }
    }
    // The medians of the runs' own counters (over repetitions).
    auto counter = [&](const std::string& name, const char* which) {
      // The median aggregate's (with repetitions), else the runs'.
      for (const std::string& key : {name + "_median", name}) {
        auto it = counters_.find(key + " " + which);
        if (it != counters_.end()) return Median(it->second);
      }
      return 0.0;
    };
    for (int kind = 0; kind < kDumps; ++kind) {
      for (const char* threads : {"/threads:1", "/threads:0"}) {
        const std::string name =
            "BM_CliReportSummaryVsBaseline/dump:" + std::to_string(kind) +
            threads;
        const double t = time(name);
        if (t <= 0) continue;
        std::printf(
            "%s: %.1f ms, baseline %.1f ms; time ratio to the baseline "
            "%.3f (median of back-to-back pairs)\n",
            name.c_str(), t, counter(name, "baseline_ms"),
            counter(name, "ratio_to_baseline"));
      }
    }
    for (int kind = 0; kind < kDumps; ++kind) {
      const std::string name =
          "BM_CliReportTwoThreadsVsOne/dump:" + std::to_string(kind);
      const double t = time(name);
      if (t <= 0) continue;
      const double wc = time("BM_WcL/dump:" + std::to_string(kind));
      std::printf(
          "%s: two threads %.1f ms, one %.1f ms; time ratio %.3f (median of "
          "back-to-back pairs; below 1: two threads faster); two threads' "
          "speed ratio to wc -l %.3fx\n",
          name.c_str(), t, counter(name, "one_thread_ms"),
          counter(name, "ratio_to_one_thread"), wc > 0 ? wc / t : 0.0);
    }
    for (int kind = 0; kind < kDumps; ++kind) {
      const std::string name =
          "BM_CliReportDefaultVsOne/dump:" + std::to_string(kind);
      const double t = time(name);
      if (t <= 0) continue;
      std::printf(
          "%s: default threads %.1f ms, one %.1f ms; time ratio %.3f (median "
          "of back-to-back pairs; below 1: the default faster)\n",
          name.c_str(), t, counter(name, "one_thread_ms"),
          counter(name, "ratio_to_one_thread"));
    }
    {
      const std::string name = "BM_CliMemoryVsReportSummary";
      const double t = time(name);
      if (t > 0) {
        std::printf(
            "hlolayout memory, 40 MB of small TPU-shaped computations: %.1f "
            "ms, report --summary %.1f ms; time ratio %.2f (median of "
            "back-to-back pairs)\n",
            t, counter(name, "report_ms"), counter(name, "ratio_to_report"));
      }
    }
    const char* cases[] = {"tile a.bin", "tile a.npy", "untile t.bin to .npy"};
    for (int dir = 0; dir < 2; ++dir) {
      for (int c = 0; c < 3; ++c) {
        const std::string name = "BM_CliRelayout/dir:" + std::to_string(dir) +
                                 "/case:" + std::to_string(c);
        const double t = time(name);
        if (t <= 0) continue;
        std::printf(
            "relayout %s in %s, 1 thread: %.1f ms, cp %.1f ms; speed ratio "
            "to cp %.2fx (median of back-to-back pairs), peak memory %.0f "
            "MiB\n",
            cases[c], dir == 0 ? "/dev/shm" : "the temporary folder", t,
            counter(name, "cp_ms"), counter(name, "ratio_to_cp"),
            counter(name, "peak_rss_MiB"));
      }
    }
  }

 private:
  std::map<std::string, std::vector<double>> times_;
  std::map<std::string, std::vector<double>> counters_;  // "name counter"
};

// A runfile of this repository: `bazel run` starts in the runfiles.
std::string Runfile(const char* argv0, const std::string& path) {
  if (access(path.c_str(), X_OK) == 0) return path;
  return std::string(argv0) + ".runfiles/hlolayout/" + path;
}

}  // namespace
}  // namespace hlolayout

int main(int argc, char** argv) {
  std::vector<char*> rest;
  for (int i = 0; i < argc; ++i) {
    if (std::strncmp(argv[i], "--hlolayout=", 12) == 0) {
      hlolayout::CliPath() = argv[i] + 12;
    } else if (std::strncmp(argv[i], "--newline_scan=", 15) == 0) {
      hlolayout::ScanPath() = argv[i] + 15;
    } else if (std::strncmp(argv[i], "--baseline=", 11) == 0) {
      hlolayout::BaselinePath() = argv[i] + 11;
    } else {
      rest.push_back(argv[i]);
    }
  }
  if (hlolayout::CliPath().empty()) {
    hlolayout::CliPath() = hlolayout::Runfile(argv[0], "cli/hlolayout");
  }
  if (hlolayout::ScanPath().empty()) {
    hlolayout::ScanPath() = hlolayout::Runfile(argv[0], "bench/newline_scan");
  }
  for (const std::string* path :
       {&hlolayout::CliPath(), &hlolayout::ScanPath()}) {
    if (access(path->c_str(), X_OK) != 0) {
      std::fprintf(
          stderr,
          "cli_bench: no binary at %s (--hlolayout=, --newline_scan=)\n",
          path->c_str());
      return 1;
    }
  }
  if (!hlolayout::BaselinePath().empty()) {
    if (access(hlolayout::BaselinePath().c_str(), X_OK) != 0) {
      std::fprintf(stderr, "cli_bench: no baseline binary at %s\n",
                   hlolayout::BaselinePath().c_str());
      return 1;
    }
    benchmark::RegisterBenchmark("BM_CliReportSummaryVsBaseline",
                                 hlolayout::BM_CliReportSummaryVsBaseline)
        ->ArgNames({"dump", "threads"})
        ->ArgsProduct({{0, 1, 2}, {1, 0}})
        ->Unit(benchmark::kMillisecond)
        ->UseManualTime();
  }
  int rest_argc = static_cast<int>(rest.size());
  benchmark::Initialize(&rest_argc, rest.data());
  hlolayout::RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  for (int kind = 0; hlolayout::dumps_written && kind < hlolayout::kDumps;
       ++kind) {
    std::remove(hlolayout::DumpPath(kind).c_str());
  }
  for (const std::string& path : hlolayout::Written()) {
    std::remove(path.c_str());
  }
  if (hlolayout::small_dump_written) {
    std::remove(hlolayout::SmallDump40().c_str());
  }
  return 0;
}
