// cli/padding_section.h: the "padding and size" part of `hlolayout explain`
// (issue 3), in text and JSON.
//
//   padding and size:
//     physical tiled: [2,3,2,2] (T(2,2))
//     elements:       15 logical, 24 tiled, 24 padded (9 padding)
//     bytes:          60 logical, 96 padded, 36 padding (1.6x expansion)
//     minor dims aligned to the tiles: no
//       dim 0 (size 3) is not a multiple of tile 2 of T(2,2): padded to 4
//       dim 1 (size 5) is not a multiple of tile 2 of T(2,2): padded to 6
#ifndef HLOLAYOUT_CLI_PADDING_SECTION_H_
#define HLOLAYOUT_CLI_PADDING_SECTION_H_

#include <string>

#include "hlolayout/cli/json.h"
#include "hlolayout/shape/shape.h"

namespace hlolayout::cli {

// Appends the section for an array shape (each line starts with `indent`);
// a shape that cannot be sized gets one "padding and size: <error>" line
// and the result is false.
bool AppendPaddingSection(const Shape& array_shape, const std::string& indent,
                          std::string* out);

// Writes key "padding_and_size" with an object into an open JSON object;
// when the shape cannot be sized, null and "padding_and_size_error" with
// the message, and the result is false.
bool WritePaddingJson(const Shape& array_shape, JsonWriter& json);

}  // namespace hlolayout::cli

#endif  // HLOLAYOUT_CLI_PADDING_SECTION_H_
