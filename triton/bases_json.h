// triton/bases_json.h: LinearLayouts as JSON, the form `hlolayout triton`
// and Triton's Python binding (from_bases) use.
//
//   {"bases": [["register", [[0, 1], [1, 0]]], ["lane", [[2, 0]]]],
//    "out_dims": ["dim0", "dim1"], "out_sizes": [4, 2],
//    "require_surjective": true}
//
// are the arguments of Triton's LinearLayout.from_bases; "out_sizes" and
// "require_surjective" may be left out (sizes are then inferred as Triton's
// names-only constructor does, and surjectivity is required), "bases" may
// also be an object {"register": [...], ...}, and "out_dims" may list
// [name, size] pairs. A bare object of bases
//
//   {"register": [[0, 1]], "lane": [[1, 0], [2, 0]], "warp": [], "block": []}
//
// reads like `#ttg.linear<{...}>`: out-dims dim0, dim1, ... with inferred
// sizes. Errors point into the text (line:column, source line, caret).
#ifndef HLOLAYOUT_TRITON_BASES_JSON_H_
#define HLOLAYOUT_TRITON_BASES_JSON_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "hlolayout/triton/linear_layout.h"
#include "hlolayout/util/fields.h"
#include "hlolayout/util/json_reader.h"

namespace hlolayout::triton {

// LayoutFromJson
//
// A layout from JSON text (either form above). Construction errors
// (Triton's refusals) are returned as they are, not located.
absl::StatusOr<LinearLayout> LayoutFromJson(absl::string_view text,
                                            absl::string_view file_name = "");

// LayoutFromJsonValue
//
// The same from a parsed value; `text` is the text it was parsed from (for
// error locations).
absl::StatusOr<LinearLayout> LayoutFromJsonValue(
    const JsonValue& v, absl::string_view text,
    absl::string_view file_name = "");

// BasesFromJsonValue
//
// The bases alone: an array of [name, [[...], ...]] pairs or an object
// {name: [[...], ...]}. Values must be int32.
absl::StatusOr<NamedBases> BasesFromJsonValue(const JsonValue& v,
                                              absl::string_view text,
                                              absl::string_view file_name = "");

// The arguments of Triton's LinearLayout.from_bases that make `l`, as
// LayoutToJson writes them (require_surjective false: the sizes are given).
struct FromBasesArgs {
  std::vector<std::pair<std::string, std::vector<std::vector<int64_t>>>> bases;
  std::vector<std::string> out_dims;
  std::vector<int64_t> out_sizes;
  bool require_surjective = false;

  template <typename Fields>
  friend void HlolayoutFields(Fields& f, const FromBasesArgs& a) {
    f.Type("FromBasesArgs", "The arguments of LinearLayout.from_bases.");
    f("bases", a.bases, "[in-dim, [[...], ...]] pairs, in order.");
    f("out_dims", a.out_dims, "The out-dims' names.");
    f("out_sizes", a.out_sizes, "The out-dims' sizes.");
    f("require_surjective", a.require_surjective, "Always false.");
  }
};
FromBasesArgs FromBasesOf(const LinearLayout& l);

// LayoutToJson
//
// {"bases": [[in, [[...]]], ...], "out_dims": [name, ...], "out_sizes":
// [...], "require_surjective": false} (AnswerJson of FromBasesOf(l)), which
// LayoutFromJson reads back to an equal layout.
std::string LayoutToJson(const LinearLayout& l);

}  // namespace hlolayout::triton

#endif  // HLOLAYOUT_TRITON_BASES_JSON_H_
