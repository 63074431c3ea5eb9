// views/buffer_assignment_text.h: XLA's two text dumps of a buffer
// assignment (memory/buffer_assignment.h), `hlolayout memory
// --format=xla-buffers` and `--format=xla-usage`: views of the memory answer
// in XLA's own dump formats (docs/memory.md, "XLA's buffer assignment
// files").
//
//   absl::StatusOr<ModuleMemory> m = AnalyzeModuleMemory(module, options);
//   XlaBufferAssignmentText(m->buffers);   // *-buffer-assignment.txt
//   XlaMemoryUsageReportText(m->buffers);  // *-memory-usage-report.txt
#ifndef HLOLAYOUT_VIEWS_BUFFER_ASSIGNMENT_TEXT_H_
#define HLOLAYOUT_VIEWS_BUFFER_ASSIGNMENT_TEXT_H_

#include <cstdint>
#include <string>

#include "hlolayout/memory/buffer_assignment.h"

namespace hlolayout {

// The text of XLA's `*-buffer-assignment.txt`: "BufferAssignment:", then
// every allocation and its values as BufferAllocation::ToString prints
// them.
std::string XlaBufferAssignmentText(const BufferAssignment& assignment);

// The text of XLA's `*-memory-usage-report.txt`.
std::string XlaMemoryUsageReportText(const BufferAssignment& assignment);

// XLA's HumanReadableNumBytes: "16B", "4.0KiB", "25.01MiB".
std::string HumanReadableNumBytes(int64_t bytes);

}  // namespace hlolayout

#endif  // HLOLAYOUT_VIEWS_BUFFER_ASSIGNMENT_TEXT_H_
