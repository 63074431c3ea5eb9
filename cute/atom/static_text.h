// cute/atom/static_text.h: CuTe's printed text for fully static values.
//
// Atoms, tiled MMAs and tiled copies are built by CuTe from compile-time
// integers only, so CuTe prints every integer of them with a `_` prefix
// (`_32:_1`, `((_4,_8),(_2,_2)):((_32,_1),(_16,_8))`). These functions print
// cute/ values that way; cute/parse.h reads the text back (the prefix is
// accepted there).
//
//   StaticText(Layout::Make(IntTuple::Tuple({4, 8}),
//                           IntTuple::Tuple({8, 1})))   == "(_4,_8):(_8,_1)"
//   StaticText(IntTuple(-2))                             == "_-2"
#ifndef HLOLAYOUT_CUTE_ATOM_STATIC_TEXT_H_
#define HLOLAYOUT_CUTE_ATOM_STATIC_TEXT_H_

#include <string>

#include "hlolayout/cute/int_tuple.h"
#include "hlolayout/cute/layout.h"

namespace hlolayout::cute {

// StaticText
//
// As cute/print.h's ToString, each integer written `_N` (`_-2` for a
// negative one, as CuTe prints Int<-2>).
std::string StaticText(const IntTuple& t);
std::string StaticText(const Layout& layout);

}  // namespace hlolayout::cute

#endif  // HLOLAYOUT_CUTE_ATOM_STATIC_TEXT_H_
