// cute/atom/internal/atom_lookup.cc
#include "hlolayout/cute/atom/internal/atom_lookup.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "hlolayout/cute/internal/status_macros.h"
#include "hlolayout/cute/parse.h"
#include "hlolayout/util/edit_distance.h"

namespace hlolayout::cute::atom_internal {

absl::Status UnknownAtomError(absl::string_view kind, absl::string_view name,
                              const std::vector<const NamePattern*>& patterns) {
  // Nearest names: each pattern's instances closest to the query.
  std::vector<std::string> candidates;
  std::vector<std::string> families;
  for (const NamePattern* p : patterns) {
    for (std::string& candidate : p->Instances(64, false)) {
      candidates.push_back(std::move(candidate));
    }
    if (p->LooseMatch(name) && p->Count(false) > 1) {
      families.push_back(p->Display());
    }
  }
  const std::string nearest =
      absl::StrJoin(NearestNames(name, candidates, 5), ", ");
  if (families.empty()) {
    return absl::NotFoundError(
        absl::StrCat("unknown ", kind, " '", name, "'; nearest: ", nearest));
  }
  if (families.size() > 3) families.resize(3);
  return absl::NotFoundError(
      absl::StrCat("unknown ", kind, " '", name, "': the name fits ",
                   absl::StrJoin(families, "; or "),
                   "; but not its parameters; nearest: ", nearest));
}

absl::StatusOr<Layout> TableLayout(const char* templ, const Bindings& b) {
  CUTE_ASSIGN_OR_RETURN(std::string text, Substitute(templ, b));
  return ParseLayout(text);
}

}  // namespace hlolayout::cute::atom_internal
