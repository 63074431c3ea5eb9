#include "hlolayout/triton/cvt_answer.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "hlolayout/triton/bases_json.h"
#include "hlolayout/util/check.h"
#include "hlolayout/util/json_writer.h"

namespace hlolayout::triton {
namespace {

std::vector<int64_t> ShapeOf(const LinearLayout& l) {
  std::vector<int64_t> shape;
  for (const auto& od : l.out_dims()) shape.push_back(od.second);
  return shape;
}

absl::string_view KindGloss(const CvtCost& c) {
  switch (c.kind) {
    case CvtKind::kRegisters:
      return c.map.OutDimNames().empty()
                 ? " (the same layout: nothing moves)"
                 : " (each thread permutes its registers)";
    case CvtKind::kWarpShuffle:
      return " (lanes exchange values inside each warp: shfl.sync, "
             "ds_bpermute)";
    case CvtKind::kSharedMemory:
      return " (warps exchange values through a shared-memory scratch "
             "buffer)";
    case CvtKind::kCrossCta:
      return " (between CTAs through distributed shared memory)";
  }
  return "";
}

}  // namespace

absl::StatusOr<CvtAnswer> MakeCvtAnswer(
    GivenLayout src, GivenLayout dst, int bits, TritonVersion version,
    bool version_given, const std::vector<std::string>& targets) {
  HLOLAYOUT_CHECK(!targets.empty());
  CvtAnswer a;
  a.bits = bits;
  a.version = version;
  a.version_given = version_given;
  for (const std::string& name : targets) {
    absl::StatusOr<CvtTarget> target = CvtTargetNamed(name, version);
    HLOLAYOUT_CHECK(target.ok()) << target.status();
    absl::StatusOr<CvtCost> cost =
        ConvertLayoutCost(src.layout, dst.layout, bits, *target);
    if (!cost.ok()) return cost.status();
    a.rows.push_back({name, *std::move(cost)});
  }
  a.src = std::move(src);
  a.dst = std::move(dst);
  return a;
}

std::string CvtAnswerJson(const CvtAnswer& a) {
  const CvtCost& first = a.rows[0].cost;
  JsonWriter json(/*pretty=*/true);
  json.BeginObject();
  json.Key("src").String(a.src.text);
  json.Key("dst").String(a.dst.text);
  json.Key("shape").IntArray(ShapeOf(a.src.layout));
  json.Key("bits").Int(a.bits);
  json.Key("triton").String(TritonVersionName(a.version));
  json.Key("kind").String(CvtKindName(first.kind));
  json.Key("scratch_bytes").Int(first.scratch_bytes);
  json.Key("map");
  WriteBasesObject(first.map, json);
  json.Key("map_str").String(first.map.ToString());
  json.Key("mixed_transpositions");
  first.mixed_transpositions ? json.Int(*first.mixed_transpositions)
                             : json.Null();
  json.Key("targets").BeginArray();
  for (const TargetCost& r : a.rows) {
    json.BeginObject();
    CvtTargetJson(r.target, r.cost, json);
    json.EndObject();
  }
  json.EndArray();
  json.EndObject();
  return json.str();
}

std::string CvtAnswerText(const CvtAnswer& a) {
  const CvtCost& first = a.rows[0].cost;
  return absl::StrCat(
      "convert_layout of ", absl::StrJoin(ShapeOf(a.src.layout), "x"), " (",
      a.bits, "-bit elements)\n", "  from ", a.src.text, "\n", "  to   ",
      a.dst.text, "\n", "kind: ", CvtKindName(first.kind), KindGloss(first),
      "\nminimal conversion (for each hardware position of DST, where "
      "SRC holds its element; dims it leaves alone removed):",
      first.map.ToString(), "\n", "figures: Triton ",
      TritonVersionName(a.version), "'s rules",
      a.version_given ? " (--triton)"
                      : " (the newest modelled; --triton 3.6.0 for another)",
      "\n", CvtCostTable(a.rows));
}

}  // namespace hlolayout::triton
