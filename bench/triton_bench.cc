// Triton layouts (issue 24): applying a LinearLayout to every input, the
// conversion map invertAndCompose, pseudoinvert and a named-layout
// conversion, each against a named baseline in the same binary.
//   ./bazelw run -c opt //bench:triton_bench
//
// The layouts are those of a Hopper GEMM: the MMA v3 accumulator
// (#ttg.nvidia_mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape =
// [16, 64, 16]}>) and a blocked layout. Apply runs over every one of the 2^16
// inputs (register, lane, warp) of the accumulator of a 256x256 tile; the
// other benchmarks use 128x128 tiles.
//
// Baselines:
//   apply       - BM_ApplyPerSetBitPacked: per input, XOR a packed word
//                 per set bit (the tightest per-set-bit loop);
//                 BM_ApplyPerSetBit: the same through
//                 LinearLayout::ApplyIndexed (Triton's apply without its
//                 name lookups, one value per in-dim and out-dim);
//                 BM_ApplyByName: Triton's own interface, named (in-dim,
//                 value) pairs per call.
//   invertAndCompose / pseudoinvert - by enumeration: tabulate where each
//                 element lives, then read the answer off the table (what
//                 one would write without F2 algebra).
//   named conversion - per-element ownership of a blocked layout by the
//                 legacy div/mod formula, for every element.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "benchmark/benchmark.h"
#include "hlolayout/triton/evaluator.h"
#include "hlolayout/triton/linear_layout.h"
#include "hlolayout/triton/named_layouts.h"
#include "hlolayout/triton/ops.h"

namespace {

using hlolayout::triton::BlockedLayout;
using hlolayout::triton::Layout;
using hlolayout::triton::LayoutEvaluator;
using hlolayout::triton::LinearLayout;
using hlolayout::triton::NamedInts;
using hlolayout::triton::NvidiaMmaLayout;

Layout Mma() {
  NvidiaMmaLayout m;
  m.version_major = 3;
  m.warps_per_cta = {4, 1};
  m.instr_shape = {16, 64, 16};
  return Layout(m);
}

Layout Blocked() {
  return Layout(BlockedLayout{{1, 4}, {4, 8}, {4, 1}, {1, 0}, {}});
}

LinearLayout MmaLayout(int64_t n) {
  return *hlolayout::triton::ToLinearLayout(Mma(), {n, n});
}

LinearLayout BlockedLayout128() {
  return *hlolayout::triton::ToLinearLayout(Blocked(), {128, 128});
}

void BM_ApplyEvaluator(benchmark::State& state) {
  const LinearLayout l = MmaLayout(256);
  const LayoutEvaluator e(l);
  const uint64_t n = static_cast<uint64_t>(l.TotalInDimSize());
  for (auto _ : state) {
    uint64_t acc = 0;
    for (uint64_t x = 0; x < n; ++x) acc += e.Apply(x);
    benchmark::DoNotOptimize(acc);
  }
  state.SetItemsProcessed(state.iterations() * n);
}
BENCHMARK(BM_ApplyEvaluator);

void BM_ApplyAllEvaluator(benchmark::State& state) {
  const LinearLayout l = MmaLayout(256);
  const LayoutEvaluator e(l);
  std::vector<uint64_t> out(l.TotalInDimSize());
  for (auto _ : state) {
    e.ApplyAll(absl::MakeSpan(out));
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * out.size());
}
BENCHMARK(BM_ApplyAllEvaluator);

void BM_ApplyPerSetBit(benchmark::State& state) {
  const LinearLayout l = MmaLayout(256);
  const int64_t n = l.TotalInDimSize();
  std::vector<int32_t> ins(l.num_in_dims()), outs(l.num_out_dims());
  for (auto _ : state) {
    uint64_t acc = 0;
    for (int64_t x = 0; x < n; ++x) {
      int64_t rest = x;
      for (int d = 0; d < l.num_in_dims(); ++d) {
        ins[d] = static_cast<int32_t>(rest & (l.InDimSize(d) - 1));
        rest >>= l.InDimSizeLog2(d);
      }
      l.ApplyIndexed(ins, absl::MakeSpan(outs));
      acc += static_cast<uint32_t>(outs[0]) + (uint64_t{1} << 20) * outs[1];
    }
    benchmark::DoNotOptimize(acc);
  }
  state.SetItemsProcessed(state.iterations() * n);
}
BENCHMARK(BM_ApplyPerSetBit);

// The tightest per-set-bit loop: one packed output word per input bit
// (out-dims side by side, as the evaluator packs them), XORed for each set
// bit of the packed input.
void BM_ApplyPerSetBitPacked(benchmark::State& state) {
  const LinearLayout l = MmaLayout(256);
  const LayoutEvaluator e(l);
  const int bits = l.TotalInDimSizeLog2();
  std::vector<uint64_t> basis(bits);
  for (int b = 0; b < bits; ++b) basis[b] = e.Apply(uint64_t{1} << b);
  const uint64_t n = static_cast<uint64_t>(l.TotalInDimSize());
  for (auto _ : state) {
    uint64_t acc = 0;
    for (uint64_t x = 0; x < n; ++x) {
      uint64_t r = 0;
      for (uint64_t v = x; v != 0; v &= v - 1) r ^= basis[__builtin_ctzll(v)];
      acc += r;
    }
    benchmark::DoNotOptimize(acc);
  }
  state.SetItemsProcessed(state.iterations() * n);
}
BENCHMARK(BM_ApplyPerSetBitPacked);

void BM_ApplyByName(benchmark::State& state) {
  const LinearLayout l = MmaLayout(256);
  const int64_t n = l.TotalInDimSize();
  NamedInts ins;
  for (int d = 0; d < l.num_in_dims(); ++d)
    ins.emplace_back(l.in_dim_name(d), 0);
  for (auto _ : state) {
    uint64_t acc = 0;
    for (int64_t x = 0; x < n; ++x) {
      int64_t rest = x;
      for (int d = 0; d < l.num_in_dims(); ++d) {
        ins[d].second = static_cast<int32_t>(rest & (l.InDimSize(d) - 1));
        rest >>= l.InDimSizeLog2(d);
      }
      acc += (*l.Apply(ins))[0].second;
    }
    benchmark::DoNotOptimize(acc);
  }
  state.SetItemsProcessed(state.iterations() * n);
}
BENCHMARK(BM_ApplyByName);

void BM_InvertAndCompose128(benchmark::State& state) {
  const LinearLayout src = BlockedLayout128();
  const LinearLayout dst = MmaLayout(128);
  for (auto _ : state) {
    benchmark::DoNotOptimize(hlolayout::triton::InvertAndCompose(dst, src));
  }
}
BENCHMARK(BM_InvertAndCompose128);

// For each hardware position of dst, the position of src holding the same
// element: a table element -> src position, then one lookup per position.
void BM_InvertAndComposeByEnumeration(benchmark::State& state) {
  const LinearLayout src = BlockedLayout128();
  const LinearLayout dst = MmaLayout(128);
  const LayoutEvaluator es(src), ed(dst);
  const int64_t n = src.TotalInDimSize();
  std::vector<uint32_t> where(src.TotalOutDimSize());
  std::vector<uint32_t> map(n);
  for (auto _ : state) {
    for (int64_t x = 0; x < n; ++x)
      where[es.Apply(x)] = static_cast<uint32_t>(x);
    for (int64_t x = 0; x < n; ++x) map[x] = where[ed.Apply(x)];
    benchmark::DoNotOptimize(map.data());
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_InvertAndComposeByEnumeration);

void BM_Pseudoinvert128(benchmark::State& state) {
  const LinearLayout l = MmaLayout(128);
  for (auto _ : state) {
    benchmark::DoNotOptimize(hlolayout::triton::Pseudoinvert(l));
  }
}
BENCHMARK(BM_Pseudoinvert128);

void BM_PseudoinvertByEnumeration(benchmark::State& state) {
  const LinearLayout l = MmaLayout(128);
  const LayoutEvaluator e(l);
  const int64_t n = l.TotalInDimSize();
  std::vector<uint32_t> inverse(l.TotalOutDimSize());
  for (auto _ : state) {
    for (int64_t x = 0; x < n; ++x)
      inverse[e.Apply(x)] = static_cast<uint32_t>(x);
    benchmark::DoNotOptimize(inverse.data());
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_PseudoinvertByEnumeration);

void BM_NamedConversionMma128(benchmark::State& state) {
  const Layout mma = Mma();
  const std::vector<int64_t> shape = {128, 128};
  for (auto _ : state) {
    benchmark::DoNotOptimize(hlolayout::triton::ToLinearLayout(mma, shape));
  }
}
BENCHMARK(BM_NamedConversionMma128);

void BM_NamedConversionBlocked128(benchmark::State& state) {
  const Layout blocked = Blocked();
  const std::vector<int64_t> shape = {128, 128};
  for (auto _ : state) {
    benchmark::DoNotOptimize(hlolayout::triton::ToLinearLayout(blocked, shape));
  }
}
BENCHMARK(BM_NamedConversionBlocked128);

// The legacy way: for every element (i, j), its thread and register by
// div/mod over sizePerThread, threadsPerWarp and warpsPerCTA.
void BM_BlockedOwnersByFormula(benchmark::State& state) {
  std::vector<int64_t> spt = {1, 4}, tpw = {4, 8}, wpc = {4, 1};
  benchmark::DoNotOptimize(spt.data());
  const int64_t rows = 128, cols = 128;
  std::vector<uint32_t> owner(rows * cols);
  for (auto _ : state) {
    for (int64_t i = 0; i < rows; ++i) {
      for (int64_t j = 0; j < cols; ++j) {
        const int64_t ti = (i / spt[0]) % tpw[0], tj = (j / spt[1]) % tpw[1];
        const int64_t wi = (i / (spt[0] * tpw[0])) % wpc[0];
        const int64_t wj = (j / (spt[1] * tpw[1])) % wpc[1];
        const int64_t lane = ti * tpw[1] + tj, warp = wi * wpc[1] + wj;
        const int64_t ri = i / (spt[0] * tpw[0] * wpc[0]) * spt[0] + i % spt[0];
        const int64_t rj = j / (spt[1] * tpw[1] * wpc[1]) * spt[1] + j % spt[1];
        owner[i * cols + j] =
            static_cast<uint32_t>((((ri * 32 + rj) * 32 + lane) << 2) + warp);
      }
    }
    benchmark::DoNotOptimize(owner.data());
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_BlockedOwnersByFormula);

}  // namespace

BENCHMARK_MAIN();
