// cute/atom/copy_atom.cc: looking copy operations up and recasting them.
#include "hlolayout/cute/atom/copy_atom.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"
#include "hlolayout/cute/atom/internal/atom_lookup.h"
#include "hlolayout/cute/atom/internal/copy_table.h"
#include "hlolayout/cute/atom/internal/name_pattern.h"
#include "hlolayout/cute/atom/internal/tv_algebra.h"
#include "hlolayout/cute/atom/static_text.h"
#include "hlolayout/cute/parse.h"
#include "hlolayout/util/edit_distance.h"
#include "hlolayout/util/status_macros.h"

namespace hlolayout::cute {

namespace {

using atom_internal::Bindings;
using atom_internal::CopyRow;

using Entry = atom_internal::CompiledRow<CopyRow>;
using atom_internal::TableLayout;

const std::vector<Entry>& Entries() {
  static const std::vector<Entry>* entries = new std::vector<Entry>(
      atom_internal::CompileRows(atom_internal::CopyTables()));
  return *entries;
}

absl::StatusOr<CopyOp> FindCanonicalOp(const std::string& name) {
  HLOLAYOUT_ASSIGN_OR_RETURN(
      auto match, atom_internal::MatchRow(Entries(), "copy operation", name));
  const atom_internal::CopyRow& row = *match.first->row;
  const Bindings& b = match.second;
  CopyOp op;
  op.name = name;
  op.family = row.family;
  HLOLAYOUT_ASSIGN_OR_RETURN(op.thr_id, TableLayout(row.thr_id, b));
  HLOLAYOUT_ASSIGN_OR_RETURN(op.src_bits, TableLayout(row.src, b));
  HLOLAYOUT_ASSIGN_OR_RETURN(op.dst_bits, TableLayout(row.dst, b));
  HLOLAYOUT_ASSIGN_OR_RETURN(op.ref_bits, TableLayout(row.ref, b));
  return op;
}

absl::StatusOr<Layout> Recast(const CopyOp& op, const Layout& bits,
                              absl::string_view which, int value_bits,
                              absl::string_view value_type) {
  absl::StatusOr<Layout> v = atom_internal::Upcast(bits, value_bits);
  if (!v.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("Copy_Atom<", op.name, ",", value_type, ">: the ", which,
                     " layout ", StaticText(bits), " cannot be read in ",
                     value_bits, "-bit values (", v.status().message(), ")"));
  }
  const int64_t threads = v->shape().is_tuple() ? v->mode(0).size() : v->size();
  if (threads != op.thr_id.size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Copy_Atom<", op.name, ",", value_type,
        ">: CopyOperation is not valid for ", which, " of ValType (", which,
        " in values is ", StaticText(*v), ", ", threads,
        " threads against ThrID's ", op.thr_id.size(), ")"));
  }
  return v;
}

}  // namespace

std::string CopyAtom::name() const {
  return absl::StrCat("Copy_Atom<", op.name, ",", value_type, ">");
}

absl::StatusOr<CopyOp> FindCopyOp(absl::string_view text) {
  HLOLAYOUT_ASSIGN_OR_RETURN(std::string name,
                             atom_internal::CanonicalAtomName(text));
  absl::string_view v = name;
  if (absl::ConsumePrefix(&v, "Copy_Traits<") && absl::ConsumeSuffix(&v, ">")) {
    name = std::string(v);
  }
  return FindCanonicalOp(name);
}

bool FitsAnAtomFamily(const absl::Status& status) {
  return atom_internal::FitsAFamily(status);
}

bool IsCopyAtomName(absl::string_view name) {
  name = absl::StripLeadingAsciiWhitespace(name);
  absl::ConsumePrefix(&name, "cute::");
  return absl::StartsWith(name, "Copy_Atom");
}

absl::StatusOr<CopyAtom> MakeCopyAtom(const CopyOp& op,
                                      absl::string_view value_type) {
  absl::optional<int> bits = atom_internal::TypeBits(value_type);
  if (!bits) {
    const std::vector<std::string> known = atom_internal::KnownTypeNames();
    return absl::NotFoundError(absl::StrCat(
        "unknown value type '", value_type,
        "'; nearest: ", absl::StrJoin(NearestNames(value_type, known, 3), ", "),
        "; value types: ", absl::StrJoin(known, ", "),
        ", and complex<T> of float, double, half_t, bfloat16_t, tfloat32_t"));
  }
  CopyAtom atom;
  atom.op = op;
  atom.value_type = std::string(value_type);
  atom.value_bits = *bits;
  HLOLAYOUT_ASSIGN_OR_RETURN(atom.val_src,
                             Recast(op, op.src_bits, "Src", *bits, value_type));
  HLOLAYOUT_ASSIGN_OR_RETURN(atom.val_dst,
                             Recast(op, op.dst_bits, "Dst", *bits, value_type));
  HLOLAYOUT_ASSIGN_OR_RETURN(atom.val_ref,
                             Recast(op, op.ref_bits, "Ref", *bits, value_type));
  return atom;
}

absl::StatusOr<CopyAtom> FindCopyAtom(absl::string_view text) {
  HLOLAYOUT_ASSIGN_OR_RETURN(std::string name,
                             atom_internal::CanonicalAtomName(text));
  absl::string_view inner = name;
  if (!absl::ConsumePrefix(&inner, "Copy_Atom<") ||
      !absl::ConsumeSuffix(&inner, ">")) {
    return absl::InvalidArgumentError(
        absl::StrCat("expected Copy_Atom<OP, T>, found '", name, "'"));
  }
  // The last top-level argument is T; the operation may hold commas.
  int depth = 0;
  size_t comma = absl::string_view::npos;
  for (size_t i = 0; i < inner.size(); ++i) {
    if (inner[i] == '<') ++depth;
    if (inner[i] == '>') --depth;
    if (inner[i] == ',' && depth == 0) comma = i;
  }
  if (comma == absl::string_view::npos) {
    return absl::InvalidArgumentError(
        absl::StrCat("Copy_Atom<", inner,
                     "> needs two arguments, the operation and the value "
                     "type: Copy_Atom<OP, T>"));
  }
  const std::string op_name(inner.substr(0, comma));
  absl::string_view value_type = inner.substr(comma + 1);
  HLOLAYOUT_ASSIGN_OR_RETURN(CopyOp op, FindCanonicalOp(op_name));
  return MakeCopyAtom(op, value_type);
}

std::vector<std::string> NearestCopyOpNames(absl::string_view name,
                                            size_t count) {
  std::vector<const atom_internal::NamePattern*> patterns;
  for (const Entry& e : Entries()) patterns.push_back(&e.pattern);
  return atom_internal::NearestInstances(name, patterns, count);
}

std::vector<CopyFamilyInfo> CopyOpFamilies() {
  std::vector<CopyFamilyInfo> out;
  for (const Entry& e : Entries()) {
    out.push_back({e.row->family, e.pattern.Display(), e.pattern.Count(false),
                   e.pattern.pattern(), e.pattern.Domains()});
  }
  return out;
}

std::vector<std::string> AllCopyOpNames(int64_t limit) {
  std::vector<std::string> out;
  for (const Entry& e : Entries()) {
    const int64_t left = limit - static_cast<int64_t>(out.size());
    if (left <= 0) break;
    std::vector<std::string> names = e.pattern.Instances(left, false);
    out.insert(out.end(), names.begin(), names.end());
  }
  return out;
}

}  // namespace hlolayout::cute
