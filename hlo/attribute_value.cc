#include "hlolayout/hlo/attribute_value.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace hlolayout {

size_t SkipHloSpace(absl::string_view text, size_t pos) {
  const size_t n = text.size();
  while (pos < n) {
    if (IsHloSpace(text[pos])) {
      ++pos;
    } else if (text[pos] == '/' && pos + 1 < n && text[pos + 1] == '*') {
      const size_t close = text.find("*/", pos + 2);
      pos = close == absl::string_view::npos ? n : close + 2;
    } else {
      break;
    }
  }
  return pos;
}

absl::string_view StripHloSpace(absl::string_view text) {
  const size_t begin = SkipHloSpace(text, 0);
  size_t end = text.size();
  // Backwards: spaces, and comments that close at the end.
  while (end > begin) {
    if (IsHloSpace(text[end - 1])) {
      --end;
    } else if (end - begin >= 4 && text[end - 1] == '/' &&
               text[end - 2] == '*') {
      const size_t open = text.rfind("/*", end - 3);
      if (open == absl::string_view::npos || open < begin) break;
      end = open;
    } else {
      break;
    }
  }
  return text.substr(begin, end - begin);
}

absl::string_view StripHloQuotes(absl::string_view value) {
  value = StripHloSpace(value);
  if (value.size() >= 2 && value.front() == '"' && value.back() == '"') {
    return value.substr(1, value.size() - 2);
  }
  return value;
}

std::vector<absl::string_view> HloValueWords(absl::string_view text) {
  std::vector<absl::string_view> words;
  size_t p = SkipHloSpace(text, 0);
  while (p < text.size()) {
    const size_t begin = p;
    while (p < text.size() && !IsHloSpace(text[p]) &&
           !(text[p] == '/' && p + 1 < text.size() && text[p + 1] == '*')) {
      ++p;
    }
    words.push_back(text.substr(begin, p - begin));
    p = SkipHloSpace(text, p);
  }
  return words;
}

bool HloValueCursor::Eat(char c) {
  Space();
  if (pos_ < text_.size() && text_[pos_] == c) {
    ++pos_;
    return true;
  }
  return false;
}

char HloValueCursor::Peek() {
  Space();
  return pos_ < text_.size() ? text_[pos_] : '\0';
}

absl::string_view HloValueCursor::Integer() {
  Space();
  const size_t begin = pos_;
  if (pos_ < text_.size() && text_[pos_] == '-') ++pos_;
  while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') {
    ++pos_;
  }
  if (pos_ == begin || text_[pos_ - 1] < '0' || text_[pos_ - 1] > '9') {
    pos_ = begin;
    return absl::string_view();
  }
  return text_.substr(begin, pos_ - begin);
}

int64_t HloValueCursor::Number() {
  Space();
  int64_t value = 0;
  bool fits = true;
  const size_t begin = pos_;
  while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') {
    const int digit = text_[pos_++] - '0';
    if (value > (INT64_MAX - digit) / 10) fits = false;
    if (fits) value = value * 10 + digit;
  }
  return pos_ > begin && fits ? value : -1;
}

absl::string_view HloValueCursor::Word() {
  Space();
  const size_t begin = pos_;
  while (pos_ < text_.size()) {
    const char c = text_[pos_];
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
          (c >= '0' && c <= '9') || c == '-' || c == '_')) {
      break;
    }
    ++pos_;
  }
  return text_.substr(begin, pos_ - begin);
}

bool HloValueCursor::AtEnd() {
  Space();
  return pos_ >= text_.size();
}

namespace {

// `{i, j, ...}` into `*index`; false when it is not one. `*fits` false
// when an element is past int64.
bool ReadShapeIndex(HloValueCursor* c, std::vector<int64_t>* index,
                    bool* fits) {
  if (!c->Eat('{')) return false;
  if (c->Eat('}')) return true;
  while (true) {
    if (c->Peek() < '0' || c->Peek() > '9') return false;
    const int64_t i = c->Number();
    if (i < 0) *fits = false;
    index->push_back(i);
    if (c->Eat(',')) continue;
    return c->Eat('}');
  }
}

}  // namespace

std::vector<HloAliasPair> ParseHloAliasPairs(absl::string_view value) {
  std::vector<HloAliasPair> pairs;
  HloValueCursor c(value);
  if (!c.Eat('{')) return pairs;
  while (c.Peek() == '{') {
    HloAliasPair pair;
    bool fits = true;
    if (!ReadShapeIndex(&c, &pair.output_index, &fits) || !c.Eat(':') ||
        !c.Eat('(') || c.Peek() < '0' || c.Peek() > '9') {
      break;
    }
    pair.number = c.Number();
    if (pair.number < 0) fits = false;
    if (!c.Eat(',') || !ReadShapeIndex(&c, &pair.index, &fits)) break;
    if (c.Eat(',')) pair.kind = c.Word();
    if (!c.Eat(')')) break;
    if (fits) pairs.push_back(std::move(pair));
    if (!c.Eat(',')) break;
  }
  return pairs;
}

}  // namespace hlolayout
