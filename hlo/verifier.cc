#include "hlolayout/hlo/verifier.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "hlolayout/hlo/shape_inference.h"
#include "hlolayout/parser/diagnostic.h"
#include "hlolayout/shape/primitive_type.h"

namespace hlolayout {
namespace {

// The opcodes whose result shape the verifier infers from the operands.
bool Checked(HloOpcode opcode) {
  switch (opcode) {
    // Elementwise, one operand.
    case HloOpcode::kAbs:
    case HloOpcode::kNegate:
    case HloOpcode::kExponential:
    case HloOpcode::kSine:
    case HloOpcode::kCosine:
    case HloOpcode::kSqrt:
    case HloOpcode::kRsqrt:
    case HloOpcode::kCbrt:
    case HloOpcode::kExponentialMinusOne:
    case HloOpcode::kLog:
    case HloOpcode::kLogPlusOne:
    case HloOpcode::kLogistic:
    case HloOpcode::kTanh:
    case HloOpcode::kTan:
    case HloOpcode::kCeil:
    case HloOpcode::kFloor:
    case HloOpcode::kRoundNearestAfz:
    case HloOpcode::kRoundNearestEven:
    case HloOpcode::kSign:
    case HloOpcode::kNot:
    case HloOpcode::kPopcnt:
    case HloOpcode::kCountLeadingZeros:
    case HloOpcode::kErf:
    case HloOpcode::kReal:
    case HloOpcode::kImag:
    case HloOpcode::kIsFinite:
    case HloOpcode::kReducePrecision:
    // Two operands.
    case HloOpcode::kAdd:
    case HloOpcode::kSubtract:
    case HloOpcode::kMultiply:
    case HloOpcode::kDivide:
    case HloOpcode::kRemainder:
    case HloOpcode::kMaximum:
    case HloOpcode::kMinimum:
    case HloOpcode::kPower:
    case HloOpcode::kAtan2:
    case HloOpcode::kAnd:
    case HloOpcode::kOr:
    case HloOpcode::kXor:
    case HloOpcode::kShiftLeft:
    case HloOpcode::kShiftRightArithmetic:
    case HloOpcode::kShiftRightLogical:
    case HloOpcode::kCompare:
    case HloOpcode::kComplex:
    // Three.
    case HloOpcode::kSelect:
    case HloOpcode::kClamp:
    // Tuples.
    case HloOpcode::kTuple:
    case HloOpcode::kGetTupleElement:
      return true;
    default:
      return false;
  }
}

bool Elementwise(HloOpcode opcode) {
  return Checked(opcode) && opcode != HloOpcode::kTuple &&
         opcode != HloOpcode::kGetTupleElement;
}

// XLA's ShapeUtil::Compatible: element types and dimensions, tuples element
// by element; `any_float`: floating types match one another.
bool Compatible(const Shape& a, const Shape& b, bool any_float) {
  if (a.IsTuple() || b.IsTuple()) {
    if (!a.IsTuple() || !b.IsTuple() || a.tuple_size() != b.tuple_size()) {
      return false;
    }
    for (int64_t i = 0; i < a.tuple_size(); ++i) {
      if (!Compatible(a.tuple_shape(i), b.tuple_shape(i), any_float)) {
        return false;
      }
    }
    return true;
  }
  if (a.element_type() != b.element_type()) {
    if (!any_float || !a.IsArray() || !b.IsArray() ||
        !IsFloatingPointType(a.element_type()) ||
        !IsFloatingPointType(b.element_type())) {
      return false;
    }
  }
  if (!a.IsArray()) return true;
  return a.dimensions() == b.dimensions();
}

// Where an error about `in` points: its written shape, else its name.
size_t ShapeOffset(absl::string_view text, const HloInstruction& in) {
  const char* at =
      !in.shape_text().empty() ? in.shape_text().data() : in.name().data();
  if (at >= text.data() && at <= text.data() + text.size()) {
    return static_cast<size_t>(at - text.data());
  }
  return in.offset;
}

class Verifier {
 public:
  Verifier(absl::string_view text, const HloVerifyOptions& options, bool all)
      : text_(text), options_(options), all_(all) {}

  // False once an error is kept and not all are wanted.
  bool Instruction(const HloComputation& c, const HloInstruction& in) {
    if (in.shape == nullptr) return true;
    if (in.opcode == HloOpcode::kParameter) return Parameter(c, in);
    if (!Checked(in.opcode)) return true;
    operands_.clear();
    for (const HloOperand& operand : in.operands()) {
      const Shape* shape = OperandShape(c, operand);
      if (shape == nullptr) return true;  // not known: not checked
      operands_.push_back(shape);
    }
    const bool mixed = options_.allow_mixed_precision && Elementwise(in.opcode);
    if (mixed) MixPrecision();
    absl::StatusOr<Shape> want =
        InferHloShape(in.opcode_name(), operands_, in.attributes(), nullptr);
    if (!want.ok()) {
      return Fail(in,
                  absl::StrCat("'", in.name(), "': ", want.status().message()));
    }
    if (Compatible(*in.shape, *want, mixed)) return true;
    return Fail(in, absl::StrCat("shape ", in.shape->ToString(true), " of '",
                                 in.name(), "' is not ", in.opcode_name(),
                                 "'s of its operands: ", want->ToString()));
  }

  std::vector<absl::Status>& errors() { return errors_; }

 private:
  bool Parameter(const HloComputation& c, const HloInstruction& in) {
    if (!c.header.has_signature || !in.parameter_number.has_value()) {
      return true;
    }
    const int64_t n = *in.parameter_number;
    const std::vector<HloParameter>& params = c.header.parameters;
    if (n >= static_cast<int64_t>(params.size())) {
      return Fail(in, absl::StrCat("parameter ", n, " of '", c.header.name,
                                   "', whose signature has ", params.size()));
    }
    const Shape* want = params[n].shape;
    if (want == nullptr || Compatible(*in.shape, *want, false)) return true;
    return Fail(
        in, absl::StrCat("shape ", in.shape->ToString(true), " of '", in.name(),
                         "' is not parameter ", n, "'s in the signature of '",
                         c.header.name, "': ", want->ToString()));
  }

  // With mixed precision allowed, floating operands take the first
  // floating operand's type (so that inference does not refuse them).
  void MixPrecision() {
    const Shape* first = nullptr;
    for (const Shape* s : operands_) {
      if (s->IsArray() && IsFloatingPointType(s->element_type())) {
        first = s;
        break;
      }
    }
    if (first == nullptr) return;
    mixed_.clear();
    mixed_.reserve(operands_.size());
    for (const Shape* s : operands_) {
      mixed_.push_back(*s);
      if (s->IsArray() && IsFloatingPointType(s->element_type())) {
        mixed_.back().set_element_type(first->element_type());
      }
    }
    for (size_t i = 0; i < operands_.size(); ++i) operands_[i] = &mixed_[i];
  }

  bool Fail(const HloInstruction& in, absl::string_view message) {
    errors_.push_back(
        ParseError(text_, ShapeOffset(text_, in), message, options_.file_name));
    return all_;
  }

  absl::string_view text_;
  const HloVerifyOptions& options_;
  const bool all_;
  std::vector<const Shape*> operands_;
  std::vector<Shape> mixed_;
  std::vector<absl::Status> errors_;
};

std::vector<absl::Status> Verify(absl::string_view text,
                                 const HloModule& module,
                                 const HloVerifyOptions& options, bool all) {
  Verifier verifier(text, options, all);
  for (const HloComputation& c : module.computations) {
    for (const HloInstruction& in : c.instructions) {
      if (!verifier.Instruction(c, in)) return verifier.errors();
    }
  }
  return verifier.errors();
}

}  // namespace

absl::Status VerifyHloModule(absl::string_view text, const HloModule& module,
                             const HloVerifyOptions& options) {
  std::vector<absl::Status> errors = Verify(text, module, options, false);
  return errors.empty() ? absl::OkStatus() : errors.front();
}

std::vector<absl::Status> VerifyHloModuleAll(absl::string_view text,
                                             const HloModule& module,
                                             const HloVerifyOptions& options) {
  return Verify(text, module, options, true);
}

}  // namespace hlolayout
