#include "hlolayout/answers/smem_by_name.h"

#include <memory>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "hlolayout/cute/composed_layout.h"
#include "hlolayout/cute/int_tuple.h"
#include "hlolayout/cute/parse.h"
#include "hlolayout/cute/print.h"
#include "hlolayout/cute/smem_atoms.h"
#include "hlolayout/triton/linear_layout.h"
#include "hlolayout/triton/named_layouts.h"
#include "hlolayout/triton/ttgir_parser.h"

namespace hlolayout::triton {
namespace {

constexpr int64_t kMaxElements = int64_t{1} << 24;

absl::StatusOr<NamedSmem> FromTriton(absl::string_view text, int64_t rows,
                                     int64_t cols, int bits) {
  absl::StatusOr<Layout> parsed = ParseLayout(text);
  if (!parsed.ok()) return parsed.status();
  Layout layout = *std::move(parsed);
  if (!layout.is_shared()) {
    return absl::InvalidArgumentError(
        absl::StrCat("a #ttg.", layout.kind_name(),
                     " layout places registers, not shared memory: give a "
                     "shared layout (nvmma_shared, swizzled_shared, "
                     "shared_linear)"));
  }
  int element_bits = 0;
  if (const auto* n = layout.get<NvmmaSharedLayout>()) {
    element_bits = n->element_bits;
    if (element_bits == 0) {  // the older spelling
      NvmmaSharedLayout copy = *n;
      copy.element_bits = element_bits = bits;
      layout = Layout(copy);
    }
  }
  const std::vector<int64_t> shape = {rows, cols};
  absl::StatusOr<LinearLayout> ll = ToLinearLayout(layout, shape);
  if (!ll.ok()) return ll.status();
  if (ll->num_out_dims() != 2 || ll->InDimIndex("offset") != 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "'", text, "' on ", rows, "x", cols, " is not a rank-2 shared layout"));
  }
  // Every offset of the first CTA and the element it holds.
  const int64_t elements = rows * cols;
  const int32_t offsets = ll->InDimSize(0);
  auto table = std::make_shared<std::vector<int64_t>>(elements, -1);
  std::vector<int32_t> ins(ll->num_in_dims(), 0), outs(2);
  for (int32_t o = 0; o < offsets; ++o) {
    ins[0] = o;
    ll->ApplyIndexed(ins, absl::MakeSpan(outs));
    if (outs[0] < 0 || outs[0] >= rows || outs[1] < 0 || outs[1] >= cols) {
      continue;
    }
    const int64_t at = outs[0] * cols + outs[1];
    if ((*table)[at] == -1) (*table)[at] = o;
  }
  for (int64_t i = 0; i < elements; ++i) {
    if ((*table)[i] == -1) {
      return absl::InvalidArgumentError(absl::StrCat(
          "'", text, "' on ", rows, "x", cols, " gives element (", i / cols,
          ",", i % cols,
          ") no offset of the first CTA (a layout over several CTAs?)"));
    }
  }
  NamedSmem out;
  out.element_bits = element_bits;
  out.description = absl::StrCat(text, " on ", rows, "x", cols);
  out.layout = cute::SmemLayout::Function(
      [table, cols](int64_t m, int64_t n, int64_t, int64_t)
          -> absl::StatusOr<int64_t> { return (*table)[m * cols + n]; },
      out.description);
  return out;
}

absl::StatusOr<NamedSmem> FromAtom(const cute::SmemAtom& atom, int64_t rows,
                                   int64_t cols) {
  if (atom.value_bits == 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        atom.name,
        " is in bits: name the typed atom, such as "
        "GMMA::Layout_K_SW128_Atom<half_t>, so that its offsets are "
        "elements"));
  }
  const cute::IntTuple shape = cute::IntTuple::Tuple(
      {cute::IntTuple::Static(rows), cute::IntTuple::Static(cols)});
  absl::StatusOr<cute::SmemTile> tile =
      cute::TileSmemAtom(atom, shape, absl::nullopt);
  if (!tile.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(atom.name, " tiled to the ", rows, "x", cols,
                     " tile: ", tile.status().message()));
  }
  NamedSmem out;
  out.element_bits = atom.value_bits;
  out.description = absl::StrCat(atom.name, " tiled to ", cute::ToString(shape),
                                 ": ", cute::ToString(tile->layout));
  out.layout = cute::SmemLayout::Any(tile->layout);
  return out;
}

}  // namespace

absl::StatusOr<NamedSmem> SmemLayoutByName(absl::string_view text, int64_t rows,
                                           int64_t cols, int bits) {
  if (rows < 1 || cols < 1 || rows > kMaxElements / cols) {
    return absl::InvalidArgumentError(absl::StrCat(
        "a ", rows, "x", cols, " tile: at most ", kMaxElements, " elements"));
  }
  const absl::string_view t = absl::StripAsciiWhitespace(text);
  if (absl::StartsWith(t, "#")) return FromTriton(t, rows, cols, bits);
  absl::StatusOr<cute::AnyLayout> layout = cute::ParseAnyLayout(t);
  if (layout.ok()) {
    NamedSmem out;
    out.layout = cute::SmemLayout::Any(*layout);
    out.description = out.layout.description();
    return out;
  }
  absl::StatusOr<cute::SmemAtom> atom = cute::FindSmemAtom(t);
  if (atom.ok()) return FromAtom(*atom, rows, cols);
  // A name, or layout text with a mistake?
  const bool named = absl::StrContains(t, "Layout_") ||
                     absl::StrContains(t, "GMMA::") ||
                     absl::StrContains(t, "UMMA::");
  return named ? atom.status() : layout.status();
}

absl::StatusOr<NamedSmem> SmemForAccess(absl::string_view text, int64_t rows,
                                        int64_t cols, int& bits) {
  absl::StatusOr<NamedSmem> s =
      SmemLayoutByName(text, rows, cols, bits > 0 ? bits : 16);
  if (!s.ok()) {
    return absl::Status(s.status().code(),
                        absl::StrCat("SMEM: ", s.status().message()));
  }
  if (bits == 0) {
    if (s->element_bits == 0) {
      return absl::FailedPreconditionError(
          "the width of a value is needed: SMEM names no element width");
    }
    bits = s->element_bits;
  } else if (s->element_bits != 0 && s->element_bits != bits) {
    return absl::InvalidArgumentError(absl::StrCat(
        "SMEM holds ", s->element_bits, "-bit elements but the access moves ",
        bits, "-bit values"));
  }
  return s;
}

}  // namespace hlolayout::triton
