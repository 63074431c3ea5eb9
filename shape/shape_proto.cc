#include "hlolayout/shape/shape_proto.h"

#include <climits>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "hlolayout/layout/layout_validation.h"

namespace hlolayout {
namespace {

// Where a nested shape sits in the proto being read, as a chain of parent
// links on the stack; turned into text ("tuple_shapes[1].layout...") only
// when an error is reported.
struct ProtoPath {
  const ProtoPath* parent;
  absl::string_view field;
  int index;  // -1 for a singular field
};

void AppendPath(std::string* out, const ProtoPath* path) {
  if (path == nullptr) return;
  AppendPath(out, path->parent);  // depth is bounded by kMaxProtoShapeNesting
  if (!out->empty()) out->push_back('.');
  absl::StrAppend(out, path->field);
  if (path->index >= 0) absl::StrAppend(out, "[", path->index, "]");
}

// "<what> proto[ at <path>]: <detail>". `path` is the path of the shape the
// failing message belongs to (for a layout: the shape that owns it).
absl::Status ProtoError(absl::string_view what, const ProtoPath* path,
                        absl::string_view detail) {
  std::string message = absl::StrCat(what, " proto");
  if (path != nullptr) {
    std::string where;
    AppendPath(&where, path);
    absl::StrAppend(&message, " at ", where);
  }
  absl::StrAppend(&message, ": ", detail);
  return absl::InvalidArgumentError(message);
}

absl::Status ShapeError(const ProtoPath* path, absl::string_view detail) {
  return ProtoError("shape", path, detail);
}

absl::Status LayoutError(const ProtoPath* path, absl::string_view detail) {
  return ProtoError("layout", path, detail);
}

template <typename T>
absl::Span<const T> AsSpan(const google::protobuf::RepeatedField<T>& field) {
  return absl::Span<const T>(field.data(), field.size());
}

absl::StatusOr<Shape> ReadShape(const proto::ShapeProto& proto,
                                const ProtoPath* path, int depth,
                                const ProtoReadOptions& options);

absl::StatusOr<Layout> ReadLayout(const proto::LayoutProto& proto,
                                  const ProtoPath* path, int depth,
                                  const ProtoReadOptions& options) {
  Layout layout(AsSpan(proto.minor_to_major()));

  const int levels = proto.dim_level_types_size();
  for (const auto& [name, size] :
       {std::pair<absl::string_view, int>{"dim_unique",
                                          proto.dim_unique_size()},
        std::pair<absl::string_view, int>{"dim_ordered",
                                          proto.dim_ordered_size()}}) {
    if (size != 0 && size != levels) {
      return LayoutError(
          path, absl::StrCat(name, " has ", size,
                             " entries but dim_level_types has ", levels));
    }
  }
  for (int i = 0; i < levels; ++i) {
    const int type = proto.dim_level_types(i);
    if (type < DIM_DENSE || type > DIM_LOOSE_COMPRESSED) {
      return LayoutError(path, absl::StrCat("unknown dim_level_types value ",
                                            type, " at ", i));
    }
    DimLevel level;
    level.type = static_cast<DimLevelType>(type);
    if (proto.dim_unique_size() != 0) level.unique = proto.dim_unique(i);
    if (proto.dim_ordered_size() != 0) level.ordered = proto.dim_ordered(i);
    // Today's XLA has no dim level types and ignores the field (the enum
    // values are still checked: a proto from outside may hold anything).
    if (options.keep_dim_levels) layout.add_dim_level(level);
  }

  for (const proto::TileProto& tile : proto.tiles()) {
    layout.add_tile(Tile(AsSpan(tile.dimensions())));
  }

  const int64_t alignment = proto.tail_padding_alignment_in_elements();
  if (alignment < 0) {
    return LayoutError(path, "tail_padding_alignment_in_elements is negative");
  }
  layout.set_tail_padding_alignment_in_elements(alignment == 0 ? 1 : alignment);

  for (const auto& [name, value] :
       {std::pair<absl::string_view, int>{"index_primitive_type",
                                          proto.index_primitive_type()},
        std::pair<absl::string_view, int>{"pointer_primitive_type",
                                          proto.pointer_primitive_type()}}) {
    if (!IsKnownPrimitiveType(value)) {
      return LayoutError(path, absl::StrCat("unknown ", name, " ", value));
    }
  }
  layout.set_index_primitive_type(
      static_cast<PrimitiveType>(proto.index_primitive_type()));
  layout.set_pointer_primitive_type(
      static_cast<PrimitiveType>(proto.pointer_primitive_type()));

  if (proto.element_size_in_bits() < 0) {
    return LayoutError(path, "element_size_in_bits is negative");
  }
  layout.set_element_size_in_bits(proto.element_size_in_bits());
  layout.set_memory_space(proto.memory_space());

  for (const proto::SplitConfigProto& config_proto : proto.split_configs()) {
    SplitConfig config;
    config.dimension = config_proto.dimension();
    config.split_indices.assign(config_proto.split_indices().begin(),
                                config_proto.split_indices().end());
    layout.add_split_config(std::move(config));
  }

  if (proto.has_physical_shape()) {
    const ProtoPath physical{path, "layout.physical_shape", -1};
    absl::StatusOr<Shape> shape =
        ReadShape(proto.physical_shape(), &physical, depth + 1, options);
    if (!shape.ok()) return shape.status();
    layout.set_physical_shape(*shape);
  }

  layout.set_dynamic_shape_metadata_prefix_bytes(
      proto.dynamic_shape_metadata_prefix_bytes());
  return layout;
}

absl::StatusOr<Shape> ReadArray(PrimitiveType type,
                                const proto::ShapeProto& proto,
                                const ProtoPath* path, int depth,
                                const ProtoReadOptions& options) {
  const absl::string_view name = PrimitiveTypeName(type);
  if (proto.tuple_shapes_size() != 0) {
    return ShapeError(path, absl::StrCat(name, " array has tuple_shapes"));
  }
  const int rank = proto.dimensions_size();
  const int flags = proto.is_dynamic_dimension_size();
  if (flags != 0 && flags != rank) {
    return ShapeError(path, absl::StrCat("is_dynamic_dimension has ", flags,
                                         " entries but dimensions has ", rank));
  }
  absl::InlinedVector<bool, 6> dynamic(rank, false);
  for (int i = 0; i < rank; ++i) {
    const int64_t size = proto.dimensions(i);
    if (flags != 0) dynamic[i] = proto.is_dynamic_dimension(i);
    if (size == Shape::kUnboundedSize) {
      if (!dynamic[i]) {
        return ShapeError(path, absl::StrCat("unbounded dimension at ", i,
                                             " is not dynamic"));
      }
    } else if (size < 0) {
      return ShapeError(path,
                        absl::StrCat("negative dimension ", size, " at ", i));
    }
  }
  Shape shape =
      Shape::MakeDynamicArray(type, AsSpan(proto.dimensions()), dynamic);
  if (proto.has_layout()) {
    absl::StatusOr<Layout> layout =
        ReadLayout(proto.layout(), path, depth, options);
    if (!layout.ok()) return layout.status();
    shape.set_layout(*std::move(layout));
  }
  // Validating each array where it is read lets the message say where it
  // is; ShapeFromProto still validates the whole shape at the end.
  absl::Status valid = ValidateShape(shape);
  if (!valid.ok()) return ShapeError(path, valid.message());
  return shape;
}

absl::StatusOr<Shape> ReadShape(const proto::ShapeProto& proto,
                                const ProtoPath* path, int depth,
                                const ProtoReadOptions& options) {
  if (depth > kMaxProtoShapeNesting) {
    return ShapeError(
        nullptr, absl::StrCat("nesting deeper than ", kMaxProtoShapeNesting));
  }
  const int number = proto.element_type();
  if (!IsKnownPrimitiveType(number)) {
    return ShapeError(path, absl::StrCat("unknown element_type ", number));
  }
  const auto type = static_cast<PrimitiveType>(number);
  if (type == PRIMITIVE_TYPE_INVALID) {
    return ShapeError(path, "element_type is not set");
  }
  if (IsArrayType(type)) return ReadArray(type, proto, path, depth, options);

  const absl::string_view name = PrimitiveTypeName(type);
  if (proto.dimensions_size() != 0) {
    return ShapeError(path, absl::StrCat(name, " has dimensions"));
  }
  if (proto.is_dynamic_dimension_size() != 0) {
    return ShapeError(path, absl::StrCat(name, " has is_dynamic_dimension"));
  }
  if (proto.has_layout()) {
    return ShapeError(path, absl::StrCat(name, " has a layout"));
  }
  switch (type) {
    case TUPLE:
    case BUFFER: {
      if (type == BUFFER && proto.tuple_shapes_size() != 1) {
        return ShapeError(path,
                          absl::StrCat("buffer has ", proto.tuple_shapes_size(),
                                       " tuple_shapes, expected 1"));
      }
      std::vector<Shape> elements;
      elements.reserve(proto.tuple_shapes_size());
      for (int i = 0; i < proto.tuple_shapes_size(); ++i) {
        const ProtoPath element{path, "tuple_shapes", i};
        absl::StatusOr<Shape> shape =
            ReadShape(proto.tuple_shapes(i), &element, depth + 1, options);
        if (!shape.ok()) return shape.status();
        elements.push_back(*std::move(shape));
      }
      if (type == BUFFER) {
        if (!elements[0].IsArray()) {
          return ShapeError(
              path, absl::StrCat("buffer holds a ",
                                 PrimitiveTypeName(elements[0].element_type()),
                                 ", not an array"));
        }
        return Shape::MakeBuffer(std::move(elements[0]));
      }
      return Shape::MakeTuple(std::move(elements));
    }
    default:  // TOKEN, OPAQUE_TYPE
      if (proto.tuple_shapes_size() != 0) {
        return ShapeError(path, absl::StrCat(name, " has tuple_shapes"));
      }
      return type == TOKEN ? Shape::MakeToken() : Shape::MakeOpaque();
  }
}

// ReadShape, then ValidateShape over the whole result.
absl::StatusOr<Shape> ReadValidShape(const proto::ShapeProto& proto,
                                     const ProtoPath* path,
                                     const ProtoReadOptions& options) {
  absl::StatusOr<Shape> shape = ReadShape(proto, path, 0, options);
  if (!shape.ok()) return shape;
  absl::Status valid = ValidateShape(*shape);
  if (!valid.ok()) return ShapeError(path, valid.message());
  return shape;
}

void WriteLayout(const Layout& layout, proto::LayoutProto* proto);

void WriteShape(const Shape& shape, proto::ShapeProto* proto) {
  proto->set_element_type(
      static_cast<proto::PrimitiveType>(shape.element_type()));
  if (shape.IsArray()) {
    proto->mutable_dimensions()->Add(shape.dimensions().begin(),
                                     shape.dimensions().end());
    proto->mutable_is_dynamic_dimension()->Add(
        shape.dynamic_dimensions().begin(), shape.dynamic_dimensions().end());
    if (shape.has_layout())
      WriteLayout(shape.layout(), proto->mutable_layout());
    return;
  }
  for (const Shape& element : shape.tuple_shapes()) {
    WriteShape(element, proto->add_tuple_shapes());
  }
}

void WriteLayout(const Layout& layout, proto::LayoutProto* proto) {
  proto->mutable_minor_to_major()->Add(layout.minor_to_major().begin(),
                                       layout.minor_to_major().end());
  for (const Tile& tile : layout.tiles()) {
    proto->add_tiles()->mutable_dimensions()->Add(tile.dimensions().begin(),
                                                  tile.dimensions().end());
  }
  proto->set_element_size_in_bits(layout.element_size_in_bits());
  proto->set_memory_space(layout.memory_space());
  for (const DimLevel& level : layout.dim_levels()) {
    proto->add_dim_level_types(static_cast<proto::DimLevelType>(level.type));
    proto->add_dim_unique(level.unique);
    proto->add_dim_ordered(level.ordered);
  }
  if (layout.has_physical_shape()) {
    WriteShape(layout.physical_shape(), proto->mutable_physical_shape());
  }
  proto->set_index_primitive_type(
      static_cast<proto::PrimitiveType>(layout.index_primitive_type()));
  proto->set_pointer_primitive_type(
      static_cast<proto::PrimitiveType>(layout.pointer_primitive_type()));
  proto->set_dynamic_shape_metadata_prefix_bytes(
      layout.dynamic_shape_metadata_prefix_bytes());
  proto->set_tail_padding_alignment_in_elements(
      layout.tail_padding_alignment_in_elements());
  for (const SplitConfig& config : layout.split_configs()) {
    proto::SplitConfigProto* config_proto = proto->add_split_configs();
    config_proto->set_dimension(config.dimension);
    config_proto->mutable_split_indices()->Add(config.split_indices.begin(),
                                               config.split_indices.end());
  }
}

}  // namespace

proto::ShapeProto ShapeToProto(const Shape& shape) {
  proto::ShapeProto proto;
  WriteShape(shape, &proto);
  return proto;
}

proto::LayoutProto LayoutToProto(const Layout& layout) {
  proto::LayoutProto proto;
  WriteLayout(layout, &proto);
  return proto;
}

absl::StatusOr<Shape> ShapeFromProto(const proto::ShapeProto& proto,
                                     const ProtoReadOptions& options) {
  return ReadValidShape(proto, nullptr, options);
}

absl::StatusOr<Layout> LayoutFromProto(const proto::LayoutProto& proto,
                                       const ProtoReadOptions& options) {
  // The physical shape, if any, is validated as it is read (ReadArray).
  return ReadLayout(proto, nullptr, 0, options);
}

absl::StatusOr<Shape> ShapeFromProtoBytes(absl::string_view bytes,
                                          const ProtoReadOptions& options) {
  proto::ShapeProto proto;
  if (bytes.size() > static_cast<size_t>(INT_MAX) ||
      !proto.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    return ShapeError(nullptr, "bytes do not parse as a ShapeProto");
  }
  return ShapeFromProto(proto, options);
}

std::string ShapeToProtoBytes(const Shape& shape) {
  return ShapeToProto(shape).SerializeAsString();
}

proto::ProgramShapeProto ProgramShapeToProto(const ProgramShape& program) {
  proto::ProgramShapeProto proto;
  for (const Shape& parameter : program.parameters) {
    WriteShape(parameter, proto.add_parameters());
  }
  WriteShape(program.result, proto.mutable_result());
  for (const std::string& name : program.parameter_names) {
    proto.add_parameter_names(name);
  }
  return proto;
}

absl::StatusOr<ProgramShape> ProgramShapeFromProto(
    const proto::ProgramShapeProto& proto) {
  if (proto.parameter_names_size() > proto.parameters_size()) {
    return ProtoError(
        "program shape", nullptr,
        absl::StrCat("parameter_names has ", proto.parameter_names_size(),
                     " entries but parameters has ", proto.parameters_size()));
  }
  if (!proto.has_result()) {
    return ProtoError("program shape", nullptr, "result is not set");
  }
  ProgramShape program;
  program.parameters.reserve(proto.parameters_size());
  for (int i = 0; i < proto.parameters_size(); ++i) {
    const ProtoPath path{nullptr, "parameters", i};
    absl::StatusOr<Shape> shape =
        ReadValidShape(proto.parameters(i), &path, {});
    if (!shape.ok()) return shape.status();
    program.parameters.push_back(*std::move(shape));
  }
  const ProtoPath result_path{nullptr, "result", -1};
  absl::StatusOr<Shape> result =
      ReadValidShape(proto.result(), &result_path, {});
  if (!result.ok()) return result.status();
  program.result = *std::move(result);
  program.parameter_names.assign(proto.parameter_names().begin(),
                                 proto.parameter_names().end());
  return program;
}

}  // namespace hlolayout
