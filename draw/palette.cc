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

int Wrap(int64_t k) {
  int64_t m = k % kPaletteSize;
  if (m < 0) m += kPaletteSize;
  return static_cast<int>(m);
}

}  // namespace

absl::string_view PaletteColour(int64_t k) { return kColours[Wrap(k)]; }
int PaletteAnsi256(int64_t k) { return kAnsi[Wrap(k)]; }

}  // namespace hlolayout::draw
