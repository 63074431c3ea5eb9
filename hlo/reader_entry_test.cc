// The entry computation against the header's entry_computation_layout: a
// dump cut before its ENTRY computation is refused at the computation the
// reader would otherwise have taken as the entry.
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hlolayout/hlo/reader.h"
#include "hlolayout/testing/test_data.h"

namespace hlolayout {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

std::string MlpStep() {
  std::ifstream in(TestDataPath(
      "memory/testdata/"
      "module_105197.jit_mlp_step.sm_9.0a_gpu_after_optimizations.txt"));
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Reads `text` (on `threads` threads) and checks each module's entry:
// the first error, or OK.
absl::Status ReadAndCheck(const std::string& text, int64_t threads = 1,
                          absl::string_view file_name = "") {
  HloReadOptions options;
  options.file_name = file_name;
  absl::StatusOr<std::vector<HloModule>> modules =
      ReadHloModules(text, options, nullptr, threads);
  if (!modules.ok()) return modules.status();
  for (const HloModule& module : *modules) {
    absl::Status status = CheckEntryComputationLayout(text, module, file_name);
    if (!status.ok()) return status;
  }
  return absl::OkStatus();
}

TEST(EntryLayout, WholeDumpIsRead) {
  const std::string dump = MlpStep();
  absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(dump);
  ASSERT_TRUE(modules.ok()) << modules.status();
}

// XLA:GPU's dump of an MLP step, cut just before `ENTRY`: its last fusion
// body would be the entry.
TEST(EntryLayout, DumpCutBeforeEntryIsRefusedAtTheComputationTaken) {
  const std::string dump = MlpStep();
  const size_t entry = dump.find("\nENTRY ");
  ASSERT_NE(entry, std::string::npos);
  const std::string cut = dump.substr(0, entry + 1);
  // The reader refuses it itself (issue 87), as the check does.
  EXPECT_FALSE(ReadHloModules(cut).ok());
  for (int64_t threads : {1, 2}) {
    const absl::Status status = ReadAndCheck(cut, threads, "mlp.txt");
    ASSERT_FALSE(status.ok());
    const std::string message(status.message());
    EXPECT_THAT(message, StartsWith("mlp.txt:"));
    EXPECT_THAT(message, HasSubstr(": the entry computation '"));
    EXPECT_THAT(message,
                HasSubstr("the entry computation 'fused_reduce.4' takes 1 "
                          "parameter where the module's "
                          "entry_computation_layout has 10"));
    EXPECT_THAT(message, HasSubstr("is the text cut before its ENTRY"));
    EXPECT_THAT(message, HasSubstr("\n^"));  // the caret under the header
  }
}

TEST(EntryLayout, ParameterAndResultShapesAreCompared) {
  const char* kParam =
      R"(HloModule m, entry_computation_layout={(f32[4]{0})->f32[4]{0}}
main {
  p = f32[5]{0} parameter(0)
  ROOT n = f32[5]{0} negate(p)
}
)";
  const absl::Status a = ReadAndCheck(kParam);
  ASSERT_FALSE(a.ok());
  EXPECT_THAT(a.message(),
              HasSubstr("2:1: the entry computation 'main' takes f32[5] as "
                        "parameter 0 where the module's "
                        "entry_computation_layout has f32[4]"));
  const char* kResult =
      R"(HloModule m, entry_computation_layout={(f32[4]{0})->s32[4]{0}}
main {
  p = f32[4]{0} parameter(0)
  ROOT n = f32[4]{0} negate(p)
}
)";
  const absl::Status b = ReadAndCheck(kResult);
  ASSERT_FALSE(b.ok());
  EXPECT_THAT(b.message(), HasSubstr("returns f32[4] where the module's "
                                     "entry_computation_layout has s32[4]"));
  // Layouts may differ: a signature prints none.
  const char* kLayout =
      R"(HloModule m, entry_computation_layout={(f32[4,2]{0,1})->f32[4,2]{0,1}}
main {
  p = f32[4,2]{1,0} parameter(0)
  ROOT n = f32[4,2]{1,0} negate(p)
}
)";
  EXPECT_TRUE(ReadAndCheck(kLayout).ok());
  // A computation that says ENTRY is taken as written (hand-made dumps
  // keep a header of another signature).
  const char* kMarked =
      R"(HloModule m, entry_computation_layout={(f32[4]{0})->f32[4]{0}}
ENTRY main {
  p = f32[5]{0} parameter(0)
  ROOT n = f32[5]{0} negate(p)
}
)";
  EXPECT_TRUE(ReadAndCheck(kMarked).ok());
}

}  // namespace
}  // namespace hlolayout
