// layout/describe.h: layout attributes explained in words, for people.
//
//   bf16[8,1,1280,16384]{3,2,0,1:T(8,128)(2,1)S(1)}
//     DescribeLayout(...) ==
//       {{"minor_to_major", "{3,2,0,1}", "physical order, major to minor:
//       ..."},
//        {"T", "T(8,128)(2,1)", "tiles: ..."},
//        {"S", "S(1)", "memory space 1: alternate fast memory (VMEM on TPU)"}}
//
// One entry per attribute that is present (not at its default), in XLA's
// order, so `hlolayout explain` and reports word layouts the same way.
#ifndef HLOLAYOUT_LAYOUT_DESCRIBE_H_
#define HLOLAYOUT_LAYOUT_DESCRIBE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "hlolayout/shape/shape.h"

namespace hlolayout {

struct AttributeDescription {
  std::string key;          // "minor_to_major", "D", "T", "L", "#", "*", ...
  std::string text;         // the attribute as printed: "T(8,128)(2,1)"
  std::string description;  // one sentence in words
};

// Logical dimension numbers from most major to most minor physical
// dimension: {3,2,0,1} gives {1,0,2,3}.
std::vector<int64_t> MajorToMinor(const Layout& layout);

// Precondition: shape.IsArray() && shape.has_layout(), and the layout is
// valid for the shape (ValidateShape).
std::vector<AttributeDescription> DescribeLayout(const Shape& shape);

}  // namespace hlolayout

#endif  // HLOLAYOUT_LAYOUT_DESCRIBE_H_
