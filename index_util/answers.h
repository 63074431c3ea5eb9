// index_util/answers.h: the answers of `hlolayout index`, `element` and
// `tiling` (where one element lives, which element or padding an offset
// holds, a layout's tiling steps with sizes), each with the text and JSON
// the CLI prints; the CLI parses its arguments and prints one of them.
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
#ifndef HLOLAYOUT_INDEX_UTIL_ANSWERS_H_
#define HLOLAYOUT_INDEX_UTIL_ANSWERS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "hlolayout/index_util/tiled_indexer.h"
#include "hlolayout/layout/offset_kind.h"
#include "hlolayout/layout/packing.h"
#include "hlolayout/layout/sizes.h"
#include "hlolayout/layout/tiling.h"
#include "hlolayout/shape/shape.h"

namespace hlolayout {

// Where the element at a logical index lives.
struct IndexAnswer {
  std::string shape;  // HumanStringWithLayout
  std::vector<int64_t> index;
  int64_t offset = 0;  // in elements, padding included
  // The bit position, when asked for; its own error when it overflows (the
  // offset alone needs no byte size).
  absl::StatusOr<BitPosition> bits = absl::UnknownError("not asked for");
  bool packed = false;  // sub-byte elements
  PackingOrder order = PackingOrder::kLowFirst;
};

// AnswerIndex
//
// `indexer` is TiledIndexer::Create(shape). Errors: an index of the wrong
// rank or out of bounds.
absl::StatusOr<IndexAnswer> AnswerIndex(const Shape& shape,
                                        const TiledIndexer& indexer,
                                        absl::Span<const int64_t> index,
                                        PackingOrder order, bool with_bits);

// `{"shape": ..., "index": [...], "offset": N, "byte": ..., "bit": ...,
// "bit_offset": ..., "packing": ...}` on one line (byte and bit null when
// the bit position overflowed or was not asked for; packing for sub-byte
// elements only).
std::string IndexAnswerJson(const IndexAnswer& a);

// "14\n", or with `with_bytes` "14 (byte 7)\n" ("..., bit 4, low-first)"
// for sub-byte elements). Precondition: with `with_bytes`, a.bits is OK.
std::string IndexAnswerText(const IndexAnswer& a, bool with_bytes);

// What an element offset holds.
struct ElementAnswer {
  std::string shape;
  int64_t offset = 0;
  OffsetKind kind = OffsetKind::kElement;
  std::vector<int64_t> index;  // when kind is kElement
};

// AnswerElement
//
// Errors: a negative offset or one past the array's padded size.
absl::StatusOr<ElementAnswer> AnswerElement(const Shape& shape,
                                            const TiledIndexer& indexer,
                                            int64_t offset);

// `{"shape": ..., "offset": N, "kind": "element", "index": [...]}` on one
// line (index for elements only), and "2,3\n" ("()" for a scalar's one
// element) or the kind's name ("tile padding\n").
std::string ElementAnswerJson(const ElementAnswer& a);
std::string ElementAnswerText(const ElementAnswer& a);

// "2,3" for an element of a rank-2 array, "()" for the one of a scalar.
std::string IndexText(absl::Span<const int64_t> index);

// A tiled layout as pad-reshape-transpose steps, with the sizes.
struct TilingAnswer {
  std::string shape;
  TilingModel model;
  ArraySizes sizes;
  std::vector<TilePadding> padding;  // why each padding is there
};

// AnswerTiling
//
// Errors: the layout is not valid for the shape (BuildTilingModel's),
// overflow.
absl::StatusOr<TilingAnswer> AnswerTiling(const Shape& shape);

// The steps in words with the byte sizes and the padding's reasons, and the
// same as one JSON line (physical, levels, final, the element and byte
// counts, padding).
std::string TilingAnswerText(const TilingAnswer& a);
std::string TilingAnswerJson(const TilingAnswer& a);

}  // namespace hlolayout

#endif  // HLOLAYOUT_INDEX_UTIL_ANSWERS_H_
