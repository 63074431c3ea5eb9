// cute/atom/tiled_copy.h: CuTe's make_tiled_copy and make_tiled_copy_A/B/C
// and _C_atom, and the source and destination thread-value layouts.
//
// A TiledCopy repeats a copy atom over a tile: TiledLayout_TV maps
// (thread, value) to the column-major index of an element of the Tiler_MN
// tile, in the atom's reference order; LayoutS_TV and LayoutD_TV give the
// same for the source and destination orders (get_layoutS_TV,
// get_layoutD_TV):
//
//   CopyAtom atom = *FindCopyAtom("Copy_Atom<UniversalCopy<uint128_t>,
//   half_t>"); TiledCopy tc = *MakeTiledCopy(atom,
//   *ParseLayout("(32,4):(4,1)"),
//                                 *ParseLayout("(1,8)"));
//   TileText(tc.tiler_mn)            == "(_32,_32)"
//   StaticText(tc.tiled_layout_tv)   == "((_4,_32),_8):((_256,_1),_32)"
//   StaticText(tc.layout_s_tv)       ==
//   "((_4,_32),(_8,_1)):((_256,_1),(_32,_0))"
//
// From a tiled MMA, make_tiled_copy_A/B/C take its A/B/C TV layout and tile;
// make_tiled_copy_C_atom keeps only the values one copy instruction moves and
// re-tiles to the elements they touch.
#ifndef HLOLAYOUT_CUTE_ATOM_TILED_COPY_H_
#define HLOLAYOUT_CUTE_ATOM_TILED_COPY_H_

#include <array>
#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "hlolayout/cute/atom/copy_atom.h"
#include "hlolayout/cute/atom/tile.h"
#include "hlolayout/cute/atom/tiled_mma.h"
#include "hlolayout/cute/layout.h"

namespace hlolayout::cute {

struct TiledCopy {
  CopyAtom atom;
  // Tiler_MN: a shape (integers) or, for make_tiled_copy_C_atom, layouts.
  Tile tiler_mn;
  // (thread, value) -> tile index, in the atom's Ref order.
  Layout tiled_layout_tv;
  // get_layoutS_TV(), get_layoutD_TV(): (thread, value) -> tile index.
  Layout layout_s_tv;
  Layout layout_d_tv;

  int64_t num_threads() const { return tiled_layout_tv.mode(0).size(); }
  // The tile's extent along each mode of Tiler_MN (sizes of its modes).
  std::vector<int64_t> tile_extent() const;
};

// MakeTiledCopy
//
// make_tiled_copy(atom, thr_layout, val_layout): the raked product of the
// thread layout ((m,n) -> thread) and the value layout ((m,n) -> value)
// gives the tile; TiledLayout_TV is its right inverse shaped (threads,
// values). Errors: the thread count is not a multiple of the atom's, the
// value count not a multiple of the atom's ("TiledCopy uses too few
// thrs/vals for selected CopyAtom"), or a step of the algebra fails.
// `check_counts` false skips the two count checks (CuTe's static_asserts,
// which the CuTe DSL does not make): the layouts are then those the DSL
// prints for such a copy.
absl::StatusOr<TiledCopy> MakeTiledCopy(const CopyAtom& atom,
                                        const Layout& thr_layout,
                                        const Layout& val_layout,
                                        bool check_counts = true);

// MakeTiledCopyTv
//
// make_tiled_copy(atom, layout_tv, tiler_mn), CuTe's make_tiled_copy_impl:
// the (thread, value) -> tile index layout `layout_tv` over the tile
// `tiler_mn`, as given. make_tiled_copy_S and _D are this with another tiled
// copy's layout_s_tv or layout_d_tv and its tiler. Errors as MakeTiledCopy.
absl::StatusOr<TiledCopy> MakeTiledCopyTv(const CopyAtom& atom,
                                          const Layout& layout_tv,
                                          Tile tiler_mn,
                                          bool check_counts = true);

// MakeTiledCopyFromMma
//
// make_tiled_copy_A (operand kA), _B (kB) or _C (kC): the tiled MMA's TV
// layout of that operand and its tile (M,K), (N,K) or (M,N). Errors and
// `check_counts` as MakeTiledCopy.
absl::StatusOr<TiledCopy> MakeTiledCopyFromMma(const CopyAtom& atom,
                                               const TiledMma& mma,
                                               Operand operand,
                                               bool check_counts = true);

// MakeTiledCopyCAtom
//
// make_tiled_copy_C_atom(atom, mma): the smallest tiled copy covering the
// first NumValSrc values of every thread of the C layout. Error when the
// atom moves more values than a thread holds.
absl::StatusOr<TiledCopy> MakeTiledCopyCAtom(const CopyAtom& atom,
                                             const TiledMma& mma);

// CopySlice
//
// The tile coordinates thread `thread` reads (source) or writes
// (destination), in value order; coordinates are the tile's natural
// coordinates flattened to (row, column) for a rank-2 tile. Errors as
// ThreadSlice.
absl::StatusOr<std::vector<std::array<int64_t, 2>>> CopySlice(
    const TiledCopy& copy, bool destination, int64_t thread);

}  // namespace hlolayout::cute

#endif  // HLOLAYOUT_CUTE_ATOM_TILED_COPY_H_
