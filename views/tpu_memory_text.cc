// views/tpu_memory_text.cc: the text of memory/tpu_memory.h's answer.
#include "hlolayout/views/tpu_memory_text.h"

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "hlolayout/memory/tpu_memory.h"
#include "hlolayout/util/bytes.h"

namespace hlolayout {
namespace {

std::string Plural(int64_t n, absl::string_view one, absl::string_view many) {
  return absl::StrCat(n, " ", n == 1 ? one : many);
}

std::string ChipLine(const TpuMemory& t) {
  std::string out = "XLA:TPU";
  if (t.chip.has_value()) {
    absl::StrAppend(&out, " ", *t.chip, " (from ", t.chip_from, ")");
  } else {
    absl::StrAppend(&out,
                    ", chip not known (XLA:TPU names it in the "
                    "*.target_arguments.txt it writes beside the module; "
                    "--tpu=v4|v5e|v5p|v6e says it)");
  }
  if (t.devices > 1) {
    absl::StrAppend(&out, ", ", t.devices,
                    " devices (SPMD): every figure is one device's\n");
  } else {
    absl::StrAppend(&out, ", 1 device\n");
  }
  return out;
}

// A limit as XLA:TPU's out-of-memory message prints it: two decimals of a
// GiB ("15.75 GiB").
std::string GibText(int64_t bytes) {
  return absl::StrFormat("%.2f GiB", static_cast<double>(bytes) /
                                         static_cast<double>(int64_t{1} << 30));
}

// "fits the 15.75 GiB XLA:TPU lets a program take on a v5e: ... left".
std::string FitText(const TpuMemory& t) {
  if (t.fits.has_value()) {
    return absl::StrCat(*t.fits ? "fits" : "does NOT fit", " the ",
                        GibText(*t.hbm_limit_bytes),
                        " XLA:TPU lets a program take on a ", *t.chip, ": ",
                        *t.fits ? BytesWithUnit(*t.hbm_left_bytes)
                                : BytesWithUnit(-*t.hbm_left_bytes),
                        *t.fits ? " left" : " over");
  }
  if (t.fits_on.empty()) {
    return "fits what XLA:TPU lets a program take on none of v4, v5e, v5p "
           "and v6e";
  }
  if (t.fits_on.size() == TpuChips().size()) {
    return "fits what XLA:TPU lets a program take on each of v4, v5e, v5p "
           "and v6e";
  }
  return absl::StrCat("fits what XLA:TPU lets a program take on ",
                      absl::StrJoin(t.fits_on, ", "), " only");
}

std::string SpaceLine(const TpuMemory& t, const TpuMemorySpace& s) {
  std::string out =
      absl::StrCat(s.title,
                   s.memory_space <= 2 || s.memory_space == 5
                       ? absl::StrCat(" (S(", s.memory_space, "), XLA:TPU's \"")
                       : " (XLA:TPU's \"",
                   s.xla_name, "\"): ", BytesWithUnit(s.allocated_bytes),
                   " in ", Plural(s.allocations, "allocation", "allocations"));
  if (s.memory_space == 0) {
    absl::StrAppend(&out, " (parameters ", s.parameter_bytes, ", outputs ",
                    s.output_bytes, ", temp ", s.temp_bytes,
                    ", thread-local and constants ", s.other_bytes, "); ",
                    FitText(t));
  } else if (s.memory_space == 1 && s.capacity_bytes.has_value()) {
    absl::StrAppend(&out, ", of ", ShortBytes(*s.capacity_bytes),
                    " per TensorCore on a ", *t.chip, ": ",
                    *s.left_bytes >= 0
                        ? absl::StrCat(BytesWithUnit(*s.left_bytes), " left")
                        : absl::StrCat(BytesWithUnit(-*s.left_bytes), " over"));
  }
  return out + "\n";
}

std::string PeaksLine(const TpuMemory& t) {
  std::vector<std::string> parts;
  for (const TpuMemorySpace& s : t.spaces) {
    if (!s.live_range_peak_bytes.has_value()) continue;
    parts.push_back(absl::StrCat(s.title, " ",
                                 BytesWithUnit(*s.live_range_peak_bytes),
                                 " at time ", *s.live_range_peak_time));
  }
  if (parts.empty()) return "";
  return absl::StrCat(
      "live-range peaks, per memory space (HloLiveRange: the values live at "
      "once, values sharing a buffer each counted; not allocations): ",
      absl::StrJoin(parts, "; "), "\n");
}

std::string HeapText(const TpuHeapPeak& h) {
  std::string out = absl::StrCat(
      "HBM heap at its peak: ", BytesWithUnit(h.bytes), " at time ", h.time,
      h.instruction.empty() ? "" : absl::StrCat(" (", h.instruction, ")"), ", ",
      Plural(h.value_count, "value", "values"), " (the heap's layout ",
      BytesWithUnit(h.heap_bytes), ", allocation ", h.allocation, "):\n");
  for (const TpuHeapValue& v : h.values) {
    absl::StrAppend(&out, "    ", v.name, "  ", v.shape, "  ", v.bytes,
                    " B  offset ", v.offset, "  live ", v.start, "-", v.end);
    if (!v.op_name.empty()) absl::StrAppend(&out, "  ", v.op_name);
    if (!v.source.empty()) absl::StrAppend(&out, "  ", v.source);
    out += "\n";
  }
  if (h.value_count > static_cast<int64_t>(h.values.size())) {
    absl::StrAppend(&out, "    ... ",
                    h.value_count - static_cast<int64_t>(h.values.size()),
                    " more\n");
  }
  return out;
}

std::string PaddingText(const TpuPadding& p) {
  std::string out =
      p.heap_bytes.has_value()
          ? absl::StrCat("tile padding in HBM at the heap's peak: ",
                         BytesWithUnit(p.bytes),
                         " (in allocations of their own ",
                         BytesWithUnit(p.own_bytes), ", in the heap's values ",
                         BytesWithUnit(*p.heap_bytes), "); ")
          : absl::StrCat("tile padding in HBM allocations of their own: ",
                         BytesWithUnit(p.own_bytes),
                         " (the heap's values at its peak: not known); ");
  absl::StrAppend(&out, Plural(p.arrays, "array pads", "arrays pad"),
                  " in HBM\n");
  if (!p.by_bytes.empty()) {
    out += "  most padding:\n";
    for (const TpuPaddedArray& a : p.by_bytes) {
      absl::StrAppend(&out, "    ", TpuPaddedArrayText(a), "\n");
    }
  }
  if (!p.by_ratio.empty()) {
    absl::StrAppend(&out, "  highest ratio (arrays padding ",
                    ShortBytes(p.ratio_floor_bytes), " or more):\n");
    for (const TpuPaddedArray& a : p.by_ratio) {
      absl::StrAppend(&out, "    ", TpuPaddedArrayText(a), "\n");
    }
  }
  return out;
}

}  // namespace

std::string TpuPaddedArrayText(const TpuPaddedArray& p) {
  std::string out = absl::StrFormat(
      "%s  %s  %d B for %d (%.2fx, %d B padding)  allocation %d (%s)", p.name,
      p.shape, p.bytes, p.logical_bytes, p.ratio, p.padding_bytes, p.allocation,
      p.kind);
  if (p.values > 1) absl::StrAppend(&out, ", ", p.values, " values");
  if (!p.op_name.empty()) absl::StrAppend(&out, "  ", p.op_name);
  if (!p.source.empty()) absl::StrAppend(&out, "  ", p.source);
  if (p.cheaper_layout.has_value()) {
    absl::StrAppend(&out, "; ", *p.cheaper_layout, " would take ",
                    *p.cheaper_bytes, " B");
  }
  return out;
}

std::string TpuMemoryText(const TpuMemory& t) {
  std::string out = ChipLine(t);
  absl::StrAppend(&out, "figures: ", t.figures_from, "\n");
  bool hbm = false;
  for (const TpuMemorySpace& s : t.spaces) {
    hbm = hbm || s.memory_space == 0;
    out += SpaceLine(t, s);
  }
  if (!hbm)
    absl::StrAppend(&out, "HBM (S(0)): nothing allocated; ", FitText(t), "\n");
  out += PeaksLine(t);
  if (t.heap_peak.has_value()) out += HeapText(*t.heap_peak);
  out += PaddingText(t.padding);
  return out;
}

}  // namespace hlolayout
