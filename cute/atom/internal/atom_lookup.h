// cute/atom/internal/atom_lookup.h: what the MMA and copy atom lookups
// share: their table rows with compiled name patterns, the row a name
// matches (or the error for a name none matches), and a row's layouts.
#ifndef HLOLAYOUT_CUTE_ATOM_INTERNAL_ATOM_LOOKUP_H_
#define HLOLAYOUT_CUTE_ATOM_INTERNAL_ATOM_LOOKUP_H_

#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "hlolayout/cute/atom/internal/name_pattern.h"
#include "hlolayout/cute/layout.h"

namespace hlolayout::cute::atom_internal {

// UnknownAtomError
//
// NotFound, never cut short, listing the five known names nearest `name`
// by edit distance. When `name` fits the families of some patterns with
// other parameter values (LooseBindings), the message first says so with
// the families' names and each parameter whose value no such family takes
// with its whole domain, and the nearest names are the name with that
// value replaced by its nearest valid ones, then those of the five nearest
// by edit distance that are one edit away:
//
//   unknown MMA atom 'SM90_64x100x16_F16F16F16_SS<GMMA::Major::K,
//   GMMA::Major::K>' (family sm90_gmma or sm90_gmma_ext): N = 100 is not
//   one of 8|16|24|...|256 (every value); nearest:
//   SM90_64x96x16_F16F16F16_SS<GMMA::Major::K,GMMA::Major::K>,
//   SM90_64x104x16_F16F16F16_SS<GMMA::Major::K,GMMA::Major::K>, ...
//
// (the text "' (family " marks this form). `kind` is "MMA atom" or "copy
// operation"; `families[i]` is the family of `patterns[i]`.
absl::Status UnknownAtomError(absl::string_view kind, absl::string_view name,
                              const std::vector<const NamePattern*>& patterns,
                              const std::vector<std::string>& families);

// NearestInstances
//
// The `count` names of `patterns` nearest `name` by EditDistance, over the
// first 64 names of each pattern (optional template arguments left out).
std::vector<std::string> NearestInstances(
    absl::string_view name, const std::vector<const NamePattern*>& patterns,
    size_t count);

// FitsAFamily
//
// Whether `status` is UnknownAtomError's family form.
bool FitsAFamily(const absl::Status& status);

// A table row (MmaRow, CopyRow: `pattern` and `params` fields) with its
// name pattern compiled.
template <typename Row>
struct CompiledRow {
  const Row* row;
  NamePattern pattern;
};

// Every row of `tables`, in order, with its pattern compiled.
template <typename Row>
std::vector<CompiledRow<Row>> CompileRows(
    const std::vector<absl::Span<const Row>>& tables) {
  std::vector<CompiledRow<Row>> out;
  for (absl::Span<const Row> table : tables) {
    for (const Row& row : table) {
      out.push_back({&row, NamePattern::Compile(row.pattern, row.params)});
    }
  }
  return out;
}

// MatchRow
//
// The first of `rows` whose pattern matches `name`, with the parameter
// values it binds; else UnknownAtomError(kind, name, every row's pattern).
template <typename Row>
absl::StatusOr<std::pair<const CompiledRow<Row>*, Bindings>> MatchRow(
    const std::vector<CompiledRow<Row>>& rows, absl::string_view kind,
    absl::string_view name) {
  for (const CompiledRow<Row>& r : rows) {
    absl::optional<Bindings> b = r.pattern.Match(name);
    if (b) return std::make_pair(&r, *std::move(b));
  }
  std::vector<const NamePattern*> patterns;
  std::vector<std::string> families;
  for (const CompiledRow<Row>& r : rows) {
    patterns.push_back(&r.pattern);
    families.emplace_back(r.row->family);
  }
  return UnknownAtomError(kind, name, patterns, families);
}

// TableLayout
//
// A row's layout template (name_pattern.h) with `b`'s values, parsed.
absl::StatusOr<Layout> TableLayout(const char* templ, const Bindings& b);

}  // namespace hlolayout::cute::atom_internal

#endif  // HLOLAYOUT_CUTE_ATOM_INTERNAL_ATOM_LOOKUP_H_
