#include "hlolayout/views/memory_writer.h"

#include <sstream>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace hlolayout {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

constexpr char kTwoModules[] = R"(HloModule first, is_scheduled=true
ENTRY %main (p: f32[256]) -> f32[256] {
  %p = f32[256]{0} parameter(0)
  %a = f32[256]{0} frobnicate(%p)
  ROOT %c = f32[256]{0} negate(%a)
}

// -----

HloModule second, is_scheduled=true
ENTRY %main (p: f32[8]) -> f32[8] {
  %p = f32[8]{0} parameter(0)
  ROOT %n = f32[8]{0} negate(%p)
}
)";

// Tiled layouts: a module that looks like XLA:TPU's.
constexpr char kTpuModule[] = R"(HloModule tpu, is_scheduled=true
ENTRY %main (p: bf16[8,256]) -> bf16[8,256] {
  %p = bf16[8,256]{1,0:T(8,128)(2,1)} parameter(0)
  ROOT %n = bf16[8,256]{1,0:T(8,128)(2,1)} negate(%p)
}
)";

struct Written {
  absl::Status status;
  std::string out, warnings;
};

Written Write(MemoryForm form, absl::string_view text,
              absl::optional<XlaPlatform> platform = XlaPlatform::kCpu,
              bool tpu_buffers = false) {
  MemoryWriterOptions options;
  options.form = form;
  MemoryWriter writer(options);
  DumpTextOptions read;
  read.file_name = "f.txt";
  read.platform = platform;
  read.tpu_buffers = tpu_buffers;
  std::ostringstream out, warnings;
  out << writer.Start();
  Written w;
  w.status = writer.WriteText(text, read, out, warnings);
  out << writer.Finish();
  w.out = out.str();
  w.warnings = warnings.str();
  return w;
}

TEST(MemoryWriterTest, FormsByFlagName) {
  EXPECT_EQ(MemoryFormNamed("text"), MemoryForm::kText);
  EXPECT_EQ(MemoryFormNamed("xla"), MemoryForm::kXla);
  EXPECT_EQ(MemoryFormNamed("xla-buffers"), MemoryForm::kXlaBuffers);
  EXPECT_EQ(MemoryFormNamed("xla-usage"), MemoryForm::kXlaUsage);
  EXPECT_EQ(MemoryFormNamed("json"), absl::nullopt);  // a flag of its own
  EXPECT_EQ(MemoryFormNamed(""), absl::nullopt);
}

TEST(MemoryWriterTest, TextSeparatesModulesAndWarnsFirst) {
  const Written w = Write(MemoryForm::kText, kTwoModules);
  ASSERT_TRUE(w.status.ok()) << w.status;
  EXPECT_THAT(w.out, StartsWith("module first: 3 scheduled instructions"));
  EXPECT_THAT(w.out, HasSubstr("\n\nmodule second: 2 scheduled"));
  EXPECT_THAT(w.out, HasSubstr("peak of all memory: "));
  EXPECT_THAT(w.warnings, StartsWith("f.txt:4:20: warning: unknown opcode "
                                     "'frobnicate'"));
}

TEST(MemoryWriterTest, JsonIsOneListOfModules) {
  const Written w = Write(MemoryForm::kJson, kTwoModules);
  ASSERT_TRUE(w.status.ok()) << w.status;
  EXPECT_THAT(w.out, StartsWith("[{"));
  EXPECT_THAT(w.out, HasSubstr("},\n{"));
  EXPECT_EQ(w.out.substr(w.out.size() - 3), "}]\n");
  // No module: still a list.
  const Written none = Write(MemoryForm::kJson, "");
  EXPECT_FALSE(none.status.ok());
  EXPECT_EQ(none.out, "[]\n");
}

TEST(MemoryWriterTest, HtmlIsOnePage) {
  const Written w = Write(MemoryForm::kHtml, kTwoModules);
  ASSERT_TRUE(w.status.ok()) << w.status;
  EXPECT_THAT(w.out, StartsWith("<!doctype html>"));
  EXPECT_EQ(w.out.substr(w.out.size() - 15), "</body></html>\n");
}

TEST(MemoryWriterTest, XlaFilesOfCpuAndTpuModules) {
  const Written buffers = Write(MemoryForm::kXlaBuffers, kTwoModules);
  ASSERT_TRUE(buffers.status.ok()) << buffers.status;
  EXPECT_THAT(buffers.out, HasSubstr("BufferAssignment:\n"));
  const Written usage = Write(MemoryForm::kXlaUsage, kTwoModules);
  ASSERT_TRUE(usage.status.ok()) << usage.status;
  EXPECT_THAT(usage.out, HasSubstr("Total bytes: 2048 (2.0KiB)\n"));
  // A TPU module has live ranges; its buffer assignment's texts only when
  // the reading was asked for the model of XLA:TPU's (the CLI asks for
  // it with these forms).
  const Written live = Write(MemoryForm::kXla, kTpuModule, absl::nullopt);
  ASSERT_TRUE(live.status.ok()) << live.status;
  EXPECT_THAT(live.out, HasSubstr("BufferLiveRange:"));
  const Written refused =
      Write(MemoryForm::kXlaBuffers, kTpuModule, absl::nullopt);
  EXPECT_EQ(refused.status.message(),
            "f.txt: looks like an XLA:TPU module (tiled layouts); its buffer "
            "assignment's texts need DumpTextOptions::tpu_buffers");
  EXPECT_EQ(refused.out, "");
  const Written tpu =
      Write(MemoryForm::kXlaBuffers, kTpuModule, absl::nullopt, true);
  ASSERT_TRUE(tpu.status.ok()) << tpu.status;
  EXPECT_THAT(tpu.out, StartsWith("BufferAssignment:\n"));
}

TEST(MemoryWriterTest, ModuleMemoryTextOfOneModule) {
  MemoryWriterOptions options;
  options.top = 1;
  MemoryWriter writer(options);
  DumpTextOptions read;
  read.platform = XlaPlatform::kCpu;
  std::string text;
  std::ostringstream ignored;
  const absl::Status s = ForEachDumpModule(
      kTwoModules, read, nullptr, [&](const HloModule&, DumpModuleMemory& m) {
        if (text.empty()) {
          text = ModuleMemoryText(m.live_ranges(), &m.memory, 1, -1);
        }
        return absl::OkStatus();
      });
  ASSERT_TRUE(s.ok()) << s;
  EXPECT_THAT(text, StartsWith("module first: "));
  EXPECT_THAT(text, HasSubstr("... 1 more\n"));
}

}  // namespace
}  // namespace hlolayout
