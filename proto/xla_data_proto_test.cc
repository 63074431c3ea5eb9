// Pins every field and enum number of proto/xla_data.proto to XLA's
// xla_data.proto: a renumbered field would silently break wire
// compatibility, so each number is checked against a table written from
// XLA's xla/xla_data.proto (https://github.com/openxla/xla).
#include <string>

#include "gtest/gtest.h"
#include "hlolayout/proto/xla_data.pb.h"
#include "hlolayout/shape/primitive_type.h"

namespace hlolayout {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::EnumDescriptor;
using google::protobuf::EnumValueDescriptor;
using google::protobuf::FieldDescriptor;

struct FieldNumber {
  const char* name;
  int number;
  FieldDescriptor::Type type;
  bool repeated;
};

void ExpectFields(const Descriptor* message,
                  std::initializer_list<FieldNumber> fields) {
  EXPECT_EQ(message->field_count(), static_cast<int>(fields.size()))
      << message->full_name();
  for (const FieldNumber& expected : fields) {
    const FieldDescriptor* field = message->FindFieldByName(expected.name);
    ASSERT_NE(field, nullptr) << message->full_name() << "." << expected.name;
    EXPECT_EQ(field->number(), expected.number) << field->full_name();
    EXPECT_EQ(field->type(), expected.type) << field->full_name();
    EXPECT_EQ(field->is_repeated(), expected.repeated) << field->full_name();
    if (field->is_repeated() && field->is_packable()) {
      EXPECT_TRUE(field->is_packed()) << field->full_name();
    }
  }
}

constexpr auto kInt64 = FieldDescriptor::TYPE_INT64;
constexpr auto kBool = FieldDescriptor::TYPE_BOOL;
constexpr auto kEnum = FieldDescriptor::TYPE_ENUM;
constexpr auto kMessage = FieldDescriptor::TYPE_MESSAGE;
constexpr auto kString = FieldDescriptor::TYPE_STRING;

TEST(XlaDataProtoTest, PackageKeepsClearOfXla) {
  EXPECT_EQ(proto::ShapeProto::descriptor()->full_name(),
            "hlolayout.proto.ShapeProto");
  EXPECT_EQ(proto::ShapeProto::descriptor()->file()->syntax(),
            google::protobuf::FileDescriptor::SYNTAX_PROTO3);
}

TEST(XlaDataProtoTest, TileProtoFieldNumbers) {
  ExpectFields(proto::TileProto::descriptor(),
               {{"dimensions", 1, kInt64, true}});
}

TEST(XlaDataProtoTest, SplitConfigProtoFieldNumbers) {
  ExpectFields(
      proto::SplitConfigProto::descriptor(),
      {{"dimension", 1, kInt64, false}, {"split_indices", 2, kInt64, true}});
}

TEST(XlaDataProtoTest, LayoutProtoFieldNumbers) {
  ExpectFields(proto::LayoutProto::descriptor(),
               {{"minor_to_major", 1, kInt64, true},
                {"tiles", 6, kMessage, true},
                {"element_size_in_bits", 7, kInt64, false},
                {"memory_space", 8, kInt64, false},
                {"dim_level_types", 9, kEnum, true},
                {"physical_shape", 10, kMessage, false},
                {"index_primitive_type", 11, kEnum, false},
                {"pointer_primitive_type", 12, kEnum, false},
                {"dim_unique", 13, kBool, true},
                {"dim_ordered", 14, kBool, true},
                {"dynamic_shape_metadata_prefix_bytes", 15, kInt64, false},
                {"tail_padding_alignment_in_elements", 16, kInt64, false},
                {"split_configs", 17, kMessage, true}});
}

TEST(XlaDataProtoTest, LayoutProtoReservesRemovedFields) {
  const Descriptor* layout = proto::LayoutProto::descriptor();
  for (int number : {2, 3, 4, 5}) {
    EXPECT_TRUE(layout->IsReservedNumber(number)) << number;
  }
  for (const char* name : {"padded_dimensions", "padding_value", "format",
                           "max_sparse_elements"}) {
    EXPECT_TRUE(layout->IsReservedName(name)) << name;
  }
}

TEST(XlaDataProtoTest, ShapeProtoFieldNumbers) {
  ExpectFields(proto::ShapeProto::descriptor(),
               {{"element_type", 2, kEnum, false},
                {"dimensions", 3, kInt64, true},
                {"tuple_shapes", 4, kMessage, true},
                {"layout", 5, kMessage, false},
                {"is_dynamic_dimension", 6, kBool, true}});
  EXPECT_TRUE(proto::ShapeProto::descriptor()->IsReservedNumber(1));
  EXPECT_TRUE(proto::ShapeProto::descriptor()->IsReservedName("rank"));
}

TEST(XlaDataProtoTest, ProgramShapeProtoFieldNumbers) {
  ExpectFields(proto::ProgramShapeProto::descriptor(),
               {{"parameters", 1, kMessage, true},
                {"result", 2, kMessage, false},
                {"parameter_names", 3, kString, true}});
}

TEST(XlaDataProtoTest, DimLevelTypeNumbers) {
  EXPECT_EQ(proto::DIM_DENSE, 0);
  EXPECT_EQ(proto::DIM_COMPRESSED, 1);
  EXPECT_EQ(proto::DIM_SINGLETON, 2);
  EXPECT_EQ(proto::DIM_LOOSE_COMPRESSED, 3);
  EXPECT_EQ(proto::DimLevelType_descriptor()->value_count(), 4);
}

// Every element type of shape/primitive_type.h has the same number in the
// proto, under XLA's enum name (upper case; OPAQUE_TYPE for `opaque`).
TEST(XlaDataProtoTest, PrimitiveTypeNumbersMatchLibrary) {
  const EnumDescriptor* proto_enum = proto::PrimitiveType_descriptor();
  EXPECT_EQ(proto_enum->value_count(),
            static_cast<int>(AllPrimitiveTypes().size()) + 1);
  for (PrimitiveType type : AllPrimitiveTypes()) {
    const EnumValueDescriptor* value = proto_enum->FindValueByNumber(type);
    ASSERT_NE(value, nullptr) << PrimitiveTypeName(type);
    std::string expected_name(PrimitiveTypeName(type));
    for (char& c : expected_name) c = static_cast<char>(toupper(c));
    if (type == OPAQUE_TYPE) expected_name = "OPAQUE_TYPE";
    EXPECT_EQ(value->name(), expected_name);
  }
  for (int i = 0; i < proto_enum->value_count(); ++i) {
    EXPECT_TRUE(IsKnownPrimitiveType(proto_enum->value(i)->number()))
        << proto_enum->value(i)->name();
  }
  EXPECT_EQ(proto_enum->FindValueByNumber(0)->name(), "PRIMITIVE_TYPE_INVALID");
}

TEST(XlaDataProtoTest, PrimitiveTypeNumbersFromSpecTable) {
  EXPECT_EQ(proto::PRED, 1);
  EXPECT_EQ(proto::S8, 2);
  EXPECT_EQ(proto::S64, 5);
  EXPECT_EQ(proto::U8, 6);
  EXPECT_EQ(proto::U64, 9);
  EXPECT_EQ(proto::F16, 10);
  EXPECT_EQ(proto::F32, 11);
  EXPECT_EQ(proto::F64, 12);
  EXPECT_EQ(proto::TUPLE, 13);
  EXPECT_EQ(proto::OPAQUE_TYPE, 14);
  EXPECT_EQ(proto::C64, 15);
  EXPECT_EQ(proto::BF16, 16);
  EXPECT_EQ(proto::TOKEN, 17);
  EXPECT_EQ(proto::C128, 18);
  EXPECT_EQ(proto::F8E5M2, 19);
  EXPECT_EQ(proto::F8E4M3FN, 20);
  EXPECT_EQ(proto::S4, 21);
  EXPECT_EQ(proto::U4, 22);
  EXPECT_EQ(proto::F8E4M3B11FNUZ, 23);
  EXPECT_EQ(proto::F8E5M2FNUZ, 24);
  EXPECT_EQ(proto::F8E4M3FNUZ, 25);
  EXPECT_EQ(proto::S2, 26);
  EXPECT_EQ(proto::U2, 27);
  EXPECT_EQ(proto::F8E4M3, 28);
  EXPECT_EQ(proto::F8E3M4, 29);
  EXPECT_EQ(proto::S1, 30);
  EXPECT_EQ(proto::U1, 31);
  EXPECT_EQ(proto::F4E2M1FN, 32);
  EXPECT_EQ(proto::F8E8M0FNU, 33);
  EXPECT_EQ(proto::BUFFER, 34);
  EXPECT_EQ(proto::F6E3M2FN, 35);
  EXPECT_EQ(proto::F6E2M3FN, 36);
}

}  // namespace
}  // namespace hlolayout
