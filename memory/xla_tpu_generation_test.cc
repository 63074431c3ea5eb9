// What the TPU generation changes in the model of XLA:TPU's buffer
// assignment (docs/xla-tpu.md, "Rules learned"), learned from XLA:TPU's
// -buffer-assignment.txt on v4, v5e, v5p and v6e (libtpu 0.0.42.1): a
// tuple's index table is 4 bytes an element rounded up to 512 bytes on v4
// and v5e, to 32 on v5p and v6e; the generation comes from XLA:TPU's
// target_arguments file beside the module, else --tpu, else the module's
// memory spaces; without any, v4's and v5e's sizes are taken and the answer
// says so. A split array (`SC(d:i)`, v5p) takes its largest piece.
#include <cstdint>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "absl/types/optional.h"
#include "gtest/gtest.h"
#include "hlolayout/memory/buffer_assignment.h"
#include "hlolayout/memory/dump_text.h"
#include "hlolayout/memory/tpu_chip.h"
#include "hlolayout/memory/tpu_memory.h"
#include "hlolayout/testing/test_data.h"

namespace hlolayout {
namespace {

constexpr char kTile[] = "f32[8,128]{1,0:T(8,128)}";

// A scheduled XLA:TPU-style module whose entry returns a tuple of
// `elements` arrays (each an add of the parameter with itself).
std::string TupleModule(int elements) {
  std::vector<std::string> shapes(elements, kTile);
  const std::string tuple = absl::StrCat("(", absl::StrJoin(shapes, ", "), ")");
  std::string out = absl::StrCat(
      "HloModule t, is_scheduled=true, entry_computation_layout={(", kTile,
      ")->", tuple, "}\n\nENTRY %main (p: f32[8,128]) -> ", tuple, " {\n",
      "  %p = ", kTile, " parameter(0)\n");
  std::vector<std::string> names;
  for (int i = 0; i < elements; ++i) {
    names.push_back(absl::StrCat("%a", i));
    absl::StrAppend(&out, "  %a", i, " = ", kTile, " add(%p, %p)\n");
  }
  absl::StrAppend(&out, "  ROOT %t = ", tuple, " tuple(",
                  absl::StrJoin(names, ", "), ")\n}\n");
  return out;
}

struct Answer {
  int64_t table = -1;  // the size of the root tuple's index table
  bool guessed = false;
  absl::optional<TpuGeneration> generation;
  std::string figures_from;
};

// The model's answer for `text` read as the dump file `file_name`.
Answer Analyse(const std::string& text, const std::string& file_name,
               absl::optional<TpuGeneration> tpu = absl::nullopt) {
  DumpTextOptions options;
  options.file_name = file_name;
  options.tpu_buffers = true;
  options.tpu = tpu;
  Answer answer;
  std::vector<std::string> warnings;
  const absl::Status status = ForEachDumpModule(
      text, options, &warnings,
      [&](const HloModule& module, DumpModuleMemory& m) {
        const BufferAssignment& b = m.memory.buffers;
        for (const BufferAllocation& a : b.allocations) {
          for (const AssignedValue& v : a.values) {
            if (v.name == "t" && v.index.empty()) answer.table = v.size;
          }
        }
        answer.guessed = b.tpu_tables_guessed;
        answer.generation = b.tpu_generation;
        TpuMemoryOptions tpu_options;
        tpu_options.requested = tpu;
        absl::StatusOr<TpuMemory> t = AnswerTpuMemory(module, m, tpu_options);
        EXPECT_TRUE(t.ok()) << t.status();
        if (t.ok()) answer.figures_from = t->figures_from;
        return absl::OkStatus();
      });
  EXPECT_TRUE(status.ok()) << status;
  return answer;
}

// `text` written as XLA:TPU names a dump, beside a copy of the
// target_arguments file XLA:TPU wrote for `generation`
// (memory/testdata_xla_tpu_chips/); returns the module's path.
std::string WriteDump(const std::string& text, const std::string& generation) {
  const std::string dir =
      absl::StrCat(::testing::TempDir(), "/tpugen_", generation);
  EXPECT_EQ(system(absl::StrCat("mkdir -p '", dir, "'").c_str()), 0);
  const std::string stem = absl::StrCat(dir, "/module_0001.jit_t.cl_1");
  std::ofstream(stem + ".after_optimizations.txt") << text;
  std::ofstream(stem + ".target_arguments.txt") << ReadTestData(absl::StrCat(
      "memory/testdata_xla_tpu_chips/", generation,
      "/module_0004.jit__lambda.cl_933746096.target_arguments.txt"));
  return stem + ".after_optimizations.txt";
}

// v5p and v6e: 4 bytes an element rounded up to 32 (XLA:TPU: 1 to 8
// elements 32 bytes, 9 to 16 64, 107 448); v4 and v5e: rounded up to 512.
TEST(XlaTpuGeneration, TupleTablesFromTheTargetArgumentsFile) {
  const std::string two = TupleModule(2), nine = TupleModule(9);
  EXPECT_EQ(Analyse(two, WriteDump(two, "v5p")).table, 32);
  EXPECT_EQ(Analyse(nine, WriteDump(nine, "v5p")).table, 64);
  EXPECT_EQ(Analyse(two, WriteDump(two, "v6e")).table, 32);
  EXPECT_EQ(Analyse(two, WriteDump(two, "v5e")).table, 512);
  EXPECT_EQ(Analyse(nine, WriteDump(nine, "v4")).table, 512);
  const Answer v5p = Analyse(two, WriteDump(two, "v5p"));
  EXPECT_FALSE(v5p.guessed);
  EXPECT_EQ(v5p.generation, TpuGeneration::kV5p);
}

// --tpu (DumpTextOptions::tpu) where no file says the generation.
TEST(XlaTpuGeneration, TupleTablesFromTpuFlag) {
  const std::string two = TupleModule(2);
  EXPECT_EQ(Analyse(two, "t.txt", TpuGeneration::kV6e).table, 32);
  EXPECT_EQ(Analyse(two, "t.txt", TpuGeneration::kV5e).table, 512);
}

// 440 elements on v5e: 2,048 bytes (XLA:TPU, a 24-layer step's tuple).
TEST(XlaTpuGeneration, LargeTupleTableIsFourBytesAnElementIn512ByteUnits) {
  const std::string big = TupleModule(440);
  EXPECT_EQ(Analyse(big, "t.txt", TpuGeneration::kV5e).table, 2048);
  EXPECT_EQ(Analyse(big, "t.txt", TpuGeneration::kV5p).table, 1760);
}

// Nothing says the generation: v4's and v5e's tables, and the answer says
// that it took them.
TEST(XlaTpuGeneration, UnknownGenerationIsSaid) {
  const std::string two = TupleModule(2);
  const Answer unknown = Analyse(two, "t.txt");
  EXPECT_EQ(unknown.table, 512);
  EXPECT_TRUE(unknown.guessed);
  EXPECT_FALSE(unknown.generation.has_value());
  EXPECT_NE(unknown.figures_from.find("the chip not known, tuple index tables "
                                      "are sized as on v4 and v5e"),
            std::string::npos)
      << unknown.figures_from;
  // Known, nothing is said.
  const Answer known = Analyse(two, "t.txt", TpuGeneration::kV5e);
  EXPECT_EQ(known.figures_from.find("not known"), std::string::npos);
}

// A module without a tuple: the generation decides nothing, nothing is
// said.
TEST(XlaTpuGeneration, NothingSaidWhereTheGenerationDecidesNothing) {
  const std::string text = absl::StrCat(
      "HloModule t, is_scheduled=true, entry_computation_layout={(", kTile,
      ")->", kTile, "}\n\nENTRY %main (p: f32[8,128]) -> f32[8,128] {\n",
      "  %p = ", kTile, " parameter(0)\n  ROOT %a = ", kTile,
      " add(%p, %p)\n}\n");
  const Answer a = Analyse(text, "t.txt");
  EXPECT_FALSE(a.guessed);
  EXPECT_EQ(a.figures_from.find("not known"), std::string::npos);
}

// v5p's split arrays: `f32[32,128]{1,0:T(8,128)S(1)SC(0:16)}` is 8,192
// bytes in XLA:TPU's assignment (half of its 16,384: the piece of 16 rows).
TEST(XlaTpuGeneration, SplitArrayTakesItsLargestPiece) {
  const std::string split = "f32[32,128]{1,0:T(8,128)S(1)SC(0:16)}";
  const std::string whole = "f32[32,128]{1,0:T(8,128)}";
  const std::string text = absl::StrCat(
      "HloModule t, is_scheduled=true, entry_computation_layout={(", whole,
      ")->", whole, "}\n\nENTRY %main (p: f32[32,128]) -> f32[32,128] {\n",
      "  %p = ", whole, " parameter(0)\n  %s = ", split,
      " copy(%p)\n  ROOT %a = ", whole, " add(%s, %s)\n}\n");
  DumpTextOptions options;
  options.tpu_buffers = true;
  options.tpu = TpuGeneration::kV5p;
  int64_t size = -1;
  std::vector<std::string> warnings;
  const absl::Status status = ForEachDumpModule(
      text, options, &warnings, [&](const HloModule&, DumpModuleMemory& m) {
        for (const BufferAllocation& a : m.memory.buffers.allocations) {
          for (const AssignedValue& v : a.values) {
            if (v.name == "s") size = v.size;
          }
        }
        return absl::OkStatus();
      });
  ASSERT_TRUE(status.ok()) << status;
  EXPECT_EQ(size, 8192);
}

// The model's assignment of `text` with the generation `tpu`.
BufferAssignment Assign(const std::string& text,
                        absl::optional<TpuGeneration> tpu) {
  DumpTextOptions options;
  options.tpu_buffers = true;
  options.tpu = tpu;
  BufferAssignment out;
  std::vector<std::string> warnings;
  const absl::Status status = ForEachDumpModule(
      text, options, &warnings, [&](const HloModule&, DumpModuleMemory& m) {
        out = m.memory.buffers;
        return absl::OkStatus();
      });
  EXPECT_TRUE(status.ok()) << status;
  return out;
}

// The size of the assignment's HBM temp allocation (XLA:TPU's heap), -1 when
// there is none.
int64_t HbmTempAllocationSize(const BufferAssignment& b) {
  for (const BufferAllocation& a : b.allocations) {
    if (a.is_temp() && a.color == 0) return a.size;
  }
  return -1;
}

// The temp allocations' colors and sizes, in order.
std::vector<std::pair<int64_t, int64_t>> Temps(const BufferAssignment& b) {
  std::vector<std::pair<int64_t, int64_t>> out;
  for (const BufferAllocation& a : b.allocations) {
    if (a.is_temp()) out.push_back({a.color, a.size});
  }
  return out;
}

// Two 512-byte values of S(3) live at once (v4: memory-space assignment's
// values), an HBM one in between.
std::string S3Module() {
  const std::string s3 = "f32[128]{0:T(128)S(3)}", hbm = "f32[128]{0:T(128)}";
  return absl::StrCat(
      "HloModule t, is_scheduled=true, entry_computation_layout={(", hbm, ")->",
      hbm, "}\n\nENTRY %main (p: f32[128]) -> f32[128] {\n", "  %p = ", hbm,
      " parameter(0)\n  %x = ", s3, " copy(%p)\n  %y = ", s3,
      " negate(%p)\n  ROOT %z = ", hbm, " add(%x, %y)\n}\n");
}

// v4: memory-space assignment's preset allocation is S(3)'s (XLA:TPU makes
// no VMEM allocation there: 22 empty `size 0, color 3` allocations and no
// color 1 in the v4 zoo), and S(3)'s offsets are 4 KiB apart (47,375
// offsets, all multiples of 4,096): the two values take 4,096 + 512.
TEST(XlaTpuGeneration, V4PresetAllocationIsS3s) {
  const BufferAssignment v4 = Assign(S3Module(), TpuGeneration::kV4);
  for (const BufferAllocation& a : v4.allocations) {
    EXPECT_NE(a.color, 1) << "allocation " << a.index;
  }
  const auto temps = Temps(v4);
  ASSERT_FALSE(temps.empty());
  EXPECT_EQ(temps.back(), std::make_pair(int64_t{3}, int64_t{4608}));
  // A v4 module without S(3) values: the empty preset allocation is S(3)'s.
  const std::string two = TupleModule(2);
  const auto empty = Temps(Assign(two, TpuGeneration::kV4));
  EXPECT_EQ(empty, (std::vector<std::pair<int64_t, int64_t>>{{3, 0}}));
  // v5e: VMEM's, as before.
  const auto v5e = Temps(Assign(two, TpuGeneration::kV5e));
  EXPECT_EQ(v5e, (std::vector<std::pair<int64_t, int64_t>>{{1, 0}}));
}

// A module with an HBM temp heap: `b` (4,096 bytes; `c` is written in
// place of `a`, the output). memory_analysis()'s peak adds the heap's peak
// (4,096) to the arguments and outputs (4,096 + 4,096) on every generation
// (learned on v5p; on v4, v5e and v6e XLA:TPU's own files agree: 8 peaks
// of their caches become XLA:TPU's, none is lost).
TEST(XlaTpuGeneration, PeakCountsTheHbmHeap) {
  const std::string t = "f32[8,128]{1,0:T(8,128)}";
  const std::string text = absl::StrCat(
      "HloModule t, is_scheduled=true, entry_computation_layout={(", t, ")->",
      t, "}\n\nENTRY %main (p: f32[8,128]) -> f32[8,128] {\n  %p = ", t,
      " parameter(0)\n  %a = ", t, " add(%p, %p)\n  %b = ", t,
      " multiply(%a, %a)\n  ROOT %c = ", t, " add(%b, %a)\n}\n");
  for (TpuGeneration g : {TpuGeneration::kV4, TpuGeneration::kV5e,
                          TpuGeneration::kV5p, TpuGeneration::kV6e}) {
    EXPECT_EQ(Assign(text, g).stats.peak_memory_in_bytes, 12288);
  }
}

// A conditional whose branches each make a VMEM value that becomes its
// result (a phi): XLA:TPU's memory_analysis() peak counts the branch's
// value and not the phi beside it (libtpu 0.0.42.1, cond_branches on v4,
// v5e and v6e: 16,896 bytes of arguments and outputs + 4,096 of VMEM,
// where counting the phi too gives 25,088).
TEST(XlaTpuGeneration, PeakLeavesOutAConditionalsPhi) {
  const std::string v = "f32[8,16]{1,0:T(8,128)S(1)}";
  const std::string x = "f32[8,16]{1,0:T(8,128)}";
  const std::string w = "f32[16,16]{1,0:T(8,128)}";
  const std::string text = absl::StrCat(
      "HloModule t, is_scheduled=true, entry_computation_layout={(pred[]{:T("
      "512)}, ",
      x, ", ", w, ")->", x, "}\n\n",
      "%f0 (a: f32[8,16]) -> f32[8,16] {\n  %a = ", x,
      " parameter(0)\n  ROOT %n = ", v, " negate(%a)\n}\n\n",
      "%b0 (t0: (f32[8,16])) -> (f32[8,16]) {\n  %t0 = (", x,
      ") parameter(0)\n  %g0 = ", x,
      " get-tuple-element(%t0), index=0\n  %u0 = ", v,
      " fusion(%g0), kind=kLoop, calls=%f0\n  ROOT %r0 = (", v,
      ") tuple(%u0)\n}\n\n",
      "%f1 (c: f32[8,16], d: f32[16,16]) -> f32[8,16] {\n  %c = ", x,
      " parameter(0)\n  %d = ", w, " parameter(1)\n  %e = ", x,
      " convolution(%c, %d), dim_labels=bf_io->bf\n  ROOT %h = ", v,
      " tanh(%e)\n}\n\n",
      "%b1 (t1: (f32[8,16], f32[16,16])) -> (f32[8,16]) {\n  %t1 = (", x, ", ",
      w, ") parameter(0)\n  %g1 = ", x,
      " get-tuple-element(%t1), index=0\n  %g2 = ", w,
      " get-tuple-element(%t1), index=1\n  %u1 = ", v,
      " fusion(%g1, %g2), kind=kOutput, calls=%f1\n  ROOT %r1 = (", v,
      ") tuple(%u1)\n}\n\n",
      "ENTRY %main (p: pred[], x: f32[8,16], w: f32[16,16]) -> f32[8,16] {\n"
      "  %p = pred[]{:T(512)} parameter(0)\n  %x = ",
      x, " parameter(1)\n  %w = ", w,
      " parameter(2)\n  %k = pred[]{:T(512)S(6)} copy(%p)\n"
      "  %i = s32[]{:T(128)} convert(%k)\n  %o0 = (",
      x, ") tuple(%x)\n  %o1 = (", x, ", ", w, ") tuple(%x, %w)\n  %cond = (",
      v, ") conditional(%i, %o0, %o1), branch_computations={%b0, %b1}\n",
      "  %gte = ", v, " get-tuple-element(%cond), index=0\n  %cs = (", x, ", ",
      v, ", u32[]{:S(2)}) copy-start(%gte)\n  ROOT %cd = ", x,
      " copy-done(%cs)\n}\n");
  for (TpuGeneration g :
       {TpuGeneration::kV4, TpuGeneration::kV5e, TpuGeneration::kV6e}) {
    EXPECT_EQ(Assign(text, g).stats.peak_memory_in_bytes, 16896 + 4096);
  }
}

// XLA:TPU's figures of one of its own v5p dumps in memory/testdata_xla_tpu:
// the HBM temp allocation's size (XLA:TPU's allocation `xla_allocation_index`
// in its buffer assignment), memory_analysis()'s temp and peak.
void ExpectV5pTemp(const std::string& module, int64_t allocation,
                   int xla_allocation_index, int64_t temp, int64_t peak) {
  SCOPED_TRACE(module);
  const std::string text =
      ReadTestData("memory/testdata_xla_tpu/" + module + ".txt");
  const BufferAssignment b = Assign(text, TpuGeneration::kV5p);
  EXPECT_EQ(HbmTempAllocationSize(b), allocation)
      << "XLA:TPU's allocation " << xla_allocation_index;
  EXPECT_EQ(b.stats.temp_size_in_bytes, temp);
  EXPECT_EQ(b.stats.peak_memory_in_bytes, peak);
}

// memory_analysis()'s temp size: twice the HBM temp allocation rounded up
// to 16 KiB, less the most bytes its heap holds at one step, its tuple
// index tables counted at every step (docs/xla-tpu.md,
// "memory_analysis()"). A v5p all_to_all under shard_map on 8 chips
// (shard_map_all_to_all.s.expert_parallel, XLA:TPU's own dump): the
// allocation is 65,568 bytes (R = 81,920); all_to_all.6 (16,384 bytes, to
// time 9) and convolution_tanh_fusion (32,768, from 9) are its fullest step,
// with copy-start's 32-byte table (live 1 to 7): 49,184, so 114,656, as
// XLA:TPU says. Counting instead the bytes any value ever covers (65,568)
// gave 98,272.
TEST(XlaTpuGeneration, TempCountsTheHeapsFullestStep) {
  ExpectV5pTemp(
      "module_4579.jit_expert_parallel.cl_933746096.after_optimizations",
      /*allocation=*/65568, /*xla_allocation_index=*/8,
      /*temp=*/114656, /*peak=*/74240);
}

// A loop's phis are not counted at the heap's fullest step: the values they
// stand for are. v5p rows mapped in batches by lax.map
// (lax_map_rows.s.map_batched, XLA:TPU's own dump): the allocation is 65,568
// bytes (R = 81,920); at its fullest step (times 20 to 22)
// reduce_window_sum.2.clone.2 (2,048 bytes) and the four 32-byte tables at
// three offsets (96) are counted, not the body's parameter's counter
// wide.arg_tuple.0{0} (a phi, 512 bytes, live 12 to 24): 2,144, so
// 161,696, as XLA:TPU says. Counting the phi gave 161,184.
TEST(XlaTpuGeneration, TempLeavesOutALoopsPhis) {
  ExpectV5pTemp("module_1354.jit__lambda.cl_933746096.after_optimizations",
                /*allocation=*/65568, /*xla_allocation_index=*/11,
                /*temp=*/161696, /*peak=*/19456);
}

// Nor is a value written over a loop's phi in place, from the step the phi
// ends: v5p's matrix power by fori_loop (fori_unrolled_matpow.s.rolled,
// XLA:TPU's own dump): the allocation is 69,632 bytes (R = 81,920); at its
// fullest step (time 19) copy.11 (4,096 bytes), convert.1 (2,048) and two
// 32-byte tables at two offsets (64) are counted, not the loop's counter
// add.2 (512 bytes, live 14 to 23), written over the body's parameter
// wide.arg_tuple.0{0} (a phi, live 11 to 14): 6,208, so 157,632, as
// XLA:TPU says. Counting add.2 gave 157,120.
TEST(XlaTpuGeneration, TempLeavesOutAValueWrittenOverAPhi) {
  ExpectV5pTemp("module_1468.jit__lambda.cl_933746096.after_optimizations",
                /*allocation=*/69632, /*xla_allocation_index=*/7,
                /*temp=*/157632, /*peak=*/16896);
}

// The same holds along a chain of in-place values: each one written over
// the one before, from the step it ends, back to a phi. v5p's float64 step
// (float64_x64.s.f64, XLA:TPU's own dump): a loop's state
// wide.param.17{5} (a phi, 65,536 bytes, live 131 to 146) is written over
// by fusion.79{0} (146 to 159), fusion.81 (159 to 163) and fusion.82 (163
// to 170) at one offset; none is counted, and the temp size is 1,211,520,
// as XLA:TPU says. Counting fusion.81 and fusion.82 (only the first value
// after the phi left out) gave 1,203,328; counting all three 1,195,136.
TEST(XlaTpuGeneration, TempLeavesOutAChainWrittenOverAPhi) {
  ExpectV5pTemp("module_2995.jit_f.cl_933746096.after_optimizations",
                /*allocation=*/655424, /*xla_allocation_index=*/80,
                /*temp=*/1211520, /*peak=*/237600);
}

// XLA:TPU's memory_analysis() peak of one of its own v5e dumps in
// memory/testdata_xla_tpu (the module only).
int64_t V5ePeak(const std::string& module) {
  SCOPED_TRACE(module);
  const std::string text =
      ReadTestData("memory/testdata_xla_tpu/" + module + ".txt");
  return Assign(text, TpuGeneration::kV5e).stats.peak_memory_in_bytes;
}

// VMEM's peak does not count a loop's phi at its first step, where the
// value it stands for ends (docs/xla-tpu.md, "memory_analysis()"). v5e's
// cumulative sum by scan (scan_cumulative.s.scan, XLA:TPU's own dump):
// 16,896 bytes of arguments, outputs and constants; at time 35 the loop's
// body holds copy (8,192 bytes), its parameter's two 8,192-byte arrays,
// subtract_bitcast_fusion.2's four 512-byte values and
// dynamic_update_slice.8 (8,192): 34,816 bytes, so 51,712, as XLA:TPU
// says. At time 39 the loop's result (its phis, 17,920 bytes) starts where
// the body's values it stands for end; counting it there gave 60,928.
TEST(XlaTpuGeneration, PeakLeavesOutAPhiAtItsFirstStep) {
  EXPECT_EQ(V5ePeak("module_0392.jit_f.cl_933746096.after_optimizations"),
            51712);
}

// Nor a value nothing reads (live at its first step only). An FSDP MLP's
// forward pass on 8 chips of a v5e slice (spmd_mlp_fsdp.s.predict,
// XLA:TPU's own dump, one device's figures): at time 30 fusion.14 writes
// two outputs over async-collective-start{1} (32,768 bytes each); {2} is
// read, {3} is not (live 30 to 30). XLA:TPU's peak, 259,072 bytes, counts
// {2} and not {3}; counting both gave 291,840.
TEST(XlaTpuGeneration, PeakLeavesOutAValueNothingReads) {
  EXPECT_EQ(V5ePeak("module_1032.jit__lambda.cl_933746096.after_optimizations"),
            259072);
}

// Inside a conditional's branch, VMEM's peak counts that branch's values
// and the operand values the branch still reads, nothing else
// (docs/xla-tpu.md, "memory_analysis()"). A cond's gradient on v5e
// (cond_branches.s.cond_grad, XLA:TPU's own dump): 17,920 bytes of
// arguments, outputs and constants; at time 20, in branch region_1.2,
// broadcast_subtract_fusion's two 4,096-byte outputs and the two operands
// it reads (x's copy, 4,096, and w's, 8,192, whose live range ended at 15,
// before the branch passes it on at 23): 20,480 bytes, so 38,400, as
// XLA:TPU says. Counting the other branch's broadcast.3 (8,192 bytes, live
// to the conditional at 24) beside them, and at 15 the two operands that
// branch does not read, gave 46,592.
TEST(XlaTpuGeneration, PeakInABranchCountsItsValuesAndWhatItReads) {
  EXPECT_EQ(V5ePeak("module_0012.jit__lambda.cl_933746096.after_optimizations"),
            38400);
}

// A branch's values do not count outside it: a 4-way switch's gradient on
// v5e (switch_activation.s.switch_grad, XLA:TPU's own dump): 5,632 bytes
// of arguments, outputs and constants, and 2,560 of VMEM in branch
// region_0.1 at time 20 (five values; x's copy is read last at 15), so
// 8,192, as XLA:TPU says. At the conditional's own time, 61, the last
// branch's six values (3,072 bytes) live to it were counted: 8,704.
TEST(XlaTpuGeneration, PeakLeavesABranchsValuesOutsideIt) {
  EXPECT_EQ(V5ePeak("module_0634.jit__lambda.cl_933746096.after_optimizations"),
            8192);
}

}  // namespace
}  // namespace hlolayout
