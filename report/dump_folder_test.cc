#include "hlolayout/report/dump_folder.h"

#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "hlolayout/testing/dump_file_reader.h"
#include "hlolayout/testing/hlo_test_dump.h"
#include "hlolayout/testing/test_data.h"

namespace hlolayout {
namespace {

std::string MakeFolder(const std::string& name) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  const std::string path =
      absl::StrCat(tmp != nullptr ? tmp : "/tmp", "/", name);
  mkdir(path.c_str(), 0755);
  return path;
}

void WriteFile(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

std::string MemoryTestdata() {
  const std::string any = TestDataPath(
      "memory/testdata/module_0002.jit_lstm.cpu_after_optimizations.txt");
  return any.substr(0, any.rfind('/'));
}

// XLA's peak from a -live-range.txt: "Stack trace breakdown for peak
// usage: 22 056 980 bytes".
int64_t XlaPeak(const std::string& live_range_path) {
  std::ifstream in(live_range_path);
  std::string line;
  const std::string key = "Stack trace breakdown for peak usage: ";
  while (std::getline(in, line)) {
    const size_t at = line.find(key);
    if (at == std::string::npos) continue;
    std::string digits;
    for (char c : line.substr(at + key.size())) {
      if (c >= '0' && c <= '9') digits += c;
      if (c == 'b') break;
    }
    return std::stoll(digits);
  }
  return -1;
}

// compiled.memory_analysis() as jaxlib reported it for `file`
// (memory/testdata/memory_analysis.json), empty when not recorded.
std::map<std::string, int64_t> XlaMemoryAnalysis(const std::string& file) {
  std::ifstream in(MemoryTestdata() + "/memory_analysis.json");
  std::stringstream text;
  text << in.rdbuf();
  const std::string json = text.str();
  std::map<std::string, int64_t> figures;
  const size_t at = json.find("\"" + file + "\"");
  if (at == std::string::npos) return figures;
  const size_t end = json.find('}', at);
  for (const char* key :
       {"argument_size_in_bytes", "output_size_in_bytes", "alias_size_in_bytes",
        "temp_size_in_bytes", "peak_memory_in_bytes"}) {
    const size_t k = json.find(absl::StrCat("\"", key, "\": "), at);
    if (k == std::string::npos || k > end) continue;
    figures[key] = std::stoll(json.substr(k + std::strlen(key) + 4));
  }
  return figures;
}

TEST(DumpFolder, XlaDumpFolderReadsOnlyTheModulesAfterOptimizations) {
  absl::StatusOr<DumpFolderListing> listing = ListDumpFolder(MemoryTestdata());
  ASSERT_TRUE(listing.ok()) << listing.status();
  ASSERT_EQ(listing->files.size(), 6u);
  // XLA's other files of the six modules: -live-range.txt,
  // -buffer-assignment.txt, -memory-usage-report.txt, and the
  // memory_analysis() records and the folder's README.md.
  ASSERT_EQ(listing->skipped.size(), 6u * 3 + 2);
  for (const DumpFolderFile& f : listing->files) {
    EXPECT_TRUE(absl::EndsWith(f.name, "after_optimizations.txt")) << f.name;
    EXPECT_GT(f.bytes, 0);
  }
  for (const SkippedDumpFile& s : listing->skipped) {
    EXPECT_TRUE(absl::EndsWith(s.name, "-live-range.txt") ||
                absl::EndsWith(s.name, "-buffer-assignment.txt") ||
                absl::EndsWith(s.name, "-memory-usage-report.txt") ||
                s.name == "memory_analysis.json" || s.name == "README.md")
        << s.name;
    EXPECT_EQ(s.reason,
              s.name == "memory_analysis.json" || s.name == "README.md"
                  ? "not a .txt file"
                  : "not *after_optimizations.txt (the folder has such files: "
                    "only they are read)");
  }
}

TEST(DumpFolder, PeaksAreXlasOnItsOwnDumps) {
  absl::StatusOr<DumpFolderListing> listing = ListDumpFolder(MemoryTestdata());
  ASSERT_TRUE(listing.ok());
  DumpFolderOptions options;
  options.threads = 3;
  const DumpFolderTable table =
      SummarizeDumpFolder(*listing, options, ReadDumpFile);
  int measured = 0;
  EXPECT_TRUE(table.failed.empty());
  EXPECT_EQ(table.files_read, 6);
  ASSERT_EQ(table.rows.size(), 6u);
  for (const DumpFolderRow& row : table.rows) {
    EXPECT_TRUE(row.scheduled) << row.file;
    EXPECT_GT(row.instructions, 10) << row.file;
    EXPECT_GT(row.buffer_padded_bytes, 0) << row.file;
    EXPECT_FALSE(row.module.empty());
    // XLA's own peak, from the -live-range.txt next to the module.
    const std::string live_range = MemoryTestdata() + "/" +
                                   row.file.substr(0, row.file.size() - 4) +
                                   "-live-range.txt";
    EXPECT_EQ(row.peak_bytes, XlaPeak(live_range)) << row.file;
    // What XLA allocates, for the platform of the file name.
    EXPECT_EQ(row.platform,
              absl::StrContains(row.file, ".cpu_") ? "cpu" : "gpu");
    EXPECT_EQ(row.allocated_bytes, row.memory_analysis.allocated_bytes());
    const std::map<std::string, int64_t> xla = XlaMemoryAnalysis(row.file);
    if (xla.empty()) continue;  // compiled.memory_analysis() of three only
    ++measured;
    EXPECT_EQ(row.memory_analysis.argument_size_in_bytes,
              xla.at("argument_size_in_bytes"));
    EXPECT_EQ(row.memory_analysis.output_size_in_bytes,
              xla.at("output_size_in_bytes"));
    EXPECT_EQ(row.memory_analysis.alias_size_in_bytes,
              xla.at("alias_size_in_bytes"));
    EXPECT_EQ(row.memory_analysis.temp_size_in_bytes,
              xla.at("temp_size_in_bytes"));
    EXPECT_EQ(row.memory_analysis.peak_memory_in_bytes,
              xla.at("peak_memory_in_bytes"));
  }
  EXPECT_EQ(measured, 3);
  // File name order, whatever the threads did.
  for (size_t i = 1; i < table.rows.size(); ++i) {
    EXPECT_LT(table.rows[i - 1].file, table.rows[i].file);
  }
}

TEST(DumpFolder, OtherFilesAreSkippedWithTheReason) {
  const std::string dir = MakeFolder("mixed");
  WriteFile(dir + "/a.txt",
            "HloModule a\n\nENTRY %main (p: f32[4]) -> f32[4] {\n"
            "  ROOT %p = f32[4]{0} parameter(0)\n}\n");
  WriteFile(dir + "/b.txt", "just notes\n");
  WriteFile(dir + "/c.pb", "\x08\x01");
  WriteFile(dir + "/empty.txt", "");
  mkdir((dir + "/sub").c_str(), 0755);
  absl::StatusOr<DumpFolderListing> listing = ListDumpFolder(dir);
  ASSERT_TRUE(listing.ok());
  ASSERT_EQ(listing->files.size(), 1u);
  EXPECT_EQ(listing->files[0].name, "a.txt");
  std::map<std::string, std::string> skipped;
  for (const SkippedDumpFile& s : listing->skipped) skipped[s.name] = s.reason;
  EXPECT_EQ(skipped["b.txt"],
            "no HloModule line in its first 64 KiB: not a module");
  EXPECT_EQ(skipped["empty.txt"],
            "no HloModule line in its first 64 KiB: not a module");
  EXPECT_EQ(skipped["c.pb"], "not a .txt file");
  EXPECT_EQ(skipped["sub"], "a folder (subfolders are not read)");
  const DumpFolderTable table =
      SummarizeDumpFolder(*listing, DumpFolderOptions(), ReadDumpFile);
  ASSERT_EQ(table.rows.size(), 1u);
  EXPECT_EQ(table.rows[0].module, "a");
  EXPECT_EQ(table.rows[0].instructions, 1);
  EXPECT_EQ(table.rows[0].buffer_padded_bytes, 16);
  EXPECT_FALSE(table.rows[0].scheduled);
  EXPECT_EQ(table.rows[0].peak_bytes, -1);
}

TEST(DumpFolder, MissingFolderIsAnError) {
  absl::StatusOr<DumpFolderListing> listing =
      ListDumpFolder("/nonexistent/folder");
  ASSERT_FALSE(listing.ok());
  EXPECT_EQ(listing.status().message(),
            "cannot read folder '/nonexistent/folder': No such file or "
            "directory");
}

TEST(DumpFolder, BadFilesFailAloneAndSeveralModulesGiveSeveralRows) {
  const std::string dir = MakeFolder("bad");
  WriteFile(dir + "/1_after_optimizations.txt",
            "HloModule broken\n\nENTRY %main () -> f32[] {\n"
            "  ROOT %c = f32[ constant(1)\n}\n");
  HloDumpOptions options;
  options.target_bytes = 64 << 10;
  options.modules = 3;
  WriteFile(dir + "/2_after_optimizations.txt", GenerateHloDump(options).text);
  absl::StatusOr<DumpFolderListing> listing = ListDumpFolder(dir);
  ASSERT_TRUE(listing.ok());
  const DumpFolderTable table =
      SummarizeDumpFolder(*listing, DumpFolderOptions(), ReadDumpFile);
  ASSERT_EQ(table.failed.size(), 1u);
  EXPECT_EQ(table.failed[0].name, "1_after_optimizations.txt");
  EXPECT_TRUE(
      absl::StartsWith(table.failed[0].error, "1_after_optimizations.txt:4:"))
      << table.failed[0].error;
  EXPECT_EQ(table.files_read, 1);
  ASSERT_EQ(table.rows.size(), 3u);
  for (const DumpFolderRow& row : table.rows) {
    EXPECT_EQ(row.file, "2_after_optimizations.txt");
    // Their one instruction without a written shape has it inferred: the
    // live-range analysis runs.
    EXPECT_TRUE(row.scheduled);
    EXPECT_GT(row.peak_bytes, 0);
    EXPECT_TRUE(row.peak_error.empty()) << row.peak_error;
  }
}

TEST(DumpFolder, NeverMoreBytesInFlightThanTheLargestFile) {
  const std::string dir = MakeFolder("many");
  int64_t largest = 0;
  for (int i = 0; i < 40; ++i) {
    HloDumpOptions options;
    options.target_bytes = i == 7 ? (512 << 10) : (8 << 10) * (1 + i % 5);
    options.seed = 100 + i;
    options.distinct_shapes = 16;
    const std::string text = GenerateHloDump(options).text;
    largest = std::max<int64_t>(largest, text.size());
    WriteFile(absl::StrCat(dir, "/m", i, ".txt"), text);
  }
  absl::StatusOr<DumpFolderListing> listing = ListDumpFolder(dir);
  ASSERT_TRUE(listing.ok());
  ASSERT_EQ(listing->files.size(), 40u);
  DumpFolderOptions options;
  options.threads = 4;
  const DumpFolderTable four =
      SummarizeDumpFolder(*listing, options, ReadDumpFile);
  EXPECT_LE(four.max_bytes_in_flight, largest);
  EXPECT_GE(four.max_bytes_in_flight, largest);  // the largest was read
  options.threads = 1;
  const DumpFolderTable one =
      SummarizeDumpFolder(*listing, options, ReadDumpFile);
  ASSERT_EQ(four.rows.size(), 40u);
  ASSERT_EQ(one.rows.size(), 40u);
  for (size_t i = 0; i < 40; ++i) {
    EXPECT_EQ(four.rows[i].file, one.rows[i].file);
    EXPECT_EQ(four.rows[i].instructions, one.rows[i].instructions);
    EXPECT_EQ(four.rows[i].buffer_padded_bytes,
              one.rows[i].buffer_padded_bytes);
    EXPECT_EQ(four.rows[i].peak_bytes, one.rows[i].peak_bytes);
  }
}

TEST(DumpFolder, SortOrders) {
  std::vector<DumpFolderRow> rows(3);
  rows[0].file = "b";
  rows[0].module = "z";
  rows[0].instructions = 5;
  rows[0].buffer_logical_bytes = 10;
  rows[0].buffer_padded_bytes = 40;
  rows[1].file = "a";
  rows[1].module = "y";
  rows[1].instructions = 9;
  rows[1].buffer_logical_bytes = 50;
  rows[1].buffer_padded_bytes = 60;
  rows[1].peak_bytes = 7;
  rows[2].file = "c";
  rows[2].module = "x";
  rows[2].instructions = 1;
  rows[2].buffer_logical_bytes = 0;
  rows[2].buffer_padded_bytes = 0;
  rows[2].peak_bytes = 100;
  auto files = [&] {
    std::string s;
    for (const DumpFolderRow& r : rows) s += r.file;
    return s;
  };
  DumpFolderOrder order;
  ASSERT_TRUE(ParseDumpFolderOrder("peak", &order));
  SortDumpFolderRows(order, &rows);
  EXPECT_EQ(files(), "cab");  // unscheduled (-1) last
  ASSERT_TRUE(ParseDumpFolderOrder("file", &order));
  SortDumpFolderRows(order, &rows);
  EXPECT_EQ(files(), "abc");
  ASSERT_TRUE(ParseDumpFolderOrder("module", &order));
  SortDumpFolderRows(order, &rows);
  EXPECT_EQ(files(), "cab");
  ASSERT_TRUE(ParseDumpFolderOrder("instructions", &order));
  SortDumpFolderRows(order, &rows);
  EXPECT_EQ(files(), "abc");
  ASSERT_TRUE(ParseDumpFolderOrder("buffers", &order));
  SortDumpFolderRows(order, &rows);
  EXPECT_EQ(files(), "abc");
  ASSERT_TRUE(ParseDumpFolderOrder("padding", &order));
  SortDumpFolderRows(order, &rows);
  EXPECT_EQ(files(), "bac");
  ASSERT_TRUE(ParseDumpFolderOrder("expansion", &order));
  SortDumpFolderRows(order, &rows);
  EXPECT_EQ(files(), "bac");  // 4x, 1.2x, 1x (nothing logical)
  EXPECT_FALSE(ParseDumpFolderOrder("size", &order));
  // The --sort aliases name the same orders.
  ASSERT_TRUE(ParseDumpFolderOrder("name", &order));
  EXPECT_EQ(order, DumpFolderOrder::kModule);
  ASSERT_TRUE(ParseDumpFolderOrder("padded", &order));
  EXPECT_EQ(order, DumpFolderOrder::kBuffers);
  SortKey key;
  ASSERT_TRUE(ParseSortKey("peak", &key));
  EXPECT_TRUE(key.needs_analysis);
  EXPECT_EQ(key.modules, ModuleOrder::kPeak);
  EXPECT_FALSE(ParseSortKey("", &key));
}

}  // namespace
}  // namespace hlolayout

namespace hlolayout {
namespace {

// Unknown opcodes over a folder: one per name, counting the instructions of
// every file, naming the files (five, then how many more), located at the
// first use in the first file by name.
TEST(DumpFolder, UnknownOpcodesOncePerNameWithTheirFiles) {
  const std::string folder = MakeFolder("unknown_opcodes");
  for (int i = 0; i < 7; ++i) {
    WriteFile(absl::StrCat(folder, "/m", i, ".txt"),
              absl::StrCat("HloModule m", i, R"(
ENTRY e {
  p = f32[8]{0} parameter(0)
  ROOT x = f32[8]{0} frobnicate(p)
}
)"));
  }
  absl::StatusOr<DumpFolderListing> listing = ListDumpFolder(folder);
  ASSERT_TRUE(listing.ok()) << listing.status();
  for (int64_t threads : {1, 4}) {
    DumpFolderOptions options;
    options.threads = threads;
    const DumpFolderTable table =
        SummarizeDumpFolder(*listing, options, ReadDumpFile);
    EXPECT_EQ(table.rows.size(), 7u);
    ASSERT_EQ(table.unknown_opcodes.size(), 1u);
    const DumpFolderUnknownOpcode& u = table.unknown_opcodes[0];
    EXPECT_EQ(u.opcode, "frobnicate");
    EXPECT_EQ(u.instructions, 7);
    EXPECT_EQ(u.files.size(), 7u);
    EXPECT_EQ(u.files.front(), "m0.txt");
    EXPECT_EQ(u.warning,
              "m0.txt:4:22: warning: unknown opcode 'frobnicate' (7 "
              "instructions in 7 files: m0.txt, m1.txt, m2.txt, m3.txt, "
              "m4.txt and 2 more; read with their shapes as written)\n"
              "  ROOT x = f32[8]{0} frobnicate(p)\n"
              "                     ^")
        << threads;
  }
}

}  // namespace
}  // namespace hlolayout
