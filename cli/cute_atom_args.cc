// cli/cute_atom_args.cc
#include "hlolayout/cli/cute_atom_args.h"

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "hlolayout/cute/atom/copy_atom.h"
#include "hlolayout/cute/atom/internal/tv_algebra.h"
#include "hlolayout/cute/atom/mma_atom.h"
#include "hlolayout/cute/atom/tile.h"
#include "hlolayout/cute/parse.h"

namespace hlolayout::cli {

using cute::CopyAtom;
using cute::MmaAtom;
using cute::TiledCopy;
using cute::TiledMma;

absl::StatusOr<TiledMma> TiledMmaFromArgs(const std::string& name,
                                          const Args& args,
                                          std::string& failed_option) {
  absl::StatusOr<MmaAtom> atom = cute::FindMmaAtom(name);
  if (!atom.ok()) return atom.status();
  cute::Layout layout;  // 1:0 padded to (1,1,1)
  if (args.Has("atom-layout")) {
    absl::StatusOr<cute::Layout> l =
        cute::atom_internal::ParseStaticLayout(args.Value("atom-layout", ""));
    if (!l.ok()) {
      failed_option = "--atom-layout";
      return l.status();
    }
    layout = *l;
  }
  cute::Tile perm;
  if (args.Has("permutation")) {
    absl::StatusOr<cute::Tile> p =
        cute::ParseTile(args.Value("permutation", ""));
    if (!p.ok()) {
      failed_option = "--permutation";
      return p.status();
    }
    perm = *p;
  }
  return cute::MakeTiledMma(*atom, layout, perm);
}

absl::StatusOr<TiledCopy> TiledCopyFromArgs(
    const std::vector<std::string>& positional, const Args& args,
    std::string& failed_option) {
  if (positional.size() != 1) {
    failed_option = "usage";
    return absl::InvalidArgumentError("expected one 'Copy_Atom<OP, T>'");
  }
  absl::StatusOr<CopyAtom> atom = cute::FindCopyAtom(positional[0]);
  if (!atom.ok()) return atom.status();
  const bool thr_val = args.Has("thr") || args.Has("val");
  const bool from_mma = args.Has("operand") || args.Has("mma");
  if (thr_val == from_mma) {
    failed_option = "usage";
    return absl::InvalidArgumentError(
        "give either --thr and --val, or --operand and --mma");
  }
  if (thr_val) {
    if (!args.Has("thr") || !args.Has("val")) {
      failed_option = "usage";
      return absl::InvalidArgumentError("--thr and --val go together");
    }
    absl::StatusOr<cute::Layout> thr =
        cute::atom_internal::ParseStaticLayout(args.Value("thr", ""));
    if (!thr.ok()) {
      failed_option = "--thr";
      return thr.status();
    }
    absl::StatusOr<cute::Layout> val =
        cute::atom_internal::ParseStaticLayout(args.Value("val", ""));
    if (!val.ok()) {
      failed_option = "--val";
      return val.status();
    }
    return cute::MakeTiledCopy(*atom, *thr, *val);
  }
  if (!args.Has("operand") || !args.Has("mma")) {
    failed_option = "usage";
    return absl::InvalidArgumentError("--operand and --mma go together");
  }
  const std::string operand = args.Value("operand", "");
  if (operand != "A" && operand != "B" && operand != "C" &&
      operand != "C_atom") {
    failed_option = "usage";
    return absl::InvalidArgumentError(
        absl::StrCat("--operand is A, B, C or C_atom, found '", operand, "'"));
  }
  absl::StatusOr<TiledMma> tm =
      TiledMmaFromArgs(args.Value("mma", ""), args, failed_option);
  if (!tm.ok()) return tm.status();
  if (operand == "C_atom") return cute::MakeTiledCopyCAtom(*atom, *tm);
  return cute::MakeTiledCopyFromMma(*atom, *tm,
                                    operand == "A"   ? cute::Operand::kA
                                    : operand == "B" ? cute::Operand::kB
                                                     : cute::Operand::kC);
}

}  // namespace hlolayout::cli
