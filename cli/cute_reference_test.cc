// CuTe's own answers for swizzles, composed layouts and shared-memory atoms
// (cute/testdata/*.tsv, computed by CUTLASS compiled host-only), run through
// the CLI exactly as a user runs it: `hlolayout cute OP ARGS...` and
// `hlolayout cute smem NAME [--shape S [--order O]] --json`.
//
// Every row must give CuTe's printed text ("exact"), or, where the row says
// "function", the same function (the FNV-1a hash of its offsets); rows CuTe
// refuses to compile ("refused") must fail with a message. The counts per
// file are printed to the test log.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "gtest/gtest.h"
#include "hlolayout/testing/run_cli.h"
#include "hlolayout/testing/test_data.h"

namespace hlolayout::cli {
namespace {

std::vector<std::vector<std::string>> ReadTsv(const std::string& path) {
  std::ifstream in(TestDataPath(path));
  EXPECT_TRUE(in.good()) << path;
  std::vector<std::vector<std::string>> rows;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    rows.push_back(absl::StrSplit(line, '\t'));
  }
  return rows;
}

std::string Trim(const std::string& s) {
  return std::string(absl::StripTrailingAsciiWhitespace(s));
}

// The FNV-1a 64 hash of "v0,v1,..." and the count, from `offsets` output
// "[v0, v1, ...]".
struct Table {
  int64_t size = -1;
  std::string hash;
};

Table HashOffsets(const std::string& json) {
  absl::string_view s = absl::StripAsciiWhitespace(json);
  Table t;
  if (!absl::ConsumePrefix(&s, "[") || !absl::ConsumeSuffix(&s, "]")) return t;
  uint64_t h = 0xcbf29ce484222325ull;
  t.size = 0;
  bool first = true;
  for (absl::string_view v : absl::StrSplit(s, ", ", absl::SkipEmpty())) {
    if (!first) {
      h ^= static_cast<unsigned char>(',');
      h *= 0x100000001b3ull;
    }
    first = false;
    for (char c : v) {
      h ^= static_cast<unsigned char>(c);
      h *= 0x100000001b3ull;
    }
    ++t.size;
  }
  char buf[17];
  std::snprintf(buf, sizeof(buf), "%016llx",
                static_cast<unsigned long long>(h));
  t.hash = buf;
  return t;
}

Table TableOf(const std::string& layout) {
  CliResult r = RunCli({"cute", "offsets", layout});
  if (r.status != 0) return Table{};
  return HashOffsets(r.out);
}

struct Counts {
  int exact = 0;
  int function = 0;
  int refused = 0;
  int failing = 0;
};

// Runs the rows of an op file (swizzle_reference.tsv, compiled_reference.tsv).
Counts RunOpFile(const std::string& path) {
  Counts counts;
  for (const std::vector<std::string>& row : ReadTsv(path)) {
    EXPECT_EQ(row.size(), 9u) << path << ": " << row[0];
    if (row.size() != 9u) {
      ++counts.failing;
      continue;
    }
    const std::string& id = row[0];
    const std::string& cls = row[1];
    std::vector<std::string> args = {"cute", row[2]};
    for (int i = 3; i < 6; ++i) {
      if (row[i] != "-") args.push_back(row[i]);
    }
    const std::string& expected = row[6];
    int64_t size = -1;
    if (row[7] != "-") {
      EXPECT_TRUE(absl::SimpleAtoi(row[7], &size));
    }
    const std::string& hash = row[8];
    CliResult r = RunCli(args);
    if (cls == "refused") {
      EXPECT_NE(r.status, 0)
          << id << ": CuTe refuses this, hlolayout gave " << r.out;
      EXPECT_FALSE(r.err.empty()) << id;
      counts.refused += r.status != 0;
      counts.failing += r.status == 0;
      continue;
    }
    bool ok = r.status == 0;
    EXPECT_EQ(r.status, 0) << id << ": " << r.err;
    const std::string got = Trim(r.out);
    if (ok && row[2] == "offsets") {
      const Table t = HashOffsets(got);
      EXPECT_EQ(t.size, size) << id;
      EXPECT_EQ(t.hash, hash) << id;
      ok = t.size == size && t.hash == hash;
      counts.exact += ok;
      counts.failing += !ok;
      continue;
    }
    if (ok && cls == "exact") {
      EXPECT_EQ(got, expected) << id;
      ok = got == expected;
    }
    if (ok && size >= 0) {
      const Table t = TableOf(got);
      EXPECT_EQ(t.size, size) << id << ": " << got;
      EXPECT_EQ(t.hash, hash) << id << ": " << got;
      ok = t.size == size && t.hash == hash;
    }
    if (!ok) {
      ++counts.failing;
    } else if (cls == "exact") {
      ++counts.exact;
    } else {
      ++counts.function;
    }
  }
  std::printf(
      "%s: %d exact, %d the same function, %d refused as CuTe does, "
      "%d failing\n",
      path.c_str(), counts.exact, counts.function, counts.refused,
      counts.failing);
  return counts;
}

TEST(CuteReference, SwizzlesAndComposedLayouts) {
  const Counts c = RunOpFile("cute/testdata/swizzle_reference.tsv");
  EXPECT_EQ(c.failing, 0);
  EXPECT_EQ(c.function, 0);
  EXPECT_EQ(c.exact, 183);
}

TEST(CuteReference, CompiledCuteIncludingDynamicIntegers) {
  const Counts c = RunOpFile("cute/testdata/compiled_reference.tsv");
  EXPECT_EQ(c.failing, 0);
  EXPECT_EQ(c.refused, 9);
  EXPECT_GE(c.exact, 260);
}

// The value of "key": "..." in one line of JSON (no escapes in our values).
std::string JsonValue(const std::string& json, const std::string& key) {
  const std::string needle = absl::StrCat("\"", key, "\": ");
  const size_t at = json.find(needle);
  if (at == std::string::npos) return "";
  size_t begin = at + needle.size();
  if (json[begin] == '"') {
    const size_t end = json.find('"', begin + 1);
    return json.substr(begin + 1, end - begin - 1);
  }
  const size_t end = json.find(']', begin);
  std::string v = json.substr(begin + 1, end - begin - 1);
  v.erase(std::remove(v.begin(), v.end(), ' '), v.end());
  return v;
}

TEST(CuteReference, SharedMemoryAtomsAndTritonTwins) {
  int exact = 0, failing = 0, twins = 0, more_twins = 0, back = 0;
  for (const std::vector<std::string>& row :
       ReadTsv("cute/testdata/smem_reference.tsv")) {
    ASSERT_EQ(row.size(), 10u) << row[0];
    const std::string& id = row[0];
    std::vector<std::string> args = {"cute", "smem", row[1], "--json"};
    if (row[2] != "-") {
      args.push_back("--shape");
      args.push_back(row[2]);
    }
    if (row[3] != "-") {
      args.push_back("--order");
      args.push_back(row[3]);
    }
    CliResult r = RunCli(args);
    ASSERT_EQ(r.status, 0) << id << ": " << r.err;
    const std::string layout = JsonValue(r.out, "Layout");
    const std::string elements = JsonValue(r.out, "LayoutElements");
    const std::string triton = JsonValue(r.out, "Triton");
    EXPECT_EQ(layout, row[4]) << id;
    EXPECT_EQ(elements, row[5]) << id;
    bool ok = layout == row[4] && elements == row[5];
    if (row[8] != "-") {
      const Table t = TableOf(elements);
      EXPECT_EQ(absl::StrCat(t.size), row[8]) << id;
      EXPECT_EQ(t.hash, row[9]) << id;
      ok = ok && absl::StrCat(t.size) == row[8] && t.hash == row[9];
    }
    if (row[6] != "-") {
      // CuTe's twin: the same attribute on the same memdesc shape.
      EXPECT_EQ(triton, row[6]) << id;
      EXPECT_EQ(JsonValue(r.out, "MemdescShape"), row[7]) << id;
      ok = ok && triton == row[6];
      twins += triton == row[6];
      // And back: the CuTe tile for the Triton layout is the same function.
      CliResult b =
          RunCli({"cute", "smem", row[6], "--shape", row[7], "--json"});
      ASSERT_EQ(b.status, 0) << id << ": " << b.err;
      const Table t = TableOf(JsonValue(b.out, "LayoutElements"));
      EXPECT_EQ(t.hash, row[9]) << id << ": " << b.out;
      back += t.hash == row[9];
    } else if (triton != "none") {
      // Checked element by element by the command itself; the reference
      // made no claim for this row.
      ++more_twins;
    }
    exact += ok;
    failing += !ok;
  }
  std::printf(
      "cute/testdata/smem_reference.tsv: %d exact, %d failing; %d "
      "Triton twins as CuTe's, %d back to the same CuTe function, "
      "%d more twins found and checked\n",
      exact, failing, twins, back, more_twins);
  EXPECT_EQ(failing, 0);
  EXPECT_EQ(exact, 132);
  EXPECT_EQ(twins, 29);
  EXPECT_EQ(back, 29);
}

}  // namespace
}  // namespace hlolayout::cli
