#include "hlolayout/cli/triton_check.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "hlolayout/cli/args.h"
#include "hlolayout/cli/command.h"
#include "hlolayout/cli/input.h"
#include "hlolayout/triton/json.h"
#include "hlolayout/triton/layout_verifier.h"
#include "hlolayout/triton/linear_layout.h"
#include "hlolayout/triton/named_layouts.h"
#include "hlolayout/triton/ttgir_parser.h"
#include "hlolayout/triton/ttgir_printer.h"
#include "hlolayout/triton/type_verifier.h"
#include "hlolayout/util/json_writer.h"

namespace hlolayout::cli {

const char kTritonCheckHelp[] =
    R"(usage: hlolayout triton check LAYOUT --shape S [--element T] [--memdesc]
                             [--threads-per-warp N] [--num-warps N]
                             [--num-ctas N] [--json]
       hlolayout triton check --batch FILE|-

Whether Triton accepts LAYOUT (TTGIR text, a file, or '-') on a type of
shape S in a module (TritonGPU's attribute verifiers, then its checks of the
type: rank, CTAs, a tensor's warp size and warps, a memdesc's shape), and
the LinearLayout it gives; refusals carry Triton's message.

  --shape S              the type's shape, 64x64 (a memdesc: its allocation)
  --element T            element type (f16, f32, i8, ...; default f32)
  --memdesc              the type is a !ttg.memdesc (else a tensor)
  --threads-per-warp N   the module's ttg.threads-per-warp (default 32)
  --num-warps N          the module's ttg.num-warps (default: the layout's)
  --num-ctas N           the module's ttg.num-ctas (default: the layout's)
  --json                 one JSON object (keys: ok, kind, ttgir, shape,
                         bases, out_dims, error)
  --batch FILE           many checks: each line of FILE a JSON object
                         {"layout": ..., "shape": [...], "element": "f16",
                         "memdesc": false, "threads_per_warp": 64,
                         "num_warps": 4, "num_ctas": 1}; prints one JSON
                         object per line, as --json does
  --help                 this text

Example:
  hlolayout triton check '#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>' --shape 64x64 --threads-per-warp 64
)";

namespace {

using triton::LinearLayout;

struct CheckCase {
  std::string layout;
  std::vector<int64_t> shape;
  std::string element = "f32";
  bool memdesc = false;
  int threads_per_warp = 32;
  std::optional<int> num_warps;
  std::optional<int> num_ctas;
};

struct CheckResult {
  absl::Status status;
  std::string kind;
  std::string ttgir;
  LinearLayout layout;
};

// The shape the layout describes (a memdesc's trailing dims).
std::vector<int64_t> TrailingShape(const triton::Layout& layout,
                                   const CheckCase& c) {
  std::vector<int64_t> shape = c.shape;
  const int rank = triton::LayoutRank(layout);
  if (c.memdesc && rank > 0 && static_cast<int>(shape.size()) > rank) {
    shape.erase(shape.begin(), shape.end() - rank);
  }
  return shape;
}

CheckResult Check(const CheckCase& c) {
  CheckResult r;
  absl::StatusOr<triton::Layout> named = triton::ParseLayout(c.layout);
  if (!named.ok()) {
    r.status = named.status();
    return r;
  }
  r.kind = named->kind_name();
  r.ttgir = triton::PrintLayout(*named);
  triton::LayoutUse use;
  use.shape = c.shape;
  use.memdesc = c.memdesc;
  use.threads_per_warp = c.threads_per_warp;
  const int bits = triton::ElementBits(c.element);
  use.element_bits = bits == 0 ? 32 : bits;
  use.num_ctas = static_cast<int>(
      c.num_ctas.has_value() ? *c.num_ctas : triton::NumCtas(*named));
  // Without --num-warps, the module has as many warps as the layout.
  if (c.num_warps.has_value()) {
    use.num_warps = *c.num_warps;
  } else {
    absl::StatusOr<LinearLayout> sized =
        triton::ToLinearLayout(*named, TrailingShape(*named, c));
    const int w = sized.ok() ? sized->InDimIndex("warp") : -1;
    use.num_warps = w < 0 ? 1 : sized->InDimSize(w);
  }
  absl::StatusOr<LinearLayout> ll = triton::LayoutForUse(*named, use);
  r.status = ll.status();
  if (ll.ok()) r.layout = *std::move(ll);
  return r;
}

void ResultJson(const CheckCase& c, const CheckResult& r, JsonWriter& json) {
  json.BeginObject();
  json.Key("ok").Bool(r.status.ok());
  json.Key("kind");
  r.kind.empty() ? json.Null() : json.String(r.kind);
  json.Key("ttgir");
  r.ttgir.empty() ? json.Null() : json.String(r.ttgir);
  json.Key("shape").IntArray(c.shape);
  if (r.status.ok()) {
    const LinearLayout& l = r.layout;
    json.Key("bases").BeginObject();
    for (int d = 0; d < l.num_in_dims(); ++d) {
      json.Key(l.in_dim_name(d)).BeginArray();
      for (int i = 0; i < l.InDimSizeLog2(d); ++i) {
        auto b = l.Basis(d, i);
        json.IntArray(std::vector<int64_t>(b.begin(), b.end()));
      }
      json.EndArray();
    }
    json.EndObject();
    json.Key("out_dims").BeginArray();
    for (const auto& [name, size] : l.out_dims()) {
      json.BeginArray().String(name).Int(size).EndArray();
    }
    json.EndArray();
    json.Key("error").Null();
  } else {
    json.Key("bases").Null();
    json.Key("out_dims").Null();
    json.Key("error").String(r.status.message());
  }
  json.EndObject();
}

absl::StatusOr<int> IntFlag(const Args& args, absl::string_view name,
                            int fallback) {
  if (!args.Has(name)) return fallback;
  int64_t v = 0;
  if (!absl::SimpleAtoi(args.Value(name, ""), &v) || v < 1 ||
      v > (int64_t{1} << 20)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "bad --", name, " '", args.Value(name, ""), "' (1 to 2^20)"));
  }
  return static_cast<int>(v);
}

absl::StatusOr<std::vector<int64_t>> ShapeOf(absl::string_view text) {
  std::vector<int64_t> shape;
  for (absl::string_view part : absl::StrSplit(text, absl::ByAnyChar("x,"))) {
    int64_t v = 0;
    if (!absl::SimpleAtoi(part, &v) || v < 1 || v > (int64_t{1} << 40)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "bad --shape '", text, "': expected sizes such as 128x64"));
    }
    shape.push_back(v);
  }
  return shape;
}

// One line of a batch: {"layout": ..., "shape": [...], ...}.
absl::StatusOr<CheckCase> CaseOf(const triton::JsonValue& v) {
  auto bad = [](absl::string_view what) {
    return absl::InvalidArgumentError(absl::StrCat("a check needs ", what));
  };
  if (!v.is_object()) return bad("a JSON object per line");
  CheckCase c;
  const triton::JsonValue* layout = v.Find("layout");
  if (layout == nullptr || !layout->is_string()) {
    return bad("\"layout\" (TTGIR text)");
  }
  c.layout = layout->string;
  const triton::JsonValue* shape = v.Find("shape");
  if (shape == nullptr || !shape->is_array() || shape->array.empty()) {
    return bad("\"shape\" (an array of sizes)");
  }
  for (const triton::JsonValue& d : shape->array) {
    if (!d.is_integer || d.integer < 1 || d.integer > (int64_t{1} << 40)) {
      return bad("\"shape\" sizes from 1 to 2^40");
    }
    c.shape.push_back(d.integer);
  }
  if (const triton::JsonValue* e = v.Find("element")) {
    if (!e->is_string()) return bad("\"element\" as a string");
    c.element = e->string;
  }
  if (const triton::JsonValue* m = v.Find("memdesc")) {
    c.memdesc = m->boolean;
  }
  auto int_key =
      [&](absl::string_view key) -> absl::StatusOr<std::optional<int>> {
    const triton::JsonValue* x = v.Find(key);
    if (x == nullptr || x->kind == triton::JsonValue::Kind::kNull) {
      return std::optional<int>();
    }
    if (!x->is_integer || x->integer < 1 || x->integer > (int64_t{1} << 20)) {
      return bad(absl::StrCat("\"", key, "\" from 1 to 2^20"));
    }
    return std::optional<int>(static_cast<int>(x->integer));
  };
  absl::StatusOr<std::optional<int>> tpw = int_key("threads_per_warp");
  if (!tpw.ok()) return tpw.status();
  if (tpw->has_value()) c.threads_per_warp = **tpw;
  absl::StatusOr<std::optional<int>> warps = int_key("num_warps");
  if (!warps.ok()) return warps.status();
  c.num_warps = *warps;
  absl::StatusOr<std::optional<int>> ctas = int_key("num_ctas");
  if (!ctas.ok()) return ctas.status();
  c.num_ctas = *ctas;
  return c;
}

// A LAYOUT argument: inline TTGIR text, or a file ('-': standard input).
absl::StatusOr<std::string> LayoutText(const std::string& arg, IoContext& io) {
  absl::string_view t = absl::StripAsciiWhitespace(arg);
  if (!t.empty() && t[0] == '#') return std::string(t);
  absl::StatusOr<std::string> read = ReadInput(arg, io);
  if (!read.ok()) return read.status();
  return std::string(absl::StripAsciiWhitespace(*read));
}

int RunBatch(const std::string& path, IoContext& io) {
  constexpr absl::string_view kWho = "hlolayout triton check";
  absl::StatusOr<std::string> text = ReadInput(path, io);
  if (!text.ok()) {
    io.err << kWho << ": " << text.status().message() << "\n";
    return 1;
  }
  int line_no = 0;
  for (absl::string_view line : absl::StrSplit(*text, '\n')) {
    ++line_no;
    if (absl::StripAsciiWhitespace(line).empty()) continue;
    absl::StatusOr<triton::JsonValue> v = triton::ParseJson(line);
    absl::StatusOr<CheckCase> c = v.ok() ? CaseOf(*v) : v.status();
    if (!c.ok()) {
      io.err << kWho << ": line " << line_no << ": " << c.status().message()
             << "\n";
      return 1;
    }
    JsonWriter json;
    ResultJson(*c, Check(*c), json);
    io.out << json.str() << "\n";
  }
  return 0;
}

}  // namespace

int RunTritonCheck(const std::vector<std::string>& raw, IoContext& io) {
  constexpr absl::string_view kWho = "hlolayout triton check";
  static constexpr absl::string_view kSwitches[] = {"memdesc", "json", "help"};
  static constexpr absl::string_view kValued[] = {
      "shape", "element", "threads-per-warp", "num-warps", "num-ctas", "batch"};
  absl::StatusOr<Args> args = ParseArgs(raw, kSwitches, kValued);
  if (!args.ok()) {
    io.err << kWho << ": " << args.status().message() << "\n";
    return 2;
  }
  if (args->Has("batch")) {
    if (!args->positional.empty()) {
      io.err << kWho << ": --batch takes no LAYOUT (" << kWho << " --help)\n";
      return 2;
    }
    return RunBatch(args->Value("batch", "-"), io);
  }
  if (args->positional.size() != 1 || !args->Has("shape")) {
    io.err << kWho << ": expects one LAYOUT and --shape (" << kWho
           << " --help)\n";
    return 2;
  }
  CheckCase c;
  absl::StatusOr<std::vector<int64_t>> shape =
      ShapeOf(args->Value("shape", ""));
  absl::StatusOr<int> tpw = IntFlag(*args, "threads-per-warp", 32);
  absl::StatusOr<int> warps = IntFlag(*args, "num-warps", 0);
  absl::StatusOr<int> ctas = IntFlag(*args, "num-ctas", 0);
  for (const absl::Status& s :
       {shape.status(), tpw.status(), warps.status(), ctas.status()}) {
    if (!s.ok()) {
      io.err << kWho << ": " << s.message() << "\n";
      return 2;
    }
  }
  absl::StatusOr<std::string> layout = LayoutText(args->positional[0], io);
  if (!layout.ok()) {
    io.err << kWho << ": " << layout.status().message() << "\n";
    return 1;
  }
  c.layout = *layout;
  c.shape = *shape;
  c.element = args->Value("element", "f32");
  c.memdesc = args->Has("memdesc");
  c.threads_per_warp = *tpw;
  if (*warps > 0) c.num_warps = *warps;
  if (*ctas > 0) c.num_ctas = *ctas;
  const CheckResult r = Check(c);
  if (args->Has("json")) {
    JsonWriter json(/*pretty=*/true);
    ResultJson(c, r, json);
    io.out << json.str() << "\n";
    return r.status.ok() ? 0 : 1;
  }
  if (!r.status.ok()) {
    io.err << kWho << ": Triton refuses it: " << r.status.message() << "\n";
    return 1;
  }
  io.out << "accepted: " << r.ttgir << "\n"
         << "on " << (c.memdesc ? "!ttg.memdesc<" : "tensor<")
         << absl::StrJoin(c.shape, "x") << "x" << c.element << ">"
         << " in a module of " << c.threads_per_warp << " threads per warp\n"
         << "linear layout (Triton's str):" << r.layout.ToString() << "\n";
  return 0;
}

}  // namespace hlolayout::cli
