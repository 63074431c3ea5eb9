// cli/draw_output.h: where the picture commands (draw, cute draw, grid
// draw) send their pictures.
//
//   hlolayout draw 'f32[3,5]{1,0:T(2,2)}'               text on stdout
//   hlolayout draw 'f32[3,5]{1,0:T(2,2)}' --svg out.svg  SVG file
//   hlolayout draw 'f32[3,5]{1,0:T(2,2)}' --svg -        SVG on stdout
//
// Text pictures are coloured (ANSI 256-colour backgrounds) when --color is
// "always", or "auto" (the default) with standard output a terminal and
// NO_COLOR unset or empty (https://no-color.org).
#ifndef HLOLAYOUT_CLI_DRAW_OUTPUT_H_
#define HLOLAYOUT_CLI_DRAW_OUTPUT_H_

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "hlolayout/cli/command.h"

namespace hlolayout::cli {

// Whether to colour text written to io.out. `when`: "auto", "always",
// "never"; errors: "bad --color 'x' (auto, always or never)".
absl::StatusOr<bool> ShouldColour(absl::string_view when, const IoContext& io);

// Writes `svg` to `path` ("-": io.out). Errors: "cannot write 'x.svg': ...".
absl::Status WriteSvg(absl::string_view path, const std::string& svg,
                      IoContext& io);

}  // namespace hlolayout::cli

#endif  // HLOLAYOUT_CLI_DRAW_OUTPUT_H_
