#include "hlolayout/shape/printer.h"

#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "gtest/gtest.h"
#include "hlolayout/testing/stringify.h"

namespace hlolayout {
namespace {

Shape WithLayout(PrimitiveType type, std::vector<int64_t> dims,
                 std::vector<int64_t> minor_to_major) {
  Shape shape = Shape::MakeArray(type, dims);
  shape.set_layout(Layout(minor_to_major));
  return shape;
}

TEST(Printer, ArrayWithAndWithoutLayout) {
  Shape s = WithLayout(F32, {3, 5}, {1, 0});
  EXPECT_EQ(HumanString(s), "f32[3,5]");
  EXPECT_EQ(HumanStringWithLayout(s), "f32[3,5]{1,0}");
  EXPECT_EQ(s.ToString(true), "f32[3,5]{1,0}");
}

TEST(Printer, AllAttributesInXlaOrder) {
  Shape s = WithLayout(BF16, {8, 1, 1280, 16384}, {3, 2, 0, 1});
  Layout& l = *s.mutable_layout();
  l.add_dim_level({DIM_DENSE, true, true})
      .add_dim_level({DIM_COMPRESSED, false, false})
      .add_dim_level({DIM_SINGLETON, true, false})
      .add_dim_level({DIM_LOOSE_COMPRESSED, false, true});
  l.add_tile(Tile({8, 128})).add_tile(Tile({2, 1}));
  l.set_tail_padding_alignment_in_elements(1024)
      .set_index_primitive_type(U32)
      .set_pointer_primitive_type(U16)
      .set_element_size_in_bits(4)
      .set_memory_space(1)
      .add_split_config({0, {3}})
      .add_split_config({1, {0, 4}})
      .set_physical_shape(WithLayout(S32, {4}, {0}))
      .set_dynamic_shape_metadata_prefix_bytes(8);
  EXPECT_EQ(HumanStringWithLayout(s),
            "bf16[8,1,1280,16384]{3,2,0,1:D(D,C+~,S~,H+)T(8,128)(2,1)L(1024)#("
            "u32)*(u16)E(4)S(1)SC(0:3)(1:0,4)P(s32[4]{0})M(8)}");
}

TEST(Printer, DenseDimLevelsAreNotPrinted) {
  Layout l({0});
  l.add_dim_level({});
  EXPECT_EQ(l.ToString(), "{0}");
}

TEST(Printer, ColonOnlyWhenAttributePrints) {
  EXPECT_EQ(Layout({1, 0}).ToString(), "{1,0}");
  EXPECT_EQ(Layout().ToString(), "{}");
  Layout m({0});
  m.set_dynamic_shape_metadata_prefix_bytes(0);
  EXPECT_EQ(m.ToString(), "{0}");
}

TEST(Printer, CombinedTileDimension) {
  Tile t({Tile::kCombineDimension, Tile::kCombineDimension, 2,
          Tile::kCombineDimension, 3});
  EXPECT_EQ(t.ToString(), "(*,*,2,*,3)");
}

TEST(Printer, ScalarRule) {
  Shape s = WithLayout(F32, {}, {});
  EXPECT_EQ(HumanStringWithLayout(s), "f32[]");
  s.mutable_layout()->add_tile(Tile({256}));
  EXPECT_EQ(HumanStringWithLayout(s), "f32[]{:T(256)}");
  Shape u = WithLayout(U32, {}, {});
  u.mutable_layout()->set_memory_space(2);
  EXPECT_EQ(HumanStringWithLayout(u), "u32[]{:S(2)}");
  EXPECT_EQ(HumanStringWithLayout(WithLayout(F32, {0}, {0})), "f32[0]{0}");
}

TEST(Printer, DynamicDimensions) {
  Shape s = Shape::MakeDynamicArray(F32, {16, Shape::kUnboundedSize, 3},
                                    {true, true, false});
  s.set_layout(Layout({2, 1, 0}));
  EXPECT_EQ(HumanStringWithLayout(s), "f32[<=16,?,3]{2,1,0}");
}

TEST(Printer, TokenAndOpaqueNeverShowLayout) {
  Shape t = Shape::MakeToken();
  t.set_layout(Layout());
  EXPECT_EQ(HumanStringWithLayout(t), "token[]");
  EXPECT_EQ(HumanStringWithLayout(Shape::MakeOpaque()), "opaque[]");
}

TEST(Printer, TupleIndexComments) {
  std::vector<Shape> elements(11, WithLayout(S32, {}, {}));
  std::vector<Shape> inner(6, WithLayout(F32, {2}, {0}));
  elements[6] = Shape::MakeTuple(inner);
  EXPECT_EQ(
      HumanStringWithLayout(Shape::MakeTuple(elements)),
      "(s32[], s32[], s32[], s32[], s32[], /*index=5*/s32[], (f32[2]{0}, "
      "f32[2]{0}, f32[2]{0}, f32[2]{0}, f32[2]{0}, /*index=5*/f32[2]{0}), "
      "s32[], s32[], s32[], /*index=10*/s32[])");
  EXPECT_EQ(HumanString(Shape::MakeTuple({})), "()");
}

TEST(Printer, Buffer) {
  EXPECT_EQ(HumanStringWithLayout(Shape::MakeBuffer(WithLayout(F32, {8}, {0}))),
            "b(f32[8]{0})");
}

TEST(Printer, ShapeStringifiesAndStreamsWithItsLayout) {
  Shape s = WithLayout(F32, {8, 128}, {1, 0});
  s.mutable_layout()->add_tile(Tile({8, 128}));
  EXPECT_EQ(Stringified(s), "f32[8,128]{1,0:T(8,128)}");
  EXPECT_EQ(Streamed(s), "f32[8,128]{1,0:T(8,128)}");
  const Shape tuple = Shape::MakeTuple({s, Shape::MakeArray(S32, {})});
  EXPECT_EQ(Stringified(tuple), "(f32[8,128]{1,0:T(8,128)}, s32[])");
  EXPECT_EQ(Streamed(tuple), Stringified(tuple));
}

TEST(Printer, LayoutStringifiesAndStreams) {
  Layout l({1, 0});
  l.add_tile(Tile({8, 128})).add_tile(Tile({2, 1}));
  EXPECT_EQ(Stringified(l), "{1,0:T(8,128)(2,1)}");
  EXPECT_EQ(Streamed(l), "{1,0:T(8,128)(2,1)}");
}

}  // namespace
}  // namespace hlolayout
