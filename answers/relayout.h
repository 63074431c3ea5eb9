// answers/relayout.h: the answer of `hlolayout relayout` and hl.relayout():
// a compiled copy of an array's bytes from one layout to another
// (relayout/relayout.h's RelayoutPlan), which each face runs on its own
// bytes: the CLI on a mapped file, in pieces written to OUTPUT; Python on a
// buffer, with the GIL released.
//
//   absl::StatusOr<answers::RelayoutPlan> plan = answers::AnswerRelayout(
//       {*ParseShape("f32[64,64]{1,0}"),
//       *ParseShape("f32[64,64]{1,0:T(8,128)}"),
//        answers::RelayoutOptions()});
//   plan->dst_bytes();         // 32768: the tiles' padding counted
//   plan->Run(src, dst);       // every element to its place, padding filled
//
// The plan, its options and kernels are relayout/'s: the faces reach them
// through this header only.
#ifndef HLOLAYOUT_ANSWERS_RELAYOUT_H_
#define HLOLAYOUT_ANSWERS_RELAYOUT_H_

#include "absl/status/statusor.h"
#include "hlolayout/relayout/relayout.h"
#include "hlolayout/shape/shape.h"

namespace hlolayout::answers {

// The compiled copy, how it is made and how it copies.
using ::hlolayout::RelayoutKernel;
using ::hlolayout::RelayoutKernelName;
using ::hlolayout::RelayoutOptions;
using ::hlolayout::RelayoutPlan;

// From `from`'s layout to `to`'s, with `options` (fill byte, threads, bit
// order of packed bytes).
struct RelayoutRequest {
  Shape from;
  Shape to;
  RelayoutOptions options;
};

// AnswerRelayout
//
// The plan of the copy. Errors: RelayoutPlan::Create's (not a static
// array, a sparse layout, element types or dimensions that differ, an
// invalid layout, options.threads < 0).
absl::StatusOr<RelayoutPlan> AnswerRelayout(const RelayoutRequest& request);

}  // namespace hlolayout::answers

#endif  // HLOLAYOUT_ANSWERS_RELAYOUT_H_
