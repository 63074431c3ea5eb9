#include "hlolayout/memory/subshape_list.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "hlolayout/parser/shape_parser.h"

namespace hlolayout {
namespace memory_internal {
namespace {

Shape Parse(const std::string& text) {
  absl::StatusOr<Shape> shape = ParseShape(text);
  EXPECT_TRUE(shape.ok()) << shape.status();
  return shape.ok() ? *shape : Shape();
}

std::vector<int64_t> Index(const Subshape& s) {
  return std::vector<int64_t>(s.index.begin(), s.index.end());
}

TEST(SubshapeList, NestedTupleInPreOrder) {
  const Shape shape = Parse("(s32[], (f32[8]{0}, f32[8]{0:S(1)}))");
  SubshapeArena arena;
  ScratchVector<int32_t> offsets = {7};  // an earlier list's
  const Subshapes list(arena.List(shape, &offsets));
  ASSERT_EQ(list.size(), 5u);
  const std::vector<std::vector<int64_t>> indices = {
      {}, {0}, {1}, {1, 0}, {1, 1}};
  const std::vector<int64_t> bytes = {16, 4, 16, 32, 32};
  const std::vector<int64_t> counts = {5, 1, 3, 1, 1};
  for (size_t k = 0; k < list.size(); ++k) {
    SCOPED_TRACE(k);
    EXPECT_EQ(Index(list[k]), indices[k]);
    EXPECT_EQ(list[k].bytes, bytes[k]);
    EXPECT_EQ(list[k].logical_bytes, bytes[k]);
    EXPECT_EQ(list[k].whole_bytes, 16);
    EXPECT_EQ(list[k].count, counts[k]);
    EXPECT_EQ(list[k].effective_scalar, k == 1);  // s32[]
    EXPECT_EQ(list[k].memory_space, k == 4 ? 1 : 0);
    EXPECT_EQ(list[k].children >= 0, k == 0 || k == 2);
  }
  EXPECT_EQ(list[1].shape, &shape.tuple_shape(0));
  EXPECT_EQ(list[4].shape, &shape.tuple_shape(1).tuple_shape(1));
  // The offsets follow the table's earlier entries: {0} is 1 after {},
  // {1} is 2 after it; {1,0} and {1,1} are 1 and 2 after {1}.
  EXPECT_EQ(list[0].children, 1);
  EXPECT_EQ(list[2].children, 3);
  EXPECT_EQ(std::vector<int32_t>(offsets.begin(), offsets.end()),
            (std::vector<int32_t>{7, 1, 2, 1, 2}));
  EXPECT_EQ(SubshapeAt(list, offsets, {1, 1}), 4);
  EXPECT_EQ(SubshapeAt(list, offsets, {1}, {0}), 3);
  EXPECT_EQ(SubshapeAt(list, offsets, {}), 0);
  EXPECT_EQ(SubshapeAt(list, offsets, {2}), -1);
  EXPECT_EQ(SubshapeAt(list, offsets, {0, 0}), -1);
  EXPECT_EQ(SubshapeAt(list, offsets, {-1}), -1);
}

TEST(SubshapeList, PaddedAndLogicalBytesOfTiledArraysTokensAndOpaque) {
  const Shape shape =
      Parse("(f32[3,5]{1,0:T(2,2)}, bf16[1,1]{1,0}, token[], opaque[])");
  SubshapeArena arena;
  ScratchVector<int32_t> offsets;
  const Subshapes list(arena.List(shape, &offsets));
  ASSERT_EQ(list.size(), 5u);
  EXPECT_EQ(list[1].bytes, 4 * 4 * 6);  // 3x5 padded to 4x6
  EXPECT_EQ(list[1].logical_bytes, 4 * 3 * 5);
  EXPECT_TRUE(list[2].effective_scalar);
  EXPECT_EQ(list[2].bytes, 2);
  EXPECT_EQ(list[3].bytes, 0);  // token
  EXPECT_EQ(list[4].bytes, 8);  // opaque
  EXPECT_FALSE(list[0].effective_scalar);
}

// Lists stay where they were made while the arena makes more (past many
// chunks, and a list longer than a chunk's quarter in a chunk of its own),
// and when another arena adopts them.
TEST(SubshapeList, RecordsNeverMove) {
  std::vector<Shape> shapes;
  for (int i = 0; i < 3000; ++i) {
    shapes.push_back(Parse(absl::StrCat("(f32[", i + 1, "]{0}, s8[])")));
  }
  std::string wide = "(";
  for (int i = 0; i < 700; ++i) absl::StrAppend(&wide, i ? ", " : "", "u8[]");
  shapes.push_back(Parse(wide + ")"));
  std::vector<Subshapes> lists;
  ScratchVector<int32_t> offsets;
  auto arena = std::make_unique<SubshapeArena>();
  SubshapeArena keeper;
  for (size_t i = 0; i < shapes.size(); ++i) {
    lists.emplace_back(arena->List(shapes[i], &offsets));
    if (i == 1500) {  // half of them adopted midway
      keeper.Adopt(arena.get());
    }
  }
  keeper.Adopt(arena.get());
  arena.reset();
  for (size_t i = 0; i + 1 < shapes.size(); ++i) {
    SCOPED_TRACE(i);
    ASSERT_EQ(lists[i].size(), 3u);
    EXPECT_EQ(lists[i][0].shape, &shapes[i]);
    EXPECT_EQ(lists[i][1].bytes, 4 * static_cast<int64_t>(i + 1));
    EXPECT_EQ(Index(lists[i][2]), std::vector<int64_t>{1});
  }
  const Subshapes& last = lists.back();
  ASSERT_EQ(last.size(), 701u);
  EXPECT_EQ(last[0].bytes, 8 * 700);
  EXPECT_EQ(Index(last[700]), std::vector<int64_t>{699});
  EXPECT_EQ(SubshapeAt(last, offsets, {699}), 700);
}

TEST(SubshapeList, ViewsCompareByList) {
  const Shape shape = Parse("f32[2]{0}");
  SubshapeArena arena;
  ScratchVector<int32_t> offsets;
  const Subshapes a(arena.List(shape, &offsets));
  const Subshapes b(arena.List(shape, &offsets));
  EXPECT_EQ(a, a);
  EXPECT_NE(a, b);  // two lists of one shape
  EXPECT_TRUE(Subshapes().null());
  EXPECT_FALSE(a.null());
  EXPECT_TRUE(offsets.empty());
  EXPECT_TRUE(a[0].index.empty());
}

}  // namespace
}  // namespace memory_internal
}  // namespace hlolayout
