// views/indexing_text.h: the texts `hlolayout index`, `element` and
// `tiling` print, views of their answers (answers/indexing.h).
//
//   Shape s = *ParseShape("s4[5,3]{1,0:T(2,2)E(4)}");
//   TiledIndexer t = *TiledIndexer::Create(s);
//   IndexAnswer a = *AnswerIndex(s, t, {3, 2}, PackingOrder::kLowFirst,
//                                /*with_bits=*/true);
//   IndexAnswerText(a, /*with_bytes=*/true);  // "14 (byte 7, bit 0, ...)\n"
//   ElementAnswerText(*AnswerElement(s, t, 3));  // "1,1\n"
//   Shape f = *ParseShape("f32[3,5]{1,0:T(2,2)}");
//   ElementAnswerText(*AnswerElement(f, *TiledIndexer::Create(f), 18));
//   // "tile padding\n"
//   TilingAnswerText(*AnswerTiling(f));
//   // f32[3,5]{1,0:T(2,2)}
//   // physical [3,5] (dims 0,1, major to minor)
//   // T0 (2,2) on [3,5]: pad [4,6] reshape [2,2,3,2] ...
#ifndef HLOLAYOUT_VIEWS_INDEXING_TEXT_H_
#define HLOLAYOUT_VIEWS_INDEXING_TEXT_H_

#include <cstdint>
#include <string>

#include "absl/types/span.h"
#include "hlolayout/answers/indexing.h"

namespace hlolayout {

// "14\n", or with `with_bytes` "14 (byte 7)\n" ("..., bit 4, low-first)"
// for sub-byte elements). Precondition: with `with_bytes`, a.bits is OK.
std::string IndexAnswerText(const IndexAnswer& a, bool with_bytes);

// "2,3\n" ("()" for a scalar's one element) or the kind's name ("tile
// padding\n"). The JSON: {"shape": ..., "offset": N, "kind": "element",
// "index": [...]} (index for elements only).
std::string ElementAnswerText(const ElementAnswer& a);

// "2,3" for an element of a rank-2 array, "()" for the one of a scalar.
std::string IndexText(absl::Span<const int64_t> index);

// The steps in words with the byte sizes and the padding's reasons.
std::string TilingAnswerText(const TilingAnswer& a);

}  // namespace hlolayout

#endif  // HLOLAYOUT_VIEWS_INDEXING_TEXT_H_
