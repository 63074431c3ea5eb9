#include "hlolayout/ttnn/spec_json.h"

#include <string>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "hlolayout/parser/diagnostic.h"
#include "hlolayout/ttnn/names.h"
#include "hlolayout/ttnn/refusal.h"

namespace hlolayout::ttnn {
namespace {

struct Ctx {
  absl::string_view text;  // the whole input
  size_t base = 0;         // where the parsed value's text starts in it
  absl::string_view file;

  absl::Status At(const JsonValue& v, absl::string_view message) const {
    return ParseError(text, base + v.offset, message, file);
  }
  absl::Status Expected(const JsonValue& v, absl::string_view what) const {
    return At(
        v, absl::StrCat("expected ", what, ", found ", JsonKindName(v.kind)));
  }
  // A model's refusal, located at `v`, keeping its rule.
  absl::Status Located(const JsonValue& v, const absl::Status& s) const {
    absl::Status out = At(v, s.message());
    if (absl::optional<std::string> r = RefusalRule(s)) {
      out = Refused(*r, out.message());
    }
    return out;
  }
};

absl::StatusOr<int64_t> Int(const Ctx& ctx, const JsonValue& v) {
  if (v.kind != JsonValue::Kind::kNumber || !v.is_integer) {
    return ctx.Expected(v, "an integer");
  }
  return v.integer;
}

absl::StatusOr<std::vector<int64_t>> Ints(const Ctx& ctx, const JsonValue& v,
                                          absl::string_view what) {
  if (!v.is_array()) return ctx.Expected(v, what);
  std::vector<int64_t> out;
  for (const JsonValue& e : v.array) {
    absl::StatusOr<int64_t> n = Int(ctx, e);
    if (!n.ok()) return n.status();
    out.push_back(*n);
  }
  return out;
}

absl::StatusOr<std::string> String(const Ctx& ctx, const JsonValue& v) {
  if (!v.is_string()) return ctx.Expected(v, "a string");
  return v.string;
}

template <typename T>
absl::StatusOr<T> Named(const Ctx& ctx, const JsonValue& v,
                        absl::optional<T> (*from)(absl::string_view),
                        NameKind kind) {
  absl::StatusOr<std::string> s = String(ctx, v);
  if (!s.ok()) return s.status();
  absl::optional<T> t = from(*s);
  if (!t) return ctx.At(v, CheckName(kind, *s).message());
  return *t;
}

absl::StatusOr<CoreRangeSet> Grid(const Ctx& ctx, const JsonValue& v) {
  if (!v.is_array()) return ctx.Expected(v, "a list of core ranges");
  std::vector<CoreRange> ranges;
  for (const JsonValue& r : v.array) {
    if (!r.is_array() || r.array.size() != 2) {
      return ctx.At(r, "expected a core range [[x0, y0], [x1, y1]]");
    }
    CoreCoord c[2];
    for (int i = 0; i < 2; ++i) {
      absl::StatusOr<std::vector<int64_t>> xy =
          Ints(ctx, r.array[i], "a core [x, y]");
      if (!xy.ok()) return xy.status();
      if (xy->size() != 2) return ctx.At(r.array[i], "expected a core [x, y]");
      c[i] = {(*xy)[0], (*xy)[1]};
    }
    ranges.push_back({c[0], c[1]});
  }
  absl::StatusOr<CoreRangeSet> set = CoreRangeSet::Make(std::move(ranges));
  if (!set.ok()) return ctx.Located(v, set.status());
  return set;
}

// Calls `field(key, value)` for each member; unknown keys are errors.
template <typename F>
absl::Status Members(const Ctx& ctx, const JsonValue& v,
                     std::initializer_list<absl::string_view> known,
                     absl::string_view what, F field) {
  if (!v.is_object()) return ctx.Expected(v, what);
  for (const auto& [key, value] : v.object) {
    bool ok = false;
    for (absl::string_view k : known) ok = ok || k == key;
    if (!ok)
      return ctx.At(value, absl::StrCat("unknown key '", key, "' in ", what));
    if (absl::Status s = field(key, value); !s.ok()) return s;
  }
  return absl::OkStatus();
}

// A shard_spec without "shape": the shape is derived (`*derive` set).
absl::StatusOr<ShardSpec> ShardSpecFrom(const Ctx& ctx, const JsonValue& v,
                                        bool* derive) {
  ShardSpec spec;
  bool has_grid = false, has_shape = false;
  absl::Status s =
      Members(ctx, v, {"grid", "orientation", "shape"}, "a shard_spec",
              [&](absl::string_view key, const JsonValue& e) -> absl::Status {
                if (key == "grid") {
                  absl::StatusOr<CoreRangeSet> g = Grid(ctx, e);
                  if (!g.ok()) return g.status();
                  spec.grid = *std::move(g);
                  has_grid = true;
                } else if (key == "orientation") {
                  absl::StatusOr<ShardOrientation> o = Named(
                      ctx, e, &OrientationFromName, NameKind::kOrientation);
                  if (!o.ok()) return o.status();
                  spec.orientation = *o;
                } else {
                  absl::StatusOr<std::vector<int64_t>> d =
                      Ints(ctx, e, "a shard shape");
                  if (!d.ok()) return d.status();
                  if (d->size() != 2)
                    return ctx.At(e, "a shard_spec shape is [height, width]");
                  spec.shape = {(*d)[0], (*d)[1]};
                  has_shape = true;
                }
                return absl::OkStatus();
              });
  if (!s.ok()) return s;
  if (!has_grid) return ctx.At(v, "a shard_spec needs a grid");
  *derive = !has_shape;
  return spec;
}

absl::StatusOr<NdShardSpec> NdShardSpecFrom(const Ctx& ctx,
                                            const JsonValue& v) {
  NdShardSpec spec;
  bool has_grid = false, has_shape = false;
  absl::Status s = Members(
      ctx, v, {"grid", "orientation", "shard_shape", "distribution"},
      "an nd_shard_spec",
      [&](absl::string_view key, const JsonValue& e) -> absl::Status {
        if (key == "grid") {
          absl::StatusOr<CoreRangeSet> g = Grid(ctx, e);
          if (!g.ok()) return g.status();
          spec.grid = *std::move(g);
          has_grid = true;
        } else if (key == "orientation") {
          absl::StatusOr<ShardOrientation> o =
              Named(ctx, e, &OrientationFromName, NameKind::kOrientation);
          if (!o.ok()) return o.status();
          spec.orientation = *o;
        } else if (key == "distribution") {
          absl::StatusOr<ShardDistributionStrategy> d =
              Named(ctx, e, &DistributionFromName, NameKind::kDistribution);
          if (!d.ok()) return d.status();
          spec.distribution = *d;
        } else {
          absl::StatusOr<std::vector<int64_t>> d =
              Ints(ctx, e, "a shard shape");
          if (!d.ok()) return d.status();
          spec.shard_shape = *std::move(d);
          has_shape = true;
        }
        return absl::OkStatus();
      });
  if (!s.ok()) return s;
  if (!has_grid || !has_shape) {
    return ctx.At(v, "an nd_shard_spec needs a grid and a shard_shape");
  }
  return spec;
}

absl::Status InputField(const Ctx& ctx, absl::string_view key,
                        const JsonValue& e, TensorSpecInput* in,
                        absl::optional<TensorMemoryLayout>* layout) {
  if (key == "shape") {
    absl::StatusOr<std::vector<int64_t>> d = Ints(ctx, e, "an array of dims");
    if (!d.ok()) return d.status();
    in->shape = *std::move(d);
  } else if (key == "dtype") {
    absl::StatusOr<DataType> t =
        Named(ctx, e, &DataTypeFromName, NameKind::kDataType);
    if (!t.ok()) return t.status();
    in->dtype = *t;
  } else if (key == "layout") {
    absl::StatusOr<Layout> l =
        Named(ctx, e, &LayoutFromName, NameKind::kLayout);
    if (!l.ok()) return l.status();
    in->layout = *l;
  } else if (key == "tile") {
    absl::StatusOr<std::vector<int64_t>> d = Ints(ctx, e, "a tile [h, w]");
    if (!d.ok()) return d.status();
    if (d->size() != 2) return ctx.At(e, "expected a tile [h, w]");
    absl::StatusOr<Tile> t = MakeTile((*d)[0], (*d)[1]);
    if (!t.ok()) return ctx.Located(e, t.status());
    in->tile = *t;
  } else if (key == "memory_layout") {
    absl::StatusOr<TensorMemoryLayout> m =
        Named(ctx, e, &MemoryLayoutFromName, NameKind::kMemoryLayout);
    if (!m.ok()) return m.status();
    *layout = *m;
  } else if (key == "buffer_type") {
    absl::StatusOr<BufferType> b =
        Named(ctx, e, &BufferTypeFromName, NameKind::kBufferType);
    if (!b.ok()) return b.status();
    in->memory.buffer_type = *b;
  } else if (key == "shard_spec") {
    absl::StatusOr<ShardSpec> s =
        ShardSpecFrom(ctx, e, &in->derive_shard_shape);
    if (!s.ok()) return s.status();
    in->memory.shard_spec = *std::move(s);
  } else if (key == "nd_shard_spec") {
    absl::StatusOr<NdShardSpec> s = NdShardSpecFrom(ctx, e);
    if (!s.ok()) return s.status();
    in->memory.nd_shard_spec = *std::move(s);
  }
  return absl::OkStatus();
}

absl::StatusOr<TensorSpecInput> InputFrom(const Ctx& ctx, const JsonValue& v) {
  if (!v.is_object()) return ctx.Expected(v, "a JSON object");
  if (const JsonValue* input = v.Find("input")) {
    for (const auto& [key, value] : v.object) {
      if (key != "input" && key != "output" && key != "id" && key != "group" &&
          key != "error" && key != "ttnn") {
        return ctx.At(value, absl::StrCat("unknown key '", key, "' in a row"));
      }
    }
    return InputFrom(ctx, *input);
  }
  TensorSpecInput in;
  absl::optional<TensorMemoryLayout> layout;
  bool has_shape = false;
  absl::Status s =
      Members(ctx, v,
              {"shape", "dtype", "layout", "tile", "memory_layout",
               "buffer_type", "shard_spec", "nd_shard_spec"},
              "a tensor spec",
              [&](absl::string_view key, const JsonValue& e) -> absl::Status {
                has_shape = has_shape || key == "shape";
                return InputField(ctx, key, e, &in, &layout);
              });
  if (!s.ok()) return s;
  if (!has_shape) return ctx.At(v, "a tensor spec needs a \"shape\"");
  if (in.memory.nd_shard_spec) {
    if (layout && *layout != TensorMemoryLayout::kNdSharded) {
      return ctx.At(v, "an nd_shard_spec goes with memory_layout ND_SHARDED");
    }
    in.memory.layout = TensorMemoryLayout::kNdSharded;
    in.memory.created_with_nd_shard_spec = true;
  } else if (layout) {
    in.memory.layout = *layout;
  }
  return in;
}

// A syntax error of a value parsed on its own, moved to its place in the
// whole text: ParseJson's message starts with "L:C: ".
absl::Status Relocated(const absl::Status& s, absl::string_view text,
                       size_t base, absl::string_view file) {
  std::string m(s.message());
  absl::string_view rest = m;
  absl::ConsumePrefix(&rest, file);
  absl::ConsumePrefix(&rest, ":");
  std::vector<absl::string_view> parts =
      absl::StrSplit(rest, absl::MaxSplits(':', 2));
  int64_t line = 0, col = 0;
  if (parts.size() == 3 && absl::SimpleAtoi(parts[0], &line) &&
      absl::SimpleAtoi(parts[1], &col) && line == 1) {
    absl::string_view msg = absl::StripLeadingAsciiWhitespace(parts[2]);
    msg = msg.substr(0, msg.find('\n'));
    return ParseError(text, base + col - 1, msg, file);
  }
  return s;
}

}  // namespace

absl::StatusOr<TensorSpecInput> SpecInputFromJson(const JsonValue& value,
                                                  absl::string_view text,
                                                  absl::string_view file) {
  return InputFrom(Ctx{text, 0, file}, value);
}

absl::StatusOr<std::vector<TensorSpecInput>> SpecInputsFromText(
    absl::string_view text, absl::string_view file) {
  std::vector<TensorSpecInput> out;
  absl::StatusOr<JsonValue> whole = ParseJson(text, file);
  if (whole.ok()) {
    const Ctx ctx{text, 0, file};
    if (whole->is_array()) {
      for (const JsonValue& e : whole->array) {
        absl::StatusOr<TensorSpecInput> in = InputFrom(ctx, e);
        if (!in.ok()) return in.status();
        out.push_back(*std::move(in));
      }
      return out;
    }
    absl::StatusOr<TensorSpecInput> in = InputFrom(ctx, *whole);
    if (!in.ok()) return in.status();
    out.push_back(*std::move(in));
    return out;
  }
  // JSON lines, when the first non-blank line is a value of its own.
  size_t start = 0;
  bool first = true;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == absl::string_view::npos) end = text.size();
    const absl::string_view line = text.substr(start, end - start);
    if (!absl::StripAsciiWhitespace(line).empty()) {
      absl::StatusOr<JsonValue> v = ParseJson(line, file);
      if (!v.ok()) {
        return first ? whole.status()
                     : Relocated(v.status(), text, start, file);
      }
      first = false;
      absl::StatusOr<TensorSpecInput> in =
          InputFrom(Ctx{text, start, file}, *v);
      if (!in.ok()) return in.status();
      out.push_back(*std::move(in));
    }
    start = end + 1;
  }
  if (out.empty()) return whole.status();
  return out;
}

}  // namespace hlolayout::ttnn
