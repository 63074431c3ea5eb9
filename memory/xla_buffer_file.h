// memory/xla_buffer_file.h: XLA's own `*-buffer-assignment.txt`, read back
// into the BufferAssignment the model writes (memory/buffer_assignment.h),
// so that what XLA allocated can be shown as `hlolayout memory` shows the
// model's answer.
//
//   module_0316.jit_step.cl_933746096.after_optimizations-buffer-assignment.txt:
//     BufferAssignment:
//     allocation 0: size 512, thread-local:
//      value: <2 reduce_max.5 @0> (size=512,offset=0): f32[]{:T(128)}
//     allocation 2: size 32768, parameter 1, shape |f32[64,128]| at ...
//     allocation 34: size 94720, color 1, preallocated-temp:
//      value: <266 copy-start.5{0} @1> (size=512,offset=94208): f32[128]{...}
//
//   absl::StatusOr<std::unique_ptr<const XlaBufferFile>> f =
//       ReadXlaBufferAssignment(std::move(text), path);
//   (*f)->assignment.allocations[34].color   // 1 (VMEM on XLA:TPU)
//   (*f)->assignment.stats.argument_size_in_bytes  // the parameters' bytes
//
// What the file says and what it does not: every allocation (index, size,
// color, kind, the entry parameter and its shape, the output shape) and
// every value placed in it (XLA's id, instruction, shape index, shape, slot
// size and offset). It does not say when values are live (no heap peak, no
// live ranges), what a value's own size is beside its slot, nor whether a
// parameter is aliased with an output: a parameter allocation that is also
// maybe-live-out is taken as aliased (XLA makes a parameter's allocation
// live out only when an output is written into it; checked on the
// repository's XLA:GPU and XLA:TPU files against memory_analysis()).
// `stats` holds the argument, output, alias and temp sums of the
// allocations as XLA's PopulateBufferStatsFromAllocations makes them; its
// peak is 0 (not known from this file).
//
// Errors (located, with the line and a caret): a text that is not such a
// file, a line that is neither an allocation nor a value, numbers out of
// range, allocations out of order, a value outside its allocation or of
// another color, shapes that do not parse. Later sections some XLA
// versions add ("Total bytes used:", "Used values:", ...) end the reading.
#ifndef HLOLAYOUT_MEMORY_XLA_BUFFER_FILE_H_
#define HLOLAYOUT_MEMORY_XLA_BUFFER_FILE_H_

#include <deque>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "hlolayout/memory/buffer_assignment.h"
#include "hlolayout/shape/shape.h"

namespace hlolayout {

struct XlaBufferFile {
  std::string file_name;
  std::string text;          // the file; names point into it
  std::deque<Shape> shapes;  // the shapes the assignment points to
  BufferAssignment assignment;
  int64_t values = 0;  // value lines read
  // A value's layout has tiles (T(...)): XLA:TPU writes them, XLA:GPU and
  // XLA:CPU do not.
  bool tiled = false;
  // A value lives in memory space S(3) (XLA:TPU uses it on v4 only).
  bool uses_s3 = false;

  XlaBufferFile() = default;
  XlaBufferFile(const XlaBufferFile&) = delete;
  XlaBufferFile& operator=(const XlaBufferFile&) = delete;
};

// Whether `text` starts as XLA's buffer-assignment file does (its first
// line is "BufferAssignment:").
bool IsXlaBufferAssignmentText(absl::string_view text);

// Reads the file's text (`file_name` names it in errors). The answer owns
// the text: every view and shape pointer of its assignment points into it.
absl::StatusOr<std::unique_ptr<const XlaBufferFile>> ReadXlaBufferAssignment(
    std::string text, absl::string_view file_name);

}  // namespace hlolayout

#endif  // HLOLAYOUT_MEMORY_XLA_BUFFER_FILE_H_
