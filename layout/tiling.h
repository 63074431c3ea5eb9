// layout/tiling.h: the tiled layout of an array as a chain of
// pad-reshape-transpose steps, one per tile level.
//
// XLA lays out `f32[3,5]{1,0:T(2,2)}` like this (tiled layout seed,
// ../shared/seeds/000_*):
//   physical shape (major to minor, from minor_to_major)   [3,5]
//   tile level 0, T(2,2):
//     1. pad       each tiled dim d to ceil(d/t)*t          [4,6]
//     2. reshape   each tiled dim into (ceil(d/t), t)       [2,2,3,2]
//     3. transpose the t's to the minor end, in order       [2,3,2,2]
//        (permutation {0,2,1,3}: output dim i is split dim permutation[i])
//   final shape [2,3,2,2]: 24 elements, 9 of them padding.
// The element (2,3) maps to (1,1,0,1), whose row-major offset is 17.
//
// Rules, from the seed and XLA's LinearIndexForNestedTiling:
//   - a tile applies to the minor suffix of the current shape; a tile with
//     more dims than the shape first pads it with leading 1s;
//   - `*` (Tile::kCombineDimension) merges that dim into the next more minor
//     one before tiling: F32[2,7,8,11,10] with T(*,*,2,*,3) is [112,110]
//     tiled by (2,3); several `*` chain; the most minor tile entry cannot be
//     `*`;
//   - the next tile applies to the shape the previous one produced, so
//     `(8,128)(2,1)` rearranges the inside of each (8,128) tile;
//   - L(n) then pads the element count to a multiple of n (tail padding).
// Everything is checked for int64 overflow.
#ifndef HLOLAYOUT_LAYOUT_TILING_H_
#define HLOLAYOUT_LAYOUT_TILING_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "hlolayout/shape/primitive_type.h"
#include "hlolayout/shape/shape.h"
#include "hlolayout/shape/tile.h"

namespace hlolayout {

// One dimension of an intermediate shape and where it came from.
struct TilingDim {
  int64_t size = 0;
  // The logical dimension it derives from, or -1 when it combines several
  // dims (through `*`) or is a leading 1 added for a larger tile.
  int64_t logical_dimension = -1;
  // Its human-readable origin is built on demand (CombinedDimLabel,
  // OutputDimLabel): stored here, the nested labels made the model cubic
  // in the number of tile levels.
};

// One `(...)` group of T(...)(...) seen as pad-reshape-transpose.
struct TileLevel {
  int64_t level = 0;  // 0 for the first tile
  Tile tile;          // as written, `*` included
  // The shape the tile applies to (major to minor), before anything.
  std::vector<TilingDim> input;
  // Leading 1s prepended because the tile has more dims than `input`.
  int64_t leading_ones = 0;
  // After leading 1s and `*` merging: the dims the tile really sees.
  std::vector<TilingDim> combined;
  // The tile with `*` removed. It applies to the last tile_sizes.size()
  // dims of `combined`; the ones before it (the prefix) are untouched.
  std::vector<int64_t> tile_sizes;
  // For each entry of `combined`, the entries of (leading 1s + input) it
  // merges, as [first, last] positions.
  std::vector<std::pair<int64_t, int64_t>> combined_from;
  // Step 1: `combined` with each tiled dim rounded up to a multiple of t.
  std::vector<int64_t> padded;
  // Step 2: prefix, then (ceil(d/t), t) for each tiled dim (a bitcast).
  std::vector<int64_t> split;
  // Step 3: output dim i is split dim permutation[i].
  std::vector<int64_t> permutation;
  // The result: prefix, the tile counts, then the tile sizes.
  std::vector<TilingDim> output;

  int64_t prefix_rank() const {
    return static_cast<int64_t>(combined.size() - tile_sizes.size());
  }
};

// The whole chain for one array shape.
struct TilingModel {
  PrimitiveType element_type = PRIMITIVE_TYPE_INVALID;
  std::vector<int64_t> logical_dims;    // bounded dynamic dims at their bound
  std::vector<int64_t> minor_to_major;  // default major-to-minor if absent
  // Physical shape, major to minor: physical[i] is logical dim
  // minor_to_major[rank-1-i].
  std::vector<TilingDim> physical;
  std::vector<TileLevel> levels;
  std::vector<int64_t> final_dims;  // after the last tile (== physical sizes
                                    // when untiled)
  int64_t logical_elements = 0;
  int64_t tiled_elements = 0;   // product of final_dims
  int64_t tail_alignment = 1;   // L(n)
  int64_t padded_elements = 0;  // tiled_elements rounded up to L
  // Storage width in bits: E(n) when set, else 8 * ByteWidth(type).
  int64_t element_bits = 0;
  bool packed = false;  // E(n) set

  int64_t rank() const { return static_cast<int64_t>(logical_dims.size()); }
  bool tiled() const { return !levels.empty(); }
};

// The most dimensions BuildTilingModel keeps over all its intermediate
// shapes (every level's input, combined and output shapes). Every level
// stores its whole shape, and a one-dim tile on a rank-r shape gives rank
// r+1, so `f32[16]{0:T(2)(2)...}` with n levels needs about 1.5*n*n: 1000
// levels (~1.5 M dims, ~65 MB peak for `hlolayout index`) are answered,
// 10000 levels are refused before anything is built.
inline constexpr int64_t kMaxTilingModelDims = int64_t{1} << 21;

// BuildTilingModel
//
// Builds the chain for an array shape: f32[3,5]{1,0:T(2,2)} gives one level
// with padded [4,6], split [2,2,3,2], permutation {0,2,1,3}, final
// [2,3,2,2]. A missing layout means the default major-to-minor layout.
// Errors (never CHECK): not an array, an unbounded dynamic dim, a negative
// dim, minor_to_major not a permutation, a tile with no dims, a tile size
// <= 0 other than `*`, `*` as the most minor tile entry, L <= 0, E < 0,
// more than kMaxTilingModelDims intermediate dimensions ("tiled layout too
// large: ..."), and any size that overflows int64 (bits included).
absl::StatusOr<TilingModel> BuildTilingModel(const Shape& array_shape);

// Bytes `elements` elements occupy at `element_bits` bits each, packed when
// `packed` (ceil(n*bits/8)), else n * bits/8. Errors on int64 overflow.
absl::StatusOr<int64_t> BytesForElements(int64_t elements, int64_t element_bits,
                                         bool packed);

// DescribeTiling
//
// Multi-line human text of the chain, for `hlolayout tiling`:
//   physical [3,5] (dims 0,1)
//   T0 (2,2) on [3,5]: pad [4,6] reshape [2,2,3,2] transpose {0,2,1,3}
//     -> [2,3,2,2]
//   final [2,3,2,2]: 24 elements (15 logical, 9 padding)
std::string DescribeTiling(const TilingModel& model);

// Human-readable origin of `model.levels[level].combined[index]`: "dim 1",
// "dims 0*1", "dim 1 tiles (T0)", "dim 1 in tile (T0)", "leading 1",
// "(dim 0 tiles (T0))*(leading 1)". Built on demand in O(levels) time; at
// most 6 tile steps are spelled out ("dim 0 in tile (T0) ... (994 more tile
// levels) in tile (T998) in tile (T999)") and `*` merges nest at most 4
// deep, so a label stays short however many levels the layout has.
// Precondition: 0 <= level < levels.size(), 0 <= index < combined.size().
std::string CombinedDimLabel(const TilingModel& model, int64_t level,
                             int64_t index);
// The same for dim `index` of the shape after level `level` (its `output`),
// or of the physical shape when level is -1.
std::string OutputDimLabel(const TilingModel& model, int64_t level,
                           int64_t index);

// "[2,3,2,2]".
std::string DimsToString(const std::vector<int64_t>& dims);
std::string DimsToString(const std::vector<TilingDim>& dims);

}  // namespace hlolayout

#endif  // HLOLAYOUT_LAYOUT_TILING_H_
