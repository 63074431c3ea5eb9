#include "hlolayout/views/triton_text.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "hlolayout/triton/ops.h"

namespace hlolayout::triton {
namespace {

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

absl::string_view YesNo(bool b) { return b ? "yes" : "no"; }

std::string OutputsOf(const LinearLayout& l, const AppliedTable& t, int64_t x) {
  std::vector<std::string> parts;
  for (int o = 0; o < l.num_out_dims(); ++o) {
    parts.push_back(absl::StrCat(l.out_dim_name(o), "=", t.outs[o][x]));
  }
  return absl::StrJoin(parts, ",");
}

}  // namespace

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

std::string AppliedText(const LinearLayout& l, const AppliedTable& t) {
  if (!t.inputs.any_range) return OutputsOf(l, t, 0) + "\n";
  std::string text;
  const NamedInts& names = t.inputs.names;
  for (int64_t x = 0; x < t.rows; ++x) {
    for (size_t k = 0; k < names.size(); ++k) {
      absl::StrAppend(&text, k == 0 ? "" : ",", names[k].first, "=",
                      t.ins[l.InDimIndex(names[k].first)][x]);
    }
    absl::StrAppend(&text, " -> ", OutputsOf(l, t, x), "\n");
  }
  return text;
}

std::string FreeMasksText(const LinearLayout& l) {
  std::vector<std::string> parts;
  for (const auto& [name, v] : FreeVariableMasks(l)) {
    parts.push_back(absl::StrCat(name, "=0x", absl::Hex(v)));
  }
  return absl::StrJoin(parts, ",") + "\n";
}

}  // namespace hlolayout::triton
