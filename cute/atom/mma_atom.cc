// cute/atom/mma_atom.cc: looking MMA atoms up in the tables.
#include "hlolayout/cute/atom/mma_atom.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"
#include "hlolayout/cute/atom/internal/atom_lookup.h"
#include "hlolayout/cute/atom/internal/mma_table.h"
#include "hlolayout/cute/atom/internal/name_pattern.h"
#include "hlolayout/cute/parse.h"
#include "hlolayout/util/check.h"
#include "hlolayout/util/status_macros.h"

namespace hlolayout::cute {

namespace {

using atom_internal::Bindings;
using atom_internal::MmaRow;

using Entry = atom_internal::CompiledRow<MmaRow>;
using atom_internal::TableLayout;

const std::vector<Entry>& Entries() {
  static const std::vector<Entry>* entries = new std::vector<Entry>(
      atom_internal::CompileRows(atom_internal::MmaTables()));
  return *entries;
}

absl::StatusOr<MmaAtom> Build(const Entry& e, std::string name,
                              const Bindings& b) {
  if (e.row->broken[0] != '\0') {
    return absl::InvalidArgumentError(
        absl::StrCat("MMA atom ", name,
                     " is defined by CuTe but unusable: ", e.row->broken));
  }
  MmaAtom atom;
  atom.name = std::move(name);
  atom.family = e.row->family;
  HLOLAYOUT_ASSIGN_OR_RETURN(atom.thr_id, TableLayout(e.row->thr_id, b));
  HLOLAYOUT_ASSIGN_OR_RETURN(std::string shape,
                             atom_internal::Substitute(e.row->shape_mnk, b));
  HLOLAYOUT_ASSIGN_OR_RETURN(atom.shape_mnk, ParseIntTuple(shape));
  HLOLAYOUT_ASSIGN_OR_RETURN(atom.layout_a_tv, TableLayout(e.row->a, b));
  HLOLAYOUT_ASSIGN_OR_RETURN(atom.layout_b_tv, TableLayout(e.row->b, b));
  HLOLAYOUT_ASSIGN_OR_RETURN(atom.layout_c_tv, TableLayout(e.row->c, b));
  return atom;
}

}  // namespace

absl::StatusOr<MmaAtom> FindMmaAtom(absl::string_view text) {
  HLOLAYOUT_ASSIGN_OR_RETURN(std::string name,
                             atom_internal::CanonicalAtomName(text));
  for (absl::string_view wrapper : {"MMA_Atom<", "MMA_Traits<"}) {
    absl::string_view v = name;
    if (absl::ConsumePrefix(&v, wrapper) && absl::ConsumeSuffix(&v, ">")) {
      name = std::string(v);
    }
  }
  HLOLAYOUT_ASSIGN_OR_RETURN(
      auto match, atom_internal::MatchRow(Entries(), "MMA atom", name));
  return Build(*match.first, name, match.second);
}

std::vector<std::string> NearestMmaAtomNames(absl::string_view name,
                                             size_t count) {
  std::vector<const atom_internal::NamePattern*> patterns;
  for (const Entry& e : Entries()) patterns.push_back(&e.pattern);
  return atom_internal::NearestInstances(name, patterns, count);
}

std::vector<MmaFamilyInfo> MmaAtomFamilies() {
  std::vector<MmaFamilyInfo> out;
  for (const Entry& e : Entries()) {
    out.push_back({e.row->family, e.pattern.Display(),
                   e.pattern.Count(/*optional_forms=*/false),
                   e.pattern.pattern(), e.pattern.Domains()});
  }
  return out;
}

std::vector<std::string> AllMmaAtomNames(int64_t limit) {
  std::vector<std::string> out;
  for (const Entry& e : Entries()) {
    if (e.row->broken[0] != '\0') continue;
    const int64_t left = limit - static_cast<int64_t>(out.size());
    if (left <= 0) break;
    std::vector<std::string> names = e.pattern.Instances(
        std::min<int64_t>(left, kNamesPerFamily), /*optional_forms=*/false);
    out.insert(out.end(), names.begin(), names.end());
  }
  return out;
}

}  // namespace hlolayout::cute
