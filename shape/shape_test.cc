#include "hlolayout/shape/shape.h"

#include <vector>

#include "absl/hash/hash_testing.h"
#include "gtest/gtest.h"

namespace hlolayout {
namespace {

Shape RowMajor(PrimitiveType type, std::vector<int64_t> dims) {
  Shape shape = Shape::MakeArray(type, dims);
  Layout layout;
  for (int64_t i = static_cast<int64_t>(dims.size()) - 1; i >= 0; --i) {
    layout.add_minor_to_major(i);
  }
  shape.set_layout(layout);
  return shape;
}

TEST(Shape, ArrayAccessors) {
  Shape s = Shape::MakeArray(F32, {3, 5});
  EXPECT_TRUE(s.IsArray());
  EXPECT_FALSE(s.IsTuple());
  EXPECT_EQ(s.rank(), 2);
  EXPECT_EQ(s.dimension(1), 5);
  EXPECT_TRUE(s.is_static());
  EXPECT_FALSE(s.has_layout());
}

TEST(Shape, DynamicDimensions) {
  Shape s =
      Shape::MakeDynamicArray(F32, {16, Shape::kUnboundedSize}, {true, true});
  EXPECT_FALSE(s.is_static());
  EXPECT_FALSE(s.is_unbounded_dynamic_dimension(0));
  EXPECT_TRUE(s.is_unbounded_dynamic_dimension(1));
  s.set_dimension(0, 4);
  EXPECT_FALSE(s.is_dynamic_dimension(0));
}

TEST(Shape, CopyIsDeep) {
  Shape a = RowMajor(F32, {2, 3});
  Layout physical;
  a.mutable_layout()->set_physical_shape(RowMajor(S32, {4}));
  Shape b = a;
  EXPECT_EQ(a, b);
  b.mutable_layout()->set_physical_shape(RowMajor(S32, {5}));
  EXPECT_NE(a, b);
  EXPECT_EQ(a.layout().physical_shape().dimension(0), 4);
}

TEST(Shape, EqualityWithAndWithoutLayout) {
  Shape a = RowMajor(F32, {2, 3});
  Shape b = a;
  b.mutable_layout()->set_minor_to_major({0, 1});
  EXPECT_NE(a, b);
  EXPECT_TRUE(Shape::Equal().IgnoreLayout()(a, b));
  Shape c = a;
  c.mutable_layout()->set_memory_space(1);
  EXPECT_NE(a, c);
  EXPECT_TRUE(Shape::Equal().WithLayoutEqual(
      Layout::Equal().IgnoreMemorySpace())(a, c));
  Shape d = Shape::MakeArray(BF16, {2, 3});
  d.set_layout(a.layout());
  EXPECT_NE(a, d);
  EXPECT_TRUE(Shape::Equal().IgnoreElementType()(a, d));
}

TEST(Shape, DynamicDimensionComparison) {
  Shape a = Shape::MakeArray(F32, {4});
  Shape b = Shape::MakeDynamicArray(F32, {4}, {true});
  EXPECT_NE(a, b);
  EXPECT_TRUE(Shape::Equal().IgnoreDynamicDimension()(a, b));
}

TEST(Shape, TuplesTokensBuffers) {
  Shape t = Shape::MakeTuple(
      {RowMajor(F32, {2}), Shape::MakeToken(), Shape::MakeTuple({})});
  EXPECT_TRUE(t.IsTuple());
  EXPECT_EQ(t.tuple_size(), 3);
  EXPECT_TRUE(t.tuple_shape(1).IsToken());
  EXPECT_EQ(t.tuple_shape(2).tuple_size(), 0);
  Shape b = Shape::MakeBuffer(RowMajor(F32, {8}));
  EXPECT_TRUE(b.IsBuffer());
  EXPECT_EQ(b.buffer_shape().dimension(0), 8);
  EXPECT_TRUE(Shape::MakeOpaque().IsOpaque());
  EXPECT_NE(Shape::MakeToken(), Shape::MakeOpaque());
}

TEST(Shape, HashIsConsistentWithEquality) {
  Shape with_tiles = RowMajor(BF16, {8, 128});
  with_tiles.mutable_layout()->add_tile(Tile({8, 128})).add_tile(Tile({2, 1}));
  Shape fast = with_tiles;
  fast.mutable_layout()->set_memory_space(1);
  EXPECT_TRUE(absl::VerifyTypeImplementsAbslHashCorrectly({
      RowMajor(F32, {2, 3}),
      RowMajor(F32, {3, 2}),
      Shape::MakeArray(F32, {2, 3}),
      with_tiles,
      fast,
      Shape::MakeTuple({RowMajor(F32, {2})}),
      Shape::MakeTuple({}),
      Shape::MakeToken(),
      Shape::MakeBuffer(RowMajor(F32, {2})),
  }));
}

TEST(Layout, EqualIgnoring) {
  Layout a({1, 0});
  a.add_tile(Tile({8, 128})).set_element_size_in_bits(4);
  Layout b({1, 0});
  EXPECT_NE(a, b);
  EXPECT_TRUE(Layout::Equal().IgnoreTiles().IgnoreElementSize()(a, b));
  EXPECT_FALSE(Layout::Equal().IgnoreTiles()(a, b));
}

// The rarer attributes live out of line (Layout::Rare); a layout that set
// one back to its default equals, and hashes as, one that never set it.
TEST(Layout, RareAttributesAreValues) {
  Layout plain({1, 0});
  Layout defaults({1, 0});
  defaults.set_tail_padding_alignment_in_elements(1)
      .set_index_primitive_type(PRIMITIVE_TYPE_INVALID)
      .set_dynamic_shape_metadata_prefix_bytes(0);
  Layout reset({1, 0});
  reset.set_tail_padding_alignment_in_elements(1024)
      .set_tail_padding_alignment_in_elements(1);
  EXPECT_EQ(plain, defaults);
  EXPECT_EQ(plain, reset);
  EXPECT_EQ(reset.tail_padding_alignment_in_elements(), 1);

  Layout rare({1, 0});
  rare.set_tail_padding_alignment_in_elements(1024)
      .set_index_primitive_type(U32)
      .set_pointer_primitive_type(U16)
      .set_dynamic_shape_metadata_prefix_bytes(8)
      .add_dim_level(DimLevel{DIM_COMPRESSED, false, true})
      .add_split_config(SplitConfig{0, {3}})
      .set_physical_shape(RowMajor(F32, {4}));
  Layout copy = rare;
  EXPECT_EQ(copy, rare);
  EXPECT_EQ(copy.physical_shape(), RowMajor(F32, {4}));
  EXPECT_EQ(copy.split_configs().size(), 1u);
  EXPECT_EQ(copy.pointer_primitive_type(), U16);
  Layout moved = std::move(copy);
  EXPECT_EQ(moved, rare);
  moved.clear_physical_shape();
  EXPECT_NE(moved, rare);
  EXPECT_FALSE(moved.has_physical_shape());
  EXPECT_TRUE(rare.has_physical_shape());  // the copy was deep
  EXPECT_FALSE(plain.has_physical_shape());
  EXPECT_TRUE(plain.dim_levels().empty());
  EXPECT_TRUE(plain.split_configs().empty());
  EXPECT_TRUE(Layout::Equal().IgnoreSplitConfigs()(
      Layout({0}).add_split_config(SplitConfig{0, {1}}), Layout({0})));
  EXPECT_FALSE(Layout::Equal().IgnoreSplitConfigs()(
      Layout({0}).set_tail_padding_alignment_in_elements(2), Layout({0})));
  EXPECT_TRUE(Layout::Equal().IgnoreTailPadding()(
      Layout({0}).set_tail_padding_alignment_in_elements(2), Layout({0})));

  Layout only_pointer({1, 0});
  only_pointer.set_pointer_primitive_type(U16);
  EXPECT_TRUE(absl::VerifyTypeImplementsAbslHashCorrectly(
      {plain, defaults, reset, rare, moved, only_pointer,
       Layout({1, 0}).add_dim_level(DimLevel{}),
       Layout({1, 0}).add_split_config(SplitConfig{1, {2}})}));
}

TEST(ShapeDeathTest, LayoutOfShapeWithoutLayoutChecks) {
  Shape s = Shape::MakeArray(F32, {2});
  EXPECT_DEATH(s.layout(), "no layout");
}

TEST(ShapeDeathTest, MakeArrayOfTupleTypeChecks) {
  EXPECT_DEATH(Shape::MakeArray(TUPLE, {}), "check failed");
}

}  // namespace
}  // namespace hlolayout
