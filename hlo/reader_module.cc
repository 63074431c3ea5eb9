// The reader's modules (reader_internal.h): the text read module by module
// (split at `// -----` lines), each module's header, entry layout and stack
// tables, then its computations.
#include <cstring>
#include <string>

#include "absl/strings/str_cat.h"
#include "hlolayout/hlo/reader_internal.h"

namespace hlolayout {
namespace hlo_internal {

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
    if (attribute.name() != "entry_computation_layout") continue;
    if (module_.has_entry_computation_layout) {
      return Error(attribute.value().data() - text_.data(),
                   "second entry_computation_layout");
    }
    status =
        ParseEntryComputationLayout(attribute.value().data() - text_.data());
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
  if (computations_.use_count() > 1) {
    computations_ = std::make_shared<ComputationTable>();  // handed over
  } else {
    computations_->Clear();
  }
  callees_.clear();
  called_count_ = 0;
  forward_callee_ = absl::string_view();
  calls_limit_ = 0;
  last_top_.read = false;
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

}  // namespace hlo_internal
}  // namespace hlolayout
