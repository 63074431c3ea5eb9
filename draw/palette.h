// draw/palette.h: the colours every hlolayout picture uses.
//
// Paul Tol's "light" qualitative scheme (https://personal.sron.nl/~pault/,
// "Colour schemes and templates"), made for cells with dark text on them and
// distinguishable by readers with the common colour-vision deficiencies.
// Group k (a tile, a thread, a core) gets PaletteColour(k):
//
//   PaletteColour(0) == "#77AADD"   PaletteColour(8) == PaletteColour(0)
//
// Padding is never a palette colour: it is hatched grey (kPaddingColour).
// CuTe's thread colours (CuteTvColour) are a second, fixed table.
#ifndef HLOLAYOUT_DRAW_PALETTE_H_
#define HLOLAYOUT_DRAW_PALETTE_H_

#include <cstdint>

#include "absl/strings/string_view.h"

namespace hlolayout::draw {

inline constexpr int kPaletteSize = 8;

// "#RRGGBB" of group `k` (any k, negatives included), cycling every
// kPaletteSize groups.
absl::string_view PaletteColour(int64_t k);

// The xterm-256 colour closest to PaletteColour(k), for terminal pictures.
int PaletteAnsi256(int64_t k);

// CuteTvColour, CuteTvAnsi256
//
// CuTe's TikzColor_TV colour of a thread ("#RRGGBB", the thread-value
// pictures of views/tv_picture.h and TikZ's TikzTvColour) and its nearest
// xterm-256 colour. Precondition: thread >= 0.
absl::string_view CuteTvColour(int64_t thread);
int CuteTvAnsi256(int64_t thread);

inline constexpr absl::string_view kPaddingColour = "#DDDDDD";
inline constexpr absl::string_view kTileBorderColour = "#222222";
// Borders of the second tile level (XLA's figure draws them red): Tol's
// vibrant red, also distinct for colour-blind readers from the light fills.
inline constexpr absl::string_view kSubTileBorderColour = "#CC3311";

}  // namespace hlolayout::draw

#endif  // HLOLAYOUT_DRAW_PALETTE_H_
