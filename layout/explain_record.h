// layout/explain_record.h: a shape's explanation (layout/explain.h) as
// records (util/record.h): one field list per record, from which
// `hlolayout explain --json`, Python's Shape.explain() (its objects,
// to_dict() and repr) and shapes.pyi all follow.
//
//   ShapeExplanation e =
//       ExplainShape(ParseShape("f32[3,5]{1,0:T(2,2)}").value());
//   ExplanationJson(e)   // views/explain_text.h: the records as JSON
//   // {
//   //   "shape": "f32[3,5]{1,0:T(2,2)}",
//   //   "kind": "array",
//   //   ...
//   //   "padding_and_size": {
//   //     "physical_tiled": [
//   //       4,
//   //       6
//   //     ],
//   //   ...
//   // }
//
// The records, by the explanation's kind: ArrayExplanation (with its
// LayoutAttributes and PaddingAndSize, whose TilePaddings say why),
// TupleExplanation (its elements' explanations), BufferExplanation (the
// array it holds) and OpaqueExplanation (tokens and opaque values).
#ifndef HLOLAYOUT_LAYOUT_EXPLAIN_RECORD_H_
#define HLOLAYOUT_LAYOUT_EXPLAIN_RECORD_H_

#include <string>
#include <vector>

#include "hlolayout/layout/explain.h"
#include "hlolayout/util/record.h"

namespace hlolayout {

// Every record of this answer, nested ones first.
const std::vector<const RecordSpec*>& ShapeExplanationSpecs();

// Emits `e` as the record of its kind.
void EmitShapeExplanation(const ShapeExplanation& e, RecordSink& sink);

}  // namespace hlolayout

#endif  // HLOLAYOUT_LAYOUT_EXPLAIN_RECORD_H_
