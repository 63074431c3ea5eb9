// The reader's computations (reader_internal.h): a computation's header
// (name, parameters, result shape) and its body, instruction by instruction
// (the fast path first, the careful one for anything else), each checked,
// defined and handed to the visitor.
#include <cstdint>
#include <string>

#include "absl/strings/str_cat.h"
#include "hlolayout/hlo/checks.h"
#include "hlolayout/hlo/reader_internal.h"

namespace hlolayout {
namespace hlo_internal {

absl::Status Reader::ParseComputationHeader() {
  computation_.offset = pos_;
  computation_.entry_marker = false;
  computation_.has_signature = false;
  // The parameters of the previous header are assigned over, and cut to
  // size at the end.
  size_t parameters = 0;
  header_kept_.clear();
  absl::Status status;
  if (LookingAtWord("ENTRY")) {
    computation_.entry_marker = true;
    pos_ += 5;
    status = SkipTrivia();
    if (!status.ok()) return status;
  }
  computation_.name = ScanPercentName();
  if (computation_.name.empty()) {
    return Expected(computation_.entry_marker
                        ? "a computation name after 'ENTRY'"
                        : "a computation name or 'HloModule'");
  }
  status = SkipTrivia();
  if (!status.ok()) return status;
  if (Peek() == '(') {
    status = ParseSignature(&parameters);
    if (!status.ok()) return status;
  } else {
    computation_.result_shape = nullptr;
    result_text_ = absl::string_view();
  }
  computation_.parameters.resize(parameters);
  if (Peek() != '{') {
    return Expected(
        absl::StrCat("'{' to open computation '", computation_.name, "'"));
  }
  ++pos_;
  if (computation_.entry_marker && entry_index_ >= 0) {
    return Error(computation_.offset, "second ENTRY computation");
  }
  return absl::OkStatus();
}

inline absl::Status Reader::ParseSignature(size_t* parameters) {
  computation_.has_signature = true;
  ++pos_;
  absl::Status status = SkipTrivia();
  if (!status.ok()) return status;
  if (Peek() == ')') {
    ++pos_;
  } else {
    while (true) {
      status = ParseParameter((*parameters)++);
      if (!status.ok()) return status;
      if (Peek() == ')') {
        ++pos_;
        break;
      }
      status = ExpectChar(',', "',' or ')' in parameters");
      if (!status.ok()) return status;
      status = SkipTrivia();
      if (!status.ok()) return status;
    }
  }
  status = SkipTrivia();
  if (!status.ok()) return status;
  if (text_.substr(pos_, 2) != "->") {
    return Expected("'->' after parameters");
  }
  pos_ += 2;
  status = SkipTrivia();
  if (status.ok()) {
    status = ReadHeaderShape(&computation_.result_shape, &result_text_);
  }
  if (status.ok()) status = SkipTrivia();
  return status;
}

inline absl::Status Reader::ParseParameter(size_t i) {
  if (i == computation_.parameters.size()) {
    computation_.parameters.emplace_back();
  }
  HloParameter& parameter = computation_.parameters[i];
  parameter.name = ScanPercentName();
  if (parameter.name.empty()) return Expected("a parameter name");
  absl::string_view unused;
  absl::Status status = SkipTrivia();
  if (status.ok()) status = ExpectChar(':', "':' after parameter name");
  if (status.ok()) status = SkipTrivia();
  if (status.ok()) status = ReadHeaderShape(&parameter.shape, &unused);
  if (status.ok()) status = SkipTrivia();
  return status;
}

void Reader::NotePassed() {
  const size_t end = pos_ - kPassedWindow;
  next_passed_ = pos_ + kPassedStep;
  if (end > passed_to_) {
    options_.passed(passed_to_, end);
    passed_to_ = end;
  }
}

absl::Status Reader::ParseComputation() {
  absl::Status status = ParseComputationHeader();
  if (status.ok()) status = NoteComputationName();
  if (!status.ok()) return status;
  // Only a computation the visitor hears of can be the entry: with
  // keep_going, a refused header (a name defined twice) leaves none behind.
  if (computation_.entry_marker) entry_index_ = computation_count_;
  visitor_->BeginComputation(computation_);
  return ParseComputationBody(pos_ - 1);
}

void Reader::StartComputationBody() {
  in_computation_ = true;
  instruction_count_ = 0;
  root_index_ = -1;
  if (definitions_.use_count() > 1) {
    definitions_ = std::make_shared<DefinitionTable>();  // handed over
  } else {
    definitions_->Clear();
  }
  uses_.clear();
  before_uses_.Clear();
  tail_rules_.clear();
  pending_rules_.clear();
  parameter_numbers_.clear();
  parameter_offsets_.clear();
  parameter_texts_.clear();
  parameter_seen_.clear();
  body_errors_ = errors_;
  async_ops_.clear();
  async_index_.clear();
}

absl::Status Reader::ParseComputationBody(size_t open) {
  StartComputationBody();
  while (true) {
    absl::Status status = SkipTrivia();
    if (!status.ok()) return status;
    if (AtModuleEnd()) {
      return Error(open, absl::StrCat("computation '", computation_.name,
                                      "' is never closed"));
    }
    if (Peek() == '}') {
      // XLA's parser reads at least one instruction (one written inline
      // says so itself); with keep_going, one whose instructions were all
      // refused has said enough.
      if (instruction_count_ == 0 && inline_depth_ == 0 &&
          errors_ == body_errors_) {
        status = Error(pos_, absl::StrCat("computation '", computation_.name,
                                          "' has no instructions"));
        if (!options_.keep_going) return status;
        ++errors_;
        visitor_->Error(status);
      }
      ++pos_;
      break;
    }
    if (pos_ >= next_passed_) NotePassed();
    if (pos_ >= stop_ || cancel_ != nullptr) {
      status = AtStop();
      if (!status.ok()) return status;
    }
    status = ReadBodyInstruction();
    if (!status.ok()) return status;
  }
  return EndComputationBody();
}

inline absl::Status Reader::ReadBodyInstruction() {
  const size_t offset = pos_;
  // Emptied between instructions, so that no shape handed out for the
  // instruction being read goes away. A module being collected keeps every
  // shape anyway: emptied, the cache would decode each text seen again into
  // a second Shape for it to keep; it grows instead, up to a bound.
  if (shape_cache_.full() && inline_depth_ == 0) {
    if (keep_ != nullptr && shape_cache_.can_grow()) {
      shape_cache_.Grow();
    } else {
      PinHeaderShapes();
      shape_cache_.Clear();
      ++cache_generation_;
    }
  }
  bool careful = false;
  absl::Status status;
  if (!FastInstruction()) {
    pos_ = offset;
    careful = true;
    status = ParseInstruction();
  }
  // Its views keep 32-bit sizes (HloInstruction): none can be longer than
  // the instruction's text.
  if (status.ok() && pos_ - offset > UINT32_MAX) {
    status = Error(offset, "instruction longer than 4 GiB");
  }
  if (status.ok() && instruction_.root_marker && root_index_ >= 0) {
    status = Error(offset, absl::StrCat("second ROOT instruction in '",
                                        computation_.name, "'"));
  }
  if (!status.ok()) return InstructionFailed(status, offset);
  // Instructions written inline come first: each is defined before the
  // one that uses it.
  const size_t defined = definitions_->size();
  definitions_in_step_ = defined == static_cast<uint64_t>(instruction_count_);
  if (careful) {
    for (DraftInstruction& nested : inline_) {
      status = CheckInstruction(nested);
      if (!status.ok()) break;
      AddDefinition(nested.name(), nested.shape_text(), nested.shape, kKept);
    }
  }
  if (status.ok()) {
    status = CheckInstruction(instruction_,
                              careful ? nullptr : operand_defs_.data());
  }
  if (!status.ok()) {
    definitions_->Truncate(defined);
    return InstructionFailed(status, offset);
  }
  if (careful) {
    for (const HloInstruction& nested : inline_) {
      if (nested.opcode == HloOpcode::kUnknown) visitor_->UnknownOpcode(nested);
      visitor_->VisitInstruction(nested);
      ++instruction_count_;
    }
    inline_.clear();
  }
  if (instruction_.root_marker) root_index_ = instruction_count_;
  DefineInstruction(careful);
  if (unknown_opcode_) visitor_->UnknownOpcode(instruction_);
  visitor_->VisitInstruction(instruction_);
  ++instruction_count_;
  return absl::OkStatus();
}

absl::Status Reader::InstructionFailed(const absl::Status& status,
                                       size_t offset) {
  // An error in a computation written inline is the enclosing
  // instruction's.
  if (!options_.keep_going || inline_depth_ > 0) return status;
  ++errors_;
  visitor_->Error(status);
  Resync(offset);
  return absl::OkStatus();
}

inline void Reader::DefineInstruction(bool careful) {
  // The cache's Shape is good while the cache is not emptied, one the
  // reader made for the module; one decoded over a scratch Shape is
  // decoded again from the text when asked for.
  const Shape* shape = instruction_.shape;
  uint64_t generation = cache_generation_;
  if (careful && shape != nullptr &&
      instruction_.shape_text().data() != nullptr &&
      (instruction_.shape_text().data() < text_.data() ||
       instruction_.shape_text().data() >= text_.data() + text_.size())) {
    generation = kKept;
  } else if (!scratch_.empty() && shape == scratch_[0].get()) {
    shape = nullptr;
  }
  definitions_->Add(instruction_.name(),
                    careful ? NameHash(instruction_.name()) : instruction_hash_,
                    instruction_.shape_text(), shape, generation);
}

absl::Status Reader::ParseExecutionThread(absl::string_view* thread) {
  const size_t after = pos_;
  absl::Status status = SkipTrivia();
  if (!status.ok()) return status;
  if (Peek() != ',' || inline_depth_ > 0) {
    pos_ = after;
    return absl::OkStatus();
  }
  ++pos_;
  status = SkipTrivia();
  if (!status.ok()) return status;
  if (!LookingAtWord("execution_thread")) {
    return Expected("'execution_thread' after computation");
  }
  pos_ += 16;
  SkipHorizontalSpace();
  status = ExpectChar('=', "'=' after 'execution_thread'");
  if (status.ok()) status = ScanValue("execution_thread", thread);
  return status;
}

absl::Status Reader::EndComputationBody() {
  absl::string_view execution_thread;
  absl::Status status = ParseExecutionThread(&execution_thread);
  if (!status.ok()) return status;
  const int64_t root = root_index_ >= 0 ? root_index_ : instruction_count_ - 1;
  status = CheckComputationEnd(root);
  if (!status.ok()) {
    if (!options_.keep_going || tail_ || inline_depth_ > 0) return status;
    // The computation is read: its error is reported and the reading goes
    // on.
    ++errors_;
    visitor_->Error(status);
  }
  if (inline_depth_ > 0) {
    EndInlineComputation(root);
    return absl::OkStatus();
  }
  in_computation_ = false;
  if (root >= 0 && computation_slot_ >= 0) {
    computation_roots_[computation_slot_] = RootOf(root);
  }
  // The entry when none says ENTRY, if it is the last: its parameters and
  // root for CheckEntryCandidate (vectors swapped, not copied).
  if (module_.has_entry_computation_layout && entry_index_ < 0) {
    last_top_.read = computation_slot_ >= 0;
    last_top_.numbers.swap(parameter_numbers_);
    last_top_.texts.swap(parameter_texts_);
    last_top_.root_text =
        root >= 0 ? definitions_->shape_text(root) : absl::string_view();
    last_top_.offset = computation_.offset;
    last_top_.name = computation_.name;
  }
  visitor_->EndComputation(root, execution_thread);
  last_top_index_ = computation_count_++;
  if (!inline_done_.empty()) EmitInlineComputations();
  return absl::OkStatus();
}

}  // namespace hlo_internal
}  // namespace hlolayout
