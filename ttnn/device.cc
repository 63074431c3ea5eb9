#include "hlolayout/ttnn/device.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "hlolayout/ttnn/refusal.h"

namespace hlolayout::ttnn {
namespace {

// What one bank (core) holds, for messages: "each core holds 2097152 bytes
// (1024 pages of 2048)".
std::string Holds(const TensorSpec& spec, absl::string_view where,
                  int64_t bytes) {
  const int64_t page = spec.AlignedPageSize(spec.page_alignment());
  return absl::StrCat("each ", where, " holds up to ", bytes, " bytes (",
                      bytes / page, " pages of ", page, ")");
}

absl::Status CheckGrid(const TensorSpec& spec, const Device& d) {
  const CoreRangeSet& grid = spec.memory_config().nd_shard_spec->grid;
  for (const CoreRange& r : grid.ranges()) {
    if (r.end.x < d.grid_x && r.end.y < d.grid_y) continue;
    return Refused(rule::kDeviceGrid,
                   absl::StrCat("the grid ", grid.ToString(), " reaches core ",
                                CoreName(r.end), ", outside ", d.name, "'s ",
                                d.grid_x, "x", d.grid_y, " worker grid (0,0)-(",
                                d.grid_x - 1, ",", d.grid_y - 1, ")"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<FitReport> CheckFit(const TensorSpec& spec,
                                   const Device& device) {
  FitReport report;
  const int64_t bytes = spec.ConsumedBytesPerBank();
  if (spec.buffer_type() == BufferType::kL1) {
    if (spec.sharded()) {
      if (absl::Status s = CheckGrid(spec, device); !s.ok()) return s;
    }
    const std::string holds =
        Holds(spec, spec.sharded() ? "core" : "L1 bank (core)", bytes);
    const int64_t usable = device.l1_usable_per_core;
    if (bytes > usable) {
      return Refused(
          rule::kDeviceL1,
          absl::StrCat(holds, ", more than the ", usable, " bytes of its ",
                       device.l1_bytes_per_core, " bytes of L1 a ", device.name,
                       " core has for buffers"));
    }
    if (bytes > usable / 4 * 3) {
      report.warnings.push_back(absl::StrCat(
          "borderline: ", holds, ", ", bytes * 100 / usable, "% of the ",
          usable, " bytes of L1 a ", device.name,
          " core has for buffers; ops need L1 for circular buffers too"));
    }
    return report;
  }
  const std::string holds = Holds(spec, "DRAM bank", bytes);
  if (bytes > device.dram_bank_bytes) {
    return Refused(rule::kDeviceDram,
                   absl::StrCat(holds, ", more than a ", device.name,
                                " DRAM bank's ", device.dram_bank_bytes));
  }
  if (bytes > device.dram_bank_bytes / 4 * 3) {
    report.warnings.push_back(absl::StrCat(
        "borderline: ", holds, ", ", bytes * 100 / device.dram_bank_bytes,
        "% of a ", device.name, " DRAM bank"));
  }
  if (spec.sharded()) {
    const CoreRange box =
        spec.memory_config().nd_shard_spec->grid.BoundingBox();
    if (box.end.x >= device.dram_banks || box.end.y > 0) {
      report.warnings.push_back(
          absl::StrCat("a DRAM-sharded grid names DRAM banks, (0,0) to (",
                       device.dram_banks - 1, ",0) on a ", device.name,
                       "; this one reaches ", CoreName(box.end)));
    }
  }
  return report;
}

}  // namespace hlolayout::ttnn
