#include "hlolayout/testing/triton_test_data.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "hlolayout/testing/test_data.h"
#include "hlolayout/util/check.h"

namespace hlolayout::triton {

std::string ReadTestFile(const std::string& path) {
  std::ifstream in(TestDataPath(path), std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "cannot read %s\n", path.c_str());
    std::abort();
  }
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<JsonValue> ReadJsonLines(const std::string& path) {
  const std::string text = ReadTestFile(path);
  std::vector<JsonValue> rows;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(start, end - start);
    start = end + 1;
    if (line.empty()) continue;
    absl::StatusOr<JsonValue> v = ParseJson(line);
    if (!v.ok()) {
      std::fprintf(stderr, "%s: %s\n", path.c_str(),
                   std::string(v.status().message()).c_str());
      std::abort();
    }
    rows.push_back(std::move(*v));
  }
  return rows;
}

std::vector<int64_t> Ints(const JsonValue& v) {
  std::vector<int64_t> out;
  for (const JsonValue& x : v.array) out.push_back(x.integer);
  return out;
}

LinearLayout TestLayout(NamedBases bases, std::vector<std::string> outs) {
  absl::StatusOr<LinearLayout> l =
      LinearLayout::CreateInferred(std::move(bases), std::move(outs));
  HLOLAYOUT_CHECK(l.ok()) << l.status();
  return *std::move(l);
}

LinearLayout TestLayout(NamedBases bases, NamedInts outs, bool surjective) {
  absl::StatusOr<LinearLayout> l =
      LinearLayout::Create(std::move(bases), std::move(outs), surjective);
  HLOLAYOUT_CHECK(l.ok()) << l.status();
  return *std::move(l);
}

}  // namespace hlolayout::triton
