// cute/smem_atoms.h: the shared-memory layout atoms of GMMA (SM90) and
// UMMA (SM100), by their CuTe names, tiled to a CTA tile.
//
//   SmemAtom a = *FindSmemAtom("GMMA::Layout_K_SW128_Atom<half_t>");
//   ToString(a.layout)  == "Sw<3,4,3> o smem_ptr[16b](unset) o
//   (_8,_64):(_64,_1)" SmemTile t = *TileSmemAtom(a, (_128,_64), none);
//   ToString(t.layout)   == "Sw<3,4,3> o smem_ptr[16b](unset) o
//                            ((_8,_16),(_64,_1)):((_64,_512),(_1,_0))"
//   ToString(t.elements) == "Sw<3,3,3> o _0 o
//   ((_8,_16),(_64,_1)):((_64,_512),(_1,_0))"
//
// The atoms are data (one table): each `_Bits` atom is a swizzle over byte
// addresses, the unset smem pointer marker and a layout in bits; the typed
// atom `Layout_..._Atom<T>` is upcast<sizeof_bits<T>> of it, as in CUTLASS.
// `layout` is what CuTe prints (the swizzle acts on byte addresses);
// `elements` is CuTe's as_position_independent_swizzle_layout, the same
// function in element offsets, what print_layout shows and what a kernel's
// smem tensor computes.
//
// Names: [cute::][SM90::]GMMA:: or UMMA::, then Layout_{MN,K}_{INTER,SW32,
// SW64,SW128}_Atom<T> or ..._Atom_Bits; UMMA::Layout_MN_SW128_32B_Atom<T>
// (_Bits); and Layout_{INTER,SW32,SW64,SW128}_Atom<T, GMMA::Major::K|MN>.
// T is any type of cute/numeric_types.h. Sparse atoms (SpAtom) are not
// supported.
#ifndef HLOLAYOUT_CUTE_SMEM_ATOMS_H_
#define HLOLAYOUT_CUTE_SMEM_ATOMS_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/optional.h"
#include "hlolayout/cute/composed_layout.h"
#include "hlolayout/cute/int_tuple.h"

namespace hlolayout::cute {

struct SmemAtom {
  // The name as given, normalized: "GMMA::Layout_K_SW128_Atom<half_t>".
  std::string name;
  // "GMMA" or "UMMA".
  std::string family;
  // K-major (the K mode is contiguous) or MN-major.
  bool k_major = true;
  // 0 (INTER), 32, 64 or 128 bytes: the swizzle's span.
  int swizzle_bytes = 0;
  // The 32-byte-atom variant of UMMA's 128-byte swizzle (SW128_32B).
  bool atom_32b = false;
  // The element width, 1 for the `_Bits` atoms.
  int value_bits = 1;
  // CuTe's layout: Sw<B,M,S> o smem_ptr[Nb](unset) o (M,K):(...).
  AnyLayout layout;
};

// FindSmemAtom
//
// The atom of `name`. Unknown names are an error listing the nearest known
// names; an unknown element type lists the known types.
absl::StatusOr<SmemAtom> FindSmemAtom(absl::string_view name);

// KnownSmemAtomNames
//
// Every atom name (typed ones written with `<T>`).
std::vector<std::string> KnownSmemAtomNames();

struct SmemTile {
  // CuTe's print, with the smem pointer marker.
  AnyLayout layout;
  // The same function in element offsets (as_position_independent...).
  AnyLayout elements;
};

// TileSmemAtom
//
// tile_to_shape(atom, shape, order) (the atom itself without a shape) and
// its position-independent form. Shapes and orders are static. Errors as
// TileToShape (a shape the atom does not divide is refused, as CuTe does).
absl::StatusOr<SmemTile> TileSmemAtom(const SmemAtom& atom,
                                      const absl::optional<IntTuple>& shape,
                                      const absl::optional<IntTuple>& order);

// PositionIndependent
//
// CuTe's as_position_independent_swizzle_layout: for Sw o smem_ptr[Nb] o L,
// recast_layout<uint8_t, N bits>(Sw) o _0 o L (an identity swizzle drops);
// any other layout is returned unchanged.
absl::StatusOr<AnyLayout> PositionIndependent(const AnyLayout& layout);

}  // namespace hlolayout::cute

#endif  // HLOLAYOUT_CUTE_SMEM_ATOMS_H_
