#include "hlolayout/ttnn/tensor_layout.h"

#include <algorithm>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "hlolayout/ttnn/refusal.h"
#include "hlolayout/util/int_math.h"

namespace hlolayout::ttnn {

std::vector<int64_t> DefaultAlignment(const PageConfig& page,
                                      const MemoryConfig& memory) {
  if (page.layout == Layout::kTile) return {page.tile.height, page.tile.width};
  if (memory.shard_spec) return {memory.shard_spec->shape[1]};
  if (memory.nd_shard_spec && !memory.nd_shard_spec->shard_shape.empty()) {
    return {memory.nd_shard_spec->shard_shape.back()};
  }
  return {1};
}

absl::StatusOr<std::vector<int64_t>> PaddedShape(
    absl::Span<const int64_t> shape, absl::Span<const int64_t> alignment) {
  const int rank = static_cast<int>(shape.size());
  const int arank = static_cast<int>(alignment.size());
  std::vector<int64_t> padded(std::max(rank, arank));
  int ri = rank - 1, ai = arank - 1, pi = static_cast<int>(padded.size()) - 1;
  int64_t accumulated = 1;
  for (; ai >= 0; --ri, --ai, --pi) {
    const int64_t value = ri >= 0 ? shape[ri] : 1;
    const int64_t align = alignment[ai];
    int64_t& out = padded[pi];
    if (ri >= rank - 2) {
      out = RoundUp(value, align);
    } else if (accumulated % align == 0) {
      out = value;  // this dim's alignment is implied by the inner ones
    } else if (align % accumulated == 0) {
      out = RoundUp(value, align / accumulated);
    } else {
      return absl::InvalidArgumentError(
          "tt-metal cannot deduce a padded shape from this alignment");
    }
    if (ri != rank - 1) {
      absl::StatusOr<int64_t> a = CheckedMul(accumulated, out, "padded shape");
      if (!a.ok()) return a.status();
      // Only divisibility matters from here on; keep the value small.
      accumulated = *a;
    }
  }
  for (; ri >= 0; --ri, --pi) padded[pi] = shape[ri];
  return padded;
}

absl::StatusOr<std::array<int64_t, 2>> Logical2dShape(
    absl::Span<const int64_t> shape) {
  if (shape.size() < 2) return std::array<int64_t, 2>{1, DimFromEnd(shape, 1)};
  int64_t height = 1;
  for (size_t i = 0; i + 1 < shape.size(); ++i) {
    absl::StatusOr<int64_t> h = CheckedMul(height, shape[i], "tensor height");
    if (!h.ok()) return h.status();
    height = *h;
  }
  return std::array<int64_t, 2>{height, shape.back()};
}

absl::StatusOr<std::array<int64_t, 2>> PhysicalShape(
    absl::Span<const int64_t> shape, absl::Span<const int64_t> alignment) {
  const int rank = static_cast<int>(shape.size());
  const int arank = static_cast<int>(alignment.size());
  int64_t width = 1, height = 1;
  for (int i = 1; i <= std::max(rank, arank); ++i) {
    int64_t& dim = i == 1 ? width : height;
    if (i <= rank) {
      absl::StatusOr<int64_t> d =
          CheckedMul(dim, shape[rank - i], "physical shape");
      if (!d.ok()) return d.status();
      dim = *d;
    }
    if (i <= arank) {
      const int64_t a = alignment[arank - i];
      if (a != 0 && dim > INT64_MAX - a) {
        return absl::InvalidArgumentError(
            "the physical shape does not fit in 64 bits");
      }
      dim = RoundUp(dim, a);
    }
  }
  return std::array<int64_t, 2>{height, width};
}

absl::StatusOr<std::array<int64_t, 2>> PageShape(
    const std::array<int64_t, 2>& physical, DataType dtype,
    const PageConfig& page, const MemoryConfig& memory) {
  if (page.layout == Layout::kTile) {
    return std::array<int64_t, 2>{page.tile.height, page.tile.width};
  }
  absl::optional<int64_t> element = RowMajorElementBytes(dtype);
  if (physical[0] == 0 || physical[1] == 0) {
    if (!element) {
      return Refused(rule::kRowMajorElementSize,
                     absl::StrCat("tt-metal has no row-major element size for ",
                                  DataTypeName(dtype),
                                  " (page_config.cpp: \"Unsupported data "
                                  "type!\")"));
    }
    return std::array<int64_t, 2>{1, 4 / *element};
  }
  if (memory.shard_spec &&
      memory.layout != TensorMemoryLayout::kHeightSharded) {
    return std::array<int64_t, 2>{1, memory.shard_spec->shape[1]};
  }
  if (memory.sharded() && memory.nd_shard_spec) {
    return std::array<int64_t, 2>{
        1, DimFromEnd(memory.nd_shard_spec->shard_shape, 1)};
  }
  return std::array<int64_t, 2>{1, physical[1]};
}

absl::StatusOr<int64_t> PageBytes(const std::array<int64_t, 2>& page_shape,
                                  DataType dtype, const PageConfig& page,
                                  int64_t l1_alignment) {
  if (page.layout == Layout::kTile) {
    const int64_t tiles =
        page_shape[0] / page.tile.height * page_shape[1] / page.tile.width;
    return CheckedMul(tiles, TileBytes(page.tile, dtype, l1_alignment),
                      "page size");
  }
  absl::optional<int64_t> element = RowMajorElementBytes(dtype);
  if (!element) {
    return Refused(rule::kRowMajorElementSize,
                   absl::StrCat("tt-metal has no row-major element size for ",
                                DataTypeName(dtype),
                                " (page_config.cpp: \"Unsupported data "
                                "type!\")"));
  }
  absl::StatusOr<int64_t> elements =
      CheckedMul(page_shape[0], page_shape[1], "page size");
  if (!elements.ok()) return elements.status();
  return CheckedMul(*elements, *element, "page size");
}

absl::StatusOr<std::vector<int64_t>> Strides(
    absl::Span<const int64_t> shape, absl::Span<const int64_t> alignment) {
  const int rank = static_cast<int>(shape.size());
  const int arank = static_cast<int>(alignment.size());
  std::vector<int64_t> strides(rank, 1);
  for (int i = rank - 2; i >= 0; --i) {
    absl::StatusOr<int64_t> s =
        CheckedMul(strides[i + 1], shape[i + 1], "stride");
    if (!s.ok()) return s.status();
    strides[i] = *s;
    const int a = i - (rank - arank) + 1;
    if (a >= 0) {
      if (strides[i] > INT64_MAX - alignment[a]) {
        return absl::InvalidArgumentError("the strides do not fit in 64 bits");
      }
      strides[i] = RoundUp(strides[i], alignment[a]);
    }
  }
  return strides;
}

}  // namespace hlolayout::ttnn
