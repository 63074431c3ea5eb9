// fuzz/cute_fuzzer.cc: RunCuteOp on a fuzzed op and operands, plus the
// three parsers. Input: the first byte picks an op from CuteOps() (255:
// the op name is the first tab-separated field instead), the rest is up to
// two operands separated by tabs. ScaledBasis layouts (`1@0`) go through
// their own parser, printer, evaluation and composition; swizzles and
// composed layouts (`Sw<3,4,3> o _0 o (_8,_64):(_64,_1)`) through theirs.
// Atoms (cute/atom): the text as an MMA atom, copy atom, copy operation and
// Tile; and the tab-separated fields as make_tiled_mma's ATOM, atom layout
// and permutation (an unknown atom picks a known one by the first byte),
// with thread slices and a tiled copy from the tiled MMA.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "hlolayout/cute/atom/bank_conflicts.h"
#include "hlolayout/cute/atom/copy_atom.h"
#include "hlolayout/cute/atom/internal/tv_algebra.h"
#include "hlolayout/cute/atom/mma_atom.h"
#include "hlolayout/cute/atom/tile.h"
#include "hlolayout/cute/atom/tiled_copy.h"
#include "hlolayout/cute/atom/tiled_mma.h"
#include "hlolayout/cute/coord_layout.h"
#include "hlolayout/cute/ops.h"
#include "hlolayout/cute/parse.h"
#include "hlolayout/cute/print.h"
#include "hlolayout/cute/slice.h"
#include "hlolayout/cute/smem_atoms.h"
#include "hlolayout/fuzz/fuzz_util.h"

namespace {

// The atom names, tiles and tiled MMAs/copies of cute/atom.
void FuzzAtoms(uint8_t selector, absl::string_view text) {
  using namespace hlolayout;
  using namespace hlolayout::fuzz;
  CheckError(cute::FindMmaAtom(text).status(), text);
  CheckError(cute::FindCopyAtom(text).status(), text);
  CheckError(cute::FindCopyOp(text).status(), text);
  absl::StatusOr<cute::Tile> tile = cute::ParseTile(text);
  CheckError(tile.status(), text);
  if (tile.ok()) {
    const std::string printed = cute::TileText(*tile);
    absl::StatusOr<cute::Tile> again = cute::ParseTile(printed);
    if (!again.ok() || cute::TileText(*again) != printed) {
      Fail("cute tile round trip", printed, text);
    }
  }

  std::vector<absl::string_view> f = SplitN(text, '\t', 3);
  if (f.size() < 2) return;
  static const std::vector<std::string>* names =
      new std::vector<std::string>(cute::AllMmaAtomNames(20000));
  absl::StatusOr<cute::MmaAtom> atom = cute::FindMmaAtom(f[0]);
  if (!atom.ok())
    atom = cute::FindMmaAtom((*names)[selector * 77 % names->size()]);
  if (!atom.ok()) Fail("a listed MMA atom is not found", "", text);
  absl::StatusOr<cute::Layout> layout =
      cute::atom_internal::ParseStaticLayout(f[1]);
  CheckError(layout.status(), text);
  cute::Tile perm;
  if (f.size() > 2) {
    absl::StatusOr<cute::Tile> p = cute::ParseTile(f[2]);
    CheckError(p.status(), text);
    if (p.ok()) perm = *p;
  }
  if (!layout.ok()) return;
  absl::StatusOr<cute::TiledMma> tm = cute::MakeTiledMma(*atom, *layout, perm);
  CheckError(tm.status(), text);
  if (!tm.ok()) return;
  for (cute::Operand op :
       {cute::Operand::kA, cute::Operand::kB, cute::Operand::kC}) {
    auto slice = cute::ThreadSlice(*tm, op, selector % (tm->num_threads() + 1));
    CheckError(slice.status(), text);
  }
  absl::StatusOr<cute::CopyAtom> copy =
      cute::FindCopyAtom("Copy_Atom<UniversalCopy<uint32_t>, half_t>");
  absl::StatusOr<cute::TiledCopy> tc =
      cute::MakeTiledCopyFromMma(*copy, *tm, cute::Operand::kC);
  CheckError(tc.status(), text);
  if (tc.ok() && tc->layout_s_tv.size() <= (1 << 16)) {
    const cute::SmemLayout smem =
        cute::SmemLayout::Plain(*cute::Layout::Compact(
            cute::IntTuple::Tuple({tm->tile_mnk[0], tm->tile_mnk[1]})));
    CheckError(cute::SmemConflicts(*tc, cute::Side::kSource, smem).status(),
               text);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace hlolayout;
  using namespace hlolayout::fuzz;
  if (size < 1 || size > kMaxInputSize) return 0;
  absl::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  absl::Span<const cute::CuteOpInfo> ops = cute::CuteOps();

  std::string op_name;
  if (data[0] == 255) {
    std::vector<absl::string_view> parts = SplitN(text, '\t', 2);
    op_name = std::string(parts[0]);
    text = parts.size() > 1 ? parts[1] : absl::string_view();
  } else {
    op_name = std::string(ops[data[0] % ops.size()].name);
  }
  std::vector<absl::string_view> args = SplitN(text, '\t', 3);
  if (args.size() == 1 && args[0].empty()) args.clear();

  absl::StatusOr<std::string> result = cute::RunCuteOp(op_name, args);
  CheckError(result.status(), text);

  // The parsers alone, with a print/parse round trip.
  absl::StatusOr<cute::Layout> layout = cute::ParseLayout(text);
  CheckError(layout.status(), text);
  if (layout.ok()) {
    const std::string printed = cute::ToString(*layout);
    absl::StatusOr<cute::Layout> again = cute::ParseLayout(printed);
    if (!again.ok()) Fail("printed cute layout does not parse", printed, text);
    if (cute::ToString(*again) != printed) {
      Fail("cute layout round trip", printed, cute::ToString(*again));
    }
  }
  absl::StatusOr<cute::IntTuple> tuple = cute::ParseIntTuple(text);
  CheckError(tuple.status(), text);
  if (tuple.ok()) {
    const std::string printed = cute::ToString(*tuple);
    absl::StatusOr<cute::IntTuple> again = cute::ParseIntTuple(printed);
    if (!again.ok() || cute::ToString(*again) != printed) {
      Fail("cute int tuple round trip", printed, text);
    }
  }
  absl::StatusOr<cute::Tiler> tiler = cute::ParseTiler(text);
  CheckError(tiler.status(), text);

  // Swizzles and composed layouts: round trip, and evaluation of the first
  // indices (bounded).
  absl::StatusOr<cute::AnyLayout> any = cute::ParseAnyLayout(text);
  CheckError(any.status(), text);
  if (any.ok()) {
    const std::string printed = cute::ToString(*any);
    absl::StatusOr<cute::AnyLayout> again = cute::ParseAnyLayout(printed);
    if (!again.ok() || cute::ToString(*again) != printed) {
      Fail("cute composed layout round trip", printed, text);
    }
    for (int64_t i = 0; i < any->size() && i < 64; ++i) {
      CheckError(any->TryEvaluate(i).status(), printed);
    }
  }

  // Slice coordinates and shared-memory atom names.
  absl::StatusOr<cute::SliceCoord> slice = cute::ParseSliceCoord(text);
  CheckError(slice.status(), text);
  absl::StatusOr<cute::SmemAtom> atom = cute::FindSmemAtom(text);
  CheckError(atom.status(), text);

  FuzzAtoms(data[0], text);

  absl::StatusOr<cute::CoordLayout> coord = cute::ParseCoordLayout(text);
  CheckError(coord.status(), text);
  if (coord.ok()) {
    const std::string printed = cute::ToString(*coord);
    absl::StatusOr<cute::CoordLayout> again = cute::ParseCoordLayout(printed);
    if (!again.ok() || cute::ToString(*again) != printed) {
      Fail("cute scaled-basis layout round trip", printed, text);
    }
    for (int64_t i = 0; i < coord->size() && i < 64; ++i) {
      CheckError(cute::EvaluateCoord(*coord, i).status(), printed);
    }
    const cute::Layout a = cute::Layout::Make(
        cute::IntTuple::Tuple({4, cute::IntTuple::Tuple({2, 3})}),
        cute::IntTuple::Tuple({1, cute::IntTuple::Tuple({8, 4})}));
    absl::StatusOr<cute::Layout> r = cute::ComposeWithCoordLayout(a, *coord);
    CheckError(r.status(), printed);
  }
  return 0;
}
