// shape/tile.h: one tile of an XLA tiled layout, such as `(8,128)` in
// `bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)}`.
//
// A tile lists its sizes from major to minor and applies to the most-minor
// physical dimensions of the shape it tiles. The size kCombineDimension,
// written `*`, merges that dimension into the next more minor one before
// tiling (XLA stores it as INT64_MIN; its documentation says -1).
//
//   Tile t({8, 128});  t.ToString() == "(8,128)"
//   Tile c({Tile::kCombineDimension, 2});  c.ToString() == "(*,2)"
#ifndef HLOLAYOUT_SHAPE_TILE_H_
#define HLOLAYOUT_SHAPE_TILE_H_

#include <cstdint>
#include <limits>
#include <string>
#include <utility>

#include "absl/container/inlined_vector.h"
#include "absl/types/span.h"

namespace hlolayout {

class Tile {
 public:
  // The `*` size: combine this dimension with the next more minor one.
  static constexpr int64_t kCombineDimension =
      std::numeric_limits<int64_t>::min();

  Tile() = default;
  explicit Tile(absl::Span<const int64_t> dimensions)
      : dimensions_(dimensions.begin(), dimensions.end()) {}

  // Sizes from major to minor. Not validated here: see ValidateLayout.
  absl::Span<const int64_t> dimensions() const { return dimensions_; }
  int64_t dimension(int64_t i) const { return dimensions_[i]; }
  int64_t rank() const { return static_cast<int64_t>(dimensions_.size()); }

  Tile& add_dimension(int64_t size) {
    dimensions_.push_back(size);
    return *this;
  }

  // "(8,128)"; `*` for combined dimensions.
  std::string ToString() const;

  friend bool operator==(const Tile& a, const Tile& b) {
    return a.dimensions_ == b.dimensions_;
  }
  friend bool operator!=(const Tile& a, const Tile& b) { return !(a == b); }
  template <typename H>
  friend H AbslHashValue(H h, const Tile& t) {
    return H::combine(std::move(h), t.dimensions_);
  }

 private:
  absl::InlinedVector<int64_t, 3> dimensions_;
};

}  // namespace hlolayout

#endif  // HLOLAYOUT_SHAPE_TILE_H_
