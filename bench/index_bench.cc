// bench/index_bench.cc: the linear-index service against named baselines in
// one binary (issue 3).
//
//   ./bazelw run -c opt //bench:index_bench
//
// (1) Offset: TiledIndexer::OffsetInElements vs NaiveSeedOffset, the seed
// formula
//     written directly with `/` and `%` by runtime tile sizes (no
//     allocation, shape chain precomputed), on rank-4 shapes with two tile
//     levels: bf16[8,3,1280,1000]{3,2,1,0:T(8,128)(2,1)} and a
//     non-power-of-two f32[7,5,300,200]{3,2,1,0:T(3,10)(3,1)}.
// (2) Walk: every offset of f32[4096,4096]{1,0:T(8,128)} (64 MiB) in
//     logical order, stored as uint32 into a pre-faulted 64 MiB buffer by
//     WriteOffsetsInLogicalOrder, vs memcpy of 64 MiB into the same
//     buffer (also: plain stores, physical order, memset).
// (3) Inverse: TiledIndexer::ElementAtOffsetInElements vs NaiveSeedElementAt,
// same shapes
//     as (1).
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "benchmark/benchmark.h"
#include "hlolayout/index_util/tiled_indexer.h"
#include "hlolayout/index_util/walker.h"
#include "hlolayout/layout/reference_index.h"
#include "hlolayout/shape/layout.h"
#include "hlolayout/shape/shape.h"
#include "hlolayout/shape/tile.h"

namespace hlolayout {
namespace {

constexpr int kMax = 16;

// The seed formula, plainly: physical order, then for each tile
// (floor(e/t), e mod t) over (ceil(d/t), t), then row-major. Tiles without
// `*`. Level shapes are precomputed so the timed code is index arithmetic.
struct NaiveLayout {
  int rank = 0;
  int64_t m2m[kMax];
  int levels = 0;
  int in_rank[4];  // rank of the shape a level applies to
  int tile_rank[4];
  int64_t tile[4][kMax];
  int64_t in_dims[4][kMax];  // after leading 1s
  int final_rank = 0;
  int64_t final_dims[kMax];
};

NaiveLayout MakeNaive(const Shape& s) {
  NaiveLayout n;
  n.rank = static_cast<int>(s.rank());
  int64_t dims[kMax];
  for (int i = 0; i < n.rank; ++i) n.m2m[i] = s.layout().minor_to_major(i);
  for (int i = 0; i < n.rank; ++i) dims[i] = s.dimension(n.m2m[n.rank - 1 - i]);
  int r = n.rank;
  for (const Tile& t : s.layout().tiles()) {
    const int l = n.levels++;
    const int k = static_cast<int>(t.rank());
    n.tile_rank[l] = k;
    for (int j = 0; j < k; ++j) n.tile[l][j] = t.dimension(j);
    if (k > r) {
      for (int i = r - 1; i >= 0; --i) dims[i + k - r] = dims[i];
      for (int i = 0; i < k - r; ++i) dims[i] = 1;
      r = k;
    }
    n.in_rank[l] = r;
    for (int i = 0; i < r; ++i) n.in_dims[l][i] = dims[i];
    const int p = r - k;
    int64_t out[kMax];
    for (int i = 0; i < p; ++i) out[i] = dims[i];
    for (int j = 0; j < k; ++j) {
      out[p + j] = (dims[p + j] + t.dimension(j) - 1) / t.dimension(j);
      out[p + k + j] = t.dimension(j);
    }
    r = p + 2 * k;
    for (int i = 0; i < r; ++i) dims[i] = out[i];
  }
  n.final_rank = r;
  for (int i = 0; i < r; ++i) n.final_dims[i] = dims[i];
  return n;
}

__attribute__((noinline)) int64_t NaiveSeedOffset(const NaiveLayout& n,
                                                  const int64_t* index) {
  int64_t e[kMax];
  int r = n.rank;
  for (int i = 0; i < r; ++i) e[i] = index[n.m2m[r - 1 - i]];
  for (int l = 0; l < n.levels; ++l) {
    const int k = n.tile_rank[l];
    if (k > r) {
      for (int i = r - 1; i >= 0; --i) e[i + k - r] = e[i];
      for (int i = 0; i < k - r; ++i) e[i] = 0;
      r = k;
    }
    const int p = r - k;
    int64_t out[kMax];
    for (int i = 0; i < p; ++i) out[i] = e[i];
    for (int j = 0; j < k; ++j) {
      out[p + j] = e[p + j] / n.tile[l][j];
      out[p + k + j] = e[p + j] % n.tile[l][j];
    }
    r = p + 2 * k;
    for (int i = 0; i < r; ++i) e[i] = out[i];
  }
  int64_t offset = 0;
  for (int i = 0; i < r; ++i) offset = offset * n.final_dims[i] + e[i];
  return offset;
}

// Returns false for padding; fills index otherwise.
__attribute__((noinline)) bool NaiveSeedElementAt(const NaiveLayout& n,
                                                  int64_t offset,
                                                  int64_t* index) {
  int64_t e[kMax];
  int r = n.final_rank;
  for (int i = r - 1; i >= 0; --i) {
    e[i] = offset % n.final_dims[i];
    offset /= n.final_dims[i];
  }
  for (int l = n.levels - 1; l >= 0; --l) {
    const int k = n.tile_rank[l];
    const int in_r = n.in_rank[l];
    const int p = in_r - k;
    int64_t out[kMax];
    for (int i = 0; i < p; ++i) out[i] = e[i];
    for (int j = 0; j < k; ++j) {
      out[p + j] = e[p + j] * n.tile[l][j] + e[p + k + j];
      if (out[p + j] >= n.in_dims[l][p + j]) return false;
    }
    r = in_r;
    for (int i = 0; i < r; ++i) e[i] = out[i];
  }
  // Leading 1s added by large tiles are at the front; drop them.
  const int extra = r - n.rank;
  for (int i = 0; i < n.rank; ++i) index[n.m2m[n.rank - 1 - i]] = e[i + extra];
  return true;
}

Shape MakeTiled(PrimitiveType type, std::vector<int64_t> dims,
                std::vector<int64_t> m2m,
                std::vector<std::vector<int64_t>> tiles) {
  Shape s = Shape::MakeArray(type, dims);
  Layout l(m2m);
  for (const auto& t : tiles) l.add_tile(Tile(t));
  s.set_layout(l);
  return s;
}

Shape BenchShape(int which) {
  return which == 0 ? MakeTiled(BF16, {8, 3, 1280, 1000}, {3, 2, 1, 0},
                                {{8, 128}, {2, 1}})
                    : MakeTiled(F32, {7, 5, 300, 200}, {3, 2, 1, 0},
                                {{3, 10}, {3, 1}});
}

constexpr int kBatch = 4096;

std::vector<int64_t> RandomIndices(const Shape& s) {
  std::mt19937_64 rng(42);
  std::vector<int64_t> out;
  for (int i = 0; i < kBatch; ++i) {
    for (int64_t d = 0; d < s.rank(); ++d) {
      out.push_back(static_cast<int64_t>(rng() % s.dimension(d)));
    }
  }
  return out;
}

std::vector<int64_t> RandomOffsets(int64_t padded) {
  std::mt19937_64 rng(7);
  std::vector<int64_t> out;
  for (int i = 0; i < kBatch; ++i) {
    out.push_back(static_cast<int64_t>(rng() % padded));
  }
  return out;
}

void BM_OffsetNaiveSeedFormula(benchmark::State& state) {
  const Shape s = BenchShape(state.range(0));
  const NaiveLayout n = MakeNaive(s);
  const std::vector<int64_t> idx = RandomIndices(s);
  for (auto _ : state) {
    int64_t sum = 0;
    for (int i = 0; i < kBatch; ++i) sum += NaiveSeedOffset(n, &idx[i * 4]);
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(state.iterations() * kBatch);
  state.SetLabel(s.ToString(true));
}
BENCHMARK(BM_OffsetNaiveSeedFormula)->Arg(0)->Arg(1);

void BM_OffsetTiledIndexer(benchmark::State& state) {
  const Shape s = BenchShape(state.range(0));
  const TiledIndexer ix = *TiledIndexer::Create(s);
  const std::vector<int64_t> idx = RandomIndices(s);
  // Same answers as the baseline.
  const NaiveLayout n = MakeNaive(s);
  for (int i = 0; i < kBatch; ++i) {
    if (ix.OffsetInElements(absl::MakeConstSpan(&idx[i * 4], 4)) !=
        NaiveSeedOffset(n, &idx[i * 4])) {
      state.SkipWithError("fast and naive offsets differ");
      return;
    }
  }
  for (auto _ : state) {
    int64_t sum = 0;
    for (int i = 0; i < kBatch; ++i) {
      sum += ix.OffsetInElements(absl::MakeConstSpan(&idx[i * 4], 4));
    }
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(state.iterations() * kBatch);
  state.SetLabel(s.ToString(true));
}
BENCHMARK(BM_OffsetTiledIndexer)->Arg(0)->Arg(1);

void BM_OffsetTiledIndexerBatched(benchmark::State& state) {
  const Shape s = BenchShape(state.range(0));
  const TiledIndexer ix = *TiledIndexer::Create(s);
  const std::vector<int64_t> idx = RandomIndices(s);
  std::vector<int64_t> out(kBatch);
  for (auto _ : state) {
    ix.OffsetsInElements(idx, absl::MakeSpan(out));
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations() * kBatch);
}
BENCHMARK(BM_OffsetTiledIndexerBatched)->Arg(0)->Arg(1);

void BM_InverseNaiveSeedFormula(benchmark::State& state) {
  const Shape s = BenchShape(state.range(0));
  const NaiveLayout n = MakeNaive(s);
  const TiledIndexer ix = *TiledIndexer::Create(s);
  const std::vector<int64_t> offs = RandomOffsets(ix.tiled_elements());
  int64_t index[4];
  for (auto _ : state) {
    int64_t sum = 0;
    for (int i = 0; i < kBatch; ++i) {
      if (NaiveSeedElementAt(n, offs[i], index)) sum += index[3];
    }
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(state.iterations() * kBatch);
  state.SetLabel(s.ToString(true));
}
BENCHMARK(BM_InverseNaiveSeedFormula)->Arg(0)->Arg(1);

void BM_InverseTiledIndexer(benchmark::State& state) {
  const Shape s = BenchShape(state.range(0));
  const NaiveLayout n = MakeNaive(s);
  const TiledIndexer ix = *TiledIndexer::Create(s);
  const std::vector<int64_t> offs = RandomOffsets(ix.tiled_elements());
  int64_t index[4], expect[4];
  for (int i = 0; i < kBatch; ++i) {
    const bool element = NaiveSeedElementAt(n, offs[i], expect);
    const bool fast =
        ix.ElementAtOffsetInElements(offs[i], absl::MakeSpan(index)) ==
        OffsetKind::kElement;
    if (element != fast ||
        (element && std::memcmp(index, expect, sizeof(index)) != 0)) {
      state.SkipWithError("fast and naive inverses differ");
      return;
    }
  }
  for (auto _ : state) {
    int64_t sum = 0;
    for (int i = 0; i < kBatch; ++i) {
      if (ix.ElementAtOffsetInElements(offs[i], absl::MakeSpan(index)) ==
          OffsetKind::kElement) {
        sum += index[3];
      }
    }
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(state.iterations() * kBatch);
  state.SetLabel(s.ToString(true));
}
BENCHMARK(BM_InverseTiledIndexer)->Arg(0)->Arg(1);

constexpr int64_t kWalkBytes = int64_t{64} << 20;

// Buffers for (2): allocated and touched once (pre-faulted), reused by
// every benchmark, so each one times only the writes (and reads).
std::vector<uint32_t>& WalkOut() {
  static auto* v = new std::vector<uint32_t>(kWalkBytes / sizeof(uint32_t), 1);
  return *v;
}

// (2): the table of every element's offset, in logical order, as uint32
// (64 MiB), by the library's bulk writer: vector runs, streaming stores.
void BM_WalkAllOffsetsLogicalOrder(benchmark::State& state) {
  const Shape s = MakeTiled(F32, {4096, 4096}, {1, 0}, {{8, 128}});
  const TiledIndexer ix = *TiledIndexer::Create(s);
  std::vector<uint32_t>& out = WalkOut();
  for (auto _ : state) {
    WriteOffsetsInLogicalOrder(ix, absl::MakeSpan(out));
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  // Spot check against the scalar conversion.
  for (int64_t i : {int64_t{0}, int64_t{4097}, int64_t{16777215}}) {
    const int64_t idx[2] = {i / 4096, i % 4096};
    if (out[i] != static_cast<uint32_t>(ix.OffsetInElements(idx))) {
      state.SkipWithError("wrong offset in the table");
    }
  }
  state.SetBytesProcessed(state.iterations() * kWalkBytes);
  state.SetLabel(s.ToString(true));
}
BENCHMARK(BM_WalkAllOffsetsLogicalOrder)->Unit(benchmark::kMillisecond);

// The same table with plain (cached) stores from the run walker: the
// destination is read before it is written, so this moves as many bytes
// as memcpy does.
void BM_WalkAllOffsetsLogicalOrderCachedStores(benchmark::State& state) {
  const Shape s = MakeTiled(F32, {4096, 4096}, {1, 0}, {{8, 128}});
  const TiledIndexer ix = *TiledIndexer::Create(s);
  std::vector<uint32_t>& out = WalkOut();
  for (auto _ : state) {
    uint32_t* p = out.data();
    ForEachRunInLogicalOrder(ix, [&](absl::Span<const int64_t>, int64_t offset,
                                     int64_t stride, int64_t count) {
      const uint32_t base = static_cast<uint32_t>(offset);
      const uint32_t step = static_cast<uint32_t>(stride);
      for (int64_t i = 0; i < count; ++i) {
        p[i] = base + static_cast<uint32_t>(i) * step;
      }
      p += count;
    });
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * kWalkBytes);
}
BENCHMARK(BM_WalkAllOffsetsLogicalOrderCachedStores)
    ->Unit(benchmark::kMillisecond);

// Physical order: for every offset of the same array (no padding here),
// the row-major index of its element, as uint32 (64 MiB).
void BM_WalkAllLogicalIndicesPhysicalOrder(benchmark::State& state) {
  const Shape s = MakeTiled(F32, {4096, 4096}, {1, 0}, {{8, 128}});
  const TiledIndexer ix = *TiledIndexer::Create(s);
  std::vector<uint32_t>& out = WalkOut();
  for (auto _ : state) {
    WriteLogicalIndicesInPhysicalOrder(ix, absl::MakeSpan(out));
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * kWalkBytes);
}
BENCHMARK(BM_WalkAllLogicalIndicesPhysicalOrder)->Unit(benchmark::kMillisecond);

// The same walk, offsets consumed by a checksum instead of a store: the
// cost of producing them.
void BM_WalkAllOffsetsLogicalOrderChecksum(benchmark::State& state) {
  const Shape s = MakeTiled(F32, {4096, 4096}, {1, 0}, {{8, 128}});
  const TiledIndexer ix = *TiledIndexer::Create(s);
  for (auto _ : state) {
    uint64_t sum = 0;
    ForEachElementInLogicalOrder(
        ix, [&](absl::Span<const int64_t>, int64_t offset) { sum += offset; });
    benchmark::DoNotOptimize(sum);
  }
  state.SetBytesProcessed(state.iterations() * kWalkBytes);
}
BENCHMARK(BM_WalkAllOffsetsLogicalOrderChecksum)->Unit(benchmark::kMillisecond);

void BM_WalkAllOffsetsPhysicalOrder(benchmark::State& state) {
  const Shape s = MakeTiled(F32, {4096, 4096}, {1, 0}, {{8, 128}});
  const TiledIndexer ix = *TiledIndexer::Create(s);
  for (auto _ : state) {
    int64_t sum = 0;
    ForEachOffsetInPhysicalOrder(
        ix, [&](int64_t, OffsetKind, absl::Span<const int64_t> idx) {
          sum += idx[1];
        });
    benchmark::DoNotOptimize(sum);
  }
  state.SetBytesProcessed(state.iterations() * kWalkBytes);
}
BENCHMARK(BM_WalkAllOffsetsPhysicalOrder)->Unit(benchmark::kMillisecond);

// The baseline of (2): memcpy of 64 MiB between two pre-faulted buffers
// (glibc switches to streaming stores for copies this large).
void BM_Memcpy64MiB(benchmark::State& state) {
  static auto* src = new std::vector<char>(kWalkBytes, 3);
  std::vector<uint32_t>& dst = WalkOut();
  for (auto _ : state) {
    std::memcpy(dst.data(), src->data(), kWalkBytes);
    benchmark::DoNotOptimize(dst.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * kWalkBytes);
}
BENCHMARK(BM_Memcpy64MiB)->Unit(benchmark::kMillisecond);

// For scale: memset of the same 64 MiB (writes only, like the table).
void BM_Memset64MiB(benchmark::State& state) {
  std::vector<uint32_t>& dst = WalkOut();
  for (auto _ : state) {
    std::memset(dst.data(), 5, kWalkBytes);
    benchmark::DoNotOptimize(dst.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * kWalkBytes);
}
BENCHMARK(BM_Memset64MiB)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace hlolayout
