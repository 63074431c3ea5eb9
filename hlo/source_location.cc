#include "hlolayout/hlo/source_location.h"

#include <algorithm>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "hlolayout/hlo/attribute_value.h"

namespace hlolayout {

absl::string_view MetadataField(absl::string_view metadata,
                                absl::string_view key) {
  // key=value pairs separated by blanks (spaces, line breaks: IsHloSpace),
  // inside optional braces; quoted values may hold blanks, '=' and escaped
  // quotes.
  size_t i = 0;
  const size_t n = metadata.size();
  while (i < n) {
    while (i < n && (IsHloSpace(metadata[i]) || metadata[i] == '{' ||
                     metadata[i] == '}' || metadata[i] == ',')) {
      ++i;
    }
    const size_t key_start = i;
    while (i < n && metadata[i] != '=' && !IsHloSpace(metadata[i]) &&
           metadata[i] != '}') {
      ++i;
    }
    const absl::string_view name = metadata.substr(key_start, i - key_start);
    if (i >= n || metadata[i] != '=') continue;  // a word without a value
    ++i;
    absl::string_view value;
    if (i < n && metadata[i] == '"') {
      const size_t b = ++i;
      while (i < n && metadata[i] != '"') i += metadata[i] == '\\' ? 2 : 1;
      value = metadata.substr(b, std::min(i, n) - b);
      ++i;
    } else {
      const size_t b = i;
      while (i < n && !IsHloSpace(metadata[i]) && metadata[i] != '}') ++i;
      value = metadata.substr(b, i - b);
    }
    if (name == key) return value;
  }
  return {};
}

namespace {

bool Int(absl::string_view text, int64_t* out) {
  return !text.empty() && absl::SimpleAtoi(text, out);
}

}  // namespace

HloSourceLocations::HloSourceLocations(const HloModuleHeader& header) {
  for (const HloStackTable& table : header.stack_tables) {
    for (const HloStackTable::Entry& e : table.entries) {
      if (table.kind == "FileNames") {
        absl::string_view name = e.value;
        if (name.size() >= 2 && name.front() == '"' && name.back() == '"') {
          name = name.substr(1, name.size() - 2);
        }
        files_[e.id] = name;
      } else if (table.kind == "FileLocations") {
        Location l;
        if (Int(MetadataField(e.value, "file_name_id"), &l.file) &&
            Int(MetadataField(e.value, "line"), &l.line)) {
          locations_[e.id] = l;
        }
      } else if (table.kind == "StackFrames") {
        int64_t location = 0;
        if (Int(MetadataField(e.value, "file_location_id"), &location)) {
          frames_[e.id] = location;
        }
      }
    }
  }
}

std::string HloSourceLocations::Of(absl::string_view metadata) const {
  const absl::string_view file = MetadataField(metadata, "source_file");
  if (!file.empty()) {
    const absl::string_view line = MetadataField(metadata, "source_line");
    int64_t n = 0;
    return Int(line, &n) ? absl::StrCat(file, ":", n) : std::string(file);
  }
  int64_t frame = 0;
  if (!Int(MetadataField(metadata, "stack_frame_id"), &frame)) return "";
  auto f = frames_.find(frame);
  if (f == frames_.end()) return "";
  auto l = locations_.find(f->second);
  if (l == locations_.end()) return "";
  auto name = files_.find(l->second.file);
  if (name == files_.end()) return "";
  return absl::StrCat(name->second, ":", l->second.line);
}

}  // namespace hlolayout
