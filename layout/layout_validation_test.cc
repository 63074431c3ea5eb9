#include "hlolayout/layout/layout_validation.h"

#include <vector>

#include "gtest/gtest.h"

namespace hlolayout {
namespace {

Shape Array(PrimitiveType type, std::vector<int64_t> dims,
            std::vector<int64_t> minor_to_major) {
  Shape shape = Shape::MakeArray(type, dims);
  shape.set_layout(Layout(minor_to_major));
  return shape;
}

std::string Message(const Shape& shape) {
  return std::string(ValidateShape(shape).message());
}

TEST(LayoutValidation, ValidShapes) {
  EXPECT_TRUE(ValidateShape(Array(F32, {3, 5}, {1, 0})).ok());
  EXPECT_TRUE(ValidateShape(Array(F32, {}, {})).ok());
  EXPECT_TRUE(ValidateShape(Shape::MakeArray(F32, {2})).ok());  // no layout
  EXPECT_TRUE(ValidateShape(Shape::MakeTuple({})).ok());
  EXPECT_TRUE(ValidateShape(Shape::MakeToken()).ok());
  EXPECT_TRUE(ValidateShape(Shape::MakeBuffer(Array(F32, {2}, {0}))).ok());
  Shape zero = Array(F32, {0, INT64_MAX, INT64_MAX}, {2, 1, 0});
  EXPECT_TRUE(ValidateShape(zero).ok()) << Message(zero);
}

TEST(LayoutValidation, StructuralErrors) {
  EXPECT_EQ(Message(Shape()), "shape has an invalid element type");
  Shape tuple = Shape::MakeTuple({Array(F32, {2}, {0})});
  tuple.set_layout(Layout());
  EXPECT_EQ(Message(tuple), "a tuple shape has no layout");
  Shape token = Shape::MakeToken();
  token.set_layout(Layout({0}));
  EXPECT_EQ(Message(token), "token shapes have no layout");
  EXPECT_EQ(Message(Shape::MakeBuffer(Shape::MakeTuple({}))),
            "a buffer holds exactly one array shape");
  Shape nested = Shape::MakeTuple({Shape::MakeTuple({Array(F32, {2}, {1})})});
  EXPECT_EQ(Message(nested),
            "minor_to_major {1} names dimension 1, outside 0..0");
}

TEST(LayoutValidation, UnboundedMustBeDynamic) {
  Shape s = Shape::MakeArray(F32, {Shape::kUnboundedSize});
  EXPECT_EQ(Message(s), "dimension 0 is unbounded but not marked dynamic");
  Shape d = Shape::MakeDynamicArray(F32, {Shape::kUnboundedSize}, {true});
  EXPECT_TRUE(ValidateShape(d).ok());
}

TEST(LayoutValidation, NegativeDimension) {
  EXPECT_EQ(Message(Array(F32, {-2}, {0})), "dimension 0 has negative size -2");
}

TEST(LayoutValidation, ElementCountOverflow) {
  EXPECT_EQ(Message(Array(S8, {1LL << 32, 1LL << 32}, {1, 0})),
            "element count of s8[4294967296,4294967296] overflows int64");
}

TEST(LayoutValidation, SplitConfigUsesPhysicalDimension) {
  // {0,1,2}: physical dim 0 is logical dim 2 (size 100).
  Shape s = Array(F32, {150, 200, 100}, {0, 1, 2});
  s.mutable_layout()->add_split_config({0, {99}});
  EXPECT_TRUE(ValidateShape(s).ok()) << Message(s);
  s.mutable_layout()->add_split_config({1, {200}});
  EXPECT_EQ(Message(s),
            "SC(1:200): split indices must increase strictly inside (0, 200)");
}

// Found by fuzz/proto_fuzzer: a proto split config without indices was
// accepted and printed as "SC(1:)", which does not parse.
TEST(LayoutValidation, SplitConfigWithoutIndices) {
  Shape s = Array(F32, {150, 200, 100}, {0, 1, 2});
  s.mutable_layout()->add_split_config({0, {30}});
  s.mutable_layout()->add_split_config({1, {}});
  EXPECT_EQ(Message(s), "SC(1:) has no split indices");
}

TEST(LayoutValidation, SparseAttributesNeedSparseDims) {
  Shape s = Array(F32, {4}, {0});
  s.mutable_layout()->add_dim_level({DIM_COMPRESSED, true, true});
  s.mutable_layout()->set_index_primitive_type(F32);
  EXPECT_EQ(Message(s), "#(f32) must name an integral type");
  s.mutable_layout()->set_index_primitive_type(U8);
  s.mutable_layout()->set_physical_shape(Array(S32, {2}, {1}));
  EXPECT_EQ(Message(s),
            "in P(...): minor_to_major {1} names dimension 1, outside 0..0");
}

TEST(LayoutValidation, LayoutForShapeRankMismatch) {
  EXPECT_EQ(ValidateLayoutForShape(Layout({0}), Shape::MakeArray(F32, {2, 3}))
                .message(),
            "layout {0} has 1 dimension but the shape has rank 2");
}

}  // namespace
}  // namespace hlolayout
