// shape/layout.h: XLA's Layout, every attribute it can print.
//
// A layout says how an array is stored: the physical dimension order
// (minor_to_major), tiles, tail padding, packed element width, memory space
// and the rarer sparse/split/dynamic attributes. Text form (HLO notation):
//
//   {3,2,0,1:T(8,128)(2,1)L(1024)E(4)S(1)SC(0:3)M(8)}
//
// Attributes, in the only order XLA prints and accepts them:
//   D(D,C+~)   dim level types (sparse; `+` not unique, `~` not ordered)
//   T(..)(..)  tiles, outermost first; `*` combines a dimension
//   L(n)       tail padding alignment in elements (default 1)
//   #(u32)     sparse index type          *(u32)  sparse pointer type
//   E(n)       element size in bits (0: the type's natural width)
//   S(n)       memory space (0 default device memory, 1 fast, 5 host)
//   SC(d:i,j)  split configs (d is a physical, major-ordered dimension)
//   P(shape)   sparse physical shape
//   M(n)       dynamic shape metadata prefix bytes
//
// A Layout is a value: copy, compare and hash it. It is not validated on
// construction; ValidateLayoutForShape (layout/layout_validation.h) does that.
// Shape and Layout share one Bazel target because P(shape) makes them
// mutually recursive, as in XLA.
#ifndef HLOLAYOUT_SHAPE_LAYOUT_H_
#define HLOLAYOUT_SHAPE_LAYOUT_H_

#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/hash/hash.h"
#include "absl/types/span.h"
#include "hlolayout/shape/primitive_type.h"
#include "hlolayout/shape/tile.h"

namespace hlolayout {

class Shape;

// Numbers match xla_data.proto's DimLevelType.
enum DimLevelType : int32_t {
  DIM_DENSE = 0,
  DIM_COMPRESSED = 1,
  DIM_SINGLETON = 2,
  DIM_LOOSE_COMPRESSED = 3,
};

// One entry of `D(...)`: `D`, `C`, `S` or `H`, then `+` if not unique and
// `~` if not ordered.
struct DimLevel {
  DimLevelType type = DIM_DENSE;
  bool unique = true;
  bool ordered = true;

  friend bool operator==(const DimLevel& a, const DimLevel& b) {
    return a.type == b.type && a.unique == b.unique && a.ordered == b.ordered;
  }
  friend bool operator!=(const DimLevel& a, const DimLevel& b) {
    return !(a == b);
  }
  template <typename H>
  friend H AbslHashValue(H h, const DimLevel& d) {
    return H::combine(std::move(h), d.type, d.unique, d.ordered);
  }
};

// One `(d:i,j,...)` of `SC(...)`: split points of physical dimension d.
struct SplitConfig {
  int64_t dimension = 0;
  absl::InlinedVector<int64_t, 2> split_indices;

  friend bool operator==(const SplitConfig& a, const SplitConfig& b) {
    return a.dimension == b.dimension && a.split_indices == b.split_indices;
  }
  friend bool operator!=(const SplitConfig& a, const SplitConfig& b) {
    return !(a == b);
  }
  template <typename H>
  friend H AbslHashValue(H h, const SplitConfig& s) {
    return H::combine(std::move(h), s.dimension, s.split_indices);
  }
};

class Layout {
 public:
  // Memory space numbers with a meaning in XLA (layout.h).
  static constexpr int64_t kDefaultMemorySpace = 0;
  static constexpr int64_t kGenericFastMemorySpace = 1;
  static constexpr int64_t kHostMemorySpace = 5;

  Layout() = default;
  explicit Layout(absl::Span<const int64_t> minor_to_major)
      : minor_to_major_(minor_to_major.begin(), minor_to_major.end()) {}
  Layout(const Layout& other);
  Layout& operator=(const Layout& other);
  Layout(Layout&&) = default;
  Layout& operator=(Layout&&) = default;
  ~Layout();

  // Physical order, most minor first: {1,0} is row-major for rank 2.
  absl::Span<const int64_t> minor_to_major() const { return minor_to_major_; }
  int64_t minor_to_major(int64_t i) const { return minor_to_major_[i]; }
  Layout& set_minor_to_major(absl::Span<const int64_t> m) {
    minor_to_major_.assign(m.begin(), m.end());
    return *this;
  }
  Layout& add_minor_to_major(int64_t d) {
    minor_to_major_.push_back(d);
    return *this;
  }

  absl::Span<const DimLevel> dim_levels() const {
    return rare_ == nullptr ? absl::Span<const DimLevel>() : rare_->dim_levels;
  }
  Layout& add_dim_level(DimLevel level) {
    rare().dim_levels.push_back(level);
    return *this;
  }

  absl::Span<const Tile> tiles() const { return tiles_; }
  Layout& add_tile(Tile tile) {
    tiles_.push_back(std::move(tile));
    return *this;
  }
  Layout& clear_tiles() {
    tiles_.clear();
    return *this;
  }

  // L(n); 1 means no tail padding (a proto value of 0 is read as 1).
  int64_t tail_padding_alignment_in_elements() const {
    return rare_ == nullptr ? 1 : rare_->tail_padding_alignment_in_elements;
  }
  Layout& set_tail_padding_alignment_in_elements(int64_t n) {
    return SetRare(&Rare::tail_padding_alignment_in_elements, n, int64_t{1});
  }

  PrimitiveType index_primitive_type() const {
    return rare_ == nullptr ? PRIMITIVE_TYPE_INVALID
                            : rare_->index_primitive_type;
  }
  Layout& set_index_primitive_type(PrimitiveType t) {
    return SetRare(&Rare::index_primitive_type, t, PRIMITIVE_TYPE_INVALID);
  }
  PrimitiveType pointer_primitive_type() const {
    return rare_ == nullptr ? PRIMITIVE_TYPE_INVALID
                            : rare_->pointer_primitive_type;
  }
  Layout& set_pointer_primitive_type(PrimitiveType t) {
    return SetRare(&Rare::pointer_primitive_type, t, PRIMITIVE_TYPE_INVALID);
  }

  // E(n); 0 means the element type's natural width.
  int64_t element_size_in_bits() const { return element_size_in_bits_; }
  Layout& set_element_size_in_bits(int64_t bits) {
    element_size_in_bits_ = bits;
    return *this;
  }

  int64_t memory_space() const { return memory_space_; }
  Layout& set_memory_space(int64_t space) {
    memory_space_ = space;
    return *this;
  }

  absl::Span<const SplitConfig> split_configs() const {
    return rare_ == nullptr ? absl::Span<const SplitConfig>()
                            : rare_->split_configs;
  }
  Layout& add_split_config(SplitConfig config) {
    rare().split_configs.push_back(std::move(config));
    return *this;
  }

  bool has_physical_shape() const {
    return rare_ != nullptr && rare_->physical_shape != nullptr;
  }
  // Precondition: has_physical_shape().
  const Shape& physical_shape() const;
  Layout& set_physical_shape(const Shape& shape);
  Layout& clear_physical_shape();

  int64_t dynamic_shape_metadata_prefix_bytes() const {
    return rare_ == nullptr ? 0 : rare_->dynamic_shape_metadata_prefix_bytes;
  }
  Layout& set_dynamic_shape_metadata_prefix_bytes(int64_t bytes) {
    return SetRare(&Rare::dynamic_shape_metadata_prefix_bytes, bytes,
                   int64_t{0});
  }

  // The layout in HLO notation, as XLA's Layout::ToString: "{1,0:T(2,2)}".
  std::string ToString() const;

  // Layout comparison with attributes that can be ignored, like XLA's
  // Layout::Equal: Layout::Equal().IgnoreMemorySpace()(a, b).
  class Equal {
   public:
    bool operator()(const Layout& a, const Layout& b) const;
    Equal& IgnoreTiles() {
      ignore_tiles_ = true;
      return *this;
    }
    Equal& IgnoreTailPadding() {
      ignore_tail_padding_ = true;
      return *this;
    }
    Equal& IgnoreElementSize() {
      ignore_element_size_ = true;
      return *this;
    }
    Equal& IgnoreMemorySpace() {
      ignore_memory_space_ = true;
      return *this;
    }
    Equal& IgnoreSplitConfigs() {
      ignore_split_configs_ = true;
      return *this;
    }

   private:
    bool ignore_tiles_ = false;
    bool ignore_tail_padding_ = false;
    bool ignore_element_size_ = false;
    bool ignore_memory_space_ = false;
    bool ignore_split_configs_ = false;
  };

  friend bool operator==(const Layout& a, const Layout& b) {
    return Equal()(a, b);
  }
  friend bool operator!=(const Layout& a, const Layout& b) { return !(a == b); }
  template <typename H>
  friend H AbslHashValue(H h, const Layout& l) {
    const absl::Span<const DimLevel> levels = l.dim_levels();
    const absl::Span<const SplitConfig> splits = l.split_configs();
    h = H::combine(
        std::move(h), l.minor_to_major_, l.tiles_,
        l.tail_padding_alignment_in_elements(), l.index_primitive_type(),
        l.pointer_primitive_type(), l.element_size_in_bits_, l.memory_space_,
        l.dynamic_shape_metadata_prefix_bytes(), l.has_physical_shape());
    h = H::combine_contiguous(std::move(h), levels.data(), levels.size());
    h = H::combine(std::move(h), levels.size());
    h = H::combine_contiguous(std::move(h), splits.data(), splits.size());
    h = H::combine(std::move(h), splits.size());
    // The physical shape (rare, sparse only) is left out of the hash; equal
    // layouts still hash equal.
    return h;
  }

 private:
  // The attributes most layouts leave at their defaults (sparse, split,
  // dynamic metadata, tail padding), out of line: a layout without any is
  // 152 bytes rather than 224, and a dump holds one in every Shape. Absent
  // means every one at its default; the getters hide the difference.
  struct Rare {
    Rare();  // out of line: Shape is incomplete here
    Rare(const Rare& other);
    ~Rare();
    Rare& operator=(const Rare&) = delete;

    std::vector<DimLevel> dim_levels;
    int64_t tail_padding_alignment_in_elements = 1;
    PrimitiveType index_primitive_type = PRIMITIVE_TYPE_INVALID;
    PrimitiveType pointer_primitive_type = PRIMITIVE_TYPE_INVALID;
    std::vector<SplitConfig> split_configs;
    std::unique_ptr<Shape> physical_shape;
    int64_t dynamic_shape_metadata_prefix_bytes = 0;
  };
  Rare& rare() {
    if (rare_ == nullptr) rare_ = std::make_unique<Rare>();
    return *rare_;
  }
  // Sets a rare attribute; the block is made only for a value other than
  // `default_value` (Rare's own).
  template <typename T>
  Layout& SetRare(T Rare::*field, T value, T default_value) {
    if (value != default_value || rare_ != nullptr) rare().*field = value;
    return *this;
  }

  absl::InlinedVector<int64_t, 6> minor_to_major_;
  absl::InlinedVector<Tile, 2> tiles_;
  int64_t element_size_in_bits_ = 0;
  int64_t memory_space_ = 0;
  std::unique_ptr<Rare> rare_;
};

// The layout in HLO notation (ToString): "{1,0:T(8,128)}". AbslStringify as
// for Shape (shape/shape.h).
template <typename Sink>
void AbslStringify(Sink& sink, const Layout& layout) {
  sink.Append(layout.ToString());
}
inline std::ostream& operator<<(std::ostream& out, const Layout& layout) {
  return out << layout.ToString();
}

}  // namespace hlolayout

#endif  // HLOLAYOUT_SHAPE_LAYOUT_H_
