// cute/atom/internal/atom_lookup.h: the error for a name no table row
// matches, shared by the MMA and copy atom lookups.
#ifndef HLOLAYOUT_CUTE_ATOM_INTERNAL_ATOM_LOOKUP_H_
#define HLOLAYOUT_CUTE_ATOM_INTERNAL_ATOM_LOOKUP_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "hlolayout/cute/atom/internal/name_pattern.h"

namespace hlolayout::cute::atom_internal {

// UnknownAtomError
//
// NotFound. When `name`'s identifier fits some patterns (LooseMatch), the
// message gives their parameter domains ("unknown MMA atom 'X': its family
// is P with N in ..."); otherwise it lists the five nearest known names by
// edit distance. `kind` is "MMA atom" or "copy operation".
absl::Status UnknownAtomError(absl::string_view kind, absl::string_view name,
                              const std::vector<const NamePattern*>& patterns);

}  // namespace hlolayout::cute::atom_internal

#endif  // HLOLAYOUT_CUTE_ATOM_INTERNAL_ATOM_LOOKUP_H_
