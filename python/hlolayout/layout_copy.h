// python/hlolayout/layout_copy.h: moves an array's bytes between its logical
// (row-major, one value per element) form and its physical buffer.
//
//   absl::StatusOr<LayoutCopy> c =
//       LayoutCopy::Create(*ParseShape("bf16[16,256]{1,0:T(8,128)(2,1)}"));
//   c->ToPhysical(logical_bytes, physical_bytes, /*threads=*/2);
//   // s4[8]{0:E(4)} of 1,2,3,4,5,6,7,-8 -> bytes 0x21 0x43 0x65 0x87
//
// The Python module's to_layout / from_layout / relayout use it. Logical
// buffers hold ByteWidth(type) bytes per element in row-major order (one
// byte per sub-byte value); physical buffers hold ComputeArraySizes'
// padded_bytes, element e at offset TiledIndexer::Offset(index), padding
// zero. E(n) packing puts element k at bits [k*n, k*n+n) counted from the
// least significant bit of byte 0 (today's XLA PackIntN order); unpacking
// sign-extends signed integer types.
#ifndef HLOLAYOUT_PYTHON_HLOLAYOUT_LAYOUT_COPY_H_
#define HLOLAYOUT_PYTHON_HLOLAYOUT_LAYOUT_COPY_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "hlolayout/index_util/tiled_indexer.h"
#include "hlolayout/shape/shape.h"

namespace hlolayout {

class LayoutCopy;
absl::Status RelayoutBytes(const LayoutCopy& from,
                           absl::Span<const uint8_t> src, const LayoutCopy& to,
                           absl::Span<uint8_t> dst, int threads);

class LayoutCopy {
 public:
  // Errors: not an array, dynamic dims, invalid layout, overflow, or an E(n)
  // other than 1, 2 or 4 bits narrower than the element.
  static absl::StatusOr<LayoutCopy> Create(const Shape& shape);

  int64_t logical_bytes() const { return logical_elements_ * width_; }
  int64_t physical_bytes() const { return physical_bytes_; }

  // Both require the exact sizes above ("... has N bytes, expected M").
  // ToPhysical zeroes the padding.
  absl::Status ToPhysical(absl::Span<const uint8_t> logical,
                          absl::Span<uint8_t> physical, int threads) const;
  absl::Status ToLogical(absl::Span<const uint8_t> physical,
                         absl::Span<uint8_t> logical, int threads) const;

 private:
  friend absl::Status RelayoutBytes(const LayoutCopy&,
                                    absl::Span<const uint8_t>,
                                    const LayoutCopy&, absl::Span<uint8_t>,
                                    int);
  struct Segment {  // logical [j, j + run) of a row at base + start + i*stride
    int64_t j, start, stride, run;
  };
  template <bool kToPhysical>
  void CopyRows(const uint8_t* src, uint8_t* dst, int64_t row_begin,
                int64_t row_end) const;
  template <bool kToPhysical>
  void CopyPacked(const uint8_t* src, uint8_t* dst) const;

  std::shared_ptr<const TiledIndexer> indexer_;
  PrimitiveType type_ = PRIMITIVE_TYPE_INVALID;
  int64_t logical_elements_ = 0;
  int64_t physical_bytes_ = 0;
  int64_t width_ = 0;  // logical bytes per element
  int64_t bits_ = 0;   // physical bits per element
  int64_t row_length_ = 1;
  int64_t rows_ = 0;
  // When last_dim_separable: the segments of every row, relative to the
  // row's base.
  std::vector<Segment> row_segments_;
};

// RelayoutBytes
//
// `src` in `from`'s physical layout -> `dst` in `to`'s; the shapes must have
// the same element type and dimensions.
absl::Status RelayoutBytes(const LayoutCopy& from,
                           absl::Span<const uint8_t> src, const LayoutCopy& to,
                           absl::Span<uint8_t> dst, int threads);

}  // namespace hlolayout

#endif  // HLOLAYOUT_PYTHON_HLOLAYOUT_LAYOUT_COPY_H_
