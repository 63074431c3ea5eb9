#include "hlolayout/ttmlir/ttnn_attr.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "hlolayout/tenstorrent/buffer.h"
#include "hlolayout/tenstorrent/tile.h"
#include "hlolayout/ttmlir/metal_layout.h"
#include "hlolayout/ttmlir/ttmlir_collapse.h"
#include "hlolayout/util/int_math.h"

namespace hlolayout::grid {
namespace {

// tt-mlir's TILE_HEIGHT and TILE_WIDTH: tt-metal's default tile
// (tenstorrent/tile.h).
constexpr int64_t kTilePad = tenstorrent::kTileHeight;
static_assert(kTilePad == tenstorrent::kTileWidth);

absl::StatusOr<int64_t> Volume(absl::Span<const int64_t> dims,
                               absl::string_view what) {
  int64_t v = 1;
  for (int64_t d : dims) {
    if (__builtin_mul_overflow(v, d, &v)) {
      return absl::InvalidArgumentError(
          absl::StrCat("the ", what, " has more than 2^63 elements"));
    }
  }
  return v;
}

// A refusal in the words of tt-mlir's verifier.
absl::Status Refused(absl::string_view message) {
  return absl::InvalidArgumentError(
      absl::StrCat("tt-mlir's verifier refuses this layout: ", message));
}

std::string Dims(absl::Span<const int64_t> dims) {
  return dims.empty() ? "()" : DimsToString(dims);
}

// The same function on every index of `shape`: equal coefficients of the
// dims of size > 1 and equal constants.
bool SameOnDomain(const AffineMap& a, const AffineMap& b,
                  absl::Span<const int64_t> shape) {
  if (a.num_dims() != b.num_dims() || a.num_results() != b.num_results()) {
    return false;
  }
  for (int64_t i = 0; i < a.num_results(); ++i) {
    if (a.result(i).constant != b.result(i).constant) return false;
    for (int64_t d = 0; d < a.num_dims(); ++d) {
      if (shape[d] > 1 && a.Coefficient(i, d) != b.Coefficient(i, d)) {
        return false;
      }
    }
  }
  return true;
}

// tt-mlir's row-major coalescing of `n` cores over a worker grid `cols`
// wide: full rows, then a tail.
std::vector<tenstorrent::CoreRange> RowMajorRanges(int64_t n, int64_t cols) {
  std::vector<tenstorrent::CoreRange> ranges;
  const int64_t full = n / cols, tail = n % cols;
  if (full > 0) ranges.push_back({{0, 0}, {cols - 1, full - 1}});
  if (tail > 0) ranges.push_back({{0, full}, {tail - 1, full}});
  return ranges;
}

// tt-mlir's verifier of #ttnn.ttnn_layout, in its order: the grid of
// non-sharded buffers, the memory layout per buffer type, the core range set
// of sharded layouts.
absl::Status VerifyLikeTtmlir(const TtnnLayoutText& text) {
  const tenstorrent::BufferType bt = text.buffer_type;
  const bool sharded = text.mem_layout && IsShardedIn2D(*text.mem_layout);
  if (!(IsL1(bt) || (IsDram(bt) && sharded)) &&
      text.grid != std::vector<int64_t>{1, 1}) {
    return Refused(absl::StrCat(
        "expected (1, 1) grid shape for ", BufferTypeMlirName(bt),
        " buffer type", IsDram(bt) ? " with interleaved memory layout" : "",
        ", got (", absl::StrJoin(text.grid, ", "), ")"));
  }
  if (text.mem_layout) {
    if (bt == tenstorrent::BufferType::kSystemMemory) {
      return Refused(
          "Memory layout is not allowed for SystemMemory buffer type.");
    }
    if (IsDram(bt) &&
        *text.mem_layout == tenstorrent::TensorMemoryLayout::kBlockSharded) {
      return Refused(
          "BlockSharded layout is not supported for DRAM buffer type; use "
          "WidthSharded, HeightSharded or Interleaved");
    }
  } else if (bt != tenstorrent::BufferType::kSystemMemory) {
    return Refused(
        "Memory layout is required for non-SystemMemory buffer type.");
  }
  if (sharded && !text.core_ranges && !text.ignore_physical_layout) {
    return Refused(absl::StrCat("sharded TTNN layout (",
                                MemoryLayoutMlirName(*text.mem_layout),
                                ") must carry a core_range_set"));
  }
  if (!sharded && text.core_ranges) {
    return Refused(absl::StrCat(
        "non-sharded TTNN layout must not carry a core_range_set (got ",
        text.mem_layout ? MemoryLayoutMlirName(*text.mem_layout)
                        : "no memory layout",
        ")"));
  }
  return absl::OkStatus();
}

// What hlolayout does not model: nd-sharded layouts, grids not of rank 2 or
// past 2^20 a dim, negative tensor dims.
absl::Status CheckModelled(absl::Span<const int64_t> shape,
                           const TtnnLayoutText& text) {
  if (text.mem_layout == tenstorrent::TensorMemoryLayout::kNdSharded) {
    return absl::InvalidArgumentError(
        "nd_sharded layouts are #ttnn.ttnn_nd_layout's, not "
        "#ttnn.ttnn_layout's");
  }
  if (text.grid.size() != 2) {
    return absl::InvalidArgumentError(
        absl::StrCat("the grid has rank ", text.grid.size(),
                     "; TTNN grids have rank 2 (the 2-D worker grid)"));
  }
  for (size_t i = 0; i < 2; ++i) {
    if (text.grid[i] < 1 || text.grid[i] > (int64_t{1} << 20)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "grid dim ", i, " is ", text.grid[i],
          text.grid[i] < 1 ? "" : " (hlolayout reads grids up to 2^20 a dim)"));
    }
  }
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("tensor dim ", d, " has size ", shape[d]));
    }
  }
  return absl::OkStatus();
}

// The warning when the written map is not the builder's `linear` (which
// writes `builder_map`), or none.
absl::optional<std::string> MapWarning(const TtnnLayoutText& text,
                                       const AffineMap& linear,
                                       absl::Span<const int64_t> shape) {
  const std::string builder_map = linear.ToString();
  const int64_t rank = static_cast<int64_t>(shape.size());
  if (!text.map) {
    return absl::StrCat("the written map ", text.map_text, " is not read (",
                        text.map_note, "); the builder writes ", builder_map);
  }
  if (text.map->num_dims() != rank) {
    return absl::StrCat("the written map has ", text.map->num_dims(),
                        " input dims but the tensor has rank ", rank,
                        "; the builder writes ", builder_map);
  }
  if (*text.map == linear) return absl::nullopt;
  if (SameOnDomain(*text.map, linear, shape)) {
    return absl::StrCat(
        "the written map ", text.map->ToString(),
        " differs from the "
        "builder's ",
        builder_map,
        " only in coefficients of size-1 dims (the same on every index)");
  }
  if (text.map->num_results() != 2) {
    return absl::StrCat("the written map ", text.map->ToString(), " has ",
                        text.map->num_results(),
                        " results; the builder collapses to 2: ", builder_map);
  }
  return absl::StrCat("the written map ", text.map->ToString(),
                      " is not the builder's ", builder_map);
}

}  // namespace

absl::StatusOr<TtnnLayoutAttr> TtnnLayoutAttr::Build(
    absl::Span<const int64_t> shape, const TtnnLayoutText& text,
    const TtnnDevice& device) {
  TtnnLayoutAttr l;
  l.shape_.assign(shape.begin(), shape.end());
  l.element_ = text.memref_element;
  l.buffer_type_ = text.buffer_type;
  l.mem_layout_ = text.mem_layout;
  l.device_ = device;
  l.written_ranges_ = text.core_ranges;
  l.ignore_physical_layout_ = text.ignore_physical_layout;
  if (absl::Status s = VerifyLikeTtmlir(text); !s.ok()) return s;
  if (absl::Status s = CheckModelled(shape, text); !s.ok()) return s;

  // The builder.
  const tenstorrent::BufferType bt = text.buffer_type;
  l.grid_ = text.grid;
  if (bt == tenstorrent::BufferType::kSystemMemory ||
      (IsDram(bt) &&
       l.mem_layout_ == tenstorrent::TensorMemoryLayout::kInterleaved)) {
    l.grid_ = {1, 1};
  }
  bool int32_overflow = false;
  if (absl::Status s = l.ComputeGeometry(&int32_overflow); !s.ok()) return s;
  if (text.mem_layout && IsShardedIn2D(*text.mem_layout)) l.PlaceCores(text);
  l.CompareWithText(text, int32_overflow);
  return l;
}

absl::Status TtnnLayoutAttr::ComputeGeometry(bool* int32_overflow) {
  physical_ = shape_;
  const int64_t rank = static_cast<int64_t>(shape_.size());
  if (tiled()) {
    for (int64_t d = std::max<int64_t>(0, rank - 2); d < rank; ++d) {
      if (physical_[d] > (int64_t{1} << 62)) {
        return absl::InvalidArgumentError("a tensor dim exceeds 2^62");
      }
      physical_[d] = CeilDiv(physical_[d], kTilePad) * kTilePad;
    }
  }
  absl::StatusOr<int64_t> logical = Volume(shape_, "tensor");
  if (!logical.ok()) return logical.status();
  absl::StatusOr<int64_t> physical = Volume(physical_, "padded tensor");
  if (!physical.ok()) return physical.status();
  absl::StatusOr<AffineMap> linear = TtmlirCollapsedLinearMap(
      physical_, 2, DefaultCollapseIntervals(), int32_overflow);
  if (!linear.ok()) return linear.status();
  linear_ = *std::move(linear);
  collapsed_ = EvalShape(linear_, physical_);
  const std::vector<int64_t>& E = collapsed_;

  const int64_t th = tiled() ? element_.tile->height : 1;
  const int64_t tw = tiled() ? element_.tile->width : 1;
  const int64_t cores = grid_[0] * grid_[1];
  const bool sharded = mem_layout_ && IsShardedIn2D(*mem_layout_);
  const bool l1_interleaved =
      IsL1(buffer_type_) &&
      mem_layout_ == tenstorrent::TensorMemoryLayout::kInterleaved;
  if (sharded) {
    shard_ = {CeilDiv(E[0], grid_[0]), CeilDiv(E[1], grid_[1])};
  } else if (l1_interleaved) {
    if (tiled()) {
      const int64_t tiles = CeilDiv(E[0], th) * CeilDiv(E[1], tw);
      shard_ = {th, CeilDiv(tiles, cores) * tw};
    } else {
      shard_ = {1, CeilDiv(*physical, cores)};
    }
  } else {
    shard_ = E;
  }
  memref_ = shard_;
  physical_shard_ = shard_;
  if (tiled()) {
    memref_ = {CeilDiv(shard_[0], th), CeilDiv(shard_[1], tw)};
    physical_shard_ = {memref_[0] * th, memref_[1] * tw};
  }
  absl::StatusOr<int64_t> shard_volume = Volume(physical_shard_, "shard");
  if (!shard_volume.ok()) return shard_volume.status();
  int64_t allocated;
  if (__builtin_mul_overflow(*shard_volume, cores, &allocated)) {
    return absl::InvalidArgumentError(
        "the shards hold more than 2^63 elements");
  }
  padding_ = {*logical,
              *physical,
              *physical - *logical,
              allocated,
              allocated - *physical,
              allocated - *logical};
  return absl::OkStatus();
}

void TtnnLayoutAttr::PlaceCores(const TtnnLayoutText& text) {
  const tenstorrent::TensorMemoryLayout ml = *mem_layout_;
  const int64_t g0 = grid_[0], g1 = grid_[1];
  const int64_t cores = g0 * g1;
  const TtnnDevice& device = device_;
  const int64_t workers = device.worker_rows * device.worker_cols;
  if (IsDram(buffer_type_)) {
    if (cores > device.dram_banks) {
      placement_error_ = absl::StrCat(
          "DRAM-sharded layout cannot exceed available DRAM banks; got "
          "shard grid volume ",
          cores, " vs dram grid volume ", device.dram_banks);
    } else {
      canonical_ =
          std::vector<tenstorrent::CoreRange>{{{0, 0}, {cores - 1, 0}}};
    }
  } else if (ml == tenstorrent::TensorMemoryLayout::kBlockSharded) {
    if (g0 > device.worker_rows || g1 > device.worker_cols) {
      placement_error_ =
          absl::StrCat("BlockSharded shard grid [", g0, ", ", g1,
                       "] does not fit in worker grid [", device.worker_rows,
                       ", ", device.worker_cols, "]");
    } else {
      canonical_ =
          std::vector<tenstorrent::CoreRange>{{{0, 0}, {g1 - 1, g0 - 1}}};
    }
  } else {
    const bool height = ml == tenstorrent::TensorMemoryLayout::kHeightSharded;
    const int64_t m = height ? g0 : g1;
    if ((height ? g1 : g0) != 1) {
      placement_error_ = height ? "HeightSharded expects [M, 1] shard grid"
                                : "WidthSharded expects [1, M] shard grid";
    } else if (m > workers) {
      placement_error_ = absl::StrCat(height ? "HeightSharded" : "WidthSharded",
                                      " shard count ", m,
                                      " exceeds worker grid volume ", workers);
    } else {
      canonical_ = RowMajorRanges(m, device.worker_cols);
    }
  }
  if (text.core_ranges) {
    placement_ = *text.core_ranges;
  } else if (canonical_) {
    placement_ = *canonical_;
  }
}

std::string TtnnLayoutAttr::MemrefDifference(
    absl::Span<const int64_t> written) const {
  const std::vector<int64_t>& E = collapsed_;
  const int64_t th = tiled() ? element_.tile->height : 1;
  const int64_t tw = tiled() ? element_.tile->width : 1;
  const int64_t cores = grid_[0] * grid_[1];
  const bool sharded = mem_layout_ && IsShardedIn2D(*mem_layout_);
  const bool l1_interleaved =
      IsL1(buffer_type_) &&
      mem_layout_ == tenstorrent::TensorMemoryLayout::kInterleaved;
  const std::vector<int64_t> per_dim = {CeilDiv(E[0], grid_[0]),
                                        CeilDiv(E[1], grid_[1])};
  const auto in_units = [&](std::vector<int64_t> s) {
    if (tiled()) s = {CeilDiv(s[0], th), CeilDiv(s[1], tw)};
    return s;
  };
  const auto written_is = [&](const std::vector<int64_t>& s) {
    return std::equal(written.begin(), written.end(), s.begin(), s.end());
  };
  if (written.size() != 2) {
    return "; the memref must have the grid's rank (2)";
  }
  if (l1_interleaved && written_is(in_units(per_dim))) {
    return absl::StrCat(
        "; the text splits each dim by the grid, but for L1 interleaved "
        "the builder spreads all ",
        tiled() ? "tiles" : "elements", " over the ", cores, " cores");
  }
  if (sharded && !placement_error_.empty()) {
    // Height/width sharding over a 2-D grid: the legacy reading as a
    // virtual [g0*g1, 1] or [1, g0*g1] grid.
    const bool height =
        *mem_layout_ == tenstorrent::TensorMemoryLayout::kHeightSharded;
    const std::vector<int64_t> virt =
        height ? std::vector<int64_t>{CeilDiv(E[0], cores), E[1]}
               : std::vector<int64_t>{E[0], CeilDiv(E[1], cores)};
    if (written_is(in_units(virt))) {
      return absl::StrCat(
          "; the text reads grid ", DimsToString(grid_),
          " as the virtual grid ",
          height ? absl::StrCat(cores, "x1") : absl::StrCat("1x", cores),
          " (tt-mlir's legacy convention), the builder "
          "divides per grid dim");
    }
  }
  return "";
}

void TtnnLayoutAttr::CompareWithText(const TtnnLayoutText& text,
                                     bool int32_overflow) {
  const int64_t cores = grid_[0] * grid_[1];
  const bool sharded = mem_layout_ && IsShardedIn2D(*mem_layout_);
  if (absl::optional<std::string> w = MapWarning(text, linear_, shape_)) {
    warnings_.push_back(*std::move(w));
  }
  if (text.memref_shape != memref_) {
    warnings_.push_back(absl::StrCat(
        "the written memref ", Dims(text.memref_shape),
        " is not the builder's ", DimsToString(memref_),
        tiled() ? " (tiles)" : "", MemrefDifference(text.memref_shape)));
  }
  if (sharded && !placement_error_.empty()) {
    warnings_.push_back(
        absl::StrCat("tt-mlir's canonical core placement "
                     "refuses grid ",
                     DimsToString(grid_), ": ", placement_error_));
  }
  if (sharded && !placement_.empty()) {
    int64_t n = 0;
    for (const tenstorrent::CoreRange& r : placement_) n += r.size();
    if (n < cores) {
      warnings_.push_back(
          absl::StrCat("the core ranges hold ", n, " cores but the grid has ",
                       cores, " shards; shards past ", n, " have no core"));
    }
  }
  if (text.core_ranges && canonical_ && *text.core_ranges != *canonical_) {
    notes_.push_back(absl::StrCat(
        "the written core ranges ", CoreRangesToString(*text.core_ranges),
        " are not the canonical placement ", CoreRangesToString(*canonical_),
        "; the builder keeps the written ones"));
  }
  if (int32_overflow) {
    warnings_.push_back(
        "a collapse stride exceeds 2^31: tt-mlir computes it in a 32-bit int, "
        "so its map would differ from this one");
  }
  if (text.ignore_physical_layout) {
    notes_.push_back(
        "ignorePhysicalLayout = true: the shard placement is left unspecified");
  }
  if (!text.mesh.empty()) {
    notes_.push_back(absl::StrCat("mesh = ", text.mesh,
                                  ": the tensor's mesh is not modelled"));
  }
}

int64_t TtnnLayoutAttr::num_pages() const {
  if (!tiled()) return collapsed_[0];
  return CeilDiv(collapsed_[0], element_.tile->height) *
         CeilDiv(collapsed_[1], element_.tile->width);
}

int64_t TtnnLayoutAttr::page_bytes() const {
  return tiled() ? TileBytes(*element_.tile)
                 : collapsed_[1] * ScalarTypeBytes(element_.scalar);
}

int64_t TtnnLayoutAttr::shard_bytes() const {
  return memref_[0] * memref_[1] * MlirElementBytes(element_);
}

std::string TtnnLayoutAttr::MemrefText() const {
  return absl::StrCat("memref<", DimsToString(memref_), "x",
                      MlirElementToString(element_), ", #ttnn.buffer_type<",
                      BufferTypeMlirName(buffer_type_), ">>");
}

std::string TtnnLayoutAttr::LayoutText() const {
  std::string s = absl::StrCat("#ttnn.ttnn_layout<", linear_.ToString(), ", <",
                               DimsToString(grid_), ">, ", MemrefText());
  if (mem_layout_) {
    absl::StrAppend(&s, ", <", MemoryLayoutMlirName(*mem_layout_), ">");
  }
  if (sharded() && !placement_.empty()) {
    absl::StrAppend(&s, ", core_ranges = ", CoreRangesToString(placement_));
  }
  if (ignore_physical_layout_)
    absl::StrAppend(&s, ", ignorePhysicalLayout = true");
  return s + ">";
}

std::string TtnnLayoutAttr::TensorText(const MlirElement& element) const {
  std::string dims;
  for (int64_t d : shape_) absl::StrAppend(&dims, d, "x");
  return absl::StrCat("tensor<", dims, MlirElementToString(element), ", ",
                      LayoutText(), ">");
}

absl::StatusOr<TtnnAttrLocation> TtnnLayoutAttr::Locate(
    absl::Span<const int64_t> index) const {
  if (index.size() != shape_.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("index has ", index.size(),
                     " values but the tensor has rank ", shape_.size()));
  }
  for (size_t d = 0; d < index.size(); ++d) {
    if (index[d] < 0 || index[d] >= shape_[d]) {
      return absl::InvalidArgumentError(
          absl::StrCat("index ", index[d], " is out of bounds for dim ", d,
                       " of size ", shape_[d]));
    }
  }
  TtnnAttrLocation loc;
  absl::StatusOr<std::vector<int64_t>> p = linear_.Evaluate(index);
  if (!p.ok()) return p.status();
  loc.physical = *p;
  const int64_t th = tiled() ? element_.tile->height : 1;
  const int64_t tw = tiled() ? element_.tile->width : 1;
  if (tiled()) {
    loc.tile = {loc.physical[0] / th, loc.physical[1] / tw};
    loc.in_tile = {loc.physical[0] % th, loc.physical[1] % tw};
  }
  if (sharded()) {
    loc.shard = {loc.physical[0] / physical_shard_[0],
                 loc.physical[1] / physical_shard_[1]};
    loc.shard_index = loc.shard[0] * grid_[1] + loc.shard[1];
    loc.offset = {loc.physical[0] % physical_shard_[0],
                  loc.physical[1] % physical_shard_[1]};
    if (tiled()) {
      loc.offset_tile = {loc.offset[0] / th, loc.offset[1] / tw};
      loc.offset_in_tile = {loc.offset[0] % th, loc.offset[1] % tw};
    }
    absl::optional<tenstorrent::CoreCoord> core =
        CoreOfRanges(placement_, loc.shard_index);
    if (core) {
      if (IsDram(buffer_type_)) {
        loc.dram_bank = core->x + core->y * device_.dram_banks;
      } else {
        loc.core = core;
      }
    }
  } else {
    loc.page = tiled() ? loc.tile[0] * CeilDiv(collapsed_[1], tw) + loc.tile[1]
                       : loc.physical[0];
    if (IsDram(buffer_type_)) {
      const tenstorrent::BankPage b =
          tenstorrent::InterleavedPage(*loc.page, device_.dram_banks);
      loc.dram_bank = b.bank;
      loc.page_in_bank = b.page_in_bank;
    }
  }
  return loc;
}

int64_t TtnnLayoutAttr::ValidRowsBelow(int64_t r) const {
  r = std::clamp<int64_t>(r, 0, collapsed_[0]);
  const int64_t rank = static_cast<int64_t>(shape_.size());
  if (!tiled() || rank < 2) return r;
  const int64_t padded = physical_[rank - 2], real = shape_[rank - 2];
  if (padded == 0) return 0;
  return (r / padded) * real + std::min(r % padded, real);
}

int64_t TtnnLayoutAttr::ValidColsBelow(int64_t c) const {
  c = std::clamp<int64_t>(c, 0, collapsed_[1]);
  return shape_.empty() ? std::min<int64_t>(c, 1) : std::min(c, shape_.back());
}

absl::optional<int64_t> TtnnLayoutAttr::ShardElements(int64_t y,
                                                      int64_t x) const {
  if (!sharded()) return absl::nullopt;
  const int64_t r0 = y * physical_shard_[0], c0 = x * physical_shard_[1];
  const int64_t rows =
      ValidRowsBelow(r0 + physical_shard_[0]) - ValidRowsBelow(r0);
  const int64_t cols =
      ValidColsBelow(c0 + physical_shard_[1]) - ValidColsBelow(c0);
  return rows * cols;
}

}  // namespace hlolayout::grid
