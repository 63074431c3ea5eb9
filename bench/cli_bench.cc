// bench/cli_bench.cc: `hlolayout report --summary` end to end, as a user runs
// it (a process that starts, reads a file and exits), against newline scans
// of the same file run as processes too.
//
//   ./bazelw run -c opt //bench:cli_bench
//   ./bazelw run -c opt //bench:cli_bench -- --benchmark_repetitions=5
//
// The files are two generated dumps of about 75 MB (parser/hlo_test_dump.h),
// written once to temporary files and read from the page cache by every run:
// `dump:0`, the classic style (the same generator and size as
// bench/hlo_reader_bench.cc), and `dump:1`, the XLA TPU style (operands
// without shapes, metadata, backend configs and frontend attributes on
// every line, large source tables, 65,536 distinct shape texts: most seen
// once). Baselines, run on the same file:
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
// The binaries are found in the runfiles (`bazel run`), or given with
// --hlolayout=PATH and --newline_scan=PATH.
#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "hlolayout/parser/hlo_test_dump.h"

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

constexpr int kDumps = 2;  // 0: classic, 1: XLA TPU style

// A generated dump, written to a temporary file once.
std::string WriteDump(int kind) {
  HloDumpOptions options;
  options.target_bytes = 75 << 20;
  if (kind == 1) {
    options.style = HloDumpStyle::kXlaTpu;
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

const std::string& DumpPath(int kind) {
  static const std::vector<std::string>* paths = [] {
    auto* p = new std::vector<std::string>;
    for (int kind = 0; kind < kDumps; ++kind) p->push_back(WriteDump(kind));
    return p;
  }();
  return (*paths)[kind];
}

// Runs `argv` with stdout and stderr to /dev/null; false when it fails.
bool Run(const std::vector<std::string>& args) {
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
  if (waitpid(pid, &status, 0) != pid) return false;
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

// threads:0 is the CLI's default (one thread per core, at most 8).
void BM_CliReportSummary(benchmark::State& state) {
  RunEach(state, {CliPath(), "report", "--summary",
                  "--threads=" + std::to_string(state.range(1)),
                  DumpPath(state.range(0))});
}
BENCHMARK(BM_CliReportSummary)
    ->ArgNames({"dump", "threads"})
    ->ArgsProduct({{0, 1}, {1, 0}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// Keeps every run's wall time by name (the aggregates' names end in _median
// etc., and are kept too), and prints the ratios at the end.
class RatioReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs) {
      if (run.error_occurred) continue;
      // "BM_WcL/real_time_median" -> "BM_WcL_median".
      std::string name = run.benchmark_name();
      const size_t at = name.find("/real_time");
      if (at != std::string::npos) name.erase(at, 10);
      times_[name].push_back(run.GetAdjustedRealTime());
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
      for (const char* threads : {"/threads:1", "/threads:0"}) {
        const std::string name = "BM_CliReportSummary" + dump + threads;
        const double t = time(name);
        if (t <= 0) continue;
        std::printf(
            "%s: %.1f ms; speed ratio to wc -l %.3fx, to the mapped "
            "newline scan %.3fx\n",
            name.c_str(), t, wc > 0 ? wc / t : 0.0, scan > 0 ? scan / t : 0.0);
      }
    }
  }

 private:
  std::map<std::string, std::vector<double>> times_;
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
  int rest_argc = static_cast<int>(rest.size());
  benchmark::Initialize(&rest_argc, rest.data());
  hlolayout::DumpPath(0);  // written before any timing
  hlolayout::RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  for (int kind = 0; kind < hlolayout::kDumps; ++kind) {
    std::remove(hlolayout::DumpPath(kind).c_str());
  }
  return 0;
}
