#include "hlolayout/views/ttmlir_text.h"

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "hlolayout/ttmlir/explain.h"
#include "hlolayout/ttmlir/metal_layout.h"

namespace hlolayout::grid {
namespace {

std::string Commas(absl::Span<const int64_t> v) {
  return absl::StrJoin(v, ",");
}

}  // namespace

std::string ExplainText(const GridAnalysis& a) {
  if (a.ttnn) return FormatTtnnExplanation(a);
  if (a.metal) return FormatMetalExplanation(a);
  return FormatGridExplanation(ExplainGridLayout(*a.text.seed));
}

absl::StatusOr<std::string> LocateText(const GridAnalysis& a,
                                       absl::Span<const int64_t> index) {
  if (a.ttnn) {
    absl::StatusOr<TtnnAttrLocation> loc = a.ttnn->Locate(index);
    if (!loc.ok()) return loc.status();
    return FormatTtnnLocation(*a.ttnn, index, *loc);
  }
  if (a.metal) {
    absl::StatusOr<MetalLocation> loc = a.metal->Locate(index);
    if (!loc.ok()) return loc.status();
    return FormatMetalLocation(*a.metal, index, *loc);
  }
  absl::StatusOr<ElementLocation> loc = a.text.seed->TryLocate(index);
  if (!loc.ok()) return loc.status();
  return FormatElementLocation(*a.text.seed, index, *loc);
}

absl::StatusOr<std::string> LocateAnswer(const grid::GridAnalysis& a,
                                         absl::Span<const int64_t> index) {
  std::vector<std::string> parts;
  if (a.ttnn) {
    absl::StatusOr<grid::TtnnAttrLocation> loc = a.ttnn->Locate(index);
    if (!loc.ok()) return loc.status();
    if (!loc->shard.empty()) {
      parts.push_back(absl::StrCat("shard=", Commas(loc->shard)));
      parts.push_back(absl::StrCat("offset=", Commas(loc->offset)));
    }
    if (!loc->tile.empty()) {
      parts.push_back(absl::StrCat("tile=", Commas(loc->tile)));
      parts.push_back(absl::StrCat("in_tile=", Commas(loc->in_tile)));
    }
    if (loc->core) {
      parts.push_back(absl::StrCat("core=", loc->core->x, ",", loc->core->y));
    }
    if (loc->page) parts.push_back(absl::StrCat("page=", *loc->page));
    if (loc->dram_bank) {
      parts.push_back(absl::StrCat("dram_bank=", *loc->dram_bank));
    }
  } else {
    absl::StatusOr<grid::MetalLocation> loc = a.metal->Locate(index);
    if (!loc.ok()) return loc.status();
    parts.push_back(absl::StrCat("shard=", Commas(loc->shard)));
    parts.push_back(absl::StrCat("offset=", Commas(loc->offset)));
    if (!loc->offset_tile.empty()) {
      parts.push_back(absl::StrCat("offset_tile=", Commas(loc->offset_tile)));
    }
    if (loc->core) {
      parts.push_back(absl::StrCat("core=", loc->core->x, ",", loc->core->y));
    }
  }
  return absl::StrJoin(parts, " ");
}

std::string FormatGridReport(const GridReport& r) {
  std::string out = absl::StrCat(
      "file: ", r.file, "\n", r.types.size(), " tensor types with a layout (",
      r.sections, r.sections == 1 ? " section, " : " sections, ", r.aliases,
      " alias definitions): ", r.counts.ok, " as written, ", r.counts.warned,
      " with warnings, ", r.counts.refused, " refused, ", r.counts.unread,
      " unread\n");
  for (const GridReportType& t : r.types) {
    absl::StrAppend(&out, "\n", t.number, ". line ", t.line, ": ", t.written,
                    t.uses > 1 ? absl::StrCat(" (", t.uses, " uses)") : "",
                    "\n");
    if (t.status == "unread") {
      absl::StrAppend(&out, "   not read: ", t.error.value_or(""), "\n");
      continue;
    }
    if (t.status == "refused") {
      absl::StrAppend(&out, "   refused: ", t.error.value_or(""), "\n");
      continue;
    }
    absl::StrAppend(&out, "   ", *t.kind, ", ", t.summary, ", grid ",
                    grid::DimsToString(*t.grid), ": ", *t.memref,
                    t.status == "ok" ? " (as written)" : "", "\n");
    for (const std::string& w : t.warnings) {
      absl::StrAppend(&out, "   warning: ", w, "\n");
    }
  }
  return out;
}

}  // namespace hlolayout::grid
