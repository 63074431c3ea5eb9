#include "hlolayout/answers/triton.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "hlolayout/answers/cute_bridge.h"
#include "hlolayout/cute/print.h"
#include "hlolayout/triton/cvt_cost.h"
#include "hlolayout/util/check.h"

namespace hlolayout::triton {
namespace {

std::vector<CvtInstr> InstrsOf(const std::vector<SmemInstr>& instrs) {
  std::vector<CvtInstr> out;
  for (const SmemInstr& i : instrs) out.push_back({i.instr, i.bits, i.count});
  return out;
}

CvtTargetRow RowOf(const std::string& target, const CvtCost& cost) {
  CvtTargetRow r;
  r.target = target;
  r.scratch_bytes = cost.scratch_bytes;
  if (!cost.smem.has_value()) {
    // Registers and shuffles use no shared memory; a cross-CTA conversion
    // does, but its instructions are not modelled (null).
    if (cost.kind != CvtKind::kCrossCta) {
      r.stores.emplace();
      r.loads.emplace();
    }
    return r;
  }
  r.reps = cost.smem->reps;
  r.stores = InstrsOf(cost.smem->stores);
  r.loads = InstrsOf(cost.smem->loads);
  r.store_ways = cost.smem->store_ways;
  r.load_ways = cost.smem->load_ways;
  if (!cost.smem->empirical.empty()) r.empirical = cost.smem->empirical;
  return r;
}

}  // namespace

BasesByInDim BasesOf(const LinearLayout& l) {
  BasesByInDim out;
  for (int d = 0; d < l.num_in_dims(); ++d) {
    std::vector<std::vector<int64_t>> bases;
    for (int i = 0; i < l.InDimSizeLog2(d); ++i) {
      auto b = l.Basis(d, i);
      bases.emplace_back(b.begin(), b.end());
    }
    out.emplace_back(l.in_dim_name(d), std::move(bases));
  }
  return out;
}

absl::StatusOr<TritonCvtAnswer> AnswerCvt(
    const GivenLayout& src, const GivenLayout& dst, int bits,
    TritonVersion version, bool version_given,
    const std::vector<std::string>& targets) {
  HLOLAYOUT_CHECK(!targets.empty());
  TritonCvtAnswer a;
  std::optional<CvtCost> first;
  for (const std::string& name : targets) {
    absl::StatusOr<CvtTarget> target = CvtTargetNamed(name, version);
    HLOLAYOUT_CHECK(target.ok()) << target.status();
    absl::StatusOr<CvtCost> cost =
        ConvertLayoutCost(src.layout, dst.layout, bits, *target);
    if (!cost.ok()) return cost.status();
    a.targets.push_back(RowOf(name, *cost));
    if (!first.has_value()) first = *std::move(cost);
  }
  a.src = src.text;
  a.dst = dst.text;
  for (const auto& od : src.layout.out_dims()) a.shape.push_back(od.second);
  a.bits = bits;
  a.triton = std::string(TritonVersionName(version));
  a.kind = std::string(CvtKindName(first->kind));
  a.scratch_bytes = first->scratch_bytes;
  a.map = BasesOf(first->map);
  a.map_str = first->map.ToString();
  if (first->mixed_transpositions.has_value()) {
    a.mixed_transpositions = *first->mixed_transpositions;
  }
  a.version_given = version_given;
  a.nothing_moves = first->map.OutDimNames().empty();
  return a;
}

OutDimSizes OutDimSizesOf(const LinearLayout& l) {
  OutDimSizes out;
  for (const auto& [name, size] : l.out_dims()) out.emplace_back(name, size);
  return out;
}

namespace {

std::optional<std::string> FormOf(const absl::StatusOr<std::string>& form,
                                  std::string* why_none) {
  if (form.ok()) return *form;
  *why_none = std::string(form.status().message());
  return std::nullopt;
}

std::optional<std::string> UnlessEmpty(const std::string& s) {
  if (s.empty()) return std::nullopt;
  return s;
}

// The CuTe form: in-dims as modes, the flattened out-dims (dim0 fastest,
// CuTe's column-major convention) as the index.
absl::StatusOr<std::string> CuteForm(const LinearLayout& l) {
  absl::StatusOr<cute::Layout> c = LinearToCute(l);
  if (!c.ok()) return c.status();
  return cute::ToString(*c);
}

}  // namespace

TritonExplainAnswer AnswerExplain(GivenLayout given, int bits) {
  const LayoutExplanation e = ExplainLayout(std::move(given), bits);
  const LinearLayout& ll = e.given.layout;
  TritonExplainAnswer a;
  a.layout = e.given.text;
  a.as_read = UnlessEmpty(e.given.as_read);
  a.kind = e.given.kind;
  a.shape = e.shape;
  a.bases = BasesOf(ll);
  a.out_dims = OutDimSizesOf(ll);
  a.str = ll.ToString();
  a.linear = e.linear;
  a.padding = UnlessEmpty(e.padding);
  a.injective = ll.IsInjective();
  a.surjective = ll.IsSurjective();
  a.invertible = ll.IsInvertible();
  for (const auto& [name, mask] : e.masks) {
    a.free_variable_masks.emplace_back(name, mask);
  }
  a.consecutive = e.consecutive;
  a.cute = FormOf(CuteForm(ll), &a.cute_none);
  a.xla = FormOf(e.xla_form, &a.xla_none);
  std::string views_none;
  a.view = FormOf(e.view, &views_none);
  std::string unused;
  a.view_hw = FormOf(e.view_hw, &unused);
  if (IsDistributedLayout(ll) || IsSharedLayout(ll)) a.views_none = views_none;
  a.first_in_dim = ll.num_in_dims() ? ll.in_dim_name(0) : std::string("none");
  return a;
}

TritonCheckAnswer AnswerCheck(const LayoutCheckRequest& request) {
  const LayoutCheck check = CheckLayout(request);
  TritonCheckAnswer a;
  a.ok = check.status.ok();
  a.kind = UnlessEmpty(check.kind);
  a.ttgir = UnlessEmpty(check.ttgir);
  a.shape = request.shape;
  if (a.ok) {
    a.bases = BasesOf(check.layout);
    a.out_dims = OutDimSizesOf(check.layout);
  } else {
    a.error = std::string(check.status.message());
  }
  if (!check.notes.empty()) a.notes = check.notes;
  a.type = absl::StrCat(request.memdesc ? "!ttg.memdesc<" : "tensor<",
                        absl::StrJoin(request.shape, "x"), "x", request.element,
                        ">");
  a.threads_per_warp = request.threads_per_warp;
  a.str = check.layout.ToString();
  return a;
}

}  // namespace hlolayout::triton
