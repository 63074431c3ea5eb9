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

}  // namespace

std::string PrintMmaAtom(const MmaAtom& a) {
  return FieldListText(AnswerAtom(a), "MMA_Atom");
}

std::string PrintCopyAtom(const CopyAtom& a) {
  return FieldListText(AnswerAtom(a).print, "Copy_Atom");
}

std::string PrintTiledMma(const TiledMma& tm) {
  return FieldListText(AnswerTiledMma(tm).print, "TiledMMA") +
         PrintMmaAtom(tm.atom);
}

std::string PrintTiledCopy(const TiledCopy& tc) {
  return FieldListText(AnswerTiledCopy(tc).print, "TiledCopy") +
         PrintCopyAtom(tc.atom);
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
  return PrintTiledMma(tm) + FieldListText(AnswerTiledMma(tm).layouts, "", "");
}

std::string TiledCopyText(const TiledCopy& tc) {
  return PrintTiledCopy(tc) +
         FieldListText(AnswerTiledCopy(tc).layouts, "", "");
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
