#include "hlolayout/index_util/xla_index_util.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "hlolayout/layout/offset_kind.h"
#include "hlolayout/layout/tiling.h"
#include "hlolayout/shape/primitive_type.h"
#include "hlolayout/shape/tile.h"
#include "hlolayout/util/check.h"

namespace hlolayout {
namespace {

absl::Status Overflow(absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat(what, " overflows int64"));
}

// The shape's dims and minor_to_major, validated (default layout if none).
absl::StatusOr<TilingModel> Untiled(const Shape& shape) {
  Shape copy = shape;
  if (copy.has_layout()) copy.mutable_layout()->clear_tiles();
  return BuildTilingModel(copy);
}

absl::Status CheckNoCombine(const Tile& tile, absl::string_view function) {
  for (int64_t t : tile.dimensions()) {
    if (t == Tile::kCombineDimension) {
      return absl::InvalidArgumentError(
          absl::StrCat(function, " does not handle `*` in the first tile ",
                       tile.ToString()));
    }
  }
  return absl::OkStatus();
}

// LayoutUtil::MaxSplitSize: the largest segment of the split config on the
// physical dim that maps to `dim`, or the whole size.
int64_t MaxSplitSize(const Shape& shape, int64_t dim) {
  const Layout& layout = shape.layout();
  const int64_t rank = shape.rank();
  for (const SplitConfig& config : layout.split_configs()) {
    if (config.dimension < 0 || config.dimension >= rank ||
        layout.minor_to_major(rank - 1 - config.dimension) != dim) {
      continue;
    }
    int64_t last = 0, largest = 0;
    for (int64_t split : config.split_indices) {
      largest = std::max(largest, split - last);
      last = split;
    }
    return std::max(largest, shape.dimension(dim) - last);
  }
  return shape.dimension(dim);
}

int64_t RoundUp(int64_t n, int64_t m, bool* overflow) {
  const int64_t q = n / m + (n % m != 0 ? 1 : 0);
  int64_t r;
  if (__builtin_mul_overflow(q, m, &r)) *overflow = true;
  return r;
}

}  // namespace

absl::StatusOr<int64_t> XlaMultidimensionalIndexToLinearIndex(
    const Shape& shape, absl::Span<const int64_t> multi_index) {
  absl::StatusOr<TilingModel> m = Untiled(shape);
  if (!m.ok()) return m.status();
  absl::Status s = CheckIndexInBounds(m->logical_dims, multi_index);
  if (!s.ok()) return s;
  int64_t linear = 0, stride = 1;
  for (int64_t d : m->minor_to_major) {
    linear += stride * multi_index[d];  // < elements: cannot overflow
    stride *= m->logical_dims[d];
  }
  return linear;
}

absl::StatusOr<std::vector<int64_t>> XlaLinearIndexToMultidimensionalIndex(
    const Shape& shape, int64_t linear_index) {
  absl::StatusOr<TilingModel> m = Untiled(shape);
  if (!m.ok()) return m.status();
  if (linear_index < 0 || linear_index >= m->logical_elements) {
    return absl::OutOfRangeError(absl::StrCat("linear index ", linear_index,
                                              " is outside [0, ",
                                              m->logical_elements, ")"));
  }
  std::vector<int64_t> index(m->rank());
  int64_t divisor = 1;
  for (int64_t d : m->minor_to_major) {
    index[d] = (linear_index / divisor) % m->logical_dims[d];
    divisor *= m->logical_dims[d];
  }
  return index;
}

absl::StatusOr<int64_t> XlaGetDimensionStride(const Shape& shape,
                                              int64_t dimension) {
  absl::StatusOr<TilingModel> m = Untiled(shape);
  if (!m.ok()) return m.status();
  if (dimension < 0 || dimension >= m->rank()) {
    return absl::OutOfRangeError(absl::StrCat(
        "dimension ", dimension, " out of range for rank ", m->rank()));
  }
  int64_t stride = 1;
  for (int64_t d : m->minor_to_major) {
    if (d == dimension) break;
    stride *= m->logical_dims[d];
  }
  return stride;
}

bool XlaBumpIndices(const Shape& shape, absl::Span<int64_t> indices) {
  HLOLAYOUT_CHECK(static_cast<int64_t>(indices.size()) == shape.rank())
      << "XlaBumpIndices: " << indices.size() << " indices for rank "
      << shape.rank();
  for (int64_t d = static_cast<int64_t>(indices.size()) - 1; d >= 0; --d) {
    if (++indices[d] < shape.dimension(d)) return true;
    indices[d] = 0;
  }
  return false;
}

bool XlaIndexInBounds(const Shape& shape, absl::Span<const int64_t> index) {
  if (static_cast<int64_t>(index.size()) != shape.rank()) return false;
  for (int64_t d = 0; d < shape.rank(); ++d) {
    if (index[d] >= shape.dimension(d)) return false;
  }
  return true;
}

int XlaCompareIndices(absl::Span<const int64_t> lhs,
                      absl::Span<const int64_t> rhs) {
  for (size_t i = 0; i < lhs.size(); ++i) {
    if (lhs[i] < rhs[i]) return -1;
    if (lhs[i] > rhs[i]) return 1;
  }
  return 0;
}

absl::StatusOr<int64_t> XlaLinearIndexFirstTileOnly(
    const Shape& shape, absl::Span<const int64_t> index) {
  absl::StatusOr<TilingModel> m = Untiled(shape);
  if (!m.ok()) return m.status();
  absl::Status s = CheckIndexInBounds(m->logical_dims, index);
  if (!s.ok()) return s;
  const int64_t rank = m->rank();
  if (rank == 0) return 0;
  if (rank == 1) return index[0];
  Tile tile;
  if (shape.has_layout() && !shape.layout().tiles().empty()) {
    tile = shape.layout().tiles()[0];
  }
  s = CheckNoCombine(tile, "LayoutUtil::LinearIndex");
  if (!s.ok()) return s;
  // 128-bit arithmetic with multipliers saturated at 2^63: a multiplier
  // that grew past int64 only matters if a non-zero index uses it, and then
  // the result does not fit either.
  using Wide = unsigned __int128;
  const Wide kCap = Wide{1} << 63;
  auto mul = [&](Wide a, Wide b) { return a * b > kCap ? kCap : a * b; };
  Wide tile_multiplier = 1;
  for (int64_t t : tile.dimensions()) {
    if (t <= 0) return absl::InvalidArgumentError("tile size must be > 0");
    tile_multiplier = mul(tile_multiplier, t);
  }
  Wide within = 1, linear = 0;
  const int64_t k = tile.rank();
  for (int64_t minor = 0; minor < rank; ++minor) {
    const int64_t dim = m->minor_to_major[minor];
    const int64_t size = m->logical_dims[dim];
    const int64_t i = index[dim];
    if (minor < k) {
      const int64_t t = tile.dimension(k - 1 - minor);
      linear += tile_multiplier * (i / t) + within * (i % t);
      tile_multiplier =
          mul(tile_multiplier, size / t + (size % t != 0 ? 1 : 0));
      within = mul(within, t);
    } else {
      linear += tile_multiplier * i;
      tile_multiplier = mul(tile_multiplier, size);
    }
    if (linear > static_cast<Wide>(INT64_MAX)) return Overflow("linear index");
  }
  return static_cast<int64_t>(linear);
}

absl::StatusOr<int64_t> XlaByteSizeOf(const Shape& shape,
                                      int64_t pointer_size) {
  if (shape.IsTuple()) {
    if (pointer_size <= 0) {
      return absl::InvalidArgumentError(
          "byte size of a tuple needs a pointer size");
    }
    int64_t bytes;
    if (__builtin_mul_overflow(pointer_size, shape.tuple_size(), &bytes)) {
      return Overflow("byte size");
    }
    return bytes;
  }
  if (shape.IsToken()) return 0;
  if (shape.IsOpaque()) {
    if (pointer_size <= 0) {
      return absl::InvalidArgumentError(
          "byte size of an opaque value needs a pointer size");
    }
    return pointer_size;
  }
  absl::StatusOr<TilingModel> m = Untiled(shape);
  if (!m.ok()) return m.status();
  return BytesForElements(m->logical_elements, m->element_bits, m->packed);
}

absl::StatusOr<int64_t> XlaArraySize(const Shape& shape) {
  absl::StatusOr<TilingModel> m = Untiled(shape);  // validates the basics
  if (!m.ok()) return m.status();
  if (!shape.has_layout() || shape.layout().tiles().empty()) {
    return BytesForElements(m->logical_elements, m->element_bits, m->packed);
  }
  const Tile& tile = shape.layout().tiles()[0];
  absl::Status s = CheckNoCombine(tile, "ShapeUtil::ArraySize");
  if (!s.ok()) return s;
  const int64_t k = tile.rank();
  const int64_t rank = m->rank();
  bool overflow = false;
  int64_t elems = 1;
  for (int64_t d = 0; d < k; ++d) {
    const int64_t t = tile.dimension(k - 1 - d);
    if (t <= 0) return absl::InvalidArgumentError("tile size must be > 0");
    const int64_t size =
        d < rank ? MaxSplitSize(shape, m->minor_to_major[d]) : 1;
    overflow |=
        __builtin_mul_overflow(elems, RoundUp(size, t, &overflow), &elems);
  }
  for (int64_t d = k; d < rank; ++d) {
    overflow |= __builtin_mul_overflow(
        elems, MaxSplitSize(shape, m->minor_to_major[d]), &elems);
  }
  const int64_t l = m->tail_alignment;
  if (l != 1) elems = RoundUp(elems, l, &overflow);
  if (overflow) return Overflow("array size");
  return BytesForElements(elems, m->element_bits, m->packed);
}

absl::StatusOr<int64_t> XlaArrayDataSize(const Shape& shape) {
  absl::StatusOr<TilingModel> m = Untiled(shape);
  if (!m.ok()) return m.status();
  if (m->logical_elements == 0) return 0;
  std::vector<int64_t> last;
  for (int64_t d : m->logical_dims) last.push_back(d - 1);
  absl::StatusOr<int64_t> index = XlaLinearIndexFirstTileOnly(shape, last);
  if (!index.ok()) return index.status();
  if (*index == INT64_MAX) return Overflow("array data size");
  return BytesForElements(*index + 1, m->element_bits, m->packed);
}

}  // namespace hlolayout
