// cute/atom/tiled_mma.h: CuTe's make_tiled_mma and the thread-value
// layouts of a tiled MMA.
//
// A TiledMMA repeats an MMA atom over an atom layout (how many atoms along
// M, N and K, and in which thread order) after permuting the M, N and K
// modes. Its TV layouts map (thread, value) to the column-major index of an
// element of the A (M x K), B (N x K) or C (M x N) tile:
//
//   MmaAtom atom = *FindMmaAtom("SM80_16x8x16_F32F16F16F32_TN");
//   TiledMma tm = *MakeTiledMma(atom, *ParseLayout("(2,1,1)"),
//                               *ParseTile("<_32,_16,_16>"));
//   StaticText(tm.thr_layout_vmnk)  == "(_32,_2,_1,_1):(_1,_32,_0,_0)"
//   TileText(tm.permutation)        == "(_32,_16,_16)"
//   StaticText(tm.layout_c_tv)
//       == "((_4,_8,_2),((_2,_2),(_1,_2))):((_64,_1,_16),((_32,_8),(_0,_256)))"
//   ThreadSlice(tm, Operand::kC, 5) == the (m, n) of each value of thread 5
//
// The layouts are built with CuTe's own sequence of operations
// (tiled_product, logical_divide, zipped_divide, composition, complement,
// right_inverse), so they print as CuTe prints them.
#ifndef HLOLAYOUT_CUTE_ATOM_TILED_MMA_H_
#define HLOLAYOUT_CUTE_ATOM_TILED_MMA_H_

#include <array>
#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "hlolayout/cute/atom/mma_atom.h"
#include "hlolayout/cute/atom/tile.h"
#include "hlolayout/cute/int_tuple.h"
#include "hlolayout/cute/layout.h"

namespace hlolayout::cute {

enum class Operand { kA, kB, kC };

struct TiledMma {
  MmaAtom atom;
  // The atom layout padded to rank 3 with 1:0 (CuTe's AtomLayoutMNK).
  Layout atom_layout_mnk;
  // tiled_product(ThrID, AtomLayoutMNK): (ThrV,ThrM,ThrN,ThrK) -> thread.
  Layout thr_layout_vmnk;
  // The permutation as given, padded to rank 3 with `_` (PermutationMNK).
  Tile permutation;
  // The tile size along M, N, K (CuTe's tile_shape(tiled_mma)).
  std::array<int64_t, 3> tile_mnk = {1, 1, 1};
  // (thread, value) -> column-major index into the M x K, N x K and M x N
  // tiles (get_layoutA_TV, get_layoutB_TV, get_layoutC_TV).
  Layout layout_a_tv;
  Layout layout_b_tv;
  Layout layout_c_tv;
  // thr_idx -> (ThrV,ThrM,ThrN,ThrK): the thread index map the TV layouts
  // are indexed by.
  Layout thridx_2_thrid;

  int64_t num_threads() const { return thr_layout_vmnk.size(); }
  const Layout& layout_tv(Operand op) const;
  // The tile extents (rows, columns) of an operand: (M,K), (N,K) or (M,N).
  std::array<int64_t, 2> tile_extent(Operand op) const;
};

// MakeTiledMma
//
// make_tiled_mma(atom, atom_layout, permutation). `atom_layout` has rank
// 1 to 3 (padded with 1:0 modes); `permutation` has at most 3 modes (padded
// with `_`), each `_` (atom size times threads along that mode), an integer
// or a layout. Errors name the step that fails (a permutation whose size the
// atom tile does not divide, for instance), never a wrong layout.
// Preconditions, checked: the atom layout's strides are non-negative and it
// is injective (CuTe's tiled_product takes its complement).
absl::StatusOr<TiledMma> MakeTiledMma(const MmaAtom& atom,
                                      const Layout& atom_layout,
                                      const Tile& permutation);

// MakeTiledMmaShell
//
// MakeTiledMma without the three TV layouts (left empty): the thread
// layout, the permutation, the tile and the thread index map, with every
// error of MakeTiledMma that is not one operand's. An operand's layout then
// comes from TiledMmaLayoutTv, alone (a caller that wants one operand does a
// third of the work):
//
//   TiledMma shell = *MakeTiledMmaShell(atom, *ParseLayout("(2,2,1)"), {});
//   StaticText(*TiledMmaLayoutTv(shell, Operand::kC))
//       == StaticText(MakeTiledMma(atom, ...)->layout_c_tv)
absl::StatusOr<TiledMma> MakeTiledMmaShell(const MmaAtom& atom,
                                           const Layout& atom_layout,
                                           const Tile& permutation);

// TiledMmaLayoutTv
//
// The TV layout of `operand` of a tiled MMA made by MakeTiledMmaShell or
// MakeTiledMma, computed as MakeTiledMma computes it, with its error
// ("make_tiled_mma: A: ...") where the permutation does not tile the atom
// along one of the operand's modes.
absl::StatusOr<Layout> TiledMmaLayoutTv(const TiledMma& tiled, Operand operand);

// ThreadSlice
//
// The tile coordinates (row, column) that thread `thread` holds in
// `operand`, in value order: entry v is (index % rows, index / rows) for
// index = layout_tv(thread, v). Error when thread is outside
// [0, num_threads) or the slice has more than kMaxSliceValues values.
inline constexpr int64_t kMaxSliceValues = 1 << 20;
absl::StatusOr<std::vector<std::array<int64_t, 2>>> ThreadSlice(
    const TiledMma& tiled, Operand operand, int64_t thread);

}  // namespace hlolayout::cute

#endif  // HLOLAYOUT_CUTE_ATOM_TILED_MMA_H_
