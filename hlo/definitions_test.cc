// Tests of DefinitionTable (hlo/definitions.h): lookups before and
// after the index takes over, latest-wins for a name defined twice,
// truncation, texts kept apart from the line, and many blocks; and of
// ComputationTable's comparison of two tables and lookups in batches.
#include "hlolayout/hlo/definitions.h"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "hlolayout/util/pages.h"

#if defined(__GLIBC__) && defined(__linux__)
#include <malloc.h>
#include <unistd.h>
#endif

namespace hlolayout::hlo_internal {
namespace {

// Lines `%vN = f32[N]{0} ...` laid out in one text, as the reader sees them.
struct Text {
  std::string text;
  std::vector<absl::string_view> names;
  std::vector<absl::string_view> shapes;
  explicit Text(int n) {
    std::vector<std::pair<size_t, size_t>> at;  // name, shape offsets
    for (int i = 0; i < n; ++i) {
      const std::string name = absl::StrCat("v", i);
      const std::string shape = absl::StrCat("f32[", i, "]{0}");
      at.emplace_back(text.size() + 1, text.size() + 1 + name.size() + 3);
      absl::StrAppend(&text, "%", name, " = ", shape, " negate(%x)\n");
    }
    for (int i = 0; i < n; ++i) {
      const std::string name = absl::StrCat("v", i);
      const std::string shape = absl::StrCat("f32[", i, "]{0}");
      names.push_back(absl::string_view(text).substr(at[i].first, name.size()));
      shapes.push_back(
          absl::string_view(text).substr(at[i].second, shape.size()));
    }
  }
};

TEST(DefinitionTableTest, FindsEveryNameAcrossBlocks) {
  // Past the scanned ones, and past several 4,096-entry blocks.
  for (int n : {0, 1, 16, 17, 18, 4096, 4097, 10000}) {
    Text t(n);
    DefinitionTable table;
    for (int i = 0; i < n; ++i) {
      table.Add(t.names[i], t.shapes[i], nullptr, 0);
    }
    ASSERT_EQ(table.size(), static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) {
      ASSERT_EQ(table.Find(t.names[i]), i) << n;
      ASSERT_EQ(table.Find(t.names[i], NameHash(t.names[i])), i) << n;
      ASSERT_EQ(table.name(i), t.names[i]);
      ASSERT_EQ(table.shape_text(i), t.shapes[i]);
    }
    EXPECT_EQ(table.Find("v"), -1);
    EXPECT_EQ(table.Find("nothing"), -1);
    EXPECT_EQ(table.Find(""), -1);
  }
}

#if defined(__GLIBC__) && defined(__linux__)
// A table of many blocks leaves the resident memory when it is destroyed,
// even where the heap keeps freed memory (the CLI's settings, cli/heap.cc:
// blocks of up to 32 MiB from the heap, never trimmed).
TEST(DefinitionTableTest, ManyBlocksLeaveResidentMemoryWhenDestroyed) {
  if (mallopt(M_MMAP_THRESHOLD, 32 << 20) != 1 ||
      mallopt(M_TRIM_THRESHOLD, 1 << 30) != 1) {
    GTEST_SKIP() << "malloc is not glibc's (a sanitizer's?)";
  }
  constexpr int kNames = 64 * 4096;  // 64 blocks of 128 KiB: 8 MiB
  Text t(kNames);
  auto table = std::make_unique<DefinitionTable>();
  for (int i = 0; i < kNames; ++i) {
    table->Add(t.names[i], t.shapes[i], nullptr, 0);
  }
  ASSERT_EQ(table->Find(t.names[kNames - 1]), kNames - 1);
  const size_t before = static_cast<size_t>(ResidentBytes());
  table.reset();
  const size_t after = static_cast<size_t>(ResidentBytes());
  EXPECT_LE(after + (size_t{6} << 20), before) << before << " -> " << after;
}
#endif

TEST(DefinitionTableTest, LatestOfTwoDefinitionsWins) {
  for (int n : {3, 40}) {
    Text t(n);
    DefinitionTable table;
    for (int i = 0; i < n; ++i) table.Add(t.names[i], t.shapes[i], nullptr, 0);
    table.Add(t.names[1], t.shapes[2], nullptr, 0);
    EXPECT_EQ(table.Find(t.names[1]), n);
    table.Add(t.names[5 % n], t.shapes[0], nullptr, 0);
    EXPECT_EQ(table.Find(t.names[1]), n);  // indexed now, still the latest
    EXPECT_EQ(table.Find(t.names[5 % n]), n + 1);
  }
}

TEST(DefinitionTableTest, TruncateForgetsTheRest) {
  Text t(100);
  DefinitionTable table;
  for (int i = 0; i < 60; ++i) table.Add(t.names[i], t.shapes[i], nullptr, 0);
  table.Truncate(30);
  EXPECT_EQ(table.size(), 30u);
  EXPECT_EQ(table.Find(t.names[29]), 29);
  EXPECT_EQ(table.Find(t.names[30]), -1);
  EXPECT_EQ(table.Find(t.names[59]), -1);
  // New definitions in the truncated places.
  for (int i = 60; i < 100; ++i) {
    table.Add(t.names[i], t.shapes[i], nullptr, 0);
  }
  EXPECT_EQ(table.Find(t.names[45]), -1);
  EXPECT_EQ(table.Find(t.names[60]), 30);
  EXPECT_EQ(table.Find(t.names[99]), 69);
  table.Clear();
  EXPECT_TRUE(table.empty());
  EXPECT_EQ(table.Find(t.names[60]), -1);
  table.Add(t.names[7], t.shapes[7], nullptr, 0);
  EXPECT_EQ(table.Find(t.names[7]), 0);
}

TEST(DefinitionTableTest, ShapeTextKeptApartFromTheLine) {
  Text t(20);
  const std::string kept = "(f32[2]{0}, s32[])";  // another allocation
  DefinitionTable table;
  table.Add(t.names[0], kept, nullptr, DefinitionTable::kKept);
  table.Add(t.names[1], absl::string_view(), nullptr, 0);
  for (int i = 2; i < 20; ++i) table.Add(t.names[i], t.shapes[i], nullptr, 0);
  EXPECT_EQ(table.shape_text(0), kept);
  EXPECT_EQ(table.name(0), t.names[0]);
  EXPECT_EQ(table.shape_text(1), "");
  EXPECT_EQ(table.Find(t.names[0]), 0);
  EXPECT_EQ(table.Get(0).shape_text, kept);
}

TEST(DefinitionTableTest, ShapesAndGenerations) {
  Text t(3);
  const Shape a;
  DefinitionTable table;
  table.Add(t.names[0], t.shapes[0], &a, 7);
  table.Add(t.names[1], t.shapes[1], &a, DefinitionTable::kKept);
  table.Add(t.names[2], t.shapes[2], &a, uint64_t{1} << 40);
  EXPECT_EQ(table.ShapeIfCurrent(0, 7), &a);
  EXPECT_EQ(table.ShapeIfCurrent(0, 8), nullptr);
  EXPECT_EQ(table.generation(0), 7u);
  EXPECT_EQ(table.ShapeIfCurrent(1, 8), &a);
  EXPECT_EQ(table.generation(1), DefinitionTable::kKept);
  // A generation past 32 bits is not kept (decoded again when asked).
  EXPECT_EQ(table.shape(2), nullptr);
  EXPECT_EQ(table.ShapeIfCurrent(2, uint64_t{1} << 40), nullptr);
  table.SetShape(2, &a, DefinitionTable::kKept);
  EXPECT_EQ(table.ShapeIfCurrent(2, 0), &a);
}

// Computation tables compared by their slots, and names looked up a batch
// at a time: the same answers as Find, one name at a time.
TEST(ComputationTableTest, SharesNameWithAndFindEach) {
  Text t(300);              // names v0..v299
  ComputationTable low;     // v0..v99
  ComputationTable high;    // v100..v299
  ComputationTable single;  // v150
  for (int i = 0; i < 300; ++i) {
    (i < 100 ? low : high).Add(t.names[i], NameHash(t.names[i]), i);
  }
  single.Add(t.names[150], NameHash(t.names[150]), 0);
  ComputationTable empty;
  EXPECT_FALSE(low.SharesNameWith(high));
  EXPECT_FALSE(high.SharesNameWith(low));
  EXPECT_TRUE(high.SharesNameWith(single));
  EXPECT_TRUE(single.SharesNameWith(high));
  EXPECT_FALSE(low.SharesNameWith(single));
  EXPECT_FALSE(empty.SharesNameWith(high));
  EXPECT_FALSE(high.SharesNameWith(empty));
  // More names than a batch, found and not, and a name no table has.
  std::vector<absl::string_view> names(t.names.begin(), t.names.end());
  names.push_back("v");
  names.push_back("nothing");
  std::unique_ptr<bool[]> found(new bool[names.size()]);
  for (const ComputationTable* table : {&low, &high, &single, &empty}) {
    table->FindEach(names.data(), names.size(), found.get());
    for (size_t i = 0; i < names.size(); ++i) {
      ASSERT_EQ(found[i], table->Find(names[i], NameHash(names[i])) >= 0)
          << names[i];
    }
  }
  low.FindEach(names.data(), 3, found.get());  // less than a batch
  EXPECT_TRUE(found[0] && found[1] && found[2]);
}

// The table keeps copies of its names: lookups read none of the text they
// came from (which a reader may have given back), and a kept callee name
// lives as long as the table. Long names get blocks of their own.
TEST(ComputationTableTest, NamesAreCopies) {
  std::string text = "alpha beta " + std::string(40000, 'g') + " delta";
  const absl::string_view alpha(text.data(), 5), beta(text.data() + 6, 4);
  const absl::string_view long_name(text.data() + 11, 40000);
  ComputationTable table;
  table.Add(alpha, NameHash(alpha), 0);
  table.Add(long_name, NameHash(long_name), 11);
  const absl::string_view kept = table.KeepName(beta);
  // What the text held, overwritten: the table answers as before.
  const std::string before = text;
  std::fill(text.begin(), text.end(), 'x');
  EXPECT_EQ(table.name(0), "alpha");
  EXPECT_EQ(table.name(1), before.substr(11, 40000));
  EXPECT_EQ(kept, "beta");
  EXPECT_EQ(table.Find("alpha", NameHash("alpha")), 0);
  const std::string g(40000, 'g');
  EXPECT_EQ(table.Find(g, NameHash(g)), 1);
  EXPECT_EQ(table.Find("beta", NameHash("beta")), -1);  // kept, not added
  table.Clear();
  EXPECT_EQ(table.size(), 0u);
  table.Add("gamma", NameHash("gamma"), 0);
  EXPECT_EQ(table.Find("gamma", NameHash("gamma")), 0);
}

}  // namespace
}  // namespace hlolayout::hlo_internal
