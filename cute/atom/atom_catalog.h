// cute/atom/atom_catalog.h: every MMA atom family and copy operation family
// CuTe's tables hold, with their name patterns and parameter domains: the
// answer of `hlolayout cute atoms`.
//
//   std::vector<FamilyRow> rows = *AtomCatalog("mma", "sm90_gmma");
//   AtomCatalogText(rows);
//   // MMA atoms: 1 family, 416 names (hlolayout cute atom NAME prints one)
//   //
//   // sm90_gmma: 416 names
//   // ...
//   AtomCatalog("", "sm90_gmm").status();  // "unknown family 'sm90_gmm'; did
//                                          // you mean 'sm90_gmma'?; ..."
#ifndef HLOLAYOUT_CUTE_ATOM_ATOM_CATALOG_H_
#define HLOLAYOUT_CUTE_ATOM_ATOM_CATALOG_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace hlolayout::cute {

// One name pattern of a family.
struct FamilyRow {
  std::string kind;  // "mma" or "copy"
  std::string family, pattern, name_pattern;
  int64_t count;  // names the pattern describes
  std::vector<std::pair<std::string, std::string>> domains;  // param, domain
};

// AtomCatalog
//
// The rows of `kind` ("mma", "copy", or empty for both) and of `family`
// (empty: every family), in table order. Errors: no family of that name
// (NotFound, with the nearest name and every family).
absl::StatusOr<std::vector<FamilyRow>> AtomCatalog(absl::string_view kind,
                                                   absl::string_view family);

// The rows grouped by kind and family with their counts (thousands
// separated), plain names several to a line and each pattern with its
// parameters' domains wrapped at 100 columns (the JSON is answers/cute.h's
// AnswerAtomCatalog).
std::string AtomCatalogText(const std::vector<FamilyRow>& rows);

}  // namespace hlolayout::cute

#endif  // HLOLAYOUT_CUTE_ATOM_ATOM_CATALOG_H_
