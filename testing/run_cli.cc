#include "hlolayout/testing/run_cli.h"

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_replace.h"

namespace hlolayout::cli {
namespace {

// Paths into the runfiles as the repository's top names them.
std::string Relative(const std::string& arg) {
  std::vector<std::pair<std::string, std::string>> prefixes;
  if (const char* srcdir = std::getenv("TEST_SRCDIR")) {
    prefixes.push_back({std::string(srcdir) + "/hlolayout/", ""});
  }
  char cwd[4096];
  if (getcwd(cwd, sizeof(cwd)) != nullptr) {
    prefixes.push_back({std::string(cwd) + "/", ""});
  }
  return absl::StrReplaceAll(arg, prefixes);
}

}  // namespace

void RecordCliInvocation(const std::vector<std::string>& args,
                         const std::string& input) {
  const char* path = std::getenv("HLOLAYOUT_RECORD_CLI");
  if (path == nullptr || *path == '\0') return;
  std::string line = "{\"args_hex\": [";
  for (size_t i = 0; i < args.size(); ++i) {
    line += i == 0 ? "\"" : ", \"";
    line += absl::BytesToHexString(Relative(args[i]));
    line += "\"";
  }
  line += "], \"stdin_hex\": \"" + absl::BytesToHexString(input) + "\"}\n";
  std::ofstream(path, std::ios::app) << line;
}

}  // namespace hlolayout::cli
