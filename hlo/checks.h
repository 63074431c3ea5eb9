// hlo/checks.h: the rules XLA's parser applies to one instruction or
// to a module header, beyond its syntax, for the reader (hlo/reader.h)
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
#ifndef HLOLAYOUT_HLO_CHECKS_H_
#define HLOLAYOUT_HLO_CHECKS_H_

#include <cstddef>
#include <cstdint>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "hlolayout/hlo/module.h"
#include "hlolayout/shape/shape.h"

namespace hlolayout {

// What the checks know of an opcode: every opcode of XLA's HLO (its
// HloOpcode list), with its operand counts where the checks apply them and
// the rules that apply to it (HloOpcodeFlag).
enum HloOpcodeFlag : uint16_t {
  kHloTranscendental = 1,  // takes result_accuracy
  kHloOneDimension = 2,    // dimensions= is one dimension of operand 0
  kHloCallsNothing = 4,    // takes no calls=
  kHloArity = 8,           // min/max operands are checked
  kHloShapeRule = 16,      // a rule on its result shape or literal
  kHloOperandRule = 32,    // a rule on an operand's shape
};
struct HloOpcodeInfo {
  absl::string_view name;
  int8_t min_operands;
  int8_t max_operands;  // -1: any number
  uint16_t flags;
  // 0, 1, 2 for async-start, async-update, async-done; -1 otherwise.
  int8_t async_stage;
};

// FindHloOpcode
//
// The entry of `opcode`, or null for an opcode XLA does not have (newer
// ones, and the `<op>-start/-update/-done` sugar of asynchronous wrappers:
// IsAsyncWrapperOpcode). One hash and one compare.
const HloOpcodeInfo* FindHloOpcode(absl::string_view opcode);
// The same for an opcode read already (HloInstruction::opcode): no hashing.
const HloOpcodeInfo* HloOpcodeInfoOf(HloOpcode opcode);

// IsUnknownHloOpcode
//
// True for an opcode that is neither one of XLA's nor an async wrapper of
// one (`all-reduce-update`, `foo`): the reader reads such instructions with
// their shapes as written and tells its visitor (HloVisitor::UnknownOpcode).
bool IsUnknownHloOpcode(absl::string_view opcode);

// The attributes the reader's rules look at, by name: an OR of these bits,
// 0 for any other attribute (metadata, backend_config, sharding, ...).
enum HloAttributeKind : uint32_t {
  kHloAttrCalls = 1,         // calls=
  kHloAttrCallee = 2,        // names called computations (calls=, body=...)
  kHloAttrControl = 4,       // control-predecessors=
  kHloAttrSyntax = 8,        // a value whose syntax is checked
  kHloAttrDimensions = 16,   // dimensions=
  kHloAttrAsyncThread = 32,  // async_execution_thread=
  kHloAttrBranches = 64,     // branch_computations=
};
uint32_t HloAttributeKindOf(absl::string_view name);

// True when CheckHloInstruction has something to check for an instruction
// with `operand_count` operands, opcode entry `info` (null: unknown),
// asynchronous stage `async_stage` (-1: none) and attributes of kinds
// `attribute_kinds` (an OR of HloAttributeKindOf). False for most
// instructions of a dump, which the reader then does not hand over.
inline bool HloInstructionHasRules(const HloOpcodeInfo* info,
                                   size_t operand_count, int async_stage,
                                   uint32_t attribute_kinds) {
  if (async_stage >= 0 || (attribute_kinds & kHloAttrSyntax) != 0) return true;
  if (info == nullptr) return false;
  const uint16_t flags = info->flags;
  if ((flags & kHloArity) != 0 &&
      (static_cast<int64_t>(operand_count) < info->min_operands ||
       (info->max_operands >= 0 &&
        static_cast<int64_t>(operand_count) > info->max_operands))) {
    return true;
  }
  return (flags & (kHloShapeRule | kHloOperandRule)) != 0 ||
         ((attribute_kinds & kHloAttrCalls) != 0 &&
          (flags & kHloCallsNothing) != 0) ||
         ((attribute_kinds & kHloAttrDimensions) != 0 &&
          (flags & kHloOneDimension) != 0);
}

// A rule on the shape of one operand: checked by CheckHloInstruction when
// the shape is known, and by CheckHloOperandRule when it becomes known
// later (the reader reading a text in parts: an operand defined in an
// earlier part).
struct HloOperandRule {
  enum class Kind : uint8_t {
    kDimensionInRange,      // dimensions={d}: d < rank of an array operand
    kLayoutConstraint,      // operand_layout_constraints: compatible shapes
    kBroadcastOfScalar,     // broadcast without dimensions=: a scalar
    kConditionalPredicate,  // a pred or s32 scalar (pred: no branches)
    kTupleIndexInRange      // get-tuple-element index=: an element there
  };
  Kind kind = Kind::kDimensionInRange;
  size_t operand = 0;
  absl::string_view opcode;
  int64_t dimension = 0;  // kDimensionInRange; the index: kTupleIndexInRange
  size_t constraint_index = 0;       // kLayoutConstraint
  absl::string_view constraint;      // kLayoutConstraint: its shape text
  bool branch_computations = false;  // kConditionalPredicate
  size_t offset = 0;                 // where an error is reported
};

// CheckHloOperandRule
//
// OK, or InvalidArgument with `*error_offset` = rule.offset. `operand_text`
// is the operand's shape text where known (it may save decoding).
absl::Status CheckHloOperandRule(const HloOperandRule& rule,
                                 const Shape& operand,
                                 absl::string_view operand_text,
                                 size_t* error_offset);

// The shape of operand i of the instruction being checked (written at the
// use or defined earlier), or null when it is not known.
using HloOperandShapeFn = absl::FunctionRef<const Shape*(size_t)>;
// The shape text of operand i when one is known without decoding it
// (written at the use, or at the definition), else empty.
using HloOperandTextFn = absl::FunctionRef<absl::string_view(size_t)>;
// Given each rule whose operand shape is not known (operand_shape(i) null):
// the reader keeps those of operands defined in an earlier part.
using HloOperandRuleFn = absl::FunctionRef<void(const HloOperandRule&)>;

// CheckHloInstruction
//
// Operand counts of the known opcodes, the literal of a constant, the
// attributes whose syntax XLA checks (dim_labels, window pads,
// result_accuracy, api_version, operand_layout_constraints, mesh replica
// groups, dimensions= of collectives), attributes a known opcode does not
// take, the result shapes of recv, infeed and async starts, a broadcast of
// a non-scalar without dimensions=, and the predicate of a conditional.
// `info` is FindHloOpcode(instruction.opcode) and `async_stage`/`wrapped`
// what IsAsyncWrapperOpcode says of it. `operand_shape` is called only for
// the few rules that need an operand's shape; `unknown` gets the rules whose
// operand shape it does not know. `operand_count` is the instruction's
// operand count (its operands may not have been kept).
absl::Status CheckHloInstruction(const HloInstruction& instruction,
                                 const HloOpcodeInfo* info, int async_stage,
                                 size_t operand_count, const char* text_begin,
                                 HloOperandShapeFn operand_shape,
                                 HloOperandTextFn operand_text,
                                 HloOperandRuleFn unknown,
                                 size_t* error_offset);

// The asynchronous stage of `opcode` (0, 1, 2: start, update, done; -1:
// none), from its entry `info` (async-start/update/done) or, for an opcode
// XLA does not have, the `<op>-start/-update/-done` sugar
// (IsAsyncWrapperOpcode), which also sets `*wrapped` to `<op>` ("" else).
int HloAsyncStage(const HloOpcodeInfo* info, absl::string_view opcode,
                  absl::string_view* wrapped);

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

#endif  // HLOLAYOUT_HLO_CHECKS_H_
