// ttmlir/ttmlir_parse.h: the reader of tt-mlir tensor types with a grid
// layout, of their layout maps, and of whole .mlir files. Every tt-mlir
// attribute hlolayout reads goes through this one parser (its tokens are
// ttmlir/lexer.h's; ttmlir/print.h writes the 2024 form back).
//
//   ParseGridTensor(
//       "tensor<32x4096xbf16, #ttnn.ttnn_layout<(d0, d1) -> (d0, d1), <1x8>, "
//       "memref<1x16x!ttcore.tile<32x32, bf16>, #ttnn.buffer_type<l1>>, "
//       "<width_sharded>, core_ranges = <[#ttnn.core_range<(0,0), (7,0)>]>>>")
//     -> kind kTtnnLayout, shape 32x4096, grid 1x8, memref 1x16 tiles.
//
// Three encodings are read:
//   - `#ttnn.ttnn_layout<map, <grid>, [mesh = ...,] memref<shape x element,
//     #ttnn.buffer_type<dram|l1|system_memory|l1_small|trace>>
//     [, <interleaved|height_sharded|width_sharded|block_sharded>]
//     [, core_ranges = <[#ttnn.core_range<(x,y), (x,y)>, ...]>]
//     [, ignorePhysicalLayout = true]>` (the core range set may be spelled
//     `#ttnn.core_range_set<[...]>`, the layout
//     `#ttnn.tensor_memory_layout<..>`);
//   - the reworked `#ttcore.metal_layout<logical_shape = 64x128,
//     dim_alignments = 32x32, collapsed_intervals = dense<[[0, 1], [1, 2]]> :
//     tensor<2x2xi64>, l1, sharded>` (`dense<>` for no interval; an `undef`
//     oob value before the memory space, which tt-mlir removed in 2026, is
//     read and reported);
//   - the 2024 seed form `#tt.metal_layout<map, undef, <grid>, memref<...>>`
//     (also spelled `#ttcore.`): the text of tt-mlir's specification
//     (docs/tt-mlir.md), read into a MetalLayout (ttmlir/metal_layout.h). Its
//     memref element is the tensor's scalar type or a tile, its memory
//     space `#tt.memory_space<system|mmio|dram|l1>` (`system` when the
//     memref has none), and its memref shape must equal the shard shape
//     computed from the tensor, map and grid (in tiles when tilized).
// Tensor and memref elements are scalars (`f32`, `bf16`, `si32`, `ui16`,
// `i1`...) or tiles `!ttcore.tile<32x32, bfp_bf8>` (`!tt.tile`, `32 x 32`).
//
// The text is only read here: what the builder would write, and whether
// tt-mlir's verifier accepts it, is ttmlir/ttnn_attr.h's and
// ttmlir/ttcore_metal_layout.h's business. Errors are ParseErrors
// (line:column, the line, a caret); semantic errors point at the part they
// are about (the map for a rank mismatch, the grid dim that is 0, the
// memref shape that disagrees).
//
// Aliases: a text may start with alias definitions (`#dram =
// #ttnn.buffer_type<dram>`, one per line, possibly spanning lines until its
// brackets close); references in the tensor type read their definitions,
// and a diagnostic about a token of a definition points into that
// definition.
#ifndef HLOLAYOUT_TTMLIR_TTMLIR_PARSE_H_
#define HLOLAYOUT_TTMLIR_TTMLIR_PARSE_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/optional.h"
#include "hlolayout/ttmlir/affine_map.h"
#include "hlolayout/ttmlir/metal_layout.h"
#include "hlolayout/ttmlir/ttmlir_attrs.h"

namespace hlolayout::grid {

// A `#ttnn.ttnn_layout<...>` as written.
struct TtnnLayoutText {
  // The map when it is a linear map hlolayout reads (ttmlir/affine_map.h);
  // nullopt otherwise, with `map_note` saying why.
  absl::optional<AffineMap> map;
  std::string map_text;  // as written, on one line
  std::string map_note;
  std::vector<int64_t> grid;
  std::vector<int64_t> memref_shape;
  MlirElement memref_element;
  tenstorrent::BufferType buffer_type = tenstorrent::BufferType::kDram;
  absl::optional<tenstorrent::TensorMemoryLayout> mem_layout;
  absl::optional<std::vector<tenstorrent::CoreRange>> core_ranges;
  std::string mesh;  // the text after `mesh =`; empty when absent
  bool ignore_physical_layout = false;
};

// A reworked `#ttcore.metal_layout<...>` as written.
struct MetalLayoutText {
  std::vector<int64_t> logical_shape;
  std::vector<int64_t> dim_alignments;
  // The collapsed_intervals values as written (negative bounds kept), and
  // the shape of their declared type (`tensor<2x2xi64>` -> {2, 2}).
  std::vector<int64_t> intervals;
  std::vector<int64_t> intervals_type;
  absl::optional<OobVal> oob;  // a removed field, when written
  MemorySpace memory_space = MemorySpace::kSystem;
  MetalMemoryLayout memory_layout = MetalMemoryLayout::kSharded;
};

enum class GridEncodingKind { kTtnnLayout, kMetalLayout, kSeedMetalLayout };

// GridTensorText
//
// One tensor type with one of the three encodings. Exactly one of `ttnn`,
// `metal`, `seed` is set, as `kind` says.
struct GridTensorText {
  GridEncodingKind kind = GridEncodingKind::kTtnnLayout;
  std::vector<int64_t> shape;
  MlirElement element;
  absl::optional<TtnnLayoutText> ttnn;
  absl::optional<MetalLayoutText> metal;
  absl::optional<MetalLayout> seed;
  // The dialect prefix of a seed form: "tt" (the specification's) or
  // "ttcore" (tt-mlir's test files after the 2025 rename).
  std::string seed_dialect;
  std::string text;  // the type parsed (aliases inlined)
  // Where the encoding starts in the text given to the parser (inside an
  // alias definition when the encoding is an alias): semantic errors point
  // there.
  size_t encoding_offset = 0;
};

// ParseGridTensor
//
// Reads alias definitions (optional) and then one tensor type. Trailing
// input is an error. Errors: syntax, unknown names ("unknown buffer type
// 'sram'"), a seed form whose parts disagree (a map whose rank is not the
// tensor's, a grid dim of 0, a memref shape that is not the computed
// shard's: each error points at the part it is about). Dims of size 0 are
// read (TTNN layouts of empty tensors are built; the metal layouts refuse
// them).
absl::StatusOr<GridTensorText> ParseGridTensor(absl::string_view text);

// ParseTensorType
//
// Reads a 2024-form tensor type alone (no aliases, no other encoding):
//   ParseTensorType(
//       "tensor<53x63xf32, #tt.metal_layout<(d0, d1) -> (d0, d1), undef, "
//       "<3x2>, memref<18x32xf32, #tt.memory_space<l1>>>>")
//     -> a MetalLayout with shard 18x32 on a 3x2 grid.
// Its dims must be 1 or more and its element a scalar type.
absl::StatusOr<MetalLayout> ParseTensorType(absl::string_view text);

// ParseAffineMap
//
// Reads a layout map on its own: "(d0, d1, d2) -> (d0 * 64 + d1, d2)".
// Dim names may be any identifiers; products need a constant factor;
// parentheses distribute ("(d0 * 3 + d1) * 64 + d2"). Rejected with a
// message: symbols `[s0]`, `-`, floordiv/ceildiv/mod. A `#ttnn.ttnn_layout`
// whose map this refuses is still read (TtnnLayoutText::map_note).
absl::StatusOr<AffineMap> ParseAffineMap(absl::string_view text);

// IsSingleTensorText
//
// True when `text`, after blank lines, comment lines and alias definitions,
// starts with `tensor` (or ends): what ParseGridTensor reads. Otherwise it
// is other IR, a module, for ScanMlirFile.
bool IsSingleTensorText(absl::string_view text);

// The encoding names read: "#ttnn.ttnn_layout<", "#ttcore.metal_layout<",
// "#tt.metal_layout<". True when `text` contains one of them.
bool MentionsGridLayout(absl::string_view text);

// One distinct tensor type with a layout found in an .mlir file.
struct MlirFileType {
  std::string text;     // the type with aliases inlined, on one line
  std::string written;  // as written at its first use ("tensor<4x4xf32, #l>")
  int64_t line = 0;     // 1-based, first use
  int64_t column = 0;
  int64_t uses = 0;
  absl::StatusOr<GridTensorText> parsed = GridTensorText();
};

// The alias definitions and tensor types of an .mlir file.
struct MlirFileScan {
  std::vector<MlirFileType> types;  // in order of first use
  int64_t sections = 1;             // `// -----` splits plus one
  int64_t aliases = 0;              // alias definitions read
};

// ScanMlirFile
//
// Finds every `tensor<...>` type whose encoding (after alias inlining) is
// one of the three layouts, in IR lines (comment lines, e.g. FileCheck's,
// are skipped), resolving aliases per `// -----` section as tt-mlir's
// --split-input-file does. Types equal up to whitespace are listed once.
// Each is parsed with ParseGridTensor; a bad one does not stop the scan.
// Errors: an alias definition whose brackets never close, an alias that
// expands past 1 MB, or definitions that expand past 16 MB in all (files no
// MLIR tool writes; the limits keep memory and time bounded).
absl::StatusOr<MlirFileScan> ScanMlirFile(absl::string_view text);

}  // namespace hlolayout::grid

#endif  // HLOLAYOUT_TTMLIR_TTMLIR_PARSE_H_
