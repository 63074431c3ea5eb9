// ttnn/locate.h: where one element of a TTNN tensor lives: its page, its
// byte in the page, and the bank or core and offset holding that page.
//
// Host pages are the pages of the padded shape in row-major order (a tile,
// or one row segment of page width). Inside a tile, elements are stored face
// by face (faces row-major in the tile, elements row-major in the face):
// byte = (face * face_area + row_in_face * face_width + col_in_face) *
// element bytes. Block floats keep their exponent section (one byte per
// face row, rounded up to the L1 alignment) before the mantissas: the
// element's mantissa is at exponents + position (bfloat8_b) or + position/2
// (bfloat4_b, low nibble first), its exponent at face * face_height +
// row_in_face. Row-major pages hold their row segment element by element.
//
// Interleaved: page p is in bank p mod banks, at (p div banks) * aligned
// page size from the buffer's base in that bank. Sharded: the buffer
// distribution places the page on a core as device page d, at d * aligned
// page size from the buffer's base on that core.
//
//   // bfloat16[272, 58], 32x32 tiles, HEIGHT_SHARDED [96, 64] on 3 cores:
//   Locate(spec, {100, 20}) -> host page 6 (row 4, col 20 of its tile),
//   byte (1*256 + 4*16 + 4) * 2 = 648, core (1,0), device page 0, offset 648
#ifndef HLOLAYOUT_TTNN_LOCATE_H_
#define HLOLAYOUT_TTNN_LOCATE_H_

#include <array>
#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/optional.h"
#include "absl/types/span.h"
#include "hlolayout/tenstorrent/buffer.h"
#include "hlolayout/ttnn/core_range.h"
#include "hlolayout/ttnn/tensor_spec.h"

namespace hlolayout::ttnn {

// Interleaved pages go to the banks as tenstorrent/buffer.h's
// InterleavedPage deals them.
using tenstorrent::BankPage;
using tenstorrent::InterleavedPage;

struct ElementPlace {
  std::vector<int64_t> index;
  int64_t host_page = 0;
  std::array<int64_t, 2> in_page{};  // (row, col) inside the page
  int64_t byte_in_page = 0;          // the element's (mantissa's) first byte
  absl::optional<int64_t> exponent_byte_in_page;  // block floats
  bool low_nibble = false;  // bfloat4_b: the mantissa's half of its byte

  // Interleaved.
  absl::optional<int64_t> bank;
  absl::optional<int64_t> page_in_bank;
  // Sharded.
  absl::optional<int64_t> shard;
  absl::optional<int64_t> core_index;  // into distribution()->cores()
  absl::optional<CoreCoord> core;
  absl::optional<int64_t> device_page;
  // Bytes from the buffer's base in its bank (interleaved) or on its core.
  int64_t offset = 0;
};

// Locate
//
// Errors: an index of the wrong rank, or out of the logical shape
// ("index 272 is out of bounds for dim 0 of size 272").
absl::StatusOr<ElementPlace> Locate(const TensorSpec& spec,
                                    absl::Span<const int64_t> index);

// The host page of a padded-shape coordinate, the (row, col) in the page,
// and the byte offsets in the page, as above. Precondition: `index` is
// within the padded shape.
void PagePosition(const TensorSpec& spec, absl::Span<const int64_t> index,
                  ElementPlace* place);

}  // namespace hlolayout::ttnn

#endif  // HLOLAYOUT_TTNN_LOCATE_H_
