// Where XLA:TPU places values (docs/xla-tpu.md, "Rules learned"), learned
// from XLA:TPU's -buffer-assignment.txt (libtpu 0.0.42.1): a fusion's
// output_to_operand_aliasing makes the output and the operand one buffer
// (XLA's in-place pairs of a fusion), an all-reduce may write its result
// {i} over its operand i, the HBM heap places its buffers best fit in the
// order they are allocated, and the S(6) heap keeps a copy of an entry
// parameter out of its user's place.
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "gtest/gtest.h"
#include "hlolayout/memory/buffer_assignment.h"
#include "hlolayout/memory/dump_text.h"
#include "hlolayout/memory/tpu_chip.h"
#include "hlolayout/testing/test_data.h"
#include "hlolayout/views/buffer_assignment_text.h"

namespace hlolayout {
namespace {

// The model's assignment of the XLA:TPU module `text` (compiled for
// `chip`); `xla_text`, when given, gets it in XLA's -buffer-assignment.txt
// format.
BufferAssignment Assign(const std::string& text,
                        std::string* xla_text = nullptr,
                        TpuGeneration chip = TpuGeneration::kV5e) {
  DumpTextOptions options;
  options.tpu_buffers = true;
  options.tpu = chip;
  BufferAssignment out;
  std::vector<std::string> warnings;
  const absl::Status status = ForEachDumpModule(
      text, options, &warnings, [&](const HloModule&, DumpModuleMemory& m) {
        out = m.memory.buffers;
        if (xla_text != nullptr) *xla_text = XlaBufferAssignmentText(out);
        return absl::OkStatus();
      });
  EXPECT_TRUE(status.ok()) << status;
  return out;
}

// "allocation:offset" of the value `name` at `index` ("?" when not placed).
std::string PlaceOf(const BufferAssignment& b, absl::string_view name,
                    const std::vector<int64_t>& index) {
  for (const BufferAllocation& a : b.allocations) {
    for (const AssignedValue& v : a.values) {
      if (v.name == name && v.index == index) {
        return absl::StrCat(a.index, ":", v.offset);
      }
    }
  }
  return "?";
}

// As in an async collective's continuation (SPMD modules of the v5e zoo):
// the fusion writes its output {1}, an `s32[2]{0:S(4)}`, over operand 0, an
// element of another fusion's tuple. XLA:TPU places both at one offset of
// the S(4) allocation (8 SPMD modules of the v5e zoo, e.g. an FSDP
// predict's `fusion.14{4}` with `async-collective-start{2}`); the model
// gave them two, 4,096 bytes apart.
TEST(XlaTpuPlacement, FusionOutputToOperandAliasingIsOneBuffer) {
  const std::string s4 = "s32[2]{0:S(4)}", t = "f32[8,128]{1,0:T(8,128)}";
  const std::string pair = absl::StrCat("(", t, ", ", s4, ")");
  const std::string text = absl::StrCat(
      "HloModule t, is_scheduled=true, entry_computation_layout={(", t, ")->",
      t, "}\n\n",
      "%start (a: f32[8,128]) -> (f32[8,128], s32[2]) {\n  %a = ", t,
      " parameter(0)\n  %c = ", s4, " constant({0, 1})\n  ROOT %r = ", pair,
      " tuple(%a, %c)\n}\n\n",
      "%done (b: s32[2], d: f32[8,128]) -> (f32[8,128], s32[2]) {\n  %b = ", s4,
      " parameter(0)\n  %d = ", t, " parameter(1)\n  %n = ", t,
      " negate(%d)\n  ROOT %r = ", pair, " tuple(%n, %b)\n}\n\n",
      "ENTRY %main (p: f32[8,128]) -> f32[8,128] {\n  %p = ", t,
      " parameter(0)\n  %x = ", pair,
      " fusion(%p), kind=kCustom, calls=%start\n  %g = ", s4,
      " get-tuple-element(%x), index=1\n  %h = ", t,
      " get-tuple-element(%x), index=0\n  %y = ", pair,
      " fusion(%g, %h), kind=kOutput, output_to_operand_aliasing={{1}: (0, "
      "{})}, calls=%done\n  ROOT %z = ",
      t, " get-tuple-element(%y), index=0\n}\n");
  const BufferAssignment b = Assign(text);
  EXPECT_NE(PlaceOf(b, "x", {1}), "?");
  EXPECT_EQ(PlaceOf(b, "y", {1}), PlaceOf(b, "x", {1}));
}

// A single-operand all-reduce whose result is the output: XLA:TPU puts the
// reduced operand in the output's allocation (`fusion.24` and `all-reduce`
// of an MoE forward; 58 results of the v5e zoo's all-reduces share their
// operand's place); the model put the operand in the temp heap.
TEST(XlaTpuPlacement, AllReduceResultTakesItsOperandsPlace) {
  const std::string s = "f32[]{:T(128)}";
  const std::string text = absl::StrCat(
      "HloModule t, is_scheduled=true, entry_computation_layout={(", s, ")->",
      s,
      "}, num_partitions=8\n\n%add (a: f32[], b: f32[]) -> f32[] {\n  %a = ", s,
      " parameter(0)\n  %b = ", s, " parameter(1)\n  ROOT %c = ", s,
      " add(%a, %b)\n}\n\nENTRY %main (p: f32[]) -> f32[] {\n  %p = ", s,
      " parameter(0)\n  %x = ", s, " negate(%p)\n  ROOT %r = ", s,
      " all-reduce(%x), channel_id=1, replica_groups={{0,1,2,3,4,5,6,7}}, "
      "use_global_device_ids=true, to_apply=%add\n}\n");
  const BufferAssignment b = Assign(text);
  EXPECT_NE(PlaceOf(b, "r", {}), "?");
  EXPECT_EQ(PlaceOf(b, "x", {}), PlaceOf(b, "r", {}));
}

// The allocation holding the value `name` at `index` (null when none).
const BufferAllocation* AllocationOf(const BufferAssignment& b,
                                     absl::string_view name,
                                     const std::vector<int64_t>& index) {
  for (const BufferAllocation& a : b.allocations) {
    for (const AssignedValue& v : a.values) {
      if (v.name == name && v.index == index) return &a;
    }
  }
  return nullptr;
}

// XLA:TPU puts no all-gather, all-to-all or collective-permute result in a
// maybe-live-out allocation (none of 187, 117 and 2,767 such values of the
// four generations' caches is in one). On v5p's FSDP gradient
// (spmd_mlp_fsdp.s.loss_grad) the model put all-gather.1 (65,536 bytes)
// in a live-out allocation of 131,072 whose values' live ranges it did not
// meet; XLA:TPU has it in the temp heap. Here the all-gather's result
// could share the output's allocation (the output negates it in place).
TEST(XlaTpuPlacement, CollectiveResultsStayOutOfLiveOutAllocations) {
  const std::string in = "f32[1,128]{1,0:T(1,128)}",
                    out = "f32[8,128]{1,0:T(8,128)}";
  const std::string text = absl::StrCat(
      "HloModule t, is_scheduled=true, entry_computation_layout={(", in, ")->",
      out, "}, num_partitions=8\n\nENTRY %main (p: f32[1,128]) -> ",
      "f32[8,128] {\n  %p = ", in, " parameter(0)\n  %ag = ", out,
      " all-gather(%p), channel_id=1, replica_groups={{0,1,2,3,4,5,6,7}}, "
      "dimensions={0}, use_global_device_ids=true\n  ROOT %r = ",
      out, " negate(%ag)\n}\n");
  const BufferAssignment b = Assign(text, nullptr, TpuGeneration::kV5p);
  const BufferAllocation* gathered = AllocationOf(b, "ag", {});
  const BufferAllocation* output = AllocationOf(b, "r", {});
  ASSERT_NE(gathered, nullptr);
  ASSERT_NE(output, nullptr);
  EXPECT_TRUE(output->maybe_live_out);
  EXPECT_NE(gathered->index, output->index);
  EXPECT_FALSE(gathered->maybe_live_out);
}

// An output fusion writes its output over an operand that its body uses
// elementwise: v5p's LSTM step (lstm_scan.s.step), where
// convolution_add_fusion.4 = add(select(p, 0, param_1), convolution) takes
// the place of its operand param_1 (a donated parameter's allocation in
// XLA:TPU's file; the model had put the fusion in the temp heap, as XLA's
// generic rule shares only a dot's or convolution's direct addend).
TEST(XlaTpuPlacement, OutputFusionWritesOverAnOperandUsedElementwise) {
  const std::string t = "f32[8,128]{1,0:T(8,128)}",
                    w = "f32[128,128]{1,0:T(8,128)}";
  const std::string text = absl::StrCat(
      "HloModule t, is_scheduled=true, entry_computation_layout={(", t, ", ", t,
      ", ", w, ")->", t, "}\n\n",
      "%fused (a: f32[8,128], b: f32[8,128], c: f32[128,128]) -> f32[8,128] "
      "{\n  %a = ",
      t, " parameter(0)\n  %b = ", t, " parameter(1)\n  %c = ", w,
      " parameter(2)\n  %d = ", t,
      " dot(%b, %c), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n"
      "  %n = ",
      t, " negate(%a)\n  ROOT %s = ", t, " add(%n, %d)\n}\n\n",
      "ENTRY %main (p: f32[8,128], q: f32[8,128], v: f32[128,128]) -> "
      "f32[8,128] {\n  %p = ",
      t, " parameter(0)\n  %q = ", t, " parameter(1)\n  %v = ", w,
      " parameter(2)\n  %x = ", t, " exponential(%p)\n  %f = ", t,
      " fusion(%x, %q, %v), kind=kOutput, calls=%fused\n  ROOT %r = ", t,
      " negate(%f)\n}\n");
  const BufferAssignment b = Assign(text, nullptr, TpuGeneration::kV5p);
  EXPECT_NE(PlaceOf(b, "x", {}), "?");
  EXPECT_EQ(PlaceOf(b, "f", {}), PlaceOf(b, "x", {}));
}

// The lines of XLA's buffer-assignment text `text` that place values in
// allocations of color 0 (HBM), with their allocation's header: each
// " value:" line after an "allocation" line without ", color ".
std::vector<std::string> HbmLines(absl::string_view text) {
  std::vector<std::string> out;
  bool hbm = false;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    if (absl::StartsWith(line, "allocation ")) {
      hbm = !absl::StrContains(line, ", color ");
      if (hbm) out.emplace_back(line);
    } else if (hbm && absl::StartsWith(line, " value: ")) {
      out.emplace_back(line);
    }
  }
  return out;
}

// The lines with each value's id left out (" value: <12 a.1 @0>" becomes
// " value: <a.1 @0>").
std::vector<std::string> WithoutValueIds(std::vector<std::string> lines) {
  for (std::string& line : lines) {
    const size_t open = line.find(" value: <");
    if (open == std::string::npos) continue;
    const size_t id = open + std::string(" value: <").size();
    const size_t space = line.find(' ', id);
    if (space != std::string::npos) line.erase(id, space + 1 - id);
  }
  return lines;
}

// XLA:TPU's HBM heap places its buffers best fit in the order they are
// allocated (docs/xla-tpu.md, "Rules learned"), where XLA's
// ChooseBestHeapAlgorithm takes the smaller of the spatial (largest first)
// and temporal (longest-lived first) layouts. A v5p cumulative sum
// (cumulative_ops.l.cumsum_int): reduce-window.1 (65,536 bytes), slice.3
// (32,768) and broadcast.3 (131,072) each overlap the next only; placed as
// they come, broadcast.3 cannot take reduce-window.1's place (slice.3 sits
// above it), and the heap is 229,376 bytes, where the spatial layout puts
// broadcast.3 at 0 and reduce-window.1 in its place (163,840: the model's
// before). A v5e fori_loop filling an HBM buffer
// (fori_dynamic_update_slice.s.fill): the loop's counter at 32,768 and the
// condition's pred[] at 49,152, the temporal layout, also the order they
// are allocated in.
TEST(XlaTpuPlacement, HbmHeapPlacesBuffersInAllocationOrder) {
  const struct {
    const char* base;
    TpuGeneration chip;
    std::vector<std::pair<const char*, const char*>> places;
  } cases[] = {
      {"memory/testdata_xla_tpu/"
       "module_2294.jit__lambda.cl_933746096.after_optimizations",
       TpuGeneration::kV5p,
       {{"reduce-window.1", "9:0"},
        {"slice.3", "9:65536"},
        {"broadcast.3", "9:98304"}}},
      {"memory/testdata_xla_tpu/"
       "module_2404.jit_fill.cl_933746096.after_optimizations",
       TpuGeneration::kV5e,
       {{"lt.9", "7:49152"}, {"add.22", "7:32768"}}},
  };
  for (const auto& c : cases) {
    const std::string base = c.base;
    const std::string text = ReadTestData(base + ".txt");
    const std::vector<std::string> xla =
        HbmLines(ReadTestData(base + "-buffer-assignment.txt"));
    std::string ours;
    const BufferAssignment b = Assign(text, &ours, c.chip);
    for (const auto& [name, place] : c.places) {
      EXPECT_EQ(PlaceOf(b, name, {}), place) << base << " " << name;
    }
    ASSERT_FALSE(xla.empty());
    EXPECT_EQ(HbmLines(ours), xla) << base;
  }
}

// XLA:TPU's HBM heap keeps a shared buffer's whole span: no other buffer
// takes its place between two of its values (docs/xla-tpu.md, "Rules
// learned"). The held-out set's BiCGSTAB solver (v5e,
// heldout_sparse_solvers.s.bicgstab): the loop state's f32[16] element
// lives in the body's parameter (to time 65) and again from the update
// written into it (83); multiply_reduce_fusion.20's elements, live from 67
// to 81, are at 81,920, 98,304 and 114,688, where the model put {0} at 0,
// in the gap (the heap 229,888 bytes, XLA:TPU's 246,272).
TEST(XlaTpuPlacement, HbmHeapKeepsASharedBuffersWholeSpan) {
  const std::string base =
      "memory/testdata_xla_tpu/"
      "module_0924.jit__lambda.cl_933746096.after_optimizations";
  std::string ours;
  // The assignment's names view the module's text: the text outlives it.
  const std::string text = ReadTestData(base + ".txt");
  const BufferAssignment b = Assign(text, &ours);
  EXPECT_EQ(PlaceOf(b, "multiply_reduce_fusion.20", {0}), "48:81920");
  EXPECT_EQ(PlaceOf(b, "multiply_reduce_fusion.20", {1}), "48:98304");
  EXPECT_EQ(PlaceOf(b, "multiply_reduce_fusion.20", {2}), "48:114688");
  // Every HBM allocation and value's place is XLA:TPU's (value ids aside:
  // the guess of XLA:TPU's computation order misses some here).
  const std::vector<std::string> xla =
      WithoutValueIds(HbmLines(ReadTestData(base + "-buffer-assignment.txt")));
  ASSERT_FALSE(xla.empty());
  EXPECT_EQ(WithoutValueIds(HbmLines(ours)), xla);
}

// XLA:TPU's S(6) heap never gives the place of a copy of an entry parameter
// to the copy's user (docs/xla-tpu.md, "Rules learned"): an optax step
// (v5p, heldout_optax.s.clipped_sgd_schedule) copies its step count into
// S(6) as `copy.18` (at 0) and counts it up in `add.39` (at 1,024), which
// XLA:TPU does not write over `copy.18`; the model wrote it there. A copy
// of another value lends its place as before (a loop's counter, copied
// from the body's parameter, in scan_cumulative.s.scan_reverse_unroll).
TEST(XlaTpuPlacement, S6CopyOfAnEntryParameterKeepsItsPlace) {
  const std::string text = R"(HloModule jit_step, is_scheduled=true

ENTRY %main (p: s32[]) -> (s32[], pred[], s32[]) {
  %p = s32[]{:T(128)} parameter(0)
  %c1 = s32[]{:T(128)} constant(1)
  %c5 = s32[]{:T(128)} constant(5)
  %copy = s32[]{:T(128)S(6)} copy(%p)
  %lt = pred[]{:T(512)S(6)} compare(%copy, %c5), direction=LT
  %add = s32[]{:T(128)S(6)} add(%copy, %c1)
  %neg = s32[]{:T(128)} negate(%p)
  %copy.1 = s32[]{:T(128)S(6)} copy(%neg)
  %add.1 = s32[]{:T(128)S(6)} add(%copy.1, %c1)
  %r0 = s32[]{:T(128)} copy(%add)
  %r1 = pred[]{:T(512)} copy(%lt)
  %r2 = s32[]{:T(128)} copy(%add.1)
  ROOT %t = (s32[]{:T(128)}, pred[]{:T(512)}, s32[]{:T(128)}) tuple(%r0, %r1, %r2)
}
)";
  const BufferAssignment b = Assign(text, nullptr, TpuGeneration::kV5p);
  const std::string copy = PlaceOf(b, "copy", {});
  ASSERT_NE(copy, "?");
  EXPECT_NE(PlaceOf(b, "add", {}), copy);
  EXPECT_EQ(PlaceOf(b, "add.1", {}), PlaceOf(b, "copy.1", {}));
}

}  // namespace
}  // namespace hlolayout
