// fuzz/memory_fuzzer.cc: AnalyzeMemory on whatever ReadHloModules accepts,
// then XLA's dump text and the HTML curve of each analysis, with the
// invariants of memory/live_range.h checked, and the same analysis with its
// independent steps on two threads (the same answer or the same error),
// and on a module read again whose operand lists are given back as soon as
// the analysis says it has read them (GiveBackOperandLists); then the
// buffer assignment
// (memory/buffer_assignment.h) for GPU and CPU: every value inside its
// allocation, the memory_analysis() sums, XLA's two texts. The first byte's low
// bit puts an `is_scheduled=true` module line in front (most inputs would
// otherwise stop at the refusal of unscheduled modules).
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "hlolayout/fuzz/fuzz_util.h"
#include "hlolayout/hlo/give_back.h"
#include "hlolayout/hlo/reader.h"
#include "hlolayout/memory/buffer_assignment.h"
#include "hlolayout/memory/live_range.h"
#include "hlolayout/views/buffer_assignment_text.h"
#include "hlolayout/views/live_range_text.h"
#include "hlolayout/views/memory_html.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace hlolayout;
  using namespace hlolayout::fuzz;
  if (size < 1 || size > kMaxInputSize) return 0;
  std::string owned = (data[0] & 1) != 0
                          ? std::string("HloModule fz, is_scheduled=true\n")
                          : std::string();
  owned.append(reinterpret_cast<const char*>(data) + 1, size - 1);
  const absl::string_view text = owned;
  absl::StatusOr<std::vector<HloModule>> modules = ReadHloModules(text);
  CheckError(modules.status(), text);
  if (!modules.ok()) return 0;
  // The same modules again, for an analysis that gives their lists back.
  absl::StatusOr<std::vector<HloModule>> again = ReadHloModules(text);
  if (!again.ok() || again->size() != modules->size()) {
    Fail("the text read again gives other modules", text);
  }
  for (size_t m = 0; m < modules->size(); ++m) {
    const HloModule& module = (*modules)[m];
    absl::StatusOr<MemoryAnalysis> a = AnalyzeMemory(module);
    CheckError(a.status(), text);
    MemoryAnalysisOptions two;
    two.threads = 2;
    two.parallel_from = 0;  // whatever the module's size
    absl::StatusOr<MemoryAnalysis> b = AnalyzeMemory(module, two);
    if (a.ok() != b.ok() || (!a.ok() && a.status() != b.status())) {
      Fail("two threads give another answer", text);
    }
    MemoryAnalysisOptions giving = two;
    HloModule& own = (*again)[m];
    giving.operands_read = [&own](absl::Span<const int32_t> computations) {
      GiveBackOperandLists(&own, computations);
    };
    absl::StatusOr<MemoryAnalysis> c = AnalyzeMemory(own, giving);
    if (a.ok() != c.ok() || (!a.ok() && a.status() != c.status()) ||
        (a.ok() && XlaLiveRangeText(*a) != XlaLiveRangeText(*c))) {
      Fail("giving the operand lists back changes the answer", text);
    }
    if (!a.ok()) continue;
    const int64_t end = a->schedule_end;
    if (end != static_cast<int64_t>(a->instructions.size()) ||
        static_cast<int64_t>(a->curve.size()) != end) {
      Fail("schedule, instructions and curve disagree", text);
    }
    for (const ScheduledInstruction& in : a->instructions) {
      if (in.caller >= end) Fail("caller out of the schedule", text);
    }
    for (const LiveValue& v : a->values) {
      if (v.instruction < 0) continue;
      if (v.instruction >= end || v.start < 0 || v.start > v.end ||
          v.end > end || v.bytes() < 0) {
        Fail("live range out of the schedule", text,
             absl::StrCat(v.instruction, " ", v.start, "-", v.end));
      }
    }
    int64_t bytes = 0;
    for (int64_t id : a->peak.values) {
      const LiveValue& v = a->values[id];
      if (v.start > a->peak.time || a->peak.time > v.end) {
        Fail("a value listed at the peak is not live there", text);
      }
      bytes += v.bytes();
    }
    if (bytes != a->peak.bytes) Fail("peak bytes are not the sum", text);
    const std::string xla = XlaLiveRangeText(*a);
    if (xla != XlaLiveRangeText(*b) || a->curve != b->curve ||
        a->values.size() != b->values.size() ||
        a->peak.values != b->peak.values) {
      Fail("two threads give other live ranges", text);
    }
    if (xla.find("  Stack trace breakdown for peak usage: ") ==
        std::string::npos) {
      Fail("no stack trace section", text);
    }
    std::ostringstream html;
    RenderMemoryCurveHtml(*a, 0, 0, html);
    for (XlaPlatform platform : {XlaPlatform::kGpu, XlaPlatform::kCpu}) {
      BufferAssignmentOptions options;
      options.platform = platform;
      absl::StatusOr<ModuleMemory> m = AnalyzeModuleMemory(module, options);
      CheckError(m.status(), text);
      if (!m.ok()) continue;
      int64_t arguments = 0, outputs = 0, temp = 0;
      for (const BufferAllocation& alloc : m->buffers.allocations) {
        if (alloc.is_parameter) arguments += alloc.size;
        if (alloc.maybe_live_out) outputs += alloc.size;
        if (alloc.is_temp()) temp += alloc.size;
        for (const AssignedValue& v : alloc.values) {
          if (v.offset < 0 || v.offset + v.size > alloc.size ||
              v.size < v.bytes) {
            Fail("a value outside its allocation", text,
                 absl::StrCat(alloc.index, " ", v.offset, "+", v.size));
          }
        }
      }
      const XlaMemoryStats& s = m->buffers.stats;
      if (s.argument_size_in_bytes + s.host_argument_size_in_bytes !=
              arguments ||
          s.output_size_in_bytes + s.host_output_size_in_bytes != outputs ||
          s.temp_size_in_bytes + s.host_temp_size_in_bytes != temp ||
          s.peak_memory_in_bytes < m->buffers.static_bytes) {
        Fail("memory_analysis() figures do not add up", text);
      }
      if (XlaBufferAssignmentText(m->buffers).rfind("BufferAssignment:\n", 0) !=
          0) {
        Fail("no BufferAssignment header", text);
      }
      XlaMemoryUsageReportText(m->buffers);
      std::ostringstream page;
      RenderModuleMemoryHtml(*m, 5, 0, page);
    }
  }
  std::ostringstream sections;
  int index = 0;
  RenderMemorySectionsHtml(text, "f.hlo", 5, &index, sections);
  return 0;
}
