#include "hlolayout/ttnn/resolve.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "hlolayout/ttnn/refusal.h"
#include "hlolayout/util/int_math.h"

namespace hlolayout::ttnn {
namespace {

// populate_nd_shard_spec_from_legacy.
absl::StatusOr<MemoryConfig> NdFromLegacy(const MemoryConfig& memory,
                                          absl::Span<const int64_t> padded) {
  const ShardSpec& s = *memory.shard_spec;
  NdShardSpec nd;
  nd.shard_shape = {s.shape[0], s.shape[1]};
  nd.grid = s.grid;
  nd.orientation = s.orientation;
  if (padded.size() == 1) {
    if (s.shape[0] != 1) {
      return Refused(
          rule::kShard1dTensor,
          absl::StrCat("a rank-1 tensor needs a shard of height 1, not ",
                       s.shape[0],
                       " (tt-metal: \"Shard shape must be 1D for 1D "
                       "tensor!\")"));
    }
    nd.shard_shape = {s.shape[1]};
  }
  if (memory.layout == TensorMemoryLayout::kBlockSharded) {
    nd.distribution = ShardDistributionStrategy::kGrid2D;
  }
  MemoryConfig out = memory;
  out.nd_shard_spec = std::move(nd);
  return out;
}

// The product of `dims`, or nothing past int64 (CheckedVolume's rule: the
// product of the dims other than 0 must fit). Each dim fits, their product
// need not: a shape of 1x47x3266666666x366666662 has 5.6e19 elements,
// refused later as a buffer that does not fit.
absl::optional<int64_t> Volume(absl::Span<const int64_t> dims) {
  absl::StatusOr<int64_t> v = CheckedVolume(dims, "volume");
  return v.ok() ? absl::optional<int64_t>(*v) : absl::nullopt;
}

// The 2-D fold of an ND shard, when it loses nothing (see resolve.h);
// `padded_volume`: Volume(padded). None when Volume gives none for the
// shard. Every product below is that of some of the same dims, so it fits.
absl::optional<std::array<int64_t, 2>> Fold2d(absl::Span<const int64_t> shard,
                                              absl::Span<const int64_t> padded,
                                              int64_t padded_volume) {
  std::array<int64_t, 2> fold = {1, DimFromEnd(shard, 1)};
  const absl::optional<int64_t> shard_volume = Volume(shard);
  if (!shard_volume) return absl::nullopt;
  int64_t cur = DimFromEnd(padded, 1);
  const int srank = static_cast<int>(shard.size());
  for (int k = 2; k <= srank; ++k) {
    const int64_t tsize = DimFromEnd(padded, k);
    const int64_t ssize = shard[srank - k];
    cur *= tsize;
    fold[0] *= ssize;
    if (tsize == ssize) continue;
    if (*shard_volume != fold[0] * fold[1]) return absl::nullopt;
    if (k == srank || tsize % ssize == 0 || padded_volume == cur) break;
    return absl::nullopt;
  }
  return fold;
}

// populate_legacy_shard_spec_from_nd.
MemoryConfig LegacyFromNd(const MemoryConfig& memory,
                          absl::Span<const int64_t> padded,
                          const std::array<int64_t, 2>& physical) {
  const NdShardSpec& nd = *memory.nd_shard_spec;
  const absl::optional<int64_t> padded_volume = Volume(padded);
  if (!padded_volume) return memory;
  absl::optional<std::array<int64_t, 2>> fold =
      Fold2d(nd.shard_shape, padded, *padded_volume);
  if (!fold || (*fold)[0] == 0 || (*fold)[1] == 0) return memory;
  int64_t across = CeilDiv(physical[1], (*fold)[1]);
  int64_t down = CeilDiv(physical[0], (*fold)[0]);
  if (nd.orientation != ShardOrientation::kRowMajor) std::swap(across, down);
  int64_t shards;
  if (__builtin_mul_overflow(across, down, &shards) ||
      shards > nd.grid.num_cores()) {
    return memory;
  }

  const int64_t last = DimFromEnd(padded, 1);
  TensorMemoryLayout kind = TensorMemoryLayout::kBlockSharded;
  if (nd.distribution == ShardDistributionStrategy::kRoundRobin1D) {
    if (last != 0 && (*fold)[0] == *padded_volume / last) {
      kind = TensorMemoryLayout::kWidthSharded;
    } else if ((*fold)[1] == last) {
      kind = TensorMemoryLayout::kHeightSharded;
    }
  }
  if (kind == TensorMemoryLayout::kBlockSharded) {
    if (nd.grid.ranges().size() != 1) return memory;
    const CoreRange& r = nd.grid.ranges()[0];
    if (nd.distribution == ShardDistributionStrategy::kRoundRobin1D &&
        across != r.width()) {
      return memory;
    }
    if (across > r.width() || down > r.height()) return memory;
  }
  MemoryConfig out = memory;
  out.layout = kind;
  out.shard_spec = ShardSpec{nd.grid, *fold, nd.orientation};
  return out;
}

}  // namespace

absl::StatusOr<MemoryConfig> ResolveMemoryConfig(
    const MemoryConfig& memory, absl::Span<const int64_t> padded_shape,
    const std::array<int64_t, 2>& physical_shape) {
  if (memory.created_with_nd_shard_spec && memory.nd_shard_spec) {
    return LegacyFromNd(memory, padded_shape, physical_shape);
  }
  if (memory.shard_spec) return NdFromLegacy(memory, padded_shape);
  return memory;
}

}  // namespace hlolayout::ttnn
