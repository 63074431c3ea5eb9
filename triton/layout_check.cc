#include "hlolayout/triton/layout_check.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "hlolayout/triton/bases_json.h"
#include "hlolayout/triton/cvt_target.h"
#include "hlolayout/triton/named_layouts.h"
#include "hlolayout/triton/ttgir_parser.h"
#include "hlolayout/triton/ttgir_printer.h"
#include "hlolayout/triton/type_verifier.h"

namespace hlolayout::triton {
namespace {

constexpr int64_t kMaxSize = int64_t{1} << 40;
constexpr int64_t kMaxCount = int64_t{1} << 20;

// The shape the layout describes (a memdesc's trailing dims).
std::vector<int64_t> TrailingShape(const Layout& layout,
                                   const LayoutCheckRequest& r) {
  std::vector<int64_t> shape = r.shape;
  const int rank = LayoutRank(layout);
  if (r.memdesc && rank > 0 && static_cast<int>(shape.size()) > rank) {
    shape.erase(shape.begin(), shape.end() - rank);
  }
  return shape;
}

// Without a warp count, the module has as many warps as the layout.
int WarpsOf(const Layout& named, const LayoutCheckRequest& r) {
  if (r.num_warps.has_value()) return *r.num_warps;
  absl::StatusOr<LinearLayout> sized =
      ToLinearLayout(named, TrailingShape(named, r));
  const int w = sized.ok() ? sized->InDimIndex("warp") : -1;
  return w < 0 ? 1 : static_cast<int>(sized->InDimSize(w));
}

// Under Triton 3.6.0, a tensor memory attribute that both spellings read
// (no CTASplitM/N, no CGALayout nor another key of Triton 3.7 and later)
// is 3.6.0's, with one CTA.
Layout InReleaseSpelling(Layout layout, TritonVersion version) {
  if (version != TritonVersion::k3_6_0) return layout;
  if (const auto* t = layout.get<TensorMemoryLayout>()) {
    if (!t->legacy_split && t->cga.empty() && !t->fp4_padded) {
      TensorMemoryLayout old = *t;
      old.legacy_split = true;
      return Layout(old);
    }
  }
  if (const auto* t = layout.get<TensorMemoryScalesLayout>()) {
    if (!t->legacy_split && t->cga.empty() && !t->k_then_mn) {
      TensorMemoryScalesLayout old = *t;
      old.legacy_split = true;
      return Layout(old);
    }
  }
  return layout;
}

absl::Status Missing(absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat("a check needs ", what));
}

// An optional count key: absent or null is unset.
absl::StatusOr<std::optional<int>> CountKey(const JsonValue& v,
                                            absl::string_view key) {
  const JsonValue* x = v.Find(key);
  if (x == nullptr || x->kind == JsonValue::Kind::kNull) {
    return std::optional<int>();
  }
  if (!x->is_integer || x->integer < 1 || x->integer > kMaxCount) {
    return Missing(absl::StrCat("\"", key, "\" from 1 to 2^20"));
  }
  return std::optional<int>(static_cast<int>(x->integer));
}

}  // namespace

LayoutCheck CheckLayout(const LayoutCheckRequest& request) {
  LayoutCheck c;
  absl::StatusOr<Layout> named = ParseLayout(request.layout);
  if (!named.ok()) {
    c.status = named.status();
    return c;
  }
  c.kind = named->kind_name();
  c.ttgir = PrintLayout(*named);
  named = InReleaseSpelling(*std::move(named), request.triton);
  LayoutUse use;
  use.shape = request.shape;
  use.memdesc = request.memdesc;
  use.threads_per_warp = request.threads_per_warp;
  const int bits = ElementBits(request.element);
  use.element_bits = bits == 0 ? 32 : bits;
  use.num_ctas = static_cast<int>(
      request.num_ctas.has_value() ? *request.num_ctas : NumCtas(*named));
  use.num_warps = WarpsOf(*named, request);
  absl::StatusOr<LinearLayout> ll = LayoutForUse(*named, use);
  c.status = ll.status();
  if (!ll.ok()) return c;
  c.layout = *std::move(ll);
  if (const auto* t = named->get<TensorMemoryLayout>();
      t != nullptr && request.memdesc) {
    const int64_t columns = TensorMemoryColumnsPerCta(*t, use);
    if (columns > kTensorMemoryColumns) {
      std::string per_buffer;
      if (use.shape.size() == 3) {
        LayoutUse one = use;
        one.shape.erase(one.shape.begin());
        per_buffer = absl::StrCat(" (", TensorMemoryColumnsPerCta(*t, one),
                                  " a buffer)");
      }
      c.notes.push_back(absl::StrCat(
          "the allocation takes ", columns,
          " 32-bit columns of tensor memory per CTA", per_buffer,
          ", and a CTA has ", kTensorMemoryColumns,
          " (128 lanes x 512 columns of 32 bits): it cannot be allocated"));
    }
  }
  return c;
}

absl::StatusOr<LayoutCheckRequest> LayoutCheckRequestFromJson(
    const JsonValue& v) {
  if (!v.is_object()) return Missing("a JSON object per line");
  LayoutCheckRequest r;
  const JsonValue* layout = v.Find("layout");
  if (layout == nullptr || !layout->is_string()) {
    return Missing("\"layout\" (TTGIR text)");
  }
  r.layout = layout->string;
  const JsonValue* shape = v.Find("shape");
  if (shape == nullptr || !shape->is_array() || shape->array.empty()) {
    return Missing("\"shape\" (an array of sizes)");
  }
  for (const JsonValue& d : shape->array) {
    if (!d.is_integer || d.integer < 1 || d.integer > kMaxSize) {
      return Missing("\"shape\" sizes from 1 to 2^40");
    }
    r.shape.push_back(d.integer);
  }
  if (const JsonValue* e = v.Find("element")) {
    if (!e->is_string()) return Missing("\"element\" as a string");
    r.element = e->string;
  }
  if (const JsonValue* m = v.Find("memdesc")) r.memdesc = m->boolean;
  absl::StatusOr<std::optional<int>> tpw = CountKey(v, "threads_per_warp");
  if (!tpw.ok()) return tpw.status();
  if (tpw->has_value()) r.threads_per_warp = **tpw;
  absl::StatusOr<std::optional<int>> warps = CountKey(v, "num_warps");
  if (!warps.ok()) return warps.status();
  r.num_warps = *warps;
  absl::StatusOr<std::optional<int>> ctas = CountKey(v, "num_ctas");
  if (!ctas.ok()) return ctas.status();
  r.num_ctas = *ctas;
  if (const JsonValue* t = v.Find("triton")) {
    absl::StatusOr<TritonVersion> version =
        t->is_string() ? TritonVersionNamed(t->string)
                       : Missing("\"triton\" as a string (\"3.6.0\")");
    if (!version.ok()) return version.status();
    r.triton = *version;
  }
  return r;
}

}  // namespace hlolayout::triton
