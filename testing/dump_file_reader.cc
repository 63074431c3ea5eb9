#include "hlolayout/testing/dump_file_reader.h"

#include <fstream>
#include <sstream>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"

namespace hlolayout {
namespace {

class StringText : public DumpFileText {
 public:
  explicit StringText(std::string text) : text_(std::move(text)) {}
  absl::string_view text() const override { return text_; }

 private:
  std::string text_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<DumpFileText>> ReadDumpFile(
    const DumpFolderFile& file) {
  std::ifstream in(file.path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot open ", file.name));
  std::ostringstream text;
  text << in.rdbuf();
  return std::unique_ptr<DumpFileText>(new StringText(text.str()));
}

}  // namespace hlolayout
