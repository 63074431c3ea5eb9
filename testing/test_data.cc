#include "hlolayout/testing/test_data.h"

#include <sys/stat.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace hlolayout {
namespace {

bool Exists(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0;
}

}  // namespace

std::string TestDataPath(const std::string& repo_relative) {
  if (const char* srcdir = std::getenv("TEST_SRCDIR")) {
    // Bazel: the repository's runfiles are under its workspace name,
    // "hlolayout" both in this workspace and as a consumer's @hlolayout.
    std::string path = std::string(srcdir) + "/hlolayout/" + repo_relative;
    if (Exists(path)) return path;
    if (const char* ws = std::getenv("TEST_WORKSPACE")) {
      path = std::string(srcdir) + "/" + ws + "/" + repo_relative;
      if (Exists(path)) return path;
    }
  }
#ifdef HLOLAYOUT_SOURCE_DIR
  return std::string(HLOLAYOUT_SOURCE_DIR) + "/" + repo_relative;
#else
  return repo_relative;
#endif
}

std::string ReadTestData(const std::string& repo_relative) {
  std::ifstream in(TestDataPath(repo_relative), std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

int64_t MemoryAnalysisFigure(const std::string& json, const std::string& name,
                             const std::string& field) {
  const size_t at = json.find("\"" + name + ".txt\"");
  if (at == std::string::npos) return -1;
  const size_t end = json.find('}', at);
  const size_t f = json.find("\"" + field + "\": ", at);
  if (f == std::string::npos || f > end) return -1;
  return std::stoll(json.substr(f + field.size() + 4));
}

}  // namespace hlolayout
