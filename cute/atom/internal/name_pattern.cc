// cute/atom/internal/name_pattern.cc
#include "hlolayout/cute/atom/internal/name_pattern.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "hlolayout/parser/diagnostic.h"
#include "hlolayout/util/check.h"

namespace hlolayout::cute::atom_internal {

namespace {

constexpr size_t kMaxNameLength = 512;

bool IsIdentChar(char c) {
  return absl::ascii_isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// Namespaces dropped in front of a name (GMMA:: and UMMA:: are kept: they
// are part of CuTe's enum names).
bool IsDroppedQualifier(absl::string_view q) {
  return q == "cute" || q == "cutlass" || q == "std" || q == "SM90" ||
         q == "SM100" || q == "SM103" || q == "SM120" || q == "BLOCKSCALED" ||
         q == "TMEM" || q == "LOAD" || q == "STORE";
}

struct TypeInfo {
  const char* name;
  int bits;
};

// CuTe's and CUTLASS's value types (cute/numeric/int.hpp,
// numeric_types.hpp) and the C++ built-ins atoms are written with.
constexpr TypeInfo kTypes[] = {
    {"bool", 8},
    {"char", 8},
    {"int8_t", 8},
    {"uint8_t", 8},
    {"int16_t", 16},
    {"uint16_t", 16},
    {"int32_t", 32},
    {"uint32_t", 32},
    {"int64_t", 64},
    {"uint64_t", 64},
    {"uint128_t", 128},
    {"uint256_t", 256},
    {"int", 32},
    {"unsigned", 32},
    {"short", 16},
    {"long", 64},
    {"uint1_t", 1},
    {"uint1b_t", 1},
    {"bin1_t", 1},
    {"int2_t", 2},
    {"uint2_t", 2},
    {"int2b_t", 2},
    {"uint2b_t", 2},
    {"int4_t", 4},
    {"uint4_t", 4},
    {"int4b_t", 4},
    {"uint4b_t", 4},
    {"int6_t", 6},
    {"uint6_t", 6},
    {"int6b_t", 6},
    {"uint6b_t", 6},
    {"half_t", 16},
    {"bfloat16_t", 16},
    {"tfloat32_t", 32},
    {"float", 32},
    {"double", 64},
    {"float_e4m3_t", 8},
    {"float_e5m2_t", 8},
    {"float_ue4m3_t", 8},
    {"float_ue8m0_t", 8},
    {"float_e2m1_t", 4},
    {"float_e2m3_t", 6},
    {"float_e3m2_t", 6},
    {"type_erased_dynamic_float8_t", 8},
    {"type_erased_dynamic_float6_t", 6},
    {"type_erased_dynamic_float4_t", 4},
};

std::vector<std::string> Alternatives(const std::vector<std::string>& items,
                                      absl::string_view sep, int max_count,
                                      bool leading_sep) {
  // Every sequence of 0..max_count items joined by sep.
  std::vector<std::string> out = {""};
  std::vector<std::string> level = {""};
  for (int n = 1; n <= max_count; ++n) {
    std::vector<std::string> next;
    for (const std::string& prefix : level) {
      for (const std::string& item : items) {
        const bool first = prefix.empty() && n == 1;
        next.push_back(
            absl::StrCat(prefix, (first && !leading_sep) ? "" : sep, item));
      }
    }
    out.insert(out.end(), next.begin(), next.end());
    level = std::move(next);
  }
  return out;
}

std::vector<std::string> NamedSet(absl::string_view name) {
  const std::string full(name);
  const std::vector<std::string> gmma_scale = {"GMMA::ScaleIn::One",
                                               "GMMA::ScaleIn::Neg"};
  const std::vector<std::string> umma_neg = {"UMMA::ScaleIn::One",
                                             "UMMA::ScaleIn::Neg"};
  if (name == "gmma_major") return {"GMMA::Major::K", "GMMA::Major::MN"};
  if (name == "umma_major") return {"UMMA::Major::K", "UMMA::Major::MN"};
  if (name == "gmma_scale_tail") return Alternatives(gmma_scale, ",", 2, true);
  if (name == "gmma_scale_list") return Alternatives(gmma_scale, ",", 2, false);
  if (name == "umma_neg_tail") return Alternatives(umma_neg, ",", 2, true);
  if (name == "umma_neg_sat_tail") {
    std::vector<std::string> out = Alternatives(umma_neg, ",", 2, true);
    for (const std::string& a : umma_neg) {
      for (const std::string& b : umma_neg) {
        for (const char* sat :
             {"UMMA::Saturate::False", "UMMA::Saturate::True"}) {
          out.push_back(absl::StrCat(",", a, ",", b, ",", sat));
        }
      }
    }
    return out;
  }
  if (name == "umma_sat_tail") {
    return {"", ",UMMA::Saturate::False", ",UMMA::Saturate::True"};
  }
  if (name == "f16") return {"half_t", "bfloat16_t"};
  if (name == "f8f6f4") {
    return {"float_e4m3_t", "float_e5m2_t", "float_e3m2_t", "float_e2m3_t",
            "float_e2m1_t"};
  }
  if (name == "i8") return {"int8_t", "uint8_t"};
  // Types by width: @any_type, @copy_type (8 bits or more), @bits<N>,
  // @cp_async_type (4, 8 or 16 bytes).
  int lo = 0, hi = 1 << 30;
  if (name == "any_type") {
  } else if (name == "copy_type") {
    lo = 8;
  } else if (name == "cp_async_type") {
    lo = 32;
    hi = 128;
  } else if (absl::ConsumePrefix(&name, "bits") &&
             absl::SimpleAtoi(name, &lo)) {
    hi = lo;
  } else {
    HLOLAYOUT_CHECK(false) << "unknown named set @" << name;
  }
  std::vector<std::string> out;
  const bool cp_async = full == "cp_async_type";
  auto add = [&](const std::string& type, int bits) {
    if (bits < lo || bits > hi) return;
    if (cp_async && bits != 32 && bits != 64 && bits != 128) return;
    out.push_back(type);
  };
  for (const TypeInfo& t : kTypes) add(t.name, t.bits);
  for (const char* c :
       {"float", "double", "half_t", "bfloat16_t", "tfloat32_t"}) {
    add(absl::StrCat("complex<", c, ">"), 2 * *TypeBits(c));
  }
  return out;
}

}  // namespace

std::vector<std::string> KnownTypeNames() {
  std::vector<std::string> out;
  for (const TypeInfo& t : kTypes) out.push_back(t.name);
  return out;
}

absl::optional<int> TypeBits(absl::string_view type) {
  for (const TypeInfo& t : kTypes) {
    if (type == t.name) return t.bits;
  }
  if (absl::ConsumePrefix(&type, "complex<") &&
      absl::ConsumeSuffix(&type, ">")) {
    absl::optional<int> inner = TypeBits(type);
    if (inner) return 2 * *inner;
  }
  return absl::nullopt;
}

absl::StatusOr<std::string> CanonicalAtomName(absl::string_view text) {
  if (text.size() > kMaxNameLength) {
    return ParseError(text, kMaxNameLength,
                      absl::StrCat("an atom name has at most ", kMaxNameLength,
                                   " characters"));
  }
  // Tokens: qualified identifiers (a::b::c), integers, < > ,
  std::string out;
  int depth = 0;
  size_t i = 0;
  bool any = false;
  while (i < text.size()) {
    const char c = text[i];
    if (absl::ascii_isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    if (c == '<') {
      if (out.empty() || !IsIdentChar(out.back())) {
        return ParseError(text, i, "'<' must follow a name");
      }
      ++depth;
      out += c;
      ++i;
      continue;
    }
    if (c == '>') {
      if (depth == 0) return ParseError(text, i, "unbalanced '>'");
      --depth;
      out += c;
      ++i;
      continue;
    }
    if (c == ',') {
      if (depth == 0) {
        return ParseError(text, i, "',' outside template arguments");
      }
      out += c;
      ++i;
      continue;
    }
    if (c == '-' || IsIdentChar(c)) {
      // A qualified identifier or an integer.
      if (!out.empty() && (IsIdentChar(out.back()) || out.back() == '>')) {
        return ParseError(text, i, "expected ',', '<' or '>' between names");
      }
      std::vector<absl::string_view> parts;
      size_t start = i;
      if (c == '-') ++i;
      while (true) {
        size_t s = i;
        while (i < text.size() && IsIdentChar(text[i])) ++i;
        if (i == s) {
          return ParseError(text, i,
                            absl::StrCat("expected a name, found ",
                                         DescribeToken(text.substr(i, 1))));
        }
        parts.push_back(text.substr(s, i - s));
        if (i + 1 < text.size() && text[i] == ':' && text[i + 1] == ':') {
          i += 2;
          continue;
        }
        if (i < text.size() && text[i] == ':') {
          return ParseError(text, i, "expected '::'");
        }
        break;
      }
      size_t first = 0;
      while (first + 1 < parts.size() && IsDroppedQualifier(parts[first])) {
        ++first;
      }
      if (c == '-') out += '-';
      out += absl::StrJoin(parts.begin() + first, parts.end(), "::");
      (void)start;
      any = true;
      continue;
    }
    return ParseError(
        text, i,
        absl::StrCat("unexpected character ", DescribeToken(text.substr(i, 1)),
                     " in an atom name"));
  }
  if (!any) return ParseError(text, text.size(), "expected an atom name");
  if (depth != 0) return ParseError(text, text.size(), "expected '>'");
  return out;
}

NamePattern NamePattern::Compile(absl::string_view pattern,
                                 absl::string_view params) {
  NamePattern p;
  p.pattern_ = std::string(pattern);
  absl::flat_hash_map<std::string, int> index;
  for (absl::string_view item :
       absl::StrSplit(params, ';', absl::SkipWhitespace())) {
    item = absl::StripAsciiWhitespace(item);
    const size_t eq = item.find('=');
    HLOLAYOUT_CHECK(eq != absl::string_view::npos) << "bad parameter " << item;
    Param param;
    param.name = std::string(absl::StripAsciiWhitespace(item.substr(0, eq)));
    absl::string_view domain = absl::StripAsciiWhitespace(item.substr(eq + 1));
    param.display = std::string(domain);
    if (domain == "#uint") {
      // Any unsigned decimal integer; Instances() shows 1.
      param.any_uint = true;
      param.values = {"1"};
      param.display = "any unsigned integer";
    } else if (absl::ConsumePrefix(&domain, "@")) {
      param.values = NamedSet(domain);
      // Optional trailing template arguments (@..._tail, @..._list).
      param.optional = param.values[0].empty();
    } else if (domain.find("..") != absl::string_view::npos) {
      const size_t dots = domain.find("..");
      const size_t slash = domain.find('/');
      int64_t lo = 0, hi = 0, step = 1;
      HLOLAYOUT_CHECK(absl::SimpleAtoi(domain.substr(0, dots), &lo));
      HLOLAYOUT_CHECK(
          absl::SimpleAtoi(domain.substr(dots + 2, slash - dots - 2), &hi));
      if (slash != absl::string_view::npos) {
        HLOLAYOUT_CHECK(absl::SimpleAtoi(domain.substr(slash + 1), &step));
      }
      HLOLAYOUT_CHECK(step > 0);
      for (int64_t v = lo; v <= hi; v += step)
        param.values.push_back(absl::StrCat(v));
      param.display = absl::StrCat(lo, "..", hi, " step ", step);
    } else {
      for (absl::string_view v : absl::StrSplit(domain, '|')) {
        param.values.push_back(std::string(v));
      }
    }
    HLOLAYOUT_CHECK(!param.values.empty());
    for (const std::string& v : param.values) {
      for (char c : v) {
        if (param.chars.find(c) == std::string::npos) param.chars += c;
      }
      param.value_set.insert(v);
    }
    index[param.name] = static_cast<int>(p.params_.size());
    p.params_.push_back(std::move(param));
  }
  size_t i = 0;
  while (i < pattern.size()) {
    const size_t open = pattern.find('{', i);
    if (open == absl::string_view::npos) {
      p.pieces_.push_back({false, std::string(pattern.substr(i)), -1});
      break;
    }
    if (open > i)
      p.pieces_.push_back(
          {false, std::string(pattern.substr(i, open - i)), -1});
    const size_t close = pattern.find('}', open);
    HLOLAYOUT_CHECK(close != absl::string_view::npos) << pattern;
    const std::string name(pattern.substr(open + 1, close - open - 1));
    auto it = index.find(name);
    HLOLAYOUT_CHECK(it != index.end())
        << "parameter " << name << " of " << pattern;
    p.pieces_.push_back({true, "", it->second});
    i = close + 1;
  }
  return p;
}

bool NamePattern::MatchFrom(absl::string_view s, size_t piece,
                            std::vector<const std::string*>& chosen,
                            std::vector<std::string>& uint_text) const {
  if (piece == pieces_.size()) return s.empty();
  const Piece& pc = pieces_[piece];
  if (!pc.is_param) {
    if (!absl::StartsWith(s, pc.literal)) return false;
    return MatchFrom(s.substr(pc.literal.size()), piece + 1, chosen, uint_text);
  }
  const Param& param = params_[pc.param];
  if (chosen[pc.param] != nullptr) {
    const std::string& v = *chosen[pc.param];
    if (!absl::StartsWith(s, v)) return false;
    return MatchFrom(s.substr(v.size()), piece + 1, chosen, uint_text);
  }
  if (param.any_uint) {
    size_t n = 0;
    while (n < s.size() && n < 10 &&
           absl::ascii_isdigit(static_cast<unsigned char>(s[n]))) {
      ++n;
    }
    if (n == 0 || (n > 1 && s[0] == '0')) return false;
    uint_text[pc.param] = std::string(s.substr(0, n));
    chosen[pc.param] = &uint_text[pc.param];
    if (MatchFrom(s.substr(n), piece + 1, chosen, uint_text)) return true;
    chosen[pc.param] = nullptr;
    return false;
  }
  for (const std::string& v : param.values) {
    if (!absl::StartsWith(s, v)) continue;
    chosen[pc.param] = &v;
    if (MatchFrom(s.substr(v.size()), piece + 1, chosen, uint_text))
      return true;
  }
  chosen[pc.param] = nullptr;
  return false;
}

absl::optional<Bindings> NamePattern::Match(absl::string_view canonical) const {
  std::vector<const std::string*> chosen(params_.size(), nullptr);
  std::vector<std::string> uint_text(params_.size());
  if (!MatchFrom(canonical, 0, chosen, uint_text)) return absl::nullopt;
  Bindings b;
  for (size_t i = 0; i < params_.size(); ++i) {
    if (chosen[i] == nullptr) continue;  // a parameter used only in templates
    b.emplace_back(params_[i].name, *chosen[i]);
  }
  return b;
}

int64_t NamePattern::Count(bool optional_forms) const {
  int64_t n = 1;
  std::vector<bool> used(params_.size(), false);
  for (const Piece& pc : pieces_) {
    if (pc.is_param && !used[pc.param]) {
      used[pc.param] = true;
      const Param& p = params_[pc.param];
      if (!optional_forms && p.optional) continue;
      n *= static_cast<int64_t>(p.values.size());
    }
  }
  return n;
}

bool NamePattern::LooseMatch(absl::string_view canonical) const {
  return LooseBindings(canonical).has_value();
}

absl::optional<std::vector<NamePattern::LooseValue>> NamePattern::LooseBindings(
    absl::string_view canonical, bool whole) const {
  const absl::string_view full = canonical;
  // The pieces to match: all, or those up to the first literal '<'.
  std::vector<Piece> pieces;
  for (const Piece& pc : pieces_) {
    if (pc.is_param || whole) {
      pieces.push_back(pc);
      continue;
    }
    const size_t lt = pc.literal.find('<');
    pieces.push_back({false, pc.literal.substr(0, lt), -1});
    if (lt != std::string::npos) break;
  }
  if (!whole) canonical = canonical.substr(0, canonical.find('<'));
  // The name starts with the pattern's first literal, or nothing fits.
  if (!pieces.empty() && !pieces[0].is_param &&
      !absl::StartsWith(canonical, pieces[0].literal)) {
    return absl::nullopt;
  }
  auto takes = [&](const Param& p, char c) {
    return absl::ascii_isalnum(static_cast<unsigned char>(c)) || c == '_' ||
           c == ':' || p.chars.find(c) != std::string::npos;
  };
  // Glob match, a parameter taking any run of its characters, choosing the
  // binding with the most parameters in their domains (so that a name with
  // one wrong value binds the others to their right ones, also where
  // parameters follow each other without a separator: {D}{A}{B}). best[k,
  // at]: the most such parameters among pieces k.. from `at`, -1 when they
  // cannot match; -2 not computed yet.
  const size_t n = canonical.size();
  std::vector<int> best((pieces.size() + 1) * (n + 1), -2);
  auto ends_of = [&](const Param& p, size_t at) {
    std::vector<size_t> ends;  // every end; in the domain first, then longest
    std::vector<size_t> others;
    for (size_t end = at;; ++end) {
      (Accepts(p.name, canonical.substr(at, end - at)) ? ends : others)
          .push_back(end);
      if (end == n || !takes(p, canonical[end])) break;
    }
    ends.insert(ends.end(), others.rbegin(), others.rend());
    return ends;
  };
  std::function<int(size_t, size_t)> score = [&](size_t k, size_t at) -> int {
    if (k == pieces.size()) return at == n ? 0 : -1;
    int& memo = best[k * (n + 1) + at];
    if (memo != -2) return memo;
    const Piece& pc = pieces[k];
    int result = -1;
    if (!pc.is_param) {
      if (absl::StartsWith(canonical.substr(at), pc.literal)) {
        result = score(k + 1, at + pc.literal.size());
      }
    } else {
      const Param& p = params_[pc.param];
      for (size_t end : ends_of(p, at)) {
        const int rest = score(k + 1, end);
        if (rest < 0) continue;
        const int here =
            rest + (Accepts(p.name, canonical.substr(at, end - at)) ? 1 : 0);
        result = std::max(result, here);
      }
    }
    memo = result;
    return result;
  };
  if (score(0, 0) < 0) return absl::nullopt;
  // Walk the best binding.
  std::vector<LooseValue> taken;
  size_t at = 0;
  for (size_t k = 0; k < pieces.size(); ++k) {
    const Piece& pc = pieces[k];
    if (!pc.is_param) {
      at += pc.literal.size();
      continue;
    }
    const Param& p = params_[pc.param];
    const int want = score(k, at);
    for (size_t end : ends_of(p, at)) {
      const int rest = score(k + 1, end);
      if (rest < 0) continue;
      const bool in = Accepts(p.name, canonical.substr(at, end - at));
      if (rest + (in ? 1 : 0) != want) continue;
      taken.push_back(
          {p.name, std::string(canonical.substr(at, end - at)),
           static_cast<size_t>(canonical.data() - full.data()) + at});
      at = end;
      break;
    }
  }
  return taken;
}

const NamePattern::Param* NamePattern::FindParam(absl::string_view name) const {
  for (const Param& p : params_) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

bool NamePattern::Accepts(absl::string_view param,
                          absl::string_view text) const {
  const Param* p = FindParam(param);
  if (p == nullptr) return false;
  if (p->any_uint) {
    return !text.empty() && text.size() <= 10 &&
           (text.size() == 1 || text[0] != '0') &&
           std::all_of(text.begin(), text.end(), [](char c) {
             return absl::ascii_isdigit(static_cast<unsigned char>(c));
           });
  }
  return p->value_set.contains(text);
}

std::vector<std::string> NamePattern::Values(absl::string_view param) const {
  const Param* p = FindParam(param);
  if (p == nullptr || p->any_uint) return {};
  return p->values;
}

std::vector<std::string> NamePattern::Instances(int64_t limit,
                                                bool optional_forms) const {
  std::vector<int> order;  // params in order of first use
  std::vector<bool> used(params_.size(), false);
  for (const Piece& pc : pieces_) {
    if (pc.is_param && !used[pc.param]) {
      used[pc.param] = true;
      order.push_back(pc.param);
    }
  }
  std::vector<size_t> digit(params_.size(), 0);
  std::vector<std::string> out;
  while (static_cast<int64_t>(out.size()) < limit) {
    std::string name;
    for (const Piece& pc : pieces_) {
      name +=
          pc.is_param ? params_[pc.param].values[digit[pc.param]] : pc.literal;
    }
    out.push_back(std::move(name));
    // Advance: the last parameter fastest.
    int k = static_cast<int>(order.size()) - 1;
    for (; k >= 0; --k) {
      const int p = order[k];
      if (!optional_forms && params_[p].optional) continue;
      if (++digit[p] < params_[p].values.size()) break;
      digit[p] = 0;
    }
    if (k < 0) break;
  }
  return out;
}

std::vector<std::pair<std::string, std::string>> NamePattern::Domains() const {
  std::vector<std::pair<std::string, std::string>> out;
  for (const Param& p : params_) {
    std::string shown;
    if (p.display.size() > 60 || p.display[0] == '@') {
      std::vector<std::string> vals;
      for (const std::string& v : p.values)
        vals.push_back(v.empty() ? "(none)" : v);
      shown = absl::StrJoin(vals, "|");
    } else {
      shown = p.display;
    }
    out.emplace_back(p.name, std::move(shown));
  }
  return out;
}

std::string NamePattern::Display() const {
  std::vector<std::string> doms;
  for (const auto& [name, domain] : Domains()) {
    doms.push_back(absl::StrCat(name, " in ", domain));
  }
  if (doms.empty()) return pattern_;
  return absl::StrCat(pattern_, " with ", absl::StrJoin(doms, ", "));
}

absl::string_view NamePattern::Head() const {
  absl::string_view p = pattern_;
  size_t cut = std::min(p.find('{'), p.find('<'));
  return p.substr(0, cut);
}

absl::StatusOr<std::string> Substitute(absl::string_view templ,
                                       const Bindings& bindings) {
  std::string out;
  size_t i = 0;
  while (i < templ.size()) {
    const size_t open = templ.find('{', i);
    if (open == absl::string_view::npos) {
      absl::StrAppend(&out, templ.substr(i));
      break;
    }
    absl::StrAppend(&out, templ.substr(i, open - i));
    const size_t close = templ.find('}', open);
    if (close == absl::string_view::npos) {
      return absl::InternalError(absl::StrCat("unclosed '{' in ", templ));
    }
    absl::string_view expr = templ.substr(open + 1, close - open - 1);
    const bool bits = absl::ConsumePrefix(&expr, "bits:");
    size_t op = expr.find_first_of("*/");
    absl::string_view name = expr.substr(0, op);
    const std::string* value = nullptr;
    for (const auto& [k, v] : bindings) {
      if (k == name) value = &v;
    }
    if (value == nullptr) {
      return absl::InternalError(
          absl::StrCat("no parameter ", name, " for ", templ));
    }
    int64_t number = 0;
    if (bits) {
      absl::optional<int> b = TypeBits(*value);
      if (!b) return absl::InternalError(absl::StrCat("not a type: ", *value));
      number = *b;
    } else if (op == absl::string_view::npos &&
               !absl::SimpleAtoi(*value, &number)) {
      absl::StrAppend(&out, *value);
      i = close + 1;
      continue;
    } else if (!absl::SimpleAtoi(*value, &number)) {
      return absl::InternalError(absl::StrCat("not an integer: ", *value));
    }
    if (op != absl::string_view::npos) {
      int64_t k = 0;
      if (!absl::SimpleAtoi(expr.substr(op + 1), &k) || k <= 0) {
        return absl::InternalError(absl::StrCat("bad expression ", expr));
      }
      if (expr[op] == '*') {
        number *= k;
      } else {
        if (number % k != 0) {
          return absl::InvalidArgumentError(
              absl::StrCat(name, " = ", number, " is not a multiple of ", k));
        }
        number /= k;
      }
    }
    absl::StrAppend(&out, number);
    i = close + 1;
  }
  return out;
}

}  // namespace hlolayout::cute::atom_internal
