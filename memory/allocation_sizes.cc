#include "hlolayout/memory/allocation_sizes.h"

#include <algorithm>
#include <set>

#include "absl/strings/str_cat.h"

namespace hlolayout {
namespace {

int64_t RoundUp(int64_t bytes, int64_t alignment) {
  if (alignment <= 1) return bytes;
  const int64_t rest = bytes % alignment;
  return rest == 0 ? bytes : bytes + (alignment - rest);
}

SizingValue OfLiveValue(const MemoryAnalysis& a, int64_t value) {
  SizingValue s;
  const LiveValue& v = a.values[value];
  s.name = absl::StrCat(a.instructions[v.instruction].name(),
                        ShapeIndexString(v.index()));
  s.shape = v.shape();
  s.bytes = v.bytes();
  s.start = v.start;
  s.end = v.end;
  return s;
}

HeapPeakSizing HeapSizing(const ModuleMemory& m) {
  const BufferAssignment& b = m.buffers;
  const MemoryAnalysis& a = m.live_ranges;
  HeapPeakSizing h;
  h.allocation = b.temp_allocation();
  if (h.allocation < 0) return h;
  h.size = b.allocations[h.allocation].size;
  h.heap_size = b.heap_size;
  h.bytes = b.heap_peak;
  h.time = b.heap_peak_time;
  if (h.time >= 0 && h.time < static_cast<int64_t>(a.instructions.size())) {
    h.instruction = std::string(a.instructions[h.time].name());
  }
  std::set<int64_t> places;  // offsets of the places counted once
  for (int64_t k : b.heap_peak_blocks) {
    const HeapBlock& block = b.heap[k];
    SizingValue s = OfLiveValue(a, block.value);
    s.offset = block.offset;
    if (places.insert(block.offset).second) {
      h.alignment_bytes += RoundUp(block.size, b.alignment) - block.size;
    }
    h.values.push_back(std::move(s));
  }
  std::stable_sort(h.values.begin(), h.values.end(),
                   [](const SizingValue& x, const SizingValue& y) {
                     if (x.bytes != y.bytes) return x.bytes > y.bytes;
                     return x.offset < y.offset;
                   });
  return h;
}

OwnAllocationSizing OwnSizing(const BufferAllocation& x) {
  OwnAllocationSizing o;
  o.allocation = x.index;
  o.size = x.size;
  for (const AssignedValue& v : x.values) {
    if (v.size != x.size) continue;
    SizingValue s;
    s.name = absl::StrCat(v.name, ShapeIndexString(v.index));
    s.shape = v.shape;
    s.bytes = v.bytes;
    s.offset = v.offset;
    s.start = v.start;
    s.end = v.end;
    o.values.push_back(std::move(s));
  }
  return o;
}

}  // namespace

AllocationSizes ExplainAllocationSizes(const ModuleMemory& memory) {
  const BufferAssignment& b = memory.buffers;
  AllocationSizes out;
  out.alignment = b.alignment;
  out.heap = HeapSizing(memory);
  for (const BufferAllocation& x : b.allocations) {
    out.rounding_bytes += RoundUp(x.size, b.alignment) - x.size;
    if (x.index == out.heap.allocation || x.values.empty()) continue;
    out.own.push_back(OwnSizing(x));
  }
  std::stable_sort(
      out.own.begin(), out.own.end(),
      [](const OwnAllocationSizing& x, const OwnAllocationSizing& y) {
        return x.size > y.size;
      });
  return out;
}

}  // namespace hlolayout
