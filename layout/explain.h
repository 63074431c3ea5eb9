// layout/explain.h: a shape and its layout explained, as one value that the
// CLI (`hlolayout explain`, text and --json) and Python
// (`Shape.explain()`) render without computing anything of their own (the
// views: views/explain_text.h).
//
//   ShapeExplanation e =
//       ExplainShape(ParseShape("f32[3,5]{1,0:T(2,2)}").value());
//   e.kind == ShapeExplanation::Kind::kArray
//   e.elements == 15, e.bytes == 60          // before tiling padding
//   e.padding->sizes.padded_bytes == 96      // after the 2x2 tiles
//   e.padding->padded_dimensions.size() == 2 // dims 0 and 1 pad
//   ExplanationText(e)   // the text of `hlolayout explain`
//   ExplanationJson(e)   // the document of `hlolayout explain --json`
//                        // (both views/explain_text.h)
//
// Tuples are explained element by element, a buffer through the array it
// holds. Every figure is computed once here (layout/sizes.h,
// layout/tiling.h, layout/describe.h).
//
// Preconditions: the shape is valid (as ParseShape returns it); a layout
// that cannot be sized (too large for int64, say) is not a precondition:
// its padding section holds the error and ok() is false.
#ifndef HLOLAYOUT_LAYOUT_EXPLAIN_H_
#define HLOLAYOUT_LAYOUT_EXPLAIN_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "hlolayout/layout/describe.h"
#include "hlolayout/layout/sizes.h"
#include "hlolayout/shape/shape.h"

namespace hlolayout {

// How big an array's buffer is after its tiles, and why.
struct PaddingAndSize {
  std::vector<int64_t> physical_tiled;  // the dims after every tile level
  std::string tiles;                    // "(8,128)(2,1)", "" when untiled
  ArraySizes sizes;
  std::vector<TilePadding> padded_dimensions;  // empty: aligned to the tiles
};

struct ShapeExplanation {
  enum class Kind { kArray, kTuple, kBuffer, kToken, kOpaque };
  Kind kind = Kind::kArray;
  std::string shape;  // with its layout, as XLA prints it
  // kTuple: one per element; kBuffer: the array it holds.
  std::vector<ShapeExplanation> parts;

  // kArray only.
  PrimitiveType element_type = PRIMITIVE_TYPE_INVALID;
  int64_t bit_width = 0, byte_width = 0;
  int64_t rank = 0;
  std::string dimensions_text;  // "[3,<=5]"
  std::vector<int64_t> dimensions;
  std::vector<bool> unbounded;  // per dimension: `?`
  std::vector<bool> dynamic_dimensions;
  bool is_static = true;
  std::vector<int64_t> minor_to_major, major_to_minor;
  std::string layout;  // "{1,0:T(2,2)}"
  std::vector<AttributeDescription> attributes;
  int64_t memory_space = 0;
  std::string memory_space_name;
  int64_t element_size_in_bits = 0;  // E(n), 0 when unpacked
  int64_t elements = -1;             // logical; -1: unbounded or past int64
  int64_t bytes = -1;                // before tiling padding; -1: unknown
  absl::StatusOr<PaddingAndSize> padding = PaddingAndSize();

  // Every padding section (this one's and its parts') was computed, or
  // cannot be because a dimension is unbounded (`?`: sized at run time).
  bool ok() const;
  bool HasUnboundedDimension() const;
};

ShapeExplanation ExplainShape(const Shape& shape);

}  // namespace hlolayout

#endif  // HLOLAYOUT_LAYOUT_EXPLAIN_H_
