// `hlolayout triton`: Triton's layouts (LinearLayout, the named TTGIR
// layouts), what a convert_layout costs, and the layouts of a kernel dump.
//
//   hlolayout triton explain '#ttg.blocked<{...}>' --shape 128x64
//   hlolayout triton cvt SRC DST --shape 128x64
//   hlolayout triton report kernel.ttgir
//   hlolayout triton compose A B     (A, B: #ttg.linear<...> or JSON bases)
//
// The logic lives in //triton (docs/triton.md); this file reads arguments
// and prints.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "hlolayout/answers/triton.h"
#include "hlolayout/answers/triton_apply.h"
#include "hlolayout/answers/triton_report.h"
#include "hlolayout/cli/args.h"
#include "hlolayout/cli/command.h"
#include "hlolayout/cli/draw_output.h"
#include "hlolayout/cli/input.h"
#include "hlolayout/cli/triton_check.h"
#include "hlolayout/draw/cell_grid.h"
#include "hlolayout/parser/diagnostic.h"
#include "hlolayout/shape/primitive_type.h"
#include "hlolayout/triton/bases_json.h"
#include "hlolayout/triton/cvt_cost.h"
#include "hlolayout/triton/cvt_report.h"
#include "hlolayout/triton/cvt_target.h"
#include "hlolayout/triton/evaluator.h"
#include "hlolayout/triton/kernel_report.h"
#include "hlolayout/triton/layout_explain.h"
#include "hlolayout/triton/linear_layout.h"
#include "hlolayout/triton/named_layouts.h"
#include "hlolayout/triton/ops.h"
#include "hlolayout/triton/ttgir_parser.h"
#include "hlolayout/triton/ttgir_printer.h"
#include "hlolayout/triton/views.h"
#include "hlolayout/triton/xla_bridge.h"
#include "hlolayout/util/json_writer.h"
#include "hlolayout/views/amd_picture.h"
#include "hlolayout/views/triton_drawing.h"
#include "hlolayout/views/triton_picture.h"
#include "hlolayout/views/triton_report_text.h"
#include "hlolayout/views/triton_text.h"

namespace hlolayout::cli {
namespace {

using triton::LinearLayout;

constexpr absl::string_view kTritonHelp =
    R"(usage: hlolayout triton SUBCOMMAND [FLAGS] ARGS...

Triton's layouts: LinearLayout (a map over F2 from hardware bits -- register,
lane, warp, block; or a shared-memory offset -- to tensor coordinates) and
every named TTGIR layout converted to it as Triton converts it (blocked,
slice, nvidia_mma v2/v3, amd_mfma, amd_wmma, dot_op, linear, generic_linear,
swizzled_shared, nvmma_shared, shared_linear, amd_rotating_shared,
padded_shared, partitioned_shared, tensor memory and its scales; the #ttg.
and the older #triton_gpu. spelling, Triton 3.6's and today's).

subcommands:
  explain LAYOUT [--shape S]   bases, properties, free variables, elements
                               per thread, CuTe/XLA forms, views
  view LAYOUT [--shape S] [--hw]
                               Triton's distributed or shared view
  cvt SRC DST --shape S        what a convert_layout from SRC to DST costs:
                               registers, warp_shuffle, shared_memory or
                               cross_cta, scratch bytes, the minimal map
  draw LAYOUT [--shape S]      a picture: thread:register (or offset and
                               bank) of every element
  report KERNEL.ttgir          every layout alias, tensor types by layout,
                               every convert_layout with its cost
  check LAYOUT --shape S       whether Triton accepts LAYOUT on a tensor or
                               memdesc of a module (warp size, warps, CTAs)
  str | compose | invert-and-compose | product | invert | pseudoinvert |
  apply | divide-left | divide-right | quotient | free-masks
                               Triton's LinearLayout operations

LAYOUT is TTGIR text ('#ttg.blocked<{...}>', '#ttg.linear<{...}>'), JSON
bases ('{"bases": [["register", [[0, 1]]], ...], "out_dims": ["dim0"],
"out_sizes": [2]}', the arguments of Triton's LinearLayout.from_bases), a
file holding either, or '-' for standard input. Named layouts need --shape
(128x64); linear layouts have their own. 'hlolayout triton SUBCOMMAND --help'
explains a subcommand.
)";

constexpr absl::string_view kExplainHelp =
    R"(usage: hlolayout triton explain LAYOUT [--shape S] [--bits N] [--json]

Converts LAYOUT to a LinearLayout at shape S and explains it: the layout
as read where it differs from the text (defaults filled in; keys Triton
ignores, which are warned about, left out), Triton's printed form (str), the same as #ttg.linear (register and shared layouts),
a padded layout's padding, whether it is injective,
surjective, invertible, the free variables (input bits that do not change
the element: broadcast), how many consecutive elements (row-major) the
first in-dim covers (a thread's vector width), the CuTe layout and the XLA
layout that compute the same map when there are such, and Triton's views
for layouts of at most 1,024 elements.

flags:
  --shape S   the tensor shape, 128x64 (needed for named layouts)
  --bits N    element width in bits for the XLA form (16)
  --json      one JSON object (keys: layout, as_read, kind, shape, bases,
              out_dims, str, linear, padding, injective, surjective,
              invertible, free_variable_masks, consecutive, cute, xla,
              view, view_hw)
  --help      this text

example:
  hlolayout triton explain '#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>' --shape 32x32
)";

constexpr absl::string_view kViewHelp =
    R"(usage: hlolayout triton view LAYOUT [--shape S] [--bits N] [--hw]

Triton's get_distributed_view (register layouts: for each element, the
thread:register holding it, laid out like the tensor) or get_shared_view
(shared layouts: the coordinates each offset holds), byte for byte. With
--hw, the hardware point of view: for each warp and register, the element
of every lane (or each offset's coordinates).

flags:
  --shape S   the tensor shape (needed for named layouts)
  --bits N    no effect here (an nvmma_shared names its element width)
  --hw        the hardware point of view
  --help      this text

example:
  hlolayout triton view '#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [1, 1], instrShape = [16, 8]}>' --shape 16x8
)";

constexpr absl::string_view kCvtHelp =
    R"(usage: hlolayout triton cvt SRC DST --shape S [--bits N] [--target T]
                           [--triton V] [--json]

What 'ttg.convert_layout' from SRC to DST costs for a tensor of shape S, by
Triton's lowering. The kind: the minimal conversion dst^-1 o src with the
hardware dims it leaves alone removed (slowest first); nothing but
registers left: 'registers' (free or a register permutation); registers
and lanes with a shuffle decomposition of fewer than two register/lane
transpositions: 'warp_shuffle'; warps: 'shared_memory'; blocks:
'cross_cta'. Then, per target, what Triton emits for a shared-memory
conversion: the scratch bytes, the rounds (store, barrier, load), each
thread's stores and loads with their width (st.shared/ld.shared, stmatrix,
ldmatrix and .trans on NVIDIA; ds_write/ds_read on AMD) and the bank
conflicts Triton's swizzling leaves.

flags:
  --shape S    the tensor shape (128x64)
  --bits N     element width in bits (default 16; Triton stores at least 8)
  --target T   cuda:80, cuda:86, cuda:89, cuda:90, cuda:100, cuda:120,
               hip:gfx90a, hip:gfx942, hip:gfx950 (sm_90, gfx942 also do),
               a comma list, or all (every target whose warp size fits
               the layouts); default cuda:90 for 32-lane layouts,
               hip:gfx942 for 64-lane ones
  --triton V   the Triton release whose lowering to follow: 3.6.0 or 3.9.0
               (default: 3.9.0, the newest; they differ on AMD)
  --json       one JSON object (keys: src, dst, shape, bits, kind, map,
               map_str, mixed_transpositions, scratch_bytes (the first
               target's), targets: [{target, scratch_bytes, reps, stores,
               loads, store_ways, load_ways}], stores and loads as
               [{instr, bits, count}] per thread)
  --help       this text

example:
  hlolayout triton cvt '#ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [0, 1]}>' '#ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [2, 2], order = [1, 0]}>' --shape 32x128 --target all
)";

constexpr absl::string_view kDrawHelp =
    R"(usage: hlolayout triton draw LAYOUT [--shape S] [--bits N] [--svg FILE|-]
                            [--ascii] [--color WHEN]
       hlolayout triton draw MFMA_OR_WMMA --instruction [--k-width N] [--bits N]

Draws which thread and register own each element of a register layout
(labels T5:2 = lane + warp size x warp : register, coloured by warp, heavy
lines between warps; "+1" when more threads hold a copy), the offset and
4-byte bank of each element of a shared layout (coloured by bank; a padded
layout's offsets after padding), or the tensor-memory lane and column of
each element of a tensor memory layout (12:5, coloured by the warp whose
lanes hold the row). Rank 2: dim0 down, dim1 across; more dims stack as
rows. At most 16,384 elements.

With --instruction, an amd_mfma or amd_wmma layout (or a dot_op over one)
is drawn the way AMD's matrix instruction calculator shows its instruction:
the A, B and C tiles of one warp, each element labelled with the VGPR and
lane that hold it (v1{34}; v0{5}.[31:16] for the upper half of a 32-bit
register).

flags:
  --shape S      the tensor shape (needed for named layouts)
  --bits N       element width: banks of a shared layout (default 16), A and
                 B elements with --instruction (default 16)
  --instruction  A, B and C of the layout's matrix instruction
  --k-width N    elements per lane along K with --instruction (default: the
                 dot_op's kWidth, else the instruction's)
  --svg FILE     write a self-contained SVG; '-' = stdout
  --ascii        + - | instead of box-drawing characters (text only)
  --color WHEN   auto (default), always or never (text only)
  --help         this text

examples:
  hlolayout triton draw '#ttg.swizzled_shared<{vec = 2, perPhase = 1, maxPhase = 4, order = [1, 0]}>' --shape 8x8
  hlolayout triton draw '#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [16, 16, 16], isTransposed = true}>' --instruction
)";

constexpr absl::string_view kReportHelp =
    R"(usage: hlolayout triton report KERNEL.ttgir|ENTRY_FOLDER|KERNEL.json|-
                              [--triton V] [--target T] [--json]

Reads a TTGIR dump (MLIR_ENABLE_DUMP, TRITON_KERNEL_DUMP, a .ttgir file of
Triton's cache, or the cache entry's folder or KERNEL.json, whose
"triton_version" picks the release's rules) and lists: the module's warps,
threads per warp, CTAs and target (Triton's defaults said where the module
names none; text without a module, as Triton's lit tests write it, is read
as the implicit module triton-opt makes); every layout alias with its kind;
the tensor and memdesc types by layout; and every ttg.convert_layout with
its source line, shapes and cost -- the question a kernel dump brings.
Types whose layouts Triton refuses in the module (warp size, warps, CTAs:
what 'triton check' checks) are refused, located. The cost is for the
module's target (ttg.target: cuda:80, 86, 89, 90, 100, 120, hip:gfx90a,
gfx942 or gfx950; cuda:90 assumed when it names none, said so; --target
for another) and element type: the kind, the scratch bytes, the rounds,
each thread's shared-memory stores and loads with their width, and the bank
conflicts Triton's swizzling leaves; for another target, the kind only and
why. The release whose rules the figures follow is said ("figures:").
Every layout kind Triton has converts (NVIDIA's and AMD's, shared, tensor
memory); one nested in another dialect's attribute (#tlx...) is listed as
not converted with the reason, and its uses counted. Then every
shared-memory store and load outside convert_layout (local_alloc of a
tensor, local_store, local_load, async_copy_global_to_local), on the same
targets: instructions per thread and the bank conflicts of their addresses
under the hardware's bank rules (docs/triton-smem.md).

flags:
  --triton V  the Triton release whose lowering to follow: 3.6.0 or 3.9.0
              (default: the dump's metadata's, else 3.9.0, the newest)
  --target T  cost the converts on T instead of the module's target: a
              target as above, a comma list, or all (every target whose
              warp size fits the layouts): what on another GPU
  --json      one JSON object (keys: kernel, num_warps, threads_per_warp,
              num_ctas, target, triton, triton_rules, dump_triton_version,
              metadata, implicit_module, defaults (the facts left to
              Triton's defaults), cost_target, warnings (keys Triton
              ignores), aliases, types, converts;
              each alias has name, layout, kind, converted, unsupported and
              fields; each convert has line, column, result, src, dst,
              type, bits, bits_assumed, kind, map_str, target,
              target_assumed, not_modelled, scratch_bytes, reps, stores,
              loads (as [{instr, bits, count}] per thread), store_ways,
              load_ways, error; with --target, on_targets: those keys per
              target; smem_ops: each with line, column, op, result, store,
              tensor, memdesc, type, target_assumed and costs, per target
              {target, instr, bits, count, element_bits, ways, wavefronts,
              ideal_wavefronts, note, error})
  --help      this text

examples:
  hlolayout triton report triton/testdata/matmul_f16_64x64x32_w4.ttgir
  hlolayout triton report triton/testdata/matmul_f16_64x64x32_w4.ttgir --target cuda:80
)";

constexpr absl::string_view kOpsHelp =
    R"(usage: hlolayout triton OP A [B | ARG] [--shape S] [--bits N]
                            [--json | --ttgir]

Triton's LinearLayout operations (the names of triton.tools.LinearLayout):
  str A                      Triton's str(A)
  compose A B                B o A (A.compose(B))
  invert-and-compose A B     C with B(C(x)) == A(x) (A.invert_and_compose(B))
  product A B                A * B
  invert A, pseudoinvert A
  apply A IN=V,...           A at the given inputs (every in-dim); a value
                             may be a range LO..HI or * (every value): one
                             line per input, "IN=V,... -> OUT=V,..."
  divide-left A B            C with A == B * C (or "none")
  divide-right A B           C with A == C * B (or "none")
  quotient A DIM,...         A without dims on which it is the identity
  free-masks A               per in-dim, the bits that do not change A
Refusals print Triton's reason and exit 1.

flags:
  --shape S   shape for named layouts given as A or B
  --bits N    no effect here (an nvmma_shared names its element width)
  --json      results as JSON (from_bases arguments for layouts)
  --ttgir     results as #ttg.linear<...> text
  --help      this text

examples:
  hlolayout triton product '{"bases": [["in", [[1], [2]]]], "out_dims": ["out1"]}' '{"bases": [["in", [[1], [2], [4]]]], "out_dims": ["out2"]}'
  hlolayout triton apply '#ttg.linear<{register = [[0, 1]], lane = [[1, 0], [2, 0]], warp = [], block = []}>' register=1,lane=3,warp=0,block=0
)";

// --shape 128x64 (or 128,64).
absl::StatusOr<std::vector<int64_t>> ParseShapeFlag(absl::string_view text) {
  std::vector<int64_t> shape;
  for (absl::string_view part : absl::StrSplit(text, absl::ByAnyChar("x,"))) {
    int64_t v = 0;
    if (!absl::SimpleAtoi(part, &v) || v < 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("bad --shape '", text,
                       "': expected sizes such as "
                       "128x64"));
    }
    shape.push_back(v);
  }
  return shape;
}

using Loaded = triton::GivenLayout;

// A layout argument: inline text ('#...' or '{...}'), a file, or '-'; keys
// Triton ignores are warned of on stderr.
absl::StatusOr<Loaded> Load(const std::string& arg,
                            const std::optional<std::vector<int64_t>>& shape,
                            IoContext& io) {
  std::string text = arg;
  absl::string_view trimmed = absl::StripAsciiWhitespace(arg);
  if (trimmed.empty() || (trimmed[0] != '#' && trimmed[0] != '{')) {
    absl::StatusOr<std::string> read = ReadInput(arg, io);
    if (!read.ok()) return read.status();
    text = *read;
  }
  std::vector<std::string> warnings;  // keys Triton ignores, located
  absl::StatusOr<Loaded> l =
      triton::ReadGivenLayout(text, shape, &warnings, "--shape (e.g. 128x64)");
  for (const std::string& w : warnings) {
    io.err << "hlolayout triton: " << w << "\n";
  }
  return l;
}

// Parses the common flags of the subcommands; `positional` is the number of
// positional arguments expected. Returns the exit status when it failed.
struct Parsed {
  Args args;
  std::optional<std::vector<int64_t>> shape;
  int bits = 0;
};

std::optional<Parsed> ParseCommon(const std::vector<std::string>& raw,
                                  absl::Span<const absl::string_view> switches,
                                  absl::Span<const absl::string_view> valued,
                                  size_t min_positional, size_t max_positional,
                                  int default_bits, absl::string_view who,
                                  absl::string_view what, IoContext& io,
                                  int& status) {
  absl::StatusOr<Args> args = ParseArgs(raw, switches, valued);
  if (!args.ok()) {
    io.err << who << ": " << args.status().message() << "\n";
    status = 2;
    return std::nullopt;
  }
  if (args->positional.size() < min_positional ||
      args->positional.size() > max_positional) {
    io.err << who << ": expects " << what << " (" << who << " --help)\n";
    status = 2;
    return std::nullopt;
  }
  Parsed p;
  p.args = *std::move(args);
  if (p.args.Has("shape")) {
    absl::StatusOr<std::vector<int64_t>> s =
        ParseShapeFlag(p.args.Value("shape", ""));
    if (!s.ok()) {
      io.err << who << ": " << s.status().message() << "\n";
      status = 2;
      return std::nullopt;
    }
    p.shape = *s;
  }
  p.bits = default_bits;
  if (p.args.Has("bits")) {
    int64_t b = 0;
    if (!absl::SimpleAtoi(p.args.Value("bits", ""), &b) || b < 1 || b > 128) {
      io.err << who << ": bad --bits '" << p.args.Value("bits", "")
             << "' (1 to 128)\n";
      status = 2;
      return std::nullopt;
    }
    p.bits = static_cast<int>(b);
  }
  return p;
}

int RunExplain(const std::vector<std::string>& raw, IoContext& io) {
  constexpr absl::string_view kWho = "hlolayout triton explain";
  static constexpr absl::string_view kSwitches[] = {"json", "help"};
  static constexpr absl::string_view kValued[] = {"shape", "bits"};
  int status = 0;
  std::optional<Parsed> p =
      ParseCommon(raw, kSwitches, kValued, 1, 1, triton::kDefaultElementBits,
                  kWho, "one LAYOUT", io, status);
  if (!p.has_value()) return status;
  absl::StatusOr<Loaded> l = Load(p->args.positional[0], p->shape, io);
  if (!l.ok()) {
    io.err << kWho << ": " << l.status().message() << "\n";
    return 1;
  }
  const triton::TritonExplainAnswer a =
      triton::AnswerExplain(*std::move(l), p->bits);
  if (p->args.Has("json")) {
    io.out << AnswerJson(a, RecordJsonWriter::Style::kIndented) << "\n";
  } else {
    io.out << triton::ExplainText(a);
  }
  return 0;
}

int RunView(const std::vector<std::string>& raw, IoContext& io) {
  constexpr absl::string_view kWho = "hlolayout triton view";
  static constexpr absl::string_view kSwitches[] = {"hw", "help"};
  static constexpr absl::string_view kValued[] = {"shape", "bits"};
  int status = 0;
  std::optional<Parsed> p =
      ParseCommon(raw, kSwitches, kValued, 1, 1, triton::kDefaultElementBits,
                  kWho, "one LAYOUT", io, status);
  if (!p.has_value()) return status;
  absl::StatusOr<Loaded> l = Load(p->args.positional[0], p->shape, io);
  absl::StatusOr<std::string> view =
      l.ok() ? triton::LayoutView(l->layout, p->args.Has("hw")) : l.status();
  if (!view.ok()) {
    io.err << kWho << ": " << view.status().message() << "\n";
    return 1;
  }
  io.out << *view;
  return 0;
}

int RunCvt(const std::vector<std::string>& raw, IoContext& io) {
  constexpr absl::string_view kWho = "hlolayout triton cvt";
  static constexpr absl::string_view kSwitches[] = {"json", "help"};
  static constexpr absl::string_view kValued[] = {"shape", "bits", "target",
                                                  "triton"};
  int status = 0;
  std::optional<Parsed> p =
      ParseCommon(raw, kSwitches, kValued, 2, 2, triton::kDefaultElementBits,
                  kWho, "SRC and DST", io, status);
  if (!p.has_value()) return status;
  absl::StatusOr<triton::TritonVersion> version =
      p->args.Has("triton")
          ? triton::TritonVersionNamed(p->args.Value("triton", ""))
          : triton::kNewestTriton;
  if (!version.ok()) {
    io.err << kWho << ": " << version.status().message() << "\n";
    return 2;
  }
  absl::StatusOr<Loaded> src = Load(p->args.positional[0], p->shape, io);
  absl::StatusOr<Loaded> dst =
      src.ok() ? Load(p->args.positional[1], p->shape, io) : src.status();
  if (!dst.ok()) {
    io.err << kWho << ": " << dst.status().message() << "\n";
    return 1;
  }
  const int lane = src->layout.InDimIndex("lane");
  absl::StatusOr<std::vector<std::string>> targets = triton::CvtTargetsFlag(
      p->args.Value("target", ""), lane < 0 ? 32 : src->layout.InDimSize(lane));
  if (!targets.ok()) {
    io.err << kWho << ": " << targets.status().message() << "\n";
    return absl::IsNotFound(targets.status()) ? 1 : 2;
  }
  absl::StatusOr<triton::TritonCvtAnswer> answer = triton::AnswerCvt(
      *src, *dst, p->bits, *version, p->args.Has("triton"), *targets);
  if (!answer.ok()) {
    io.err << kWho << ": " << answer.status().message() << "\n";
    return 1;
  }
  if (p->args.Has("json")) {
    io.out << AnswerJson(*answer, RecordJsonWriter::Style::kIndented) << "\n";
  } else {
    io.out << triton::CvtText(*answer);
  }
  return 0;
}

// The picture of `hlolayout triton draw --instruction`.
absl::StatusOr<triton::LayoutDrawing> InstructionDrawing(const std::string& arg,
                                                         const Parsed& p,
                                                         IoContext& io) {
  std::string text = arg;
  absl::string_view trimmed = absl::StripAsciiWhitespace(arg);
  if (trimmed.empty() || trimmed[0] != '#') {
    absl::StatusOr<std::string> read = ReadInput(arg, io);
    if (!read.ok()) return read.status();
    text = *read;
  }
  triton::InstructionPictureOptions options;
  options.operand_bits = p.bits;
  if (p.args.Has("k-width")) {
    int64_t k = 0;
    if (!absl::SimpleAtoi(p.args.Value("k-width", ""), &k) || k < 1 ||
        k > 1024) {
      return absl::InvalidArgumentError(absl::StrCat(
          "bad --k-width '", p.args.Value("k-width", ""), "' (1 to 1024)"));
    }
    options.k_width = static_cast<int>(k);
  }
  return triton::DrawInstruction(text, options);
}

int RunDraw(const std::vector<std::string>& raw, IoContext& io) {
  constexpr absl::string_view kWho = "hlolayout triton draw";
  static constexpr absl::string_view kSwitches[] = {"ascii", "instruction",
                                                    "help"};
  static constexpr absl::string_view kValued[] = {"shape", "bits", "svg",
                                                  "color", "k-width"};
  int status = 0;
  std::optional<Parsed> p =
      ParseCommon(raw, kSwitches, kValued, 1, 1, triton::kDefaultElementBits,
                  kWho, "one LAYOUT", io, status);
  if (!p.has_value()) return status;
  absl::StatusOr<bool> colour =
      ShouldColour(p->args.Value("color", "auto"), io);
  if (!colour.ok()) {
    io.err << kWho << ": " << colour.status().message() << "\n";
    return 2;
  }
  absl::StatusOr<triton::LayoutDrawing> drawing = absl::UnknownError("unset");
  if (p->args.Has("instruction")) {
    drawing = InstructionDrawing(p->args.positional[0], *p, io);
  } else {
    absl::StatusOr<Loaded> l = Load(p->args.positional[0], p->shape, io);
    drawing = l.ok() ? triton::DrawLayout(
                           l->text, l->layout,
                           l->named.has_value() ? &*l->named : nullptr, p->bits)
                     : l.status();
  }
  if (!drawing.ok()) {
    io.err << kWho << ": " << drawing.status().message() << "\n";
    return 1;
  }
  if (p->args.Has("svg")) {
    absl::Status s =
        WriteSvg(p->args.Value("svg", "-"), triton::DrawingSvg(*drawing), io);
    if (!s.ok()) {
      io.err << kWho << ": " << s.message() << "\n";
      return 1;
    }
    return 0;
  }
  io.out << triton::DrawingText(*drawing,
                                draw::TextStyle{*colour, p->args.Has("ascii")});
  return 0;
}

// The kernel `report` reads: '-' (standard input, named "<stdin>"), or a
// file, a cache entry's folder or its metadata (triton/report_input.h).
absl::StatusOr<triton::TritonReportRequest> ReportRequestOf(
    const std::string& arg, IoContext& io) {
  triton::TritonReportRequest request;
  if (arg != "-") {
    request.path = arg;
    return request;
  }
  absl::StatusOr<std::string> text = ReadInput(arg, io);
  if (!text.ok()) return text.status();
  request.text = *std::move(text);
  request.text_name = "<stdin>";
  return request;
}

int RunReport(const std::vector<std::string>& raw, IoContext& io) {
  constexpr absl::string_view kWho = "hlolayout triton report";
  static constexpr absl::string_view kSwitches[] = {"json", "help"};
  static constexpr absl::string_view kValued[] = {"triton", "target"};
  int status = 0;
  std::optional<Parsed> p =
      ParseCommon(raw, kSwitches, kValued, 1, 1, triton::kDefaultElementBits,
                  kWho, "one KERNEL.ttgir (or '-')", io, status);
  if (!p.has_value()) return status;
  const std::string flag_version = p->args.Value("triton", "");
  if (p->args.Has("triton")) {
    if (absl::Status s = triton::TritonVersionNamed(flag_version).status();
        !s.ok()) {
      io.err << kWho << ": " << s.message() << "\n";
      return 2;
    }
  }
  const std::string flag_target = p->args.Value("target", "");
  if (p->args.Has("target") && flag_target != "all") {
    for (absl::string_view t : absl::StrSplit(flag_target, ',')) {
      if (absl::Status s = triton::CvtTargetNamed(t).status(); !s.ok()) {
        io.err << kWho << ": --target: " << s.message() << "\n";
        return 2;
      }
    }
  }
  absl::StatusOr<triton::TritonReportRequest> request =
      ReportRequestOf(p->args.positional[0], io);
  if (request.ok()) {
    request->triton = flag_version;
    request->target = flag_target;
  }
  absl::StatusOr<triton::KernelReport> r =
      request.ok() ? triton::AnswerKernelReport(*std::move(request))
                   : request.status();
  if (!r.ok()) {
    io.err << kWho << ": " << r.status().message() << "\n";
    return 1;
  }
  for (const std::string& w : r->m.warnings)
    io.err << kWho << ": " << w << "\n";
  if (p->args.Has("json")) {
    io.out << triton::KernelReportJson(*r) << "\n";
  } else {
    io.out << triton::KernelReportText(*r);
  }
  return 0;
}

// ---------------------------------------------------------------------------
// Raw operations.

int PrintLayoutResult(const LinearLayout& l, const Args& args, IoContext& io) {
  if (args.Has("json")) {
    io.out << triton::LayoutToJson(l) << "\n";
  } else if (args.Has("ttgir")) {
    io.out << triton::PrintLinear(l) << "\n";
  } else {
    io.out << l.ToString() << "\n";
  }
  return 0;
}

// `apply A IN=V,...`: one input, or with ranges (`IN=LO..HI`, `IN=*` for
// every value of the in-dim) every combination (answers/triton_apply.h).
int RunApply(const LinearLayout& la, const std::string& arg, bool as_json,
             const std::string& who, IoContext& io) {
  absl::StatusOr<triton::ApplyInputs> in = triton::ParseApplyInputs(la, arg);
  if (!in.ok()) {
    io.err << who << ": " << in.status().message() << "\n";
    return 2;
  }
  absl::StatusOr<triton::AppliedTable> table =
      triton::ApplyOverInputs(la, *std::move(in));
  if (!table.ok()) {
    io.err << who << ": " << table.status().message() << "\n";
    return 1;
  }
  io.out << (as_json ? triton::AppliedJson(la, *table)
                     : triton::AppliedText(la, *table));
  return 0;
}

int RunOp(const std::string& op, const std::vector<std::string>& raw,
          IoContext& io) {
  const std::string who = absl::StrCat("hlolayout triton ", op);
  static constexpr absl::string_view kSwitches[] = {"json", "ttgir", "help"};
  static constexpr absl::string_view kValued[] = {"shape", "bits"};
  const bool binary = op == "compose" || op == "invert-and-compose" ||
                      op == "product" || op == "divide-left" ||
                      op == "divide-right";
  const bool with_arg = op == "apply" || op == "quotient";
  const size_t n = binary || with_arg ? 2 : 1;
  int status = 0;
  std::optional<Parsed> p = ParseCommon(
      raw, kSwitches, kValued, n, n, triton::kDefaultElementBits, who,
      binary ? "layouts A and B"
             : (with_arg ? "a layout A and an argument" : "one layout A"),
      io, status);
  if (!p.has_value()) return status;
  absl::StatusOr<Loaded> a = Load(p->args.positional[0], p->shape, io);
  if (!a.ok()) {
    io.err << who << ": " << a.status().message() << "\n";
    return 1;
  }
  std::optional<Loaded> b;
  if (binary) {
    absl::StatusOr<Loaded> lb = Load(p->args.positional[1], p->shape, io);
    if (!lb.ok()) {
      io.err << who << ": " << lb.status().message() << "\n";
      return 1;
    }
    b = *std::move(lb);
  }
  auto fail = [&](const absl::Status& s) {
    io.err << who << ": " << s.message() << "\n";
    return 1;
  };
  const LinearLayout& la = a->layout;
  absl::StatusOr<LinearLayout> result = la;
  if (op == "compose") {
    result = triton::Compose(la, b->layout);
  } else if (op == "invert-and-compose") {
    result = triton::InvertAndCompose(la, b->layout);
  } else if (op == "product") {
    result = triton::Product(la, b->layout);
  } else if (op == "invert") {
    result = triton::Invert(la);
  } else if (op == "pseudoinvert") {
    result = triton::Pseudoinvert(la);
  } else if (op == "divide-left" || op == "divide-right") {
    absl::StatusOr<std::optional<LinearLayout>> q =
        op == "divide-left" ? triton::DivideLeft(la, b->layout)
                            : triton::DivideRight(la, b->layout);
    if (!q.ok()) return fail(q.status());
    if (!q->has_value()) {
      io.out << (p->args.Has("json") ? "null" : "none") << "\n";
      return 0;
    }
    result = **q;
  } else if (op == "quotient") {
    std::vector<std::string> dims = absl::StrSplit(p->args.positional[1], ',');
    absl::StatusOr<std::optional<LinearLayout>> q = triton::Quotient(la, dims);
    if (!q.ok()) return fail(q.status());
    if (!q->has_value()) {
      io.out << (p->args.Has("json") ? "null" : "none") << "\n";
      return 0;
    }
    result = **q;
  } else if (op == "apply") {
    return RunApply(la, p->args.positional[1], p->args.Has("json"), who, io);
  } else if (op == "free-masks") {
    io.out << (p->args.Has("json") ? triton::FreeMasksJson(la)
                                   : triton::FreeMasksText(la));
    return 0;
  }
  if (!result.ok()) return fail(result.status());
  return PrintLayoutResult(*result, p->args, io);
}

// The LinearLayout operations, in the order the help lists them.
constexpr absl::string_view kOps[] = {
    "str",          "compose", "invert-and-compose", "product",      "invert",
    "pseudoinvert", "apply",   "divide-left",        "divide-right", "quotient",
    "free-masks"};

bool IsOp(absl::string_view sub) {
  return std::find(std::begin(kOps), std::end(kOps), sub) != std::end(kOps);
}

struct TritonSub {
  absl::string_view name;
  absl::string_view help;
  int (*run)(const std::vector<std::string>&, IoContext&);
};

// Not constexpr: `check`'s help is defined in triton_check.cc.
const TritonSub kSubs[] = {
    {"explain", kExplainHelp, RunExplain},
    {"view", kViewHelp, RunView},
    {"cvt", kCvtHelp, RunCvt},
    {"draw", kDrawHelp, RunDraw},
    {"report", kReportHelp, RunReport},
    {"check", kTritonCheckHelp, RunTritonCheck},
};

std::vector<std::string> TritonSubcommands() {
  std::vector<std::string> out;
  for (const TritonSub& s : kSubs) out.emplace_back(s.name);
  for (absl::string_view op : kOps) out.emplace_back(op);
  return out;
}

int RunTriton(const std::vector<std::string>& args, IoContext& io) {
  if (args.empty()) {
    io.err
        << "hlolayout triton: expects a subcommand (explain, view, cvt, "
           "draw, report, check, or an operation); 'hlolayout triton --help' "
           "explains them\n";
    return 2;
  }
  const std::string& sub = args[0];
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  const bool help = [&rest] {
    for (const std::string& a : rest) {
      if (a == "--") return false;
      if (a == "--help" || a == "-h") return true;
    }
    return false;
  }();
  for (const TritonSub& s : kSubs) {
    if (sub != s.name) continue;
    if (help) {
      io.out << s.help;
      return 0;
    }
    return s.run(rest, io);
  }
  if (IsOp(sub)) {
    if (help) {
      io.out << kOpsHelp;
      return 0;
    }
    return RunOp(sub, rest, io);
  }
  if (sub == "help") {
    io.out << kTritonHelp;
    return 0;
  }
  return UnknownSubcommand(io.err, "triton", "subcommand", sub,
                           TritonSubcommands());
}

}  // namespace

extern const Command kTritonCommand;
const Command kTritonCommand = {
    "triton",
    "Triton layouts: LinearLayout, named TTGIR layouts, convert_layout "
    "costs, kernel reports",
    kTritonHelp,
    RunTriton,
    /*help_builder=*/nullptr,
    /*has_subcommands=*/true,
    TritonSubcommands,
};

}  // namespace hlolayout::cli
