#include "hlolayout/triton/ttgir_parser.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"
#include "hlolayout/parser/diagnostic.h"
#include "hlolayout/triton/layout_utils.h"
#include "hlolayout/triton/layout_verifier.h"
#include "hlolayout/triton/linear_layout.h"
#include "hlolayout/triton/ops.h"
#include "hlolayout/triton/status_macros.h"
#include "hlolayout/triton/ttgir_lexer.h"
#include "hlolayout/util/edit_distance.h"

namespace hlolayout::triton {
namespace {

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

// Kinds converted to a LinearLayout.
bool KnownLayoutKind(absl::string_view kind) {
  return kind == "blocked" || kind == "slice" || kind == "nvidia_mma" ||
         kind == "mma" || kind == "dot_op" || kind == "linear" ||
         kind == "swizzled_shared" || kind == "shared" ||
         kind == "nvmma_shared" || kind == "shared_linear";
}

// The keys of each kind KnownLayoutKind names, as the builder below reads
// them (Triton's attribute parsers refuse any other: "unexpected key").
std::vector<absl::string_view> KnownKeys(absl::string_view kind) {
  const std::vector<absl::string_view> cga = {"CGALayout", "CTAsPerCGA",
                                              "CTASplitNum", "CTAOrder"};
  std::vector<absl::string_view> keys;
  bool with_cga = true;
  if (kind == "blocked") {
    keys = {"sizePerThread", "threadsPerWarp", "warpsPerCTA", "order"};
  } else if (kind == "nvidia_mma" || kind == "mma") {
    keys = {"versionMajor", "versionMinor", "warpsPerCTA", "instrShape"};
  } else if (kind == "swizzled_shared") {
    keys = {"vec", "perPhase", "maxPhase", "order"};
  } else if (kind == "shared") {
    keys = {"vec", "perPhase", "maxPhase", "order", "hasLeadingOffset"};
  } else if (kind == "nvmma_shared") {
    keys = {"swizzlingByteWidth", "transposed", "elementBitWidth", "fp4Padded",
            "rank"};
  } else {
    with_cga = false;
    if (kind == "slice") keys = {"dim", "parent"};
    if (kind == "dot_op") keys = {"opIdx", "parent", "kWidth"};
    // `alignment` belongs after the braces; the builder says so.
    if (kind == "linear") {
      keys = {"register", "lane", "warp", "block", "order", "alignment"};
    }
    if (kind == "shared_linear") keys = {"offset", "block", "alignment"};
  }
  if (with_cga) keys.insert(keys.end(), cga.begin(), cga.end());
  return keys;
}

// "unknown key 'threadPerWarp' in #ttg.blocked; did you mean
// 'threadsPerWarp'? (its keys: sizePerThread, ...)", or "...; the nearest
// known is 'order' (...)" for a key that is no misspelling of one.
std::string UnknownKey(absl::string_view key, absl::string_view attribute,
                       const std::vector<absl::string_view>& known) {
  std::vector<std::string> names(known.begin(), known.end());
  const std::vector<std::string> nearest = NearestNames(key, names, 1);
  std::string out = absl::StrCat("unknown key '", key, "' in #", attribute);
  if (!nearest.empty()) {
    absl::StrAppend(&out,
                    CloseEnough(key, nearest[0]) ? "; did you mean '"
                                                 : "; the nearest known is '",
                    nearest[0], CloseEnough(key, nearest[0]) ? "'?" : "'");
  }
  absl::StrAppend(&out, " (its keys: ", absl::StrJoin(names, ", "), ")");
  return out;
}

// Layout kinds read into their fields but not converted (yet).
bool NotConvertedKind(absl::string_view kind) {
  return kind == "amd_mfma" || kind == "amd_wmma" || kind == "padded_shared" ||
         kind == "partitioned_shared" || kind == "amd_rotating_shared" ||
         kind == "generic_linear" || kind == "tensor_memory_encoding" ||
         kind == "tensor_memory_scales_encoding";
}

// "ttg.blocked" -> "blocked" for the Triton GPU dialect (either spelling);
// "ttng.tensor_memory_encoding" -> "tensor_memory_encoding" for the two
// layouts of the Triton NVIDIA GPU dialect; else "".
absl::string_view TritonKind(absl::string_view dialect_name) {
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
bool MemorySpaceKind(absl::string_view kind) {
  return kind == "shared_memory" || kind == "tensor_memory" ||
         kind == "shared_cluster_memory";
}

class Parser {
 public:
  Parser(absl::string_view text, absl::string_view file)
      : lex_(text), text_(text), file_(file) {}

  TtgirLexer& lex() { return lex_; }

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
        TT_RETURN_IF_ERROR(MaybeTypeSuffix());
        break;
      }
      case Kind::kFloat:
        v.type = Value::Type::kFloat;
        TT_RETURN_IF_ERROR(MaybeTypeSuffix());
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
          if (AngleFollows()) TT_RETURN_IF_ERROR(SkipAngles());  // dense<...>
        }
        break;
      case Kind::kPunct:
        if (t.IsPunct('[')) {
          v.type = Value::Type::kArray;
          TT_RETURN_IF_ERROR(ParseList(v.items, ']', depth));
        } else if (t.IsPunct('{')) {
          v.type = Value::Type::kDict;
          std::vector<size_t> offsets;
          TT_RETURN_IF_ERROR(ParseDict(v.dict, offsets, depth));
        } else {
          return Unexpected(t, "an attribute value");
        }
        break;
      case Kind::kHashId:
        if (AngleFollows()) {
          v.type = Value::Type::kDialect;
          v.text = std::string(t.text.substr(1));
          TT_RETURN_IF_ERROR(ParseDialectBody(v, depth));
        } else {
          v.type = Value::Type::kRef;
          v.text = std::string(t.text);
        }
        break;
      case Kind::kBangId:
        v.type = Value::Type::kOther;
        if (AngleFollows()) TT_RETURN_IF_ERROR(SkipAngles());
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
      TT_RETURN_IF_ERROR(ParseValue(items.back(), depth + 1));
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
        TT_RETURN_IF_ERROR(ParseValue(v, depth + 1));
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
      TT_RETURN_IF_ERROR(Expect(':'));
      TT_RETURN_IF_ERROR(Expect('+'));
      TtgirToken padding = lex_.Next();
      if (padding.kind != Kind::kInt || !absl::SimpleAtoi(padding.text, &pad) ||
          pad < 0) {
        return Unexpected(padding, "a padding (N:+P)");
      }
      v.intervals.emplace_back(i, pad);
      if (!lex_.Peek().IsPunct(',')) break;
      lex_.Next();
    }
    TT_RETURN_IF_ERROR(Expect(']'));
    v.intervals_end = lex_.position();
    return absl::OkStatus();
  }

  // After `#dialect.kind`, at '<'. Layouts of the Triton dialects have
  // `<{key = value, ...}>` bodies, some with `, key = value` after the
  // braces; padded_shared puts its intervals before the braces; the tensor
  // memory encodings have `<key = value, ...>` or `<>`.
  absl::Status ParseDialectBody(Value& v, int depth) {
    const absl::string_view kind = TritonKind(v.text);
    if (!KnownLayoutKind(kind) && !NotConvertedKind(kind)) {
      v.body_raw = true;
      return SkipAngles();
    }
    TT_RETURN_IF_ERROR(Expect('<'));
    if (lex_.Peek().IsPunct('>')) return Expect('>');
    if (kind == "padded_shared" && lex_.Peek().IsPunct('[')) {
      TT_RETURN_IF_ERROR(ParseIntervals(v));
    }
    if (lex_.Peek().kind == Kind::kIdent && NotConvertedKind(kind)) {
      // `<blockM = 128, blockN = 64, colStride = 1>`
      while (true) {
        TtgirToken key = lex_.Next();
        if (key.kind != Kind::kIdent) {
          return Unexpected(key, "an attribute name");
        }
        TT_RETURN_IF_ERROR(Expect('='));
        Value x;
        TT_RETURN_IF_ERROR(ParseValue(x, depth + 1));
        v.body.emplace_back(std::string(key.text), std::move(x));
        v.body_offsets.push_back(key.offset);
        if (!lex_.Peek().IsPunct(',')) break;
        lex_.Next();
      }
      return Expect('>');
    }
    TT_RETURN_IF_ERROR(Expect('{'));
    TT_RETURN_IF_ERROR(ParseDict(v.body, v.body_offsets, depth));
    for (const auto& [k, unused] : v.body) {
      if (k == "alignment") v.alignment_in_braces = true;
    }
    while (lex_.Peek().IsPunct(',')) {
      lex_.Next();
      TtgirToken key = lex_.Next();
      if (key.kind != Kind::kIdent) return Unexpected(key, "an attribute name");
      TT_RETURN_IF_ERROR(Expect('='));
      Value x;
      TT_RETURN_IF_ERROR(ParseValue(x, depth + 1));
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
};

// ---------------------------------------------------------------------------
// Layouts from attribute values.

class LayoutBuilder {
 public:
  LayoutBuilder(const Parser& p, const LayoutAliases* aliases)
      : p_(p), aliases_(aliases) {}

  absl::StatusOr<Layout> Build(const Value& v, int depth = 0) {
    if (depth > kMaxDepth)
      return p_.ErrorAt(v.offset, "layouts nested too deeply");
    if (v.type == Value::Type::kRef) {
      if (aliases_ == nullptr) {
        return p_.ErrorAt(v.offset,
                          absl::StrCat("undefined attribute alias ", v.text));
      }
      auto it = aliases_->find(v.text);
      if (it == aliases_->end()) {
        return p_.ErrorAt(v.offset,
                          absl::StrCat("undefined attribute alias ", v.text));
      }
      if (it->second.layout == nullptr) {
        return p_.ErrorAt(v.offset,
                          absl::StrCat(v.text, ": ", it->second.unsupported));
      }
      return *it->second.layout;
    }
    if (v.type != Value::Type::kDialect) {
      return p_.ErrorAt(v.offset,
                        "expected a layout attribute (#ttg.<kind><...>)");
    }
    const absl::string_view kind = TritonKind(v.text);
    if (!KnownLayoutKind(kind)) {
      return p_.ErrorAt(v.offset, Unsupported(v.text));
    }
    keys_ = &v;
    used_.assign(v.body.size(), false);
    // A key the kind does not have, before a key it misses: a misspelling
    // answers with the nearest known key, not "missing".
    const std::vector<absl::string_view> known = KnownKeys(kind);
    for (size_t i = 0; i < v.body.size(); ++i) {
      if (std::find(known.begin(), known.end(), v.body[i].first) ==
          known.end()) {
        return p_.ErrorAt(v.body_offsets[i],
                          UnknownKey(v.body[i].first, v.text, known));
      }
    }
    absl::StatusOr<Layout> l = BuildKind(kind, v, depth);
    if (!l.ok()) return l;
    for (size_t i = 0; i < v.body.size(); ++i) {
      if (!used_[i]) {
        return p_.ErrorAt(v.body_offsets[i],
                          absl::StrCat("unexpected key: ", v.body[i].first));
      }
    }
    // Triton's attribute verifiers, for today's spelling (dumps of the
    // older `#triton_gpu.` one predate some of them, such as kWidth).
    if (absl::StartsWith(v.text, "ttg.")) {
      absl::Status verified = VerifyLayout(*l);
      if (!verified.ok()) return p_.ErrorAt(v.offset, verified.message());
    }
    return l;
  }

  // Triton's names-only LinearLayout constructor on the bases `ins` of a
  // layout this library reads but does not convert (generic_linear): the
  // same checks as for `linear`, surjectivity included.
  absl::Status CheckInferredBases(const Value& v,
                                  absl::Span<const char* const> ins) {
    NamedBases bases;
    size_t rank = 0;
    for (const char* in : ins) {
      const Value* b = nullptr;
      if (v.type == Value::Type::kDialect) {
        for (const auto& [key, value] : v.body) {
          if (key == in) b = &value;
        }
      }
      if (b == nullptr) {
        return p_.ErrorAt(
            v.offset, absl::StrCat("Expected basis of '", in, "' not found"));
      }
      TT_ASSIGN_OR_RETURN(DimBases db, Bases(*b, in));
      if (rank == 0 && !db.empty()) rank = db[0].size();
      bases.emplace_back(in, std::move(db));
    }
    if (rank == 0) return p_.ErrorAt(v.offset, "Empty Layout not supported");
    absl::StatusOr<LinearLayout> ll = LinearLayout::CreateInferred(
        std::move(bases), StandardOutDimNames(static_cast<int>(rank)));
    if (!ll.ok()) return p_.ErrorAt(v.offset, ll.status().message());
    return absl::OkStatus();
  }

  static std::string Unsupported(absl::string_view name) {
    return absl::StrCat(
        "#", name,
        " layouts are not converted (converted: blocked, slice, nvidia_mma, "
        "dot_op, linear, swizzled_shared, nvmma_shared, shared_linear)");
  }

 private:
  // The body entry `key`, or nullptr; marks it used.
  const Value* Find(absl::string_view key) {
    for (size_t i = 0; i < keys_->body.size(); ++i) {
      if (keys_->body[i].first == key) {
        used_[i] = true;
        return &keys_->body[i].second;
      }
    }
    return nullptr;
  }

  absl::StatusOr<const Value*> Require(absl::string_view key) {
    const Value* v = Find(key);
    if (v == nullptr) {
      return p_.ErrorAt(keys_->offset,
                        absl::StrCat("missing '", key, "' in #", keys_->text));
    }
    return v;
  }

  absl::StatusOr<int32_t> Uint(const Value& v, absl::string_view what) {
    if (v.type != Value::Type::kInt) {
      return p_.ErrorAt(v.offset,
                        absl::StrCat("expected an integer type in ", what));
    }
    if (!v.int_ok || v.integer < 0 ||
        v.integer > std::numeric_limits<int32_t>::max()) {
      return p_.ErrorAt(
          v.offset,
          absl::StrCat("expected an unsigned integer value in ", what));
    }
    return static_cast<int32_t>(v.integer);
  }

  absl::StatusOr<std::vector<int32_t>> Uints(const Value& v,
                                             absl::string_view what) {
    if (v.type != Value::Type::kArray) {
      return p_.ErrorAt(v.offset, absl::StrCat("expected an array for ", what));
    }
    std::vector<int32_t> out;
    for (const Value& x : v.items) {
      TT_ASSIGN_OR_RETURN(int32_t n, Uint(x, what));
      out.push_back(n);
    }
    return out;
  }

  absl::StatusOr<bool> Bool(const Value& v, absl::string_view what) {
    if (v.type != Value::Type::kBool) {
      return p_.ErrorAt(v.offset,
                        absl::StrCat("expected a bool type in ", what));
    }
    return v.boolean;
  }

  // Bases: an array of arrays of (possibly negative) int32.
  absl::StatusOr<DimBases> Bases(const Value& v, absl::string_view what) {
    if (v.type != Value::Type::kArray) {
      return p_.ErrorAt(
          v.offset,
          absl::StrCat("Expected array of arrays for basis of '", what, "'"));
    }
    DimBases out;
    for (const Value& b : v.items) {
      if (b.type != Value::Type::kArray) {
        return p_.ErrorAt(b.offset,
                          absl::StrCat("Expected array of integers in basis "
                                       "for '",
                                       what, "'"));
      }
      std::vector<int32_t> basis;
      for (const Value& x : b.items) {
        if (x.type != Value::Type::kInt || !x.int_ok ||
            x.integer < std::numeric_limits<int32_t>::min() ||
            x.integer > std::numeric_limits<int32_t>::max()) {
          return p_.ErrorAt(x.offset, absl::StrCat("Expected integer in basis "
                                                   "for '",
                                                   what, "'"));
        }
        basis.push_back(static_cast<int32_t>(x.integer));
      }
      out.push_back(std::move(basis));
    }
    return out;
  }

  // CGALayout = [[...]], or the older CTAsPerCGA/CTASplitNum/CTAOrder.
  absl::StatusOr<CgaBases> Cga(size_t rank) {
    const Value* cga = Find("CGALayout");
    const Value* ctas = Find("CTAsPerCGA");
    const Value* split = Find("CTASplitNum");
    const Value* order = Find("CTAOrder");
    if (cga != nullptr) {
      TT_ASSIGN_OR_RETURN(DimBases b, Bases(*cga, "CGALayout"));
      for (const auto& basis : b) {
        if (basis.size() != rank) {
          return p_.ErrorAt(cga->offset,
                            absl::StrCat("'CGALayout' entry length does not "
                                         "match rank ",
                                         rank));
        }
      }
      return b;
    }
    if (ctas == nullptr && split == nullptr && order == nullptr) {
      return CgaBases{};
    }
    if (ctas == nullptr || split == nullptr || order == nullptr) {
      return p_.ErrorAt(keys_->offset,
                        "CTAsPerCGA, CTASplitNum and CTAOrder go together");
    }
    TT_ASSIGN_OR_RETURN(std::vector<int32_t> c, Uints(*ctas, "CTAsPerCGA"));
    TT_ASSIGN_OR_RETURN(std::vector<int32_t> s, Uints(*split, "CTASplitNum"));
    TT_ASSIGN_OR_RETURN(std::vector<int32_t> o, Uints(*order, "CTAOrder"));
    if (c.size() != rank || s.size() != rank || o.size() != rank) {
      return p_.ErrorAt(ctas->offset,
                        "CTAsPerCGA, CTASplitNum and CTAOrder must have the "
                        "layout's rank");
    }
    LinearLayout l;
    for (int32_t dim : o) {
      if (dim < 0 || dim >= static_cast<int32_t>(rank) || s[dim] == 0 ||
          c[dim] % s[dim] != 0) {
        return p_.ErrorAt(ctas->offset, "invalid CGA encoding parameters");
      }
      absl::StatusOr<LinearLayout> id =
          LinearLayout::Identity1D(s[dim], "block", absl::StrCat("dim", dim));
      absl::StatusOr<LinearLayout> zeros = LinearLayout::Zeros1D(
          c[dim] / s[dim], "block", absl::StrCat("dim", dim));
      if (!id.ok() || !zeros.ok()) {
        return p_.ErrorAt(ctas->offset, "invalid CGA encoding parameters");
      }
      absl::StatusOr<LinearLayout> part = Product(*id, *zeros);
      if (!part.ok()) return p_.ErrorAt(ctas->offset, part.status().message());
      absl::StatusOr<LinearLayout> next = Product(l, *part);
      if (!next.ok()) return p_.ErrorAt(ctas->offset, next.status().message());
      l = *next;
    }
    absl::StatusOr<LinearLayout> t =
        TransposeOuts(l, StandardOutDimNames(static_cast<int>(rank)));
    if (!t.ok()) return p_.ErrorAt(ctas->offset, t.status().message());
    CgaBases bases;
    if (t->num_in_dims() > 0) bases = t->bases()[0].second;
    return bases;
  }

  absl::StatusOr<std::shared_ptr<const Layout>> Parent(int depth) {
    TT_ASSIGN_OR_RETURN(const Value* v, Require("parent"));
    const Value* saved_keys = keys_;
    std::vector<bool> saved_used = used_;
    LayoutBuilder inner(p_, aliases_);
    absl::StatusOr<Layout> l = inner.Build(*v, depth + 1);
    keys_ = saved_keys;
    used_ = std::move(saved_used);
    if (!l.ok()) return l.status();
    return std::make_shared<const Layout>(*std::move(l));
  }

  absl::StatusOr<Layout> BuildKind(absl::string_view kind, const Value& v,
                                   int depth) {
    if (kind == "blocked") {
      BlockedLayout b;
      TT_ASSIGN_OR_RETURN(const Value* spt, Require("sizePerThread"));
      TT_ASSIGN_OR_RETURN(b.size_per_thread,
                          Uints(*spt, "number of elements per thread"));
      TT_ASSIGN_OR_RETURN(const Value* tpw, Require("threadsPerWarp"));
      TT_ASSIGN_OR_RETURN(b.threads_per_warp,
                          Uints(*tpw, "number of threads per warp"));
      TT_ASSIGN_OR_RETURN(const Value* wpc, Require("warpsPerCTA"));
      TT_ASSIGN_OR_RETURN(b.warps_per_cta,
                          Uints(*wpc, "number of warps per CTA"));
      TT_ASSIGN_OR_RETURN(const Value* order, Require("order"));
      TT_ASSIGN_OR_RETURN(b.order, Uints(*order, "order"));
      TT_ASSIGN_OR_RETURN(b.cga, Cga(b.size_per_thread.size()));
      return Layout(std::move(b));
    }
    if (kind == "nvidia_mma" || kind == "mma") {
      NvidiaMmaLayout m;
      TT_ASSIGN_OR_RETURN(const Value* major, Require("versionMajor"));
      TT_ASSIGN_OR_RETURN(m.version_major, Uint(*major, "versionMajor"));
      if (const Value* minor = Find("versionMinor")) {
        TT_ASSIGN_OR_RETURN(m.version_minor, Uint(*minor, "versionMinor"));
      }
      TT_ASSIGN_OR_RETURN(const Value* wpc, Require("warpsPerCTA"));
      TT_ASSIGN_OR_RETURN(m.warps_per_cta, Uints(*wpc, "warpsPerCTA"));
      TT_ASSIGN_OR_RETURN(const Value* instr, Require("instrShape"));
      TT_ASSIGN_OR_RETURN(m.instr_shape, Uints(*instr, "instrShape"));
      TT_ASSIGN_OR_RETURN(m.cga, Cga(m.warps_per_cta.size()));
      return Layout(std::move(m));
    }
    if (kind == "slice") {
      SliceLayout s;
      TT_ASSIGN_OR_RETURN(const Value* dim, Require("dim"));
      TT_ASSIGN_OR_RETURN(s.dim, Uint(*dim, "dim"));
      TT_ASSIGN_OR_RETURN(s.parent, Parent(depth));
      return Layout(std::move(s));
    }
    if (kind == "dot_op") {
      DotOperandLayout d;
      TT_ASSIGN_OR_RETURN(const Value* idx, Require("opIdx"));
      TT_ASSIGN_OR_RETURN(d.op_idx, Uint(*idx, "opIdx"));
      TT_ASSIGN_OR_RETURN(d.parent, Parent(depth));
      if (const Value* kw = Find("kWidth")) {
        TT_ASSIGN_OR_RETURN(d.k_width, Uint(*kw, "kWidth"));
      }
      return Layout(std::move(d));
    }
    if (kind == "linear" || kind == "shared_linear") {
      const bool shared = kind == "shared_linear";
      if (!shared) Find("order");  // written by some passes; Triton ignores it
      if (v.alignment_in_braces) {
        return p_.ErrorAt(v.offset,
                          "alignment must be specified outside of the linear "
                          "layout braces");
      }
      NamedBases bases;
      const std::vector<const char*> ins =
          shared
              ? std::vector<const char*>{"offset", "block"}
              : std::vector<const char*>{"register", "lane", "warp", "block"};
      for (const char* in : ins) {
        const Value* b = Find(in);
        if (b == nullptr) {
          if (shared && absl::string_view(in) == "block") {
            bases.emplace_back(in, DimBases{});
            continue;
          }
          return p_.ErrorAt(
              v.offset, absl::StrCat("Expected basis of '", in, "' not found"));
        }
        TT_ASSIGN_OR_RETURN(DimBases db, Bases(*b, in));
        bases.emplace_back(in, std::move(db));
      }
      size_t rank = 0;
      for (const auto& [name, db] : bases) {
        if (!db.empty()) {
          rank = db[0].size();
          break;
        }
      }
      if (rank == 0) return p_.ErrorAt(v.offset, "Empty Layout not supported");
      absl::StatusOr<LinearLayout> ll = LinearLayout::CreateInferred(
          std::move(bases), StandardOutDimNames(static_cast<int>(rank)));
      if (!ll.ok()) return p_.ErrorAt(v.offset, ll.status().message());
      if (!shared) return Layout(LinearEncoding{*std::move(ll)});
      SharedLinearEncoding e;
      e.layout = *std::move(ll);
      const Value* align = Find("alignment");
      if (align == nullptr || !v.trailing_alignment) {
        return p_.ErrorAt(v.end > 0 ? v.end - 1 : v.offset,
                          "expected ', alignment = N' after the bases");
      }
      TT_ASSIGN_OR_RETURN(e.alignment, Uint(*align, "alignment"));
      if (e.alignment == 0 || (e.alignment & (e.alignment - 1)) != 0) {
        return p_.ErrorAt(align->offset,
                          "alignment must be a positive power of two");
      }
      return Layout(std::move(e));
    }
    if (kind == "swizzled_shared" || kind == "shared") {
      SwizzledSharedLayout s;
      TT_ASSIGN_OR_RETURN(const Value* vec, Require("vec"));
      TT_ASSIGN_OR_RETURN(s.vec, Uint(*vec, "vec"));
      TT_ASSIGN_OR_RETURN(const Value* pp, Require("perPhase"));
      TT_ASSIGN_OR_RETURN(s.per_phase, Uint(*pp, "perPhase"));
      TT_ASSIGN_OR_RETURN(const Value* mp, Require("maxPhase"));
      TT_ASSIGN_OR_RETURN(s.max_phase, Uint(*mp, "maxPhase"));
      TT_ASSIGN_OR_RETURN(const Value* order, Require("order"));
      TT_ASSIGN_OR_RETURN(s.order, Uints(*order, "order"));
      bool leading = false;
      if (kind == "shared") {
        if (const Value* h = Find("hasLeadingOffset")) {
          TT_ASSIGN_OR_RETURN(leading, Bool(*h, "hasLeadingOffset"));
        }
      }
      TT_ASSIGN_OR_RETURN(s.cga, Cga(s.order.size()));
      if (!leading) return Layout(std::move(s));
      // The older spelling of an NVMMA layout: the swizzle width follows
      // from (perPhase, maxPhase); the element width from the tensor type.
      NvmmaSharedLayout n;
      if (s.per_phase == 4 && s.max_phase == 2) {
        n.swizzle_bytes = 32;
      } else if (s.per_phase == 2 && s.max_phase == 4) {
        n.swizzle_bytes = 64;
      } else if (s.per_phase == 1 && s.max_phase == 8) {
        n.swizzle_bytes = 128;
      } else {
        return p_.ErrorAt(v.offset,
                          "Illegal shared encoding.  If hasLeadingOffset is "
                          "true, then (perPhase, maxPhase) must be either "
                          "(4,2), (2,4), or (1,8)");
      }
      n.transposed = s.order.size() >= 2 && s.order[0] == 0;
      n.element_bits = 0;
      n.cga = std::move(s.cga);
      return Layout(std::move(n));
    }
    if (kind == "nvmma_shared") {
      NvmmaSharedLayout n;
      TT_ASSIGN_OR_RETURN(const Value* sw, Require("swizzlingByteWidth"));
      TT_ASSIGN_OR_RETURN(n.swizzle_bytes, Uint(*sw, "swizzlingByteWidth"));
      if (const Value* t = Find("transposed")) {
        TT_ASSIGN_OR_RETURN(n.transposed, Bool(*t, "transposed"));
      }
      TT_ASSIGN_OR_RETURN(const Value* bits, Require("elementBitWidth"));
      TT_ASSIGN_OR_RETURN(n.element_bits, Uint(*bits, "elementBitWidth"));
      if (const Value* f = Find("fp4Padded")) {
        TT_ASSIGN_OR_RETURN(n.fp4_padded, Bool(*f, "fp4Padded"));
      }
      if (n.element_bits == 0) {
        return p_.ErrorAt(bits->offset, "elementBitWidth must be non-zero");
      }
      // The rank is the CGA's when given, else `rank = N` (2 otherwise).
      size_t rank = 2;
      if (const Value* r = Find("rank")) {
        TT_ASSIGN_OR_RETURN(int32_t given, Uint(*r, "rank"));
        if (given < 1 || given > 8) {
          return p_.ErrorAt(r->offset, "rank must be between 1 and 8");
        }
        rank = static_cast<size_t>(given);
      }
      for (const auto& [k, x] : v.body) {
        if (k == "CGALayout" && x.type == Value::Type::kArray &&
            !x.items.empty() && x.items[0].type == Value::Type::kArray) {
          rank = x.items[0].items.size();
        }
      }
      TT_ASSIGN_OR_RETURN(n.cga, Cga(rank));
      return Layout(std::move(n));
    }
    return p_.ErrorAt(v.offset, Unsupported(v.text));
  }

  const Parser& p_;
  const LayoutAliases* aliases_;
  const Value* keys_ = nullptr;
  std::vector<bool> used_;
};

bool AtLineStart(absl::string_view text, size_t offset) {
  while (offset > 0) {
    const char c = text[offset - 1];
    if (c == '\n') return true;
    if (c != ' ' && c != '\t' && c != '\r') return false;
    --offset;
  }
  return true;
}

// Skips a balanced (...) whose '(' is next (loc(...) and the like).
absl::Status SkipParens(Parser& p) {
  TtgirToken open = p.lex().Next();
  if (!open.IsPunct('(')) return p.Unexpected(open, "'('");
  int depth = 1;
  while (depth > 0) {
    TtgirToken t = p.lex().Next();
    if (t.kind == Kind::kEnd) return p.ErrorAt(open.offset, "unclosed '('");
    if (t.kind == Kind::kError)
      return p.ErrorAt(t.offset, "unterminated string");
    if (t.IsPunct('(')) ++depth;
    if (t.IsPunct(')')) --depth;
  }
  return absl::OkStatus();
}

// The fields of a dialect attribute as written.
std::vector<std::pair<std::string, std::string>> Fields(
    const Value& v, absl::string_view text) {
  std::vector<std::pair<std::string, std::string>> out;
  if (v.body_raw) {
    const size_t open = v.offset + 1 + v.text.size();  // '#', the name, '<'
    if (open < v.end && v.end <= text.size()) {
      out.emplace_back("", std::string(absl::StripAsciiWhitespace(
                               text.substr(open + 1, v.end - open - 2))));
    }
    return out;
  }
  if (v.intervals_end > v.intervals_offset) {
    out.emplace_back("intervals", std::string(text.substr(
                                      v.intervals_offset,
                                      v.intervals_end - v.intervals_offset)));
  }
  for (const auto& [key, x] : v.body) {
    out.emplace_back(key, x.end > x.offset ? std::string(text.substr(
                                                 x.offset, x.end - x.offset))
                                           : std::string("true"));
  }
  return out;
}

const Value* BodyField(const Value& v, absl::string_view key) {
  for (const auto& [k, x] : v.body) {
    if (k == key) return &x;
  }
  return nullptr;
}

std::optional<int64_t> IntField(const Value& v, absl::string_view key) {
  const Value* x = BodyField(v, key);
  if (x == nullptr || x->type != Value::Type::kInt || !x->int_ok) {
    return std::nullopt;
  }
  return x->integer;
}

std::optional<std::vector<int64_t>> IntsField(const Value& v,
                                              absl::string_view key) {
  const Value* x = BodyField(v, key);
  if (x == nullptr || x->type != Value::Type::kArray) return std::nullopt;
  std::vector<int64_t> out;
  for (const Value& item : x->items) {
    if (item.type != Value::Type::kInt || !item.int_ok) return std::nullopt;
    out.push_back(item.integer);
  }
  return out;
}

bool IsPow2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

// A parsed field of a ParsedLayout (for a dot_op over a layout that is not
// converted: the parent's version).
std::optional<int64_t> ParsedInt(const ParsedLayout& pl,
                                 absl::string_view key) {
  for (const auto& [k, text] : pl.fields) {
    int64_t v = 0;
    if (k == key && absl::SimpleAtoi(text, &v)) return v;
  }
  return std::nullopt;
}

// Bases written as an array of arrays of integers, or nullopt.
std::optional<DimBases> BasesField(const Value& v, absl::string_view key) {
  const Value* x = BodyField(v, key);
  if (x == nullptr || x->type != Value::Type::kArray) return std::nullopt;
  DimBases out;
  for (const Value& basis : x->items) {
    if (basis.type != Value::Type::kArray) return std::nullopt;
    std::vector<int32_t> b;
    for (const Value& item : basis.items) {
      if (item.type != Value::Type::kInt || !item.int_ok ||
          item.integer < std::numeric_limits<int32_t>::min() ||
          item.integer > std::numeric_limits<int32_t>::max()) {
        return std::nullopt;
      }
      b.push_back(static_cast<int32_t>(item.integer));
    }
    out.push_back(std::move(b));
  }
  return out;
}

// padded_shared's braces: `offset = [[...]], block = [[...]]` (its linear
// component) or `order = [...], shape = [...]` (an identity), with the
// checks of Triton's parser and PaddedSharedEncodingAttr::verify.
absl::Status VerifyPaddedComponent(const Parser& p, const Value& v) {
  auto fail = [&](absl::string_view message) {
    return p.ErrorAt(v.offset, message);
  };
  const bool linear =
      BodyField(v, "offset") != nullptr || BodyField(v, "block") != nullptr;
  for (const auto& [key, unused] : v.body) {
    const bool known = linear ? (key == "offset" || key == "block")
                              : (key == "order" || key == "shape");
    if (!known) {
      return fail(absl::StrCat("Unexpected attribute \"", key, "\" found"));
    }
  }
  if (!linear) {
    const std::vector<int64_t> order =
        IntsField(v, "order").value_or(std::vector<int64_t>{});
    const std::vector<int64_t> shape =
        IntsField(v, "shape").value_or(std::vector<int64_t>{});
    if (order.size() != shape.size()) {
      return fail("Mismatch of shape and order ranks in padded layout");
    }
    return absl::OkStatus();
  }
  NamedBases bases;
  for (const char* in : {"offset", "block"}) {
    if (BodyField(v, in) == nullptr) {
      return fail(absl::StrCat("Expected basis of '", in, "' not found"));
    }
    std::optional<DimBases> b = BasesField(v, in);
    if (!b.has_value()) {
      return fail(
          absl::StrCat("Expected array of integers in basis for '", in, "'"));
    }
    bases.emplace_back(in, *std::move(b));
  }
  size_t rank = 0;
  for (const auto& [name, db] : bases) {
    if (!db.empty()) rank = db[0].size();
  }
  if (rank == 0) return fail("linearComponent cannot be empty");
  absl::StatusOr<LinearLayout> all = LinearLayout::CreateInferred(
      bases, StandardOutDimNames(static_cast<int>(rank)));
  if (!all.ok()) return fail(all.status().message());
  absl::StatusOr<LinearLayout> offsets = LinearLayout::Create(
      {bases[0]}, all->out_dims(), /*require_surjective=*/false);
  if (!offsets.ok()) return fail(offsets.status().message());
  if (!offsets->IsInjective()) {
    return fail("Broadcasting in offset dimension is not supported.");
  }
  for (const auto& [name, db] : bases) {
    for (const auto& basis : db) {
      if (std::count_if(basis.begin(), basis.end(),
                        [](int32_t x) { return x != 0; }) > 1) {
        return fail("Each offset basis must move in at most one dimension.");
      }
    }
    for (const auto& basis : db) {
      for (int32_t x : basis) {
        if (x != 0 && !IsPow2(x)) {
          return fail("Each offset basis must be 0 or a power of two.");
        }
      }
    }
  }
  return absl::OkStatus();
}

// Triton's verifiers for the layouts read but not converted, with Triton's
// messages (AMDMfmaEncodingAttr::verify, AMDWmmaEncodingAttr::verify,
// TensorMemoryEncodingAttr::verify, PaddedSharedEncodingAttr::verify,
// PartitionedSharedEncodingAttr::verify, GenericLinearEncodingAttr::verify).
absl::Status VerifyNotConverted(const Parser& p, absl::string_view kind,
                                const Value& v) {
  auto fail = [&](absl::string_view message) {
    return p.ErrorAt(v.offset, message);
  };
  if (kind == "amd_mfma") {
    if (std::optional<int64_t> version = IntField(v, "version");
        version.has_value() && (*version < 0 || *version > 4)) {
      return fail("version must be in the [0, 4] range");
    }
    if (auto shape = IntsField(v, "instrShape");
        shape.has_value() && shape->size() >= 2) {
      const int64_t m = (*shape)[0], n = (*shape)[1];
      if (!((m == 32 && n == 32) || (m == 16 && n == 16) ||
            (m == 64 && n == 4) || (m == 4 && n == 64))) {
        return fail(absl::StrCat("invalid (mDim, nDim) combination: (", m, ", ",
                                 n, ")"));
      }
    }
    if (std::optional<int64_t> bits = IntField(v, "elementBitWidth");
        bits.has_value() && *bits != 32 && *bits != 64) {
      return fail("elementBitWidth must be 32 or 64");
    }
    return absl::OkStatus();
  }
  if (kind == "amd_wmma") {
    const int64_t version = IntField(v, "version").value_or(0);
    if (version < 1 || version > 3) {
      return fail("WMMA version must be in the [1, 3] range");
    }
    const std::vector<int64_t> shape =
        IntsField(v, "instrShape").value_or(std::vector<int64_t>{16, 16, 16});
    using S = std::vector<int64_t>;
    const std::vector<S> valid =
        version == 1 ? std::vector<S>{{16, 16, 16}}
        : version == 2
            ? std::vector<S>{{16, 16, 16}, {16, 16, 32}}
            : std::vector<S>{{16, 16, 4},   {16, 16, 32}, {16, 16, 64},
                             {16, 16, 128}, {32, 16, 64}, {32, 16, 128}};
    if (std::find(valid.begin(), valid.end(), shape) == valid.end()) {
      return fail(
          absl::StrCat("invalid WMMA v", version, " instruction shape"));
    }
    return absl::OkStatus();
  }
  if (kind == "tensor_memory_encoding") {
    const int64_t m = IntField(v, "blockM").value_or(0);
    const int64_t n = IntField(v, "blockN").value_or(0);
    const int64_t stride = IntField(v, "colStride").value_or(1);
    if (m != 64 && m != 128) {
      return fail(absl::StrCat("blockM must be 64 or 128 but got ", m));
    }
    if (!IsPow2(n)) {
      return fail(absl::StrCat("blockN must be a power of 2 but got ", n));
    }
    if (n > 512) {
      return fail(
          absl::StrCat("blockN must be less than or equal to 512 but got ", n));
    }
    if (stride != 1 && stride != 2 && stride != 4) {
      return fail(
          absl::StrCat("colStride must be 1, 2, or 4 but got ", stride));
    }
    const Value* fp4 = BodyField(v, "fp4Padded");
    if (fp4 != nullptr && fp4->type == Value::Type::kBool && fp4->boolean &&
        stride != 1) {
      return fail(absl::StrCat(
          "fp4Padded tensor memory layout requires colStride 1 but got ",
          stride));
    }
    return absl::OkStatus();
  }
  if (kind == "padded_shared") {
    if (v.intervals.empty()) {
      return fail("must have at least one interval-padding pair");
    }
    std::vector<int64_t> seen;
    for (const auto& [interval, padding] : v.intervals) {
      if (!IsPow2(interval) || interval > (int64_t{1} << 31)) {
        return fail("interval values must all be power of two");
      }
      if (!IsPow2(padding) || padding > (int64_t{1} << 31)) {
        return fail("padding values must all be power of two");
      }
      if (std::find(seen.begin(), seen.end(), interval) != seen.end()) {
        return fail("interval values cannot have duplicates");
      }
      seen.push_back(interval);
    }
    return VerifyPaddedComponent(p, v);
  }
  if (kind == "partitioned_shared") {
    if (std::optional<int64_t> n = IntField(v, "numPartitions");
        n.has_value() && (*n < 2 || !IsPow2(*n))) {
      return fail("numPartitions must be a power of 2 and at least 2");
    }
    if (std::optional<int64_t> g = IntField(v, "numGroups");
        g.has_value() && !IsPow2(*g)) {
      return fail("numGroups must be a power of 2 and greater than 0");
    }
    return absl::OkStatus();
  }
  if (kind == "generic_linear") {
    for (absl::string_view dim : {"register", "lane", "block"}) {
      const Value* bases = BodyField(v, dim);
      if (bases == nullptr || bases->type != Value::Type::kArray) continue;
      for (const Value& basis : bases->items) {
        int non_zero = 0;
        for (const Value& x : basis.items) {
          non_zero += x.type == Value::Type::kInt && x.integer != 0;
        }
        if (non_zero > 1) {
          return fail(absl::StrCat(
              "In a generic linear layout, register, lane, and block bases "
              "must move in at most one dimension. Swizzled bases found in '",
              dim, "'."));
        }
      }
    }
    return LayoutBuilder(p, nullptr)
        .CheckInferredBases(v, {"register", "lane", "warp", "block"});
  }
  return absl::OkStatus();
}

// Triton's dot_op verifier for a parent this library does not convert.
absl::Status VerifyDotOverNotConverted(const Parser& p, const Value& v,
                                       const ParsedLayout& parent) {
  const int64_t op_idx = IntField(v, "opIdx").value_or(0);
  const int64_t k_width = IntField(v, "kWidth").value_or(0);
  auto fail = [&](absl::string_view message) {
    return p.ErrorAt(v.offset, message);
  };
  if (op_idx != 0 && op_idx != 1) {
    return fail(absl::StrCat("ttg.dot_op opIdx parameter can be 0 or 1, got: ",
                             op_idx));
  }
  if (parent.kind == "amd_wmma") {
    const int64_t version = ParsedInt(parent, "version").value_or(0);
    if (version == 1 && k_width != 8 && k_width != 16) {
      return fail(
          "ttg.dot_op kWidth parameter must be 8/16 for WMMA v1 (including "
          "packed cases for `scaled_dot`)");
    }
    if (version == 2 && k_width != 4 && k_width != 8 && k_width != 16) {
      return fail(
          "ttg.dot_op kWidth parameter must be 4/8/16 for WMMA v2 (including "
          "packed cases for `scaled_dot`)");
    }
    if (version == 3 && k_width == 0) {
      return fail("ttg.dot_op kWidth parameter is mandatory for WMMA v3 ");
    }
  }
  if (parent.kind == "amd_mfma" && k_width == 0) {
    return fail("ttg.dot_op kWidth parameter is mandatory for MFMA parent");
  }
  return absl::OkStatus();
}

absl::StatusOr<ParsedLayout> EncodingLayout(const Parser& p, const Value& v,
                                            absl::string_view text,
                                            const LayoutAliases& aliases,
                                            int depth = 0);

// The parent of a slice or dot_op when it is a layout this library does not
// convert (directly or through its own parent), else nullopt.
absl::StatusOr<std::optional<ParsedLayout>> NotConvertedParent(
    const Parser& p, const Value& v, absl::string_view text,
    const LayoutAliases& aliases, int depth) {
  const Value* parent = BodyField(v, "parent");
  if (parent == nullptr) return std::optional<ParsedLayout>();
  if (depth > kMaxDepth)
    return p.ErrorAt(v.offset, "layouts nested too deeply");
  if (parent->type != Value::Type::kRef &&
      parent->type != Value::Type::kDialect) {
    return std::optional<ParsedLayout>();  // the builder says what is wrong
  }
  TT_ASSIGN_OR_RETURN(ParsedLayout pl,
                      EncodingLayout(p, *parent, text, aliases, depth + 1));
  if (pl.layout != nullptr) return std::optional<ParsedLayout>();
  return std::optional<ParsedLayout>(std::move(pl));
}

// PartitionedSharedEncodingAttr::verify's rank rule: partitionDim is below
// the rank of the partition layout (when that layout is one this library
// converts; the rank of a padded or partitioned inner layout is not known
// here and is not checked).
absl::Status VerifyPartitionDim(const Parser& p, const Value& v,
                                absl::string_view text,
                                const LayoutAliases& aliases, int depth) {
  const Value* inner = BodyField(v, "partitionLayout");
  const std::optional<int64_t> dim = IntField(v, "partitionDim");
  if (inner == nullptr || !dim.has_value()) return absl::OkStatus();
  if (depth > kMaxDepth)
    return p.ErrorAt(v.offset, "layouts nested too deeply");
  if (inner->type != Value::Type::kRef &&
      inner->type != Value::Type::kDialect) {
    return absl::OkStatus();
  }
  TT_ASSIGN_OR_RETURN(ParsedLayout pl,
                      EncodingLayout(p, *inner, text, aliases, depth + 1));
  if (pl.layout == nullptr) return absl::OkStatus();
  const int rank = LayoutRank(*pl.layout);
  if (*dim < 0 || *dim >= rank) {
    return p.ErrorAt(v.offset, absl::StrCat("partitionDim (", *dim,
                                            ") must be less than the layout "
                                            "rank (",
                                            rank, ")"));
  }
  return absl::OkStatus();
}

// The layout of an encoding value: an alias (which must be defined) or an
// inline attribute. Layouts this library does not convert are kept with
// their fields and the reason, once Triton's verifier accepts them.
absl::StatusOr<ParsedLayout> EncodingLayout(const Parser& p, const Value& v,
                                            absl::string_view text,
                                            const LayoutAliases& aliases,
                                            int depth) {
  ParsedLayout pl;
  pl.text = std::string(text.substr(v.offset, v.end - v.offset));
  if (v.type == Value::Type::kRef) {
    auto it = aliases.find(v.text);
    if (it == aliases.end()) {
      return p.ErrorAt(v.offset,
                       absl::StrCat("undefined attribute alias ", v.text));
    }
    ParsedLayout copy = it->second;
    copy.text = pl.text;
    return copy;
  }
  if (v.type != Value::Type::kDialect) {
    return p.ErrorAt(v.offset, "expected a layout attribute");
  }
  const absl::string_view kind = TritonKind(v.text);
  pl.kind = std::string(kind.empty() ? absl::string_view(v.text) : kind);
  pl.fields = Fields(v, text);
  if (!KnownLayoutKind(kind)) {
    TT_RETURN_IF_ERROR(VerifyNotConverted(p, kind, v));
    if (kind == "partitioned_shared") {
      TT_RETURN_IF_ERROR(VerifyPartitionDim(p, v, text, aliases, depth));
    }
    pl.unsupported = LayoutBuilder::Unsupported(v.text);
    return pl;
  }
  if (kind == "slice" || kind == "dot_op") {
    TT_ASSIGN_OR_RETURN(std::optional<ParsedLayout> parent,
                        NotConvertedParent(p, v, text, aliases, depth));
    if (parent.has_value()) {
      if (kind == "dot_op") {
        TT_RETURN_IF_ERROR(VerifyDotOverNotConverted(p, v, *parent));
      }
      pl.unsupported =
          absl::StrCat("#", v.text, " over ", parent->text,
                       ", which is not converted: ", parent->unsupported);
      return pl;
    }
  }
  TT_ASSIGN_OR_RETURN(Layout l, LayoutBuilder(p, &aliases).Build(v));
  pl.kind = l.kind_name();
  pl.layout = std::make_shared<const Layout>(std::move(l));
  return pl;
}

// After `tensor` or `!ttg.memdesc`, at '<'.
absl::StatusOr<TtgirType> ParseType(Parser& p, bool memdesc, size_t start,
                                    absl::string_view text,
                                    const LayoutAliases& aliases) {
  TtgirType type;
  type.memdesc = memdesc;
  type.offset = start;
  TT_RETURN_IF_ERROR(p.Expect('<'));
  if (!p.lex().LexDimensions(&type.shape)) {
    return p.ErrorAt(p.lex().position(), "expected a shape such as 128x64xf16");
  }
  TtgirToken elem = p.lex().Next();
  if (elem.kind == Kind::kIdent) {
    type.element_type = std::string(elem.text);
  } else if (elem.kind == Kind::kBangId) {
    if (p.AngleFollows()) TT_RETURN_IF_ERROR(p.SkipAngles());
    type.element_type =
        std::string(text.substr(elem.offset, p.lex().position() - elem.offset));
  } else {
    return p.Unexpected(elem, "an element type");
  }
  type.element_bits = ElementBits(type.element_type);
  int hashes = 0;
  while (true) {
    TtgirToken t = p.lex().Next();
    if (t.IsPunct('>')) break;
    if (!t.IsPunct(',')) return p.Unexpected(t, "',' or '>'");
    TtgirToken item = p.lex().Peek();
    if (item.kind == Kind::kHashId) {
      Value v;
      TT_RETURN_IF_ERROR(p.ParseValue(v, 0));
      if (hashes++ == 0) {
        TT_ASSIGN_OR_RETURN(type.layout, EncodingLayout(p, v, text, aliases));
        type.encoding = type.layout.text;
      }
    } else if (memdesc && item.kind == Kind::kIdent) {
      p.lex().Next();  // mutable
    } else if (memdesc && item.kind == Kind::kInt) {
      p.lex().Next();  // an allocation shape such as 2x64x32
      if (p.lex().Peek().kind == Kind::kIdent &&
          absl::StartsWith(p.lex().Peek().text, "x")) {
        p.lex().Next();
      }
    } else {
      return p.Unexpected(item,
                          memdesc ? "a memdesc parameter" : "an encoding");
    }
  }
  // An NVMMA layout of the older spelling takes its element width from here.
  if (type.layout.layout != nullptr) {
    if (const auto* n = type.layout.layout->get<NvmmaSharedLayout>()) {
      if (n->element_bits == 0 && type.element_bits > 0) {
        NvmmaSharedLayout copy = *n;
        copy.element_bits = type.element_bits;
        type.layout.layout = std::make_shared<const Layout>(std::move(copy));
      }
    }
  }
  return type;
}

bool IsMemdesc(const TtgirToken& t) {
  return t.kind == Kind::kBangId &&
         (t.text == "!ttg.memdesc" || t.text == "!triton_gpu.memdesc" ||
          t.text == "!tt.memdesc");
}

absl::StatusOr<TtgirType> ParseAnyType(Parser& p, absl::string_view text,
                                       const LayoutAliases& aliases) {
  TtgirToken t = p.lex().Next();
  if (t.Is(Kind::kIdent, "tensor") && p.AngleFollows()) {
    return ParseType(p, false, t.offset, text, aliases);
  }
  if (IsMemdesc(t) && p.AngleFollows()) {
    return ParseType(p, true, t.offset, text, aliases);
  }
  return p.Unexpected(t, "a tensor or memdesc type");
}

void ReadModuleAttributes(const Value& dict, TtgirModule& m) {
  for (const auto& [k, v] : dict.dict) {
    const bool ttg =
        absl::StartsWith(k, "ttg.") || absl::StartsWith(k, "triton_gpu.");
    if (!ttg) continue;
    const absl::string_view name = absl::string_view(k).substr(k.find('.') + 1);
    if (v.type == Value::Type::kInt && v.int_ok && v.integer > 0 &&
        v.integer <= (int64_t{1} << 20)) {
      const int n = static_cast<int>(v.integer);
      if (name == "num-warps") m.num_warps = n;
      if (name == "threads-per-warp") m.threads_per_warp = n;
      if (name == "num-ctas") m.num_ctas = n;
    } else if (v.type == Value::Type::kString && name == "target") {
      m.target = v.text;
    }
  }
}

}  // namespace

absl::StatusOr<Layout> ParseLayout(absl::string_view text,
                                   const LayoutAliases* aliases,
                                   absl::string_view file_name) {
  Parser p(text, file_name);
  Value v;
  TT_RETURN_IF_ERROR(p.ParseValue(v, 0));
  TtgirToken rest = p.lex().Next();
  if (rest.kind != Kind::kEnd) return p.Unexpected(rest, "end of the layout");
  return LayoutBuilder(p, aliases).Build(v);
}

}  // namespace hlolayout::triton

namespace hlolayout::triton {

absl::Status RequireTtgirModule(const TtgirModule& m, absl::string_view text,
                                absl::string_view file_name) {
  if (m.module_offset == std::string::npos) {
    size_t first = 0;
    while (first < text.size() &&
           absl::ascii_isspace(static_cast<unsigned char>(text[first]))) {
      ++first;
    }
    const bool empty = first == text.size();
    return ParseError(
        text, empty ? 0 : first,
        absl::StrCat("no TTGIR module here",
                     empty ? " (the text is empty)" : "",
                     ": a TTGIR dump holds 'module attributes "
                     "{\"ttg.num-warps\" = 4 : i32, ...}' (MLIR_ENABLE_DUMP, "
                     "TRITON_KERNEL_DUMP or a .ttgir file of Triton's cache)"),
        file_name);
  }
  if (m.num_warps == 0) {
    return ParseError(text, m.module_offset,
                      "this module has no \"ttg.num-warps\" attribute: not "
                      "a TTGIR module (TTIR, before Triton assigns layouts?)",
                      file_name);
  }
  return absl::OkStatus();
}

int ElementBits(absl::string_view t) {
  if (absl::StartsWith(t, "!tt.ptr")) return 64;
  if (t == "f16" || t == "bf16" || t == "i16") return 16;
  if (t == "f32" || t == "i32" || t == "tf32") return 32;
  if (t == "f64" || t == "i64") return 64;
  if (t == "i1" || t == "i8" || absl::StartsWith(t, "f8") ||
      absl::StartsWith(t, "f4") || absl::StartsWith(t, "f6")) {
    return 8;
  }
  return 0;
}

std::vector<int64_t> TtgirType::LayoutShape() const {
  if (layout.layout == nullptr) return shape;
  int rank = LayoutRank(*layout.layout);
  if (rank == 0) rank = 2;
  if (memdesc && static_cast<int>(shape.size()) > rank) {
    return std::vector<int64_t>(shape.end() - rank, shape.end());
  }
  return shape;
}

absl::StatusOr<TtgirModule> ParseTtgirModule(absl::string_view text,
                                             absl::string_view file_name) {
  Parser p(text, file_name);
  TtgirLexer& lex = p.lex();
  TtgirModule m;
  std::string pending_result;
  size_t alias_end = std::string::npos;  // where the last alias ended
  while (true) {
    TtgirToken t = lex.Next();
    if (t.kind == Kind::kEnd) break;
    if (t.kind == Kind::kError) {
      return p.ErrorAt(t.offset, "unterminated string");
    }
    // An alias definition starts a line or follows another one on its line
    // (`#mma = #ttg.amd_mfma<{...}>#shared = ...`, which MLIR reads).
    const bool after_alias =
        alias_end != std::string::npos &&
        absl::StripAsciiWhitespace(text.substr(alias_end, t.offset - alias_end))
            .empty() &&
        text.substr(alias_end, t.offset - alias_end).find('\n') ==
            absl::string_view::npos;
    alias_end = std::string::npos;
    if (t.kind == Kind::kHashId &&
        (AtLineStart(text, t.offset) || after_alias) &&
        lex.Peek().IsPunct('=')) {
      lex.Next();
      if (lex.Peek().Is(Kind::kIdent, "loc")) {
        lex.Next();
        TT_RETURN_IF_ERROR(SkipParens(p));
        continue;
      }
      Value v;
      TT_RETURN_IF_ERROR(p.ParseValue(v, 0));
      alias_end = lex.position();
      const std::string name(t.text);
      if (m.aliases.count(name) != 0) {
        return p.ErrorAt(t.offset, absl::StrCat("redefinition of ", name));
      }
      if (v.type == Value::Type::kRef) {
        auto it = m.aliases.find(v.text);
        if (it != m.aliases.end()) {
          m.aliases[name] = it->second;
          m.alias_order.push_back(name);
        }
        continue;
      }
      if (v.type != Value::Type::kDialect) continue;
      const absl::string_view kind = TritonKind(v.text);
      if (MemorySpaceKind(kind)) continue;  // not a layout
      if (kind.empty()) {
        // Another dialect's attribute (`#tlx.user_layout<#padded>`): kept
        // out of the layout list, but types that use it still read.
        TT_ASSIGN_OR_RETURN(ParsedLayout pl,
                            EncodingLayout(p, v, text, m.aliases));
        m.aliases[name] = std::move(pl);
        continue;
      }
      TT_ASSIGN_OR_RETURN(ParsedLayout pl,
                          EncodingLayout(p, v, text, m.aliases));
      m.aliases[name] = std::move(pl);
      m.alias_order.push_back(name);
      continue;
    }
    if (t.Is(Kind::kIdent, "module") &&
        (lex.Peek().Is(Kind::kIdent, "attributes") ||
         lex.Peek().IsPunct('{'))) {
      if (m.module_offset == std::string::npos) m.module_offset = t.offset;
      if (lex.Peek().IsPunct('{')) continue;
      lex.Next();
      Value dict;
      TT_RETURN_IF_ERROR(p.ParseValue(dict, 0));
      if (dict.type == Value::Type::kDict) ReadModuleAttributes(dict, m);
      continue;
    }
    if ((t.Is(Kind::kIdent, "tensor") || IsMemdesc(t)) && p.AngleFollows()) {
      TT_ASSIGN_OR_RETURN(TtgirType type, ParseType(p, IsMemdesc(t), t.offset,
                                                    text, m.aliases));
      m.types.push_back(std::move(type));
      continue;
    }
    if (t.kind == Kind::kPercentId) {
      const size_t saved = lex.position();
      TtgirToken n = lex.Next();
      if (n.IsPunct(':') && lex.Peek().kind == Kind::kInt) {
        lex.Next();
        n = lex.Next();
      }
      if (n.IsPunct('=')) {
        pending_result = std::string(t.text);
      } else {
        lex.Seek(saved);
      }
      continue;
    }
    if (t.Is(Kind::kIdent, "ttg.convert_layout") ||
        t.Is(Kind::kIdent, "triton_gpu.convert_layout")) {
      ConvertLayoutOp op;
      op.result = pending_result;
      op.offset = t.offset;
      TtgirToken operand = lex.Next();
      if (operand.kind != Kind::kPercentId) {
        return p.Unexpected(operand, "the converted value (%name)");
      }
      // One result of a multi-result op: `%11#0`.
      if (lex.position() < text.size() && text[lex.position()] == '#') {
        TtgirToken index = lex.Next();
        if (index.kind != Kind::kHashId ||
            !std::all_of(index.text.begin() + 1, index.text.end(),
                         [](char c) { return c >= '0' && c <= '9'; }) ||
            index.text.size() < 2) {
          return p.Unexpected(index, "a result number (%name#N)");
        }
      }
      if (lex.Peek().IsPunct('{')) {
        Value attrs;
        TT_RETURN_IF_ERROR(p.ParseValue(attrs, 0));
      }
      TT_RETURN_IF_ERROR(p.Expect(':'));
      TT_ASSIGN_OR_RETURN(op.src, ParseAnyType(p, text, m.aliases));
      TtgirToken arrow = lex.Next();
      if (arrow.kind != Kind::kArrow) return p.Unexpected(arrow, "'->'");
      TT_ASSIGN_OR_RETURN(op.dst, ParseAnyType(p, text, m.aliases));
      m.types.push_back(op.src);
      m.types.push_back(op.dst);
      m.converts.push_back(std::move(op));
      continue;
    }
  }
  return m;
}

}  // namespace hlolayout::triton
