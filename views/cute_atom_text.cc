#include "hlolayout/views/cute_atom_text.h"

#include <array>
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "absl/strings/str_cat.h"
#include "hlolayout/util/fields.h"

namespace hlolayout::cute {
namespace {

std::string CoordsText(const std::vector<std::array<int64_t, 2>>& coords) {
  std::string out;
  for (size_t v = 0; v < coords.size(); ++v) {
    absl::StrAppend(&out, v == 0 ? "" : " ", "(", coords[v][0], ",",
                    coords[v][1], ")");
  }
  return out;
}

// CuTe's print() of a tiled MMA or copy from its answer (built once by
// the caller), then its atom's.
std::string TiledMmaPrintText(const TiledMma& tm, const TiledMmaAnswer& a) {
  return FieldListText(a.print, "TiledMMA") + PrintMmaAtom(tm.atom);
}

std::string TiledCopyPrintText(const TiledCopy& tc, const TiledCopyAnswer& a) {
  return FieldListText(a.print, "TiledCopy") + PrintCopyAtom(tc.atom);
}

}  // namespace

std::string PrintMmaAtom(const MmaAtom& a) {
  return FieldListText(AnswerAtom(a), "MMA_Atom");
}

std::string PrintCopyAtom(const CopyAtom& a) {
  return FieldListText(AnswerAtom(a).print, "Copy_Atom");
}

std::string PrintTiledMma(const TiledMma& tm) {
  return TiledMmaPrintText(tm, AnswerTiledMma(tm));
}

std::string PrintTiledCopy(const TiledCopy& tc) {
  return TiledCopyPrintText(tc, AnswerTiledCopy(tc));
}

std::string AnyAtomText(const AnyAtom& atom) {
  if (const auto* a = std::get_if<CopyAtom>(&atom)) {
    return FieldListText(AnswerAtom(*a), "Copy_Atom");
  }
  if (const auto* op = std::get_if<CopyOp>(&atom)) {
    return FieldListText(AnswerAtom(*op),
                         absl::StrCat("Copy_Traits<", op->name, ">"));
  }
  return PrintMmaAtom(std::get<MmaAtom>(atom));
}

std::string TiledMmaText(const TiledMma& tm) {
  const TiledMmaAnswer a = AnswerTiledMma(tm);
  return TiledMmaPrintText(tm, a) + FieldListText(a.layouts, "", "");
}

std::string TiledCopyText(const TiledCopy& tc) {
  const TiledCopyAnswer a = AnswerTiledCopy(tc);
  return TiledCopyPrintText(tc, a) + FieldListText(a.layouts, "", "");
}

std::string ThreadCoordsText(const ThreadCoords& c) {
  std::string out =
      absl::StrCat("thread ", c.thread, " of ", c.num_threads, "\n");
  for (const auto& [names, coords] : c.operands) {
    absl::StrAppend(&out, names[0], " (", names[1], "): ", CoordsText(coords),
                    "\n");
  }
  return out;
}

}  // namespace hlolayout::cute
