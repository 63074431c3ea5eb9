#include "hlolayout/triton/ttgir_lexer.h"

#include <cctype>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

namespace hlolayout::triton {
namespace {

bool IsIdentStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

bool IsIdentChar(char c) {
  return IsIdentStart(c) || (c >= '0' && c <= '9') || c == '.' || c == '$' ||
         c == '-';
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

void TtgirLexer::SkipSpaceAndComments() {
  while (pos_ < text_.size()) {
    const char c = text_[pos_];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      ++pos_;
    } else if (c == '/' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '/') {
      while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
    } else {
      break;
    }
  }
}

TtgirToken TtgirLexer::Peek() {
  const size_t saved = pos_;
  TtgirToken t = Next();
  pos_ = saved;
  return t;
}

TtgirToken TtgirLexer::Next() {
  using Kind = TtgirToken::Kind;
  SkipSpaceAndComments();
  TtgirToken t;
  t.offset = pos_;
  if (pos_ >= text_.size()) {
    t.kind = Kind::kEnd;
    return t;
  }
  const size_t start = pos_;
  const char c = text_[pos_];
  auto take_ident = [&]() {
    while (pos_ < text_.size() && IsIdentChar(text_[pos_])) ++pos_;
  };
  auto finish = [&](Kind kind) {
    t.kind = kind;
    t.text = text_.substr(start, pos_ - start);
    return t;
  };
  if ((c == '#' || c == '!' || c == '%' || c == '@') &&
      pos_ + 1 < text_.size() &&
      (IsIdentChar(text_[pos_ + 1]) || text_[pos_ + 1] == '"')) {
    ++pos_;
    if (text_[pos_] == '"') {  // @"quoted"
      ++pos_;
      while (pos_ < text_.size() && text_[pos_] != '"' && text_[pos_] != '\n') {
        ++pos_;
      }
      if (pos_ < text_.size() && text_[pos_] == '"') ++pos_;
    } else {
      take_ident();
    }
    return finish(c == '#'   ? Kind::kHashId
                  : c == '!' ? Kind::kBangId
                  : c == '%' ? Kind::kPercentId
                             : Kind::kAtId);
  }
  if (IsIdentStart(c)) {
    take_ident();
    return finish(Kind::kIdent);
  }
  if (IsDigit(c) ||
      (c == '-' && pos_ + 1 < text_.size() && IsDigit(text_[pos_ + 1]))) {
    if (c == '-') ++pos_;
    if (text_[pos_] == '0' && pos_ + 1 < text_.size() &&
        (text_[pos_ + 1] == 'x' || text_[pos_ + 1] == 'X') &&
        pos_ + 2 < text_.size() &&
        isxdigit(static_cast<unsigned char>(text_[pos_ + 2]))) {
      pos_ += 2;
      while (pos_ < text_.size() &&
             isxdigit(static_cast<unsigned char>(text_[pos_]))) {
        ++pos_;
      }
      return finish(Kind::kInt);
    }
    while (pos_ < text_.size() && IsDigit(text_[pos_])) ++pos_;
    bool is_float = false;
    if (pos_ + 1 < text_.size() && text_[pos_] == '.' &&
        IsDigit(text_[pos_ + 1])) {
      is_float = true;
      ++pos_;
      while (pos_ < text_.size() && IsDigit(text_[pos_])) ++pos_;
    }
    if (is_float && pos_ < text_.size() &&
        (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      size_t p = pos_ + 1;
      if (p < text_.size() && (text_[p] == '+' || text_[p] == '-')) ++p;
      if (p < text_.size() && IsDigit(text_[p])) {
        pos_ = p;
        while (pos_ < text_.size() && IsDigit(text_[pos_])) ++pos_;
      }
    }
    return finish(is_float ? Kind::kFloat : Kind::kInt);
  }
  if (c == '"') {
    ++pos_;
    while (pos_ < text_.size() && text_[pos_] != '"') {
      if (text_[pos_] == '\\' && pos_ + 1 < text_.size()) ++pos_;
      ++pos_;
    }
    if (pos_ >= text_.size()) {
      t.kind = Kind::kError;
      t.text = text_.substr(start);
      return t;
    }
    ++pos_;
    return finish(Kind::kString);
  }
  if (c == '-' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '>') {
    pos_ += 2;
    return finish(Kind::kArrow);
  }
  ++pos_;
  return finish(Kind::kPunct);
}

bool TtgirLexer::LexDimensions(std::vector<int64_t>* dims) {
  SkipSpaceAndComments();
  size_t p = pos_;
  std::vector<int64_t> out;
  while (p < text_.size()) {
    int64_t v = 0;
    if (text_[p] == '?') {
      v = -1;
      ++p;
    } else if (IsDigit(text_[p])) {
      while (p < text_.size() && IsDigit(text_[p])) {
        if (v > (std::numeric_limits<int64_t>::max() - 9) / 10) return false;
        v = v * 10 + (text_[p] - '0');
        ++p;
      }
    } else {
      break;
    }
    if (p >= text_.size() || text_[p] != 'x') return false;
    ++p;
    out.push_back(v);
  }
  pos_ = p;
  *dims = std::move(out);
  return true;
}

}  // namespace hlolayout::triton
