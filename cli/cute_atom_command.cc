// `hlolayout cute atom|atoms|tiled-mma|tiled-copy ...`: CuTe's atoms and
// their tilings from the shell. The logic lives in //cute/atom; this file
// only adapts it to the CLI.
#include "hlolayout/cli/cute_atom_command.h"

#include <array>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "hlolayout/answers/cute.h"
#include "hlolayout/cli/args.h"
#include "hlolayout/cli/cute_atom_args.h"
#include "hlolayout/cli/cute_atom_pictures.h"
#include "hlolayout/cli/cute_conflicts_command.h"
#include "hlolayout/cute/atom/atom_catalog.h"
#include "hlolayout/cute/atom/copy_atom.h"
#include "hlolayout/cute/atom/mma_atom.h"
#include "hlolayout/cute/atom/static_text.h"
#include "hlolayout/cute/atom/tile.h"
#include "hlolayout/cute/atom/tiled_copy.h"
#include "hlolayout/cute/atom/tiled_mma.h"
#include "hlolayout/cute/parse.h"
#include "hlolayout/util/fields.h"
#include "hlolayout/views/cute_atom_text.h"

namespace hlolayout::cli {

namespace {

using cute::CopyAtom;
using cute::CopyOp;
using cute::MmaAtom;
using cute::TiledCopy;
using cute::TiledMma;

constexpr absl::string_view kAtomHelp =
    R"(usage: hlolayout cute atom NAME [--json]

Prints an MMA atom or a copy atom under CuTe's own C++ name, as CuTe's
print() does, every integer static (_N):
  MMA_Atom:  ThrID, Shape_MNK, LayoutA_TV, LayoutB_TV, LayoutC_TV
             (thread, value) -> column-major index into the M x K, N x K and
             M x N tiles
  Copy_Atom<OP, T>: ThrID, ValLayoutSrc/Dst/Ref (in values of T) and the
             operation's SrcLayout/DstLayout/RefLayout (in bits)
  a copy operation alone (OP): ThrID, SrcLayout, DstLayout, RefLayout
An unknown name gets the nearest known names; a known family with a
parameter outside its domain gets the domains. `hlolayout cute atoms` lists
the families.

flags:
  --json   {"ThrID", "Shape_MNK", "LayoutA_TV", "LayoutB_TV", "LayoutC_TV"},
           or {"ThrID", "ValLayoutSrc", "ValLayoutDst", "ValLayoutRef",
           "SrcLayout", "DstLayout", "RefLayout"} for a copy atom
  --help   this text

examples:
  hlolayout cute atom SM80_16x8x16_F32F16F16F32_TN
  hlolayout cute atom 'SM90_64x128x16_F16F16F16_SS<GMMA::Major::K,GMMA::Major::MN>'
  hlolayout cute atom 'SM100_MMA_F16BF16_SS<half_t,half_t,float,128,256,UMMA::Major::K,UMMA::Major::K>'
  hlolayout cute atom 'Copy_Atom<SM75_U32x4_LDSM_N, half_t>' --json
)";

constexpr absl::string_view kAtomsHelp =
    R"(usage: hlolayout cute atoms [--kind mma|copy] [--family F] [--json]

Lists every atom family that `hlolayout cute atom` knows, grouped: the MMA
atoms, then the copy operations (a Copy_Atom<OP, T> takes any of them), each
family with its names, or its name patterns with their parameters' whole
domains and how many names each covers (optional trailing template
arguments, such as GMMA::ScaleIn, aside).

flags:
  --kind K     only MMA atoms (mma) or only copy operations (copy)
  --copy       the same as --kind copy
  --family F   only family F (sm80, sm90_gmma, sm100_umma, sm75, ...)
  --json       [{"kind", "family", "name_pattern", "params": [{"name",
               "domain"}], "count", "pattern"}, ...] ("pattern": the name
               pattern with its domains in one line)
  --help       this text

examples:
  hlolayout cute atoms
  hlolayout cute atoms --family sm90_gmma
  hlolayout cute atoms --kind copy --json
)";

constexpr absl::string_view kTiledMmaHelp =
    R"(usage: hlolayout cute tiled-mma NAME [--atom-layout L] [--permutation P]
                                 [--thread T] [--json]

CuTe's make_tiled_mma(NAME, L, P) and its thread-value layouts:
  ThrLayoutVMNK  tiled_product(ThrID, L): (ThrV,ThrM,ThrN,ThrK) -> thread
  PermutationMNK P, padded with _ (as CuTe prints it)
  TileShape_MNK  the tile the TiledMMA covers
  LayoutA_TV, LayoutB_TV, LayoutC_TV  get_layoutA/B/C_TV(): (thread, value)
                 -> column-major index into the M x K, N x K, M x N tile
L is an atom layout of rank 1 to 3 ('(2,2,1)', '(2,2,1):(2,1,0)'), P a
permutation of up to 3 modes, each _, an integer or a layout
('<_32,_32,_16>', '<_,(_8,_2,_2):(_1,_16,_8),_>'). Integers are static, as
CuTe requires of permutations, whether written 4 or _4.

flags:
  --atom-layout L   default (1,1,1)
  --permutation P   default <_,_,_>
  --thread T        print thread T's slice instead: the (m,k), (n,k) and
                    (m,n) of each of its values, in value order
  --json            {"ThrLayoutVMNK", "PermutationMNK", "TileShape_MNK",
                    "LayoutA_TV", "LayoutB_TV", "LayoutC_TV"}; with --thread
                    {"thread", "A": [[m,k],...], "B": [...], "C": [...]}
  --help            this text

examples:
  hlolayout cute tiled-mma SM80_16x8x16_F32F16F16F32_TN --atom-layout '(2,2,1)' --permutation '<_32,_32,_16>'
  hlolayout cute tiled-mma SM80_16x8x16_F16F16F16F16_TN --atom-layout '(2,2,1)' --permutation '<_32,(_8,_2,_2):(_1,_16,_8),_16>' --json
  hlolayout cute tiled-mma SM80_16x8x16_F32F16F16F32_TN --thread 5
  hlolayout cute draw-mma SM80_16x8x16_F32F16F16F32_TN --atom-layout '(2,2,1)'   (picture)
)";

constexpr absl::string_view kTiledCopyHelp =
    R"(usage: hlolayout cute tiled-copy 'Copy_Atom<OP, T>' --thr L --val L
                                  [--thread T] [--json]
       hlolayout cute tiled-copy 'Copy_Atom<OP, T>' --operand A|B|C|C_atom
                                  --mma NAME [--atom-layout L] [--permutation P]
                                  [--thread T] [--json]

CuTe's make_tiled_copy(atom, thr, val) (thread and value layouts: (m,n) ->
thread, (m,n) -> value), or make_tiled_copy_A/B/C/C_atom(atom, tiled_mma)
with the tiled MMA given as for `hlolayout cute tiled-mma`. Prints:
  Tiler_MN        the tile (a shape, or layouts for C_atom)
  TiledLayout_TV  (thread, value) -> tile index, in the atom's Ref order
  LayoutS_TV, LayoutD_TV  get_layoutS_TV(), get_layoutD_TV(): the source and
                  destination orders

flags:
  --thr L, --val L   the thread and value layouts of make_tiled_copy
  --operand X        A, B, C or C_atom: make_tiled_copy_X from --mma
  --mma NAME         the MMA atom (with --atom-layout, --permutation)
  --thread T         print thread T's slice instead: the (m,n) it reads
                     (S) and writes (D), in value order
  --json             {"Tiler_MN", "TiledLayout_TV", "LayoutS_TV",
                     "LayoutD_TV"}; with --thread {"thread", "S", "D"}
  --help             this text

examples:
  hlolayout cute tiled-copy 'Copy_Atom<UniversalCopy<uint128_t>, half_t>' --thr '(32,4):(4,1)' --val '(1,8)'
  hlolayout cute tiled-copy 'Copy_Atom<SM75_U32x4_LDSM_N, half_t>' --operand A --mma SM80_16x8x16_F32F16F16F32_TN --atom-layout '(2,2,1)' --json
)";

// An error of a named option: "--atom-layout: 1:3: ...".
int Fail(IoContext& io, absl::string_view sub, const absl::Status& status,
         absl::string_view what = "") {
  io.err << "hlolayout cute " << sub << ": ";
  if (!what.empty()) io.err << what << ": ";
  io.err << status.message() << "\n";
  return 1;
}

int Usage(IoContext& io, absl::string_view sub, absl::string_view message) {
  io.err << "hlolayout cute " << sub << ": " << message << " (hlolayout cute "
         << sub << " --help)\n";
  return 2;
}

absl::StatusOr<int64_t> ThreadOption(const Args& args) {
  const std::string text = args.Value("thread", "");
  int64_t t = 0;
  if (!absl::SimpleAtoi(text, &t) || t < 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--thread takes a thread index (an integer from 0), found '", text,
        "'"));
  }
  return t;
}

int RunAtom(const std::vector<std::string>& raw, IoContext& io) {
  absl::StatusOr<Args> args = ParseArgs(raw, {"json"}, {});
  if (!args.ok()) return Usage(io, "atom", args.status().message());
  if (args->positional.size() != 1)
    return Usage(io, "atom", "expected one NAME");
  absl::StatusOr<cute::AnyAtom> atom = cute::FindAnyAtom(args->positional[0]);
  if (!atom.ok()) return Fail(io, "atom", atom.status());
  io.out << (args->Has("json") ? AnswerJson(cute::AnswerAtom(*atom)) + "\n"
                               : cute::AnyAtomText(*atom));
  return 0;
}

int RunAtoms(const std::vector<std::string>& raw, IoContext& io) {
  absl::StatusOr<Args> args =
      ParseArgs(raw, {"json", "copy"}, {"kind", "family"});
  if (!args.ok()) return Usage(io, "atoms", args.status().message());
  if (!args->positional.empty()) return Usage(io, "atoms", "takes no NAME");
  std::string kind = args->Value("kind", args->Has("copy") ? "copy" : "");
  if (!kind.empty() && kind != "mma" && kind != "copy") {
    return Usage(io, "atoms",
                 absl::StrCat("--kind is mma or copy, found '", kind, "'"));
  }
  if (args->Has("copy") && kind != "copy") {
    return Usage(io, "atoms", "--copy and --kind mma contradict each other");
  }
  absl::StatusOr<std::vector<cute::FamilyRow>> rows =
      cute::AtomCatalog(kind, args->Value("family", ""));
  if (!rows.ok()) return Fail(io, "atoms", rows.status());
  io.out << (args->Has("json")
                 ? AnswerJson(cute::AnswerAtomCatalog(*rows)) + "\n"
                 : cute::AtomCatalogText(*rows));
  return 0;
}

int RunTiledMma(const std::vector<std::string>& raw, IoContext& io) {
  absl::StatusOr<Args> args =
      ParseArgs(raw, {"json"}, {"atom-layout", "permutation", "thread"});
  if (!args.ok()) return Usage(io, "tiled-mma", args.status().message());
  if (args->positional.size() != 1) {
    return Usage(io, "tiled-mma", "expected one MMA atom NAME");
  }
  std::string failed;
  absl::StatusOr<TiledMma> tm =
      TiledMmaFromArgs(args->positional[0], *args, failed);
  if (!tm.ok()) return Fail(io, "tiled-mma", tm.status(), failed);
  const bool json = args->Has("json");
  if (args->Has("thread")) {
    absl::StatusOr<int64_t> t = ThreadOption(*args);
    if (!t.ok()) return Usage(io, "tiled-mma", t.status().message());
    absl::StatusOr<cute::ThreadCoords> c = cute::ThreadCoordsOfMma(*tm, *t);
    if (!c.ok()) return Fail(io, "tiled-mma", c.status());
    io.out << (json ? AnswerJson(cute::AnswerThreadCoords(*c)) + "\n"
                    : cute::ThreadCoordsText(*c));
    return 0;
  }
  io.out << (json ? AnswerJson(cute::AnswerTiledMma(*tm)) + "\n"
                  : cute::TiledMmaText(*tm));
  return 0;
}

int RunTiledCopy(const std::vector<std::string>& raw, IoContext& io) {
  absl::StatusOr<Args> args = ParseArgs(
      raw, {"json"},
      {"thr", "val", "operand", "mma", "atom-layout", "permutation", "thread"});
  if (!args.ok()) return Usage(io, "tiled-copy", args.status().message());
  std::string failed;
  absl::StatusOr<TiledCopy> tc =
      TiledCopyFromArgs(args->positional, *args, failed);
  if (!tc.ok()) {
    if (failed == "usage")
      return Usage(io, "tiled-copy", tc.status().message());
    return Fail(io, "tiled-copy", tc.status(), failed);
  }
  const bool json = args->Has("json");
  if (args->Has("thread")) {
    absl::StatusOr<int64_t> t = ThreadOption(*args);
    if (!t.ok()) return Usage(io, "tiled-copy", t.status().message());
    absl::StatusOr<cute::ThreadCoords> c = cute::ThreadCoordsOfCopy(*tc, *t);
    if (!c.ok()) return Fail(io, "tiled-copy", c.status());
    io.out << (json ? AnswerJson(cute::AnswerThreadCoords(*c)) + "\n"
                    : cute::ThreadCoordsText(*c));
    return 0;
  }
  io.out << (json ? AnswerJson(cute::AnswerTiledCopy(*tc)) + "\n"
                  : cute::TiledCopyText(*tc));
  return 0;
}

struct Sub {
  absl::string_view name;
  absl::string_view summary;
  absl::string_view help;
  int (*run)(const std::vector<std::string>& args, IoContext& io);
};

const std::vector<Sub>& Subs() {
  static const std::vector<Sub>* subs = new std::vector<Sub>{
      {"atom", "NAME: an MMA or copy atom's ThrID and TV layouts", kAtomHelp,
       RunAtom},
      {"atoms", "every atom family, grouped [--kind mma|copy] [--family F]",
       kAtomsHelp, RunAtoms},
      {"tiled-mma", "NAME [--atom-layout L] [--permutation P]: make_tiled_mma",
       kTiledMmaHelp, RunTiledMma},
      {"tiled-copy",
       "'Copy_Atom<OP, T>' (--thr L --val L | --operand X --mma NAME)",
       kTiledCopyHelp, RunTiledCopy},
      {"draw-mma", "NAME [...]: a tiled MMA's A, B, C panels (T/V cells)",
       kDrawMmaHelp, RunDrawMma},
      {"draw-copy", "'Copy_Atom<OP, T>' [...]: a tiled copy's S and D panels",
       kDrawCopyHelp, RunDrawCopy},
      {"conflicts",
       "SMEM (COPY ... | --tv TV ...): shared-memory bank conflicts",
       kConflictsHelp, RunConflicts},
      {"draw-banks", "SMEM --bits B: a shared-memory layout coloured by bank",
       kDrawBanksHelp, RunDrawBanks},
  };
  return *subs;
}

const Sub* FindSub(absl::string_view op) {
  for (const Sub& s : Subs()) {
    if (s.name == op) return &s;
  }
  return nullptr;
}

}  // namespace

bool IsCuteAtomSubcommand(absl::string_view op) {
  return FindSub(op) != nullptr;
}

int RunCuteAtomSubcommand(const std::vector<std::string>& args, IoContext& io) {
  const Sub* sub = FindSub(args[0]);
  return sub->run({args.begin() + 1, args.end()}, io);
}

absl::string_view CuteAtomSubcommandHelp(absl::string_view op) {
  const Sub* sub = FindSub(op);
  return sub == nullptr ? absl::string_view() : sub->help;
}

std::vector<std::string> CuteAtomSubcommandNames() {
  std::vector<std::string> out;
  for (const Sub& s : Subs()) out.emplace_back(s.name);
  return out;
}

std::string CuteAtomSubcommandSummaries() {
  std::string out;
  for (const Sub& s : Subs()) {
    absl::StrAppendFormat(&out, "  %-30s %s\n", s.name, s.summary);
  }
  return out;
}

}  // namespace hlolayout::cli
