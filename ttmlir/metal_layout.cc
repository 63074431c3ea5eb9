#include "hlolayout/ttmlir/metal_layout.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "hlolayout/util/check.h"

namespace hlolayout::grid {
namespace {

constexpr absl::string_view kOobNames[] = {"undef", "zero", "one", "inf",
                                           "neginf"};
constexpr absl::string_view kMemorySpaceNames[] = {"system", "mmio", "dram",
                                                   "l1"};
constexpr absl::string_view kMemorySpaceTitles[] = {"System", "SystemMMIO",
                                                    "DeviceDRAM", "DeviceL1"};

absl::Status Overflow(absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat(what, " overflows int64"));
}

// Product of `dims`, or nullopt on overflow.
absl::optional<int64_t> Product(absl::Span<const int64_t> dims) {
  int64_t p = 1;
  for (int64_t d : dims) {
    if (__builtin_mul_overflow(p, d, &p)) return absl::nullopt;
  }
  return p;
}

}  // namespace

absl::optional<OobVal> OobValFromName(absl::string_view name) {
  for (int i = 0; i < 5; ++i) {
    if (kOobNames[i] == name) return static_cast<OobVal>(i);
  }
  return absl::nullopt;
}

absl::string_view OobValName(OobVal value) {
  return kOobNames[static_cast<int>(value)];
}

absl::optional<MemorySpace> MemorySpaceFromName(absl::string_view name) {
  for (int i = 0; i < 4; ++i) {
    if (kMemorySpaceNames[i] == name) return static_cast<MemorySpace>(i);
  }
  return absl::nullopt;
}

absl::string_view MemorySpaceName(MemorySpace space) {
  return kMemorySpaceNames[static_cast<int>(space)];
}

absl::string_view MemorySpaceTitle(MemorySpace space) {
  return kMemorySpaceTitles[static_cast<int>(space)];
}

std::string DimsToString(absl::Span<const int64_t> dims) {
  return absl::StrJoin(dims, "x");
}

absl::StatusOr<MetalLayout> MetalLayout::Create(
    std::vector<int64_t> logical_shape, ScalarType element_type,
    AffineMap linear, OobVal oob_val, std::vector<int64_t> grid,
    absl::optional<TileType> tile, MemorySpace memory_space) {
  for (size_t d = 0; d < logical_shape.size(); ++d) {
    if (logical_shape[d] < 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("tensor dim ", d, " has size ", logical_shape[d]));
    }
  }
  if (!IsArrayType(element_type.type) || IsComplexType(element_type.type)) {
    return absl::InvalidArgumentError("unsupported element type");
  }
  absl::optional<int64_t> volume = Product(logical_shape);
  if (!volume) return Overflow("tensor volume");
  absl::Status valid = ValidateLayoutMap(linear, logical_shape);
  if (!valid.ok()) return valid;
  if (grid.empty()) return absl::InvalidArgumentError("grid has rank 0");
  if (linear.num_results() != static_cast<int64_t>(grid.size())) {
    return absl::InvalidArgumentError(
        absl::StrCat("map has ", linear.num_results(),
                     " results but the grid has rank ", grid.size()));
  }
  for (size_t i = 0; i < grid.size(); ++i) {
    if (grid[i] < 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("grid dim ", i, " is ", grid[i]));
    }
  }
  absl::optional<int64_t> cores = Product(grid);
  if (!cores) return Overflow("core count");
  if (tile) {
    absl::StatusOr<TileType> checked =
        MakeTileType(tile->height, tile->width, tile->dtype);
    if (!checked.ok()) return checked.status();
    if (grid.size() < 2) {
      return absl::InvalidArgumentError(absl::StrCat(
          "a tiled memref needs rank >= 2, the grid has rank ", grid.size()));
    }
  }

  MetalLayout layout;
  layout.extent_ = CollapsedExtent(linear, logical_shape);
  const size_t g = grid.size();
  for (size_t i = 0; i < g; ++i) {
    // ceilDiv without overflow: extent >= 1, grid >= 1.
    const int64_t shard = (layout.extent_[i] - 1) / grid[i] + 1;
    layout.shard_.push_back(shard);
    int64_t physical = shard;
    int64_t memref = shard;
    if (tile && i + 2 >= g) {
      const int64_t t = i + 2 == g ? tile->height : tile->width;
      memref = (shard - 1) / t + 1;
      if (__builtin_mul_overflow(memref, t, &physical)) {
        return Overflow("physical shard");
      }
    }
    layout.physical_shard_.push_back(physical);
    layout.memref_.push_back(memref);
  }
  absl::optional<int64_t> shard_volume = Product(layout.physical_shard_);
  if (!shard_volume) return Overflow("shard volume");
  absl::optional<int64_t> memref_volume = Product(layout.memref_);
  HLOLAYOUT_CHECK(memref_volume.has_value()) << "memref <= physical shard";
  const int64_t element_bytes =
      tile ? TileBytes(*tile) : ScalarTypeBytes(element_type);
  int64_t shard_bytes, total_bytes;
  if (__builtin_mul_overflow(*memref_volume, element_bytes, &shard_bytes)) {
    return Overflow("shard size in bytes");
  }
  if (__builtin_mul_overflow(shard_bytes, *cores, &total_bytes)) {
    return Overflow("total size in bytes");
  }
  int64_t total_positions;
  if (__builtin_mul_overflow(*shard_volume, *cores, &total_positions)) {
    return Overflow("storage volume");
  }

  layout.logical_shape_ = std::move(logical_shape);
  layout.element_type_ = element_type;
  layout.linear_ = std::move(linear);
  layout.oob_val_ = oob_val;
  layout.grid_ = std::move(grid);
  layout.tile_ = tile;
  layout.memory_space_ = memory_space;
  layout.logical_volume_ = *volume;
  layout.num_cores_ = *cores;
  layout.shard_volume_ = *shard_volume;
  layout.tiles_per_shard_ = tile ? *memref_volume : 0;
  layout.shard_bytes_ = shard_bytes;
  layout.total_bytes_ = total_bytes;
  return layout;
}

int64_t MetalLayout::memref_element_bytes() const {
  return tile_ ? TileBytes(*tile_) : ScalarTypeBytes(element_type_);
}

int64_t MetalLayout::ValidExtent(int64_t i, int64_t c) const {
  HLOLAYOUT_CHECK(i >= 0 && i < grid_rank()) << "grid dim " << i;
  HLOLAYOUT_CHECK(c >= 0 && c < grid_[i]) << "core " << c << " of " << grid_[i];
  int64_t begin;
  if (__builtin_mul_overflow(c, shard_[i], &begin)) return 0;  // past E_i
  return std::clamp<int64_t>(extent_[i] - begin, 0, shard_[i]);
}

absl::StatusOr<ElementLocation> MetalLayout::TryLocate(
    absl::Span<const int64_t> index) const {
  if (static_cast<int64_t>(index.size()) != rank()) {
    return absl::InvalidArgumentError(
        absl::StrCat("index has ", index.size(),
                     " values but the tensor has rank ", rank()));
  }
  for (int64_t d = 0; d < rank(); ++d) {
    if (index[d] < 0 || index[d] >= logical_shape_[d]) {
      return absl::InvalidArgumentError(
          absl::StrCat("index ", index[d], " is out of bounds for dim ", d,
                       " of size ", logical_shape_[d]));
    }
  }
  return Locate(index);
}

ElementLocation MetalLayout::Locate(absl::Span<const int64_t> index) const {
  HLOLAYOUT_CHECK(static_cast<int64_t>(index.size()) == rank())
      << "index rank " << index.size();
  for (int64_t d = 0; d < rank(); ++d) {
    HLOLAYOUT_CHECK(index[d] >= 0 && index[d] < logical_shape_[d])
        << "index " << index[d] << " in dim " << d;
  }
  absl::StatusOr<std::vector<int64_t>> p = linear_.Evaluate(index);
  HLOLAYOUT_CHECK(p.ok()) << "validated map overflowed";
  ElementLocation loc;
  loc.collapsed = *p;
  const int64_t g = grid_rank();
  for (int64_t i = 0; i < g; ++i) {
    loc.core.push_back((*p)[i] / shard_[i]);
    loc.offset.push_back((*p)[i] % shard_[i]);
  }
  // Row-major position in the memref, times the memref element size. The
  // memref index is bounded by the memref shape, whose volume Create
  // checked, so none of this overflows.
  std::vector<int64_t> memref_index = loc.offset;
  if (tile_) {
    const int64_t th = tile_->height, tw = tile_->width;
    memref_index[g - 2] = loc.offset[g - 2] / th;
    memref_index[g - 1] = loc.offset[g - 1] / tw;
    loc.tile = memref_index;
    loc.in_tile = {loc.offset[g - 2] % th, loc.offset[g - 1] % tw};
  }
  int64_t linear = 0;
  for (int64_t i = 0; i < g; ++i)
    linear = linear * memref_[i] + memref_index[i];
  loc.byte_offset = linear * memref_element_bytes();
  return loc;
}

std::vector<int64_t> MetalLayout::device_grid() const {
  if (grid_.size() <= 2) return {};
  return std::vector<int64_t>(grid_.begin(), grid_.end() - 2);
}

std::vector<int64_t> MetalLayout::core_grid() const {
  if (grid_.size() <= 2) return grid_;
  return std::vector<int64_t>(grid_.end() - 2, grid_.end());
}

}  // namespace hlolayout::grid
