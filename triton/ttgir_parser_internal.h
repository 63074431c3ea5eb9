// triton/ttgir_parser_internal.h: the attribute values and the token-level
// reader shared by the TTGIR module reader (ttgir_parser.cc) and the layout
// builder (ttgir_layout_builder.cc). Not a public header.
//
//   Parser p(text, file);
//   Value v;
//   HLOLAYOUT_RETURN_IF_ERROR(p.ParseValue(v, 0));       // #ttg.blocked<{...}>
//   absl::StatusOr<Layout> l = LayoutBuilder(p, &aliases).Build(v);
#ifndef HLOLAYOUT_TRITON_TTGIR_PARSER_INTERNAL_H_
#define HLOLAYOUT_TRITON_TTGIR_PARSER_INTERNAL_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "hlolayout/parser/diagnostic.h"
#include "hlolayout/triton/named_layouts.h"
#include "hlolayout/triton/ttgir_lexer.h"
#include "hlolayout/triton/ttgir_parser.h"
#include "hlolayout/util/status_macros.h"

namespace hlolayout::triton::ttgir_internal {

using Kind = TtgirToken::Kind;

constexpr int kMaxDepth = 64;

// A generic attribute value, enough for layout attributes and module
// attributes.
struct Value {
  enum class Type {
    kInt,
    kFloat,
    kBool,
    kString,
    kIdent,
    kArray,
    kDict,
    kRef,
    kDialect,
    kOther
  };
  Type type = Type::kOther;
  int64_t integer = 0;
  bool int_ok = false;  // the integer fits in int64
  bool boolean = false;
  std::string text;  // string contents, identifier, alias or dialect name
  std::vector<Value> items;
  std::vector<std::pair<std::string, Value>> dict;
  // For kDialect: the body's entries ({...} contents and trailing
  // `, key = value` pairs); body_raw is true when the body was not a dict.
  std::vector<std::pair<std::string, Value>> body;
  std::vector<size_t> body_offsets;  // where each body key starts
  bool trailing_alignment = false;   // `, alignment = N` after the braces
  bool alignment_in_braces = false;
  bool body_raw = false;
  // padded_shared's `[interval:+padding, ...]` before its braces.
  std::vector<std::pair<int64_t, int64_t>> intervals;
  size_t intervals_offset = 0, intervals_end = 0;
  size_t offset = 0;
  size_t end = 0;
};

// The Triton layout kinds (without their dialect) this library reads: every
// one Triton has ("mma" and "shared" are the older spellings).
inline bool KnownLayoutKind(absl::string_view kind) {
  return kind == "blocked" || kind == "slice" || kind == "nvidia_mma" ||
         kind == "mma" || kind == "dot_op" || kind == "linear" ||
         kind == "swizzled_shared" || kind == "shared" ||
         kind == "nvmma_shared" || kind == "shared_linear" ||
         kind == "amd_mfma" || kind == "amd_wmma" || kind == "padded_shared" ||
         kind == "partitioned_shared" || kind == "amd_rotating_shared" ||
         kind == "generic_linear" || kind == "tensor_memory_encoding" ||
         kind == "tensor_memory_scales_encoding";
}

// Kinds written `<key = value, ...>` rather than `<{...}>`: the tensor
// memory encodings.
inline bool StructBodyKind(absl::string_view kind) {
  return kind == "tensor_memory_encoding" ||
         kind == "tensor_memory_scales_encoding";
}

// "ttg.blocked" -> "blocked" for the Triton GPU dialect (either spelling);
// "ttng.tensor_memory_encoding" -> "tensor_memory_encoding" for the two
// layouts of the Triton NVIDIA GPU dialect; else "".
inline absl::string_view TritonKind(absl::string_view dialect_name) {
  for (absl::string_view prefix : {"ttg.", "triton_gpu."}) {
    if (absl::StartsWith(dialect_name, prefix)) {
      return dialect_name.substr(prefix.size());
    }
  }
  for (absl::string_view prefix : {"ttng.", "triton_nvidia_gpu."}) {
    if (absl::StartsWith(dialect_name, prefix)) {
      absl::string_view kind = dialect_name.substr(prefix.size());
      if (kind == "tensor_memory_encoding" ||
          kind == "tensor_memory_scales_encoding") {
        return kind;
      }
    }
  }
  return "";
}

// Memory spaces (`#ttg.shared_memory`), not layouts.
inline bool MemorySpaceKind(absl::string_view kind) {
  return kind == "shared_memory" || kind == "tensor_memory" ||
         kind == "shared_cluster_memory";
}

class Parser {
 public:
  Parser(absl::string_view text, absl::string_view file)
      : lex_(text), text_(text), file_(file) {}

  TtgirLexer& lex() { return lex_; }

  // Where warnings go (keys Triton ignores), "L:C: message" with the line
  // and a caret; none are kept while null.
  void set_warnings(std::vector<std::string>* w) { warnings_ = w; }
  void WarnAt(size_t offset, absl::string_view message) const {
    if (warnings_ != nullptr) {
      warnings_->push_back(std::string(ErrorAt(offset, message).message()));
    }
  }

  absl::Status ErrorAt(size_t offset, absl::string_view message) const {
    return ParseError(text_, offset, message, file_);
  }
  absl::Status Unexpected(const TtgirToken& t, absl::string_view wanted) const {
    return ErrorAt(t.offset, absl::StrCat("expected ", wanted, ", found ",
                                          t.kind == Kind::kEnd
                                              ? std::string("end of input")
                                              : DescribeToken(t.text)));
  }

  absl::Status Expect(char c) {
    TtgirToken t = lex_.Next();
    if (!t.IsPunct(c))
      return Unexpected(t, absl::StrCat("'", std::string(1, c), "'"));
    return absl::OkStatus();
  }

  // Skips a balanced <...> whose '<' is next.
  absl::Status SkipAngles() {
    TtgirToken open = lex_.Next();
    if (!open.IsPunct('<')) return Unexpected(open, "'<'");
    int depth = 1;
    while (depth > 0) {
      TtgirToken t = lex_.Next();
      if (t.kind == Kind::kEnd) return ErrorAt(open.offset, "unclosed '<'");
      if (t.kind == Kind::kError)
        return ErrorAt(t.offset, "unterminated string");
      if (t.IsPunct('<')) ++depth;
      if (t.IsPunct('>')) --depth;
      if (t.kind == Kind::kArrow) continue;
    }
    return absl::OkStatus();
  }

  // Whether the character right after the current position is '<' (no
  // space: `#ttg.blocked<`).
  bool AngleFollows() const {
    const size_t p = lex_.position();
    return p < text_.size() && text_[p] == '<';
  }

  absl::Status ParseValue(Value& v, int depth) {
    if (depth > kMaxDepth) {
      return ErrorAt(lex_.position(), "attribute nested too deeply");
    }
    TtgirToken t = lex_.Next();
    v.offset = t.offset;
    switch (t.kind) {
      case Kind::kInt: {
        v.type = Value::Type::kInt;
        v.int_ok = absl::SimpleAtoi(t.text, &v.integer);
        if (absl::StartsWith(t.text, "0x") || absl::StartsWith(t.text, "0X")) {
          v.int_ok = absl::SimpleHexAtoi(t.text, &v.integer);
        }
        HLOLAYOUT_RETURN_IF_ERROR(MaybeTypeSuffix());
        break;
      }
      case Kind::kFloat:
        v.type = Value::Type::kFloat;
        HLOLAYOUT_RETURN_IF_ERROR(MaybeTypeSuffix());
        break;
      case Kind::kString:
        v.type = Value::Type::kString;
        v.text = std::string(t.text.substr(1, t.text.size() - 2));
        break;
      case Kind::kIdent:
        if (t.text == "true" || t.text == "false") {
          v.type = Value::Type::kBool;
          v.boolean = t.text == "true";
        } else {
          v.type = Value::Type::kIdent;
          v.text = std::string(t.text);
          if (AngleFollows())
            HLOLAYOUT_RETURN_IF_ERROR(SkipAngles());  // dense<...>
        }
        break;
      case Kind::kPunct:
        if (t.IsPunct('[')) {
          v.type = Value::Type::kArray;
          HLOLAYOUT_RETURN_IF_ERROR(ParseList(v.items, ']', depth));
        } else if (t.IsPunct('{')) {
          v.type = Value::Type::kDict;
          std::vector<size_t> offsets;
          HLOLAYOUT_RETURN_IF_ERROR(ParseDict(v.dict, offsets, depth));
        } else {
          return Unexpected(t, "an attribute value");
        }
        break;
      case Kind::kHashId:
        if (AngleFollows()) {
          v.type = Value::Type::kDialect;
          v.text = std::string(t.text.substr(1));
          HLOLAYOUT_RETURN_IF_ERROR(ParseDialectBody(v, depth));
        } else {
          v.type = Value::Type::kRef;
          v.text = std::string(t.text);
        }
        break;
      case Kind::kBangId:
        v.type = Value::Type::kOther;
        if (AngleFollows()) HLOLAYOUT_RETURN_IF_ERROR(SkipAngles());
        break;
      default:
        return Unexpected(t, "an attribute value");
    }
    v.end = lex_.position();
    return absl::OkStatus();
  }

  // `: i32` after a number.
  absl::Status MaybeTypeSuffix() {
    if (!lex_.Peek().IsPunct(':')) return absl::OkStatus();
    const size_t saved = lex_.position();
    lex_.Next();
    TtgirToken type = lex_.Next();
    if (type.kind == Kind::kIdent) return absl::OkStatus();
    lex_.Seek(saved);
    return absl::OkStatus();
  }

  absl::Status ParseList(std::vector<Value>& items, char close, int depth) {
    if (lex_.Peek().IsPunct(close)) {
      lex_.Next();
      return absl::OkStatus();
    }
    while (true) {
      items.emplace_back();
      HLOLAYOUT_RETURN_IF_ERROR(ParseValue(items.back(), depth + 1));
      TtgirToken t = lex_.Next();
      if (t.IsPunct(',')) continue;
      if (t.IsPunct(close)) return absl::OkStatus();
      return Unexpected(t,
                        absl::StrCat("',' or '", std::string(1, close), "'"));
    }
  }

  // After '{': `key = value, ...}`; a key alone is a unit attribute.
  absl::Status ParseDict(std::vector<std::pair<std::string, Value>>& dict,
                         std::vector<size_t>& offsets, int depth) {
    if (lex_.Peek().IsPunct('}')) {
      lex_.Next();
      return absl::OkStatus();
    }
    while (true) {
      TtgirToken key = lex_.Next();
      if (key.kind != Kind::kIdent && key.kind != Kind::kString) {
        return Unexpected(key, "an attribute name");
      }
      std::string name(key.kind == Kind::kString
                           ? key.text.substr(1, key.text.size() - 2)
                           : key.text);
      for (const auto& [k, unused] : dict) {
        if (k == name) {
          return ErrorAt(key.offset,
                         absl::StrCat("attribute '", name, "' given twice"));
        }
      }
      Value v;
      if (lex_.Peek().IsPunct('=')) {
        lex_.Next();
        HLOLAYOUT_RETURN_IF_ERROR(ParseValue(v, depth + 1));
      } else {
        v.type = Value::Type::kBool;  // a unit attribute
        v.boolean = true;
        v.offset = key.offset;
      }
      dict.emplace_back(std::move(name), std::move(v));
      offsets.push_back(key.offset);
      TtgirToken t = lex_.Next();
      if (t.IsPunct(',')) continue;
      if (t.IsPunct('}')) return absl::OkStatus();
      return Unexpected(t, "',' or '}'");
    }
  }

  // padded_shared's `[128:+16, 256:+8]`, at '['.
  absl::Status ParseIntervals(Value& v) {
    v.intervals_offset = lex_.Next().offset;
    while (!lex_.Peek().IsPunct(']')) {
      TtgirToken interval = lex_.Next();
      int64_t i = 0, pad = 0;
      if (interval.kind != Kind::kInt || !absl::SimpleAtoi(interval.text, &i) ||
          i < 0) {
        return Unexpected(interval, "an interval (N:+P)");
      }
      HLOLAYOUT_RETURN_IF_ERROR(Expect(':'));
      HLOLAYOUT_RETURN_IF_ERROR(Expect('+'));
      TtgirToken padding = lex_.Next();
      if (padding.kind != Kind::kInt || !absl::SimpleAtoi(padding.text, &pad) ||
          pad < 0) {
        return Unexpected(padding, "a padding (N:+P)");
      }
      v.intervals.emplace_back(i, pad);
      if (!lex_.Peek().IsPunct(',')) break;
      lex_.Next();
    }
    HLOLAYOUT_RETURN_IF_ERROR(Expect(']'));
    v.intervals_end = lex_.position();
    return absl::OkStatus();
  }

  // After `#dialect.kind`, at '<'. Layouts of the Triton dialects have
  // `<{key = value, ...}>` bodies, some with `, key = value` after the
  // braces; padded_shared puts its intervals before the braces; the tensor
  // memory encodings have `<key = value, ...>` or `<>`.
  absl::Status ParseDialectBody(Value& v, int depth) {
    const absl::string_view kind = TritonKind(v.text);
    if (!KnownLayoutKind(kind)) {
      v.body_raw = true;
      return SkipAngles();
    }
    HLOLAYOUT_RETURN_IF_ERROR(Expect('<'));
    if (lex_.Peek().IsPunct('>')) return Expect('>');
    if (kind == "padded_shared" && lex_.Peek().IsPunct('[')) {
      HLOLAYOUT_RETURN_IF_ERROR(ParseIntervals(v));
    }
    if (lex_.Peek().kind == Kind::kIdent && StructBodyKind(kind)) {
      // `<blockM = 128, blockN = 64, colStride = 1>`
      while (true) {
        TtgirToken key = lex_.Next();
        if (key.kind != Kind::kIdent) {
          return Unexpected(key, "an attribute name");
        }
        HLOLAYOUT_RETURN_IF_ERROR(Expect('='));
        Value x;
        HLOLAYOUT_RETURN_IF_ERROR(ParseValue(x, depth + 1));
        v.body.emplace_back(std::string(key.text), std::move(x));
        v.body_offsets.push_back(key.offset);
        if (!lex_.Peek().IsPunct(',')) break;
        lex_.Next();
      }
      return Expect('>');
    }
    HLOLAYOUT_RETURN_IF_ERROR(Expect('{'));
    HLOLAYOUT_RETURN_IF_ERROR(ParseDict(v.body, v.body_offsets, depth));
    for (const auto& [k, unused] : v.body) {
      if (k == "alignment") v.alignment_in_braces = true;
    }
    while (lex_.Peek().IsPunct(',')) {
      lex_.Next();
      TtgirToken key = lex_.Next();
      if (key.kind != Kind::kIdent) return Unexpected(key, "an attribute name");
      HLOLAYOUT_RETURN_IF_ERROR(Expect('='));
      Value x;
      HLOLAYOUT_RETURN_IF_ERROR(ParseValue(x, depth + 1));
      if (key.text == "alignment") v.trailing_alignment = true;
      v.body.emplace_back(std::string(key.text), std::move(x));
      v.body_offsets.push_back(key.offset);
    }
    return Expect('>');
  }

 private:
  TtgirLexer lex_;
  absl::string_view text_;
  absl::string_view file_;
  std::vector<std::string>* warnings_ = nullptr;
};

// LayoutBuilder
//
// A layout from a parsed attribute value: `#ttg.<kind><...>` (checked with
// Triton's parser rules and attribute verifiers) or, with `aliases`, an
// alias `#name` of one.
class LayoutBuilder {
 public:
  LayoutBuilder(const Parser& p, const LayoutAliases* aliases)
      : p_(p), aliases_(aliases) {}

  absl::StatusOr<Layout> Build(const Value& v, int depth = 0);

  static std::string Unsupported(absl::string_view name);

 private:
  const Value* Find(absl::string_view key);
  absl::StatusOr<const Value*> Require(absl::string_view key);
  std::string Missing(absl::string_view key) const;
  std::optional<size_t> MisspellingOf(absl::string_view key) const;
  absl::StatusOr<int32_t> Uint(const Value& v, absl::string_view what);
  absl::StatusOr<std::vector<int32_t>> Uints(const Value& v,
                                             absl::string_view what);
  absl::StatusOr<bool> Bool(const Value& v, absl::string_view what);
  absl::StatusOr<DimBases> Bases(const Value& v, absl::string_view what);
  absl::StatusOr<CgaBases> Cga(size_t rank);
  // vec, perPhase, maxPhase and order: the keys swizzled_shared and
  // amd_rotating_shared share (S is either layout; defined in the .cc).
  template <typename S>
  absl::Status SwizzleKeys(S* s);
  absl::StatusOr<LinearLayout> LinearBases(const Value& v,
                                           absl::Span<const char* const> ins,
                                           int serialized_rank = 0);
  absl::StatusOr<std::shared_ptr<const Layout>> Nested(absl::string_view key,
                                                       int depth);
  absl::StatusOr<Layout> BuildKind(absl::string_view kind, const Value& v,
                                   int depth);
  absl::StatusOr<Layout> BuildNvidia(absl::string_view kind, const Value& v,
                                     int depth);
  absl::StatusOr<Layout> BuildShared(absl::string_view kind, const Value& v,
                                     int depth);
  absl::StatusOr<const Value*> TrailingAlignment(const Value& v);
  absl::StatusOr<Layout> BuildLinear(absl::string_view kind, const Value& v);
  absl::StatusOr<Layout> BuildSwizzled(absl::string_view kind, const Value& v);
  absl::StatusOr<Layout> BuildNvmma(const Value& v);
  absl::StatusOr<Layout> BuildAmd(absl::string_view kind, const Value& v,
                                  int depth);
  absl::StatusOr<Layout> BuildMemory(absl::string_view kind, const Value& v,
                                     int depth);
  absl::StatusOr<Layout> BuildPadded(const Value& v);
  absl::StatusOr<LinearLayout> PaddedOrderShape(const Value& v);
  absl::StatusOr<Layout> BuildPartitioned(const Value& v, int depth);
  // Triton 3.6's CTASplitM / CTASplitN of the tensor memory encodings
  // (`legacy` when either is written; 1 when not).
  struct CtaSplit {
    bool legacy = false;
    int32_t m = 1;
    int32_t n = 1;
  };
  absl::StatusOr<CtaSplit> TensorMemorySplit(const Value& v);
  absl::StatusOr<Layout> BuildTensorMemoryScales(const CtaSplit& split);
  absl::StatusOr<Layout> BuildTensorMemory(const CtaSplit& split);

  const Parser& p_;
  const LayoutAliases* aliases_;
  const Value* keys_ = nullptr;
  std::vector<bool> used_;
};

}  // namespace hlolayout::triton::ttgir_internal

#endif  // HLOLAYOUT_TRITON_TTGIR_PARSER_INTERNAL_H_
