#include "hlolayout/util/paged_array.h"

#include <cstdint>
#include <cstring>
#include <vector>

#include "gtest/gtest.h"

namespace hlolayout {
namespace {

// A record of an odd size, as HloInstruction's 120 bytes do not divide a
// page: most appends start and end inside a page.
struct Record {
  uint32_t id;
  char fill[116];
};
static_assert(sizeof(Record) == 120, "a record of 120 bytes");

Record Numbered(uint32_t id) {
  Record r;
  r.id = id;
  std::memset(r.fill, static_cast<int>(id % 251), sizeof(r.fill));
  return r;
}

bool IsNumbered(const Record& r, uint32_t id) {
  if (r.id != id) return false;
  for (char c : r.fill) {
    if (c != static_cast<char>(id % 251)) return false;
  }
  return true;
}

TEST(PagedArrayTest, StartsEmptyAndGrowsKeepingItsRecords) {
  PagedArray<Record> a;
  EXPECT_TRUE(a.empty());
  EXPECT_EQ(a.capacity(), 0u);
  // Past the first room (64 KiB) and several growths.
  for (uint32_t i = 0; i < 20000; ++i) a.push_back(Numbered(i));
  ASSERT_EQ(a.size(), 20000u);
  EXPECT_GE(a.capacity(), a.size());
  for (uint32_t i = 0; i < 20000; ++i) ASSERT_TRUE(IsNumbered(a[i], i)) << i;
  EXPECT_TRUE(IsNumbered(a.back(), 19999));
  EXPECT_EQ(a.end() - a.begin(), 20000);
  a.clear();
  EXPECT_TRUE(a.empty());
  EXPECT_EQ(a.capacity(), 0u);
}

TEST(PagedArrayTest, ReserveMakesRoomWithoutRecords) {
  PagedArray<Record> a;
  a.Reserve(1000);
  EXPECT_EQ(a.size(), 0u);
  EXPECT_GE(a.capacity(), 1000u);
  Record* const room = a.data();
  for (uint32_t i = 0; i < 1000; ++i) a.push_back(Numbered(i));
  EXPECT_EQ(a.data(), room);  // no growth within the reserve
  a.Reserve(10);              // never shrinks
  EXPECT_GE(a.capacity(), 1000u);
}

TEST(PagedArrayTest, MovesWithItsRecords) {
  PagedArray<Record> a;
  for (uint32_t i = 0; i < 100; ++i) a.push_back(Numbered(i));
  PagedArray<Record> b(std::move(a));
  EXPECT_TRUE(a.empty());  // NOLINT: moved-from state is specified
  ASSERT_EQ(b.size(), 100u);
  EXPECT_TRUE(IsNumbered(b[99], 99));
  PagedArray<Record> c;
  c.push_back(Numbered(7));
  c = std::move(b);
  ASSERT_EQ(c.size(), 100u);
  EXPECT_TRUE(IsNumbered(c[0], 0));
}

// Every offset of the vector's end within a page (records of 120 bytes
// reach each of 4096 / gcd(120, 4096) = 512 offsets over 512 sizes) and
// lengths around page multiples: the records arrive whole and in order,
// the vector's own records are untouched, and the array is left empty.
TEST(PagedArrayTest, AppendByMovingPagesKeepsEveryRecordAtEveryOffset) {
  const uint32_t lengths[] = {0, 1, 2, 33, 34, 35, 68, 69, 70, 103, 500, 1025};
  for (uint32_t before = 0; before < 520; before += 1) {
    for (uint32_t n : lengths) {
      if (before % 7 != 0 && n > 100) continue;  // keeps the test short
      std::vector<Record> to;
      to.reserve(before + n + 3);
      for (uint32_t i = 0; i < before; ++i) to.push_back(Numbered(i));
      PagedArray<Record> from;
      for (uint32_t i = 0; i < n; ++i) from.push_back(Numbered(before + i));
      const Record* const room = to.data();
      AppendByMovingPages(&from, &to);
      ASSERT_EQ(to.size(), before + n) << before << " " << n;
      EXPECT_EQ(to.data(), room) << "the vector was reallocated";
      EXPECT_TRUE(from.empty());
      EXPECT_EQ(from.capacity(), 0u);
      for (uint32_t i = 0; i < before + n; ++i) {
        ASSERT_TRUE(IsNumbered(to[i], i)) << before << " " << n << " " << i;
      }
    }
  }
}

TEST(PagedArrayTest, WholePagesAreMovedNotCopied) {
  // 1 MiB of bytes into a page-aligned destination 100 bytes past a page
  // boundary: all but the first partial page and the last are moved.
  paged_internal::Room room;
  const size_t bytes = size_t{1} << 20;
  paged_internal::Grow(&room, bytes);
  for (size_t i = 0; i < bytes; ++i) room.data[i] = static_cast<char>(i * 7);
  std::vector<char> to(bytes + (size_t{64} << 10));
  char* const dst = to.data() + 100;
  const size_t moved = paged_internal::MoveOut(&room, bytes, dst);
  EXPECT_EQ(room.data, nullptr);
#if defined(__linux__)
  EXPECT_GE(moved, bytes - 2 * 4096);
#else
  EXPECT_EQ(moved, 0u);
#endif
  for (size_t i = 0; i < bytes; ++i) {
    ASSERT_EQ(dst[i], static_cast<char>(i * 7)) << i;
  }
  // The bytes around the destination are the vector's still.
  for (size_t i = 0; i < 100; ++i) ASSERT_EQ(to[i], 0) << i;
  for (size_t i = 100 + bytes; i < to.size(); ++i) ASSERT_EQ(to[i], 0) << i;
}

// As when the system refuses to place the pages: the shifted bytes are
// copied instead, at every offset of the destination within a page.
TEST(PagedArrayTest, MoveOutCopiesWhenPagesCannotBePlaced) {
  const size_t bytes = 5 * 4096 + 123;
  for (size_t offset : {size_t{0}, size_t{1}, size_t{100}, size_t{4095}}) {
    paged_internal::Room room;
    paged_internal::Grow(&room, bytes);
    for (size_t i = 0; i < bytes; ++i) room.data[i] = static_cast<char>(i * 3);
    std::vector<char> to(bytes + 2 * 4096 + offset);
    char* const dst = to.data() + offset;
    EXPECT_EQ(paged_internal::MoveOut(&room, bytes, dst, /*remap=*/false), 0u);
    EXPECT_EQ(room.data, nullptr);
    for (size_t i = 0; i < bytes; ++i) {
      ASSERT_EQ(dst[i], static_cast<char>(i * 3)) << offset << " " << i;
    }
  }
}

TEST(PagedArrayDeathTest, AppendWithoutRoomIsRefused) {
  std::vector<Record> to(3);
  to.shrink_to_fit();
  PagedArray<Record> from;
  from.push_back(Numbered(1));
  EXPECT_DEATH(AppendByMovingPages(&from, &to), "no room in the vector");
}

}  // namespace
}  // namespace hlolayout
