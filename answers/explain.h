// answers/explain.h: the answer of `hlolayout explain SHAPE` and
// Shape.explain(): a shape and its layout explained, as one value
// (layout/explain.h's ShapeExplanation) with one field list
// (layout/explain_record.h) from which the CLI's --json, Python's objects and
// shapes.pyi follow.
//
//   absl::StatusOr<answers::ShapeExplanation> e =
//       answers::AnswerExplain("f32[3,5]{1,0:T(2,2)}");
//   e->padding->sizes.padded_bytes;   // 96: after the 2x2 tiles
//   ExplanationText(*e);     // the text of `hlolayout explain`
//   ExplanationJson(*e);     // its --json document (views/explain_text.h)
//
// The value and its field list are layout/'s; the faces reach them through
// this header only, and its two views through views/explain_text.h.
#ifndef HLOLAYOUT_ANSWERS_EXPLAIN_H_
#define HLOLAYOUT_ANSWERS_EXPLAIN_H_

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "hlolayout/layout/explain.h"
#include "hlolayout/layout/explain_record.h"
#include "hlolayout/shape/shape.h"

namespace hlolayout::answers {

// The value and its field list.
using ::hlolayout::ExplanationAnswerOf;
using ::hlolayout::ShapeExplanation;
using Explanation = ::hlolayout::explain_answer::Explanation;

// AnswerExplain
//
// The explanation of `shape` (valid, as ParseShape returns it); a layout
// that cannot be sized has the error in its padding section (ok() false).
ShapeExplanation AnswerExplain(const Shape& shape);

// The same for the shape written `text`. Errors: the shape parser's,
// located ("1:5: expected ...").
absl::StatusOr<ShapeExplanation> AnswerExplain(absl::string_view text);

}  // namespace hlolayout::answers

#endif  // HLOLAYOUT_ANSWERS_EXPLAIN_H_
