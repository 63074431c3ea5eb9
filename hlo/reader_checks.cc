// The reader's rules beyond syntax (reader_internal.h): what XLA's parser
// checks of an instruction (hlo/checks.h) and across instructions
// (references, parameter numbers, roots against signatures, called
// computations, asynchronous chains).
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "hlolayout/hlo/checks.h"
#include "hlolayout/hlo/reader_internal.h"
#include "hlolayout/hlo/shape_inference.h"
#include "hlolayout/parser/shape_parser.h"

namespace hlolayout {
namespace hlo_internal {

absl::Status Reader::CheckModuleHeaderRules() {
  size_t at = 0;
  absl::Status status = CheckHloModuleHeader(module_, text_.data(), &at);
  if (!status.ok()) return Error(at, status.message());
  return absl::OkStatus();
}

absl::Status Reader::NoteComputationName() {
  computation_slot_ = -1;
  calls_limit_ = computations_->size();
  if (computation_.name.empty()) return absl::OkStatus();
  const uint64_t hash = NameHash(computation_.name);
  if (HasComputation(computation_.name, hash)) {
    return Error(
        computation_.offset,
        absl::StrCat("computation '", computation_.name, "' is defined twice"));
  }
  computation_slot_ = static_cast<int64_t>(computations_->size());
  calls_limit_ = computations_->size();
  computations_->Add(computation_.name, hash, computation_.offset);
  computation_roots_.emplace_back();
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

absl::Status Reader::CheckRules(const DraftInstruction& in,
                                const HloOpcodeInfo* info, int stage) {
  size_t at = 0;
  // Operand shapes for the few rules that need them: written at the use,
  // else the definition's (earlier in the computation).
  const auto operand_shape = [&](size_t i) -> const Shape* {
    return i < in.operands().size() ? OperandShape(in.operands()[i]) : nullptr;
  };
  const auto operand_text = [&](size_t i) -> absl::string_view {
    if (i >= in.operands().size()) return absl::string_view();
    const HloOperand& operand = in.operands()[i];
    const absl::string_view shape_text = in.operand_shape_text(i);
    if (!shape_text.empty() || operand.has_output_index()) return shape_text;
    const int64_t d = FindDefinition(operand.name);
    return d >= 0 ? definitions_->shape_text(d) : absl::string_view();
  };
  // A rule whose operand is defined before the part (a tail's first
  // computation): JoinHloParts checks it against the definition.
  const auto unknown = [&](const HloOperandRule& rule) {
    if (!tail_ || !in_first_computation_ || links_ == nullptr ||
        rule.operand >= in.operands().size()) {
      return;
    }
    const HloOperand& operand = in.operands()[rule.operand];
    if (operand.shape != nullptr || FindDefinition(operand.name) >= 0) return;
    // Once each: the same rule on the same operand passes or fails alike
    // (a large computation cut in two has many of them).
    if (!operand.has_output_index() &&
        !tail_rules_
             .emplace(static_cast<int>(rule.kind), operand.name,
                      in.operand_shape_text(rule.operand), rule.dimension,
                      rule.constraint, rule.branch_computations)
             .second) {
      return;
    }
    pending_rules_.push_back(HloPartLinks::Rule{
        rule, HloPartLinks::Name{
                  operand.name, in.operand_shape_text(rule.operand),
                  operand.output_index,
                  static_cast<size_t>(operand.name.data() - text_.data())}});
  };
  absl::Status status =
      CheckHloInstruction(in, info, stage, in.operands().size(), text_.data(),
                          operand_shape, operand_text, unknown, &at);
  if (!status.ok()) return Error(at, status.message());
  return absl::OkStatus();
}

absl::Status Reader::UndefinedOperand(const HloOperand& operand,
                                      absl::string_view shape_text) {
  const Use use{operand.name, shape_text, operand.output_index,
                static_cast<size_t>(operand.name.data() - text_.data()), false};
  if (RecordsBeforePart()) {
    // For JoinHloParts, once each: a large computation cut in two uses its
    // first part's names (parameters, tuple elements) again and again.
    if (use.output_index >= 0 ||
        before_uses_.Add(use.name, NameHash(use.name), use.shape_text,
                         LastingShape(operand.shape), cache_generation_)) {
      uses_.push_back(use);
    }
    return absl::OkStatus();
  }
  if (tail_) return absl::AbortedError("a name defined before the part");
  return Error(use.offset,
               absl::StrCat("'", operand.name, "' is not defined in '",
                            computation_.name, "' before its use"));
}

void Reader::RecordAttributeFacts(DraftInstruction& in, uint32_t kinds) {
  uint8_t facts = kHloFactsKnown;
  if ((kinds & kHloAttrCallee) != 0) facts |= kHloFactCallee;
  if ((kinds & kHloAttrControl) != 0) facts |= kHloFactControl;
  in.metadata_attribute = -1;
  // HloInstruction::decoded_attribute: which one by the opcode.
  in.decoded_attribute = -1;
  const bool fusion = in.opcode == HloOpcode::kFusion;
  const bool custom_call = in.opcode == HloOpcode::kCustomCall;
  for (size_t i = 0; i < in.attributes().size(); ++i) {
    const HloAttribute& a = in.attributes()[i];
    switch (a.name().size()) {
      case 4:
        if (Eq(a.name(), "body")) {
          if ((facts & (kHloFactBody | kHloFactCondition)) == 0) {
            facts |= kHloFactBodyFirst;
          }
          facts |= kHloFactBody;
        } else if (fusion && in.decoded_attribute == -1 &&
                   Eq(a.name(), "kind")) {
          const absl::optional<HloFusionKind> kind =
              ParseHloFusionKind(a.value());
          in.decoded_attribute = kind.has_value()
                                     ? static_cast<int32_t>(*kind)
                                     : HloInstruction::kAskAttributes;
        }
        break;
      case 5:
        if (!fusion && !custom_call && in.decoded_attribute == -1 &&
            Eq(a.name(), "index")) {
          int32_t n = 0;
          in.decoded_attribute = absl::SimpleAtoi(a.value(), &n) && n >= 0
                                     ? n
                                     : HloInstruction::kAskAttributes;
        }
        break;
      case 18:
        if (custom_call && in.decoded_attribute == -1 &&
            Eq(a.name(), "custom_call_target")) {
          in.decoded_attribute =
              i <= kHloTargetPositionMask
                  ? static_cast<int32_t>(
                        i | size_t{HloTargetFamilies(StripHloQuotes(a.value()))}
                                << kHloTargetFamilyShift)
                  : HloInstruction::kAskAttributes;
        }
        break;
      case 8:
        if (in.metadata_attribute == -1 && Eq(a.name(), "metadata")) {
          in.metadata_attribute = i <= INT8_MAX
                                      ? static_cast<int8_t>(i)
                                      : HloInstruction::kAskAttributes;
        }
        break;
      case 9:
        if (Eq(a.name(), "condition")) facts |= kHloFactCondition;
        break;
      case 26:
        if (Eq(a.name(), "output_to_operand_aliasing")) {
          facts |= kHloFactOperandAliasing;
        }
        break;
      default:
        break;
    }
  }
  in.attribute_facts = facts;
}

absl::Status Reader::CheckInstruction(DraftInstruction& in,
                                      const int64_t* resolved) {
  const HloOpcodeInfo* info = HloOpcodeInfoOf(in.opcode);
  absl::string_view wrapped;
  const int stage = HloAsyncStage(info, in.opcode_name(), &wrapped);
  unknown_opcode_ = info == nullptr && stage < 0;
  uint32_t kinds = 0;
  for (const HloAttribute& attribute : in.attributes()) {
    kinds |= HloAttributeKindOf(attribute.name());
  }
  const bool operands = options_.read_operands;
  // Every record gets its facts and operand links, a visitor streamed to
  // too; except that in the first computation of a part after a cut (read
  // on its own thread), a streamed visitor sees no index (-1): the part
  // does not know where in its computation it begins (a module collected
  // is linked again once the parts are joined).
  const bool link = collect_ != nullptr || !(tail_ && in_first_computation_);
  RecordAttributeFacts(in, kinds);
  for (size_t i = 0; i < in.operand_list.size(); ++i) {
    in.operand_list[i].index = operands && link && resolved != nullptr
                                   ? IndexOfDefinition(resolved[i])
                                   : -1;
  }
  if (operands) {
    absl::Status status;
    if (HloInstructionHasRules(info, in.operands().size(), stage, kinds)) {
      status = CheckRules(in, info, stage);
      if (!status.ok()) return status;
    }
    // Operands are defined before their use (as XLA's parser reads them).
    for (size_t i = 0; i < in.operands().size(); ++i) {
      // Looked up by FastInstruction (or recorded already, kBeforePart).
      if (resolved != nullptr && resolved[i] != -1) continue;
      HloOperand& operand = in.operand_list[i];
      const absl::string_view shape_text = in.operand_shape_text(i);
      const int64_t d = FindDefinition(operand.name);
      if (link) operand.index = IndexOfDefinition(d);
      if (d < 0) {
        status = UndefinedOperand(operand, shape_text);
      } else if (!shape_text.empty() || operand.has_output_index()) {
        // A shape written at the use: most are the definition's text.
        if (!operand.has_output_index() &&
            SameName(definitions_->shape_text(d), shape_text)) {
          continue;
        }
        status = CheckUse(
            Use{operand.name, shape_text, operand.output_index,
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
    parameter_offsets_.push_back(in.offset);
    parameter_texts_.push_back(in.shape_text());
  }
  if ((kinds & (kHloAttrCallee | kHloAttrControl)) != 0) {
    for (const HloAttribute& attribute : in.attributes()) {
      const uint32_t kind = HloAttributeKindOf(attribute.name());
      // A value the reader made (the names of computations written inline,
      // which exist; only the careful path makes them) is not in the text.
      if ((kind & kHloAttrCallee) != 0 &&
          (resolved != nullptr ||
           (attribute.value().data() >= text_.data() &&
            attribute.value().data() < text_.data() + text_.size()))) {
        callee_scratch_.clear();
        AppendComputationNamesOf(attribute.value(), &callee_scratch_);
        // Most are defined already (XLA prints a callee before its
        // callers); the rest are checked when the module ends.
        for (absl::string_view callee : callee_scratch_) {
          NoteCallee(callee, callee.data() - text_.data());
        }
      }
      if ((kind & kHloAttrControl) == 0) continue;
      // {%a, %b}: spaces, line breaks, commas and comments between names.
      for (absl::string_view name : HloValueNames(attribute.value())) {
        uses_.push_back(Use{name, absl::string_view(), HloOperand::kWholeResult,
                            static_cast<size_t>(name.data() - text_.data()),
                            true});
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
  op.name = in.name();
  op.wrapped = wrapped;
  if (absl::optional<absl::string_view> calls =
          FindHloAttribute(in.attributes(), "calls")) {
    op.calls = *calls;
    if (!op.calls.empty() && op.calls[0] == '%') op.calls.remove_prefix(1);
  }
  if (absl::optional<absl::string_view> thread =
          FindHloAttribute(in.attributes(), "async_execution_thread")) {
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
  if (!operands || in.operands().empty()) return absl::OkStatus();
  // update or done: the first operand is the chain's start or an update.
  const HloOperand& first = in.operands()[0];
  const auto found = async_index_.find(first.name);
  const AsyncOp* from =
      found == async_index_.end() ? nullptr : &async_ops_[found->second];
  const size_t first_at = first.name.data() - text_.data();
  if (from == nullptr) {
    if (tail_ && FindDefinition(first.name) < 0) {
      return absl::AbortedError("an async start before the part");
    }
    return Error(first_at,
                 absl::StrCat("'", in.opcode_name(),
                              "' expects an asynchronous operation as its "
                              "first operand; '",
                              first.name, "' is not one"));
  }
  if (!wrapped.empty() && wrapped != from->wrapped) {
    return Error(in.offset,
                 absl::StrCat("'", in.opcode_name(), "' continues '",
                              from->name, "', which wraps '",
                              from->wrapped.empty() ? "async" : from->wrapped,
                              "', not '", wrapped, "'"));
  }
  if (!op.calls.empty() && !from->calls.empty() && op.calls != from->calls) {
    return Error(in.offset,
                 absl::StrCat("'", in.opcode_name(), "' calls '", op.calls,
                              "' but its start calls '", from->calls, "'"));
  }
  if (!op.thread.empty() && op.thread != from->thread) {
    return Error(in.offset,
                 absl::StrCat("'", in.opcode_name(), "' runs on thread ",
                              op.thread, " but its start on ", from->thread));
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
  if (!first) {
    absl::Status status = CheckNamesAndParameters();
    if (!status.ok()) return status;
  }
  if (root >= 0 && computation_.has_signature && !result_text_.empty()) {
    const Definition def = definitions_->Get(root);
    if (!def.shape_text.empty() &&
        !SameWithoutLayouts(result_text_, def.shape_text)) {
      const Shape* shape = DefinitionShape(root);
      if (shape != nullptr &&
          !Shape::Equal().IgnoreLayout().IgnoreDynamicDimension()(
              *computation_.result_shape, *shape)) {
        return Error(result_text_.data() - text_.data(),
                     absl::StrCat("computation '", computation_.name,
                                  "' returns ", result_text_, " but its root '",
                                  def.name, "' is ", def.shape_text));
      }
    }
  }
  return absl::OkStatus();
}

absl::Status Reader::CheckNamesAndParameters() {
  // XLA's parser keeps one instruction per name in a computation.
  int64_t earlier = -1;
  const int64_t twice = definitions_->FindDuplicate(&earlier);
  if (twice >= 0) {
    const absl::string_view name = definitions_->name(twice);
    const int64_t line =
        earlier >= 0 ? LineOfName(definitions_->name(earlier)) : 0;
    return Error(
        static_cast<size_t>(name.data() - text_.data()),
        absl::StrCat("instruction '", name, "' is defined twice in '",
                     computation_.name, "'",
                     line > 0 ? absl::StrCat(" (first on line ", line, ")")
                              : std::string()));
  }
  // XLA numbers a computation's parameters 0 to count - 1 (each once).
  // With keep_going, a computation whose instructions were refused may have
  // lost a parameter: its numbers say nothing more.
  if (errors_ != body_errors_) return absl::OkStatus();
  const int64_t count = static_cast<int64_t>(parameter_numbers_.size());
  for (size_t i = 0; i < parameter_numbers_.size(); ++i) {
    if (parameter_numbers_[i] >= count) {
      return Error(
          parameter_offsets_[i],
          absl::StrCat("parameter number ", parameter_numbers_[i],
                       " is out of range: '", computation_.name, "' has ",
                       count, count == 1 ? " parameter" : " parameters"));
    }
  }
  return absl::OkStatus();
}

int64_t Reader::LineOfName(absl::string_view name) const {
  if (name.data() < text_.data() ||
      name.data() >= text_.data() + text_.size()) {
    return 0;  // a name the reader made
  }
  return error_locator_.Locate(static_cast<size_t>(name.data() - text_.data()))
      .line;
}

void Reader::LookUpCallees() {
  const size_t n = called_count_;
  called_count_ = 0;
  uint64_t hashes[kCalledBatch];
  for (size_t i = 0; i < n; ++i) {
    hashes[i] = NameHash(called_batch_[i].name);
    computations_->Prefetch(hashes[i]);
  }
  const auto* const names = computations_->data();
  const size_t count = computations_->size();
  int64_t guesses[kCalledBatch];
  for (size_t i = 0; i < n; ++i) {
    guesses[i] = computations_->FirstWithTag(hashes[i]);
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
    const CalledName& called = called_batch_[i];
    const int64_t found = FindComputation(called.name, hashes[i]);
    if (found < 0) {
      if (callees_.empty()) callees_since_ = count;
      // A copy: looked up again at the module's end or by JoinHloParts,
      // when the text may be given back (HloReadOptions::passed).
      callees_.emplace_back(computations_->KeepName(called.name),
                            called.offset);
    } else if (static_cast<size_t>(found) >= called.limit &&
               forward_callee_.empty()) {
      // Defined by the calling computation or after it: XLA's parser
      // looks a callee up among the computations read before.
      forward_callee_ = computations_->KeepName(called.name);
      forward_callee_offset_ = called.offset;
    }
  }
}

absl::Status Reader::CheckEntryCandidate() {
  if (!module_.has_entry_computation_layout || entry_index_ >= 0 ||
      !last_top_.read) {
    return absl::OkStatus();
  }
  const std::string mismatch = EntryTextMismatch(
      module_, last_top_.numbers, last_top_.texts, last_top_.root_text);
  if (mismatch.empty()) return absl::OkStatus();
  return Error(last_top_.offset,
               EntryMismatchMessage(last_top_.name, mismatch));
}

absl::Status Reader::CheckModuleEnd() {
  LookUpCallees();
  if (tail_ && in_first_module_ && links_ != nullptr) {
    FillModuleSide(&links_->first);
    links_->first_module_closed = true;
    in_first_module_ = false;
    return absl::OkStatus();
  }
  // Each of callees_ was not defined when it was looked up, after its use:
  // defined now, it is defined after its caller. forward_callee_ is the
  // first callee found defined at or after its caller when it was looked
  // up. The error is the first of these calls in the text (the batches were
  // looked up at different times: in parts, at each cut).
  if (!callees_.empty() || !forward_callee_.empty()) {
    if (tail_) return absl::AbortedError("a computation before the part");
    const std::pair<absl::string_view, size_t>* first = nullptr;
    for (const auto& callee : callees_) {
      if (first == nullptr || callee.second < first->second) first = &callee;
    }
    if (first == nullptr ||
        (!forward_callee_.empty() && forward_callee_offset_ < first->second)) {
      return CalledBeforeDefined(forward_callee_, forward_callee_offset_);
    }
    if (HasComputation(first->first)) {
      return CalledBeforeDefined(first->first, first->second);
    }
    return Error(first->second,
                 absl::StrCat("no computation named '", first->first, "'"));
  }
  return CheckEntryCandidate();
}

absl::Status Reader::CalledBeforeDefined(absl::string_view name,
                                         size_t offset) const {
  return Error(offset, absl::StrCat("computation '", name,
                                    "' is called before it is defined"));
}

}  // namespace hlo_internal
}  // namespace hlolayout
