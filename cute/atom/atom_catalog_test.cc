#include "hlolayout/cute/atom/atom_catalog.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace hlolayout::cute {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

TEST(AtomCatalog, OneFamily) {
  absl::StatusOr<std::vector<FamilyRow>> rows = AtomCatalog("mma", "sm90_gmma");
  ASSERT_TRUE(rows.ok()) << rows.status();
  ASSERT_FALSE(rows->empty());
  int64_t names = 0;
  for (const FamilyRow& r : *rows) {
    EXPECT_EQ(r.kind, "mma");
    EXPECT_EQ(r.family, "sm90_gmma");
    names += r.count;
  }
  const std::string text = AtomCatalogText(*rows);
  EXPECT_THAT(text, StartsWith(absl::StrCat(
                        "MMA atoms: 1 family, ", names,
                        " names (hlolayout cute atom NAME prints one)\n")));
}

TEST(AtomCatalog, KindsAndThousands) {
  absl::StatusOr<std::vector<FamilyRow>> all = AtomCatalog("", "");
  absl::StatusOr<std::vector<FamilyRow>> copy = AtomCatalog("copy", "");
  ASSERT_TRUE(all.ok() && copy.ok());
  EXPECT_GT(all->size(), copy->size());
  for (const FamilyRow& r : *copy) EXPECT_EQ(r.kind, "copy");
  const std::string text = AtomCatalogText(*all);
  EXPECT_THAT(text, HasSubstr("\ncopy operations: "));
  // UniversalFMA alone names 51^4 = 6,765,201 atoms: counts are grouped.
  EXPECT_THAT(text, testing::ContainsRegex("[0-9],[0-9][0-9][0-9] names"));
}

TEST(AtomCatalog, UnknownFamily) {
  absl::StatusOr<std::vector<FamilyRow>> rows = AtomCatalog("", "sm90_gmm");
  ASSERT_FALSE(rows.ok());
  EXPECT_EQ(rows.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(rows.status().message()),
              StartsWith("unknown family 'sm90_gmm'; did you mean "
                         "'sm90_gmma'?; families: universal, "));
  // A copy family asked among MMA atoms is unknown there.
  EXPECT_FALSE(AtomCatalog("mma", "sm80_cp_async").ok());
}

}  // namespace
}  // namespace hlolayout::cute
