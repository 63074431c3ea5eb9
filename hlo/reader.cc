#include "hlolayout/hlo/reader.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <functional>
#include <memory>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <string>
#include <utility>
#include <vector>

#include "absl/base/optimization.h"
#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/container/node_hash_set.h"
#include "absl/memory/memory.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "hlolayout/hlo/reader_internal.h"
#include "hlolayout/hlo/scan.h"
#include "hlolayout/hlo/shape_cache.h"
#include "hlolayout/hlo/shape_inference.h"
#include "hlolayout/parser/diagnostic.h"
#include "hlolayout/parser/shape_parser.h"

namespace hlolayout {
namespace hlo_internal {

// Texts the reader makes up (the names of instructions written inline as
// operands, the printed form of inferred shapes) must outlive the reading,
// like the views into the input: they are kept once each for the life of
// the process. Only text without names or shapes of its own produces them
// (hand-written modules, XLA's tests), so the set stays small.
absl::string_view Intern(std::string text) {
  static absl::Mutex* mutex = new absl::Mutex;
  static auto* texts = new absl::node_hash_set<std::string>;
  absl::MutexLock lock(mutex);
  return *texts->insert(std::move(text)).first;
}

bool Reader::LooksLikeShapeAt(size_t p) const {
  const size_t n = text_.size();
  const char c = p < n ? text_[p] : '\0';
  if (c == '(') return true;
  if (!Is(c, kNameStart)) return false;
  const size_t begin = p++;
  while (p < n && Is(text_[p], kNameChar)) ++p;
  const bool is_b = p == begin + 1 && c == 'b';
  while (p < n && Is(text_[p], kHorizontalSpace)) ++p;
  if (p >= n) return false;
  return text_[p] == '[' || (is_b && text_[p] == '(' && p == begin + 1);
}

ShapeCache::Slot* Reader::FindCachedShape(size_t begin, size_t* key_end,
                                          uint64_t* hash) {
  *key_end = ShapeKeyEnd(text_.data(), begin, text_.size());
  if (*key_end == absl::string_view::npos) return nullptr;
  *hash = HashShapeText(text_.data() + begin, *key_end - begin);
  return shape_cache_.Find(text_.data() + begin, *key_end - begin, *hash);
}

absl::Status Reader::DecodeShape(size_t scratch, size_t key_end, uint64_t hash,
                                 const Shape** shape,
                                 absl::string_view* shape_text) {
  const size_t begin = pos_;
  const bool cacheable = hash != 0 && !shape_cache_.full() &&
                         key_end - begin <= ShapeCache::kMaxText;
  // A shape that may outlive the instruction gets its own allocation; the
  // others are decoded over a scratch Shape in place (no allocation).
  std::shared_ptr<Shape> owned;
  Shape* target;
  if (cacheable || keep_ != nullptr) {
    owned = std::make_shared<Shape>();
    target = owned.get();
  } else {
    target = Scratch(scratch);
  }
  absl::Status status = ParseShapeAt(text_, &pos_, target, shape_options_);
  if (!status.ok()) return status;
  *shape_text = text_.substr(begin, pos_ - begin);
  if (cacheable && pos_ == key_end) {
    *shape = UseCached(
        shape_cache_.Insert(text_.data() + begin, pos_ - begin, hash, owned));
  } else if (keep_ != nullptr) {
    keep_->push_back(owned);
    *shape = target;
  } else if (owned != nullptr) {
    // Decoded to another extent than the quick scan said: not cached, kept
    // for the instruction in its scratch.
    *Scratch(scratch) = std::move(*owned);
    *shape = Scratch(scratch);
  } else {
    *shape = target;
  }
  return absl::OkStatus();
}

absl::Status Reader::ParseShape(Shape* shape, absl::string_view* shape_text,
                                CopiedShape* copied) {
  // Outside instructions: scratch 0 is free, and the cache can be used.
  const Shape* read = nullptr;
  absl::Status status = ReadShape(0, &read, shape_text);
  if (!status.ok()) return status;
  // Signatures of small computations repeat the same few shapes: a Shape
  // copied from the same cached one is not copied again (a third of reading
  // a dump of many small fused computations was these copies).
  const bool cached = read != Scratch(0);
  if (copied != nullptr && cached && copied->source == read &&
      copied->generation == cache_generation_) {
    return status;
  }
  *shape = *read;
  if (copied != nullptr) {
    copied->source = cached ? read : nullptr;
    copied->generation = cache_generation_;
  }
  return status;
}

absl::Status Reader::SkipString() {
  const size_t begin = pos_;
  const char* data = text_.data();
  const size_t n = text_.size();
  size_t p = pos_ + 1;
  while (true) {
    p = FindQuoteOrBackslash(data, p, n);
    if (p >= n) return Error(begin, "unterminated string");
    if (data[p] == '"') {
      pos_ = p + 1;
      return absl::OkStatus();
    }
    p += 2;  // a backslash and the byte it escapes
  }
}

absl::Status Reader::SkipBalanced() {
  const size_t fast =
      FastSkipBalanced(text_.data(), pos_, text_.size(), options_.max_depth);
  if (fast != absl::string_view::npos) {
    pos_ = fast;
    return absl::OkStatus();
  }
  const size_t begin = pos_;
  closers_.clear();
  closers_.push_back(CloserOf(text_[pos_]));
  ++pos_;
  const size_t n = text_.size();
  const char* data = text_.data();
  while (true) {
    pos_ = FindBalancedStop(data, pos_, n);
    if (pos_ >= n) break;
    const char c = data[pos_];
    switch (c) {
      case '{':
      case '(':
      case '[':
        if (static_cast<int>(closers_.size()) >= options_.max_depth) {
          return Error(pos_, absl::StrCat("brackets nested deeper than ",
                                          options_.max_depth, " levels"));
        }
        closers_.push_back(CloserOf(c));
        ++pos_;
        break;
      case '}':
      case ')':
      case ']':
        if (c != closers_.back()) {
          return Error(
              pos_, absl::StrCat("expected '", std::string(1, closers_.back()),
                                 "', found '", std::string(1, c), "'"));
        }
        closers_.pop_back();
        ++pos_;
        if (closers_.empty()) return absl::OkStatus();
        break;
      case '"': {
        absl::Status status = SkipString();
        if (!status.ok()) return status;
        break;
      }
      default:  // '/'
        if (pos_ + 1 < n && data[pos_ + 1] == '*') {
          const size_t close = text_.find("*/", pos_ + 2);
          if (close == absl::string_view::npos) {
            return Error(pos_, "unterminated comment");
          }
          pos_ = close + 2;
        } else {
          ++pos_;
        }
        break;
    }
  }
  return Error(begin,
               absl::StrCat("'", text_.substr(begin, 1), "' is never closed"));
}

absl::Status Reader::ScanValue(absl::string_view name,
                               absl::string_view* value) {
  const size_t begin = pos_;
  const size_t n = text_.size();
  while (pos_ < n) {
    const char c = text_[pos_];
    if (!Is(c, kValueStop)) {
      ++pos_;
      continue;
    }
    if (c == '{' || c == '(' || c == '[') {
      absl::Status status = SkipBalanced();
      if (!status.ok()) return status;
      continue;
    }
    if (c == '"') {
      absl::Status status = SkipString();
      if (!status.ok()) return status;
      continue;
    }
    if (c == ' ' || c == '\t') {
      // `mesh['a'=2] {'a'}`: a bracket after spaces continues the value.
      size_t p = pos_;
      while (p < n && Is(text_[p], kHorizontalSpace)) ++p;
      if (pos_ > begin && p < n && (text_[p] == '{' || text_[p] == '[')) {
        pos_ = p;
        continue;
      }
    }
    if (c == '/' &&
        !(pos_ + 1 < n && (text_[pos_ + 1] == '*' || text_[pos_ + 1] == '/'))) {
      ++pos_;
      continue;
    }
    break;  // ',' newline space '}' ')' ']' or a comment
  }
  if (pos_ == begin) {
    return Expected(absl::StrCat("a value for attribute '", name, "'"));
  }
  *value = text_.substr(begin, pos_ - begin);
  return absl::OkStatus();
}

absl::Status Reader::ParseAttributes(std::vector<HloAttribute>* attributes) {
  while (true) {
    const size_t save = pos_;
    absl::Status status = SkipTrivia();
    if (!status.ok()) return status;
    if (Peek() != ',') {
      pos_ = save;
      return absl::OkStatus();
    }
    ++pos_;
    status = SkipTrivia();
    if (!status.ok()) return status;
    HloAttribute attribute;
    attribute.name = ScanName();
    if (attribute.name.empty()) return Expected("an attribute name");
    SkipHorizontalSpace();
    if (Peek() != '=') {
      return Expected(
          absl::StrCat("'=' after attribute '", attribute.name, "'"));
    }
    ++pos_;
    SkipHorizontalSpace();
    // A computation written inline (`to_apply={ p0 = ... }`), or a list that
    // may hold some.
    status = Peek() == '{' && in_computation_ &&
                     IsCalleeAttributeName(attribute.name)
                 ? ReadCalleeValue(attribute.name, &attribute.value)
                 : ScanValue(attribute.name, &attribute.value);
    if (!status.ok()) return status;
    if (attribute.name == "literal") {
      // A shape and a value: `literal=f32[] 0.1`, `literal=s32[2] {1, 2}`.
      const size_t save = pos_;
      SkipHorizontalSpace();
      const char c = Peek();
      if (pos_ > save && c != '\0' && c != ',' && c != '\n' && c != '\r' &&
          c != '}' && c != ')' && c != '/') {
        absl::string_view rest;
        status = ScanValue(attribute.name, &rest);
        if (!status.ok()) return status;
        const size_t begin = attribute.value.data() - text_.data();
        attribute.value = text_.substr(begin, pos_ - begin);
      } else {
        pos_ = save;
      }
    }
    attributes->push_back(attribute);
  }
}

absl::Status Reader::ParseModuleHeader() {
  pos_ += 9;  // HloModule
  absl::Status status = SkipTrivia();
  if (!status.ok()) return status;
  module_.has_header = true;
  module_.name = ScanName();
  if (module_.name.empty()) return Expected("a module name after 'HloModule'");
  // XLA's tests write `HloModule name:` too.
  if (Peek() == ':') ++pos_;
  const size_t first = module_.attributes.size();
  status = ParseAttributes(&module_.attributes);
  if (!status.ok()) return status;
  const size_t after = pos_;
  for (size_t i = first; i < module_.attributes.size(); ++i) {
    const HloAttribute& attribute = module_.attributes[i];
    if (attribute.name != "entry_computation_layout") continue;
    if (module_.has_entry_computation_layout) {
      return Error(attribute.value.data() - text_.data(),
                   "second entry_computation_layout");
    }
    status = ParseEntryComputationLayout(attribute.value.data() - text_.data());
    if (!status.ok()) return status;
  }
  pos_ = after;
  return absl::OkStatus();
}

absl::Status Reader::ParseEntryComputationLayout(size_t value_offset) {
  pos_ = value_offset;
  module_.has_entry_computation_layout = true;
  absl::Status status = ExpectChar('{', "'{' to open the entry layout");
  if (status.ok()) status = SkipTrivia();
  if (status.ok()) status = ExpectChar('(', "'(' before parameter layouts");
  if (status.ok()) status = SkipTrivia();
  if (!status.ok()) return status;
  absl::string_view unused;
  if (Peek() == ')') {
    ++pos_;
  } else {
    while (true) {
      module_.entry_parameter_shapes.emplace_back();
      status = ParseShape(&module_.entry_parameter_shapes.back(), &unused);
      if (status.ok()) status = SkipTrivia();
      if (!status.ok()) return status;
      if (Peek() == ')') {
        ++pos_;
        break;
      }
      status = ExpectChar(',', "',' or ')' in parameter layouts");
      if (!status.ok()) return status;
    }
  }
  status = SkipTrivia();
  if (!status.ok()) return status;
  if (text_.substr(pos_, 2) != "->") return Expected("'->' in entry layout");
  pos_ += 2;
  status = ParseShape(&module_.entry_result_shape, &unused);
  if (status.ok()) status = SkipTrivia();
  if (status.ok()) status = ExpectChar('}', "'}' to close the entry layout");
  return status;
}

absl::Status Reader::ParseStackTables() {
  while (true) {
    absl::Status status = SkipTrivia();
    if (!status.ok()) return status;
    const size_t save = pos_;
    const absl::string_view kind = ScanName();
    if (!IsStackTableKind(kind)) {
      pos_ = save;
      return absl::OkStatus();
    }
    status = SkipTrivia();
    if (!status.ok()) return status;
    if (Peek() == '{' || Peek() == '(') {  // a computation with that name
      pos_ = save;
      return absl::OkStatus();
    }
    module_.stack_tables.emplace_back();
    HloStackTable& table = module_.stack_tables.back();
    table.kind = kind;
    while (Peek() >= '0' && Peek() <= '9') {
      HloStackTable::Entry entry;
      const size_t id_begin = pos_;
      while (Peek() >= '0' && Peek() <= '9') {
        const int digit = Peek() - '0';
        if (entry.id > (INT64_MAX - digit) / 10) {
          return Error(id_begin, "integer out of range");
        }
        entry.id = entry.id * 10 + digit;
        ++pos_;
      }
      SkipHorizontalSpace();
      const size_t value_begin = pos_;
      if (Peek() == '"') {
        status = SkipString();
      } else if (Peek() == '{') {
        status = SkipBalanced();
      } else {
        status = Expected(absl::StrCat("a string or '{' in table ", kind));
      }
      if (!status.ok()) return status;
      entry.value = text_.substr(value_begin, pos_ - value_begin);
      table.entries.push_back(entry);
      status = SkipTrivia();
      if (!status.ok()) return status;
    }
  }
}

absl::Status Reader::ReadAll() {
  text_ = whole_;
  pos_ = 0;
  return ReadModules();
}

absl::Status Reader::ReadTail(size_t begin) {
  tail_ = true;
  text_ = whole_;
  pos_ = begin;
  module_ = HloModuleHeader();
  module_.offset = begin;
  in_module_ = true;
  headerless_ = false;
  computation_count_ = 0;
  entry_index_ = -1;
  computation_ = HloComputationHeader();
  computation_.offset = begin;
  result_text_ = absl::string_view();
  in_first_computation_ = true;
  in_first_module_ = true;
  computation_slot_ = -1;  // its header is before the part
  tail_begin_ = begin;
  visitor_->BeginComputation(computation_);
  absl::Status status = ParseComputationBody(begin);
  if (status.ok()) status = ReadComputations();
  if (!status.ok()) return status;
  return ReadModules();
}

absl::Status Reader::AtStop() {
  if (cancel_ != nullptr && cancel_->load(std::memory_order_relaxed)) {
    return absl::AbortedError("cancelled");
  }
  if (pos_ < stop_) return absl::OkStatus();
  if (inline_depth_ > 0 || !inline_done_.empty()) {
    // Inside a computation written inline, or before the top-level one
    // that holds some ends (they are handed over then): not a place to
    // stop. The head reads on; a tail (which cannot name them) gives up.
    if (at_stop_ == nullptr) return absl::AbortedError("passed the stop");
    stop_ = absl::string_view::npos;
    return absl::OkStatus();
  }
  if (pos_ == stop_ && !headerless_ && errors_ == 0) FillLastLinks();
  if (pos_ == stop_ && !headerless_ && errors_ == 0 &&
      (at_stop_ == nullptr || (*at_stop_)())) {
    stopped_ = true;
    return absl::CancelledError("stopped");
  }
  // A tail that does not arrive exactly at its stop is of no use.
  if (at_stop_ == nullptr) return absl::AbortedError("passed the stop");
  stop_ = absl::string_view::npos;  // the head reads on as ReadHlo
  return absl::OkStatus();
}

absl::Status Reader::ReadModules() {
  while (true) {
    absl::Status status = SkipTrivia();
    if (status.ok()) {
      if (AtEnd()) break;
      if (IsDashLine(text_, pos_)) {  // a separator before HloModule
        const void* nl =
            std::memchr(text_.data() + pos_, '\n', text_.size() - pos_);
        pos_ = nl == nullptr ? text_.size()
                             : static_cast<const char*>(nl) - text_.data();
        continue;
      }
      status = ReadModule();
      if (status.ok()) continue;
    }
    if (stopped_ || !options_.keep_going) return status;
    ++errors_;
    visitor_->Error(status);
    Abandon();
    // Go on with the next module: the next separator (in a module without
    // a header, the next dash line).
    const bool headerless = !StartsWord(text_, module_.offset, "HloModule");
    size_t next = absl::string_view::npos;
    for (size_t from = pos_; from < text_.size();) {
      const void* dash = memmem(text_.data() + from, text_.size() - from,
                                "\n// -----", kSplitMarker.size() + 1);
      if (dash == nullptr) break;
      const size_t at = static_cast<const char*>(dash) - text_.data() + 1;
      if (headerless || probe_.HloModuleFollows(at)) {
        next = at;
        break;
      }
      from = at;
    }
    if (next == absl::string_view::npos) break;
    pos_ = next;
  }
  if (errors_ > 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        errors_, errors_ == 1 ? " error" : " errors", " in the hlo text"));
  }
  return absl::OkStatus();
}

absl::Status Reader::ReadModule() {
  keep_ = nullptr;  // until the visitor has the module
  made_shapes_.clear();
  inferred_shapes_.clear();
  computation_roots_.clear();
  computation_slot_ = -1;
  computation_names_.clear();
  computation_index_.Clear();
  callees_.clear();
  called_count_ = 0;
  async_calls_.clear();
  inline_done_.clear();
  inline_roots_.clear();
  inline_names_ = 0;
  last_top_index_ = -1;
  resync_after_ = 0;
  module_ = HloModuleHeader();
  in_module_ = false;
  in_computation_ = false;
  computation_count_ = 0;
  entry_index_ = -1;
  module_.offset = pos_;
  absl::Status status;
  if (LookingAtWord("HloModule")) {
    status = ParseModuleHeader();
    if (status.ok()) status = CheckModuleHeaderRules();
    if (!status.ok()) return status;
  }
  status = ParseStackTables();
  if (!status.ok()) return status;
  visitor_->BeginModule(module_);
  if (collect_ != nullptr) {
    keep_ = &collect_->back().shapes;
    ++keep_stamp_;
    inferred_shapes_.clear();  // kept again for this module's shapes
  }
  in_module_ = true;
  headerless_ = !StartsWord(text_, module_.offset, "HloModule");
  return ReadComputations();
}

absl::Status Reader::ReadComputations() {
  absl::Status status;
  while (true) {
    between_headerless_computations_ = headerless_ && computation_count_ > 0;
    status = SkipTrivia();
    const bool end = status.ok() && AtModuleEnd();
    between_headerless_computations_ = false;
    if (!status.ok()) return status;
    if (end) break;
    if (pos_ > stop_ && at_stop_ == nullptr) {
      return absl::AbortedError("passed the stop");
    }
    status = ParseComputation();
    if (!status.ok()) return status;
  }
  in_module_ = false;
  if (computation_count_ == 0) {
    return Error(module_.offset, "module has no computations");
  }
  status = CheckModuleEnd();
  if (!status.ok()) {
    if (!options_.keep_going || tail_) return status;
    ++errors_;
    visitor_->Error(status);
  }
  visitor_->EndModule(entry_index_ >= 0 ? entry_index_ : last_top_index_);
  return absl::OkStatus();
}

void Reader::Abandon() {
  if (in_computation_) {
    visitor_->EndComputation(
        root_index_ >= 0 ? root_index_ : instruction_count_ - 1, "");
    ++computation_count_;
    in_computation_ = false;
  }
  if (in_module_) {
    visitor_->EndModule(entry_index_ >= 0 ? entry_index_
                                          : computation_count_ - 1);
    in_module_ = false;
  }
}

absl::Status Reader::ParseComputationHeader() {
  computation_.offset = pos_;
  computation_.entry_marker = false;
  computation_.has_signature = false;
  // The parameters and result shape of the previous header are assigned
  // over (their Shapes keep their storage), and cut to size at the end.
  size_t parameters = 0;
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
  absl::string_view unused;
  if (Peek() == '(') {
    computation_.has_signature = true;
    ++pos_;
    status = SkipTrivia();
    if (!status.ok()) return status;
    if (Peek() == ')') {
      ++pos_;
    } else {
      while (true) {
        if (parameters == computation_.parameters.size()) {
          computation_.parameters.emplace_back();
        }
        if (parameters == copied_parameters_.size()) {
          copied_parameters_.emplace_back();
        }
        CopiedShape* copied = &copied_parameters_[parameters];
        HloParameter& parameter = computation_.parameters[parameters++];
        parameter.name = ScanPercentName();
        if (parameter.name.empty()) return Expected("a parameter name");
        status = SkipTrivia();
        if (status.ok()) status = ExpectChar(':', "':' after parameter name");
        if (status.ok()) status = SkipTrivia();
        if (status.ok()) status = ParseShape(&parameter.shape, &unused, copied);
        if (status.ok()) status = SkipTrivia();
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
      status = ParseShape(&computation_.result_shape, &result_text_,
                          &copied_result_);
    }
    if (status.ok()) status = SkipTrivia();
    if (!status.ok()) return status;
  } else {
    computation_.result_shape = Shape();
    copied_result_ = CopiedShape();
    result_text_ = absl::string_view();
  }
  computation_.parameters.resize(parameters);
  if (copied_parameters_.size() > parameters)
    copied_parameters_.resize(parameters);
  if (Peek() != '{') {
    return Expected(
        absl::StrCat("'{' to open computation '", computation_.name, "'"));
  }
  ++pos_;
  if (computation_.entry_marker) {
    if (entry_index_ >= 0) {
      return Error(computation_.offset, "second ENTRY computation");
    }
    entry_index_ = computation_count_;
  }
  return absl::OkStatus();
}

absl::Status Reader::ParseComputation() {
  absl::Status status = ParseComputationHeader();
  if (status.ok()) status = NoteComputationName();
  if (!status.ok()) return status;
  visitor_->BeginComputation(computation_);
  return ParseComputationBody(pos_ - 1);
}

absl::Status Reader::ParseComputationBody(size_t open) {
  absl::Status status;
  in_computation_ = true;
  instruction_count_ = 0;
  root_index_ = -1;
  if (definitions_.use_count() > 1) {
    definitions_ = std::make_shared<DefinitionTable>();  // handed over
  } else {
    definitions_->Clear();
  }
  uses_.clear();
  tail_uses_.clear();
  tail_rules_.clear();
  pending_rules_.clear();
  parameter_numbers_.clear();
  parameter_seen_.clear();
  async_ops_.clear();
  async_index_.clear();
  while (true) {
    status = SkipTrivia();
    if (!status.ok()) return status;
    if (AtModuleEnd()) {
      return Error(open, absl::StrCat("computation '", computation_.name,
                                      "' is never closed"));
    }
    if (Peek() == '}') {
      ++pos_;
      break;
    }
    if (pos_ >= stop_ || cancel_ != nullptr) {
      status = AtStop();
      if (!status.ok()) return status;
    }
    const size_t offset = pos_;
    // Emptied between instructions, so that no shape handed out for the
    // instruction being read goes away.
    if (shape_cache_.full() && inline_depth_ == 0) {
      shape_cache_.Clear();
      ++cache_generation_;
    }
    bool careful = false;
    if (FastInstruction()) {
      status = absl::OkStatus();
    } else {
      pos_ = offset;
      careful = true;
      status = ParseInstruction();
    }
    if (status.ok() && instruction_.root_marker && root_index_ >= 0) {
      status = Error(offset, absl::StrCat("second ROOT instruction in '",
                                          computation_.name, "'"));
    }
    if (!status.ok()) {
      // An error in a computation written inline is the enclosing
      // instruction's.
      if (!options_.keep_going || inline_depth_ > 0) return status;
      ++errors_;
      visitor_->Error(status);
      Resync(offset);
      continue;
    }
    // Instructions written inline come first: each is defined before the
    // one that uses it.
    const size_t defined = definitions_->size();
    if (careful) {
      for (const HloInstruction& nested : inline_) {
        status = CheckInstruction(nested);
        if (!status.ok()) break;
        AddDefinition(nested.name, nested.shape_text, nested.shape, kKept);
      }
    }
    if (status.ok()) {
      status = CheckInstruction(instruction_,
                                careful ? nullptr : operand_defs_.data());
    }
    if (!status.ok()) {
      definitions_->Truncate(defined);
      if (!options_.keep_going || inline_depth_ > 0) return status;
      ++errors_;
      visitor_->Error(status);
      Resync(offset);
      continue;
    }
    if (careful) {
      for (const HloInstruction& nested : inline_) {
        if (IsUnknownHloOpcode(nested.opcode)) visitor_->UnknownOpcode(nested);
        visitor_->VisitInstruction(nested);
        ++instruction_count_;
      }
      inline_.clear();
    }
    if (instruction_.root_marker) root_index_ = instruction_count_;
    // The cache's Shape is good while the cache is not emptied, one the
    // reader made for the module; one decoded over a scratch Shape is
    // decoded again from the text when asked for.
    {
      const Shape* shape = instruction_.shape;
      uint64_t generation = cache_generation_;
      if (careful && shape != nullptr &&
          instruction_.shape_text.data() != nullptr &&
          (instruction_.shape_text.data() < text_.data() ||
           instruction_.shape_text.data() >= text_.data() + text_.size())) {
        generation = kKept;
      } else if (!scratch_.empty() && shape == scratch_[0].get()) {
        shape = nullptr;
      }
      definitions_->Add(
          instruction_.name,
          careful ? NameHash(instruction_.name) : instruction_hash_,
          instruction_.shape_text, shape, generation);
    }
    if (unknown_opcode_) visitor_->UnknownOpcode(instruction_);
    visitor_->VisitInstruction(instruction_);
    ++instruction_count_;
  }
  absl::string_view execution_thread;
  const size_t after = pos_;
  status = SkipTrivia();
  if (!status.ok()) return status;
  if (Peek() == ',' && inline_depth_ == 0) {
    ++pos_;
    status = SkipTrivia();
    if (!status.ok()) return status;
    if (!LookingAtWord("execution_thread")) {
      return Expected("'execution_thread' after computation");
    }
    pos_ += 16;
    SkipHorizontalSpace();
    status = ExpectChar('=', "'=' after 'execution_thread'");
    if (status.ok()) status = ScanValue("execution_thread", &execution_thread);
    if (!status.ok()) return status;
  } else {
    pos_ = after;
  }
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
  visitor_->EndComputation(root, execution_thread);
  last_top_index_ = computation_count_++;
  if (!inline_done_.empty()) EmitInlineComputations();
  return absl::OkStatus();
}

absl::Status Reader::ParseInstruction() {
  HloInstruction& in = instruction_;
  in.offset = pos_;
  in.root_marker = false;
  in.shape_text = absl::string_view();
  in.operand_text = absl::string_view();

  in.parameter_number.reset();
  in.literal = absl::string_view();
  in.attributes.clear();
  inline_.clear();
  absl::Status status;
  if (LookingAtWord("ROOT")) {
    in.root_marker = true;
    pos_ += 4;
    status = SkipTrivia();
    if (!status.ok()) return status;
  }
  in.name = ScanPercentName();
  if (in.name.empty()) return Expected("an instruction name or '}'");
  status = SkipTrivia();
  if (!status.ok()) return status;
  if (Peek() != '=') {
    return Expected(absl::StrCat("'=' after instruction name '", in.name, "'"));
  }
  ++pos_;
  status = SkipTrivia();
  if (!status.ok()) return status;
  if (LooksLikeShape()) {
    status = ReadShape(0, &in.shape, &in.shape_text);
    if (status.ok()) status = SkipTrivia();
    if (!status.ok()) return status;
  } else {
    in.shape = nullptr;
  }
  in.opcode = ScanName();
  if (in.opcode.empty()) return Expected("an opcode");
  status = SkipTrivia();
  if (!status.ok()) return status;
  status = ParseParens(&in, 0);
  if (status.ok()) status = ParseAttributes(&in.attributes);
  if (status.ok() && in.shape == nullptr) status = InferShape(&in);
  if (!status.ok()) return status;
  if (!options_.read_operands) in.operands.clear();
  return absl::OkStatus();
}

absl::Status Reader::ParseParens(HloInstruction* in, int depth) {
  if (Peek() != '(') {
    return Expected(absl::StrCat("'(' after opcode '", in->opcode, "'"));
  }
  const size_t open = pos_;
  if (in->opcode == "constant") {
    in->operands.clear();
    absl::Status status = SkipBalanced();
    if (!status.ok()) return status;
    in->literal = text_.substr(open + 1, pos_ - open - 2);
    in->operand_text = in->literal;
    return absl::OkStatus();
  }
  ++pos_;
  absl::Status status = ParseOperands(in, depth);
  if (!status.ok()) return status;
  in->operand_text = text_.substr(open + 1, pos_ - open - 2);
  return absl::OkStatus();
}

// ParseInstruction for the usual lines, with positions in locals and no
// absl::Status per token (that bookkeeping cost more than the scanning). It
// accepts a subset of what ParseInstruction accepts and reads it the same
// way; for anything else (errors, `//` comments, a shape that fails to
// decode, odd spellings) it returns false and ParseInstruction reads the
// line again and says exactly what is wrong.
bool Reader::FastInstruction() {
  constexpr size_t npos = absl::string_view::npos;
  const char* const data = text_.data();
  const size_t n = text_.size();
  HloInstruction& in = instruction_;
  size_t p = pos_;
  in.offset = p;
  in.root_marker = false;
  in.parameter_number.reset();
  in.literal = absl::string_view();
  in.attributes.clear();
  if (p + 4 < n && std::memcmp(data + p, "ROOT", 4) == 0 &&
      !Is(data[p + 4], kNameChar)) {
    in.root_marker = true;
    p = FastSkipTrivia(data, p + 4, n);
    if (p == npos) return false;
  }
  if (p < n && data[p] == '%') ++p;
  size_t end = NameEnd(data, p, n);
  if (end == p) return false;
  in.name = absl::string_view(data + p, end - p);
  instruction_hash_ = NameHash(in.name);
  definitions_->Prefetch(instruction_hash_);
  p = FastSkipTrivia(data, end, n);
  if (p == npos || p >= n || data[p] != '=') return false;
  p = FastSkipTrivia(data, p + 1, n);
  if (p == npos) return false;
  pending_count_ = 0;
  end = FastShape(p, 0, &in.shape, &in.shape_text);
  // No shape: the careful path infers one.
  if (end == npos || end == p) return false;
  p = FastSkipTrivia(data, end, n);
  if (p == npos) return false;
  end = NameEnd(data, p, n);
  if (end == p) return false;
  in.opcode = absl::string_view(data + p, end - p);
  p = FastSkipTrivia(data, end, n);
  if (p == npos || p >= n || data[p] != '(') return false;
  const size_t open = p;
  if (Eq(in.opcode, "constant")) {
    in.operands.clear();
    p = FastSkipBalanced(data, p, n, options_.max_depth);
    if (p == npos) return false;
    in.literal = absl::string_view(data + open + 1, p - open - 2);
  } else if (Eq(in.opcode, "parameter")) {
    in.operands.clear();
    p = FastSkipTrivia(data, p + 1, n);
    if (p == npos) return false;
    const size_t digits = p;
    int64_t number = 0;
    while (p < n && data[p] >= '0' && data[p] <= '9' && p - digits < 18) {
      number = number * 10 + (data[p++] - '0');
    }
    if (p == digits || (p < n && data[p] >= '0' && data[p] <= '9')) {
      return false;
    }
    in.parameter_number = number;
    p = FastSkipTrivia(data, p, n);
    if (p == npos || p >= n || data[p] != ')') return false;
    ++p;
  } else if (!options_.read_operands) {
    in.operands.clear();
    p = SkipOperandList(data, p, n, options_.max_depth);
    if (p == npos) return false;
  } else {
    size_t count = 0;
    p = FastSkipTrivia(data, p + 1, n);
    if (p == npos || p >= n) return false;
    if (data[p] == ')') {
      ++p;
    } else {
      while (true) {
        // `in` is reused from line to line and may hold more operands than
        // operand_defs_ has seen: each grows on its own.
        if (count == in.operands.size()) in.operands.emplace_back();
        if (count == operand_defs_.size()) operand_defs_.push_back(-1);
        HloOperand& operand = in.operands[count];
        int64_t& resolved = operand_defs_[count++];
        resolved = -1;
        bool named = false;
        if (data[p] == '%') {
          // No shape at the use (XLA's dumps since 2023).
          operand.shape = nullptr;
          operand.shape_text = absl::string_view();
          ++p;
        } else if (OperandOfDefinedShape(p, &operand, &resolved, &end)) {
          // The definition's shape text written again (older dumps); the
          // name read too, up to `end`.
          named = true;
        } else {
          end = FastShape(p, count, &operand.shape, &operand.shape_text);
          if (end == npos) return false;
          if (end != p) {
            p = FastSkipTrivia(data, end, n);
            if (p == npos) return false;
          }
          if (p < n && data[p] == '%') ++p;
        }
        if (!named) {
          end = NameEnd(data, p, n);
          if (end == p) return false;
          operand.name = absl::string_view(data + p, end - p);
        }
        operand.output_index = HloOperand::kWholeResult;
        if (resolved < 0 && operand.shape_text.empty() &&
            (end >= n || data[end] != '#')) {
          resolved = FindDefinition(operand.name);
        }
        if (end < n && data[end] == '#') {
          // `%name#N`: output N (at most 18 digits; the careful path gives
          // the error for anything else).
          size_t q = end + 1;
          int64_t index = 0;
          while (q < n && data[q] >= '0' && data[q] <= '9' && q - end <= 18) {
            index = index * 10 + (data[q++] - '0');
          }
          if (q == end + 1 || (q < n && data[q] >= '0' && data[q] <= '9')) {
            return false;
          }
          operand.output_index = index;
          end = q;
        }
        p = FastSkipTrivia(data, end, n);
        if (p == npos || p >= n) return false;
        if (data[p] == ')') {
          ++p;
          break;
        }
        if (data[p] != ',') return false;
        p = FastSkipTrivia(data, p + 1, n);
        if (p == npos) return false;
      }
    }
    in.operands.resize(count);
  }
  in.operand_text = absl::string_view(data + open + 1, p - open - 2);
  // `, name=value` attributes.
  while (true) {
    size_t q = FastSkipTrivia(data, p, n);
    if (q == npos) return false;
    if (q >= n || data[q] != ',') break;
    q = FastSkipTrivia(data, q + 1, n);
    if (q == npos) return false;
    end = NameEnd(data, q, n);
    if (end == q) return false;
    const absl::string_view name(data + q, end - q);
    // `literal=f32[] 0.1`: a shape and a value (the careful path).
    if (Eq(name, "literal")) return false;
    q = end;
    while (q < n && Is(data[q], kHorizontalSpace)) ++q;
    if (q >= n || data[q] != '=') return false;
    ++q;
    while (q < n && Is(data[q], kHorizontalSpace)) ++q;
    end = FastValueEnd(data, q, n, options_.max_depth);
    if (end == npos) return false;
    // A computation written inline (`to_apply={...}`, or one in a list of
    // callees, `branch_computations={%a, {...}}`): the careful path reads
    // it.
    if (ABSL_PREDICT_FALSE(data[q] == '{' && IsCalleeAttributeName(name)) &&
        (!IsCalleeListName(name) ||
         std::memchr(data + q + 1, '{', end - q - 1) != nullptr)) {
      return false;
    }
    // Filled in place: a pair built on the stack and copied in was
    // reloaded as one 16-byte word before its two 8-byte stores landed.
    in.attributes.emplace_back();
    HloAttribute& attribute = in.attributes.back();
    attribute.name = name;
    attribute.value = absl::string_view(data + q, end - q);
    p = end;
  }
  // The cache lines of the shapes were prefetched while the rest of the
  // line was read; now look them up.
  for (size_t i = 0; i < pending_count_; ++i) {
    const PendingShape& pending = pending_[i];
    const Shape** shape = pending.target == 0
                              ? &in.shape
                              : &in.operands[pending.target - 1].shape;
    ShapeCache::Slot* slot = shape_cache_.Find(
        data + pending.begin, pending.end - pending.begin, pending.hash);
    if (slot != nullptr &&
        (!pending.guessed || CachedTextStopsHere(data, pending.end, n))) {
      *shape = UseCached(slot);
      continue;
    }
    // A guessed extent that the quick scan does not confirm: the rest of
    // the line was read from a wrong place.
    if (pending.guessed && ShapeKeyEnd(data, pending.begin, n) != pending.end) {
      return false;
    }
    // First sight: decode it. A decode that fails or stops elsewhere than
    // the quick scan said leaves the line to the careful path.
    pos_ = pending.begin;
    absl::string_view unused;
    if (!DecodeShape(pending.target, pending.end, pending.hash, shape, &unused)
             .ok() ||
        pos_ != pending.end) {
      return false;
    }
  }
  pos_ = p;
  return true;
}

bool Reader::OperandOfDefinedShape(size_t p, HloOperand* operand,
                                   int64_t* resolved, size_t* name_end) {
  const char* const data = text_.data();
  const size_t n = text_.size();
  // `shape %name`: a shape holds no '%' (longer shapes: FastShape).
  const size_t limit = n - p > 512 ? p + 512 : n;
  const size_t q = FindByte(data, p, limit, '%');
  if (q >= limit || q == p || data[q - 1] != ' ') return false;
  size_t e = q - 1;
  while (e > p && data[e - 1] == ' ') --e;
  const size_t end = NameEnd(data, q + 1, n);
  if (end == q + 1 || (end < n && data[end] == '#')) return false;
  const int64_t d =
      FindDefinition(absl::string_view(data + q + 1, end - q - 1));
  if (d < 0) return false;
  // Byte for byte the definition's text, which decoded to exactly its
  // extent, followed by " %": the parser would stop where it ends.
  const Shape* shape = definitions_->ShapeIfCurrent(d, cache_generation_);
  if (shape == nullptr) return false;
  const absl::string_view shape_text = definitions_->shape_text(d);
  if (shape_text.size() != e - p ||
      !SameBytes(shape_text.data(), data + p, e - p)) {
    return false;
  }
  operand->shape = shape;
  operand->shape_text = absl::string_view(data + p, e - p);
  operand->name = absl::string_view(data + q + 1, end - q - 1);
  *resolved = d;
  *name_end = end;
  return true;
}

size_t Reader::FastShape(size_t p, size_t target, const Shape** shape,
                         absl::string_view* shape_text) {
  const char* const data = text_.data();
  const bool queue = options_.share_shapes && pending_count_ < kMaxPending;
  // Most shapes: the extent guessed from one 64-byte window and hashed in
  // place, both proven at the end of the line (by the cache holding exactly
  // these bytes, or by ShapeKeyEnd before decoding them).
  const size_t guess = queue ? GuessShapeLength(data, p, text_.size()) : 0;
  if (guess != 0) {
    PendingShape& pending = pending_[pending_count_++];
    pending.target = target;
    pending.begin = p;
    pending.end = p + guess;
    pending.hash = HashShapeTextInPlace(data + p, guess);
    pending.guessed = true;
    shape_cache_.Prefetch(pending.hash);
    *shape = nullptr;
    *shape_text = absl::string_view(data + p, guess);
    return p + guess;
  }
  const size_t end =
      queue ? ShapeKeyEnd(data, p, text_.size()) : absl::string_view::npos;
  if (end == absl::string_view::npos) {
    // ShapeKeyEnd found no shape it can vouch for (a shape it finds always
    // looks like one): is there one at all?
    if (!LooksLikeShapeAt(p)) {
      *shape = nullptr;
      *shape_text = absl::string_view();
      return p;
    }
    pos_ = p;
    if (!ReadShape(target, shape, shape_text).ok()) {
      return absl::string_view::npos;
    }
    return pos_;
  }
  PendingShape& pending = pending_[pending_count_++];
  pending.target = target;
  pending.begin = p;
  pending.end = end;
  pending.hash = HashShapeText(data + p, end - p);
  pending.guessed = false;
  shape_cache_.Prefetch(pending.hash);
  *shape = nullptr;
  *shape_text = absl::string_view(data + p, end - p);
  return end;
}

absl::Status Reader::ParseOperands(HloInstruction* instruction, int depth) {
  HloInstruction& in = *instruction;
  const bool is_parameter = in.opcode == "parameter";
  // Operand slots of the previous instruction are reused.
  size_t count = 0;
  absl::Status status = SkipTrivia();
  if (!status.ok()) return status;
  if (Peek() == ')') {
    ++pos_;
    in.operands.clear();
    return absl::OkStatus();
  }
  while (true) {
    status = SkipTrivia();
    if (!status.ok()) return status;
    if (is_parameter) {
      const size_t begin = pos_;
      int64_t number = 0;
      while (Peek() >= '0' && Peek() <= '9') {
        const int digit = Peek() - '0';
        if (number > (INT64_MAX - digit) / 10) {
          return Error(begin, "integer out of range");
        }
        number = number * 10 + digit;
        ++pos_;
      }
      if (pos_ == begin || in.parameter_number.has_value()) {
        return Expected("one parameter number");
      }
      in.parameter_number = number;
    } else {
      if (count == in.operands.size()) in.operands.emplace_back();
      HloOperand& operand = in.operands[count++];
      const size_t operand_begin = pos_;
      if (LooksLikeShape()) {
        status = depth == 0
                     ? ReadShape(count, &operand.shape, &operand.shape_text)
                     : ReadKeptShape(&operand.shape, &operand.shape_text);
        if (status.ok()) status = SkipTrivia();
        if (!status.ok()) return status;
      } else {
        operand.shape_text = absl::string_view();
        operand.shape = nullptr;
      }
      const bool percent = Peek() == '%';
      const size_t name_begin = pos_;
      operand.name = ScanPercentName();
      if (operand.name.empty()) return Expected("an operand name");
      operand.output_index = HloOperand::kWholeResult;
      bool written_inline = false;
      if (!percent) {
        const size_t after_name = pos_;
        status = SkipTrivia();
        if (!status.ok()) return status;
        if (Peek() == '(') {
          // An instruction written inline: `f32[] constant(1)`.
          status = ParseInline(
              &operand, operand.name,
              operand.shape != nullptr ? operand_begin : name_begin, depth);
          if (!status.ok()) return status;
          written_inline = true;
        } else {
          pos_ = after_name;
        }
      }
      if (!written_inline && Peek() == '#') {
        ++pos_;
        const size_t begin = pos_;
        int64_t index = 0;
        while (Peek() >= '0' && Peek() <= '9') {
          const int digit = Peek() - '0';
          if (index > (INT64_MAX - digit) / 10) {
            return Error(begin, "output index out of range");
          }
          index = index * 10 + digit;
          ++pos_;
        }
        if (pos_ == begin) return Expected("an output index after '#'");
        operand.output_index = index;
        // `%name#1#0`: output 0 of output 1 (HloOperand keeps the first;
        // the checks read the rest from the text).
        while (Peek() == '#') {
          ++pos_;
          const size_t more = pos_;
          while (Peek() >= '0' && Peek() <= '9' && pos_ - more < 18) ++pos_;
          if (pos_ == more) return Expected("an output index after '#'");
        }
      }
    }
    status = SkipTrivia();
    if (!status.ok()) return status;
    if (Peek() == ')') {
      ++pos_;
      in.operands.resize(count);
      return absl::OkStatus();
    }
    status = ExpectChar(',', "',' or ')' after operand");
    if (!status.ok()) return status;
  }
}

bool Reader::LineStartsInstruction(size_t p) const {
  const size_t n = text_.size();
  while (p < n && Is(text_[p], kHorizontalSpace)) ++p;
  if (text_.substr(p, 4) == "ROOT" &&
      (p + 4 >= n || Is(text_[p + 4], kHorizontalSpace))) {
    return true;
  }
  if (p < n && text_[p] == '%') ++p;
  if (p >= n || !Is(text_[p], kNameStart)) return false;
  while (p < n && Is(text_[p], kNameChar)) ++p;
  while (p < n && Is(text_[p], kHorizontalSpace)) ++p;
  return p < n && text_[p] == '=';
}

void Reader::Resync(size_t instruction_offset) {
  const size_t n = text_.size();
  // Past a computation written inline that failed (its lines look like
  // instructions of the enclosing computation).
  if (resync_after_ > instruction_offset &&
      resync_after_ != absl::string_view::npos) {
    instruction_offset = resync_after_;
  }
  resync_after_ = 0;
  pos_ = instruction_offset;
  while (true) {
    const void* nl = std::memchr(text_.data() + pos_, '\n', n - pos_);
    if (nl == nullptr) {
      pos_ = n;
      return;
    }
    pos_ = static_cast<const char*>(nl) - text_.data() + 1;
    if (LineStartsInstruction(pos_) || IsSplitAt(pos_)) return;
    size_t p = pos_;
    while (p < n && Is(text_[p], kHorizontalSpace)) ++p;
    if (p < n && text_[p] == '}') {
      // The end of the computation, unless an instruction follows: then it
      // closes a multi-line attribute value of the bad instruction.
      const size_t next = SkipTriviaAt(text_, p + 1);
      if (next == absl::string_view::npos || next >= n) {
        pos_ = p;
        return;
      }
      const void* line_end = std::memchr(text_.data() + p, '\n', n - p);
      const size_t line_start =
          line_end == nullptr
              ? n
              : static_cast<const char*>(line_end) - text_.data() + 1;
      if (next < line_start || !LineStartsInstruction(line_start)) {
        pos_ = p;
        return;
      }
    }
  }
}

// Keeps everything ReadHlo reports.
}  // namespace hlo_internal

namespace {

using hlo_internal::Is;
using hlo_internal::IsDashLine;
using hlo_internal::kHorizontalSpace;
using hlo_internal::ModuleStartProbe;
using hlo_internal::Reader;
using hlo_internal::SkipTriviaAt;
using hlo_internal::StartsWord;

class CollectingVisitor : public HloVisitor {
 public:
  CollectingVisitor(std::vector<HloModule>* modules,
                    std::vector<absl::Status>* errors)
      : modules_(modules), errors_(errors) {}

  void BeginModule(const HloModuleHeader& header) override {
    modules_->emplace_back();
    modules_->back().header = header;
  }
  void BeginComputation(const HloComputationHeader& header) override {
    modules_->back().computations.emplace_back();
    modules_->back().computations.back().header = header;
  }
  void VisitInstruction(const HloInstruction& instruction) override {
    modules_->back().computations.back().instructions.push_back(instruction);
  }
  void EndComputation(int64_t root_index,
                      absl::string_view execution_thread) override {
    HloComputation& c = modules_->back().computations.back();
    c.root_index = root_index;
    c.execution_thread = execution_thread;
  }
  void EndModule(int64_t entry_index) override {
    modules_->back().entry_index = entry_index;
  }
  void Error(const absl::Status& error) override {
    if (errors_ != nullptr) errors_->push_back(error);
  }

 private:
  std::vector<HloModule>* modules_;
  std::vector<absl::Status>* errors_;
};

}  // namespace

std::vector<std::pair<size_t, size_t>> SplitHloModuleTexts(
    absl::string_view text) {
  std::vector<std::pair<size_t, size_t>> ranges;
  const size_t n = text.size();
  ModuleStartProbe probe(text);
  size_t begin = 0;
  // Whether the current range starts with `HloModule`: unknown until its
  // first line that is neither blank nor a `//` comment.
  enum { kUnknown, kHeader, kHeaderless } header = kUnknown;
  // The last such line starts with '}' (a computation just closed).
  bool after_close = false;
  auto add = [&](size_t end) {
    // Ranges of only whitespace and comments are dropped; npos (an
    // unterminated comment) is kept, to fail when read.
    if (SkipTriviaAt(text.substr(0, end), begin) != end) {
      ranges.emplace_back(begin, end);
    }
  };
  for (size_t line = 0; line < n;) {
    const void* nl = std::memchr(text.data() + line, '\n', n - line);
    const size_t eol =
        nl == nullptr ? n : static_cast<const char*>(nl) - text.data();
    size_t p = line;
    while (p < eol && Is(text[p], kHorizontalSpace)) ++p;
    if (IsDashLine(text, line)) {
      if (probe.HloModuleFollows(line) ||
          (header == kHeaderless && after_close)) {
        add(line);
        begin = line;
        header = kUnknown;
        after_close = false;
      }
    } else if (p < eol && text[p] != '\r' && text.substr(p, 2) != "//") {
      if (header == kUnknown) {
        header = StartsWord(text, p, "HloModule") ? kHeader : kHeaderless;
      }
      after_close = text[p] == '}';
    }
    line = eol + 1;
  }
  add(n);
  return ranges;
}

absl::Status ReadHlo(absl::string_view text, const HloReadOptions& options,
                     HloVisitor* visitor) {
  return Reader(text, options, visitor).ReadAll();
}

absl::Status ReadHloHead(absl::string_view text, const HloReadOptions& options,
                         size_t stop, const std::function<bool()>& at_stop,
                         HloVisitor* visitor, bool* stopped,
                         HloPartLinks* links) {
  Reader reader(text, options, visitor);
  reader.SetStop(stop, &at_stop, nullptr);
  reader.SetLinks(links);
  absl::Status status = reader.ReadAll();
  *stopped = reader.stopped();
  return *stopped ? absl::OkStatus() : status;
}

absl::Status ReadHloTail(absl::string_view text, const HloReadOptions& options,
                         size_t begin, size_t stop,
                         const std::atomic<bool>* cancel, HloVisitor* visitor,
                         bool* stopped, HloPartLinks* links) {
  HloReadOptions tail = options;
  tail.keep_going = false;
  Reader reader(text, tail, visitor);
  reader.SetStop(stop, nullptr, cancel);
  reader.SetLinks(links);
  *stopped = false;
  if (begin >= text.size()) return absl::InvalidArgumentError("empty tail");
  absl::Status status = reader.ReadTail(begin);
  *stopped = reader.stopped();
  return *stopped ? absl::OkStatus() : status;
}

absl::StatusOr<std::vector<HloModule>> ReadHloModules(
    absl::string_view text, const HloReadOptions& options,
    std::vector<absl::Status>* errors) {
  std::vector<HloModule> modules;
  CollectingVisitor visitor(&modules, errors);
  absl::Status status = Reader(text, options, &visitor, &modules).ReadAll();
  if (!status.ok() && !options.keep_going) return status;
  return modules;
}

}  // namespace hlolayout
