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
// source line and a caret (parser/diagnostic.h). In a module, layouts this
// library does not convert (AMD's amd_mfma, amd_wmma, padded_shared, ...)
// are kept with the reason instead of failing the whole file.
#ifndef HLOLAYOUT_TRITON_TTGIR_PARSER_H_
#define HLOLAYOUT_TRITON_TTGIR_PARSER_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "hlolayout/triton/named_layouts.h"

namespace hlolayout::triton {

// A layout attribute as found in the text: parsed, or why not.
struct ParsedLayout {
  std::string text;                      // the attribute as written
  std::shared_ptr<const Layout> layout;  // null when not converted
  std::string unsupported;               // why, when layout is null
};

// Aliases by name ("#blocked").
using LayoutAliases = std::map<std::string, ParsedLayout>;

// ParseLayout
//
// One layout attribute: `#ttg.<kind><...>` or, with `aliases`, `#name`.
absl::StatusOr<Layout> ParseLayout(absl::string_view text,
                                   const LayoutAliases* aliases = nullptr,
                                   absl::string_view file_name = "");

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
  LayoutAliases aliases;
  int num_warps = 0;  // 0 when the module does not say
  int threads_per_warp = 32;
  int num_ctas = 1;
  std::string target;
  std::vector<TtgirType> types;
  std::vector<ConvertLayoutOp> converts;
};

// ParseTtgirModule
//
// The layout facts of a TTGIR module (a `.ttgir` dump). Everything else in
// the text (operations, `loc(...)`, constants) is skipped.
absl::StatusOr<TtgirModule> ParseTtgirModule(absl::string_view text,
                                             absl::string_view file_name = "");

// ElementBits
//
// The width Triton gives an element type in layout conversions: its bit
// width (at least 8), 64 for pointers; 0 for an unknown type.
int ElementBits(absl::string_view element_type);

}  // namespace hlolayout::triton

#endif  // HLOLAYOUT_TRITON_TTGIR_PARSER_H_
