// The reader's rules beyond syntax: instructions written inline as operands,
// shapes left out (inferred), and what XLA's parser checks across
// instructions (references, parameter numbers, roots against signatures,
// called computations, asynchronous chains). See reader_internal.h.
#include <algorithm>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "hlolayout/hlo/checks.h"
#include "hlolayout/hlo/reader_internal.h"
#include "hlolayout/hlo/shape_inference.h"
#include "hlolayout/parser/shape_parser.h"

namespace hlolayout {
namespace hlo_internal {

absl::Status Reader::ParseInline(HloOperand* operand, absl::string_view opcode,
                                 size_t offset, int depth) {
  if (depth + 1 >= options_.max_depth) {
    return Error(offset, absl::StrCat("instructions nested deeper than ",
                                      options_.max_depth, " levels"));
  }
  HloInstruction nested;
  nested.offset = offset;
  nested.shape = operand->shape;
  nested.shape_text = operand->shape_text;
  nested.opcode = opcode;
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
  nested.name = Intern(absl::StrCat(opcode, "@", line_cursor_line_, ":",
                                    offset - line_start + 1));
  if (!options_.read_operands) nested.operands.clear();
  operand->name = nested.name;
  operand->shape = nested.shape;
  operand->shape_text = nested.shape_text;
  operand->output_index = HloOperand::kWholeResult;
  inline_.push_back(std::move(nested));
  return absl::OkStatus();
}

const Shape* Reader::Keep(Shape shape) {
  auto owned = std::make_shared<const Shape>(std::move(shape));
  made_shapes_.push_back(owned);
  if (keep_ != nullptr) keep_->push_back(owned);
  return owned.get();
}

absl::Status Reader::ReadKeptShape(const Shape** shape,
                                   absl::string_view* shape_text) {
  const size_t begin = pos_;
  Shape decoded;
  absl::Status status = ParseShapeAt(text_, &pos_, &decoded, shape_options_);
  if (!status.ok()) return status;
  *shape_text = text_.substr(begin, pos_ - begin);
  *shape = Keep(std::move(decoded));
  return absl::OkStatus();
}

const Shape* Reader::DefinedShape(absl::string_view name) {
  const int64_t d = FindDefinition(name);
  if (d >= 0) return DefinitionShape(d);
  if (tail_ && in_first_computation_) return ShapeBeforeTail(name);
  return nullptr;
}

const Shape* Reader::ShapeBeforeTail(absl::string_view name) {
  auto found = before_tail_.find(name);
  if (found != before_tail_.end()) return found->second;
  // Back through the lines before the part, to the start of its first
  // computation (a line that closes one or opens one), at most 4 MB; and
  // at most kBeforeTailBudget for all names of the part together (past it
  // the name is not found: the part is read again with the text before it,
  // rather than scanning 4 MB for each of many names).
  constexpr size_t kBeforeTailBudget = size_t{32} << 20;
  const char* data = text_.data();
  size_t line_end = tail_begin_;
  const Shape* shape = nullptr;
  while (line_end > 0 && tail_begin_ - line_end < (size_t{4} << 20)) {
    if (before_tail_scanned_ >= kBeforeTailBudget) return nullptr;
    size_t line = line_end - 1;
    while (line > 0 && data[line - 1] != '\n') --line;
    before_tail_scanned_ += line_end - line;
    size_t p = line;
    while (p < line_end && Is(data[p], kHorizontalSpace)) ++p;
    if (p < line_end && data[p] == '}') break;
    if (text_.substr(p, 5) == "ROOT ") p += 5;
    while (p < line_end && Is(data[p], kHorizontalSpace)) ++p;
    if (p < line_end && data[p] == '%') ++p;
    if (text_.substr(p, name.size()) == name &&
        (p + name.size() >= line_end ||
         !Is(data[p + name.size()], kNameChar))) {
      size_t q = p + name.size();
      while (q < line_end && Is(data[q], kHorizontalSpace)) ++q;
      if (q < line_end && data[q] == '=') {
        ++q;
        while (q < line_end && Is(data[q], kHorizontalSpace)) ++q;
        Shape decoded;
        if (LooksLikeShapeAt(q) &&
            ParseShapeAt(text_, &q, &decoded, shape_options_).ok()) {
          shape = Keep(std::move(decoded));
        }
        break;
      }
    }
    // A computation's header ends its line with '{'.
    size_t last = line_end;
    while (last > line && Is(data[last - 1], kSpace)) --last;
    if (last > line && data[last - 1] == '{' && !LineStartsInstruction(line)) {
      break;
    }
    line_end = line;
  }
  before_tail_.emplace(name, shape);
  return shape;
}

absl::Status Reader::InferShape(HloInstruction* in) {
  std::vector<const Shape*> operands;
  operands.reserve(in->operands.size());
  bool unknown_name = false;
  for (const HloOperand& operand : in->operands) {
    const Shape* shape = operand.shape;
    if (shape == nullptr) {
      shape = DefinedShape(operand.name);
      if (shape == nullptr) unknown_name = true;
      if (shape != nullptr && operand.has_output_index()) {
        shape = shape->IsTuple() && operand.output_index < shape->tuple_size()
                    ? &shape->tuple_shape(operand.output_index)
                    : nullptr;
      }
    }
    operands.push_back(shape);
  }
  const Shape* called_root = nullptr;
  if (in->opcode == "call" || in->opcode == "conditional") {
    std::vector<absl::string_view> callees = CalledComputationNames(*in);
    if (!callees.empty()) called_root = CalledRoot(callees[0]);
    if (called_root == nullptr) unknown_name = true;
  }
  absl::StatusOr<Shape> inferred =
      InferHloShape(in->opcode, operands, in->attributes, called_root);
  if (!inferred.ok()) {
    // In a tail the names may be defined before the part.
    if (tail_ && unknown_name) {
      return absl::AbortedError("a name defined before the part");
    }
    return absl::OkStatus();  // stays without a shape
  }
  // One kept Shape per inferred text in a module (a text of many shapeless
  // `add`s infers the same shape many times).
  in->shape_text = Intern(inferred->ToString(/*print_layout=*/true));
  auto [kept, added] = inferred_shapes_.try_emplace(in->shape_text.data());
  if (added) kept->second = Keep(*std::move(inferred));
  in->shape = kept->second;
  return absl::OkStatus();
}

const Shape* Reader::DefinitionShape(size_t i) {
  const Shape* shape = definitions_->ShapeIfCurrent(i, cache_generation_);
  if (shape != nullptr) return shape;
  definitions_->SetShape(i, nullptr, kKept);
  const absl::string_view shape_text = definitions_->shape_text(i);
  if (!shape_text.empty()) {
    size_t at = shape_text.data() - text_.data();
    Shape decoded;
    if (ParseShapeAt(text_, &at, &decoded, shape_options_).ok()) {
      shape = Keep(std::move(decoded));
      definitions_->SetShape(i, shape, kKept);
    }
  }
  return shape;
}

absl::Status Reader::CheckModuleHeaderRules() {
  size_t at = 0;
  absl::Status status = CheckHloModuleHeader(module_, text_.data(), &at);
  if (!status.ok()) return Error(at, status.message());
  return absl::OkStatus();
}

const Shape* Reader::CalledRoot(absl::string_view name) {
  const int64_t c = FindComputation(name, NameHash(name));
  if (c < 0) return inline_roots_.empty() ? nullptr : InlineRoot(name);
  return RootShape(&computation_roots_[c]);
}

const Shape* Reader::RootShape(ComputationRoot* root) {
  if (root->shape == nullptr && !root->shape_text.empty()) {
    size_t at = root->shape_text.data() - text_.data();
    Shape decoded;
    if (ParseShapeAt(text_, &at, &decoded, shape_options_).ok()) {
      root->shape = Keep(std::move(decoded));
    }
  }
  return root->shape;
}

absl::Status Reader::NoteComputationName() {
  computation_slot_ = -1;
  if (computation_.name.empty()) return absl::OkStatus();
  if (HasComputation(computation_.name)) {
    return Error(
        computation_.offset,
        absl::StrCat("computation '", computation_.name, "' is defined twice"));
  }
  computation_slot_ = static_cast<int64_t>(computation_names_.size());
  computation_names_.emplace_back(computation_.name, computation_.offset);
  computation_roots_.emplace_back();
  const auto* const names = computation_names_.data();
  computation_index_.Add(computation_.name,
                         static_cast<uint32_t>(computation_names_.size() - 1),
                         [names](uint32_t k) { return names[k].first; });
  return absl::OkStatus();
}

const Shape* FollowOutputIndexes(const Shape* shape, absl::string_view text,
                                 size_t at) {
  while (shape != nullptr && at < text.size() && text[at] == '#') {
    const size_t begin = ++at;
    int64_t index = 0;
    while (at < text.size() && text[at] >= '0' && text[at] <= '9' &&
           at - begin < 18) {
      index = index * 10 + (text[at++] - '0');
    }
    if (at == begin || !shape->IsTuple() || index >= shape->tuple_size()) {
      return nullptr;
    }
    shape = &shape->tuple_shape(index);
  }
  return shape;
}

const Shape* Reader::OperandShape(const HloOperand& operand) {
  if (operand.shape != nullptr) return operand.shape;
  const int64_t d = FindDefinition(operand.name);
  if (d < 0) return nullptr;
  const Shape* shape = DefinitionShape(d);
  if (!operand.has_output_index()) return shape;
  // `#N`, `#N#M`...: read from the text after the name.
  return FollowOutputIndexes(
      shape, text_, operand.name.data() - text_.data() + operand.name.size());
}

absl::Status Reader::CheckRules(const HloInstruction& in,
                                const HloOpcodeInfo* info, int stage) {
  size_t at = 0;
  // Operand shapes for the few rules that need them: written at the use,
  // else the definition's (earlier in the computation).
  const auto operand_shape = [&](size_t i) -> const Shape* {
    return i < in.operands.size() ? OperandShape(in.operands[i]) : nullptr;
  };
  const auto operand_text = [&](size_t i) -> absl::string_view {
    if (i >= in.operands.size()) return absl::string_view();
    const HloOperand& operand = in.operands[i];
    if (!operand.shape_text.empty() || operand.has_output_index()) {
      return operand.shape_text;
    }
    const int64_t d = FindDefinition(operand.name);
    return d >= 0 ? definitions_->shape_text(d) : absl::string_view();
  };
  // A rule whose operand is defined before the part (a tail's first
  // computation): JoinHloParts checks it against the definition.
  const auto unknown = [&](const HloOperandRule& rule) {
    if (!tail_ || !in_first_computation_ || links_ == nullptr ||
        rule.operand >= in.operands.size()) {
      return;
    }
    const HloOperand& operand = in.operands[rule.operand];
    if (operand.shape != nullptr || FindDefinition(operand.name) >= 0) return;
    // Once each: the same rule on the same operand passes or fails alike
    // (a large computation cut in two has many of them).
    if (!operand.has_output_index() &&
        !tail_rules_
             .emplace(static_cast<int>(rule.kind), operand.name,
                      operand.shape_text, rule.dimension, rule.constraint,
                      rule.branch_computations)
             .second) {
      return;
    }
    pending_rules_.push_back(HloPartLinks::Rule{
        rule, HloPartLinks::Name{
                  operand.name, operand.shape_text, operand.output_index,
                  static_cast<size_t>(operand.name.data() - text_.data())}});
  };
  absl::Status status =
      CheckHloInstruction(in, info, stage, in.operands.size(), text_.data(),
                          operand_shape, operand_text, unknown, &at);
  if (!status.ok()) return Error(at, status.message());
  return absl::OkStatus();
}

absl::Status Reader::UndefinedOperand(const HloOperand& operand) {
  const Use use{operand.name, operand.shape_text, operand.output_index,
                static_cast<size_t>(operand.name.data() - text_.data()), false};
  if (tail_ && in_first_computation_ && links_ != nullptr) {
    // For JoinHloParts, once each: a large computation cut in two uses its
    // first part's names (parameters, tuple elements) again and again.
    if (use.output_index >= 0 ||
        tail_uses_.emplace(use.name, use.shape_text).second) {
      uses_.push_back(use);
    }
    return absl::OkStatus();
  }
  if (tail_) return absl::AbortedError("a name defined before the part");
  return Error(use.offset,
               absl::StrCat("'", operand.name, "' is not defined in '",
                            computation_.name, "' before its use"));
}

absl::Status Reader::CheckInstruction(const HloInstruction& in,
                                      const int64_t* resolved) {
  const HloOpcodeInfo* info = FindHloOpcode(in.opcode);
  absl::string_view wrapped;
  const int stage = HloAsyncStage(info, in.opcode, &wrapped);
  unknown_opcode_ = info == nullptr && stage < 0;
  uint32_t kinds = 0;
  for (const HloAttribute& attribute : in.attributes) {
    kinds |= HloAttributeKindOf(attribute.name);
  }
  const bool operands = options_.read_operands;
  if (operands) {
    absl::Status status;
    if (HloInstructionHasRules(info, in.operands.size(), stage, kinds)) {
      status = CheckRules(in, info, stage);
      if (!status.ok()) return status;
    }
    // Operands are defined before their use (as XLA's parser reads them).
    for (size_t i = 0; i < in.operands.size(); ++i) {
      if (resolved != nullptr && resolved[i] >= 0) continue;
      const HloOperand& operand = in.operands[i];
      const int64_t d = FindDefinition(operand.name);
      if (d < 0) {
        status = UndefinedOperand(operand);
      } else if (!operand.shape_text.empty() || operand.has_output_index()) {
        // A shape written at the use: most are the definition's text.
        if (!operand.has_output_index() &&
            SameName(definitions_->shape_text(d), operand.shape_text)) {
          continue;
        }
        status = CheckUse(
            Use{operand.name, operand.shape_text, operand.output_index,
                static_cast<size_t>(operand.name.data() - text_.data()), false},
            d);
      }
      if (!status.ok()) return status;
    }
  }
  if (in.parameter_number.has_value()) {
    const int64_t number = *in.parameter_number;
    if (!NewParameterNumber(number)) {
      return Error(in.offset,
                   absl::StrCat("duplicate parameter number ", number, " in '",
                                computation_.name, "'"));
    }
    parameter_numbers_.push_back(number);
  }
  if ((kinds & (kHloAttrCallee | kHloAttrControl)) != 0) {
    for (const HloAttribute& attribute : in.attributes) {
      const uint32_t kind = HloAttributeKindOf(attribute.name);
      // A value the reader made (the names of computations written inline,
      // which exist; only the careful path makes them) is not in the text.
      if ((kind & kHloAttrCallee) != 0 &&
          (resolved != nullptr ||
           (attribute.value.data() >= text_.data() &&
            attribute.value.data() < text_.data() + text_.size()))) {
        callee_scratch_.clear();
        AppendComputationNamesOf(attribute.value, &callee_scratch_);
        // Most are defined already (XLA prints a callee before its
        // callers); the rest are checked when the module ends.
        for (absl::string_view callee : callee_scratch_) {
          NoteCallee(callee, callee.data() - text_.data());
        }
      }
      if ((kind & kHloAttrControl) == 0) continue;
      // {%a, %b}
      absl::string_view list = attribute.value;
      size_t p = 0;
      while (p < list.size()) {
        while (p < list.size() && !Is(list[p], kNameStart)) ++p;
        const size_t begin = p;
        while (p < list.size() && Is(list[p], kNameChar)) ++p;
        if (p > begin) {
          uses_.push_back(Use{
              list.substr(begin, p - begin), absl::string_view(),
              HloOperand::kWholeResult,
              static_cast<size_t>(list.data() + begin - text_.data()), true});
        }
      }
    }
  }
  if (stage < 0) return absl::OkStatus();
  return CheckAsync(in, stage, wrapped);
}

absl::Status Reader::CheckAsync(const HloInstruction& in, int stage,
                                absl::string_view wrapped) {
  const bool operands = options_.read_operands;
  AsyncOp op;
  op.name = in.name;
  op.wrapped = wrapped;
  if (absl::optional<absl::string_view> calls =
          FindHloAttribute(in.attributes, "calls")) {
    op.calls = *calls;
    if (!op.calls.empty() && op.calls[0] == '%') op.calls.remove_prefix(1);
  }
  if (absl::optional<absl::string_view> thread =
          FindHloAttribute(in.attributes, "async_execution_thread")) {
    op.thread = *thread;
  }
  if (stage == 0) {
    if (op.thread.empty()) op.thread = "\"main\"";
    if (!op.calls.empty()) {
      auto inserted = async_calls_.emplace(op.calls, in.offset);
      if (!inserted.second) {
        return Error(in.offset,
                     absl::StrCat("computation '", op.calls,
                                  "' is called by more than one async op"));
      }
    }
    AddAsyncOp(op);
    return absl::OkStatus();
  }
  if (!operands || in.operands.empty()) return absl::OkStatus();
  // update or done: the first operand is the chain's start or an update.
  const HloOperand& first = in.operands[0];
  const auto found = async_index_.find(first.name);
  const AsyncOp* from =
      found == async_index_.end() ? nullptr : &async_ops_[found->second];
  const size_t first_at = first.name.data() - text_.data();
  if (from == nullptr) {
    if (tail_ && FindDefinition(first.name) < 0) {
      return absl::AbortedError("an async start before the part");
    }
    return Error(first_at,
                 absl::StrCat("'", in.opcode,
                              "' expects an asynchronous operation as its "
                              "first operand; '",
                              first.name, "' is not one"));
  }
  if (!wrapped.empty() && wrapped != from->wrapped) {
    return Error(in.offset,
                 absl::StrCat("'", in.opcode, "' continues '", from->name,
                              "', which wraps '",
                              from->wrapped.empty() ? "async" : from->wrapped,
                              "', not '", wrapped, "'"));
  }
  if (!op.calls.empty() && !from->calls.empty() && op.calls != from->calls) {
    return Error(in.offset,
                 absl::StrCat("'", in.opcode, "' calls '", op.calls,
                              "' but its start calls '", from->calls, "'"));
  }
  if (!op.thread.empty() && op.thread != from->thread) {
    return Error(in.offset,
                 absl::StrCat("'", in.opcode, "' runs on thread ", op.thread,
                              " but its start on ", from->thread));
  }
  op.wrapped = from->wrapped;
  op.thread = from->thread;
  if (op.calls.empty()) op.calls = from->calls;
  if (stage == 1) AddAsyncOp(op);
  return absl::OkStatus();
}

namespace {

// True when `a` and `b` are the same shape text once layouts (`{...}` after
// a `]`) and comments are left out of both: `(f32[2], s32[])` and
// `(f32[2]{0}, s32[])`.
bool SameWithoutLayouts(absl::string_view a, absl::string_view b) {
  if (SameName(a, b)) return true;
  // Fast: the runs of both between layouts are byte for byte the same (XLA
  // prints both the same way).
  {
    // The end of the run from `p` (the next '{'), checked to open a layout;
    // and the end of the layout at `p`.
    const auto run_end = [](absl::string_view s, size_t p) {
      const void* open = std::memchr(s.data() + p, '{', s.size() - p);
      return open == nullptr ? s.size()
                             : static_cast<const char*>(open) - s.data();
    };
    // Both texts decoded, so their layouts hold no braces: the first '}'
    // closes one.
    const auto layout_end = [](absl::string_view s, size_t p) {
      const void* close = std::memchr(s.data() + p, '}', s.size() - p);
      return close == nullptr ? s.size()
                              : static_cast<const char*>(close) - s.data() + 1;
    };
    size_t i = 0;
    size_t j = 0;
    bool same = true;
    while (i < a.size() || j < b.size()) {
      const size_t ka = run_end(a, i);
      const size_t kb = run_end(b, j);
      if (ka - i != kb - j ||
          std::memcmp(a.data() + i, b.data() + j, ka - i) != 0 ||
          (ka < a.size() && (ka == 0 || a[ka - 1] != ']')) ||
          (kb < b.size() && (kb == 0 || b[kb - 1] != ']'))) {
        same = false;
        break;
      }
      i = ka < a.size() ? layout_end(a, ka) : ka;
      j = kb < b.size() ? layout_end(b, kb) : kb;
    }
    if (same) return true;
  }
  size_t i = 0;
  size_t j = 0;
  auto skip = [](absl::string_view s, size_t* p) {
    while (*p < s.size()) {
      const char c = s[*p];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
        ++*p;
      } else if (c == '/' && *p + 1 < s.size() && s[*p + 1] == '*') {
        const size_t close = s.find("*/", *p + 2);
        *p = close == absl::string_view::npos ? s.size() : close + 2;
      } else if (c == '{' && *p > 0 && s[*p - 1] == ']') {
        int depth = 0;
        while (*p < s.size()) {
          if (s[*p] == '{') ++depth;
          if (s[*p] == '}' && --depth == 0) {
            ++*p;
            break;
          }
          ++*p;
        }
      } else {
        return;
      }
    }
  };
  while (true) {
    skip(a, &i);
    skip(b, &j);
    if (i >= a.size() || j >= b.size()) return i >= a.size() && j >= b.size();
    if (a[i] != b[j]) return false;
    ++i;
    ++j;
  }
}

}  // namespace

absl::Status Reader::CheckUse(const Use& use, int64_t d) {
  const Shape* used = nullptr;  // the shape the use refers to
  if (use.output_index >= 0) {
    // `#N`, or `#N#M...`: each index into the tuple before it.
    const Shape* shape = DefinitionShape(d);
    size_t p = use.offset + use.name.size();
    while (shape != nullptr && p < text_.size() && text_[p] == '#') {
      const size_t begin = ++p;
      int64_t index = 0;
      while (p < text_.size() && text_[p] >= '0' && text_[p] <= '9' &&
             p - begin < 18) {
        index = index * 10 + (text_[p++] - '0');
      }
      if (!shape->IsTuple()) {
        return Error(
            begin - 1,
            absl::StrCat("'#", index, "' names an output of '", use.name,
                         "', but that shape is not a tuple"));
      }
      if (index >= shape->tuple_size()) {
        return Error(begin - 1, absl::StrCat("output ", index, " of '",
                                             use.name, "' is out of bounds (",
                                             shape->tuple_size(), " outputs)"));
      }
      shape = &shape->tuple_shape(index);
    }
    used = shape;
  }
  if (use.shape_text.empty()) return absl::OkStatus();
  if (use.output_index < 0 && definitions_->shape_text(d) == use.shape_text) {
    return absl::OkStatus();
  }
  const Shape* defined = use.output_index < 0 ? DefinitionShape(d) : used;
  size_t at = use.shape_text.data() - text_.data();
  Shape written;
  if (defined == nullptr ||
      !ParseShapeAt(text_, &at, &written, shape_options_).ok()) {
    return absl::OkStatus();
  }
  if (!Shape::Equal().IgnoreLayout().IgnoreDynamicDimension()(written,
                                                              *defined)) {
    return Error(use.shape_text.data() - text_.data(),
                 absl::StrCat("operand shape ", use.shape_text,
                              " differs from the shape of '", use.name, "', ",
                              defined->ToString(true)));
  }
  return absl::OkStatus();
}

absl::Status Reader::CheckComputationEnd(int64_t root) {
  // A tail's first computation began before the part: what it does not
  // define is left to JoinHloParts.
  const bool first = tail_ && in_first_computation_ && links_ != nullptr;
  if (first) {
    FillComputationSide(&links_->first);
    links_->first_computation_closed = true;
    in_first_computation_ = false;
  }
  for (const Use& use : uses_) {
    const int64_t d = FindDefinition(use.name);
    if (first && d < 0) continue;
    if (d < 0) {
      if (tail_) return absl::AbortedError("a name defined before the part");
      return Error(use.offset,
                   absl::StrCat("'", use.name, "' is not defined in '",
                                computation_.name, "'"));
    }
    absl::Status status = CheckUse(use, d);
    if (!status.ok()) return status;
  }
  if (root >= 0 && computation_.has_signature && !result_text_.empty()) {
    const Definition def = definitions_->Get(root);
    if (!def.shape_text.empty() &&
        !SameWithoutLayouts(result_text_, def.shape_text)) {
      const Shape* shape = DefinitionShape(root);
      if (shape != nullptr &&
          !Shape::Equal().IgnoreLayout().IgnoreDynamicDimension()(
              computation_.result_shape, *shape)) {
        return Error(result_text_.data() - text_.data(),
                     absl::StrCat("computation '", computation_.name,
                                  "' returns ", result_text_, " but its root '",
                                  def.name, "' is ", def.shape_text));
      }
    }
  }
  return absl::OkStatus();
}

void Reader::LookUpCallees() {
  const size_t n = called_count_;
  called_count_ = 0;
  uint64_t hashes[kCalledBatch];
  for (size_t i = 0; i < n; ++i) {
    hashes[i] = NameHash(called_batch_[i].first);
    computation_index_.Prefetch(hashes[i]);
  }
  const auto* const names = computation_names_.data();
  const size_t count = computation_names_.size();
  int64_t guesses[kCalledBatch];
  for (size_t i = 0; i < n; ++i) {
    guesses[i] = computation_index_.FirstWithTag(hashes[i]);
    if (guesses[i] >= 0 && static_cast<size_t>(guesses[i]) < count) {
      __builtin_prefetch(&names[guesses[i]]);
    }
  }
  for (size_t i = 0; i < n; ++i) {
    if (guesses[i] >= 0 && static_cast<size_t>(guesses[i]) < count) {
      __builtin_prefetch(names[guesses[i]].first.data());
    }
  }
  for (size_t i = 0; i < n; ++i) {
    if (!HasComputation(called_batch_[i].first, hashes[i])) {
      callees_.push_back(called_batch_[i]);
    }
  }
}

absl::Status Reader::CheckModuleEnd() {
  LookUpCallees();
  if (tail_ && in_first_module_ && links_ != nullptr) {
    FillModuleSide(&links_->first);
    links_->first_module_closed = true;
    in_first_module_ = false;
    return absl::OkStatus();
  }
  for (const auto& callee : callees_) {
    if (HasComputation(callee.first)) continue;
    if (tail_) return absl::AbortedError("a computation before the part");
    return Error(callee.second,
                 absl::StrCat("no computation named '", callee.first, "'"));
  }
  return absl::OkStatus();
}

void Reader::FillComputationSide(HloPartLinks::Side* side) {
  side->definitions = definitions_;
  side->pending_uses.clear();
  for (const Use& use : uses_) {
    if (FindDefinition(use.name) >= 0) continue;
    side->pending_uses.push_back(use);
  }
  side->pending_rules = pending_rules_;
  side->parameter_numbers = parameter_numbers_;
  side->signature_result =
      computation_.has_signature ? result_text_ : absl::string_view();
  side->root_marked = root_index_ >= 0;
  side->root_text = root_index_ >= 0 ? definitions_->shape_text(root_index_)
                                     : absl::string_view();
  side->last_text = definitions_->empty()
                        ? absl::string_view()
                        : definitions_->shape_text(definitions_->size() - 1);
}

void Reader::FillModuleSide(HloPartLinks::Side* side) {
  LookUpCallees();
  side->computations.clear();
  side->pending_callees.clear();
  side->async_calls.clear();
  side->computations.reserve(computation_names_.size());
  for (const auto& entry : computation_names_) {
    side->computations.push_back(entry.first);
  }
  side->pending_callees.reserve(callees_.size());
  for (const auto& callee : callees_) {
    if (!HasComputation(callee.first)) {
      side->pending_callees.push_back(callee.first);
    }
  }
  side->async_calls.reserve(async_calls_.size());
  for (const auto& call : async_calls_) side->async_calls.push_back(call.first);
}

void Reader::FillLastLinks() {
  if (links_ == nullptr) return;
  links_->has_last = true;
  FillComputationSide(in_first_computation_ ? &links_->first : &links_->last);
  FillModuleSide(in_first_module_ ? &links_->first : &links_->last);
}

}  // namespace hlo_internal

namespace {

absl::StatusOr<Shape> DecodeText(absl::string_view text) {
  size_t at = 0;
  Shape shape;
  absl::Status status = ParseShapeAt(text, &at, &shape);
  if (!status.ok()) return status;
  return shape;
}

// The checks of CheckComputationEnd and CheckInstruction for uses, operand
// rules, parameter numbers and a root across cuts.
struct SpanningComputation {
  absl::string_view text;
  // The parts' definitions, in text order.
  std::vector<const hlo_internal::DefinitionTable*> definitions;
  // Control predecessors not found yet: resolved by any definition.
  std::vector<HloPartLinks::Name> anywhere;
  absl::flat_hash_set<int64_t> parameter_numbers;
  absl::string_view signature;
  bool root_marked = false;
  absl::string_view root_text;

  void Reset(const HloPartLinks::Side& side) {
    definitions.clear();
    anywhere.clear();
    parameter_numbers.clear();
    signature = side.signature_result;
    root_marked = false;
    root_text = absl::string_view();
    Add(side);
  }
  // The shape text of the latest definition of `name` among the parts so
  // far (the latest part first), in `*defined`; false when none defines it.
  bool Lookup(absl::string_view name, absl::string_view* defined) const {
    const uint64_t hash = hlo_internal::NameHash(name);
    for (size_t p = definitions.size(); p-- > 0;) {
      const int64_t d = definitions[p]->Find(name, hash);
      if (d >= 0) {
        *defined = definitions[p]->shape_text(d);
        return true;
      }
    }
    return false;
  }
  // The shape a use refers to (its definition's, or the tuple element its
  // `#N#M...` names), decoded into `*storage`; null when not known or when
  // an index does not exist (`*bad`).
  const Shape* UsedShape(const HloPartLinks::Name& use,
                         absl::string_view defined, Shape* storage,
                         bool* bad) const {
    *bad = false;
    absl::StatusOr<Shape> shape = DecodeText(defined);
    if (!shape.ok()) return nullptr;
    *storage = *std::move(shape);
    if (use.output_index < 0) return storage;
    const Shape* s = hlo_internal::FollowOutputIndexes(
        storage, text, use.offset + use.name.size());
    *bad = s == nullptr;
    return s;
  }
  bool Check(const HloPartLinks::Name& use, absl::string_view defined) const {
    if (use.output_index < 0 &&
        (use.shape_text.empty() || use.shape_text == defined)) {
      return true;
    }
    Shape storage;
    bool bad = false;
    const Shape* s = UsedShape(use, defined, &storage, &bad);
    if (bad) return false;
    if (s == nullptr || use.shape_text.empty()) return true;
    absl::StatusOr<Shape> written = DecodeText(use.shape_text);
    return !written.ok() ||
           Shape::Equal().IgnoreLayout().IgnoreDynamicDimension()(*written, *s);
  }
  bool CheckRule(const HloPartLinks::Rule& rule,
                 absl::string_view defined) const {
    Shape storage;
    bool bad = false;
    const Shape* s = UsedShape(rule.operand, defined, &storage, &bad);
    if (bad) return false;
    if (s == nullptr) return true;  // as where the shape is not known
    size_t at = 0;
    return CheckHloOperandRule(
               rule.rule, *s,
               rule.operand.output_index < 0 ? defined : absl::string_view(),
               &at)
        .ok();
  }
  bool Add(const HloPartLinks::Side& side) {
    // Operands are defined before their use: in the parts before.
    absl::string_view defined;
    for (const HloPartLinks::Name& use : side.pending_uses) {
      if (use.control) {
        anywhere.push_back(use);
      } else if (!Lookup(use.name, &defined) || !Check(use, defined)) {
        return false;
      }
    }
    for (const HloPartLinks::Rule& rule : side.pending_rules) {
      if (!Lookup(rule.operand.name, &defined) || !CheckRule(rule, defined)) {
        return false;
      }
    }
    for (int64_t number : side.parameter_numbers) {
      if (!parameter_numbers.insert(number).second) return false;
    }
    if (side.definitions != nullptr) {
      definitions.push_back(side.definitions.get());
    }
    if (side.root_marked) {
      if (root_marked) return false;
      root_marked = true;
      root_text = side.root_text;
    }
    return true;
  }
  bool Close(const HloPartLinks::Side& closing) {
    absl::string_view defined;
    for (const HloPartLinks::Name& use : anywhere) {
      if (!Lookup(use.name, &defined)) return false;
    }
    const absl::string_view root = root_marked ? root_text : closing.last_text;
    if (!signature.empty() && !root.empty()) {
      absl::StatusOr<Shape> want = DecodeText(signature);
      absl::StatusOr<Shape> got = DecodeText(root);
      if (want.ok() && got.ok() &&
          !Shape::Equal().IgnoreLayout().IgnoreDynamicDimension()(*want,
                                                                  *got)) {
        return false;
      }
    }
    return true;
  }
};

struct SpanningModule {
  absl::flat_hash_set<absl::string_view> computations;
  absl::flat_hash_set<absl::string_view> async_calls;
  std::vector<absl::string_view> callees;

  bool Reset(const HloPartLinks::Side& side) {
    computations.clear();
    async_calls.clear();
    callees.clear();
    return Add(side);
  }
  bool Add(const HloPartLinks::Side& side) {
    for (absl::string_view c : side.computations) {
      if (!computations.insert(c).second) return false;  // twice
    }
    for (absl::string_view c : side.async_calls) {
      if (!async_calls.insert(c).second) return false;  // twice
    }
    callees.insert(callees.end(), side.pending_callees.begin(),
                   side.pending_callees.end());
    return true;
  }
  bool Close() const {
    for (absl::string_view callee : callees) {
      if (!computations.contains(callee)) return false;
    }
    return true;
  }
};

}  // namespace

bool JoinHloParts(absl::string_view text, const HloPartLinks& head,
                  const std::vector<const HloPartLinks*>& tails) {
  if (!head.has_last) return false;
  // The spanning computation keeps views of the Sides: none of them is a
  // temporary.
  static const HloPartLinks::Side kNone;
  SpanningComputation computation;
  computation.text = text;
  SpanningModule module;
  computation.Reset(head.last);
  if (!module.Reset(head.last)) return false;
  for (const HloPartLinks* tail : tails) {
    if (!computation.Add(tail->first)) return false;
    if (tail->first_computation_closed) {
      if (!computation.Close(tail->first)) return false;
      computation.Reset(tail->has_last ? tail->last : kNone);
    }
    if (!module.Add(tail->first)) return false;
    if (tail->first_module_closed) {
      if (!module.Close()) return false;
      if (!module.Reset(tail->has_last ? tail->last : kNone)) {
        return false;
      }
    }
  }
  return true;
}

}  // namespace hlolayout
