#include "hlolayout/views/indexing_text.h"

#include <cstdint>
#include <string>

#include "gtest/gtest.h"
#include "hlolayout/answers/indexing.h"
#include "hlolayout/layout/packing.h"
#include "hlolayout/testing/indexed_shape.h"

namespace hlolayout {
namespace {

TEST(IndexingText, IndexOfAPackedElement) {
  const IndexedShape p = IndexedShapeOf("s4[5,3]{1,0:T(2,2)E(4)}");
  absl::StatusOr<IndexAnswer> a =
      AnswerIndex(p.shape, p.indexer, {3, 2}, PackingOrder::kLowFirst, true);
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(IndexAnswerText(*a, false), "14\n");
  EXPECT_EQ(IndexAnswerText(*a, true), "14 (byte 7, bit 0, low-first)\n");
  absl::StatusOr<IndexAnswer> high =
      AnswerIndex(p.shape, p.indexer, {3, 2}, PackingOrder::kHighFirst, true);
  ASSERT_TRUE(high.ok());
  EXPECT_EQ(IndexAnswerText(*high, true), "14 (byte 7, bit 4, high-first)\n");
}

TEST(IndexingText, IndexOfAWholeByteElement) {
  const IndexedShape p = IndexedShapeOf("f32[3,5]{1,0:T(2,2)}");
  absl::StatusOr<IndexAnswer> a =
      AnswerIndex(p.shape, p.indexer, {2, 4}, PackingOrder::kLowFirst, true);
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(IndexAnswerText(*a, true), "20 (byte 80)\n");
}

TEST(IndexingText, ElementsPaddingAndScalars) {
  const IndexedShape p = IndexedShapeOf("f32[3,5]{1,0:T(2,2)}");
  EXPECT_EQ(ElementAnswerText(*AnswerElement(p.shape, p.indexer, 5)), "0,3\n");
  EXPECT_EQ(ElementAnswerText(*AnswerElement(p.shape, p.indexer, 18)),
            "tile padding\n");
  const IndexedShape scalar = IndexedShapeOf("f32[]");
  absl::StatusOr<ElementAnswer> a =
      AnswerElement(scalar.shape, scalar.indexer, 0);
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(ElementAnswerText(*a), "()\n");
  EXPECT_EQ(IndexText({2, 3}), "2,3");
}

TEST(IndexingText, TilingExactly) {
  const IndexedShape p = IndexedShapeOf("f32[3,5]{1,0:T(2,2)}");
  absl::StatusOr<TilingAnswer> a = AnswerTiling(p.shape);
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(TilingAnswerText(*a),
            "f32[3,5]{1,0:T(2,2)}\n"
            "physical [3,5] (dims 0,1, major to minor)\n"
            "T0 (2,2) on [3,5]: pad [4,6] reshape [2,2,3,2] transpose "
            "{0,2,1,3} -> [2,3,2,2]\n"
            "final [2,3,2,2]: 24 elements (15 logical, 9 padding)\n"
            "bytes 60 logical, 96 padded (1.6x expansion)\n"
            "  dim 0 (size 3) is not a multiple of tile 2 of T(2,2): padded "
            "to 4\n"
            "  dim 1 (size 5) is not a multiple of tile 2 of T(2,2): padded "
            "to 6\n");
}

}  // namespace
}  // namespace hlolayout
