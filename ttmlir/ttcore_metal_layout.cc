#include "hlolayout/ttmlir/ttcore_metal_layout.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "hlolayout/ttmlir/metal_layout.h"

namespace hlolayout::grid {
namespace {

constexpr int64_t kTile = 32;  // tt-mlir's default tile, used for alignment
// Physical extents are kept below this so that sums of strides stay exact.
constexpr int64_t kMaxExtent = int64_t{1} << 62;

absl::Status Overflow() {
  return absl::InvalidArgumentError("the physical shape exceeds 2^62");
}

// alignUp(x, a) with overflow checking; false on overflow.
bool AlignUp(int64_t x, int64_t a, int64_t* out) {
  const int64_t q = x / a + (x % a != 0);
  return !__builtin_mul_overflow(q, a, out) && *out <= kMaxExtent;
}

bool Mul(int64_t a, int64_t b, int64_t* out) {
  return !__builtin_mul_overflow(a, b, out) && *out <= kMaxExtent;
}

absl::Status Refused(absl::string_view message) {
  return absl::InvalidArgumentError(
      absl::StrCat("tt-mlir's verifier refuses this layout: ", message));
}

std::string Dims(absl::Span<const int64_t> dims) {
  return dims.empty() ? "()" : DimsToString(dims);
}

}  // namespace

std::vector<std::array<int64_t, 2>> NormalizeIntervals(
    absl::Span<const int64_t> flat_intervals, int64_t rank) {
  std::vector<std::array<int64_t, 2>> out;
  for (size_t i = 0; i + 1 < flat_intervals.size(); i += 2) {
    int64_t start = flat_intervals[i], end = flat_intervals[i + 1];
    if (start < 0) start += rank;
    if (end < 0) end += rank;
    out.push_back({start, end});
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const std::array<int64_t, 2>& a,
                      const std::array<int64_t, 2>& b) { return a[0] < b[0]; });
  int64_t covered = 0;
  for (const auto& iv : out) covered = std::max(covered, iv[1]);
  while (covered < rank) {
    out.push_back({covered, covered + 1});
    ++covered;
  }
  if (rank == 1 && out.size() == 1) out.insert(out.begin(), {0, 0});
  return out;
}

namespace {

// tt-mlir's verifier of #ttcore.metal_layout: dim_alignments, one positive
// per logical dim; collapsed_intervals in bounds and ordered. Then what
// hlolayout does not model: zero-sized logical dims.
absl::Status VerifyLikeTtmlir(const MetalLayoutText& text) {
  const std::vector<int64_t>& s = text.logical_shape;
  const std::vector<int64_t>& al = text.dim_alignments;
  const int64_t rank = static_cast<int64_t>(s.size());
  if (static_cast<int64_t>(al.size()) != rank) {
    return Refused(absl::StrCat("dim_alignments size (", al.size(),
                                ") must match logical_shape rank (", rank,
                                ")"));
  }
  for (size_t i = 0; i < al.size(); ++i) {
    if (al[i] <= 0) {
      return Refused(absl::StrCat("dim_alignments[", i,
                                  "] must be positive, got ", al[i]));
    }
  }
  for (size_t i = 0; i + 1 < text.intervals.size(); i += 2) {
    const int64_t start = text.intervals[i], end = text.intervals[i + 1];
    const int64_t ns = start < 0 ? start + rank : start;
    const int64_t ne = end < 0 ? end + rank : end;
    if (ns < 0 || ns >= rank) {
      return Refused(absl::StrCat(
          "collapsed_intervals start index ", start, " (normalized: ", ns,
          ") is out of bounds for logical_shape rank ", rank));
    }
    if (ne < 0 || ne > rank) {
      return Refused(absl::StrCat(
          "collapsed_intervals end index ", end, " (normalized: ", ne,
          ") is out of bounds for logical_shape rank ", rank));
    }
    if (ns > ne) {
      return Refused(absl::StrCat("collapsed_intervals start (", start,
                                  ") must not exceed end (", end, ")"));
    }
  }
  for (int64_t d = 0; d < rank; ++d) {
    if (s[d] < 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("logical_shape dim ", d, " is ", s[d],
                       " (zero-sized tensors are not modelled)"));
    }
  }
  return absl::OkStatus();
}

// hlolayout refuses normalized intervals that are empty (but the synthetic
// row of rank 1), overlap or leave a dim out.
absl::Status CheckIntervalsPartition(
    const std::vector<std::array<int64_t, 2>>& intervals, int64_t rank) {
  int64_t next = 0;
  for (size_t k = 0; k < intervals.size(); ++k) {
    const auto& iv = intervals[k];
    if (iv[0] == iv[1]) {
      if (rank == 1 && k == 0 && iv[0] == 0) continue;  // the synthetic row
      return absl::InvalidArgumentError(absl::StrCat(
          "collapsed interval [", iv[0], ", ", iv[1],
          ") is empty; tt-mlir gives it no physical dim but a map result"));
    }
    if (iv[0] < next) {
      return absl::InvalidArgumentError(
          absl::StrCat("collapsed intervals overlap at dim ", iv[0],
                       "; each logical dim must belong to one interval"));
    }
    if (iv[0] > next) {
      return absl::InvalidArgumentError(
          absl::StrCat("collapsed intervals leave dim ", next,
                       " out (tt-mlir would drop it silently)"));
    }
    next = iv[1];
  }
  return absl::OkStatus();
}

// tt-mlir's default tile alignments, for reference: the last dim of each of
// the two innermost intervals aligned to a tile; none with one interval of
// rank >= 2.
absl::optional<std::vector<int64_t>> DefaultAlignments(
    const std::vector<std::array<int64_t, 2>>& intervals, int64_t rank) {
  const int64_t num_intervals = static_cast<int64_t>(intervals.size());
  if (rank == 0) return std::vector<int64_t>{};
  if (rank == 1) return std::vector<int64_t>{kTile};
  if (num_intervals < 2) return absl::nullopt;
  std::vector<int64_t> d(rank, 1);
  d[intervals[num_intervals - 1][1] - 1] = kTile;
  d[intervals[num_intervals - 2][1] - 1] = kTile;
  return d;
}

}  // namespace

absl::StatusOr<TtcoreMetalLayout> TtcoreMetalLayout::Build(
    absl::Span<const int64_t> shape, const MlirElement& element,
    const MetalLayoutText& text, const TtnnDevice& device) {
  TtcoreMetalLayout l;
  l.text_ = text;
  l.element_ = element;
  l.device_ = device;
  l.tensor_shape_.assign(shape.begin(), shape.end());
  const int64_t rank = static_cast<int64_t>(text.logical_shape.size());
  if (absl::Status st = VerifyLikeTtmlir(text); !st.ok()) return st;
  l.intervals_ = NormalizeIntervals(text.intervals, rank);
  if (absl::Status st = CheckIntervalsPartition(l.intervals_, rank); !st.ok()) {
    return st;
  }
  l.default_alignments_ = DefaultAlignments(l.intervals_, rank);
  if (absl::Status st = l.ComputePhysical(); !st.ok()) return st;
  if (absl::Status st = l.SplitOverGrid(shape); !st.ok()) return st;
  if (absl::Status st = l.ComputeHostStrides(); !st.ok()) return st;
  if (absl::Status st = l.ComputePadding(shape); !st.ok()) return st;
  l.CompareWithText(shape);
  return l;
}

absl::Status TtcoreMetalLayout::ComputePhysical() {
  const std::vector<int64_t>& s = text_.logical_shape;
  const std::vector<int64_t>& al = text_.dim_alignments;
  const int64_t rank = static_cast<int64_t>(s.size());
  // Strides inside intervals and the physical shape.
  strides_.assign(rank, 1);
  for (const auto& iv : intervals_) {
    if (iv[0] == iv[1]) {
      continue;
    }
    int64_t cumulative = 1;
    for (int64_t j = iv[1] - 1; j >= iv[0]; --j) {
      strides_[j] = cumulative;
      int64_t product;
      if (!Mul(s[j], cumulative, &product) ||
          !AlignUp(product, al[j], &cumulative)) {
        return Overflow();
      }
    }
    physical_.push_back(cumulative);
  }
  if (rank == 0) physical_ = {kTile, kTile};
  if (rank == 1) physical_.insert(physical_.begin(), kTile);
  const int64_t prank = static_cast<int64_t>(physical_.size());

  physical_units_ = physical_;
  if (tiled()) {
    const TileType& t = *element_.tile;
    if (prank < 2) {
      return absl::InvalidArgumentError(
          "a tiled tensor needs at least 2 physical dims");
    }
    int64_t& rows = physical_units_[prank - 2];
    int64_t& cols = physical_units_[prank - 1];
    if (rows % t.height != 0 || cols % t.width != 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "tt-mlir asserts: tile ", t.height, "x", t.width,
          " does not divide the physical shape ", Dims(physical_),
          " (physicalShape[-2] % tileShape[0] == 0, physicalShape[-1] % "
          "tileShape[1] == 0); dim_alignments must be tile multiples"));
    }
    rows /= t.height;
    cols /= t.width;
  }
  return absl::OkStatus();
}

absl::Status TtcoreMetalLayout::SplitOverGrid(absl::Span<const int64_t> shape) {
  const int64_t prank = static_cast<int64_t>(physical_.size());
  if (static_cast<int64_t>(shape.size()) != 2 * prank) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the tensor has rank ", shape.size(), " but the layout has ", prank,
        " physical dims: its shape must be grid ++ shard, rank ", 2 * prank));
  }
  for (int64_t i = 0; i < 2 * prank; ++i) {
    if (shape[i] < 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("tensor dim ", i, " has size ", shape[i],
                       " (the grid and shard must not be empty)"));
    }
  }
  grid_.assign(shape.begin(), shape.begin() + prank);
  device_shape_ = grid_;
  for (int64_t i = 0; i < prank; ++i) {
    const int64_t dim = physical_units_[i], g = grid_[i];
    if (dim % g != 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "tt-mlir asserts: Collapsed dimension must be evenly divisible by "
          "grid dimension, got ",
          dim, " % ", g, " != 0."));
    }
    device_shape_.push_back(dim / g);
  }
  shard_units_.assign(device_shape_.begin() + prank, device_shape_.end());
  shard_scalars_ = shard_units_;
  if (tiled()) {
    shard_scalars_[prank - 2] *= element_.tile->height;
    shard_scalars_[prank - 1] *= element_.tile->width;
  }
  return absl::OkStatus();
}

// tt-mlir's getHostStrideAndVolume.
absl::Status TtcoreMetalLayout::ComputeHostStrides() {
  const std::vector<int64_t>& s = text_.logical_shape;
  const std::vector<int64_t>& al = text_.dim_alignments;
  const int64_t rank = static_cast<int64_t>(s.size());
  const int64_t num_intervals = static_cast<int64_t>(intervals_.size());
  host_strides_.assign(rank, 0);
  int64_t current = 1;
  for (int64_t k = num_intervals - 1; k >= 0; --k) {
    const auto& iv = intervals_[k];
    int64_t collapsed = 1;
    for (int64_t j = iv[1] - 1; j >= iv[0]; --j) {
      host_strides_[j] = current;
      current /= collapsed;
      int64_t product;
      if (!Mul(collapsed, s[j], &product) ||
          !AlignUp(product, al[j], &collapsed) ||
          !Mul(current, collapsed, &current)) {
        return Overflow();
      }
    }
  }
  if (rank == 1 && !Mul(current, kTile, &current)) return Overflow();
  host_volume_ = current;
  return absl::OkStatus();
}

absl::Status TtcoreMetalLayout::ComputePadding(
    absl::Span<const int64_t> shape) {
  int64_t logical = 1, physical = 1, allocated = 1;
  for (int64_t d : physical_) {
    if (!Mul(physical, d, &physical)) return Overflow();
  }
  for (int64_t d : text_.logical_shape) {
    logical *= d;  // at most the physical volume
  }
  for (int64_t d : shape) {
    if (!Mul(allocated, d, &allocated)) return Overflow();
  }
  if (tiled() && !Mul(allocated, element_.tile->height * element_.tile->width,
                      &allocated)) {
    return Overflow();
  }
  padding_ = {logical, physical, physical - logical, allocated};
  return absl::OkStatus();
}

void TtcoreMetalLayout::CompareWithText(absl::Span<const int64_t> shape) {
  const int64_t prank = static_cast<int64_t>(physical_.size());
  const std::vector<int64_t> text_shard(shape.begin() + prank, shape.end());
  if (text_shard != shard_units_) {
    bool covers = true;
    for (int64_t i = 0; i < prank; ++i) {
      covers &= grid_[i] * text_shard[i] >= physical_units_[i];
    }
    warnings_.push_back(absl::StrCat(
        "the tensor type's shard is ", Dims(text_shard),
        " but getDeviceShape gives ", Dims(shard_units_),
        tiled() ? " tiles" : "", " for grid ", Dims(grid_), ": grid x shard ",
        covers ? "covers more than" : "does not cover", " the physical ",
        Dims(physical_units_),
        covers ? "" : " (the dim_alignments padding is ignored)"));
  }
  if (text_.oob) {
    warnings_.push_back(absl::StrCat(
        "oob value '", OobValName(*text_.oob),
        "' was removed from #ttcore.metal_layout in 2026 (padding is filled "
        "by d2m.mask now); ignored"));
  }
  if (text_.memory_space != MemorySpace::kDeviceL1 &&
      text_.memory_space != MemorySpace::kDeviceDRAM) {
    warnings_.push_back(absl::StrCat(
        "memory space ", MemorySpaceName(text_.memory_space),
        " is host memory: the grid and shards are a description only"));
  }
}

std::string TtcoreMetalLayout::LogicalToPhysicalText() const {
  const int64_t rank = static_cast<int64_t>(text_.logical_shape.size());
  std::vector<std::string> dims, results;
  for (int64_t d = 0; d < rank; ++d) dims.push_back(absl::StrCat("d", d));
  for (const auto& iv : intervals_) {
    if (iv[1] - iv[0] == 1) {
      results.push_back(absl::StrCat("d", iv[0]));
      continue;
    }
    std::vector<std::string> terms;
    for (int64_t j = iv[0]; j < iv[1]; ++j) {
      terms.push_back(strides_[j] == 1
                          ? absl::StrCat("d", j)
                          : absl::StrCat("d", j, " * ", strides_[j]));
    }
    results.push_back(terms.empty() ? "0" : absl::StrJoin(terms, " + "));
  }
  return absl::StrCat("(", absl::StrJoin(dims, ", "), ") -> (",
                      absl::StrJoin(results, ", "), ")");
}

std::string TtcoreMetalLayout::PhysicalToLogicalText() const {
  const int64_t rank = static_cast<int64_t>(text_.logical_shape.size());
  const std::vector<int64_t>& s = text_.logical_shape;
  const std::vector<int64_t>& al = text_.dim_alignments;
  std::vector<std::string> dims, results(rank);
  for (size_t i = 0; i < physical_.size(); ++i) {
    dims.push_back(absl::StrCat("d", i));
  }
  for (size_t i = 0; i < intervals_.size(); ++i) {
    const auto& iv = intervals_[i];
    // Rank 1's synthetic row is physical dim 0; the real dims follow.
    const std::string p = absl::StrCat("d", i);
    if (iv[1] - iv[0] == 1) {
      results[iv[0]] = p;
      continue;
    }
    for (int64_t d = iv[1] - 1; d >= iv[0]; --d) {
      const int64_t st = strides_[d];
      const std::string div = st == 1 ? p : absl::StrCat(p, " floordiv ", st);
      if (d == iv[1] - 1) {
        int64_t aligned;
        AlignUp(s[d], al[d], &aligned);
        results[d] = absl::StrCat(p, " mod ", aligned);
      } else if (d == iv[0]) {
        results[d] = div;
      } else {
        results[d] = absl::StrCat(div, " mod ", strides_[d - 1] / st);
      }
    }
  }
  return absl::StrCat("(", absl::StrJoin(dims, ", "), ") -> (",
                      absl::StrJoin(results, ", "), ")");
}

std::string TtcoreMetalLayout::MemrefText() const {
  return absl::StrCat("memref<", DimsToString(shard_units_), "x",
                      MlirElementToString(element_), ", #ttcore.memory_space<",
                      MemorySpaceName(text_.memory_space), ">>");
}

std::string TtcoreMetalLayout::TensorText() const {
  std::vector<std::string> flat;
  for (size_t i = 0; i + 1 < text_.intervals.size(); i += 2) {
    flat.push_back(absl::StrCat("[", text_.intervals[i], ", ",
                                text_.intervals[i + 1], "]"));
  }
  const std::string dense =
      flat.empty() ? "dense<>"
                   : absl::StrCat("dense<[", absl::StrJoin(flat, ", "), "]>");
  return absl::StrCat(
      "tensor<", DimsToString(device_shape_), "x",
      MlirElementToString(element_), ", #ttcore.metal_layout<logical_shape = ",
      DimsToString(text_.logical_shape),
      ", dim_alignments = ", DimsToString(text_.dim_alignments),
      ", collapsed_intervals = ", dense, " : tensor<", flat.size(), "x2xi64>, ",
      MemorySpaceName(text_.memory_space), ", ",
      MetalMemoryLayoutName(text_.memory_layout), ">>");
}

absl::StatusOr<MetalLocation> TtcoreMetalLayout::Locate(
    absl::Span<const int64_t> index) const {
  const std::vector<int64_t>& s = text_.logical_shape;
  if (index.size() != s.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("index has ", index.size(),
                     " values but the logical shape has rank ", s.size()));
  }
  for (size_t d = 0; d < index.size(); ++d) {
    if (index[d] < 0 || index[d] >= s[d]) {
      return absl::InvalidArgumentError(
          absl::StrCat("index ", index[d], " is out of bounds for dim ", d,
                       " of size ", s[d]));
    }
  }
  MetalLocation loc;
  if (s.empty()) {
    loc.physical = {0, 0};
  } else {
    for (const auto& iv : intervals_) {
      int64_t p = 0;
      for (int64_t j = iv[0]; j < iv[1]; ++j) p += index[j] * strides_[j];
      loc.physical.push_back(p);
    }
  }
  const size_t prank = physical_.size();
  for (size_t i = 0; i < prank; ++i) {
    loc.shard.push_back(loc.physical[i] / shard_scalars_[i]);
    loc.offset.push_back(loc.physical[i] % shard_scalars_[i]);
  }
  if (tiled()) {
    // The memref index of the tile (leading dims as they are) and the
    // row and column inside the tile.
    loc.offset_tile = loc.offset;
    const int64_t t[2] = {element_.tile->height, element_.tile->width};
    for (size_t k = 0; k < 2; ++k) {
      const size_t i = prank - 2 + k;
      loc.offset_tile[i] = loc.offset[i] / t[k];
      loc.offset_in_tile.push_back(loc.offset[i] % t[k]);
    }
  }
  if (text_.memory_space == MemorySpace::kDeviceL1 && prank == 2 &&
      grid_[0] <= device_.worker_rows && grid_[1] <= device_.worker_cols) {
    loc.core = tenstorrent::CoreCoord{loc.shard[1], loc.shard[0]};
  }
  return loc;
}

int64_t TtcoreMetalLayout::ValidBelow(int64_t i, int64_t x) const {
  const std::vector<int64_t>& s = text_.logical_shape;
  if (s.empty() || (s.size() == 1 && i == 0)) {
    // A synthetic dim: only coordinate 0 holds elements.
    return std::clamp<int64_t>(x, 0, 1);
  }
  const auto& iv = intervals_[i];
  x = std::clamp<int64_t>(x, 0, physical_[i]);
  // Mixed radix with aligned strides: count digit vectors below x.
  int64_t count = 0;
  int64_t inner = 1;  // elements of the dims after j
  std::vector<int64_t> inner_count(iv[1] - iv[0] + 1, 1);
  for (int64_t j = iv[1] - 1; j >= iv[0]; --j) {
    inner_count[j - iv[0]] = inner;
    inner *= s[j];
  }
  int64_t rest = x;
  for (int64_t j = iv[0]; j < iv[1]; ++j) {
    const int64_t digit = rest / strides_[j];
    if (digit >= s[j]) {
      count += s[j] * inner_count[j - iv[0]];
      return count;
    }
    count += digit * inner_count[j - iv[0]];
    rest %= strides_[j];
  }
  return count;
}

absl::optional<std::vector<int64_t>> TtcoreMetalLayout::LogicalAt(
    absl::Span<const int64_t> physical) const {
  const std::vector<int64_t>& s = text_.logical_shape;
  std::vector<int64_t> index(s.size(), 0);
  if (s.empty()) {
    if (physical[0] != 0 || physical[1] != 0) return absl::nullopt;
    return index;
  }
  for (size_t i = 0; i < intervals_.size(); ++i) {
    const auto& iv = intervals_[i];
    if (iv[0] == iv[1]) {
      if (physical[i] != 0) return absl::nullopt;
      continue;
    }
    int64_t rest = physical[i];
    for (int64_t j = iv[0]; j < iv[1]; ++j) {
      const int64_t digit = rest / strides_[j];
      if (digit >= s[j]) return absl::nullopt;
      index[j] = digit;
      rest %= strides_[j];
    }
  }
  return index;
}

int64_t TtcoreMetalLayout::ShardElements(
    absl::Span<const int64_t> shard) const {
  int64_t n = 1;
  for (size_t i = 0; i < physical_.size(); ++i) {
    const int64_t lo = shard[i] * shard_scalars_[i];
    n *= ValidBelow(i, lo + shard_scalars_[i]) - ValidBelow(i, lo);
  }
  return n;
}

}  // namespace hlolayout::grid
