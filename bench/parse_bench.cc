// ParseShape + print against std::regex baselines on the same strings.
//
//   ./bazelw run -c opt //bench:parse_bench
//
// BM_ParseAndPrint parses each shape of a realistic mix (TPU tiled layouts,
// sub-byte packing, dynamic dims, tuples with /*index=N*/) with validation
// on and prints it back into a reused buffer; BM_ParseOnly and BM_PrintOnly
// are its two halves. The baselines are what the scripts users write today
// do: BM_RegexRecognize matches each string against a std::regex of the
// whole grammar (every layout attribute, flat tuples) and extracts nothing;
// BM_RegexFindAll is the looser findall style, a sregex_iterator over the
// array shapes in the string (no layout grammar, no tuple structure). All
// report ns per shape string. allocs_per_shape shows that parsing allocates
// per shape (a tuple's element vector, tiles of more than 3 sizes), never
// per token.
#include <atomic>
#include <cstdlib>
#include <new>
#include <regex>
#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "hlolayout/parser/shape_parser.h"
#include "hlolayout/shape/printer.h"

namespace {

std::atomic<int64_t> g_allocations{0};

}  // namespace

void* operator new(size_t size) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, size_t) noexcept { std::free(p); }

namespace {

const std::vector<std::string>& Shapes() {
  static const auto* shapes = new std::vector<std::string>{
      "bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}",
      "f32[1024,4096]{1,0:T(8,128)}",
      "bf16[32,32,4096]{2,1,0:T(8,128)(2,1)S(1)}",
      "s4[9216,6144]{1,0:T(64,128)(8,1)E(4)}",
      "f32[]",
      "s32[]{:T(128)}",
      "pred[16,128]{1,0:T(8,128)(4,1)}",
      "f32[<=16,?,3]{2,1,0}",
      "(f32[8,128]{1,0:T(8,128)}, bf16[8,256]{1,0:T(8,128)(2,1)}, s32[], "
      "u32[]{:S(2)}, f32[128]{0:T(256)}, /*index=5*/bf16[4,8,128]{2,1,0:T(8,"
      "128)(2,1)})",
      "f32[2,7,8,11,10]{4,3,2,1,0:T(*,*,2,*,3)}",
      "c64[64,64]{0,1}",
      "f8e4m3fn[4096,4096]{1,0:T(8,128)(4,1)L(1024)}",
  };
  return *shapes;
}

void BM_ParseAndPrint(benchmark::State& state) {
  const std::vector<std::string>& shapes = Shapes();
  std::string out;
  out.reserve(512);
  int64_t count = 0;
  const int64_t allocations_before = g_allocations.load();
  for (auto _ : state) {
    for (const std::string& text : shapes) {
      absl::StatusOr<hlolayout::Shape> shape = hlolayout::ParseShape(text);
      if (!shape.ok()) state.SkipWithError("parse failed");
      out.clear();
      hlolayout::AppendShape(&out, *shape, /*print_layout=*/true);
      benchmark::DoNotOptimize(out.data());
      ++count;
    }
  }
  state.SetItemsProcessed(count);
  state.counters["ns_per_shape"] = benchmark::Counter(
      static_cast<double>(count),
      benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["allocs_per_shape"] =
      static_cast<double>(g_allocations.load() - allocations_before) /
      static_cast<double>(count);
}
BENCHMARK(BM_ParseAndPrint);

// The two halves of BM_ParseAndPrint.
void BM_ParseOnly(benchmark::State& state) {
  const std::vector<std::string>& shapes = Shapes();
  int64_t count = 0;
  for (auto _ : state) {
    for (const std::string& text : shapes) {
      absl::StatusOr<hlolayout::Shape> shape = hlolayout::ParseShape(text);
      benchmark::DoNotOptimize(shape.ok());
      ++count;
    }
  }
  state.counters["ns_per_shape"] = benchmark::Counter(
      static_cast<double>(count),
      benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_ParseOnly);

void BM_PrintOnly(benchmark::State& state) {
  std::vector<hlolayout::Shape> parsed;
  for (const std::string& text : Shapes()) {
    parsed.push_back(*hlolayout::ParseShape(text));
  }
  std::string out;
  out.reserve(512);
  int64_t count = 0;
  for (auto _ : state) {
    for (const hlolayout::Shape& shape : parsed) {
      out.clear();
      hlolayout::AppendShape(&out, shape, /*print_layout=*/true);
      benchmark::DoNotOptimize(out.data());
      ++count;
    }
  }
  state.counters["ns_per_shape"] = benchmark::Counter(
      static_cast<double>(count),
      benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_PrintOnly);

// The baseline: a std::regex recognizer of the same grammar, what a careful
// script does today. It accepts a whole array shape with every layout
// attribute of XLA's grammar, or a flat tuple of them, and extracts nothing.
const std::regex& ShapeRegex() {
  const std::string dim = R"((?:(?:<=)?[0-9]+|\?))";
  const std::string ints = R"([0-9]+(?:,[0-9]+)*)";
  const std::string attrs =
      R"((?:D\([DCSH][+~]*(?:,[DCSH][+~]*)*\))?)"
      R"((?:T(?:\((?:[0-9]+|\*)(?:,(?:[0-9]+|\*))*\))+)?)"
      R"((?:L\([0-9]+\))?(?:#\([a-z0-9]+\))?(?:\*\([a-z0-9]+\))?)"
      R"((?:E\([0-9]+\))?(?:S\([0-9]+\))?)"
      R"((?:SC(?:\([0-9]+:[0-9]+(?:,[0-9]+)*\))+)?(?:M\([0-9]+\))?)";
  const std::string array = "[a-z][a-z0-9]*\\[(?:" + dim + "(?:," + dim +
                            ")*)?\\](?:\\{(?:" + ints + ")?(?::" + attrs +
                            ")?\\})?";
  const std::string element = R"((?:/\*index=[0-9]+\*/)?)" + array;
  static const std::regex* regex = new std::regex(
      "(?:" + array + "|\\((?:" + element + "(?:, " + element + ")*)?\\))");
  return *regex;
}

void BM_RegexRecognize(benchmark::State& state) {
  const std::regex& regex = ShapeRegex();
  const std::vector<std::string>& shapes = Shapes();
  for (const std::string& text : shapes) {
    if (!std::regex_match(text, regex)) {
      state.SkipWithError(("regex rejects " + text).c_str());
      return;
    }
  }
  int64_t count = 0;
  for (auto _ : state) {
    for (const std::string& text : shapes) {
      benchmark::DoNotOptimize(std::regex_match(text, regex));
      ++count;
    }
  }
  state.SetItemsProcessed(count);
  state.counters["ns_per_shape"] = benchmark::Counter(
      static_cast<double>(count),
      benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_RegexRecognize);

// The second baseline: findall over array shapes, as in
// re.findall(r"[a-z][a-z0-9]*\[[^]]*\](?:\{[^}]*\})?", text).
void BM_RegexFindAll(benchmark::State& state) {
  static const auto* regex =
      new std::regex(R"([a-z][a-z0-9]*\[[^\]]*\](?:\{[^}]*\})?)");
  const std::vector<std::string>& shapes = Shapes();
  int64_t count = 0;
  int64_t arrays = 0;
  for (auto _ : state) {
    for (const std::string& text : shapes) {
      for (std::sregex_iterator it(text.begin(), text.end(), *regex), end;
           it != end; ++it) {
        benchmark::DoNotOptimize(it->length());
        ++arrays;
      }
      ++count;
    }
  }
  if (count > 0 && arrays < count) state.SkipWithError("findall missed shapes");
  state.SetItemsProcessed(count);
  state.counters["ns_per_shape"] = benchmark::Counter(
      static_cast<double>(count),
      benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_RegexFindAll);

}  // namespace

BENCHMARK_MAIN();
