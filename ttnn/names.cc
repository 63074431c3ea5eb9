#include "hlolayout/ttnn/names.h"

#include <algorithm>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "hlolayout/ttnn/data_type.h"
#include "hlolayout/ttnn/memory_config.h"
#include "hlolayout/util/edit_distance.h"

namespace hlolayout::ttnn {

absl::string_view NameKindWords(NameKind kind) {
  switch (kind) {
    case NameKind::kDataType:
      return "dtype";
    case NameKind::kLayout:
      return "layout";
    case NameKind::kMemoryLayout:
      return "memory layout";
    case NameKind::kBufferType:
      return "buffer type";
    case NameKind::kOrientation:
      return "shard orientation";
    case NameKind::kDistribution:
      return "shard distribution strategy";
  }
  return "name";
}

std::vector<std::string> KnownNames(NameKind kind) {
  std::vector<std::string> out;
  switch (kind) {
    case NameKind::kDataType:
      for (DataType t : AllDataTypes()) out.emplace_back(DataTypeName(t));
      break;
    case NameKind::kLayout:
      for (Layout v : {Layout::kRowMajor, Layout::kTile}) {
        out.emplace_back(LayoutName(v));
      }
      break;
    case NameKind::kMemoryLayout:
      for (TensorMemoryLayout v : AllMemoryLayouts()) {
        out.emplace_back(MemoryLayoutName(v));
      }
      break;
    case NameKind::kBufferType:
      for (BufferType v : {BufferType::kDram, BufferType::kL1}) {
        out.emplace_back(BufferTypeName(v));
      }
      break;
    case NameKind::kOrientation:
      for (ShardOrientation v :
           {ShardOrientation::kRowMajor, ShardOrientation::kColMajor}) {
        out.emplace_back(OrientationName(v));
      }
      break;
    case NameKind::kDistribution:
      for (ShardDistributionStrategy v :
           {ShardDistributionStrategy::kRoundRobin1D,
            ShardDistributionStrategy::kGrid2D}) {
        out.emplace_back(DistributionName(v));
      }
      break;
  }
  return out;
}

namespace {

bool Known(NameKind kind, absl::string_view name) {
  switch (kind) {
    case NameKind::kDataType:
      return DataTypeFromName(name).has_value();
    case NameKind::kLayout:
      return LayoutFromName(name).has_value();
    case NameKind::kMemoryLayout:
      return MemoryLayoutFromName(name).has_value();
    case NameKind::kBufferType:
      return BufferTypeFromName(name).has_value();
    case NameKind::kOrientation:
      return OrientationFromName(name).has_value();
    case NameKind::kDistribution:
      return DistributionFromName(name).has_value();
  }
  return false;
}

// The name without the prefixes the FromName functions skip, for comparing
// with the known names ("ttnn.DataType.bfloat8" -> "bfloat8").
absl::string_view Bare(absl::string_view name) {
  const size_t dot = name.rfind('.');
  if (dot != absl::string_view::npos) name = name.substr(dot + 1);
  const size_t colons = name.rfind("::");
  if (colons != absl::string_view::npos) name = name.substr(colons + 2);
  return name;
}

}  // namespace

absl::Status CheckName(NameKind kind, absl::string_view name) {
  if (Known(kind, name)) return absl::OkStatus();
  const std::vector<std::string> known = KnownNames(kind);
  const absl::string_view bare = Bare(name);
  // Names the user's cuts short ("bfloat8" of "bfloat8_b"); else the
  // nearest misspellings, two edits at most.
  std::vector<std::string> near;
  for (const std::string& n : known) {
    if (bare.size() >= 3 && absl::StartsWithIgnoreCase(n, bare)) {
      near.push_back(absl::StrCat("'", n, "'"));
    }
  }
  int best = 3;
  for (const std::string& n : known) {
    best = std::min(best, EditDistance(bare, n, Case::kIgnore));
  }
  if (near.empty() && best <= 2) {
    for (const std::string& n : known) {
      if (EditDistance(bare, n, Case::kIgnore) == best) {
        near.push_back(absl::StrCat("'", n, "'"));
      }
    }
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "unknown ", NameKindWords(kind), " '", name, "'",
      near.empty()
          ? ""
          : absl::StrCat("; did you mean ", absl::StrJoin(near, " or "), "?"),
      " (", absl::StrJoin(known, ", "), ")"));
}

}  // namespace hlolayout::ttnn
