// Computations written inline as attribute values, as XLA's parser reads
// them since 2026 (see reader_internal.h):
//
//   call-start = ((f32[]), (), s32[]) call-start(p0), to_apply={
//     p0 = f32[] parameter(0)
//     ROOT n = f32[] negate(p0)
//   }, async_execution_thread="parallel_thread"
//
// XLA reads `{` where a computation is expected (to_apply=, calls=, body=,
// condition=, true_computation=, false_computation=, select=, scatter=, and
// each element of branch_computations= and called_computations=) as the
// instruction list of a computation of the module, in a scope of its own.
// The computation is added to the module when its closing brace is read,
// before the computation that holds it, under the name "_", which the
// module then makes unique: `_`, `_.1`, `_.2`, ... in that order. No
// written name refers to it.
#include <algorithm>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "hlolayout/hlo/reader_internal.h"

namespace hlolayout {
namespace hlo_internal {
namespace {

constexpr int kMaxInlineDepth = 64;

}  // namespace

// The state of the computation being read (every member of Reader that
// ParseComputationBody and the instruction it is in the middle of use).
struct Reader::ComputationState {
  HloComputationHeader computation;
  absl::string_view result_text;
  bool in_computation = false;
  int64_t instruction_count = 0;
  int64_t root_index = -1;
  int64_t computation_slot = -1;
  std::shared_ptr<DefinitionTable> definitions =
      std::make_shared<DefinitionTable>();
  uint64_t instruction_hash = 0;
  std::vector<Use> uses;
  BeforePartUses before_uses;
  absl::flat_hash_set<std::tuple<int, absl::string_view, absl::string_view,
                                 int64_t, absl::string_view, bool>>
      tail_rules;
  std::vector<HloPartLinks::Rule> pending_rules;
  std::vector<int64_t> parameter_numbers;
  std::vector<size_t> parameter_offsets;
  std::vector<absl::string_view> parameter_texts;
  int64_t body_errors = 0;
  absl::flat_hash_set<int64_t> parameter_seen;
  std::vector<AsyncOp> async_ops;
  absl::flat_hash_map<absl::string_view, size_t> async_index;
  DraftInstruction instruction;
  std::vector<DraftInstruction> inline_instructions;
  bool unknown_opcode = false;
};

void Reader::SwapComputationState(ComputationState* s) {
  using std::swap;
  swap(computation_, s->computation);
  swap(result_text_, s->result_text);
  swap(in_computation_, s->in_computation);
  swap(instruction_count_, s->instruction_count);
  swap(root_index_, s->root_index);
  swap(computation_slot_, s->computation_slot);
  swap(definitions_, s->definitions);
  swap(instruction_hash_, s->instruction_hash);
  swap(uses_, s->uses);
  swap(before_uses_, s->before_uses);
  swap(tail_rules_, s->tail_rules);
  swap(pending_rules_, s->pending_rules);
  swap(parameter_numbers_, s->parameter_numbers);
  swap(parameter_offsets_, s->parameter_offsets);
  swap(parameter_texts_, s->parameter_texts);
  swap(body_errors_, s->body_errors);
  swap(parameter_seen_, s->parameter_seen);
  swap(async_ops_, s->async_ops);
  swap(async_index_, s->async_index);
  swap(instruction_, s->instruction);
  swap(inline_, s->inline_instructions);
  swap(unknown_opcode_, s->unknown_opcode);
}

// Records what ParseComputationBody hands its visitor for a computation
// written inline, to be handed over later (EmitInlineComputations). The
// shapes are copied into ones the reader keeps for the module: the cache's
// and the scratch ones do not last that long.
class Reader::InlineRecorder : public HloVisitor {
 public:
  InlineRecorder(Reader* reader, InlineComputation* computation,
                 HloVisitor* outer)
      : reader_(reader), computation_(computation), outer_(outer) {}

  void UnknownOpcode(const HloInstruction&) override { unknown_ = true; }
  void VisitInstruction(const HloInstruction& instruction) override {
    // With lists of its own: the instruction's are the reader's.
    computation_->instructions.emplace_back(instruction);
    DraftInstruction& copy = computation_->instructions.back();
    if (copy.shape != nullptr) copy.shape = reader_->Keep(*copy.shape);
    for (HloOperand& operand : copy.operand_list) {
      if (operand.shape != nullptr)
        operand.shape = reader_->Keep(*operand.shape);
    }
    computation_->unknown.push_back(unknown_);
    unknown_ = false;
  }
  void EndComputation(int64_t root_index, absl::string_view) override {
    computation_->root_index = root_index;
  }
  void Error(const absl::Status& error) override { outer_->Error(error); }

 private:
  Reader* reader_;
  InlineComputation* computation_;
  HloVisitor* outer_;
  bool unknown_ = false;
};

bool IsCalleeAttributeOutOfLine(absl::string_view n) {
  return IsCalleeAttribute(n);
}

int64_t Reader::LineOf(size_t offset) {
  if (offset < line_cursor_offset_) {
    line_cursor_offset_ = 0;
    line_cursor_line_ = 1;
  }
  const char* data = text_.data();
  for (size_t i = line_cursor_offset_; i < offset; ++i) {
    if (data[i] == '\n') ++line_cursor_line_;
  }
  line_cursor_offset_ = offset;
  return line_cursor_line_;
}

absl::Status Reader::ReadCalleeValue(absl::string_view name,
                                     absl::string_view* value) {
  const size_t begin = pos_;
  if (!IsCalleeListName(name)) {
    // One computation: '{' opens one written inline (XLA reads nothing
    // else there).
    return ReadInlineComputation(name, value);
  }
  // `{%a, { ... }, b}`: each element a name or a computation written inline.
  std::string names = "{";
  std::vector<std::pair<absl::string_view, size_t>> written;
  bool any_inline = false;
  absl::Status status;
  ++pos_;
  status = SkipTrivia();
  if (status.ok() && Peek() != '}') {
    while (true) {
      status = SkipTrivia();
      if (!status.ok()) break;
      if (Peek() == '{') {
        absl::string_view computation;
        status = ReadInlineComputation(name, &computation);
        if (!status.ok()) return status;
        absl::StrAppend(&names, computation);
        any_inline = true;
      } else {
        const size_t name_begin = pos_;
        const absl::string_view callee = ScanPercentName();
        if (callee.empty()) {
          status = Expected("a computation name or '{'");
          break;
        }
        absl::StrAppend(&names, text_.substr(name_begin, pos_ - name_begin));
        written.emplace_back(callee, pos_ - callee.size());
      }
      status = SkipTrivia();
      if (!status.ok()) break;
      if (Peek() == '}') break;
      status = ExpectChar(',', "',' or '}' in the list of computations");
      if (!status.ok()) break;
      names += ", ";
    }
  }
  if (!any_inline) {
    // Names only: kept raw, as every other value.
    pos_ = begin;
    return ScanValue(name, value);
  }
  if (!status.ok()) return status;
  ++pos_;  // '}'
  names += "}";
  // The written names are not in the value the instruction keeps: they are
  // looked up here.
  for (const auto& callee : written) NoteCallee(callee.first, callee.second);
  *value = Intern(std::move(names));
  return absl::OkStatus();
}

absl::Status Reader::ReadInlineComputation(absl::string_view attribute,
                                           absl::string_view* name) {
  const size_t open = pos_;
  // A part read on its own thread cannot tell how many came before it
  // (their names): the text is read whole.
  if (tail_) return absl::AbortedError("a computation written inline");
  // Each level is a few stack frames of the reader: a bound well below
  // what a thread's stack holds.
  const int max_depth = std::min(options_.max_depth, kMaxInlineDepth);
  if (inline_depth_ >= max_depth) {
    return Error(open, absl::StrCat("computations written inline nested "
                                    "deeper than ",
                                    max_depth, " levels"));
  }
  ++pos_;
  absl::Status status = SkipTrivia();
  if (!status.ok()) return status;
  if (Peek() == '}') {
    return Expected("an instruction in the computation written inline");
  }
  // The enclosing instruction's shapes decoded over scratch Shapes (which
  // the computation's own instructions reuse) are kept; the cache is not
  // emptied meanwhile (ParseComputationBody), so its shapes stay.
  const auto keep_scratch = [this](const Shape** shape) {
    for (const std::unique_ptr<Shape>& scratch : scratch_) {
      if (*shape == scratch.get()) {
        *shape = Keep(**shape);
        return;
      }
    }
  };
  if (instruction_.shape != nullptr) keep_scratch(&instruction_.shape);
  for (HloOperand& operand : instruction_.operand_list) {
    if (operand.shape != nullptr) keep_scratch(&operand.shape);
  }
  // Named in messages by where it stands until it gets XLA's name.
  const int64_t line = LineOf(open);
  size_t line_start = open;
  while (line_start > 0 && text_[line_start - 1] != '\n') --line_start;
  const absl::string_view where =
      Intern(absl::StrCat(attribute, "@", line, ":", open - line_start + 1));

  ComputationState enclosing;
  SwapComputationState(&enclosing);
  InlineComputation computation;
  computation.header.offset = open;
  computation.header.written_inline = true;
  InlineRecorder recorder(this, &computation, visitor_);
  HloVisitor* const outer = visitor_;
  visitor_ = &recorder;
  ++inline_depth_;
  computation_.offset = open;
  computation_.name = where;
  status = ParseComputationBody(open);
  --inline_depth_;
  visitor_ = outer;
  computation.header.name = computation_.name;
  SwapComputationState(&enclosing);
  if (!status.ok()) {
    if (inline_depth_ == 0 && options_.keep_going) {
      // Resync goes on after it, when its braces match.
      const size_t end = FastSkipBalanced(text_.data(), open, text_.size(),
                                          options_.max_depth);
      resync_after_ = end == absl::string_view::npos ? 0 : end - 1;
    }
    return status;
  }
  *name = computation.header.name;
  inline_done_.push_back(std::move(computation));
  return absl::OkStatus();
}

void Reader::EndInlineComputation(int64_t root) {
  // XLA's name: "_" made unique in the module, in the order the closing
  // braces come (the computations nested in this one were named first). A
  // name the text gives a computation itself is passed over.
  while (true) {
    std::string name = inline_names_ == 0 ? std::string("_")
                                          : absl::StrCat("_.", inline_names_);
    ++inline_names_;
    if (!HasComputation(name)) {
      computation_.name = Intern(std::move(name));
      break;
    }
  }
  in_computation_ = false;
  if (root >= 0) {
    // For `call` and `conditional` written without a shape (CalledRoot).
    inline_roots_[computation_.name] = RootOf(root);
  }
  visitor_->EndComputation(root, "");
}

const Shape* Reader::InlineRoot(absl::string_view name) {
  auto it = inline_roots_.find(name);
  if (it == inline_roots_.end()) return nullptr;
  return RootShape(&it->second);
}

void Reader::EmitInlineComputations() {
  for (const InlineComputation& computation : inline_done_) {
    visitor_->BeginComputation(computation.header);
    for (size_t i = 0; i < computation.instructions.size(); ++i) {
      if (computation.unknown[i]) {
        visitor_->UnknownOpcode(computation.instructions[i]);
      }
      visitor_->VisitInstruction(computation.instructions[i]);
    }
    visitor_->EndComputation(computation.root_index, "");
    ++computation_count_;
  }
  inline_done_.clear();
}

}  // namespace hlo_internal
}  // namespace hlolayout
