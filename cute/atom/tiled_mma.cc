// cute/atom/tiled_mma.cc: make_tiled_mma and get_layoutA/B/C_TV, step by
// step as CuTe computes them (include/cute/atom/mma_atom.hpp).
#include "hlolayout/cute/atom/tiled_mma.h"

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "hlolayout/cute/atom/internal/tv_algebra.h"
#include "hlolayout/cute/atom/static_text.h"
#include "hlolayout/cute/complement.h"
#include "hlolayout/cute/composition.h"
#include "hlolayout/cute/divide.h"
#include "hlolayout/cute/inverse.h"
#include "hlolayout/cute/product.h"
#include "hlolayout/util/status_macros.h"

namespace hlolayout::cute {

namespace {

using atom_internal::Tuple;
using atom_internal::ZippedDivideGuided;

constexpr absl::string_view kMakeTiledMma = "make_tiled_mma";

Tiler T(const Layout& l) { return Tiler::Of(l); }
Tiler U() { return Tiler::Underscore(); }
Tiler Tup(std::vector<Tiler> e) { return Tiler::Tuple(std::move(e)); }

// thrfrg_X: (X0,X1) tile -> ((ThrV,(Thr0,Thr1)),(FrgV,(Rest0,Rest1))).
absl::StatusOr<Layout> Thrfrg(const Layout& ref, const TileMode& perm0,
                              const TileMode& perm1, int64_t atom0,
                              int64_t atom1, const Layout& atom_tv,
                              int64_t thr0, int64_t thr1) {
  Layout t_tensor;
  HLOLAYOUT_ASSIGN_OR_RETURN_PREFIXED(
      t_tensor, LogicalDivide(ref, Tup({T(perm0.layout()), T(perm1.layout())})),
      kMakeTiledMma, "permuting the tile");
  Layout c_tensor;
  HLOLAYOUT_ASSIGN_OR_RETURN_PREFIXED(
      c_tensor,
      ZippedDivideGuided(t_tensor,
                         Tup({T(*atom_internal::StaticCompact(atom0)),
                              T(*atom_internal::StaticCompact(atom1))})),
      kMakeTiledMma, "dividing the tile by the atom");
  Layout tv_tensor;
  HLOLAYOUT_ASSIGN_OR_RETURN_PREFIXED(
      tv_tensor, Composition(c_tensor, Tup({T(atom_tv), U()})), kMakeTiledMma,
      "composing with the atom's TV layout");
  Layout thr_tensor;
  HLOLAYOUT_ASSIGN_OR_RETURN_PREFIXED(
      thr_tensor,
      ZippedDivideGuided(
          tv_tensor, Tup({U(), Tup({T(*atom_internal::StaticCompact(thr0)),
                                    T(*atom_internal::StaticCompact(thr1))})})),
      kMakeTiledMma, "dividing by the thread layout");
  return thr_tensor;
}

}  // namespace

const Layout& TiledMma::layout_tv(Operand op) const {
  switch (op) {
    case Operand::kA:
      return layout_a_tv;
    case Operand::kB:
      return layout_b_tv;
    case Operand::kC:
      break;
  }
  return layout_c_tv;
}

std::array<int64_t, 2> TiledMma::tile_extent(Operand op) const {
  switch (op) {
    case Operand::kA:
      return {tile_mnk[0], tile_mnk[2]};
    case Operand::kB:
      return {tile_mnk[1], tile_mnk[2]};
    case Operand::kC:
      break;
  }
  return {tile_mnk[0], tile_mnk[1]};
}

namespace {

// What the operands' TV layouts are built from: the permutation of each of
// M, N, K with `_` resolved, the atom's and the thread layout's extents
// along them, the tile, and the map thr_idx -> (ThrV,ThrM,ThrN,ThrK).
struct MmaTiling {
  std::array<TileMode, 3> perm;
  std::array<int64_t, 3> atom_mnk;
  std::array<int64_t, 3> thr_mnk;
  std::array<int64_t, 3> tile_mnk;
  // The tiled MMA's thread index map (owned by the TiledMma).
  const Layout* thridx_2_thrid = nullptr;
};

// The tiling of a tiled MMA whose thread layout and permutation are set:
// permutation_mnk<I>(), where `_` is AtomShape_I * ThrLayout_I.
MmaTiling TilingOf(const TiledMma& tm) {
  const Layout& vmnk = tm.thr_layout_vmnk;
  MmaTiling t;
  t.atom_mnk = {tm.atom.shape_mnk[0].value(), tm.atom.shape_mnk[1].value(),
                tm.atom.shape_mnk[2].value()};
  t.thr_mnk = {vmnk.mode(1).size(), vmnk.mode(2).size(), vmnk.mode(3).size()};
  for (int i = 0; i < 3; ++i) {
    if (tm.permutation[i].is_underscore()) {
      t.perm[i] = TileMode::Integer(t.atom_mnk[i] * t.thr_mnk[i]);
    } else {
      t.perm[i] = tm.permutation[i];
    }
    t.tile_mnk[i] = t.perm[i].size();
  }
  t.thridx_2_thrid = &tm.thridx_2_thrid;
  return t;
}

// append<3>(thr_layout, Layout<_1,_0>{}), made static.
absl::StatusOr<Layout> PadAtomLayout(const Layout& atom_layout) {
  const Layout static_layout = atom_internal::AllStatic(atom_layout);
  std::vector<Layout> modes = static_layout.modes();
  if (!static_layout.shape().is_tuple()) modes = {static_layout};
  while (modes.size() < 3) modes.push_back(Layout());  // 1:0
  Layout padded;
  HLOLAYOUT_ASSIGN_OR_RETURN_PREFIXED(padded, Tuple(modes), kMakeTiledMma,
                                      "padding the atom layout");
  return padded;
}

// thr_idx -> (ThrV,ThrM,ThrN,ThrK): the right inverse of the thread layout
// completed by its complement, restricted to the threads.
absl::StatusOr<Layout> ThreadIndexMap(const Layout& vmnk) {
  Layout comp;
  HLOLAYOUT_ASSIGN_OR_RETURN_PREFIXED(comp, Complement(vmnk), kMakeTiledMma,
                                      "the thread layout's complement");
  Layout both;
  HLOLAYOUT_ASSIGN_OR_RETURN_PREFIXED(both, Tuple({vmnk, comp}), kMakeTiledMma,
                                      "the thread layout");
  const Layout inv = RightInverse(both);
  const Layout head = atom_internal::StaticMake(
      IntTuple::Tuple({vmnk.size(), 1}), IntTuple::Tuple({1, 0}));
  Layout map;
  HLOLAYOUT_ASSIGN_OR_RETURN_PREFIXED(map, Composition(head, inv),
                                      kMakeTiledMma, "thread index map");
  return map;
}

// C: the M x N tile's thread fragment, indexed by thread.
absl::StatusOr<Layout> CTv(const MmaTiling& t, const Layout& atom_c_tv) {
  Layout ref;
  HLOLAYOUT_ASSIGN_OR_RETURN_PREFIXED(
      ref,
      atom_internal::StaticCompact(
          IntTuple::Tuple({t.tile_mnk[0], t.tile_mnk[1]})),
      kMakeTiledMma, "the C tile");
  Layout thr;
  HLOLAYOUT_ASSIGN_OR_RETURN_PREFIXED(
      thr,
      Thrfrg(ref, t.perm[0], t.perm[1], t.atom_mnk[0], t.atom_mnk[1], atom_c_tv,
             t.thr_mnk[0], t.thr_mnk[1]),
      kMakeTiledMma, "C");
  Layout tv;
  HLOLAYOUT_ASSIGN_OR_RETURN_PREFIXED(
      tv, Composition(thr, Tup({T(*t.thridx_2_thrid), U()})), kMakeTiledMma,
      "C: thread index");
  return tv;
}

// A: (ThrV,(ThrM,ThrK)) -> (ThrV,(ThrM,ThrN,ThrK)), and B the same with
// N for M: the operand's thread fragment over tile dims `row` x `col`,
// spread over the third mode's threads (stride 0), then indexed by thread.
absl::StatusOr<Layout> OperandTv(const MmaTiling& t, int row, int col,
                                 const Layout& atom_tv, IntTuple spread_stride,
                                 absl::string_view name) {
  const std::string label(name);
  Layout ref;
  HLOLAYOUT_ASSIGN_OR_RETURN_PREFIXED(
      ref,
      atom_internal::StaticCompact(
          IntTuple::Tuple({t.tile_mnk[row], t.tile_mnk[col]})),
      kMakeTiledMma, "the " + label + " tile");
  Layout thr;
  HLOLAYOUT_ASSIGN_OR_RETURN_PREFIXED(
      thr,
      Thrfrg(ref, t.perm[row], t.perm[col], t.atom_mnk[row], t.atom_mnk[col],
             atom_tv, t.thr_mnk[row], t.thr_mnk[col]),
      kMakeTiledMma, label);
  const Layout mn = atom_internal::StaticMake(
      IntTuple::Tuple({t.thr_mnk[0], t.thr_mnk[1]}), std::move(spread_stride));
  Layout spread;
  HLOLAYOUT_ASSIGN_OR_RETURN_PREFIXED(
      spread, Composition(thr, Tup({Tup({U(), Tup({T(mn), U()})}), U()})),
      kMakeTiledMma,
      label + (row == 0 ? ": spreading over N" : ": spreading over M"));
  Layout tv;
  HLOLAYOUT_ASSIGN_OR_RETURN_PREFIXED(
      tv, Composition(spread, Tup({T(*t.thridx_2_thrid), U()})), kMakeTiledMma,
      label + ": thread index");
  return tv;
}

}  // namespace

absl::StatusOr<TiledMma> MakeTiledMmaShell(const MmaAtom& atom,
                                           const Layout& atom_layout,
                                           const Tile& permutation) {
  TiledMma tm;
  tm.atom = atom;
  if (atom_layout.rank() > 3) {
    return absl::InvalidArgumentError(absl::StrCat(
        "make_tiled_mma: the atom layout ", StaticText(atom_layout), " has ",
        atom_layout.rank(), " modes; at most 3 (M, N, K)"));
  }
  if (permutation.size() > 3) {
    return absl::InvalidArgumentError(absl::StrCat(
        "make_tiled_mma: the permutation ", TileText(permutation), " has ",
        permutation.size(), " modes; at most 3 (M, N, K)"));
  }
  HLOLAYOUT_ASSIGN_OR_RETURN(tm.atom_layout_mnk, PadAtomLayout(atom_layout));
  tm.permutation = permutation;
  while (tm.permutation.size() < 3) tm.permutation.push_back(TileMode());

  HLOLAYOUT_ASSIGN_OR_RETURN_PREFIXED(
      tm.thr_layout_vmnk,
      TiledProduct(atom.thr_id, Tiler::Of(tm.atom_layout_mnk)), kMakeTiledMma,
      "tiling the atom's threads");
  const MmaTiling t = TilingOf(tm);
  tm.tile_mnk = t.tile_mnk;
  HLOLAYOUT_ASSIGN_OR_RETURN(tm.thridx_2_thrid,
                             ThreadIndexMap(tm.thr_layout_vmnk));
  return tm;
}

absl::StatusOr<Layout> TiledMmaLayoutTv(const TiledMma& tiled,
                                        Operand operand) {
  const MmaTiling t = TilingOf(tiled);
  switch (operand) {
    case Operand::kA:
      return OperandTv(t, 0, 2, tiled.atom.layout_a_tv, IntTuple::Tuple({1, 0}),
                       "A");
    case Operand::kB:
      return OperandTv(t, 1, 2, tiled.atom.layout_b_tv, IntTuple::Tuple({0, 1}),
                       "B");
    case Operand::kC:
      break;
  }
  return CTv(t, tiled.atom.layout_c_tv);
}

absl::StatusOr<TiledMma> MakeTiledMma(const MmaAtom& atom,
                                      const Layout& atom_layout,
                                      const Tile& permutation) {
  HLOLAYOUT_ASSIGN_OR_RETURN(TiledMma tm,
                             MakeTiledMmaShell(atom, atom_layout, permutation));
  HLOLAYOUT_ASSIGN_OR_RETURN(tm.layout_c_tv, TiledMmaLayoutTv(tm, Operand::kC));
  HLOLAYOUT_ASSIGN_OR_RETURN(tm.layout_a_tv, TiledMmaLayoutTv(tm, Operand::kA));
  HLOLAYOUT_ASSIGN_OR_RETURN(tm.layout_b_tv, TiledMmaLayoutTv(tm, Operand::kB));
  return tm;
}

absl::StatusOr<std::vector<std::array<int64_t, 2>>> ThreadSlice(
    const TiledMma& tiled, Operand operand, int64_t thread) {
  const Layout& tv = tiled.layout_tv(operand);
  const int64_t threads = tv.mode(0).size();
  if (thread < 0 || thread >= threads) {
    return absl::OutOfRangeError(absl::StrCat("thread ", thread,
                                              " is outside the tiled MMA's ",
                                              threads, " threads"));
  }
  const Layout values = tv.mode(1);
  if (values.size() > kMaxSliceValues) {
    return absl::InvalidArgumentError(
        absl::StrCat("a thread holds ", values.size(), " values; at most ",
                     kMaxSliceValues, " are listed"));
  }
  const int64_t rows = tiled.tile_extent(operand)[0];
  std::vector<std::array<int64_t, 2>> out;
  out.reserve(static_cast<size_t>(values.size()));
  for (int64_t v = 0; v < values.size(); ++v) {
    const int64_t index = tv(thread + threads * v);
    out.push_back({index % rows, index / rows});
  }
  return out;
}

}  // namespace hlolayout::cute
