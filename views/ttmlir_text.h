// views/ttmlir_text.h: the texts `hlolayout grid explain`, `locate`,
// `report` and `collapse` print, and the batch ops grid-shard and
// grid-locate: views of tt-mlir's answers (answers/ttmlir.h), which keep
// the values and the JSON, and of the analysis they are built from. The
// wording of each form is here: the seed form's (views/ttmlir_seed_text.cc)
// and the current forms' (views/ttmlir_layout_text.cc).
//
//   absl::StatusOr<GridAnalysis> a = AnalyzeGridText(text, device);
//   ExplainText(*a);          // the explanation `grid explain` prints
//   *LocateText(*a, {2, 1541});
//   LocateBatchText(*AnswerLocate(*a, {2, 1541}));
//   // "shard=0,3 offset=2,5 tile=0,48 in_tile=2,5 core=3,0"
//   ShardBatchText(*a);       // "1x16"
//   FormatGridReport(*ReadGridReport(file_text, "model.mlir", device));
#ifndef HLOLAYOUT_VIEWS_TTMLIR_TEXT_H_
#define HLOLAYOUT_VIEWS_TTMLIR_TEXT_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "hlolayout/answers/ttmlir.h"
#include "hlolayout/ttmlir/explain.h"
#include "hlolayout/ttmlir/metal_layout.h"
#include "hlolayout/ttmlir/ttmlir_explain.h"

namespace hlolayout::grid {

// `hlolayout grid explain`'s and `locate`'s texts.
std::string ExplainText(const GridAnalysis& analysis);
absl::StatusOr<std::string> LocateText(const GridAnalysis& analysis,
                                       absl::Span<const int64_t> index);

// The batch op grid-locate's line: "shard=0,5 offset=2,5 tile=0,48
// in_tile=2,5 core=5,0" (TTNN; page= and dram_bank= for interleaved
// layouts), "shard=.. offset=.. [offset_tile=..] [core=X,Y]" (metal), or
// "core=C0,C1 offset=O0,O1" plus " tile=T0,T1 in_tile=E0,E1" when tilized
// (seed form: tile is the memref index of the tile, in_tile the row and
// column inside it).
std::string LocateBatchText(const LocationAnswer& answer);

// The batch op grid-shard's line: the memref shape of one shard ("18x32",
// or "1x1" tiles when tilized, as the seed writes it; the builder's memref
// shape for TTNN, the shard in units for metal).
std::string ShardBatchText(const GridAnalysis& analysis);

// `grid report`'s text.
std::string FormatGridReport(const GridReport& report);

// The seed form's texts (views/ttmlir_seed_text.cc).
// `grid explain`, one "name: value" per line. At most `max_core_lines`
// per-core lines are listed.
std::string FormatGridExplanation(const GridExplanation& explanation,
                                  int64_t max_core_lines = 64);

// `grid locate`: collapsed coordinate, core (and device), offset in the
// shard, tile and position in the tile, byte offset.
std::string FormatElementLocation(const MetalLayout& layout,
                                  absl::Span<const int64_t> index,
                                  const ElementLocation& location);

// `grid collapse`: the `<>` notation, the map and the whole tensor type
// (which `grid explain` reads).
std::string FormatCollapse(const MetalLayout& layout,
                           absl::string_view intervals);

// The current forms' texts (views/ttmlir_layout_text.cc).
// `grid explain` for a TTNN or reworked metal layout, notes included (the
// caller prints the warnings).
std::string FormatTtnnExplanation(const GridAnalysis& analysis,
                                  int64_t max_shard_lines = 64);
std::string FormatMetalExplanation(const GridAnalysis& analysis,
                                   int64_t max_shard_lines = 64);

// `grid locate`.
std::string FormatTtnnLocation(const TtnnLayoutAttr& layout,
                               absl::Span<const int64_t> index,
                               const TtnnAttrLocation& location);
std::string FormatMetalLocation(const TtcoreMetalLayout& layout,
                                absl::Span<const int64_t> index,
                                const MetalLocation& location);

// "(0,0)-(7,0), (0,1)-(3,1)"
std::string CoreRangesShort(absl::Span<const tenstorrent::CoreRange> ranges);

}  // namespace hlolayout::grid

#endif  // HLOLAYOUT_VIEWS_TTMLIR_TEXT_H_
