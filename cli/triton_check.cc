#include "hlolayout/cli/triton_check.h"

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "hlolayout/answers/triton.h"
#include "hlolayout/cli/args.h"
#include "hlolayout/cli/command.h"
#include "hlolayout/cli/input.h"
#include "hlolayout/triton/cvt_target.h"
#include "hlolayout/triton/layout_check.h"
#include "hlolayout/util/fields.h"
#include "hlolayout/util/json_reader.h"
#include "hlolayout/views/triton_text.h"

namespace hlolayout::cli {

const char kTritonCheckHelp[] =
    R"(usage: hlolayout triton check LAYOUT --shape S [--element T] [--memdesc]
                             [--threads-per-warp N] [--num-warps N]
                             [--num-ctas N] [--triton V] [--json]
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
  --triton V             the release whose rules decide where the text does
                         not say: 3.9.0 (default) or 3.6.0 (a tensor memory
                         attribute without CTASplitM/N or CGALayout is then
                         3.6.0's, with its memdesc checks)
  --json                 one JSON object (keys: ok, kind, ttgir, shape,
                         bases, out_dims, error)
  --batch FILE           many checks: each line of FILE a JSON object
                         {"layout": ..., "shape": [...], "element": "f16",
                         "memdesc": false, "threads_per_warp": 64,
                         "num_warps": 4, "num_ctas": 1, "triton": "3.6.0"};
                         prints one JSON
                         object per line, as --json does
  --help                 this text

Example:
  hlolayout triton check '#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>' --shape 64x64 --threads-per-warp 64
)";

namespace {

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
    absl::StatusOr<JsonValue> v = ParseJson(line);
    absl::StatusOr<triton::LayoutCheckRequest> c =
        v.ok() ? triton::LayoutCheckRequestFromJson(*v) : v.status();
    if (!c.ok()) {
      io.err << kWho << ": line " << line_no << ": " << c.status().message()
             << "\n";
      return 1;
    }
    io.out << AnswerJson(triton::AnswerCheck(*c)) << "\n";
  }
  return 0;
}

}  // namespace

int RunTritonCheck(const std::vector<std::string>& raw, IoContext& io) {
  constexpr absl::string_view kWho = "hlolayout triton check";
  static constexpr absl::string_view kSwitches[] = {"memdesc", "json", "help"};
  static constexpr absl::string_view kValued[] = {
      "shape", "element", "threads-per-warp", "num-warps", "num-ctas",
      "batch", "triton"};
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
  triton::LayoutCheckRequest c;
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
  if (args->Has("triton")) {
    absl::StatusOr<triton::TritonVersion> v =
        triton::TritonVersionNamed(args->Value("triton", ""));
    if (!v.ok()) {
      io.err << kWho << ": " << v.status().message() << "\n";
      return 2;
    }
    c.triton = *v;
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
  const triton::TritonCheckAnswer r = triton::AnswerCheck(c);
  if (args->Has("json")) {
    io.out << AnswerJson(r, RecordJsonWriter::Style::kIndented) << "\n";
    return r.ok ? 0 : 1;
  }
  if (!r.ok) {
    io.err << kWho << ": Triton refuses it: " << *r.error << "\n";
    return 1;
  }
  io.out << triton::CheckText(r);
  return 0;
}

}  // namespace hlolayout::cli
