// hlo/verifier.h: checks of a module the reader accepted, beside the reader,
// as XLA's HloVerifier makes them after its parser: that each instruction's
// written shape is the one its operands give.
//
//   absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(text);
//   absl::Status ok = VerifyHloModule(text, (*modules)[0]);
//   // dump.txt:7:12: shape f32[3]{0} of 'n' is not negate's of its
//   //   operands: f32[2]
//   //   ROOT %n = f32[3]{0} negate(%p)
//   //             ^
//
// The reader checks what the text's syntax and names say (hlo/reader.h);
// the verifier checks what only shapes say, for the rules it is sure of
// (docs/hlo-text.md, "The verifier"):
//   - elementwise opcodes (negate, add, compare, select, clamp, ...): the
//     result has the operands' dimensions (a scalar operand is taken as
//     broadcast) and the element type the opcode gives (pred for compare
//     and is-finite, the operand's otherwise; operands of one type);
//   - tuple: the tuple of its operands' shapes; get-tuple-element: element
//     index= of its operand, which must be a tuple that has it;
//   - parameter(N): its computation's signature has a parameter N, of the
//     same shape.
// Shapes compare as XLA's ShapeUtil::Compatible does: element types and
// dimensions, element by element in tuples; layouts and dynamic bounds are
// not compared. An operand whose shape is not known (OperandShape: null) is
// not checked.
//
// Cost: O(instructions + operands), a Shape built for each instruction
// checked; nothing is kept. `hlolayout verify` runs it; `report` and
// `memory` do not (docs/hlo-text.md).
#ifndef HLOLAYOUT_HLO_VERIFIER_H_
#define HLOLAYOUT_HLO_VERIFIER_H_

#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "hlolayout/hlo/module.h"

namespace hlolayout {

struct HloVerifyOptions {
  // Prefixed to error positions ("dump.txt:3:14: ...") when not empty.
  absl::string_view file_name;
  // Floating-point element types may differ between an elementwise
  // instruction and its operands (bf16 from f32), as XLA's
  // allow_mixed_precision; off, as XLA's verifier is by default.
  bool allow_mixed_precision = false;
};

// VerifyHloModule
//
// OK, or an InvalidArgument status for the first instruction (in
// computation order) that breaks a rule above: "file:L:C: message", the
// source line and a caret under its shape, as the reader's errors.
// `text` is the text `module` was read from (its views point into it).
absl::Status VerifyHloModule(absl::string_view text, const HloModule& module,
                             const HloVerifyOptions& options = {});

// Every instruction that breaks a rule, each error as above, in computation
// order; empty when none does.
std::vector<absl::Status> VerifyHloModuleAll(
    absl::string_view text, const HloModule& module,
    const HloVerifyOptions& options = {});

}  // namespace hlolayout

#endif  // HLOLAYOUT_HLO_VERIFIER_H_
