// cute/smem_atoms.cc: the GMMA/UMMA shared-memory atom table and its names.
#include "hlolayout/cute/smem_atoms.h"

#include <algorithm>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "hlolayout/cute/composed_ops.h"
#include "hlolayout/cute/numeric_types.h"
#include "hlolayout/cute/parse.h"
#include "hlolayout/util/edit_distance.h"
#include "hlolayout/util/status_macros.h"

namespace hlolayout::cute {

namespace {

// One atom in bits (CUTLASS's Layout_*_Atom_Bits), as CuTe prints it.
struct AtomRow {
  const char* kind;  // the name between "Layout_" and "_Atom"
  bool umma_only;
  bool k_major;
  int swizzle_bytes;
  bool atom_32b;
  const char* bits_layout;
};

constexpr AtomRow kAtoms[] = {
    {"MN_INTER", false, false, 0, false,
     "Sw<0,4,3> o smem_ptr[1b](unset) o (_128,_8):(_1,_128)"},
    {"MN_SW32", false, false, 32, false,
     "Sw<1,4,3> o smem_ptr[1b](unset) o (_256,_8):(_1,_256)"},
    {"MN_SW64", false, false, 64, false,
     "Sw<2,4,3> o smem_ptr[1b](unset) o (_512,_8):(_1,_512)"},
    {"MN_SW128", false, false, 128, false,
     "Sw<3,4,3> o smem_ptr[1b](unset) o (_1024,_8):(_1,_1024)"},
    {"K_INTER", false, true, 0, false,
     "Sw<0,4,3> o smem_ptr[1b](unset) o (_8,_128):(_128,_1)"},
    {"K_SW32", false, true, 32, false,
     "Sw<1,4,3> o smem_ptr[1b](unset) o (_8,_256):(_256,_1)"},
    {"K_SW64", false, true, 64, false,
     "Sw<2,4,3> o smem_ptr[1b](unset) o (_8,_512):(_512,_1)"},
    {"K_SW128", false, true, 128, false,
     "Sw<3,4,3> o smem_ptr[1b](unset) o (_8,_1024):(_1024,_1)"},
    {"MN_SW128_32B", true, false, 128, true,
     "Sw<2,5,2> o smem_ptr[1b](unset) o (_1024,_4):(_1,_1024)"},
};

absl::Status Unknown(absl::string_view name) {
  const std::vector<std::string> nearest =
      NearestNames(name, KnownSmemAtomNames(), 3, Case::kIgnore);
  return absl::InvalidArgumentError(
      absl::StrCat("unknown shared-memory atom '", name,
                   "'; nearest known: ", absl::StrJoin(nearest, ", ")));
}

// Splits "X<a, b>" into "X" and {"a", "b"} (top-level commas).
bool SplitTemplate(absl::string_view text, absl::string_view& head,
                   std::vector<std::string>& args) {
  const size_t open = text.find('<');
  if (open == absl::string_view::npos) {
    head = text;
    return true;
  }
  if (text.back() != '>') return false;
  head = text.substr(0, open);
  absl::string_view inner = text.substr(open + 1, text.size() - open - 2);
  int depth = 0;
  std::string current;
  for (char c : inner) {
    if (c == '<') ++depth;
    if (c == '>') --depth;
    if (c == ',' && depth == 0) {
      args.push_back(std::string(absl::StripAsciiWhitespace(current)));
      current.clear();
      continue;
    }
    current.push_back(c);
  }
  args.push_back(std::string(absl::StripAsciiWhitespace(current)));
  return depth == 0;
}

}  // namespace

std::vector<std::string> KnownSmemAtomNames() {
  std::vector<std::string> out;
  for (const char* family : {"GMMA", "UMMA"}) {
    for (const AtomRow& row : kAtoms) {
      if (row.umma_only && absl::string_view(family) == "GMMA") continue;
      out.push_back(absl::StrCat(family, "::Layout_", row.kind, "_Atom<T>"));
      out.push_back(absl::StrCat(family, "::Layout_", row.kind, "_Atom_Bits"));
    }
  }
  return out;
}

absl::StatusOr<SmemAtom> FindSmemAtom(absl::string_view name) {
  absl::string_view text = absl::StripAsciiWhitespace(name);
  absl::ConsumePrefix(&text, "cute::");
  absl::ConsumePrefix(&text, "SM90::");
  absl::ConsumePrefix(&text, "SM100::");
  std::string family;
  if (absl::ConsumePrefix(&text, "GMMA::")) {
    family = "GMMA";
  } else if (absl::ConsumePrefix(&text, "UMMA::")) {
    family = "UMMA";
  } else {
    return Unknown(name);
  }
  absl::string_view head;
  std::vector<std::string> args;
  if (!SplitTemplate(text, head, args) ||
      !absl::ConsumePrefix(&head, "Layout_")) {
    return Unknown(name);
  }
  const bool bits = absl::ConsumeSuffix(&head, "_Atom_Bits");
  if (!bits && !absl::ConsumeSuffix(&head, "_Atom")) return Unknown(name);
  if (bits != args.empty()) return Unknown(name);
  std::string kind(head);
  // Layout_SW128_Atom<T, GMMA::Major::K>: the major as a second argument.
  if (!bits && args.size() == 2) {
    absl::string_view major = args[1];
    absl::ConsumePrefix(&major, "cute::");
    if (!absl::ConsumePrefix(&major, "GMMA::Major::") &&
        !absl::ConsumePrefix(&major, "UMMA::Major::")) {
      return Unknown(name);
    }
    if (major != "K" && major != "MN") return Unknown(name);
    kind = absl::StrCat(major, "_", kind);
  } else if (args.size() > 1) {
    return Unknown(name);
  }
  const AtomRow* row = nullptr;
  for (const AtomRow& r : kAtoms) {
    if (kind == r.kind && (!r.umma_only || family == "UMMA")) row = &r;
  }
  if (row == nullptr) return Unknown(name);
  SmemAtom atom;
  atom.family = family;
  atom.k_major = row->k_major;
  atom.swizzle_bytes = row->swizzle_bytes;
  atom.atom_32b = row->atom_32b;
  HLOLAYOUT_ASSIGN_OR_RETURN(AnyLayout layout,
                             ParseAnyLayout(row->bits_layout));
  if (bits) {
    atom.value_bits = 1;
    atom.name = absl::StrCat(family, "::Layout_", row->kind, "_Atom_Bits");
    atom.layout = std::move(layout);
    return atom;
  }
  HLOLAYOUT_ASSIGN_OR_RETURN(atom.value_bits, SizeofBits(args[0]));
  atom.name =
      absl::StrCat(family, "::Layout_", row->kind, "_Atom<", args[0], ">");
  HLOLAYOUT_ASSIGN_OR_RETURN(atom.layout, UpcastOf(layout, atom.value_bits));
  return atom;
}

absl::StatusOr<AnyLayout> PositionIndependent(const AnyLayout& layout) {
  if (!layout.is_composed()) return layout;
  const ComposedLayout& c = layout.composed();
  if (!c.offset().is_smem_ptr() || !c.outer().is_swizzle()) return layout;
  HLOLAYOUT_ASSIGN_OR_RETURN(
      AnyLayout sw, RecastLayoutOf(c.outer(), 8, c.offset().smem_bits()));
  return MakeComposed(std::move(sw), ComposedOffset(), c.inner());
}

absl::StatusOr<SmemTile> TileSmemAtom(const SmemAtom& atom,
                                      const absl::optional<IntTuple>& shape,
                                      const absl::optional<IntTuple>& order) {
  SmemTile tile;
  if (shape) {
    HLOLAYOUT_ASSIGN_OR_RETURN(tile.layout,
                               TileToShapeOf(atom.layout, *shape, order));
  } else {
    if (order) {
      return absl::InvalidArgumentError(
          "an order needs a shape to tile the atom to");
    }
    tile.layout = atom.layout;
  }
  HLOLAYOUT_ASSIGN_OR_RETURN(tile.elements, PositionIndependent(tile.layout));
  return tile;
}

}  // namespace hlolayout::cute
