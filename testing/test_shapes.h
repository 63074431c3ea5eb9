// testing/test_shapes.h: tiled array shapes built by hand, for tests.
//
//   MakeTiled(F32, {3, 5}, {1, 0}, {{2, 2}})  is  f32[3,5]{1,0:T(2,2)}
//   MakeTiled({3, 5}, {1, 0}, {{2, 2}}, 8)    is  f32[3,5]{1,0:T(2,2)L(8)}
//
// No validation: tests build invalid layouts on purpose too.
#ifndef HLOLAYOUT_TESTING_TEST_SHAPES_H_
#define HLOLAYOUT_TESTING_TEST_SHAPES_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "hlolayout/shape/shape.h"

namespace hlolayout {

inline Shape MakeTiled(PrimitiveType type, std::vector<int64_t> dims,
                       std::vector<int64_t> minor_to_major,
                       std::vector<std::vector<int64_t>> tiles,
                       int64_t tail = 1, int64_t bits = 0) {
  Shape shape = Shape::MakeArray(type, dims);
  Layout layout(minor_to_major);
  for (const std::vector<int64_t>& tile : tiles) layout.add_tile(Tile(tile));
  layout.set_tail_padding_alignment_in_elements(tail);
  layout.set_element_size_in_bits(bits);
  shape.set_layout(layout);
  return shape;
}

// An f32 array.
inline Shape MakeTiled(std::vector<int64_t> dims,
                       std::vector<int64_t> minor_to_major,
                       std::vector<std::vector<int64_t>> tiles,
                       int64_t tail = 1) {
  return MakeTiled(F32, std::move(dims), std::move(minor_to_major),
                   std::move(tiles), tail);
}

}  // namespace hlolayout

#endif  // HLOLAYOUT_TESTING_TEST_SHAPES_H_
