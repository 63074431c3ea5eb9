#include "hlolayout/answers/indexing.h"

#include <cstdint>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlolayout/layout/packing.h"
#include "hlolayout/parser/shape_parser.h"
#include "hlolayout/testing/indexed_shape.h"
#include "hlolayout/util/fields.h"

namespace hlolayout {
namespace {

using ::testing::HasSubstr;

TEST(Answers, IndexOfAPackedElement) {
  const IndexedShape p = IndexedShapeOf("s4[5,3]{1,0:T(2,2)E(4)}");
  absl::StatusOr<IndexAnswer> a =
      AnswerIndex(p.shape, p.indexer, {3, 2}, PackingOrder::kLowFirst, true);
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(a->offset, 14);
  EXPECT_TRUE(a->packed);
  ASSERT_TRUE(a->bits.ok()) << a->bits.status();
  EXPECT_EQ(a->bits->byte, 7);
  EXPECT_EQ(a->bits->shift, 0);
  EXPECT_EQ(AnswerJson(*a),
            "{\"shape\": \"s4[5,3]{1,0:T(2,2)E(4)}\", \"index\": [3, 2], "
            "\"offset\": 14, \"byte\": 7, \"bit\": 0, \"bit_offset\": 56, "
            "\"packing\": \"low-first\"}");
  absl::StatusOr<IndexAnswer> high =
      AnswerIndex(p.shape, p.indexer, {3, 2}, PackingOrder::kHighFirst, true);
  ASSERT_TRUE(high.ok());
  ASSERT_TRUE(high->bits.ok());
  EXPECT_EQ(high->bits->shift, 4);
}

TEST(Answers, IndexWithoutBitsHasNullBytes) {
  const IndexedShape p = IndexedShapeOf("f32[3,5]{1,0:T(2,2)}");
  absl::StatusOr<IndexAnswer> a =
      AnswerIndex(p.shape, p.indexer, {2, 4}, PackingOrder::kLowFirst, false);
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(a->offset, 20);
  EXPECT_FALSE(a->packed);
  EXPECT_THAT(AnswerJson(*a), HasSubstr("\"byte\": null, \"bit\": null"));
  EXPECT_EQ(AnswerJson(*a).find("packing"), std::string::npos);
}

TEST(Answers, IndexOutOfBoundsOrWrongRank) {
  const IndexedShape p = IndexedShapeOf("f32[3,5]{1,0:T(2,2)}");
  EXPECT_FALSE(
      AnswerIndex(p.shape, p.indexer, {3, 0}, PackingOrder::kLowFirst, false)
          .ok());
  EXPECT_FALSE(
      AnswerIndex(p.shape, p.indexer, {-1, 0}, PackingOrder::kLowFirst, false)
          .ok());
  EXPECT_FALSE(
      AnswerIndex(p.shape, p.indexer, {1}, PackingOrder::kLowFirst, false)
          .ok());
}

TEST(Answers, ElementsAndPaddingOfEveryOffset) {
  const IndexedShape p = IndexedShapeOf("f32[3,5]{1,0:T(2,2)}");
  int elements = 0;
  for (int64_t offset = 0; offset < 24; ++offset) {
    absl::StatusOr<ElementAnswer> a = AnswerElement(p.shape, p.indexer, offset);
    ASSERT_TRUE(a.ok()) << a.status();
    if (a->kind != OffsetKind::kElement) {
      EXPECT_EQ(a->kind, OffsetKind::kTilePadding);
      EXPECT_TRUE(a->index.empty());
      continue;
    }
    ++elements;
    // The inverse of AnswerIndex.
    absl::StatusOr<IndexAnswer> back = AnswerIndex(
        p.shape, p.indexer, a->index, PackingOrder::kLowFirst, false);
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(back->offset, offset);
  }
  EXPECT_EQ(elements, 15);
  EXPECT_EQ(AnswerJson(*AnswerElement(p.shape, p.indexer, 5)),
            "{\"shape\": \"f32[3,5]{1,0:T(2,2)}\", \"offset\": 5, \"kind\": "
            "\"element\", \"index\": [0, 3]}");
  EXPECT_EQ(AnswerJson(*AnswerElement(p.shape, p.indexer, 18)),
            "{\"shape\": \"f32[3,5]{1,0:T(2,2)}\", \"offset\": 18, \"kind\": "
            "\"tile padding\"}");
  EXPECT_FALSE(AnswerElement(p.shape, p.indexer, 24).ok());
  EXPECT_FALSE(AnswerElement(p.shape, p.indexer, -1).ok());
}

TEST(Answers, ScalarElement) {
  const IndexedShape p = IndexedShapeOf("f32[]");
  absl::StatusOr<ElementAnswer> a = AnswerElement(p.shape, p.indexer, 0);
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(a->kind, OffsetKind::kElement);
  EXPECT_TRUE(a->index.empty());
}

TEST(Answers, Tiling) {
  const IndexedShape p = IndexedShapeOf("f32[3,5]{1,0:T(2,2)}");
  absl::StatusOr<TilingAnswer> a = AnswerTiling(p.shape);
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(a->sizes.padded_bytes, 96);
  EXPECT_EQ(a->padding.size(), 2u);
  EXPECT_EQ(a->sizes.logical_bytes, 60);
  EXPECT_EQ(a->padding[1].reason,
            "dim 1 (size 5) is not a multiple of tile 2 of T(2,2): padded to "
            "6");
  EXPECT_THAT(AnswerJson(*a),
              HasSubstr("\"final\": [2, 3, 2, 2], \"logical_elements\": 15"));
  absl::StatusOr<Shape> starred = ParseShape("f32[3,5]{1,0:T(2,*)}");
  ASSERT_TRUE(starred.ok());
  EXPECT_FALSE(AnswerTiling(*starred).ok());
}

}  // namespace
}  // namespace hlolayout
