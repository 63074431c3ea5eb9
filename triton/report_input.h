// triton/report_input.h: what `hlolayout triton report` reads besides
// the TTGIR text: a Triton cache entry (the folder, or its metadata JSON),
// the Triton release whose rules the figures follow, and the defaults an
// implicit or terse module leaves to Triton (docs/triton.md, "Kernel
// reports").
//
//   ReportInput in = *ReadReportInput("~/.triton/cache/F6MD.../");
//   in.text              // the folder's k.ttgir
//   in.triton_version    // "3.6.0", from k.json's "triton_version"
//   ReleaseRules r = *RulesFor(in, /*flag=*/"");
//   r.said               // "Triton 3.6.0's rules (from k.json)"
#ifndef HLOLAYOUT_TRITON_REPORT_INPUT_H_
#define HLOLAYOUT_TRITON_REPORT_INPUT_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "hlolayout/triton/cvt_target.h"
#include "hlolayout/triton/ttgir_parser.h"

namespace hlolayout::triton {

// Text given as such is a ReportInput of the text and a name for messages,
// no metadata: the CLI names standard input "<stdin>", hl.triton.report a
// string "<text>".
struct ReportInput {
  std::string text;            // the TTGIR
  std::string file;            // its name in messages ("<stdin>" for '-')
  std::string metadata;        // the metadata JSON read ("" when none)
  std::string triton_version;  // its "triton_version" ("" when none)
};

// ReadReportInput
//
// `arg`: a .ttgir file (its metadata is the
// KERNEL.json beside it, when there is one), a Triton cache entry's folder
// (its one .ttgir file and the .json of the same name) or the metadata
// JSON itself (the .ttgir of the same name beside it; also the entry's
// `__grp__KERNEL.json`). Errors name what is missing.
absl::StatusOr<ReportInput> ReadReportInput(const std::string& arg);

// The Triton release whose lowering the figures follow, and the words
// that say so.
struct ReleaseRules {
  TritonVersion version = kNewestTriton;
  std::string said;  // "Triton 3.9.0's rules (the newest; ...)"
};

// RulesFor
//
// `--triton` (`flag`, "" when not given) wins; else the metadata's
// release: 3.6.x follows 3.6.0's rules, 3.9.x 3.9.0's, another release
// the nearest modelled one, said so; else the newest, said so.
// InvalidArgument for a bad flag.
absl::StatusOr<ReleaseRules> RulesFor(const ReportInput& in,
                                      absl::string_view flag);

// The module facts the text leaves to defaults, as JSON keys name them
// ("num_warps", "threads_per_warp", "num_ctas", "target").
std::vector<std::string> DefaultedFacts(const TtgirModule& m);

}  // namespace hlolayout::triton

#endif  // HLOLAYOUT_TRITON_REPORT_INPUT_H_
