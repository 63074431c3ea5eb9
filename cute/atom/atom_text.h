// cute/atom/atom_text.h: MMA and copy atoms, tiled MMAs and tiled copies as
// CuTe's print() shows them, and the answers of `hlolayout cute atom`,
// `tiled-mma` and `tiled-copy` (text and JSON); Python's str() of the same
// objects is the print() here.
//
//   MmaAtom a = *FindMmaAtom("SM80_16x8x16_F16F16F16F16_TN");
//   PrintMmaAtom(a);
//   // MMA_Atom
//   //   ThrID:      _32:_1
//   //   Shape_MNK:  (_16,_8,_16)
//   //   LayoutA_TV: ((_4,_8),(_2,_2,_2)):((_32,_1),(_16,_8,_128))
//   //   ...
//   TiledMmaText(tm);  // print(tiled_mma), then TileShape_MNK and the TV
//                      // layouts
//   AnyAtom x = *FindAnyAtom("SM75_U32x4_LDSM_N");  // a copy operation
#ifndef HLOLAYOUT_CUTE_ATOM_ATOM_TEXT_H_
#define HLOLAYOUT_CUTE_ATOM_ATOM_TEXT_H_

#include <array>
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "hlolayout/cute/atom/copy_atom.h"
#include "hlolayout/cute/atom/mma_atom.h"
#include "hlolayout/cute/atom/tiled_copy.h"
#include "hlolayout/cute/atom/tiled_mma.h"

namespace hlolayout::cute {

// CuTe's print() of each, every integer static (_N), ending in a newline.
std::string PrintMmaAtom(const MmaAtom& a);
std::string PrintCopyAtom(const CopyAtom& a);
std::string PrintTiledMma(const TiledMma& tm);    // with its atom
std::string PrintTiledCopy(const TiledCopy& tc);  // with its atom

// A name `hlolayout cute atom` takes: an MMA atom, a copy atom
// ("Copy_Atom<OP, T>") or a copy operation alone (its Copy_Traits).
using AnyAtom = std::variant<MmaAtom, CopyAtom, CopyOp>;

// FindAnyAtom
//
// Errors: a name no kind knows (NotFound, with the nearest names of both
// kinds), or the error of the kind whose family the name fits.
absl::StatusOr<AnyAtom> FindAnyAtom(absl::string_view name);

// `cute atom`'s answer: the print() with, for copies, the bit layouts
// (SrcLayout, DstLayout, RefLayout); and the same as one JSON line.
std::string AnyAtomText(const AnyAtom& atom);
std::string AnyAtomJson(const AnyAtom& atom);

// `cute tiled-mma`'s and `tiled-copy`'s answers: the print() then the tile
// and the TV layouts; and the same as one JSON line.
std::string TiledMmaText(const TiledMma& tm);
std::string TiledMmaJson(const TiledMma& tm);
std::string TiledCopyText(const TiledCopy& tc);
std::string TiledCopyJson(const TiledCopy& tc);

// What one thread holds: per operand (names "A", "B", "C" or "S", "D"), the
// tile coordinates of its values in value order.
struct ThreadCoords {
  int64_t thread = 0;
  int64_t num_threads = 0;
  // (name, what the coordinates are, e.g. "m,k"), the coordinates.
  std::vector<std::pair<std::array<std::string, 2>,
                        std::vector<std::array<int64_t, 2>>>>
      operands;
};

// ThreadCoordsOfMma, ThreadCoordsOfCopy
//
// Errors: a thread outside 0..num_threads-1.
absl::StatusOr<ThreadCoords> ThreadCoordsOfMma(const TiledMma& tm,
                                               int64_t thread);
absl::StatusOr<ThreadCoords> ThreadCoordsOfCopy(const TiledCopy& tc,
                                                int64_t thread);

// "thread 5 of 128\nA (m,k): (0,2) (0,3) ...\n", and
// {"thread": 5, "A": [[0, 2], ...], ...} on one line.
std::string ThreadCoordsText(const ThreadCoords& c);
std::string ThreadCoordsJson(const ThreadCoords& c);

}  // namespace hlolayout::cute

#endif  // HLOLAYOUT_CUTE_ATOM_ATOM_TEXT_H_
