#include "hlolayout/ttmlir/ttnn_layout.h"

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "hlolayout/util/int_math.h"

namespace hlolayout::grid {
namespace {

absl::Status Invalid(absl::string_view message) {
  return absl::InvalidArgumentError(message);
}

absl::StatusOr<int64_t> AlignUp(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(CeilDiv(a, b), b, &r)) {
    return Invalid("padded size overflows int64");
  }
  return r;
}

}  // namespace

absl::StatusOr<std::vector<int64_t>> TightTtnnStride(
    absl::Span<const int64_t> shape) {
  if (shape.empty()) return Invalid("a ttnn layout needs rank >= 1");
  std::vector<int64_t> stride(shape.size() + 1, 1);
  for (size_t k = shape.size(); k-- > 0;) {
    if (shape[k] < 1) {
      return Invalid(absl::StrCat("tensor dim ", k, " has size ", shape[k]));
    }
    if (__builtin_mul_overflow(stride[k + 1], shape[k], &stride[k])) {
      return Invalid("tensor volume overflows int64");
    }
  }
  return stride;
}

absl::StatusOr<TtnnLayout> MakeTtnnLayout(absl::Span<const int64_t> shape,
                                          absl::Span<const int64_t> stride,
                                          std::array<int64_t, 2> shard_shape,
                                          std::array<int64_t, 2> tile_shape) {
  absl::StatusOr<std::vector<int64_t>> tight = TightTtnnStride(shape);
  if (!tight.ok()) return tight.status();
  const size_t rank = shape.size();
  TtnnLayout layout;
  layout.shape.assign(shape.begin(), shape.end());
  layout.stride = stride.empty()
                      ? *tight
                      : std::vector<int64_t>(stride.begin(), stride.end());
  const std::vector<int64_t>& st = layout.stride;
  if (st.size() != rank + 1) {
    return Invalid(absl::StrCat("stride has ", st.size(), " entries; a rank ",
                                rank, " tensor needs ", rank + 1));
  }
  if (st[rank] != 1) {
    return Invalid(
        absl::StrCat("the innermost stride is ", st[rank], ", not 1"));
  }
  // The row pitch: the stride of dim rank-2 (the width of the plane).
  const int64_t pitch = st[rank - 1];
  if (pitch < shape[rank - 1]) {
    return Invalid(absl::StrCat("row pitch ", pitch,
                                " is smaller than the inner dim ",
                                shape[rank - 1]));
  }
  for (size_t k = 0; k + 1 < rank; ++k) {
    // st[k] holds dims k..rank-1 with stride st[k + 1] for dim k.
    int64_t span;
    if (__builtin_mul_overflow(shape[k], st[k + 1], &span)) {
      return Invalid("stride overflows int64");
    }
    if (st[k] < span) {
      return Invalid(
          absl::StrCat("stride ", st[k], " of ", k == 0 ? "the total" : "a dim",
                       " is smaller than the ", span, " elements it spans"));
    }
    if (st[k + 1] % pitch != 0) {
      return Invalid(absl::StrCat(
          "stride ", st[k + 1], " is not a multiple of the row pitch ", pitch));
    }
  }
  for (int i = 0; i < 2; ++i) {
    if (shard_shape[i] < 1) {
      return Invalid(absl::StrCat("shard dim ", i, " is ", shard_shape[i]));
    }
    if (tile_shape[i] < 1) {
      return Invalid(absl::StrCat("tile dim ", i, " is ", tile_shape[i]));
    }
  }
  layout.shard_shape = shard_shape;
  layout.tile_shape = tile_shape;
  // As the seed's `//`: rows are the total divided by the row pitch.
  layout.plane_shape = {st[0] / pitch, pitch};
  for (int i = 0; i < 2; ++i) {
    absl::StatusOr<int64_t> physical_shard =
        AlignUp(shard_shape[i], tile_shape[i]);
    if (!physical_shard.ok()) return physical_shard.status();
    layout.physical_shard_shape[i] = *physical_shard;
    absl::StatusOr<int64_t> physical =
        AlignUp(layout.plane_shape[i], tile_shape[i]);
    if (!physical.ok()) return physical.status();
    layout.physical_shape[i] = *physical;
    // The corrected formula: rows by shard rows, columns by shard columns.
    layout.grid_shape[i] = CeilDiv(layout.plane_shape[i], shard_shape[i]);
  }
  return layout;
}

std::array<int64_t, 2> LiteralSeedGridShape(const TtnnLayout& layout) {
  const int64_t pitch = layout.stride[layout.stride.size() - 2];
  return {CeilDiv(layout.stride[0] / pitch, layout.shard_shape[0]),
          CeilDiv(pitch, layout.shard_shape[0])};
}

absl::StatusOr<TtnnLocation> LocateTtnn(const TtnnLayout& layout,
                                        absl::Span<const int64_t> index) {
  const size_t rank = layout.shape.size();
  if (index.size() != rank) {
    return Invalid(absl::StrCat("index has ", index.size(),
                                " values but the tensor has rank ", rank));
  }
  for (size_t d = 0; d < rank; ++d) {
    if (index[d] < 0 || index[d] >= layout.shape[d]) {
      return Invalid(absl::StrCat("index ", index[d],
                                  " is out of bounds for dim ", d, " of size ",
                                  layout.shape[d]));
    }
  }
  const int64_t pitch = layout.stride[rank - 1];
  TtnnLocation loc;
  int64_t row = 0;
  // index[k] * stride[k + 1] < stride[k] <= stride[0]: no overflow.
  for (size_t k = 0; k + 1 < rank; ++k) {
    row += index[k] * (layout.stride[k + 1] / pitch);
  }
  loc.plane = {row, index[rank - 1]};
  for (int i = 0; i < 2; ++i) {
    loc.core[i] = loc.plane[i] / layout.shard_shape[i];
    loc.offset[i] = loc.plane[i] % layout.shard_shape[i];
  }
  return loc;
}

}  // namespace hlolayout::grid
