#include "hlolayout/layout/offset_kind.h"

#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "gtest/gtest.h"
#include "hlolayout/testing/stringify.h"

namespace hlolayout {
namespace {

TEST(OffsetKindTest, Names) {
  EXPECT_EQ(OffsetKindName(OffsetKind::kElement), "element");
  EXPECT_EQ(OffsetKindName(OffsetKind::kTilePadding), "tile padding");
  EXPECT_EQ(OffsetKindName(OffsetKind::kTailPadding), "tail padding");
}

TEST(OffsetKindTest, InBounds) {
  EXPECT_TRUE(CheckIndexInBounds({3, 5}, {2, 4}).ok());
  EXPECT_TRUE(CheckIndexInBounds({}, {}).ok());
}

TEST(OffsetKindTest, WrongRank) {
  absl::Status s = CheckIndexInBounds({3, 5}, {2});
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(), "index has 1 coordinates, shape has rank 2");
}

TEST(OffsetKindTest, OutOfBounds) {
  absl::Status s = CheckIndexInBounds({3, 5}, {2, 5});
  EXPECT_EQ(s.code(), absl::StatusCode::kOutOfRange);
  EXPECT_EQ(s.message(), "index 5 out of bounds for dimension 1 of size 5");
  s = CheckIndexInBounds({3, 5}, {-1, 0});
  EXPECT_EQ(s.code(), absl::StatusCode::kOutOfRange);
  EXPECT_EQ(s.message(), "index -1 out of bounds for dimension 0 of size 3");
}

TEST(OffsetKindTest, StringifiesAndStreamsItsName) {
  EXPECT_EQ(Stringified(OffsetKind::kElement), "element");
  EXPECT_EQ(Streamed(OffsetKind::kTilePadding), "tile padding");
  EXPECT_EQ(Stringified(OffsetKind::kTailPadding), "tail padding");
  EXPECT_EQ(Streamed(OffsetKind::kTailPadding), "tail padding");
}

}  // namespace
}  // namespace hlolayout
