// cute/atom/mma_atom.h: CuTe's MMA atoms by their C++ names.
//
// An MMA atom is one hardware matrix-multiply instruction as CuTe describes
// it (MMA_Traits<Op>): the threads that execute it (ThrID), its M x N x K
// shape, and for each operand a thread-value layout mapping (thread, value)
// to the column-major index of an element of the A (M x K), B (N x K) or
// C (M x N) tile.
//
//   MmaAtom a = *FindMmaAtom("SM80_16x8x16_F16F16F16F16_TN");
//   StaticText(a.thr_id)      == "_32:_1"
//   StaticText(a.shape_mnk)   == "(_16,_8,_16)"
//   StaticText(a.layout_a_tv) ==
//   "((_4,_8),(_2,_2,_2)):((_32,_1),(_16,_8,_128))"
//
//   FindMmaAtom("SM90_64x128x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::MN>")
//   FindMmaAtom("SM100_MMA_F16BF16_SS<half_t,half_t,float,128,256,"
//               "UMMA::Major::K,UMMA::Major::K>")
//
// Every atom of CuTe's SM61, SM70, SM75, SM80, SM89, SM90 (DMMA and GMMA,
// with the extended N), SM100 (UMMA and FFMA2) and SM120 headers is known,
// plus UniversalFMA<D,A,B,C> (docs/cute.md, "Atoms", lists the families and
// what is left out). The atoms are data (cute/atom/mma_tables_*.cc), one
// table per family, parameterised where CuTe generates a family by a rule.
#ifndef HLOLAYOUT_CUTE_ATOM_MMA_ATOM_H_
#define HLOLAYOUT_CUTE_ATOM_MMA_ATOM_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "hlolayout/cute/int_tuple.h"
#include "hlolayout/cute/layout.h"

namespace hlolayout::cute {

struct MmaAtom {
  std::string name;    // canonical C++ name (atom_internal::CanonicalAtomName)
  std::string family;  // "sm80", "sm90_gmma", "sm100_umma", ...
  Layout thr_id;       // logical thread -> thread index
  IntTuple shape_mnk;  // (M,N,K)
  Layout layout_a_tv;  // (thread, value) -> m + M*k
  Layout layout_b_tv;  // (thread, value) -> n + N*k
  Layout layout_c_tv;  // (thread, value) -> m + M*n
};

// FindMmaAtom
//
// The atom named `name` (white space, `cute::`/`cutlass::` qualifiers and a
// `MMA_Atom<...>` or `MMA_Traits<...>` wrapper are accepted). Errors:
//   a malformed name: located, with a caret;
//   an unknown name: "unknown MMA atom 'X'; nearest: A, B, C";
//   a known family with a parameter out of its domain: the family's pattern
//   and domains ("N in 8|16|...");
//   an atom CuTe defines but cannot use (the SM80 16x8x128 POPC atoms, whose
//   LayoutA_TV CuTe writes with mismatched ranks): a sentence saying so.
absl::StatusOr<MmaAtom> FindMmaAtom(absl::string_view name);

// NearestMmaAtomNames
//
// The `count` MMA atom names nearest `name` (by util/edit_distance.h, over
// the first 64 names of each table row), nearest first.
std::vector<std::string> NearestMmaAtomNames(absl::string_view name,
                                             size_t count);

// MmaAtomFamilies
//
// Each family's patterns as text with their parameter domains (for
// `hlolayout cute atoms` and the docs), in table order.
struct MmaFamilyInfo {
  std::string family;
  // The name pattern and its parameters' domains, whole: "SM90_64x{N}x16_
  // {T}_SS<{MA},{MB}{SC}> with N in 8|16|32|64|96|128|192|256, T in ...".
  std::string pattern;
  int64_t count;  // names the pattern describes (optional arguments aside)
  // The pattern alone, and each parameter's name and domain as above.
  std::string name_pattern;
  std::vector<std::pair<std::string, std::string>> domains;
};
std::vector<MmaFamilyInfo> MmaAtomFamilies();

// AllMmaAtomNames
//
// The names the tables describe (all parameter values; optional scale and
// saturate arguments only in their shortest form), the first
// kNamesPerFamily of each table row (UniversalFMA alone has 51^4), at most
// `limit` in all.
inline constexpr int64_t kNamesPerFamily = 4096;
std::vector<std::string> AllMmaAtomNames(int64_t limit);

}  // namespace hlolayout::cute

#endif  // HLOLAYOUT_CUTE_ATOM_MMA_ATOM_H_
