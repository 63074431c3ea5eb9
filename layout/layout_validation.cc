#include "hlolayout/layout/layout_validation.h"

#include <cstdint>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "hlolayout/shape/printer.h"

namespace hlolayout {
namespace {

std::string MinorToMajorText(const Layout& layout) {
  return absl::StrCat("{", absl::StrJoin(layout.minor_to_major(), ","), "}");
}

bool IsSparse(const Layout& layout) {
  for (const DimLevel& level : layout.dim_levels()) {
    if (level.type != DIM_DENSE) return true;
  }
  return false;
}

absl::Status Invalid(absl::string_view message) {
  return absl::InvalidArgumentError(message);
}

// A set of dimension numbers 0..rank-1: one 64-bit word for the ranks real
// shapes have (validation runs for every parsed shape), a vector beyond.
class DimensionSet {
 public:
  explicit DimensionSet(int64_t rank) {
    if (rank > 64) large_ = std::make_unique<bool[]>(rank);
  }
  // Adds d; returns false if it was already there.
  // Precondition: 0 <= d < rank.
  bool Insert(int64_t d) {
    if (large_ != nullptr) {
      if (large_[d]) return false;
      large_[d] = true;
      return true;
    }
    const uint64_t bit = uint64_t{1} << d;
    if (bits_ & bit) return false;
    bits_ |= bit;
    return true;
  }

 private:
  uint64_t bits_ = 0;
  std::unique_ptr<bool[]> large_;  // for rank > 64
};

// The #(t) / *(t) rules for one of the two types, when set.
absl::Status ValidateSparseType(const char* name, PrimitiveType type,
                                bool sparse) {
  if (!sparse) {
    return Invalid(absl::StrCat(name, "(", PrimitiveTypeName(type),
                                ") is only allowed on sparse arrays"));
  }
  if (!IsIntegralType(type)) {
    return Invalid(absl::StrCat(name, "(", PrimitiveTypeName(type),
                                ") must name an integral type"));
  }
  return absl::OkStatus();
}

// XLA: LayoutUtil::ValidateLayoutForShape, minor_to_major a permutation
// of 0..rank-1 (no out-of-range value, no duplicate).
absl::Status ValidateMinorToMajor(const Layout& layout, int64_t rank) {
  const int64_t entries = static_cast<int64_t>(layout.minor_to_major().size());
  if (entries != rank) {
    return Invalid(absl::StrCat("layout ", MinorToMajorText(layout), " has ",
                                entries, " dimension", entries == 1 ? "" : "s",
                                " but the shape has rank ", rank));
  }
  DimensionSet seen(rank);
  for (int64_t d : layout.minor_to_major()) {
    if (d < 0 || d >= rank) {
      return Invalid(absl::StrCat("minor_to_major ", MinorToMajorText(layout),
                                  " names dimension ", d, ", outside 0..",
                                  rank - 1));
    }
    if (!seen.Insert(d)) {
      return Invalid(absl::StrCat("minor_to_major ", MinorToMajorText(layout),
                                  " is not a permutation: ", d,
                                  " appears twice"));
    }
  }
  return absl::OkStatus();
}

// XLA: LayoutUtil::ValidateLayoutForShape, every tile non-empty and no
// tile dimension 0. XLA's validator lets a negative size or a `*` as the
// most minor entry through, and so does this one; BuildTilingModel
// (layout/tiling.h) refuses them when asked where elements live.
absl::Status ValidateTiles(const Layout& layout) {
  for (const Tile& tile : layout.tiles()) {
    if (tile.rank() == 0) return Invalid("tile () is empty");
    for (int64_t i = 0; i < tile.rank(); ++i) {
      if (tile.dimension(i) == 0) {
        return Invalid(
            absl::StrCat("tile ", tile.ToString(), " has a zero dimension"));
      }
    }
  }
  return absl::OkStatus();
}

// XLA: LayoutUtil::ValidateLayoutForShape, #(t), *(t) and P(...) only on
// sparse layouts. Today's XLA drops D(...), so every layout is dense and
// they are always refused unless D(...) was kept.
absl::Status ValidateSparseParts(const Layout& layout) {
  const bool sparse = IsSparse(layout);
  // Both types are unset on dense arrays; check before calling.
  if (layout.index_primitive_type() != PRIMITIVE_TYPE_INVALID) {
    absl::Status status =
        ValidateSparseType("#", layout.index_primitive_type(), sparse);
    if (!status.ok()) return status;
  }
  if (layout.pointer_primitive_type() != PRIMITIVE_TYPE_INVALID) {
    absl::Status status =
        ValidateSparseType("*", layout.pointer_primitive_type(), sparse);
    if (!status.ok()) return status;
  }
  if (layout.has_physical_shape()) {
    if (!sparse) return Invalid("P(...) is only allowed on sparse arrays");
    absl::Status status = ValidateShape(layout.physical_shape());
    if (!status.ok()) {
      return Invalid(absl::StrCat("in P(...): ", status.message()));
    }
  }
  return absl::OkStatus();
}

// XLA: LayoutUtil::ValidateLayoutForShape, split configs: the physical
// dimension in range and split once, the indices strictly increasing and
// strictly inside (0, size of that dimension).
absl::Status ValidateSplitConfigs(const Layout& layout, const Shape& shape) {
  const int64_t rank = shape.rank();
  DimensionSet split(rank);
  for (const SplitConfig& config : layout.split_configs()) {
    const int64_t d = config.dimension;
    if (d < 0 || d >= rank) {
      return Invalid(absl::StrCat("SC(", d, ":...) names physical dimension ",
                                  d, ", outside 0..", rank - 1));
    }
    if (!split.Insert(d)) {
      return Invalid(absl::StrCat("SC(", d, ":...) splits physical dimension ",
                                  d, " twice"));
    }
    if (config.split_indices.empty()) {
      // Text cannot hold it: "SC(1:)" does not parse, in XLA either.
      return Invalid(absl::StrCat("SC(", d, ":) has no split indices"));
    }
    const int64_t logical = layout.minor_to_major(rank - 1 - d);
    const int64_t size = shape.dimension(logical);
    if (size == Shape::kUnboundedSize) {
      return Invalid(absl::StrCat("SC(", d, ":...) splits physical dimension ",
                                  d, ", which is unbounded (`?`)"));
    }
    int64_t previous = 0;
    for (int64_t index : config.split_indices) {
      if (index <= previous || index >= size) {
        return Invalid(absl::StrCat(
            "SC(", d, ":", absl::StrJoin(config.split_indices, ","),
            "): split indices must increase strictly inside (0, ", size, ")"));
      }
      previous = index;
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status ValidateLayoutForShape(const Layout& layout, const Shape& shape) {
  const int64_t rank = shape.rank();
  if (absl::Status s = ValidateMinorToMajor(layout, rank); !s.ok()) return s;
  // XLA (2024): one dim level type per dimension. Today's XLA drops D(...)
  // when reading, so only layouts built with keep_dim_levels get here.
  const int64_t levels = static_cast<int64_t>(layout.dim_levels().size());
  if (levels != 0 && levels != rank) {
    return Invalid(absl::StrCat("D(...) has ", levels,
                                " entries but the shape has rank ", rank));
  }
  if (absl::Status s = ValidateTiles(layout); !s.ok()) return s;
  // XLA: LayoutUtil::ValidateLayoutForShape, L > 0.
  if (layout.tail_padding_alignment_in_elements() <= 0) {
    return Invalid(absl::StrCat("L(",
                                layout.tail_padding_alignment_in_elements(),
                                ") must be positive"));
  }
  // XLA: LayoutUtil::ValidateLayoutForShape, E >= 0.
  if (layout.element_size_in_bits() < 0) {
    return Invalid(absl::StrCat("E(", layout.element_size_in_bits(),
                                ") must not be negative"));
  }
  // M(n) is not checked: XLA's validators do not, and its printer writes M
  // only when n > 0 (ours too); no size here depends on it.
  if (absl::Status s = ValidateSparseParts(layout); !s.ok()) return s;
  return ValidateSplitConfigs(layout, shape);
}

absl::Status ValidateShape(const Shape& shape) {
  if (shape.element_type() == PRIMITIVE_TYPE_INVALID) {
    return Invalid("shape has an invalid element type");
  }
  if (shape.IsTuple()) {
    if (shape.rank() != 0) return Invalid("a tuple shape has no dimensions");
    if (shape.has_layout()) return Invalid("a tuple shape has no layout");
    for (const Shape& element : shape.tuple_shapes()) {
      absl::Status status = ValidateShape(element);
      if (!status.ok()) return status;
    }
    return absl::OkStatus();
  }
  if (shape.IsBuffer()) {
    if (shape.tuple_size() != 1 || !shape.buffer_shape().IsArray()) {
      return Invalid("a buffer holds exactly one array shape");
    }
    return ValidateShape(shape.buffer_shape());
  }
  if (shape.IsToken() || shape.IsOpaque()) {
    const absl::string_view name = PrimitiveTypeName(shape.element_type());
    if (shape.rank() != 0 || shape.tuple_size() != 0) {
      return Invalid(absl::StrCat(name, " shapes have no dimensions"));
    }
    if (shape.has_layout() && shape.layout() != Layout()) {
      return Invalid(absl::StrCat(name, " shapes have no layout"));
    }
    return absl::OkStatus();
  }
  if (shape.tuple_size() != 0) {
    return Invalid("an array shape has no tuple elements");
  }
  if (shape.dynamic_dimensions().size() != shape.dimensions().size()) {
    return Invalid("dynamic dimension flags do not match the rank");
  }
  int64_t elements = 1;
  bool overflow = false;
  bool has_zero = false;  // a zero-sized dimension makes the count 0
  for (int64_t i = 0; i < shape.rank(); ++i) {
    const int64_t size = shape.dimension(i);
    if (size == Shape::kUnboundedSize) {
      if (!shape.is_dynamic_dimension(i)) {
        return Invalid(absl::StrCat("dimension ", i,
                                    " is unbounded but not marked dynamic"));
      }
      continue;
    }
    if (size < 0) {
      return Invalid(
          absl::StrCat("dimension ", i, " has negative size ", size));
    }
    has_zero |= size == 0;
    if (!overflow && __builtin_mul_overflow(elements, size, &elements)) {
      overflow = true;
    }
  }
  if (has_zero) overflow = false;
  if (overflow) {
    return Invalid(absl::StrCat("element count of ", HumanString(shape),
                                " overflows int64"));
  }
  if (shape.has_layout()) {
    return ValidateLayoutForShape(shape.layout(), shape);
  }
  return absl::OkStatus();
}

}  // namespace hlolayout
