#include "hlolayout/cute/atom/atom_catalog.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "hlolayout/cute/atom/copy_atom.h"
#include "hlolayout/cute/atom/mma_atom.h"
#include "hlolayout/util/edit_distance.h"

namespace hlolayout::cute {
namespace {

// "6,818,636"
std::string Thousands(int64_t n) {
  std::string digits = absl::StrCat(n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

// `text` ("a|b|c") in lines of at most `width` columns after `indent`,
// broken after a '|'.
std::string WrapDomain(absl::string_view text, size_t indent, size_t width) {
  std::string out, line;
  for (absl::string_view part : absl::StrSplit(text, '|')) {
    std::string piece = std::string(part);
    if (!line.empty()) {
      if (line.size() + 1 + piece.size() > width) {
        absl::StrAppend(&out, line, "|\n", std::string(indent, ' '));
        line.clear();
      } else {
        line += '|';
      }
    }
    line += piece;
  }
  return out + line;
}

void AtomsText(const std::vector<FamilyRow>& rows, absl::string_view kind,
               std::string& out) {
  std::vector<std::string> families;
  int64_t total = 0;
  for (const FamilyRow& r : rows) {
    if (r.kind != kind) continue;
    if (std::find(families.begin(), families.end(), r.family) ==
        families.end()) {
      families.push_back(r.family);
    }
    total += r.count;
  }
  if (families.empty()) return;
  const bool mma = kind == "mma";
  absl::StrAppend(&out, out.empty() ? "" : "\n",
                  mma ? "MMA atoms" : "copy operations", ": ", families.size(),
                  families.size() == 1 ? " family, " : " families, ",
                  Thousands(total), total == 1 ? " name" : " names",
                  mma ? " (hlolayout cute atom NAME prints one)\n"
                      : " (hlolayout cute atom 'Copy_Atom<OP, T>' prints "
                        "one)\n");
  for (const std::string& family : families) {
    int64_t count = 0;
    for (const FamilyRow& r : rows) {
      if (r.kind == kind && r.family == family) count += r.count;
    }
    absl::StrAppend(&out, "\n", family, ": ", Thousands(count),
                    count == 1 ? " name\n" : " names\n");
    // Plain names, several to a line; then each pattern with its domains
    // (parameters with the same domain on one line).
    std::string names;
    size_t line = 0;
    for (const FamilyRow& r : rows) {
      if (r.kind != kind || r.family != family || !r.domains.empty()) continue;
      if (line > 0 && line + 2 + r.name_pattern.size() > 98) {
        names += ",\n";
        line = 0;
      } else if (line > 0) {
        names += ", ";
        line += 2;
      }
      if (line == 0) names += "  ";
      names += r.name_pattern;
      line += r.name_pattern.size() + 2;
    }
    if (!names.empty()) absl::StrAppend(&out, names, "\n");
    for (const FamilyRow& r : rows) {
      if (r.kind != kind || r.family != family || r.domains.empty()) continue;
      absl::StrAppend(&out, "  ", r.name_pattern, "  (", Thousands(r.count),
                      r.count == 1 ? " name)\n" : " names)\n");
      std::vector<std::pair<std::string, std::string>> merged;
      for (const auto& [param, domain] : r.domains) {
        if (!merged.empty() && merged.back().second == domain) {
          absl::StrAppend(&merged.back().first, ", ", param);
        } else {
          merged.emplace_back(param, domain);
        }
      }
      size_t width = 0;
      for (const auto& [params, domain] : merged) {
        width = std::max(width, params.size());
      }
      for (const auto& [params, domain] : merged) {
        const size_t indent = 4 + width + 2;
        absl::StrAppend(&out, "    ", params,
                        std::string(width + 2 - params.size(), ' '),
                        WrapDomain(domain, indent, 100 - indent), "\n");
      }
    }
  }
}

}  // namespace

absl::StatusOr<std::vector<FamilyRow>> AtomCatalog(absl::string_view kind,
                                                   absl::string_view family) {
  std::vector<FamilyRow> rows;
  if (kind != "copy") {
    for (auto& f : MmaAtomFamilies()) {
      rows.push_back(
          {"mma", f.family, f.pattern, f.name_pattern, f.count, f.domains});
    }
  }
  if (kind != "mma") {
    for (auto& f : CopyOpFamilies()) {
      rows.push_back(
          {"copy", f.family, f.pattern, f.name_pattern, f.count, f.domains});
    }
  }
  std::vector<FamilyRow> kept;
  for (const FamilyRow& r : rows) {
    if (family.empty() || r.family == family) kept.push_back(r);
  }
  if (!kept.empty()) return kept;
  std::vector<std::string> known;
  for (const FamilyRow& r : rows) {
    if (std::find(known.begin(), known.end(), r.family) == known.end()) {
      known.push_back(r.family);
    }
  }
  std::string message = absl::StrCat("unknown family '", family, "'");
  std::vector<std::string> near = NearestNames(family, known, 1);
  if (!near.empty() && CloseEnough(family, near[0])) {
    absl::StrAppend(&message, "; did you mean '", near[0], "'?");
  }
  absl::StrAppend(&message, "; families: ", absl::StrJoin(known, ", "));
  return absl::NotFoundError(message);
}

std::string AtomCatalogText(const std::vector<FamilyRow>& rows) {
  std::string out;
  AtomsText(rows, "mma", out);
  AtomsText(rows, "copy", out);
  return out;
}

}  // namespace hlolayout::cute
