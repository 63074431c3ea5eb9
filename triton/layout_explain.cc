#include "hlolayout/triton/layout_explain.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "hlolayout/shape/primitive_type.h"
#include "hlolayout/triton/bases_json.h"
#include "hlolayout/triton/ops.h"
#include "hlolayout/triton/ttgir_parser.h"
#include "hlolayout/triton/ttgir_printer.h"
#include "hlolayout/triton/views.h"
#include "hlolayout/triton/xla_bridge.h"

namespace hlolayout::triton {
namespace {

// The shape a named layout is taken on: the one given, or a linear
// layout's own out-dims.
absl::StatusOr<std::vector<int64_t>> ShapeFor(
    const Layout& named, const std::string& kind,
    const std::optional<std::vector<int64_t>>& shape,
    absl::string_view shape_name) {
  if (shape.has_value()) return *shape;
  std::vector<int64_t> at;
  if (const auto* e = named.get<LinearEncoding>()) {
    for (const auto& od : e->layout.out_dims()) at.push_back(od.second);
  } else if (const auto* e = named.get<SharedLinearEncoding>()) {
    for (const auto& od : e->layout.out_dims()) at.push_back(od.second);
  } else {
    return absl::InvalidArgumentError(
        absl::StrCat("a #ttg.", kind, " layout needs ", shape_name));
  }
  return at;
}

// Elements a thread (the first in-dim) holds consecutively in row-major
// order (Triton's isInnermostContiguous measure).
int32_t Consecutive(const LinearLayout& l) {
  std::vector<std::string> reversed = l.OutDimNames();
  std::reverse(reversed.begin(), reversed.end());
  absl::StatusOr<LinearLayout> t = TransposeOuts(l, reversed);
  if (!t.ok() || t->num_out_dims() == 0) return 1;
  absl::StatusOr<LinearLayout> flat = FlattenOuts(*t);
  if (!flat.ok()) return 1;
  return NumConsecutiveInOut(*flat);
}

absl::StatusOr<std::string> XlaForm(const LinearLayout& l, int bits) {
  LinearLayout offsets = l;
  if (IsSharedLayout(l)) {
    if (l.InDimSizeLog2(1) != 0) {
      return absl::InvalidArgumentError("split across CTAs");
    }
    absl::StatusOr<LinearLayout> sub =
        Sublayout(l, {"offset"}, l.OutDimNames());
    if (!sub.ok()) return sub.status();
    offsets = *sub;
  } else if (l.num_in_dims() != 1) {
    return absl::InvalidArgumentError(
        "an XLA layout maps one offset (this is a register layout)");
  }
  PrimitiveType type = F32;
  if (bits == 16) type = F16;
  if (bits == 8) type = S8;
  if (bits == 64) type = F64;
  return LinearToXla(offsets, type);
}

// A padded layout: where its elements go once padded.
std::string PaddingText(const GivenLayout& g) {
  if (!g.named.has_value()) return "";
  const auto* pad = g.named->get<PaddedSharedLayout>();
  if (pad == nullptr) return "";
  std::vector<std::string> parts;
  for (const auto& [interval, n] : pad->intervals) {
    parts.push_back(absl::StrCat(n, " after every ", interval));
  }
  return absl::StrCat(
      absl::StrJoin(parts, ", "),
      " (the bases are the linear component: offsets before padding)");
}

}  // namespace

absl::StatusOr<GivenLayout> ReadGivenLayout(
    absl::string_view text, const std::optional<std::vector<int64_t>>& shape,
    std::vector<std::string>* warnings, absl::string_view shape_name) {
  GivenLayout g;
  g.text = std::string(absl::StripAsciiWhitespace(text));
  if (!g.text.empty() && g.text[0] == '{') {
    absl::StatusOr<LinearLayout> ll = LayoutFromJson(g.text);
    if (!ll.ok()) return ll.status();
    g.layout = *std::move(ll);
    g.kind = "linear layout";
    return g;
  }
  absl::StatusOr<Layout> named = ParseLayout(g.text, nullptr, "", warnings);
  if (!named.ok()) return named.status();
  g.kind = named->kind_name();
  absl::StatusOr<std::vector<int64_t>> at =
      ShapeFor(*named, g.kind, shape, shape_name);
  if (!at.ok()) return at.status();
  absl::StatusOr<LinearLayout> ll = ToLinearLayout(*named, *at);
  if (!ll.ok()) return ll.status();
  g.layout = *std::move(ll);
  g.as_read = PrintLayout(*named);
  g.named = *std::move(named);
  return g;
}

bool IsDistributedLayout(const LinearLayout& l) {
  return l.num_in_dims() == 4 && l.in_dim_name(0) == "register" &&
         l.in_dim_name(1) == "lane" && l.in_dim_name(2) == "warp" &&
         l.in_dim_name(3) == "block";
}

bool IsSharedLayout(const LinearLayout& l) {
  return l.num_in_dims() == 2 && l.in_dim_name(0) == "offset" &&
         l.in_dim_name(1) == "block";
}

absl::StatusOr<std::string> LayoutView(const LinearLayout& l, bool hw) {
  if (IsSharedLayout(l)) return SharedView(l, hw);
  return DistributedView(l, hw);
}

LayoutExplanation ExplainLayout(GivenLayout given, int bits) {
  LayoutExplanation e;
  e.given = std::move(given);
  const LinearLayout& ll = e.given.layout;
  for (const auto& od : ll.out_dims()) e.shape.push_back(od.second);
  e.masks = FreeVariableMasks(ll);
  e.consecutive = Consecutive(ll);
  e.xla_form = XlaForm(ll, bits);
  const bool small =
      ll.TotalOutDimSizeLog2() <= 10 && ll.TotalInDimSizeLog2() <= 12;
  const bool viewable = IsDistributedLayout(ll) || IsSharedLayout(ll);
  e.view = absl::InvalidArgumentError(
      "more than 1,024 elements: use 'hlolayout triton view'");
  e.view_hw = e.view;
  if (small && viewable) {
    e.view = LayoutView(ll, false);
    e.view_hw = LayoutView(ll, true);
  }
  // A #ttg.linear / #ttg.shared_linear spelling exists for register and
  // shared layouts only (not for tensor memory's row, col).
  if (viewable) e.linear = PrintLinear(ll);
  e.padding = PaddingText(e.given);
  return e;
}

}  // namespace hlolayout::triton
