// triton/ttgir_parser.h: Triton's layouts as TTGIR text, and the layout
// facts of a TTGIR module (docs/triton.md, "TTGIR text").
//
//   Layout l = *ParseLayout("#ttg.blocked<{sizePerThread = [1, 4], "
//                           "threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], "
//                           "order = [1, 0]}>");
//   TtgirModule m = *ParseTtgirModule(text_of_a_ttgir_file);
//   m.aliases   // #blocked = ..., in order, each parsed
//   m.types     // every tensor<...> and !ttg.memdesc<...> type
//   m.converts  // every ttg.convert_layout with its source and result types
//
// Both spellings are read: today's `#ttg.` (CGA as `CGALayout = [[...]]`)
// and the older `#triton_gpu.` (with `CTAsPerCGA`, `CTASplitNum`,
// `CTAOrder`; `#triton_gpu.shared<{..., hasLeadingOffset}>`,
// `#triton_gpu.mma`). Parents of slice and dot_op layouts may be inline or
// an alias. Bad text gives an InvalidArgument status "L:C: message" with the
// source line and a caret (parser/diagnostic.h), and so do attributes
// Triton's verifiers refuse (their messages). In a module, layouts this
// library does not convert (AMD's amd_mfma, amd_wmma, padded_shared, tensor
// memory, ...) are kept with their fields and the reason instead of failing
// the whole file.
#ifndef HLOLAYOUT_TRITON_TTGIR_PARSER_H_
#define HLOLAYOUT_TRITON_TTGIR_PARSER_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "hlolayout/triton/named_layouts.h"

namespace hlolayout::triton {

// A layout attribute as found in the text: parsed, or why not.
//
// Kinds this library does not convert to a LinearLayout yet (AMD's amd_mfma
// and amd_wmma and dot_op/slice layouts over them, padded_shared,
// partitioned_shared, amd_rotating_shared, generic_linear, and the tensor
// memory encodings #ttng.tensor_memory_encoding and
// #ttng.tensor_memory_scales_encoding) are still read into their fields and
// checked against Triton's verifiers; `layout` is then null and
// `unsupported` says why.
struct ParsedLayout {
  std::string text;                      // the attribute as written
  std::shared_ptr<const Layout> layout;  // null when not converted
  std::string unsupported;               // why, when layout is null
  // The attribute's kind without its dialect ("blocked", "amd_mfma",
  // "tensor_memory_encoding"; the whole name, "tlx.user_layout", for other
  // dialects) and its fields as written, in order: ("version", "3"),
  // ("warpsPerCTA", "[2, 4]"); padded_shared's `[128:+16]` is the field
  // "intervals"; a body this reader does not know is one field named "".
  std::string kind;
  std::vector<std::pair<std::string, std::string>> fields;
};

// Aliases by name ("#blocked").
using LayoutAliases = std::map<std::string, ParsedLayout>;

// ParseLayout
//
// One layout attribute: `#ttg.<kind><...>` or, with `aliases`, `#name`.
// With `warnings`, what was read but ignored (a key amd_mfma or amd_wmma
// do not have, which Triton's parser skips: "1:78: warning: unknown key
// 'isTransposd' in #ttg.amd_mfma; did you mean 'isTransposed'? ...", the
// line and a caret) is appended to it.
absl::StatusOr<Layout> ParseLayout(
    absl::string_view text, const LayoutAliases* aliases = nullptr,
    absl::string_view file_name = "",
    std::vector<std::string>* warnings = nullptr);

struct TtgirType {
  bool memdesc = false;        // !ttg.memdesc<...> (else tensor<...>)
  std::vector<int64_t> shape;  // -1 for a dynamic size
  std::string element_type;    // f16, i32, !tt.ptr<f16>, ...
  int element_bits = 0;        // 0 when unknown
  std::string encoding;        // "#blocked" or the inline attribute; may be ""
  ParsedLayout layout;
  size_t offset = 0;  // where the type starts in the text
  // The shape the layout describes: for a memdesc with one more dim than its
  // layout (multi-buffering), the trailing dims.
  std::vector<int64_t> LayoutShape() const;
};

struct ConvertLayoutOp {
  std::string result;  // "%42"
  size_t offset = 0;   // where the op name starts
  TtgirType src;
  TtgirType dst;
};

struct TtgirModule {
  std::vector<std::string> alias_order;  // layout aliases as defined
  // The layout aliases by name, and also aliases of other dialects'
  // attributes (not in alias_order; ParsedLayout::kind is the dialect's
  // name) so that types using them still read.
  LayoutAliases aliases;
  // Where the first `module` (its keyword) is, npos when the text has none.
  size_t module_offset = std::string::npos;
  int num_warps = 0;  // 0 when the module does not say
  // Triton's defaults when the module names none (threads_per_warp_named
  // and num_ctas_named say whether it did).
  int threads_per_warp = 32;
  int num_ctas = 1;
  bool threads_per_warp_named = false;
  bool num_ctas_named = false;
  std::string target;
  std::vector<TtgirType> types;
  std::vector<ConvertLayoutOp> converts;
  // Keys Triton ignores, located (as ParseLayout's warnings).
  std::vector<std::string> warnings;
};

// ParseTtgirModule
//
// The layout facts of a TTGIR module (a `.ttgir` dump). Everything else in
// the text (operations, `loc(...)`, constants) is skipped.
absl::StatusOr<TtgirModule> ParseTtgirModule(absl::string_view text,
                                             absl::string_view file_name = "");

// HoldsTtgir
//
// Whether `m` holds anything of TTGIR: a Triton layout alias, a tensor or
// memdesc type whose encoding is a Triton layout (not another dialect's,
// such as tt-mlir's `#ttnn.ttnn_layout`), or a convert_layout.
bool HoldsTtgir(const TtgirModule& m);

// RequireTtgirModule
//
// OK when `m` (parsed from `text`) is TTGIR: a `module attributes {...}`
// with "ttg.num-warps" (Triton's dumps all have one), or text that holds
// TTGIR (HoldsTtgir) without a module or without the attribute, as
// Triton's lit tests write it (a bare `tt.func`, which `triton-opt` reads
// in an implicit module; the caller says which defaults apply). Else an
// InvalidArgument located in `text` ("file:L:C: message", the line and a
// caret): at a module without the attribute and without layouts (TTIR,
// before Triton assigns layouts), or at the start of a text with neither
// (a README).
absl::Status RequireTtgirModule(const TtgirModule& m, absl::string_view text,
                                absl::string_view file_name = "");

// VerifyModuleTypes
//
// Triton's checks of every tensor type of `m` against the module, as
// `triton check` runs them (VerifyLayoutUse): the layout's rank against
// the tensor's, a distributed layout, and its threads per warp against
// "ttg.threads-per-warp" -- the first refusal, located at the type
// ("file:L:C: #ttg.amd_mfma<...>.\nLayout has 64 threads per warp, but the
// module specifies 32 threads per warp."). Warps and CTAs are the
// layout's own (a function or warp_specialize partition may run fewer
// warps than the module; this reader does not follow them). Only where
// the module names its warps (an implicit module is not checked), on
// today's `#ttg.` spelling, for shapes of powers of two; memdescs and
// layouts not converted are left alone.
absl::Status VerifyModuleTypes(const TtgirModule& m, absl::string_view text,
                               absl::string_view file_name = "");

// ElementBits
//
// The width Triton gives an element type in layout conversions: its bit
// width (at least 8), 64 for pointers; 0 for an unknown type.
int ElementBits(absl::string_view element_type);

}  // namespace hlolayout::triton

#endif  // HLOLAYOUT_TRITON_TTGIR_PARSER_H_
