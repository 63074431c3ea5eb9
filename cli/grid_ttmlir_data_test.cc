// `hlolayout grid explain/locate --json` against what tt-mlir's own builder
// computes for 242 tensor types of its lit tests
// (ttmlir/testdata/ttmlir_cases.jsonl, README.md there), and every tensor type
// with a layout of those tests read without a crash
// (ttmlir/testdata/ttmlir_lit_types.tsv).
#include <cstdint>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "hlolayout/testing/run_cli.h"
#include "hlolayout/testing/test_data.h"
#include "hlolayout/util/json_reader.h"

namespace hlolayout::cli {
namespace {

using ::hlolayout::JsonValue;

std::vector<std::string> Lines(const std::string& repo_path) {
  std::ifstream in(TestDataPath(repo_path));
  EXPECT_TRUE(in.good()) << repo_path;
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) lines.push_back(line);
  }
  return lines;
}

std::string Show(const JsonValue& v) {
  switch (v.kind) {
    case JsonValue::Kind::kNull:
      return "null";
    case JsonValue::Kind::kBool:
      return v.boolean ? "true" : "false";
    case JsonValue::Kind::kNumber:
      return v.is_integer ? absl::StrCat(v.integer) : absl::StrCat(v.number);
    case JsonValue::Kind::kString:
      return absl::StrCat("\"", v.string, "\"");
    case JsonValue::Kind::kArray: {
      std::vector<std::string> parts;
      for (const JsonValue& e : v.array) parts.push_back(Show(e));
      return absl::StrCat("[", absl::StrJoin(parts, ", "), "]");
    }
    case JsonValue::Kind::kObject: {
      std::vector<std::string> parts;
      for (const auto& [k, e] : v.object) parts.push_back(k + ": " + Show(e));
      return absl::StrCat("{", absl::StrJoin(parts, ", "), "}");
    }
  }
  return "?";
}

// Every member of `want` is in `got` with an equal value (objects compare
// by key, so extra keys in `got` are fine).
bool Covers(const JsonValue& got, const JsonValue& want) {
  if (want.kind == JsonValue::Kind::kObject) {
    if (got.kind != JsonValue::Kind::kObject) return false;
    for (const auto& [key, value] : want.object) {
      const JsonValue* g = got.Find(key);
      if (g == nullptr || !Covers(*g, value)) return false;
    }
    return true;
  }
  if (want.kind == JsonValue::Kind::kArray) {
    if (got.kind != JsonValue::Kind::kArray ||
        got.array.size() != want.array.size()) {
      return false;
    }
    for (size_t i = 0; i < want.array.size(); ++i) {
      if (!Covers(got.array[i], want.array[i])) return false;
    }
    return true;
  }
  return Show(got) == Show(want);
}

std::string IndexArg(const JsonValue& index) {
  std::vector<std::string> parts;
  for (const JsonValue& v : index.array)
    parts.push_back(absl::StrCat(v.integer));
  return absl::StrJoin(parts, ",");
}

TEST(GridTtmlirData, EveryCaseIsTheBuildersAnswer) {
  std::map<std::string, int> cases, matched;
  int samples = 0;
  for (const std::string& line : Lines("ttmlir/testdata/ttmlir_cases.jsonl")) {
    absl::StatusOr<JsonValue> row = ParseJson(line);
    ASSERT_TRUE(row.ok()) << row.status();
    const std::string id = row->Find("id")->string;
    const std::string tensor = row->Find("tensor")->string;
    const std::string expect = row->Find("expect")->string;
    ++cases[expect];
    CliResult r = RunCli({"grid", "explain", "--json", tensor});
    if (expect == "refused") {
      const std::string reason = row->Find("refusal")->string;
      EXPECT_EQ(r.status, 1) << id;
      EXPECT_NE(r.err.find(reason), std::string::npos) << id << ": " << r.err;
      if (r.status == 1 && r.err.find(reason) != std::string::npos) {
        ++matched[expect];
      }
      continue;
    }
    ASSERT_EQ(r.status, 0) << id << ": " << r.err;
    absl::StatusOr<JsonValue> out = ParseJson(r.out);
    ASSERT_TRUE(out.ok()) << out.status();
    bool ok = true;
    const size_t warnings = out->Find("warnings")->array.size();
    if (expect == "as_written") {
      EXPECT_EQ(warnings, 0u) << id << ": " << r.err;
      EXPECT_TRUE(r.err.empty()) << id << ": " << r.err;
      ok &= warnings == 0;
    } else {
      EXPECT_GT(warnings, 0u) << id;
      EXPECT_NE(r.err.find("warning: "), std::string::npos) << id;
      ok &= warnings > 0;
    }
    const JsonValue& explain = *row->Find("explain");
    for (const auto& [key, value] : explain.object) {
      const JsonValue* got = out->Find(key);
      const bool same = got != nullptr && Covers(*got, value);
      EXPECT_TRUE(same) << id << " " << key << ": got "
                        << (got ? Show(*got) : "nothing") << ", want "
                        << Show(value);
      ok &= same;
    }
    for (const JsonValue& sample : row->Find("locate")->array) {
      ++samples;
      const std::string index = IndexArg(*sample.Find("index"));
      CliResult l = RunCli({"grid", "locate", "--json", tensor, index});
      ASSERT_EQ(l.status, 0) << id << " " << index << ": " << l.err;
      absl::StatusOr<JsonValue> loc = ParseJson(l.out);
      ASSERT_TRUE(loc.ok()) << loc.status();
      const bool same = Covers(*loc, sample);
      EXPECT_TRUE(same) << id << " at " << index << ": got " << Show(*loc)
                        << ", want " << Show(sample);
      ok &= same;
    }
    if (ok) ++matched[expect];
  }
  // 153 types the builder writes as the test does, 84 it writes otherwise
  // (answered with a warning), 5 tt-mlir refuses.
  EXPECT_EQ(cases["as_written"], 153);
  EXPECT_EQ(cases["warning"], 84);
  EXPECT_EQ(cases["refused"], 5);
  EXPECT_EQ(matched, cases);
  EXPECT_EQ(samples, 1150);
}

TEST(GridTtmlirData, EveryLitTestTypeIsRead) {
  std::map<std::string, int> counts;
  for (const std::string& line :
       Lines("ttmlir/testdata/ttmlir_lit_types.tsv")) {
    std::vector<std::string> fields = absl::StrSplit(line, '\t');
    ASSERT_EQ(fields.size(), 2u) << line;
    CliResult r = RunCli({"grid", "explain", "--json", fields[1]});
    if (r.status == 0) {
      absl::StatusOr<JsonValue> out = ParseJson(r.out);
      ASSERT_TRUE(out.ok()) << fields[0];
      ++counts[out->Find("warnings")->array.empty() ? "as_written"
                                                    : "warnings"];
      continue;
    }
    ASSERT_EQ(r.status, 1) << fields[0];
    // A refusal of tt-mlir's (verifier or assertion) or one of hlolayout's
    // limits, located in the type.
    EXPECT_EQ(r.err.rfind("hlolayout grid explain: 1:", 0), 0u)
        << fields[0] << ": " << r.err;
    ++counts[r.err.find("tt-mlir") != std::string::npos ? "refused by tt-mlir"
                                                        : "refused"];
  }
  EXPECT_EQ(counts, (std::map<std::string, int>{{"as_written", 474},
                                                {"warnings", 236},
                                                {"refused by tt-mlir", 17}}));
}

}  // namespace
}  // namespace hlolayout::cli
