// bench/relayout_bench.cc: the relayout engine (issue 11) against memcpy of
// the same bytes and against the per-element fallback, in one binary.
//
//   ./bazelw run -c opt //bench:relayout_bench -- --benchmark_repetitions=3
//       --benchmark_report_aggregates_only=true
//
// For every case and both directions (tile: row-major -> layout, untile:
// layout -> row-major):
//   BM_Memcpy/<case>          memcpy of the destination's byte count
//   BM_Relayout/<case>/<dir>/threads:N   RelayoutPlan::Run, N = 1 and 2
//   BM_Fallback/<case>/<dir>  per element: TiledIndexer::Offset for both
//                             layouts and one element memcpy (what
//                             tpu-sync's DetileBuffer/TileBuffer do for
//                             layouts without a fast path); for sub-byte
//                             cases one bit-field read and write
//   BM_PlanCreate/<case>/<dir>  RelayoutPlan::Create
//   BM_PlanCreateSmall/<case>  RelayoutPlan::Create for 16-128 KiB arrays
// Buffers are allocated and pre-faulted once per case; bytes/s is the
// destination size over the time.
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "hlolayout/index_util/tiled_indexer.h"
#include "hlolayout/layout/sizes.h"
#include "hlolayout/parser/shape_parser.h"
#include "hlolayout/relayout/relayout.h"

namespace hlolayout {
namespace {

struct Case {
  const char* name;
  const char* row_major;
  const char* layout;
};

const Case kCases[] = {
    {"f32_T8x128", "f32[4096,4096]{1,0}", "f32[4096,4096]{1,0:T(8,128)}"},
    {"f32_tt_T32x32_16x16", "f32[10240,1024]{1,0}",
     "f32[10240,1024]{1,0:T(32,32)(16,16)}"},
    {"bf16_T8x128_2x1", "bf16[4096,4096]{1,0}",
     "bf16[4096,4096]{1,0:T(8,128)(2,1)}"},
    {"s8_T8x128_4x1", "s8[4096,4096]{1,0}", "s8[4096,4096]{1,0:T(8,128)(4,1)}"},
    {"f32_transpose", "f32[4096,4096]{1,0}", "f32[4096,4096]{0,1}"},
    {"bf16_transpose", "bf16[4096,4096]{1,0}", "bf16[4096,4096]{0,1}"},
    {"s8_transpose", "s8[4096,4096]{1,0}", "s8[4096,4096]{0,1}"},
    {"s4_packed", "s4[4096,8192]{1,0}", "s4[4096,8192]{1,0:E(4)}"},
    {"s4_packed_T8x128", "s4[4096,8192]{1,0}",
     "s4[4096,8192]{1,0:T(8,128)E(4)}"},
    {"f32_rank4_star_2levels", "f32[8,16,64,256]{3,2,1,0}",
     "f32[8,16,64,256]{3,2,1,0:T(*,8,128)(2,1)}"},
};

Shape MustParse(const char* text) {
  absl::StatusOr<Shape> s = ParseShape(text);
  if (!s.ok()) std::abort();
  return *s;
}

int64_t MustBytes(const Shape& s) {
  absl::StatusOr<ArraySizes> sizes = ComputeArraySizes(s);
  if (!sizes.ok()) std::abort();
  return sizes->padded_bytes;
}

// Pre-faulted buffers per case, shared by all its benchmarks.
struct Buffers {
  Shape rm, tiled;
  std::vector<uint8_t> rm_bytes, tiled_bytes, scratch;
};

Buffers& Get(const Case& c) {
  static std::map<std::string, std::unique_ptr<Buffers>>* cache =
      new std::map<std::string, std::unique_ptr<Buffers>>();
  std::unique_ptr<Buffers>& b = (*cache)[c.name];
  if (b == nullptr) {
    b = std::make_unique<Buffers>();
    b->rm = MustParse(c.row_major);
    b->tiled = MustParse(c.layout);
    b->rm_bytes.resize(MustBytes(b->rm));
    b->tiled_bytes.resize(MustBytes(b->tiled));
    b->scratch.resize(std::max(b->rm_bytes.size(), b->tiled_bytes.size()));
    std::mt19937 rng(1);
    for (auto& x : b->rm_bytes) x = static_cast<uint8_t>(rng() & 0x7);
    std::memset(b->scratch.data(), 1, b->scratch.size());
    if (!Relayout(b->rm, b->rm_bytes, b->tiled, absl::MakeSpan(b->tiled_bytes))
             .ok()) {
      std::abort();
    }
  }
  return *b;
}

void BM_Memcpy(benchmark::State& state, const Case* c, bool tile) {
  Buffers& b = Get(*c);
  const std::vector<uint8_t>& src = tile ? b.rm_bytes : b.tiled_bytes;
  const size_t n = (tile ? b.tiled_bytes : b.rm_bytes).size();
  const size_t m = std::min(n, src.size());
  for (auto _ : state) {
    std::memcpy(b.scratch.data(), src.data(), m);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * n);
}

void BM_Relayout(benchmark::State& state, const Case* c, bool tile,
                 int threads) {
  Buffers& b = Get(*c);
  RelayoutOptions opts;
  opts.threads = threads;
  const Shape& from = tile ? b.rm : b.tiled;
  const Shape& to = tile ? b.tiled : b.rm;
  absl::StatusOr<RelayoutPlan> plan = RelayoutPlan::Create(from, to, opts);
  if (!plan.ok()) {
    state.SkipWithError(std::string(plan.status().message()).c_str());
    return;
  }
  const std::vector<uint8_t>& src = tile ? b.rm_bytes : b.tiled_bytes;
  for (auto _ : state) {
    if (!plan->Run(src, absl::MakeSpan(b.scratch)).ok()) std::abort();
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * plan->dst_bytes());
  state.SetLabel(plan->Describe());
}

void BM_Fallback(benchmark::State& state, const Case* c, bool tile) {
  Buffers& b = Get(*c);
  const Shape& from = tile ? b.rm : b.tiled;
  const Shape& to = tile ? b.tiled : b.rm;
  absl::StatusOr<TiledIndexer> fi = TiledIndexer::Create(from);
  absl::StatusOr<TiledIndexer> ti = TiledIndexer::Create(to);
  if (!fi.ok() || !ti.ok()) std::abort();
  const std::vector<uint8_t>& src = tile ? b.rm_bytes : b.tiled_bytes;
  uint8_t* dst = b.scratch.data();
  const int64_t rank = from.rank();
  const int64_t sbits = fi->element_bits(), dbits = ti->element_bits();
  const int64_t es = sbits / 8;
  std::vector<int64_t> index(rank);
  for (auto _ : state) {
    std::fill(index.begin(), index.end(), 0);
    for (int64_t e = 0; e < fi->logical_elements(); ++e) {
      const int64_t so = fi->OffsetInElements(index);
      const int64_t d = ti->OffsetInElements(index);
      if (sbits == dbits && sbits % 8 == 0) {
        std::memcpy(dst + d * es, src.data() + so * es, es);
      } else {  // one sub-byte element: read its bits, write them
        const BitPosition sp = fi->BitPositionOf(so);
        const BitPosition dp = ti->BitPositionOf(d);
        const int sm = sbits < 8 ? (1 << sbits) - 1 : 0xFF;
        const int v = (src[sp.byte] >> sp.bit) & sm;
        const int dm = dbits < 8 ? (1 << dbits) - 1 : 0xFF;
        dst[dp.byte] = static_cast<uint8_t>((dst[dp.byte] & ~(dm << dp.bit)) |
                                            ((v & dm) << dp.bit));
      }
      for (int64_t k = rank - 1; k >= 0; --k) {
        if (++index[k] < from.dimension(k)) break;
        index[k] = 0;
      }
    }
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() *
                          (tile ? b.tiled_bytes : b.rm_bytes).size());
}

void BM_PlanCreate(benchmark::State& state, const Case* c, bool tile) {
  const Shape rm = MustParse(c->row_major);
  const Shape tiled = MustParse(c->layout);
  for (auto _ : state) {
    absl::StatusOr<RelayoutPlan> plan = tile ? RelayoutPlan::Create(rm, tiled)
                                             : RelayoutPlan::Create(tiled, rm);
    benchmark::DoNotOptimize(plan);
  }
}

// Plan creation for the small arrays a checkpoint holds thousands of.
void BM_PlanCreateSmall(benchmark::State& state, const char* from,
                        const char* to) {
  const Shape f = MustParse(from);
  const Shape t = MustParse(to);
  for (auto _ : state) {
    absl::StatusOr<RelayoutPlan> plan = RelayoutPlan::Create(f, t);
    benchmark::DoNotOptimize(plan);
  }
}

void RegisterAll() {
  const char* kSmall[][3] = {
      {"f32_64x64_T8x128", "f32[64,64]{1,0}", "f32[64,64]{1,0:T(8,128)}"},
      {"bf16_128x256_T8x128_2x1", "bf16[128,256]{1,0}",
       "bf16[128,256]{1,0:T(8,128)(2,1)}"},
      {"f32_64x64_transpose", "f32[64,64]{1,0}", "f32[64,64]{0,1}"},
  };
  for (const auto& c : kSmall) {
    benchmark::RegisterBenchmark(
        (std::string("BM_PlanCreateSmall/") + c[0]).c_str(), BM_PlanCreateSmall,
        c[1], c[2])
        ->Unit(benchmark::kMicrosecond);
  }
  for (const Case& c : kCases) {
    for (bool tile : {true, false}) {
      const std::string n = std::string(c.name) + (tile ? "/tile" : "/untile");
      benchmark::RegisterBenchmark(("BM_Memcpy/" + n).c_str(), BM_Memcpy, &c,
                                   tile)
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
      for (int t : {1, 2}) {
        benchmark::RegisterBenchmark(
            ("BM_Relayout/" + n + "/threads:" + std::to_string(t)).c_str(),
            BM_Relayout, &c, tile, t)
            ->Unit(benchmark::kMillisecond)
            ->UseRealTime();
      }
      benchmark::RegisterBenchmark(("BM_Fallback/" + n).c_str(), BM_Fallback,
                                   &c, tile)
          ->Unit(benchmark::kMillisecond)
          ->Iterations(2)
          ->UseRealTime();
      benchmark::RegisterBenchmark(("BM_PlanCreate/" + n).c_str(),
                                   BM_PlanCreate, &c, tile)
          ->Unit(benchmark::kMicrosecond);
    }
  }
}

}  // namespace
}  // namespace hlolayout

int main(int argc, char** argv) {
  hlolayout::RegisterAll();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  return 0;
}
