// Layout evaluation (1-D index -> offset) of a depth-3 CuTe layout, against
// a plain loop of div/mod over the same flattened modes, in one binary.
//   ./bazelw run -c opt //bench:cute_bench
//
// Both walk every index of the layout once per iteration and sum the
// offsets. The shapes and strides reach the baseline through vectors the
// optimiser cannot see through, so neither side divides by constants.
#include <cstdint>
#include <vector>

#include "benchmark/benchmark.h"
#include "hlolayout/cute/layout.h"
#include "hlolayout/cute/parse.h"

namespace {

using hlolayout::cute::Layout;

// Depth 3, 8 leaves, 9216 elements: mixed radices (2, 3, 4, 6) and gaps.
const char kLayout[] =
    "((4,(3,2)),((2,(3,4)),(2,8))):((1,(4,400)),((12,(24,72)),(800,1600)))";

Layout TheLayout() { return *hlolayout::cute::ParseLayout(kLayout); }

void BM_CuteLayoutEvaluate(benchmark::State& state) {
  const Layout layout = TheLayout();
  const int64_t size = layout.size();
  for (auto _ : state) {
    int64_t sum = 0;
    for (int64_t i = 0; i < size; ++i) sum += layout(i);
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(state.iterations() * size);
}
BENCHMARK(BM_CuteLayoutEvaluate);

// The baseline: for each leaf but the last, (i % s) * d, then i /= s; the
// last leaf takes the quotient.
void BM_NaiveDivModLoop(benchmark::State& state) {
  const Layout layout = TheLayout();
  std::vector<int64_t> shape = hlolayout::cute::Flatten(layout.shape());
  std::vector<int64_t> stride = hlolayout::cute::Flatten(layout.stride());
  benchmark::DoNotOptimize(shape.data());
  benchmark::DoNotOptimize(stride.data());
  const int64_t size = layout.size();
  const size_t leaves = shape.size();
  for (auto _ : state) {
    int64_t sum = 0;
    for (int64_t i = 0; i < size; ++i) {
      int64_t idx = i;
      int64_t offset = 0;
      for (size_t k = 0; k + 1 < leaves; ++k) {
        offset += (idx % shape[k]) * stride[k];
        idx /= shape[k];
      }
      sum += offset + idx * stride[leaves - 1];
    }
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(state.iterations() * size);
}
BENCHMARK(BM_NaiveDivModLoop);

// Hierarchical evaluation through the checked API (natural coordinates are
// split mode by mode), for scale.
void BM_CuteEvaluateCheckedIndex(benchmark::State& state) {
  const Layout layout = TheLayout();
  const int64_t size = layout.size();
  for (auto _ : state) {
    int64_t sum = 0;
    for (int64_t i = 0; i < size; ++i) sum += *layout.TryEvaluate(i);
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(state.iterations() * size);
}
BENCHMARK(BM_CuteEvaluateCheckedIndex);

}  // namespace
