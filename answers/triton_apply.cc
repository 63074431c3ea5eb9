#include "hlolayout/answers/triton_apply.h"

#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "hlolayout/triton/evaluator.h"
#include "hlolayout/triton/ops.h"
#include "hlolayout/util/fields.h"

namespace hlolayout::triton {
namespace {

bool FitsInt32(int64_t v) {
  return v >= std::numeric_limits<int32_t>::min() &&
         v <= std::numeric_limits<int32_t>::max();
}

// "dim0=0,dim1=4": the outputs of row `x`.
}  // namespace

absl::StatusOr<ApplyInputs> ParseApplyInputs(const LinearLayout& l,
                                             absl::string_view text) {
  ApplyInputs in;
  for (absl::string_view part : absl::StrSplit(text, ',')) {
    std::pair<absl::string_view, absl::string_view> kv =
        absl::StrSplit(part, absl::MaxSplits('=', 1));
    int64_t lo = 0, hi = 0;
    const int d = l.InDimIndex(kv.first);
    bool ok = !kv.first.empty();
    if (kv.second == "*" && d >= 0) {
      hi = l.InDimSize(d) - 1;
      in.any_range = true;
    } else if (absl::StrContains(kv.second, "..")) {
      std::pair<absl::string_view, absl::string_view> range =
          absl::StrSplit(kv.second, absl::MaxSplits("..", 1));
      ok = ok && absl::SimpleAtoi(range.first, &lo) &&
           absl::SimpleAtoi(range.second, &hi) && lo <= hi && FitsInt32(lo) &&
           FitsInt32(hi);
      in.any_range = true;
    } else {
      ok = ok && absl::SimpleAtoi(kv.second, &lo) && FitsInt32(lo);
      hi = lo;
    }
    if (!ok) {
      return absl::InvalidArgumentError(absl::StrCat(
          "bad input '", part, "' (expected IN=VALUE, IN=LO..HI or IN=*)"));
    }
    in.names.emplace_back(std::string(kv.first), 0);
    in.ranges.emplace_back(lo, hi);
  }
  return in;
}

absl::StatusOr<AppliedTable> ApplyOverInputs(const LinearLayout& l,
                                             ApplyInputs inputs) {
  // Triton's checks of the names (each in-dim, no other).
  if (absl::Status s = l.Apply(inputs.names).status(); !s.ok()) return s;
  int64_t n = 1;
  for (const auto& [lo, hi] : inputs.ranges) {
    const int64_t count = hi - lo + 1;
    if (count > kMaxAppliedInputs || n * count > kMaxAppliedInputs) {
      return absl::OutOfRangeError(absl::StrCat("more than ", kMaxAppliedInputs,
                                                " inputs; narrow the ranges"));
    }
    n *= count;
  }
  AppliedTable t;
  t.rows = n;
  t.ins.assign(l.num_in_dims(), std::vector<int32_t>(n));
  int64_t stride = 1;
  for (size_t k = 0; k < inputs.ranges.size(); ++k) {
    const auto [lo, hi] = inputs.ranges[k];
    const int64_t count = hi - lo + 1;
    std::vector<int32_t>& col = t.ins[l.InDimIndex(inputs.names[k].first)];
    for (int64_t x = 0; x < n; ++x) {
      col[x] = static_cast<int32_t>(lo + (x / stride) % count);
    }
    stride *= count;
  }
  t.outs.assign(l.num_out_dims(), std::vector<int32_t>(n));
  std::vector<const int32_t*> in_ptrs;
  std::vector<int32_t*> out_ptrs;
  for (const auto& c : t.ins) in_ptrs.push_back(c.data());
  for (auto& o : t.outs) out_ptrs.push_back(o.data());
  ApplyBatch(l, in_ptrs, out_ptrs, n);
  t.inputs = std::move(inputs);
  return t;
}

std::vector<AppliedRow> AppliedRows(const LinearLayout& l,
                                    const AppliedTable& t) {
  std::vector<AppliedRow> rows;
  for (int64_t x = 0; x < t.rows; ++x) {
    AppliedRow r;
    for (const auto& [name, unused] : t.inputs.names) {
      r.in.emplace_back(name, t.ins[l.InDimIndex(name)][x]);
    }
    for (int o = 0; o < l.num_out_dims(); ++o) {
      r.out.emplace_back(l.out_dim_name(o), t.outs[o][x]);
    }
    rows.push_back(std::move(r));
  }
  return rows;
}

std::string AppliedJson(const LinearLayout& l, const AppliedTable& t) {
  if (!t.inputs.any_range) {
    return NamedValuesJson(AppliedRows(l, t).front().out) + "\n";
  }
  return AnswerJson(AppliedRows(l, t)) + "\n";
}

std::string FreeMasksJson(const LinearLayout& l) {
  return NamedValuesJson(FreeVariableMasks(l)) + "\n";
}

}  // namespace hlolayout::triton
