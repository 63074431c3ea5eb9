// The reader's careful path for one instruction (reader_internal.h): every
// token with its status, so that anything FastInstruction leaves to it is
// read or refused with the exact message and position; operands, literals,
// parameter numbers and instructions written inline as operands.
#include <cstdint>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "hlolayout/hlo/reader_internal.h"

namespace hlolayout {
namespace hlo_internal {

absl::Status Reader::ParseInstruction() {
  DraftInstruction& in = instruction_;
  in.offset = pos_;
  in.root_marker = false;
  in.set_shape_text(absl::string_view());
  in.set_operand_text(absl::string_view());

  in.parameter_number.reset();
  in.attribute_list.clear();
  in.Bind();
  inline_.clear();
  absl::Status status;
  if (LookingAtWord("ROOT")) {
    in.root_marker = true;
    pos_ += 4;
    status = SkipTrivia();
    if (!status.ok()) return status;
  }
  in.set_name(ScanPercentName());
  if (in.name().empty()) return Expected("an instruction name or '}'");
  status = SkipTrivia();
  if (!status.ok()) return status;
  if (Peek() != '=') {
    return Expected(
        absl::StrCat("'=' after instruction name '", in.name(), "'"));
  }
  ++pos_;
  status = SkipTrivia();
  if (!status.ok()) return status;
  if (LooksLikeShape()) {
    absl::string_view shape_text;
    status = ReadShape(0, &in.shape, &shape_text);
    in.set_shape_text(shape_text);
    if (status.ok()) status = SkipTrivia();
    if (!status.ok()) return status;
  } else {
    in.shape = nullptr;
  }
  in.set_opcode_name(ScanName());
  if (in.opcode_name().empty()) return Expected("an opcode");
  in.opcode = HloOpcodeOf(in.opcode_name());
  status = SkipTrivia();
  if (!status.ok()) return status;
  status = ParseParens(&in, 0);
  if (status.ok()) {
    status = ParseAttributes(&in.attribute_list);
    in.Bind();
  }
  if (status.ok() && in.shape == nullptr) status = InferShape(&in);
  if (!status.ok()) return status;
  if (!options_.read_operands) {
    in.operand_list.clear();
    in.Bind();
  }
  return absl::OkStatus();
}

absl::Status Reader::ParseParens(DraftInstruction* in, int depth) {
  if (Peek() != '(') {
    return Expected(absl::StrCat("'(' after opcode '", in->opcode_name(), "'"));
  }
  const size_t open = pos_;
  if (in->opcode == HloOpcode::kConstant) {
    in->operand_list.clear();
    in->Bind();
    absl::Status status = SkipBalanced();
    if (!status.ok()) return status;
    in->set_operand_text(text_.substr(open + 1, pos_ - open - 2));
    return absl::OkStatus();
  }
  ++pos_;
  absl::Status status = ParseOperands(in, depth);
  if (!status.ok()) return status;
  in->set_operand_text(text_.substr(open + 1, pos_ - open - 2));
  return absl::OkStatus();
}

absl::Status Reader::ParseOperands(DraftInstruction* instruction, int depth) {
  DraftInstruction& in = *instruction;
  // The operands are read into operand_list (which may move while it
  // grows), then bound.
  in.set_operands(absl::Span<const HloOperand>());
  const bool is_parameter = in.opcode == HloOpcode::kParameter;
  // Operand slots of the previous instruction are reused.
  size_t count = 0;
  absl::Status status = SkipTrivia();
  if (!status.ok()) return status;
  if (Peek() == ')') {
    // XLA's parser reads a number in `parameter(N)`: none is an error.
    if (is_parameter) return Expected("a parameter number");
    ++pos_;
    in.operand_list.clear();
    in.Bind();
    return absl::OkStatus();
  }
  while (true) {
    status = SkipTrivia();
    if (!status.ok()) return status;
    if (is_parameter) {
      status = ParseParameterNumber(&in);
    } else {
      if (count == in.operand_list.size()) in.operand_list.emplace_back();
      status = ParseOperand(&in.operand_list[count],
                            &in.OperandShapeText(count), count + 1, depth);
      ++count;
    }
    if (status.ok()) status = SkipTrivia();
    if (!status.ok()) return status;
    if (Peek() == ')') {
      ++pos_;
      in.operand_list.resize(count);
      in.Bind();
      return absl::OkStatus();
    }
    status = ExpectChar(',', "',' or ')' after operand");
    if (!status.ok()) return status;
  }
}

absl::Status Reader::ParseParameterNumber(HloInstruction* in) {
  const size_t begin = pos_;
  int64_t number = 0;
  while (Peek() >= '0' && Peek() <= '9') {
    const int digit = Peek() - '0';
    // HloInstruction keeps 32 bits.
    if (number > (INT32_MAX - digit) / 10) {
      return Error(begin, "parameter number out of range");
    }
    number = number * 10 + digit;
    ++pos_;
  }
  if (pos_ == begin || in->parameter_number.has_value()) {
    return Expected("one parameter number");
  }
  in->parameter_number = static_cast<int32_t>(number);
  return absl::OkStatus();
}

absl::Status Reader::ParseOperand(HloOperand* operand,
                                  absl::string_view* shape_text, size_t scratch,
                                  int depth) {
  absl::Status status;
  const size_t operand_begin = pos_;
  if (LooksLikeShape()) {
    status = depth == 0 ? ReadShape(scratch, &operand->shape, shape_text)
                        : ReadKeptShape(&operand->shape, shape_text);
    if (status.ok()) status = SkipTrivia();
    if (!status.ok()) return status;
  } else {
    *shape_text = absl::string_view();
    operand->shape = nullptr;
  }
  const bool percent = Peek() == '%';
  const size_t name_begin = pos_;
  operand->name = ScanPercentName();
  if (operand->name.empty()) return Expected("an operand name");
  operand->output_index = HloOperand::kWholeResult;
  if (!percent) {
    const size_t after_name = pos_;
    status = SkipTrivia();
    if (!status.ok()) return status;
    if (Peek() == '(') {
      // An instruction written inline: `f32[] constant(1)`.
      return ParseInline(operand, shape_text, operand->name,
                         operand->shape != nullptr ? operand_begin : name_begin,
                         depth);
    }
    pos_ = after_name;
  }
  if (Peek() != '#') return absl::OkStatus();
  return ParseOutputIndexes(operand);
}

absl::Status Reader::ParseOutputIndexes(HloOperand* operand) {
  ++pos_;
  const size_t begin = pos_;
  int64_t index = 0;
  while (Peek() >= '0' && Peek() <= '9') {
    const int digit = Peek() - '0';
    // HloOperand keeps 32 bits.
    if (index > (INT32_MAX - digit) / 10) {
      return Error(begin, "output index out of range");
    }
    index = index * 10 + digit;
    ++pos_;
  }
  if (pos_ == begin) return Expected("an output index after '#'");
  operand->output_index = static_cast<int32_t>(index);
  // `%name#1#0`: output 0 of output 1 (HloOperand keeps the first; the
  // checks read the rest from the text).
  while (Peek() == '#') {
    ++pos_;
    const size_t more = pos_;
    while (Peek() >= '0' && Peek() <= '9' && pos_ - more < 18) ++pos_;
    if (pos_ == more) return Expected("an output index after '#'");
  }
  return absl::OkStatus();
}

absl::Status Reader::ParseInline(HloOperand* operand,
                                 absl::string_view* shape_text,
                                 absl::string_view opcode, size_t offset,
                                 int depth) {
  if (depth + 1 >= options_.max_depth) {
    return Error(offset, absl::StrCat("instructions nested deeper than ",
                                      options_.max_depth, " levels"));
  }
  DraftInstruction nested;
  nested.offset = offset;
  nested.shape = operand->shape;
  nested.set_shape_text(*shape_text);
  nested.set_opcode_name(opcode);
  nested.opcode = HloOpcodeOf(opcode);
  absl::Status status = ParseParens(&nested, depth + 1);
  if (status.ok() && nested.shape == nullptr) status = InferShape(&nested);
  if (!status.ok()) return status;
  // Named by where it stands: no name written in the text can contain '@'.
  const char* data = text_.data();
  if (offset < line_cursor_offset_) {
    line_cursor_offset_ = 0;
    line_cursor_line_ = 1;
  }
  for (size_t i = line_cursor_offset_; i < offset; ++i) {
    if (data[i] == '\n') ++line_cursor_line_;
  }
  line_cursor_offset_ = offset;
  size_t line_start = offset;
  while (line_start > 0 && data[line_start - 1] != '\n') --line_start;
  nested.set_name(Intern(absl::StrCat(opcode, "@", line_cursor_line_, ":",
                                      offset - line_start + 1)));
  if (!options_.read_operands) {
    nested.operand_list.clear();
    nested.Bind();
  }
  operand->name = nested.name();
  operand->shape = nested.shape;
  *shape_text = nested.shape_text();
  operand->output_index = HloOperand::kWholeResult;
  inline_.push_back(std::move(nested));
  return absl::OkStatus();
}

}  // namespace hlo_internal
}  // namespace hlolayout
