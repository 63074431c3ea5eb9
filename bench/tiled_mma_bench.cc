// Building a TiledMMA with its three TV layouts (make_tiled_mma and
// get_layoutA/B/C_TV, cute/atom/tiled_mma.h), the public C++ call
// `hlolayout cute tiled-mma` makes, against a named baseline in the same
// binary: tabulating the three TV layouts, i.e. evaluating every (thread,
// value) pair once, which is what a table of the answers would cost to fill.
//   ./bazelw run -c opt //bench:tiled_mma_bench
//
// Cases: an SM80 warp MMA tiled 2x2 with a layout permutation, an SM70
// quad-pair MMA, and a 64x256 GMMA tiled 2x1 (256 threads).
#include <cstdint>
#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "hlolayout/cute/atom/internal/tv_algebra.h"
#include "hlolayout/cute/atom/mma_atom.h"
#include "hlolayout/cute/atom/tile.h"
#include "hlolayout/cute/atom/tiled_mma.h"

namespace {

using namespace hlolayout::cute;  // NOLINT

struct Case {
  const char* atom;
  const char* layout;
  const char* permutation;
};

const Case kCases[] = {
    {"SM80_16x8x16_F16F16F16F16_TN", "(2,2,1)",
     "<_32,(_8,_2,_2):(_1,_16,_8),_16>"},
    {"SM70_8x8x4_F32F16F16F32_NT", "(2,2,1):(2,1,0)", "<_32,_32,_4>"},
    {"SM90_64x256x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>", "(2,1,1)",
     "<_,_,_>"},
};

struct Inputs {
  MmaAtom atom;
  Layout layout;
  Tile permutation;
};

Inputs Load(const Case& c) {
  return {*FindMmaAtom(c.atom), *atom_internal::ParseStaticLayout(c.layout),
          *ParseTile(c.permutation)};
}

void BM_MakeTiledMma(benchmark::State& state) {
  const Inputs in = Load(kCases[state.range(0)]);
  for (auto _ : state) {
    absl::StatusOr<TiledMma> tm =
        MakeTiledMma(in.atom, in.layout, in.permutation);
    benchmark::DoNotOptimize(tm);
  }
  state.SetLabel(kCases[state.range(0)].atom);
}
BENCHMARK(BM_MakeTiledMma)->DenseRange(0, 2)->Unit(benchmark::kMicrosecond);

// With the name lookup and the option parsing (the whole of the CLI's work
// but printing).
void BM_MakeTiledMmaFromText(benchmark::State& state) {
  const Case& c = kCases[state.range(0)];
  for (auto _ : state) {
    Inputs in = Load(c);
    absl::StatusOr<TiledMma> tm =
        MakeTiledMma(in.atom, in.layout, in.permutation);
    benchmark::DoNotOptimize(tm);
  }
  state.SetLabel(c.atom);
}
BENCHMARK(BM_MakeTiledMmaFromText)
    ->DenseRange(0, 2)
    ->Unit(benchmark::kMicrosecond);

// The baseline: every (thread, value) of the three TV layouts evaluated into
// a table.
void BM_TabulateTvLayouts(benchmark::State& state) {
  const Inputs in = Load(kCases[state.range(0)]);
  const TiledMma tm = *MakeTiledMma(in.atom, in.layout, in.permutation);
  std::vector<int64_t> table;
  for (auto _ : state) {
    table.clear();
    for (const Layout* l :
         {&tm.layout_a_tv, &tm.layout_b_tv, &tm.layout_c_tv}) {
      for (int64_t i = 0; i < l->size(); ++i) table.push_back((*l)(i));
    }
    benchmark::DoNotOptimize(table.data());
  }
  state.SetLabel(kCases[state.range(0)].atom);
}
BENCHMARK(BM_TabulateTvLayouts)
    ->DenseRange(0, 2)
    ->Unit(benchmark::kMicrosecond);

}  // namespace
