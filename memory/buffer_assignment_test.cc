#include "hlolayout/memory/buffer_assignment.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlolayout/parser/hlo_reader.h"
#include "hlolayout/util/test_data.h"

namespace hlolayout {
namespace {

std::string ReadFile(const std::string& repo_relative) {
  std::ifstream in(TestDataPath(repo_relative), std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

struct Assigned {
  std::unique_ptr<const std::string> text;
  std::vector<HloModule> modules;
  std::unique_ptr<ModuleMemory> memory;
};

Assigned Assign(const std::string& text, XlaPlatform platform) {
  Assigned out;
  out.text = std::make_unique<const std::string>(text);
  absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(*out.text);
  EXPECT_TRUE(modules.ok()) << modules.status();
  if (!modules.ok() || modules->empty()) return out;
  out.modules = *std::move(modules);
  BufferAssignmentOptions options;
  options.platform = platform;
  absl::StatusOr<ModuleMemory> m = AnalyzeModuleMemory(out.modules[0], options);
  EXPECT_TRUE(m.ok()) << m.status();
  if (m.ok()) out.memory = std::make_unique<ModuleMemory>(*std::move(m));
  return out;
}

// Lines of `want` that `got` does not have at the same place.
std::string Diff(const std::string& got, const std::string& want) {
  std::vector<std::string> g = absl::StrSplit(got, '\n');
  std::vector<std::string> w = absl::StrSplit(want, '\n');
  std::string out;
  int shown = 0;
  for (size_t k = 0; k < std::max(g.size(), w.size()); ++k) {
    const std::string a = k < g.size() ? g[k] : "<none>";
    const std::string b = k < w.size() ? w[k] : "<none>";
    if (a != b && shown++ < 40) {
      absl::StrAppend(&out, "line ", k + 1, "\n  got:  ", a, "\n  want: ", b,
                      "\n");
    }
  }
  return out;
}

// The text with every value id replaced by '#' and each allocation's value
// lines sorted: what XLA's file says apart from the ids.
std::string WithoutIds(const std::string& text) {
  std::vector<std::string> lines = absl::StrSplit(text, '\n');
  std::string out;
  std::vector<std::string> values;
  auto flush = [&] {
    std::sort(values.begin(), values.end());
    for (const std::string& v : values) absl::StrAppend(&out, v, "\n");
    values.clear();
  };
  for (const std::string& line : lines) {
    const size_t lt = line.find(" value: <");
    if (lt == 0) {
      const size_t space = line.find(' ', 9);
      values.push_back(absl::StrCat(" value: <#", line.substr(space)));
      continue;
    }
    flush();
    absl::StrAppend(&out, line, "\n");
  }
  flush();
  return out;
}

struct XlaFiles {
  const char* name;
  // Whether the value ids are expected to match: the ids of values in
  // while bodies and conditions depend on the order XLA keeps its
  // computations in, which the text does not say (docs/memory.md, "Value
  // ids"); in these two modules that guess is off, everything else
  // (allocations, sizes, offsets, which values share) matches.
  bool ids_exact;
};

class XlaBufferFiles : public ::testing::TestWithParam<XlaFiles> {};

TEST_P(XlaBufferFiles, MatchXlasFiles) {
  const std::string name = GetParam().name;
  const std::string base = absl::StrCat("memory/testdata/", name);
  const XlaPlatform platform = name.find("cpu") != std::string::npos
                                   ? XlaPlatform::kCpu
                                   : XlaPlatform::kGpu;
  Assigned a = Assign(ReadFile(base + ".txt"), platform);
  ASSERT_NE(a.memory, nullptr);
  const std::string text = XlaBufferAssignmentText(a.memory->buffers);
  const std::string want = ReadFile(base + "-buffer-assignment.txt");
  if (const char* dump = std::getenv("BA_DUMP")) {
    std::ofstream(absl::StrCat(dump, "/", name, ".ba")) << text;
    std::ofstream(absl::StrCat(dump, "/", name, ".usage"))
        << XlaMemoryUsageReportText(a.memory->buffers);
  }
  if (GetParam().ids_exact) {
    EXPECT_EQ(text, want) << Diff(text, want);
  } else {
    EXPECT_NE(text, want) << "the ids match now: set ids_exact";
    EXPECT_EQ(WithoutIds(text), WithoutIds(want))
        << Diff(WithoutIds(text), WithoutIds(want));
  }
  const std::string usage = XlaMemoryUsageReportText(a.memory->buffers);
  const std::string want_usage = ReadFile(base + "-memory-usage-report.txt");
  EXPECT_EQ(usage, want_usage) << Diff(usage, want_usage);
}

// The figure `field` of module `name` in memory/testdata/memory_analysis.json
// (compiled.memory_analysis() as jaxlib 0.11.2 reported it), -1 if absent.
int64_t Figure(const std::string& json, const std::string& name,
               const std::string& field) {
  const size_t at = json.find("\"" + name + ".txt\"");
  if (at == std::string::npos) return -1;
  const size_t end = json.find('}', at);
  const size_t f = json.find("\"" + field + "\": ", at);
  if (f == std::string::npos || f > end) return -1;
  return std::stoll(json.substr(f + field.size() + 4));
}

TEST_P(XlaBufferFiles, MatchMemoryAnalysis) {
  const std::string name = GetParam().name;
  const std::string json = ReadFile("memory/testdata/memory_analysis.json");
  if (Figure(json, name, "temp_size_in_bytes") < 0) {
    GTEST_SKIP() << "no memory_analysis() record for " << name;
  }
  const XlaPlatform platform = name.find("cpu") != std::string::npos
                                   ? XlaPlatform::kCpu
                                   : XlaPlatform::kGpu;
  Assigned a = Assign(ReadFile("memory/testdata/" + name + ".txt"), platform);
  ASSERT_NE(a.memory, nullptr);
  const XlaMemoryStats& s = a.memory->buffers.stats;
  EXPECT_EQ(s.argument_size_in_bytes,
            Figure(json, name, "argument_size_in_bytes"));
  EXPECT_EQ(s.output_size_in_bytes, Figure(json, name, "output_size_in_bytes"));
  EXPECT_EQ(s.alias_size_in_bytes, Figure(json, name, "alias_size_in_bytes"));
  EXPECT_EQ(s.temp_size_in_bytes, Figure(json, name, "temp_size_in_bytes"));
  EXPECT_EQ(s.peak_memory_in_bytes, Figure(json, name, "peak_memory_in_bytes"));
}

INSTANTIATE_TEST_SUITE_P(
    Six, XlaBufferFiles,
    ::testing::Values(
        XlaFiles{"module_0002.jit_lstm.cpu_after_optimizations", false},
        XlaFiles{"module_105197.jit_mlp_step.sm_9.0a_gpu_after_optimizations",
                 true},
        XlaFiles{"module_317483.jit_dus_loop.sm_9.0a_gpu_after_optimizations",
                 true},
        XlaFiles{"module_342634.jit_big_tuple.sm_9.0a_gpu_after_optimizations",
                 true},
        XlaFiles{"module_486067.jit_scan_cond.sm_9.0a_gpu_after_optimizations",
                 false},
        XlaFiles{"module_519822.jit_misc.sm_9.0a_gpu_after_optimizations",
                 true}));

}  // namespace
}  // namespace hlolayout
