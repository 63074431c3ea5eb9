#include "hlolayout/testing/random_hlo.h"

#include <functional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace hlolayout {
namespace {

struct Sh {
  bool tuple = false;
  std::string array;  // with its layout, when not a tuple
  std::vector<Sh> elements;
};

std::string Print(const Sh& s) {
  if (!s.tuple) return s.array;
  std::vector<std::string> parts;
  for (const Sh& e : s.elements) parts.push_back(Print(e));
  return absl::StrCat("(", absl::StrJoin(parts, ", "), ")");
}

// Signature form: no layouts.
std::string Sig(const Sh& s) {
  if (!s.tuple) {
    const size_t brace = s.array.find('{');
    return brace == std::string::npos ? s.array : s.array.substr(0, brace);
  }
  std::vector<std::string> parts;
  for (const Sh& e : s.elements) parts.push_back(Sig(e));
  return absl::StrCat("(", absl::StrJoin(parts, ", "), ")");
}

bool Same(const Sh& a, const Sh& b) { return Print(a) == Print(b); }

Sh Array(const std::string& a) {
  Sh s;
  s.array = a;
  return s;
}

Sh Tuple(std::vector<Sh> elements) {
  Sh s;
  s.tuple = true;
  s.elements = std::move(elements);
  return s;
}

const char* const kArrays[] = {"s32[]",
                               "f32[4]{0}",
                               "f32[8]{0}",
                               "f32[2,3]{1,0}",
                               "f32[4]{0:S(1)}",
                               "f32[1,1]{1,0}",
                               "bf16[16,128]{1,0:T(8,128)(2,1)}",
                               "f32[]"};

struct Value {
  std::string name;
  Sh shape;
};

struct Comp {
  std::string name;
  std::vector<std::string> lines;
  std::vector<Value> values;
  int root_line = -1;  // -1: the last
};

struct Signature {
  std::string name;
  std::vector<std::string> params;  // printed shapes
  std::string result;
};

class Generator {
 public:
  explicit Generator(uint64_t seed) : rng_(seed) {}

  std::string Module() {
    const bool scheduled = !P(0.03);
    std::string header = absl::StrCat("HloModule m", next_++,
                                      scheduled ? ", is_scheduled=true" : "");
    std::vector<Sh> params;
    const int n = 1 + R(3);
    for (int i = 0; i < n; ++i) params.push_back(RandomShape(1));
    Sh result = P(0.5) ? RandomShape(1) : Tuple({RandomArray(), RandomArray()});
    if (P(0.3)) {
      // input_output_alias: an output index with an entry parameter.
      std::string alias = result.tuple ? "{0}" : "{}";
      absl::StrAppend(&header, ", input_output_alias={ ", alias, ": (",
                      R(n + 1), ", {}, may-alias) }");
    }
    error_mode_ = P(0.06) ? 1 + R(4) : 0;
    const std::string entry = GenComputation("main", params, result,
                                             /*depth=*/0, /*is_entry=*/true);
    std::string out = header + "\n\n";
    for (const std::string& c : texts_) absl::StrAppend(&out, c, "\n\n");
    return out;
  }

 private:
  int R(int n) { return static_cast<int>(rng_() % static_cast<uint64_t>(n)); }

  // `constant(...)` of an array shape text: the value `v` in every element,
  // nested as the dimensions say (`f32[2,1]` -> `{ {v}, {v} }`), as XLA's
  // parser wants it; `{...}` (left out) past 256 elements.
  static std::string Constant(absl::string_view array, int v) {
    const size_t open = array.find('[');
    const size_t close = array.find(']');
    std::vector<int64_t> dims;
    int64_t elements = 1;
    if (open != absl::string_view::npos && close > open + 1) {
      for (absl::string_view d :
           absl::StrSplit(array.substr(open + 1, close - open - 1), ',')) {
        int64_t n = 0;
        if (!absl::SimpleAtoi(d, &n)) n = 1;
        dims.push_back(n);
        elements *= n;
      }
    }
    if (elements > 256) return "constant({...})";
    std::function<std::string(size_t)> level = [&](size_t d) -> std::string {
      if (d == dims.size()) return absl::StrCat(v);
      std::vector<std::string> parts(dims[d], level(d + 1));
      return absl::StrCat("{", absl::StrJoin(parts, ", "), "}");
    };
    return absl::StrCat("constant(", level(0), ")");
  }
  bool P(double p) {
    return std::uniform_real_distribution<double>(0, 1)(rng_) < p;
  }
  std::string Fresh(const std::string& base) {
    return absl::StrCat(base, ".", next_++);
  }

  Sh RandomArray() { return Array(kArrays[R(8)]); }
  Sh RandomShape(int depth) {
    if (depth > 0 && P(0.3)) {
      std::vector<Sh> e;
      const int n = 1 + R(3);
      for (int i = 0; i < n; ++i) e.push_back(RandomShape(depth - 1));
      return Tuple(std::move(e));
    }
    return RandomArray();
  }

  std::string Attributes(Comp& c) {
    std::string out;
    if (P(0.3)) {
      absl::StrAppend(&out, ", metadata={op_name=\"jit(f)/op", R(6), "\"}");
    }
    if (P(0.08) && c.values.size() >= 2) {
      absl::StrAppend(&out, ", control-predecessors={%",
                      c.values[R(static_cast<int>(c.values.size()))].name, "}");
    }
    return out;
  }

  // Appends `%name = shape rest`.
  std::string Add(Comp& c, const std::string& base, const Sh& shape,
                  const std::string& rest, bool extra_attributes = true) {
    const std::string name = Fresh(base);
    c.lines.push_back(absl::StrCat("  %", name, " = ", Print(shape), " ", rest,
                                   extra_attributes ? Attributes(c) : ""));
    c.values.push_back({name, shape});
    return name;
  }

  // An operand of shape `want`: an existing value, an element of one
  // (`%t#N` or an explicit get-tuple-element), or a new instruction.
  std::string Ref(Comp& c, const Sh& want, int depth) {
    std::vector<std::string> direct, folded;
    std::vector<std::pair<std::string, int>> elements;
    for (const Value& v : c.values) {
      if (Same(v.shape, want)) direct.push_back(v.name);
      if (v.shape.tuple) {
        for (size_t i = 0; i < v.shape.elements.size(); ++i) {
          if (Same(v.shape.elements[i], want)) {
            elements.emplace_back(v.name, static_cast<int>(i));
          }
        }
      }
    }
    if (!elements.empty() && (direct.empty() || P(0.5))) {
      const auto& e = elements[R(static_cast<int>(elements.size()))];
      if (P(0.75)) return absl::StrCat("%", e.first, "#", e.second);
      return "%" + Add(c, "gte", want,
                       absl::StrCat("get-tuple-element(%", e.first,
                                    "), index=", e.second));
    }
    if (!direct.empty() && P(0.9)) {
      return "%" + direct[R(static_cast<int>(direct.size()))];
    }
    if (want.tuple) {
      std::vector<std::string> ops;
      for (const Sh& e : want.elements) ops.push_back(Ref(c, e, depth));
      return "%" + Add(c, "tuple", want,
                       absl::StrCat("tuple(", absl::StrJoin(ops, ", "), ")"));
    }
    if (want.array == "pred[]") {
      const std::string a = Ref(c, Array("s32[]"), depth);
      const std::string b = Ref(c, Array("s32[]"), depth);
      return "%" + Add(c, "compare", want,
                       absl::StrCat("compare(", a, ", ", b, "), direction=LT"));
    }
    if (P(0.3) && !direct.empty()) {
      return "%" +
             Add(c, "negate", want, absl::StrCat("negate(%", direct[0], ")"));
    }
    return "%" + Add(c, "constant", want, Constant(want.array, R(5)), false);
  }

  const Value& AnyValue(Comp& c) {
    return c.values[R(static_cast<int>(c.values.size()))];
  }
  const Value* AnyArray(Comp& c) {
    std::vector<const Value*> arrays;
    for (const Value& v : c.values) {
      if (!v.shape.tuple) arrays.push_back(&v);
    }
    if (arrays.empty()) return nullptr;
    return arrays[R(static_cast<int>(arrays.size()))];
  }

  std::string FusedComputation(const std::vector<Sh>& params, Sh* result) {
    Comp c;
    c.name = Fresh("fused");
    for (size_t i = 0; i < params.size(); ++i) {
      Add(c, "param", params[i], absl::StrCat("parameter(", i, ")"), false);
    }
    const int kind = R(4);
    const std::string p0 = c.values[0].name;
    if (kind == 0) {  // in place
      const std::string u = Ref(c, params[0], 9);
      const std::string i = Ref(c, Array("s32[]"), 9);
      std::string target = p0;
      if (P(0.4)) {
        target = Add(c, "bitcast", params[0],
                     absl::StrCat("bitcast(%", p0, ")"), false);
      }
      const bool scatter = P(0.3);
      *result = params[0];
      Add(c, scatter ? "scatter" : "dus", params[0],
          absl::StrCat(scatter ? "scatter(%" : "dynamic-update-slice(%", target,
                       ", ", u, ", ", i, ")"),
          false);
    } else if (kind == 1 && params.size() >= 2) {  // tuple root
      const std::string u = Ref(c, params[0], 9);
      const std::string i = Ref(c, Array("s32[]"), 9);
      const std::string d =
          Add(c, "dus", params[0],
              absl::StrCat("dynamic-update-slice(%", p0, ", ", u, ", ", i, ")"),
              false);
      const std::string n =
          Add(c, "neg", params[1],
              absl::StrCat("negate(%", c.values[1].name, ")"), false);
      *result = Tuple({params[0], params[1]});
      Add(c, "tuple", *result, absl::StrCat("tuple(%", d, ", %", n, ")"),
          false);
    } else {
      *result = params[0];
      Add(c, "neg", params[0], absl::StrCat("negate(%", p0, ")"), false);
    }
    Emit(c, params, *result);
    return c.name;
  }

  void Emit(Comp& c, const std::vector<Sh>& params, const Sh& result,
            bool is_entry = false) {
    std::vector<std::string> sig;
    for (size_t i = 0; i < params.size(); ++i) {
      sig.push_back(absl::StrCat("p", i, ": ", Sig(params[i])));
    }
    std::string text =
        absl::StrCat(is_entry ? "ENTRY %" : "%", c.name, " (",
                     absl::StrJoin(sig, ", "), ") -> ", Sig(result), " {\n");
    const int root =
        c.root_line >= 0 ? c.root_line : static_cast<int>(c.lines.size()) - 1;
    for (int i = 0; i < static_cast<int>(c.lines.size()); ++i) {
      std::string line = c.lines[i];
      if (i == root) line = "  ROOT " + line.substr(2);
      absl::StrAppend(&text, line, "\n");
    }
    text += "}";
    texts_.push_back(std::move(text));
    signatures_.push_back({c.name, {}, Print(result)});
    for (const Sh& p : params) signatures_.back().params.push_back(Print(p));
  }

  // A computation whose callers are control flow (or the entry).
  std::string GenComputation(const std::string& base,
                             const std::vector<Sh>& params, const Sh& result,
                             int depth, bool is_entry = false) {
    Comp c;
    c.name = is_entry ? base : Fresh(base);
    std::vector<int> order(params.size());
    for (size_t i = 0; i < params.size(); ++i) order[i] = static_cast<int>(i);
    if (P(0.3)) std::shuffle(order.begin(), order.end(), rng_);
    for (int i : order) {
      Add(c, "p", params[i], absl::StrCat("parameter(", i, ")"),
          /*extra_attributes=*/P(0.5));
    }
    const int steps = is_entry ? 4 + R(20) : R(7);
    for (int s = 0; s < steps; ++s) Step(c, depth);
    if (is_entry && error_mode_ == 1) {
      Add(c, "bad", Array("f32[4]{0}"), "negate(%nowhere)");
    }
    if (is_entry && error_mode_ == 2 && !c.values.empty()) {
      Add(c, "bad", Array("f32[4]{0}"),
          absl::StrCat("negate(%", c.values[0].name, "#7)"));
    }
    // The root: an instruction of the result shape.
    const std::string r = Ref(c, result, depth);
    if (c.values.empty() || c.values.back().name != r.substr(1) ||
        r.find('#') != std::string::npos) {
      // Forward through a new instruction so that ROOT has the shape.
      if (result.tuple) {
        std::vector<std::string> ops;
        for (const Sh& e : result.elements) ops.push_back(Ref(c, e, depth));
        Add(c, "tuple", result,
            absl::StrCat("tuple(", absl::StrJoin(ops, ", "), ")"));
      } else {
        Add(c, P(0.5) ? "bitcast" : "copy", result,
            absl::StrCat(P(0.5) ? "bitcast(" : "copy(", r, ")"));
      }
    }
    if (is_entry && P(0.1) && c.lines.size() > 2) {
      // Instructions after ROOT.
      c.root_line = static_cast<int>(c.lines.size()) - 1;
      Add(c, "dead", Array("s32[]"), "constant(9)", false);
    }
    Emit(c, params, result, is_entry);
    return c.name;
  }

  void Step(Comp& c, int depth) {
    const bool deep = depth < 3;
    switch (R(16)) {
      case 0:
      case 1: {
        const Value* a = AnyArray(c);
        if (a == nullptr) break;
        const char* const ops[] = {"negate", "exponential", "copy", "bitcast"};
        const std::string op = ops[R(4)];
        Add(c, op, a->shape, absl::StrCat(op, "(%", a->name, ")"));
        break;
      }
      case 2: {
        const Sh shape = c.values.empty() || P(0.3) ? RandomArray()
                         : AnyArray(c) == nullptr   ? RandomArray()
                                                    : AnyArray(c)->shape;
        const std::string a = Ref(c, shape, depth);
        const std::string b = Ref(c, shape, depth);
        Add(c, P(0.5) ? "add" : "multiply", shape,
            absl::StrCat(P(0.5) ? "add(" : "multiply(", a, ", ", b, ")"));
        break;
      }
      case 3: {
        if (c.values.empty()) break;
        std::vector<Sh> shapes;
        std::vector<std::string> ops;
        const int n = 1 + R(3);
        for (int i = 0; i < n; ++i) {
          const Value& v = AnyValue(c);
          shapes.push_back(v.shape);
          ops.push_back("%" + v.name);
        }
        Add(c, "tuple", Tuple(shapes),
            absl::StrCat("tuple(", absl::StrJoin(ops, ", "), ")"));
        break;
      }
      case 4: {
        const Sh shape = Array(P(0.7) ? "s32[]" : "f32[4]{0}");
        Add(c, "constant", shape, Constant(shape.array, R(9)), false);
      } break;
      case 5:
      case 6:
        if (deep) While(c, depth);
        break;
      case 7:
        if (deep) Conditional(c, depth);
        break;
      case 8:
        if (deep) Call(c, depth);
        break;
      case 9: {
        const Value* a = AnyArray(c);
        if (a == nullptr) break;
        std::vector<Sh> params = {a->shape};
        std::vector<std::string> ops = {"%" + a->name};
        if (P(0.6)) {
          const Sh s = RandomArray();
          ops.push_back(Ref(c, s, depth));
          params.push_back(s);
        }
        Sh result;
        const std::string fused = FusedComputation(params, &result);
        Add(c, "fusion", result,
            absl::StrCat("fusion(", absl::StrJoin(ops, ", "),
                         "), kind=kLoop, calls=%", fused));
        break;
      }
      case 10: {
        const Value* a = AnyArray(c);
        if (a == nullptr) break;
        const Sh sa = a->shape;
        const std::string na = a->name;
        if (P(0.5)) {
          const std::string b = Ref(c, sa, depth);
          Add(c, "custom-call", sa,
              absl::StrCat("custom-call(%", na, ", ", b,
                           "), custom_call_target=\"foo\", "
                           "output_to_operand_aliasing={{}: (",
                           R(2), ", {})}"));
        } else {
          const Sh sb = RandomArray();
          const std::string b = Ref(c, sb, depth);
          Add(c, "custom-call", Tuple({sa, sb}),
              absl::StrCat("custom-call(%", na, ", ", b,
                           "), custom_call_target=\"bar\", "
                           "output_to_operand_aliasing={{0}: (0, {}), {1}: "
                           "(1, {})}"));
        }
        break;
      }
      case 11: {
        const Value* a = AnyArray(c);
        if (a == nullptr) break;
        Sh dest = a->shape;
        const size_t close = dest.array.rfind('}');
        if (close != std::string::npos &&
            dest.array.find(':') == std::string::npos) {
          dest.array.insert(close, ":S(1)");
        }
        const std::string na = a->name;
        const std::string cs =
            Add(c, "copy-start", Tuple({dest, a->shape, Array("u32[]")}),
                absl::StrCat("copy-start(%", na, ")"));
        if (P(0.8)) {
          Add(c, "copy-done", dest, absl::StrCat("copy-done(%", cs, ")"));
        }
        break;
      }
      case 12: {
        const Value* a = AnyArray(c);
        if (a == nullptr) break;
        const Sh s = a->shape;
        const std::string na = a->name;
        const std::string u = Ref(c, s, depth);
        const std::string i = Ref(c, Array("s32[]"), depth);
        Add(c, "dynamic-update-slice", s,
            absl::StrCat("dynamic-update-slice(%", na, ", ", u, ", ", i, ")"));
        break;
      }
      case 13: {
        // reduce with an embedded computation (sometimes one that a call
        // also runs).
        const std::string a = Ref(c, Array("f32[4]{0}"), depth);
        const std::string z = Ref(c, Array("f32[]"), depth);
        Add(c, "reduce", Array("f32[]"),
            absl::StrCat("reduce(", a, ", ", z, "), dimensions={0}, to_apply=%",
                         ScalarAdd(false)));
        break;
      }
      case 14: {
        if (!deep) break;
        const Value* a = AnyArray(c);
        if (a == nullptr) break;
        const Sh s = a->shape;
        const std::string na = a->name;
        Comp w;
        w.name = Fresh("wrapped");
        Add(w, "p", s, "parameter(0)", false);
        Add(w, "n", s, absl::StrCat("negate(%", w.values[0].name, ")"), false);
        Emit(w, {s}, s);
        const std::string as =
            Add(c, "async-start", Tuple({Tuple({s}), s, Array("s32[]")}),
                absl::StrCat("async-start(%", na, "), calls=%", w.name));
        Add(c, "async-done", s,
            absl::StrCat("async-done(%", as, "), calls=%", w.name));
        break;
      }
      case 15: {
        // Explicit get-tuple-element or copy of a tuple.
        std::vector<const Value*> tuples;
        for (const Value& v : c.values) {
          if (v.shape.tuple && !v.shape.elements.empty()) tuples.push_back(&v);
        }
        if (tuples.empty()) break;
        const Value* t = tuples[R(static_cast<int>(tuples.size()))];
        if (P(0.5)) {
          const int i = R(static_cast<int>(t->shape.elements.size()));
          const Sh e = t->shape.elements[i];
          const std::string nt = t->name;
          Add(c, "gte", e,
              absl::StrCat("get-tuple-element(%", nt, "), index=", i));
        } else {
          const Sh s = t->shape;
          const std::string nt = t->name;
          Add(c, "copy", s, absl::StrCat("copy(%", nt, ")"));
        }
        break;
      }
    }
  }

  // The scalar add of reduces; a call runs one of them rarely (a
  // computation that a reduce also runs is embedded, and the call then
  // fails).
  std::string ScalarAdd(bool for_call) {
    if (!reduce_adds_.empty() && P(for_call ? 0.03 : 0.7)) {
      return reduce_adds_[R(static_cast<int>(reduce_adds_.size()))];
    }
    Comp a;
    a.name = Fresh("add");
    Add(a, "x", Array("f32[]"), "parameter(0)", false);
    Add(a, "y", Array("f32[]"), "parameter(1)", false);
    Add(a, "sum", Array("f32[]"),
        absl::StrCat("add(%", a.values[0].name, ", %", a.values[1].name, ")"),
        false);
    Emit(a, {Array("f32[]"), Array("f32[]")}, Array("f32[]"));
    if (!for_call) reduce_adds_.push_back(a.name);
    return a.name;
  }

  // An existing control-flow computation of this signature, sometimes.
  std::string Reuse(const std::vector<Sh>& params, const Sh& result) {
    if (!P(0.3)) return "";
    for (const Signature& s : signatures_) {
      if (s.params.size() != params.size() || s.result != Print(result)) {
        continue;
      }
      bool same = true;
      for (size_t i = 0; i < params.size(); ++i) {
        same = same && s.params[i] == Print(params[i]);
      }
      if (same && s.name.rfind("fused", 0) != 0 &&
          s.name.rfind("wrapped", 0) != 0 && s.name.rfind("add", 0) != 0) {
        return s.name;
      }
    }
    return "";
  }

  void While(Comp& c, int depth) {
    std::vector<Sh> elements = {Array("s32[]")};
    const int n = R(3);
    for (int i = 0; i < n; ++i) {
      elements.push_back(c.values.empty() || P(0.5) ? RandomShape(1)
                                                    : AnyValue(c).shape);
    }
    const Sh state = Tuple(elements);
    std::string init = Ref(c, state, depth);
    if (init.find('#') != std::string::npos || P(0.5)) {
      std::vector<std::string> ops;
      for (const Sh& e : elements) ops.push_back(Ref(c, e, depth));
      init = "%" + Add(c, "init", state,
                       absl::StrCat("tuple(", absl::StrJoin(ops, ", "), ")"));
    }
    std::string cond = Reuse({state}, Array("pred[]"));
    if (cond.empty()) {
      cond = GenComputation("cond", {state}, Array("pred[]"), depth + 1);
    }
    Sh body_result = state;
    if (error_mode_ == 3 && P(0.5)) body_result = Array("s32[]");
    std::string body = Reuse({state}, body_result);
    if (body.empty()) {
      body = GenComputation("body", {state}, body_result, depth + 1);
    }
    const bool swap = P(0.2);
    Add(c, "while", state,
        swap ? absl::StrCat("while(", init, "), body=%", body, ", condition=%",
                            cond)
             : absl::StrCat("while(", init, "), condition=%", cond, ", body=%",
                            body));
  }

  void Conditional(Comp& c, int depth) {
    const bool indexed = P(0.4);
    const int branches = indexed ? 1 + R(3) : 2;
    const std::string selector =
        Ref(c, Array(indexed ? "s32[]" : "pred[]"), depth);
    const Sh result = RandomShape(1);
    std::vector<std::string> ops, names;
    for (int b = 0; b < branches; ++b) {
      const Sh param =
          c.values.empty() || P(0.4) ? RandomShape(1) : AnyValue(c).shape;
      ops.push_back(Ref(c, param, depth));
      std::string name = Reuse({param}, result);
      if (name.empty()) {
        name = GenComputation("branch", {param}, result, depth + 1);
      }
      names.push_back("%" + name);
    }
    std::string attrs;
    if (indexed) {
      attrs = absl::StrCat("branch_computations={", absl::StrJoin(names, ", "),
                           "}");
    } else {
      attrs = absl::StrCat("true_computation=", names[0],
                           ", false_computation=", names[1]);
    }
    Add(c, "conditional", result,
        absl::StrCat("conditional(", selector, ", ", absl::StrJoin(ops, ", "),
                     "), ", attrs));
  }

  void Call(Comp& c, int depth) {
    std::vector<Sh> params;
    std::vector<std::string> ops;
    if (P(0.3)) {
      params = {Array("f32[]"), Array("f32[]")};
      ops = {Ref(c, params[0], depth), Ref(c, params[1], depth)};
      Add(c, "call", Array("f32[]"),
          absl::StrCat("call(", ops[0], ", ", ops[1], "), to_apply=%",
                       ScalarAdd(true)));
      return;
    }
    const int n = 1 + R(2);
    for (int i = 0; i < n; ++i) {
      params.push_back(c.values.empty() || P(0.4) ? RandomShape(1)
                                                  : AnyValue(c).shape);
      ops.push_back(Ref(c, params.back(), depth));
    }
    const Sh result = RandomShape(1);
    std::string name = Reuse(params, result);
    if (name.empty())
      name = GenComputation("called", params, result, depth + 1);
    Add(c, "call", result,
        absl::StrCat("call(", absl::StrJoin(ops, ", "), "), to_apply=%", name));
  }

  std::mt19937_64 rng_;
  int next_ = 0;
  int error_mode_ = 0;
  std::vector<std::string> texts_;
  std::vector<Signature> signatures_;
  std::vector<std::string> reduce_adds_;
};

}  // namespace

std::string RandomScheduledModule(uint64_t seed) {
  Generator g(seed);
  return g.Module();
}

std::string CallChainModule(int depth) {
  std::string text = "HloModule m, is_scheduled=true\n";
  for (int i = depth - 2; i >= 0; --i) {
    absl::StrAppend(
        &text, "%c", i, " (p: f32[4]) -> f32[4] {\n",
        "  %p = f32[4]{0} parameter(0)\n  ROOT %r = f32[4]{0} ",
        i == depth - 2 ? std::string("copy(f32[4]{0} %p)")
                       : absl::StrCat("call(f32[4]{0} %p), to_apply=%c", i + 1),
        "\n}\n");
  }
  return text +
         "ENTRY %e (a: f32[4]) -> f32[4] {\n  %a = f32[4]{0} parameter(0)\n"
         "  ROOT %r = f32[4]{0} " +
         (depth > 1 ? "call(f32[4]{0} %a), to_apply=%c0"
                    : "copy(f32[4]{0} %a)") +
         "\n}\n";
}

}  // namespace hlolayout
