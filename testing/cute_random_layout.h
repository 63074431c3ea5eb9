// testing/cute_random_layout.h: random layouts for property tests.
//
//   LayoutGenerator gen(/*seed=*/42);
//   Layout any = gen.Any();            // ranks to 4, depth to 3, size <= 64
//   Layout inj = gen.Injective();      // distinct offsets, strides >= 0
//
// Deterministic: the same seed gives the same sequence on every machine
// (std::mt19937_64 with hand-written range reduction, no
// std::uniform_int_distribution, whose output is implementation-defined).
#ifndef HLOLAYOUT_TESTING_CUTE_RANDOM_LAYOUT_H_
#define HLOLAYOUT_TESTING_CUTE_RANDOM_LAYOUT_H_

#include <cstdint>
#include <random>
#include <vector>

#include "hlolayout/cute/int_tuple.h"
#include "hlolayout/cute/layout.h"

namespace hlolayout::cute::internal {

class LayoutGenerator {
 public:
  explicit LayoutGenerator(uint64_t seed) : rng_(seed) {}

  // A value in [lo, hi].
  int64_t Uniform(int64_t lo, int64_t hi);
  bool Chance(int percent) { return Uniform(0, 99) < percent; }

  // Shape
  //
  // A random shape: an integer or a tuple of rank 1..max_rank, nested to
  // max_depth, size <= max_size, with size-1 leaves now and then.
  IntTuple Shape(int max_rank = 4, int max_depth = 3, int64_t max_size = 64);

  // Any
  //
  // A random shape with random strides in [-max_stride, max_stride] (zero
  // often; negatives only when `negative`).
  Layout Any(bool negative = false, int64_t max_stride = 24, int max_size = 64);

  // Injective
  //
  // A random shape whose leaves get the strides of a compact layout in a
  // random order, each multiplied in by a random gap of 1..3, so that all
  // offsets are distinct and strides are positive (size-1 leaves stride 0).
  Layout Injective(int max_size = 64);

  // Compact
  //
  // A random shape with compact column-major strides, possibly scaled.
  Layout Compact(int max_size = 64);

 private:
  IntTuple ShapeAt(int depth, int max_rank, int max_depth, int64_t& budget);
  IntTuple Restride(const IntTuple& shape, const std::vector<int64_t>& leaves,
                    size_t& next);

  std::mt19937_64 rng_;
};

}  // namespace hlolayout::cute::internal

#endif  // HLOLAYOUT_TESTING_CUTE_RANDOM_LAYOUT_H_
