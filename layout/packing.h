// layout/packing.h: where a sub-byte element sits inside its byte when a
// layout packs elements (E(n)).
//
//   s4[8]{0:E(4)} holding [1,2,3,4,5,6,7,-8] is the bytes 0x21 0x43 0x65 0x87
//   with the default kLowFirst order: element 0 is bits 3..0 of byte 0,
//   element 1 bits 7..4. kHighFirst gives the mirror image 0x12 0x34 0x56
//   0x78.
//
// kLowFirst is what today's XLA does (measured on the XLA inside jaxlib
// 0.11.2; see docs/relayout.md). kHighFirst is what older XLA sources did
// (`PackIntN` in xla/util.h at some 2023-2024 commits, which shifted even
// elements left by 4).
#ifndef HLOLAYOUT_LAYOUT_PACKING_H_
#define HLOLAYOUT_LAYOUT_PACKING_H_

#include <cstdint>

#include "absl/strings/string_view.h"
#include "absl/types/optional.h"

namespace hlolayout {

enum class PackingOrder {
  kLowFirst,   // lower linear index in the less significant bits (default)
  kHighFirst,  // lower linear index in the more significant bits
};

// "low-first", "high-first".
absl::string_view PackingOrderName(PackingOrder order);
// The inverse of PackingOrderName; nullopt for anything else.
absl::optional<PackingOrder> PackingOrderFromName(absl::string_view name);

// The shift (from the least significant bit of the byte) of an element of
// `element_bits` bits whose bits start at `bit_in_stream` (0..7) of the
// packed bit stream: low-first is the stream position itself, high-first is
// 8 - element_bits - bit_in_stream.
// @pre 1 <= element_bits <= 8, bit_in_stream + element_bits <= 8.
inline int PackedShift(int bit_in_stream, int element_bits,
                       PackingOrder order) {
  return order == PackingOrder::kLowFirst ? bit_in_stream
                                          : 8 - element_bits - bit_in_stream;
}

}  // namespace hlolayout

#endif  // HLOLAYOUT_LAYOUT_PACKING_H_
