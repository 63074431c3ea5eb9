// views/cute_atom_text.h: CuTe's print() of atoms, tiled MMAs and tiled
// copies, and the texts `hlolayout cute atom`, `tiled-mma` and `tiled-copy`
// print: views of their answers (answers/cute.h), each the answer's field
// list as text (FieldListText, util/fields.h), so that print(), the CLI's
// text and its --json cannot disagree. Python's str() of the same objects
// is the print() here.
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
//   ThreadCoordsText(*ThreadCoordsOfMma(tm, 5));
//   // thread 5 of 128
//   // A (m,k): (1,2) (1,3) (9,2) ...
#ifndef HLOLAYOUT_VIEWS_CUTE_ATOM_TEXT_H_
#define HLOLAYOUT_VIEWS_CUTE_ATOM_TEXT_H_

#include <string>

#include "hlolayout/answers/cute.h"
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

// `cute atom`'s text: the print() with, for copies, the bit layouts
// (SrcLayout, DstLayout, RefLayout).
std::string AnyAtomText(const AnyAtom& atom);

// `cute tiled-mma`'s and `tiled-copy`'s texts: the print() then the tile
// and the TV layouts.
std::string TiledMmaText(const TiledMma& tm);
std::string TiledCopyText(const TiledCopy& tc);

// "thread 5 of 128\nA (m,k): (0,2) (0,3) ...\n".
std::string ThreadCoordsText(const ThreadCoords& c);

}  // namespace hlolayout::cute

#endif  // HLOLAYOUT_VIEWS_CUTE_ATOM_TEXT_H_
