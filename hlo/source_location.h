// hlo/source_location.h: the source line an HLO instruction came
// from, read from its metadata: `source_file="train.py" source_line=12`
// (older dumps), or `stack_frame_id=6` through the module's StackFrames,
// FileLocations and FileNames tables (newer dumps; the frame is the
// innermost one, whose line XLA prints in its own memory reports).
//
//   HloModule m
//   FileNames
//   1 "probe_xla.py"
//   FileLocations
//   1 {file_name_id=1 function_name_id=1 line=176 end_line=176 ...}
//   StackFrames
//   1 {file_location_id=1 parent_frame_id=0}
//   ...
//   %dot = f32[8]{0} dot(...), metadata={op_name="jit(f)/dot" stack_frame_id=1}
//
//   HloSourceLocations locations(module.header);
//   locations.Of("{op_name=\"jit(f)/dot\" stack_frame_id=1}")
//       == "probe_xla.py:176"
//
// Untrusted text: ids and lines that do not parse or point nowhere give ""
// (no location), never an error or a crash.
#ifndef HLOLAYOUT_HLO_SOURCE_LOCATION_H_
#define HLOLAYOUT_HLO_SOURCE_LOCATION_H_

#include <cstdint>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/string_view.h"
#include "hlolayout/hlo/module.h"

namespace hlolayout {

// The field `key=` of a metadata text (blank-separated key=value pairs,
// optionally in braces): the quoted string without quotes for `key="..."`
// (escapes kept), else the word up to a blank or '}'; empty when absent.
// Text inside quoted values is never taken for a key.
//   MetadataField("{op_name=\"a/b\" source_line=12}", "source_line") == "12"
absl::string_view MetadataField(absl::string_view metadata,
                                absl::string_view key);

class HloSourceLocations {
 public:
  // Indexes the header's FileNames, FileLocations and StackFrames tables
  // (views into the module text, which must outlive this object).
  explicit HloSourceLocations(const HloModuleHeader& header);

  // "file:line" of an instruction's metadata attribute value ("{...}"), or
  // "" when it names none. source_file/source_line win over a stack frame.
  std::string Of(absl::string_view metadata) const;

 private:
  struct Location {
    int64_t file = -1;
    int64_t line = -1;
  };
  absl::flat_hash_map<int64_t, absl::string_view> files_;
  absl::flat_hash_map<int64_t, Location> locations_;
  absl::flat_hash_map<int64_t, int64_t> frames_;  // frame -> location
};

}  // namespace hlolayout

#endif  // HLOLAYOUT_HLO_SOURCE_LOCATION_H_
