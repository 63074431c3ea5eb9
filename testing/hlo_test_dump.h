// testing/hlo_test_dump.h: generates large realistic HLO dumps for tests and
// benchmarks, with its own bookkeeping of what it wrote.
//
//   GeneratedHloDump dump = GenerateHloDump({.target_bytes = 75 << 20});
//   dump.text          // "HloModule jit_train_step_0, is_scheduled=true, ..."
//   dump.instructions  // how many instructions it wrote
//
// The lines look like a TPU dump after optimizations: fusions with metadata
// and JSON backend configs, tuples of tuples, get-tuple-element, async
// all-reduce pairs, custom calls with iota shardings `<=[2,4]T(1,0)`,
// constants, tiled bf16 layouts with padding, an `S(1)` array, sub-byte
// `E(4)` arrays, `f32[]{:T(128)}` scalars, `L(1024)` tail padding, bounded
// and unbounded dynamic dims, tokens and instructions without a shape, and
// thousands of distinct random shapes (HloDumpOptions::distinct_shapes).
//
// The expected totals are written down by the generator: from a fixed table
// of shapes whose byte sizes were computed by hand, and for the random shapes
// from the dims and first tile it chose (XLA's ArraySize rules,
// docs/xla-shapes.md, "Sizes"); nothing here reads HLO text back.
#ifndef HLOLAYOUT_TESTING_HLO_TEST_DUMP_H_
#define HLOLAYOUT_TESTING_HLO_TEST_DUMP_H_

#include <cstdint>
#include <string>

namespace hlolayout {

// How the generated lines look.
enum class HloDumpStyle {
  // Operands with their shapes (`add(f32[] %x, f32[] %y)`), metadata and
  // backend configs on some instructions only, small stack frame tables.
  kClassic,
  // As XLA writes TPU dumps today: operands as `%name` only; every
  // instruction carries `metadata={op_type=... op_name=... source_file=...
  // source_line=... stack_frame_id=...}`, most a JSON `backend_config` and
  // many `frontend_attributes`; the module opens with FileNames,
  // FunctionNames, FileLocations and StackFrames tables that grow with the
  // dump; every array shape has TPU tiles, some a memory space. Plain
  // instructions (custom calls, bitcasts, copies, converts, fusions) take
  // their shapes from the varied pool, three quarters of the time from all
  // of it: with distinct_shapes larger than the instructions written, most
  // shape texts are seen once, as in a dump of a model whose layers all
  // differ (bench/ uses 65536).
  kXlaTpu,
  // As kXlaTpu, but as XLA:TPU writes a large train step: one small fused
  // computation (3 to 6 lines: parameters, a constant, a broadcast, a
  // negate, the root) per fusion of the entry, tens of thousands of them
  // (about 1.2 KB each with its fusion line). Same shapes, metadata with
  // stack frames and backend configs as kXlaTpu.
  kXlaTpuSmall,
};

struct HloDumpOptions {
  // Stop adding blocks once the text is at least this long.
  int64_t target_bytes = 1 << 20;
  // Modules, separated by `// -----` lines (1: a plain dump file).
  int modules = 1;
  uint64_t seed = 1;
  // Distinct shape texts drawn at random (types, ranks 1-4, dims, transposed
  // layouts, tiles, `S(1)`, tuples of 2 to 7 elements, some nested) on top
  // of the fixed ones; half of the uses go to a hot few, the rest spread
  // over all. Real dumps have thousands of distinct shapes. 0: none.
  int64_t distinct_shapes = 8192;
  HloDumpStyle style = HloDumpStyle::kClassic;
};

struct GeneratedHloDump {
  std::string text;
  int64_t modules = 0;
  int64_t computations = 0;
  int64_t instructions = 0;
  int64_t instructions_without_shape = 0;
  // Shapes in instruction results, operands, signatures and entry layouts.
  int64_t shapes = 0;
  // Over the array leaves of instruction result shapes:
  int64_t array_leaves = 0;
  int64_t unbounded_leaves = 0;  // `?` dims: no size
  // Elements of sized leaves (bounded dims at their bound).
  int64_t elements = 0;
  int64_t logical_bytes = 0;
  int64_t padded_bytes = 0;
  // The part of the two above in memory space 1 (`S(1)`).
  int64_t logical_bytes_s1 = 0;
  int64_t padded_bytes_s1 = 0;
};

GeneratedHloDump GenerateHloDump(const HloDumpOptions& options);

}  // namespace hlolayout

#endif  // HLOLAYOUT_TESTING_HLO_TEST_DUMP_H_
