// XLA's two text dumps of a buffer assignment (memory/buffer_assignment.h;
// docs/memory.md, "XLA's buffer assignment files"): `*-buffer-assignment.txt`
// (BufferAssignment::ToString) and `*-memory-usage-report.txt`
// (BufferAssignment::MemoryUsageReport).
#include "hlolayout/views/buffer_assignment_text.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "hlolayout/memory/buffer_assignment.h"
#include "hlolayout/memory/tpu_chip.h"

namespace hlolayout {
namespace {

// One line of the usage report's table: the values at one offset.
struct Group {
  int64_t offset = 0;
  int64_t size = 0;
  int64_t last_id = -1;  // the largest id of its values
  std::vector<const AssignedValue*> values;
};

void AppendAllocationReport(const BufferAllocation& a, std::string* out) {
  absl::StrAppend(out,
                  "  cumulative_size;       size;       offset; "
                  "used_by_n_values; shapes_list\n  ",
                  std::string(60, '-'), "\n");
  std::map<int64_t, Group> by_offset;
  for (const AssignedValue& v : a.values) {
    Group& g = by_offset[v.offset];
    g.offset = v.offset;
    g.size = std::max(g.size, v.size);
    g.last_id = std::max(g.last_id, v.id);
    g.values.push_back(&v);
  }
  std::vector<Group> groups;
  int64_t total = 0;
  for (auto& entry : by_offset) {
    total += entry.second.size;
    groups.push_back(std::move(entry.second));
  }
  std::stable_sort(groups.begin(), groups.end(),
                   [](const Group& x, const Group& y) {
                     if (x.size != y.size) return x.size > y.size;
                     return x.last_id < y.last_id;
                   });
  int64_t cumulative = 0;
  for (size_t k = 0; k < groups.size(); ++k) {
    const Group& g = groups[k];
    cumulative += g.size;
    // Distinct shapes, counted, by (count, text).
    std::map<std::string, int64_t> counts;
    for (const AssignedValue* v : g.values) {
      ++counts[v->shape != nullptr ? v->shape->ToString(false) : "?"];
    }
    std::vector<std::pair<int64_t, std::string>> shapes;
    for (const auto& [text, count] : counts) shapes.emplace_back(count, text);
    std::sort(shapes.begin(), shapes.end());
    std::string list;
    for (const auto& [count, text] : shapes) {
      if (!list.empty()) list += ", ";
      if (count > 1) absl::StrAppend(&list, count, "\xC3\x97");
      list += text;
    }
    // An allocation of 0 bytes (XLA:TPU's SparseCore tables, color 7):
    // XLA's 100.0 * 0 / 0 is x86's default NaN, its sign set, which printf
    // writes "-nan" (XLA:TPU's usage reports, v5p and v6e).
    const std::string percent =
        total == 0
            ? "-nan"
            : absl::StrFormat("%3.0f", 100.0 * static_cast<double>(cumulative) /
                                           static_cast<double>(total));
    absl::StrAppend(out,
                    absl::StrFormat("  %9s(%s%%); %10s; %12d; %16d; ",
                                    HumanReadableNumBytes(cumulative), percent,
                                    HumanReadableNumBytes(g.size), g.offset,
                                    g.values.size()),
                    list, "\n");
    // XLA's BufferAllocation::MemoryUsageReport: after the 50th group, stop
    // at the first one that leaves less than 5% of the total (compared in
    // float, as XLA's int64 * float does), with a line saying how many are
    // left out: "The rest 0 values ..." when that is the last group.
    if (k + 1 > 50 && static_cast<float>(total - cumulative) <
                          static_cast<float>(total) * 0.05f) {
      absl::StrAppend(out, "  The rest ", groups.size() - k - 1,
                      " values are less than 5% of the total size and not "
                      "shown.\n");
      break;
    }
  }
}

}  // namespace

std::string HumanReadableNumBytes(int64_t bytes) {
  if (bytes == std::numeric_limits<int64_t>::min()) return "-8E";
  const char* sign = bytes < 0 ? "-" : "";
  if (bytes < 0) bytes = -bytes;
  if (bytes < 1024) return absl::StrFormat("%s%dB", sign, bytes);
  static const char kUnits[] = "KMGTPE";
  const char* unit = kUnits;
  while (bytes >= int64_t{1024} * 1024) {
    bytes /= 1024;
    ++unit;
  }
  return *unit == 'K'
             ? absl::StrFormat("%s%.1f%ciB", sign, bytes / 1024.0, *unit)
             : absl::StrFormat("%s%.2f%ciB", sign, bytes / 1024.0, *unit);
}

std::string XlaBufferAssignmentText(const BufferAssignment& assignment) {
  std::string out = "BufferAssignment:\n";
  for (const BufferAllocation& a : assignment.allocations) {
    absl::StrAppend(&out, "allocation ", a.index, ": size ", a.size);
    if (a.color != 0) absl::StrAppend(&out, ", color ", a.color);
    // XLA:TPU's libtpu 0.0.42.1 writes no page (an older text).
    if (assignment.platform != XlaPlatform::kTpu) out += ", page 0";
    if (a.is_parameter) {
      absl::StrAppend(&out, ", parameter ", a.parameter_number, ", shape |",
                      a.parameter_shape != nullptr
                          ? a.parameter_shape->ToString(false)
                          : std::string("<unknown shape>"),
                      "| at ShapeIndex ", ShapeIndexString(a.parameter_index));
    }
    if (a.output_shape != nullptr) {
      absl::StrAppend(&out, ", output shape is |",
                      a.output_shape->ToString(false), "|");
    }
    if (a.is_constant) out += ", constant";
    if (a.is_thread_local) out += ", thread-local";
    if (a.maybe_live_out) out += ", maybe-live-out";
    if (a.is_temp()) out += ", preallocated-temp";
    out += ":\n";
    for (const AssignedValue& v : a.values) {
      absl::StrAppend(&out, " value: <", v.id, " ", v.name,
                      v.index_printed ? ShapeIndexString(v.index) : "",
                      v.is_phi ? " (phi)" : "", " @", a.color,
                      "> (size=", v.size, ",offset=", v.offset,
                      "): ", v.shape != nullptr ? v.shape->ToString(true) : "",
                      "\n");
    }
  }
  return out;
}

std::string XlaMemoryUsageReportText(const BufferAssignment& assignment) {
  std::map<int64_t, std::vector<const BufferAllocation*>> by_color;
  for (const BufferAllocation& a : assignment.allocations) {
    by_color[a.color].push_back(&a);
  }
  std::string out;
  for (auto& [color, allocations] : by_color) {
    int64_t total = 0;
    for (const BufferAllocation* a : allocations) total += a->size;
    absl::StrAppend(&out, "Memory Space: ", XlaTpuMemorySpaceName(color),
                    " (color=", color, ")\nTotal bytes: ", total, " (",
                    HumanReadableNumBytes(total), ")\n");
    std::stable_sort(allocations.begin(), allocations.end(),
                     [](const BufferAllocation* x, const BufferAllocation* y) {
                       if (x->size != y->size) return x->size > y->size;
                       return x->index < y->index;
                     });
    // After the 51st, the rest is left out once it is under 5% of the
    // total (XLA's dumps list 51 of 54, 63 and 66 allocations).
    int64_t listed = 0;
    for (size_t k = 0; k < allocations.size(); ++k) {
      AppendAllocationReport(*allocations[k], &out);
      out += "\n";
      listed += allocations[k]->size;
      if (k + 1 > 50 && static_cast<float>(total - listed) <
                            static_cast<float>(total) * 0.05f) {
        break;
      }
    }
    out += "\n";
  }
  return out;
}

}  // namespace hlolayout
