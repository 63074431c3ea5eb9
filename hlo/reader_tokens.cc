// The reader's lexical layer (reader_internal.h): what looks like a shape,
// strings and bracketed values skipped whole, and, after an error under
// keep_going, the next line where reading can go on.
#include <cstring>
#include <string>

#include "absl/strings/str_cat.h"
#include "hlolayout/hlo/reader_internal.h"
#include "hlolayout/hlo/scan.h"

namespace hlolayout {
namespace hlo_internal {

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

}  // namespace hlo_internal
}  // namespace hlolayout
