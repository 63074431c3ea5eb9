#include "hlolayout/triton/cvt_report.h"

#include <algorithm>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "hlolayout/triton/cvt_target.h"

namespace hlolayout::triton {

absl::StatusOr<std::vector<std::string>> CvtTargetsFlag(absl::string_view flag,
                                                        int lanes) {
  std::vector<std::string> out;
  if (flag.empty()) {
    out.push_back(lanes == 64 ? "hip:gfx942" : std::string(kDefaultCvtTarget));
    return out;
  }
  if (flag == "all") {
    for (const std::string& name : ModelledCvtTargets()) {
      if (CvtTargetNamed(name)->warp_size == lanes) {
        out.push_back(name);
      }
    }
    if (out.empty()) {
      return absl::NotFoundError(absl::StrCat(
          "no modelled target has ", lanes, "-lane warps (the layouts have)"));
    }
    return out;
  }
  for (absl::string_view part : absl::StrSplit(flag, ',')) {
    absl::StatusOr<CvtTarget> t = CvtTargetNamed(part);
    if (!t.ok()) return t.status();
    out.push_back(t->name);
  }
  return out;
}

std::string SmemInstrsText(const std::vector<SmemInstr>& instrs) {
  std::vector<std::string> parts;
  for (const SmemInstr& i : instrs) {
    parts.push_back(absl::StrCat(i.count, " x ", i.instr, " ", i.bits, "-bit"));
  }
  return parts.empty() ? "-" : absl::StrJoin(parts, ", ");
}

std::string BankConflictsText(const SmemRoundTrip& r) {
  if (r.store_ways == 1 && r.load_ways == 1) return "none";
  return absl::StrCat("stores ", r.store_ways, "-way, loads ", r.load_ways,
                      "-way");
}

std::string CvtCostTable(const std::vector<TargetCost>& rows) {
  std::vector<std::vector<std::string>> cells = {
      {"target", "scratch", "rounds", "stores per thread", "loads per thread",
       "bank conflicts"}};
  for (const TargetCost& r : rows) {
    const CvtCost& c = r.cost;
    if (!c.smem.has_value()) {
      const std::string none =
          c.kind == CvtKind::kCrossCta ? "not modelled" : "-";
      cells.push_back({r.target, absl::StrCat(c.scratch_bytes, " B"), "-", none,
                       none, "-"});
      continue;
    }
    cells.push_back({r.target, absl::StrCat(c.scratch_bytes, " B"),
                     absl::StrCat(c.smem->reps), SmemInstrsText(c.smem->stores),
                     SmemInstrsText(c.smem->loads) +
                         (c.smem->empirical.empty() ? "" : " (empirical)"),
                     BankConflictsText(*c.smem)});
  }
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
  for (const TargetCost& r : rows) {
    if (r.cost.smem.has_value() && !r.cost.smem->empirical.empty()) {
      absl::StrAppend(&out, "empirical (", r.target,
                      "): ", r.cost.smem->empirical, "\n");
    }
  }
  return out;
}

namespace {

void InstrsJson(const std::vector<SmemInstr>& instrs, JsonWriter& json) {
  json.BeginArray();
  for (const SmemInstr& i : instrs) {
    json.BeginObject();
    json.Key("instr").String(i.instr);
    json.Key("bits").Int(i.bits);
    json.Key("count").Int(i.count);
    json.EndObject();
  }
  json.EndArray();
}

}  // namespace

void CvtTargetJson(const std::string& target, const CvtCost& cost,
                   JsonWriter& json) {
  json.Key("target").String(target);
  json.Key("scratch_bytes").Int(cost.scratch_bytes);
  if (!cost.smem.has_value()) {
    // Registers and shuffles use no shared memory; a cross-CTA conversion
    // does, but its instructions are not modelled (null).
    const bool none = cost.kind != CvtKind::kCrossCta;
    json.Key("reps").Null();
    json.Key("stores");
    none ? json.BeginArray().EndArray() : json.Null();
    json.Key("loads");
    none ? json.BeginArray().EndArray() : json.Null();
    json.Key("store_ways").Null();
    json.Key("load_ways").Null();
    json.Key("empirical").Null();
    return;
  }
  json.Key("reps").Int(cost.smem->reps);
  json.Key("stores");
  InstrsJson(cost.smem->stores, json);
  json.Key("loads");
  InstrsJson(cost.smem->loads, json);
  json.Key("store_ways").Int(cost.smem->store_ways);
  json.Key("load_ways").Int(cost.smem->load_ways);
  json.Key("empirical");
  cost.smem->empirical.empty() ? json.Null()
                               : json.String(cost.smem->empirical);
}

}  // namespace hlolayout::triton
