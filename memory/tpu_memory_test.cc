// What a TPU user asks of an XLA:TPU module (memory/tpu_memory.h): the
// chip from XLA:TPU's *.target_arguments.txt (or --tpu), memory spaces by
// XLA:TPU's names, whether the program fits, VMEM against the chip's, per
// device for SPMD modules, tile padding ranked. The dumps are XLA:TPU's
// (memory/testdata_xla_tpu*, NOTICE).
#include "hlolayout/memory/tpu_memory.h"

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlolayout/memory/dump_text.h"
#include "hlolayout/memory/tpu_chip.h"
#include "hlolayout/memory/tpu_memory_internal.h"
#include "hlolayout/memory/xla_buffer_file.h"
#include "hlolayout/parser/shape_parser.h"
#include "hlolayout/testing/test_data.h"
#include "hlolayout/views/tpu_memory_text.h"

namespace hlolayout {
namespace {

using ::testing::HasSubstr;

constexpr char kChips[] = "memory/testdata_xla_tpu_chips/";
constexpr char kSpmd[] = "/module_0004.jit__lambda.cl_933746096";
constexpr char kStep[] =
    "memory/testdata_xla_tpu/"
    "module_0316.jit_step.cl_933746096.after_optimizations.txt";

std::string SpmdModule(const std::string& generation) {
  return absl::StrCat(kChips, generation, kSpmd, ".after_optimizations.txt");
}

// The answer for the first module of the file at `path` (repository
// relative), the chip from the target_arguments file beside it.
absl::StatusOr<TpuMemory> Answer(
    const std::string& path,
    absl::optional<TpuGeneration> requested = absl::nullopt) {
  const std::string file = TestDataPath(path);
  const std::string text = ReadTestData(path);
  DumpTextOptions options;
  options.file_name = file;
  options.tpu_buffers = true;
  TpuMemoryOptions tpu;
  tpu.requested = requested;
  if (absl::optional<std::string> args = ReadXlaTpuTargetArguments(file)) {
    tpu.target_arguments = *args;
    tpu.target_arguments_file = XlaTpuTargetArgumentsPath(file);
  }
  absl::StatusOr<TpuMemory> answer = absl::InternalError("no module");
  std::vector<HloModule> keep;
  absl::Status s = ForEachDumpModule(
      text, options, nullptr,
      [&](const HloModule& module, DumpModuleMemory& m) {
        if (answer.status().message() == "no module") {
          answer = AnswerTpuMemory(module, m, tpu);
        }
        return absl::OkStatus();
      },
      &keep);
  if (!s.ok()) return s;
  return answer;
}

// XLA:TPU names the generation in the target_arguments file it writes
// (tpu_chips.py printed these four, libtpu 0.0.42.1).
TEST(TpuChip, TheGenerationFromXlaTpusTargetArguments) {
  for (const char* g : {"v4", "v5e", "v5p", "v6e"}) {
    const std::string args =
        ReadTestData(absl::StrCat(kChips, g, kSpmd, ".target_arguments.txt"));
    absl::optional<TpuGeneration> gen = TpuGenerationOfTargetArguments(args);
    ASSERT_TRUE(gen.has_value()) << g;
    EXPECT_STREQ(TpuChipOf(*gen).name, g);
  }
  EXPECT_FALSE(TpuGenerationOfTargetArguments("version: TPU_VERSION_X\n"));
  EXPECT_EQ(XlaTpuTargetArgumentsPath("d/m.jit_f.cl_1.after_optimizations.txt"),
            "d/m.jit_f.cl_1.target_arguments.txt");
  EXPECT_EQ(XlaTpuTargetArgumentsPath("m.txt"), "");
}

// The limits XLA:TPU's out-of-memory message gives (docs/xla-tpu.md).
TEST(TpuChip, XlaTpusHbmLimitsAndVmem) {
  constexpr int64_t kGiB = int64_t{1} << 30;
  EXPECT_EQ(TpuChipOf(TpuGeneration::kV5e).xla_hbm_limit_bytes,
            1575 * kGiB / 100);
  EXPECT_EQ(TpuChipOf(TpuGeneration::kV4).xla_hbm_limit_bytes,
            3075 * kGiB / 100);
  EXPECT_EQ(TpuChipOf(TpuGeneration::kV5p).xla_hbm_limit_bytes,
            9574 * kGiB / 100);
  EXPECT_EQ(TpuChipOf(TpuGeneration::kV6e).xla_hbm_limit_bytes,
            3125 * kGiB / 100);
  EXPECT_EQ(TpuChipOf(TpuGeneration::kV5e).vmem_bytes, 128 << 20);
  EXPECT_EQ(TpuGenerationNamed("v5p"), TpuGeneration::kV5p);
  EXPECT_FALSE(TpuGenerationNamed("v5").has_value());
}

// XLA:TPU's names of the memory spaces in its usage reports.
TEST(TpuChip, MemorySpacesAsXlaTpuNamesThem) {
  EXPECT_EQ(XlaTpuMemorySpaceName(0), "default");
  EXPECT_EQ(XlaTpuMemorySpaceName(1), "vmem");
  EXPECT_EQ(XlaTpuMemorySpaceName(2), "smem");
  EXPECT_EQ(XlaTpuMemorySpaceName(3), "hbm");
  EXPECT_EQ(XlaTpuMemorySpaceName(4), "host");
  EXPECT_EQ(XlaTpuMemorySpaceName(5), "cmem");
  EXPECT_EQ(XlaTpuMemorySpaceName(6), "color_6");
}

// An SPMD module on 8 v5e chips with XLA:TPU's target_arguments beside it:
// the chip from that file, every figure one device's, fits with what is
// left.
TEST(TpuMemory, SpmdModuleOnV5eFitsPerDevice) {
  absl::StatusOr<TpuMemory> t = Answer(SpmdModule("v5e"));
  ASSERT_TRUE(t.ok()) << t.status();
  ASSERT_TRUE(t->chip.has_value());
  EXPECT_EQ(*t->chip, "v5e");
  EXPECT_THAT(t->chip_from, HasSubstr("target_arguments.txt"));
  EXPECT_EQ(t->devices, 8);
  ASSERT_FALSE(t->spaces.empty());
  EXPECT_EQ(t->spaces[0].xla_name, "default");
  ASSERT_TRUE(t->fits.has_value());
  EXPECT_TRUE(*t->fits);
  EXPECT_EQ(*t->hbm_left_bytes, *t->hbm_limit_bytes - t->hbm_bytes);
  EXPECT_GT(t->hbm_bytes, 0);
  const std::string text = TpuMemoryText(*t);
  EXPECT_THAT(text, HasSubstr("XLA:TPU v5e (from "));
  EXPECT_THAT(text, HasSubstr("8 devices (SPMD): every figure is one "
                              "device's"));
  EXPECT_THAT(text, HasSubstr("HBM (S(0), XLA:TPU's \"default\")"));
  EXPECT_THAT(text, HasSubstr("fits the 15.75 GiB XLA:TPU lets a program "
                              "take on a v5e: "));
}

// The same module text beside v4's file is v4's; --tpu that disagrees with
// XLA:TPU's file is an error; without a file --tpu says the chip.
TEST(TpuMemory, ChipFromFileOrFlag) {
  absl::StatusOr<TpuMemory> v4 = Answer(SpmdModule("v4"));
  ASSERT_TRUE(v4.ok()) << v4.status();
  EXPECT_EQ(*v4->chip, "v4");
  EXPECT_EQ(*v4->hbm_limit_bytes,
            TpuChipOf(TpuGeneration::kV4).xla_hbm_limit_bytes);
  absl::StatusOr<TpuMemory> wrong =
      Answer(SpmdModule("v4"), TpuGeneration::kV6e);
  EXPECT_FALSE(wrong.ok());
  EXPECT_THAT(wrong.status().message(),
              HasSubstr("--tpu=v6e, but XLA:TPU compiled the module for v4"));
  absl::StatusOr<TpuMemory> unknown = Answer(kStep);
  ASSERT_TRUE(unknown.ok()) << unknown.status();
  EXPECT_FALSE(unknown->chip.has_value());
  EXPECT_FALSE(unknown->fits.has_value());
  EXPECT_EQ(unknown->fits_on.size(), 4u);
  EXPECT_THAT(TpuMemoryText(*unknown), HasSubstr("chip not known"));
  absl::StatusOr<TpuMemory> said = Answer(kStep, TpuGeneration::kV5e);
  ASSERT_TRUE(said.ok()) << said.status();
  EXPECT_EQ(said->chip_from, "--tpu");
  EXPECT_EQ(said->devices, 1);
}

// The MLP step has values in VMEM (S(1)): its VMEM against v5e's 128 MiB,
// and each memory space by XLA:TPU's name (its usage report's headings).
TEST(TpuMemory, VmemAgainstTheGeneration) {
  absl::StatusOr<TpuMemory> t = Answer(kStep, TpuGeneration::kV5e);
  ASSERT_TRUE(t.ok()) << t.status();
  const std::string report = ReadTestData(
      "memory/testdata_xla_tpu/"
      "module_0316.jit_step.cl_933746096.after_optimizations-memory-usage-"
      "report.txt");
  bool vmem = false;
  for (const TpuMemorySpace& s : t->spaces) {
    EXPECT_THAT(report,
                HasSubstr(absl::StrCat("Memory Space: ", s.xla_name,
                                       " (color=", s.memory_space, ")")));
    if (s.memory_space != 1) continue;
    vmem = true;
    ASSERT_TRUE(s.capacity_bytes.has_value());
    EXPECT_EQ(*s.capacity_bytes, 128 << 20);
    EXPECT_EQ(*s.left_bytes, *s.capacity_bytes - s.allocated_bytes);
  }
  EXPECT_TRUE(vmem);
  EXPECT_THAT(TpuMemoryText(*t),
              HasSubstr("VMEM (S(1), XLA:TPU's \"vmem\"): "));
  EXPECT_THAT(TpuMemoryText(*t), HasSubstr(" per TensorCore on a v5e: "));
}

// Tile padding: ranked by bytes (most first) and by ratio, each with its
// allocation; the total is the sum of its two parts.
TEST(TpuMemory, PaddingRankedByBytesAndRatio) {
  absl::StatusOr<TpuMemory> t = Answer(kStep);
  ASSERT_TRUE(t.ok()) << t.status();
  const TpuPadding& p = t->padding;
  EXPECT_EQ(p.bytes, p.own_bytes + *p.heap_bytes);
  ASSERT_FALSE(p.by_bytes.empty());
  for (size_t i = 1; i < p.by_bytes.size(); ++i) {
    EXPECT_GE(p.by_bytes[i - 1].padding_bytes, p.by_bytes[i].padding_bytes);
  }
  for (size_t i = 1; i < p.by_ratio.size(); ++i) {
    EXPECT_GE(p.by_ratio[i - 1].ratio, p.by_ratio[i].ratio);
  }
  for (const TpuPaddedArray& a : p.by_bytes) {
    EXPECT_EQ(a.padding_bytes, a.bytes - a.logical_bytes) << a.name;
    EXPECT_GT(a.padding_bytes, 0) << a.name;
  }
}

// A layout that pads less: f32[2,1024] in T(8,128) pads 2 rows to 8;
// T(2,128) holds them.
TEST(TpuMemory, CheaperLayout) {
  absl::StatusOr<Shape> shape = ParseShape("f32[2,1024]{1,0:T(8,128)}");
  ASSERT_TRUE(shape.ok()) << shape.status();
  auto cheaper = tpu_memory_internal::CheaperTpuLayout(*shape);
  ASSERT_TRUE(cheaper.has_value());
  EXPECT_EQ(cheaper->first, "f32[2,1024]{1,0:T(2,128)}");
  EXPECT_EQ(cheaper->second, 2 * 1024 * 4);
  shape = ParseShape("f32[8,128]{1,0:T(8,128)}");
  ASSERT_TRUE(shape.ok());
  EXPECT_FALSE(tpu_memory_internal::CheaperTpuLayout(*shape).has_value());
}

}  // namespace
}  // namespace hlolayout

namespace hlolayout {
namespace {

// XLA:TPU's own buffer-assignment file gives the same answer from the
// allocations XLA:TPU made: on the training step, where the model's
// allocations are XLA:TPU's, every space's figures agree with the model's
// answer; the file's answer says it is XLA:TPU's own and has no heap peak.
TEST(TpuMemoryOfXlaFile, TheSameSpacesAsTheModelWhereTheModelIsRight) {
  const std::string path =
      absl::StrCat(std::string(kStep).substr(0, std::string(kStep).size() - 4),
                   "-buffer-assignment.txt");
  absl::StatusOr<std::unique_ptr<const XlaBufferFile>> file =
      ReadXlaBufferAssignment(ReadTestData(path), path);
  ASSERT_TRUE(file.ok()) << file.status();
  TpuMemoryOptions options;
  options.requested = TpuGeneration::kV5e;
  absl::StatusOr<TpuMemory> own = AnswerTpuMemoryOfXlaFile(**file, options);
  ASSERT_TRUE(own.ok()) << own.status();
  absl::StatusOr<TpuMemory> model = Answer(kStep, TpuGeneration::kV5e);
  ASSERT_TRUE(model.ok()) << model.status();
  EXPECT_TRUE(own->checked);
  EXPECT_FALSE(model->checked);
  EXPECT_THAT(own->figures_from, HasSubstr("XLA:TPU's own buffer assignment"));
  // The model's figures say where they come from and what they leave out.
  EXPECT_THAT(model->figures_from,
              HasSubstr("the model of XLA:TPU's buffer assignment, rules "
                        "learned from XLA:TPU's own files"));
  EXPECT_THAT(model->figures_from, HasSubstr("VMEM offsets not modelled"));
  EXPECT_FALSE(own->heap_peak.has_value());
  EXPECT_EQ(own->chip, "v5e");
  ASSERT_EQ(own->spaces.size(), model->spaces.size());
  for (size_t k = 0; k < own->spaces.size(); ++k) {
    const TpuMemorySpace& a = own->spaces[k];
    const TpuMemorySpace& b = model->spaces[k];
    EXPECT_EQ(a.memory_space, b.memory_space);
    EXPECT_EQ(a.allocations, b.allocations) << a.xla_name;
    EXPECT_EQ(a.parameter_bytes, b.parameter_bytes) << a.xla_name;
    if (a.memory_space == 1) {
      // VMEM's offsets are memory-space assignment's, which the model
      // does not know (docs/xla-tpu.md, "Open"): its VMEM allocation is
      // 98,304 bytes where XLA:TPU's is 94,720. The file's answer is
      // XLA:TPU's.
      EXPECT_EQ(a.allocated_bytes, 94720);
      EXPECT_EQ(b.allocated_bytes, 98304);
      continue;
    }
    EXPECT_EQ(a.allocated_bytes, b.allocated_bytes) << a.xla_name;
    EXPECT_EQ(a.temp_bytes, b.temp_bytes) << a.xla_name;
    EXPECT_EQ(a.capacity_bytes, b.capacity_bytes) << a.xla_name;
    EXPECT_FALSE(a.live_range_peak_bytes.has_value());
  }
  // XLA:TPU's usage report: "Memory Space: default (color=0)",
  // "Total bytes: 259584".
  EXPECT_EQ(own->hbm_bytes, 259584);
  EXPECT_EQ(own->fits, true);
  EXPECT_EQ(own->hbm_left_bytes,
            TpuChipOf(TpuGeneration::kV5e).xla_hbm_limit_bytes - 259584);
  EXPECT_EQ(own->padding.arrays, model->padding.arrays);
  EXPECT_EQ(own->padding.own_bytes, model->padding.own_bytes);
  EXPECT_FALSE(own->padding.heap_bytes.has_value());
  EXPECT_EQ(own->padding.bytes, own->padding.own_bytes);
  const std::string text = TpuMemoryText(*own);
  EXPECT_THAT(text, HasSubstr("figures: XLA:TPU's own buffer assignment"));
  EXPECT_THAT(text, HasSubstr("(the heap's values at its peak: not known)"));
}

TEST(TpuMemoryOfXlaFile, TheChipFromS3OrAFileThatSaysOtherwise) {
  absl::StatusOr<std::unique_ptr<const XlaBufferFile>> file =
      ReadXlaBufferAssignment(
          "BufferAssignment:\nallocation 0: size 512, color 3, "
          "preallocated-temp:\n value: <0 a @3> (size=512,offset=0): "
          "f32[8]{0:T(128)S(3)}\n",
          "v4.txt");
  ASSERT_TRUE(file.ok()) << file.status();
  absl::StatusOr<TpuMemory> t = AnswerTpuMemoryOfXlaFile(**file, {});
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->chip, "v4");
  EXPECT_THAT(t->chip_from, HasSubstr("S(3)"));
  TpuMemoryOptions options;
  options.requested = TpuGeneration::kV6e;
  options.target_arguments =
      ReadTestData(absl::StrCat(kChips, "v5p", kSpmd, ".target_arguments.txt"));
  options.target_arguments_file = "m.target_arguments.txt";
  EXPECT_FALSE(AnswerTpuMemoryOfXlaFile(**file, options).ok());
}

}  // namespace
}  // namespace hlolayout
