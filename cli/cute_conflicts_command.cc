// cli/cute_conflicts_command.cc: `hlolayout cute conflicts` and
// `hlolayout cute draw-banks`: shared-memory bank conflicts of a tiled copy or
// a TV layout against a shared-memory layout, and a layout coloured by bank.
#include "hlolayout/cli/cute_conflicts_command.h"

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "hlolayout/answers/cute.h"
#include "hlolayout/answers/smem_by_name.h"
#include "hlolayout/cli/args.h"
#include "hlolayout/cli/cute_atom_args.h"
#include "hlolayout/cli/draw_output.h"
#include "hlolayout/cute/atom/bank_conflicts.h"
#include "hlolayout/cute/parse.h"
#include "hlolayout/cute/print.h"
#include "hlolayout/util/fields.h"
#include "hlolayout/views/bank_picture.h"
#include "hlolayout/views/cute_conflict_text.h"

namespace hlolayout::cli {

const absl::string_view kConflictsHelp =
    R"(usage: hlolayout cute conflicts SMEM 'Copy_Atom<OP, T>' (--thr L --val L |
                 --operand A|B|C|C_atom --mma NAME [--atom-layout L]
                 [--permutation P]) [--side S|D] [--all] [--json]
       hlolayout cute conflicts SMEM --tv TV --tile M,N [--bits B]
                 [--vector N] [--all] [--json]

Counts the shared-memory wavefronts each instruction of a tiled copy (or of
any thread-value access pattern) takes on the shared-memory layout SMEM (tile
coordinate (m,n) -> element offset), against the ideal, and names the
threads that collide. The model: 32 banks of 4 bytes; each thread's access
of W bits per instruction is served in phases of 32 threads (W <= 32), 16
(W = 64) or 8 (W = 128); ldmatrix/stmatrix phases are the 8-row matrices,
with only the threads that give row addresses; a phase takes as many
wavefronts as the most distinct 4-byte words in one bank (equal words
broadcast). docs/cute.md ("Bank conflicts") states the limits.

SMEM is a CuTe layout ('(32,16):(16,1)', padded '(32,16):(17,1)'), a
swizzled one ('Sw<2,3,3> o _0 o (32,32):(32,1)') or CuTe's shared-memory
form whose swizzle acts on byte addresses ('Sw<3,4,3> o smem_ptr[16b](unset)
o (_8,_64):(_64,_1)'), evaluated at (m,n) when its first two modes cover the
tile, else at the column-major index. SMEM may also be named:
  a GMMA/UMMA shared-memory atom ('GMMA::Layout_K_SW128_Atom<half_t>', as
      for hlolayout cute smem), tiled to the tile (tile_to_shape,
      column-major);
  a Triton shared layout ('#ttg.nvmma_shared<{swizzlingByteWidth = 128,
      transposed = false, elementBitWidth = 16}>', swizzled_shared,
      shared_linear) on a memdesc of the tile's shape, (m,n) = (dim0, dim1).
A named SMEM says its element width: the access must move values of that
width, and --tv then needs no --bits.

flags:
  --side S|D    which side is in shared memory: S (source: ldmatrix, loads
                from shared memory) or D (destination: stmatrix, cp.async,
                stores); default S, D for STSM and cp.async atoms
  --tv TV       a (thread, value) -> tile index layout instead of a copy
  --tile M,N    the tile of --tv
  --bits B      the width of a value of --tv in bits (default: the element
                width a named SMEM gives)
  --vector N    values per thread per instruction with --tv (default 1)
  --all         list every warp's instructions (default: warp 0, totals
                over all warps)
  --json        {"wavefronts", "ideal", "threads_per_phase", "instructions":
                [{"warp", "instruction", "wavefronts", "ideal", "phases":
                [{"threads": [first, last], "wavefronts", "ideal",
                "collisions": [{"bank", "words", "threads"}]}]}]}
  --help        this text

examples:
  hlolayout cute conflicts '(32,16):(16,1)' 'Copy_Atom<SM75_U32x4_LDSM_N, half_t>' --operand A --mma SM80_16x8x16_F16F16F16F16_TN --atom-layout '(2,1,1)'
  hlolayout cute conflicts '(32,32):(32,1)' --tv '(32,1):(1,0)' --tile 32,32 --bits 32
  hlolayout cute conflicts 'GMMA::Layout_K_SW128_Atom<half_t>' 'Copy_Atom<SM75_U32x4_LDSM_N, half_t>' --operand A --mma SM80_16x8x16_F16F16F16F16_TN --atom-layout '(2,1,1)'
  hlolayout cute conflicts '#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>' 'Copy_Atom<SM75_U32x4_LDSM_N, half_t>' --operand A --mma SM80_16x8x16_F16F16F16F16_TN --atom-layout '(2,1,1)'
)";

const absl::string_view kDrawBanksHelp =
    R"(usage: hlolayout cute draw-banks SMEM --bits B [--svg FILE|-] [--ascii]
                                  [--color WHEN]

Draws a rank-2 shared-memory layout (plain, swizzled or composed, as for
`hlolayout cute conflicts`), each cell (m,n) labelled with the bank
its element starts in (bank = (offset * B / 32) % 32, 32 banks of 4 bytes)
and coloured by bank (8 colours, bank % 8), so that a column or row reading
one bank stands out. At most 16,384 cells.

flags:
  --bits B       the element width in bits (default 16)
  --svg FILE     write a self-contained SVG; '-' = stdout (cells carry
                 data-coord, data-offset and data-bank)
  --ascii        + - | instead of box-drawing characters (text only)
  --color WHEN   auto (default), always or never (text only)
  --help         this text

example:
  hlolayout cute draw-banks '(8,64):(64,1)' --bits 16
  hlolayout cute draw-banks 'Sw<3,3,3> o _0 o (8,64):(64,1)' --bits 16
)";

namespace {

int Fail(IoContext& io, absl::string_view sub, absl::string_view message) {
  io.err << "hlolayout cute " << sub << ": " << message << "\n";
  return 1;
}

int Usage(IoContext& io, absl::string_view sub, absl::string_view message) {
  io.err << "hlolayout cute " << sub << ": " << message << " (hlolayout cute "
         << sub << " --help)\n";
  return 2;
}

absl::StatusOr<std::pair<int64_t, int64_t>> TileOption(
    const std::string& text) {
  std::vector<std::string> mn = absl::StrSplit(text, ',');
  int64_t m = 0, n = 0;
  if (mn.size() != 2 || !absl::SimpleAtoi(mn[0], &m) ||
      !absl::SimpleAtoi(mn[1], &n) || m < 1 || n < 1 || m > (1 << 20) ||
      n > (1 << 20)) {
    return absl::InvalidArgumentError(
        absl::StrCat("bad --tile '", text, "': expected M,N (positive)"));
  }
  return std::make_pair(m, n);
}

}  // namespace

int RunConflicts(const std::vector<std::string>& raw, IoContext& io) {
  constexpr absl::string_view kSub = "conflicts";
  std::vector<absl::string_view> valued(std::begin(kTiledCopyFlags),
                                        std::end(kTiledCopyFlags));
  for (absl::string_view v : {"side", "tv", "tile", "bits", "vector"}) {
    valued.push_back(v);
  }
  absl::StatusOr<Args> args = ParseArgs(raw, {"json", "all"}, valued);
  if (!args.ok()) return Usage(io, kSub, args.status().message());
  if (args->positional.empty()) return Usage(io, kSub, "expected SMEM");
  absl::StatusOr<cute::ConflictReport> report;
  std::string what;
  if (args->Has("tv")) {
    if (args->positional.size() != 1) {
      return Usage(io, kSub, "--tv takes no copy atom");
    }
    if (!args->Has("tile")) return Usage(io, kSub, "--tv needs --tile M,N");
    absl::StatusOr<cute::Layout> tv = cute::ParseLayout(args->Value("tv", ""));
    if (!tv.ok())
      return Fail(io, kSub, absl::StrCat("--tv: ", tv.status().message()));
    auto tile = TileOption(args->Value("tile", ""));
    if (!tile.ok()) return Usage(io, kSub, tile.status().message());
    int64_t bits = 0, vector = 1;
    const bool bits_given = args->Has("bits");
    if (bits_given && (!absl::SimpleAtoi(args->Value("bits", ""), &bits) ||
                       bits < 1 || bits > 1024)) {
      return Usage(io, kSub, "--bits takes a width of 1 to 1024 bits");
    }
    if (!absl::SimpleAtoi(args->Value("vector", "1"), &vector) || vector < 1) {
      return Usage(io, kSub, "--vector takes a positive count");
    }
    int width = static_cast<int>(bits);  // 0: SMEM's own
    absl::StatusOr<triton::NamedSmem> smem = triton::SmemForAccess(
        args->positional[0], tile->first, tile->second, width);
    if (smem.status().code() == absl::StatusCode::kFailedPrecondition) {
      return Usage(io, kSub,
                   "--tv needs --bits B (SMEM names no element width)");
    }
    if (!smem.ok()) return Fail(io, kSub, smem.status().message());
    bits = width;
    auto accesses =
        cute::TvAccesses(*tv, tile->first, tile->second, vector, smem->layout);
    if (!accesses.ok()) return Fail(io, kSub, accesses.status().message());
    report = cute::CountConflicts(*accesses, static_cast<int>(bits));
    what = absl::StrCat("TV layout ", cute::ToString(*tv), " on shared memory ",
                        smem->description);
  } else {
    if (args->positional.size() != 2) {
      return Usage(io, kSub, "expected SMEM and 'Copy_Atom<OP, T>'");
    }
    std::string failed;
    absl::StatusOr<cute::TiledCopy> tc =
        TiledCopyFromArgs({args->positional[1]}, *args, failed);
    if (!tc.ok()) {
      if (failed == "usage") return Usage(io, kSub, tc.status().message());
      return Fail(io, kSub,
                  absl::StrCat(failed.empty() ? "" : failed + ": ",
                               tc.status().message()));
    }
    const std::string& op = tc->atom.op.name;
    std::string side = args->Value("side", "");
    if (side.empty()) {
      side = absl::StrContains(op, "STSM") || absl::StrContains(op, "CP_ASYNC")
                 ? "D"
                 : "S";
    }
    if (side != "S" && side != "D") {
      return Usage(io, kSub,
                   absl::StrCat("--side is S or D, found '", side, "'"));
    }
    const std::vector<int64_t> tile = tc->tile_extent();
    if (tile.size() != 2) {
      return Fail(io, kSub,
                  absl::StrCat("the tiled copy's tile has ", tile.size(),
                               " modes; shared memory is drawn over 2"));
    }
    int width = tc->atom.value_bits;
    absl::StatusOr<triton::NamedSmem> smem =
        triton::SmemForAccess(args->positional[0], tile[0], tile[1], width);
    if (!smem.ok()) return Fail(io, kSub, smem.status().message());
    report = cute::SmemConflicts(
        *tc, side == "S" ? cute::Side::kSource : cute::Side::kDestination,
        smem->layout);
    what =
        absl::StrCat(side == "S" ? "source" : "destination", " side of ",
                     tc->atom.name(), " on shared memory ", smem->description);
  }
  if (!report.ok()) return Fail(io, kSub, report.status().message());
  io.out << (args->Has("json")
                 ? AnswerJson(
                       cute::AnswerConflicts(*report, args->Has("all"))) +
                       "\n"
                 : cute::ConflictReportText(*report, args->Has("all"), what));
  return 0;
}

int RunDrawBanks(const std::vector<std::string>& raw, IoContext& io) {
  constexpr absl::string_view kWho = "hlolayout cute draw-banks";
  absl::StatusOr<Args> args =
      ParseArgs(raw, {"ascii"}, {"bits", "svg", "color"});
  if (!args.ok()) {
    io.err << kWho << ": " << args.status().message() << "\n";
    return 2;
  }
  if (args->positional.size() != 1) {
    io.err << kWho << ": expected one SMEM layout (" << kWho << " --help)\n";
    return 2;
  }
  int64_t bits = 0;
  if (!absl::SimpleAtoi(args->Value("bits", "16"), &bits) || bits < 1 ||
      bits > 1024) {
    io.err << kWho << ": --bits takes a width of 1 to 1024 bits\n";
    return 2;
  }
  absl::StatusOr<cute::AnyLayout> layout =
      cute::ParseAnyLayout(args->positional[0]);
  if (!layout.ok()) {
    io.err << kWho << ": " << layout.status().message() << "\n";
    return 1;
  }
  absl::StatusOr<draw::CellGrid> grid =
      draw::BankGrid(*layout, static_cast<int>(bits));
  if (!grid.ok()) {
    io.err << kWho << ": " << grid.status().message() << "\n";
    return 1;
  }
  absl::StatusOr<bool> colour = ShouldColour(args->Value("color", "auto"), io);
  if (!colour.ok()) {
    io.err << kWho << ": " << colour.status().message() << "\n";
    return 2;
  }
  // The grid's heading names the layout; its note the element width.
  const std::string title = grid->heading;
  if (args->Has("svg")) {
    absl::Status s =
        WriteSvg(args->Value("svg", "-"), draw::GridsToSvg({*grid}, title), io);
    if (!s.ok()) {
      io.err << kWho << ": " << s.message() << "\n";
      return 1;
    }
    return 0;
  }
  io.out << draw::PictureToText(title, {*grid},
                                draw::TextStyle{*colour, args->Has("ascii")});
  return 0;
}

}  // namespace hlolayout::cli
