// shape/program_shape.h: the signature of a computation, XLA's
// ProgramShape: parameter shapes, optional parameter names and the result.
//
//   ProgramShape p;
//   p.parameters = {f32[2]{0}, s32[]};
//   p.parameter_names = {"p0"};
//   p.result = f32[];
//   p.ToString(/*print_layout=*/true) == "(p0: f32[2]{0}, (unknown): s32[]) ->
//   f32[]"
//
// A plain value struct: parameter_names may be shorter than parameters (a
// parameter without a name prints as `(unknown)`, as in XLA). Proto
// conversion is in shape/shape_proto.h.
#ifndef HLOLAYOUT_SHAPE_PROGRAM_SHAPE_H_
#define HLOLAYOUT_SHAPE_PROGRAM_SHAPE_H_

#include <string>
#include <vector>

#include "hlolayout/shape/shape.h"

namespace hlolayout {

struct ProgramShape {
  std::vector<Shape> parameters;
  std::vector<std::string> parameter_names;
  Shape result;

  // `(name: shape, ...) -> result` as XLA's ShapeUtil::HumanString of a
  // ProgramShape: ", " between parameters, no `/*index=N*/` comments, and
  // `(unknown)` for parameters past the end of parameter_names. With
  // print_layout the shapes print as HumanStringWithLayout (scalars with a
  // `{}` layout still print none):
  //   "(p0: f32[2], (unknown): s32[]) -> f32[]"          print_layout false
  //   "(p0: f32[2]{0}, (unknown): s32[]) -> f32[]"       print_layout true
  std::string ToString(bool print_layout = false) const;

  friend bool operator==(const ProgramShape& a, const ProgramShape& b) {
    return a.parameters == b.parameters &&
           a.parameter_names == b.parameter_names && a.result == b.result;
  }
  friend bool operator!=(const ProgramShape& a, const ProgramShape& b) {
    return !(a == b);
  }
};

}  // namespace hlolayout

#endif  // HLOLAYOUT_SHAPE_PROGRAM_SHAPE_H_
