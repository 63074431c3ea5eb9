// hlolayout/hlolayout.h: the whole public C++ API of hlolayout in one
// include (Bazel: @hlolayout//:hlolayout_lib; CMake: hlolayout::hlolayout;
// pkg-config: hlolayout). Each header below can also be included alone, with
// its own fine-grained target.
//
// A short tour, on the design card's example
// bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}. Each call says what it
// costs on the 2-core build machine (docs/indexing.md and the pages named;
// bench/index_vs_closed_form prints the ones of steps 1 to 3).
//
// 1. Parse a shape (parser/shape_parser.h). Errors are absl::Status values
//    with a position ("1:5: expected ']'"); bad input never crashes.
//    Cost: a few hundred nanoseconds a shape (about 200 ns to parse and
//    validate, docs/shapes.md), no allocation for arrays.
//
//      absl::StatusOr<hlolayout::Shape> shape = hlolayout::ParseShape(
//          "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}");
//      shape->ToString(/*print_layout=*/true);   // the canonical text back
//      std::cout << *shape;   // the same text (operator<<; AbslStringify
//                             // too, for absl::StrCat with Abseil 2023+)
//
// 2. Sizes (layout/sizes.h): logical, tiled and padded element and byte
//    counts, following every tile level, L(n) and E(n). Cost: builds the
//    tiling model, a few microseconds.
//
//      absl::StatusOr<hlolayout::ArraySizes> sizes =
//          hlolayout::ComputeArraySizes(*shape);
//      sizes->padded_bytes;   // 335544320
//
// 3. Offsets, in elements: two implementations with the same answers.
//    - Reference, checked, slow (layout/reference_index.h): written plainly
//      from the seed formula; every call checks rank and bounds and divides
//      at run time, and the Shape overloads rebuild the tiling model: 5 to
//      12 us a call here.
//        hlolayout::ReferenceOffset(*shape, {1, 0, 5, 300});   // 20974169
//        hlolayout::ReferenceElementAt(*shape, 20974169);      // {1,0,5,300}
//    - Fast (index_util/tiled_indexer.h): TiledIndexer::Create once per
//      shape (about 25 us: it specialises itself to the layout), then
//      each conversion is straight-line code inlined at the call, 2 to 4
//      ns, about 2x a formula written by hand for the shape (1.4x to 2.2x
//      its instructions; BMI2 bit deposit/extract when the processor has
//      them); TryOffsetInElements about 9 ns. Its
//      Try* methods are checked and return a Status (add the bounds check);
//      the plain ones are unchecked (stated preconditions, for hot loops
//      over indices already known in bounds); the batched ones take whole
//      arrays.
//        absl::StatusOr<hlolayout::TiledIndexer> ix =
//            hlolayout::TiledIndexer::Create(*shape);
//        ix->TryOffsetInElements({1, 0, 5, 300});   // StatusOr 20974169
//        ix->OffsetInElements({1, 0, 5, 300});      // unchecked: 20974169
//        int64_t idx[4];
//        ix->ElementAtOffsetInElements(20974169, absl::MakeSpan(idx));
//        // OffsetKind::kElement, idx = {1,0,5,300}
//        ix->BitPositionOf(20974169).byte;          // bytes: 41948338
//    Both say what an offset holds with hlolayout::OffsetKind
//    (layout/offset_kind.h): an element, tile padding or tail padding.
//    index_util/walker.h walks every offset in physical order (runs of a
//    tile row at memory speed: a 64 MiB offset table in about the time of
//    a 64 MiB memcpy); index_util/xla_index_util.h reproduces XLA's own
//    (approximate) index functions for comparison.
//
//    relayout/relayout.h moves an array's bytes from one layout to another
//    (tile, untile, transpose, pack): RelayoutPlan::Create(from, to, {}),
//    then plan->Run(src, dst) for each buffer, near memcpy speed for the
//    common layouts (docs/relayout.md); layout/packing.h says where a
//    sub-byte element sits in its byte (E(n)).
//
// 4. Words for people (layout/describe.h, layout/tiling.h) and protos
//    (shape/shape_proto.h: ShapeFromProtoBytes, ShapeToProto, XLA-compatible
//    xla.ShapeProto). Cost: microseconds a shape.
//
// 5. HLO dumps (hlo/reader.h, report/report.h, views/report_render.h):
//    ReadHloModules reads a --xla_dump_to text file (the modules view the
//    text, which must outlive them; ReadHloModulesFromFile(path) and
//    ReadOwnedHloModules(std::string) return modules that own it, and a
//    temporary std::string is refused at compile time); BuildReport gives the
//    memory and padding of every instruction; memory/value_rules.h says
//    which instruction results are new buffers. Cost: linear in the text,
//    a 78.6 MB dump (401,387 instructions) in about 0.2 s
//    (docs/report.md, "Speed and memory").
//    What an instruction answers, decoded once by the reader (docs/
//    hlo-text.md, "What an instruction answers"): in.fusion_kind()
//    (HloFusionKind::kLoop...), in.custom_call_target() (unquoted),
//    in.tuple_index(), module.callees(in), module.operand_aliasing(in);
//    in.metadata() (O(1)), in.channel_id(), in.backend_config()
//    (O(attributes)).
//    Cost: O(1) each for a module ReadHloModules read (operand_aliasing: a
//    binary search of the few instructions that have one); O(attributes)
//    for a record streamed to a visitor or made by hand.
//    Names and uses (hlo/module_index.h): HloModuleIndex index(module)
//    (O(instructions + operands) once), then index.FindComputation(name),
//    index.FindInstruction(name), index.users(place), O(1) each;
//    OperandShape(computation, operand), O(1): an operand's shape where the
//    dump prints none.
//    A visitor (ReadHlo) is handed the same facts and operand indices with
//    each instruction (cost: docs/hlo-text.md, "What a visitor is handed").
//    hlo/verifier.h: VerifyHloModule(text, module), the shape checks XLA's
//    HloVerifier makes beside its parser (elementwise, tuple,
//    get-tuple-element, parameters against the signature), located as the
//    reader's errors. Cost: O(instructions + operands), a Shape per
//    instruction checked.
//
// 6. CuTe layout algebra (namespace hlolayout::cute, cute/*.h): parse
//    "(4,3):(3,1)", compose, complement, divide, multiply; static `_8` and
//    dynamic `8` integers; swizzles and composed layouts
//    ("Sw<3,4,3> o _0 o (_8,_64):(_64,_1)", cute/composed_ops.h); the
//    GMMA/UMMA shared-memory atoms (cute/smem_atoms.h); XlaShapeToCute turns
//    a tiled XLA layout into a CuTe layout. CuTe's atoms (cute/atom/*.h):
//    FindMmaAtom / FindCopyAtom by C++ name, MakeTiledMma and MakeTiledCopy
//    with their TV layouts, SmemConflicts for shared-memory bank conflicts.
//
// 7. tt-mlir tensor layouts (namespace hlolayout::grid, ttmlir/*.h):
//    ParseGridTensor reads a `#ttnn.ttnn_layout`, a reworked
//    `#ttcore.metal_layout` or the 2024 form; TtnnLayoutAttr::Build and
//    TtcoreMetalLayout::Build give what tt-mlir's builder computes, Locate
//    where an element lives; ScanMlirFile reads a whole .mlir file.
//
// 8. Moving an array's bytes between two layouts (relayout/relayout.h):
//    RelayoutPlan::Create(from, to, options) once, plan.Run(src, dst) per
//    buffer; Relayout(from, src, to, dst, options) in one call (it plans
//    each time: keep the plan for many buffers).
//
// 9. Peak memory of a scheduled module, as XLA's HloLiveRange computes it
//    (memory/live_range.h): AnalyzeMemory; XlaLiveRangeText for XLA's dump
//    (views/live_range_text.h).
//    Cost: linear in the module, tens of milliseconds for a 75 MB dump's
//    modules (docs/memory-speed.md).
//    What XLA will allocate (memory/buffer_assignment.h):
//    AnalyzeModuleMemory gives the allocations and memory_analysis();
//    XlaBufferAssignmentText and XlaMemoryUsageReportText XLA's two files
//    (views/buffer_assignment_text.h).
//    A dump's module with the platform decided once (memory/dump_memory.h):
//    ChooseDumpPlatform, AnalyzeDumpModule. What sets each allocation's
//    size (memory/allocation_sizes.h): ExplainAllocationSizes. A dump
//    file's text module by module (memory/dump_text.h): ForEachDumpModule.
//    The answers as records with one field list for every face
//    (util/record.h; report/dump_folder_record.h, report/report_record.h,
//    layout/explain_record.h), or as values with a field hook
//    (util/fields.h; answers/*.h, docs/architecture.md): `memory`'s is
//    answers/memory.h's AnswerMemory.
//
// 10. Pictures (draw/*.h): LayoutSvg / LayoutText for a shape, and the CuTe,
//    grid and TTNN pictures.
//
// 11. TTNN tensors as tt-metal computes them (namespace hlolayout::ttnn,
//    ttnn/*.h): TensorSpec::Make(input) gives the padded and physical
//    shapes, pages, sizes, strides, bytes per bank, the resolved shard
//    specs and the buffer distribution (which core holds which pages);
//    Locate where an element lives; DistributeOverMesh the slice each
//    device of a mesh holds. Refusals carry tt-metal's rule (RefusalRule).
//    CheckFit says whether a spec fits a device (FindDevice("n150"), ...);
//    DeriveShardShape is ttnn.create_sharded_memory_config's shard.
//    The commands' answers (answers/ttnn.h): AnswerSpec, AnswerPlace,
//    AnswerMesh, AnswerRefusal. The vocabulary TTNN shares with tt-mlir's
//    layouts (cores, buffer types, memory layouts, the boards) is
//    hlolayout::tenstorrent's (tenstorrent/*.h), and TtnnSpecInputOf
//    (answers/ttmlir_ttnn.h) gives a tt-mlir layout's tensor as a TTNN spec.
//
// Version: hlolayout/version.h (HLOLAYOUT_VERSION_STRING).
#ifndef HLOLAYOUT_HLOLAYOUT_H_
#define HLOLAYOUT_HLOLAYOUT_H_

#include "hlolayout/version.h"

// Shapes and their text.
#include "hlolayout/answers/shape_proto.h"
#include "hlolayout/parser/diagnostic.h"
#include "hlolayout/parser/shape_parser.h"
#include "hlolayout/shape/layout.h"
#include "hlolayout/shape/primitive_type.h"
#include "hlolayout/shape/printer.h"
#include "hlolayout/shape/program_shape.h"
#include "hlolayout/shape/shape.h"
#include "hlolayout/shape/shape_proto.h"
#include "hlolayout/shape/tile.h"

// Layouts: validation, sizes, words, offsets; the answers of index,
// element and tiling.
#include "hlolayout/answers/indexing.h"
#include "hlolayout/index_util/tiled_indexer.h"
#include "hlolayout/index_util/walker.h"
#include "hlolayout/index_util/xla_index_util.h"
#include "hlolayout/layout/describe.h"
#include "hlolayout/layout/explain.h"
#include "hlolayout/layout/explain_record.h"
#include "hlolayout/layout/layout_validation.h"
#include "hlolayout/layout/memory_space.h"
#include "hlolayout/layout/offset_kind.h"
#include "hlolayout/layout/packing.h"
#include "hlolayout/layout/reference_index.h"
#include "hlolayout/layout/sizes.h"
#include "hlolayout/layout/tiling.h"
#include "hlolayout/views/explain_text.h"
#include "hlolayout/views/indexing_text.h"

// Moving bytes between layouts.
#include "hlolayout/answers/relayout.h"
#include "hlolayout/relayout/relayout.h"

// HLO dumps.
#include "hlolayout/answers/memory.h"
#include "hlolayout/hlo/module.h"
#include "hlolayout/hlo/module_index.h"
#include "hlolayout/hlo/reader.h"
#include "hlolayout/hlo/verifier.h"
#include "hlolayout/memory/allocation_sizes.h"
#include "hlolayout/memory/buffer_assignment.h"
#include "hlolayout/memory/dump_memory.h"
#include "hlolayout/memory/dump_text.h"
#include "hlolayout/memory/live_range.h"
#include "hlolayout/memory/value_rules.h"
#include "hlolayout/report/dump_folder.h"
#include "hlolayout/report/dump_folder_record.h"
#include "hlolayout/report/report.h"
#include "hlolayout/report/report_record.h"
#include "hlolayout/views/report_render.h"

// CuTe layout algebra; the atoms' commands' answers and print().
#include "hlolayout/answers/cute.h"
#include "hlolayout/answers/cute_algebra.h"
#include "hlolayout/cute/atom/atom_catalog.h"
#include "hlolayout/cute/atom/bank_conflicts.h"
#include "hlolayout/cute/atom/copy_atom.h"
#include "hlolayout/cute/atom/mma_atom.h"
#include "hlolayout/cute/atom/static_text.h"
#include "hlolayout/cute/atom/tile.h"
#include "hlolayout/cute/atom/tiled_copy.h"
#include "hlolayout/cute/atom/tiled_mma.h"
#include "hlolayout/cute/coalesce.h"
#include "hlolayout/cute/common_layout.h"
#include "hlolayout/cute/complement.h"
#include "hlolayout/cute/composed_layout.h"
#include "hlolayout/cute/composed_ops.h"
#include "hlolayout/cute/composition.h"
#include "hlolayout/cute/coord_layout.h"
#include "hlolayout/cute/divide.h"
#include "hlolayout/cute/int_tuple.h"
#include "hlolayout/cute/integer.h"
#include "hlolayout/cute/inverse.h"
#include "hlolayout/cute/layout.h"
#include "hlolayout/cute/numeric_types.h"
#include "hlolayout/cute/ops.h"
#include "hlolayout/cute/parse.h"
#include "hlolayout/cute/print.h"
#include "hlolayout/cute/product.h"
#include "hlolayout/cute/recast.h"
#include "hlolayout/cute/slice.h"
#include "hlolayout/cute/smem_atoms.h"
#include "hlolayout/cute/swizzle.h"
#include "hlolayout/cute/tile_to_shape.h"
#include "hlolayout/cute/tiler.h"
#include "hlolayout/cute/xla_bridge.h"
#include "hlolayout/cute/xla_shape.h"
#include "hlolayout/views/cute_atom_text.h"
#include "hlolayout/views/cute_conflict_text.h"

// The vocabulary both Tenstorrent models share: cores, buffer types and
// memory layouts, the boards, the default tile.
#include "hlolayout/tenstorrent/buffer.h"
#include "hlolayout/tenstorrent/core.h"
#include "hlolayout/tenstorrent/device.h"
#include "hlolayout/tenstorrent/tile.h"

// Grid-sharded tt-mlir layouts; their commands' answers.
#include "hlolayout/answers/ttmlir.h"
#include "hlolayout/ttmlir/affine_map.h"
#include "hlolayout/ttmlir/collapse.h"
#include "hlolayout/ttmlir/element_type.h"
#include "hlolayout/ttmlir/explain.h"
#include "hlolayout/ttmlir/metal_layout.h"
#include "hlolayout/ttmlir/padding.h"
#include "hlolayout/ttmlir/print.h"
#include "hlolayout/ttmlir/ttcore_metal_layout.h"
#include "hlolayout/ttmlir/ttmlir_attrs.h"
#include "hlolayout/ttmlir/ttmlir_collapse.h"
#include "hlolayout/ttmlir/ttmlir_explain.h"
#include "hlolayout/ttmlir/ttmlir_parse.h"
#include "hlolayout/ttmlir/ttnn_attr.h"
#include "hlolayout/ttmlir/ttnn_layout.h"

// Relayout: moving bytes between two layouts; sub-byte packing order.
#include "hlolayout/layout/packing.h"
#include "hlolayout/relayout/relayout.h"

// Pictures of layouts (SVG and terminal text).
#include "hlolayout/views/bank_picture.h"
#include "hlolayout/views/cute_picture.h"
#include "hlolayout/views/cute_tikz.h"
#include "hlolayout/views/grid_analysis_picture.h"
#include "hlolayout/views/grid_picture.h"
#include "hlolayout/views/layout_picture.h"
#include "hlolayout/views/ttmlir_picture.h"
#include "hlolayout/views/ttmlir_text.h"
#include "hlolayout/views/ttnn_drawing.h"
#include "hlolayout/views/ttnn_picture.h"
#include "hlolayout/views/tv_picture.h"

// Triton layouts (docs/triton.md): LinearLayout and its operations, Triton's
// named TTGIR layouts, convert_layout costs, CuTe and XLA bridges; the
// commands' answers.
#include "hlolayout/answers/cute_bridge.h"
#include "hlolayout/answers/smem_by_name.h"
#include "hlolayout/answers/smem_twin.h"
#include "hlolayout/answers/triton.h"
#include "hlolayout/answers/triton_apply.h"
#include "hlolayout/answers/triton_report.h"
#include "hlolayout/answers/triton_smem.h"
#include "hlolayout/triton/bases_json.h"
#include "hlolayout/triton/cvt_cost.h"
#include "hlolayout/triton/cvt_report.h"
#include "hlolayout/triton/evaluator.h"
#include "hlolayout/triton/kernel_report.h"
#include "hlolayout/triton/layout_check.h"
#include "hlolayout/triton/layout_explain.h"
#include "hlolayout/triton/linear_layout.h"
#include "hlolayout/triton/named_layouts.h"
#include "hlolayout/triton/ops.h"
#include "hlolayout/triton/report_input.h"
#include "hlolayout/triton/smem_report.h"
#include "hlolayout/triton/ttgir_parser.h"
#include "hlolayout/triton/ttgir_printer.h"
#include "hlolayout/triton/views.h"
#include "hlolayout/triton/xla_bridge.h"
#include "hlolayout/views/triton_drawing.h"
#include "hlolayout/views/triton_picture.h"
#include "hlolayout/views/triton_report_text.h"
#include "hlolayout/views/triton_text.h"

// TTNN tensors (tt-metal); their commands' answers; a tt-mlir layout as a
// TTNN spec.
#include "hlolayout/answers/ttmlir_ttnn.h"
#include "hlolayout/answers/ttnn.h"
#include "hlolayout/ttnn/buffer_distribution.h"
#include "hlolayout/ttnn/core_range.h"
#include "hlolayout/ttnn/data_type.h"
#include "hlolayout/ttnn/device.h"
#include "hlolayout/ttnn/locate.h"
#include "hlolayout/ttnn/memory_config.h"
#include "hlolayout/ttnn/mesh.h"
#include "hlolayout/ttnn/refusal.h"
#include "hlolayout/ttnn/resolve.h"
#include "hlolayout/ttnn/sharded_config.h"
#include "hlolayout/ttnn/spec_json.h"
#include "hlolayout/ttnn/spec_text.h"
#include "hlolayout/ttnn/tensor_layout.h"
#include "hlolayout/ttnn/tensor_spec.h"
#include "hlolayout/ttnn/tile.h"
#include "hlolayout/util/fields.h"
#include "hlolayout/util/input_text.h"
#include "hlolayout/util/record.h"

#endif  // HLOLAYOUT_HLOLAYOUT_H_
