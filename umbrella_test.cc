// The tour at the top of hlolayout/hlolayout.h, step by step, through the
// umbrella header alone.
#include <cstdint>
#include <string>

#include "gtest/gtest.h"
#include "hlolayout/hlolayout.h"

namespace hlolayout {
namespace {

constexpr char kExample[] = "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}";

TEST(UmbrellaTest, Version) {
  EXPECT_EQ(std::string(HLOLAYOUT_VERSION_STRING),
            std::to_string(HLOLAYOUT_VERSION_MAJOR) + "." +
                std::to_string(HLOLAYOUT_VERSION_MINOR) + "." +
                std::to_string(HLOLAYOUT_VERSION_PATCH));
}

TEST(UmbrellaTest, Tour) {
  absl::StatusOr<Shape> shape = ParseShape(kExample);
  ASSERT_TRUE(shape.ok()) << shape.status();
  EXPECT_EQ(shape->ToString(true), kExample);
  EXPECT_FALSE(ParseShape("bf16[8").ok());

  absl::StatusOr<ArraySizes> sizes = ComputeArraySizes(*shape);
  ASSERT_TRUE(sizes.ok()) << sizes.status();
  EXPECT_EQ(sizes->padded_bytes, 335544320);

  EXPECT_EQ(*ReferenceOffset(*shape, {1, 0, 5, 300}), 20974169);
  absl::StatusOr<ElementAtOffset> at = ReferenceElementAt(*shape, 20974169);
  ASSERT_TRUE(at.ok());
  EXPECT_EQ(at->kind, OffsetKind::kElement);
  EXPECT_EQ(at->index, (std::vector<int64_t>{1, 0, 5, 300}));
  EXPECT_FALSE(ReferenceOffset(*shape, {8, 0, 0, 0}).ok());

  absl::StatusOr<TiledIndexer> ix = TiledIndexer::Create(*shape);
  ASSERT_TRUE(ix.ok()) << ix.status();
  EXPECT_EQ(*ix->TryOffsetInElements({1, 0, 5, 300}), 20974169);
  EXPECT_EQ(ix->OffsetInElements({1, 0, 5, 300}), 20974169);
  EXPECT_EQ(ix->TryOffsetInElements({1, 0, 5, 16384}).status().code(),
            absl::StatusCode::kOutOfRange);
  int64_t idx[4];
  EXPECT_EQ(ix->ElementAtOffsetInElements(20974169, absl::MakeSpan(idx)), OffsetKind::kElement);
  EXPECT_EQ(std::vector<int64_t>(idx, idx + 4),
            (std::vector<int64_t>{1, 0, 5, 300}));
  EXPECT_EQ(OffsetKindName(OffsetKind::kTilePadding), "tile padding");

  absl::StatusOr<Shape> back = ShapeFromProtoBytes(ShapeToProtoBytes(*shape));
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->ToString(true), kExample);

  absl::StatusOr<cute::Layout> cute_layout =
      cute::XlaShapeToCute(*ParseShape("f32[3,5]{1,0:T(2,2)}"));
  ASSERT_TRUE(cute_layout.ok()) << cute_layout.status();
  EXPECT_EQ(*cute::RunCuteOp("size", {"((2,2),3):((24,2),8)"}), "12");
}

TEST(UmbrellaTest, CuteAtoms) {
  absl::StatusOr<cute::MmaAtom> atom =
      cute::FindMmaAtom("SM80_16x8x8_F16F16F16F16_TN");
  ASSERT_TRUE(atom.ok()) << atom.status();
  absl::StatusOr<cute::TiledMma> tm =
      cute::MakeTiledMma(*atom, cute::Layout(), {});
  ASSERT_TRUE(tm.ok()) << tm.status();
  EXPECT_EQ(cute::StaticText(tm->layout_c_tv),
            "((_4,_8),((_2,_2),(_1,_1))):((_32,_1),((_16,_8),(_0,_0)))");
}

}  // namespace
}  // namespace hlolayout
