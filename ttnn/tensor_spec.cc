#include "hlolayout/ttnn/tensor_spec.h"

#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "hlolayout/ttnn/refusal.h"
#include "hlolayout/ttnn/resolve.h"
#include "hlolayout/ttnn/sharded_config.h"
#include "hlolayout/util/check.h"
#include "hlolayout/util/int_math.h"

namespace hlolayout::ttnn {
namespace {

std::string Dims(absl::Span<const int64_t> dims) {
  return absl::StrCat("[", absl::StrJoin(dims, ", "), "]");
}

absl::Status CheckDims(absl::Span<const int64_t> dims, absl::string_view what,
                       bool positive) {
  for (int64_t d : dims) {
    if (d < 0 || d > kMaxDim) {
      return Refused(rule::kDimRange,
                     absl::StrCat("the ", what, " ", Dims(dims),
                                  " has a dim outside 0..2^32-1 (tt-metal "
                                  "keeps dims as 32-bit unsigned integers)"));
    }
    if (positive && d == 0) {
      return Refused(rule::kShardVolume,
                     absl::StrCat("the ", what, " ", Dims(dims),
                                  " holds no element (tt-metal: \"Shard "
                                  "shape must have non zero volume!\")"));
    }
  }
  return absl::OkStatus();
}

// The memory config's own consistency, before tt-metal's rules.
absl::Status CheckMemoryConfig(const MemoryConfig& m) {
  if (m.layout == TensorMemoryLayout::kInterleaved &&
      (m.shard_spec || m.nd_shard_spec)) {
    return Refused(rule::kNotModelled,
                   "an INTERLEAVED memory config takes no shard spec");
  }
  if (m.layout == TensorMemoryLayout::kNdSharded && !m.nd_shard_spec) {
    return Refused(rule::kShardedWithoutSpec,
                   "an ND_SHARDED memory config needs an nd_shard_spec");
  }
  if (m.sharded() && m.layout != TensorMemoryLayout::kNdSharded &&
      !m.shard_spec) {
    return Refused(rule::kShardedWithoutSpec,
                   absl::StrCat("a ", MemoryLayoutName(m.layout),
                                " memory config needs a shard_spec "
                                "(tt-metal: \"MemoryConfig must have Shard "
                                "Spec specified for sharded memory "
                                "layout\")"));
  }
  if (m.shard_spec) {
    if (absl::Status s = CheckDims(m.shard_spec->shape, "shard shape", true);
        !s.ok()) {
      return s;
    }
  }
  if (m.nd_shard_spec) {
    if (absl::Status s =
            CheckDims(m.nd_shard_spec->shard_shape, "ND shard shape", true);
        !s.ok()) {
      return s;
    }
  }
  return absl::OkStatus();
}

// The shard shape ttnn.create_sharded_memory_config gives, in place.
absl::Status DeriveShard(TensorSpecInput& in) {
  if (!in.memory.shard_spec ||
      in.memory.layout == TensorMemoryLayout::kNdSharded) {
    return Refused(rule::kShardDerive,
                   "cannot derive the shard shape: only a HEIGHT, WIDTH or "
                   "BLOCK_SHARDED spec with a grid has one to derive");
  }
  ShardSpec& spec = *in.memory.shard_spec;
  absl::StatusOr<std::array<int64_t, 2>> shape =
      DeriveShardShape(in.shape, spec.grid, in.memory.layout, spec.orientation);
  if (!shape.ok()) return shape.status();
  spec.shape = *shape;
  return absl::OkStatus();
}

// tensor_layout.cpp, get_shard_align_error: a tiled shard is whole tiles.
absl::Status CheckShardTiles(const PageConfig& page, const MemoryConfig& m) {
  if (page.layout != Layout::kTile || !m.sharded()) return absl::OkStatus();
  int64_t h, w;
  std::string shape;
  if (m.shard_spec) {
    h = m.shard_spec->shape[0];
    w = m.shard_spec->shape[1];
    shape = Dims(m.shard_spec->shape);
  } else {
    h = DimFromEnd(m.nd_shard_spec->shard_shape, 2);
    w = DimFromEnd(m.nd_shard_spec->shard_shape, 1);
    shape = Dims(m.nd_shard_spec->shard_shape);
  }
  if (h % page.tile.height == 0 && w % page.tile.width == 0) {
    return absl::OkStatus();
  }
  return Refused(
      rule::kShardTileMultiple,
      absl::StrCat("the shard ", shape, " is not whole ", TileName(page.tile),
                   " tiles in its last two dims (tt-metal: "
                   "\"Physical shard shape must be tile sized!\")"));
}

absl::Status BlockGridFit(const ShardSpec& s, int64_t across, int64_t down) {
  const CoreRange box = s.grid.BoundingBox();
  const bool row_major = s.orientation == ShardOrientation::kRowMajor;
  const int64_t rows = row_major ? box.height() : box.width();
  const int64_t cols = row_major ? box.width() : box.height();
  const char* rows_name = row_major ? "rows" : "columns";
  const char* cols_name = row_major ? "columns" : "rows";
  if (down > rows) {
    return Refused(
        rule::kBlockShardGridFit,
        absl::StrCat("block sharding: ", down,
                     " shards along the height do not fit the "
                     "grid's ",
                     rows, " ", rows_name, " (", OrientationName(s.orientation),
                     "; tt-metal: \"Number of shards along height "
                     "must not exceed number of ",
                     rows_name, "\")"));
  }
  if (across > cols) {
    return Refused(
        rule::kBlockShardGridFit,
        absl::StrCat("block sharding: ", across,
                     " shards along the width do not fit the "
                     "grid's ",
                     cols, " ", cols_name, " (", OrientationName(s.orientation),
                     "; tt-metal: \"Number of shards along width "
                     "must not exceed number of ",
                     cols_name, "\")"));
  }
  return absl::OkStatus();
}

// tensor_spec.cpp, get_shape_fits_shard_grid_error.
absl::Status CheckShardGridFit(const MemoryConfig& m,
                               const std::array<int64_t, 2>& physical) {
  if (!m.sharded() || !m.shard_spec) return absl::OkStatus();
  const ShardSpec& s = *m.shard_spec;
  const int64_t cores = s.grid.num_cores();
  const int64_t down = CeilDiv(physical[0], s.shape[0]);
  const int64_t across = CeilDiv(physical[1], s.shape[1]);
  switch (m.layout) {
    case TensorMemoryLayout::kHeightSharded:
      if (physical[1] != s.shape[1]) {
        return Refused(
            rule::kHeightShardWidth,
            absl::StrCat("height sharding: the shard width ", s.shape[1],
                         " must be the physical width ", physical[1],
                         " (tt-metal: \"Shard width must match physical "
                         "width for height sharded\")"));
      }
      if (down > cores) {
        return Refused(
            rule::kHeightShardCount,
            absl::StrCat("height sharding: ", down,
                         " shards along the height exceed the ", cores,
                         " cores (tt-metal: \"Number of shards "
                         "along height must not exceed number of "
                         "cores\")"));
      }
      return absl::OkStatus();
    case TensorMemoryLayout::kWidthSharded:
      if (physical[0] != s.shape[0]) {
        return Refused(
            rule::kWidthShardHeight,
            absl::StrCat("width sharding: the shard height ", s.shape[0],
                         " must be the physical height ", physical[0],
                         " (tt-metal: \"Shard height must match physical "
                         "height for width sharded\")"));
      }
      if (across > cores) {
        return Refused(
            rule::kWidthShardCount,
            absl::StrCat("width sharding: ", across,
                         " shards along the width exceed the ", cores,
                         " cores (tt-metal: \"Number of shards "
                         "along width must not exceed number of "
                         "cores\")"));
      }
      return absl::OkStatus();
    case TensorMemoryLayout::kBlockSharded:
      if (s.grid.ranges().size() != 1) {
        return Refused(rule::kBlockShardOneRange,
                       absl::StrCat("block sharding needs one core "
                                    "rectangle, the grid has ",
                                    s.grid.ranges().size(),
                                    " (tt-metal: \"Shard grid must be one "
                                    "full rectangular grid for block "
                                    "sharded!\")"));
      }
      return BlockGridFit(s, across, down);
    default:
      return absl::OkStatus();
  }
}

// tensor_spec.cpp, validate_dtype_and_layout.
absl::Status CheckDtypeLayout(DataType dtype, Layout layout) {
  if (IsBlockFloat(dtype) && layout != Layout::kTile) {
    return Refused(
        rule::kDtypeLayout,
        absl::StrCat(DataTypeName(dtype),
                     " exists only in TILE layout (tt-metal: "
                     "\"Only TILE layout is supported for ",
                     dtype == DataType::kBfloat8B ? "BFLOAT8_B" : "BFLOAT4_B",
                     " dtype!\")"));
  }
  if (dtype == DataType::kFp8E4m3 && layout != Layout::kRowMajor) {
    return Refused(rule::kDtypeLayout,
                   "fp8_e4m3 exists only in ROW_MAJOR layout (tt-metal: "
                   "\"Only ROW_MAJOR layout is supported for FP8_E4M3 "
                   "dtype!\")");
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<TensorSpec> TensorSpec::Make(TensorSpecInput input,
                                            const DeviceParams& device) {
  if (device.l1_alignment <= 0 || device.dram_alignment <= 0 ||
      device.l1_banks <= 0 || device.dram_banks <= 0 ||
      device.l1_alignment > kMaxDim || device.dram_alignment > kMaxDim) {
    return absl::InvalidArgumentError(
        "alignments and bank counts must be positive (and below 2^32)");
  }
  if (absl::Status s = CheckDims(input.shape, "shape", false); !s.ok()) {
    return s;
  }
  if (input.layout == Layout::kRowMajor && input.tile != Tile{}) {
    return Refused(rule::kRowMajorTile,
                   absl::StrCat("a ROW_MAJOR tensor takes no tile other than "
                                "32x32, not ",
                                TileName(input.tile),
                                " (tt-metal: \"Configuring a ROW MAJOR page "
                                "config with a custom tile configuration is "
                                "not supported.\")"));
  }
  if (input.derive_shard_shape) {
    if (absl::Status s = DeriveShard(input); !s.ok()) return s;
  }
  if (absl::Status s = CheckMemoryConfig(input.memory); !s.ok()) return s;
  TensorSpec t;
  t.device_ = device;
  t.page_ = PageConfig{input.layout, input.tile};
  if (absl::Status s = CheckShardTiles(t.page_, input.memory); !s.ok()) {
    return s;
  }
  t.alignment_ = DefaultAlignment(t.page_, input.memory);
  absl::StatusOr<std::vector<int64_t>> padded =
      PaddedShape(input.shape, t.alignment_);
  if (!padded.ok()) return padded.status();
  t.padded_ = *std::move(padded);
  absl::StatusOr<std::array<int64_t, 2>> logical_2d =
      Logical2dShape(input.shape);
  if (!logical_2d.ok()) return logical_2d.status();
  t.logical_2d_ = *logical_2d;
  absl::StatusOr<std::array<int64_t, 2>> physical =
      PhysicalShape(input.shape, t.alignment_);
  if (!physical.ok()) return physical.status();
  t.physical_ = *physical;
  if (absl::Status s = CheckShardGridFit(input.memory, t.physical_); !s.ok()) {
    return s;
  }
  if (absl::Status s = CheckDtypeLayout(input.dtype, input.layout); !s.ok()) {
    return s;
  }
  absl::StatusOr<MemoryConfig> resolved =
      ResolveMemoryConfig(input.memory, t.padded_, t.physical_);
  if (!resolved.ok()) return resolved.status();
  t.memory_ = *std::move(resolved);
  t.in_ = std::move(input);
  if (absl::Status s = t.ComputePages(); !s.ok()) return s;
  return t;
}

absl::Status TensorSpec::ComputePages() {
  absl::StatusOr<std::array<int64_t, 2>> page =
      PageShape(physical_, in_.dtype, page_, memory_);
  if (!page.ok()) return page.status();
  page_shape_ = *page;
  padded_pages_ = ShapeInPages(padded_, page_shape_);
  // tt-metal lays the buffer out (compute_buffer_sharding_args) before it
  // asks a page's bytes: the distribution's refusals come first.
  if (memory_.sharded()) {
    if (absl::Status s = ComputeDistribution(); !s.ok()) return s;
  }
  absl::StatusOr<int64_t> bytes =
      PageBytes(page_shape_, in_.dtype, page_, device_.l1_alignment);
  if (!bytes.ok()) return bytes.status();
  page_bytes_ = *bytes;
  absl::StatusOr<int64_t> area =
      CheckedMul(physical_[0], physical_[1], "buffer");
  if (!area.ok()) return area.status();
  num_pages_ = *area / (page_shape_[0] * page_shape_[1]);
  absl::StatusOr<int64_t> packed =
      CheckedMul(num_pages_, page_bytes_, "buffer size");
  if (!packed.ok()) return packed.status();
  packed_bytes_ = *packed;
  absl::StatusOr<std::vector<int64_t>> strides = Strides(in_.shape, alignment_);
  if (!strides.ok()) return strides.status();
  strides_ = *std::move(strides);
  absl::StatusOr<int64_t> consumed =
      ConsumedBytesPerBank(page_alignment(), num_banks());
  if (!consumed.ok()) return consumed.status();
  consumed_bytes_ = *consumed;
  return absl::OkStatus();
}

absl::Status TensorSpec::ComputeDistribution() {
  if (memory_.shard_spec) {
    const ShardSpec& s = *memory_.shard_spec;
    ShardSpecBuffer b;
    b.page_shape = page_shape_;
    b.shard_shape_in_pages = {s.shape[0] / page_shape_[0],
                              s.shape[1] / page_shape_[1]};
    b.tensor2d_shape_in_pages = {physical_[0] / page_shape_[0],
                                 physical_[1] / page_shape_[1]};
    b.num_pages_per_shard =
        b.shard_shape_in_pages[0] * b.shard_shape_in_pages[1];
    shard_buffer_ = b;
  }
  // Resolution always leaves an ND spec on a sharded config.
  const NdShardSpec& nd = *memory_.nd_shard_spec;
  absl::StatusOr<BufferDistribution> d =
      BufferDistribution::Make(padded_, nd.shard_shape, page_shape_, nd.grid,
                               nd.orientation, nd.distribution);
  if (!d.ok()) return d.status();
  distribution_ = *std::move(d);
  return absl::OkStatus();
}

int64_t TensorSpec::AlignedPageSize(int64_t page_alignment) const {
  return RoundUp(page_bytes_, page_alignment);
}

absl::StatusOr<int64_t> TensorSpec::ConsumedBytesPerBank(
    int64_t page_alignment, int64_t num_banks) const {
  HLOLAYOUT_CHECK(page_alignment > 0 && num_banks > 0);
  int64_t pages;
  if (!memory_.sharded()) {
    pages = CeilDiv(num_pages_, num_banks);
  } else if (memory_.shard_spec) {
    absl::StatusOr<int64_t> p =
        CheckedMul(CeilDiv(memory_.shard_spec->shape[0], page_shape_[0]),
                   CeilDiv(memory_.shard_spec->shape[1], page_shape_[1]),
                   "shard's page count");
    if (!p.ok()) return p.status();
    pages = *p;
  } else {
    pages = distribution_->max_dev_pages_per_core();
  }
  if (page_bytes_ > INT64_MAX - page_alignment) {
    return absl::InvalidArgumentError("the page size does not fit in 64 bits");
  }
  return CheckedMul(pages, AlignedPageSize(page_alignment), "memory per bank");
}

}  // namespace hlolayout::ttnn
