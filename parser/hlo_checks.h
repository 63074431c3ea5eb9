// parser/hlo_checks.h: the rules XLA's parser applies to one instruction or
// to a module header, beyond its syntax, for the reader (parser/hlo_reader.h)
// to refuse what XLA refuses (docs/hlo-text.md lists them):
//
//   %c = u4[] constant(16)                        // out of range for u4
//   %e = pred[] compare(f32[] %x)                 // compare takes 2 operands
//   %v = f32[4] conv(...), dim_labels=00_01->10   // labels repeat
//   HloModule m, input_output_alias={ {0}: (0, {0}): {0, 1} }
//
// Each check returns OK, or InvalidArgument with a short message and the
// offset in the text (`text_begin` is where the text's views start) that
// it is about; the reader turns that into a located error.
//
// Opcodes these rules do not know are not checked: dumps of newer XLA
// versions must still read.
#ifndef HLOLAYOUT_PARSER_HLO_CHECKS_H_
#define HLOLAYOUT_PARSER_HLO_CHECKS_H_

#include <cstddef>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "hlolayout/parser/hlo_module.h"
#include "hlolayout/shape/shape.h"

namespace hlolayout {

// The shape of operand i of the instruction being checked (written at the
// use or defined earlier), or null when it is not known.
using HloOperandShapeFn = absl::FunctionRef<const Shape*(size_t)>;
// The shape text of operand i when one is known without decoding it
// (written at the use, or at the definition), else empty.
using HloOperandTextFn = absl::FunctionRef<absl::string_view(size_t)>;

// CheckHloInstruction
//
// Operand counts of the known opcodes, the literal of a constant, the
// attributes whose syntax XLA checks (dim_labels, window pads,
// result_accuracy, api_version, operand_layout_constraints, mesh replica
// groups, dimensions= of collectives), attributes a known opcode does not
// take, the result shapes of recv, infeed and async starts, a broadcast of
// a non-scalar without dimensions=, and the predicate of a conditional.
// `operand_shape` is called only for the few rules that need an operand's
// shape. `operand_count` is the instruction's operand count (its operands
// may not have been kept).
// `*async_wrapped` and `*async_stage` get what IsAsyncWrapperOpcode says of
// the opcode (stage -1: not an asynchronous wrapper).
absl::Status CheckHloInstruction(const HloInstruction& instruction,
                                 size_t operand_count, const char* text_begin,
                                 HloOperandShapeFn operand_shape,
                                 HloOperandTextFn operand_text,
                                 size_t* error_offset,
                                 absl::string_view* async_wrapped,
                                 int* async_stage);

// CheckHloModuleHeader
//
// The syntax of input_output_alias, buffer_donor and debug_attributes.
absl::Status CheckHloModuleHeader(const HloModuleHeader& header,
                                  const char* text_begin, size_t* error_offset);

// True for the opcodes of asynchronous wrappers and their sugar:
// async-start/update/done and `<op>-start/update/done` for an opcode that
// has no start/done pair of its own (custom-call-start, ...). Sets
// `*wrapped` to `<op>` for the sugar ("" for async-*) and `*stage` to 0, 1
// or 2 (start, update, done).
bool IsAsyncWrapperOpcode(absl::string_view opcode, absl::string_view* wrapped,
                          int* stage);

}  // namespace hlolayout

#endif  // HLOLAYOUT_PARSER_HLO_CHECKS_H_
