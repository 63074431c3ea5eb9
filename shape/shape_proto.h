// shape/shape_proto.h: Shape, Layout and ProgramShape to and from the
// XLA-compatible protos of proto/xla_data.proto.
//
// The protos carry XLA's field and enum numbers, so bytes written by XLA's
// `ShapeProto::SerializeAsString()` read here and ours read in XLA:
//
//   absl::StatusOr<Shape> shape = ShapeFromProtoBytes(bytes_from_xla);
//   // f32[3,5]{1,0:T(2,2)}
//   std::string bytes = ShapeToProtoBytes(*shape);  // what XLA would write
//
// Reading validates: a proto from outside may hold anything, so every
// *FromProto function first checks the proto's structure and then runs
// ValidateShape (layout/layout_validation.h) on the shapes it built. Errors
// are InvalidArgument with a short lowercase message that names the proto
// and the field, with the path to the failing shape when it is nested:
//
//   "shape proto: unknown element_type 99"
//   "shape proto at tuple_shapes[1]: negative dimension -3 at 0"
//   "layout proto: tail_padding_alignment_in_elements is negative"
//   "shape proto at tuple_shapes[0]: minor_to_major {0,0} is not a
//    permutation: 0 appears twice"          (a ValidateShape message)
//
// Encoding decisions (XLA's where XLA pins them):
//   - Arrays write element_type, dimensions, one is_dynamic_dimension entry
//     per dimension, and the layout if they have one. On reading, an empty
//     is_dynamic_dimension means "all static" (as XLA reads it); any other
//     length must equal the number of dimensions. An unbounded dimension
//     `?` is INT64_MIN with is_dynamic_dimension true; a bounded one `<=N`
//     is N with is_dynamic_dimension true.
//   - A layout field that is present but empty (`{}` on a scalar) is kept
//     apart from no layout field at all: has_layout() survives round trips.
//   - Tuples write tuple_shapes only. Tokens and opaques write only their
//     element_type. Layouts of non-array shapes are never written and are
//     rejected when read (XLA's shapes cannot hold them).
//   - BUFFER (`b(f32[8]{0})`) writes element_type BUFFER and its inner shape
//     as the single entry of tuple_shapes; reading requires exactly one
//     entry. The XLA reference read for this library does not show how XLA
//     serializes buffers; this follows the XLA source we remember (the
//     buffer state keeps its shape in tuple_shapes) and Shape's own storage.
//   - tail_padding_alignment_in_elements is always written, 1 included, as
//     XLA's Layout::ToProto does, so our bytes equal XLA's. Reading 0 (an
//     older writer, or a hand-built proto) gives 1; negative is an error.
//   - dim_level_types, dim_unique and dim_ordered are written with one entry
//     per DimLevel when the layout has any. On reading they are checked
//     (known enum values; dim_unique and dim_ordered empty or as long as
//     dim_level_types) and then dropped, as today's XLA has no dim level
//     types; ProtoReadOptions::keep_dim_levels keeps them (2024 behaviour).
//   - Nesting (tuple elements, buffer contents, physical shapes) deeper than
//     100 levels is rejected. ShapeFromProtoBytes may fail earlier:
//     protobuf's parser stops at 100 nested messages.
#ifndef HLOLAYOUT_SHAPE_SHAPE_PROTO_H_
#define HLOLAYOUT_SHAPE_SHAPE_PROTO_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "hlolayout/proto/xla_data.pb.h"
#include "hlolayout/shape/layout.h"
#include "hlolayout/shape/program_shape.h"
#include "hlolayout/shape/shape.h"

namespace hlolayout {

// The deepest nesting of shapes inside a proto that the readers accept.
inline constexpr int kMaxProtoShapeNesting = 100;

// The proto of `shape`, byte for byte what XLA's Shape::ToProto writes for
// the same shape. Never fails; an invalid shape gives a proto that
// ShapeFromProto rejects.
//   f32[3,5]{1,0} -> {element_type: F32 dimensions: [3, 5]
//                     is_dynamic_dimension: [false, false]
//                     layout {minor_to_major: [1, 0]
//                             tail_padding_alignment_in_elements: 1}}
proto::ShapeProto ShapeToProto(const Shape& shape);

// The proto of `layout`, as XLA's Layout::ToProto.
proto::LayoutProto LayoutToProto(const Layout& layout);

struct ProtoReadOptions {
  // Keep dim_level_types (D(...)) instead of dropping them as today's XLA
  // does.
  bool keep_dim_levels = false;
};

// Reads and validates a shape proto (see the header comment).
//   {element_type: S32 dimensions: [-3]} -> error
//     "shape proto: negative dimension -3 at 0"
absl::StatusOr<Shape> ShapeFromProto(const proto::ShapeProto& proto,
                                     const ProtoReadOptions& options = {});

// Reads a layout proto on its own. Checks what can be judged without the
// shape the layout belongs to: enum values, list lengths, the sign of L and E,
// and any physical shape (fully, with ValidateShape). It does not
// check minor_to_major, tiles or split configs against a rank: call
// ValidateLayoutForShape for that.
absl::StatusOr<Layout> LayoutFromProto(const proto::LayoutProto& proto,
                                       const ProtoReadOptions& options = {});

// Parses serialized ShapeProto bytes (for example XLA's
// `shape.ToProto().SerializeAsString()`) and reads them with
// ShapeFromProto. Bytes that do not parse give
// "shape proto: bytes do not parse as a ShapeProto".
absl::StatusOr<Shape> ShapeFromProtoBytes(absl::string_view bytes,
                                          const ProtoReadOptions& options = {});

// ShapeToProto(shape), serialized.
std::string ShapeToProtoBytes(const Shape& shape);

// ProgramShape <-> ProgramShapeProto. Reading checks every parameter and
// the result like ShapeFromProto, requires the result to be set, and
// rejects more parameter_names than parameters:
//   "program shape proto: parameter_names has 3 entries but parameters
//    has 2"
//   "shape proto at parameters[1]: unknown element_type 99"
proto::ProgramShapeProto ProgramShapeToProto(const ProgramShape& program);
absl::StatusOr<ProgramShape> ProgramShapeFromProto(
    const proto::ProgramShapeProto& proto);

}  // namespace hlolayout

#endif  // HLOLAYOUT_SHAPE_SHAPE_PROTO_H_
