// cute/atom/tiled_copy.cc: make_tiled_copy and friends, step by step as CuTe
// computes them (include/cute/atom/copy_atom.hpp).
#include "hlolayout/cute/atom/tiled_copy.h"

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "hlolayout/cute/atom/internal/tv_algebra.h"
#include "hlolayout/cute/atom/static_text.h"
#include "hlolayout/cute/coalesce.h"
#include "hlolayout/cute/composition.h"
#include "hlolayout/cute/inverse.h"
#include "hlolayout/cute/product.h"
#include "hlolayout/util/status_macros.h"

namespace hlolayout::cute {

namespace {

using atom_internal::Tuple;
using atom_internal::ZippedDivideGuided;

Tiler T(const Layout& l) { return Tiler::Of(l); }
Tiler U() { return Tiler::Underscore(); }
Tiler Tup(std::vector<Tiler> e) { return Tiler::Tuple(std::move(e)); }

// shape(Tiler_MN): each mode's integer or layout shape.
IntTuple TilerShape(const Tile& tiler) {
  std::vector<IntTuple> modes;
  for (const TileMode& m : tiler) {
    modes.push_back(m.kind() == TileMode::Kind::kInteger ? IntTuple(m.integer())
                                                         : m.layout().shape());
  }
  return IntTuple::Tuple(std::move(modes));
}

// TiledCopy::tile2thrfrg(ref, ref2trg)(_,_,0) for the reference layout
// ref = make_layout(make_shape(shape(Tiler_MN), _1)).
absl::StatusOr<Layout> ThrFrgOfTile(const Tile& tiler,
                                    const Layout& tiled_layout_tv,
                                    const CopyAtom& atom, const Layout& trg,
                                    absl::string_view op_name) {
  const Layout& ref_layout = atom.val_ref;
  const int64_t atom_thr = ref_layout.mode(0).size();
  const int64_t atom_val = ref_layout.mode(1).size();
  Layout ref;
  HLOLAYOUT_ASSIGN_OR_RETURN_PREFIXED(
      ref,
      atom_internal::StaticCompact(IntTuple::Tuple({TilerShape(tiler), 1})),
      op_name, "the reference tile");
  Layout ref2trg;
  HLOLAYOUT_ASSIGN_OR_RETURN_PREFIXED(
      ref2trg, Composition(RightInverse(ref_layout), trg), op_name,
      "the atom's reference-to-target map");
  Layout atom_tv;
  HLOLAYOUT_ASSIGN_OR_RETURN_PREFIXED(
      atom_tv,
      ZippedDivideGuided(tiled_layout_tv,
                         Tup({T(*atom_internal::StaticCompact(atom_thr)),
                              T(*atom_internal::StaticCompact(atom_val))})),
      op_name, "dividing the TV layout by the atom");
  Layout trg_tv;
  HLOLAYOUT_ASSIGN_OR_RETURN_PREFIXED(
      trg_tv, Composition(atom_tv, Tup({T(ref2trg), U()})), op_name,
      "composing with the atom");
  Layout zipped;
  HLOLAYOUT_ASSIGN_OR_RETURN_PREFIXED(zipped, atom_internal::Zip(trg_tv),
                                      op_name, "zip");
  Layout thrval2mn;
  HLOLAYOUT_ASSIGN_OR_RETURN_PREFIXED(
      thrval2mn,
      Coalesce(zipped, IntTuple::Tuple({1, IntTuple::Tuple({1, 1})})), op_name,
      "coalesce");
  Layout tv;
  HLOLAYOUT_ASSIGN_OR_RETURN_PREFIXED(
      tv, Composition(ref, Tup({T(thrval2mn), U()})), op_name, "the tile");
  // tv_tensor(make_coord(_,_), _)(_,_,0): the (thread, value) modes.
  const Layout head = tv.mode(0);
  if (!head.shape().is_tuple() || head.rank() != 2) {
    return absl::InternalError(
        absl::StrCat(op_name, ": unexpected TV layout ", StaticText(head)));
  }
  return Tuple({head.mode(0), head.mode(1)});
}

absl::StatusOr<TiledCopy> Finish(const CopyAtom& atom, Layout tiled_layout_tv,
                                 Tile tiler, absl::string_view op_name,
                                 bool check_counts) {
  const int64_t atom_thr = atom.val_ref.mode(0).size();
  const int64_t atom_val = atom.val_ref.mode(1).size();
  if (!tiled_layout_tv.shape().is_tuple() || tiled_layout_tv.rank() != 2) {
    return absl::InvalidArgumentError(absl::StrCat(op_name, ": the TV layout ",
                                                   StaticText(tiled_layout_tv),
                                                   " is not (thread, value)"));
  }
  const int64_t thr = tiled_layout_tv.mode(0).size();
  const int64_t val = tiled_layout_tv.mode(1).size();
  if (check_counts && thr % atom_thr != 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        op_name, ": TiledCopy uses too few thrs for selected CopyAtom (", thr,
        " threads, not a multiple of the atom's ", atom_thr, ")"));
  }
  if (check_counts && val % atom_val != 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        op_name, ": TiledCopy uses too few vals for selected CopyAtom (", val,
        " values per thread, not a multiple of the atom's ", atom_val, ")"));
  }
  TiledCopy tc;
  tc.atom = atom;
  tc.tiler_mn = std::move(tiler);
  tc.tiled_layout_tv = std::move(tiled_layout_tv);
  HLOLAYOUT_ASSIGN_OR_RETURN(tc.layout_s_tv,
                             ThrFrgOfTile(tc.tiler_mn, tc.tiled_layout_tv, atom,
                                          atom.val_src, op_name));
  HLOLAYOUT_ASSIGN_OR_RETURN(tc.layout_d_tv,
                             ThrFrgOfTile(tc.tiler_mn, tc.tiled_layout_tv, atom,
                                          atom.val_dst, op_name));
  return tc;
}

}  // namespace

std::vector<int64_t> TiledCopy::tile_extent() const {
  std::vector<int64_t> out;
  for (const TileMode& m : tiler_mn) out.push_back(m.size());
  return out;
}

absl::StatusOr<TiledCopy> MakeTiledCopy(const CopyAtom& atom,
                                        const Layout& thr_layout_in,
                                        const Layout& val_layout_in,
                                        bool check_counts) {
  const Layout thr_layout = atom_internal::AllStatic(thr_layout_in);
  const Layout val_layout = atom_internal::AllStatic(val_layout_in);
  const absl::string_view op_name = "make_tiled_copy";
  Layout layout_mn;
  HLOLAYOUT_ASSIGN_OR_RETURN_PREFIXED(
      layout_mn, RakedProduct(thr_layout, val_layout), op_name,
      "the raked product of the thread and value layouts");
  Layout layout_tv;
  HLOLAYOUT_ASSIGN_OR_RETURN_PREFIXED(
      layout_tv,
      atom_internal::WithShape(
          RightInverse(layout_mn),
          IntTuple::Tuple({thr_layout.size(), val_layout.size()})),
      op_name, "the TV layout");
  Tile tiler;
  const IntTuple each = atom_internal::ProductEach(layout_mn.shape());
  if (each.is_int()) {
    tiler.push_back(TileMode::Integer(each.value()));
  } else {
    for (const IntTuple& e : each.elements()) {
      tiler.push_back(TileMode::Integer(e.value()));
    }
  }
  return Finish(atom, std::move(layout_tv), std::move(tiler), op_name,
                check_counts);
}

absl::StatusOr<TiledCopy> MakeTiledCopyTv(const CopyAtom& atom,
                                          const Layout& layout_tv,
                                          Tile tiler_mn, bool check_counts) {
  return Finish(atom, atom_internal::AllStatic(layout_tv), std::move(tiler_mn),
                "make_tiled_copy", check_counts);
}

absl::StatusOr<TiledCopy> MakeTiledCopyFromMma(const CopyAtom& atom,
                                               const TiledMma& mma,
                                               Operand operand,
                                               bool check_counts) {
  const absl::string_view op_name = operand == Operand::kA ? "make_tiled_copy_A"
                                    : operand == Operand::kB
                                        ? "make_tiled_copy_B"
                                        : "make_tiled_copy_C";
  const std::array<int64_t, 2> extent = mma.tile_extent(operand);
  Tile tiler = {TileMode::Integer(extent[0]), TileMode::Integer(extent[1])};
  return Finish(atom, mma.layout_tv(operand), std::move(tiler), op_name,
                check_counts);
}

absl::StatusOr<TiledCopy> MakeTiledCopyCAtom(const CopyAtom& atom,
                                             const TiledMma& mma) {
  const absl::string_view op_name = "make_tiled_copy_C_atom";
  const Layout& layout_c = mma.layout_c_tv;
  const int64_t copy_v = atom.num_val_src();
  if (copy_v > layout_c.mode(1).size()) {
    return absl::InvalidArgumentError(
        absl::StrCat(op_name, ": the atom moves ", copy_v,
                     " values and a thread of the "
                     "tiled MMA holds ",
                     layout_c.mode(1).size()));
  }
  Layout layout_tv;
  HLOLAYOUT_ASSIGN_OR_RETURN_PREFIXED(
      layout_tv,
      Composition(layout_c, *atom_internal::StaticCompact(IntTuple::Tuple(
                                {layout_c.mode(0).size(), copy_v}))),
      op_name, "keeping one atom's values");
  const int64_t m = mma.tile_mnk[0];
  const int64_t n = mma.tile_mnk[1];
  Tile tiler;
  std::vector<Tiler> tiler_parts;
  for (int i = 0; i < 2; ++i) {
    const Layout axis = atom_internal::StaticMake(
        IntTuple::Tuple({m, n}),
        IntTuple::Tuple({i == 0 ? 1 : 0, i == 1 ? 1 : 0}));
    Layout comp;
    HLOLAYOUT_ASSIGN_OR_RETURN_PREFIXED(comp, Composition(axis, layout_tv),
                                        op_name, "the tiler");
    const Layout filtered = Filter(comp);
    tiler.push_back(TileMode::Of(filtered));
    tiler_parts.push_back(T(filtered));
  }
  Layout tile2mma;
  HLOLAYOUT_ASSIGN_OR_RETURN_PREFIXED(
      tile2mma,
      Composition(*atom_internal::StaticCompact(IntTuple::Tuple({m, n})),
                  Tup(tiler_parts)),
      op_name, "the tile-to-MMA map");
  Layout inverse;
  HLOLAYOUT_ASSIGN_OR_RETURN_PREFIXED(inverse, LeftInverse(tile2mma), op_name,
                                      "the tile-to-MMA map's inverse");
  Layout tv;
  HLOLAYOUT_ASSIGN_OR_RETURN_PREFIXED(tv, Composition(inverse, layout_tv),
                                      op_name, "the TV layout");
  return Finish(atom, std::move(tv), std::move(tiler), op_name, true);
}

absl::StatusOr<std::vector<std::array<int64_t, 2>>> CopySlice(
    const TiledCopy& copy, bool destination, int64_t thread) {
  const Layout& tv = destination ? copy.layout_d_tv : copy.layout_s_tv;
  const int64_t threads = tv.mode(0).size();
  if (thread < 0 || thread >= threads) {
    return absl::OutOfRangeError(absl::StrCat("thread ", thread,
                                              " is outside the tiled copy's ",
                                              threads, " threads"));
  }
  const int64_t values = tv.mode(1).size();
  if (values > kMaxSliceValues) {
    return absl::InvalidArgumentError(
        absl::StrCat("a thread moves ", values, " values; at most ",
                     kMaxSliceValues, " are listed"));
  }
  const std::vector<int64_t> extent = copy.tile_extent();
  const int64_t rows = extent.empty() ? 1 : extent[0];
  std::vector<std::array<int64_t, 2>> out;
  out.reserve(static_cast<size_t>(values));
  for (int64_t v = 0; v < values; ++v) {
    const int64_t index = tv(thread + threads * v);
    out.push_back({index % rows, index / rows});
  }
  return out;
}

}  // namespace hlolayout::cute
