// TTNN tensor specs (issue 39): what `hlolayout ttnn spec` computes per
// spec, against named baselines in the same binary.
//   ./bazelw run -c opt //bench:ttnn_bench
//
// Specs (realistic sizes): interleaved bf16 [1,1,1024,4096] in DRAM; height
// sharded [1,1,4096,1024] over 64 L1 cores; block sharded [2048,2048] on
// an 8x8 grid (GRID_2D); ND sharded bf16 [8,128,768] in shards [1,128,96]
// round robin over 8x8 cores; row-major ND [64,2048,64] in shards
// [4,64,64] (2048 shards, 32 per core).
//
//   BM_Make           TensorSpec::Make: shapes, pages, sizes, resolution,
//                     the buffer distribution (the library time of a spec)
//   BM_MakeAndJson    Make plus the --json answer (first 64 cores, 16 mapped
//                     cores, 8 pages each: what `ttnn spec --json` prints)
//   BM_CliSweep       `hlolayout ttnn spec --json --spec -` in process on
//                     1,000 JSON lines (the five specs in turn), per spec
// Baselines:
//   BM_ParseOnly      reading the spec's JSON line (ParseJson and
//                     SpecInputFromJson): the input's own cost
//   BM_TtMetalMapping tt-metal's answer to "which core holds which page":
//                     BufferDistributionSpec::compute_page_mapping's
//                     enumeration of every page into per-core vectors
//                     (written as its loops), for the sharded specs
#include <sstream>
#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "hlolayout/answers/ttnn.h"
#include "hlolayout/cli/dispatch.h"
#include "hlolayout/ttnn/spec_json.h"
#include "hlolayout/ttnn/tensor_spec.h"
#include "hlolayout/util/fields.h"
#include "hlolayout/util/json_reader.h"

namespace {

using hlolayout::ttnn::TensorSpec;
using hlolayout::ttnn::TensorSpecInput;

const char* const kSpecs[] = {
    R"({"shape": [1, 1, 1024, 4096], "dtype": "bfloat16", "layout": "TILE", "buffer_type": "DRAM"})",
    R"({"shape": [1, 1, 4096, 1024], "dtype": "bfloat16", "layout": "TILE", "buffer_type": "L1", "memory_layout": "HEIGHT_SHARDED", "shard_spec": {"grid": [[[0, 0], [7, 7]]], "orientation": "ROW_MAJOR", "shape": [64, 1024]}})",
    R"({"shape": [2048, 2048], "dtype": "bfloat8_b", "layout": "TILE", "buffer_type": "L1", "memory_layout": "BLOCK_SHARDED", "shard_spec": {"grid": [[[0, 0], [7, 7]]], "orientation": "ROW_MAJOR", "shape": [256, 256]}})",
    R"({"shape": [8, 128, 768], "dtype": "bfloat16", "layout": "TILE", "buffer_type": "L1", "nd_shard_spec": {"shard_shape": [1, 128, 96], "grid": [[[0, 0], [7, 7]]], "orientation": "ROW_MAJOR", "distribution": "ROUND_ROBIN_1D"}})",
    R"({"shape": [64, 2048, 64], "dtype": "float32", "layout": "ROW_MAJOR", "buffer_type": "L1", "nd_shard_spec": {"shard_shape": [4, 64, 64], "grid": [[[0, 0], [7, 7]]], "orientation": "COL_MAJOR", "distribution": "ROUND_ROBIN_1D"}})",
};
const char* const kNames[] = {"interleaved", "height_sharded", "block_sharded",
                              "nd_sharded", "nd_row_major"};

TensorSpecInput Input(int i) {
  return (*hlolayout::ttnn::SpecInputsFromText(kSpecs[i]))[0];
}

void BM_Make(benchmark::State& state) {
  const TensorSpecInput in = Input(state.range(0));
  for (auto _ : state) {
    absl::StatusOr<TensorSpec> s = TensorSpec::Make(in);
    benchmark::DoNotOptimize(s);
  }
  state.SetLabel(kNames[state.range(0)]);
}
BENCHMARK(BM_Make)->DenseRange(0, 4);

void BM_MakeAndJson(benchmark::State& state) {
  const TensorSpecInput in = Input(state.range(0));
  for (auto _ : state) {
    std::string json = hlolayout::AnswerJson(
        hlolayout::ttnn::AnswerSpec(*TensorSpec::Make(in)));
    benchmark::DoNotOptimize(json);
  }
  state.SetLabel(kNames[state.range(0)]);
}
BENCHMARK(BM_MakeAndJson)->DenseRange(0, 4);

void BM_ParseOnly(benchmark::State& state) {
  const std::string text = kSpecs[state.range(0)];
  for (auto _ : state) {
    auto in = hlolayout::ttnn::SpecInputsFromText(text);
    benchmark::DoNotOptimize(in);
  }
  state.SetLabel(kNames[state.range(0)]);
}
BENCHMARK(BM_ParseOnly)->DenseRange(0, 4);

// compute_page_mapping as tt-metal writes it: every shard, every page of
// it, into per-core vectors of host page indices (padding -1).
void BM_TtMetalMapping(benchmark::State& state) {
  const TensorSpec spec = *TensorSpec::Make(Input(state.range(0)));
  const hlolayout::ttnn::BufferDistribution& d = *spec.distribution();
  const std::vector<int64_t>& t = d.tensor_shape_in_pages();
  const std::vector<int64_t>& s = d.shard_shape_in_pages();
  const int rank = static_cast<int>(t.size());
  for (auto _ : state) {
    std::vector<std::vector<int64_t>> pages(
        d.num_cores(), std::vector<int64_t>(d.max_dev_pages_per_core(), -1));
    std::vector<int64_t> sc(rank, 0), w(rank, 0);
    const std::vector<int64_t>& grid = d.shard_grid();
    for (int64_t id = 0; id < d.num_shards(); ++id) {
      std::fill(w.begin(), w.end(), 0);
      for (int64_t k = 0; k < d.shard_volume(); ++k) {
        int64_t host = 0;
        bool inside = true;
        for (int i = 0; i < rank; ++i) {
          const int64_t c = sc[i] * s[i] + w[i];
          inside = inside && c < t[i];
          host = host * t[i] + c;
        }
        if (inside) {
          pages[id % d.num_cores()]
               [(id / d.num_cores()) * d.shard_volume() + k] = host;
        }
        for (int i = rank - 1; i >= 0 && ++w[i] == s[i]; --i) w[i] = 0;
      }
      for (int i = rank - 1; i >= 0 && ++sc[i] == grid[i]; --i) sc[i] = 0;
    }
    benchmark::DoNotOptimize(pages);
  }
  state.SetLabel(kNames[state.range(0)]);
}
BENCHMARK(BM_TtMetalMapping)->DenseRange(1, 4);

void BM_CliSweep(benchmark::State& state) {
  std::string lines;
  constexpr int kLines = 1000;
  for (int i = 0; i < kLines; ++i) lines += std::string(kSpecs[i % 5]) + "\n";
  for (auto _ : state) {
    std::istringstream in(lines);
    std::ostringstream out, err;
    hlolayout::cli::IoContext io{in, out, err};
    const int status =
        hlolayout::cli::Dispatch({"ttnn", "spec", "--json", "--spec", "-"}, io);
    if (status != 0) state.SkipWithError(err.str().c_str());
    benchmark::DoNotOptimize(out);
  }
  state.SetItemsProcessed(state.iterations() * kLines);
  state.SetLabel("per item: one spec");
}
BENCHMARK(BM_CliSweep)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
