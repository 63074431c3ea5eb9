// answers/indexing.h: the answers of `hlolayout index`, `element` and
// `tiling` (where one element lives, which element or padding an offset
// holds, a layout's tiling steps with sizes), each a value with one field
// list (util/fields.h: its JSON is AnswerJson(answer)); their texts are
// views (views/indexing_text.h). The CLI parses its arguments, asks for an
// answer and prints its JSON or its view.
//
//   Shape s = *ParseShape("s4[5,3]{1,0:T(2,2)E(4)}");
//   TiledIndexer t = *TiledIndexer::Create(s);
//   IndexAnswer a = *AnswerIndex(s, t, {3, 2}, PackingOrder::kLowFirst,
//                                /*with_bits=*/true);
//   a.offset;       // 14
//   AnswerJson(a);  // {"shape": ..., "index": [3, 2], "offset": 14, ...}
//   AnswerElement(s, t, 3)->index;  // {1, 1}
//   Shape f = *ParseShape("f32[3,5]{1,0:T(2,2)}");
//   AnswerElement(f, *TiledIndexer::Create(f), 18)->kind;
//   // OffsetKind::kTilePadding
//   AnswerTiling(f)->sizes.padded_bytes;  // 96
#ifndef HLOLAYOUT_ANSWERS_INDEXING_H_
#define HLOLAYOUT_ANSWERS_INDEXING_H_

#include <cstdint>
#include <optional>
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
#include "hlolayout/util/fields.h"

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

  // The JSON: byte and bit null when the bit position overflowed or was
  // not asked for; packing for sub-byte elements only.
  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const IndexAnswer& a) {
    const BitPosition* b = a.bits.ok() ? &*a.bits : nullptr;
    f.Type("IndexAnswer", "Where the element at a logical index lives.");
    f("shape", a.shape, "The shape with its layout.");
    f("index", a.index, "The logical index.");
    f("offset", a.offset, "Its offset in elements, padding included.");
    f("byte", b ? std::optional<int64_t>(b->byte) : std::nullopt,
      "Its byte, or None.");
    f("bit", b ? std::optional<int64_t>(b->shift) : std::nullopt,
      "Its first bit in the byte, or None.");
    f("bit_offset",
      b && b->bit_offset >= 0 ? std::optional<int64_t>(b->bit_offset)
                              : std::nullopt,
      "Its bit offset, or None.");
    f("packing",
      a.packed ? Omit<std::string>(std::string(PackingOrderName(a.order)))
               : Omit<std::string>(),
      "Sub-byte elements: the packing order.");
  }
};

// AnswerIndex
//
// `indexer` is TiledIndexer::Create(shape). Errors: an index of the wrong
// rank or out of bounds.
absl::StatusOr<IndexAnswer> AnswerIndex(const Shape& shape,
                                        const TiledIndexer& indexer,
                                        absl::Span<const int64_t> index,
                                        PackingOrder order, bool with_bits);

// What an element offset holds.
struct ElementAnswer {
  std::string shape;
  int64_t offset = 0;
  OffsetKind kind = OffsetKind::kElement;
  std::vector<int64_t> index;  // when kind is kElement

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const ElementAnswer& a) {
    f.Type("ElementAnswer", "What an element offset holds.");
    f("shape", a.shape, "The shape with its layout.");
    f("offset", a.offset, "The offset, in elements.");
    f("kind", std::string(OffsetKindName(a.kind)),
      "'element' or the padding's kind.");
    f("index",
      a.kind == OffsetKind::kElement ? Omit<std::vector<int64_t>>(a.index)
                                     : Omit<std::vector<int64_t>>(),
      "An element's logical index.");
  }
};

// AnswerElement
//
// Errors: a negative offset or one past the array's padded size.
absl::StatusOr<ElementAnswer> AnswerElement(const Shape& shape,
                                            const TiledIndexer& indexer,
                                            int64_t offset);

// One tile level of a tiling answer's JSON.
struct TilingLevelAnswer {
  std::string tile;
  std::vector<int64_t> input, combined, padded, reshape, permutation, output;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const TilingLevelAnswer& l) {
    f.Type("TilingLevelAnswer", "One tile as pad, reshape, transpose.");
    f("tile", l.tile, "The tile as written.");
    f("input", l.input, "The shape it applies to.");
    f("combined", l.combined, "After `*` merging and leading 1s.");
    f("padded", l.padded, "Padded to the tile.");
    f("reshape", l.reshape, "Split into tiles.");
    f("permutation", l.permutation, "The transpose.");
    f("output", l.output, "The shape after it.");
  }
};

// The sizes of `dims`, the levels and the padding's reasons of a tiling
// answer's JSON.
std::vector<int64_t> TilingSizes(const std::vector<TilingDim>& dims);
std::vector<TilingLevelAnswer> TilingLevels(const TilingModel& model);
std::vector<std::string> TilePaddingReasons(
    const std::vector<TilePadding>& padding);

// A tiled layout as pad-reshape-transpose steps, with the sizes.
struct TilingAnswer {
  std::string shape;
  TilingModel model;
  ArraySizes sizes;
  std::vector<TilePadding> padding;  // why each padding is there

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const TilingAnswer& a) {
    f.Type("TilingAnswer", "A tiled layout as pad-reshape-transpose steps.");
    f("shape", a.shape, "The shape with its layout.");
    f("physical", TilingSizes(a.model.physical), "The physical shape.");
    f("levels", TilingLevels(a.model), "Each tile.");
    f("final", a.model.final_dims, "The shape after the last tile.");
    f("logical_elements", a.sizes.logical_elements, "Logical elements.");
    f("tiled_elements", a.sizes.tiled_elements, "After tiling.");
    f("padded_elements", a.sizes.padded_elements, "With all padding.");
    f("logical_bytes", a.sizes.logical_bytes, "Logical bytes.");
    f("padded_bytes", a.sizes.padded_bytes, "Bytes with padding.");
    f("padding", TilePaddingReasons(a.padding), "Why each padding is there.");
  }
};

// AnswerTiling
//
// Errors: the layout is not valid for the shape (BuildTilingModel's),
// overflow.
absl::StatusOr<TilingAnswer> AnswerTiling(const Shape& shape);

}  // namespace hlolayout

#endif  // HLOLAYOUT_ANSWERS_INDEXING_H_
