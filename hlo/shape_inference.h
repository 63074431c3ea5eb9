// hlo/shape_inference.h: the result shape of an HLO instruction written
// without one, from its opcode, operand shapes and attributes, as XLA's
// parser fills it in (it runs XLA's shape inference when the text leaves the
// shape out: `ROOT t = tuple(a, b)`, `sum = add(a, b)`).
//
//   Shape a = Shape::MakeArray(F32, {2, 10});
//   InferHloShape("add", {&a, &a}, {}, nullptr)  // f32[2,10]{1,0}
//   InferHloShape("dot", {&a, &b}, {{"lhs_contracting_dims", "{1}"},
//                                   {"rhs_contracting_dims", "{0}"}}, nullptr)
//
// Covered (docs/hlo-text.md): elementwise unary, binary and ternary
// opcodes, compare, is-finite, real/imag/abs of complex, complex, select,
// clamp, dot, tuple, get-tuple-element, transpose, slice, concatenate,
// reduce, the pass-through opcodes (copy, while, domain, opt-barrier,
// add-dependency, async-update), call and conditional (from the called
// computation's root), after-all, send, send-done, recv-done, copy-start,
// copy-done and async-done. Anything else, and any operand list these rules
// do not accept, returns an InvalidArgument status saying why ("the result
// shape of 'convert' is written only in its shape"); the caller reports the
// instruction as one without a shape.
//
// Inferred array shapes get XLA's default layout ({rank-1,...,0}).
#ifndef HLOLAYOUT_HLO_SHAPE_INFERENCE_H_
#define HLOLAYOUT_HLO_SHAPE_INFERENCE_H_

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "hlolayout/hlo/module.h"
#include "hlolayout/shape/shape.h"

namespace hlolayout {

// InferHloShape
//
// `operands[i]` is the shape of operand i (null: not known, which fails
// unless the rule does not need it). `called_root`: the root shape of the
// computation a `call` or `conditional` calls (its first branch), else null.
absl::StatusOr<Shape> InferHloShape(absl::string_view opcode,
                                    absl::Span<const Shape* const> operands,
                                    absl::Span<const HloAttribute> attributes,
                                    const Shape* called_root);

// The same rules' integer-list reader, for attribute values such as
// `{1,0}`, `{}` and `1`: the integers in order, or an error for anything
// else (an integer out of range of int64 included).
absl::StatusOr<std::vector<int64_t>> ParseHloIntegerList(
    absl::string_view value);

}  // namespace hlolayout

#endif  // HLOLAYOUT_HLO_SHAPE_INFERENCE_H_
