#include "hlolayout/draw/palette.h"

namespace hlolayout::draw {
namespace {

// Tol's light scheme without its pale grey (kept for padding).
constexpr absl::string_view kColours[kPaletteSize] = {
    "#77AADD", "#EE8866", "#44BB99", "#EEDD88",
    "#FFAABB", "#99DDFF", "#BBCC33", "#AAAA00",
};
// Nearest xterm-256 entries (6x6x6 cube: 16 + 36r + 6g + b).
constexpr int kAnsi[kPaletteSize] = {110, 209, 79, 222, 217, 153, 149, 142};

// CuTe's TikzColor_TV (include/cute/util/print_latex.hpp) and the nearest
// xterm-256 cube entries (levels 0,95,135,175,215,255).
constexpr absl::string_view kTvColours[8] = {
    "#AFAFFF", "#AFFFAF", "#FFFFAF", "#FFAFAF",
    "#D2D2FF", "#D2FFD2", "#FFFFD2", "#FFD2D2",
};
constexpr int kTvAnsi[8] = {147, 157, 229, 217, 189, 194, 230, 224};

int Wrap(int64_t k) {
  int64_t m = k % kPaletteSize;
  if (m < 0) m += kPaletteSize;
  return static_cast<int>(m);
}

}  // namespace

absl::string_view PaletteColour(int64_t k) { return kColours[Wrap(k)]; }
int PaletteAnsi256(int64_t k) { return kAnsi[Wrap(k)]; }

absl::string_view CuteTvColour(int64_t thread) {
  return kTvColours[thread % 8];
}
int CuteTvAnsi256(int64_t thread) { return kTvAnsi[thread % 8]; }

}  // namespace hlolayout::draw
