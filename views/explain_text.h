// views/explain_text.h: the views of a shape's explanation (the value of
// answers/explain.h, layout/explain.h's ShapeExplanation): the text of
// `hlolayout explain` and its --json document.
//
//   const ShapeExplanation e = *answers::AnswerExplain("f32[3,5]{1,0:T(2,2)}");
//   ExplanationText(e)
//   // shape:          f32[3,5]{1,0:T(2,2)}
//   // element type:   f32 (32 bits, 4 bytes unpacked)
//   // ...
//   ExplanationJson(e)   // {"shape": "f32[3,5]{1,0:T(2,2)}", "kind": ...}
//
// The JSON is the explanation's records (layout/explain_record.h) through
// the generic record writer; the text is written here.
#ifndef HLOLAYOUT_VIEWS_EXPLAIN_TEXT_H_
#define HLOLAYOUT_VIEWS_EXPLAIN_TEXT_H_

#include <string>

#include "hlolayout/layout/explain.h"

namespace hlolayout {

// The text of `hlolayout explain` for one shape, ending in a newline.
std::string ExplanationText(const ShapeExplanation& e);

// The document of `hlolayout explain --json` for one shape (two-space
// indentation, no final newline): EmitValue of ExplanationAnswerOf to an
// indented RecordJsonWriter.
std::string ExplanationJson(const ShapeExplanation& e);

}  // namespace hlolayout

#endif  // HLOLAYOUT_VIEWS_EXPLAIN_TEXT_H_
