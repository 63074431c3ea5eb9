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

absl::string_view KindGloss(const TritonCvtAnswer& a) {
  if (a.kind == "registers") {
    return a.nothing_moves ? " (the same layout: nothing moves)"
                           : " (each thread permutes its registers)";
  }
  if (a.kind == "warp_shuffle") {
    return " (lanes exchange values inside each warp: shfl.sync, "
           "ds_bpermute)";
  }
  if (a.kind == "shared_memory") {
    return " (warps exchange values through a shared-memory scratch "
           "buffer)";
  }
  if (a.kind == "cross_cta") {
    return " (between CTAs through distributed shared memory)";
  }
  return "";
}

std::string InstrsText(const std::vector<CvtInstr>& instrs) {
  std::vector<std::string> parts;
  for (const CvtInstr& i : instrs) {
    parts.push_back(absl::StrCat(i.count, " x ", i.instr, " ", i.bits, "-bit"));
  }
  return parts.empty() ? "-" : absl::StrJoin(parts, ", ");
}

std::string ConflictsText(const CvtTargetRow& r) {
  if (*r.store_ways == 1 && *r.load_ways == 1) return "none";
  return absl::StrCat("stores ", *r.store_ways, "-way, loads ", *r.load_ways,
                      "-way");
}

std::vector<std::string> RowCells(const CvtTargetRow& r) {
  if (!r.reps.has_value()) {
    const std::string none = r.stores.has_value() ? "-" : "not modelled";
    return {r.target, absl::StrCat(r.scratch_bytes, " B"), "-", none, none,
            "-"};
  }
  return {
      r.target,
      absl::StrCat(r.scratch_bytes, " B"),
      absl::StrCat(*r.reps),
      InstrsText(*r.stores),
      InstrsText(*r.loads) + (r.empirical.has_value() ? " (empirical)" : ""),
      ConflictsText(r)};
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

std::string CvtCostTable(const std::vector<CvtTargetRow>& rows) {
  std::vector<std::vector<std::string>> cells = {
      {"target", "scratch", "rounds", "stores per thread", "loads per thread",
       "bank conflicts"}};
  for (const CvtTargetRow& r : rows) cells.push_back(RowCells(r));
  std::vector<size_t> width(cells[0].size(), 0);
  for (const auto& row : cells) {
    for (size_t i = 0; i < row.size(); ++i) {
      width[i] = std::max(width[i], row[i].size());
    }
  }
  std::string out;
  for (const auto& row : cells) {
    std::string line;
    for (size_t i = 0; i < row.size(); ++i) {
      absl::StrAppend(&line, row[i]);
      if (i + 1 < row.size()) {
        line.append(width[i] - row[i].size() + 2, ' ');
      }
    }
    absl::StrAppend(&out, line, "\n");
  }
  for (const CvtTargetRow& r : rows) {
    if (r.empirical.has_value()) {
      absl::StrAppend(&out, "empirical (", r.target, "): ", *r.empirical, "\n");
    }
  }
  return out;
}

std::string CvtText(const TritonCvtAnswer& a) {
  return absl::StrCat(
      "convert_layout of ", absl::StrJoin(a.shape, "x"), " (", a.bits,
      "-bit elements)\n", "  from ", a.src, "\n", "  to   ", a.dst, "\n",
      "kind: ", a.kind, KindGloss(a),
      "\nminimal conversion (for each hardware position of DST, where "
      "SRC holds its element; dims it leaves alone removed):",
      a.map_str, "\n", "figures: Triton ", a.triton, "'s rules",
      a.version_given ? " (--triton)"
                      : " (the newest modelled; --triton 3.6.0 for another)",
      "\n", CvtCostTable(a.targets));
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

absl::string_view YesNo(bool b) { return b ? "yes" : "no"; }

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

std::string ExplainText(const TritonExplainAnswer& a) {
  std::string out = absl::StrCat("layout: ", a.layout, "\n");
  // What was read, where it differs from what was written (defaults filled
  // in, keys Triton ignores left out).
  if (a.as_read.has_value() && *a.as_read != a.layout) {
    absl::StrAppend(&out, "as read: ", *a.as_read, "\n");
  }
  absl::StrAppend(&out, "kind: ", a.kind, ", shape ",
                  absl::StrJoin(a.shape, "x"), "\n",
                  "linear layout (Triton's str):", a.str, "\n");
  if (a.padding.has_value())
    absl::StrAppend(&out, "padding: ", *a.padding, "\n");
  if (a.linear.has_value())
    absl::StrAppend(&out, "as TTGIR: ", *a.linear, "\n");
  absl::StrAppend(&out, "injective: ", YesNo(a.injective),
                  ", surjective: ", YesNo(a.surjective),
                  ", invertible: ", YesNo(a.invertible), "\n");
  out += "free variables (input bits that do not change the element):";
  for (const auto& [name, mask] : a.free_variable_masks) {
    absl::StrAppend(&out, " ", name, "=0x", absl::Hex(mask));
  }
  absl::StrAppend(
      &out, "\nconsecutive elements of the first in-dim (", a.first_in_dim,
      ", row-major): ", a.consecutive, "\n",
      "CuTe (in-dims as modes -> index, dim0 fastest): ",
      a.cute.has_value() ? *a.cute : absl::StrCat("none (", a.cute_none, ")"),
      "\n", "XLA (offset -> index): ",
      a.xla.has_value() ? *a.xla : absl::StrCat("none (", a.xla_none, ")"),
      a.xla.has_value() && a.padding.has_value()
          ? " (of the linear component; XLA has no padding every N elements)"
          : "",
      "\n");
  if (a.view.has_value()) {
    absl::StrAppend(&out, "\nview:\n", *a.view, "\nhardware view:\n",
                    a.view_hw.value_or(""));
  } else if (!a.views_none.empty()) {
    absl::StrAppend(&out, "views: ", a.views_none, "\n");
  }
  return out;
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

std::string CheckText(const TritonCheckAnswer& a) {
  std::string out = absl::StrCat("accepted: ", a.ttgir.value_or(""), "\n",
                                 "on ", a.type, " in a module of ",
                                 a.threads_per_warp, " threads per warp\n",
                                 "linear layout (Triton's str):", a.str, "\n");
  if (a.notes.has_value()) {
    for (const std::string& n : *a.notes)
      absl::StrAppend(&out, "note: ", n, "\n");
  }
  return out;
}

}  // namespace hlolayout::triton
