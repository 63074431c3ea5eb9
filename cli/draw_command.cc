// `hlolayout draw SHAPE`: a picture of where each element of an XLA array
// lives (views/layout_picture.h), as terminal text or SVG.
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "hlolayout/cli/args.h"
#include "hlolayout/cli/command.h"
#include "hlolayout/cli/draw_output.h"
#include "hlolayout/cli/input.h"
#include "hlolayout/parser/shape_parser.h"
#include "hlolayout/views/layout_picture.h"

namespace hlolayout::cli {
namespace {

constexpr absl::string_view kDrawHelp =
    R"(usage: hlolayout draw SHAPE|- [--svg FILE|-] [--view logical|memory|both]
                      [--slice I,J,...] [--ascii] [--color auto|always|never]

Draws where each element of an array lives, in two views:
  logical  the array as a grid (the two most minor physical dims as rows and
           columns), each cell labelled with its element's offset, coloured
           by tile; padding the tiles add is hatched ('.' in text)
  memory   the buffer in offset order, one tile per row, each slot labelled
           with the logical index it holds; 'pad' = tile padding, 'tail' =
           L(n) tail padding; sub-byte types show which slots share a byte
Without --svg the picture is text for the terminal (box-drawing characters,
colours only on a terminal with NO_COLOR unset). Arrays that need more than
4,096 cells (text: 1,024 cells or 32 columns) are drawn at tile granularity,
one cell per block of tiles, and the picture states the scale.

flags:
  --svg FILE   write a self-contained SVG (views side by side); '-' = stdout
  --view V     logical, memory or both (default both)
  --slice IDX  the indices of the other dims (rank or rank-2 entries;
               default all 0)
  --ascii      + - | instead of box-drawing characters (text only)
  --color WHEN auto (default), always or never (text only)
  --help       this text

SVG contract: each element cell is <g class="element" data-index="i,j"
data-offset="N">, each padding slot <g class="padding ..." data-offset="N">,
each cell has a <title>.

examples:
  hlolayout draw 'f32[3,5]{1,0:T(2,2)}'
  hlolayout draw 'f32[4,8]{1,0:T(2,4)(2,1)}' --svg fig2.svg
  hlolayout draw 's4[4,8]{1,0:T(2,4)E(4)}' --view memory
  hlolayout draw 'bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}' --svg big.svg
)";

absl::StatusOr<std::vector<int64_t>> ParseSlice(absl::string_view text) {
  std::vector<int64_t> out;
  text = absl::StripAsciiWhitespace(text);
  if (text.empty()) return out;
  for (absl::string_view part : absl::StrSplit(text, ',')) {
    int64_t v;
    if (!absl::SimpleAtoi(absl::StripAsciiWhitespace(part), &v)) {
      return absl::InvalidArgumentError(
          absl::StrCat("bad --slice '", text, "': expected I,J,... integers"));
    }
    out.push_back(v);
  }
  return out;
}

int RunDraw(const std::vector<std::string>& raw, IoContext& io) {
  static constexpr absl::string_view kSwitches[] = {"ascii"};
  static constexpr absl::string_view kValued[] = {"svg", "view", "slice",
                                                  "color"};
  absl::StatusOr<Args> args = ParseArgs(raw, kSwitches, kValued);
  if (!args.ok()) {
    io.err << "hlolayout draw: " << args.status().message() << "\n";
    return 2;
  }
  if (args->positional.size() > 1) {
    io.err << "hlolayout draw: expects one SHAPE (hlolayout draw --help)\n";
    return 2;
  }
  absl::StatusOr<std::vector<std::string>> shapes =
      ShapeArguments(args->positional, "", io);
  if (!shapes.ok()) {
    io.err << "hlolayout draw: " << shapes.status().message() << "\n";
    return 1;
  }
  if (shapes->size() != 1) {
    io.err << "hlolayout draw: expects one SHAPE, got " << shapes->size()
           << "\n";
    return 2;
  }
  draw::LayoutDrawOptions options;
  absl::StatusOr<draw::View> view =
      draw::ParseView(args->Value("view", "both"));
  absl::StatusOr<std::vector<int64_t>> slice =
      ParseSlice(args->Value("slice", ""));
  absl::StatusOr<bool> colour = ShouldColour(args->Value("color", "auto"), io);
  for (const absl::Status& s :
       {view.status(), slice.status(), colour.status()}) {
    if (!s.ok()) {
      io.err << "hlolayout draw: " << s.message() << "\n";
      return 2;
    }
  }
  options.view = *view;
  options.slice = *slice;
  absl::StatusOr<Shape> shape = ParseShape((*shapes)[0]);
  if (!shape.ok()) {
    io.err << "hlolayout draw: " << shape.status().message() << "\n";
    return 1;
  }
  if (args->Has("svg")) {
    absl::StatusOr<std::string> svg = draw::LayoutSvg(*shape, options);
    absl::Status written =
        svg.ok() ? WriteSvg(args->Value("svg", "-"), *svg, io) : svg.status();
    if (!written.ok()) {
      io.err << "hlolayout draw: " << written.message() << "\n";
      return 1;
    }
    return 0;
  }
  absl::StatusOr<std::string> text = draw::LayoutText(
      *shape, options, draw::TextStyle{*colour, args->Has("ascii")});
  if (!text.ok()) {
    io.err << "hlolayout draw: " << text.status().message() << "\n";
    return 1;
  }
  io.out << *text;
  return 0;
}

}  // namespace

extern const Command kDrawCommand;
const Command kDrawCommand = {
    "draw",
    "a picture of a layout: logical and memory views, text or SVG",
    kDrawHelp,
    RunDraw,
};

}  // namespace hlolayout::cli
