// cute/atom/tile.h: CuTe's Tile<...>, the by-mode tilers of tiled MMAs and
// tiled copies.
//
// A Tile is a tuple whose modes are each `_` (keep the mode), an integer n
// (the layout n:1) or a layout. It is what make_tiled_mma takes as its
// permutation and what a TiledCopy calls Tiler_MN. It prints as CuTe prints
// it and parses from that text or the docs' angle-bracket form:
//
//   ParseTile("<_32,_32,_16>")                    prints (_32,_32,_16)
//   ParseTile("<_,(_8,_2,_2):(_1,_16,_8),_>")     prints
//   (_,(_8,_2,_2):(_1,_16,_8),_) ParseTile("(16,32)") prints (_16,_32)
//
// Integers are static in CuTe's sense (every permutation is): they print
// with a `_` whether or not the input had one.
#ifndef HLOLAYOUT_CUTE_ATOM_TILE_H_
#define HLOLAYOUT_CUTE_ATOM_TILE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "hlolayout/cute/layout.h"
#include "hlolayout/cute/tiler.h"

namespace hlolayout::cute {

// TileMode
//
// One mode of a Tile.
class TileMode {
 public:
  enum class Kind { kUnderscore, kInteger, kLayout };

  // `_`.
  TileMode() = default;
  static TileMode Integer(int64_t n);
  static TileMode Of(Layout layout);

  Kind kind() const { return kind_; }
  bool is_underscore() const { return kind_ == Kind::kUnderscore; }
  // integer
  //
  // Precondition: kind() == kInteger (CHECK).
  int64_t integer() const;
  // layout
  //
  // The layout of an integer mode is CuTe's make_layout(n): n:1, or 1:0
  // for n == 1. Precondition: !is_underscore() (CHECK).
  const Layout& layout() const;
  // size
  //
  // n, or the layout's size. Precondition: !is_underscore() (CHECK).
  int64_t size() const;

  friend bool operator==(const TileMode& a, const TileMode& b) {
    return a.kind_ == b.kind_ && a.layout_ == b.layout_;
  }

 private:
  Kind kind_ = Kind::kUnderscore;
  Layout layout_;
};

using Tile = std::vector<TileMode>;

// ParseTile
//
// `<m0, m1, ...>` or `(m0,m1,...)`, each mode `_`, an integer (with or
// without `_`) or a layout `shape:stride`. Errors point into `text` with a
// caret (parser/diagnostic.h). At most 8 modes.
absl::StatusOr<Tile> ParseTile(absl::string_view text);

// TileText
//
// CuTe's print: `(_32,(_8,_2,_2):(_1,_16,_8),_)`.
std::string TileText(const Tile& tile);

// TileModeText
//
// One mode as CuTe prints it: `_`, `_32`, `(_8,_2):(_2,_1)`.
std::string TileModeText(const TileMode& mode);

// ToTiler
//
// The cute/tiler.h value with the same meaning (an integer becomes its
// layout), for composition, logical_divide and zipped_divide.
Tiler ToTiler(const Tile& tile);

}  // namespace hlolayout::cute

#endif  // HLOLAYOUT_CUTE_ATOM_TILE_H_
