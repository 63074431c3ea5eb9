#include "hlolayout/shape/shape_proto.h"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "hlolayout/parser/shape_parser.h"
#include "hlolayout/proto/xla_data.pb.h"

namespace hlolayout {
namespace {

using namespace std::string_literals;  // "\x00"s keeps embedded zeros

constexpr int64_t kMin = std::numeric_limits<int64_t>::min();

// "10 0b 1a" for failure messages.
std::string Hex(const std::string& bytes) {
  std::string out;
  for (unsigned char c : bytes) {
    if (!out.empty()) out.push_back(' ');
    absl::StrAppend(&out, absl::Hex(c, absl::kZeroPad2));
  }
  return out;
}

// Sparse layouts (D(...)) are kept in these tests, as the 2024 XLA kept
// them; tests/xla_shapes_tsv_test.cc checks today's default (dropped).
constexpr ProtoReadOptions kKeepDimLevels{/*keep_dim_levels=*/true};

Shape Parse(const std::string& text) {
  ShapeParseOptions options;
  options.keep_dim_levels = true;
  absl::StatusOr<Shape> shape = ParseShape(text, options);
  EXPECT_TRUE(shape.ok()) << text << ": " << shape.status();
  return shape.ok() ? *shape : Shape();
}

proto::ShapeProto ParseProto(const std::string& bytes) {
  proto::ShapeProto proto;
  EXPECT_TRUE(proto.ParseFromString(bytes)) << Hex(bytes);
  return proto;
}

std::string ErrorOf(const proto::ShapeProto& proto) {
  absl::StatusOr<Shape> shape = ShapeFromProto(proto, kKeepDimLevels);
  if (shape.ok()) return "ok: " + shape->ToString(true);
  EXPECT_EQ(shape.status().code(), absl::StatusCode::kInvalidArgument);
  return std::string(shape.status().message());
}

std::string ErrorOf(const proto::LayoutProto& proto) {
  absl::StatusOr<Layout> layout = LayoutFromProto(proto, kKeepDimLevels);
  if (layout.ok()) return "ok: " + layout->ToString();
  return std::string(layout.status().message());
}

// A valid f32[3,5]{1,0} proto to break in one field at a time.
proto::ShapeProto F32Proto() {
  proto::ShapeProto proto;
  proto.set_element_type(proto::F32);
  proto.add_dimensions(3);
  proto.add_dimensions(5);
  proto.mutable_layout()->add_minor_to_major(1);
  proto.mutable_layout()->add_minor_to_major(0);
  return proto;
}

// ---------------------------------------------------------------------------
// Shape -> proto -> Shape round trips.

class ShapeProtoRoundTripTest : public ::testing::TestWithParam<std::string> {};

TEST_P(ShapeProtoRoundTripTest, ProtoAndBytes) {
  const Shape shape = Parse(GetParam());
  absl::StatusOr<Shape> back = ShapeFromProto(ShapeToProto(shape));
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, shape);
  EXPECT_EQ(back->ToString(/*print_layout=*/true), GetParam());

  absl::StatusOr<Shape> from_bytes =
      ShapeFromProtoBytes(ShapeToProtoBytes(shape));
  ASSERT_TRUE(from_bytes.ok()) << from_bytes.status();
  EXPECT_EQ(*from_bytes, shape);
  // Serializing again gives the same bytes.
  EXPECT_EQ(ShapeToProtoBytes(*from_bytes), ShapeToProtoBytes(shape));
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, ShapeProtoRoundTripTest,
    ::testing::Values(
        "f32[]", "s32[]{:S(2)}", "f32[0]{0}", "f32[3,5]{1,0}", "f32[3,5]{0,1}",
        "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}",
        "f32[3,5]{1,0:T(2,2)}", "f32[16,256]{1,0:T(8,128)(*,2)}",
        "f32[1000]{0:T(256)L(1024)}", "s4[64,64]{1,0:E(4)}",
        "u8[8,8]{1,0:S(5)}", "f32[30,40]{1,0:SC(0:10,20)(1:5)}",
        "f32[8]{0:M(64)}", "f32[<=16,?]{1,0}", "s8[?]{0}", "pred[<=4,3]{0,1}",
        "(f32[2]{0}, s32[])", "()", "((), (f32[], (token[])))",
        "(s32[], s32[], s32[], s32[], s32[], /*index=5*/s32[])", "token[]",
        "opaque[]", "b(f32[8]{0})", "(b(s32[2,2]{1,0}), u64[])",
        "c128[2]{0:T(1)L(2)E(128)S(1)SC(0:1)M(8)}"));

TEST(ShapeProtoTest, EmptyLayoutIsNotNoLayout) {
  Shape with_layout = Shape::MakeArray(F32, {});
  with_layout.set_layout(Layout());
  const Shape without_layout = Shape::MakeArray(F32, {});

  const proto::ShapeProto a = ShapeToProto(with_layout);
  const proto::ShapeProto b = ShapeToProto(without_layout);
  EXPECT_TRUE(a.has_layout());
  EXPECT_FALSE(b.has_layout());
  absl::StatusOr<Shape> back_a = ShapeFromProto(a);
  absl::StatusOr<Shape> back_b = ShapeFromProto(b);
  ASSERT_TRUE(back_a.ok() && back_b.ok());
  EXPECT_TRUE(back_a->has_layout());
  EXPECT_FALSE(back_b->has_layout());
}

// A sparse layout, so that D, #, *, P pass ValidateShape.
Shape SparseShape() {
  Shape shape = Shape::MakeArray(F32, {10, 20});
  Layout layout({1, 0});
  layout.add_dim_level({DIM_DENSE, true, true})
      .add_dim_level({DIM_COMPRESSED, false, false})
      .set_index_primitive_type(S32)
      .set_pointer_primitive_type(U16);
  Shape physical = Shape::MakeArray(S32, {20});
  physical.set_layout(Layout({0}));
  layout.set_physical_shape(physical);
  shape.set_layout(layout);
  return shape;
}

TEST(ShapeProtoTest, SparseLayoutRoundTrip) {
  const Shape shape = SparseShape();
  const proto::ShapeProto proto = ShapeToProto(shape);
  const proto::LayoutProto& layout = proto.layout();
  ASSERT_EQ(layout.dim_level_types_size(), 2);
  EXPECT_EQ(layout.dim_level_types(1), proto::DIM_COMPRESSED);
  ASSERT_EQ(layout.dim_unique_size(), 2);
  EXPECT_TRUE(layout.dim_unique(0));
  EXPECT_FALSE(layout.dim_unique(1));
  ASSERT_EQ(layout.dim_ordered_size(), 2);
  EXPECT_FALSE(layout.dim_ordered(1));
  EXPECT_EQ(layout.index_primitive_type(), proto::S32);
  EXPECT_EQ(layout.pointer_primitive_type(), proto::U16);
  EXPECT_EQ(layout.physical_shape().element_type(), proto::S32);
  absl::StatusOr<Shape> back = ShapeFromProto(proto, kKeepDimLevels);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, shape);
  EXPECT_EQ(back->ToString(true),
            "f32[10,20]{1,0:D(D,C+~)#(s32)*(u16)P(s32[20]{0})}");
}

// ---------------------------------------------------------------------------
// Hand-encoded wire bytes. Tags: (field << 3) | wire type, wire type 0 for
// varints and 2 for length-delimited (packed lists, strings, messages).
//   ShapeProto:  element_type 2 -> 0x10, dimensions 3 (packed) -> 0x1a,
//                tuple_shapes 4 -> 0x22, layout 5 -> 0x2a,
//                is_dynamic_dimension 6 (packed) -> 0x32
//   LayoutProto: minor_to_major 1 -> 0x0a, tiles 6 -> 0x32,
//                element_size_in_bits 7 -> 0x38, memory_space 8 -> 0x40,
//                dim_level_types 9 -> 0x4a, physical_shape 10 -> 0x52,
//                index_primitive_type 11 -> 0x58,
//                pointer_primitive_type 12 -> 0x60, dim_unique 13 -> 0x6a,
//                dim_ordered 14 -> 0x72,
//                dynamic_shape_metadata_prefix_bytes 15 -> 0x78,
//                tail_padding_alignment_in_elements 16 -> 0x80 0x01,
//                split_configs 17 -> 0x8a 0x01
//   TileProto:   dimensions 1 (packed) -> 0x0a
//   SplitConfigProto: dimension 1 -> 0x08, split_indices 2 (packed) -> 0x12
//   ProgramShapeProto: parameters 1 -> 0x0a, result 2 -> 0x12,
//                parameter_names 3 -> 0x1a
// Fields serialize in field-number order, as XLA's C++ protos do.
// INT64_MIN is the 10-byte varint 80 80 80 80 80 80 80 80 80 01.

// f32[3,5]{1,0:T(2,2)}
const std::string kTiledF32 =
    "\x10\x0b"                  // element_type F32 (11)
    "\x1a\x02\x03\x05"          // dimensions [3, 5]
    "\x2a\x0d"                  // layout, 13 bytes:
    "\x0a\x02\x01\x00"          //   minor_to_major [1, 0]
    "\x32\x04\x0a\x02\x02\x02"  //   tiles { dimensions [2, 2] }
    "\x80\x01\x01"              //   tail_padding_alignment_in_elements 1
    "\x32\x02\x00\x00"s;        // is_dynamic_dimension [false, false]

TEST(ShapeProtoWireTest, TiledArrayParsesFieldByField) {
  const proto::ShapeProto proto = ParseProto(kTiledF32);
  EXPECT_EQ(proto.element_type(), proto::F32);
  ASSERT_EQ(proto.dimensions_size(), 2);
  EXPECT_EQ(proto.dimensions(0), 3);
  EXPECT_EQ(proto.dimensions(1), 5);
  ASSERT_EQ(proto.is_dynamic_dimension_size(), 2);
  EXPECT_FALSE(proto.is_dynamic_dimension(0));
  EXPECT_FALSE(proto.is_dynamic_dimension(1));
  ASSERT_TRUE(proto.has_layout());
  ASSERT_EQ(proto.layout().minor_to_major_size(), 2);
  EXPECT_EQ(proto.layout().minor_to_major(0), 1);
  EXPECT_EQ(proto.layout().minor_to_major(1), 0);
  ASSERT_EQ(proto.layout().tiles_size(), 1);
  ASSERT_EQ(proto.layout().tiles(0).dimensions_size(), 2);
  EXPECT_EQ(proto.layout().tiles(0).dimensions(0), 2);
  EXPECT_EQ(proto.layout().tiles(0).dimensions(1), 2);
  EXPECT_EQ(proto.layout().tail_padding_alignment_in_elements(), 1);

  absl::StatusOr<Shape> shape = ShapeFromProtoBytes(kTiledF32);
  ASSERT_TRUE(shape.ok()) << shape.status();
  EXPECT_EQ(shape->ToString(true), "f32[3,5]{1,0:T(2,2)}");
}

TEST(ShapeProtoWireTest, TiledArraySerializesToHandEncodedBytes) {
  EXPECT_EQ(Hex(ShapeToProtoBytes(Parse("f32[3,5]{1,0:T(2,2)}"))),
            Hex(kTiledF32));
}

// s32[<=4,?]: a bound is stored as itself, `?` as INT64_MIN.
const std::string kDynamicS32 =
    "\x10\x04"                                  // element_type S32 (4)
    "\x1a\x0b"                                  // dimensions, 11 bytes:
    "\x04"                                      //   4
    "\x80\x80\x80\x80\x80\x80\x80\x80\x80\x01"  // INT64_MIN
    "\x32\x02\x01\x01"s;  // is_dynamic_dimension [true, true]

TEST(ShapeProtoWireTest, DynamicDimensions) {
  const proto::ShapeProto proto = ParseProto(kDynamicS32);
  EXPECT_EQ(proto.element_type(), proto::S32);
  ASSERT_EQ(proto.dimensions_size(), 2);
  EXPECT_EQ(proto.dimensions(0), 4);
  EXPECT_EQ(proto.dimensions(1), kMin);
  ASSERT_EQ(proto.is_dynamic_dimension_size(), 2);
  EXPECT_TRUE(proto.is_dynamic_dimension(0));
  EXPECT_TRUE(proto.is_dynamic_dimension(1));
  EXPECT_FALSE(proto.has_layout());

  absl::StatusOr<Shape> shape = ShapeFromProtoBytes(kDynamicS32);
  ASSERT_TRUE(shape.ok()) << shape.status();
  EXPECT_EQ(shape->ToString(true), "s32[<=4,?]");
  EXPECT_TRUE(shape->is_unbounded_dynamic_dimension(1));
  EXPECT_EQ(Hex(ShapeToProtoBytes(*shape)), Hex(kDynamicS32));
}

TEST(ShapeProtoWireTest, ScalarWithAndWithoutLayout) {
  // f32[] with an empty layout: the layout message holds only L = 1.
  const std::string with_layout = "\x10\x0b\x2a\x03\x80\x01\x01"s;
  const std::string without_layout = "\x10\x0b"s;
  Shape scalar = Shape::MakeArray(F32, {});
  EXPECT_EQ(Hex(ShapeToProtoBytes(scalar)), Hex(without_layout));
  scalar.set_layout(Layout());
  EXPECT_EQ(Hex(ShapeToProtoBytes(scalar)), Hex(with_layout));

  const proto::ShapeProto proto = ParseProto(with_layout);
  EXPECT_TRUE(proto.has_layout());
  EXPECT_EQ(proto.layout().minor_to_major_size(), 0);
  absl::StatusOr<Shape> a = ShapeFromProtoBytes(with_layout);
  absl::StatusOr<Shape> b = ShapeFromProtoBytes(without_layout);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_TRUE(a->has_layout());
  EXPECT_FALSE(b->has_layout());
}

// (f32[2]{0}, token[], ())
const std::string kTuple =
    "\x10\x0d"            // element_type TUPLE (13)
    "\x22\x10"            // tuple_shapes[0], 16 bytes:
    "\x10\x0b"            //   element_type F32
    "\x1a\x01\x02"        //   dimensions [2]
    "\x2a\x06"            //   layout, 6 bytes:
    "\x0a\x01\x00"        //     minor_to_major [0]
    "\x80\x01\x01"        //     tail_padding_alignment_in_elements 1
    "\x32\x01\x00"        //   is_dynamic_dimension [false]
    "\x22\x02\x10\x11"    // tuple_shapes[1]: element_type TOKEN (17)
    "\x22\x02\x10\x0d"s;  // tuple_shapes[2]: element_type TUPLE, empty

TEST(ShapeProtoWireTest, Tuple) {
  const proto::ShapeProto proto = ParseProto(kTuple);
  EXPECT_EQ(proto.element_type(), proto::TUPLE);
  EXPECT_EQ(proto.dimensions_size(), 0);
  EXPECT_FALSE(proto.has_layout());
  ASSERT_EQ(proto.tuple_shapes_size(), 3);
  EXPECT_EQ(proto.tuple_shapes(0).element_type(), proto::F32);
  EXPECT_EQ(proto.tuple_shapes(0).dimensions(0), 2);
  EXPECT_EQ(proto.tuple_shapes(0).layout().minor_to_major(0), 0);
  EXPECT_EQ(proto.tuple_shapes(1).element_type(), proto::TOKEN);
  EXPECT_EQ(proto.tuple_shapes(2).element_type(), proto::TUPLE);
  EXPECT_EQ(proto.tuple_shapes(2).tuple_shapes_size(), 0);

  absl::StatusOr<Shape> shape = ShapeFromProtoBytes(kTuple);
  ASSERT_TRUE(shape.ok()) << shape.status();
  EXPECT_EQ(shape->ToString(true), "(f32[2]{0}, token[], ())");
  EXPECT_EQ(Hex(ShapeToProtoBytes(*shape)), Hex(kTuple));
}

TEST(ShapeProtoWireTest, TokenOpaqueAndEmptyTuple) {
  EXPECT_EQ(Hex(ShapeToProtoBytes(Shape::MakeToken())), "10 11");
  EXPECT_EQ(Hex(ShapeToProtoBytes(Shape::MakeOpaque())), "10 0e");
  EXPECT_EQ(Hex(ShapeToProtoBytes(Shape::MakeTuple({}))), "10 0d");
  absl::StatusOr<Shape> opaque = ShapeFromProtoBytes("\x10\x0e"s);
  ASSERT_TRUE(opaque.ok()) << opaque.status();
  EXPECT_TRUE(opaque->IsOpaque());
  absl::StatusOr<Shape> token = ShapeFromProtoBytes("\x10\x11"s);
  ASSERT_TRUE(token.ok()) << token.status();
  EXPECT_TRUE(token->IsToken());
}

// b(f32[8]{0}): element_type BUFFER, the inner shape as tuple_shapes[0].
const std::string kBuffer =
    "\x10\x22"                          // element_type BUFFER (34)
    "\x22\x10"                          // tuple_shapes[0], 16 bytes:
    "\x10\x0b\x1a\x01\x08"              //   f32, dimensions [8]
    "\x2a\x06\x0a\x01\x00\x80\x01\x01"  //   layout {0}, L 1
    "\x32\x01\x00"s;                    //   is_dynamic_dimension [false]

TEST(ShapeProtoWireTest, Buffer) {
  const proto::ShapeProto proto = ParseProto(kBuffer);
  EXPECT_EQ(proto.element_type(), proto::BUFFER);
  ASSERT_EQ(proto.tuple_shapes_size(), 1);
  EXPECT_EQ(proto.tuple_shapes(0).dimensions(0), 8);
  absl::StatusOr<Shape> shape = ShapeFromProtoBytes(kBuffer);
  ASSERT_TRUE(shape.ok()) << shape.status();
  EXPECT_EQ(shape->ToString(true), "b(f32[8]{0})");
  EXPECT_EQ(Hex(ShapeToProtoBytes(*shape)), Hex(kBuffer));
}

// {1,0:D(C+,S~)T(8,128)(*,2)L(4)#(s32)*(u16)E(4)S(1)SC(0:3)(1:1,2)
//  P(s32[4]{0})M(8)}: every LayoutProto field.
const std::string kEveryLayoutField =
    "\x0a\x02\x01\x00"                          // minor_to_major [1, 0]
    "\x32\x05\x0a\x03\x08\x80\x01"              // tiles { [8, 128] }
    "\x32\x0d\x0a\x0b"                          // tiles { 11 bytes:
    "\x80\x80\x80\x80\x80\x80\x80\x80\x80\x01"  //   INT64_MIN (`*`)
    "\x02"                                      //   2 }
    "\x38\x04"                                  // element_size_in_bits 4
    "\x40\x01"                                  // memory_space 1
    "\x4a\x02\x01\x02"      // dim_level_types [COMPRESSED, SINGLETON]
    "\x52\x10"              // physical_shape, 16 bytes:
    "\x10\x04\x1a\x01\x04"  //   s32, dimensions [4]
    "\x2a\x06\x0a\x01\x00\x80\x01\x01"  //   layout {0}, L 1
    "\x32\x01\x00"                      //   is_dynamic_dimension [false]
    "\x58\x04"                          // index_primitive_type S32 (4)
    "\x60\x07"                          // pointer_primitive_type U16 (7)
    "\x6a\x02\x00\x01"                  // dim_unique [false, true]
    "\x72\x02\x01\x00"                  // dim_ordered [true, false]
    "\x78\x08"                          // dynamic_shape_metadata_prefix_bytes 8
    "\x80\x01\x04"                      // tail_padding_alignment_in_elements 4
    "\x8a\x01\x03"  // split_configs { 3 bytes: dimension 0 (default, absent)
    "\x12\x01\x03"  //   split_indices [3] }
    "\x8a\x01\x06"  // split_configs { 6 bytes:
    "\x08\x01"      //   dimension 1
    "\x12\x02\x01\x02"s;  //   split_indices [1, 2] }

Layout EveryLayoutField() {
  Layout layout({1, 0});
  layout.add_dim_level({DIM_COMPRESSED, false, true})
      .add_dim_level({DIM_SINGLETON, true, false})
      .add_tile(Tile({8, 128}))
      .add_tile(Tile({Tile::kCombineDimension, 2}))
      .set_tail_padding_alignment_in_elements(4)
      .set_index_primitive_type(S32)
      .set_pointer_primitive_type(U16)
      .set_element_size_in_bits(4)
      .set_memory_space(1)
      .add_split_config({0, {3}})
      .add_split_config({1, {1, 2}})
      .set_dynamic_shape_metadata_prefix_bytes(8);
  Shape physical = Shape::MakeArray(S32, {4});
  physical.set_layout(Layout({0}));
  layout.set_physical_shape(physical);
  return layout;
}

TEST(ShapeProtoWireTest, EveryLayoutFieldParsesFieldByField) {
  proto::LayoutProto proto;
  ASSERT_TRUE(proto.ParseFromString(kEveryLayoutField));
  ASSERT_EQ(proto.minor_to_major_size(), 2);
  EXPECT_EQ(proto.minor_to_major(0), 1);
  ASSERT_EQ(proto.tiles_size(), 2);
  EXPECT_EQ(proto.tiles(0).dimensions(1), 128);
  EXPECT_EQ(proto.tiles(1).dimensions(0), kMin);
  EXPECT_EQ(proto.tiles(1).dimensions(1), 2);
  EXPECT_EQ(proto.element_size_in_bits(), 4);
  EXPECT_EQ(proto.memory_space(), 1);
  ASSERT_EQ(proto.dim_level_types_size(), 2);
  EXPECT_EQ(proto.dim_level_types(0), proto::DIM_COMPRESSED);
  EXPECT_EQ(proto.dim_level_types(1), proto::DIM_SINGLETON);
  EXPECT_EQ(proto.physical_shape().element_type(), proto::S32);
  EXPECT_EQ(proto.physical_shape().dimensions(0), 4);
  EXPECT_EQ(proto.index_primitive_type(), proto::S32);
  EXPECT_EQ(proto.pointer_primitive_type(), proto::U16);
  ASSERT_EQ(proto.dim_unique_size(), 2);
  EXPECT_FALSE(proto.dim_unique(0));
  EXPECT_TRUE(proto.dim_unique(1));
  ASSERT_EQ(proto.dim_ordered_size(), 2);
  EXPECT_TRUE(proto.dim_ordered(0));
  EXPECT_FALSE(proto.dim_ordered(1));
  EXPECT_EQ(proto.dynamic_shape_metadata_prefix_bytes(), 8);
  EXPECT_EQ(proto.tail_padding_alignment_in_elements(), 4);
  ASSERT_EQ(proto.split_configs_size(), 2);
  EXPECT_EQ(proto.split_configs(0).dimension(), 0);
  EXPECT_EQ(proto.split_configs(0).split_indices(0), 3);
  EXPECT_EQ(proto.split_configs(1).dimension(), 1);
  EXPECT_EQ(proto.split_configs(1).split_indices(1), 2);

  absl::StatusOr<Layout> layout = LayoutFromProto(proto, kKeepDimLevels);
  ASSERT_TRUE(layout.ok()) << layout.status();
  EXPECT_EQ(*layout, EveryLayoutField());
  EXPECT_EQ(layout->ToString(),
            "{1,0:D(C+,S~)T(8,128)(*,2)L(4)#(s32)*(u16)E(4)S(1)SC(0:3)(1:1,2)"
            "P(s32[4]{0})M(8)}");
}

TEST(ShapeProtoWireTest, EveryLayoutFieldSerializesToHandEncodedBytes) {
  EXPECT_EQ(Hex(LayoutToProto(EveryLayoutField()).SerializeAsString()),
            Hex(kEveryLayoutField));
}

// What a writer that omits defaults (or an older XLA) might send: no
// is_dynamic_dimension, no tail padding. It reads as all static with L = 1
// and is written back in the canonical form.
TEST(ShapeProtoWireTest, OmittedDefaultsRead) {
  const std::string sparse_bytes =
      "\x10\x0b\x1a\x02\x03\x05\x2a\x04\x0a\x02\x01\x00"s;
  absl::StatusOr<Shape> shape = ShapeFromProtoBytes(sparse_bytes);
  ASSERT_TRUE(shape.ok()) << shape.status();
  EXPECT_EQ(shape->ToString(true), "f32[3,5]{1,0}");
  EXPECT_TRUE(shape->is_static());
  EXPECT_EQ(shape->layout().tail_padding_alignment_in_elements(), 1);
  EXPECT_EQ(Hex(ShapeToProtoBytes(*shape)),
            Hex("\x10\x0b\x1a\x02\x03\x05\x2a\x07\x0a\x02\x01\x00\x80\x01\x01"
                "\x32\x02\x00\x00"s));
}

// Proto parsers accept repeated scalars unpacked too (one tag per value),
// as proto2 writers send them.
TEST(ShapeProtoWireTest, UnpackedRepeatedFieldsRead) {
  const std::string unpacked =
      "\x10\x0b"                  // element_type F32
      "\x18\x03\x18\x05"          // dimensions 3, dimensions 5 (varint, 0x18)
      "\x2a\x04\x08\x00\x08\x01"  // layout { minor_to_major 0, 1 }
      "\x30\x00\x30\x01"s;        // is_dynamic_dimension false, true
  absl::StatusOr<Shape> shape = ShapeFromProtoBytes(unpacked);
  ASSERT_TRUE(shape.ok()) << shape.status();
  EXPECT_EQ(shape->ToString(true), "f32[3,<=5]{0,1}");
}

// Unknown fields (a newer XLA, or the reserved former `rank` = 1) are
// skipped.
TEST(ShapeProtoWireTest, UnknownAndReservedFieldsSkipped) {
  const std::string bytes =
      "\x08\x02"          // field 1 (reserved, former rank) = 2
      "\x10\x0b"          // element_type F32
      "\x1a\x02\x03\x05"  // dimensions [3, 5]
      "\xb8\x06\x07"s;    // field 103, varint 7
  absl::StatusOr<Shape> shape = ShapeFromProtoBytes(bytes);
  ASSERT_TRUE(shape.ok()) << shape.status();
  EXPECT_EQ(shape->ToString(true), "f32[3,5]");
}

TEST(ShapeProtoWireTest, BytesThatDoNotParse) {
  for (const std::string& bytes :
       {"\xff"s,          // a varint that never ends
        "\x1a\x05\x01"s,  // a packed list cut short
        "\x2a\x02\x0a"s,  // a layout 2 bytes long with 1 byte left
        "\x17\x01"s}) {   // field 2 with wire type 7 (no such type)
    absl::StatusOr<Shape> shape = ShapeFromProtoBytes(bytes);
    ASSERT_FALSE(shape.ok()) << Hex(bytes);
    EXPECT_EQ(shape.status().message(),
              "shape proto: bytes do not parse as a ShapeProto")
        << Hex(bytes);
  }
  // Empty bytes parse (every field default) but are no shape.
  EXPECT_EQ(ShapeFromProtoBytes("").status().message(),
            "shape proto: element_type is not set");
}

// Every single-byte change of valid encodings either fails cleanly or reads
// a shape that passes ValidateShape and survives another round trip.
TEST(ShapeProtoWireTest, EveryByteMutationReadsOrFailsCleanly) {
  int read = 0;
  int failed = 0;
  for (const std::string& original :
       {kTiledF32, kDynamicS32, kTuple, kBuffer}) {
    for (size_t i = 0; i < original.size(); ++i) {
      for (int value = 0; value < 256; ++value) {
        std::string bytes = original;
        bytes[i] = static_cast<char>(value);
        absl::StatusOr<Shape> shape = ShapeFromProtoBytes(bytes);
        if (!shape.ok()) {
          EXPECT_EQ(shape.status().code(), absl::StatusCode::kInvalidArgument);
          ++failed;
          continue;
        }
        ++read;
        absl::StatusOr<Shape> again =
            ShapeFromProtoBytes(ShapeToProtoBytes(*shape));
        ASSERT_TRUE(again.ok()) << Hex(bytes) << ": " << again.status();
        EXPECT_EQ(*again, *shape) << Hex(bytes);
      }
    }
  }
  EXPECT_GT(read, 0);
  EXPECT_GT(failed, 0);
}

// ---------------------------------------------------------------------------
// Invalid protos, each with its exact message.

TEST(ShapeProtoErrorTest, ElementType) {
  proto::ShapeProto proto = F32Proto();
  proto.set_element_type(static_cast<proto::PrimitiveType>(99));
  EXPECT_EQ(ErrorOf(proto), "shape proto: unknown element_type 99");
  proto.set_element_type(proto::PRIMITIVE_TYPE_INVALID);
  EXPECT_EQ(ErrorOf(proto), "shape proto: element_type is not set");
  EXPECT_EQ(ErrorOf(ParseProto("\x10\x63"s)),
            "shape proto: unknown element_type 99");
}

TEST(ShapeProtoErrorTest, ArrayDimensions) {
  proto::ShapeProto proto = F32Proto();
  proto.add_is_dynamic_dimension(true);
  EXPECT_EQ(ErrorOf(proto),
            "shape proto: is_dynamic_dimension has 1 entries but dimensions "
            "has 2");

  proto = F32Proto();
  proto.set_dimensions(0, -3);
  EXPECT_EQ(ErrorOf(proto), "shape proto: negative dimension -3 at 0");

  proto = F32Proto();
  proto.set_dimensions(1, kMin);
  EXPECT_EQ(ErrorOf(proto),
            "shape proto: unbounded dimension at 1 is not dynamic");
  proto.add_is_dynamic_dimension(false);
  proto.add_is_dynamic_dimension(false);
  EXPECT_EQ(ErrorOf(proto),
            "shape proto: unbounded dimension at 1 is not dynamic");
  proto.set_is_dynamic_dimension(1, true);
  EXPECT_EQ(ErrorOf(proto), "ok: f32[3,?]{1,0}");

  proto = F32Proto();
  *proto.add_tuple_shapes() = F32Proto();
  EXPECT_EQ(ErrorOf(proto), "shape proto: f32 array has tuple_shapes");
}

TEST(ShapeProtoErrorTest, ElementCountOverflowFromValidateShape) {
  proto::ShapeProto proto;
  proto.set_element_type(proto::S8);
  proto.add_dimensions(int64_t{1} << 40);
  proto.add_dimensions(int64_t{1} << 40);
  EXPECT_EQ(ErrorOf(proto),
            "shape proto: element count of s8[1099511627776,1099511627776] "
            "overflows int64");
}

TEST(ShapeProtoErrorTest, NonArrayFields) {
  proto::ShapeProto tuple;
  tuple.set_element_type(proto::TUPLE);
  proto::ShapeProto bad = tuple;
  bad.add_dimensions(2);
  EXPECT_EQ(ErrorOf(bad), "shape proto: tuple has dimensions");
  bad = tuple;
  bad.add_is_dynamic_dimension(false);
  EXPECT_EQ(ErrorOf(bad), "shape proto: tuple has is_dynamic_dimension");
  bad = tuple;
  bad.mutable_layout();
  EXPECT_EQ(ErrorOf(bad), "shape proto: tuple has a layout");

  proto::ShapeProto token;
  token.set_element_type(proto::TOKEN);
  token.mutable_layout();
  EXPECT_EQ(ErrorOf(token), "shape proto: token has a layout");

  proto::ShapeProto opaque;
  opaque.set_element_type(proto::OPAQUE_TYPE);
  opaque.add_tuple_shapes()->set_element_type(proto::TOKEN);
  EXPECT_EQ(ErrorOf(opaque), "shape proto: opaque has tuple_shapes");
  opaque.clear_tuple_shapes();
  opaque.add_dimensions(1);
  EXPECT_EQ(ErrorOf(opaque), "shape proto: opaque has dimensions");
}

TEST(ShapeProtoErrorTest, Buffer) {
  proto::ShapeProto buffer;
  buffer.set_element_type(proto::BUFFER);
  EXPECT_EQ(ErrorOf(buffer),
            "shape proto: buffer has 0 tuple_shapes, expected 1");
  *buffer.add_tuple_shapes() = F32Proto();
  EXPECT_EQ(ErrorOf(buffer), "ok: b(f32[3,5]{1,0})");
  *buffer.add_tuple_shapes() = F32Proto();
  EXPECT_EQ(ErrorOf(buffer),
            "shape proto: buffer has 2 tuple_shapes, expected 1");
  buffer.clear_tuple_shapes();
  buffer.add_tuple_shapes()->set_element_type(proto::TUPLE);
  EXPECT_EQ(ErrorOf(buffer), "shape proto: buffer holds a tuple, not an array");
  buffer.mutable_tuple_shapes(0)->set_element_type(proto::F32);
  buffer.add_dimensions(8);
  EXPECT_EQ(ErrorOf(buffer), "shape proto: buffer has dimensions");
}

TEST(ShapeProtoErrorTest, NestedErrorsNameTheirPath) {
  proto::ShapeProto inner;
  inner.set_element_type(proto::TUPLE);
  *inner.add_tuple_shapes() = F32Proto();
  *inner.add_tuple_shapes() = F32Proto();
  *inner.add_tuple_shapes() = F32Proto();
  inner.mutable_tuple_shapes(2)->set_dimensions(0, -3);
  proto::ShapeProto outer;
  outer.set_element_type(proto::TUPLE);
  outer.add_tuple_shapes()->set_element_type(proto::TOKEN);
  *outer.add_tuple_shapes() = inner;
  EXPECT_EQ(ErrorOf(outer),
            "shape proto at tuple_shapes[1].tuple_shapes[2]: negative "
            "dimension -3 at 0");

  inner.mutable_tuple_shapes(2)->set_dimensions(0, 3);
  inner.mutable_tuple_shapes(2)->mutable_layout()->set_minor_to_major(1, 1);
  *outer.mutable_tuple_shapes(1) = inner;
  EXPECT_EQ(ErrorOf(outer),
            "shape proto at tuple_shapes[1].tuple_shapes[2]: minor_to_major "
            "{1,1} is not a permutation: 1 appears twice");

  inner.mutable_tuple_shapes(2)->mutable_layout()->set_minor_to_major(1, 0);
  inner.mutable_tuple_shapes(2)
      ->mutable_layout()
      ->set_tail_padding_alignment_in_elements(-2);
  *outer.mutable_tuple_shapes(1) = inner;
  EXPECT_EQ(ErrorOf(outer),
            "layout proto at tuple_shapes[1].tuple_shapes[2]: "
            "tail_padding_alignment_in_elements is negative");
}

TEST(ShapeProtoErrorTest, LayoutFields) {
  proto::ShapeProto proto = F32Proto();
  proto.mutable_layout()->set_tail_padding_alignment_in_elements(-1);
  EXPECT_EQ(ErrorOf(proto),
            "layout proto: tail_padding_alignment_in_elements is negative");

  proto = F32Proto();
  proto.mutable_layout()->set_element_size_in_bits(-4);
  EXPECT_EQ(ErrorOf(proto), "layout proto: element_size_in_bits is negative");

  proto = F32Proto();
  proto.mutable_layout()->set_dynamic_shape_metadata_prefix_bytes(-8);
  // XLA does not check M; it prints M only when positive.
  EXPECT_EQ(ErrorOf(proto), "ok: f32[3,5]{1,0}");

  proto = F32Proto();
  proto.mutable_layout()->add_dim_level_types(proto::DIM_DENSE);
  proto.mutable_layout()->add_dim_level_types(
      static_cast<proto::DimLevelType>(7));
  EXPECT_EQ(ErrorOf(proto),
            "layout proto: unknown dim_level_types value 7 at 1");

  proto = F32Proto();
  proto.mutable_layout()->add_dim_level_types(proto::DIM_DENSE);
  proto.mutable_layout()->add_dim_level_types(proto::DIM_COMPRESSED);
  proto.mutable_layout()->add_dim_unique(false);
  EXPECT_EQ(ErrorOf(proto),
            "layout proto: dim_unique has 1 entries but dim_level_types has 2");
  proto.mutable_layout()->add_dim_unique(false);
  proto.mutable_layout()->add_dim_ordered(true);
  proto.mutable_layout()->add_dim_ordered(true);
  proto.mutable_layout()->add_dim_ordered(true);
  EXPECT_EQ(
      ErrorOf(proto),
      "layout proto: dim_ordered has 3 entries but dim_level_types has 2");
  proto.mutable_layout()->clear_dim_ordered();  // empty: all ordered
  EXPECT_EQ(ErrorOf(proto), "ok: f32[3,5]{1,0:D(D+,C+)}");

  proto = F32Proto();
  proto.mutable_layout()->set_index_primitive_type(
      static_cast<proto::PrimitiveType>(99));
  EXPECT_EQ(ErrorOf(proto), "layout proto: unknown index_primitive_type 99");
  proto = F32Proto();
  proto.mutable_layout()->set_pointer_primitive_type(
      static_cast<proto::PrimitiveType>(-1));
  EXPECT_EQ(ErrorOf(proto), "layout proto: unknown pointer_primitive_type -1");
}

TEST(ShapeProtoErrorTest, LayoutAgainstShapeFromValidateShape) {
  proto::ShapeProto proto = F32Proto();
  proto.mutable_layout()->set_minor_to_major(1, 1);
  EXPECT_EQ(ErrorOf(proto),
            "shape proto: minor_to_major {1,1} is not a permutation: 1 "
            "appears twice");

  proto = F32Proto();
  proto.mutable_layout()->clear_minor_to_major();
  proto.mutable_layout()->add_minor_to_major(0);
  EXPECT_EQ(ErrorOf(proto),
            "shape proto: layout {0} has 1 dimension but the shape has rank 2");

  proto = F32Proto();
  proto.mutable_layout()->add_tiles()->add_dimensions(0);
  EXPECT_EQ(ErrorOf(proto), "shape proto: tile (0) has a zero dimension");

  proto = F32Proto();
  proto.mutable_layout()->set_index_primitive_type(proto::S32);
  EXPECT_EQ(ErrorOf(proto),
            "shape proto: #(s32) is only allowed on sparse arrays");

  proto = F32Proto();
  *proto.mutable_layout()->mutable_physical_shape() = F32Proto();
  EXPECT_EQ(ErrorOf(proto),
            "shape proto: P(...) is only allowed on sparse arrays");

  proto = F32Proto();
  proto::SplitConfigProto* split = proto.mutable_layout()->add_split_configs();
  split->set_dimension(2);
  EXPECT_EQ(ErrorOf(proto),
            "shape proto: SC(2:...) names physical dimension 2, outside 0..1");

  // Found by fuzz/proto_fuzzer: read, then printed as "SC(1:)", which does
  // not parse.
  proto = F32Proto();
  proto.mutable_layout()->add_split_configs()->set_dimension(1);
  EXPECT_EQ(ErrorOf(proto), "shape proto: SC(1:) has no split indices");
}

TEST(ShapeProtoErrorTest, PhysicalShapePath) {
  proto::ShapeProto proto = ShapeToProto(SparseShape());
  proto.mutable_layout()->mutable_physical_shape()->set_dimensions(0, -1);
  EXPECT_EQ(ErrorOf(proto),
            "shape proto at layout.physical_shape: negative dimension -1 at 0");
}

proto::ShapeProto NestedTuples(int depth) {
  proto::ShapeProto proto;
  proto.set_element_type(proto::F32);
  for (int i = 0; i < depth; ++i) {
    proto::ShapeProto outer;
    outer.set_element_type(proto::TUPLE);
    *outer.add_tuple_shapes() = std::move(proto);
    proto = std::move(outer);
  }
  return proto;
}

TEST(ShapeProtoErrorTest, Nesting) {
  EXPECT_TRUE(ShapeFromProto(NestedTuples(kMaxProtoShapeNesting)).ok());
  EXPECT_EQ(ErrorOf(NestedTuples(kMaxProtoShapeNesting + 1)),
            "shape proto: nesting deeper than 100");
  EXPECT_EQ(ErrorOf(NestedTuples(5000)),
            "shape proto: nesting deeper than 100");
  // Protobuf's own parser refuses deep messages before we see them.
  EXPECT_EQ(ShapeFromProtoBytes(NestedTuples(200).SerializeAsString())
                .status()
                .message(),
            "shape proto: bytes do not parse as a ShapeProto");
}

// ---------------------------------------------------------------------------
// LayoutFromProto on its own.

TEST(LayoutProtoTest, ZeroTailPaddingReadsAsOne) {
  proto::LayoutProto proto;
  proto.add_minor_to_major(0);
  absl::StatusOr<Layout> layout = LayoutFromProto(proto);
  ASSERT_TRUE(layout.ok()) << layout.status();
  EXPECT_EQ(layout->tail_padding_alignment_in_elements(), 1);
  // Written back as XLA writes it: explicitly 1.
  EXPECT_EQ(LayoutToProto(*layout).tail_padding_alignment_in_elements(), 1);
}

TEST(LayoutProtoTest, NotCheckedAgainstARank) {
  proto::LayoutProto proto;
  proto.add_minor_to_major(7);
  proto.add_tiles();
  EXPECT_EQ(ErrorOf(proto), "ok: {7:T()}");
}

TEST(LayoutProtoTest, Errors) {
  proto::LayoutProto proto;
  proto.set_tail_padding_alignment_in_elements(-5);
  EXPECT_EQ(ErrorOf(proto),
            "layout proto: tail_padding_alignment_in_elements is negative");
  proto.Clear();
  *proto.mutable_physical_shape() = F32Proto();
  proto.mutable_physical_shape()->mutable_layout()->set_minor_to_major(0, 0);
  EXPECT_EQ(ErrorOf(proto),
            "shape proto at layout.physical_shape: minor_to_major {0,0} is "
            "not a permutation: 0 appears twice");
}

TEST(LayoutProtoTest, RoundTrip) {
  const Layout layout = EveryLayoutField();
  absl::StatusOr<Layout> back =
      LayoutFromProto(LayoutToProto(layout), kKeepDimLevels);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, layout);
  EXPECT_EQ(back->physical_shape(), layout.physical_shape());
}

// ---------------------------------------------------------------------------
// ProgramShape.

ProgramShape TwoParameters() {
  ProgramShape program;
  // The parser gives every array a layout; these scalars have none.
  program.parameters = {Parse("f32[2]{0}"), Shape::MakeArray(S32, {})};
  program.parameter_names = {"p0"};
  program.result = Shape::MakeArray(F32, {});
  return program;
}

// (p0: f32[2]{0}, (unknown): s32[]) -> f32[]
const std::string kProgram =
    "\x0a\x10"                          // parameters[0], 16 bytes:
    "\x10\x0b\x1a\x01\x02"              //   f32, dimensions [2]
    "\x2a\x06\x0a\x01\x00\x80\x01\x01"  //   layout {0}, L 1
    "\x32\x01\x00"                      //   is_dynamic_dimension [false]
    "\x0a\x02\x10\x04"                  // parameters[1]: s32, no layout
    "\x12\x02\x10\x0b"                  // result: f32, no layout
    "\x1a\x02p0"s;                      // parameter_names ["p0"]

TEST(ProgramShapeProtoTest, HandEncodedBytes) {
  proto::ProgramShapeProto proto;
  ASSERT_TRUE(proto.ParseFromString(kProgram));
  ASSERT_EQ(proto.parameters_size(), 2);
  EXPECT_EQ(proto.parameters(0).element_type(), proto::F32);
  EXPECT_EQ(proto.parameters(1).element_type(), proto::S32);
  EXPECT_EQ(proto.result().element_type(), proto::F32);
  ASSERT_EQ(proto.parameter_names_size(), 1);
  EXPECT_EQ(proto.parameter_names(0), "p0");

  absl::StatusOr<ProgramShape> program = ProgramShapeFromProto(proto);
  ASSERT_TRUE(program.ok()) << program.status();
  EXPECT_EQ(*program, TwoParameters());
  EXPECT_EQ(program->ToString(true),
            "(p0: f32[2]{0}, (unknown): s32[]) -> f32[]");
  EXPECT_EQ(Hex(ProgramShapeToProto(TwoParameters()).SerializeAsString()),
            Hex(kProgram));
}

TEST(ProgramShapeProtoTest, RoundTrip) {
  ProgramShape program;
  program.parameters = {Parse("(f32[2,3]{0,1}, token[])"),
                        Parse("b(u8[4]{0})")};
  program.parameter_names = {"tuple_param", "buffer_param"};
  program.result = Parse("bf16[8,128]{1,0:T(8,128)(2,1)}");
  absl::StatusOr<ProgramShape> back =
      ProgramShapeFromProto(ProgramShapeToProto(program));
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, program);
}

TEST(ProgramShapeProtoTest, Errors) {
  proto::ProgramShapeProto proto = ProgramShapeToProto(TwoParameters());
  proto.add_parameter_names("p1");
  proto.add_parameter_names("p2");
  EXPECT_EQ(ProgramShapeFromProto(proto).status().message(),
            "program shape proto: parameter_names has 3 entries but "
            "parameters has 2");

  proto = ProgramShapeToProto(TwoParameters());
  proto.clear_result();
  EXPECT_EQ(ProgramShapeFromProto(proto).status().message(),
            "program shape proto: result is not set");

  proto = ProgramShapeToProto(TwoParameters());
  proto.mutable_parameters(1)->set_element_type(
      static_cast<proto::PrimitiveType>(99));
  EXPECT_EQ(ProgramShapeFromProto(proto).status().message(),
            "shape proto at parameters[1]: unknown element_type 99");

  proto = ProgramShapeToProto(TwoParameters());
  proto.mutable_result()->mutable_layout()->add_minor_to_major(0);
  EXPECT_EQ(ProgramShapeFromProto(proto).status().message(),
            "shape proto at result: layout {0} has 1 dimension but the shape "
            "has rank 0");
}

}  // namespace
}  // namespace hlolayout
