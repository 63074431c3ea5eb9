// XLA's own *-buffer-assignment.txt read back (memory/xla_buffer_file.h):
// every file of the repository's XLA test data reads, prints back as XLA
// wrote it, and sums to XLA's memory_analysis() figures; bad files are
// refused with a located message.
#include "hlolayout/memory/xla_buffer_file.h"

#include <algorithm>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_replace.h"
#include "gtest/gtest.h"
#include "hlolayout/memory/buffer_assignment.h"
#include "hlolayout/testing/test_data.h"
#include "hlolayout/views/buffer_assignment_text.h"

namespace hlolayout {
namespace {

constexpr char kSuffix[] = "-buffer-assignment.txt";

// The buffer-assignment files of a test data folder, sorted.
std::vector<std::string> BufferFiles(const std::string& folder) {
  std::vector<std::string> names;
  for (const auto& entry :
       std::filesystem::directory_iterator(TestDataPath(folder))) {
    const std::string name = entry.path().filename().string();
    if (absl::EndsWith(name, kSuffix)) names.push_back(folder + "/" + name);
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::unique_ptr<const XlaBufferFile> Read(const std::string& text) {
  absl::StatusOr<std::unique_ptr<const XlaBufferFile>> f =
      ReadXlaBufferAssignment(text, "f.txt");
  EXPECT_TRUE(f.ok()) << f.status();
  return f.ok() ? *std::move(f) : nullptr;
}

std::string Error(const std::string& text) {
  absl::StatusOr<std::unique_ptr<const XlaBufferFile>> f =
      ReadXlaBufferAssignment(text, "f.txt");
  EXPECT_FALSE(f.ok());
  return f.ok() ? "" : std::string(f.status().message());
}

bool StartsWithText(const std::string& text, const std::string& prefix) {
  return absl::StartsWith(text, prefix);
}

TEST(XlaBufferFile, EveryXlaFileReadsAndPrintsBack) {
  int files = 0;
  for (const char* folder :
       {"memory/testdata_xla_tpu", "memory/testdata_xla_gpu",
        "memory/testdata_jaxlib_0.10.2", "memory/testdata"}) {
    for (const std::string& path : BufferFiles(folder)) {
      SCOPED_TRACE(path);
      const std::string text = ReadTestData(path);
      ASSERT_FALSE(text.empty());
      std::unique_ptr<const XlaBufferFile> f = Read(text);
      ASSERT_NE(f, nullptr);
      EXPECT_EQ(f->tiled, absl::StrContains(folder, "tpu"));
      // The model's writer prints ", page 0" except for XLA:TPU; the files
      // of older XLA versions have no page.
      std::string back = XlaBufferAssignmentText(f->assignment);
      std::string want = text;
      absl::StrReplaceAll({{", page 0", ""}}, &back);
      absl::StrReplaceAll({{", page 0", ""}}, &want);
      EXPECT_EQ(back, want);
      ++files;
    }
  }
  EXPECT_GE(files, 40);
}

// argument, output and alias sums (device and host) are memory_analysis()'s
// on every file XLA's figures were recorded for; temp too on XLA:GPU and
// XLA:CPU (XLA:TPU counts its temp otherwise: docs/xla-tpu.md).
TEST(XlaBufferFile, SumsAreXlasMemoryAnalysis) {
  int checked = 0;
  for (const char* folder :
       {"memory/testdata_xla_tpu", "memory/testdata_xla_gpu",
        "memory/testdata_jaxlib_0.10.2"}) {
    const std::string json =
        ReadTestData(std::string(folder) + "/memory_analysis.json");
    for (const std::string& path : BufferFiles(folder)) {
      const std::string name =
          path.substr(path.rfind('/') + 1, path.size() - path.rfind('/') - 1 -
                                               std::string(kSuffix).size());
      if (MemoryAnalysisFigure(json, name, "argument_size_in_bytes") < 0) {
        continue;
      }
      SCOPED_TRACE(path);
      std::unique_ptr<const XlaBufferFile> f = Read(ReadTestData(path));
      ASSERT_NE(f, nullptr);
      const XlaMemoryStats& s = f->assignment.stats;
      auto want = [&](const char* field) {
        return MemoryAnalysisFigure(json, name, field);
      };
      EXPECT_EQ(s.argument_size_in_bytes, want("argument_size_in_bytes"));
      EXPECT_EQ(s.output_size_in_bytes, want("output_size_in_bytes"));
      EXPECT_EQ(s.alias_size_in_bytes, want("alias_size_in_bytes"));
      EXPECT_EQ(s.host_argument_size_in_bytes,
                want("host_argument_size_in_bytes"));
      EXPECT_EQ(s.host_output_size_in_bytes, want("host_output_size_in_bytes"));
      EXPECT_EQ(s.host_alias_size_in_bytes, want("host_alias_size_in_bytes"));
      if (!f->tiled) {
        EXPECT_EQ(s.temp_size_in_bytes, want("temp_size_in_bytes"));
      }
      ++checked;
    }
  }
  EXPECT_GE(checked, 20);
}

TEST(XlaBufferFile, ReadsEveryAttribute) {
  std::unique_ptr<const XlaBufferFile> f = Read(
      "BufferAssignment:\n"
      "allocation 0: size 1024, color 1, page 0, parameter 2, shape "
      "|(f32[8], s32[])| at ShapeIndex {0}, maybe-live-out:\n"
      " value: <7 p.1{0} @1> (size=512,offset=512): f32[8]{0:T(128)S(1)}\n"
      " value: <9 w.3 (phi) @1> (size=512,offset=0): f32[8]{0:T(128)S(1)}\n"
      "allocation 1: size 16, output shape is |f32[4]|, constant, "
      "thread-local:\n"
      "allocation 2: size 8, color 3, preallocated-temp:\n"
      " value: <1 t @3> (size=8,offset=0): u32[2]{0:S(3)}\n");
  ASSERT_NE(f, nullptr);
  const std::vector<BufferAllocation>& a = f->assignment.allocations;
  ASSERT_EQ(a.size(), 3u);
  EXPECT_EQ(a[0].color, 1);
  EXPECT_TRUE(a[0].is_parameter);
  EXPECT_EQ(a[0].parameter_number, 2);
  EXPECT_EQ(a[0].parameter_index, std::vector<int64_t>{0});
  EXPECT_EQ(a[0].parameter_shape->ToString(false), "(f32[8], s32[])");
  EXPECT_TRUE(a[0].parameter_aliased);
  ASSERT_EQ(a[0].values.size(), 2u);
  EXPECT_EQ(a[0].values[0].name, "p.1");
  EXPECT_TRUE(a[0].values[0].index_printed);
  EXPECT_EQ(a[0].values[0].offset, 512);
  EXPECT_TRUE(a[0].values[1].is_phi);
  EXPECT_FALSE(a[0].values[1].index_printed);
  EXPECT_EQ(a[1].output_shape->ToString(false), "f32[4]");
  EXPECT_TRUE(a[1].is_constant && a[1].is_thread_local);
  EXPECT_TRUE(a[2].is_temp());
  EXPECT_TRUE(f->tiled);
  EXPECT_TRUE(f->uses_s3);
  EXPECT_EQ(f->values, 3);
  EXPECT_EQ(f->assignment.stats.alias_size_in_bytes, 1024);
}

TEST(XlaBufferFile, LaterSectionsEndTheReading) {
  std::unique_ptr<const XlaBufferFile> f = Read(
      "BufferAssignment:\nallocation 0: size 4, maybe-live-out:\n"
      " value: <0 c @0> (size=4,offset=0): f32[]\n\n"
      "Total bytes used: 4 (4B)\n\nUsed values:\n<0 c @0>\n");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->assignment.allocations.size(), 1u);
}

TEST(XlaBufferFile, BadFilesAreRefusedWithTheirPlace) {
  EXPECT_EQ(Error(""), "f.txt:1:1: empty: no 'BufferAssignment:' line\n\n^");
  EXPECT_PRED2(StartsWithText, Error("HloModule m\n"),
               "f.txt:1:1: expected 'BufferAssignment:'");
  const std::string head = "BufferAssignment:\nallocation 0: size 8";
  EXPECT_PRED2(StartsWithText, Error(head + ", colour 1:\n"),
               "f.txt:2:21: expected an allocation attribute");
  EXPECT_PRED2(StartsWithText,
               Error("BufferAssignment:\nallocation 1: size 8:\n"),
               "f.txt:2:12: expected allocation 0");
  EXPECT_PRED2(
      StartsWithText,
      Error("BufferAssignment:\nallocation 0: size 99999999999999999999:\n"),
      "f.txt:2:20: number out of range");
  EXPECT_PRED2(
      StartsWithText,
      Error(head + ":\n value: <1 a @0> (size=8,offset=4): f32[2]{0}\n"),
      "f.txt:3:33: the value (size 8 at offset 4) lies past its "
      "allocation's 8 bytes");
  EXPECT_PRED2(
      StartsWithText,
      Error(head + ":\n value: <1 a @2> (size=8,offset=0): f32[2]{0}\n"),
      "f.txt:3:15: the value's color 2 is not its allocation's (0)");
  EXPECT_PRED2(
      StartsWithText,
      Error(head + ":\n value: <1 a @0> (size=8,offset=0): f32[2{0}\n"),
      "f.txt:3:42: expected ',' or ']' in dimensions");
  EXPECT_PRED2(
      StartsWithText,
      Error("BufferAssignment:\n value: <1 a @0> (size=8,offset=0): f32[]\n"),
      "f.txt:2:1: a value before any allocation");
  EXPECT_PRED2(StartsWithText, Error(head + ":\nallocated\n"),
               "f.txt:3:1: expected 'allocation N: ...'");
  EXPECT_PRED2(StartsWithText, Error(head + ": extra\n"),
               "f.txt:2:22: unexpected text after ':'");
}

TEST(XlaBufferFile, RecognisesTheFile) {
  EXPECT_TRUE(IsXlaBufferAssignmentText("BufferAssignment:\nallocation 0"));
  EXPECT_TRUE(IsXlaBufferAssignmentText("\nBufferAssignment:\n"));
  EXPECT_FALSE(IsXlaBufferAssignmentText("HloModule m\n"));
  EXPECT_FALSE(IsXlaBufferAssignmentText(""));
}

}  // namespace
}  // namespace hlolayout
