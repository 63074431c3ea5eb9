// testing/cute_random_layout.cc: the property-test layout generator.
#include "hlolayout/testing/cute_random_layout.h"

#include <algorithm>
#include <numeric>
#include <utility>

namespace hlolayout::cute::internal {

int64_t LayoutGenerator::Uniform(int64_t lo, int64_t hi) {
  const uint64_t span = static_cast<uint64_t>(hi - lo) + 1;
  return lo + static_cast<int64_t>(rng_() % span);
}

IntTuple LayoutGenerator::ShapeAt(int depth, int max_rank, int max_depth,
                                  int64_t& budget) {
  if (depth >= max_depth || Chance(depth == 0 ? 25 : 55)) {
    // A leaf: usually small, sometimes 1.
    int64_t hi = std::min<int64_t>(budget, 8);
    int64_t v = Chance(15) ? 1 : Uniform(1, std::max<int64_t>(1, hi));
    budget /= v;
    return v;
  }
  const int rank = static_cast<int>(Uniform(1, max_rank));
  std::vector<IntTuple> elements;
  for (int i = 0; i < rank; ++i) {
    elements.push_back(ShapeAt(depth + 1, max_rank, max_depth, budget));
  }
  return IntTuple::Tuple(std::move(elements));
}

IntTuple LayoutGenerator::Shape(int max_rank, int max_depth, int64_t max_size) {
  int64_t budget = max_size;
  return ShapeAt(0, max_rank, max_depth, budget);
}

IntTuple LayoutGenerator::Restride(const IntTuple& shape,
                                   const std::vector<int64_t>& leaves,
                                   size_t& next) {
  if (shape.is_int()) return leaves[next++];
  std::vector<IntTuple> out;
  for (const IntTuple& e : shape.elements()) {
    out.push_back(Restride(e, leaves, next));
  }
  return IntTuple::Tuple(std::move(out));
}

Layout LayoutGenerator::Any(bool negative, int64_t max_stride, int max_size) {
  const IntTuple shape = Shape(4, 3, max_size);
  std::vector<int64_t> strides;
  for (size_t k = 0; k < Flatten(shape).size(); ++k) {
    int64_t d = Chance(20) ? 0 : Uniform(1, max_stride);
    if (negative && Chance(30)) d = -d;
    strides.push_back(d);
  }
  size_t next = 0;
  return Layout::Make(shape, Restride(shape, strides, next));
}

Layout LayoutGenerator::Injective(int max_size) {
  const IntTuple shape = Shape(4, 3, max_size);
  const std::vector<int64_t> s = Flatten(shape);
  std::vector<size_t> order(s.size());
  std::iota(order.begin(), order.end(), 0);
  for (size_t i = order.size(); i > 1; --i) {
    std::swap(order[i - 1], order[Uniform(0, static_cast<int64_t>(i) - 1)]);
  }
  std::vector<int64_t> strides(s.size(), 0);
  int64_t current = Uniform(1, 2);
  for (size_t i : order) {
    if (s[i] == 1) continue;
    strides[i] = current;
    current *= s[i] * (Chance(30) ? Uniform(2, 3) : 1);
  }
  size_t next = 0;
  return Layout::Make(shape, Restride(shape, strides, next));
}

Layout LayoutGenerator::Compact(int max_size) {
  const IntTuple shape = Shape(4, 3, max_size);
  const std::vector<int64_t> s = Flatten(shape);
  std::vector<int64_t> strides;
  int64_t current = Chance(70) ? 1 : Uniform(2, 3);
  for (int64_t v : s) {
    strides.push_back(current);
    current *= v;
  }
  size_t next = 0;
  return Layout::Make(shape, Restride(shape, strides, next));
}

}  // namespace hlolayout::cute::internal
