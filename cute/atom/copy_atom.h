// cute/atom/copy_atom.h: CuTe's copy atoms, Copy_Atom<OP, T>.
//
// A copy operation (Copy_Traits<OP>) says which threads take part (ThrID)
// and, in bits, which bit each (thread, bit) pair reads (SrcLayout), writes
// (DstLayout) and the reference order the tiled copy is written in
// (RefLayout). Copy_Atom<OP, T> recasts the three from bits to values of T
// (CuTe's recast_layout<uint1_t, T>, an upcast by sizeof_bits<T>):
//
//   CopyAtom a = *FindCopyAtom("Copy_Atom<SM75_U32x4_LDSM_N, half_t>");
//   StaticText(a.thr_id)       == "_32:_1"
//   StaticText(a.src_bits)     == "(_32,_128):(_128,_1)"
//   StaticText(a.val_src)      == "(_32,_8):(_8,_1)"
//   StaticText(a.val_dst)      == "(_32,(_2,_4)):(_2,(_1,_64))"
//
// The operations are data (cute/atom/copy_table_*.cc): UniversalCopy,
// DefaultCopy, AutoVectorizingCopy[WithAssumedAlignment], the SM50 shuffles,
// SM75 LDSM and MOVM, SM80 cp.async (with ZFILL), SM90 STSM, and SM100's
// loads, stores, 8-bit LDSM/STSM, UTCCP and tensor-memory loads and stores.
#ifndef HLOLAYOUT_CUTE_ATOM_COPY_ATOM_H_
#define HLOLAYOUT_CUTE_ATOM_COPY_ATOM_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "hlolayout/cute/layout.h"

namespace hlolayout::cute {

// CopyOp
//
// Copy_Traits<OP>: the operation alone, in bits.
struct CopyOp {
  std::string name;    // canonical C++ name
  std::string family;  // "sm75", "sm80_cp_async", "sm100_tmem", ...
  Layout thr_id;
  Layout src_bits;  // (thread, bit) -> bit
  Layout dst_bits;
  Layout ref_bits;
};

struct CopyAtom {
  CopyOp op;
  std::string value_type;  // canonical, e.g. "half_t"
  int value_bits = 0;
  // (thread, value) -> value, in values of value_type.
  Layout val_src;
  Layout val_dst;
  Layout val_ref;

  // "Copy_Atom<OP,T>" in canonical form.
  std::string name() const;
  int64_t num_val_src() const { return val_src.mode(1).size(); }
  int64_t num_val_dst() const { return val_dst.mode(1).size(); }
};

// FindCopyOp
//
// The operation named `name` (white space and qualifiers accepted, as for
// FindMmaAtom). Errors: a malformed name (located), an unknown one (the
// nearest known names), parameters outside a family's domain.
absl::StatusOr<CopyOp> FindCopyOp(absl::string_view name);

// FindCopyAtom
//
// `Copy_Atom<OP, T>`. Errors as FindCopyOp, an unknown value type, and
// CuTe's own refusals: a bit layout that T's width does not divide, or a
// recast whose thread count differs from ThrID ("CopyOperation is not valid
// for Src of ValType").
absl::StatusOr<CopyAtom> FindCopyAtom(absl::string_view name);

// MakeCopyAtom
//
// Copy_Atom<op, value_type> for a known operation.
absl::StatusOr<CopyAtom> MakeCopyAtom(const CopyOp& op,
                                      absl::string_view value_type);

// FitsAnAtomFamily
//
// Whether an error of FindMmaAtom, FindCopyOp or FindCopyAtom says that the
// name is one of a family's with parameter values the family does not take
// ("unknown copy operation 'X' (family sm75): ..."), rather than listing
// the nearest names of unrelated atoms.
bool FitsAnAtomFamily(const absl::Status& status);

// IsCopyAtomName
//
// True when `name` is written Copy_Atom<...> (after white space).
bool IsCopyAtomName(absl::string_view name);

// NearestCopyOpNames
//
// The `count` copy operation names nearest `name` (by util/edit_distance.h,
// over the first 64 names of each table row), nearest first.
std::vector<std::string> NearestCopyOpNames(absl::string_view name,
                                            size_t count);

struct CopyFamilyInfo {
  std::string family;
  // The name pattern and its parameters' domains, whole: "SM90_64x{N}x16_
  // {T}_SS<{MA},{MB}{SC}> with N in 8|16|32|64|96|128|192|256, T in ...".
  std::string pattern;
  int64_t count;  // names the pattern describes (optional arguments aside)
  // The pattern alone, and each parameter's name and domain as above.
  std::string name_pattern;
  std::vector<std::pair<std::string, std::string>> domains;
};
std::vector<CopyFamilyInfo> CopyOpFamilies();

// AllCopyOpNames
//
// Every operation name the tables describe, at most `limit`.
std::vector<std::string> AllCopyOpNames(int64_t limit);

}  // namespace hlolayout::cute

#endif  // HLOLAYOUT_CUTE_ATOM_COPY_ATOM_H_
