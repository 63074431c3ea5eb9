#include "hlolayout/triton/bases_json.h"

#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "hlolayout/parser/diagnostic.h"
#include "hlolayout/util/edit_distance.h"

namespace hlolayout::triton {
namespace {

struct Ctx {
  absl::string_view text;
  absl::string_view file;
  absl::Status At(const JsonValue& v, absl::string_view message) const {
    return ParseError(text, v.offset, message, file);
  }
  absl::Status Expected(const JsonValue& v, absl::string_view what) const {
    return At(
        v, absl::StrCat("expected ", what, ", found ", JsonKindName(v.kind)));
  }
};

absl::StatusOr<int32_t> Int32(const Ctx& ctx, const JsonValue& v) {
  if (v.kind != JsonValue::Kind::kNumber) return ctx.Expected(v, "an integer");
  if (!v.is_integer || v.integer < std::numeric_limits<int32_t>::min() ||
      v.integer > std::numeric_limits<int32_t>::max()) {
    return ctx.At(v, "expected an int32 integer");
  }
  return static_cast<int32_t>(v.integer);
}

absl::StatusOr<DimBases> DimBasesFrom(const Ctx& ctx, const JsonValue& v) {
  if (!v.is_array()) return ctx.Expected(v, "an array of bases");
  DimBases bases;
  for (const JsonValue& basis : v.array) {
    if (!basis.is_array()) return ctx.Expected(basis, "a basis (an array)");
    std::vector<int32_t> b;
    for (const JsonValue& x : basis.array) {
      absl::StatusOr<int32_t> n = Int32(ctx, x);
      if (!n.ok()) return n.status();
      b.push_back(*n);
    }
    bases.push_back(std::move(b));
  }
  return bases;
}

absl::StatusOr<NamedBases> Bases(const Ctx& ctx, const JsonValue& v) {
  NamedBases out;
  if (v.is_object()) {
    for (const auto& [name, b] : v.object) {
      absl::StatusOr<DimBases> db = DimBasesFrom(ctx, b);
      if (!db.ok()) return db.status();
      out.emplace_back(name, std::move(*db));
    }
    return out;
  }
  if (!v.is_array()) {
    return ctx.Expected(v,
                        "bases: an array of [name, bases] pairs or an object");
  }
  for (const JsonValue& pair : v.array) {
    if (!pair.is_array() || pair.array.size() != 2 ||
        !pair.array[0].is_string()) {
      return ctx.At(pair, "expected a pair [in-dim name, [[...], ...]]");
    }
    absl::StatusOr<DimBases> db = DimBasesFrom(ctx, pair.array[1]);
    if (!db.ok()) return db.status();
    out.emplace_back(pair.array[0].string, std::move(*db));
  }
  return out;
}

}  // namespace

absl::StatusOr<NamedBases> BasesFromJsonValue(const JsonValue& v,
                                              absl::string_view text,
                                              absl::string_view file_name) {
  return Bases(Ctx{text, file_name}, v);
}

absl::StatusOr<LinearLayout> LayoutFromJsonValue(const JsonValue& v,
                                                 absl::string_view text,
                                                 absl::string_view file_name) {
  const Ctx ctx{text, file_name};
  if (!v.is_object()) {
    return ctx.Expected(v, "an object (from_bases arguments or bases by name)");
  }
  const JsonValue* bases_v = v.Find("bases");
  if (bases_v == nullptr) {
    // {"register": [...], ...}: like #ttg.linear, out-dims dim0.. inferred.
    absl::StatusOr<NamedBases> bases = Bases(ctx, v);
    if (!bases.ok()) return bases.status();
    size_t rank = 0;
    for (const auto& [name, b] : *bases) {
      if (!b.empty()) {
        rank = b[0].size();
        break;
      }
    }
    std::vector<std::string> outs;
    for (size_t i = 0; i < rank; ++i) outs.push_back(absl::StrCat("dim", i));
    return LinearLayout::CreateInferred(std::move(*bases), outs);
  }
  for (const auto& [key, value] : v.object) {
    if (key != "bases" && key != "out_dims" && key != "out_sizes" &&
        key != "require_surjective") {
      const std::vector<std::string> known = {"bases", "out_dims", "out_sizes",
                                              "require_surjective"};
      const std::vector<std::string> near = NearestNames(key, known, 1);
      return ctx.At(
          value,
          absl::StrCat("unknown key \"", key, "\"",
                       CloseEnough(key, near[0])
                           ? absl::StrCat("; did you mean \"", near[0], "\"?")
                           : "",
                       " (expected bases, out_dims, out_sizes, "
                       "require_surjective)"));
    }
  }
  absl::StatusOr<NamedBases> bases = Bases(ctx, *bases_v);
  if (!bases.ok()) return bases.status();
  const JsonValue* outs_v = v.Find("out_dims");
  if (outs_v == nullptr) return ctx.At(v, "missing \"out_dims\"");
  if (!outs_v->is_array()) return ctx.Expected(*outs_v, "an array of out-dims");
  std::vector<std::string> names;
  std::vector<int32_t> sizes;
  bool pairs = false;
  for (const JsonValue& o : outs_v->array) {
    if (o.is_string()) {
      names.push_back(o.string);
    } else if (o.is_array() && o.array.size() == 2 && o.array[0].is_string()) {
      names.push_back(o.array[0].string);
      absl::StatusOr<int32_t> size = Int32(ctx, o.array[1]);
      if (!size.ok()) return size.status();
      sizes.push_back(*size);
      pairs = true;
    } else {
      return ctx.At(o, "expected an out-dim name or a [name, size] pair");
    }
  }
  if (pairs && sizes.size() != names.size()) {
    return ctx.At(*outs_v,
                  "give every out-dim as a name or every one as a "
                  "[name, size] pair");
  }
  bool require_surjective = true;
  if (const JsonValue* r = v.Find("require_surjective")) {
    if (r->kind != JsonValue::Kind::kBool) return ctx.Expected(*r, "a boolean");
    require_surjective = r->boolean;
  }
  if (const JsonValue* s = v.Find("out_sizes")) {
    if (pairs) return ctx.At(*s, "out_sizes given twice (out_dims has sizes)");
    if (s->kind != JsonValue::Kind::kNull) {
      if (!s->is_array()) return ctx.Expected(*s, "an array of out-dim sizes");
      if (s->array.size() != names.size()) {
        return ctx.At(*s,
                      "out_dim_names and out_dim_sizes must have the same "
                      "length");
      }
      for (const JsonValue& x : s->array) {
        absl::StatusOr<int32_t> size = Int32(ctx, x);
        if (!size.ok()) return size.status();
        sizes.push_back(*size);
      }
      pairs = true;
    }
  }
  if (!pairs) {
    if (!require_surjective) {
      return ctx.At(v,
                    "out_dim_sizes must be provided when require_surjective "
                    "is false");
    }
    return LinearLayout::CreateInferred(std::move(*bases), names);
  }
  NamedInts outs;
  for (size_t i = 0; i < names.size(); ++i)
    outs.emplace_back(names[i], sizes[i]);
  return LinearLayout::Create(std::move(*bases), std::move(outs),
                              require_surjective);
}

absl::StatusOr<LinearLayout> LayoutFromJson(absl::string_view text,
                                            absl::string_view file_name) {
  absl::StatusOr<JsonValue> v = ParseJson(text, file_name);
  if (!v.ok()) return v.status();
  return LayoutFromJsonValue(*v, text, file_name);
}

FromBasesArgs FromBasesOf(const LinearLayout& l) {
  FromBasesArgs a;
  for (int d = 0; d < l.num_in_dims(); ++d) {
    std::vector<std::vector<int64_t>> bases;
    for (int i = 0; i < l.InDimSizeLog2(d); ++i) {
      auto b = l.Basis(d, i);
      bases.emplace_back(b.begin(), b.end());
    }
    a.bases.emplace_back(l.in_dim_name(d), std::move(bases));
  }
  for (int o = 0; o < l.num_out_dims(); ++o) {
    a.out_dims.push_back(l.out_dim_name(o));
    a.out_sizes.push_back(l.OutDimSize(o));
  }
  return a;
}

std::string LayoutToJson(const LinearLayout& l) {
  return AnswerJson(FromBasesOf(l));
}

}  // namespace hlolayout::triton
