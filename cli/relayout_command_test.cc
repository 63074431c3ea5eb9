#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>

#include "gtest/gtest.h"
#include "hlolayout/testing/run_cli.h"

namespace hlolayout::cli {
namespace {

std::string TmpPath(const std::string& name) {
  const char* dir = std::getenv("TEST_TMPDIR");
  return std::string(dir != nullptr ? dir : "/tmp") + "/" + name;
}

void WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f << bytes;
}

std::string ReadFile(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f),
                     std::istreambuf_iterator<char>());
}

bool Exists(const std::string& path) {
  std::ifstream f(path);
  return static_cast<bool>(f);
}

TEST(RelayoutCommandTest, StdinToStdoutTiles) {
  // f32[2,3] row-major, elements 0..5 as single bytes in the low byte.
  std::string in;
  for (int i = 0; i < 6; ++i) in += std::string{static_cast<char>(i), 0, 0, 0};
  CliResult r = RunCli({"relayout", "--from", "f32[2,3]{1,0}", "--to",
                        "f32[2,3]{0,1}", "-", "-"},
                       in);
  ASSERT_EQ(r.status, 0) << r.err;
  ASSERT_EQ(r.out.size(), 24u);
  // Column-major: 0,3,1,4,2,5.
  const int want[] = {0, 3, 1, 4, 2, 5};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(r.out[4 * i], want[i]) << i;
}

TEST(RelayoutCommandTest, PackS4WithFillAndOrder) {
  const std::string in = {1, 2, 3};
  CliResult r = RunCli({"relayout", "--from", "s4[3]{0}", "--to",
                        "s4[3]{0:E(4)}", "--fill", "0xff", "-", "-"},
                       in);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, std::string("\x21\xf3"));
  r = RunCli({"relayout", "--from", "s4[3]{0}", "--to", "s4[3]{0:E(4)}",
              "--packing", "high-first", "-", "-"},
             in);
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, std::string("\x12\x30", 2));
}

TEST(RelayoutCommandTest, FilesAndNpy) {
  // A NumPy f32 array of shape (2, 3), values 0..5.
  std::string npy = "\x93NUMPY\x01";
  npy += '\0';
  std::string dict =
      "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";
  dict.append((64 - (10 + dict.size() + 1) % 64) % 64, ' ');
  dict += '\n';
  npy += static_cast<char>(dict.size());
  npy += '\0';
  npy += dict;
  std::string data;
  for (int i = 0; i < 6; ++i) {
    const float v = static_cast<float>(i);
    data.append(reinterpret_cast<const char*>(&v), 4);
  }
  const std::string in = TmpPath("a.npy");
  WriteFile(in, npy + data);
  const std::string tiled = TmpPath("tiled.bin");
  CliResult r = RunCli(
      {"relayout", "--to", "f32[2,3]{1,0:T(2,2)}", "--fill", "7", in, tiled});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string t = ReadFile(tiled);
  ASSERT_EQ(t.size(), 2u * 4 * 4);  // [2,4] padded
  // Tile (0,0) holds 0,1,3,4; tile (0,1) holds 2,pad,5,pad.
  EXPECT_EQ(t.substr(0, 16), data.substr(0, 8) + data.substr(12, 8));
  EXPECT_EQ(t.substr(16, 4), data.substr(8, 4));
  EXPECT_EQ(t.substr(20, 4), std::string(4, '\x07'));
  // Back to a .npy file: same data, a valid header.
  const std::string back = TmpPath("back.npy");
  r = RunCli({"relayout", "--from", "f32[2,3]{1,0:T(2,2)}", "--to",
              "f32[2,3]{1,0}", tiled, back});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string b = ReadFile(back);
  ASSERT_GE(b.size(), 64u);
  EXPECT_EQ(b.size() % 64, 24u % 64);
  EXPECT_EQ(b.substr(b.size() - 24), data);
  EXPECT_NE(b.find("'shape': (2,3)"), std::string::npos) << b.substr(0, 64);
  EXPECT_NE(b.find("'descr': '<f4'"), std::string::npos);
}

TEST(RelayoutCommandTest, ErrorsLeaveNoOutput) {
  const std::string out = TmpPath("never.bin");
  CliResult r = RunCli(
      {"relayout", "--from", "f32[4]{0}", "--to", "f32[4]{0:T(8)}", "-", out},
      std::string(15, 'x'));
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err,
            "hlolayout relayout: input has 15 bytes of data, f32[4]{0} "
            "needs 16\n");
  EXPECT_FALSE(Exists(out));
  r = RunCli({"relayout", "--from", "f32[4]", "--to", "bf16[4]", "-", out},
             std::string(16, 'x'));
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "hlolayout relayout: element types differ: f32 vs bf16\n");
  EXPECT_FALSE(Exists(out));
  r = RunCli({"relayout", "--from", "f32[4]", "--to", "f32[4]",
              TmpPath("missing.bin"), out});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("cannot open '" + TmpPath("missing.bin") +
                       "': No such file or directory"),
            std::string::npos)
      << r.err;
  r = RunCli({"relayout", "--to", "f32[4]", "-", out}, std::string(16, 'x'));
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("--from is required"), std::string::npos);
  r = RunCli({"relayout", "--from", "f32[4]", "--to", "f32[4]", "--fill", "256",
              "-", "-"});
  EXPECT_EQ(r.status, 1);
  r = RunCli({"relayout", "--from", "f32[4]", "--to", "f32[4]", "--packing",
              "middle", "-", "-"});
  EXPECT_EQ(r.status, 1);
  r = RunCli({"relayout", "--from", "f32[4]", "-", "-"});
  EXPECT_EQ(r.status, 2);
  // A .npy output needs a row-major --to.
  r = RunCli({"relayout", "--from", "f32[4]", "--to", "f32[4]{0:T(2)}", "-",
              TmpPath("x.npy")},
             std::string(16, 'x'));
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("row-major"), std::string::npos);
  EXPECT_FALSE(Exists(TmpPath("x.npy")));
  EXPECT_FALSE(Exists(out + ".hlolayout-tmp"));
}

TEST(RelayoutCommandTest, Help) {
  CliResult r = RunCli({"relayout", "--help"});
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("usage: hlolayout relayout"), std::string::npos);
}

}  // namespace
}  // namespace hlolayout::cli

namespace hlolayout::cli {
namespace {

TEST(RelayoutCommandTest, IndexBytesNamesThePackingOrder) {
  CliResult r = RunCli({"index", "--bytes", "s4[8]{0:E(4)}", "3"});
  EXPECT_EQ(r.out, "3 (byte 1, bit 4, low-first)\n") << r.err;
  r = RunCli(
      {"index", "--bytes", "--packing", "high-first", "s4[8]{0:E(4)}", "3"});
  EXPECT_EQ(r.out, "3 (byte 1, bit 0, high-first)\n") << r.err;
  r = RunCli({"index", "--bytes", "u2[8]{0:E(2)}", "1"});
  EXPECT_EQ(r.out, "1 (byte 0, bit 2, low-first)\n") << r.err;
  r = RunCli({"index", "--bytes", "f32[8]{0}", "3"});
  EXPECT_EQ(r.out, "3 (byte 12)\n") << r.err;
}

}  // namespace
}  // namespace hlolayout::cli
