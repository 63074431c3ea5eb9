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
#include "hlolayout/triton/ttgir_lexer.h"
#include "hlolayout/triton/ttgir_parser_internal.h"
#include "hlolayout/triton/type_verifier.h"
#include "hlolayout/util/status_macros.h"

namespace hlolayout::triton {
namespace {

using ttgir_internal::Kind;
using ttgir_internal::KnownLayoutKind;
using ttgir_internal::LayoutBuilder;
using ttgir_internal::MemorySpaceKind;
using ttgir_internal::Parser;
using ttgir_internal::TritonKind;
using ttgir_internal::Value;

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

// The layout of an encoding value: an alias (which must be defined) or an
// inline attribute. Layouts this library does not convert are kept with
// their fields and the reason, once Triton's verifier accepts them.
absl::StatusOr<ParsedLayout> EncodingLayout(const Parser& p, const Value& v,
                                            absl::string_view text,
                                            const LayoutAliases& aliases) {
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
    pl.unsupported = LayoutBuilder::Unsupported(v.text);
    return pl;
  }
  // A layout nested in another dialect's attribute (`partitionLayout =
  // #pinned` with `#pinned = #tlx.user_layout<...>`) is kept unconverted,
  // as that attribute is.
  for (const auto& [key, x] : v.body) {
    if (key != "parent" && key != "partitionLayout") continue;
    if (x.type == Value::Type::kRef) {
      auto it = aliases.find(x.text);
      if (it != aliases.end() && it->second.layout == nullptr) {
        pl.unsupported = absl::StrCat("#", v.text, " over ", x.text, ": ",
                                      it->second.unsupported);
        return pl;
      }
    } else if (x.type == Value::Type::kDialect &&
               !KnownLayoutKind(TritonKind(x.text))) {
      pl.unsupported = absl::StrCat("#", v.text, " over ",
                                    LayoutBuilder::Unsupported(x.text));
      return pl;
    }
  }
  HLOLAYOUT_ASSIGN_OR_RETURN(Layout l, LayoutBuilder(p, &aliases).Build(v));
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
  HLOLAYOUT_RETURN_IF_ERROR(p.Expect('<'));
  if (!p.lex().LexDimensions(&type.shape)) {
    return p.ErrorAt(p.lex().position(), "expected a shape such as 128x64xf16");
  }
  TtgirToken elem = p.lex().Next();
  if (elem.kind == Kind::kIdent) {
    type.element_type = std::string(elem.text);
  } else if (elem.kind == Kind::kBangId) {
    if (p.AngleFollows()) HLOLAYOUT_RETURN_IF_ERROR(p.SkipAngles());
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
      HLOLAYOUT_RETURN_IF_ERROR(p.ParseValue(v, 0));
      if (hashes++ == 0) {
        HLOLAYOUT_ASSIGN_OR_RETURN(type.layout,
                                   EncodingLayout(p, v, text, aliases));
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
      if (name == "threads-per-warp") {
        m.threads_per_warp = n;
        m.threads_per_warp_named = true;
      }
      if (name == "num-ctas") {
        m.num_ctas = n;
        m.num_ctas_named = true;
      }
    } else if (v.type == Value::Type::kString && name == "target") {
      m.target = v.text;
    }
  }
}

// An alias definition starts a line or follows another one on its line
// (`#mma = #ttg.amd_mfma<{...}>#shared = ...`, which MLIR reads): true when
// only blanks of one line stand between `alias_end` (npos: no alias just
// read) and `offset`.
bool FollowsAliasOnItsLine(absl::string_view text, size_t alias_end,
                           size_t offset) {
  if (alias_end == std::string::npos) return false;
  const absl::string_view between = text.substr(alias_end, offset - alias_end);
  return absl::StripAsciiWhitespace(between).empty() &&
         between.find('\n') == absl::string_view::npos;
}

// The value of the alias `name` (its `#name =` read): a layout, a reference
// to another alias, another dialect's attribute or a location (skipped).
// Sets `alias_end` after a value.
absl::Status ReadAlias(Parser& p, const TtgirToken& name_token,
                       absl::string_view text, TtgirModule& m,
                       size_t& alias_end) {
  TtgirLexer& lex = p.lex();
  if (lex.Peek().Is(Kind::kIdent, "loc")) {
    lex.Next();
    return SkipParens(p);
  }
  Value v;
  HLOLAYOUT_RETURN_IF_ERROR(p.ParseValue(v, 0));
  alias_end = lex.position();
  const std::string name(name_token.text);
  if (m.aliases.count(name) != 0) {
    return p.ErrorAt(name_token.offset, absl::StrCat("redefinition of ", name));
  }
  if (v.type == Value::Type::kRef) {
    auto it = m.aliases.find(v.text);
    if (it != m.aliases.end()) {
      m.aliases[name] = it->second;
      m.alias_order.push_back(name);
    }
    return absl::OkStatus();
  }
  if (v.type != Value::Type::kDialect) return absl::OkStatus();
  const absl::string_view kind = TritonKind(v.text);
  if (MemorySpaceKind(kind)) return absl::OkStatus();  // not a layout
  HLOLAYOUT_ASSIGN_OR_RETURN(ParsedLayout pl,
                             EncodingLayout(p, v, text, m.aliases));
  m.aliases[name] = std::move(pl);
  // Another dialect's attribute (`#tlx.user_layout<#padded>`) is kept out
  // of the layout list, but types that use it still read.
  if (!kind.empty()) m.alias_order.push_back(name);
  return absl::OkStatus();
}

// `%name =` (or `%name:N =`) names the result of the op that follows;
// any other use of a value leaves the lexer where it was.
void ReadResultName(TtgirLexer& lex, const TtgirToken& t,
                    std::string& pending_result) {
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
}

// `ttg.convert_layout %x {attrs} : src -> dst`, its op token `t` read.
absl::Status ReadConvertLayout(Parser& p, const TtgirToken& t,
                               absl::string_view text,
                               const std::string& pending_result,
                               TtgirModule& m) {
  TtgirLexer& lex = p.lex();
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
    HLOLAYOUT_RETURN_IF_ERROR(p.ParseValue(attrs, 0));
  }
  HLOLAYOUT_RETURN_IF_ERROR(p.Expect(':'));
  HLOLAYOUT_ASSIGN_OR_RETURN(op.src, ParseAnyType(p, text, m.aliases));
  TtgirToken arrow = lex.Next();
  if (arrow.kind != Kind::kArrow) return p.Unexpected(arrow, "'->'");
  HLOLAYOUT_ASSIGN_OR_RETURN(op.dst, ParseAnyType(p, text, m.aliases));
  m.types.push_back(op.src);
  m.types.push_back(op.dst);
  m.converts.push_back(std::move(op));
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Layout> ParseLayout(absl::string_view text,
                                   const LayoutAliases* aliases,
                                   absl::string_view file_name,
                                   std::vector<std::string>* warnings) {
  Parser p(text, file_name);
  p.set_warnings(warnings);
  Value v;
  HLOLAYOUT_RETURN_IF_ERROR(p.ParseValue(v, 0));
  TtgirToken rest = p.lex().Next();
  if (rest.kind != Kind::kEnd) return p.Unexpected(rest, "end of the layout");
  return LayoutBuilder(p, aliases).Build(v);
}

}  // namespace hlolayout::triton

namespace hlolayout::triton {

bool HoldsTtgir(const TtgirModule& m) {
  if (!m.alias_order.empty() || !m.converts.empty()) return true;
  // A type counts when its encoding is a Triton layout: another dialect's
  // (`#ttnn.ttnn_layout<...>`, whose kind keeps its dialect's name) is not.
  return std::any_of(m.types.begin(), m.types.end(), [](const TtgirType& t) {
    return !t.encoding.empty() && t.layout.kind.find('.') == std::string::npos;
  });
}

absl::Status RequireTtgirModule(const TtgirModule& m, absl::string_view text,
                                absl::string_view file_name) {
  if (m.num_warps > 0 || HoldsTtgir(m)) return absl::OkStatus();
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
  return ParseError(text, m.module_offset,
                    "this module has no \"ttg.num-warps\" attribute: not "
                    "a TTGIR module (TTIR, before Triton assigns layouts?)",
                    file_name);
}

absl::Status VerifyModuleTypes(const TtgirModule& m, absl::string_view text,
                               absl::string_view file_name) {
  if (m.num_warps == 0) return absl::OkStatus();
  for (const TtgirType& t : m.types) {
    if (t.memdesc || t.layout.layout == nullptr ||
        absl::StrContains(t.layout.text, "triton_gpu.") ||
        !std::all_of(t.shape.begin(), t.shape.end(),
                     [](int64_t d) { return d > 0 && (d & (d - 1)) == 0; })) {
      continue;
    }
    // The module's warp size; the warps and CTAs the layout has (a
    // function or a warp_specialize partition may run fewer warps than
    // the module, which this reader does not follow).
    const Layout& layout = *t.layout.layout;
    absl::StatusOr<LinearLayout> own = ToLinearLayout(layout, t.shape);
    LayoutUse use;
    use.shape = t.shape;
    use.element_bits = t.element_bits == 0 ? 32 : t.element_bits;
    use.threads_per_warp = m.threads_per_warp;
    const int warp = own.ok() ? own->InDimIndex("warp") : -1;
    use.num_warps = warp >= 0 ? own->InDimSize(warp) : m.num_warps;
    use.num_ctas = static_cast<int>(NumCtas(layout));
    if (absl::Status s = VerifyLayoutUse(layout, use); !s.ok()) {
      return ParseError(text, t.offset, s.message(), file_name);
    }
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
  p.set_warnings(&m.warnings);
  std::string pending_result;
  size_t alias_end = std::string::npos;  // where the last alias ended
  while (true) {
    TtgirToken t = lex.Next();
    if (t.kind == Kind::kEnd) break;
    if (t.kind == Kind::kError) {
      return p.ErrorAt(t.offset, "unterminated string");
    }
    const bool after_alias = FollowsAliasOnItsLine(text, alias_end, t.offset);
    alias_end = std::string::npos;
    if (t.kind == Kind::kHashId &&
        (AtLineStart(text, t.offset) || after_alias) &&
        lex.Peek().IsPunct('=')) {
      lex.Next();
      HLOLAYOUT_RETURN_IF_ERROR(ReadAlias(p, t, text, m, alias_end));
      continue;
    }
    if (t.Is(Kind::kIdent, "module") &&
        (lex.Peek().Is(Kind::kIdent, "attributes") ||
         lex.Peek().IsPunct('{'))) {
      if (m.module_offset == std::string::npos) m.module_offset = t.offset;
      if (lex.Peek().IsPunct('{')) continue;
      lex.Next();
      Value dict;
      HLOLAYOUT_RETURN_IF_ERROR(p.ParseValue(dict, 0));
      if (dict.type == Value::Type::kDict) ReadModuleAttributes(dict, m);
      continue;
    }
    if ((t.Is(Kind::kIdent, "tensor") || IsMemdesc(t)) && p.AngleFollows()) {
      HLOLAYOUT_ASSIGN_OR_RETURN(
          TtgirType type,
          ParseType(p, IsMemdesc(t), t.offset, text, m.aliases));
      m.types.push_back(std::move(type));
      continue;
    }
    if (t.kind == Kind::kPercentId) {
      ReadResultName(lex, t, pending_result);
      continue;
    }
    if (t.Is(Kind::kIdent, "ttg.convert_layout") ||
        t.Is(Kind::kIdent, "triton_gpu.convert_layout")) {
      HLOLAYOUT_RETURN_IF_ERROR(
          ReadConvertLayout(p, t, text, pending_result, m));
      continue;
    }
  }
  return m;
}

}  // namespace hlolayout::triton
