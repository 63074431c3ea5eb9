// Modules that own their text (ReadOwnedHloModules, ReadHloModulesFromFile)
// and the refusal of a temporary string by ReadHloModules (issue 88, item 1).
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlolayout/hlo/reader.h"

namespace hlolayout {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

// Whether `ReadHloModules(std::declval<Text>())` is a well-formed call.
template <typename Text, typename = void>
struct Readable : std::false_type {};
template <typename Text>
struct Readable<Text,
                std::void_t<decltype(ReadHloModules(std::declval<Text>()))>>
    : std::true_type {};

// The modules would view a string freed at the end of the statement.
static_assert(!Readable<std::string&&>::value,
              "ReadHloModules(temporary std::string) must not compile");
static_assert(!Readable<std::string>::value,
              "ReadHloModules(std::string prvalue) must not compile");
static_assert(!Readable<const std::string&&>::value,
              "ReadHloModules(const std::string&&) must not compile");
// A text the caller keeps still reads.
static_assert(Readable<std::string&>::value, "lvalue string");
static_assert(Readable<const std::string&>::value, "const lvalue string");
static_assert(Readable<absl::string_view>::value, "string_view");
static_assert(Readable<const char*>::value, "C string");
static_assert(Readable<const char (&)[4]>::value, "string literal");

// A module whose names are long enough to live on the heap, built at run
// time so that no name is a view into static storage.
std::string ModuleText(int n) {
  return absl::StrCat(
      "HloModule module_with_a_long_name_", n, "\n",
      "ENTRY %computation_with_a_long_name_", n,
      " (parameter_with_a_long_name: f32[2]) -> f32[2] {\n",
      "  %parameter_with_a_long_name = f32[2]{0} parameter(0)\n",
      "  ROOT %negate_with_a_long_name_", n,
      " = f32[2]{0} negate(f32[2]{0} %parameter_with_a_long_name)\n", "}\n");
}

// Fills the heap with strings of '#' of the sizes just freed, so that a view
// into freed memory would read them.
void Scribble() {
  std::vector<std::string> junk;
  for (int i = 0; i < 64; ++i) junk.push_back(std::string(64 + i * 8, '#'));
}

void ExpectNames(const HloModule& module, int n) {
  EXPECT_EQ(module.header.name, absl::StrCat("module_with_a_long_name_", n));
  const HloComputation& entry = module.entry();
  EXPECT_EQ(entry.header.name,
            absl::StrCat("computation_with_a_long_name_", n));
  ASSERT_EQ(entry.instructions.size(), 2);
  EXPECT_EQ(entry.instructions[0].name(), "parameter_with_a_long_name");
  EXPECT_EQ(entry.instructions[1].name(),
            absl::StrCat("negate_with_a_long_name_", n));
  ASSERT_EQ(entry.instructions[1].operands().size(), 1);
  EXPECT_EQ(entry.instructions[1].operands()[0].name,
            "parameter_with_a_long_name");
}

TEST(ReadOwnedHloModulesTest, NamesOutliveTheTemporary) {
  absl::StatusOr<std::vector<HloModule>> modules =
      ReadOwnedHloModules(ModuleText(1) + "// -----\n" + ModuleText(2));
  ASSERT_TRUE(modules.ok()) << modules.status();
  Scribble();
  ASSERT_EQ(modules->size(), 2);
  ExpectNames((*modules)[0], 1);
  ExpectNames((*modules)[1], 2);
  EXPECT_NE((*modules)[0].text_owner, nullptr);
  EXPECT_EQ((*modules)[0].text_owner, (*modules)[1].text_owner);
}

TEST(ReadOwnedHloModulesTest, ACopyKeepsTheTextAlone) {
  HloModule copy;
  {
    absl::StatusOr<std::vector<HloModule>> modules =
        ReadOwnedHloModules(ModuleText(3), HloReadOptions(), nullptr, 2);
    ASSERT_TRUE(modules.ok()) << modules.status();
    copy = (*modules)[0];
  }
  Scribble();
  ExpectNames(copy, 3);
}

TEST(ReadOwnedHloModulesTest, ErrorsAsReadHloModules) {
  const std::string bad =
      "HloModule m\nENTRY e {\n  ROOT r = f32[2]{0} x(\n}\n";
  HloReadOptions options;
  options.file_name = "bad.txt";
  absl::StatusOr<std::vector<HloModule>> owned =
      ReadOwnedHloModules(bad, options);
  absl::StatusOr<std::vector<HloModule>> viewed = ReadHloModules(bad, options);
  ASSERT_FALSE(owned.ok());
  EXPECT_EQ(owned.status(), viewed.status());
}

TEST(ReadHloModulesFromFileTest, NamesOutliveTheFile) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  const std::string path =
      absl::StrCat(tmp != nullptr ? tmp : "/tmp", "/owned_module.txt");
  {
    std::ofstream out(path);
    out << ModuleText(4);
  }
  absl::StatusOr<std::vector<HloModule>> modules = ReadHloModulesFromFile(path);
  ASSERT_TRUE(modules.ok()) << modules.status();
  ASSERT_EQ(std::remove(path.c_str()), 0);
  Scribble();
  ASSERT_EQ(modules->size(), 1);
  ExpectNames((*modules)[0], 4);
  EXPECT_NE((*modules)[0].text_owner, nullptr);
}

TEST(ReadHloModulesFromFileTest, ErrorsNameTheFile) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  const std::string dir = tmp != nullptr ? tmp : "/tmp";
  const std::string path = absl::StrCat(dir, "/bad_module.txt");
  {
    std::ofstream out(path);
    out << "HloModule m\nENTRY e {\n  ROOT r = f32[2]{0 negate()\n}\n";
  }
  absl::StatusOr<std::vector<HloModule>> modules = ReadHloModulesFromFile(path);
  ASSERT_FALSE(modules.ok());
  EXPECT_THAT(std::string(modules.status().message()),
              StartsWith(path + ":3:"));

  absl::StatusOr<std::vector<HloModule>> missing =
      ReadHloModulesFromFile(absl::StrCat(dir, "/no_such_module.txt"));
  ASSERT_FALSE(missing.ok());
  EXPECT_THAT(std::string(missing.status().message()),
              HasSubstr("cannot open"));
}

}  // namespace
}  // namespace hlolayout
