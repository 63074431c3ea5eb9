#include "hlolayout/testing/test_data.h"

#include <sys/stat.h>

#include <cstdlib>
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

}  // namespace hlolayout
