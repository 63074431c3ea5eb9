#include "hlolayout/views/ttmlir_text.h"

#include <cstdint>
#include <string>
#include <variant>
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

std::string LocateBatchText(const LocationAnswer& answer) {
  std::vector<std::string> parts;
  if (const auto* l = std::get_if<TtnnLayoutLocation>(&answer)) {
    if (l->shard) {
      parts.push_back(absl::StrCat("shard=", Commas(*l->shard)));
      parts.push_back(absl::StrCat("offset=", Commas(*l->offset)));
    }
    if (l->tile) {
      parts.push_back(absl::StrCat("tile=", Commas(*l->tile)));
      parts.push_back(absl::StrCat("in_tile=", Commas(*l->in_tile)));
    }
    if (l->core) {
      parts.push_back(absl::StrCat("core=", (*l->core)[0], ",", (*l->core)[1]));
    }
    if (l->page) parts.push_back(absl::StrCat("page=", *l->page));
    if (l->dram_bank) {
      parts.push_back(absl::StrCat("dram_bank=", *l->dram_bank));
    }
  } else if (const auto* m = std::get_if<MetalLayoutLocation>(&answer)) {
    parts.push_back(absl::StrCat("shard=", Commas(m->shard)));
    parts.push_back(absl::StrCat("offset=", Commas(m->offset)));
    if (m->offset_tile) {
      parts.push_back(absl::StrCat("offset_tile=", Commas(*m->offset_tile)));
    }
    if (m->core) {
      parts.push_back(absl::StrCat("core=", (*m->core)[0], ",", (*m->core)[1]));
    }
  } else {
    const SeedLayoutLocation& s = std::get<SeedLayoutLocation>(answer);
    parts.push_back(absl::StrCat("core=", Commas(s.core)));
    parts.push_back(absl::StrCat("offset=", Commas(s.offset)));
    if (s.tile) {
      parts.push_back(absl::StrCat("tile=", Commas(*s.tile)));
      parts.push_back(absl::StrCat("in_tile=", Commas(*s.in_tile)));
    }
  }
  return absl::StrJoin(parts, " ");
}

std::string ShardBatchText(const GridAnalysis& a) {
  if (a.ttnn) return DimsToString(a.ttnn->memref_shape());
  if (a.metal) return DimsToString(a.metal->shard_shape_units());
  return DimsToString(a.text.seed->memref_shape());
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
