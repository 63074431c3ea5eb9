#include "hlolayout/views/allocation_text.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace hlolayout {

std::string XlaAllocationText(const ModuleMemory& memory,
                              absl::string_view indent) {
  const MemoryAnalysis& a = memory.live_ranges;
  const BufferAssignment& b = memory.buffers;
  const XlaMemoryStats& s = b.stats;
  std::string out = absl::StrCat(
      indent, XlaPlatformTitle(b.platform), " will allocate ",
      BytesWithUnit(s.allocated_bytes()), "\n", indent, "  = arguments ",
      BytesWithUnit(s.argument_size_in_bytes), "\n", indent, "  + temp ",
      BytesWithUnit(s.temp_size_in_bytes), "\n", indent, "  + outputs ",
      BytesWithUnit(s.output_size_in_bytes), "\n", indent, "  - aliases ",
      BytesWithUnit(s.alias_size_in_bytes), "\n");
  absl::StrAppend(&out, indent,
                  "compiled.memory_analysis(): argument_size_in_bytes=",
                  s.argument_size_in_bytes,
                  " output_size_in_bytes=", s.output_size_in_bytes,
                  " alias_size_in_bytes=", s.alias_size_in_bytes,
                  " temp_size_in_bytes=", s.temp_size_in_bytes,
                  " peak_memory_in_bytes=", s.peak_memory_in_bytes, "\n");
  absl::StrAppend(&out, indent, "  peak_memory_in_bytes ",
                  BytesWithUnit(s.peak_memory_in_bytes),
                  ": what is always allocated (parameters, constants, "
                  "outputs) ",
                  BytesWithUnit(b.static_bytes));
  if (b.platform == XlaPlatform::kGpu) {
    absl::StrAppend(&out, " + the most the heap holds at once ",
                    BytesWithUnit(b.heap_peak));
  } else {
    out += " (XLA:CPU does not count its temps here)";
  }
  absl::StrAppend(&out, "\n", indent,
                  "live-range peak beside it (HloLiveRange: the bytes of the "
                  "values live at its peak moment, values sharing a buffer "
                  "counted each; not an allocation): ",
                  BytesWithUnit(a.peak.bytes), " at time ", a.peak.time, "\n");
  int64_t parameters = 0, live_out = 0, constants = 0, locals = 0;
  int64_t temp_values = 0;
  for (const BufferAllocation& x : b.allocations) {
    if (x.is_parameter) ++parameters;
    if (x.maybe_live_out) ++live_out;
    if (x.is_constant) ++constants;
    if (x.is_thread_local) ++locals;
    if (x.is_temp()) temp_values += static_cast<int64_t>(x.values.size());
  }
  absl::StrAppend(&out, indent, "allocations: ", b.allocations.size(), " (",
                  parameters, " parameter, ", live_out, " live-out, ",
                  constants, " constant, ", locals, " thread-local");
  if (b.temp_allocation() >= 0) {
    absl::StrAppend(&out, ", the temp allocation: ", temp_values, " values in ",
                    BytesWithUnit(b.allocations[b.temp_allocation()].size));
  }
  out += ")\n";
  return out;
}

namespace {

std::string ValueLine(const SizingValue& v, bool offset) {
  std::string line = absl::StrCat(
      v.name, "  ", v.shape != nullptr ? v.shape->ToString(true) : "", "  ",
      v.bytes, " B");
  if (offset) absl::StrAppend(&line, "  offset ", v.offset);
  if (v.start >= 0) absl::StrAppend(&line, "  live ", v.start, "-", v.end);
  return line;
}

}  // namespace

std::string AllocationSizesText(const AllocationSizes& sizes, int64_t top,
                                absl::string_view indent) {
  std::string out = absl::StrCat(indent, "what sets each allocation's size:\n");
  const HeapPeakSizing& h = sizes.heap;
  if (h.allocation >= 0) {
    absl::StrAppend(&out, indent, "  temp allocation ", h.allocation, ", ",
                    BytesWithUnit(h.size), ": the heap's layout of ",
                    BytesWithUnit(h.heap_size));
    if (h.size > h.heap_size) {
      absl::StrAppend(&out, " after ", BytesWithUnit(h.size - h.heap_size),
                      " of tuple tables");
    }
    absl::StrAppend(&out,
                    "; the most it holds at one step (what "
                    "memory_analysis() counts), ",
                    BytesWithUnit(h.bytes), ", at time ", h.time);
    if (!h.instruction.empty()) absl::StrAppend(&out, " (", h.instruction, ")");
    absl::StrAppend(&out, ", in ", h.values.size(), " values:\n");
    int64_t shown = 0;
    for (const SizingValue& v : h.values) {
      if (top > 0 && shown++ >= top) {
        absl::StrAppend(&out, indent, "    ... ",
                        static_cast<int64_t>(h.values.size()) - top, " more\n");
        break;
      }
      absl::StrAppend(&out, indent, "    ", ValueLine(v, true), "\n");
    }
    absl::StrAppend(&out, indent, "    the layout leaves ",
                    BytesWithUnit(h.heap_size - h.bytes),
                    " beyond that step's values (packing gaps and "
                    "alignment); aligning those values' places to ",
                    sizes.alignment, " bytes adds ",
                    BytesWithUnit(h.alignment_bytes), "\n");
  }
  if (!sizes.own.empty()) {
    absl::StrAppend(&out, indent,
                    "  allocations of their own, largest first, each as "
                    "large as its largest value:\n");
    int64_t shown = 0;
    for (const OwnAllocationSizing& o : sizes.own) {
      if (top > 0 && shown++ >= top) {
        absl::StrAppend(&out, indent, "    ... ",
                        static_cast<int64_t>(sizes.own.size()) - top,
                        " more\n");
        break;
      }
      absl::StrAppend(&out, indent, "    allocation ", o.allocation, ", ",
                      BytesWithUnit(o.size), ":");
      for (size_t k = 0; k < o.values.size(); ++k) {
        absl::StrAppend(&out, k == 0 ? " " : "; ",
                        ValueLine(o.values[k], false));
      }
      out += "\n";
    }
  }
  absl::StrAppend(&out, indent, "  rounding each allocation up to ",
                  sizes.alignment, " bytes adds ",
                  BytesWithUnit(sizes.rounding_bytes), "\n");
  return out;
}

std::string TpuAllocationText(const MemoryAnalysis& live_ranges,
                              absl::string_view indent) {
  return absl::StrCat(
      indent,
      "what XLA will allocate: not modelled for XLA:TPU (its buffer "
      "assignment has memory spaces and heap rules of its own; `hlolayout "
      "memory FILE` gives the model of it: each memory space as XLA:TPU "
      "names it and whether the program fits the chip)\n",
      indent,
      "live-range peak (HloLiveRange: the bytes of the values live at its "
      "peak moment, values sharing a buffer counted each; not an "
      "allocation): ",
      BytesWithUnit(live_ranges.peak.bytes), " at time ", live_ranges.peak.time,
      "\n");
}

}  // namespace hlolayout
